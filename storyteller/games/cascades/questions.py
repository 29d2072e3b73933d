"""Cascades' journaling questions: which role each card takes (the source where the water
rises, a card the stock turns up, a card placed on a fall, a hidden pool opening, a card
surfacing as a pool drains) and the turning points (a new pass, a fall complete).

How often they come: the source; every card the pools give up; the first card of the second
and of the third fall, and each fall completed; and each new pass, the card it turns up
first; and twice at most, once no pool is left to open, the pass itself (the fifth and the
eighth). About fifteen a game: the water's journey, not every card it carries.

A question that reaches back names an earlier card where the table shows it now (:meth:`still`):
the source at the head of the first fall, a card in the fall it went down, a card still lying in
its pool, a card of the first pass still going round with the water (not yet down a fall). A card
that left a pool for a fall is named in that fall, never in the pool; an echo's words say where
it is through ``{earlier_fall}`` and ``{earlier_pool}`` (:meth:`echo_words`). The three falls and
the three pools ask the same frames: an echo, a moment's question or a composed question's lead
or ask is asked once a game, whichever fall or pool it came with."""

from __future__ import annotations

from storyteller.core.engine import State
from storyteller.games.cascades.rules import CascadesState, Play, Turn, place_of, reserve_draw
from storyteller.log.replay import Step
from storyteller.play.questions import Game, Occasion, Questions, Role


def _cascades(state: State | None) -> CascadesState:
    """A step's state, as this game's (every state a Cascades step holds is one)."""
    assert isinstance(state, CascadesState)
    return state

POOLS = ("reserve-opened", "reserve")  # a card lying in a pool: the first it showed, or one surfacing later
POOL_PASSES = 4  # reserves open after passes 1, 2 and 3: passes 2 to 4 each begin beside a new pool
PASS_MOMENTS = (5, 8)  # the passes after those that ask what the circling water means


class CascadesQuestions(Questions):
    def facts(self, step: Step, game: Game) -> list[Role]:
        e = step.drawn
        if e is not None:
            where, _ = place_of(e.to)
            if where == "tier":
                return [Role("source", e.card)]
            found = reserve_draw(e.to, e.slot)
            if found:
                pool, opened = found
                return [Role("reserve-opened" if opened else "reserve", e.card, str(pool))]
            return [Role("stock", e.card)]
        if isinstance(step.move, Play):
            return [Role("tier", step.move.card, str(step.move.tier))]
        return []

    def occasion(self, step: Step, game: Game) -> Occasion | None:
        if step.drawn is not None:
            role = self.facts(step, game)[0]
            if role.role == "stock":
                return None  # the first pass turns every card up: the falls and pools tell the journey
            return Occasion(role, key=role.role != "reserve")
        if step.move is None or step.before is None:
            return None
        before, after, move = _cascades(step.before), _cascades(step.after), step.move
        if isinstance(move, Play):
            t = move.tier
            if not after.lacks(t) and before.lacks(t):
                return Occasion(Role("@tier-complete", "*", str(t)))
            if t > 1 and not before.tiers[t - 1]:
                return Occasion(Role("tier", move.card, str(t)))
            return None
        if isinstance(move, Turn) and after.pass_no > before.pass_no and after.pass_no > 1:
            if after.pass_no > POOL_PASSES:
                return Occasion(Role("@pass"), key=False) if after.pass_no in PASS_MOMENTS else None
            if after.waste:
                return Occasion(Role("stock", after.waste[-1]), key=False)
        return None

    def placeholders(self, role: Role) -> dict[str, str]:
        p = self.registration.prompt_data
        if role.param in ("1", "2", "3") and role.role in ("tier", "@tier-complete"):
            return {"fall": p["falls"][int(role.param) - 1]}
        if role.param in ("1", "2", "3") and role.role in POOLS:
            return {"pool": p["pools"][role.param]}
        return {}  # (an id with no such fall or pool, from a log edited by hand, is no question of the game)

    # -- reaching back -----------------------------------------------------------------------

    def still(self, earlier: Role, game: Game) -> bool:
        """Whether the table shows the card where ``earlier`` put it: the source at the head
        of the first fall, a card in its fall, a card on top of its pool (a card is turned up
        only on top, and leaves only for a fall), a card of the first pass still going round
        in the stock or the waste."""
        if game.state is None:  # no table to read (a bank read on its own): nothing contradicts it
            return True
        state = _cascades(game.state)
        card, param = earlier.card, earlier.param
        if earlier.role == "source":
            return bool(state.tiers[0]) and state.tiers[0][0] == card
        if earlier.role == "tier":
            return param in ("1", "2", "3") and card in state.tiers[int(param) - 1]
        if earlier.role in POOLS:
            return param in ("1", "2", "3") and state.reserve_top(int(param)) == card
        if earlier.role == "stock":
            return card in state.waste or card in state.stock
        return False

    def echo_words(self, earlier: Role) -> dict[str, str]:
        """Where an echo's earlier card lies: ``{earlier_fall}`` (the source's or a fall's
        card) and ``{earlier_pool}`` (a pool's card)."""
        p = self.registration.prompt_data
        if earlier.role == "source":
            return {"earlier_fall": p["falls"][0]}
        if earlier.role == "tier":
            fall = p["falls"][int(earlier.param) - 1] if earlier.param in ("1", "2", "3") else "the falls"
            return {"earlier_fall": fall}
        if earlier.role in POOLS:
            return {"earlier_pool": p["pools"].get(earlier.param, "a hidden pool")}
        return {}

    # -- the same frame once a game, whatever the fall or pool ---------------------------------

    def echo_ids(self, role: Role, game: Game, live: bool = True) -> list[str]:
        """The base's echoes, less those whose frame this game asked with another fall or
        pool (the base counts ``tier.2:e:3`` and ``tier.3:e:3`` apart)."""
        ids = super().echo_ids(role, game, live)
        if not live:
            return ids
        used = {_plain(f.split(":")[0]) + ":" + f.rsplit(":", 1)[1] for f in game.frames}  # ROLE.P:e:I
        return [q for q in ids if f"{role.role}:{q.split(':')[3]}" not in used]

    def candidates(self, occasion: Occasion, game: Game, live: bool = True) -> tuple[list[str], list[str], list[str]]:
        """The base's candidates; when asking, less a fall's moment already asked this game
        of another fall, and less a composed question whose lead or ask this game already
        used (with another card, fall or pool)."""
        written, composed, echoes = super().candidates(occasion, game, live)
        if not live or not game.asked:
            return written, composed, echoes
        role = occasion.role.role
        asked = [q.split(":") for q in game.asked]
        if role.startswith("@"):  # ROLE:*:I
            used = {parts[2] for parts in asked if len(parts) == 3 and _plain(parts[0]) == role}
            written = [q for q in written if q.split(":")[2] not in used]
        # ROLE:CARD:c:SUIT:I:RANK:J, a lead (SUIT, I) and an ask (RANK, J)
        pieces = {(_plain(p[0]), piece) for p in asked if len(p) == 7 and p[2] == "c" for piece in _pieces(p)}
        composed = [q for q in composed if not {(role, piece) for piece in _pieces(q.split(":"))} & pieces]
        return written, composed, echoes


def _plain(key: str) -> str:
    """A role's key without its fall or pool: ``tier.2`` -> ``tier``."""
    return key.partition(".")[0]


def _pieces(parts: list[str]) -> tuple[str, str]:
    """A composed question's lead and ask, from its id's parts."""
    return f"lead:{parts[3]}:{parts[4]}", f"ask:{parts[5]}:{parts[6]}"

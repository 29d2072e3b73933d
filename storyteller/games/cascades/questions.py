"""Cascades' journaling questions: which role each card takes (the source where the water
rises, a card the stock turns up, a card placed on a fall, a hidden pool opening, a card
surfacing as a pool drains) and the turning points (a new pass, a fall complete).

How often they come: the source; every card the pools give up; the first card of the second
and of the third fall, and each fall completed; and each new pass, the card it turns up
first; and twice at most, once no pool is left to open, the pass itself (the fifth and the
eighth). About fifteen a game: the water's journey, not every card it carries."""

from __future__ import annotations

from storyteller.core.engine import State
from storyteller.games.cascades.rules import CascadesState, Play, Turn, place_of, reserve_draw
from storyteller.log.replay import Step
from storyteller.play.questions import Game, Occasion, Questions, Role


def _cascades(state: State | None) -> CascadesState:
    """A step's state, as this game's (every state a Cascades step holds is one)."""
    assert isinstance(state, CascadesState)
    return state

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
        if role.param and role.role in ("tier", "@tier-complete"):
            return {"fall": p["falls"][int(role.param) - 1]}
        if role.param and role.role in ("reserve-opened", "reserve"):
            return {"pool": p["pools"][role.param]}
        return {}

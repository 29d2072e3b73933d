"""Hexaract's journaling questions: which role each card takes on the road (a minion, a place
or an event arriving, thwarted, surveyed or turned, doing harm; an Ace setting you out or
won with a Crown) and the turning points (a roll of three sixes or more, a roll that gives
nothing, harm at seven).

How often they come: at nightfall, about the day's strongest moment as the day and the
consequences of inaction told it, when the day had one. In order:

1. a piece of the artifact won today from a Crown (an ace reward), kept through the night;
   if the night took a token of that suit, the event that took it instead;
2. a Crown thwarted, turned or surveyed;
3. a card that hurt you tonight for the first time (the greatest);
4. a card of rank 6 or more thwarted, turned or surveyed (the greatest);
5. an event that took a token from your supply tonight for the first time (one that found
   none to take did nothing: it is not asked about);
6. a Crown that came onto the road today and is still on it.

Besides, the first Ace and the rolls of note (not the first day's: the start's question
follows it, and you have not set out yet); harm at seven asks before all of these. About
fifteen a game instead of the thirty-odd a question at every card would make: the road is
long, and a journal entry on the days that mattered is its rhythm.

An earlier card is named (an echo) only as the table shows it now (:meth:`still`): a card
arriving, only while it is still on the road; a piece of the artifact, only while a token of
its suit is in your supply; an event that reached into your pack, only if it took a token;
what you thwarted, turned or surveyed and what hurt you, always (it happened)."""

from __future__ import annotations

from dataclasses import dataclass

from storyteller.core.cards import all_cards
from storyteller.core.engine import State
from storyteller.games.hexaract.rules import (
    ACE_TOKEN, HARM_LIMIT, Assign, Done, HexaractState, Pay, Spend, ace_suit, kind_of, place_of,
)
from storyteller.games.hexaract.story import piece, set_off
from storyteller.log.replay import Step
from storyteller.play.questions import Game, Occasion, Questions, Role


def _hexaract(state: State | None) -> HexaractState:
    """A step's state, as this game's (every state a Hexaract step holds is one)."""
    assert isinstance(state, HexaractState)
    return state

HIGH_HARM = HARM_LIMIT - 3  # three more and the road ends
RESOLVED = {"personality": "thwarted", "event": "turned", "location": "surveyed"}
PRIORITY = ("ace-reward", "thwarted", "turned", "surveyed", "harm", "arrival")  # the rule before issue 27 (_older)
GREAT = 6  # the rank from which a card resolved is the day's moment
QUIET = Role("@quiet")  # a night with nothing to ask about (a moment with no questions)


def _rank(card: str) -> int:
    return all_cards()[card].value or 0


def _crown(card: str) -> bool:
    return all_cards()[card].rank == "Crown"


def _kind(role: Role) -> str:
    """What a role says happened: "arrival", "harm", "thwarted"..., or "ace-reward"."""
    return "ace-reward" if role.role == "ace-reward" else role.role.rsplit("-", 1)[-1]


@dataclass(frozen=True)
class Changed(Occasion):
    """An occasion where the rule before issue 27 chose another (``older``, or none): a
    question a log it wrote asked about that one still reads as asked there."""

    older: Role | None = None


def _older(today: list[Role], after: HexaractState, harmed: set[str]) -> Role | None:
    """The day's moment as storyteller chose it before the night's question followed the
    consequences (kept to read the logs it wrote): an ace reward; else the greatest card
    resolved, if a Crown or of rank 6 or more; else the greatest card that hurt you for the
    first time (an event reaching for a token counted, whether or not it found one); else
    the greatest Crown that came onto the road that day and is still on it."""
    best = None
    for role in today:
        kind = _kind(role)
        if kind not in PRIORITY or (kind == "harm" and role.card in harmed):
            continue
        if kind in RESOLVED.values() and _rank(role.card) < GREAT:
            continue
        if kind == "arrival" and (not _crown(role.card) or role.card not in after.journey):
            continue
        rank = (PRIORITY.index(kind), -_rank(role.card))
        if best is None or rank < best[0]:
            best = (rank, role)
    return None if best is None else best[1]


def _strongest(today: list[Role], after: HexaractState, harmed: set[str], robbed: set[str]) -> Role | None:
    """The day's strongest moment as the day and the night's consequences told it (see the
    module's words). ``harmed``: the cards that hurt you before tonight; ``robbed``: the
    events that took a token before tonight."""
    lost = {c.card: c.suit for c in after.consequences if c.kind == "token lost"}
    hurt = {c.card for c in after.consequences if c.kind == "harm"}
    rewarded = {ace_suit(r.card) for r in today if r.role == "ace-reward"}
    best = None
    for role in today:
        kind, card = _kind(role), role.card
        if kind == "ace-reward":
            if ace_suit(card) in lost.values():
                continue  # the night took a piece of that suit back: the event that took it is the moment
            order = 0
        elif kind in RESOLVED.values():
            if _crown(card):
                order = 1
            elif _rank(card) >= GREAT:
                order = 3
            else:
                continue
        elif kind == "harm" and role.role == "event-harm":
            if card not in lost:
                continue  # it found no token to take: nothing happened
            if lost[card] in rewarded:
                order = 0  # the piece won today, taken back tonight
            elif card in robbed:
                continue
            else:
                order = 4
        elif kind == "harm":
            if card in harmed or card not in hurt:
                continue
            order = 2
        elif kind == "arrival":
            if not _crown(card) or card not in after.journey:
                continue
            order = 5
        else:
            continue
        rank = (order, -_rank(card))
        if best is None or rank < best[0]:
            best = (rank, role)
    return None if best is None else best[1]


class HexaractQuestions(Questions):
    def facts(self, step: Step, game: Game) -> list[Role]:
        e = step.drawn
        if e is not None:
            if e.to == ACE_TOKEN:
                return [Role("ace-start", e.card)]
            if place_of(e.to) is not None:
                return [Role(f"{kind_of(e.card)}-arrival", e.card)]
            return []
        if step.move is None or step.before is None:
            return []
        before, after, move = _hexaract(step.before), _hexaract(step.after), step.move
        out = []
        if isinstance(move, (Assign, Spend)):
            if move.card in before.journey and move.card not in after.journey:
                kind = kind_of(move.card)
                out.append(Role(f"{kind}-{RESOLVED[kind]}", move.card))
            if move.ace_won:
                out.append(Role("ace-reward", move.ace_won))
        elif isinstance(move, (Done, Pay)):
            took = game.notes.setdefault("took", set())  # (step, event) where an event took a token
            for c in set_off(before, move, after):
                if c.kind == "harm":
                    out.append(Role(f"{kind_of(c.card)}-harm", c.card))
                elif c.kind in ("token lost", "no token"):
                    out.append(Role("event-harm", c.card))
                    if c.kind == "token lost":
                        took.add((step.n, c.card))
        return out

    def occasion(self, step: Step, game: Game) -> Occasion | None:
        e = step.drawn
        if e is not None:
            if e.to == ACE_TOKEN:
                return Occasion(Role("ace-start", e.card)) if e.slot == 0 else None
            return None  # a card coming onto the road is told; the night asks about the day
        rolled = step.rolled
        if rolled is not None:
            roll = None
            if list(rolled.dice).count(6) >= 3:
                roll = Occasion(Role("@roll-best"))
            elif not any(isinstance(a.move, Assign) for a in step.after.legal_actions()):
                roll = Occasion(Role("@roll-worst"), key=False)
            if roll is not None and rolled.index == 0:  # the start's question follows: you have not set out yet
                return Changed(QUIET, key=False, older=roll.role)
            return roll
        if not isinstance(step.move, (Done, Pay)):
            return None
        after = _hexaract(step.after)
        if after.phase == "pay" or after.outcome is not None:
            return None  # the night is not over yet, or the road is (the last word follows)
        harmed = game.notes.setdefault("harmed", set())
        robbed = game.notes.setdefault("robbed", set())
        since = game.notes.get("night", 0)
        game.notes["night"] = step.n
        today = [r for _, r in game.since(since)]
        older = _older(today, after, harmed)
        high = after.harm >= HIGH_HARM and not game.notes.get("high")
        strongest = None if high else _strongest(today, after, harmed, robbed)
        harmed.update(r.card for r in today if r.role.endswith("-harm"))
        robbed.update(c.card for c in after.consequences if c.kind == "token lost")
        if high:
            game.notes["high"] = True
            return Occasion(Role("@harm-high"))
        if strongest is None and older is None:
            return None
        key = strongest is not None and (strongest.role == "ace-reward" or _crown(strongest.card))  # a Crown's day
        if strongest == older:
            return Occasion(strongest, key=key) if strongest is not None else None
        return Changed(strongest or QUIET, key=key, older=older)

    def can_ask(self, qid: str, occasion: Occasion | None, game: Game) -> bool:
        """As every game's, and where the rule before issue 27 chose another occasion, a
        question about that one too (a log it wrote still reads)."""
        if super().can_ask(qid, occasion, game):
            return True
        older = occasion.older if isinstance(occasion, Changed) else None
        return older is not None and super().can_ask(qid, Occasion(older), game)

    def placeholders(self, role: Role) -> dict[str, str]:
        """``{piece}``: an Ace as the story names it, "the Moons piece"."""
        if role.role.startswith("ace-") and role.card != "*":
            return {"piece": piece(ace_suit(role.card))}
        return {}

    def echo_words(self, earlier: Role) -> dict[str, str]:
        """``{earlier_piece}``: an earlier Ace as the story names it, "the Moons piece"."""
        if earlier.role.startswith("ace-"):
            return {"earlier_piece": piece(ace_suit(earlier.card))}
        return {}

    def still(self, earlier: Role, game: Game) -> bool:
        """A card that came onto the road, while it is on the road; a piece of the artifact,
        while a token of its suit is in the supply; an event that reached into your pack, if
        it took a token; the rest (thwarted, turned, surveyed, hurt you) happened, for good."""
        state = game.state
        if not isinstance(state, HexaractState):
            return True
        kind = _kind(earlier)
        if kind == "arrival":
            return earlier.card in state.journey
        if earlier.role.startswith("ace-"):
            return state.held(ace_suit(earlier.card)) > 0
        if earlier.role == "event-harm":
            took = game.notes.get("took", set())
            return any(r == earlier and (k, r.card) in took for k, r in game.facts)
        return True

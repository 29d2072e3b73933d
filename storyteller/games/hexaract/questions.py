"""Hexaract's journaling questions: which role each card takes on the road (a minion, a place
or an event arriving, thwarted, surveyed or turned, doing harm; an Ace setting you out or
won with a Crown) and the turning points (a roll of three sixes or more, a roll that gives
nothing, harm at seven).

How often they come: at nightfall, about the day's strongest moment, when the day had one
(an ace reward won; else the greatest card resolved, if a Crown or of rank 6 or more; else
the greatest card that hurt you for the first time; else the greatest card that came onto
the road that day, if a Crown); and besides, the first Ace and the rolls of note. About
fifteen a game instead of the thirty-odd a question at every card would make: the road is
long, and a journal entry on the days that mattered is its rhythm."""

from __future__ import annotations

from storyteller.core.cards import all_cards
from storyteller.core.engine import State
from storyteller.games.hexaract.rules import (
    ACE_TOKEN, HARM_LIMIT, Assign, Done, HexaractState, Pay, Spend, kind_of, place_of,
)
from storyteller.games.hexaract.story import set_off
from storyteller.log.replay import Step
from storyteller.play.questions import Game, Occasion, Questions, Role


def _hexaract(state: State | None) -> HexaractState:
    """A step's state, as this game's (every state a Hexaract step holds is one)."""
    assert isinstance(state, HexaractState)
    return state

HIGH_HARM = HARM_LIMIT - 3  # three more and the road ends
RESOLVED = {"personality": "thwarted", "event": "turned", "location": "surveyed"}
PRIORITY = ("ace-reward", "thwarted", "turned", "surveyed", "harm", "arrival")
GREAT = 6  # the rank from which a card resolved is the day's moment


def _rank(card: str) -> int:
    return all_cards()[card].value or 0


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
            for c in set_off(before, move, after):
                if c.kind == "harm":
                    out.append(Role(f"{kind_of(c.card)}-harm", c.card))
                elif c.kind in ("token lost", "no token"):
                    out.append(Role("event-harm", c.card))
        return out

    def occasion(self, step: Step, game: Game) -> Occasion | None:
        e = step.drawn
        if e is not None:
            if e.to == ACE_TOKEN:
                return Occasion(Role("ace-start", e.card)) if e.slot == 0 else None
            return None  # a card coming onto the road is told; the night asks about the day
        rolled = step.rolled
        if rolled is not None:
            if list(rolled.dice).count(6) >= 3:
                return Occasion(Role("@roll-best"))
            if not any(isinstance(a.move, Assign) for a in step.after.legal_actions()):
                return Occasion(Role("@roll-worst"), key=False)
            return None
        if not isinstance(step.move, (Done, Pay)):
            return None
        after = _hexaract(step.after)
        if after.phase == "pay" or after.outcome is not None:
            return None  # the night is not over yet, or the road is (the last word follows)
        harmed = game.notes.setdefault("harmed", set())
        since = game.notes.get("night", 0)
        game.notes["night"] = step.n
        today = [r for _, r in game.since(since)]
        if after.harm >= HIGH_HARM and not game.notes.get("high"):
            game.notes["high"] = True
            harmed.update(r.card for r in today if r.role.endswith("-harm"))
            return Occasion(Role("@harm-high"))
        best = None
        for role in today:
            kind = role.role.rsplit("-", 1)[-1] if role.role != "ace-reward" else "ace-reward"
            if kind not in PRIORITY or (kind == "harm" and role.card in harmed):
                continue
            if kind in RESOLVED.values() and _rank(role.card) < GREAT:
                continue  # a small card out of the way is told, not asked about
            if kind == "arrival" and (all_cards()[role.card].rank != "Crown" or role.card not in after.journey):
                continue  # of the cards that came, only a great power still on the road
            rank = (PRIORITY.index(kind), -_rank(role.card))
            if best is None or rank < best[0]:
                best = (rank, role)
        harmed.update(r.card for r in today if r.role.endswith("-harm"))
        if best is None:
            return None
        role = best[1]
        return Occasion(role, key=role.role == "ace-reward" or all_cards()[role.card].rank == "Crown")  # a Crown's day

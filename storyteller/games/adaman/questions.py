"""Adaman's journaling questions: which role each dealt card takes (a personality arriving
at court, one waiting in the capital, a place, event or Ace in the capital to gain, or in
your resources to spend), and the turning points (the Excuse, the court at five, the first
personality won over).

How often they come: every personality asks (at court, or in the capital); of the other
cards, one every third play: the first of them dealt in that play's refill (the setup's
are told without a question, or the plot would open on ten of them). About eighteen a
game: the people of the plot first, its means now and then."""

from __future__ import annotations

from storyteller.core.engine import State
from storyteller.games.adaman.rules import AdamanState, COURT_LIMIT, PERSON, Control, landing
from storyteller.log.replay import Step
from storyteller.play.questions import Game, Occasion, Questions, Role


def _adaman(state: State | None) -> AdamanState:
    """A step's state, as this game's (every state a Adaman step holds is one)."""
    assert isinstance(state, AdamanState)
    return state

EVERY = 3  # plays between two questions about a place, an event or an Ace


class AdamanQuestions(Questions):
    def facts(self, step: Step, game: Game) -> list[Role]:
        drawn = step.drawn
        if drawn is None:
            return []
        card, to = drawn.card, drawn.to
        place = landing(card, to)
        if place == "excuse":
            return []
        if place == "court":
            return [Role("court", card)]
        if place == "capital":
            return [Role("capital-personality" if PERSON[card] else "capital", card)]
        return [Role("resource", card)]

    def occasion(self, step: Step, game: Game) -> Occasion | None:
        move = step.move
        if move is not None:
            if isinstance(move, Control) and PERSON[move.target] and not game.notes.get("controlled"):
                game.notes["controlled"] = True  # the first personality won over is a turning point
                return Occasion(Role("@controlled", move.target))
            return None
        drawn = step.drawn
        if drawn is None:
            return None
        card, to = drawn.card, drawn.to
        place = landing(card, to)
        if place == "excuse":
            return Occasion(Role("@excuse-capital" if to == "capital" else "@excuse-resources"))
        role = self.facts(step, game)[0]
        if place == "court":
            if len(_adaman(step.after).court) == COURT_LIMIT:
                return Occasion(Role("@court-five"))
            return Occasion(role)
        if role.role == "capital-personality":
            return Occasion(role, key=False)
        if game.decisions % EVERY == 1 and game.notes.get("asked_after") != game.last_decision:
            game.notes["asked_after"] = game.last_decision  # one of the other cards, every third play
            return Occasion(role, key=False)
        return None

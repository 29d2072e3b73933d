"""Adaman's journaling questions: which role each dealt card takes (a personality arriving
at court, one waiting in the capital, a place, event or Ace in the capital to gain, or in
your resources to spend), and the turning points (the Excuse, the court at five, the first
personality won over).

How often they come: every personality asks (at court, or in the capital); of the other
cards, one every third play: the first of them dealt in that play's refill (the setup's
are told without a question, or the plot would open on ten of them). About eighteen a
game: the people of the plot first, its means now and then.

What the cards became, for the questions that name an earlier card (echoes): a card dealt
takes the role of the row it landed in; a play adds ``controlled`` (a personality bought,
tricked or eliminated), ``gained`` (a place, event or Ace taken from the capital into
your resources) and ``spent`` (each resource paid, with the card it paid for as the
role's parameter: ``spent.painter``); the Excuse's move gives the card the role of the row
it now lies in. An echo names a card only while it is still so (:meth:`still`): at court,
in the capital, in your hands, won over, or spent.

A step that ends the game raises no question of its own (the sixth arrival at court, the
card after which no play is left): the last word follows at once. Nor does the Excuse when
it has nothing to move. The Excuse sending a fifth personality to court is the court at five,
as an arrival is. After the first personality won over, the story's verb for the play
(eliminated, or bought or tricked) decides which of its questions may be asked (``ALIVE``,
``GONE``)."""

from __future__ import annotations

from collections import Counter

from storyteller.core.engine import State
from storyteller.games.adaman.rules import AdamanState, COURT_LIMIT, PERSON, Control, Shift, landing
from storyteller.log.replay import Step
from storyteller.play.questions import END_MOMENTS, Game, Occasion, Question, Questions, Role


def _adaman(state: State | None) -> AdamanState:
    """A step's state, as this game's (every state a Adaman step holds is one)."""
    assert isinstance(state, AdamanState)
    return state

EVERY = 3  # plays between two questions about a place, an event or an Ace
ENDS = {"@" + m for m in END_MOMENTS.values()}  # the last words, asked once the game is over

# The first personality won over (``@controlled``) as the story tells the play: eliminated when
# an Ace was among the resources paid (``story.py``, ``_verb``), else bought or tricked. Some of
# its questions speak of them alive and yours, some of them gone for good: each is asked only
# when the play was so (by the question's place in its list: its written ones, its echoes).
ALIVE = {"written": {0, 3, 5}, "echoes": {0, 1, 2, 4, 8}}
GONE = {"written": {8, 9}, "echoes": set()}

# Where a card in each role lies on the table, while it is still in that role.
WHERE: dict[str, str] = {
    "court": "court",
    "capital-personality": "capital",
    "capital": "capital",
    "resource": "resources",
    "gained": "resources",
    "spent": "discard",
    "controlled": "controlled",
}


class AdamanQuestions(Questions):
    def facts(self, step: Step, game: Game) -> list[Role]:
        move = step.move
        if isinstance(move, Control):
            became = Role("controlled" if PERSON[move.target] else "gained", move.target)
            return [became] + [Role("spent", card, move.target) for card in move.paid]
        if isinstance(move, Shift):  # the Excuse's move: the card now lies in that row
            return [Role({"court": "court", "resources": "resource"}.get(move.to, "capital"), move.card)]
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
        found = self._occasion(step, game)
        if found is not None and self._moot(found, step.after):
            return Occasion(found.role, key=False)  # the game is over, or the Excuse moves nothing: no question
        return found

    def _occasion(self, step: Step, game: Game) -> Occasion | None:
        move = step.move
        if move is not None:
            if isinstance(move, Control) and PERSON[move.target] and not game.notes.get("controlled"):
                game.notes["controlled"] = True  # the first personality won over is a turning point
                return Occasion(Role("@controlled", move.target))
            if isinstance(move, Shift) and move.to == "court" and len(_adaman(step.after).court) == COURT_LIMIT:
                return Occasion(Role("@court-five"))  # the Excuse sent a fifth personality to court
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

    @staticmethod
    def _moot(occasion: Occasion, state: State | None) -> bool:
        """Whether a step's question would speak of a table that is not there: the step
        ended the game (its last word follows), or the Excuse found nothing to move."""
        if occasion.role.role in ENDS or not isinstance(state, AdamanState):
            return False
        if state.result is not None:
            return True
        return occasion.role.role.startswith("@excuse-") and state.excuse_at is None

    def choose(self, occasion: Occasion, game: Game, history: Counter, seed: str, n: int) -> Question | None:
        if self._moot(occasion, game.state):
            return None
        return super().choose(occasion, game, history, seed, n)

    def candidates(self, occasion: Occasion, game: Game, live: bool = True) -> tuple[list[str], list[str], list[str]]:
        written, composed, echoes = super().candidates(occasion, game, live)
        role = occasion.role
        if live and role.role == "@controlled":
            paid = [r.card for _, r in game.facts if r.role == "spent" and r.param == role.card]
            untrue = ALIVE if any(self.card(c).rank == "Ace" for c in paid) else GONE
            written = [q for q in written if int(q.rsplit(":", 1)[1]) not in untrue["written"]]
            echoes = [q for q in echoes if int(q.split(":")[3]) not in untrue["echoes"]]
        return written, composed, echoes

    def still(self, earlier: Role, game: Game) -> bool:
        """Whether the card is still where its role puts it, on the table as it is now."""
        state = game.state
        where = WHERE.get(earlier.role)
        if where is None or not isinstance(state, AdamanState):
            return True
        return earlier.card in getattr(state, where)

    def echo_words(self, earlier: Role) -> dict[str, str]:
        """A card spent names what it paid for: ``{target}``."""
        if earlier.role == "spent" and earlier.param:
            return {"target": self.words(earlier.param, Role("controlled", earlier.param))}
        return {}

"""Carddom's journaling questions: which role each turned-up card takes (the character, a
stack's location, its people, their values, their gift, the overlord, a Joker at a depth),
the turning points (the first card taken, facing the overlord), and how a card is named
in each role ("the vast city", "the countless elves").

A card taken becomes a second fact, ``taken-LAYER`` ("taken-gift"): what you carry from the
road. An echo names an earlier card only as the table shows it now (:meth:`still`): a place,
a people, a value or a gift as it was met (still in its stack, not taken, and elsewhere than
where you stand); a card taken only while it is in your hand; the character always.

The character's goal and station come back: from the first question after the character's
own, at least one question in three names them (:meth:`choose`), through the echoes that name
the character (``{earlier}``, ``{goal}``, ``{station}``).
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from storyteller.core.cards import all_cards, card
from storyteller.core.engine import State
from storyteller.core.rng import Stream
from storyteller.games.carddom.rules import LAYERS, CarddomState, Face, Take, place_of
from storyteller.log.replay import Step
from storyteller.play.questions import Game, Occasion, Question, Questions, Role

TAKEN = "taken-"  # a card taken: "taken-location", "taken-people", "taken-values", "taken-gift"
TAKE = "@take-"  # the first card taken, by its layer: "@take-location"...
OLD_TAKE = "@take"  # the first card taken, as it was asked before each layer had its own questions
GOAL_SHARE = 3  # at least one question in this many, after the character's own, names the goal or station
YOUR_GOAL = re.compile(r"\byour (own )?goal\b", re.IGNORECASE)


def _carddom(state: State | None) -> CarddomState:
    """A step's state, as this game's (every state a Carddom step holds is one)."""
    assert isinstance(state, CarddomState)
    return state


def layer_of(state: CarddomState, card_id: str) -> tuple[int, str] | None:
    """The stack (1-8) a card lies in, and its layer there; None if it is in no stack."""
    for i, cards in enumerate(state.stacks, start=1):
        if card_id in cards:
            return i, LAYERS[cards.index(card_id)]
    return None


class CarddomQuestions(Questions):
    def facts(self, step: Step, game: Game) -> list[Role]:
        if isinstance(step.move, Take):
            found = layer_of(_carddom(step.after), step.move.card)
            return [Role(TAKEN + found[1], step.move.card)] if found else []
        e = step.drawn
        if e is None:
            return []
        c = card(e.card)
        to = e.to
        joker = c.rank == "Joker"
        if to == "character":
            return [] if joker else [Role("character", c.id)]
        if to == "overlord":
            return [Role("joker-overlord", "any")] if joker else [Role("overlord", c.id)]
        _, layer = place_of(to)
        if joker:
            taken = _carddom(step.after).jokers == "taken"
            return [Role("joker-lurks" if taken else "joker-ends", layer)]
        return [Role(layer, c.id)]

    def occasion(self, step: Step, game: Game) -> Occasion | None:
        if step.drawn is not None:
            found = self.facts(step, game)
            if not found:
                return None
            role = found[0]
            return Occasion(role, key=role.role not in ("people", "values", "gift"))
        if isinstance(step.move, Take) and not game.notes.get("taken"):
            game.notes["taken"] = True  # the first card taken is the turning point; the others pass quietly
            where = layer_of(_carddom(step.after), step.move.card)
            layer = where[1] if where else "location"
            return Occasion(Role(TAKE + layer, step.move.card))
        if isinstance(step.move, Face):
            return Occasion(Role("@face"))
        return None

    def words(self, card_id: str, role: Role) -> str:
        p = self.registration.prompt_data
        c = all_cards().get(card_id)
        if c is None:  # a Joker's question is keyed by its depth, not by a card
            return ""
        kind = role.role
        if kind.startswith(TAKE):
            kind = kind[len(TAKE):]  # the first card taken, named as what it is on the road
        elif kind.startswith(TAKEN):
            kind = kind[len(TAKEN):]
        elif kind.startswith("@") or c.rank == "Joker":
            from storyteller.play.table import card_name

            return card_name(card_id)
        suit, rank = c.suits[0], c.rank
        if kind == "character":
            return f"{p['roles'][rank]} seeking {p['goals'][suit]}"
        if kind == "location":
            return f"the {p['scale']['location'][rank]} {_bare(p['location'][suit])}"
        if kind == "people":
            scale = {"a handful of": "handful of", "a few": "few", "some": "", "a great many": "great many"}.get(
                p["scale"]["people"][rank], p["scale"]["people"][rank])
            return " ".join(w for w in ("the", scale, p["people"][suit]) if w)
        if kind == "values":
            return p["values"][suit]
        if kind == "gift":
            return f"{p['scale']['gift'][rank]} {_bare(p['gift'][suit])}"
        if kind == "overlord":
            return f"the {_bare(p['overlord_kind'][rank])}, driven by {p['motivation'][suit]}"
        return c.name

    def echo_words(self, earlier: Role) -> dict[str, str]:
        """An echo naming the character also says its goal ("wealth") and its station ("a
        merchant")."""
        if earlier.role != "character":
            return {}
        c = all_cards().get(earlier.card)
        if c is None or c.rank == "Joker":
            return {}
        p = self.registration.prompt_data
        return {"goal": p["goals"][c.suits[0]], "station": p["roles"][c.rank]}

    def still(self, earlier: Role, game: Game) -> bool:
        state = game.state
        if not isinstance(state, CarddomState):
            return True
        if earlier.role == "character":
            return state.character == earlier.card
        if earlier.role == "overlord":
            return state.overlord == earlier.card
        if earlier.role.startswith(TAKEN):
            return earlier.card in state.taken
        if earlier.role in LAYERS:  # as it was met: in its stack, not taken, somewhere you are not
            found = layer_of(state, earlier.card)
            return found is not None and earlier.card not in state.taken and found[0] != state.position
        return True

    def echo_ids(self, role: Role, game: Game, live: bool = True) -> list[str]:
        out = super().echo_ids(role, game, live)
        if live and role.role == "values":  # "friendship" beside "friendship": two cards of one suit say one value
            c = all_cards().get(role.card)
            out = [q for q in out if not (q.split(":")[4] in ("values", TAKEN + "values")
                                          and c is not None and all_cards()[q.split(":")[5]].suits == c.suits)]
        return out

    def candidates(self, occasion: Occasion, game: Game, live: bool = True) -> tuple[list[str], list[str], list[str]]:
        written, composed, echoes = super().candidates(occasion, game, live)
        if live:  # the character comes back when the goal is owed (choose), not by chance in between
            if not self.owes_goal(occasion, game):
                echoes = [q for q in echoes if q.split(":")[4] != "character"]
            return written, composed, echoes
        # what a log may hold besides: an echo of the character before the eighth card (asked when the
        # goal was owed, see choose), and the first take's question as it was asked before each layer had its own
        role = occasion.role
        more = [q for q in self.echo_ids(role, game, live=False) if q.split(":")[4] == "character"]
        echoes = echoes + [q for q in more if q not in echoes]
        if role.role.startswith(TAKE):
            w, _, e = super().candidates(Occasion(Role(OLD_TAKE, role.card)), game, live=False)
            written, echoes = written + w, echoes + e
        return written, composed, echoes

    def card(self, card_id: str) -> Any:
        found = super().card(card_id)
        return None if found is None or found.rank == "Joker" else found

    # -- the goal comes back --------------------------------------------------------------

    def touches_goal(self, qid: str) -> bool:
        """Whether a question names the character's goal or station: an echo of the character,
        or words that ask about "your goal"."""
        parts = qid.split(":")
        if len(parts) == 6 and parts[2] == "e" and parts[4] == "character":
            return True
        text = self.text(qid)
        return bool(text and YOUR_GOAL.search(text))

    def owes_goal(self, occasion: Occasion, game: Game) -> bool:
        """Whether the next question must name the goal or station, so that at least one in
        three of those asked after the character's own does (the character's own don't count)."""
        if occasion.role.role == "character":
            return False
        after = [q for q in game.asked if not q.startswith("character:")]
        touched = sum(1 for q in after if self.touches_goal(q))
        return GOAL_SHARE * touched < len(after) + 1

    def choose(self, occasion: Occasion, game: Game, history: Counter, seed: str, n: int) -> Question | None:
        if self.owes_goal(occasion, game):
            found = self._goal_question(occasion, game, history, seed, n)
            if found is not None:
                return found
        return super().choose(occasion, game, history, seed, n)

    def _goal_question(self, occasion: Occasion, game: Game, history: Counter, seed: str,
                       n: int) -> Question | None:
        """A question that names the goal or station: an echo of the character this player has
        not met (or met least), else a written one that asks about the goal."""
        role = occasion.role
        echoes = [q for q in self.echo_ids(role, game) if q.split(":")[4] == "character"]
        written = [q for q in self.written_ids(role) if self.touches_goal(q)]

        def fresh(ids: list[str]) -> list[str]:
            return [q for q in ids if q not in game.asked and (self.text(q) or "") not in game.texts]

        e, w = fresh(echoes), fresh(written)
        stream = Stream(seed, "goal", str(n))
        for group in (e, w):
            unseen = [q for q in group if history[q] == 0]
            if unseen:
                return self.question(stream.choice(unseen))
        every = e + w
        if not every:
            return None
        least = min(history[q] for q in every)
        return self.question(next(q for q in every if history[q] == least))


def _bare(words: str) -> str:
    """"a city" -> "city", "an eldritch god" -> "eldritch god"."""
    first, _, rest = words.partition(" ")
    return rest if first in ("a", "an") and rest else words

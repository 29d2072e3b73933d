"""Carddom's journaling questions: which role each turned-up card takes (the character, a
stack's location, its people, their values, their gift, the overlord, a Joker at a depth),
the turning points (the first card taken, facing the overlord), and how a card is named
in each role ("the vast city", "the countless elves")."""

from __future__ import annotations

from typing import Any

from storyteller.core.cards import all_cards, card
from storyteller.core.engine import State
from storyteller.games.carddom.rules import CarddomState, Face, Take, place_of
from storyteller.log.replay import Step
from storyteller.play.questions import Game, Occasion, Questions, Role


def _carddom(state: State | None) -> CarddomState:
    """A step's state, as this game's (every state a Carddom step holds is one)."""
    assert isinstance(state, CarddomState)
    return state


class CarddomQuestions(Questions):
    def facts(self, step: Step, game: Game) -> list[Role]:
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
            return Occasion(Role("@take", step.move.card))
        if isinstance(step.move, Face):
            return Occasion(Role("@face"))
        return None

    def words(self, card_id: str, role: Role) -> str:
        p = self.registration.prompt_data
        c = all_cards().get(card_id)
        if c is None:  # a Joker's question is keyed by its depth, not by a card
            return ""
        if role.role.startswith("@") or c.rank == "Joker":
            from storyteller.play.table import card_name

            return card_name(card_id)
        suit, rank = c.suits[0], c.rank
        if role.role == "character":
            return f"{p['roles'][rank]} seeking {p['goals'][suit]}"
        if role.role == "location":
            return f"the {p['scale']['location'][rank]} {_bare(p['location'][suit])}"
        if role.role == "people":
            scale = {"a handful of": "handful of", "a few": "few", "some": "", "a great many": "great many"}.get(
                p["scale"]["people"][rank], p["scale"]["people"][rank])
            return " ".join(w for w in ("the", scale, p["people"][suit]) if w)
        if role.role == "values":
            return p["values"][suit]
        if role.role == "gift":
            return f"{p['scale']['gift'][rank]} {_bare(p['gift'][suit])}"
        if role.role == "overlord":
            return f"the {_bare(p['overlord_kind'][rank])}, driven by {p['motivation'][suit]}"
        return c.name

    def card(self, card_id: str) -> Any:
        found = super().card(card_id)
        return None if found is None or found.rank == "Joker" else found


def _bare(words: str) -> str:
    """"a city" -> "city", "an eldritch god" -> "eldritch god"."""
    first, _, rest = words.partition(" ")
    return rest if first in ("a", "an") and rest else words

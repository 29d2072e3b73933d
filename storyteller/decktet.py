"""The Decktet, shared by Adaman, Cascades and Hexaract: cards by id, one way to name a
card in words (terminal and Markdown alike), and what each card and suit means."""

from __future__ import annotations

from functools import lru_cache
from typing import Iterable

from storyteller.cards import Card, decktet_cards
from storyteller.narrative import prompts

SUITS = ("Moons", "Suns", "Waves", "Leaves", "Wyrms", "Knots")


@lru_cache(maxsize=None)
def by_id() -> dict[str, Card]:
    return {c.id: c for c in decktet_cards()}


def get(card_id: str) -> Card:
    return by_id()[card_id]


def basic() -> list[Card]:
    return [c for c in decktet_cards() if c.deck == "basic"]


def rank_text(c: Card) -> str:
    """"8", "Ace", "Crown", "Pawn"; the Excuse has no rank."""
    return c.rank


def suits_text(c: Card) -> str:
    return "/".join(c.suits)


def name(card_id: str | Card) -> str:
    """The card's name as a sentence uses it: "the Mill", "the Ace of Moons"."""
    c = card_id if isinstance(card_id, Card) else get(card_id)
    return c.name if c.name.startswith("the ") else f"the {c.name}"


def label(card_id: str | Card) -> str:
    """Name, rank and suits in plain words: "the Mill (8, Waves/Leaves)", "the Excuse"."""
    c = card_id if isinstance(card_id, Card) else get(card_id)
    parts = [p for p in (rank_text(c), suits_text(c)) if p]
    return f"{name(c)} ({', '.join(parts)})" if parts else name(c)


def Name(card_id: str | Card) -> str:
    """As :func:`name`, capitalised for the start of a sentence."""
    text = name(card_id)
    return text[0].upper() + text[1:]


def meaning(card_id: str) -> str:
    return prompts("decktet")["cards"][card_id]["meaning"]


def info(card_id: str) -> dict[str, str]:
    """A card as templates use it: id, name, Name (capitalised), label and meaning."""
    return {
        "id": card_id,
        "name": name(card_id),
        "Name": Name(card_id),
        "label": label(card_id),
        "meaning": meaning(card_id),
    }


def keywords(card_id: str) -> list[str]:
    return list(prompts("decktet")["cards"][card_id]["keywords"])


def suit_info(suit: str) -> dict[str, str]:
    return prompts("decktet")["suits"][suit]


def theme(suit: str) -> str:
    return suit_info(suit)["theme"]


def names(card_ids: Iterable[str]) -> str:
    """"the Mill, the Sea and the Ace of Moons"."""
    items = [name(c) for c in card_ids]
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]

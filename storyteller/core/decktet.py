"""The Decktet, shared by Adaman, Cascades and Hexaract: its cards by id, its suits, and
the one way to name a card in words (terminal and Markdown alike). Card facts only: what
the cards mean in a story lives in ``storyteller.telling.meanings``."""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

from storyteller.core.cards import Card, decktet_cards
from storyteller.core.words import cap, join_and

SUITS = ("Moons", "Suns", "Waves", "Leaves", "Wyrms", "Knots")


@cache
def by_id() -> dict[str, Card]:
    return {c.id: c for c in decktet_cards()}


def get(card_id: str) -> Card:
    return by_id()[card_id]


def basic() -> list[Card]:
    return [c for c in decktet_cards() if c.deck == "basic"]


def _card(card: str | Card) -> Card:
    return card if isinstance(card, Card) else get(card)


def name(card: str | Card) -> str:
    """The card's name as a sentence uses it: "the Mill", "the Ace of Moons"."""
    c = _card(card)
    return c.name if c.name.startswith("the ") else f"the {c.name}"


def Name(card: str | Card) -> str:
    """As :func:`name`, capitalised for the start of a sentence."""
    return cap(name(card))


def label(card: str | Card, rank: str | None = None, suits: bool = True) -> str:
    """Name, rank and suits in plain words: "the Mill (8, Waves/Leaves)", "the Excuse".

    ``rank`` replaces the printed rank where a game counts it as a number (Adaman: "the
    Ace of Moons (1, Moons)"); ``suits=False`` leaves the suits out ("the Mill (8)").
    """
    c = _card(card)
    parts = [p for p in (c.rank if rank is None else rank, "/".join(c.suits) if suits else "") if p]
    return f"{name(c)} ({', '.join(parts)})" if parts else name(c)


def names(cards: Iterable[str | Card]) -> str:
    """"the Mill, the Sea and the Ace of Moons"."""
    return join_and(name(c) for c in cards)

"""Cards and decks. The decks themselves are data files in ``storyteller/data``.

A card's ``id`` is stable ASCII and is what the event log records: ``KH`` (King of
Hearts), ``10C``, ``JK1`` for the piquet deck; ``author``, ``ace-of-moons`` for the
Decktet.
"""

from __future__ import annotations

import csv
import re
from dataclasses import dataclass
from functools import cache
from importlib import resources


@dataclass(frozen=True)
class Card:
    id: str
    name: str
    rank: str  # the face: "7", "Jack", "Ace", "Joker"; Decktet: "Ace", "2".."9", "Crown", "Pawn", "Court", ""
    value: int | None  # the rank as a number where it has one
    suits: tuple[str, ...]
    types: tuple[str, ...] = ()
    deck: str = ""

    @property
    def suit(self) -> str | None:
        """The single suit of a one-suited card, else None."""
        return self.suits[0] if len(self.suits) == 1 else None

    def __str__(self) -> str:
        return self.name


def _slug(name: str) -> str:
    name = re.sub(r"^the ", "", name.lower())
    return re.sub(r"[^a-z0-9]+", "-", name).strip("-")


def _read(filename: str) -> list[dict[str, str]]:
    text = resources.files("storyteller").joinpath("data").joinpath(filename).read_text("utf-8")
    return list(csv.DictReader(text.splitlines()))


def _split(field: str) -> tuple[str, ...]:
    return tuple(part for part in field.split("|") if part)


@cache
def piquet_cards() -> tuple[Card, ...]:
    """The 32-card piquet deck followed by the two Jokers."""
    return tuple(
        Card(
            id=row["id"],
            name=row["name"],
            rank=row["rank"],
            value=int(row["rank_value"]) if row["rank_value"] else None,
            suits=_split(row["suits"]),
            deck=row["deck"],
        )
        for row in _read("piquet.csv")
    )


@cache
def decktet_cards() -> tuple[Card, ...]:
    """All 45 Decktet cards: the 36 basic ones, then the extended ones."""
    out = []
    for row in _read("decktet.csv"):
        rank = row["rank"]
        value = int(row["rank_value"]) if row["rank_value"] else None
        out.append(
            Card(
                id=_slug(row["name"]),
                name=row["name"],
                rank=rank,
                value=value,
                suits=_split(row["suits"]),
                types=_split(row["types"]),
                deck=row["deck"],
            )
        )
    return tuple(out)


@cache
def all_cards() -> dict[str, Card]:
    """Every card of every deck, by id."""
    return {c.id: c for c in (*piquet_cards(), *decktet_cards())}


def card(card_id: str) -> Card:
    """The card with this id, from any deck."""
    return all_cards()[card_id]

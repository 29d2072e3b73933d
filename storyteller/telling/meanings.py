"""What each Decktet card and suit means in a story (``prompts/decktet.json``), shared by
the tellers and views of every Decktet game."""

from __future__ import annotations

from typing import Any

from storyteller.core import decktet
from storyteller.core.narrative import shared_prompts


def _words() -> dict[str, Any]:
    return shared_prompts("decktet")


def meaning(card_id: str) -> str:
    return _words()["cards"][card_id]["meaning"]


def keywords(card_id: str) -> list[str]:
    return list(_words()["cards"][card_id]["keywords"])


def suit_info(suit: str) -> dict[str, str]:
    """A suit's theme, image, terminal symbol and colour."""
    return _words()["suits"][suit]


def theme(suit: str) -> str:
    return suit_info(suit)["theme"]


def info(card_id: str) -> dict[str, str]:
    """A card as templates use it: id, name, Name (capitalised), label and meaning."""
    return {
        "id": card_id,
        "name": decktet.name(card_id),
        "Name": decktet.Name(card_id),
        "label": decktet.label(card_id),
        "meaning": meaning(card_id),
    }

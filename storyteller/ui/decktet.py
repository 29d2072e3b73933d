"""Decktet cards in the terminal: each suit in its own colour with its own symbol, and
the plain words of :func:`storyteller.core.decktet.label` under ``--plain`` or ``NO_COLOR``."""

from __future__ import annotations

from rich.text import Text

from storyteller.core import decktet
from storyteller.telling.meanings import suit_info


def card_text(card_id: str, plain: bool = False, short: bool = False) -> Text:
    """"the Mill 8 ≈❦" in colour, or "the Mill (8, Waves/Leaves)" plain."""
    c = decktet.get(card_id)
    if plain:
        return Text(decktet.label(c) if not short else decktet.name(c))
    out = Text(c.name.removeprefix("the ").strip() if short else decktet.name(c), style="bold")
    if c.rank and c.rank != "Ace":  # "the Ace of Moons" already says it
        out.append(f" {c.rank}")
    if c.suits:
        out.append(" ")
    for suit in c.suits:
        info = suit_info(suit)
        out.append(info["symbol"], style=f"bold {info['colour']}")
    return out


def suit_legend(plain: bool = False) -> Text | None:
    """The six suits' symbols, each with its name ("Suits: ☾ Moons ☀ Suns ..."), for a screen
    that shows cards by their symbols; None in plain words, which name the suits."""
    if plain:
        return None
    out = Text("Suits: ", style="dim")
    for i, suit in enumerate(decktet.SUITS):
        info = suit_info(suit)
        out.append("  " if i else "")
        out.append(info["symbol"], style=f"bold {info['colour']}")
        out.append(f" {suit}", style="dim")
    return out


def cards_text(card_ids, plain: bool = False, sep: str = ", ", empty: str = "none") -> Text:
    out = Text()
    for i, card_id in enumerate(card_ids):
        if i:
            out.append(sep)
        out.append_text(card_text(card_id, plain))
    if not card_ids:
        out.append(empty, style="dim")
    return out

"""Small helpers for writing English, shared by rules, tellers and views (no prose here)."""

from __future__ import annotations

from typing import Any, Iterable


def cap(text: str) -> str:
    """The text with its first letter capitalised: "the Mill" -> "The Mill"."""
    return text[:1].upper() + text[1:]


def join_and(items: Iterable[Any]) -> str:
    """"a, b and c"."""
    items = [str(i) for i in items]
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def plural(n: int, word: str, many: str | None = None) -> str:
    """"1 card", "3 cards"."""
    return f"{n} {word if n == 1 else many or word + 's'}"

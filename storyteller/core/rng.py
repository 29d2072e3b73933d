"""Seeded randomness that means the same thing on every Python and every machine.

Python promises only that ``random.Random(n).random()`` for an integer ``n`` stays
stable across versions, so every shuffle and every die here is built on that one
method: our own Fisher-Yates, our own die. A seed is any text (digits are text too:
``42`` and ``042`` are different seeds). Each stream's integer is the SHA-256 of the seed
and of what the stream is for (``deal 0``, ``roll 3``...), never ``hash()``, which is
salted per process.
"""

from __future__ import annotations

import hashlib
import random
import secrets
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")

_WORDS = (
    "amber", "ash", "birch", "brook", "cinder", "clover", "crow", "dawn", "dusk",
    "ember", "fern", "frost", "gale", "hare", "heath", "iris", "ivy", "lark", "moss",
    "moth", "oak", "owl", "pine", "quill", "rain", "reed", "rook", "rowan", "sage",
    "slate", "sparrow", "stone", "thorn", "tide", "vale", "willow", "wren", "yew",
)


def normalize_seed(seed: object) -> str:
    """The seed as it is written in a log header: always text, never empty."""
    text = str(seed).strip()
    if not text:
        raise ValueError("a seed cannot be empty")
    if len(text) > 200:
        raise ValueError("a seed is at most 200 characters")
    if any(ord(c) < 32 or 127 <= ord(c) < 160 for c in text):
        raise ValueError("a seed cannot hold control characters")
    if any(0xD800 <= ord(c) < 0xE000 for c in text):
        raise ValueError("a seed must be text (it holds half of a character)")
    return text


def seed_to_int(seed: str, *salt: str) -> int:
    """The integer that seeds the stream ``salt`` of a seed."""
    material = "\x1f".join((seed, *salt)).encode("utf-8")
    return int.from_bytes(hashlib.sha256(material).digest()[:16], "big")


def fresh_seed() -> str:
    """A new seed that is easy to read aloud and type back: ``word-word-NNN``."""
    pick = secrets.SystemRandom()
    return f"{pick.choice(_WORDS)}-{pick.choice(_WORDS)}-{pick.randrange(1000):03d}"


class Stream:
    """One seeded stream of randomness. Only ``random()`` of the generator is used."""

    def __init__(self, seed: str, *salt: str) -> None:
        self._random = random.Random(seed_to_int(seed, *salt)).random

    def random(self) -> float:
        """A number in [0, 1)."""
        return self._random()

    def below(self, n: int) -> int:
        """A whole number in ``range(n)``."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        return min(int(self._random() * n), n - 1)

    def shuffled(self, items: Sequence[T]) -> list[T]:
        """A Fisher-Yates shuffle of a copy of ``items``."""
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return out

    def choice(self, items: Sequence[T]) -> T:
        return items[self.below(len(items))]

    def die(self, sides: int = 6) -> int:
        return 1 + self.below(sides)

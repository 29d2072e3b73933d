"""Each game told in words: what a draw means, the journaling question it raises, and the
context its story template needs. One module per game, named as the game."""

from __future__ import annotations

import importlib
from types import ModuleType


def teller(game: str) -> ModuleType:
    return importlib.import_module(f"storyteller.stories.{game}")

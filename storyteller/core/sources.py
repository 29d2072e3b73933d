"""Where a game's cards and dice come from: the seed, or the player's own table.

A state names the chance it needs (a :class:`~storyteller.core.engine.Draw` or a
:class:`~storyteller.core.engine.Roll`) and never takes it itself; a source answers. The
seeded source deals card ``slot`` of the ``deal``-th seeded shuffle of a pile, and rolls the
``index``-th roll from the seed: a draw is fixed by where it is, not by when, so undoing a
move never changes a later draw. At a real table the player's cards and dice answer, and
:class:`Table` remembers what was entered at each place.
"""

from __future__ import annotations

from typing import Any, Protocol
from collections.abc import Mapping

from storyteller.core.engine import Chance, ChanceOutcome, Draw, Game, Roll
from storyteller.core.rng import Stream

# Where a game's cards and dice come from: (cards from the player's table, dice from it).
SOURCES: Mapping[str, tuple[bool, bool]] = {
    "seeded": (False, False), "physical": (True, True), "physical cards": (True, False), "physical dice": (False, True),
}


class Source(Protocol):
    """Who answers the rules' requests for chance: a card for a Draw, dice for a Roll."""

    def resolve(self, request: Chance) -> ChanceOutcome: ...


class SeededSource:
    """Draws and dice from the seed: deal ``k`` is the k-th seeded shuffle of the pile."""

    name = "seeded"

    def __init__(self, seed: str, game: Game, variants: Mapping[str, str]) -> None:
        self.seed = seed
        self.game = game
        self.variants = variants
        self._deals: dict[tuple[str, int], list[str]] = {}

    def deal(self, k: int, pile: str = "deck") -> list[str]:
        if (pile, k) not in self._deals:
            deck = self.game.deck(self.variants, pile)
            salt = ("deal", str(k)) if pile == "deck" else ("deal", pile, str(k))
            self._deals[(pile, k)] = Stream(self.seed, *salt).shuffled(deck)
        return self._deals[(pile, k)]

    def draw(self, request: Draw) -> str:
        return self.deal(request.deal, request.pile)[request.slot]

    def roll(self, request: Roll) -> tuple[int, ...]:
        stream = Stream(self.seed, "roll", str(request.index))
        return tuple(stream.die(request.sides) for _ in range(request.count))

    def resolve(self, request: Chance) -> ChanceOutcome:
        return self.draw(request) if isinstance(request, Draw) else self.roll(request)


def check_source(kind: str) -> None:
    """ValueError for a source this version does not know."""
    if kind not in SOURCES:
        raise ValueError(f"draws from the source '{kind}' cannot be played or replayed by this version")


class Table:
    """The player's own table: which of cards and dice come from it, and every card and
    roll entered there so far, by place. A place the rules ask for again (after an undo)
    gets the card already turned up there; a turn's dice stay rolled."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self.cards, self.dice = SOURCES[kind]
        self.known: dict[tuple[Any, ...], Any] = {}

    @classmethod
    def of(cls, kind: str) -> Table | None:
        """The table of a game whose source is ``kind`` (None for a seeded game)."""
        return cls(kind) if kind in SOURCES and kind != "seeded" else None

    def physical(self, request: Chance) -> bool:
        return self.cards if isinstance(request, Draw) else self.dice

    @staticmethod
    def place(request: Chance) -> tuple[Any, ...]:
        if isinstance(request, Draw):
            return ("card", request.pile, request.deal, request.slot)
        return ("roll", request.index)

    def remembered(self, request: Chance) -> Any:
        """The card or roll already entered for this place, if it can still be there."""
        value = self.known.get(self.place(request))
        if isinstance(request, Draw) and value not in request.options:
            return None
        return value

    def remember(self, request: Chance, value: Any) -> None:
        self.known[self.place(request)] = value

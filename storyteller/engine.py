"""The shape every game has, and the registry of games.

A game is pure rules, in the manner of OpenSpiel: a state either waits for chance (a
card to be drawn, dice to be rolled), or waits for a decision among its legal actions,
or is over with an outcome. The state never draws a card itself: it names the draw it
needs (which deal, which place in it) and whoever drives the game answers. That one seam
is how a seeded shuffle, a replayed log or a player's own physical deck all feed the same
rules.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Mapping, Protocol, Sequence, Union


class RuleError(ValueError):
    """An action the rules do not allow, with the rule in words."""


class VariantError(ValueError):
    """An unknown variant, or a value the variant does not take."""


@dataclass(frozen=True)
class Draw:
    """Chance: one card, from place ``slot`` of shuffle number ``deal`` of a pile.

    ``pile`` names which of the game's decks is shuffled ("deck" for most games;
    Hexaract also shuffles its Aces apart). The seeded source answers with card
    ``slot`` of that shuffle, so a draw is fixed by where it is, not by when.
    """

    deal: int
    slot: int
    to: str  # where the card goes, machine-readable ("character", "stack 3 people", "capital")
    options: frozenset[str]  # the card ids it can be
    pile: str = "deck"


@dataclass(frozen=True)
class Roll:
    """Chance: ``count`` dice, the ``index``-th roll of the game."""

    index: int
    count: int
    sides: int = 6
    to: str = "roll"


Chance = Union[Draw, Roll]
Outcome_ = Union[str, tuple]  # a card id for a Draw, a tuple of ints for a Roll


@dataclass(frozen=True)
class Action:
    """A legal action: ``key`` is what the log records, ``text`` is what the player reads."""

    key: str
    text: str = field(compare=False)

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True)
class Outcome:
    result: str  # "won", "lost", "utter loss", "abandoned"
    reason: str  # one sentence
    score: int | None = None

    @property
    def won(self) -> bool:
        return self.result == "won"

    def as_dict(self) -> dict:
        return {"result": self.result, "score": self.score, "reason": self.reason}


class State(Protocol):
    def chance(self) -> Chance | None: ...

    def resolve(self, outcome: Outcome_) -> None: ...

    def legal_actions(self) -> list[Action]: ...

    def apply(self, action: Action) -> None: ...

    @property
    def outcome(self) -> Outcome | None: ...

    def clone(self) -> "State": ...

    def places(self) -> dict[str, list[str]]:
        """Every card drawn so far, by where it is now (each card in exactly one place)."""
        ...


@dataclass(frozen=True)
class Variant:
    name: str
    choices: tuple[str, ...]  # the first is the default
    help: str
    flag: bool = False  # written as just ``--variant NAME`` to turn it on

    @property
    def default(self) -> str:
        return self.choices[0]


@dataclass(frozen=True)
class Hint:
    action: Action
    why: str


class Game:
    """Base for a game: metadata, variants, the deck, and a fresh state."""

    name: str = ""
    title: str = ""
    summary: str = ""
    variants: tuple[Variant, ...] = ()
    has_policy: bool = False  # True where hint() gives the greedy policy's choice
    piles: tuple[str, ...] = ("deck",)  # the decks the game shuffles (see Draw.pile)

    def deck(self, variants: Mapping[str, str], pile: str = "deck") -> list[str]:
        """The card ids a deal of ``pile`` shuffles, in a fixed order."""
        raise NotImplementedError

    def new_state(self, variants: Mapping[str, str]) -> State:
        raise NotImplementedError

    def check_variants(self, variants: Mapping[str, str]) -> None:
        """Raise VariantError for combinations the rulings forbid."""

    def canonical(self, key: str) -> str:
        """The log's spelling of a move typed another way (Adaman: resources in any order)."""
        return key

    def hint(self, state: State) -> Hint | None:
        """The built-in policy's choice and why, or None if the game has no policy."""
        return None

    # -- variants -------------------------------------------------------------------

    def variant(self, name: str) -> Variant:
        for v in self.variants:
            if v.name == name:
                return v
        known = ", ".join(v.name for v in self.variants) or "none"
        raise VariantError(f"{self.title} has no variant '{name}' (its variants: {known})")

    def parse_variants(self, specs: Sequence[str]) -> dict[str, str]:
        """Turn ``["jokers=taken", "extended"]`` into a full mapping with defaults."""
        chosen = {v.name: v.default for v in self.variants}
        seen: set[str] = set()
        for spec in specs:
            name, eq, value = spec.partition("=")
            name, value = name.strip(), value.strip()
            variant = self.variant(name)
            if not eq:
                if not variant.flag:
                    options = "|".join(variant.choices)
                    raise VariantError(f"variant '{name}' needs a value: --variant {name}={{{options}}}")
                value = "on"
            if value not in variant.choices:
                options = ", ".join(variant.choices)
                raise VariantError(f"variant '{name}' takes one of: {options} (not '{value}')")
            if name in seen:
                raise VariantError(f"variant '{name}' is given twice")
            seen.add(name)
            chosen[name] = value
        self.check_variants(chosen)
        return chosen

    def validate_variants(self, variants: Mapping[str, str]) -> dict[str, str]:
        """Check a mapping read from a log: every name known, every value allowed."""
        if not isinstance(variants, Mapping):
            raise VariantError("the variants must be a mapping of names to values")
        specs = []
        for name, value in variants.items():
            variant = self.variant(str(name))
            if value != variant.default:
                specs.append(f"{name}={value}")
        return self.parse_variants(specs)

    def describe_variants(self, variants: Mapping[str, str]) -> str:
        """Non-default variants as the player would type them, or 'standard rules'."""
        parts = [
            (name if v.flag else f"{name}={variants[name]}")
            for v in self.variants
            for name in [v.name]
            if variants.get(name, v.default) != v.default
        ]
        return ", ".join(parts) if parts else "standard rules"


_GAMES = {
    "carddom": "storyteller.games.carddom",
    "adaman": "storyteller.games.adaman",
    "cascades": "storyteller.games.cascades",
    "hexaract": "storyteller.games.hexaract",
}


def game_names() -> list[str]:
    return list(_GAMES)


def get_game(name: str) -> Game:
    key = name.strip().lower()
    if key not in _GAMES:
        raise KeyError(f"unknown game '{name}' (games: {', '.join(_GAMES)})")
    module = importlib.import_module(_GAMES[key])
    return module.GAME


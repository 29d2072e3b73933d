"""The shape every game's rules have, in the manner of OpenSpiel and python-chess.

A state either waits for chance (a card to be drawn, dice to be rolled), or waits for a
decision among its legal actions, or is over with an outcome. The state never draws a
card itself: it names the draw it needs (which deal, which place in it, which cards it can
be) and whoever drives the game answers. That one seam is how a seeded shuffle, a replayed
log or a player's own physical deck all feed the same rules.

A decision is a typed :class:`Move`, parsed from the log's text by the game
(``rules.parse(key)``) and printed back (``move.key``): nothing downstream re-parses keys
or matches sentences. An :class:`Outcome` carries a machine-readable ``cause`` beside its
sentence.
"""

from __future__ import annotations

import dataclasses
from enum import Enum
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol, TypeVar


class RuleError(ValueError):
    """An action the rules do not allow, with the rule in words."""


class VariantError(ValueError):
    """An unknown variant, or a value the variant does not take."""


# -- chance ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Draw:
    """Chance: one card, from place ``slot`` of shuffle number ``deal`` of a pile.

    ``pile`` names which of the game's decks is shuffled ("deck" for most games;
    Hexaract also shuffles its Aces apart). The seeded source answers with card
    ``slot`` of that shuffle, so a draw is fixed by where it is, not by when.
    ``options`` are the cards it can be: every card of the pile not yet seen.
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


Chance = Draw | Roll
ChanceOutcome = str | tuple[int, ...]  # a card id for a Draw, a tuple of ints for a Roll


# -- decisions ---------------------------------------------------------------------------


class Move:
    """A decision as a typed value. Each game's moves are frozen dataclasses that subclass
    this; ``key`` prints the move as the log records it, and the game's ``parse(key)``
    reads it back to an equal move."""

    kind: ClassVar[str] = ""  # "take", "control", "play"...
    spelling: ClassVar[str] = ""  # the key with a {field} for each field ("take {card}"), if that says it all

    @property
    def key(self) -> str:
        """The move as the log writes it (override where a spelling cannot say it)."""
        return self.spelling.format_map(vars(self))

    def facts(self) -> dict[str, Any]:
        """The move as JSON-safe facts: its type, its key and its fields."""
        out: dict[str, Any] = {"type": self.kind, "key": self.key}
        for f in dataclasses.fields(self):  # type: ignore[arg-type]
            out[f.name] = _json_safe(getattr(self, f.name))
        return out

    def __str__(self) -> str:
        return self.key


def _json_safe(value: Any) -> Any:
    if isinstance(value, (tuple, list, frozenset, set)):
        items = [_json_safe(v) for v in value]
        return sorted(items) if isinstance(value, (set, frozenset)) else items
    return value


@dataclass(frozen=True)
class Action:
    """A legal action: the typed ``move`` and the ``text`` the player reads."""

    move: Move
    text: str = field(compare=False)

    @property
    def key(self) -> str:
        return self.move.key

    def __str__(self) -> str:
        return self.text


class Word(str, Enum):
    """A value spelled as one word of a log ("won", "court-full"): equal to that word, and
    shown, formatted and written to JSON as it."""

    def __str__(self) -> str:
        return str(self.value)

    def __format__(self, spec: str) -> str:
        return format(str(self.value), spec)


class Result(Word):
    """How a game ended."""

    WON = "won"
    LOST = "lost"
    UTTER_LOSS = "utter loss"
    ABANDONED = "abandoned"


@dataclass(frozen=True)
class Outcome:
    result: Result
    reason: str  # one sentence, in the game's words
    score: int | None = None
    cause: str = ""  # machine-readable, one of the game's causes (a Word of its own): "joker-revealed", "harm"...

    def __post_init__(self) -> None:
        if type(self.result) is not Result:  # a game may say "won": it is read as the Result it names
            object.__setattr__(self, "result", Result(self.result))

    @property
    def won(self) -> bool:
        return self.result is Result.WON

    @property
    def lost(self) -> bool:
        """Lost, utterly or not (not abandoned)."""
        return self.result in (Result.LOST, Result.UTTER_LOSS)

    @property
    def abandoned(self) -> bool:
        return self.result is Result.ABANDONED

    def as_dict(self) -> dict[str, Any]:
        return {"result": self.result, "score": self.score, "reason": self.reason, "cause": self.cause}


class Abandoned(Word):
    """The cause of every game a player abandons."""

    ABANDONED = "abandoned"


ABANDONED = Outcome(Result.ABANDONED, "The player abandoned the game.", None, Abandoned.ABANDONED)


@dataclass(frozen=True)
class Hint:
    """A policy's choice and why, in one sentence a player learns from."""

    action: Action
    why: str


# -- the state ---------------------------------------------------------------------------


class State(Protocol):
    def chance(self) -> Chance | None: ...

    def resolve(self, outcome: ChanceOutcome) -> None: ...

    def legal_actions(self) -> list[Action]: ...

    def apply(self, move: Move) -> None:
        """Carry out ``move``, or raise RuleError naming the rule (the state may then be
        half-changed: the session and the walk apply moves to clones)."""
        ...

    def describe(self, move: Move) -> str:
        """The move in the game's words, as the legal actions show it in this state."""
        ...

    @property
    def outcome(self) -> Outcome | None: ...

    def clone(self) -> State: ...

    def places(self) -> dict[str, list[str]]:
        """Every card drawn so far, by where it is now (each card in exactly one place)."""
        ...


_SHARED: set[type] = {str, int, float, bool, type(None), tuple, frozenset}  # grows with frozen dataclasses
_CONTAINERS = (list, dict, set)


def _copied(value: Any) -> Any:
    """A copy of one field's value: containers copied (nested ones too), immutable values
    shared. A list or dict holds either containers or immutable values, not both: the
    first item says which (this keeps a clone about as fast as a hand-written one)."""
    kind = type(value)
    if kind in _SHARED:
        return value
    if kind is list:
        return [_copied(v) for v in value] if value and type(value[0]) in _CONTAINERS else value.copy()
    if kind is dict:
        deep = value and type(next(iter(value.values()))) in _CONTAINERS
        return {k: _copied(v) for k, v in value.items()} if deep else value.copy()
    if kind is set:
        return value.copy()
    if dataclasses.is_dataclass(value) and kind.__dataclass_params__.frozen:
        _SHARED.add(kind)
        return value
    raise TypeError(f"a state cannot hold a {kind.__name__}: use lists, dicts, sets or immutable values")


_G = TypeVar("_G", bound="GameState")


class GameState:
    """Base for a game's state: ``clone()`` copies every field, nested lists, dicts and sets
    included, and shares immutable values (frozen dataclasses among them). A field of any
    other mutable type is refused, so a new field can neither be forgotten by the clone nor
    shared with it."""

    def clone(self: _G) -> _G:
        new = object.__new__(type(self))
        fields = {}
        for k, v in self.__dict__.items():  # the common cases inline: clones are frequent
            kind = type(v)
            if kind in _SHARED:
                fields[k] = v
            elif kind is list and not (v and type(v[0]) in _CONTAINERS):
                fields[k] = v.copy()
            else:
                fields[k] = _copied(v)
        new.__dict__ = fields
        return new


# -- policies ----------------------------------------------------------------------------


class Policy(Protocol):
    """A built-in player for one game: made afresh for each game, owning its memory.

    Its choices depend only on the states it has been shown, in order, so a resumed game
    that shows it the states before every standing decision again plays on exactly as an
    uninterrupted one.
    """

    def choose(self, state: Any) -> Hint | None: ...


# -- solvers -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Budget:
    """How far a solver may search before it answers "unknown"."""

    nodes: int | None = None
    seconds: float | None = None


@dataclass(frozen=True)
class Verdict:
    """A solver's answer for one deal with every card (and die) known."""

    answer: str  # "winnable", "not winnable" or "unknown" (the budget ran out): never a guess
    moves: tuple[str, ...] = ()  # winnable: the keys of a winning game's decisions, from the start
    nodes: int = 0  # positions searched
    why: str = ""  # one sentence


class Solver(Protocol):
    """Answers whether a deal can be won when every card is known. ``reveal`` answers any
    chance request of the deal (its card, its dice); the solver may clone the state and
    resolve what it likes. It must be exact: "winnable" with a witness that plays, "not
    winnable" only after an exhaustive search, else "unknown"."""

    def solve(self, state: State, reveal: Callable[[Chance], ChanceOutcome], budget: Budget) -> Verdict: ...


# -- the rules ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Variant:
    name: str
    choices: tuple[str, ...]  # the first is the default
    help: str
    flag: bool = False  # written as just ``--variant NAME`` to turn it on

    @property
    def default(self) -> str:
        return self.choices[0]


class Game:
    """Base for a game's rules: metadata, variants, the deck, a fresh state and moves. No
    I/O: nothing here knows prompts, colours, files or Markdown, nor the game's built-in
    players and solver (its registration binds those to it)."""

    name: str = ""
    title: str = ""
    summary: str = ""
    variants: tuple[Variant, ...] = ()
    piles: tuple[str, ...] = ("deck",)  # the decks the game shuffles (see Draw.pile)
    dice: bool = False  # whether the game rolls dice (see Roll)
    causes: Mapping[str, str] = {}  # every Outcome.cause the game gives (its Words), with what it means
    gentler: str = ""  # a variant, as typed ("jokers=taken"), that makes a gentler first game, if the rules have one

    def deck(self, variants: Mapping[str, str], pile: str = "deck") -> list[str]:
        """The card ids a deal of ``pile`` shuffles, in a fixed order."""
        raise NotImplementedError

    def new_state(self, variants: Mapping[str, str]) -> State:
        raise NotImplementedError

    def parse(self, key: str) -> Move:
        """The move a key names (RuleError if it names none). Any spelling the game
        accepts parses to the one move whose ``key`` is the log's spelling."""
        raise NotImplementedError

    def canonical(self, key: str) -> str:
        """The log's spelling of a move typed another way, or ``key`` if it is no move."""
        try:
            return self.parse(key.strip()).key
        except RuleError:
            return key

    def check_variants(self, variants: Mapping[str, str]) -> None:
        """Raise VariantError for combinations the rulings forbid."""

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
        return self.parse_variants(self.variant_specs(variants))

    def variant_specs(self, variants: Mapping[str, str]) -> list[str]:
        """The variants that differ from the defaults, as the player types them."""
        specs = []
        for name, value in variants.items():
            v = self.variant(str(name))
            if value != v.default:
                specs.append(name if v.flag and value == "on" else f"{name}={value}")
        return specs

    def describe_variants(self, variants: Mapping[str, str]) -> str:
        """Non-default variants as the player would type them, or 'standard rules'."""
        ordered = {v.name: variants.get(v.name, v.default) for v in self.variants}
        return ", ".join(self.variant_specs(ordered)) or "standard rules"

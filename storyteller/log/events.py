"""The events a game is made of, as typed values: what a log holds, line by line.

Line 1 of a log is its :class:`Header`::

    {"storyteller": "log", "schema": 1, "game": "carddom", "variants": {...},
     "seed": "42", "source": "seeded", "version": "0.1.0", "started": "...", "mode": "player"}

A branch (``play --from LOG --step N``) also names where it came from: ``from_log`` (the
old log's file name) and ``from_step`` (its events 1 to N are the branch's first events).

Every further line is one :class:`Event`, numbered from 1 in ``n`` and stamped ``at``:

- :class:`CardDrawn` (``draw``): ``card``, ``to`` (where it went), ``deal`` and ``slot`` (and ``pile``);
- :class:`DiceRolled` (``roll``): ``dice``, ``index``;
- :class:`Decision` (``decision``): ``action`` (the move's stable key) and ``text`` (the words shown);
- :class:`Question` (``question``): a journaling question asked, answered or not: its stable
  ``id``, its ``text``, and the draw, roll, decision, end or oracle question it follows (``about``; none for
  the question asked before the first move);
- :class:`JournalEntry` (``journal``): the player's words, verbatim: ``text``, the ``prompt``
  they answered, the draw or roll they are ``about``, the ``question`` event they answer;
- :class:`OracleQuestion` (``oracle``): the player's ``question``, the ``odds``, the d100
  ``roll``, the ``answer`` and the ``spark`` (a card of the oracle deck);
- :class:`Undo` (``undo``): takes back decision ``of`` and the draws that followed it;
- :class:`Correction` (``correction``): replaces draw or roll ``of`` (a card or dice typed
  wrong at a real table) with ``card`` or ``dice``;
- :class:`End` (``end``): the outcome: ``result``, ``score``, ``reason``, ``cause``.

Draws, rolls, decisions, oracle questions and corrections made at a real table say
``"by": "player"``.

Each event reads itself from a log line (:func:`read_event`, :meth:`Header.read`) and writes
itself back (:meth:`Event.record`), as a move has ``parse`` and ``key``. Reading checks a line
against a strict schema before anything uses it: its keys, the type and range of each field,
the size of each string, that strings are valid text, and that ``about``, ``question`` and
``of`` name an earlier event of the right type. A line that fails raises :class:`BadLine`
naming the field; the log file (:mod:`storyteller.log.file`) adds where the line is.

The readers of a log are visitors (:class:`Visitor`): each event dispatches itself to the
visitor method of its type (:meth:`Event.accept`), and a visitor either handles each type of
event or says that it ignores it, so that a new type cannot be forgotten by any of them.
Here, and only here, is an event's type spelled as a string: the log's ``"event"`` field.
"""

from __future__ import annotations

import re
from datetime import date
from dataclasses import MISSING, Field, FrozenInstanceError, field
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar
from collections.abc import Callable, Mapping

from storyteller.core.words import clean

if TYPE_CHECKING:
    from dataclasses import dataclass as record

    from storyteller.log.replay import Step
else:
    def record(frozen: bool = True) -> Callable[[type], type]:
        return _frozen_record

SCHEMA = 1

# -- the schema's bounds ----------------------------------------------------------------

MAX_HEADER_LINE = 16 * 1024  # bytes: a header holds a few short fields
MAX_LINE = 1024 * 1024  # bytes: the longest journal entry, escaped, fits with room to spare
SHORT = 200  # characters: names, keys, card ids, places, results, times
WORDS = 5_000  # characters: the game's words (a move, a question, the ending)
JOURNAL = 100_000  # characters: one journal entry
MAX_NUMBER = 10**9  # deals, places, indexes, scores
MAX_DICE = 100
MAX_SIDES = 1_000
MAX_VARIANTS = 64


Earlier = Callable[[int], "type[Event] | None"]  # the type of event k of the log, if there is one


class BadLine(Exception):
    """One line's problem, without the file and line (the log file adds them)."""


# -- checking values -----------------------------------------------------------------------

_SURROGATE = re.compile(r"[\ud800-\udfff]")
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def show(value: Any) -> str:
    """A short, printable description of a value from a log (never its whole self)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value) if -MAX_NUMBER <= value <= MAX_NUMBER else "a number of many digits"
    if isinstance(value, float):
        return repr(value) if abs(value) < 1e15 else "a very large number"
    if isinstance(value, str):
        text = _SURROGATE.sub("\ufffd", clean(value)).replace("\n", " ")
        return repr(text if len(text) <= 40 else text[:37] + "...")
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def _text(value: Any, name: str, limit: int, plain: bool = True, empty: bool = False) -> str:
    """A string a log may hold: valid text, at most ``limit`` characters; ``plain`` ones
    (names, keys, times) hold no control characters."""
    if not isinstance(value, str):
        raise BadLine(f"{name} must be text, not {show(value)}")
    if not value and not empty:
        raise BadLine(f"{name} must not be empty")
    if len(value) > limit:
        raise BadLine(f"{name} is {len(value):,} characters long; it may hold at most {limit:,}")
    if not (value.isascii() and value.isprintable()):  # the common case needs no search
        if _SURROGATE.search(value):
            raise BadLine(f"{name} is not valid text (it holds a lone surrogate code point)")
        if plain and _CONTROL.search(value):
            raise BadLine(f"{name} holds a control character")
    if plain and value != value.strip():
        raise BadLine(f"{name} has spaces at one end ({show(value)}), as this version never writes it")
    return value


def scrub(text: str) -> str:
    """Text with its lone surrogates (which cannot be UTF-8) replaced by U+FFFD."""
    return _SURROGATE.sub("\ufffd", text)


class _Fields:
    """Reads the fields of one record; every failure is one BadLine naming the field."""

    def __init__(self, record: dict[str, Any], number: int, earlier: Earlier | None) -> None:
        self.record = record
        self.number = number
        self.earlier = earlier
        self.at: str | None = None

    def integer(self, key: str, low: int = 0, high: int = MAX_NUMBER, what: str = "a whole number") -> int:
        value = self.record[key]
        if type(value) is not int:  # a bool is not a number, 33.0 is not a place
            raise BadLine(f"'{key}' must be {what}, not {show(value)}")
        if not low <= value <= high:
            raise BadLine(f"'{key}' must be {what} from {low} to {high:,}, not {show(value)}")
        return value

    def text(self, key: str, limit: int = SHORT, plain: bool = True, empty: bool = False) -> str:
        return _text(self.record[key], f"'{key}'", limit, plain, empty)

    def optional(self, key: str, limit: int = SHORT, plain: bool = True, empty: bool = False) -> str | None:
        return self.text(key, limit, plain, empty) if key in self.record else None

    def dice(self) -> tuple[int, ...]:
        dice = self.record["dice"]
        if not isinstance(dice, list) or not 1 <= len(dice) <= MAX_DICE:
            raise BadLine(f"'dice' must be a list of 1 to {MAX_DICE} dice, not {show(dice)}")
        for die in dice:
            if type(die) is not int or not 1 <= die <= MAX_SIDES:
                raise BadLine(f"'dice' must hold whole numbers from 1 (a die's face), not {show(die)}")
        return tuple(dice)

    def earlier_event(self, key: str, types: tuple[type[Event], ...], what: str, numbered: str | None = None) -> int:
        """``record[key]`` refers to an earlier event of one of ``types`` (``what``, in words;
        ``numbered``, the words for what its number must be, when they differ)."""
        ref = self.record[key]
        if type(ref) is not int or not 1 <= ref < self.number:
            raise BadLine(f"'{key}' must be the number of an earlier {numbered or what}, not {show(ref)}")
        if self.earlier is not None and self.earlier(ref) not in types:
            raise BadLine(f"'{key}' must name an earlier {what}; event {ref} is not one")
        return ref


def _keys(record: dict[str, Any], allowed: frozenset[str], required: tuple[str, ...], what: str) -> None:
    for key in required:
        if key not in record:
            raise BadLine(f"the {what} has no '{key}'")
    for key in record:
        if key not in allowed:
            raise BadLine(f"the {what} has a field {show(key)} this version does not write")


# -- typed records, made quickly ----------------------------------------------------------
#
# The header and the events are declared as frozen dataclasses, and type checkers read them
# so. At run time they are made by this small builder instead: the same __init__ (the fields
# in order, ``kw_only`` ones by keyword), equality, hash, repr and frozenness, without the
# generated code that makes ``dataclass(frozen=True)`` cost a millisecond a class on start-up,
# which every command that reads a log pays.

E = TypeVar("E", bound="Event")


def _frozen_record(cls: type) -> type:
    names: list[str] = []
    defaults: dict[str, Any] = {}
    keyword: set[str] = set()
    for klass in reversed(cls.__mro__):
        for name, kind in vars(klass).get("__annotations__", {}).items():
            if str(kind).startswith(("ClassVar", "typing.ClassVar")):
                continue
            if name not in names:
                names.append(name)
            value = vars(klass).get(name, MISSING)
            if isinstance(value, Field):
                if value.kw_only is True:
                    keyword.add(name)
                value = value.default
            if value is not MISSING:
                defaults[name] = value
    positional = tuple(n for n in names if n not in keyword)
    every = frozenset(names)

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        if len(args) > len(positional):
            raise TypeError(f"{cls.__name__}() takes {len(positional)} positional arguments, not {len(args)}")
        values = dict(zip(positional, args))
        for name, value in kwargs.items():
            if name not in every or name in values:
                raise TypeError(f"{cls.__name__}() got an unexpected or repeated argument {name!r}")
            values[name] = value
        for name in names:
            value = values[name] if name in values else defaults.get(name, MISSING)
            if value is MISSING:
                raise TypeError(f"{cls.__name__}() is missing {name!r}")
            object.__setattr__(self, name, value)

    def values(self: Any) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name in names)

    def __eq__(self: Any, other: object) -> bool:
        return type(other) is type(self) and values(self) == values(other)

    def __hash__(self: Any) -> int:
        return hash(values(self))

    def __repr__(self: Any) -> str:
        return f"{cls.__qualname__}({', '.join(f'{n}={getattr(self, n)!r}' for n in names)})"

    def __setattr__(self: Any, name: str, value: Any) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self: Any, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    for method in (__init__, __eq__, __hash__, __repr__, __setattr__, __delattr__):
        method.__qualname__ = f"{cls.__qualname__}.{method.__name__}"
        setattr(cls, method.__name__, method)
    cls.FIELDS = tuple(names)  # type: ignore[attr-defined]
    return cls


# -- the header ------------------------------------------------------------------------------


@record(frozen=True)
class Header:
    """Line 1 of a log: which game, with which variants, dealt from which seed, and where its
    cards and dice come from (``source``: "seeded", or "physical", "physical cards" or
    "physical dice" for a real table)."""

    game: str
    variants: Mapping[str, str]
    seed: str
    source: str = "seeded"
    version: str | None = None
    started: str | None = None
    mode: str | None = None  # who played: "player", "answers", "auto greedy", "solver"...
    from_log: str | None = None  # a branch: the log it came from
    from_step: int | None = None  # ... and its last event the branch keeps
    campaign: Mapping[str, Any] | None = None  # a campaign's chapter: {"name", "chapter", "recap"}
    deal: Mapping[str, Any] | None = None  # how the seed was chosen: {"chosen", "winnable"[, "date"]}

    FIELDS: ClassVar[tuple[str, ...]] = ()  # every field, in their order (made with the class)
    REQUIRED: ClassVar[tuple[str, ...]] = ("storyteller", "schema", "game", "variants", "seed", "source")
    KEYS: ClassVar[frozenset[str]] = frozenset(REQUIRED + ("version", "started", "mode", "from_log", "from_step",
                                                                 "campaign", "deal"))

    @property
    def branch(self) -> bool:
        return self.from_log is not None

    def replace(self, **changes: Any) -> Header:
        """A copy of the header with ``changes`` (as ``dataclasses.replace``)."""
        return Header(**{**{name: getattr(self, name) for name in self.FIELDS}, **changes})

    def record(self) -> dict[str, Any]:
        """The header as the log writes it."""
        out: dict[str, Any] = {"storyteller": "log", "schema": SCHEMA, "game": self.game,
                               "variants": dict(self.variants), "seed": self.seed, "source": self.source}
        for key in ("version", "started", "mode", "from_log", "from_step"):
            value = getattr(self, key)
            if value is not None:
                out[key] = value
        if self.campaign is not None:
            out["campaign"] = dict(self.campaign)
        if self.deal is not None:
            out["deal"] = dict(self.deal)
        return out

    @classmethod
    def read(cls, record: Any) -> Header:
        """The header a log line holds, checked (raises BadLine)."""
        from storyteller.core.rng import normalize_seed

        if not isinstance(record, dict) or record.get("storyteller") != "log":
            raise BadLine("not a storyteller log header")
        schema = record.get("schema")
        if type(schema) is not int:
            raise BadLine(f"'schema' must be a whole number, not {show(schema)}")
        if schema != SCHEMA:
            raise BadLine(f"log schema {show(schema)} is not one this version reads (it reads {SCHEMA})")
        _keys(record, cls.KEYS, cls.REQUIRED, "header")
        f = _Fields(record, 0, None)
        f.text("game")
        f.text("source")
        for key in ("version", "started", "mode"):
            f.optional(key, empty=True)
        if ("from_log" in record) != ("from_step" in record):
            raise BadLine("a branch names both the log it came from ('from_log') and the step ('from_step')")
        if "from_log" in record:
            f.text("from_log")
            step = record["from_step"]
            if type(step) is not int or step < 1:
                raise BadLine(f"'from_step' must be a step number, 1 or more, not {show(step)}")
        campaign = _campaign(record["campaign"]) if "campaign" in record else None
        deal = _deal(record["deal"]) if "deal" in record else None
        variants = record["variants"]
        if not isinstance(variants, dict):
            raise BadLine(f"'variants' must be a mapping, not {show(variants)}")
        if len(variants) > MAX_VARIANTS:
            raise BadLine(f"'variants' holds {len(variants):,} entries; at most {MAX_VARIANTS}")
        for name, value in variants.items():
            _text(name, "a variant's name", SHORT)
            _text(value, f"the variant {show(name)}", SHORT, empty=True)
        seed = record["seed"]
        if not isinstance(seed, str):
            raise BadLine(f"'seed' must be text, not {show(seed)}")
        _text(seed, "'seed'", SHORT * 10, plain=False, empty=True)
        try:
            if normalize_seed(seed) != seed:
                raise ValueError("a seed has no spaces at either end")
        except ValueError as e:
            raise BadLine(f"'seed' is not a seed storyteller makes: {e}") from None
        return cls(game=record["game"], variants=dict(variants), seed=seed, source=record["source"],
                   version=record.get("version"), started=record.get("started"), mode=record.get("mode"),
                   from_log=record.get("from_log"), from_step=record.get("from_step"), campaign=campaign,
                   deal=deal)


CAMPAIGN_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,39}")


def _campaign(value: Any) -> dict[str, Any]:
    """A header's campaign: which campaign the game is a chapter of, which chapter, and the
    story so far told at its start (raises BadLine)."""
    if not isinstance(value, dict):
        raise BadLine(f"'campaign' must be a mapping, not {show(value)}")
    _keys(value, frozenset(("name", "chapter", "recap")), ("name", "chapter"), "campaign")
    name, chapter, recap = value["name"], value["chapter"], value.get("recap", "")
    if not isinstance(name, str) or not CAMPAIGN_NAME.fullmatch(name):
        raise BadLine(f"a campaign's name is letters, digits, - and _ (at most 40), not {show(name)}")
    if type(chapter) is not int or not 1 <= chapter <= 10_000:
        raise BadLine(f"a campaign's 'chapter' must be a whole number from 1, not {show(chapter)}")
    _text(recap, "the campaign's 'recap'", WORDS, plain=False, empty=True)
    return {"name": name, "chapter": chapter, "recap": recap}


DEALS = ("winnable", "easy", "hard", "daily")  # how a deal can be chosen (``play --deal``, ``--daily``)
_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")


def _deal(value: Any) -> dict[str, Any]:
    """A header's deal: how its seed was chosen ("winnable", "easy", "hard": a fresh deal the
    solver proved winnable; "daily": the day's deal, with its ``date``) and whether the
    solver proved it winnable (raises BadLine)."""
    if not isinstance(value, dict):
        raise BadLine(f"'deal' must be a mapping, not {show(value)}")
    _keys(value, frozenset(("chosen", "winnable", "date")), ("chosen", "winnable"), "deal")
    chosen, winnable = value["chosen"], value["winnable"]
    if chosen not in DEALS:
        raise BadLine(f"a deal is chosen as {', '.join(DEALS)}, not {show(chosen)}")
    if type(winnable) is not bool:
        raise BadLine(f"a deal's 'winnable' must be true or false, not {show(winnable)}")
    if chosen != "daily" and not winnable:
        raise BadLine(f"a deal chosen as {chosen} is one the solver proved winnable: 'winnable' must be true")
    if (chosen == "daily") != ("date" in value):
        raise BadLine("the day's deal names its 'date', and only it")
    out = {"chosen": chosen, "winnable": winnable}
    if chosen == "daily":
        day = value["date"]
        if not isinstance(day, str) or not _DAY.fullmatch(day):
            raise BadLine(f"a deal's 'date' is a day written YYYY-MM-DD, not {show(day)}")
        try:
            date.fromisoformat(day)
        except ValueError:
            raise BadLine(f"a deal's 'date' is not a day of the calendar: {show(day)}") from None
        out["date"] = day
    return out


# -- the events ------------------------------------------------------------------------------


@record(frozen=True)
class Event:
    """One line of a log after the header: its number ``n`` (from 1) and when it was written
    (``at``; absent from a hand-made log). Each type of event says how it reads itself from a
    line (``_read``) and which method of a :class:`Visitor` it calls (:meth:`accept`)."""

    n: int
    at: str | None = field(default=None, kw_only=True)

    kind: ClassVar[str] = ""  # the log's "event" field
    FIELDS: ClassVar[tuple[str, ...]] = ()  # every field, in their order (made with the class)
    REQUIRED: ClassVar[tuple[str, ...]] = ()
    OPTIONAL: ClassVar[tuple[str, ...]] = ()

    def record(self) -> dict[str, Any]:
        """The event as the log writes it: ``n``, ``event``, its fields in their order (the
        optional ones when they are set), ``at``."""
        out: dict[str, Any] = {"n": self.n, "event": self.kind}
        for name in self.REQUIRED + self.OPTIONAL:
            value = getattr(self, name)
            if value is not None or name in self.REQUIRED:
                out[name] = list(value) if isinstance(value, tuple) else value
        if self.at is not None:
            out["at"] = self.at
        return out

    def replace(self: E, **changes: Any) -> E:
        """A copy of the event with ``changes`` (as ``dataclasses.replace``)."""
        return type(self)(**{**{name: getattr(self, name) for name in self.FIELDS}, **changes})

    @classmethod
    def _read(cls, f: _Fields) -> Event:
        raise NotImplementedError

    def accept(self, visitor: Visitor, step: Step) -> None:
        raise NotImplementedError


@record(frozen=True)
class CardDrawn(Event):
    """A card turned up: which (``card``), where it went (``to``), and its place in the deal
    (shuffle number ``deal`` of ``pile``, place ``slot``)."""

    card: str
    to: str
    deal: int
    slot: int
    pile: str | None = None  # None: the "deck"
    by: str | None = None

    kind: ClassVar[str] = "draw"
    REQUIRED: ClassVar[tuple[str, ...]] = ("card", "to", "deal", "slot")
    OPTIONAL: ClassVar[tuple[str, ...]] = ("pile", "by")

    @property
    def place(self) -> tuple[str, int, int, str]:
        return (self.to, self.deal, self.slot, self.pile or "deck")

    @classmethod
    def _read(cls, f: _Fields) -> CardDrawn:
        return cls(f.number, at=f.at, card=f.text("card"), to=f.text("to"), deal=f.integer("deal"),
                   slot=f.integer("slot"), pile=f.optional("pile"), by=f.optional("by"))

    def accept(self, visitor: Visitor, step: Step) -> None:
        visitor.on_draw(step)


@record(frozen=True)
class DiceRolled(Event):
    """Dice rolled: the ``index``-th roll of the game."""

    dice: tuple[int, ...]
    index: int
    by: str | None = None

    kind: ClassVar[str] = "roll"
    REQUIRED: ClassVar[tuple[str, ...]] = ("dice", "index")
    OPTIONAL: ClassVar[tuple[str, ...]] = ("by",)

    @classmethod
    def _read(cls, f: _Fields) -> DiceRolled:
        return cls(f.number, at=f.at, dice=f.dice(), index=f.integer("index"), by=f.optional("by"))

    def accept(self, visitor: Visitor, step: Step) -> None:
        visitor.on_roll(step)


@record(frozen=True)
class Decision(Event):
    """A move made: its stable key (``action``) and the words the player was shown."""

    action: str
    text: str | None = None
    by: str | None = None

    kind: ClassVar[str] = "decision"
    REQUIRED: ClassVar[tuple[str, ...]] = ("action",)
    OPTIONAL: ClassVar[tuple[str, ...]] = ("text", "by")

    @classmethod
    def _read(cls, f: _Fields) -> Decision:
        return cls(f.number, at=f.at, action=f.text("action"), text=f.optional("text", WORDS, plain=False, empty=True),
                   by=f.optional("by"))

    def accept(self, visitor: Visitor, step: Step) -> None:
        visitor.on_decision(step)


@record(frozen=True)
class JournalEntry(Event):
    """The player's words, verbatim; the ``prompt`` they answer, the draw or roll they are
    ``about``, and the ``question`` event they answer."""

    text: str
    prompt: str | None = None
    about: int | None = None
    question: int | None = None

    kind: ClassVar[str] = "journal"
    REQUIRED: ClassVar[tuple[str, ...]] = ("text",)
    OPTIONAL: ClassVar[tuple[str, ...]] = ("prompt", "about", "question")

    @classmethod
    def _read(cls, f: _Fields) -> JournalEntry:
        text = f.text("text", JOURNAL, plain=False, empty=True)
        prompt = f.optional("prompt", WORDS, plain=False, empty=True)
        about = (f.earlier_event("about", (CardDrawn, DiceRolled, Correction), "draw or roll")
                 if "about" in f.record else None)
        question = f.earlier_event("question", (Question,), "question") if "question" in f.record else None
        return cls(f.number, at=f.at, text=text, prompt=prompt, about=about, question=question)

    def accept(self, visitor: Visitor, step: Step) -> None:
        visitor.on_journal(step)


@record(frozen=True)
class Question(Event):
    """A journaling question asked (answered or not): its stable ``id`` and its ``text``, and
    the draw, roll, decision, end or oracle question it follows (``about``; None before the
    first move)."""

    id: str
    text: str
    about: int | None = None

    kind: ClassVar[str] = "question"
    REQUIRED: ClassVar[tuple[str, ...]] = ("id", "text")
    OPTIONAL: ClassVar[tuple[str, ...]] = ("about",)

    @classmethod
    def _read(cls, f: _Fields) -> Question:
        qid, text = f.text("id"), f.text("text", WORDS, plain=False)
        about = (f.earlier_event("about", (CardDrawn, DiceRolled, Correction, Decision, End, OracleQuestion),
                                 "draw, roll, decision, end or oracle question", numbered="event")
                 if "about" in f.record else None)
        return cls(f.number, at=f.at, id=qid, text=text, about=about)

    def accept(self, visitor: Visitor, step: Step) -> None:
        visitor.on_question(step)


@record(frozen=True)
class OracleQuestion(Event):
    """A yes/no question asked of the oracle: the player's ``question``, the ``odds``, the
    d100 ``roll``, the ``answer`` and the ``spark`` (a card of the oracle deck)."""

    question: str
    odds: str
    roll: int
    answer: str
    spark: str
    by: str | None = None

    kind: ClassVar[str] = "oracle"
    REQUIRED: ClassVar[tuple[str, ...]] = ("question", "odds", "roll", "answer", "spark")
    OPTIONAL: ClassVar[tuple[str, ...]] = ("by",)

    @classmethod
    def _read(cls, f: _Fields) -> OracleQuestion:
        return cls(f.number, at=f.at, question=f.text("question", WORDS, plain=False), odds=f.text("odds"),
                   roll=f.integer("roll", 1, 100, "a d100 roll"), answer=f.text("answer"), spark=f.text("spark"),
                   by=f.optional("by"))

    def accept(self, visitor: Visitor, step: Step) -> None:
        visitor.on_oracle(step)


@record(frozen=True)
class Undo(Event):
    """Takes back decision ``of`` and the draws and rolls that followed it."""

    of: int

    kind: ClassVar[str] = "undo"
    REQUIRED: ClassVar[tuple[str, ...]] = ("of",)

    @classmethod
    def _read(cls, f: _Fields) -> Undo:
        return cls(f.number, at=f.at, of=f.earlier_event("of", (Decision,), "decision"))

    def accept(self, visitor: Visitor, step: Step) -> None:
        visitor.on_undo(step)


@record(frozen=True)
class Correction(Event):
    """At a real table, the card or dice really turned up for draw or roll ``of`` (or for an
    earlier correction of it), entered wrong before."""

    of: int
    card: str | None = None
    dice: tuple[int, ...] | None = None
    by: str | None = None

    kind: ClassVar[str] = "correction"
    REQUIRED: ClassVar[tuple[str, ...]] = ("of",)
    OPTIONAL: ClassVar[tuple[str, ...]] = ("card", "dice", "by")

    @classmethod
    def _read(cls, f: _Fields) -> Correction:
        of = f.earlier_event("of", (CardDrawn, DiceRolled, Correction), "draw or roll")
        if ("card" in f.record) == ("dice" in f.record):
            raise BadLine("a correction gives either the 'card' or the 'dice' that were really turned up")
        card = f.text("card") if "card" in f.record else None
        dice = f.dice() if "dice" in f.record else None
        return cls(f.number, at=f.at, of=of, card=card, dice=dice, by=f.optional("by"))

    def accept(self, visitor: Visitor, step: Step) -> None:
        visitor.on_correction(step)


@record(frozen=True)
class End(Event):
    """The outcome: ``result``, ``score`` (None when the game scores nothing), the ``reason``
    in the rules' words and its machine-readable ``cause``."""

    result: str
    score: int | None = None
    reason: str | None = None
    cause: str | None = None

    kind: ClassVar[str] = "end"
    REQUIRED: ClassVar[tuple[str, ...]] = ("result",)
    OPTIONAL: ClassVar[tuple[str, ...]] = ("score", "reason", "cause")

    def record(self) -> dict[str, Any]:
        out: dict[str, Any] = {"n": self.n, "event": self.kind, "result": self.result, "score": self.score}
        for name in ("reason", "cause", "at"):  # the end always says its score, null when there is none
            value = getattr(self, name)
            if value is not None:
                out[name] = value
        return out

    @classmethod
    def _read(cls, f: _Fields) -> End:
        result = f.text("result")
        score = f.integer("score", -MAX_NUMBER, MAX_NUMBER) if f.record.get("score") is not None else None
        return cls(f.number, at=f.at, result=result, score=score,
                   reason=f.optional("reason", WORDS, plain=False, empty=True), cause=f.optional("cause", empty=True))

    def accept(self, visitor: Visitor, step: Step) -> None:
        visitor.on_end(step)


EVENTS: tuple[type[Event], ...] = (CardDrawn, DiceRolled, Decision, Question, JournalEntry, OracleQuestion, Undo,
                                   Correction, End)
_BY_KIND: dict[str, type[Event]] = {t.kind: t for t in EVENTS}
_KEYS: dict[type[Event], frozenset[str]] = {
    t: frozenset(("n", "event", "at") + t.REQUIRED + t.OPTIONAL) for t in EVENTS
}
Revealed = CardDrawn | DiceRolled  # what a draw or roll step turned up (a correction reads as one)
WORDS_OF_PLAYER = (JournalEntry, Question)  # the last words, which may follow the end


def read_event(record: Any, n: int | None, earlier: Earlier | None = None) -> Event:
    """The event a log line holds, checked (raises BadLine). ``n`` is the number it must have
    (None when it is not known: a line read from the end of a file); ``earlier(k)`` gives the
    type of event ``k`` (None if there is none), to check what ``about``, ``question`` and
    ``of`` refer to."""
    if not isinstance(record, dict):
        raise BadLine(f"not an event object (it is {show(record)})")
    kind = record.get("event")
    if not isinstance(kind, str):
        raise BadLine(f"'event' must be text naming the kind of event, not {show(kind)}")
    if kind not in _BY_KIND:
        raise BadLine(f"unknown event {show(kind)}")
    number = record.get("n")
    if type(number) is not int or (n is not None and number != n) or number < 1:
        expected = n if n is not None else "a whole number from 1"
        raise BadLine(f"event number {show(number)} where {expected} was expected")
    cls = _BY_KIND[kind]
    _keys(record, _KEYS[cls], cls.REQUIRED, f"{kind} event")
    f = _Fields(record, number, earlier)
    f.at = f.text("at", empty=True) if "at" in record else None
    return cls._read(f)


# -- the readers --------------------------------------------------------------------------------

class Visitor:
    """A reader of a game's steps (see :mod:`storyteller.log.replay`), called for each step
    with the method of its event's type: ``on_draw``, ``on_roll``, ``on_decision``,
    ``on_question``, ``on_journal``, ``on_oracle``, ``on_undo``, ``on_correction`` and
    ``on_end``.

    Every visitor handles each type of event or says it ignores it (``ignores``, the event
    types it has no use for): a subclass that does neither for some type cannot be made, so a
    new type of event is thought about by every reader before the first log holds one."""

    ignores: ClassVar[tuple[type[Event], ...]] = ()
    abstract: ClassVar[bool] = False  # a base for other visitors: it need not handle every type yet

    HANDLERS: ClassVar[dict[type[Event], str]] = {
        CardDrawn: "on_draw", DiceRolled: "on_roll", Decision: "on_decision", Question: "on_question",
        JournalEntry: "on_journal", OracleQuestion: "on_oracle", Undo: "on_undo", Correction: "on_correction",
        End: "on_end",
    }

    def __init_subclass__(cls, abstract: bool = False, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.abstract = abstract
        if abstract:
            return
        missing = [t.__name__ for t in unhandled(cls)]
        if missing:
            raise TypeError(f"{cls.__qualname__} neither handles nor ignores {', '.join(missing)}: "
                            f"give it the method for each, or name the type in its 'ignores'")

    def on_draw(self, step: Step) -> None:
        pass

    def on_roll(self, step: Step) -> None:
        pass

    def on_decision(self, step: Step) -> None:
        pass

    def on_question(self, step: Step) -> None:
        pass

    def on_journal(self, step: Step) -> None:
        pass

    def on_oracle(self, step: Step) -> None:
        pass

    def on_undo(self, step: Step) -> None:
        pass

    def on_correction(self, step: Step) -> None:
        pass

    def on_end(self, step: Step) -> None:
        pass

    def finish(self) -> None:
        """Called once every step has been visited."""


def handles(cls: type[Visitor], event: type[Event]) -> bool:
    """Whether a visitor class has its own method for this type of event."""
    name = Visitor.HANDLERS[event]
    return any(name in vars(k) for k in cls.__mro__ if k is not Visitor and issubclass(k, Visitor))


def unhandled(cls: type[Visitor]) -> list[type[Event]]:
    """The event types a visitor class neither handles nor ignores."""
    ignored = {t for k in cls.__mro__ if issubclass(k, Visitor) for t in vars(k).get("ignores", ())}
    return [t for t in EVENTS if t not in ignored and not handles(cls, t)]

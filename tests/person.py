"""A person at the table, for tests: answers typed one line at a time, as the game asks.

``tests/test_person.py`` plays storyteller the way a person does and needs to see a little of
a session to do it (the legal moves, the card the game waits for). Everything it touches of
storyteller's insides is here, in one place, so that a change to the session or the drivers
is mended here only:

- ``Lines``: the answers driver of ``--answers FILE`` (the same syntax, parsed by the same
  code), whose lines are not read from a file but asked for one at a time: when the driver
  looks for its next line and has none left, ``supply(session, waiting)`` gives the lines to
  add, where ``waiting`` says what for: ``"move"`` (a move, ``journal:``, ``oracle ...``,
  ``undo``, ``quit``, ``abandon``), ``"answer"`` (a question was just asked: a ``journal:``
  line answers it, anything else is kept for later), ``"entry"`` (a card or dice at a real
  table), ``"last words"`` (after the end) or ``"end check"`` (a correction of the card that
  ended the game). No lines: nothing here (for a move, the answers have run out).
- ``typing(supply)``: while it lasts, ``--answers`` plays from such a driver, so that
  ``play``, ``resume`` and ``play --from LOG --step N`` run as the command line runs them.
- The few facts of a session a person sees on the screen: ``moves``, ``entry``,
  ``can_undo``; the commands as functions (``play``, ``resume``, ``branch``, ``replay``,
  ``export``) returning the exit code and what they printed.
"""

from __future__ import annotations

import contextlib
import io
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any
from unittest import mock

from storyteller import app, registry
from storyteller.core.engine import Roll
from storyteller.core.sources import SeededSource
from storyteller.ui import drivers

Supply = Callable[[Any, str], Sequence[str]]


class Lines(drivers.AnswersDriver):
    """An answers driver whose lines come from ``supply`` as they are needed."""

    def __init__(self, supply: Supply, questions: str = "every-reveal") -> None:
        super().__init__([], "person", questions)
        self.supply = supply
        self.waiting = "move"
        self.session: Any = None

    def _peek(self) -> tuple[int, str] | None:
        if self.pos >= len(self.lines):
            for text in self.supply(self.session, self.waiting):
                self.lines.append((len(self.lines) + 1, text))
        return super()._peek()

    def _waiting(self, session: Any, what: str) -> None:
        self.session, self.waiting = session, what

    def begin(self, session, resumed):
        self._waiting(session, "move")
        super().begin(session, resumed)

    def choose(self, session):
        self._waiting(session, "move")
        return super().choose(session)

    def enter(self, session, request):
        self._waiting(session, "entry")
        return super().enter(session, request)

    def check_end(self, session):
        self._waiting(session, "end check")
        return super().check_end(session)

    def after_draw(self, session, *step):
        self._waiting(session, "answer")
        super().after_draw(session, *step)

    def after_decision(self, session, *step):
        self._waiting(session, "answer")
        super().after_decision(session, *step)

    def after_end(self, session):
        self._waiting(session, "last words")
        super().after_end(session)


@contextlib.contextmanager
def typing(supply: Supply) -> Iterator[None]:
    """``--answers`` plays from ``Lines(supply)`` (whatever file it names) while this lasts."""

    def from_file(cls, path: Path, questions: str = "every-reveal") -> Lines:
        return Lines(supply, questions)

    with mock.patch.object(drivers.AnswersDriver, "from_file", classmethod(from_file)):
        yield


# -- what a person sees -------------------------------------------------------------------


def rule_sets(game: str) -> list[list[str]]:
    """The standard rules, then each variant's other choices one at a time, as ``--variant``
    values."""
    rules = registry.rules(game)
    sets: list[list[str]] = [[]]
    for v in rules.variants:
        for choice in v.choices[1:]:
            sets.append([v.name if v.flag else f"{v.name}={choice}"])
    return sets


def tables(game: str) -> list[list[str] | None]:
    """Where the cards and dice come from: the seed (None), or ``--physical`` and its words."""
    return [None, [], ["cards"], ["dice"]] if registry.rules(game).dice else [None, []]


def moves(session: Any) -> list[tuple[str, str]]:
    """The legal moves now: (key, the words shown)."""
    return [(action.key, action.text) for action in session.legal_actions()]


def can_undo(session: Any) -> bool:
    return bool(session.can_undo())


def entry(session: Any) -> str:
    """What a person at a real table types for the card or dice the game waits for: what the
    seed would have dealt or rolled there (``draw CARD``, ``roll 3 5 6 1 2``)."""
    request = session.state.chance()
    value = SeededSource(session.seed, session.game, session.variants).resolve(request)
    return "roll " + " ".join(map(str, value)) if isinstance(request, Roll) else f"draw {value}"


# -- the commands -------------------------------------------------------------------------


def _run(func: Callable[..., int], *args: Any, **kwargs: Any) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = func(*args, **kwargs)
    return code, out.getvalue()


def play(game: str, seed: str, variants: Sequence[str], log: Path, table: Sequence[str] | None) -> tuple[int, str]:
    """``storyteller play GAME --seed SEED --variant ... [--physical ...] --answers X --log LOG``."""
    return _run(app.play, game, seed=seed, variants=list(variants), log=log, answers=Path("answers"),
                physical=table is not None, extra=list(table or []))


def resume(log: Path) -> tuple[int, str]:
    """``storyteller resume LOG --answers X``."""
    return _run(app.resume, log, answers=Path("answers"))


def branch(old: Path, step: int, log: Path) -> tuple[int, str]:
    """``storyteller play --from OLD --step N --log LOG --answers X``."""
    return _run(app.play, None, from_log=old, step=step, log=log, answers=Path("answers"))


def replay(log: Path) -> tuple[int, str]:
    """``storyteller replay LOG``."""
    return _run(app.replay, log)


def export(log: Path, fmt: str, kind: str | None) -> tuple[int, str]:
    """``storyteller export LOG --format FMT [--story | --playthrough]``."""
    return _run(app.export, log, story=kind == "story", playthrough=kind == "playthrough", format=fmt)

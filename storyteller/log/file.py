"""The event log: JSON Lines, append-only, every line flushed and fsynced as it happens.

Line 1 is the header::

    {"storyteller": "log", "schema": 1, "game": "carddom", "variants": {...},
     "seed": "42", "source": "seeded", "version": "0.1.0", "started": "...", "mode": "player"}

A branch (``play --from LOG --step N``) also names where it came from: ``from_log`` (the
old log's file name) and ``from_step`` (its events 1 to N are the branch's first events).

Every further line is one event, numbered from 1 in ``n``:

    draw      a card drawn: ``card``, ``to`` (where it went), ``deal`` and ``slot`` (and ``pile``)
    roll      dice rolled: ``dice``, ``index``
    decision  a choice: ``action`` (the stable key) and ``text`` (the words shown)
    question  a journaling question asked, answered or not: its stable ``id`` and its
              ``text``, and the draw, roll, decision or end it follows (``about``; none for
              the question asked before the first move)
    journal   the player's words, verbatim: ``text``, the ``prompt`` they answered, the
              draw or roll they are ``about``, the ``question`` event they answer
    oracle    a yes/no question asked of the oracle: the player's ``question``, the
              ``odds``, the d100 ``roll``, the ``answer`` and the ``spark`` (a card of the
              oracle deck); ``"by": "player"`` when the player rolled it at a real table
    undo      takes back decision ``of`` and the draws that followed it
    correction  replaces draw or roll ``of`` (a card or dice typed wrong at a real table):
              ``card`` or ``dice``; draws and rolls entered at a real table say ``"by": "player"``
    end       the outcome: ``result``, ``score``, ``reason``, ``cause``

Every line is checked against a strict schema before anything uses it (:func:`check_header`,
:func:`check_event`): its keys, the type and range of each field, the size of each string,
and that strings are valid text. A log that fails gets one :class:`LogError` naming the
line and the field. A bad *last* line is a :class:`TruncatedLog`: the part before it is
intact, and ``resume --yes`` sets the bad line aside in ``<log>.cut-off``.

A session writes under an exclusive lock (:class:`LogWriter`): ``fcntl.flock`` on POSIX,
a byte locked far beyond the end of the file on Windows (so readers are never blocked).
Readers (replay, export, sessions) take no lock. The writer's process id is kept beside
the log in ``<log>.pid`` while it writes, to say who holds a game open.
"""

from __future__ import annotations

import errno
import json
import os
import re
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable, Iterator

from storyteller.core.words import clean, command

SCHEMA = 1

# -- the schema --------------------------------------------------------------------------

MAX_HEADER_LINE = 16 * 1024  # bytes: a header holds a few short fields
MAX_LINE = 1024 * 1024  # bytes: the longest journal entry, escaped, fits with room to spare
MAX_LOG = 1024 * 1024 * 1024  # bytes: no real log comes near
SHORT = 200  # characters: names, keys, card ids, places, results, times
WORDS = 5_000  # characters: the game's words (a move, a question, the ending)
JOURNAL = 100_000  # characters: one journal entry
MAX_NUMBER = 10**9  # deals, places, indexes, scores
MAX_DICE = 100
MAX_SIDES = 1_000
MAX_VARIANTS = 64

HEADER_REQUIRED = ("storyteller", "schema", "game", "variants", "seed", "source")
HEADER_KEYS = frozenset(HEADER_REQUIRED + ("version", "started", "mode", "from_log", "from_step"))

EVENT_REQUIRED: dict[str, tuple[str, ...]] = {
    "draw": ("card", "to", "deal", "slot"),
    "roll": ("dice", "index"),
    "decision": ("action",),
    "journal": ("text",),
    "question": ("id", "text"),
    "oracle": ("question", "odds", "roll", "answer", "spark"),
    "undo": ("of",),
    "correction": ("of",),
    "end": ("result",),
}
EVENT_OPTIONAL: dict[str, tuple[str, ...]] = {
    "draw": ("pile", "by"),
    "roll": ("by",),
    "decision": ("text", "by"),
    "journal": ("prompt", "about", "question"),
    "question": ("about",),
    "oracle": ("by",),
    "undo": (),
    "correction": ("card", "dice", "by"),
    "end": ("score", "reason", "cause"),
}
EVENT_KEYS = {
    kind: frozenset(("n", "event", "at") + EVENT_REQUIRED[kind] + EVENT_OPTIONAL[kind]) for kind in EVENT_REQUIRED
}


class LogError(Exception):
    """A log that cannot be read (or written) as it is; the message names the line and the problem."""


class TruncatedLog(LogError):
    """The last line is bad (a crash mid-write, or an edit). ``intact`` holds the good part."""

    def __init__(self, message: str, intact: "GameLog") -> None:
        super().__init__(message)
        self.intact = intact


class LogLocked(LogError):
    """Another storyteller is writing this log."""

    def __init__(self, path: Path, pid: int | None) -> None:
        who = f" (pid {pid})" if pid else ""
        super().__init__(f"{path}: this game is open in another storyteller{who}; finish or quit it there first")
        self.pid = pid


class DiskFull(LogError):
    """The disk filled up while the log was written; what was written before is whole."""


class _Bad(Exception):
    """One line's problem, without the file and line (the caller adds them)."""


def now() -> str:
    return datetime.now(timezone.utc).astimezone().isoformat(timespec="seconds")


@dataclass
class GameLog:
    path: Path | None
    header: dict[str, Any]
    events: list[dict[str, Any]] = field(default_factory=list)
    size: int = 0  # bytes of the file these lines take (the intact part, for a cut-off log)
    file_size: int = 0  # bytes of the whole file when it was read

    @property
    def game(self) -> str:
        return self.header["game"]

    @property
    def seed(self) -> str:
        return self.header["seed"]

    @property
    def variants(self) -> dict[str, str]:
        return dict(self.header["variants"])

    @property
    def finished(self) -> bool:
        return any(e["event"] == "end" for e in self.events)

    @property
    def end(self) -> dict[str, Any] | None:
        for e in reversed(self.events):
            if e["event"] == "end":
                return e
        return None

    def journal(self) -> list[dict[str, Any]]:
        return [e for e in self.events if e["event"] == "journal"]


# -- reading one line --------------------------------------------------------------------


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out = dict(pairs)
    if len(out) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _Bad(f"has the key {_show(key)} twice")
            seen.add(key)
    return out


def _constant(name: str) -> Any:
    raise _Bad(f"holds {name}, which is not a number JSON allows")


_DECODER = json.JSONDecoder(object_pairs_hook=_pairs, parse_constant=_constant)


def _load(raw: bytes, limit: int = MAX_LINE) -> Any:
    """One line's JSON value, or _Bad saying why it cannot be read."""
    if len(raw) > limit:
        raise _Bad(f"is too long ({len(raw):,} bytes; a line of a log holds at most {limit:,})")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise _Bad("is not valid UTF-8 text") from None
    if not text.strip():
        raise _Bad("is empty")
    try:
        return _DECODER.decode(text)
    except RecursionError:
        raise _Bad("nests too deeply to be a log line") from None
    except json.JSONDecodeError:
        raise _Bad("is not valid JSON") from None
    except ValueError:  # a number with thousands of digits
        raise _Bad("holds a number too long to read") from None


# -- checking a line ---------------------------------------------------------------------

_SURROGATE = re.compile(r"[\ud800-\udfff]")
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def _show(value: Any) -> str:
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


class _Fields:
    """Checks the fields of one record; every failure is one _Bad naming the field."""

    def __init__(self, record: dict[str, Any]) -> None:
        self.record = record

    def integer(self, key: str, low: int = 0, high: int = MAX_NUMBER, what: str = "a whole number") -> int:
        value = self.record[key]
        if type(value) is not int:  # a bool is not a number, 33.0 is not a place
            raise _Bad(f"'{key}' must be {what}, not {_show(value)}")
        if not low <= value <= high:
            raise _Bad(f"'{key}' must be {what} from {low} to {high:,}, not {_show(value)}")
        return value

    def text(self, key: str, limit: int = SHORT, plain: bool = True, empty: bool = False) -> str:
        return _text(self.record[key], f"'{key}'", limit, plain, empty)


def _text(value: Any, name: str, limit: int, plain: bool = True, empty: bool = False) -> str:
    """A string a log may hold: valid text, at most ``limit`` characters; ``plain`` ones
    (names, keys, times) hold no control characters."""
    if not isinstance(value, str):
        raise _Bad(f"{name} must be text, not {_show(value)}")
    if not value and not empty:
        raise _Bad(f"{name} must not be empty")
    if len(value) > limit:
        raise _Bad(f"{name} is {len(value):,} characters long; it may hold at most {limit:,}")
    if not (value.isascii() and value.isprintable()):  # the common case needs no search
        if _SURROGATE.search(value):
            raise _Bad(f"{name} is not valid text (it holds a lone surrogate code point)")
        if plain and _CONTROL.search(value):
            raise _Bad(f"{name} holds a control character")
    if plain and value != value.strip():
        raise _Bad(f"{name} has spaces at one end ({_show(value)}), as this version never writes it")
    return value


def _keys(record: dict[str, Any], allowed: frozenset[str], required: tuple[str, ...], what: str) -> None:
    for key in required:
        if key not in record:
            raise _Bad(f"the {what} has no '{key}'")
    for key in record:
        if key not in allowed:
            raise _Bad(f"the {what} has a field {_show(key)} this version does not write")


def check_header(header: Any) -> dict[str, Any]:
    """The header, checked (raises _Bad)."""
    from storyteller.core.rng import normalize_seed

    if not isinstance(header, dict) or header.get("storyteller") != "log":
        raise _Bad("not a storyteller log header")
    schema = header.get("schema")
    if type(schema) is not int:
        raise _Bad(f"'schema' must be a whole number, not {_show(schema)}")
    if schema != SCHEMA:
        raise _Bad(f"log schema {_show(schema)} is not one this version reads (it reads {SCHEMA})")
    _keys(header, HEADER_KEYS, HEADER_REQUIRED, "header")
    f = _Fields(header)
    f.text("game")
    f.text("source")
    for key in ("version", "started", "mode"):
        if key in header:
            f.text(key, empty=True)
    if ("from_log" in header) != ("from_step" in header):
        raise _Bad("a branch names both the log it came from ('from_log') and the step ('from_step')")
    if "from_log" in header:
        f.text("from_log")
        step = header["from_step"]
        if type(step) is not int or step < 1:
            raise _Bad(f"'from_step' must be a step number, 1 or more, not {_show(step)}")
    variants = header["variants"]
    if not isinstance(variants, dict):
        raise _Bad(f"'variants' must be a mapping, not {_show(variants)}")
    if len(variants) > MAX_VARIANTS:
        raise _Bad(f"'variants' holds {len(variants):,} entries; at most {MAX_VARIANTS}")
    for name, value in variants.items():
        _text(name, "a variant's name", SHORT)
        _text(value, f"the variant {_show(name)}", SHORT, empty=True)
    seed = header["seed"]
    if not isinstance(seed, str):
        raise _Bad(f"'seed' must be text, not {_show(seed)}")
    _text(seed, "'seed'", SHORT * 10, plain=False, empty=True)
    try:
        if normalize_seed(seed) != seed:
            raise ValueError("a seed has no spaces at either end")
    except ValueError as e:
        raise _Bad(f"'seed' is not a seed storyteller makes: {e}") from None
    return header


def _dice(dice: Any) -> None:
    if not isinstance(dice, list) or not 1 <= len(dice) <= MAX_DICE:
        raise _Bad(f"'dice' must be a list of 1 to {MAX_DICE} dice, not {_show(dice)}")
    for die in dice:
        if type(die) is not int or not 1 <= die <= MAX_SIDES:
            raise _Bad(f"'dice' must hold whole numbers from 1 (a die's face), not {_show(die)}")


def _earlier(event: dict[str, Any], key: str, number: int, earlier: Callable[[int], str | None] | None,
             kinds: tuple[str, ...], what: str, numbered: str | None = None) -> None:
    """``event[key]`` refers to an earlier event of one of ``kinds`` (``what``, in words;
    ``numbered``, the words for what its number must be, when they differ)."""
    ref = event[key]
    if type(ref) is not int or not 1 <= ref < number:
        raise _Bad(f"'{key}' must be the number of an earlier {numbered or what}, not {_show(ref)}")
    if earlier is not None and earlier(ref) not in kinds:
        raise _Bad(f"'{key}' must name an earlier {what}; event {ref} is not one")


def check_event(event: Any, n: int | None, earlier: Callable[[int], str | None] | None = None) -> dict[str, Any]:
    """One event, checked (raises _Bad). ``n`` is the number it must have (None when it is
    not known: a line read from the end of a file); ``earlier(k)`` gives the kind of event
    ``k`` (None if there is none), to check what ``about`` and ``of`` refer to."""
    if not isinstance(event, dict):
        raise _Bad(f"not an event object (it is {_show(event)})")
    kind = event.get("event")
    if not isinstance(kind, str):
        raise _Bad(f"'event' must be text naming the kind of event, not {_show(kind)}")
    if kind not in EVENT_REQUIRED:
        raise _Bad(f"unknown event {_show(kind)}")
    number = event.get("n")
    if type(number) is not int or (n is not None and number != n) or number < 1:
        expected = n if n is not None else "a whole number from 1"
        raise _Bad(f"event number {_show(number)} where {expected} was expected")
    _keys(event, EVENT_KEYS[kind], EVENT_REQUIRED[kind], f"{kind} event")
    f = _Fields(event)
    if "at" in event:
        f.text("at", empty=True)
    if kind == "draw":
        f.text("card")
        f.text("to")
        f.integer("deal")
        f.integer("slot")
        if "pile" in event:
            f.text("pile")
        if "by" in event:
            f.text("by")
    elif kind == "roll":
        _dice(event["dice"])
        f.integer("index")
        if "by" in event:
            f.text("by")
    elif kind == "decision":
        f.text("action")
        if "text" in event:
            f.text("text", WORDS, plain=False, empty=True)
        if "by" in event:
            f.text("by")
    elif kind == "journal":
        f.text("text", JOURNAL, plain=False, empty=True)
        if "prompt" in event:
            f.text("prompt", WORDS, plain=False, empty=True)
        if "about" in event:
            _earlier(event, "about", number, earlier, ("draw", "roll", "correction"), "draw or roll")
        if "question" in event:
            _earlier(event, "question", number, earlier, ("question",), "question")
    elif kind == "question":
        f.text("id")
        f.text("text", WORDS, plain=False)
        if "about" in event:
            _earlier(event, "about", number, earlier, ("draw", "roll", "correction", "decision", "end"),
                     "draw, roll, decision or end", numbered="event")
    elif kind == "oracle":
        f.text("question", WORDS, plain=False)
        f.text("odds")
        f.integer("roll", 1, 100, "a d100 roll")
        f.text("answer")
        f.text("spark")
        if "by" in event:
            f.text("by")
    elif kind == "correction":
        _earlier(event, "of", number, earlier, ("draw", "roll", "correction"), "draw or roll")
        if ("card" in event) == ("dice" in event):
            raise _Bad("a correction gives either the 'card' or the 'dice' that were really turned up")
        if "card" in event:
            f.text("card")
        else:
            _dice(event["dice"])
        if "by" in event:
            f.text("by")
    elif kind == "undo":
        _earlier(event, "of", number, earlier, ("decision",), "decision")
    elif kind == "end":
        f.text("result")
        if "score" in event and event["score"] is not None:
            f.integer("score", -MAX_NUMBER, MAX_NUMBER)
        if "reason" in event:
            f.text("reason", WORDS, plain=False, empty=True)
        if "cause" in event:
            f.text("cause", empty=True)
    return event


# -- reading a whole log -----------------------------------------------------------------


def parse(text: str | bytes, path: Path | None = None) -> GameLog:
    """Read a whole log. Raises LogError naming the first bad line (TruncatedLog when
    only the last line is bad)."""
    data = text if isinstance(text, bytes) else text.encode("utf-8", "surrogatepass")
    where = str(path) if path else "log"
    if not data.strip():
        raise LogError(f"{where}: the log is empty")
    lines = data.split(b"\n")
    terminated = data.endswith(b"\n")
    if terminated:
        lines.pop()
    header: dict[str, Any] | None = None
    events: list[dict[str, Any]] = []
    kinds: list[str] = []

    def earlier(k: int) -> str | None:
        return kinds[k - 1] if 1 <= k <= len(kinds) else None

    offset = 0
    for i, raw in enumerate(lines, start=1):
        last = i == len(lines)
        try:
            record = _load(raw, MAX_HEADER_LINE if i == 1 else MAX_LINE)
        except _Bad as bad:
            if last and header is not None:
                intact = GameLog(path, header, events, size=offset, file_size=len(data))
                if not terminated and raw.strip():
                    message = f"{where}: line {i} is cut off (the session was interrupted while writing it)"
                else:
                    message = f"{where}: line {i}, the last line, {bad}"
                raise TruncatedLog(message, intact) from None
            raise LogError(f"{where}: line {i} {bad}") from None
        try:
            if i == 1:
                header = check_header(record)
            else:
                events.append(check_event(record, i - 1, earlier))
                kinds.append(record["event"])
        except _Bad as bad:
            raise LogError(f"{where}: line {i}: {bad}") from None
        offset += len(raw) + 1
    assert header is not None
    return GameLog(path, header, events, size=len(data), file_size=len(data))


def _open_regular(path: Path):
    """A log file opened for reading, or LogError saying why it cannot be."""
    import stat

    try:
        st = os.stat(path)
    except FileNotFoundError:
        raise LogError(f"{path}: no such log") from None
    except OSError as e:
        raise LogError(f"{path}: cannot be read ({e.strerror or e})") from None
    if stat.S_ISDIR(st.st_mode):
        raise LogError(f"{path}: is a folder, not a log")
    if not stat.S_ISREG(st.st_mode):
        raise LogError(f"{path}: is not a regular file, so not a log")
    if st.st_size > MAX_LOG:
        raise LogError(f"{path}: is {st.st_size:,} bytes, too large to be a log")
    try:
        return open(path, "rb")
    except OSError as e:
        raise LogError(f"{path}: cannot be read ({e.strerror or e})") from None


def read(path: Path) -> GameLog:
    with _open_regular(path) as f:
        try:
            data = f.read(MAX_LOG + 1)
        except OSError as e:
            raise LogError(f"{path}: cannot be read ({e.strerror or e})") from None
    return parse(data, path)


# -- reading only the ends of a log (the sessions list) ----------------------------------


@dataclass(frozen=True)
class Peek:
    """What the ends of a log say: its header, and how it stands."""

    header: dict[str, Any] | None
    status: str  # "in progress", "cut off", "unreadable", or the end's result
    problem: str = ""


TAIL_CHUNK = 16 * 1024


def peek(path: Path) -> Peek:
    """The header and the status of a log, from its first line and its last lines only
    (a bad line in the middle shows when the log is read in full)."""
    try:
        f = _open_regular(path)
    except LogError as e:
        return Peek(None, "unreadable", str(e).split(": ", 1)[-1])
    with f:
        try:
            first = f.readline(MAX_HEADER_LINE + 1)
            if not first.strip():
                return Peek(None, "unreadable", "the log is empty")
            try:
                record = _load(first.rstrip(b"\n"), MAX_HEADER_LINE)
            except _Bad as bad:
                return Peek(None, "unreadable", f"line 1 {bad}")
            try:
                header = check_header(record)
            except _Bad as bad:
                return Peek(None, "unreadable", f"line 1: {bad}")
            size = os.fstat(f.fileno()).st_size
            if not first.endswith(b"\n") or size <= len(first):
                return Peek(header, "in progress")
            status, problem = _tail_status(f, len(first), size)
        except OSError as e:
            return Peek(None, "unreadable", f"cannot be read ({e.strerror or e})")
    return Peek(header, status, problem)


def _tail_status(f, start: int, size: int) -> tuple[str, str]:
    """Walk back from the end over the last word (its question, the journal entries) to the
    end event, if any."""
    for position, raw in _lines_backwards(f, start, size):
        last = position == 0
        where = "the last line" if last else "a line near the end"
        try:
            event = _load(raw)
        except _Bad as bad:
            if last:
                return "cut off", f"the last line {bad}"
            return "unreadable", f"{where} {bad}"
        try:
            check_event(event, None)
        except _Bad as bad:
            return "unreadable", f"{where}: {bad}"
        if event["event"] == "end":
            return str(event["result"]), ""
        if event["event"] not in ("journal", "question"):  # the last word comes after the end
            return "in progress", ""
    return "in progress", ""


def _lines_backwards(f, start: int, size: int) -> Iterator[tuple[int, bytes]]:
    """The lines of ``f[start:size]`` from the last one back, numbered 0, 1, 2... from the
    end. A line longer than MAX_LINE is yielded as far as it was read (and fails as too long)."""
    end = size
    if end > start:
        f.seek(end - 1)
        if f.read(1) == b"\n":
            end -= 1
    buffer = b""
    pos = end
    position = 0
    while True:
        cut = buffer.rfind(b"\n")
        while cut < 0 and pos > start and len(buffer) <= MAX_LINE:
            step = min(TAIL_CHUNK, pos - start)
            pos -= step
            f.seek(pos)
            buffer = f.read(step) + buffer
            cut = buffer.rfind(b"\n")
        if cut < 0:
            yield position, buffer
            return
        yield position, buffer[cut + 1 :]
        buffer = buffer[:cut]
        position += 1


# -- writing -----------------------------------------------------------------------------

_BINARY = os.O_BINARY if os.name == "nt" else 0  # Windows: no newline translation, ever
_WINDOWS_LOCK_AT = 0x7FFFFFF0  # a byte far beyond any log's end: readers never touch it


def _dump(record: dict[str, Any]) -> bytes:
    return (json.dumps(record, ensure_ascii=False, separators=(", ", ": ")) + "\n").encode("utf-8")


def _scrubbed(record: dict[str, Any]) -> dict[str, Any]:
    """The record with lone surrogates (text that cannot be UTF-8) replaced by U+FFFD."""
    text = json.dumps(record, ensure_ascii=False)
    return json.loads(_SURROGATE.sub("\ufffd", text))


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


_FULL = frozenset(code for code, name in errno.errorcode.items() if name in ("ENOSPC", "EDQUOT"))


def _full(e: OSError) -> bool:
    """No space left, or over the user's quota."""
    return e.errno in _FULL


def _try_lock(fd: int) -> bool:
    """Take the exclusive lock without waiting; False if another process holds it."""
    if os.name == "nt":  # pragma: no cover - Windows
        import msvcrt

        try:
            os.lseek(fd, _WINDOWS_LOCK_AT, os.SEEK_SET)
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
            return True
        except OSError:
            return False
    import fcntl

    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return True
    except OSError as e:
        if e.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
            return False
        return True  # a file system without locks: write as before


def _unlock(fd: int) -> None:
    if os.name == "nt":  # pragma: no cover - Windows
        import msvcrt

        try:
            os.lseek(fd, _WINDOWS_LOCK_AT, os.SEEK_SET)
            msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)
        except OSError:
            pass
    # POSIX: closing the descriptor releases the flock


def _locked(path: Path) -> LogLocked:
    """The error for a log another process holds, naming that process (it writes its id
    down just after it takes the lock: give it a moment)."""
    import time

    pid = holder(path)
    for _ in range(20):
        if pid is not None:
            break
        time.sleep(0.05)
        pid = holder(path)
    return LogLocked(path, pid)


def _pid_file(path: Path) -> Path:
    return path.with_name(path.name + ".pid")


def holder(path: Path) -> int | None:
    """The process id that holds ``path`` open for writing, as it wrote it down (None if unknown)."""
    try:
        text = _pid_file(path).read_text(encoding="ascii").strip()
        return int(text) if text.isdigit() and len(text) < 12 else None
    except (OSError, ValueError):
        return None


def is_locked(path: Path) -> bool:
    """Whether another storyteller holds ``path`` open for writing."""
    try:
        fd = os.open(path, os.O_RDONLY | _BINARY)
    except OSError:
        return False
    try:
        if _try_lock(fd):
            _unlock(fd)
            return False
        return True
    finally:
        os.close(fd)


class LogWriter:
    """Appends events to a log file, each line written whole and fsynced before returning,
    under an exclusive lock held from opening to :meth:`close`."""

    def __init__(self, path: Path, log: GameLog, fd: int | None = None) -> None:
        self.path = path
        self.log = log
        self._fd = fd
        self._size = log.size
        if fd is not None:
            self._note_pid()

    # -- opening ------------------------------------------------------------------------

    @classmethod
    def create(cls, path: Path, header: dict[str, Any]) -> "LogWriter":
        """A new log holding ``header``. The header is whole on disk before the log
        appears at ``path`` (POSIX); a log whose header could not be written is removed."""
        header = {"storyteller": "log", "schema": SCHEMA, **header}
        try:
            check_header(header)
        except _Bad as bad:
            raise LogError(f"{path}: cannot start a log: line 1: {bad}") from None
        data = _dump(header)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise LogError(f"{path}: cannot write the log here ({e.strerror or e})") from None
        if os.path.lexists(path):
            cls._exists(path)
        fd = None
        if os.name != "nt":
            fd = cls._create_linked(path, data)
        if fd is None:
            fd = cls._create_direct(path, data)
        log = GameLog(path, header, size=len(data), file_size=len(data))
        return cls(path, log, fd)

    @staticmethod
    def _exists(path: Path):
        if is_locked(path):
            raise _locked(path)
        raise LogError(f"{path}: a log already exists there; choose another --log path")

    @classmethod
    def _create_linked(cls, path: Path, data: bytes) -> int | None:
        """Write the header to a new file beside ``path``, lock it, then link it into
        place: a crash leaves either no log or a whole header. None if the file system
        cannot link (then the log is made in place)."""
        tmp = path.with_name(f".{path.name}.{os.getpid()}.new")
        fd = None
        try:
            flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_APPEND | _BINARY
            try:
                fd = os.open(tmp, flags, 0o666)
            except FileExistsError:  # left by a killed process that had our id: nobody else's
                os.unlink(tmp)
                fd = os.open(tmp, flags, 0o666)
            except OSError as e:
                if e.errno == errno.ENAMETOOLONG:
                    return None  # the temporary name is too long where the log's is not
                raise
            _try_lock(fd)
            _write_all(fd, data)
            os.fsync(fd)
            try:
                os.link(tmp, path)
            except FileExistsError:
                os.close(fd)
                fd = None
                cls._exists(path)
            except OSError as e:
                if _full(e):
                    raise
                os.close(fd)
                fd = None
                return None
            sync_folder(path.parent)
            return fd
        except OSError as e:
            if fd is not None:
                os.close(fd)
            raise _start_error(path, e) from None
        except BaseException:
            if fd is not None:
                os.close(fd)
            raise
        finally:
            try:
                os.unlink(tmp)
            except OSError:
                pass

    @classmethod
    def _create_direct(cls, path: Path, data: bytes) -> int:
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_APPEND | _BINARY, 0o666)
        except FileExistsError:
            cls._exists(path)
            raise  # pragma: no cover - _exists always raises
        except OSError as e:
            raise _start_error(path, e) from None
        try:
            _try_lock(fd)
            _write_all(fd, data)
            os.fsync(fd)
        except BaseException as e:
            os.close(fd)
            try:  # no header, no log: an empty file would only block the path
                os.unlink(path)
            except OSError:
                pass
            if isinstance(e, OSError):
                raise _start_error(path, e) from None
            raise
        return fd

    @classmethod
    def reopen(cls, log: GameLog, repair: bool = False) -> "LogWriter":
        """Continue an existing log, under the lock. With ``repair``, first set the bad
        last line (everything after ``log.size``) aside in ``<log>.cut-off`` and cut it."""
        assert log.path is not None
        path = log.path
        try:
            fd = os.open(path, os.O_WRONLY | os.O_APPEND | _BINARY)
        except OSError as e:
            raise LogError(f"{path}: cannot append to the log ({e.strerror or e})") from None
        try:
            if not _try_lock(fd):
                raise _locked(path)
            size = os.fstat(fd).st_size
            if size != log.file_size:
                raise LogError(f"{path}: the log changed while it was being opened (is it open elsewhere?); try again")
            if log.size != size:
                if not repair:
                    raise LogError(f"{path}: the log's last line is bad; resume with --yes to set it aside first")
                with open(path, "rb") as f:
                    f.seek(log.size)
                    tail = f.read()
                _set_aside(path, tail)
                os.ftruncate(fd, log.size)
                os.fsync(fd)
                size = log.size
            log.file_size = size
            writer = cls(path, log, fd)
            if size:
                with open(path, "rb") as f:
                    f.seek(size - 1)
                    if f.read(1) != b"\n":  # a whole last line without its newline
                        writer._put(b"\n")
            return writer
        except OSError as e:
            os.close(fd)
            if _full(e):
                raise DiskFull(
                    f"the disk is full: nothing was changed; free some space and run "
                    f"{command('storyteller', 'resume', str(path))}"
                ) from None
            raise LogError(f"{path}: cannot append to the log ({e.strerror or e})") from None
        except BaseException:
            os.close(fd)
            raise

    # -- writing ------------------------------------------------------------------------

    def _note_pid(self) -> None:
        try:
            _pid_file(self.path).write_text(str(os.getpid()), encoding="ascii")
        except OSError:
            pass  # only a courtesy: the lock is what keeps a second writer out

    def _put(self, data: bytes) -> None:
        """Write ``data`` whole and fsync it; on failure cut the file back to where it was."""
        assert self._fd is not None, "the log is closed"
        try:
            _write_all(self._fd, data)
            os.fsync(self._fd)
        except BaseException:  # a full disk, an I/O error, Ctrl-C mid-write
            try:
                os.ftruncate(self._fd, self._size)  # the log holds what was accepted, no half line
            except OSError:
                pass
            raise
        self._size += len(data)
        self.log.size = self.log.file_size = self._size

    def append(self, kind: str, **fields: Any) -> dict[str, Any]:
        """Write one event (numbered next; stamped now, unless ``at`` is given: a branch
        copies its first events as they were)."""
        event = {"n": len(self.log.events) + 1, "event": kind, **fields}
        if "at" not in fields:
            event["at"] = now()
        try:
            data = _dump(event)
        except UnicodeEncodeError:
            event = _scrubbed(event)
            data = _dump(event)
        events = self.log.events
        try:
            check_event(event, event["n"], lambda k: events[k - 1]["event"] if 1 <= k <= len(events) else None)
        except _Bad as bad:
            raise LogError(f"{self.path}: cannot write this {kind} event: {bad}; what was played before is saved") from None
        try:
            self._put(data)
        except OSError as e:
            saved = len(self.log.events)
            resume = command("storyteller", "resume", str(self.path))
            if _full(e):
                raise DiskFull(
                    f"the disk is full: saved up to event {saved}; free some space and run {resume}"
                ) from None
            raise LogError(
                f"{self.path}: cannot write to the log ({e.strerror or e}); saved up to event {saved}: {resume}"
            ) from None
        self.log.events.append(event)
        return event

    def close(self) -> None:
        """Release the lock and the file. Never raises: everything was fsynced as written."""
        fd, self._fd = self._fd, None
        if fd is None:
            return
        try:
            if holder(self.path) == os.getpid():
                _pid_file(self.path).unlink()
        except OSError:
            pass
        _unlock(fd)
        try:
            os.close(fd)
        except OSError:
            pass

    def __enter__(self) -> "LogWriter":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


def sync_folder(folder: Path) -> None:
    """Make a new name in ``folder`` durable (POSIX; best effort)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _start_error(path: Path, e: OSError) -> LogError:
    if _full(e):
        return DiskFull(f"the disk is full: the game could not be started ({path} was not written); free some space and try again")
    return LogError(f"{path}: cannot write the log here ({e.strerror or e})")


def _set_aside(path: Path, tail: bytes) -> None:
    """Keep a cut-off tail beside the log (appended to any kept before), fsynced."""
    if not tail:
        return
    kept = path.with_name(path.name + ".cut-off")
    fd = os.open(kept, os.O_WRONLY | os.O_CREAT | os.O_APPEND | _BINARY, 0o666)
    try:
        _write_all(fd, tail if tail.endswith(b"\n") else tail + b"\n")
        os.fsync(fd)
    finally:
        os.close(fd)


def iter_logs(folder: Path) -> Iterator[Path]:
    if folder.is_dir():
        yield from sorted(folder.glob("*.jsonl"))

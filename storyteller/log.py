"""The event log: JSON Lines, append-only, every line flushed and fsynced as it happens.

Line 1 is the header::

    {"storyteller": "log", "schema": 1, "game": "carddom", "variants": {...},
     "seed": "42", "source": "seeded", "version": "0.1.0", "started": "..."}

Every further line is one event, numbered from 1 in ``n``:

    draw      a card drawn: ``card``, ``to`` (where it went), ``deal`` and ``slot``
    roll      dice rolled: ``dice``, ``index``
    decision  a choice: ``action`` (the stable key) and ``text`` (the words shown)
    journal   the player's words, verbatim: ``text``, and the ``prompt`` they answered
    undo      takes back decision ``of`` and the draws that followed it
    end       the outcome: ``result``, ``score``, ``reason``
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Iterator

SCHEMA = 1
EVENT_FIELDS: dict[str, tuple[str, ...]] = {
    "draw": ("card", "to", "deal", "slot"),
    "roll": ("dice", "index"),
    "decision": ("action",),
    "journal": ("text",),
    "undo": ("of",),
    "end": ("result",),
}
HEADER_FIELDS = ("game", "variants", "seed", "source")


class LogError(Exception):
    """A log that cannot be read as it is; the message names the line and the problem."""


class TruncatedLog(LogError):
    """The last line was cut off (a crash mid-write). ``intact`` holds the good part."""

    def __init__(self, message: str, intact: "GameLog") -> None:
        super().__init__(message)
        self.intact = intact


def now() -> str:
    return datetime.now(timezone.utc).astimezone().isoformat(timespec="seconds")


@dataclass
class GameLog:
    path: Path | None
    header: dict[str, Any]
    events: list[dict[str, Any]] = field(default_factory=list)

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


def _check_header(header: Any, where: str) -> dict[str, Any]:
    if not isinstance(header, dict) or header.get("storyteller") != "log":
        raise LogError(f"{where}: line 1 is not a storyteller log header")
    if header.get("schema") != SCHEMA:
        raise LogError(f"{where}: log schema {header.get('schema')!r} is not one this version reads (it reads {SCHEMA})")
    for key in HEADER_FIELDS:
        if key not in header:
            raise LogError(f"{where}: line 1: the header has no '{key}'")
    if not isinstance(header["seed"], str) or not header["seed"]:
        raise LogError(f"{where}: line 1: the seed must be non-empty text")
    if not isinstance(header["variants"], dict):
        raise LogError(f"{where}: line 1: 'variants' must be a mapping")
    return header


def _check_event(event: Any, expected_n: int, where: str, line: int) -> dict[str, Any]:
    if not isinstance(event, dict):
        raise LogError(f"{where}: line {line}: not an event object")
    kind = event.get("event")
    if kind not in EVENT_FIELDS:
        raise LogError(f"{where}: line {line}: unknown event {kind!r}")
    if event.get("n") != expected_n:
        raise LogError(f"{where}: line {line}: event number {event.get('n')!r} where {expected_n} was expected")
    for key in EVENT_FIELDS[kind]:
        if key not in event:
            raise LogError(f"{where}: line {line}: the {kind} event has no '{key}'")
    if kind == "journal" and not isinstance(event["text"], str):
        raise LogError(f"{where}: line {line}: a journal entry's text must be text")
    return event


def parse(text: str, path: Path | None = None) -> GameLog:
    """Read a whole log. Raises LogError naming the first bad line."""
    where = str(path) if path else "log"
    if not text.strip():
        raise LogError(f"{where}: the log is empty")
    lines = text.split("\n")
    if text.endswith("\n"):
        lines = lines[:-1]
    records: list[Any] = []
    for i, raw in enumerate(lines, start=1):
        try:
            records.append(json.loads(raw))
        except json.JSONDecodeError:
            last = i == len(lines)
            if last and i > 1:
                intact = _build(records, path, where)
                raise TruncatedLog(
                    f"{where}: line {i} is cut off (the session was interrupted while writing it)", intact
                ) from None
            raise LogError(f"{where}: line {i} is not valid JSON") from None
    # A last line that parses but lacks its newline is whole: it is accepted as it is.
    return _build(records, path, where)


def _build(records: list[Any], path: Path | None, where: str) -> GameLog:
    if not records:
        raise LogError(f"{where}: the log has no header")
    header = _check_header(records[0], where)
    events = [_check_event(r, n, where, n + 1) for n, r in enumerate(records[1:], start=1)]
    return GameLog(path=path, header=header, events=events)


def read(path: Path) -> GameLog:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise LogError(f"{path}: no such log") from None
    except IsADirectoryError:
        raise LogError(f"{path}: is a folder, not a log") from None
    except UnicodeDecodeError:
        raise LogError(f"{path}: not a text file") from None
    except OSError as e:
        raise LogError(f"{path}: cannot be read ({e.strerror})") from None
    return parse(text, path)


def _dump(record: dict[str, Any]) -> str:
    return json.dumps(record, ensure_ascii=False, separators=(", ", ": ")) + "\n"


class LogWriter:
    """Appends events to a log file, each one flushed and fsynced before returning."""

    def __init__(self, path: Path, log: GameLog) -> None:
        self.path = path
        self.log = log
        self._file = None

    @classmethod
    def create(cls, path: Path, header: dict[str, Any]) -> "LogWriter":
        header = {"storyteller": "log", "schema": SCHEMA, **header}
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise LogError(f"{path}: cannot write the log here ({e.strerror or e})") from None
        try:
            # "x": never overwrite an existing log.
            f = open(path, "x", encoding="utf-8")
        except FileExistsError:
            raise LogError(f"{path}: a log already exists there; choose another --log path") from None
        except OSError as e:
            raise LogError(f"{path}: cannot write the log here ({e.strerror})") from None
        writer = cls(path, GameLog(path, header))
        writer._file = f
        try:
            writer._write(header)
        except OSError as e:
            raise LogError(f"{path}: cannot write the log here ({e.strerror or e})") from None
        return writer

    @classmethod
    def reopen(cls, log: GameLog, repair: bool = False) -> "LogWriter":
        """Continue an existing log. With ``repair``, first cut a cut-off last line away."""
        assert log.path is not None
        path = log.path
        try:
            if repair:
                _rewrite_intact(path, log)
            with open(path, "rb") as probe:
                probe.seek(0, os.SEEK_END)
                size = probe.tell()
                probe.seek(max(size - 1, 0))
                unterminated = size > 0 and probe.read(1) != b"\n"
            f = open(path, "a", encoding="utf-8")
            if unterminated:
                f.write("\n")
        except OSError as e:
            raise LogError(f"{path}: cannot append to the log ({e.strerror})") from None
        writer = cls(path, log)
        writer._file = f
        return writer

    def _write(self, record: dict[str, Any]) -> None:
        assert self._file is not None
        self._file.write(_dump(record))
        self._file.flush()
        os.fsync(self._file.fileno())

    def append(self, kind: str, **fields: Any) -> dict[str, Any]:
        event = {"n": len(self.log.events) + 1, "event": kind, **fields, "at": now()}
        try:
            self._write(event)
        except OSError as e:
            raise LogError(f"{self.path}: cannot write to the log ({e.strerror or e}); what was played before is saved") from None
        self.log.events.append(event)
        return event

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None


def _rewrite_intact(path: Path, log: GameLog) -> None:
    """Keep the intact lines; the cut-off tail is saved beside the log, never thrown away."""
    raw = path.read_bytes()
    keep = raw[: raw.rfind(b"\n") + 1]
    tail = raw[len(keep):]
    if tail:
        (path.with_name(path.name + ".cut-off")).write_bytes(tail)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_bytes(keep)
    os.replace(tmp, path)


def iter_logs(folder: Path) -> Iterator[Path]:
    if folder.is_dir():
        yield from sorted(folder.glob("*.jsonl"))

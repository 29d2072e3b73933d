"""The log file: JSON Lines, append-only, every line flushed and fsynced as it happens.

Line 1 is the header and every further line one event (their fields, and how each is
checked, are in :mod:`storyteller.log.events`). This module knows the file: reading it whole
(:func:`read`, :func:`parse`) or only at its ends (:func:`peek`), appending to it under a lock
(:class:`LogWriter`), and repairing a torn last line.

Every line is checked against the events' strict schema before anything uses it. A log
that fails gets one :class:`LogError` naming the line and the field. A bad *last* line is a
:class:`TruncatedLog`: the part before it is intact, and ``resume --yes`` sets the bad line
aside in ``<log>.cut-off``.

A session writes under an exclusive lock (:class:`LogWriter`): ``fcntl.flock`` on POSIX,
a byte locked far beyond the end of the file on Windows (so readers are never blocked).
Readers (replay, export, sessions) take no lock. The writer's process id is kept beside
the log in ``<log>.pid`` while it writes, to say who holds a game open.
"""

from __future__ import annotations

import errno
import json
import os
import sys
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any
from collections.abc import Iterator

from storyteller.core.words import command_line
from storyteller.log.events import (
    JOURNAL, MAX_HEADER_LINE, MAX_LINE, WORDS_OF_PLAYER, BadLine, End, Event, Header, JournalEntry, read_event,
    scrub, show,
)

__all__ = ["JOURNAL", "DiskFull", "GameLog", "LogError", "LogLocked", "LogWriter", "TruncatedLog", "now", "parse",
           "peek", "read"]

MAX_LOG = 1024 * 1024 * 1024  # bytes: no real log comes near


class LogError(Exception):
    """A log that cannot be read (or written) as it is; the message names the line and the problem."""


class TruncatedLog(LogError):
    """The last line is bad (a crash mid-write, or an edit). ``intact`` holds the good part."""

    def __init__(self, message: str, intact: GameLog) -> None:
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


def now() -> str:
    return datetime.now(timezone.utc).astimezone().isoformat(timespec="seconds")


@dataclass
class GameLog:
    path: Path | None
    header: Header
    events: list[Event] = field(default_factory=list)
    size: int = 0  # bytes of the file these lines take (the intact part, for a cut-off log)
    file_size: int = 0  # bytes of the whole file when it was read

    @property
    def game(self) -> str:
        return self.header.game

    @property
    def seed(self) -> str:
        return self.header.seed

    @property
    def variants(self) -> dict[str, str]:
        return dict(self.header.variants)

    @property
    def finished(self) -> bool:
        return self.end is not None

    @property
    def end(self) -> End | None:
        for e in reversed(self.events):
            if isinstance(e, End):
                return e
        return None

    def journal(self) -> list[JournalEntry]:
        return [e for e in self.events if isinstance(e, JournalEntry)]

    def prefix(self, k: int) -> GameLog:
        """The log of its first ``k`` events (a branch's, a game as it stood)."""
        return GameLog(self.path, self.header, self.events[:k])


# -- reading one line --------------------------------------------------------------------


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out = dict(pairs)
    if len(out) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise BadLine(f"has the key {show(key)} twice")
            seen.add(key)
    return out


def _constant(name: str) -> Any:
    raise BadLine(f"holds {name}, which is not a number JSON allows")


_DECODER = json.JSONDecoder(object_pairs_hook=_pairs, parse_constant=_constant)


def _load(raw: bytes, limit: int = MAX_LINE) -> Any:
    """One line's JSON value, or BadLine saying why it cannot be read."""
    if len(raw) > limit:
        raise BadLine(f"is too long ({len(raw):,} bytes; a line of a log holds at most {limit:,})")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise BadLine("is not valid UTF-8 text") from None
    if not text.strip():
        raise BadLine("is empty")
    try:
        return _DECODER.decode(text)
    except RecursionError:
        raise BadLine("nests too deeply to be a log line") from None
    except json.JSONDecodeError:
        raise BadLine("is not valid JSON") from None
    except ValueError:  # a number with thousands of digits
        raise BadLine("holds a number too long to read") from None


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
    header: Header | None = None
    events: list[Event] = []

    def earlier(k: int) -> type[Event] | None:
        return type(events[k - 1]) if 1 <= k <= len(events) else None

    offset = 0
    for i, raw in enumerate(lines, start=1):
        last = i == len(lines)
        try:
            record = _load(raw, MAX_HEADER_LINE if i == 1 else MAX_LINE)
        except BadLine as bad:
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
                header = Header.read(record)
            else:
                events.append(read_event(record, i - 1, earlier))
        except BadLine as bad:
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

    header: Header | None
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
            except BadLine as bad:
                return Peek(None, "unreadable", f"line 1 {bad}")
            try:
                header = Header.read(record)
            except BadLine as bad:
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
        except BadLine as bad:
            if last:
                return "cut off", f"the last line {bad}"
            return "unreadable", f"{where} {bad}"
        try:
            found = read_event(event, None)
        except BadLine as bad:
            return "unreadable", f"{where}: {bad}"
        if isinstance(found, End):
            return found.result, ""
        if not isinstance(found, WORDS_OF_PLAYER):  # the last word comes after the end
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

if sys.platform == "win32":  # pragma: no cover - Windows: no newline translation, ever
    _BINARY = os.O_BINARY
else:
    _BINARY = 0
_WINDOWS_LOCK_AT = 0x7FFFFFF0  # a byte far beyond any log's end: readers never touch it


def _dump(record: dict[str, Any]) -> bytes:
    return (json.dumps(record, ensure_ascii=False, separators=(", ", ": ")) + "\n").encode("utf-8")


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
    if sys.platform == "win32":  # pragma: no cover - Windows
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
    except OSError as e:  # held by another process; or a file system without locks: write as before
        return e.errno not in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES)


def _unlock(fd: int) -> None:
    if sys.platform == "win32":  # pragma: no cover - Windows
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


@dataclass(frozen=True)
class Line:
    """An event ready to be appended, and its bytes."""

    event: Event
    data: bytes


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
    def create(cls, path: Path, header: Header) -> LogWriter:
        """A new log holding ``header``. The header is whole on disk before the log
        appears at ``path`` (POSIX); a log whose header could not be written is removed."""
        record = header.record()
        try:
            header = Header.read(record)
        except BadLine as bad:
            raise LogError(f"{path}: cannot start a log: line 1: {bad}") from None
        data = _dump(record)
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
    def reopen(cls, log: GameLog, repair: bool = False) -> LogWriter:
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
                    f"{command_line('resume', str(path))}"
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

    @property
    def next(self) -> int:
        """The number the next event takes."""
        return len(self.log.events) + 1

    def prepare(self, event: Event) -> Line:
        """``event`` as this log will hold it (its text made valid UTF-8: a lone surrogate
        becomes U+FFFD), checked as any reader will check it: LogError if it cannot be
        written (nothing is). The event must be numbered next."""
        record = event.record()
        try:
            data = _dump(record)
        except UnicodeEncodeError:
            record = json.loads(scrub(json.dumps(record, ensure_ascii=False)))
            data = _dump(record)
        events = self.log.events
        try:
            checked = read_event(record, len(events) + 1,
                                 lambda k: type(events[k - 1]) if 1 <= k <= len(events) else None)
        except BadLine as bad:
            raise LogError(f"{self.path}: cannot write this {event.kind} event: {bad}; "
                           f"what was played before is saved") from None
        return Line(checked, data)

    def append(self, event: Event | Line) -> Event:
        """Write one event (see :meth:`prepare`), whole and fsynced; returns it as written."""
        line = event if isinstance(event, Line) else self.prepare(event)
        if line.event.n != len(self.log.events) + 1:
            raise LogError(f"{self.path}: event {line.event.n} was prepared for another place in the log")
        try:
            self._put(line.data)
        except OSError as e:
            saved = len(self.log.events)
            resume = command_line("resume", str(self.path))
            if _full(e):
                raise DiskFull(
                    f"the disk is full: saved up to event {saved}; free some space and run {resume}"
                ) from None
            raise LogError(
                f"{self.path}: cannot write to the log ({e.strerror or e}); saved up to event {saved}: {resume}"
            ) from None
        self.log.events.append(line.event)
        return line.event

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

    def __enter__(self) -> LogWriter:
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
        return DiskFull(f"the disk is full: the game could not be started ({path} was not written); "
                        "free some space and try again")
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

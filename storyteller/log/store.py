"""Where logs live, and what each one holds: the small library behind ``play``,
``resume`` and ``sessions``. The command line only calls it."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from storyteller.log import cache
from storyteller.log.file import GameLog, LogError, TruncatedLog, peek, read


def home() -> Path:
    """The per-user data folder (``STORYTELLER_HOME`` overrides it). Saved games live in
    :func:`sessions_dir`, which the ``sessions`` setting may put elsewhere."""
    override = os.environ.get("STORYTELLER_HOME")
    if override:
        return Path(override).expanduser()
    from platformdirs import user_data_dir

    return Path(user_data_dir("storyteller", appauthor=False))


def sessions_dir() -> Path:
    """Where saved games live: ``$STORYTELLER_HOME/sessions``, else the ``sessions``
    setting, else ``sessions/`` in the per-user data folder (see ``storyteller.config``;
    a bad settings file raises its ConfigError)."""
    from storyteller import config

    return config.get("sessions")


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "-", text).strip("-")[:40] or "seed"


def new_log_path(game: str, seed: str) -> Path:
    """A fresh file name in the sessions folder: ``<date>-<time>-<game>-<seed>.jsonl``."""
    stamp = datetime.now().strftime("%Y-%m-%d-%H%M%S")
    base = sessions_dir() / f"{stamp}-{game}-{_slug(seed)}"
    path = base.with_suffix(".jsonl")
    n = 2
    while path.exists():
        path = Path(f"{base}-{n}.jsonl")
        n += 1
    return path


def open_log(path: Path) -> GameLog:
    """Read a whole log (LogError naming the line if it cannot be read as it is)."""
    if path.is_dir():
        raise LogError(f"{path}: is a folder, not a log")
    return read(path)


@dataclass(frozen=True)
class Summary:
    """One saved game as the sessions list shows it: the log ``name`` in ``folder``."""

    folder: Path
    name: str
    game: str
    seed: str
    started: str
    status: str  # "in progress", "cut off", "unreadable", or the result ("won", "lost"...)
    problem: str = ""  # why a log is unreadable or cut off
    campaign: str = ""  # the campaign it is a chapter of, if any

    @property
    def unfinished(self) -> bool:
        return self.status in ("in progress", "cut off")

    @property
    def path(self) -> Path:
        return self.folder / self.name


def summarize(path: Path) -> Summary:
    """A log's summary from its header and its last lines (never the whole file: a bad
    line in the middle shows when the game is replayed or resumed)."""
    p = peek(path)
    if p.header is None:
        return Summary(path.parent, path.name, "?", "?", "", "unreadable", p.problem)
    h = p.header
    return Summary(path.parent, path.name, h.game, h.seed, h.started or "", p.status, p.problem,
                   h.campaign["name"] if h.campaign else "")


SUMMARIES = ".sessions.json"  # the summaries of the logs beside it, by file name, size and time
SUMMARIES_VERSION = 2


def summaries(folder: Path | None = None) -> list[Summary]:
    """Every log in the sessions folder, oldest first; a log that cannot be read is listed
    as unreadable, with the reason.

    A log's summary is read from its ends (:func:`summarize`) and kept in a small cache
    beside the logs (``.sessions.json``), keyed by each file's size and modification time:
    over thousands of logs only those that changed are opened again. The cache is a
    convenience: if it cannot be read or written, every log is read as if it were not there."""

    folder = folder or sessions_dir()
    cached = cache.load(folder / SUMMARIES, SUMMARIES_VERSION)
    fresh: dict[str, list] = {}
    out = []
    try:
        entries = sorted((e for e in os.scandir(folder) if e.name.endswith(".jsonl")), key=lambda e: e.name)
    except OSError:  # no folder yet (or one that cannot be listed): no saved games
        return []
    for entry in entries:
        try:
            st = entry.stat()
        except OSError:
            out.append(summarize(folder / entry.name))  # says why it cannot be read
            continue
        stamp = [st.st_size, st.st_mtime_ns]
        hit = cached.get(entry.name)
        if hit is not None and hit[:2] == stamp and len(hit) == 8 and all(type(x) is str for x in hit[2:]):
            s = Summary(folder, entry.name, *hit[2:])
        else:
            s = summarize(folder / entry.name)
        out.append(s)
        fresh[entry.name] = stamp + [s.game, s.seed, s.started, s.status, s.problem, s.campaign]
    if fresh != cached:
        cache.save(folder / SUMMARIES, SUMMARIES_VERSION, fresh)
    return sorted(out, key=lambda s: (s.started, s.name))


def latest_unfinished(folder: Path | None = None) -> Path | None:
    """The most recently started game that has not ended and can be read, if any (a log
    that cannot be read is passed over)."""
    for s in reversed([s for s in summaries(folder) if s.unfinished]):
        try:
            read(s.path)
        except TruncatedLog:
            pass  # resumable: the bad last line is set aside on resume
        except LogError:
            continue
        return s.path
    return None

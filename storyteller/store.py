"""Where logs live, and what each one holds: the small library behind ``play``,
``resume`` and ``sessions``. The command line only calls it."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from storyteller.log import GameLog, LogError, TruncatedLog, iter_logs, peek, read


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
    """One saved game as the sessions list shows it."""

    path: Path
    game: str
    seed: str
    started: str
    status: str  # "in progress", "cut off", "unreadable", or the result ("won", "lost"...)
    problem: str = ""  # why a log is unreadable or cut off

    @property
    def unfinished(self) -> bool:
        return self.status in ("in progress", "cut off")


def summarize(path: Path) -> Summary:
    """A log's summary from its header and its last lines (never the whole file: a bad
    line in the middle shows when the game is replayed or resumed)."""
    p = peek(path)
    if p.header is None:
        return Summary(path, "?", "?", "", "unreadable", p.problem)
    h = p.header
    return Summary(path, h["game"], h["seed"], str(h.get("started", "")), p.status, p.problem)


def summaries(folder: Path | None = None) -> list[Summary]:
    """Every log in the sessions folder, oldest first; a log that cannot be read is listed
    as unreadable, with the reason."""
    return sorted((summarize(p) for p in iter_logs(folder or sessions_dir())), key=lambda s: (s.started, s.path.name))


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

"""One record per saved game, for statistics and the vault: game, variants, source, start,
who played it, result, score, the words written in its journal and the questions asked.

A record takes the whole log to make (the journal's words), so records are kept in a small
cache beside the logs (``.records.json`` in the sessions folder), keyed by each file's
size and modification time: a folder of thousands of logs is read in full once, and after
that only the logs that changed are read again. The cache is a convenience: if it cannot
be read or written, records are made from the logs as if it were not there.
"""

from __future__ import annotations

import re
import os
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from storyteller.log import cache
from storyteller.log.events import Question
from storyteller.log.file import LogError, TruncatedLog, read

CACHE = ".records.json"
VERSION = 4  # of the cache's shape: a cache of another version is ignored


@dataclass(frozen=True)
class Record:
    """One saved game, read in full and checked (a log that cannot be read has none)."""

    file: str  # the log's file name in its folder
    game: str
    variants: dict[str, str]
    seed: str
    source: str
    started: str
    result: str | None  # "won", "lost", "utter loss", "abandoned", or None while it goes on
    score: int | None
    cause: str
    words: int  # words written in the journal
    entries: int  # journal entries
    mode: str = "player"  # who played: "player", "answers", "auto greedy", "solver"...
    questions: tuple[str, ...] = ()  # the ids of the journaling questions asked, in order
    deal: dict[str, Any] | None = None  # how the seed was chosen (the header's deal), if it was

    @property
    def own(self) -> bool:
        """A game a person played (at the terminal or from an answers file), not one of a
        built-in player's (``--auto``, ``simulate --logs``) or the solver's."""
        return self.mode in ("player", "answers")

    @property
    def finished(self) -> bool:
        return self.result is not None

    @property
    def date(self) -> str:
        return self.started[:10]


def record_of(path: Path) -> Record:
    """The record of one log (LogError if it cannot be read; a cut-off last line is left out)."""
    try:
        log = read(path)
    except TruncatedLog as e:
        log = e.intact
    end = log.end
    journal = log.journal()
    h = log.header
    return Record(
        file=path.name,
        game=log.game,
        variants=dict(log.variants),
        seed=log.seed,
        source=h.source,
        started=h.started or "",
        result=end.result if end else None,
        score=end.score if end else None,
        cause=(end.cause or "") if end else "",
        words=sum(len(e.text.split()) for e in journal),
        entries=len(journal),
        mode=h.mode if h.mode is not None else "player",
        questions=tuple(e.id for e in log.events if isinstance(e, Question)),
        deal=dict(h.deal) if h.deal is not None else None,
    )


def records(folder: Path) -> tuple[list[Record], list[tuple[Path, str]]]:
    """Every readable game in ``folder``, oldest first, and the logs that could not be read
    (with why)."""
    cache_path = folder / CACHE
    cached = cache.load(cache_path, VERSION)
    fresh: dict[str, Any] = {}
    out: list[Record] = []
    bad: list[tuple[Path, str]] = []
    try:
        entries = sorted((e for e in os.scandir(folder) if e.name.endswith(".jsonl")), key=lambda e: e.name)
    except OSError:  # no folder yet: no saved games
        return [], []
    for entry in entries:
        try:
            st = entry.stat()
        except OSError as e:
            bad.append((folder / entry.name, e.strerror or str(e)))
            continue
        stamp = [st.st_size, st.st_mtime_ns]
        hit = cached.get(entry.name)
        rec = None
        if hit is not None and hit.get("stamp") == stamp:
            try:
                fields = dict(hit["record"])
                fields["questions"] = tuple(fields.get("questions", ()))
                rec = Record(**fields)
            except (TypeError, AttributeError):
                rec = None
            else:
                fresh[entry.name] = hit  # as it was: nothing to make again
        if rec is None:
            try:
                rec = record_of(folder / entry.name)
            except LogError as e:
                bad.append((folder / entry.name, str(e).split(": ", 1)[-1]))
                continue
            fresh[entry.name] = {"stamp": stamp, "record": asdict(rec)}
        out.append(rec)
    if fresh != cached:
        cache.save(cache_path, VERSION, fresh)
    names = {e.name for e in entries}
    out.sort(key=lambda r: (r.started, *made_order(r.file, names)))
    return out, bad


def made_order(name: str, names: set[str]) -> tuple[str, int]:
    """Where a log's name puts it among the logs started in the same second: a name the
    sessions folder gave a second game of the same stamp, game and seed (``X-2.jsonl`` beside
    ``X.jsonl``, see ``store.new_log_path``) comes after the first, though it sorts before it."""
    m = re.fullmatch(r"(.+)-(\d+)\.jsonl", name)
    if m and f"{m.group(1)}.jsonl" in names:
        return m.group(1), int(m.group(2))
    return name.removesuffix(".jsonl"), 1

"""The player's journal across every saved game: each entry they wrote, when, in which game
(and which campaign's chapter), what it answered, and its words; with the filters and the
search that ``storyteller journal`` offers, as jrnl does for a diary.

An entry's time is its event's ``at``; what it answered is the step its question was about
(see :func:`answered`): a card, named as the game names it ("the King of Spades", "the
Huntress"), a move in the game's words, "the oracle", "the start" or "the end". An entry
written from the menu answers no question ("").

Reading every log for each search would not do over thousands of games, so what the
journal needs of each log is kept in a small cache beside the logs (``.journal.json`` in
the sessions folder), keyed by each file's size and modification time, as the sessions
list and the records keep theirs: only the logs that changed are read again, and a cache
that cannot be read or written is ignored. A log that cannot be read is remembered as
such (with why), so that it is not read again until it changes.

Pure of the terminal: nothing here prints. The words are the player's, kept verbatim; the
command that shows them cleans them."""

from __future__ import annotations

import os
from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path
from typing import Any, NamedTuple
from collections.abc import Iterable, Sequence

from storyteller.core import tags
from storyteller.log import cache
from storyteller.core.words import join_and

CACHE = ".journal.json"
VERSION = 1  # of the cache's shape and of the words in it: a cache of another version is ignored

START, END, ORACLE = "the start", "the end", "the oracle"


class Entry(NamedTuple):
    """One journal entry, as the journal lists it (a named tuple: tens of thousands are made
    at each search)."""

    file: str  # the log's file name in the sessions folder
    n: int  # the entry's event number in its log
    at: str  # when it was written, as the log says ("" when the log does not say)
    date: str  # that day, YYYY-MM-DD ("" when not known)
    time: float  # that moment in seconds since the epoch, for the order (0: not known)
    game: str  # the game's name ("carddom")
    title: str  # the game's title ("Carddom")
    seed: str
    campaign: str  # the campaign the game is a chapter of ("" when none)
    chapter: int | None  # ... and which chapter
    answered: str  # what the entry answered (see the module's words; "" for a free entry)
    prompt: str  # the question it answered, as asked ("" when none)
    text: str  # the player's words, verbatim

    @property
    def plain(self) -> str:
        """The words with each tag read as its name: "[N:Old Nim|charcoal girl] waved" reads
        "Old Nim waved"."""
        return tags.plain(self.text)

    def order(self) -> tuple[float, str, int, str, int]:
        """Oldest first; within one second, a campaign's chapters in their order."""
        return (self.time, self.campaign, self.chapter or 0, self.file, self.n)

    def as_dict(self, folder: Path) -> dict[str, Any]:
        """The entry as ``storyteller journal --json`` gives it (docs/journal.md)."""
        return {
            "date": self.date or None, "at": self.at or None, "game": self.game, "title": self.title,
            "seed": self.seed, "log": str(folder / self.file), "n": self.n,
            "campaign": {"name": self.campaign, "chapter": self.chapter} if self.campaign else None,
            "answered": self.answered or None, "question": self.prompt or None, "text": self.text,
            "tags": [{"kind": t.what, "name": t.name, "note": t.note} for t in tags.find(self.text)],
        }


@dataclass
class Journal:
    """Every entry in a sessions folder, oldest first; how many logs were read, and those
    that could not be (file name, why)."""

    folder: Path
    entries: list[Entry]
    logs: int
    bad: list[tuple[str, str]]
    campaigns: tuple[str, ...] = ()  # the campaigns a readable log is a chapter of, with entries or not


# -- one log ------------------------------------------------------------------------------


def _moment(at: str | None) -> tuple[str, float] | None:
    """The day (as written: the player's own) and the moment of a time a log holds, or None
    when it is not a time."""
    if not at:
        return None
    try:
        when = datetime.fromisoformat(at)
        return when.date().isoformat(), when.timestamp()
    except (ValueError, OverflowError, OSError):
        return None


def _title(game: str) -> str:
    from storyteller import registry

    try:
        return registry.rules(game).title
    except Exception:  # a game no longer installed, or broken: its name stands for it
        return game


def answered(events: Sequence[Any], entry: Any, ended: int | None = None) -> str:
    """What a journal entry answered: the step its question was about (or, for an older log
    whose entries name no question, the draw it is ``about``). ``ended``: the number of the
    log's end event, if it has one."""
    from storyteller.log.events import (
        CardDrawn, Correction, Decision, DiceRolled, End, OracleQuestion, Question,
    )
    from storyteller.play.table import card_name

    def event(k: int | None) -> Any:
        return events[k - 1] if k is not None and 1 <= k <= len(events) else None

    question = event(entry.question)
    if isinstance(question, Question):
        if question.about is None:
            return START
        subject = event(question.about)
    else:
        subject = event(entry.about)
    if isinstance(subject, Correction):
        subject = subject.card if subject.card is not None else subject.dice
    elif isinstance(subject, CardDrawn):
        subject = subject.card
    elif isinstance(subject, DiceRolled):
        subject = subject.dice
    if isinstance(subject, str):
        return card_name(subject)
    if isinstance(subject, tuple):
        return f"a roll of {join_and(subject)}"
    if isinstance(subject, Decision):
        return subject.text or subject.action
    if isinstance(subject, OracleQuestion):
        return ORACLE
    if isinstance(subject, End) or (ended is not None and entry.n > ended):
        return END  # the last word (or any entry written after the end)
    return ""  # written from the menu: it answers no question


def read_log(path: Path) -> dict[str, Any]:
    """What the journal keeps of one log: its game, seed, campaign, branch and entries
    (LogError if it cannot be read; a cut-off last line is left out)."""
    from storyteller.log.events import End, JournalEntry
    from storyteller.log.file import TruncatedLog, read

    try:
        log = read(path)
    except TruncatedLog as cut:
        log = cut.intact
    h = log.header
    started = _moment(h.started)
    ended = next((e.n for e in log.events if isinstance(e, End)), None)
    entries = []
    for e in log.events:
        if not isinstance(e, JournalEntry):
            continue
        moment = _moment(e.at) or started
        entries.append([e.n, e.at or "", moment[0] if moment else "", moment[1] if moment else 0.0,
                        answered(log.events, e, ended), e.prompt or "", e.text])
    campaign = h.campaign or {}
    return {"game": h.game, "title": _title(h.game), "seed": h.seed, "campaign": campaign.get("name", ""),
            "chapter": campaign.get("chapter"), "from_log": h.from_log or "", "from_step": h.from_step or 0,
            "entries": entries}


def _valid(kept: Any) -> bool:
    """Whether a cached log holds what this version writes (a cache edited by hand, or made
    by another version, is read again)."""
    if not isinstance(kept, dict):
        return False
    if "problem" in kept:
        return type(kept["problem"]) is str
    try:
        return (all(type(kept[k]) is str for k in ("game", "title", "seed", "campaign", "from_log"))
                and type(kept["from_step"]) is int and (kept["chapter"] is None or type(kept["chapter"]) is int)
                and type(kept["entries"]) is list and all(map(_row, kept["entries"])))
    except KeyError:
        return False


def _row(e: Any) -> bool:
    """Whether a cached entry is [n, at, day, time, answered, prompt, text]."""
    return (type(e) is list and len(e) == 7 and type(e[0]) is int and type(e[1]) is str and type(e[2]) is str
            and type(e[3]) in (float, int) and type(e[4]) is str and type(e[5]) is str and type(e[6]) is str)


# -- the folder ----------------------------------------------------------------------------


def journal(folder: Path) -> Journal:
    """Every journal entry of every log in ``folder``, oldest first (see the module's words
    for the cache). An entry a branch copied from the game it came from is listed once, in
    that game, while that game's log is there."""
    from storyteller.log.file import LogError

    cached = cache.load(folder / CACHE, VERSION)
    fresh: dict[str, Any] = {}
    try:
        found = sorted((e for e in os.scandir(folder) if e.name.endswith(".jsonl")), key=lambda e: e.name)
    except OSError:  # no folder yet: no saved games
        return Journal(folder, [], 0, [])
    logs: dict[str, dict[str, Any]] = {}
    bad: list[tuple[str, str]] = []
    for item in found:
        try:
            st = item.stat()
        except OSError as e:
            bad.append((item.name, e.strerror or str(e)))
            continue
        stamp = [st.st_size, st.st_mtime_ns]
        hit = cached.get(item.name)
        if isinstance(hit, dict) and hit.get("stamp") == stamp and _valid(hit.get("log")):
            kept = hit["log"]
        else:
            try:
                kept = read_log(folder / item.name)
            except LogError as e:
                kept = {"problem": str(e).split(": ", 1)[-1]}
            except OSError as e:  # gone, or not a file: not remembered
                bad.append((item.name, e.strerror or str(e)))
                continue
        fresh[item.name] = {"stamp": stamp, "log": kept}
        if "problem" in kept:
            bad.append((item.name, kept["problem"]))
        else:
            logs[item.name] = kept
    if fresh != cached:
        cache.save(folder / CACHE, VERSION, fresh)
    entries = []
    for name, kept in logs.items():
        copied = kept["from_step"] if kept["from_log"] in logs else 0  # a branch's first steps are its origin's
        for n, at, day, moment, what, prompt, text in kept["entries"]:
            if n > copied:
                entries.append(Entry(name, n, at, day, moment, kept["game"], kept["title"], kept["seed"],
                                     kept["campaign"], kept["chapter"], what, prompt, text))
    entries.sort(key=Entry.order)
    campaigns = tuple(sorted({kept["campaign"] for kept in logs.values() if kept["campaign"]}))
    return Journal(folder, entries, len(logs), bad, campaigns)


# -- choosing entries ----------------------------------------------------------------------


def parse_date(text: str) -> str:
    """A day as the options take it, YYYY-MM-DD (ValueError saying how to write it)."""
    try:
        if len(text) != 10:
            raise ValueError
        return date.fromisoformat(text).isoformat()
    except ValueError:
        raise ValueError(f"'{text}' is not a date: write it as YYYY-MM-DD, such as {date.today().isoformat()}") \
            from None


def _folded(text: str) -> str:
    return " ".join(text.split()).casefold()


def search(entries: Iterable[Entry], words: Sequence[str]) -> list[Entry]:
    """The entries whose words hold every one of ``words`` (case does not matter; a word may
    be part of a longer one; a tag reads as its name)."""
    wanted = [w for w in (_folded(word) for word in words) if w]
    spaced = any(" " in w for w in wanted)  # a phrase: the entry's spaces are folded too
    out = []
    for e in entries:
        raw = _folded(e.text) if spaced else e.text.casefold()
        if not all(w in raw for w in wanted):  # quick: a tag's name is in the raw words too
            continue
        if "[" in e.text:
            plain = _folded(e.plain)
            if not all(w in plain for w in wanted):
                continue
        out.append(e)
    return out


def tag_name(text: str) -> str:
    """The name ``--tag`` asks for: typed as it is, or as a tag (``[N:Old Nim]``)."""
    found = tags.find(text.strip())
    if len(found) == 1 and found[0].start == 0 and found[0].end == len(text.strip()):
        return found[0].name
    return " ".join(text.split())


def naming(entries: Iterable[Entry], name: str) -> tuple[list[Entry], bool]:
    """The entries that name ``name``: in a tag (``[N:Old Nim]``, ``[#N:Old Nim]``), or, once
    it has been tagged in an earlier entry (of any game), in plain words. Also whether any
    entry tags it at all. ``entries`` are taken oldest first."""
    key = tags.key(name)
    out: list[Entry] = []
    known = False
    for e in entries:
        if key not in _folded(e.text):  # quick: neither tagged nor named here
            continue
        if any(t.key == key for t in tags.find(e.text)):
            known = True
            out.append(e)
        elif known and key in tags.mentions(e.text, [name]):
            out.append(e)
    return out, known


def between(entries: Iterable[Entry], start: str | None, end: str | None) -> list[Entry]:
    """The entries written from day ``start`` to day ``end``, both included (None: no bound);
    an entry whose day is not known is outside any bound."""
    return [e for e in entries if (start is None or (e.date and e.date >= start))
            and (end is None or (e.date and e.date <= end))]

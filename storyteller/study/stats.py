"""How the games went, over every saved game: played, won, lost, utter losses, abandoned,
win rate, streaks, mean score and the words written, for each game and each set of
variants. Read from the records (see :mod:`storyteller.log.records`), so it stays quick over
thousands of logs. A library (:func:`collect`); ``storyteller stats`` prints it."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import date, timedelta
from pathlib import Path
from typing import Any

from storyteller.log.records import Record, records
from storyteller.core.engine import Result

RESULTS = tuple(Result)  # a record's result is the log's word for one of them


@dataclass
class Tally:
    """What a set of games adds up to."""

    results: list[str] = field(default_factory=list)  # finished games' results, oldest first
    scores: list[int] = field(default_factory=list)
    in_progress: int = 0
    words: int = 0
    entries: int = 0

    def add(self, record: Record) -> None:
        self.words += record.words
        self.entries += record.entries
        if record.result is None:
            self.in_progress += 1
            return
        self.results.append(record.result)
        if record.score is not None and record.result != Result.ABANDONED:
            self.scores.append(record.score)

    @property
    def played(self) -> int:
        return len(self.results)

    def count(self, result: str) -> int:
        return self.results.count(result)

    @property
    def win_rate(self) -> float | None:
        return self.count(Result.WON) / self.played if self.played else None

    @property
    def mean_score(self) -> float | None:
        return sum(self.scores) / len(self.scores) if self.scores else None

    @property
    def streak(self) -> int:
        """Games won in a row, up to the last one played."""
        n = 0
        for result in reversed(self.results):
            if result != Result.WON:
                break
            n += 1
        return n

    @property
    def best_streak(self) -> int:
        best = run = 0
        for result in self.results:
            run = run + 1 if result == Result.WON else 0
            best = max(best, run)
        return best

    def as_dict(self) -> dict[str, Any]:
        return {
            "played": self.played,
            "won": self.count("won"),
            "lost": self.count("lost"),
            "utter_loss": self.count("utter loss"),
            "abandoned": self.count("abandoned"),
            "in_progress": self.in_progress,
            "win_rate": None if self.win_rate is None else round(self.win_rate, 4),
            "streak": self.streak,
            "best_streak": self.best_streak,
            "mean_score": None if self.mean_score is None else round(self.mean_score, 2),
            "journal_entries": self.entries,
            "journal_words": self.words,
            "last": self.results[-30:],
        }


@dataclass
class Stats:
    total: Tally = field(default_factory=Tally)
    games: dict[str, Tally] = field(default_factory=dict)
    variants: dict[tuple[str, str], Tally] = field(default_factory=dict)  # (game, variants in words)

    def as_dict(self) -> dict[str, Any]:
        return {
            "total": self.total.as_dict(),
            "games": {
                game: {
                    **tally.as_dict(),
                    "variants": {v: t.as_dict() for (g, v), t in sorted(self.variants.items()) if g == game},
                }
                for game, tally in sorted(self.games.items())
            },
        }


def compute(records: Iterable[Record], describe) -> Stats:
    """The statistics of ``records`` (oldest first); ``describe(record)`` names its
    variants in words ("standard rules", "jokers=taken")."""
    stats = Stats()
    for r in records:
        stats.total.add(r)
        stats.games.setdefault(r.game, Tally()).add(r)
        stats.variants.setdefault((r.game, describe(r)), Tally()).add(r)
    return stats


def collect(folder: Path, game: str | None = None, variants: Mapping[str, str] | None = None, everyone: bool = False,
            describe: Callable[[Record], str] | None = None) -> tuple[Stats, list[tuple[Path, str]]]:
    """The statistics of the games saved in ``folder`` (of one ``game``, of one set of its
    ``variants``), and the logs that could not be read, with why. By default only the
    player's own games count (played at the terminal or from an answers file); with
    ``everyone`` the games of the built-in players (``--auto``, ``simulate --logs``) too."""
    found, bad = records(folder)
    kept = [r for r in found if (everyone or r.own) and (game is None or r.game == game)
            and (variants is None or r.variants == dict(variants))]
    return compute(kept, describe or describe_variants), bad


def describe_variants(r: Record) -> str:
    """A record's variants in words, as its game says them ("standard rules", "jokers=taken")."""
    from storyteller import registry

    try:
        return registry.rules(r.game).describe_variants(r.variants)
    except registry.RegistryError:
        return ", ".join(f"{k}={v}" for k, v in sorted(r.variants.items())) or "standard rules"


# -- the day's deals ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Day:
    """One day's deal of one game as the player played it: the first game of that deal
    they finished (a second go at the same day's deal is not counted), or the one still
    going on."""

    date: str
    game: str
    seed: str
    result: str | None  # None: not finished yet
    file: str
    winnable: bool  # proved so before it began


@dataclass
class Daily:
    """The player's days, for each game: the day's deals played, oldest first."""

    today: date
    games: dict[str, list[Day]] = field(default_factory=dict)

    def won(self, game: str) -> int:
        return sum(1 for d in self.games[game] if d.result == Result.WON)

    def finished(self, game: str) -> int:
        return sum(1 for d in self.games[game] if d.result is not None)

    def streak(self, game: str) -> int:
        """Days in a row whose deal was won, up to today or yesterday (a day left out, or
        a day's deal lost, ends a streak; today's deal not yet won does not)."""
        won = {date.fromisoformat(d.date) for d in self.games[game] if d.result == Result.WON}
        day = self.today if self.today in won else self.today - timedelta(days=1)
        n = 0
        while day in won:
            n += 1
            day -= timedelta(days=1)
        return n

    def best_streak(self, game: str) -> int:
        won = sorted({date.fromisoformat(d.date) for d in self.games[game] if d.result == Result.WON})
        best = run = 0
        for i, day in enumerate(won):
            run = run + 1 if i and day - won[i - 1] == timedelta(days=1) else 1
            best = max(best, run)
        return best

    def as_dict(self) -> dict[str, Any]:
        return {
            "today": self.today.isoformat(),
            "games": {
                game: {
                    "days": len(days), "won": self.won(game), "finished": self.finished(game),
                    "streak": self.streak(game), "best_streak": self.best_streak(game),
                    "played": [{"date": d.date, "seed": d.seed, "result": d.result, "winnable": d.winnable,
                                "log": d.file} for d in days],
                }
                for game, days in sorted(self.games.items())
            },
        }


def daily(found: Iterable[Record], today: date, game: str | None = None) -> Daily:
    """The day's deals among ``found`` (oldest first): the player's own games of them, one
    a day and game (the first finished, else the one going on)."""
    out = Daily(today)
    chosen: dict[tuple[str, str], Record] = {}
    for r in found:
        if not r.own or r.deal is None or r.deal.get("chosen") != "daily" or (game is not None and r.game != game):
            continue
        key = (r.game, str(r.deal.get("date", "")))
        held = chosen.get(key)
        if held is None or (held.result is None and r.result is not None):
            chosen[key] = r
    for (g, day), r in sorted(chosen.items(), key=lambda kv: (kv[0][0], kv[0][1])):
        out.games.setdefault(g, []).append(Day(day, g, r.seed, r.result, r.file, bool(r.deal and r.deal["winnable"])))
    return out

"""How the games went, over every saved game: played, won, lost, utter losses, abandoned,
win rate, streaks, mean score and the words written, for each game and each set of
variants. Read from the records (see :mod:`storyteller.log.records`), so it stays quick over
thousands of logs. A library (:func:`collect`); ``storyteller stats`` prints it."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
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

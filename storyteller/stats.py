"""How the games went, over every saved game: played, won, lost, utter losses, abandoned,
win rate, streaks, mean score and the words written, for each game and each set of
variants. Read from the records (see :mod:`storyteller.records`), so it stays quick over
thousands of logs."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable

from storyteller.records import Record

RESULTS = ("won", "lost", "utter loss", "abandoned")


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
        if record.score is not None and record.result != "abandoned":
            self.scores.append(record.score)

    @property
    def played(self) -> int:
        return len(self.results)

    def count(self, result: str) -> int:
        return self.results.count(result)

    @property
    def win_rate(self) -> float | None:
        return self.count("won") / self.played if self.played else None

    @property
    def mean_score(self) -> float | None:
        return sum(self.scores) / len(self.scores) if self.scores else None

    @property
    def streak(self) -> int:
        """Games won in a row, up to the last one played."""
        n = 0
        for result in reversed(self.results):
            if result != "won":
                break
            n += 1
        return n

    @property
    def best_streak(self) -> int:
        best = run = 0
        for result in self.results:
            run = run + 1 if result == "won" else 0
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


SPARK = {"won": "\u2588", "lost": "\u2581", "utter loss": "x", "abandoned": "\u00b7"}
PLAIN = {"won": "W", "lost": "L", "utter loss": "U", "abandoned": "A"}


def sparkline(results: list[str], plain: bool = False) -> str:
    """The last 30 results in one line: a tall bar for a win, a low one for a loss."""
    marks = PLAIN if plain else SPARK
    return "".join(marks[r] for r in results[-30:])


# -- the command -------------------------------------------------------------------------


def run(game: str | None = None, variant_specs: list[str] | None = None, as_json: bool = False, plain: bool = False) -> int:
    """``storyteller stats``: print the statistics of every saved game (of one game, of one
    set of its variants)."""
    import json
    import os
    import sys

    from storyteller import app, registry, store
    from storyteller.records import records

    rules = app.load_game(game) if game else None
    wanted = app.load_variants(rules, variant_specs or []) if rules and variant_specs else None
    if variant_specs and rules is None:
        raise app.UserError("--variant needs a game: storyteller stats GAME --variant ...", app.EXIT_USAGE)
    found, bad = records(store.sessions_dir())
    found = [r for r in found if (rules is None or r.game == rules.name) and (wanted is None or r.variants == wanted)]

    def describe(r: Record) -> str:
        try:
            return registry.rules(r.game).describe_variants(r.variants)
        except registry.RegistryError:
            return ", ".join(f"{k}={v}" for k, v in sorted(r.variants.items())) or "standard rules"

    stats = compute(found, describe)
    if as_json:
        out = stats.as_dict()
        out["unreadable"] = [p.name for p, _ in bad]
        sys.stdout.write(json.dumps(out, indent=2, ensure_ascii=False) + "\n")
        return 0
    if not stats.total.played and not stats.total.in_progress:
        what = f" of {rules.title}" if rules else ""
        app.say(f"No games{what} saved yet in {store.sessions_dir()}. Start one with: storyteller play {rules.name if rules else 'carddom'}")
        return 0
    _print(stats, plain or bool(os.environ.get("NO_COLOR")))
    if bad:
        app.say(f"{len(bad)} log{'s' if len(bad) != 1 else ''} could not be read and are not counted: see storyteller sessions")
    return 0


def _percent(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def _print(stats: Stats, plain: bool) -> None:
    from rich import box
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    from storyteller.words import clean

    console = Console(no_color=plain, highlight=False)
    table = Table(title="Your games", title_justify="left", box=box.SIMPLE_HEAD, pad_edge=False, collapse_padding=True,
                  caption="W/L/U/A: won, lost, utter losses, abandoned; streak: wins in a row now (best)",
                  caption_justify="left")
    for column, justify in (("game", "left"), ("rules", "left"), ("played", "right"), ("W/L/U/A", "right"),
                            ("won", "right"), ("streak", "right"), ("score", "right"), ("words", "right")):
        table.add_column(column, justify=justify, no_wrap=True, min_width=len(column))

    def row(name: str, rules: str, t: Tally, bold: bool = False) -> None:
        mean = "-" if t.mean_score is None else f"{t.mean_score:.1f}"
        split = "/".join(str(t.count(r)) for r in RESULTS)
        cells = [name, rules, str(t.played), split, _percent(t.win_rate), f"{t.streak} ({t.best_streak})", mean,
                 f"{t.words:,}"]
        table.add_row(*(Text(clean(c), style="bold" if bold else "") for c in cells))

    for game, tally in sorted(stats.games.items()):
        kinds = [(v, t) for (g, v), t in sorted(stats.variants.items()) if g == game]
        row(game, "all" if len(kinds) > 1 else kinds[0][0], tally, bold=True)
        if len(kinds) > 1:
            for variants, t in kinds:
                row("", variants, t)
    if len(stats.games) > 1:
        row("all games", "", stats.total, bold=True)
    console.print(table)
    colours = {"won": "green", "lost": "red", "utter loss": "magenta", "abandoned": "yellow"}
    for game, tally in sorted(stats.games.items()):
        line = Text(f"{game:<10} ")
        for result in RESULTS:  # a bar of outcomes, 30 characters wide
            n = tally.count(result)
            width = round(30 * n / tally.played) if tally.played else 0
            line.append((PLAIN[result] if plain else "\u2588") * width, style="" if plain else colours[result])
        line.append(f"  last {min(30, tally.played)}: ")
        line.append(sparkline(tally.results, plain))
        console.print(line)
    if not plain:
        console.print(Text("bar: won, lost, utter loss, abandoned; last results: a tall bar is a win", style="dim"))
    else:
        console.print("W won, L lost, U utter loss, A abandoned (the bar by share; then the last results in order)")

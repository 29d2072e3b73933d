"""What the library commands look like at a terminal: the progress bar and the table of
``simulate``, the spinner of ``solve``, the tables of ``stats`` and ``sessions``. Pure
drawing: the figures come from the libraries (:mod:`storyteller.study.simulation`,
:mod:`storyteller.study.stats`, :mod:`storyteller.log.store`); rich is imported only here."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from storyteller.core.words import clean
from storyteller.core.engine import Result


class Progress:
    """A rich progress bar on stderr: games per second and the running win rate with its
    interval. Feed it each result (:meth:`add`); it redraws a few times a second."""

    def __init__(self, total: int, enabled: bool) -> None:
        self.total = total
        self.enabled = enabled
        self.progress: Any = None
        self.done = self.wins = 0
        self.started = 0.0

    def __enter__(self) -> Progress:
        import time

        self.started = time.perf_counter()
        if self.enabled:
            from rich.console import Console
            from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn
            from rich.progress import Progress as Bar

            self.progress = Bar(
                TextColumn("playing"), BarColumn(), MofNCompleteColumn(), TextColumn("{task.fields[rate]}"),
                TimeElapsedColumn(), console=Console(stderr=True), transient=True,
            )
            self.progress.__enter__()
            self.task = self.progress.add_task("games", total=self.total, rate="")
        return self

    def add(self, result: Any) -> None:
        import time

        from storyteller.study.simulation import wilson

        self.done += 1
        self.wins += result.result == Result.WON
        if self.progress is None:
            return
        seconds = time.perf_counter() - self.started
        low, high = wilson(self.wins, self.done)
        rate = (f"{self.done / seconds:,.0f} games/s, won {100 * self.wins / self.done:.1f}% "
                f"({100 * low:.1f}-{100 * high:.1f}%)") if seconds else ""
        self.progress.update(self.task, completed=self.done, rate=rate)

    def __exit__(self, *exc: Any) -> None:
        if self.progress is not None:
            self.progress.__exit__(*exc)


def simulation(s: Any, plain: bool) -> None:
    """The figures of a :class:`storyteller.study.simulation.Summary`, and a histogram of scores."""
    from rich import box
    from rich.console import Console
    from rich.table import Table

    from storyteller.study.simulation import histogram, wilson

    console = Console(no_color=plain, highlight=False)
    low, high = wilson(s.count("won"), s.played)
    table = Table(title=f"{s.game}, {s.variants}, {s.policy}: {s.played:,} games", title_justify="left",
                  box=box.SIMPLE_HEAD, show_header=False)
    table.add_column(justify="right")
    table.add_column()
    table.add_row("won", f"{s.count('won'):,} ({100 * s.win_rate:.2f}%, "
                         f"95% interval {100 * low:.2f}-{100 * high:.2f}%)")
    table.add_row("lost", f"{s.count('lost'):,}")
    if s.count("utter loss"):
        table.add_row("utter losses", f"{s.count('utter loss'):,}")
    if s.mean_score is not None:
        table.add_row("mean score", f"{s.mean_score:.2f}")
    if s.answers:
        n = s.played
        table.add_row("winnable", f"{s.solved('winnable'):,} ({100 * s.solved('winnable') / n:.1f}% of deals, "
                                  "with every card known)")
        table.add_row("not winnable", f"{s.solved('not winnable'):,} ({100 * s.solved('not winnable') / n:.1f}%)")
        if s.solved("unknown"):
            table.add_row("unknown", f"{s.solved('unknown'):,} ({100 * s.solved('unknown') / n:.1f}%: the search "
                                     "reached its --budget first)")
    table.add_row("speed", f"{s.played / s.seconds:,.0f} games/s ({s.seconds:.1f} s)" if s.seconds else "-")
    console.print(table)
    lines = histogram(s.score_counts)
    if lines:
        console.print("score  games")
        for label, n, bar in lines:
            console.print(f"{label:>5}  {n:>5}  {bar}")


def searching(work: Callable[[], Any], limit: str) -> Any:
    """Run ``work``; at a terminal, a spinner on stderr says what is going on meanwhile."""
    import sys

    if not sys.stderr.isatty():
        return work()
    from rich.console import Console

    with Console(stderr=True).status(f"Searching every line of play ({limit}); Ctrl-C stops"):
        return work()


# -- stats ---------------------------------------------------------------------------------

SPARK = {"won": "\u2588", "lost": "\u2581", "utter loss": "x", "abandoned": "\u00b7"}
PLAIN = {"won": "W", "lost": "L", "utter loss": "U", "abandoned": "A"}


def sparkline(results: list[str], plain: bool = False) -> str:
    """The last 30 results in one line: a tall bar for a win, a low one for a loss."""
    marks = PLAIN if plain else SPARK
    return "".join(marks[r] for r in results[-30:])


def _percent(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def stats(stats: Any, plain: bool, title: str = "Your games") -> None:
    """The table of a :class:`storyteller.study.stats.Stats`, then a bar of outcomes per game."""
    from rich import box
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    from storyteller.study.stats import RESULTS

    console = Console(no_color=plain, highlight=False)
    table = Table(title=title, title_justify="left", box=box.SIMPLE_HEAD, pad_edge=False, collapse_padding=True,
                  caption="W/L/U/A: won, lost, utter losses, abandoned; streak: wins in a row now (best)",
                  caption_justify="left")
    for column, justify in (("game", "left"), ("rules", "left"), ("played", "right"), ("W/L/U/A", "right"),
                            ("won", "right"), ("streak", "right"), ("score", "right"), ("words", "right")):
        table.add_column(column, justify=justify, no_wrap=True, min_width=len(column))  # type: ignore[arg-type]

    def row(name: str, rules: str, t: Any, bold: bool = False) -> None:
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


# -- sessions --------------------------------------------------------------------------------


def sessions(title: str, rows: Sequence[Sequence[str]]) -> None:
    """The saved games, one row each: game, seed, started, status, file."""
    table(title, ("game", "seed", "started", "status", "file"), rows)


def table(title: str, columns: Sequence[str], rows: Sequence[Sequence[str]]) -> None:
    """A list under ``title``, one row each, in aligned columns (plain text, quick to print:
    rich is not needed for a list). Words from the logs and the player's files are shown as
    they are, never as markup and never with control characters."""
    cells = [tuple(clean(c).replace("\n", " ") for c in row) for row in rows]
    widths = [max([len(name)] + [len(r[i]) for r in cells]) for i, name in enumerate(columns)]
    lines = [clean(title), ""]
    lines.append("  ".join(name.ljust(w) for name, w in zip(columns, widths)).rstrip())
    lines.append("  ".join("-" * w for w in widths))
    lines += ["  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in cells]
    print("\n".join(lines), flush=True)


# -- journal ---------------------------------------------------------------------------------


def journal(entries: Sequence[Any], width: int | None = None) -> None:
    """Journal entries (:class:`storyteller.study.journal.Entry`), each a line saying when,
    in which game (and campaign's chapter) and what it answered, then its words indented,
    wrapped to the terminal. Plain text: the player's words and the log's are shown as they
    are, never as markup and never with control characters."""
    import shutil
    import textwrap

    width = max(40, min(width or shutil.get_terminal_size((100, 24)).columns, 100))
    lines: list[str] = []
    for e in entries:
        where = e.title
        if e.campaign:
            where += f", chapter {e.chapter} of {e.campaign}"
        head = f"{e.date or '(no date)'}  {where}"
        if e.answered:
            head += f" - {' '.join(e.answered.split())}"
        if lines:
            lines.append("")
        lines.append(clean(head))
        for paragraph in clean(e.text).expandtabs(4).splitlines() or [""]:
            lines += textwrap.wrap(paragraph, width, initial_indent="    ", subsequent_indent="    ",
                                   break_long_words=False, break_on_hyphens=False) or [""]
    print("\n".join(lines), flush=True)


# -- analyse -------------------------------------------------------------------------------


class Work:
    """A rich progress bar on stderr for work counted in playouts (``analyse``)."""

    def __init__(self, enabled: bool, what: str = "analysing") -> None:
        self.enabled, self.what = enabled, what
        self.progress: Any = None
        self.task: Any = None

    def __enter__(self) -> Work:
        if self.enabled:
            from rich.console import Console
            from rich.progress import BarColumn, Progress as Bar, TextColumn, TimeElapsedColumn

            self.progress = Bar(TextColumn(self.what), BarColumn(), TextColumn("{task.fields[note]}"),
                                TimeElapsedColumn(), TextColumn("Ctrl-C stops and shows what is done"),
                                console=Console(stderr=True), transient=True)
            self.progress.__enter__()
            self.task = self.progress.add_task("work", total=1, note="")
        return self

    def update(self, done: int, total: int) -> None:
        if self.progress is not None:
            self.progress.update(self.task, completed=done, total=total, note=f"{done:,} of {total:,} games played out")

    def __exit__(self, *exc: Any) -> None:
        if self.progress is not None:
            self.progress.__exit__(*exc)


EIGHTHS = " \u2581\u2582\u2583\u2584\u2585\u2586\u2587\u2588"
LABEL_MARKS = {"fatal": "F", "blunder": "B", "mistake": "M", "inaccuracy": "i"}


def chance_chart(start: float, marks: Sequence[Any], plain: bool, width: int = 64, rows: int = 6) -> list[str]:
    """The win chance over the game as a few lines of text: a column for each step that
    moved it (several steps to a column when there are many), the lowest value of the
    column drawn, and under it a letter where a decision gave points away (B blunder, M
    mistake, i inaccuracy, F fatal)."""
    values = [start] + [m.after for m in marks]
    labels = [""] + [m.label or "" for m in marks]
    per = max(1, -(-len(values) // width))
    cols = [(min(values[i:i + per]), next((lb for lb in labels[i:i + per] if lb), ""))
            for i in range(0, len(values), per)]
    lines = []
    for r in range(rows - 1, -1, -1):
        cells = []
        for v, _ in cols:
            fill = v * rows - r
            if plain:
                cells.append("#" if fill >= 0.5 else " ")
            else:
                cells.append(EIGHTHS[max(0, min(8, round(fill * 8)))])
        axis = "100%" if r == rows - 1 else ("  0%" if r == 0 else "    ")
        lines.append(f"{axis} |{''.join(cells)}")
    lines.append("     +" + "-" * len(cols))
    lines.append("      " + "".join(LABEL_MARKS.get(lb, " ") for _, lb in cols).rstrip())
    return lines


def analysis(a: Any, plain: bool, log_path: str = "") -> None:
    """The analysis of a game at a terminal: the verdict, a table of the decisions that
    mattered, the chart of the win chance, luck and skill."""
    from rich.console import Console
    from rich.table import Table

    from storyteller.study.analysis import first_clause
    from storyteller.core.words import command_line

    console = Console(highlight=False, no_color=plain, emoji=False)
    pct = lambda x: "-" if x is None else f"{100 * x:.0f}%"  # noqa: E731
    console.print(f"{clean(a.title)}, {clean(a.log)}: the chance to win for the built-in {a.player} player, "
                  f"{a.samples} sampled deals at each position.", markup=False)
    if a.start is None:
        console.print(clean(a.verdict), markup=False)
        return
    console.print()
    for line in chance_chart(a.start, a.marks, plain):
        console.print(line, markup=False)
    console.print()
    shown = [m for m in a.decisions if m.label] or sorted(
        [m for m in a.decisions if m.lost > 0], key=lambda m: -m.lost)[:5]
    if shown:
        table = Table(title="The decisions that mattered" if any(m.label for m in shown) else "The largest losses",
                      title_justify="left", box=None, pad_edge=False)
        for name, justify in (("step", "right"), ("move", "left"), ("chance", "right"), ("lost", "right"),
                              ("", "left"), ("the built-in player's choice", "left")):
            table.add_column(name, justify=justify, overflow="fold")  # type: ignore[arg-type]
        for m in sorted(shown, key=lambda m: m.n):
            better = "" if m.best_key == m.key else clean(first_clause(m.best))
            table.add_row(str(m.n), clean(first_clause(m.text)), f"{pct(m.before)} -> {pct(m.after)}",
                          f"{100 * m.lost:.0f}", m.label or "", better)
        console.print(table)
        console.print()
    result = "won" if a.outcome == "won" else a.outcome
    console.print(f"Start {pct(a.start)}; {result} ({pct(a.result)}). Luck {100 * a.luck:+.0f} points, "
                  f"skill {100 * a.skill:+.0f} points: together {100 * (a.luck + a.skill):+.0f}, "
                  "the result minus the start.",
                  markup=False)
    if a.winnable_until is not None:
        console.print(f"With every card known, the deal could be won until step {a.winnable_until}.", markup=False)
    elif a.winnable_why:
        console.print(f"With every card known: {clean(a.winnable_why)}.", markup=False)
    console.print()
    console.print(clean(a.verdict), markup=False)
    if a.branch_step is not None and log_path:
        other_way = command_line("play", "--from", log_path, "--step", a.branch_step)
        console.print(f"To try the other way: {other_way}", markup=False)

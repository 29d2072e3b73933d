"""Many unattended games, on every core: how often a policy wins, and how often a deal can
be won at all.

Seeds are cut into chunks that worker processes play; the results come back in seed order
and are the same whatever the number of processes (each game depends only on its seed).
A game is played exactly as ``storyteller play GAME --seed S --auto POLICY`` plays it
(:func:`storyteller.session.simulate`), and with ``logs`` it is written as that command
would write it, so any of them replays.
"""

from __future__ import annotations

import math
import os
import signal
import tempfile
import time
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Iterator, Sequence

from storyteller.engine import Budget


@dataclass(frozen=True)
class Result:
    seed: str
    result: str
    score: int | None
    cause: str
    solved: str | None = None  # "winnable", "not winnable", "unknown", or None when not asked


@dataclass(frozen=True)
class Job:
    """What a worker needs to play its chunk (everything picklable)."""

    game: str
    variants: dict[str, str]
    policy: str
    logs: str | None = None  # a folder to write each game's log in
    solve: Budget | None = None


class SeedRange(Sequence[str]):
    """Seeds ``A``..``B`` as text, each made when asked for: a million seeds take no memory."""

    def __init__(self, numbers: range) -> None:
        self.numbers = numbers

    def __len__(self) -> int:
        return len(self.numbers)

    def __getitem__(self, i: Any) -> Any:
        if isinstance(i, slice):
            return SeedRange(self.numbers[i])
        return str(self.numbers[i])

    def index_of(self, seed: str) -> int:
        return int(seed) - self.numbers.start


def parse_seeds(seeds: str | None, games: int | None) -> SeedRange:
    """``--seeds A..B`` (both ends included) or ``--games N`` (seeds 0..N-1); ValueError if neither reads."""
    if seeds is not None and games is not None:
        raise ValueError("choose either --games or --seeds")
    if seeds is None:
        n = 1000 if games is None else games
        if n < 1:
            raise ValueError("--games must be 1 or more")
        return SeedRange(range(n))
    low, sep, high = seeds.partition("..")
    try:
        a, b = int(low), int(high)
    except ValueError:
        raise ValueError(f"--seeds takes a range of numbers such as 0..1999, not '{seeds}'") from None
    if not sep or b < a or a < 0:
        raise ValueError(f"--seeds takes a range of numbers such as 0..1999, not '{seeds}'")
    return SeedRange(range(a, b + 1))


def parse_budget(text: str) -> Budget:
    """``100000`` positions, or ``10s`` seconds."""
    text = text.strip().lower()
    try:
        if text.endswith("s"):
            seconds = float(text[:-1])
            if seconds > 0:
                return Budget(seconds=seconds)
        else:
            nodes = int(text)
            if nodes > 0:
                return Budget(nodes=nodes)
    except ValueError:
        pass
    raise ValueError(f"--budget takes a number of positions (100000) or of seconds (10s), not '{text}'")


def _quiet() -> None:
    """Workers leave Ctrl-C to the main process, which stops them and reports."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def play_chunk(job: Job, seeds: Sequence[str]) -> list[Result]:
    from storyteller import registry
    from storyteller.session import AutoPlayer, SeededSource, Session, simulate

    game = registry.rules(job.game)
    out = []
    for seed in seeds:
        if job.logs is None:
            state = simulate(game, job.variants, seed, job.policy)
            outcome = state.outcome
        else:
            session = Session.new(game, job.variants, seed, Path(job.logs) / f"{job.game}-{seed}.jsonl",
                                  mode=f"auto {job.policy}")
            player = AutoPlayer(game, seed, job.policy)
            session.advance()
            while not session.over:
                session.decide(player.choose(session.state, session.decisions))
            session.close()
            outcome = session.outcome
        solved = None
        if job.solve is not None:
            source = SeededSource(seed, game, job.variants)
            solved = game.solver().solve(game.new_state(job.variants), source.resolve, job.solve).answer  # type: ignore[misc]
        assert outcome is not None
        out.append(Result(seed, outcome.result, outcome.score, outcome.cause, solved))
    return out


def chunks(seeds: Sequence[str], jobs: int) -> Iterator[Sequence[str]]:
    """Small enough to keep every process busy to the end and the progress bar moving;
    made one at a time, so the seeds of a long run are never all in memory."""
    size = max(1, min(50, len(seeds) // (jobs * 8) or 1))
    return (seeds[i : i + size] for i in range(0, len(seeds), size))


def run(job: Job, seeds: Sequence[str], jobs: int) -> Iterator[list[Result]]:
    """Play every seed; yields each chunk's results as they come (any order), so a caller
    can show progress and stop early. The caller puts them in seed order (:class:`InOrder`)."""
    if jobs <= 1:
        for part in chunks(seeds, jobs):
            yield play_chunk(job, part)
        return
    import multiprocessing

    # A Pool, not a ProcessPoolExecutor: stopping early (Ctrl-C) terminates the workers at
    # once instead of waiting for the chunks they are playing. It takes the chunks from the
    # generator as the workers ask for them.
    with multiprocessing.Pool(jobs, initializer=_quiet) as pool:
        yield from pool.imap_unordered(_play, ((job, part) for part in chunks(seeds, jobs)))


def _play(args: tuple[Job, Sequence[str]]) -> list[Result]:
    return play_chunk(*args)


# -- what it comes to -------------------------------------------------------------------


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% interval of a win rate (Wilson's, sound near 0% and 100%)."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass
class Summary:
    """What the games came to, counted as they come: its memory does not grow with the
    number of games (each game's own line goes on to its sinks, see :class:`InOrder`)."""

    game: str
    policy: str
    variants: str
    seconds: float = 0.0
    complete: bool = True
    results: Counter = field(default_factory=Counter)  # "won", "lost", "utter loss"
    score_counts: Counter = field(default_factory=Counter)
    answers: Counter = field(default_factory=Counter)  # the solver's, when asked

    def add(self, r: Result) -> None:
        self.results[r.result] += 1
        if r.score is not None:
            self.score_counts[r.score] += 1
        if r.solved is not None:
            self.answers[r.solved] += 1

    def count(self, result: str) -> int:
        return self.results[result]

    @property
    def played(self) -> int:
        return sum(self.results.values())

    @property
    def win_rate(self) -> float:
        return self.count("won") / self.played if self.played else 0.0

    @property
    def mean_score(self) -> float | None:
        n = sum(self.score_counts.values())
        return sum(s * k for s, k in self.score_counts.items()) / n if n else None

    def solved(self, answer: str) -> int:
        return self.answers[answer]

    def as_dict(self) -> dict[str, Any]:
        low, high = wilson(self.count("won"), self.played)
        mean = self.mean_score
        out: dict[str, Any] = {
            "game": self.game,
            "policy": self.policy,
            "variants": self.variants,
            "complete": self.complete,
            "played": self.played,
            "won": self.count("won"),
            "lost": self.count("lost"),
            "utter_loss": self.count("utter loss"),
            "win_rate": round(self.win_rate, 4),
            "interval_95": [round(low, 4), round(high, 4)],
            "mean_score": None if mean is None else round(mean, 3),
            "seconds": round(self.seconds, 2),
            "games_per_second": round(self.played / self.seconds, 1) if self.seconds else None,
        }
        if self.answers:
            out["winnable"] = self.solved("winnable")
            out["not_winnable"] = self.solved("not winnable")
            out["unknown"] = self.solved("unknown")
        return out


class InOrder:
    """Chunks come back in any order; their results go on to ``sinks`` (functions of one
    result) in seed order. Only chunks that came back early wait here, never the whole run."""

    def __init__(self, seeds: SeedRange, sinks: Sequence[Any]) -> None:
        self.seeds = seeds
        self.sinks = sinks
        self.next = 0
        self.waiting: dict[int, list[Result]] = {}

    def add(self, part: list[Result]) -> None:
        if part:
            self.waiting[self.seeds.index_of(part[0].seed)] = part
        while self.next in self.waiting:
            part = self.waiting.pop(self.next)
            self._pass(part)
            self.next += len(part)

    def flush(self) -> None:
        """After a stop: the chunks that came back past a gap go on too, in seed order."""
        for start in sorted(self.waiting):
            self._pass(self.waiting.pop(start))

    def _pass(self, part: list[Result]) -> None:
        for r in part:
            for sink in self.sinks:
                sink(r)


def histogram(scores: Counter, width: int = 30) -> list[tuple[str, int, str]]:
    """(score range, count, bar) lines from how many games had each score: every score
    when there are few, else ten ranges."""
    scores = Counter({s: n for s, n in scores.items() if n})
    if not scores:
        return []
    low, high = min(scores), max(scores)
    values = sorted(scores)
    if len(values) <= 12:
        bins = [(v, v) for v in values]
    else:
        step = math.ceil((high - low + 1) / 10)
        bins = [(a, min(high, a + step - 1)) for a in range(low, high + 1, step)]
    counts = [sum(n for s, n in scores.items() if a <= s <= b) for a, b in bins]
    top = max(counts)
    return [
        (str(a) if a == b else f"{a}-{b}", n, "#" * max(1 if n else 0, round(width * n / top)))
        for (a, b), n in zip(bins, counts)
    ]


def default_jobs() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


# -- the command -------------------------------------------------------------------------


def command(
    game: str,
    games: int | None = None,
    seeds: str | None = None,
    policy: str | None = None,
    variant_specs: Sequence[str] = (),
    jobs: str = "auto",
    as_json: bool = False,
    csv: Path | None = None,
    logs: Path | None = None,
    solve: bool = False,
    budget: str = "200000",
    plain: bool = False,
) -> int:
    """``storyteller simulate``: play many seeded games unattended and say how they went."""
    import json
    import sys

    from storyteller import app

    rules = app.load_game(game)
    variants = app.load_variants(rules, list(variant_specs))
    name = policy or ("greedy" if rules.has_policy else "random")
    if name != "random" and name not in rules.policies:
        known = ", ".join(["random", *rules.policies])
        raise app.UserError(f"{rules.title} has no policy '{name}' (its policies: {known})", app.EXIT_USAGE)
    try:
        chosen = parse_seeds(seeds, games)
        limits = parse_budget(budget) if solve else None
    except ValueError as e:
        raise app.UserError(str(e), app.EXIT_USAGE) from None
    if solve and rules.solver is None:
        raise app.UserError(f"{rules.title} has no solver yet", app.EXIT_USAGE)
    if jobs == "auto":
        workers = default_jobs()
    elif jobs.isdigit() and int(jobs) >= 1:
        workers = int(jobs)
    else:
        raise app.UserError(f"--jobs takes a number of processes or 'auto', not '{jobs}'", app.EXIT_USAGE)
    if csv is not None and csv.exists() and not csv.is_file():
        raise app.UserError(f"{csv}: is not a file", app.EXIT_USAGE)
    if logs is not None:
        try:
            logs.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise app.UserError(f"{logs}: cannot write logs here ({e.strerror or e})") from None
    job = Job(rules.name, variants, name, str(logs) if logs else None, limits)
    summary = Summary(rules.name, name, rules.describe_variants(variants))
    # Each game's line waits in a temporary file until the run is over (a million games
    # take disk, not memory), then goes into the CSV file or the JSON document.
    spools: list[Any] = []
    sinks: list[Any] = [summary.add]
    if csv is not None:
        rows = tempfile.TemporaryFile("w+", encoding="utf-8", newline="\n")
        rows.write("seed,result,score,cause" + (",solved" if solve else "") + "\n")
        sinks.append(lambda r: rows.write(",".join(
            [r.seed, r.result, "" if r.score is None else str(r.score), r.cause] + ([r.solved or ""] if solve else [])
        ) + "\n"))
        spools.append(rows)
    if as_json:
        lines = tempfile.TemporaryFile("w+", encoding="utf-8", newline="\n")
        sinks.append(lambda r: lines.write(json.dumps(asdict(r)) + "\n"))
        spools.append(lines)
    in_order = InOrder(chosen, sinks)
    started = time.perf_counter()
    bar = _Progress(len(chosen), enabled=sys.stderr.isatty() and not as_json)
    code = 0
    try:
        try:
            with bar:
                for part in run(job, chosen, workers):
                    in_order.add(part)
                    bar.update(part, time.perf_counter() - started)
        except KeyboardInterrupt:
            summary.complete = False
            code = app.EXIT_INTERRUPTED
        in_order.flush()
        summary.seconds = time.perf_counter() - started
        for spool in spools:
            spool.seek(0)
        if csv is not None:
            try:
                from storyteller.export import write_atomic

                write_atomic(csv, rows)
            except OSError as e:
                raise app.UserError(f"{csv}: cannot write here ({e.strerror or e})") from None
        if as_json:
            head = json.dumps(summary.as_dict(), indent=2)[:-2]  # without its closing brace
            sys.stdout.write(head + ',\n  "results": [')
            for i, line in enumerate(lines):
                sys.stdout.write(("\n    " if i == 0 else ",\n    ") + line.rstrip("\n"))
            sys.stdout.write("\n  ]\n}\n")
        else:
            _report(summary, plain or bool(os.environ.get("NO_COLOR")))
    finally:
        for spool in spools:
            spool.close()
    if not summary.complete:
        app.err(f"interrupted: {summary.played} of {len(chosen)} games played; the figures above are for those")
    return code


class _Progress:
    """A rich progress bar on stderr: games per second and the running win rate with its interval."""

    def __init__(self, total: int, enabled: bool) -> None:
        self.total = total
        self.enabled = enabled
        self.progress: Any = None
        self.done = self.wins = 0

    def __enter__(self) -> "_Progress":
        if self.enabled:
            from rich.console import Console
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

            self.progress = Progress(
                TextColumn("playing"), BarColumn(), MofNCompleteColumn(), TextColumn("{task.fields[rate]}"),
                TimeElapsedColumn(), console=Console(stderr=True), transient=True,
            )
            self.progress.__enter__()
            self.task = self.progress.add_task("games", total=self.total, rate="")
        return self

    def update(self, part: list[Result], seconds: float) -> None:
        self.done += len(part)
        self.wins += sum(1 for r in part if r.result == "won")
        if self.progress is None or not self.done:
            return
        low, high = wilson(self.wins, self.done)
        rate = (f"{self.done / seconds:,.0f} games/s, won {100 * self.wins / self.done:.1f}% "
                f"({100 * low:.1f}-{100 * high:.1f}%)")
        self.progress.update(self.task, completed=self.done, rate=rate)

    def __exit__(self, *exc: Any) -> None:
        if self.progress is not None:
            self.progress.__exit__(*exc)


def _report(s: Summary, plain: bool) -> None:
    from rich import box
    from rich.console import Console
    from rich.table import Table

    console = Console(no_color=plain, highlight=False)
    low, high = wilson(s.count("won"), s.played)
    table = Table(title=f"{s.game}, {s.variants}, {s.policy}: {s.played:,} games", title_justify="left",
                  box=box.SIMPLE_HEAD, show_header=False)
    table.add_column(justify="right")
    table.add_column()
    table.add_row("won", f"{s.count('won'):,} ({100 * s.win_rate:.2f}%, 95% interval {100 * low:.2f}-{100 * high:.2f}%)")
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


# -- could this deal have been won? ------------------------------------------------------


def verdict_words(verdict: Any) -> str:
    """A solver's answer in one sentence."""
    n = f"{verdict.nodes:,} position{'s' if verdict.nodes != 1 else ''}"
    if verdict.answer == "winnable":
        return f"winnable: a winning game of {len(verdict.moves)} moves was found (searched {n})"
    if verdict.answer == "not winnable":
        return f"not winnable: no line of play wins this deal, even with every card known (searched all {n})"
    return f"unknown: the search stopped at its budget after {n}, before it could tell"


def solve_deal(rules: Any, variants: dict[str, str], seed: str, budget: Budget) -> Any:
    from storyteller.session import SeededSource

    solver = rules.solver()
    return solver.solve(rules.new_state(variants), SeededSource(seed, rules, variants).resolve, budget)


def witness(rules: Any, variants: dict[str, str], seed: str, moves: Sequence[str], path: Path) -> Any:
    """Play a winning line as a logged game (``storyteller replay`` verifies it)."""
    from storyteller.session import Session

    session = Session.new(rules, variants, seed, path, mode="solver")
    try:
        session.advance()
        for key in moves:
            session.decide(key)
    finally:
        session.close()
    return session.outcome


def _searching(work: Any, budget: Budget) -> Any:
    """Run ``work``; at a terminal, a spinner on stderr says what is going on meanwhile."""
    import sys

    if not sys.stderr.isatty():
        return work()
    from rich.console import Console

    limit = f"up to {budget.seconds:g} s" if budget.seconds else f"up to {budget.nodes:,} positions"
    with Console(stderr=True).status(f"Searching every line of play ({limit}); Ctrl-C stops"):
        return work()


def solve_command(target: str, seed: str | None = None, variant_specs: Sequence[str] = (), budget: str = "10s",
                  log: Path | None = None) -> int:
    """``storyteller solve GAME --seed S`` or ``storyteller solve LOG``."""
    from storyteller import app, store
    from storyteller.words import command as shell

    path = Path(target)
    if path.suffix == ".jsonl" or path.exists():
        if seed is not None or variant_specs:
            raise app.UserError("a log says its own seed and variants: give no --seed or --variant with it", app.EXIT_USAGE)
        game_log = store.open_log(path)
        if game_log.header.get("source", "seeded") != "seeded":
            raise app.UserError(f"{path}: its cards or dice came from a real table, so the whole deal is not known: "
                                "it cannot be solved")
        rules = app.load_game(game_log.game)
        variants = rules.validate_variants(game_log.variants)
        seed = game_log.seed
    else:
        rules = app.load_game(target)
        variants = app.load_variants(rules, list(variant_specs))
        if seed is None:
            raise app.UserError("which deal? give --seed S (or a log)", app.EXIT_USAGE)
        seed = app.load_seed(seed)
    if rules.solver is None:
        raise app.UserError(f"{rules.title} has no solver yet", app.EXIT_USAGE)
    try:
        limits = parse_budget(budget)
    except ValueError as e:
        raise app.UserError(str(e), app.EXIT_USAGE) from None
    if log is not None and log.exists():
        raise app.UserError(f"{log}: already exists; choose another --log path", app.EXIT_USAGE)
    verdict = _searching(lambda: solve_deal(rules, variants, seed, limits), limits)
    app.say(f"{rules.title}, seed {seed}, {rules.describe_variants(variants)}: {verdict_words(verdict)}.")
    if verdict.answer == "winnable" and log is not None:
        outcome = witness(rules, variants, seed, verdict.moves, log)
        if outcome is None or not outcome.won:
            raise app.UserError(f"the solver's winning line did not win when played ({log} keeps it): please report this")
        app.say(f"Wrote the winning game to {log}; check it with: {shell('storyteller', 'replay', log)}")
    return 0

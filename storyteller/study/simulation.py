"""Many unattended games, on every core: how often a policy wins, and how often a deal can
be won at all. A library: :func:`simulate` returns the figures and tells each game's result
to a callback as it comes; ``storyteller simulate`` draws the progress bar and the tables
(``storyteller.app``), and a notebook needs only this::

    from storyteller.study.simulation import simulate
    summary = simulate("adaman", games=1000, policy="greedy", jobs=2)
    print(f"{summary.win_rate:.1%} won")

Seeds are cut into chunks that worker processes play; the results come back in seed order
and are the same whatever the number of processes (each game depends only on its seed).
A game is played exactly as ``storyteller play GAME --seed S --auto POLICY`` plays it
(:func:`storyteller.play.session.simulate`), and with ``logs`` it is written as that command
would write it, so any of them replays.
"""

from __future__ import annotations

import math
import os
import signal
import time
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from storyteller.core.engine import Budget
from storyteller.core.engine import Result as Ending
from storyteller.core.errors import EXIT_USAGE, UserError


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
    from storyteller.core.sources import SeededSource
    from storyteller.play.session import AutoPlayer, Session, simulate

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
            solver = registry.get(job.game).solver()  # a game with a solver: simulate --solve checks
            solved = solver.solve(game.new_state(job.variants), source.resolve, job.solve).answer  # type: ignore[union-attr]
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
        return self.count(Ending.WON) / self.played if self.played else 0.0

    @property
    def mean_score(self) -> float | None:
        n = sum(self.score_counts.values())
        return sum(s * k for s, k in self.score_counts.items()) / n if n else None

    def solved(self, answer: str) -> int:
        return self.answers[answer]

    def as_dict(self) -> dict[str, Any]:
        low, high = wilson(self.count(Ending.WON), self.played)
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




# -- the library's one call ------------------------------------------------------------


def simulate(
    game: str,
    games: int | None = None,
    seeds: str | range | SeedRange | None = None,
    policy: str | None = None,
    variants: Mapping[str, str] | Sequence[str] = (),
    jobs: int | None = 1,
    logs: Path | None = None,
    solve: Budget | None = None,
    on_result: Callable[[Result], None] | None = None,
) -> Summary:
    """Play ``games`` seeded games (seeds 0..N-1; default 1000) or the ``seeds`` given
    (``"0..1999"`` or a range of numbers) with ``policy`` (default: greedy where the game has
    it, else random), on ``jobs`` processes (None: one per core), and return what they came
    to. ``variants``: a mapping of every variant, or the specs a player types
    (``["jokers=taken"]``). ``on_result`` hears each game's :class:`Result` in seed order as
    it comes (a progress bar, a CSV file). With ``logs`` each game's log is written there;
    with ``solve`` each deal is also solved within that budget. Ctrl-C stops at once: the
    summary then holds the games played so far, and says ``complete = False``.

    Raises :class:`storyteller.core.errors.UserError` for an unknown game, variant or player."""
    from storyteller import registry

    try:
        reg = registry.get(game)
        rules = reg.rules
    except registry.RegistryError as e:
        raise UserError(str(e), EXIT_USAGE) from None
    try:
        if isinstance(variants, Mapping):
            chosen = rules.validate_variants(variants) if variants else rules.parse_variants([])
        else:
            chosen = rules.parse_variants(list(variants))
    except ValueError as e:
        raise UserError(str(e), EXIT_USAGE) from None
    name = policy or ("greedy" if reg.has_policy else "random")
    if name != "random" and name not in reg.policies:
        known = ", ".join(["random", *reg.policies])
        raise UserError(f"{rules.title} has no policy '{name}' (its policies: {known})", EXIT_USAGE)
    if solve is not None and not reg.has_solver:
        raise UserError(f"{rules.title} has no solver yet", EXIT_USAGE)
    if isinstance(seeds, range):
        seeds = SeedRange(seeds)
    elif not isinstance(seeds, SeedRange):
        try:
            seeds = parse_seeds(seeds, games)
        except ValueError as e:
            raise UserError(str(e), EXIT_USAGE) from None
    if jobs is None:
        jobs = default_jobs()
    job = Job(rules.name, chosen, name, str(logs) if logs else None, solve)
    summary = Summary(rules.name, name, rules.describe_variants(chosen))
    in_order = InOrder(seeds, [summary.add] + ([on_result] if on_result else []))
    started = time.perf_counter()
    try:
        for part in run(job, seeds, jobs):
            in_order.add(part)
    except KeyboardInterrupt:
        summary.complete = False
    in_order.flush()
    summary.seconds = time.perf_counter() - started
    return summary


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
    from storyteller.core.sources import SeededSource

    from storyteller import registry

    solver = registry.get(rules.name).solver()  # a game with a solver: the caller checks
    return solver.solve(rules.new_state(variants), SeededSource(seed, rules, variants).resolve, budget)  # type: ignore[union-attr]


def witness(rules: Any, variants: dict[str, str], seed: str, moves: Sequence[str], path: Path) -> Any:
    """Play a winning line as a logged game (``storyteller replay`` verifies it)."""
    from storyteller.play.session import Session

    session = Session.new(rules, variants, seed, path, mode="solver")
    try:
        session.advance()
        for key in moves:
            session.decide(key)
    finally:
        session.close()
    return session.outcome

"""Where a game turned: the chance to win before and after every decision, what each card
and roll did to it, and whether the deal could still be won.

**The evaluator.** A position's value is the chance that the game's built-in player (the
greedy one, unless another is named) wins from it, using only what the player could know
there: the cards not yet seen are dealt at random from those that can still come (each
draw's ``options``), the dice to come are rolled at random, and the player plays the game
out from the position; ``samples`` such deals, the same ones for every position (common
random numbers). Sample ``k`` is a fixed order of each pile (and fixed dice for each
roll), seeded from the log's seed: the same log gives the same analysis on any machine, in
any process. An ended game is worth 1 (won) or 0.

Every position of the game that stands (undone moves and corrected cards left out) gets
exactly one value, so the changes add up. A decision's **before** is the value of the
position it was made in (the player's own move there is **the move the analysis
prefers**), its **after** the value of the position it left; it gave away
``before - after`` points (a move better than the player's choice gives away none, and
its skill is positive). **Skill** is the sum over decisions of after minus before,
**luck** the same sum over draws and rolls (the value after a card minus its expected
value before it), and luck + skill is the result (1, 0, or the value where an unfinished
game stopped) minus ``start``, the value before the first decision. A decision is an
``inaccuracy`` when it gives away 5 points of win chance or more, a ``mistake`` at 10, a
``blunder`` at 20, and ``fatal`` when the solver, with every card known, proves the deal
winnable before it and not after.

**With every card known** (seeded logs, games with a solver): a lost position stays lost,
so a binary search with the solver finds the last decision at which the deal could still
be won (``winnable_until``); where the solver's budget runs out, or the cards came from a
real table, ``winnable_why`` says why there is no answer.

Pure computation: no terminal, no files. ``progress`` hears how far it has come; a
``deadline`` (seconds) or Ctrl-C stops it with the decisions analysed so far
(``complete`` is then False).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from pathlib import Path
from dataclasses import dataclass, field
from typing import Any

from storyteller.core.engine import Budget, Draw, Roll, State
from storyteller.core.rng import Stream
from storyteller.log.events import CardDrawn, Revealed, End
from storyteller.log.replay import Step

DEFAULT_SAMPLES = 32
FEWEST_SAMPLES = 12  # a long game's default (see analyse)
PLAYOUT_STEPS = 64_000  # the default's bound on the decisions its playouts make, about
DEFAULT_BUDGET = Budget(nodes=200_000)  # positions, not seconds: the same answer on any machine
LABELS = ((0.20, "blunder"), (0.10, "mistake"), (0.05, "inaccuracy"))
MAX_DECISIONS = 10_000  # a playout longer than this is a player that never ends: counted a loss


class AnalysisError(ValueError):
    """An analysis that cannot be made (no player to play the game out, a bad option)."""


# -- what it finds ---------------------------------------------------------------------------


@dataclass
class Mark:
    """One step that moved the win chance: a decision, or a card or roll."""

    n: int  # the step's event number
    kind: str  # "decision", "draw" or "roll"
    text: str  # in the rules' words
    before: float
    after: float
    best: str = ""  # a decision: the move the analysis prefers (its words)
    best_key: str = ""
    key: str = ""  # a decision: the move made (its key)
    choices: int = 1  # a decision: how many legal moves there were
    label: str | None = None

    @property
    def change(self) -> float:
        return self.after - self.before

    @property
    def lost(self) -> float:
        """The points of win chance a decision gave away (never below 0)."""
        return max(0.0, self.before - self.after)

    def decision_dict(self) -> dict[str, Any]:
        """A decision's mark as JSON: the move, the one preferred, the points it gave away."""
        return {"n": self.n, "move": self.text, "key": self.key, "before": _r(self.before), "after": _r(self.after),
                "best": self.best, "best_key": self.best_key, "lost": _r(self.lost), "label": self.label,
                "choices": self.choices}

    def chance_dict(self) -> dict[str, Any]:
        """A card's or a roll's mark as JSON: what it turned up, and its luck."""
        return {"n": self.n, "kind": self.kind, "text": self.text, "before": _r(self.before), "after": _r(self.after),
                "luck": _r(self.change)}


def _r(x: float) -> float:
    return round(x, 4)


@dataclass
class Analysis:
    game: str
    title: str
    log: str  # the log's file name
    seed: str
    source: str
    player: str
    samples: int
    budget: str
    start: float | None = None
    result: float | None = None
    outcome: str = "unfinished"
    decisions: list[Mark] = field(default_factory=list)
    chances: list[Mark] = field(default_factory=list)
    winnable_until: int | None = None
    winnable_why: str | None = None
    complete: bool = True
    seconds: float = 0.0
    turning: Mark | None = None
    branch_step: int | None = None  # play --from LOG --step N tries the other way at the turning point
    fatal: Mark | None = None
    verdict: str = ""

    @property
    def luck(self) -> float:
        return sum(m.change for m in self.chances)

    @property
    def skill(self) -> float:
        return sum(m.change for m in self.decisions)

    @property
    def marks(self) -> list[Mark]:
        return sorted(self.decisions + self.chances, key=lambda m: m.n)

    def as_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "log": self.log,
            "seed": self.seed,
            "player": self.player,
            "samples": self.samples,
            "budget": self.budget,
            "start": None if self.start is None else _r(self.start),
            "result": None if self.result is None else _r(self.result),
            "outcome": self.outcome,
            "decisions": [m.decision_dict() for m in self.decisions],
            "chances": [m.chance_dict() for m in self.chances],
            "luck": _r(self.luck),
            "skill": _r(self.skill),
            "winnable_until": self.winnable_until,
            "winnable_why": self.winnable_why,
            "turning_point": None if self.turning is None else self.turning.n,
            "branch_step": self.branch_step,
            "verdict": self.verdict,
            "complete": self.complete,
        }


# -- the samples ------------------------------------------------------------------------------


class Sampled:
    """Deal number ``k`` of what the player has not seen: each pile (and each deal of it) in
    an order fixed by the log's seed and ``k``, each draw answered by the first card of that
    order the draw can still be, each roll by dice fixed by its index and ``k``. Drawn this
    way the unseen cards come in a uniformly random order, whatever was seen before."""

    def __init__(self, rules: Any, variants: dict[str, str], seed: str, k: int) -> None:
        self.rules, self.variants, self.seed, self.k = rules, variants, seed, k
        self.orders: dict[tuple[str, int], list[str]] = {}

    def resolve(self, request: Draw | Roll) -> Any:
        if isinstance(request, Draw):
            key = (request.pile, request.deal)
            order = self.orders.get(key)
            if order is None:
                deck = self.rules.deck(self.variants, request.pile)
                order = Stream(self.seed, "analysis", str(self.k), request.pile, str(request.deal)).shuffled(deck)
                self.orders[key] = order
            options = request.options
            for card in order:
                if card in options:
                    return card
            return min(options)  # a card outside the pile's deck (a game's own rule): still one it can be
        stream = Stream(self.seed, "analysis", str(self.k), "roll", str(request.index))
        return tuple(stream.die(request.sides) for _ in range(request.count))


_WORKER: dict[str, Any] = {}


def _registration(game: str) -> Any:
    from storyteller import registry

    if _WORKER.get("game") != game:
        _WORKER.update(game=game, reg=registry.get(game))
    return _WORKER["reg"]


def playout(state: State, reg: Any, player: str, sampled: Sampled) -> float:
    """1.0 if ``player`` wins from ``state`` on this sample, else 0.0 (``state`` is changed)."""
    policy = reg.policy(player)
    decisions = 0
    while state.outcome is None:
        request = state.chance()
        if request is not None:
            state.resolve(sampled.resolve(request))
            continue
        hint = policy.choose(state)
        state.apply((hint.action if hint is not None else state.legal_actions()[0]).move)
        decisions += 1
        if decisions > MAX_DECISIONS:
            return 0.0
    return 1.0 if state.outcome.won else 0.0


@dataclass(frozen=True)
class Job:
    """Playouts from one position (after ``move``, if given) on samples ``ks``."""

    game: str
    variants: tuple[tuple[str, str], ...]
    seed: str
    player: str
    state: Any
    move: str | None
    ks: tuple[int, ...]


def run_job(job: Job) -> list[float]:
    reg = _registration(job.game)
    rules, variants = reg.rules, dict(job.variants)
    start = job.state.clone()
    if job.move is not None:
        start.apply(rules.parse(job.move))
    return [playout(start.clone(), reg, job.player, Sampled(rules, variants, job.seed, k)) for k in job.ks]


class Pool:
    """Playouts on ``jobs`` processes (one: in this process), in small pieces so that both
    cores stay busy and Ctrl-C stops at once."""

    def __init__(self, jobs: int) -> None:
        self.jobs = jobs
        self._pool = None
        if jobs > 1:
            import multiprocessing

            from storyteller.study.simulation import _quiet

            self._pool = multiprocessing.Pool(jobs, initializer=_quiet)

    def map(self, jobs: list[Job]) -> list[list[float]]:
        if self._pool is None:
            return [run_job(j) for j in jobs]
        pieces: list[tuple[int, Job]] = []
        for i, j in enumerate(jobs):  # split the larger jobs: a job per core at least
            step = max(1, len(j.ks) // 4) if len(jobs) < self.jobs * 4 else len(j.ks)
            for a in range(0, len(j.ks), step):
                pieces.append((i, Job(j.game, j.variants, j.seed, j.player, j.state, j.move, j.ks[a:a + step])))
        results = self._pool.map(run_job, [p for _, p in pieces], chunksize=1)
        out: list[list[float]] = [[] for _ in jobs]
        for (i, _), values in zip(pieces, results):
            out[i].extend(values)
        return out

    def close(self) -> None:
        if self._pool is not None:
            self._pool.terminate()
            self._pool.join()
            self._pool = None


# -- the analysis -----------------------------------------------------------------------------


def _standing(steps: Sequence[Step]) -> list[Step]:
    """The steps that stand and move the game: decisions, draws and rolls (a correction as
    the card or dice it gives), undone and corrected ones left out."""
    return [s for s in steps if s.stands and (s.move is not None or s.revealed is not None)]


def _chance_text(event: Revealed) -> str:
    from storyteller.core.cards import card

    if isinstance(event, CardDrawn):
        try:
            return f"Drew the {card(event.card).name}"
        except KeyError:
            return f"Drew {event.card}"
    return "Rolled " + " ".join(str(d) for d in event.dice)


class _Evaluator:
    def __init__(self, reg: Any, variants: dict[str, str], seed: str, player: str, samples: int, pool: Pool,
                 progress: Callable[[int, int], None] | None, deadline: float | None, total: int) -> None:
        self.reg, self.variants, self.seed, self.player = reg, variants, seed, player
        self.samples, self.pool, self.progress, self.deadline = samples, pool, progress, deadline
        self.done, self.total = 0, total
        self.frozen = tuple(sorted(variants.items()))

    def means(self, states: list[State]) -> list[float]:
        """The value of each position: the mean of its playouts over every sample."""
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise _OutOfTime
        jobs = [Job(self.reg.rules.name, self.frozen, self.seed, self.player, s, None, tuple(range(self.samples)))
                for s in states]
        out = [sum(v) / len(v) for v in self.pool.map(jobs)]
        self.done += len(states) * self.samples
        if self.progress:
            self.progress(self.done, max(self.total, self.done))
        return out


class _OutOfTime(Exception):
    pass


def analyse(
    log: Any,
    samples: int | None = None,
    budget: Budget | None = DEFAULT_BUDGET,
    player: str | None = None,
    jobs: int | None = 1,
    progress: Callable[[int, int], None] | None = None,
    deadline: float | None = None,
    solve: bool = True,
) -> Analysis:
    """The analysis of a log (any that replays: finished or not, seeded or from a real
    table). ``player``: the built-in player whose chance is measured (default: greedy);
    ``budget``: the solver's, per position; ``deadline``: seconds from now after which it
    stops with what is done; ``solve=False`` leaves out the part with every card known.
    ``samples`` defaults to :data:`DEFAULT_SAMPLES`, or for a long game (a Cascades game has
    over a hundred decisions) fewer, down to :data:`FEWEST_SAMPLES`, so that its playouts
    make about :data:`PLAYOUT_STEPS` decisions at most: seconds for any game."""
    from storyteller import registry
    from storyteller.core.sources import SeededSource
    from storyteller.log.replay import walk
    from storyteller.study.simulation import default_jobs

    if samples is not None and samples < 1:
        raise AnalysisError("--samples takes a whole number of 1 or more")
    started = time.monotonic()
    w = walk(log, keep_steps=True)
    reg = registry.get(w.game.name)
    name = player or ("greedy" if reg.has_policy else None)
    if name is None or name not in reg.policies:
        players = ", ".join(reg.policies) or "none"
        raise AnalysisError(f"{w.game.title} has no built-in player{' ' + repr(player) if player else ''} to measure "
                            f"win chances with (its players: {players})")
    source = log.header.source
    out = Analysis(w.game.name, w.game.title, Path(log.path).name if log.path else "", log.seed, source, name,
                   DEFAULT_SAMPLES if samples is None else samples,
                   _budget_text(budget))
    standing = _standing(w.steps)
    first = next((i for i, s in enumerate(standing) if s.move is not None), None)
    if w.outcome is not None:
        out.outcome = w.outcome.result
    if first is None:
        out.verdict = "The game ended before its first decision: there is nothing to analyse."
        out.seconds = time.monotonic() - started
        return out
    steps = standing[first:]
    # the positions: before the first decision, then after each standing step
    assert steps[0].before is not None  # a walk that keeps its steps keeps the state before each
    points: list[State] = [steps[0].before] + [s.after for s in steps]
    # The player's own move in each position a decision was made in: where the move made is
    # the same, the position after it is worth what the position before it is.
    policy_moves: dict[int, str] = {}
    same: dict[int, int] = {}  # point -> an earlier point of the same value
    for i, s in enumerate(steps):
        if s.move is not None:
            policy = reg.policy(name)
            assert policy is not None  # one of reg.policies
            hint = policy.choose(points[i].clone())
            policy_moves[i] = hint.action.key if hint is not None else s.move.key
            if policy_moves[i] == s.move.key or len(points[i].legal_actions()) == 1:
                same[i + 1] = i
    todo = [i for i, p in enumerate(points) if i not in same and p.outcome is None]
    if samples is None:  # the work: each position's playouts run about as long as the rest of the game did
        left = [0] * (len(points) + 1)  # left[i]: the decisions from step i on (a suffix sum)
        for i in range(len(points) - 1, -1, -1):
            left[i] = left[i + 1] + (i < len(steps) and steps[i].move is not None)
        work = sum(max(1, left[i]) for i in todo)
        samples = max(FEWEST_SAMPLES, min(DEFAULT_SAMPLES, PLAYOUT_STEPS // max(1, work)))
    out.samples = samples
    values: list[float | None] = [None] * len(points)
    pool = Pool(jobs if jobs is not None else default_jobs())
    ev = _Evaluator(reg, w.variants, log.seed, name, samples, pool, progress,
                    None if deadline is None else started + deadline, len(todo) * samples)
    batch = 8 * max(1, pool.jobs)  # positions evaluated together: every core busy, Ctrl-C loses little

    def fill(upto: int) -> None:
        for i in range(upto):
            if values[i] is None:
                outcome = points[i].outcome
                if outcome is not None:
                    values[i] = 1.0 if outcome.won else 0.0
                elif i in same and values[same[i]] is not None:
                    values[i] = values[same[i]]

    try:
        for a in range(0, len(todo), batch):
            part = todo[a:a + batch]
            for i, v in zip(part, ev.means([points[i] for i in part])):
                values[i] = v
            fill(len(points))
    except (KeyboardInterrupt, _OutOfTime):
        out.complete = False
    finally:
        pool.close()
    fill(len(points))
    known = 0
    while known < len(values) and values[known] is not None:
        known += 1
    if known == 0:
        out.seconds = time.monotonic() - started
        out.complete = False
        out.verdict = "The analysis was stopped before it could measure anything."
        return out
    out.start = values[0]
    for j in range(1, known):
        s, before, after = steps[j - 1], values[j - 1], values[j]
        assert before is not None and after is not None  # the first ``known`` values are all measured
        if s.move is not None:
            state = points[j - 1]
            mark = Mark(s.n, "decision", s.words or s.move.key, before, after, key=s.move.key,
                        choices=len(state.legal_actions()))
            mark.best_key = policy_moves[j - 1]
            mark.best = state.describe(w.game.parse(mark.best_key)) if mark.best_key != s.move.key else mark.text
            out.decisions.append(mark)
        else:
            assert s.revealed is not None
            out.chances.append(Mark(s.n, "roll" if s.rolled is not None else "draw", _chance_text(s.revealed), before,
                                    after))
    out.result = values[known - 1]
    if known < len(values):
        out.complete = False
    elif w.outcome is not None and w.outcome.result == "abandoned":
        end = next(s for s in reversed(w.steps) if isinstance(s.event, End))
        out.decisions.append(Mark(end.n, "decision", "Abandon the game", values[-1], 0.0, key="abandon", choices=0))  # type: ignore[arg-type]
        out.result = 0.0
    for m in out.decisions:
        m.label = None if m.key == "abandon" else next((name for floor, name in LABELS if m.lost >= floor - 1e-9), None)
    if solve and out.complete and reg.has_solver and source == "seeded" and budget is not None:
        try:
            _winnable(out, w, steps, points, reg, SeededSource(log.seed, w.game, w.variants), budget, started, deadline)
        except KeyboardInterrupt:
            out.complete = False
            out.winnable_why = "the analysis was stopped before the solver could answer"
    elif source != "seeded":
        out.winnable_why = ("the cards came from a real table, so those not turned up are not known: no solver can say "
                            "whether the deal could still be won" if source != "physical dice" else
                            "the dice came from a real table, so those to come are not known: no solver can say "
                            "whether the deal could still be won")
    elif not reg.has_solver:
        out.winnable_why = f"{w.game.title} has no solver yet"
    elif not out.complete:
        out.winnable_why = "the analysis was stopped before the solver could answer"
    else:
        out.winnable_why = "left out"
    _verdict(out, log)
    out.seconds = time.monotonic() - started
    return out


def _budget_text(budget: Budget | None) -> str:
    if budget is None:
        return ""
    if budget.nodes is not None:
        return f"{budget.nodes:,} positions"
    return f"{budget.seconds:g} s"


def _winnable(out: Analysis, w: Any, steps: list[Any], points: list[State], reg: Any, source: Any, budget: Budget,
              started: float, deadline: float | None) -> None:
    """The last decision at which the deal could still be won, by binary search with the
    solver (a lost position stays lost); the decision after which it could not, fatal."""
    decisions = [i for i, s in enumerate(steps) if s.move is not None]
    cache: dict[int, str] = {}

    def answer(i: int) -> str:  # the solver on position i (before step i, or after the last)
        if i not in cache:
            state = points[i]
            if state.outcome is not None:
                cache[i] = "winnable" if state.outcome.won else "not winnable"
            else:
                cache[i] = reg.solver().solve(state.clone(), source.resolve, budget).answer
        return cache[i]

    if out.outcome == "won":
        out.winnable_until = steps[-1].n
        return
    first = decisions[0]
    got = answer(first)
    if got == "unknown":
        out.winnable_why = (f"the solver's budget ({out.budget}) ran out "
                            "before it could tell whether the deal could be won")
        return
    if got == "not winnable":
        out.winnable_why = "with every card known, no order of play could have won this deal"
        return
    lo, hi = 0, len(decisions)  # decisions[lo] winnable; find the first decision whose position after is not
    while hi - lo > 1:
        mid = (lo + hi) // 2
        got = answer(decisions[mid])
        if got == "unknown":
            out.winnable_why = (f"the solver's budget ({out.budget}) ran out at step {steps[decisions[mid]].n}, before "
                                "it could tell how long the deal stayed winnable")
            return
        if got == "winnable":
            lo = mid
        else:
            hi = mid
    last = decisions[lo]  # winnable before it
    after = answer(last + 1) if last + 1 < len(points) else "unknown"
    if after == "unknown" and out.outcome in ("unfinished", "abandoned") and last + 1 >= len(points) - 1:
        out.winnable_until = steps[last].n
        out.winnable_why = None
        return
    out.winnable_until = steps[last].n
    if after == "not winnable":
        mark = next((m for m in out.decisions if m.n == steps[last].n), None)
        if mark is not None:
            mark.label = "fatal"
            out.fatal = mark


def chances(x: float) -> str:
    """A chance to win as a player says it: "none", "about 1 in 4", "about 7 in 10", "every
    one" (a share of the games played on from there)."""
    if x < 0.005:
        return "none"
    if x > 0.995:
        return "near certain"
    if x < 0.5:
        return f"about 1 in {max(2, round(1 / x))}"
    return f"about {round(x * 10)} in 10" if round(x * 10) < 10 else "near certain"


def _cost(x: float) -> str:
    """Chances given away, as a player says it: "about 3 in 100"."""
    return f"about {max(1, round(x * 100))} in 100"


def _verdict(out: Analysis, log: Any) -> None:
    """One or two sentences: where the game turned, whether the deal could be won and until
    when, how the cards fell."""
    marked = [m for m in out.decisions if m.key != "abandon"]
    turning = max(marked, key=lambda m: (m.lost, -m.n), default=None)
    if turning is not None and turning.lost < LABELS[-1][0] - 1e-9:
        turning = None
    out.turning = turning
    words: list[str] = []
    if turning is not None:
        prefer = f"; the built-in player's choice: {_lower(turning.best)}" if turning.best_key != turning.key else ""
        words.append(f"The turning point was step {turning.n}, {_lower(turning.text)}: your chances of winning "
                     f"went from {chances(turning.before)} to {chances(turning.after)}{prefer}.")
        out.branch_step = _branch_step(log, turning.n)
    elif marked:
        big = max(marked, key=lambda m: m.lost)
        if big.lost >= 0.005:
            words.append(f"No move gave much away: the costliest, at step {big.n}, lowered your chances by "
                         f"{_cost(big.lost)}.")
        else:
            words.append("No move gave anything away.")
    fatal = out.fatal
    if out.outcome == "won":
        if out.luck >= 0.2:
            words.append("You won, and the cards were kind to you.")
        elif out.luck <= -0.2:
            words.append("You won against the cards: they fell badly for you.")
    elif fatal is not None:
        same = turning is not None and fatal.n == turning.n
        hidden = ", though nothing a player could see showed it then" if fatal.lost < LABELS[-1][0] else ""
        words.append(f"The deal could be won until step {fatal.n}"
                     + ("" if same else f", {_lower(fatal.text)}")
                     + f"; after that no order of play would have saved it{hidden}.")
    elif out.winnable_until is not None:
        words.append(f"With every card known, the deal could still be won at step {out.winnable_until}.")
    elif out.winnable_why and out.winnable_why.startswith("with every card known"):
        words.append("With every card known, no order of play could have won this deal.")
    if out.outcome == "lost" and turning is None and out.luck <= -0.2:
        words.append("The cards decided it: they fell badly, whatever you chose.")
    abandon = next((m for m in out.decisions if m.key == "abandon"), None)
    if abandon is not None:
        words.append(f"You left the game with chances of winning of {chances(abandon.before)}.")
    if not out.complete:
        words.append("(The analysis was stopped early: it covers the game up to where it stopped.)")
    out.verdict = " ".join(words)


def first_clause(text: str) -> str:
    """A move's words up to the first "; " outside brackets (what the move is, without
    what it leads to)."""
    depth = 0
    for i, ch in enumerate(text):
        depth += (ch == "(") - (ch == ")")
        if depth == 0 and text.startswith("; ", i):
            return text[:i]
    return text


def _lower(text: str) -> str:
    """A move's words inside a sentence: the first clause, without its capital."""
    text = first_clause(text)
    return text[:1].lower() + text[1:] if text[:2] != text[:2].upper() else text


def _branch_step(log: Any, n: int) -> int | None:
    """The step to branch from to make decision ``n`` again: the event just before it."""
    return n - 1 if n > 1 else None

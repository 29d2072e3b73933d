"""Choosing a deal: a fresh one the solver has proved winnable (``play GAME --deal
winnable``, ``easy``, ``hard``) and the day's deal (``play GAME --daily``).

Only the seed is chosen: a chosen seed deals what it always deals, by the same rules.
A deal is called winnable only when the solver, with every card (and die) known, found a
winning game and that game, played move by move on the rules from a new table dealt by
the seed, wins (:func:`proves`): never on the solver's word alone, never a guess.

``easy`` and ``hard`` split the winnable deals by whether the built-in greedy player,
which sees only what a player sees, wins the very same deal when it plays it (it plays
a deal one way only, so that is an honest yes or no, measured in a few milliseconds).

A fresh search looks at new random seeds until one is proved, for ``seconds`` at most,
each for a share of that time. The day's deal tries the day's seeds in order
(:func:`storyteller.core.daily.seeds`), each for a number of positions rather than of
seconds, so that every machine, fast or slow, finds the same one.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any

from storyteller.core.daily import seeds as daily_seeds
from storyteller.core.engine import Budget, Game, RuleError
from storyteller.core.rng import fresh_seed
from storyteller.core.sources import SeededSource

SECONDS = 2.0  # how long --deal looks for a deal before it says none was proved in time
EACH = 0.25  # seconds at most on one fresh seed: one the solver is slow on is passed over for the next
DAILY_NODES = 2_000  # positions the solver may search for each of the day's seeds (under a second each)
WANTS = ("winnable", "easy", "hard")  # what --deal can choose, besides "any" (today's default)
PLAYER = "greedy"  # the built-in player that tells an easy deal from a hard one


@dataclass(frozen=True)
class Found:
    """A deal looked at: its seed, whether it was proved winnable (and by a winning game of
    how many moves), whether the greedy player wins it (asked only for easy and hard)."""

    seed: str
    winnable: bool
    moves: int = 0
    player_wins: bool | None = None


@dataclass(frozen=True)
class Search:
    """What a search for a deal came to: the deal ``found`` (None when no seed was proved
    in time), how many seeds it tried and how long it took."""

    found: Found | None
    tried: int
    seconds: float


def proves(rules: Game, variants: Mapping[str, str], seed: str, moves: Sequence[str]) -> bool:
    """Whether the moves, played one by one on the rules from a new game dealt by ``seed``,
    are each legal where they are played and win the game."""
    state = rules.new_state(variants)
    source = SeededSource(seed, rules, variants)

    def settle() -> None:
        while state.outcome is None and (request := state.chance()) is not None:
            state.resolve(source.resolve(request))

    try:
        for key in moves:
            settle()
            if state.outcome is not None:
                return False
            move = rules.parse(key)
            if move not in {a.move for a in state.legal_actions()}:
                return False
            state.apply(move)
        settle()
    except RuleError:
        return False
    return state.outcome is not None and state.outcome.won


def judge(rules: Game, variants: Mapping[str, str], seed: str, budget: Budget, want: str = "winnable") -> Found:
    """One seed: solved within ``budget`` and, when the solver says winnable, proved on
    the rules; for ``easy`` and ``hard``, played by the greedy player too."""
    from storyteller import registry
    from storyteller.play.session import simulate

    solver = registry.get(rules.name).solver()
    assert solver is not None, f"{rules.title} has no solver"
    chosen = dict(variants)
    verdict = solver.solve(rules.new_state(chosen), SeededSource(seed, rules, chosen).resolve, budget)
    if verdict.answer != "winnable" or not proves(rules, chosen, seed, verdict.moves):
        return Found(seed, False)
    wins = None
    if want in ("easy", "hard"):
        outcome = simulate(rules, chosen, seed, PLAYER).outcome
        wins = bool(outcome is not None and outcome.won)
    return Found(seed, True, len(verdict.moves), wins)


def fits(found: Found, want: str) -> bool:
    if not found.winnable:
        return False
    if want == "easy":
        return found.player_wins is True
    if want == "hard":
        return found.player_wins is False
    return True


def find(rules: Game, variants: Mapping[str, str], want: str = "winnable", seconds: float = SECONDS,
         seeds: Iterator[str] | None = None, clock: Callable[[], float] = time.monotonic) -> Search:
    """A fresh deal of the kind ``want`` (winnable, easy or hard), looked for among new
    seeds (or ``seeds``) for ``seconds`` at most: ``Search.found`` is None when none was
    proved in time."""
    if want not in WANTS:
        raise ValueError(f"want is one of {', '.join(WANTS)}, not {want!r}")
    fresh = seeds if seeds is not None else iter(fresh_seed, None)
    start = clock()
    tried = 0
    seen: set[str] = set()
    while True:
        left = seconds - (clock() - start)
        if left <= 0:
            return Search(None, tried, clock() - start)
        seed = next(fresh, None)
        if seed is None:
            return Search(None, tried, clock() - start)
        if seed in seen:
            continue
        seen.add(seed)
        tried += 1
        found = judge(rules, variants, seed, Budget(seconds=min(EACH, left)), want)
        if fits(found, want):
            return Search(found, tried, clock() - start)


def daily(rules: Game, day: date, nodes: int = DAILY_NODES) -> tuple[Found, dict[str, Any]]:
    """The day's deal of a game, by its standard rules: the first of the day's seeds that
    the solver proves winnable within ``nodes`` positions, or, when none is, the first of
    them, unproved. With the log header's ``deal`` for it."""
    variants = rules.parse_variants([])
    candidates = daily_seeds(rules.name, day)
    for seed in candidates:
        found = judge(rules, variants, seed, Budget(nodes=nodes))
        if found.winnable:
            break
    else:
        found = Found(candidates[0], False)
    return found, {"chosen": "daily", "winnable": found.winnable, "date": day.isoformat()}

"""Hexaract win rates: a random player against the built-in greedy policy.

Run from the repository root:

    /work/venv/bin/python tests/winrate_hexaract.py [N]

Both play the same seeded deals and dice (seeds "0" .. "N-1", default 2000); the random
player picks uniformly among the legal actions with the stream Stream(seed, "auto").
"""

from __future__ import annotations

import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from storyteller.games.hexaract import GAME  # noqa: E402
from storyteller.session import simulate  # noqa: E402


def play(seed: str, greedy: bool):
    return simulate(GAME, {}, seed, "greedy" if greedy else "random")


def measure(n: int, greedy: bool) -> tuple[int, Counter, float, float]:
    started = time.perf_counter()
    wins = 0
    why: Counter = Counter()
    harm = 0
    for i in range(n):
        state = play(str(i), greedy)
        wins += state.outcome.won
        harm += state.harm
        why["won" if state.outcome.won else ("harm" if state.harm >= 10 else "missing suits")] += 1
    return wins, why, harm / n, time.perf_counter() - started


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    for name, greedy in (("random", False), ("greedy", True)):
        wins, why, harm, seconds = measure(n, greedy)
        ends = ", ".join(f"{k} {v}" for k, v in sorted(why.items()))
        print(f"{name:7s} {wins}/{n} won = {100 * wins / n:.1f}%  ({ends}; mean harm {harm:.1f}; {seconds:.1f}s)")


if __name__ == "__main__":
    main()

"""Cascades win rates: a random policy against the built-in one, on the same seeded deals.

Not a test: run it by hand.

    /work/venv/bin/python tests/winrate_cascades.py            # 2000 deals, seeds "0".."1999"
    /work/venv/bin/python tests/winrate_cascades.py 500 --variant pawns-courts
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from storyteller.games.cascades import GAME  # noqa: E402
from storyteller.session import simulate  # noqa: E402


def play(seed: str, variants: dict[str, str], policy: str) -> tuple[bool, int]:
    """One game, as ``--auto`` plays it; returns (won, cards placed)."""
    state = simulate(GAME, variants, seed, policy)
    return state.outcome.won, state.placed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("deals", nargs="?", type=int, default=2000)
    parser.add_argument("--variant", action="append", default=[], help="e.g. pawns-courts")
    args = parser.parse_args()
    variants = GAME.parse_variants(args.variant)
    print(f"Cascades, {GAME.describe_variants(variants)}, seeds 0..{args.deals - 1}")
    for policy in ("random", "greedy"):
        start = time.perf_counter()
        results = [play(str(seed), variants, policy) for seed in range(args.deals)]
        wins = sum(won for won, _ in results)
        placed = sum(n for _, n in results) / len(results)
        took = time.perf_counter() - start
        print(f"  {policy:6}: {wins}/{args.deals} won = {100 * wins / args.deals:.1f}%, "
              f"{placed:.1f} cards placed on average ({took:.1f} s)")


if __name__ == "__main__":
    main()

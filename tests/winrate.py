"""How often the built-in players win, on the same seeded deals: not a test, run it by hand.

    python tests/winrate.py adaman                    # seeds "0".."1999", random and greedy
    python tests/winrate.py cascades 500 --variant pawns-courts
    python tests/winrate.py hexaract --policy greedy

Each game is played exactly as ``storyteller play GAME --seed S --auto POLICY`` plays it
(``storyteller.session.simulate``).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from storyteller.registry import rules  # noqa: E402
from storyteller.session import simulate  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("deals", nargs="?", type=int, default=2000, help="seeds 0..DEALS-1 (default 2000)")
    parser.add_argument("--variant", action="append", default=[], help="as on the command line: extended, pawns-courts")
    parser.add_argument("--policy", action="append", help="random, greedy (default: both, where the game has greedy)")
    args = parser.parse_args()
    game = rules(args.game)
    variants = game.parse_variants(args.variant)
    policies = args.policy or ["random"] + (["greedy"] if game.has_policy else [])
    print(f"{game.title}, {game.describe_variants(variants)}, seeds 0..{args.deals - 1}")
    for policy in policies:
        started = time.perf_counter()
        results: Counter[str] = Counter()
        scores = []
        for seed in range(args.deals):
            outcome = simulate(game, variants, str(seed), policy).outcome
            results[outcome.result] += 1
            if outcome.score is not None:
                scores.append(outcome.score)
        seconds = time.perf_counter() - started
        won = results["won"]
        others = ", ".join(f"{result} {n}" for result, n in sorted(results.items()) if result != "won")
        mean = f"; mean score {sum(scores) / len(scores):.1f}" if scores else ""
        print(f"{policy:>8}: won {won:,} of {args.deals:,} = {100 * won / args.deals:.2f}%  "
              f"({others}{mean}; {seconds:.1f} s, {args.deals / seconds:.0f} games/s)")


if __name__ == "__main__":
    main()

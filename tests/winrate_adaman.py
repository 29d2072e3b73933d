"""Win rates of Adaman's built-in greedy policy and of random play over seeded deals.

Not a test: run it by hand, e.g.

    cd /work/main && /work/venv/bin/python tests/winrate_adaman.py            # 2000 deals, seeds "0".."1999"
    /work/venv/bin/python tests/winrate_adaman.py --deals 500 --variant extended

Random play picks uniformly among the legal actions with the seeded stream ``Stream(seed, "auto")``.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from storyteller.games.adaman import GAME, RANK  # noqa: E402
from storyteller.session import simulate  # noqa: E402


def play(seed: str, policy: str, variants: dict[str, str]):
    return simulate(GAME, variants, seed, policy)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--variant", action="append", default=[], help="as on the command line: extended, extra-personalities=2")
    args = parser.parse_args()
    variants = GAME.parse_variants(args.variant)
    print(f"Adaman, {GAME.describe_variants(variants)}, seeds 0..{args.deals - 1}")
    for policy in ("random", "greedy"):
        started = time.perf_counter()
        results: Counter[str] = Counter()
        controlled = 0
        for i in range(args.deals):
            state = play(str(i), policy, variants)
            results[state.outcome.result] += 1
            controlled += sum(RANK[c] for c in state.controlled)
        seconds = time.perf_counter() - started
        won = results["won"]
        print(
            f"{policy:>6}: won {won}/{args.deals} = {100 * won / args.deals:.2f}%  "
            f"(lost {results['lost']}, utter loss {results['utter loss']}; "
            f"mean rank controlled {controlled / args.deals:.1f}; {seconds:.1f} s)"
        )


if __name__ == "__main__":
    main()

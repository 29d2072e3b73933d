"""Win rates for the README's tables, measured with ``storyteller simulate``: not a test,
run it by hand.

    python tests/winrate.py                 # every game and policy, seeds 0..1999, then the solver
    python tests/winrate.py adaman 500      # one game, seeds 0..499
    python tests/winrate.py hexaract 2000 500   # the solver on the first 500 seeds only

Each line is the command it runs, so any figure can be measured again on its own.
"""

from __future__ import annotations

import json
import subprocess
import sys

GAMES = {
    "carddom": [[]],
    "adaman": [[]],
    "cascades": [[], ["--variant", "pawns-courts"]],
    "hexaract": [[]],
}


def measure(game: str, args: list[str]) -> dict:
    r = subprocess.run([sys.executable, "-m", "storyteller", "simulate", game, *args, "--json"],
                       capture_output=True, text=True, check=True)
    return json.loads(r.stdout)


def main() -> None:
    from storyteller import registry

    games = [sys.argv[1]] if len(sys.argv) > 1 else list(GAMES)
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 2000
    solved = int(sys.argv[3]) if len(sys.argv) > 3 else count
    for game in games:
        policies = ["random", *registry.get(game).policies]
        for extra in GAMES.get(game, [[]]):
            for policy in policies:
                args = ["--seeds", f"0..{count - 1}", "--policy", policy, *extra]
                f = measure(game, args)
                print(f"storyteller simulate {game} {' '.join(args)}: won {f['won']:,} of {f['played']:,} = "
                      f"{100 * f['win_rate']:.2f}% ({f['games_per_second']:,.0f} games/s)", flush=True)
            if registry.get(game).has_solver:
                args = ["--seeds", f"0..{solved - 1}", "--solve", *extra]
                f = measure(game, args)
                n = f["played"]
                print(f"storyteller simulate {game} {' '.join(args)}: winnable {f['winnable']:,} of {n:,} = "
                      f"{100 * f['winnable'] / n:.2f}%, not winnable {100 * f['not_winnable'] / n:.2f}%, "
                      f"unknown {100 * f['unknown'] / n:.2f}% ({f['seconds']:,.0f} s)", flush=True)


if __name__ == "__main__":
    main()

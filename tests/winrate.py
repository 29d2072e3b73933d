"""Win rates for the README's tables, measured with ``storyteller simulate``: not a test,
run it by hand.

    python tests/winrate.py                 # every game and policy, seeds 0..1999
    python tests/winrate.py adaman 500      # one game, seeds 0..499

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


def main() -> None:
    games = [sys.argv[1]] if len(sys.argv) > 1 else list(GAMES)
    count = sys.argv[2] if len(sys.argv) > 2 else "2000"
    for game in games:
        from storyteller.registry import rules

        policies = ["random", *rules(game).policies]
        for extra in GAMES.get(game, [[]]):
            for policy in policies:
                command = ["storyteller", "simulate", game, "--games", count, "--policy", policy, *extra]
                r = subprocess.run([sys.executable, "-m", "storyteller", *command[1:], "--json"],
                                   capture_output=True, text=True, check=True)
                f = json.loads(r.stdout)
                print(f"{' '.join(command)}: won {f['won']:,} of {f['played']:,} = {100 * f['win_rate']:.2f}% "
                      f"({f['games_per_second']:,.0f} games/s)")


if __name__ == "__main__":
    main()

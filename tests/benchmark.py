"""Speed figures, outside the normal suite: ``python tests/benchmark.py``.

1. start-up: ``storyteller --help`` against ``python -c "import typer"`` (goal: 1.3x or less);
2. replay: events verified per second after start-up (goal: 20,000 or more).
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from storyteller.registry import names as game_names, rules as get_game  # noqa: E402
from storyteller.log import read  # noqa: E402
from storyteller.rng import Stream  # noqa: E402
from storyteller.session import Session, walk  # noqa: E402


def median_time(cmd: list[str], runs: int = 15) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def startup() -> None:
    py = sys.executable
    typer = median_time([py, "-c", "import typer"])
    helped = median_time([py, "-m", "storyteller", "--help"])
    print(f"start-up: import typer {typer * 1000:.0f} ms, storyteller --help {helped * 1000:.0f} ms, "
          f"ratio {helped / typer:.2f} (goal <= 1.3)")


def replay_speed(games_per_kind: int = 150) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        for name in game_names():
            game = get_game(name)
            variants = game.parse_variants([])
            paths = []
            for seed in range(games_per_kind):
                path = Path(tmp) / f"{name}-{seed}.jsonl"
                session = Session.new(game, variants, str(seed), path)
                chooser = Stream(str(seed), "bench")
                session.advance()
                while not session.over:
                    if session.can_undo() and chooser.below(6) == 0:
                        session.undo()
                    else:
                        session.decide(chooser.choice(session.legal_actions()))
                session.close()
                paths.append(path)
            start = time.perf_counter()
            events = 0
            for path in paths:
                log = read(path)
                walk(log)
                events += len(log.events)
            elapsed = time.perf_counter() - start
            print(f"replay {name}: {events} events in {elapsed:.3f} s = {events / elapsed:,.0f} events/s "
                  f"(goal >= 20,000; read + verify, {len(paths)} logs)")


if __name__ == "__main__":
    startup()
    replay_speed()

"""Speed figures, outside the normal suite: ``python tests/benchmark.py``.

1. start-up: ``storyteller --help`` against ``python -c "import typer"`` (goal: 1.3x or less);
2. replay: events verified per second after start-up (goal: 20,000 or more);
3. sessions: ``store.summaries()`` over 2,000 logs (goal: under 0.3 s; each log is read only
   at its header and its end);
4. fuzz: 1,000 corrupted logs through every command that reads a log (goal: no problem);
5. simulate: 100,000 Adaman greedy games with ``--jobs 2`` (goal: under 60 s on two cores),
   the greedy player of every game on one core (goal for Cascades and Hexaract: 200 games/s
   or more), and the peak memory of a run of 20,000 games against one of 100,000 (goal: flat).

``python tests/benchmark.py simulate`` runs only the fifth.
"""

from __future__ import annotations

import json
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


def sessions_speed(count: int = 2_000) -> None:
    import shutil

    from storyteller import store

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "sessions"
        folder.mkdir()
        made = []
        for seed in range(20):  # twenty real games of every kind, finished and not, with journal entries...
            name = game_names()[seed % len(game_names())]
            game = get_game(name)
            path = folder / f"{name}-{seed}.jsonl"
            session = Session.new(game, game.parse_variants([]), f"s{seed}", path)
            chooser = Stream(str(seed), "bench")
            session.advance()
            while not session.over and not (seed % 4 == 0 and session.decisions > 30):
                session.journal("A few words about this card. " * 8)
                session.decide(chooser.choice(session.legal_actions()))
            session.close()
            made.append(path)
        for i in range(count - len(made)):  # ...copied to 2,000 logs
            shutil.copyfile(made[i % len(made)], folder / f"copy-{i:04d}.jsonl")
        times = []
        for _ in range(5):
            start = time.perf_counter()
            found = store.summaries(folder)
            times.append(time.perf_counter() - start)
        assert len(found) == count and all(s.status != "unreadable" for s in found)
        size = sum(p.stat().st_size for p in folder.iterdir()) / 1e6
        print(f"sessions: {count:,} logs ({size:.0f} MB) summarized in {statistics.median(times):.3f} s (median of 5; goal < 0.3 s)")


def fuzz(count: int = 1_000) -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import test_fuzz

    test_fuzz.main([str(count), "1"])


def simulate(game: str, *args: str) -> tuple[dict, float]:
    """``storyteller simulate GAME ARGS --json`` in a fresh process: its figures and the
    peak memory (MB) of the process and its workers."""
    probe = (
        "import resource, subprocess, sys; "
        "r = subprocess.run(sys.argv[1:], capture_output=True, text=True, check=True); "
        "print(r.stdout); print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"
    )
    command = [sys.executable, "-m", "storyteller", "simulate", game, *args, "--json"]
    out = subprocess.run([sys.executable, "-c", probe, *command], capture_output=True, text=True, check=True).stdout
    figures, _, rss = out.rstrip().rpartition("\n")
    return json.loads(figures), int(rss) / 1024


def simulate_speed() -> None:
    figures, large = simulate("adaman", "--games", "100000", "--policy", "greedy", "--jobs", "2")
    seconds = figures["played"] / figures["games_per_second"]
    print(f"simulate: 100,000 Adaman greedy games with --jobs 2 in {seconds:.1f} s (goal < 60 s)")
    for game in game_names():
        if "greedy" not in get_game(game).policies:
            continue
        best = max(simulate(game, "--games", "1000", "--policy", "greedy", "--jobs", "1")[0]["games_per_second"]
                   for _ in range(3))
        goal = "; goal >= 200" if game in ("cascades", "hexaract") else ""
        print(f"simulate: {game} greedy on one core: {best:,.0f} games/s (best of 3{goal})")
    small = simulate("adaman", "--games", "20000", "--policy", "greedy", "--jobs", "2")[1]
    print(f"simulate: peak memory of a process {small:.0f} MB for 20,000 games, {large:.0f} MB for 100,000 "
          "(goal: flat; the policy's caches are bounded)")


if __name__ == "__main__":
    if sys.argv[1:] == ["simulate"]:
        simulate_speed()
        sys.exit()
    startup()
    replay_speed()
    sessions_speed()
    fuzz()
    simulate_speed()

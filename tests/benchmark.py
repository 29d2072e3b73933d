"""Speed figures, outside the normal suite: ``python tests/benchmark.py``.

1. start-up: ``storyteller --help`` against ``python -c "import typer"`` (goal: 1.3x or less);
2. replay: events verified per second after start-up (goal: 20,000 or more);
3. sessions: ``store.summaries()`` over 2,000 logs (goal: under 0.3 s; each log is read only
   at its header and its end), and the ``storyteller sessions`` command over them against
   ``storyteller --help`` (goal: 3x or less);
4. export: ``storyteller export LOG --story`` of the biggest example against a minimal Typer
   command that reads the log and renders a small Jinja2 template (goal: 1.3x or less);
4a. html: ``storyteller export LOG --story --format html`` of the biggest example, its
   pictures drawn, against the same export in Markdown (goal: 1.5x or less);
4b. questions: a journaling question chosen over a history of 2,000 saved games (goal:
   under 50 ms);
4c. analyse: ``storyteller analyse LOG`` of every example at the default settings (goal: at
   most 10 s each on two cores);
4d. decisions: seconds per decision of every built-in player of every game on one core,
   the mean and the worst over seeds 0..19 (``--games N`` for more; goal: the worst at most
   1 s);
5. fuzz: 1,000 corrupted logs through every command that reads a log (goal: no problem);
6. simulate: 100,000 Adaman greedy games with ``--jobs 2`` (goal: under 60 s on two cores)
   and its speed against a plain loop over the same player in one process (the ratio),
   the greedy player of every game on one core (goal for Cascades and Hexaract: 200 games/s
   or more), and the peak memory of a run of 20,000 games against one of 100,000 (goal: flat).

``python tests/benchmark.py NAME...`` runs only those: ``startup``, ``replay``, ``sessions``,
``export``, ``html``, ``questions``, ``analyse``, ``decisions``, ``fuzz``, ``simulate``.
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

from storyteller import registry
from storyteller.registry import names as game_names, rules as get_game
from storyteller.log.file import read
from storyteller.core.rng import Stream
from storyteller.play.session import Session, walk


def median_time(cmd: list[str], runs: int = 15, env: dict | None = None) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True, env=env)
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

    from storyteller.log import store

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
        print(f"sessions: {count:,} logs ({size:.0f} MB) summarized in {statistics.median(times):.3f} s "
              "(median of 5; goal < 0.3 s)")
        import os

        env = dict(os.environ, STORYTELLER_HOME=str(Path(tmp)), STORYTELLER_CONFIG=str(Path(tmp) / "none.toml"))
        helped = median_time([sys.executable, "-m", "storyteller", "--help"], env=env)
        listed = median_time([sys.executable, "-m", "storyteller", "sessions"], env=env)
        print(f"sessions: storyteller sessions over {count:,} logs {listed * 1000:.0f} ms, "
              f"--help {helped * 1000:.0f} ms, "
              f"ratio {listed / helped:.2f} (goal <= 3)")


MINIMAL_EXPORT = """
import json, sys
import typer

app = typer.Typer()


@app.command()
def export(log: str, story: bool = typer.Option(False, "--story")):
    import jinja2

    lines = [json.loads(line) for line in open(log, encoding="utf-8")]
    template = jinja2.Environment().from_string(
        "# {{ h.game }}\\n{% for e in events %}- {{ e.event }} {{ e.card or '' }}\\n{% endfor %}")
    sys.stdout.write(template.render(h=lines[0], events=lines[1:]))


app()
"""


def export_speed(rounds: int = 25) -> None:
    """The export of the biggest example against the least a Typer command can do to read a
    log and render a Jinja2 template, run in turns (the figure is the median of the ratios
    of each pair, which a busy machine disturbs least). Both run as installed code runs:
    storyteller's console script, with its modules compiled (as pip compiles them)."""
    import compileall
    import os

    root = Path(__file__).resolve().parents[1]
    compileall.compile_dir(str(root / "storyteller"), quiet=1)
    biggest = max((root / "examples").glob("*.jsonl"), key=lambda p: p.stat().st_size)
    script = str(Path(sys.executable).parent / ("storyteller.exe" if os.name == "nt" else "storyteller"))
    with tempfile.TemporaryDirectory() as tmp:
        minimal = Path(tmp) / "minimal.py"
        minimal.write_text(MINIMAL_EXPORT, encoding="utf-8")
        ours, least = [], []
        for _ in range(rounds):
            ours.append(median_time([script, "export", str(biggest), "--story"], runs=1))
            least.append(median_time([sys.executable, str(minimal), str(biggest), "--story"], runs=1))
    ratio = statistics.median(a / b for a, b in zip(ours, least))
    print(f"export: storyteller export {biggest.name} --story {statistics.median(ours) * 1000:.0f} ms, minimal Typer + "
          f"Jinja2 command {statistics.median(least) * 1000:.0f} ms, ratio {ratio:.2f} "
                f"(median of {rounds} pairs; goal <= 1.3)")


def instructions(cmd: list[str]) -> int:
    """The instructions a command runs, counted by valgrind's callgrind: the same count
    however busy the machine is (a few seconds of valgrind per command)."""
    import re

    done = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *cmd],
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, check=True)
    return int(re.search(r"Collected : (\d+)", done.stderr).group(1))


def export_instructions() -> None:
    """``export``'s ratio in instructions rather than seconds (valgrind, where a busy machine
    makes the timed figure too noisy to compare two versions): the biggest example's story
    against the minimal Typer + Jinja2 command, both as installed code runs."""
    import compileall
    import os
    import shutil

    if shutil.which("valgrind") is None:
        print("export-instructions: needs valgrind (Debian: apt install valgrind)")
        return
    root = Path(__file__).resolve().parents[1]
    compileall.compile_dir(str(root / "storyteller"), quiet=1)
    biggest = max((root / "examples").glob("*.jsonl"), key=lambda p: p.stat().st_size)
    script = str(Path(sys.executable).parent / ("storyteller.exe" if os.name == "nt" else "storyteller"))
    with tempfile.TemporaryDirectory() as tmp:
        minimal = Path(tmp) / "minimal.py"
        minimal.write_text(MINIMAL_EXPORT, encoding="utf-8")
        instructions([script, "export", str(biggest), "--story"])  # the first run fills the template cache
        ours = instructions([script, "export", str(biggest), "--story"])
        least = instructions([sys.executable, str(minimal), str(biggest), "--story"])
    print(f"export-instructions: storyteller export {biggest.name} --story {ours / 1e6:,.0f} M instructions, minimal "
          f"Typer + Jinja2 command {least / 1e6:,.0f} M, ratio {ours / least:.2f} (goal <= 1.3)")


def html_speed(rounds: int = 25) -> None:
    """The HTML export of the biggest example (its pictures drawn: the cover and one at each
    turning point) against its Markdown export, run in turns: the median of the ratios of
    each pair, both as installed code runs."""
    import compileall
    import os

    root = Path(__file__).resolve().parents[1]
    compileall.compile_dir(str(root / "storyteller"), quiet=1)
    biggest = max((root / "examples").glob("*.jsonl"), key=lambda p: p.stat().st_size)
    script = str(Path(sys.executable).parent / ("storyteller.exe" if os.name == "nt" else "storyteller"))
    page, note = [], []
    for _ in range(rounds):
        page.append(median_time([script, "export", str(biggest), "--story", "--format", "html"], runs=1))
        note.append(median_time([script, "export", str(biggest), "--story", "--format", "markdown"], runs=1))
    ratio = statistics.median(a / b for a, b in zip(page, note))
    print(f"html: storyteller export {biggest.name} --story --format html {statistics.median(page) * 1000:.0f} ms, "
          f"markdown {statistics.median(note) * 1000:.0f} ms, ratio {ratio:.2f} "
                f"(median of {rounds} pairs; goal <= 1.5)")


def questions_speed(count: int = 2_000) -> None:
    """Choosing a journaling question over a player's history of 2,000 saved games (the
    history read from the logs through the records' cache, then one question chosen), once
    the cache is made (goal: under 50 ms)."""
    import contextlib
    import io
    import os
    import shutil

    from storyteller import registry
    from storyteller.ui.drivers import AnswersDriver
    from storyteller.play.questions import Asker, Occasion, Role, history

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "sessions"
        folder.mkdir()
        os.environ["STORYTELLER_HOME"] = tmp
        rules = get_game("carddom")
        made = []
        for seed in range(20):  # twenty games played from answers, every question asked...
            state_moves = []
            probe = Session.new(rules, rules.parse_variants([]), str(seed), Path(tmp) / "probe.jsonl")
            chooser = Stream(str(seed), "bench")
            probe.advance()
            while not probe.over:
                action = chooser.choice(probe.legal_actions())
                state_moves.append(action.key)
                probe.decide(action)
            probe.close()
            (Path(tmp) / "probe.jsonl").unlink()
            path = folder / f"carddom-{seed}.jsonl"
            driver = AnswersDriver([(i, m) for i, m in enumerate(state_moves, start=1)])
            session = Session.new(rules, rules.parse_variants([]), str(seed), path, mode="answers")
            with contextlib.redirect_stdout(io.StringIO()):
                driver.begin(session, resumed=False)
                session.run(driver)
            session.close()
            made.append(path)
        for i in range(count - len(made)):  # ...copied to 2,000 logs
            shutil.copyfile(made[i % len(made)], folder / f"copy-{i:04d}.jsonl")
        history(folder, "carddom")  # the cache is made once
        questions = registry.get("carddom").questions
        times = []
        for _ in range(5):
            start = time.perf_counter()
            asker = Asker(questions, "x", history(folder, "carddom"))
            asker.ask(Occasion(Role("location", "KH")), 2)
            times.append(time.perf_counter() - start)
        del os.environ["STORYTELLER_HOME"]
    print(f"questions: a question chosen over {count:,} saved games in {1000 * statistics.median(times):.0f} ms "
          "(median of 5; goal < 50 ms)")


def analyse_speed() -> None:
    """``storyteller analyse`` of each example log at the default settings, on every core."""
    import os

    root = Path(__file__).resolve().parents[1]
    script = str(Path(sys.executable).parent / ("storyteller.exe" if os.name == "nt" else "storyteller"))
    worst = 0.0
    for log in sorted((root / "examples").glob("*.jsonl")):
        start = time.perf_counter()
        subprocess.run([script, "analyse", str(log)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        seconds = time.perf_counter() - start
        worst = max(worst, seconds)
        print(f"analyse: {log.name} {seconds:.1f} s")
    print(f"analyse: the slowest example {worst:.1f} s (goal <= 10 s on two cores)")


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


PLAIN_LOOP = """
import sys, time
from storyteller import registry
from storyteller.play.session import simulate
rules = registry.rules(sys.argv[1]); variants = rules.parse_variants([])
start = time.perf_counter()
for seed in range(int(sys.argv[2])):
    simulate(rules, variants, str(seed), "greedy")
print(int(sys.argv[2]) / (time.perf_counter() - start))
"""


def simulate_speed() -> None:
    figures, large = simulate("adaman", "--games", "100000", "--policy", "greedy", "--jobs", "2")
    seconds = figures["played"] / figures["games_per_second"]
    print(f"simulate: 100,000 Adaman greedy games with --jobs 2 in {seconds:.1f} s (goal < 60 s)")
    plain = float(subprocess.run([sys.executable, "-c", PLAIN_LOOP, "adaman", "20000"], capture_output=True, text=True,
                                 check=True).stdout)
    print(f"simulate: --jobs 2 plays {figures['games_per_second']:,.0f} games/s, a plain loop in one process "
          f"{plain:,.0f} games/s over the same player: ratio {figures['games_per_second'] / plain:.2f} "
          "(two cores: 2.0 at best)")
    for game in game_names():
        if not registry.get(game).has_policy:
            continue
        best = max(simulate(game, "--games", "1000", "--policy", "greedy", "--jobs", "1")[0]["games_per_second"]
                   for _ in range(3))
        goal = "; goal >= 200" if game in ("cascades", "hexaract") else ""
        print(f"simulate: {game} greedy on one core: {best:,.0f} games/s (best of 3{goal})")
    small = simulate("adaman", "--games", "20000", "--policy", "greedy", "--jobs", "2")[1]
    print(f"simulate: peak memory of a process {small:.0f} MB for 20,000 games, {large:.0f} MB for 100,000 "
          "(goal: flat; the policy's caches are bounded)")


def decision_speed(games: int = 20) -> None:
    """Seconds per decision of every built-in player of every game, on one core: the mean
    and the worst over seeds 0..GAMES-1 (goal: the worst at most 1 s)."""
    from storyteller.play.session import AutoPlayer
    from storyteller.core.sources import SeededSource

    count = int(sys.argv[sys.argv.index("--games") + 1]) if "--games" in sys.argv else games
    for game in game_names():
        reg = registry.get(game)
        rules = get_game(game)
        variants = rules.parse_variants([])
        for name in reg.policies:
            times: list[float] = []
            for seed in range(count):  # the moves simulate and play --auto make
                state = rules.new_state(variants)
                source = SeededSource(str(seed), rules, variants)
                player = AutoPlayer(rules, str(seed), name)
                made = 0
                while state.outcome is None:
                    request = state.chance()
                    if request is not None:
                        state.resolve(source.resolve(request))
                        continue
                    start = time.perf_counter()
                    action = player.choose(state, made)
                    times.append(time.perf_counter() - start)
                    state.apply(action.move)
                    made += 1
            print(f"decisions: {game} {name}: {len(times):,} decisions over seeds 0..{count - 1}, "
                  f"mean {1000 * statistics.mean(times):.1f} ms, worst {1000 * max(times):.0f} ms "
                        "(goal: worst <= 1,000 ms)",
                  flush=True)


BENCHMARKS = {"startup": startup, "replay": replay_speed, "sessions": sessions_speed, "export": export_speed,
              "export-instructions": export_instructions, "html": html_speed, "questions": questions_speed,
              "analyse": analyse_speed, "decisions": decision_speed, "fuzz": fuzz, "simulate": simulate_speed}

if __name__ == "__main__":
    args = sys.argv[1:]
    if "--games" in args:  # decisions --games N
        del args[args.index("--games"):args.index("--games") + 2]
    chosen = args or list(BENCHMARKS)
    unknown = [name for name in chosen if name not in BENCHMARKS]
    if unknown:
        sys.exit(f"unknown benchmark {unknown[0]!r} (benchmarks: {', '.join(BENCHMARKS)})")
    for name in chosen:
        BENCHMARKS[name]()

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
4a'. pdf: ``storyteller export LOG --story --format pdf`` of the Carddom journal example,
   printed by the machine's Chromium, the median of 7 runs (goal: under 1.5 s on two
   cores), with its page count;
4b. questions: a journaling question chosen over a history of 2,000 saved games (goal:
   under 50 ms);
4b'. journal: ``storyteller journal search WORDS`` over 2,000 saved games with entries, cold
   (no cache beside the logs) and warm (goal: warm under 1 s);
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
7. person (only when named): the paths a person takes, through the command line only, so that
   it runs against any version of storyteller: every game and rule set, seeds 0..49 (``--games
   N``; a long run is 200), played from a person's answers (journal entries full of markup,
   oracle questions, an undo and the same move again, a stop half-way and ``resume``, some at
   a real table), then ``replay`` and ``export`` in every format: crashes, refused answers,
   false notes, lost words and altered logs, counted by path (goal: none). ``--storyteller
   CMD`` runs another storyteller (``--storyteller "OTHER/python -m storyteller"``), ``--keep
   DIR`` keeps every game's files, ``--only GAME[:SEED]``, ``--jobs N``.

8. deal: ``play GAME --deal winnable``'s search for a deal the solver proves winnable, 100
   times for each game, one process: the median and the worst time to find one (goal: the
   worst under 2 s, the search's limit), how many seeds it looked at, and any search that
   found none in time;
9. daily: the day's deal of each game for the 365 days of 2025, one process: the share
   proved winnable (its seed chosen by positions searched, not seconds, so the same on every
   machine) and the time to choose it, median and worst (goal: the worst under 2 s).

``python tests/benchmark.py NAME...`` runs only those: ``startup``, ``replay``, ``sessions``,
``export``, ``html``, ``pdf``, ``questions``, ``journal``, ``analyse``, ``decisions``, ``fuzz``, ``simulate``,
``deal``, ``daily``, ``person``.
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
    from storyteller.core.rng import Stream
    from storyteller.log.file import read
    from storyteller.play.session import Session, walk
    from storyteller.registry import names as game_names
    from storyteller.registry import rules as get_game

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

    from storyteller.core.rng import Stream
    from storyteller.log import store
    from storyteller.play.session import Session
    from storyteller.registry import names as game_names
    from storyteller.registry import rules as get_game

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


def pdf_speed(runs: int = 7) -> None:
    """The PDF export of the Carddom story (the one issue 29 measures), as a player runs it:
    the command, the browser it starts, the PDF written."""
    import os
    import re

    from storyteller.telling.pdf import find_browser

    if find_browser() is None:
        print("pdf: no Chromium or Chrome here; skipped")
        return
    root = Path(__file__).resolve().parents[1]
    log = root / "examples" / "carddom-journal.jsonl"
    script = str(Path(sys.executable).parent / ("storyteller.exe" if os.name == "nt" else "storyteller"))
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "story.pdf"
        cmd = [script, "export", str(log), "--story", "--format", "pdf", "-o", str(out), "--force"]
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)  # a first, cold run
        took = median_time(cmd, runs=runs)
        pages = len(re.findall(rb"/Type\s*/Page[^s]", out.read_bytes()))
    print(f"pdf: storyteller export {log.name} --story --format pdf {took:.2f} s (median of {runs}; goal < 1.5 s), "
          f"{pages} A5 pages")


def questions_speed(count: int = 2_000) -> None:
    """Choosing a journaling question over a player's history of 2,000 saved games (the
    history read from the logs through the records' cache, then one question chosen), once
    the cache is made (goal: under 50 ms)."""
    import contextlib
    import io
    import os
    import shutil

    from storyteller import registry
    from storyteller.core.rng import Stream
    from storyteller.play.questions import Asker, Occasion, Role, history
    from storyteller.play.session import Session
    from storyteller.registry import rules as get_game
    from storyteller.ui.drivers import AnswersDriver

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


JOURNAL_WORDS = ("lantern river salt gate mill ash heron bell rope winter ferry crown orchard smoke "
                 "stone knife letter map bridge wolf candle ledger harbour thorn").split()
JOURNAL_TAGS = ("[N:Old Nim|charcoal girl]", "[#N:Old Nim]", "[L:The Salt Gate]", "[Thread:Who burned the mill?|Open]",
                "[N:Tamsin]", "[L:Low Ferry]")


def journal_speed(count: int = 2_000) -> None:
    """``storyteller journal search WORDS`` over 2,000 saved games with entries: eight games
    played from answers (two of each game, every question answered, tags now and then, a few
    entries from the menu), copied to 2,000 logs, each copy dated to a day of its own and
    some of its words varied, some of them chapters of a campaign. Timed cold (no
    ``.journal.json`` beside the logs: every log read) and warm (goal: under 1 s)."""
    import os
    import random
    import shutil

    import person
    from storyteller.study import journal

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        folder = root / "sessions"
        folder.mkdir()
        os.environ["STORYTELLER_HOME"] = tmp
        os.environ["STORYTELLER_CONFIG"] = str(root / "none.toml")
        made = []
        started = time.perf_counter()
        for i, game in enumerate(["carddom", "adaman", "cascades", "hexaract"] * 2):
            rng = random.Random(f"journal {i}")

            def words(rng: random.Random = rng) -> str:
                said = " ".join(rng.choice(JOURNAL_WORDS) for _ in range(rng.randint(6, 30)))
                if rng.random() < 0.3:
                    said += " " + rng.choice(JOURNAL_TAGS)
                return said.capitalize() + "."

            def supply(session, waiting: str, rng: random.Random = rng, words=words) -> list[str]:
                asked = session is not None and session.log.events and session.log.events[-1].kind == "question"
                if waiting in ("answer", "last words"):
                    return [f"journal: {words()}"] if asked else []
                if waiting != "move":
                    return []
                if session.decisions >= 60:
                    return ["quit"]
                free = [f"journal: {words()}"] if rng.random() < 0.1 else []
                return free + [rng.choice(person.moves(session))[0]]

            path = folder / f"{game}-{i}.jsonl"
            with person.typing(supply):
                code, _ = person.play(game, str(i), [], path, None)
            assert code == 0
            made.append(path)
        texts = [p.read_text(encoding="utf-8") for p in made]
        today = texts[0].split('"started": "')[1][:10]
        for i in range(count - len(made)):  # ...copied to 2,000 logs, each of its own day
            text = texts[i % len(texts)]
            day = f"{2020 + i // 365 % 6}-{1 + i // 28 % 12:02d}-{1 + i % 28:02d}"
            text = text.replace(f'"{today}T', f'"{day}T')
            text = text.replace("lantern", JOURNAL_WORDS[i % len(JOURNAL_WORDS)])
            if i % 10 == 0:
                head, rest = text.split("\n", 1)
                head = head[:-1] + f', "campaign": {{"name": "road-{i % 7}", "chapter": {1 + i // 70}}}}}'
                text = head + "\n" + rest
            (folder / f"copy-{i:04d}.jsonl").write_text(text, encoding="utf-8")
        made_in = time.perf_counter() - started
        found = journal.journal(folder)
        assert not found.bad and found.logs == count, found.bad[:3]
        size = sum(p.stat().st_size for p in folder.glob("*.jsonl")) / 1e6
        cache = (folder / journal.CACHE).stat().st_size / 1e6
        print(f"journal: {count:,} logs ({size:.0f} MB) with {len(found.entries):,} entries, made in {made_in:.0f} s; "
              f"the cache beside them {cache:.1f} MB")
        env = dict(os.environ)
        search = [sys.executable, "-m", "storyteller", "journal", "search", "salt", "heron"]
        cold = []
        for _ in range(3):
            (folder / journal.CACHE).unlink()
            start = time.perf_counter()
            subprocess.run(search, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True, env=env)
            cold.append(time.perf_counter() - start)
        warm = median_time(search, runs=10, env=env)
        tagged = median_time([*search[:4], "--tag", "Old Nim", "--from", "2023-01-01"], runs=10, env=env)
        listed = median_time(search[:4], runs=10, env=env)
        helped = median_time([sys.executable, "-m", "storyteller", "--help"], runs=10, env=env)
        hits = len(journal.search(journal.journal(folder).entries, ["salt", "heron"]))
        print(f"journal: storyteller journal search salt heron ({hits:,} entries hold both): "
              f"cold {statistics.median(cold):.2f} s (median of 3), warm {warm:.2f} s (median of 10; goal < 1 s)")
        print(f"journal: warm, storyteller journal {listed:.2f} s, journal --tag 'Old Nim' --from 2023-01-01 "
              f"{tagged:.2f} s; storyteller --help {helped:.2f} s")
        shutil.rmtree(folder)
        del os.environ["STORYTELLER_HOME"], os.environ["STORYTELLER_CONFIG"]


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
    from storyteller import registry
    from storyteller.registry import names as game_names

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
    from storyteller import registry
    from storyteller.core.sources import SeededSource
    from storyteller.play.session import AutoPlayer
    from storyteller.registry import names as game_names
    from storyteller.registry import rules as get_game

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


# -- person: the paths a person takes, through the command line only ----------------------

# What a person writes in a journal: Markdown, HTML, a script, a link that runs code, table
# pipes, backticks, Obsidian comments, entities, template syntax and many alphabets. Each entry
# is given a word of its own in front (``Wren-007``) so that it can be looked for.
PERSON_WORDS = [
    "*emphasis* and **strong** words, _under_ the moon",
    "# a heading in the middle of the night",
    "<b>tags</b> and <i>italics</i> scratched on the door",
    "<script>alert(1)</script> was written on the wall",
    "[link](javascript:alert(1)) to nowhere, and [another](https://example.com)",
    "a | pipe | between | cells and a || double",
    "backticks `code` and ``` a fence and `` two",
    "%% an obsidian comment %% that must still show",
    "unicode: café, naïve, Ærøskøbing, 日本語, Ελληνικά, עברית, emoji 🐉🕯",
    "> a quote, - a list, 1. a number, --- a rule, &amp; an entity, &lt;not a tag&gt;",
    "{{ a jinja variable }} and {% a block %} and {# a comment #}",
    "back\\slashes \\* and a tab\there and trailing stars **",
]
PERSON_QUESTIONS = [
    "Is the <b>bridge</b> *safe* to cross?",
    "Does anyone | watch from the `tower`?",
    "Will the rain stop before dawn — %% or not %%?",
    "Is the stranger's name [Mara](javascript:alert(1))?",
    "Le roi est-il encore en vie? 王は生きているか?",
]
ODDS = ["almost-certain", "likely", "even", "unlikely", "small-chance"]
FORMATS = [("markdown", "story"), ("markdown", "playthrough"), ("obsidian", "story"), ("obsidian", "playthrough"),
           ("html", "story"), ("html", "playthrough"), ("lonelog", "playthrough"), ("json", None)]
KINDS = ["crash", "refused answer", "false note", "lost word", "altered log"]


def person_rulesets(command: list[str], env: dict[str, str]) -> dict[str, list[list[str]]]:
    """Every game's rule sets as ``storyteller games`` lists them: standard rules, then each
    variant in turn at each value but its first (the first listed is the standard one)."""
    import re

    out = subprocess.run([*command, "games"], capture_output=True, text=True, env=env, check=True).stdout
    rules: dict[str, list[list[str]]] = {}
    game = ""
    for row in out.splitlines():
        if row and not row[0].isspace():
            game = row.split()[0]
            rules[game] = [[]]
            continue
        m = re.match(r"\s+--variant ([\w-]+)(?:=([\w|-]+))?:", row)
        if m and game:
            name, values = m.groups()
            if values is None:
                rules[game].append(["--variant", name])
            else:
                rules[game] += [["--variant", f"{name}={value}"] for value in values.split("|")[1:]]
    return rules


STOPS = ["quit", "quit", "quit", "killed", "ran out"]  # how a game stops half-way, by seed


def person_answers(events: list[dict], seed: int, physical: bool) -> dict:
    """A person's answers to the game of ``events`` (an ``--auto random`` game): every decision
    by its key, journal entries after questions and on their own, oracle questions, an undo and
    the same move again, and a stop half-way (``STOPS``: ``quit``; ``killed``, a quit whose log
    is then cut after its last move, as when the process is killed just after a move is
    written; or the answers running out at a move, or at a real table while the game waits for
    the next card). At a real table, the cards and dice the game asks for too (and a d100
    after each oracle question). Returns ``first`` and ``rest``, the answers before the stop
    and after it (None for a game too short to stop), ``stop``, how it stops, ``entries`` and
    ``questions``, the journal entries and oracle questions typed, and ``cut``, those a kill
    takes back."""
    decisions: list[str] = []
    entered: list[list[str]] = [[]]  # what is turned up or rolled before each decision, and after the last
    for e in events[1:]:
        if e["event"] == "decision":
            decisions.append(e["action"])
            entered.append([])
        elif e["event"] == "draw":
            entered[-1].append(f"draw {e['card']}")
        elif e["event"] == "roll":
            entered[-1].append("roll " + " ".join(map(str, e["dice"])))
    count = len(decisions)
    entries: list[str] = []
    questions: list[str] = []

    def journal() -> str:
        text = f"Wren-{len(entries):03d} {PERSON_WORDS[(seed + len(entries)) % len(PERSON_WORDS)]}"
        entries.append(text)
        return f"journal: {text}"

    def oracle() -> list[str]:
        k = len(questions)
        text = f"{PERSON_QUESTIONS[(seed + k) % len(PERSON_QUESTIONS)]} (Heron-{k:03d})"
        questions.append(text)
        asked = [f"oracle {ODDS[(seed + k) % len(ODDS)]}: {text}"]
        return asked + [f"roll {1 + (seed * 37 + k * 11) % 100}"] if physical else asked

    stop = count // 2 if count >= 2 else None
    how = STOPS[seed % len(STOPS)]
    undos = {i for i in (max(1, count // 3), (3 * count) // 4) if 1 <= i < count and i != stop}
    asks = {i for i in (0, 1, count // 2, count // 2 + 1, count - 1) if 0 <= i < count}
    first: list[str] = []
    rest: list[str] | None = None
    cut: list[str] = []
    lines = first
    for i, key in enumerate(decisions):
        waits = physical and i == stop and how == "ran out" and len(entered[i]) >= 2  # stopped at a card
        if physical:
            lines += entered[i][:1] if waits else entered[i]
        if waits:
            lines = rest = entered[i][1:]
        typed = len(entries)
        if i % 3 == 0:  # an answer to the question just asked (if one was), and at times an entry of its own
            lines.append(journal())
            if i % 2 == 0:
                lines.append(journal())
        if i in undos:  # taken back, and the same move made again (a real table keeps the cards turned up)
            lines += ["undo", decisions[i - 1]]
        if i == stop and not waits:
            if how != "ran out":
                lines.append("quit")
            lines = rest = []
            if how == "killed":  # what was written after the last move is gone; the cards are asked again
                cut = entries[typed:]
                rest += entered[i] if physical else []
        if i in asks:
            lines += oracle()
        lines.append(key)
    if physical:
        lines += entered[-1]
    lines += [journal(), journal()]  # the last words: the answer to the last question, and more
    return {"first": first, "rest": rest, "stop": how, "entries": entries, "questions": questions, "cut": cut}


def _letters(text: str) -> str:
    """Only the letters and digits of ``text``: what stays of a person's words in any format,
    whatever it escapes (a backslash, an entity, a tag) or leaves out (control characters)."""
    import unicodedata

    return "".join(ch for ch in unicodedata.normalize("NFC", text) if ch.isalnum())


def _strings(value) -> list[str]:
    """Every string in a JSON document."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


def _readable(text: str, fmt: str) -> str:
    """What a reader sees of an export, as letters and digits (an HTML page without its tags)."""
    import html
    import re

    if fmt == "html":
        text = re.sub(r"<style\b.*?</style>|<svg\b.*?</svg>", " ", text, flags=re.DOTALL)
        text = html.unescape(re.sub(r"<[^>]*>", " ", text))
    return _letters(text)


def person_game(task: tuple) -> dict:
    """One person's game through the command line: the ``--auto random`` game of the seed, then
    the same game played from a person's answers, stopped half-way and resumed, replayed and
    exported in every format. Returns the paths taken and the failures found."""
    import hashlib
    import os
    import shlex
    import shutil

    game, seed, rules, physical, command, pdf, keep, kept_all = task
    label = f"{game} seed {seed} ({' '.join(rules[1:]) or 'standard rules'}{', at a real table' if physical else ''})"
    folder = Path(keep) / f"{game}-{seed}"
    folder.mkdir(parents=True, exist_ok=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith("STORYTELLER_")}
    env.update(STORYTELLER_HOME=str(folder / "home"), STORYTELLER_CONFIG=str(folder / "settings.toml"),
               NO_COLOR="1", PYTHONIOENCODING="utf-8", COLUMNS="100")
    paths: dict[str, int] = {}
    failures: list[dict] = []
    shown = " ".join(shlex.quote(a) for a in command)

    def run(path: str, *args: str, expect: tuple[int, ...] = (0,),
            timeout: float = 600) -> subprocess.CompletedProcess | None:
        paths[path] = paths.get(path, 0) + 1
        try:
            done = subprocess.run([*command, *args], check=False, capture_output=True, text=True, encoding="utf-8",
                                  errors="replace", env=env, cwd=folder, timeout=timeout)
        except subprocess.TimeoutExpired:
            fail("crash", path, f"no answer after {timeout:.0f} s", args)
            return None
        said = done.stdout + done.stderr
        if "Traceback" in said or "unexpected error" in said or done.returncode not in expect:
            refused = done.returncode == 2 and "is refused" in done.stderr
            lines = [row for row in done.stderr.splitlines() if row.strip()] or said.splitlines()[-1:] or [""]
            fail("refused answer" if refused else "crash", path, f"exit {done.returncode}: {lines[-1][:300]}", args)
        return done

    def fail(kind: str, path: str, detail: str, args: tuple[str, ...]) -> None:
        failures.append({"kind": kind, "game": game, "label": label, "path": path, "detail": detail,
                         "command": f"cd {shlex.quote(str(folder))} && {shown} " + shlex.join(args)})

    where = ["--physical"] if physical else []
    result = {"game": game, "seed": seed, "label": label, "paths": paths, "failures": failures, "folder": str(folder)}
    auto = run("auto game", "play", game, "--seed", str(seed), *rules, "--auto", "random", "--log", "auto.jsonl")
    if auto is None or auto.returncode != 0:
        return result
    events = [json.loads(row) for row in (folder / "auto.jsonl").read_text(encoding="utf-8").splitlines()]
    person = person_answers(events, seed, physical)
    rest, entries, questions = person["rest"], person["entries"], person["questions"]
    (folder / "answers.txt").write_text("\n".join(person["first"]) + "\n", encoding="utf-8")
    log = folder / "person.jsonl"
    stopped = (130,) if rest is not None and person["stop"] == "ran out" else (0,)
    played = run("play", "play", game, "--seed", str(seed), *rules, *where, "--answers", "answers.txt",
                 "--log", log.name, expect=stopped)
    finished = played is not None and played.returncode == 0 and rest is None
    if rest is not None and played is not None and played.returncode in stopped and log.exists():
        if person["stop"] == "killed":  # the process killed just after its last move was written
            lines = log.read_bytes().splitlines(keepends=True)
            last = max(i for i, line in enumerate(lines) if b'"event": "decision"' in line)
            log.write_bytes(b"".join(lines[:last + 1]))
            entries = [t for t in entries if t not in person["cut"]]
        label = result["label"] = f"{label}, {person['stop']} half-way"
        (folder / "rest.txt").write_text("\n".join(rest) + "\n", encoding="utf-8")
        resumed = run("resume", "resume", log.name, "--answers", "rest.txt")
        finished = resumed is not None and resumed.returncode == 0
    if not log.exists():
        return result
    written = [json.loads(row) for row in log.read_text(encoding="utf-8").splitlines()]
    kept = [e["text"] for e in written if e.get("event") == "journal"]
    asked = [e["question"] for e in written if e.get("event") == "oracle"]
    if finished:  # every word typed is in the log
        for text in [t for t in entries if t not in kept] + [q for q in questions if q not in asked]:
            fail("lost word", "play", f"not in the log: {text!r}", ("play", game, "--seed", str(seed), *rules, *where,
                 "--answers", "answers.txt", "--log", log.name))
    digest = [hashlib.sha256(log.read_bytes()).hexdigest()]

    def untouched(path: str, args: tuple[str, ...]) -> None:
        now = hashlib.sha256(log.read_bytes()).hexdigest()
        if now != digest[-1]:
            fail("altered log", path, "the log's bytes changed", args)
            digest.append(now)  # each reader answers for its own change

    replayed = run("replay", "replay", log.name)
    untouched("replay", ("replay", log.name))
    if replayed is not None and replayed.returncode == 0:
        notes = [row.strip() for row in replayed.stdout.splitlines() if row.strip().startswith("note:")]
        if notes:
            fail("false note", "replay", f"{len(notes)} note(s): {notes[0][:300]}", ("replay", log.name))
    for fmt, kind in FORMATS:
        args = ("export", log.name, "--format", fmt, *([f"--{kind}"] if kind else []))
        path = f"export {fmt}{' ' + kind if kind else ''}"
        done = run(path, *args)
        untouched(path, args)
        if done is None or done.returncode != 0:
            continue
        if fmt == "json":
            try:
                document = "\n".join(_strings(json.loads(done.stdout)))
            except ValueError as e:
                fail("crash", path, f"not JSON: {e}", args)
                continue
            missing = [t for t in kept + asked if t not in document]
        else:
            seen = _readable(done.stdout, fmt)
            missing = [t for t in kept + asked if _letters(t) not in seen]
        if missing:
            fail("lost word", path, f"{len(missing)} missing, the first {missing[0]!r}", args)
    if pdf:
        for kind in ("story", "playthrough"):
            args = ("export", log.name, "--format", "pdf", f"--{kind}", "-o", f"{kind}.pdf", "--force")
            done = run(f"export pdf {kind}", *args)
            untouched(f"export pdf {kind}", args)
            printed = folder / f"{kind}.pdf"
            if done is not None and done.returncode == 0 and not printed.read_bytes().startswith(b"%PDF"):
                fail("crash", f"export pdf {kind}", "not a PDF", args)
    if not failures and not kept_all:
        shutil.rmtree(folder, ignore_errors=True)
    return result


def person(games: int = 50) -> None:
    """A person's games through the command line only (``storyteller`` as a subprocess, its logs
    read as JSON), so that it runs against any version of storyteller: every game, seeds
    0..GAMES-1 (``--games N``), the standard rules and each variant in turn, some at a real
    table; see ``person_game``. ``--storyteller CMD`` names the storyteller to run (default:
    ``python -m storyteller`` of this interpreter); ``--keep DIR`` keeps every game's files
    there; ``--only GAME`` or ``GAME:SEED`` plays just those; ``--jobs N`` (default: every core).
    Counts the paths taken and the failures by kind (a crash: a non-zero exit, a traceback or
    an unexpected error; a refused answer; a false note from replay on an untouched log; a lost
    word: a journal entry or oracle question missing from the log, a story, a playthrough or the
    JSON; an altered log: its bytes changed by replay or export)."""
    import os
    import shlex
    import shutil
    from concurrent.futures import ProcessPoolExecutor

    def option(name: str, default: str | None = None) -> str | None:
        return sys.argv[sys.argv.index(name) + 1] if name in sys.argv else default

    count = int(option("--games", str(games)) or games)
    command = shlex.split(option("--storyteller") or "") or [sys.executable, "-m", "storyteller"]
    kept_all = option("--keep") is not None
    keep = option("--keep") or tempfile.mkdtemp(prefix="person-")
    jobs = int(option("--jobs", str(os.cpu_count() or 2)) or 2)
    only = option("--only")
    env = {k: v for k, v in os.environ.items() if not k.startswith("STORYTELLER_")}
    with tempfile.TemporaryDirectory() as tmp:
        env.update(STORYTELLER_HOME=tmp, STORYTELLER_CONFIG=str(Path(tmp) / "settings.toml"))
        version = subprocess.run([*command, "--version"], check=False, capture_output=True, text=True, env=env,
                                 cwd=tmp).stdout.strip()
        rulesets = person_rulesets(command, env)
    pdf = any(shutil.which(name) for name in ("chromium", "chromium-browser", "google-chrome", "chrome"))
    tasks = []
    for game in ("carddom", "adaman", "cascades", "hexaract"):
        sets = rulesets.get(game, [[]])
        for seed in range(count):
            if only and only not in (game, f"{game}:{seed}"):
                continue
            rules = sets[seed % len(sets)]
            physical = (seed // len(sets)) % 3 == 2  # every third game of each rule set, at a real table
            tasks.append((game, seed, rules, physical, command, pdf and seed < 2, keep, kept_all))
    print(f"person: {len(tasks)} games with {shlex.join(command)} ({version}), {jobs} jobs", flush=True)
    start = time.perf_counter()
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        results = list(pool.map(person_game, tasks))
    seconds = time.perf_counter() - start
    games_of: dict[str, int] = {}
    paths: dict[str, int] = {}
    failed: dict[tuple[str, str], set] = {}
    for r in results:
        games_of[r["game"]] = games_of.get(r["game"], 0) + 1
        for path, n in r["paths"].items():
            paths[path] = paths.get(path, 0) + n
        for f in r["failures"]:
            failed.setdefault((f["path"], f["kind"]), set()).add((f["game"], r["seed"]))
    width = max(len(p) for p in paths)
    print(f"person: {len(results)} games ({', '.join(f'{g} {n}' for g, n in games_of.items())}) in {seconds:.0f} s")
    print(f"{'path':<{width}}  {'runs':>5}  " + "  ".join(f"{k:>14}" for k in KINDS))
    for path, n in paths.items():
        row = [len(failed.get((path, k), ())) for k in KINDS]
        print(f"{path:<{width}}  {n:>5}  " + "  ".join(f"{c or '-':>14}" for c in row))
    everything = [f for r in results for f in r["failures"]]
    print(f"{'game':<{width}}  {'games':>5}  " + "  ".join(f"{k:>14}" for k in KINDS) + "  {:>14}".format("any"))
    for game, n in games_of.items():
        hit = [{f["kind"] for f in r["failures"]} for r in results if r["game"] == game]
        row = [sum(1 for kinds in hit if k in kinds) for k in KINDS] + [sum(1 for kinds in hit if kinds)]
        print(f"{game:<{width}}  {n:>5}  " + "  ".join(f"{c or '-':>14}" for c in row))
    for kind in KINDS:
        found = [f for f in everything if f["kind"] == kind]
        games_hit = {(f["game"], f["label"]) for f in found}
        by_game = {g: sum(1 for x, _ in games_hit if x == g) for g in games_of}
        print(f"{kind}: {len(found)} failures in {len(games_hit)} games "
              f"({', '.join(f'{g} {n}' for g, n in by_game.items())})")
        distinct, seen = [], set()  # the first of each game, command and detail
        for f in found:
            if (f["game"], f["path"].split()[0], f["detail"]) not in seen:
                seen.add((f["game"], f["path"].split()[0], f["detail"]))
                distinct.append(f)
        for f in distinct[:4]:
            print(f"  {f['label']}, {f['path']}: {f['detail']}")
            print(f"    {f['command']}")
    if not everything and not kept_all:
        shutil.rmtree(keep, ignore_errors=True)
    else:
        print(f"person: the files of {'every game' if kept_all else 'the games that failed'} are in {keep}")


def deal_speed(searches: int = 100) -> None:
    """``--deal winnable``: how long the search for a proved deal takes, per game."""
    from storyteller import registry
    from storyteller.study import deals

    for game in ("carddom", "adaman", "cascades", "hexaract"):
        rules = registry.rules(game)
        variants = rules.parse_variants([])
        times, tried, missed = [], [], 0
        for _ in range(searches):
            found = deals.find(rules, variants, "winnable")
            times.append(found.seconds)
            tried.append(found.tried)
            missed += found.found is None
        print(f"deal: {game:<9} --deal winnable over {searches} searches: median {statistics.median(times):.3f} s, "
              f"worst {max(times):.3f} s; seeds looked at: mean {statistics.mean(tried):.2f}, most {max(tried)}; "
              f"none found within {deals.SECONDS:g} s: {missed} (goal: worst under {deals.SECONDS:g} s)", flush=True)


def _daily_of(task: tuple[str, str]) -> tuple[bool, float, int]:
    from datetime import date

    from storyteller import registry
    from storyteller.core.daily import seeds
    from storyteller.study import deals

    game, day = task
    started = time.perf_counter()
    found, _ = deals.daily(registry.rules(game), date.fromisoformat(day))
    return found.winnable, time.perf_counter() - started, seeds(game, date.fromisoformat(day)).index(found.seed)


def daily_share(year: int = 2025) -> None:
    """``--daily``: the share of a year's days whose deal is proved winnable, per game, and
    the time to choose a day's deal (one process, as ``play --daily`` chooses it)."""
    from datetime import date, timedelta

    from storyteller.study import deals

    days = [(date(year, 1, 1) + timedelta(days=k)).isoformat() for k in range(365)]
    for game in ("carddom", "adaman", "cascades", "hexaract"):
        got = [_daily_of((game, d)) for d in days]
        proved = sum(1 for won, _, _ in got if won)
        times = [t for _, t, _ in got]
        first = sum(1 for won, _, k in got if won and k == 0)
        print(f"daily: {game:<9} {year}: {proved} of 365 days proved winnable ({proved / 365:.1%}; the day's "
              f"first seed {first}, a later one {proved - first}), each seed within {deals.DAILY_NODES:,} "
              f"positions; time to choose: median {statistics.median(times):.3f} s, worst {max(times):.3f} s",
              flush=True)


BENCHMARKS = {"startup": startup, "replay": replay_speed, "sessions": sessions_speed, "export": export_speed,
              "export-instructions": export_instructions, "html": html_speed, "pdf": pdf_speed,
              "questions": questions_speed,
              "journal": journal_speed, "analyse": analyse_speed, "decisions": decision_speed, "fuzz": fuzz,
              "simulate": simulate_speed, "deal": deal_speed, "daily": daily_share, "person": person}

if __name__ == "__main__":
    args = sys.argv[1:]
    for flag in ("--games", "--storyteller", "--keep", "--jobs", "--only"):  # decisions --games N, person ...
        if flag in args:
            del args[args.index(flag):args.index(flag) + 2]
    chosen = args or [name for name in BENCHMARKS if name != "person"]
    unknown = [name for name in chosen if name not in BENCHMARKS]
    if unknown:
        sys.exit(f"unknown benchmark {unknown[0]!r} (benchmarks: {', '.join(BENCHMARKS)})")
    for name in chosen:
        BENCHMARKS[name]()

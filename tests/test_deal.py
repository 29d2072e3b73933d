"""Choosing a deal (issue 30): ``play --deal winnable|easy|hard``, the day's deal
(``--daily``, ``stats --daily``), a first game that names the gentler variant, and commands
printed as the program was started, so that pasted back they run."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from datetime import date
from pathlib import Path

import pytest

from conftest import read_events
from storyteller import registry
from storyteller.core import daily
from storyteller.core.words import program
from storyteller.log.events import BadLine, Header
from storyteller.study import deals

GAMES = ("carddom", "adaman", "cascades", "hexaract")
HERE = Path(__file__).resolve().parents[1]


def header(path: Path) -> dict:
    return read_events(path)[0]


# -- --deal winnable ------------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_twenty_winnable_deals_of_each_game_are_proved_winnable_by_solve(cli, tmp_path, monkeypatch, game):
    monkeypatch.setenv("STORYTELLER_DEAL_SECONDS", "30")  # a busy machine: the proof is tested here, not the speed
    seeds = set()
    for i in range(20):
        log = tmp_path / f"{i}.jsonl"
        r = cli("play", game, "--deal", "winnable", "--auto", "greedy", "--log", log)
        assert r.code == 0, r.err
        head = header(log)
        assert head["deal"] == {"chosen": "winnable", "winnable": True}
        assert "This deal can be won" in r.out
        seeds.add(head["seed"])
        r = cli("solve", game, "--seed", head["seed"])
        assert r.code == 0 and ": winnable: a winning game" in r.out, r.out
    assert len(seeds) == 20  # twenty fresh deals, not one


def test_a_winnable_deal_is_the_seeds_own_deal_by_the_rules(cli, tmp_path):
    """The seed is all that is chosen: played again with --seed, it deals the same cards."""
    chosen = tmp_path / "chosen.jsonl"
    again = tmp_path / "again.jsonl"
    assert cli("play", "carddom", "--deal", "winnable", "--auto", "greedy", "--log", chosen).code == 0
    seed = header(chosen)["seed"]
    assert cli("play", "carddom", "--seed", seed, "--auto", "greedy", "--log", again).code == 0
    strip = [{k: v for k, v in e.items() if k != "at"} for e in read_events(chosen)[1:]]
    assert strip == [{k: v for k, v in e.items() if k != "at"} for e in read_events(again)[1:]]
    assert cli("replay", chosen).code == 0


def test_proves_wants_a_line_that_wins_on_the_rules():
    rules = registry.rules("cascades")
    variants = rules.parse_variants([])
    found = deals.judge(rules, variants, "7", deals.Budget(seconds=5))
    assert found.winnable
    from storyteller.study.simulation import solve_deal

    moves = solve_deal(rules, variants, "7", deals.Budget(seconds=5)).moves
    assert deals.proves(rules, variants, "7", moves)
    assert not deals.proves(rules, variants, "7", moves[:-1])  # a line that stops short wins nothing
    assert not deals.proves(rules, variants, "8", moves)  # another deal's line
    assert not deals.proves(rules, variants, "7", ["no such move"])


def test_easy_and_hard_split_the_winnable_deals_by_the_greedy_player(cli, tmp_path):
    for want, won in (("easy", True), ("hard", False)):
        log = tmp_path / f"{want}.jsonl"
        r = cli("play", "adaman", "--deal", want, "--auto", "greedy", "--log", log)
        assert r.code == 0, r.err
        assert header(log)["deal"] == {"chosen": want, "winnable": True}
        assert (read_events(log)[-1]["result"] == "won") is won
        assert ("wins it too" if won else "loses it") in r.out


def test_none_proved_in_time_says_so_in_one_line_with_both_ways_on(cli, monkeypatch, home):
    monkeypatch.setenv("STORYTELLER_DEAL_SECONDS", "0")
    r = cli("play", "carddom", "--deal", "winnable", "--auto", "greedy")
    assert r.code != 0
    line = r.err.strip()
    assert "\n" not in line and "No winnable deal of Carddom was proved within 0 s" in line
    # the fresh deal it offers, and another look, are commands that run
    unproved = line.split("not proved winnable: ")[1].split(";")[0]
    words = shlex.split(unproved)
    assert words[:4] == ["storyteller", "play", "carddom", "--seed"] and len(words) == 5
    assert "look again: storyteller play carddom --deal winnable" in line
    assert not list((home / "sessions").glob("*.jsonl")) if (home / "sessions").exists() else True


@pytest.mark.xdist_group("processes")
@pytest.mark.timeout(60)
def test_at_a_terminal_none_proved_in_time_lets_the_player_choose(tmp_path):
    pexpect = pytest.importorskip("pexpect")
    env = dict(os.environ, STORYTELLER_HOME=str(tmp_path / "home"), NO_COLOR="1", TERM="xterm",
               STORYTELLER_DEAL_SECONDS="0")
    log = tmp_path / "fresh.jsonl"
    child = pexpect.spawn(sys.executable, ["-m", "storyteller", "play", "carddom", "--deal", "winnable", "--log",
                                           str(log)], env=env, timeout=20, encoding="utf-8", dimensions=(50, 200))
    try:
        child.expect("No winnable deal of Carddom was proved within 0 s")
        child.expect("What now")
        child.send("\r")  # the first choice: a fresh deal, not proved
        child.expect("Enter to skip")
        child.sendcontrol("c")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    head = header(log)
    assert "deal" not in head  # an ordinary fresh deal: nothing says it can be won
    stop = pexpect.spawn(sys.executable, ["-m", "storyteller", "play", "carddom", "--deal", "winnable"], env=env,
                         timeout=20, encoding="utf-8", dimensions=(50, 200))
    try:
        stop.expect("What now")
        stop.send("\x1b[B\x1b[B\r")  # Stop
        stop.expect("No game was started")
        stop.expect(pexpect.EOF)
    finally:
        stop.close(force=True)
    assert stop.exitstatus == 0


# -- the end screen -------------------------------------------------------------------------


def test_a_lost_winnable_deal_says_it_could_have_been_won_and_how_to_see_it(cli, tmp_path, monkeypatch):
    log = tmp_path / "hard.jsonl"
    r = cli("play", "carddom", "--deal", "hard", "--auto", "greedy", "--log", log)
    assert r.code == 0
    line = next(x for x in r.out.splitlines() if "could have been won" in x)
    assert line.startswith("This deal could have been won: the solver proved it before you began.")
    solve = line.split("A winning game: ")[1].split("; where yours turned: ")[0]
    analyse = line.split("; where yours turned: ")[1]
    assert shlex.split(analyse) == ["storyteller", "analyse", str(log)]
    words = shlex.split(solve)
    assert words[:3] == ["storyteller", "solve", str(log)]
    won = tmp_path / words[-1]
    monkeypatch.chdir(tmp_path)
    r = cli(*words[1:])
    assert r.code == 0 and "winnable" in r.out and won.exists()
    assert read_events(won)[-1]["result"] == "won"


def test_an_ordinary_lost_game_does_not_say_it_could_have_been_won(cli, tmp_path):
    r = cli("play", "carddom", "--seed", "1", "--auto", "random", "--log", tmp_path / "g.jsonl")
    assert r.code == 0 and "could have been won" not in r.out


def test_the_end_screen_at_a_terminal_says_so_too(tmp_path):
    from rich.console import Console

    from storyteller.play.session import Session
    from storyteller.ui import play
    from storyteller.ui.terminal import Terminal

    rules = registry.rules("carddom")
    variants = rules.parse_variants([])
    found = deals.find(rules, variants, "hard", seconds=30).found
    assert found is not None
    session = Session.new(rules, variants, found.seed, tmp_path / "g.jsonl", mode="auto greedy",
                          deal={"chosen": "hard", "winnable": True})
    from storyteller.play.session import AutoPlayer

    player = AutoPlayer(rules, found.seed, "greedy")
    session.advance()
    while session.outcome is None:
        session.decide(player.choose(session.state, session.decisions).key)
    session.close()
    out = Console(record=True, width=300, no_color=True)
    term = Terminal(plain=True, console=out)

    class Asked:
        def ask_end(self, session):
            return None

    term.confirm = lambda *a, **k: False  # type: ignore[method-assign]
    play.after_end(term, session, Asked())  # type: ignore[arg-type]
    text = out.export_text()
    assert "This deal could have been won: the solver proved it before you began." in text
    assert "storyteller analyse" in text and "Could this deal have been won?" not in text


# -- the day's deal -------------------------------------------------------------------------


def _daily_seed(env: dict[str, str], game: str, tmp: Path, name: str) -> subprocess.Popen:
    log = tmp / f"{name}.jsonl"
    return subprocess.Popen([sys.executable, "-m", "storyteller", "play", game, "--daily", "--auto", "greedy", "--log",
                             str(log)], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


@pytest.mark.xdist_group("processes")
@pytest.mark.timeout(120)
def test_the_days_deal_is_one_seed_in_two_processes_and_differs_between_games_and_days(tmp_path):
    env = dict(os.environ, STORYTELLER_HOME=str(tmp_path / "home"), STORYTELLER_TODAY="2025-03-14")
    runs = {(g, k): _daily_seed(env, g, tmp_path, f"{g}-{k}") for g in GAMES for k in (1, 2)}
    for p in runs.values():
        out, err = p.communicate(timeout=100)
        assert p.returncode == 0, err
        assert "The day's deal of" in out and "for 2025-03-14 (UTC), the same for everyone" in out
    heads = {key: header(tmp_path / f"{key[0]}-{key[1]}.jsonl") for key in runs}
    for g in GAMES:
        assert heads[(g, 1)]["seed"] == heads[(g, 2)]["seed"]
        assert heads[(g, 1)]["deal"]["chosen"] == "daily" and heads[(g, 1)]["deal"]["date"] == "2025-03-14"
        assert heads[(g, 1)]["variants"] == registry.rules(g).parse_variants([])
    assert len({heads[(g, 1)]["seed"] for g in GAMES}) == 4
    later = {g: deals.daily(registry.rules(g), date(2025, 3, 15))[0].seed for g in GAMES}
    assert all(later[g] != heads[(g, 1)]["seed"] for g in GAMES)


def test_the_days_seeds_come_from_the_game_and_the_date():
    assert daily.seeds("carddom", date(2025, 3, 14))[:2] == ["carddom-2025-03-14", "carddom-2025-03-14b"]
    assert daily.today({"STORYTELLER_TODAY": "2024-02-29"}) == date(2024, 2, 29)
    for bad in ("2025-02-30", "14/03/2025", "2025-3-4", "today"):
        with pytest.raises(ValueError, match="STORYTELLER_TODAY"):
            daily.today({"STORYTELLER_TODAY": bad})


def test_the_days_deal_is_proved_winnable_when_the_solver_can(cli, monkeypatch, tmp_path):
    monkeypatch.setenv("STORYTELLER_TODAY", "2025-01-02")
    log = tmp_path / "d.jsonl"
    r = cli("play", "cascades", "--daily", "--auto", "greedy", "--log", log)
    assert r.code == 0
    head = header(log)
    assert head["deal"] == {"chosen": "daily", "winnable": True, "date": "2025-01-02"}
    assert cli("solve", "cascades", "--seed", head["seed"]).out.count(": winnable") == 1
    story = cli("export", log, "--story").out
    assert "the deal of the day 2025-01-02" in story


# -- bad input: one line and a non-zero exit --------------------------------------------------


@pytest.mark.parametrize("args,env,says", [
    (["--deal", "lucky"], {}, "--deal takes one of: any, winnable, easy, hard (not 'lucky')"),
    (["--deal", "winnable", "--seed", "3"], {}, "give either --deal or --seed"),
    (["--daily", "--seed", "3"], {}, "give either --daily or --seed"),
    (["--deal", "winnable", "--physical"], {}, "--deal winnable cannot choose a real deck"),
    (["--daily", "--physical"], {}, "leave out --physical or --daily"),
    (["--daily", "--deal", "winnable"], {}, "give either --daily or --deal"),
    (["--daily", "--variant", "jokers=taken"], {}, "the day's deal is played by the standard rules"),
    (["--daily"], {"STORYTELLER_TODAY": "2025-13-01"}, "STORYTELLER_TODAY: 2025-13-01 is not a day of the calendar"),
    (["--deal", "winnable"], {"STORYTELLER_DEAL_SECONDS": "soon"}, "STORYTELLER_DEAL_SECONDS takes a number"),
])
def test_bad_deal_options_are_refused_in_one_line(cli, monkeypatch, home, args, env, says):
    for k, v in env.items():
        monkeypatch.setenv(k, v)
    r = cli("play", "carddom", *args, "--auto", "greedy")
    assert r.code != 0
    assert r.err.count("\n") == 1 and says in r.err, r.err
    assert not (home / "sessions").exists() or not list((home / "sessions").glob("*.jsonl"))


def test_a_branch_takes_no_deal(cli, auto_log):
    log = auto_log()
    r = cli("play", "--from", log, "--step", "2", "--daily")
    assert r.code != 0 and "no game, --seed, --variant, --physical, --deal or --daily" in r.err


def test_the_header_deal_is_checked():
    base = {"storyteller": "log", "schema": 1, "game": "carddom", "variants": {}, "seed": "x", "source": "seeded"}
    assert Header.read(base).deal is None  # an older log reads as before
    good = Header.read({**base, "deal": {"chosen": "daily", "winnable": False, "date": "2025-03-14"}})
    assert good.record()["deal"] == {"chosen": "daily", "winnable": False, "date": "2025-03-14"}
    for bad in ("winnable", {"chosen": "lucky", "winnable": True}, {"chosen": "winnable", "winnable": False},
                {"chosen": "daily", "winnable": True}, {"chosen": "winnable", "winnable": True, "date": "2025-03-14"},
                {"chosen": "daily", "winnable": True, "date": "2025-02-30"}, {"chosen": "easy", "winnable": 1},
                {"chosen": "easy", "winnable": True, "why": "luck"}):
        with pytest.raises(BadLine):
            Header.read({**base, "deal": bad})


# -- stats --daily ----------------------------------------------------------------------------


def _winning_answers(cli, tmp_path: Path, game: str, seed: str) -> Path:
    won = tmp_path / f"won-{seed}.jsonl"
    assert cli("solve", game, "--seed", seed, "--log", won).code == 0
    moves = [e["action"] for e in read_events(won) if e.get("event") == "decision"]
    answers = tmp_path / f"answers-{seed}.txt"
    answers.write_text("\n".join(moves) + "\n", encoding="utf-8")
    return answers


def test_stats_daily_shows_the_days_and_the_streak(cli, monkeypatch, tmp_path):
    game = "cascades"
    lost = tmp_path / "abandon.txt"
    lost.write_text("abandon\n", encoding="utf-8")
    for day in ("2025-03-10", "2025-03-11", "2025-03-12", "2025-03-13"):
        monkeypatch.setenv("STORYTELLER_TODAY", day)
        seed = deals.daily(registry.rules(game), date.fromisoformat(day))[0].seed
        answers = lost if day == "2025-03-10" else _winning_answers(cli, tmp_path, game, seed)
        r = cli("play", game, "--daily", "--answers", answers)
        assert r.code == 0, r.err
    monkeypatch.setenv("STORYTELLER_TODAY", "2025-03-14")  # today's not played yet: the streak stands
    r = cli("stats", "--daily")
    assert r.code == 0
    assert "Cascades: 4 days, 3 won; streak 3 days won in a row (best 3)" in r.out
    assert "2025-03-10  abandoned" in r.out and "2025-03-13  won" in r.out
    data = json.loads(cli("stats", "--daily", "--json").out)["games"][game]
    assert (data["days"], data["won"], data["streak"], data["best_streak"]) == (4, 3, 3, 3)
    monkeypatch.setenv("STORYTELLER_TODAY", "2025-03-16")  # a day missed ends it
    assert "streak 0 days won in a row (best 3)" in cli("stats", "--daily").out
    # a second go at a day's deal, won, does not change that day's result
    monkeypatch.setenv("STORYTELLER_TODAY", "2025-03-10")
    seed = deals.daily(registry.rules(game), date(2025, 3, 10))[0].seed
    assert cli("play", game, "--daily", "--answers", _winning_answers(cli, tmp_path, game, seed)).code == 0
    assert "2025-03-10  abandoned" in cli("stats", "--daily").out


def test_stats_daily_with_none_played_says_how_to_play_one(cli):
    r = cli("stats", "--daily")
    assert r.code == 0 and "No day's deal played yet" in r.out and "storyteller play carddom --daily" in r.out
    r = cli("stats", "--daily", "--all")
    assert r.code != 0 and r.err.count("\n") == 1


# -- a first game that teaches ----------------------------------------------------------------


def test_the_first_game_hint_is_one_line_for_a_person_with_no_saved_game(cli, tmp_path):
    quit_ = tmp_path / "quit.txt"
    quit_.write_text("quit\n", encoding="utf-8")
    r = cli("play", "carddom", "--answers", quit_)
    lines = [x for x in r.out.splitlines() if "first game" in x]
    assert lines == ["Your first game of Carddom? For a gentler one, add --variant jokers=taken (a Joker is a dead "
                     "card that can never be taken)."]
    assert "first game" not in cli("play", "carddom", "--answers", quit_).out  # only the first time
    assert "first game" not in cli("play", "cascades", "--answers", quit_).out  # Cascades has no gentler rule


def test_no_first_game_hint_for_auto_or_for_the_gentler_rules_already(cli, tmp_path, home):
    quit_ = tmp_path / "quit.txt"
    quit_.write_text("quit\n", encoding="utf-8")
    r = cli("play", "carddom", "--auto", "greedy", "--log", tmp_path / "elsewhere.jsonl")
    assert r.code == 0 and "first game" not in r.out
    r = cli("play", "carddom", "--answers", quit_, "--variant", "jokers=taken")
    assert r.code == 0 and "first game" not in r.out


# -- commands as the program was started --------------------------------------------------------


def test_the_program_is_named_as_it_was_started(tmp_path, monkeypatch):
    script = tmp_path / "bin" / "storyteller"
    script.parent.mkdir()
    script.write_text("#!/bin/sh\n", encoding="utf-8")
    script.chmod(0o755)
    monkeypatch.setenv("PATH", "/nonexistent")
    assert program(str(script)) == (str(script),)
    assert program(".venv/bin/storyteller") == (".venv/bin/storyteller",)
    monkeypatch.setenv("PATH", str(script.parent))
    assert program(str(script)) == ("storyteller",)  # the one the shell finds
    main = str(HERE / "storyteller" / "__main__.py")
    assert program(main, "/some/where/python3") == ("/some/where/python3", "-m", "storyteller")
    assert program("/usr/bin/pytest") == ("storyteller",)  # inside another program


def _pasted(line: str, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run(["bash", "-c", line], cwd=cwd, env=env, capture_output=True, text=True, timeout=60)


@pytest.mark.xdist_group("processes")
@pytest.mark.timeout(120)
def test_printed_commands_pasted_back_into_a_shell_run(tmp_path):
    """Started as ``python -m storyteller`` and by the script's path, with storyteller not
    on the PATH: the end screen's and the save message's commands run as printed."""
    script = Path(sys.executable).parent / "storyteller"
    env = dict(os.environ, STORYTELLER_HOME=str(tmp_path / "home"), PATH="/usr/bin:/bin")
    starts = [[sys.executable, "-m", "storyteller"]] + ([[str(script)]] if script.exists() else [])
    for n, start in enumerate(starts):
        work = tmp_path / f"w{n}"
        work.mkdir()
        done = subprocess.run([*start, "play", "carddom", "--deal", "hard", "--auto", "greedy"], cwd=work, env=env,
                              capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        lines = done.stdout.splitlines()
        story = next(x for x in lines if x.startswith("Read it as a story: ")).removeprefix("Read it as a story: ")
        assert shlex.split(story)[: len(start)] == start
        assert _pasted(story, work, env).returncode == 0 and (work / "story.md").exists()
        analyse = next(x for x in lines if "could have been won" in x).split("; where yours turned: ")[1]
        assert shlex.split(analyse)[: len(start)] == start
        quit_ = work / "quit.txt"
        quit_.write_text("quit\n", encoding="utf-8")
        saved = subprocess.run([*start, "play", "carddom", "--answers", str(quit_)], cwd=work, env=env,
                               capture_output=True, text=True, timeout=60)
        resume = next(x for x in saved.stdout.splitlines() if x.startswith("Saved. To go on: "))
        resume = resume.removeprefix("Saved. To go on: ") + " --auto greedy"
        again = _pasted(resume, work, env)
        assert again.returncode == 0 and "The game is over" in again.stdout, again.stderr


# -- the README's Quickstart, on a fresh checkout -------------------------------------------------


@pytest.mark.slow
@pytest.mark.timeout(900)
def test_the_quickstart_on_a_fresh_checkout_then_the_end_screens_command(tmp_path):
    """Slow (a fresh virtual environment and an install): marked slow, run by .ci/run after
    the suite. Follows the README's Quickstart in a clone of this checkout, then pastes the
    end screen's command exactly."""
    if not (HERE / ".git").exists():
        pytest.skip("not a git checkout")
    checkout = tmp_path / "storyteller"
    subprocess.run(["git", "clone", "-q", str(HERE), str(checkout)], check=True, timeout=120)
    readme = (checkout / "README.md").read_text(encoding="utf-8")
    quick = readme.split("## Quickstart", 1)[1].split("```sh", 1)[1].split("```", 1)[0]
    install = next(line for line in quick.splitlines() if "pip install" in line)
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH")}
    env.update(STORYTELLER_HOME=str(tmp_path / "home"), PATH="/usr/local/bin:/usr/bin:/bin")
    # the Quickstart's line, with a game the built-in player plays to its end
    line = install.replace("play carddom", "play carddom --deal hard --auto greedy")
    done = subprocess.run(["bash", "-c", line], cwd=checkout, env=env, capture_output=True, text=True, timeout=800)
    assert done.returncode == 0, done.stderr[-2000:]
    story = next(x for x in done.stdout.splitlines() if x.startswith("Read it as a story: "))
    pasted = _pasted(story.removeprefix("Read it as a story: "), checkout, env)
    assert pasted.returncode == 0, pasted.stderr
    assert (checkout / "story.md").read_text(encoding="utf-8").startswith("---")


def test_no_command_is_printed_with_the_program_name_written_in():
    """Every command the product prints goes through words.command_line: no string in the
    code that prints (the commands, the terminal, the session, the logs, the campaigns)
    spells 'storyteller COMMAND' itself. (Help texts and docstrings say what a command is
    called; an export, read elsewhere, says 'storyteller play ...' as the README does.)"""
    import ast
    import re

    spelled = re.compile(r"(?<!\ba )(?<!\bA )\bstoryteller (play|resume|export|solve|analy[sz]e|replay|sessions|"
                         r"stats|journal|campaign|games|rules|simulate|config)\b")
    package = HERE / "storyteller"
    found = []
    for path in [package / "app.py", *sorted((package / "ui").glob("*.py")), *sorted((package / "play").glob("*.py")),
                 *sorted((package / "log").glob("*.py")), *sorted((package / "study").glob("*.py"))]:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docs = {id(n.body[0].value) for n in ast.walk(tree)
                if isinstance(n, (ast.Module, ast.FunctionDef, ast.ClassDef, ast.AsyncFunctionDef)) and n.body
                and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs \
                    and spelled.search(node.value):
                found.append(f"{path.relative_to(HERE)}:{node.lineno}: {node.value[:60]!r}")
    assert not found, "\n".join(found)

"""storyteller analyse: where a game turned, as a player reads it; and play --from, the way
back to that turning point.

The hand-built positions are deals of Doors (tests/plugins/doors: five doors, the gold and
a trap among them), whose seeds are chosen for the order of the doors: seed 2 hides the
gold behind door 1 and the trap behind door 2; seed 5 puts the trap behind door 1."""

from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from storyteller.log.events import Correction, End, JournalEntry, Question, Undo
import pytest

from storyteller import registry
from storyteller.study.analysis import analyse
from storyteller.log.file import read
from storyteller.core.sources import SeededSource

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
PLUGINS = Path(__file__).resolve().parent / "plugins"


@pytest.fixture
def doors():
    sys.path.insert(0, str(PLUGINS))
    registry.refresh()
    yield registry.get("doors")
    sys.path.remove(str(PLUGINS))
    registry.refresh()


def play_doors(cli, tmp_path, seed: str, *moves: str, finished: bool = True) -> Path:
    answers = tmp_path / f"answers-{seed}.txt"
    answers.write_text("".join(m + "\n" for m in moves), encoding="utf-8")
    log = tmp_path / f"doors-{seed}.jsonl"
    r = cli("play", "doors", "--seed", seed, "--answers", answers, "--log", log)
    assert r.code == (0 if finished else 130), r.err
    return log


def test_the_chosen_seeds_deal_the_doors_these_tests_need(doors):
    rules = doors.rules
    deal = lambda seed: SeededSource(seed, rules, rules.parse_variants([])).deal(0)  # noqa: E731
    assert deal("2")[:2] == ["gold", "trap"]
    assert deal("5")[0] == "trap"


def test_a_move_that_gives_away_a_sure_win_is_a_blunder_and_fatal_when_the_solver_agrees(doors, cli, tmp_path):
    log = play_doors(cli, tmp_path, "2", "open", "open")  # the gold, then one door too many: the trap
    a = analyse(read(log), samples=64, jobs=1)
    first, second = a.decisions
    assert first.label is None and first.best_key == "open"
    assert second.key == "open" and second.best_key == "leave"
    assert second.before == 1.0  # the gold in hand: leaving wins for sure
    assert 0.6 <= second.after <= 0.9  # one door of four unseen hides the trap
    assert second.label == "fatal" and a.fatal is second  # the solver: winnable before, not after
    assert a.winnable_until == second.n
    assert a.turning is second and a.branch_step == second.n - 1
    assert f"step {second.n}" in a.verdict and "leave with what you found" in a.verdict
    assert "went from near certain to about" in a.verdict  # in a player's words: no "%", no "points"
    assert "%" not in a.verdict and "points" not in a.verdict
    assert a.result == 0.0 and a.outcome == "lost"


def test_without_the_solver_the_same_move_is_a_blunder(doors, cli, tmp_path):
    log = play_doors(cli, tmp_path, "2", "open", "open")
    a = analyse(read(log), samples=64, jobs=1, solve=False)
    assert a.decisions[1].label == "blunder" and a.fatal is None


def test_a_forced_loss_has_no_mistakes(doors, cli, tmp_path):
    log = play_doors(cli, tmp_path, "5", "open")  # the trap behind the first door: every line loses
    a = analyse(read(log), samples=64, jobs=1)
    assert [m.label for m in a.decisions] == [None]
    assert a.turning is None and a.winnable_until is None
    assert a.winnable_why == "with every card known, no order of play could have won this deal"
    assert "no order of play could have won" in a.verdict
    assert a.chances[0].change < -0.3  # the trap: bad luck, not a bad move


def test_luck_and_skill_add_up_to_the_result_minus_the_start(doors, cli, tmp_path):
    for log in (play_doors(cli, tmp_path, "2", "open", "open"), play_doors(cli, tmp_path, "4", "open", "open", "leave"),
                EXAMPLES / "adaman-lost.jsonl", EXAMPLES / "cascades-won.jsonl"):
        a = analyse(read(log), samples=6, jobs=1, solve=False)
        assert a.start is not None and a.result is not None
        assert abs(a.luck + a.skill - (a.result - a.start)) < 1e-9, log.name
        d = a.as_dict()
        assert abs(d["luck"] + d["skill"] - (d["result"] - d["start"])) < 3e-4


def test_an_unfinished_game_adds_up_to_where_it_stopped(doors, cli, tmp_path):
    log = play_doors(cli, tmp_path, "0", "open", "open", finished=False)  # the moth, the key: still going
    a = analyse(read(log), samples=16, jobs=1)
    assert a.outcome == "unfinished" and 0 < a.result < 1
    assert abs(a.luck + a.skill - (a.result - a.start)) < 1e-9


PROBE = """
import json, sys
from storyteller.study.analysis import analyse
from storyteller.log.file import read
print(json.dumps(analyse(read(sys.argv[1]), samples=4, jobs=2, solve=False).as_dict(), sort_keys=True))
"""


def test_the_same_log_gives_the_same_analysis_in_another_process():
    log = EXAMPLES / "hexaract-lost.jsonl"
    outs = []
    for salt in ("1", "4242"):
        env = dict(os.environ, PYTHONHASHSEED=salt)
        r = subprocess.run([sys.executable, "-c", PROBE, str(log)], capture_output=True, text=True, env=env,
                           timeout=300)
        assert r.returncode == 0, r.stderr
        outs.append(r.stdout)
    assert outs[0] == outs[1]
    here = analyse(read(log), samples=4, jobs=1, solve=False).as_dict()
    assert json.loads(outs[0]) == json.loads(json.dumps(here, sort_keys=True)), "one process or two: the same"


def test_a_real_tables_log_is_analysed_and_says_what_it_cannot_know(cli):
    r = cli("analyse", EXAMPLES / "carddom-table.jsonl", "--samples", "4", "--json")
    assert r.code == 0, r.err
    a = json.loads(r.out)
    assert a["start"] is not None and a["decisions"]
    assert a["winnable_until"] is None and "real table" in a["winnable_why"]


def test_a_budget_too_small_for_the_solver_is_named_in_the_why(cli):
    r = cli("analyse", EXAMPLES / "adaman-lost.jsonl", "--samples", "2", "--budget", "1500", "--json")
    assert r.code == 0, r.err
    a = json.loads(r.out)
    assert a["budget"] == "1,500 positions"
    assert a["winnable_until"] is None and "budget (1,500 positions) ran out" in a["winnable_why"]


def test_the_terminal_shows_the_verdict_a_chart_and_the_decisions_that_mattered(doors, cli, tmp_path):
    log = play_doors(cli, tmp_path, "2", "open", "open")
    r = cli("analyse", log, "--samples", "32", "--jobs", "1")
    assert r.code == 0, r.err
    assert "The turning point was step" in r.out and "fatal" in r.out and "100% |" in r.out
    assert "storyteller play --from" in r.out and "--step" in r.out
    assert "Luck" in r.out and "skill" in r.out
    assert cli("analyze", log, "--samples", "8", "--jobs", "1").code == 0  # the other spelling


def test_json_is_documented_field_by_field(doors, cli, tmp_path):
    log = play_doors(cli, tmp_path, "2", "open", "open")
    r = cli("analyse", log, "--samples", "8", "--jobs", "1", "--json")
    data = json.loads(r.out)
    doc = (ROOT / "docs" / "analysis.md").read_text(encoding="utf-8")
    for key in data:
        assert f"`{key}`" in doc, key
    for key in data["decisions"][0]:
        assert f"`{key}`" in doc, key
    assert {"start", "decisions", "luck", "skill", "winnable_until", "winnable_why", "verdict"} <= set(data)
    assert set(data["decisions"][0]) >= {"n", "move", "before", "after", "best", "lost", "label"}
    assert all(0 <= d["before"] <= 1 and 0 <= d["after"] <= 1 for d in data["decisions"])


@pytest.mark.parametrize("args, says", [
    (["--samples", "0"], "--samples"),
    (["--samples", "-3"], "--samples"),
    (["--budget", "lots"], "--budget"),
    (["--jobs", "many"], "--jobs"),
    (["--player", "nobody"], "no player 'nobody'"),
])
def test_a_bad_option_is_one_line(cli, args, says):
    r = cli("analyse", EXAMPLES / "adaman-lost.jsonl", *args)
    assert r.code == 2 and says in r.err and len(r.err.strip().splitlines()) == 1 and "Traceback" not in r.err


def test_a_log_that_does_not_replay_is_one_line_naming_the_line(cli, tmp_path):
    lines = (EXAMPLES / "adaman-lost.jsonl").read_text(encoding="utf-8").splitlines()
    events = [json.loads(x) for x in lines]
    for e in events:
        if e.get("event") == "draw":
            e["card"] = "the-huntress" if e["card"] != "the-huntress" else "the-bard"
            break
    bad = tmp_path / "bad.jsonl"
    bad.write_text("".join(json.dumps(e) + "\n" for e in events), encoding="utf-8")
    r = cli("analyse", bad)
    assert r.code == 1 and "line " in r.err and len(r.err.strip().splitlines()) == 1
    garbage = tmp_path / "garbage.jsonl"
    garbage.write_text("not a log\n", encoding="utf-8")
    r = cli("analyse", garbage)
    assert r.code == 1 and "line 1" in r.err and len(r.err.strip().splitlines()) == 1


@pytest.mark.xdist_group("processes")
@pytest.mark.timeout(120)
def test_ctrl_c_keeps_what_is_done_and_prints_it(tmp_path):
    env = dict(os.environ, STORYTELLER_HOME=str(tmp_path / "home"), NO_COLOR="1")
    child = subprocess.Popen([sys.executable, "-m", "storyteller", "analyse", str(EXAMPLES / "hexaract-journal.jsonl"),
                              "--samples", "2000", "--jobs", "2"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True, env=env, start_new_session=True)
    time.sleep(6)
    os.killpg(child.pid, signal.SIGINT)  # as Ctrl-C at a terminal: the whole group
    out, err = child.communicate(timeout=60)
    assert child.returncode == 130, err
    assert "Traceback" not in err and "interrupted" in err
    assert "stopped early" in out or "before it could measure anything" in out


# -- play --from LOG --step N ---------------------------------------------------------------


def test_a_branch_shares_the_old_games_first_steps_and_the_old_log_is_untouched(doors, cli, tmp_path):
    old = play_doors(cli, tmp_path, "2", "open", "open")
    before = hashlib.sha256(old.read_bytes()).hexdigest()
    answers = tmp_path / "leave.txt"
    answers.write_text("leave\n", encoding="utf-8")
    new = tmp_path / "branch.jsonl"
    r = cli("play", "--from", old, "--step", "3", "--log", new, "--answers", answers)
    assert r.code == 0, r.err
    assert "step 3" in r.out
    assert hashlib.sha256(old.read_bytes()).hexdigest() == before, "the old log is never touched"
    old_log, branch = read(old), read(new)
    assert branch.events[:3] == old_log.events[:3]
    assert branch.header.from_log == old.name and branch.header.from_step == 3
    assert branch.header.seed == old_log.header.seed and branch.header.variants == old_log.header.variants
    assert branch.end.result == "won"  # this time, leaving with the gold
    replayed = cli("replay", new)
    assert replayed.code == 0 and f"A branch of {old.name}" in replayed.out
    note = cli("export", new, "--playthrough", "--format", "obsidian")
    assert f"branch of `{old.name}`" in note.out


def test_a_branch_of_a_real_tables_game_keeps_the_cards_turned_up(cli, tmp_path):
    old = EXAMPLES / "carddom-table.jsonl"
    fixed = next(e for e in read(old).events if isinstance(e, Correction))
    r = cli("play", "--from", old, "--step", str(fixed.of))  # the card entered wrong there
    assert r.code == 2 and f"corrected at step {fixed.n}" in r.err and len(r.err.strip().splitlines()) == 1
    answers = tmp_path / "quit.txt"
    answers.write_text("", encoding="utf-8")
    new = tmp_path / "table-branch.jsonl"
    step = fixed.n
    r = cli("play", "--from", old, "--step", str(step), "--log", new, "--answers", answers)
    assert r.code in (0, 130), r.err  # the answers run out at once: saved
    branch = read(new)
    assert branch.events[:step] == read(old).events[:step] and branch.header.source == read(old).header.source
    assert cli("replay", new).code == 0


def test_a_branch_of_a_log_older_than_logged_questions_replays_without_notes(cli, tmp_path):
    # carddom-lost.jsonl was written before questions were logged: its journal entries name
    # their question by its words only. The branch logs the questions it asks from then on.
    answers = tmp_path / "answers.txt"
    answers.write_text("move 3\njournal: Bells, from a monastery nobody admits to building.\nquit\n", encoding="utf-8")
    new = tmp_path / "branch.jsonl"
    r = cli("play", "--from", EXAMPLES / "carddom-lost.jsonl", "--step", "8", "--log", new, "--answers", answers)
    assert r.code == 0, r.err
    branch = read(new)
    asked = [e for e in branch.events if isinstance(e, Question)]
    assert asked and any(isinstance(e, JournalEntry) and e.question == asked[0].n for e in branch.events)
    replayed = cli("replay", new)
    assert replayed.code == 0 and "note:" not in replayed.out, replayed.out


@pytest.mark.parametrize("step, says", [(999, "steps 1 to"), (0, "steps 1 to")])
def test_a_step_beyond_the_log_is_one_line(cli, step, says):
    r = cli("play", "--from", EXAMPLES / "carddom-won.jsonl", "--step", str(step))
    assert r.code == 2 and says in r.err and len(r.err.strip().splitlines()) == 1


def test_the_end_and_a_step_taken_back_are_refused_in_one_line(cli, tmp_path):
    log = read(EXAMPLES / "carddom-won.jsonl")
    end = next(e for e in log.events if isinstance(e, End))
    for step in (end.n, len(log.events)):
        r = cli("play", "--from", EXAMPLES / "carddom-won.jsonl", "--step", str(step))
        assert r.code == 2 and "the end of the game" in r.err and f"--step {end.n - 1}" in r.err
    undone = next(p for p in sorted(EXAMPLES.glob("*.jsonl")) if any(isinstance(e, Undo) for e in read(p).events))
    events = read(undone).events
    undo = next(e for e in events if isinstance(e, Undo))
    r = cli("play", "--from", undone, "--step", str(undo.of), "--log", tmp_path / "x.jsonl")
    assert r.code == 2 and "taken back" in r.err and len(r.err.strip().splitlines()) == 1
    assert not (tmp_path / "x.jsonl").exists()


def test_a_branch_takes_no_game_seed_or_variant(cli):
    r = cli("play", "carddom", "--from", EXAMPLES / "carddom-won.jsonl", "--step", "3")
    assert r.code == 2 and "--from LOG --step N" in r.err
    r = cli("play", "--from", EXAMPLES / "carddom-won.jsonl")
    assert r.code == 2 and "--step" in r.err
    r = cli("play")
    assert r.code == 2 and "which game" in r.err


# -- export --analysis ---------------------------------------------------------------------


def test_export_analysis_puts_the_table_in_the_playthrough_and_a_chart_in_html(doors, cli, tmp_path):
    log = play_doors(cli, tmp_path, "2", "open", "open")
    r = cli("export", log, "--playthrough", "--analysis", "--format", "obsidian")
    assert r.code == 0, r.err
    assert "## Where the game turned" in r.out and "| step | move |" in r.out and "fatal" in r.out
    page = tmp_path / "p.html"
    r = cli("export", log, "--playthrough", "--analysis", "--format", "html", "-o", page)
    assert r.code == 0, r.err
    text = page.read_text(encoding="utf-8")
    assert "Where the game turned" in text and "The chance to win, step by step" in text
    assert text.count("<svg") == 1, "the chart (Doors draws no table)"
    r = cli("export", log, "--story", "--analysis")
    assert r.code == 2 and "--playthrough" in r.err


def test_the_chart_marks_each_labelled_decision_clear_of_the_line_and_in_words():
    import re
    import xml.etree.ElementTree as ET

    from storyteller.telling.drawing import chance_chart

    chart = chance_chart(0.5, [(3, 0.4, None), (4, 0.3, "inaccuracy"), (5, 0.0, "fatal")], "The chance")
    assert "Step 4: an inaccuracy (the chance after it 30%)." in chart.desc
    assert "Step 5: a fatal move (the chance after it 0%)." in chart.desc
    root = ET.fromstring(chart.svg)
    ns = "{http://www.w3.org/2000/svg}"
    dots = [float(c.get("cy")) for c in root.iter(ns + "circle")]
    letters = {t.text: float(t.get("y")) for t in root.iter(ns + "text") if t.text in ("i", "F")}
    # the fatal step fell from 30% to 0%: its letter sits above the 30% the line came down from
    assert letters["F"] < min(dots) and letters["i"] < dots[0], (letters, dots)
    assert re.search(r"<title[^>]*>The chance</title>", chart.svg)


@pytest.mark.timeout(180)
def test_the_default_takes_fewer_samples_for_a_long_game(doors, tmp_path, cli):
    # A Cascades game of over a hundred decisions: fewer samples, so it takes seconds; a
    # short game keeps all 32.
    long = analyse(read(EXAMPLES / "cascades-won.jsonl"), jobs=2, solve=False)
    assert 12 <= long.samples < 32 and long.complete
    short = analyse(read(play_doors(cli, tmp_path, "2", "open", "open")), jobs=1, solve=False)
    assert short.samples == 32


def test_chances_are_said_in_a_players_words():
    from storyteller.study.analysis import chances

    assert [chances(x) for x in (0.0, 0.25, 0.1, 0.72, 1.0)] == [
        "none", "about 1 in 4", "about 1 in 10", "about 7 in 10", "near certain"]

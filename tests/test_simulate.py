"""storyteller simulate: many unattended games, on one core or many, with the same results."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest

from storyteller.log.file import read
from storyteller.log.replay import walk


def figures(cli, *args: str) -> dict:
    r = cli("simulate", *args, "--json")
    assert r.code == 0, r.err
    return json.loads(r.out)


def test_the_results_are_the_same_on_one_process_or_two(cli):
    one = figures(cli, "adaman", "--games", "40", "--jobs", "1")
    two = figures(cli, "adaman", "--games", "40", "--jobs", "2")
    assert one["results"] == two["results"]  # game by game, in seed order
    assert [r["seed"] for r in one["results"]] == [str(i) for i in range(40)]
    assert one["won"] + one["lost"] + one["utter_loss"] == 40
    low, high = one["interval_95"]
    assert low <= one["win_rate"] <= high


def test_seeds_policies_and_what_is_written(cli, tmp_path):
    f = figures(cli, "carddom", "--seeds", "50..54", "--policy", "random")
    assert [r["seed"] for r in f["results"]] == ["50", "51", "52", "53", "54"]
    assert f["results"][1]["result"] == "won"  # seed 51 is won by --auto random
    logs = tmp_path / "logs"
    csv = tmp_path / "games.csv"
    r = cli("simulate", "cascades", "--games", "3", "--logs", logs, "--csv", csv, "--jobs", "2")
    assert r.code == 0, r.err
    assert "cascades, standard rules, greedy: 3 games" in r.out
    rows = csv.read_text(encoding="utf-8").splitlines()
    assert rows[0] == "seed,result,score,cause" and len(rows) == 4
    for i in range(3):
        w = walk(read(logs / f"cascades-{i}.jsonl"))  # every game written replays
        assert w.outcome is not None and w.outcome.result == rows[i + 1].split(",")[1]


@pytest.mark.parametrize(
    "args, message",
    [
        (["poker"], "unknown game"),
        (["carddom", "--policy", "clever"], "no policy 'clever'"),
        (["carddom", "--seeds", "9..1"], "--seeds takes a range"),
        (["carddom", "--games", "5", "--seeds", "0..4"], "either --games or --seeds"),
        (["carddom", "--jobs", "many"], "--jobs takes"),
        (["carddom", "--solve", "--budget", "soon"], "--budget takes"),
    ],
)
def test_bad_options_are_one_line(cli, args, message):
    r = cli("simulate", *args)
    assert r.code == 2 and message in r.err and r.err.count("\n") == 1


@pytest.mark.xdist_group("processes")
@pytest.mark.timeout(60)
def test_ctrl_c_prints_what_was_played_and_exits_130(tmp_path):
    env = dict(os.environ, STORYTELLER_HOME=str(tmp_path))
    proc = subprocess.Popen([sys.executable, "-m", "storyteller", "simulate", "adaman", "--games", "1000000",
                             "--jobs", "2"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                            # as a terminal would have it (a shell without job control ignores Ctrl-C in the background)
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    time.sleep(3)
    proc.send_signal(signal.SIGINT)
    started = time.perf_counter()
    out, err = proc.communicate(timeout=50)
    assert time.perf_counter() - started < 5  # it stops at once, not after the games under way
    assert proc.returncode == 130
    assert "Traceback" not in err and "interrupted:" in err and "of 1000000 games played" in err
    assert "adaman, standard rules, greedy:" in out and "won" in out


# -- could the deal have been won? -------------------------------------------------------


def test_simulate_solve_puts_the_winnable_share_beside_the_policy_rate(cli):
    f = figures(cli, "carddom", "--seeds", "0..19", "--solve")
    assert f["winnable"] + f["not_winnable"] + f["unknown"] == 20
    assert f["not_winnable"] > 0 and f["winnable"] > f["won"]
    for r in f["results"]:
        if r["result"] == "won":  # a deal the policy won is one the solver finds winnable
            assert r["solved"] == "winnable", r
    r = cli("simulate", "carddom", "--seeds", "0..19", "--solve")
    assert r.code == 0 and f"winnable   {f['winnable']} " in r.out and "% of deals" in r.out
    assert f"not winnable   {f['not_winnable']} " in r.out
    r = cli("simulate", "carddom", "--seeds", "0..19", "--solve", "--budget", "30")
    assert "unknown" in r.out and "reached its --budget first" in r.out


def test_solve_writes_a_winning_game_that_replay_verifies(cli, tmp_path):
    won = tmp_path / "won.jsonl"
    r = cli("solve", "carddom", "--seed", "3", "--log", won)
    assert r.code == 0, r.err
    assert "seed 3, standard rules: winnable" in r.out and "storyteller replay" in r.out
    assert cli("replay", won).code == 0
    assert walk(read(won)).outcome.won
    r = cli("solve", "carddom", "--seed", "3", "--log", won)  # never over a file
    assert r.code == 2 and "already exists" in r.err and walk(read(won)).outcome.won


def test_solve_a_played_log_answers_for_its_deal(cli, tmp_path):
    for seed, answer in (("3", "winnable"), ("0", "not winnable")):
        log = tmp_path / f"lost-{seed}.jsonl"
        assert cli("play", "carddom", "--seed", seed, "--auto", "greedy", "--log", log).code == 0
        assert walk(read(log)).outcome.result == "lost"
        r = cli("solve", log)
        assert r.code == 0, r.err
        assert f"seed {seed}, standard rules: {answer}:" in r.out


def test_a_budget_too_small_says_unknown_never_a_guess(cli):
    small = figures(cli, "carddom", "--seeds", "0..9", "--solve", "--budget", "1")["results"]
    whole = figures(cli, "carddom", "--seeds", "0..9", "--solve")["results"]
    assert all(a["solved"] in ("unknown", b["solved"]) for a, b in zip(small, whole))
    assert sum(a["solved"] == "unknown" for a in small) >= 5
    r = cli("solve", "carddom", "--seed", "3", "--budget", "1")
    assert r.code == 0 and "seed 3, standard rules: unknown: the search stopped at its budget" in r.out


@pytest.mark.parametrize(
    "args, code, message",
    [
        (["carddom"], 2, "give --seed"),
        (["carddom", "--seed", "1", "--budget", "never"], 2, "--budget takes"),
        (["examples/carddom-table.jsonl"], 1, "real table"),
        (["examples/carddom-table.jsonl", "--seed", "1"], 2, "says its own seed"),
        (["nowhere.jsonl"], 1, "nowhere.jsonl"),
    ],
)
def test_solve_refuses_what_it_cannot_answer_in_one_line(cli, args, code, message):
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    args = [str(root / a) if a.startswith("examples/") else a for a in args]
    r = cli("solve", *args)
    assert r.code == code and message in r.err and r.err.count("\n") == 1, r.err


@pytest.mark.xdist_group("processes")
@pytest.mark.timeout(30)
def test_at_a_terminal_solve_says_it_is_searching_until_it_answers(tmp_path):
    pexpect = pytest.importorskip("pexpect")
    env = dict(os.environ, STORYTELLER_HOME=str(tmp_path), TERM="xterm")
    child = pexpect.spawn(sys.executable, ["-m", "storyteller", "solve", "adaman", "--seed", "3", "--budget", "2s"],
                          env=env, timeout=20, encoding="utf-8", dimensions=(24, 160))
    try:
        child.expect(r"Searching every line of play \(up to 2 s\)")
        child.expect("seed 3, standard rules: (unknown|winnable|not winnable)")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert child.exitstatus == 0

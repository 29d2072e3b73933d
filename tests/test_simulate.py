"""storyteller simulate: many unattended games, on one core or many, with the same results."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest

from storyteller.log import read
from storyteller.session import walk


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


@pytest.mark.timeout(60)
def test_ctrl_c_prints_what_was_played_and_exits_130(tmp_path):
    env = dict(os.environ, STORYTELLER_HOME=str(tmp_path))
    proc = subprocess.Popen([sys.executable, "-m", "storyteller", "simulate", "adaman", "--games", "1000000", "--jobs", "2"],
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

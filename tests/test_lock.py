"""Two storytellers, one log: the second writer is turned away with one line, readers go on."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from storyteller.log.file import read
from storyteller.log.replay import walk

pytestmark = pytest.mark.xdist_group("processes")  # real terminals and processes: one at a time

HOLD = """
import sys
from pathlib import Path
from storyteller.log.file import read
from storyteller.play.session import Session

session = Session.resume(read(Path(sys.argv[1])))
print("holding", flush=True)
sys.stdin.readline()
session.close()
"""


def storyteller(*args, env: dict, timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "storyteller", *map(str, args)], env=env, capture_output=True,
                          text=True, timeout=timeout)


@pytest.fixture
def env(tmp_path) -> dict:
    return dict(os.environ, STORYTELLER_HOME=str(tmp_path / "home"), NO_COLOR="1")


@pytest.fixture
def unfinished(tmp_path, env) -> Path:
    path = tmp_path / "home" / "sessions" / "open game.jsonl"
    answers = tmp_path / "a.txt"
    answers.write_text("enter 1\njournal: The gate is open.\nquit\n")
    r = storyteller("play", "carddom", "--seed", "7", "--answers", answers, "--log", path, env=env)
    assert r.returncode == 0, r.stderr
    return path


@pytest.mark.timeout(60)
def test_a_second_storyteller_is_told_who_holds_the_game(unfinished, env):
    holder = subprocess.Popen([sys.executable, "-c", HOLD, str(unfinished)], env=env, stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "holding"
        before = unfinished.read_bytes()
        for args in (("resume", unfinished, "--auto", "random"), ("resume", "--auto", "random"),
                     ("play", "carddom", "--seed", "7", "--auto", "random", "--log", unfinished)):
            r = storyteller(*args, env=env)
            assert r.returncode == 1, args
            assert r.stderr.count("\n") == 1 and "Traceback" not in r.stderr
            assert f"this game is open in another storyteller (pid {holder.pid})" in r.stderr
        assert unfinished.read_bytes() == before
        r = storyteller("replay", unfinished, env=env)
        assert r.returncode == 0 and r.stdout.startswith("OK")
        r = storyteller("export", unfinished, "--playthrough", env=env)
        assert r.returncode == 0 and "The gate is open." in r.stdout
    finally:
        holder.communicate("\n", timeout=30)
    assert holder.returncode == 0
    r = storyteller("resume", unfinished, "--auto", "random", env=env)
    assert r.returncode == 0, r.stderr
    assert walk(read(unfinished)).outcome is not None


@pytest.mark.timeout(60)
def test_a_player_at_a_terminal_holds_the_game_until_they_quit(unfinished, env):
    pexpect = pytest.importorskip("pexpect")
    child = pexpect.spawn(sys.executable, ["-m", "storyteller", "resume", str(unfinished)], env=env, timeout=20,
                          encoding="utf-8", dimensions=(50, 120))
    try:
        child.expect("What do you do")
        r = storyteller("resume", unfinished, "--auto", "random", env=env)
        assert r.returncode == 1 and f"open in another storyteller (pid {child.pid})" in r.stderr
        child.sendcontrol("c")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert storyteller("resume", unfinished, "--auto", "random", env=env).returncode == 0


@pytest.mark.timeout(120)
def test_two_resumes_at_once_never_interleave(tmp_path, env):
    """Both start together; whatever the timing, one plays and the other is turned away (or
    finds the game over), and the log stays whole: no event written twice."""
    for trial in range(3):
        path = tmp_path / f"race-{trial}.jsonl"
        answers = tmp_path / "q.txt"
        answers.write_text("quit\n")
        r = storyteller("play", "cascades", "--seed", str(trial), "--answers", answers, "--log", path, env=env)
        assert r.returncode == 0, r.stderr
        procs = [subprocess.Popen([sys.executable, "-m", "storyteller", "resume", str(path), "--auto", "random"],
                                  env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
                 for _ in range(2)]
        results = [(p.wait(timeout=60), p.stderr.read()) for p in procs]
        for p in procs:
            p.stderr.close()
        assert sorted(code for code, _ in results)[0] == 0, results
        for code, err in results:
            if code:
                assert err.count("\n") == 1 and any(
                    words in err for words in ("open in another storyteller", "already over", "changed while")
                ), err
        numbers = [json.loads(line)["n"] for line in path.read_text().splitlines()[1:]]
        assert numbers == list(range(1, len(numbers) + 1))
        assert walk(read(path)).outcome is not None

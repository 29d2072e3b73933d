"""SIGKILL in the middle of a game: no recorded event is lost, and the log goes on.

Every game is first played through uninterrupted from an answers file (long journal
entries, multi-byte words). Then the same game is started again and again and killed
outright at seeded moments: a seeded time after it starts (while Python starts, while the
log is made), or once its log has grown past a seeded size. Whatever the moment, the log
holds a prefix of the uninterrupted game's events (at most a torn last line, which
``resume --yes`` sets aside), resumes, and replays.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from storyteller.log.file import TruncatedLog, read
from storyteller.log.replay import walk

pytestmark = [
    pytest.mark.xdist_group("processes"),  # real processes, killed: one test at a time
    pytest.mark.skipif(os.name != "posix", reason="SIGKILL and the lock it leaves are POSIX"),
]

GAMES = ("carddom", "adaman", "cascades", "hexaract")
KILLS_PER_GAME = 5
SEED = 20261201


def answers(folder: Path, game: str, rng: random.Random) -> Path:
    lines = []
    for i in range(150):
        size = rng.choice([40, 2_000, 30_000, 90_000])
        words = ("Le vent tourne — the wind turns, ünd alles fließt. " * (size // 50 + 1))[:size]
        lines += [f"journal: {i}: {words}", "1"]
    path = folder / f"{game}.answers"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def start(game: str, answers_file: Path, log: Path, env: dict) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "storyteller", "play", game, "--seed", "11", "--answers", str(answers_file),
         "--log", str(log)],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )


def plain(events: list) -> list[dict]:
    return [{k: v for k, v in e.record().items() if k != "at"} for e in events]


@pytest.mark.timeout(120)
def test_a_killed_game_loses_no_recorded_event_and_resumes(tmp_path, cli):
    rng = random.Random(SEED)
    env = dict(os.environ, STORYTELLER_HOME=str(tmp_path / "home"))
    files = {game: answers(tmp_path, game, rng) for game in GAMES}

    whole = {game: tmp_path / f"whole-{game}.jsonl" for game in GAMES}
    for p in [start(game, files[game], whole[game], env) for game in GAMES]:
        assert p.wait(timeout=60) == 0
    reference = {game: plain(read(whole[game]).events) for game in GAMES}
    sizes = {game: whole[game].stat().st_size for game in GAMES}

    # All the runs at once; each is killed when its moment comes.
    runs = []
    for game in GAMES:
        for k in range(KILLS_PER_GAME):
            log = tmp_path / f"killed-{game}-{k}.jsonl"
            # k == 0: a moment in time (a negative threshold, in seconds); else a size in bytes
            threshold = -rng.uniform(0.0, 0.4) if k == 0 else rng.randrange(1, sizes[game])
            runs.append([game, log, threshold, start(game, files[game], log, env), None, time.monotonic()])
    deadline = time.monotonic() + 60
    while any(run[4] is None for run in runs) and time.monotonic() < deadline:
        for run in runs:
            game, log, threshold, proc, status, started = run
            if status is not None:
                continue
            if proc.poll() is not None:
                run[4] = "finished first"
            elif (time.monotonic() - started >= -threshold) if threshold < 0 else (
                log.exists() and log.stat().st_size >= threshold
            ):
                proc.send_signal(signal.SIGKILL)
                proc.wait(timeout=30)
                run[4] = "killed"
        time.sleep(0.0005)
    for run in runs:
        if run[4] is None:
            run[3].kill()
            run[3].wait(timeout=30)
            pytest.fail(f"{run[1].name} neither ended nor was killed in time")

    mid_game = 0
    for game, log, _threshold, _proc, status, _ in runs:
        if not log.exists():
            assert status == "killed"  # killed before the log was made: nothing was recorded
            continue
        cut = False
        try:
            events = read(log).events
        except TruncatedLog as e:
            events, cut = e.intact.events, True
        got = plain(events)
        assert got == reference[game][: len(got)], f"{log.name}: not a prefix of the uninterrupted game"
        if status == "killed" and 0 < len(got) < len(reference[game]):
            mid_game += 1
        over = any(e["event"] == "end" for e in got)  # killed before the last word: the game is over
        if (len(got) < len(reference[game]) or cut) and not over:
            r = cli("resume", log, "--auto", "random", *(["--yes"] if cut else []))
            assert r.code == 0, f"{log.name}: {r.err}"
        elif cut:
            r = cli("resume", log, "--yes")  # sets the torn line aside, then says the game is over
            assert r.code == 1 and "already over" in r.err, f"{log.name}: {r.err}"
        r = cli("replay", log)
        assert r.code == 0, f"{log.name}: {r.err}"
        assert walk(read(log)).outcome is not None
        assert not log.with_name(log.name + ".cut-off").exists() or cut
    assert mid_game >= len(runs) // 3, f"only {mid_game} of {len(runs)} kills landed mid-game"

"""What comes from outside (a seed, a path, a log edited by hand, a player's words) reaches
the terminal and the shell only as plain, quoted text, and replay says what it proves."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import last_of, read_events

ESCAPES = "\x1b[2J\x1b]0;pwned\x07\x1b]8;;http://x.example\x1b\\link\x1b]8;;\x1b\\\x9b31m\r"


def answers(tmp_path: Path, *lines: str) -> Path:
    path = tmp_path / "answers.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def write_lines(path: Path, records: list[dict]) -> None:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")


@pytest.fixture
def finished(cli, tmp_path):
    path = tmp_path / "done.jsonl"
    assert cli("play", "carddom", "--seed", "3", "--auto", "random", "--log", path).code == 0
    return path


def test_a_game_the_rules_ended_cannot_be_edited_into_an_abandoned_one(cli, finished):
    records = read_events(finished)
    assert records[-1]["result"] in ("won", "lost")
    records[-1] = dict(records[-1], result="abandoned", score=None, reason="The player abandoned the game.")
    write_lines(finished, records)
    r = cli("replay", finished)
    assert r.code == 1 and "abandoned" in r.err and "the rules ended it" in r.err


def test_a_real_abandon_replays(cli, tmp_path):
    path = tmp_path / "gave-up.jsonl"
    r = cli("play", "carddom", "--seed", "3", "--answers", answers(tmp_path, "enter 1", "abandon"), "--log", path)
    assert r.code == 0, r.err
    assert last_of(read_events(path), "end")["result"] == "abandoned"
    assert cli("replay", path).code == 0


def test_replay_reports_words_that_are_not_the_rules_words(cli, tmp_path):
    path = tmp_path / "edited.jsonl"
    r = cli("play", "carddom", "--seed", "3", "--answers", answers(tmp_path, "journal: Off I go.", "enter 1", "quit"),
            "--log", path)
    assert r.code == 0, r.err
    records = read_events(path)
    for record in records:
        if record.get("event") == "decision":
            record["text"] = "Burn the village"
        if record.get("event") == "journal":
            record["prompt"] = "Who did you betray?"
    write_lines(path, records)
    r = cli("replay", path)
    assert r.code == 0  # the game itself is the same: a record, not a signature
    assert "not the rules' words" in r.out and "not one the game asked" in r.out
    assert "exports use the rules' words" in r.out
    shown = cli("replay", path, "--show", "--plain")
    assert "Burn the village" not in shown.out and "Enter the realm" in shown.out


def test_control_characters_never_reach_the_terminal(cli, tmp_path):
    path = tmp_path / "esc.jsonl"
    r = cli("play", "carddom", "--seed", "3",
            "--answers", answers(tmp_path, "enter 1", "journal: x" + ESCAPES.replace("\r", "")),
            "--log", path)
    records = read_events(path)
    records.append({"n": len(records), "event": "journal", "text": "late" + ESCAPES, "at": "now"})
    write_lines(path, records)
    assert any(ESCAPES.replace("\r", "") in (e.get("text") or "") for e in read_events(path))  # the log keeps them
    for args in (("replay", path, "--show", "--plain"), ("replay", path), ("sessions",)):
        r = cli(*args)
        for char in ("\x1b", "\x07", "\x9b", "\r"):
            assert char not in r.out and char not in r.err, (args, char)


def test_seeds_are_text_not_markup(cli, home):
    for seed in ("[bold red]RED[/]", "[/]"):
        assert cli("play", "carddom", "--seed", seed, "--auto", "random").code == 0
    r = cli("sessions")
    assert r.code == 0, r.err
    assert "[bold red]RED[/]" in r.out and "[/]" in r.out


def test_a_seed_with_control_characters_is_refused(cli):
    for seed in ("a\x1bb", "a\x9bb"):
        r = cli("play", "carddom", "--seed", seed, "--auto", "random")
        assert r.code == 2 and "control characters" in r.err


def test_commands_shown_to_paste_are_quoted_for_the_shell(cli, tmp_path):
    folder = tmp_path / "it's $(here) `now`"
    folder.mkdir()
    path = folder / "my game.jsonl"
    r = cli("play", "carddom", "--seed", "3", "--answers", answers(tmp_path, "enter 1", "quit"), "--log", path)
    assert r.code == 0, r.err
    line = next(out for out in r.out.splitlines() if "storyteller resume" in out)
    assert shlex.split(line.split("To go on: ", 1)[1]) == ["storyteller", "resume", str(path)]


@pytest.mark.timeout(60)
def test_a_terminal_that_cannot_show_every_character(tmp_path):
    """A cp1252 console (an older Windows terminal) gets plain names and '?' for what it
    cannot show, never a crash mid-game."""
    env = dict(os.environ, PYTHONIOENCODING="cp1252", STORYTELLER_HOME=str(tmp_path / "home"))
    env.pop("NO_COLOR", None)
    log = tmp_path / "cp.jsonl"
    script = answers(tmp_path, "journal: Snow \u263e and \u2014 \u00fc fell \u2766.", "1", "quit")

    def run(*args: str) -> subprocess.CompletedProcess:
        r = subprocess.run([sys.executable, "-m", "storyteller", *args], capture_output=True, env=env, timeout=50)
        assert r.returncode == 0, r.stderr.decode("cp1252", "replace")
        assert b"Traceback" not in r.stderr and b"unexpected error" not in r.stderr
        return r

    run("play", "hexaract", "--seed", "2", "--answers", str(script), "--log", str(log))
    shown = run("replay", str(log), "--show").stdout.decode("cp1252")
    assert "Journal: Snow ? and \u2014 \u00fc fell ?." in shown
    assert "Moons" in shown  # suits in words where their symbols cannot be shown
    assert "Snow ? and" in run("export", str(log), "--story").stdout.decode("cp1252")
    run("sessions")
    assert "\u263e" in log.read_text(encoding="utf-8")  # the log keeps the player's words
    assert b"\r\n" not in log.read_bytes()


def test_a_journal_entry_longer_than_a_log_holds_is_refused_before_anything_is_written(cli, tmp_path):
    from storyteller.log.file import JOURNAL

    path = tmp_path / "long.jsonl"
    r = cli("play", "carddom", "--seed", "3",
            "--answers", answers(tmp_path, "enter 1", "journal: " + "w" * (JOURNAL + 1)),
            "--log", path)
    assert r.code == 2 and "line 2" in r.err and "at most 100,000 characters" in r.err
    assert r.err.count("\n") == 1
    assert [e["event"] for e in read_events(path)[1:] if e["event"] != "question"] == ["draw", "decision", "draw"]
    assert cli("replay", path).code == 0

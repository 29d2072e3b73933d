"""The commands as a user meets them, through Typer's runner."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import read_events

RULE_TEXT = Path(__file__).resolve().parents[2] / "shared" / "rules" / "carddom.txt"


def test_help_lists_every_command(cli):
    r = cli("--help")
    assert r.code == 0
    for command in ("play", "resume", "sessions", "replay", "export", "games", "rules"):
        assert command in r.out


def test_games_lists_carddom_and_its_variants(cli):
    r = cli("games")
    assert r.code == 0
    assert "carddom" in r.out
    assert "--variant jokers=revealed|taken" in r.out
    assert "--variant overlord=back-row|anywhere" in r.out
    assert "--auto random|greedy: " in r.out and "--auto random|greedy|search: " in r.out  # Adaman has a search


def test_auto_takes_any_of_the_games_players_and_names_them_when_refused(cli, tmp_path):
    log = tmp_path / "s.jsonl"
    r = cli("play", "adaman", "--seed", "4", "--auto", "search", "--log", log)
    assert r.code == 0, r.err
    assert cli("replay", log).code == 0
    r = cli("play", "carddom", "--seed", "4", "--auto", "search")
    assert r.code == 2 and "Carddom has no player 'search' for --auto (its players: random, greedy)" in r.err


RULES = RULE_TEXT.parent
OURS = [p for folder in ("prompts", "templates")
        for p in (Path(__file__).resolve().parents[1] / folder).rglob("*") if p.is_file()]


def _copied(text: str, original: str, run: int = 12) -> list[str]:
    words = text.split()
    return [" ".join(words[i : i + run]) for i in range(len(words) - run) if " ".join(words[i : i + run]) in original]


@pytest.mark.parametrize("game", ["carddom", "adaman", "cascades", "hexaract"])
def test_rules_explain_in_our_own_words(cli, game):
    r = cli("rules", game)
    assert r.code == 0
    assert len(r.out.split()) > 150
    source = RULES / f"{game}.txt"
    if not source.exists():
        pytest.skip("the designers' rule texts are not beside this checkout")
    original = " ".join(source.read_text(encoding="utf-8").split())
    assert _copied(r.out, original) == []  # no run of 12 words is pasted from the designer's text


def test_prompts_and_templates_paste_no_rule_text():
    if not RULES.exists():
        pytest.skip("the designers' rule texts are not beside this checkout")
    originals = " ".join(" ".join(p.read_text(encoding="utf-8").split()) for p in RULES.glob("*.txt"))
    for path in OURS:
        assert _copied(path.read_text(encoding="utf-8"), originals) == [], path.name


def test_play_without_a_terminal_fails_at_once_with_advice(cli, home):
    r = cli("play", "carddom", "--seed", "3")
    assert r.code == 2
    assert "--auto random" in r.err and "--answers" in r.err
    assert not (home / "sessions").exists() or not list((home / "sessions").iterdir())


def test_auto_random_plays_to_the_end_and_logs_everything(cli, tmp_path):
    path = tmp_path / "g.jsonl"
    r = cli("play", "carddom", "--seed", "9", "--auto", "random", "--log", path)
    assert r.code == 0, r.err
    assert "seed 9" in r.out and str(path) in r.out
    events = read_events(path)
    header = events[0]
    assert header["game"] == "carddom" and header["seed"] == "9" and header["schema"] == 1
    assert header["variants"] == {"jokers": "revealed", "overlord": "back-row"}
    assert "version" in header and "started" in header
    assert events[1]["event"] == "draw" and events[1]["to"] == "character"
    assert events[-1]["event"] == "end"
    assert [e["n"] for e in events[1:]] == list(range(1, len(events)))
    assert all(e["card"].isascii() for e in events if e.get("event") == "draw")


def test_the_same_seed_plays_the_same_game(cli, tmp_path):
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    for path in (a, b):
        assert cli("play", "carddom", "--seed", "pine-owl-7", "--auto", "random", "--log", path).code == 0
    def strip(p):
        return [{k: v for k, v in e.items() if k not in ("at", "started")} for e in read_events(p)]

    assert strip(a) == strip(b)


def test_a_fresh_seed_is_chosen_and_shown(cli, home):
    r = cli("play", "carddom", "--auto", "random")
    assert r.code == 0
    logs = list((home / "sessions").glob("*.jsonl"))
    assert len(logs) == 1
    seed = read_events(logs[0])[0]["seed"]
    assert f"seed {seed}" in r.out
    assert "carddom" in logs[0].name


def test_unknown_game_is_one_clear_line(cli):
    r = cli("play", "chess", "--auto", "random")
    assert r.code == 2
    assert r.err.strip().count("\n") == 0
    assert "unknown game 'chess'" in r.err and "carddom" in r.err


def test_bad_variants_are_named(cli):
    r = cli("play", "carddom", "--variant", "jokers=eaten", "--auto", "random")
    assert r.code == 2 and "revealed, taken" in r.err
    r = cli("play", "carddom", "--variant", "dragons=yes", "--auto", "random")
    assert r.code == 2 and "no variant 'dragons'" in r.err
    r = cli("play", "carddom", "--variant", "jokers", "--auto", "random")
    assert r.code == 2 and "needs a value" in r.err


def test_a_malformed_seed_is_refused(cli):
    r = cli("play", "carddom", "--seed", "  ", "--auto", "random")
    assert r.code == 2 and "seed" in r.err
    r = cli("play", "carddom", "--seed", "a\x07b", "--auto", "random")
    assert r.code == 2 and "seed" in r.err


def test_bad_auto_value(cli):
    r = cli("play", "carddom", "--auto", "clever")
    assert r.code == 2 and "no player 'clever' for --auto (its players: random, greedy)" in r.err


def test_an_unwritable_log_path_is_one_line(cli, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    r = cli("play", "carddom", "--auto", "random", "--log", blocker / "game.jsonl")
    assert r.code == 1
    assert "cannot write the log" in r.err
    assert "Traceback" not in r.err + r.out


def test_an_existing_log_is_never_overwritten(cli, auto_log):
    path = auto_log("5")
    before = path.read_bytes()
    r = cli("play", "carddom", "--auto", "random", "--log", path)
    assert r.code == 1 and "already exists" in r.err
    assert path.read_bytes() == before


def test_sessions_lists_game_seed_and_status(cli, home):
    assert cli("play", "carddom", "--seed", "11", "--auto", "random").code == 0
    r = cli("sessions")
    assert r.code == 0
    assert "carddom" in r.out and "11" in r.out
    assert any(word in r.out for word in ("won", "lost"))


def test_sessions_with_none_saved_says_how_to_start(cli):
    r = cli("sessions")
    assert r.code == 0 and "storyteller play carddom" in r.out


def test_replay_of_a_good_log_is_one_line_and_exit_zero(cli, auto_log):
    path = auto_log("12")
    r = cli("replay", path)
    assert r.code == 0, r.err
    assert r.out.count("\n") == 1 and r.out.startswith("OK")
    assert "every draw and the outcome match" in r.out


def test_replay_show_steps_through_the_table(cli, auto_log):
    path = auto_log("12")
    r = cli("replay", path, "--show", "--plain")
    assert r.code == 0, r.err
    assert "The realm" in r.out and "Stack 1" in r.out
    assert r.out.rstrip().splitlines()[-1].startswith("OK")


def test_version(cli):
    r = cli("--version")
    assert r.code == 0 and r.out.startswith("storyteller ")


def test_python_dash_m_runs_the_cli():
    import subprocess
    import sys

    r = subprocess.run([sys.executable, "-m", "storyteller", "games"], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and "carddom" in r.stdout


def test_the_log_header_records_variants(cli, tmp_path):
    path = tmp_path / "v.jsonl"
    r = cli("play", "carddom", "--seed", "2", "--variant", "jokers=taken", "--variant", "overlord=anywhere",
            "--auto", "random", "--log", path)
    assert r.code == 0
    header = json.loads(path.read_text().splitlines()[0])
    assert header["variants"] == {"jokers": "taken", "overlord": "anywhere"}


def test_a_full_disk_mid_game_is_one_line_and_keeps_what_was_written(cli, tmp_path, monkeypatch):
    import errno
    import os

    import storyteller.log.file as log_module

    real_fsync = os.fsync
    calls = {"n": 0}

    def failing_fsync(fd):
        calls["n"] += 1
        if calls["n"] > 8:
            raise OSError(errno.ENOSPC, "No space left on device")
        real_fsync(fd)

    monkeypatch.setattr(log_module.os, "fsync", failing_fsync)
    path = tmp_path / "full.jsonl"
    r = cli("play", "carddom", "--seed", "1", "--auto", "random", "--log", path)
    assert r.code == 1
    saved = len(read_events(path)) - 1
    assert saved >= 4
    assert f"the disk is full: saved up to event {saved}; free some space and run storyteller resume {path}" in r.err
    assert r.err.count("\n") == 1 and "Traceback" not in r.err


def test_journal_words_that_look_like_markup_are_shown_as_written(cli, tmp_path):
    answers = tmp_path / "a.txt"
    answers.write_text("journal: [red]not red[/] and [/bold] too\nquit\n")
    path = tmp_path / "m.jsonl"
    assert cli("play", "carddom", "--seed", "7", "--answers", answers, "--log", path).code == 0
    r = cli("replay", path, "--show", "--plain")
    assert r.code == 0, r.err
    assert "[red]not red[/] and [/bold] too" in r.out


def test_games_names_the_player_behind_the_hint(cli):
    # The Hint is the strongest player that answers within a second: Adaman's and
    # Hexaract's search (tests/benchmark.py decisions), Cascades' greedy (its only one).
    r = cli("games")
    assert r.code == 0
    lines = r.out.splitlines()
    adaman = next(i for i, line in enumerate(lines) if line.startswith("adaman"))
    cascades = next(i for i, line in enumerate(lines) if line.startswith("cascades"))
    assert "(search gives the Hint)" in " ".join(lines[adaman:cascades])
    hexaract = next(i for i, line in enumerate(lines) if line.startswith("hexaract"))
    assert "(greedy gives the Hint)" in " ".join(lines[cascades:hexaract])
    assert "(search gives the Hint)" in " ".join(lines[hexaract:])

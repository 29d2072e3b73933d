"""The guided session driven through prompt_toolkit pipe input, and once in a real terminal.

Every test here has a timeout: a prompt waiting for input that never comes must fail,
not hang.
"""

from __future__ import annotations


import io
import os
import sys
from pathlib import Path

import pytest
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput
from rich.console import Console

from conftest import last_of, read_events
from storyteller.log.events import Decision
from storyteller.registry import rules as get_game
from storyteller.log.file import read
from storyteller.play.session import SaveAndQuit, Session
from storyteller.ui.play import PlayerDriver
from storyteller.ui.terminal import Terminal

DOWN = "\x1b[B"
ENTER = "\r"


def run_player(tmp_path: Path, keys: str, seed: str = "7", path: Path | None = None, resume: bool = False):
    game = get_game("carddom")
    path = path or tmp_path / "p.jsonl"
    buffer = io.StringIO()
    console = Console(file=buffer, width=120, no_color=True)
    with create_pipe_input() as pipe:
        pipe.send_text(keys)
        term = Terminal(console=console, input=pipe, output=DummyOutput())
        driver = PlayerDriver(term)
        session = Session.resume(read(path)) if resume else Session.new(game, game.parse_variants([]), seed, path)
        driver.begin(session, resumed=resume)
        result = None
        try:
            result = session.run(driver)
        except SaveAndQuit:
            result = "saved"
        finally:
            session.close()
    return result, path, buffer.getvalue()


def menu_keys(position: int) -> str:
    """Move down ``position`` entries (separators are skipped) and pick."""
    return DOWN * position + ENTER


@pytest.mark.timeout(20)
def test_a_guided_game_with_journal_entries_then_save(tmp_path):
    keys = (
        "I am Tamsin of the forge." + ENTER  # the character's question
        + ENTER  # skip the question before the first move
        + ENTER  # first move: enter at stack 1
        + "Wet leaves everywhere." + ENTER  # the forest's question
        # moves now: explore, take 10C, move 2, move 3 -> "Write a journal entry" is 4 down
        + menu_keys(4) + "A note between moves." + ENTER
        + menu_keys(7) + "y"  # "Undo the last move", below the journal, the oracle and the hint; confirmed
        + menu_keys(0)  # enter at stack 1 again (after the undo, the same card comes back)
        + ENTER  # skip the question
        + menu_keys(9)  # explore, take, move 2, move 3, journal, oracle, hint, undo, rules -> save and quit
    )
    # The menu positions are computed from what the table offers; check them on the screen too.
    result, path, screen = run_player(tmp_path, keys)
    assert result == "saved"
    events = read_events(path)[1:]
    kinds = [e["event"] for e in events]
    assert kinds == ["draw", "question", "journal", "question", "decision", "draw", "question", "journal", "journal",
                     "undo",
                     "decision", "draw", "question"]
    asked = [e for e in events if e["event"] == "question"]
    # never the same twice
    assert asked[2]["about"] == 6 and asked[3]["about"] == 12 and asked[2]["id"] != asked[3]["id"]
    texts = [e["text"] for e in events if e["event"] == "journal"]
    assert texts == ["I am Tamsin of the forge.", "Wet leaves everywhere.", "A note between moves."]
    assert "You are a commoner, and you seek power." in screen
    assert "Stack 1 is a broad forest." in screen
    assert "The realm" in screen and "10♠" in screen
    assert "Taken back: Enter the realm" in screen


@pytest.mark.timeout(20)
def test_resume_shows_the_last_entry_and_goes_on(tmp_path):
    result, path, _ = run_player(tmp_path, "Hello." + ENTER + ENTER + ENTER + ENTER + menu_keys(9))
    assert result == "saved"
    result, path, screen = run_player(tmp_path, menu_keys(0) + ENTER + menu_keys(9), path=path, resume=True)
    assert "Welcome back" in screen and "Hello." in screen
    decisions = [e["action"] for e in read_events(path)[1:] if e["event"] == "decision"]
    assert decisions == ["enter 1", "explore"]


@pytest.mark.timeout(20)
def test_a_branch_just_made_says_where_it_comes_from_then_welcomes_back(tmp_path):
    from storyteller.log.file import LogWriter

    result, old, _ = run_player(tmp_path, "Hello." + ENTER + ENTER + ENTER + ENTER + menu_keys(9))
    log = read(old)
    step = next(e.n for e in log.events if isinstance(e, Decision))
    branch = tmp_path / "branch.jsonl"
    writer = LogWriter.create(branch, log.header.replace(from_log=old.name, from_step=step))
    for e in log.events[:step]:
        writer.append(e)
    writer.close()

    def opening(path):
        buffer = io.StringIO()
        with create_pipe_input() as pipe:
            term = Terminal(console=Console(file=buffer, width=120, no_color=True), input=pipe, output=DummyOutput())
            session = Session.resume(read(path))
            try:
                PlayerDriver(term).begin(session, resumed=True)
            finally:
                session.close()
        return buffer.getvalue()

    screen = opening(branch)
    assert f"Playing on from step {step} of {old.name}: the same deal and the same first 1 move;" in screen
    assert "Welcome back" not in screen
    result, _, _ = run_player(tmp_path, ENTER + menu_keys(9), path=branch, resume=True)  # skip the question, save
    assert result == "saved"
    screen = opening(branch)
    assert "Welcome back" in screen  # once the branch has moves of its own, it is a game like any other


@pytest.mark.timeout(20)
def test_ctrl_c_at_a_prompt_loses_nothing(tmp_path):
    with pytest.raises(KeyboardInterrupt):
        run_player(tmp_path, "Before the storm." + ENTER + "\x03")
    events = read_events(tmp_path / "p.jsonl")
    assert [e["event"] for e in events[-2:]] == ["journal", "question"] and events[-2]["text"] == "Before the storm."


@pytest.mark.timeout(20)
def test_the_end_shows_the_outcome_and_asks_a_last_word(tmp_path):
    game = get_game("carddom")
    path = tmp_path / "end.jsonl"
    buffer = io.StringIO()
    with create_pipe_input() as pipe:
        # overlord=anywhere: skip the character's and the start's questions; face it at once;
        # skip the facing's and the overlord's questions; a last word.
        keys = ENTER + ENTER + menu_keys(2) + ENTER + ENTER + "So it ends." + ENTER + "y"
        pipe.send_text(keys)
        term = Terminal(console=Console(file=buffer, width=120, no_color=True), input=pipe, output=DummyOutput())
        session = Session.new(game, game.parse_variants(["overlord=anywhere"]), "7", path)
        outcome = session.run(PlayerDriver(term))
        session.close()
    screen = buffer.getvalue()
    assert outcome.result == "lost"
    assert "The game is over: lost" in screen
    # a lost deal: the end screen says how to find out whether it could have been won
    assert "Could this deal have been won?" in screen and "storyteller solve" in screen
    # the winning game would go here under a name of its own, not among the saved games
    assert "--log end-won.jsonl" in screen
    events = read_events(path)
    assert [e["event"] for e in events[-3:]] == ["end", "question", "journal"] and events[-1]["text"] == "So it ends."
    assert events[-1]["question"] == events[-2]["n"] and events[-2]["id"].startswith("@lost:")  # the last word, lost
    # then, asked, a quick look at where the game turned, and the full analysis's command
    assert "Where the game turned (a quick look)" in screen and "storyteller analyse" in screen


@pytest.mark.xdist_group("processes")
@pytest.mark.timeout(60)
def test_play_in_a_real_terminal(tmp_path):
    pexpect = pytest.importorskip("pexpect")
    env = dict(os.environ, STORYTELLER_HOME=str(tmp_path / "home"), NO_COLOR="1", TERM="xterm")
    log = tmp_path / "pty.jsonl"
    child = pexpect.spawn(
        sys.executable, ["-m", "storyteller", "play", "carddom", "--seed", "7", "--log", str(log)],
        env=env, timeout=20, encoding="utf-8", dimensions=(50, 250),
    )
    try:
        child.expect("seed 7")
        child.expect("Enter to skip")
        child.send("From the forge." + ENTER)
        child.expect("before your first step")  # the question before the first move
        child.expect("Enter to skip")
        child.send(ENTER)
        child.expect("What do you do")
        child.send(ENTER)  # enter at stack 1
        child.expect("broad forest")
        child.expect("Enter to skip")
        child.send(ENTER)
        child.expect("What do you do")
        child.sendcontrol("c")
        child.expect("storyteller resume")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert child.exitstatus == 130
    events = read_events(log)
    assert last_of(events[:4], "journal")["text"] == "From the forge."
    assert [e["action"] for e in events[1:] if e["event"] == "decision"] == ["enter 1"]


@pytest.mark.xdist_group("processes")
@pytest.mark.timeout(60)
def test_resume_of_a_cut_off_log_asks_before_repairing(tmp_path):
    pexpect = pytest.importorskip("pexpect")
    game = get_game("carddom")
    log = tmp_path / "cut.jsonl"
    session = Session.new(game, game.parse_variants([]), "7", log)
    session.advance()
    session.decide("enter 1")
    session.close()
    whole = log.read_bytes()
    log.write_bytes(whole[:-20])  # the last line is torn
    env = dict(os.environ, STORYTELLER_HOME=str(tmp_path / "home"), NO_COLOR="1", TERM="xterm")
    child = pexpect.spawn(sys.executable, ["-m", "storyteller", "resume", str(log)], env=env, timeout=20,
                          encoding="utf-8", dimensions=(50, 250))
    try:
        child.expect("is cut off")
        child.expect("Continue from the intact part")
        child.send("y")
        child.expect("Enter to skip")  # the torn draw is dealt again, with its question
        child.send(ENTER)
        child.expect("What do you do")
        child.sendcontrol("c")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert child.exitstatus == 130
    assert (tmp_path / "cut.jsonl.cut-off").exists()
    events = read_events(log)
    assert last_of(events, "draw")["card"] == "10C" and events[-1]["event"] == "question"


@pytest.mark.timeout(20)
def test_the_hint_names_its_move_in_a_sentence_and_says_why(tmp_path):
    keys = ("Hello." + ENTER + ENTER + ENTER + ENTER  # the character, the first question, enter at stack 1, the forest
            + menu_keys(6)  # explore, take, move 2, move 3, journal, undo -> the hint
            + menu_keys(9))  # ... -> save and quit
    result, _, screen = run_player(tmp_path, keys)
    assert result == "saved"
    start = screen.index("─ Hint ")
    panel = screen[start:screen.index("╰", start)].splitlines()
    move, *why = (line.strip("│ ") for line in panel[1:])
    assert move == "Move on to stack 3 (row 2, left; unexplored)."  # the move, as a sentence
    assert " ".join(why).endswith("would add a rank or a suit if found there."), panel


@pytest.mark.timeout(20)
def test_undo_asks_before_it_takes_a_move_back(tmp_path):
    """Undo sits apart from the journal and asks first: a slip of the arrow key loses nothing."""
    keys = (ENTER + ENTER + ENTER + ENTER  # skip two questions, enter at stack 1, skip its question
            + menu_keys(7) + "n"  # "Undo the last move"... no
            + menu_keys(9))  # save and quit
    result, path, screen = run_player(tmp_path, keys)
    assert result == "saved"
    assert "Taken back" not in screen  # (the prompts go to prompt_toolkit's output, not the console)
    events = read_events(path)[1:]
    assert "undo" not in [e["event"] for e in events] and last_of(events, "decision")["action"] == "enter 1"


@pytest.mark.timeout(20)
def test_after_the_oracle_the_player_says_what_it_means_and_the_story_keeps_it(tmp_path, cli):
    keys = (ENTER + ENTER + ENTER + ENTER  # skip two questions, enter at stack 1, skip its question
            + menu_keys(5) + "Is the <ford> guarded?" + ENTER + ENTER  # the oracle, almost certain
            + "The *ford* is watched: I go round." + ENTER  # what the answer means
            + menu_keys(9))
    result, path, _ = run_player(tmp_path, keys)
    assert result == "saved"
    events = read_events(path)[1:]
    oracle = last_of(events, "oracle")
    asked, entry = events[-2:]
    assert asked["event"] == "question" and asked["about"] == oracle["n"]
    assert asked["text"] == "What does that answer mean for your story?"
    assert entry["event"] == "journal" and entry["question"] == asked["n"] and entry["prompt"] == asked["text"]
    story = cli("export", path, "--story", "-o", "-").out
    said, meaning, words = (story.find(w) for w in ("Is the \\<ford", "*What does that answer mean",
                                                      "> The \\*ford\\* is watched"))
    assert 0 <= said < meaning < words
    assert cli("replay", path, "--plain").code == 0  # the question is one the game asks there: no note
    assert "not one the game asks" not in cli("replay", path, "--plain").out

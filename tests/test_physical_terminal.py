"""A real table, played in a real terminal (pexpect): typing cards with completion, a
refused duplicate, a correction, an undo over a card already turned up, Ctrl-C and
resume, and dice entry. Every test has a timeout: a prompt waiting for input must fail,
not hang."""

from __future__ import annotations

import os
import re
import sys

import pytest
from conftest import read_events

pytestmark = pytest.mark.xdist_group("processes")  # real terminals and processes: one at a time

pexpect = pytest.importorskip("pexpect")

ENTER = "\r"
TAB = "\t"
DOWN = "\x1b[B"
CLEAR_LINE = "\x15"  # Ctrl-U
CLOSED = "\x1b[?2004l"  # what prompt_toolkit writes when a prompt is answered


def refused(child, log, accepted: str) -> list[str]:
    """Wait to see an answer refused: the prompt stays (prompt_toolkit redraws its reason
    in place, skipping letters already on screen, so the words cannot be matched), nothing
    is ``accepted``; returns the cards logged so far."""
    assert child.expect([accepted, pexpect.TIMEOUT], timeout=2) == 1, "the answer was taken"
    return [e["card"] for e in read_events(log)[1:] if e["event"] == "draw"]


def spawn(tmp_path, *args: str):
    env = dict(os.environ, STORYTELLER_HOME=str(tmp_path / "home"), NO_COLOR="1", TERM="xterm")
    return pexpect.spawn(sys.executable, ["-m", "storyteller", *args], env=env, timeout=20, encoding="utf-8",
                         dimensions=(60, 250))


def pick(child, downs: int) -> None:
    """Choose the menu entry ``downs`` lines below the first (separators are skipped), once
    the whole menu is drawn (keys sent earlier would reach the prompt before it)."""
    child.expect("Abandon this game")
    child.send(DOWN * downs + ENTER)


def skip_questions(child, until: str) -> str:
    """Press Enter at every journaling question until ``until`` shows; returns what came before it."""
    seen = ""
    while child.expect(["Enter to skip", until]) == 0:
        seen += child.before
        child.send(ENTER)
        child.expect(re.escape(CLOSED))  # that question is over (it may have been drawn twice)
    return seen + child.before


@pytest.mark.timeout(90)
def test_a_real_table_in_a_real_terminal(tmp_path):
    log = tmp_path / "table.jsonl"
    child = spawn(tmp_path, "play", "carddom", "--physical", "--seed", "7", "--log", str(log))
    try:
        child.expect("Set up your table")
        child.expect(r"Which card did you turn up \(character\)\?")
        child.send("queen of he")
        child.expect(r"arts \(QH\)")  # the completion menu offers the Queen of Hearts
        child.send(TAB)  # completion finishes the name
        child.expect(r"Queen of Hearts \(QH\)")
        child.send(ENTER)
        child.expect("Drew the Queen of Hearts as the character")
        skip_questions(child, "What do you do")
        pick(child, 0)  # enter the realm at stack 1
        child.expect("Which card did you turn up")
        child.send("QH" + ENTER)  # the character: it cannot be there too
        assert refused(child, log, "Revealed the") == ["QH"]  # refused: nothing revealed, nothing logged
        child.send(CLEAR_LINE + "7s" + ENTER)
        child.expect("Revealed the 7 of Spades as the location of stack 1")
        skip_questions(child, "What do you do")
        pick(child, 7)  # Explore, Move, Move, (line), Journal, Oracle, Hint, (line), Undo, "I entered the wrong card"
        child.expect("Enter what you really turned up")
        child.send("8 of spades" + ENTER)
        child.expect("Revealed the 8 of Spades as the location of stack 1")
        skip_questions(child, "What do you do")
        pick(child, 0)  # explore
        child.expect("Which card did you turn up")
        child.send("jack of clubs" + ENTER)
        child.expect("Revealed the Jack of Clovers as the people of stack 1")
        skip_questions(child, "What do you do")
        pick(child, 6)  # undo the explore (three moves, the journal, the oracle, the hint, then undo)...
        child.expect("Take back your last move")
        child.send("y")  # ...once asked
        child.expect("will not ask for them again")
        child.expect("What do you do")
        pick(child, 0)  # explore again: the Jack of Clovers is already known
        child.expect("Revealed the Jack of Clovers as the people of stack 1")
        assert "Which card did you turn up" not in child.before
        skip_questions(child, "What do you do")
        child.sendcontrol("c")
        child.expect("storyteller resume")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert child.exitstatus == 130
    events = read_events(log)[1:]
    assert [e["card"] for e in events if e["event"] == "draw"] == ["QH", "7S", "JC", "JC"]
    assert [(e["event"], e.get("card")) for e in events if e["event"] == "correction"] == [("correction", "8S")]

    child = spawn(tmp_path, "resume", str(log))
    try:
        child.expect("check that your real table matches it")
        child.expect("8♠|8 of Spades")
        child.expect("What do you do")
        child.sendcontrol("c")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert child.exitstatus == 130


@pytest.mark.timeout(60)
def test_dice_rolled_at_a_real_table(tmp_path):
    log = tmp_path / "dice.jsonl"
    child = spawn(tmp_path, "play", "hexaract", "--physical", "dice", "--seed", "2", "--log", str(log))
    try:
        skip_questions(child, r"What did you roll\?")
        child.send("3 5 6" + ENTER)
        refused(child, log, "rolled")
        assert not [e for e in read_events(log)[1:] if e["event"] == "roll"]
        child.send(CLEAR_LINE + "35612" + ENTER)
        child.expect("rolled 3 5 6 1 2")
        skip_questions(child, "What do you do")
        child.sendcontrol("c")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    rolls = [e for e in read_events(log)[1:] if e["event"] == "roll"]
    assert [(r["dice"], r["by"]) for r in rolls] == [([3, 5, 6, 1, 2], "player")]

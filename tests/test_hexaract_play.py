"""Hexaract at the prompt, from scripts and as a story.

Seed 22 is a short game: turn 1 rolls 3 3 1 1 6 against the Pact (9), the Mountain (4)
and the Sea (Crown), and the greedy player loses to harm on turn 7.
"""

from __future__ import annotations


import helpers
import pytest

from conftest import read_events
from helpers import play_one_move
from storyteller.telling.export import render
from storyteller.log.file import read
from storyteller.registry import rules as get_game
from storyteller.play.session import Session

DOWN, ENTER = "\x1b[B", "\r"
SEED = "22"


def questions_before_first_move(seed: str) -> int:
    """How many journaling questions the deal asks before the first decision."""
    return helpers.questions_before_first_move("hexaract", seed)


def test_auto_greedy_plays_hexaract_to_the_end_and_replays(cli, tmp_path):
    path = tmp_path / "g.jsonl"
    r = cli("play", "hexaract", "--seed", SEED, "--auto", "greedy", "--log", path)
    assert r.code == 0, r.err
    events = read_events(path)[1:]
    end = events[-1]
    assert end["event"] == "end" and end["result"] in ("won", "lost")
    assert isinstance(end["score"], int)
    rolls = [e for e in events if e["event"] == "roll"]
    assert rolls and all(len(e["dice"]) == 5 for e in rolls)
    assert "Turn 1: rolled 3 3 1 1 6." in r.out
    assert "Score:" in r.out
    assert cli("replay", path).code == 0


def test_an_illegal_couplet_names_the_rule_and_logs_nothing(cli, tmp_path):
    answers = tmp_path / "ans.txt"
    answers.write_text("assign 3+3 mountain moons\n")  # 3+3 is 6, the Mountain is a 4
    path = tmp_path / "i.jsonl"
    r = cli("play", "hexaract", "--seed", SEED, "--answers", answers, "--log", path)
    assert r.code == 2
    assert "sum must equal the card's rank (4)" in r.err
    assert not [e for e in read_events(path)[1:] if e["event"] == "decision"]
    # a second spend in one turn is refused with its own rule
    answers.write_text("spend waves sea ace-of-leaves\nspend knots sea\n")
    r = cli("play", "hexaract", "--seed", SEED, "--answers", answers, "--log", tmp_path / "j.jsonl")
    assert r.code == 2
    assert "only one token from your supply may be spent per turn" in r.err


def test_undo_never_rolls_the_dice_again(tmp_path):
    game = get_game("hexaract")
    session = Session.new(game, {}, SEED, tmp_path / "u.jsonl")
    session.advance()
    first = session.state.roll
    assert first == (3, 3, 1, 1, 6)
    move = next(a for a in session.legal_actions() if a.key.startswith("assign "))
    session.decide(move)
    session.undo()
    assert session.state.roll == first and not any(session.state.used)
    session.decide("done")
    second = session.state.roll
    session.undo()  # taking back the end of the turn returns to the same dice
    assert session.state.roll == first
    session.decide("done")
    assert session.state.roll == second  # and the next turn rolls the same dice again
    session.close()
    rolls = [e["dice"] for e in read_events(tmp_path / "u.jsonl")[1:] if e["event"] == "roll"]
    assert rolls == [list(first), list(second), list(second)]


def test_the_story_keeps_the_journal_verbatim_and_renders_the_same_every_time(cli, tmp_path):
    words = [
        "The old queen sent me; she kept something back about the Wyrms piece.",
        'The Pact smells of wax and "promises" *nobody* meant.',
        "A note between turns: two Crowns ahead, no dice for them.",
        "Never again without a Waves piece in reserve.",
    ]
    answers = tmp_path / "story.txt"
    answers.write_text(
        f"journal: {words[0]}\njournal: {words[1]}\n"
        "assign 6+3 mountain moons\nassign 3+1 mountain suns\nspend waves sea ace-of-leaves\n"
        f"journal: {words[2]}\ndone\nabandon\njournal: {words[3]}\n"
    )
    path = tmp_path / "s.jsonl"
    r = cli("play", "hexaract", "--seed", SEED, "--answers", answers, "--log", path)
    assert r.code == 0, r.err
    story = render(read(path), "story")
    assert story == render(read(path), "story")
    from markdown_it import MarkdownIt

    shown = MarkdownIt("commonmark").render(story)
    for text in words:  # each in its block quote, read as typed (not as emphasis)
        typed = text.replace('"', "&quot;")
        assert f"<blockquote>\n<p>{typed}</p>\n</blockquote>" in shown
    assert "the Mountain" in story and "Ace of Leaves" in story
    assert "## The ending" in story and "abandoned" in story
    playthrough = render(read(path), "playthrough")
    assert "Turn 1: rolled 3 3 1 1 6." in playthrough
    assert "The Pact (9) finds no matching token." in playthrough


def play_once(tmp_path, keys: str):
    events, screen = play_one_move("hexaract", SEED, keys, tmp_path / "p.jsonl")
    return [e for e in events if e["event"] == "decision"], screen


@pytest.mark.timeout(20)
def test_the_table_then_a_card_then_its_couplet_at_the_prompt(tmp_path):
    # the menu groups the Mountain's six couplets: pick the card, then the first couplet
    keys = ENTER * questions_before_first_move(SEED) + ENTER + ENTER + ENTER * 4
    decided, screen = play_once(tmp_path, keys)
    assert [e["action"] for e in decided] == ["assign 6+3 mountain moons"]
    assert decided[0]["text"] == "6 as 1 + 3 to the Mountain (4), placing a Moons token"
    assert "The journey (turn 1)" in screen
    assert "the Mountain 4" in screen and "location, rank 4" in screen
    assert "Roll: 3 3 1 1 6" in screen and "couplets 0 of 2" in screen
    assert "Ace rewards" in screen and "Still missing: ☾ Moons, ☀ Suns, ❦ Leaves" in screen
    assert "0 of 10" in screen and "Deck: 27 cards left" in screen


@pytest.mark.timeout(20)
def test_ending_the_turn_shows_its_consequences_before_the_refill(tmp_path):
    # menu: the Mountain's couplets, the spends, then "Done assigning"
    keys = ENTER * questions_before_first_move(SEED) + DOWN * 2 + ENTER + ENTER * 6
    decided, screen = play_once(tmp_path, keys)
    assert [e["action"] for e in decided] == ["done"]
    panel = screen.index("Consequences of inaction")
    assert screen.index("The Pact (9) finds no matching token.") > panel
    assert "Exhausted now, 1 harm a turn until surveyed: the Mountain (4), the Sea (Crown)." in screen
    assert screen.index("Turn 2: rolled 3 5 1 5 4.") > panel  # the next turn comes after

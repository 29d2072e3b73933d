"""Play at a real table: the player's own cards and dice, entered, checked against the
deck and the rules, corrected, recorded and replayed like any game."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import read_events

from storyteller.log.file import read
from storyteller.log.replay import walk

GAMES = ["carddom", "adaman", "cascades", "hexaract"]


def write(path: Path, *lines: str) -> Path:
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def as_answers(log: Path) -> list[str]:
    """A seeded game turned into what a player at a real table would type."""
    out = []
    for e in read_events(log)[1:]:
        if e["event"] == "draw":
            out.append(f"draw {e['card']}")
        elif e["event"] == "roll":
            out.append("roll " + " ".join(map(str, e["dice"])))
        elif e["event"] == "decision":
            out.append(e["action"])
    return out


def story_lines(cli, log: Path, kind: str = "story") -> list[str]:
    r = cli("export", log, f"--{kind}")
    assert r.code == 0, r.err
    return r.out.splitlines()


@pytest.mark.parametrize("game", GAMES)
def test_a_seeded_game_typed_in_at_a_real_table_is_the_same_game(cli, tmp_path, game):
    seeded = tmp_path / "seeded.jsonl"
    assert cli("play", game, "--seed", "5", "--auto", "random", "--log", seeded).code == 0
    physical = tmp_path / "physical.jsonl"
    script = write(tmp_path / "table.txt", *as_answers(seeded))
    r = cli("play", game, "--physical", "--seed", "5", "--answers", script, "--log", physical)
    assert r.code == 0, r.err
    header = read_events(physical)[0]
    assert header["source"] == ("physical" if game == "hexaract" else "physical cards")
    entered = [e for e in read_events(physical)[1:] if e["event"] in ("draw", "roll")]
    assert entered and all(e["by"] == "player" for e in entered)
    a, b = walk(read(seeded)), walk(read(physical))
    assert (a.outcome, a.state.places()) == (b.outcome, b.state.places())
    replayed = cli("replay", physical)
    assert replayed.code == 0 and "checked against the rules, not against a shuffle" in replayed.out
    differ = [(x, y) for x, y in zip(story_lines(cli, seeded), story_lines(cli, physical)) if x != y]
    assert len(differ) == 1 and "seed `5`" in differ[0][0] and "real table" in differ[0][1]
    playthrough = "\n".join(story_lines(cli, physical, "playthrough"))
    assert "no seed can deal this game again" in playthrough and "storyteller play" not in playthrough


def test_hexaract_with_real_dice_and_dealt_cards(cli, tmp_path):
    seeded = tmp_path / "seeded.jsonl"
    assert cli("play", "hexaract", "--seed", "8", "--auto", "random", "--log", seeded).code == 0
    rolls_and_moves = [line for line in as_answers(seeded) if not line.startswith("draw ")]
    physical = tmp_path / "dice.jsonl"
    r = cli("play", "hexaract", "--physical", "dice", "--seed", "8",
            "--answers", write(tmp_path / "d.txt", *rolls_and_moves),
            "--log", physical)
    assert r.code == 0, r.err
    events = read_events(physical)
    assert events[0]["source"] == "physical dice"
    assert all("by" in e for e in events[1:] if e["event"] == "roll")
    assert all("by" not in e for e in events[1:] if e["event"] == "draw")  # the cards came from the seed
    assert walk(read(physical)).outcome == walk(read(seeded)).outcome
    assert "dice from a real table, cards dealt from seed `8`" in cli("export", physical, "--story").out


def test_hexaract_with_real_cards_and_rolled_dice_is_told_only_about_the_cards(cli, tmp_path):
    """With --physical cards storyteller rolls the dice: the start words tell of the cards
    to lay out, never of dice to bring or roll."""
    seeded = tmp_path / "seeded.jsonl"
    assert cli("play", "hexaract", "--seed", "8", "--auto", "random", "--log", seeded).code == 0
    cards_and_moves = [line for line in as_answers(seeded) if not line.startswith("roll ")]
    r = cli("play", "hexaract", "--physical", "cards", "--seed", "8",
            "--answers", write(tmp_path / "c.txt", *cards_and_moves),
            "--log", tmp_path / "cards.jsonl")
    assert r.code == 0, r.err
    start = r.out.split("Log: ", 1)[1].split("\n", 2)[1]
    assert "36 basic cards" in start and "storyteller rolls the dice" in start
    assert "six-sided" not in r.out and "Roll the five dice" not in r.out
    both = cli("play", "hexaract", "--physical", "--answers", write(tmp_path / "q.txt", "quit"),
               "--log", tmp_path / "b.jsonl")
    assert "five six-sided dice" in both.out


def test_a_card_that_cannot_be_there_is_refused_with_the_reason_and_nothing_is_logged(cli, tmp_path):
    log = tmp_path / "refused.jsonl"
    for typed, reason in [
        ("draw kingg of hearts", "did you mean the King of Hearts?"),
        ("draw excuse", "not in this game's deck"),
        ("draw 10 of clovers", "already on the table"),
    ]:
        r = cli("play", "carddom", "--physical", "--answers", write(tmp_path / "a.txt", "draw 10C", "enter 1", typed),
                "--log", log)
        assert r.code == 2 and reason in r.err and "line 3" in r.err, r.err
        assert [e.get("card") for e in read_events(log)[1:] if e["event"] == "draw"] == ["10C"]
        assert r.err.count("\n") == 1
        log.unlink()


def test_dice_must_be_five_values_from_one_to_six(cli, tmp_path):
    log = tmp_path / "dice.jsonl"
    for typed, reason in [("roll 3 5 6", "five dice, please"), ("roll 3 5 6 1 7", "a die shows 1 to 6")]:
        r = cli("play", "hexaract", "--physical", "dice", "--seed", "2", "--answers", write(tmp_path / "a.txt", typed),
                "--log", log)
        assert r.code == 2 and reason in r.err, r.err
        assert not any(e["event"] == "roll" for e in read_events(log)[1:])
        log.unlink()


def test_a_typo_is_corrected_before_the_next_move_and_both_stay_in_the_log(cli, tmp_path):
    log = tmp_path / "typo.jsonl"
    script = write(tmp_path / "a.txt", "draw QH", "correct KH", "enter 1", "draw 7S", "correct 8S", "explore",
                   "draw 9C", "quit")
    r = cli("play", "carddom", "--physical", "--answers", script, "--log", log)
    assert r.code == 0, r.err
    events = read_events(log)[1:]
    corrections = [e for e in events if e["event"] == "correction"]
    seven = next(e["n"] for e in events if e["event"] == "draw" and e["card"] == "7S")
    assert [(c["of"], c["card"]) for c in corrections] == [(1, "KH"), (seven, "8S")]
    w = walk(read(log))
    assert w.state.character == "KH" and w.state.stacks[0][:2] == ["8S", "9C"]
    playthrough = cli("export", log, "--playthrough").out
    assert "*(corrected)*" in playthrough and "Correction of step 1" in playthrough
    story = cli("export", log, "--story").out
    assert "Queen of Hearts" not in story and "7 of Spades" not in story


def test_after_a_move_a_correction_needs_an_undo_first(cli, tmp_path):
    log = tmp_path / "late.jsonl"
    r = cli("play", "carddom", "--physical",
            "--answers", write(tmp_path / "a.txt", "draw QH", "enter 1", "draw 7S", "explore",
                                                                  "correct KH"), "--log", log)
    assert r.code == 2 and "undo the move first" in r.err
    assert not any(e["event"] == "correction" for e in read_events(log)[1:])


def test_a_card_already_turned_up_is_not_asked_for_again_after_an_undo(cli, tmp_path):
    log = tmp_path / "undo.jsonl"
    # enter 1 reveals stack 1's location (7S); undo; enter 1 again: 7S is reused, not asked for.
    script = write(tmp_path / "a.txt", "draw QH", "enter 1", "draw 7S", "undo", "enter 1", "explore", "draw 9C", "quit")
    r = cli("play", "carddom", "--physical", "--answers", script, "--log", log)
    assert r.code == 0, r.err
    draws = [e["card"] for e in read_events(log)[1:] if e["event"] == "draw"]
    assert draws == ["QH", "7S", "7S", "9C"]
    assert cli("replay", log).code == 0


def test_a_joker_character_asks_for_a_fresh_shuffle(cli, tmp_path):
    log = tmp_path / "joker.jsonl"
    r = cli("play", "carddom", "--physical",
            "--answers", write(tmp_path / "a.txt", "draw joker", "draw JK2", "draw KS", "quit"),
            "--log", log)
    assert r.code == 0, r.err
    assert "all 34" in r.out  # the setup words for a reshuffle
    assert [e["card"] for e in read_events(log)[1:] if e["event"] == "draw"] == ["JK1", "JK2", "KS"]


def test_replay_refuses_a_physical_log_with_a_card_twice_or_a_card_not_in_the_deck(cli, tmp_path):
    log = tmp_path / "p.jsonl"
    assert cli("play", "carddom", "--physical",
               "--answers", write(tmp_path / "a.txt", "draw QH", "enter 1", "draw 7S", "quit"),
               "--log", log).code == 0
    records = read_events(log)
    seven = next(r["n"] for r in records[1:] if r.get("card") == "7S")
    for card, reason in [("QH", "cannot be there now"), ("watchman", "cannot be there now")]:
        edited = [dict(r, card=card) if r.get("n") == seven else r for r in records]
        log.write_text("".join(json.dumps(r) + "\n" for r in edited), encoding="utf-8")
        r = cli("replay", log)
        assert r.code == 1 and f"line {seven + 1}:" in r.err and reason in r.err, r.err


def test_a_physical_game_needs_a_terminal_or_answers_and_no_auto(cli, tmp_path):
    r = cli("play", "carddom", "--physical")
    assert r.code == 2 and "real table needs a terminal" in r.err
    r = cli("play", "carddom", "--physical", "--auto", "random")
    assert r.code == 2 and "--auto cannot" in r.err
    r = cli("play", "carddom", "--physical", "dice", "--answers", write(tmp_path / "a.txt", "quit"))
    assert r.code == 2 and "uses no dice" in r.err


@pytest.mark.parametrize("game", GAMES)
def test_rules_say_how_to_set_up_a_real_table(cli, game):
    r = cli("rules", game, "--setup")
    assert r.code == 0 and "Setting up" in r.out and "huffle" in r.out


def test_a_journal_entry_about_a_corrected_card_answers_its_question(cli, tmp_path):
    log = tmp_path / "fixed.jsonl"
    script = write(tmp_path / "a.txt", "draw QH", "correct KH", "journal: A king, then.", "enter 1", "draw 7S", "quit")
    r = cli("play", "carddom", "--physical", "--answers", script, "--log", log)
    assert r.code == 0, r.err
    events = read_events(log)[1:]
    entry = next(e for e in events if e["event"] == "journal")
    correction = next(e for e in events if e["event"] == "correction")
    assert entry["about"] == correction["n"] and entry["prompt"]  # the correction is the card it is about
    asked = next(e for e in events if e["n"] == entry["question"])
    assert asked["about"] == correction["n"] and asked["id"] == "character:KH:0"
    replayed = cli("replay", log)
    assert replayed.code == 0 and "note:" not in replayed.out
    assert "A king, then." in cli("export", log, "--story").out


def test_dice_already_rolled_stay_rolled_after_an_undo(cli, tmp_path):
    log = tmp_path / "dice-undo.jsonl"
    script = write(tmp_path / "a.txt", "roll 3 5 6 1 2", "done", "roll 1 1 1 1 1", "undo", "done", "quit")
    r = cli("play", "hexaract", "--physical", "dice", "--seed", "2", "--answers", script, "--log", log)
    assert r.code == 0, r.err
    rolls = [e["dice"] for e in read_events(log)[1:] if e["event"] == "roll"]
    assert rolls == [[3, 5, 6, 1, 2], [1, 1, 1, 1, 1], [1, 1, 1, 1, 1]]  # the second turn's dice were not asked again
    assert cli("replay", log).code == 0

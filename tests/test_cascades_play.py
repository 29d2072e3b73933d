"""Cascades at the prompt, from scripts and as a story."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from conftest import read_events
from helpers import play_one_move
from storyteller.registry import rules as get_game
from storyteller.telling.export import render
from storyteller.log.file import read
from storyteller.core.sources import SeededSource
from storyteller.ui.terminal import Terminal

ENTER = "\r"
STALLED = "7119"  # turned alone, all three reserves open with nothing that can ever be played
GREEDY_LOSES = "237"  # a deal the built-in player loses, two cards short (its first card is the End)


def opening(seed: str):
    """A seeded Cascades deal after its forced first turn."""
    game = get_game("cascades")
    variants = game.parse_variants([])
    state = game.new_state(variants)
    source = SeededSource(seed, game, variants)
    while state.chance() is not None:
        state.resolve(source.resolve(state.chance()))
    return state


def decisions(path) -> list[dict]:
    return [e for e in read_events(path)[1:] if e["event"] == "decision"]


@pytest.mark.parametrize("seed, result", [("1", "won"), (GREEDY_LOSES, "lost")])
def test_auto_greedy_plays_cascades_to_the_end_and_replays(cli, tmp_path, seed, result):
    path = tmp_path / "g.jsonl"
    r = cli("play", "cascades", "--seed", seed, "--auto", "greedy", "--log", path)
    assert r.code == 0, r.err
    end = read_events(path)[-1]
    assert end["event"] == "end" and end["result"] == result
    assert f"The game is over: {result}." in r.out
    assert "Turned three; the third," in r.out and "starts tier 1" in r.out
    assert "> Turn three" in r.out and "> Play the " in r.out
    again = cli("replay", path)
    assert again.code == 0 and "match" in again.out


def test_a_stalled_deal_ends_as_soon_as_the_last_reserve_opens(cli, tmp_path):
    # Turning alone through three passes: the moment the bottom reserve opens, nothing
    # left can ever be played, and the game says so without another turn.
    answers = tmp_path / "turns.txt"
    answers.write_text("turn\n" * 26)
    path = tmp_path / "s.jsonl"
    r = cli("play", "cascades", "--seed", STALLED, "--answers", answers, "--log", path)
    assert r.code == 0, r.err
    events = read_events(path)[1:]
    moves = [e for e in events if e["event"] == "decision"]
    assert len(moves) == 26
    assert moves[-1]["text"].endswith("opening the bottom reserve")
    # the bottom reserve's card is the last thing turned up; the game ends right there
    played = [e for e in events if e["event"] != "question"]  # (its question, and the last word's, are asked too)
    assert [e["event"] for e in played[-2:]] == ["draw", "end"] and played[-2]["to"] == "reserve 3"
    assert played[-1]["result"] == "lost"
    assert "no card left can ever be played: 1 of 36" in r.out


def test_an_illegal_answer_names_the_rule_and_logs_nothing_illegal(cli, tmp_path):
    state = opening("2")
    assert state.waste_top == "ace-of-leaves" and state.end(1) == "huntress"
    answers = tmp_path / "ans.txt"
    answers.write_text("journal: The spring is cold.\nplay ace-of-leaves from waste to tier 2\n")
    path = tmp_path / "i.jsonl"
    r = cli("play", "cascades", "--seed", "2", "--answers", answers, "--log", path)
    assert r.code == 2
    assert "goes on tier 2 only once tier 1 holds one" in r.err
    assert not decisions(path)
    answers.write_text("play ace-of-leaves from waste to tier 1\n")
    r = cli("play", "cascades", "--seed", "2", "--answers", answers, "--log", tmp_path / "j.jsonl")
    assert r.code == 2 and "shares no suit with the Huntress (Crown, Moons) at the end of tier 1" in r.err


def test_the_story_keeps_journal_entries_verbatim_and_renders_the_same(cli, tmp_path):
    # a greedy game it loses, replayed from an answers file with journal entries,
    # a play taken back and made again, and a last word after the end
    greedy = tmp_path / "g.jsonl"
    assert cli("play", "cascades", "--seed", GREEDY_LOSES, "--auto", "greedy", "--log", greedy).code == 0
    keys = [e["action"] for e in decisions(greedy)]
    first_play = next(i for i, k in enumerate(keys) if k.startswith("play ") and "from waste" in k)
    source = "Cold water rises under the End's feet: a spring \"nobody\" was meant to find."
    note = "Round and round; the pools are still shut.\n\nSecond paragraph."
    last = "It stopped two cards short of the sea."
    lines = [f"journal: {source}"]
    for i, key in enumerate(keys):
        lines.append(key)
        if i == 3:
            lines.append(f"journal: {note.splitlines()[0]}")
        if i == first_play:
            lines += ["undo", key]
    lines.append(f"journal: {last}")
    answers = tmp_path / "ans.txt"
    answers.write_text("\n".join(lines) + "\n")
    path = tmp_path / "story.jsonl"
    r = cli("play", "cascades", "--seed", GREEDY_LOSES, "--answers", answers, "--log", path)
    assert r.code == 0, r.err
    log = read(path)
    assert [e.text for e in log.journal()] == [source, note.splitlines()[0], last]
    story = render(log, "story")
    assert story == render(read(path), "story")
    assert f"> {source}" in story and f"> {note.splitlines()[0]}" in story
    assert story.index("## The ending") < story.index(f"> {last}")
    assert story.index("## The source") < story.index(f"> {source}") < story.index("## The way down")
    played = keys[first_play].split()[1]
    from storyteller.core import decktet

    from storyteller.registry import get

    way_down = story[story.index("## The way down") : story.index("## The three falls")]
    introduced = f"{decktet.name(played)}, {get('cascades').prompt_data['cards'][played]['by']}"
    assert way_down.count(introduced) == 1  # the play taken back is told once (later named as the card it led to)
    assert "# Where the water stilled" in story and "34 of 36 cards placed" in story
    playthrough = render(log, "playthrough")
    assert "### Pass 1" in playthrough and "### Pass 4" in playthrough
    assert "*(taken back)*" in playthrough and "Turned three; the third, the End" in playthrough


def test_a_question_asked_of_the_oracle_on_the_way_down_is_told_there(cli, tmp_path):
    # an oracle beat has no text of its own: the tale keeps it as it is among its paragraphs
    greedy = tmp_path / "g.jsonl"
    assert cli("play", "cascades", "--seed", GREEDY_LOSES, "--auto", "greedy", "--log", greedy).code == 0
    keys = [e["action"] for e in decisions(greedy)]
    answers = tmp_path / "ans.txt"
    lines = [*keys[:4], "oracle likely: Will the water find the sea?", *keys[4:8], "quit"]
    answers.write_text("\n".join(lines) + "\n")
    path = tmp_path / "oracle.jsonl"
    assert cli("play", "cascades", "--seed", GREEDY_LOSES, "--answers", answers, "--log", path).code == 0
    story = render(read(path), "story")
    way_down = story[story.index("## The way down") : story.index("## The three falls")]
    assert "You asked the oracle (likely): *Will the water find the sea?*" in way_down
    assert "Will the water find the sea?" in render(read(path), "story", format="html")


@pytest.mark.timeout(20)
def test_the_table_and_a_turn_at_the_prompt(tmp_path):
    # the source's question, the question before the first move (skipped), then the first
    # move (only "Turn three" is legal), then stop
    keys = "A spring under the archer's feet." + ENTER + ENTER + ENTER
    events, screen = play_one_move("cascades", "2", keys, tmp_path / "p.jsonl")
    assert [e["action"] for e in events if e["event"] == "decision"] == ["turn"]
    journal = [e for e in events if e["event"] == "journal"]
    assert [e["text"] for e in journal] == ["A spring under the archer's feet."]
    assert journal[0]["prompt"]  # it answered the source's question
    for words in ("Tier 1", "the first fall", "Tier 3", "the Huntress Crown", "Still lacks", "Takes now",
                  "Waste:", "Stock: 24 cards", "Pass: 1", "Top: closed (opens next)"):
        assert words in screen, words
    assert "Where the water rises:" in screen


def test_the_plain_table_names_cards_in_words():
    from storyteller import registry

    state = opening("2")
    buffer = io.StringIO()
    term = Terminal(plain=True, console=Console(file=buffer, width=140, no_color=True))
    term.print(registry.get("cascades").view.table(state, term))
    screen = buffer.getvalue()
    assert "the Huntress (Crown, Moons)" in screen and "the Ace of Leaves (Ace, Leaves) on top" in screen
    assert "2 3 4 5 6 7 8 9, 2 Aces, Crown" in screen  # tier 1 holds one Crown already


def test_each_step_of_the_export_context_knows_its_pass(cli, tmp_path):
    import json

    from storyteller.telling.context import context

    path = tmp_path / "g.jsonl"
    assert cli("play", "cascades", "--seed", GREEDY_LOSES, "--auto", "greedy", "--log", path).code == 0
    ctx = context(read(path))
    json.dumps(ctx)  # plain data all through
    passes = [s["pass"] for s in ctx["steps"]]
    assert passes[0] == 1 and passes == sorted(passes) and passes[-1] == ctx["story"]["passes"] > 3
    assert ctx["outcome"]["cause"] == "stalled"
    plays = [s["move"] for s in ctx["steps"] if s["kind"] == "decision" and s["move"]["type"] == "play"]
    assert plays and all(set(m) == {"type", "key", "card", "tier", "reserve"} for m in plays)

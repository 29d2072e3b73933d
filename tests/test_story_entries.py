"""Where a player's words go in the story: each answer with the question it answers, right
after the card the question was about; an answer about a card an undo took back follows
that card when it comes back, or stands in an aside at the end when it never does. Played
from answers files, as a person plays, and read in the exported Markdown and HTML."""

from __future__ import annotations

import html
import json

import pytest


def play(cli, tmp_path, game: str, seed: str, lines: list[str], name: str = "g.jsonl"):
    answers = tmp_path / f"{name}.txt"
    answers.write_text("\n".join(lines) + "\n", encoding="utf-8")
    log = tmp_path / name
    r = cli("play", game, "--seed", seed, "--answers", answers, "--log", log)
    assert r.code in (0, 130), r.err  # 130: the answers ran out and the game is saved
    return log


def export(cli, log, fmt: str) -> str:
    r = cli("export", log, "--story", "--format", fmt, "-o", "-")
    assert r.code == 0, r.err
    return r.out


def events(log) -> list[dict]:
    return [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()[1:]]


def prompt_of(log, text: str) -> str:
    return next(e["prompt"] for e in events(log) if e.get("event") == "journal" and e["text"] == text)


def positions(story: str, *words: str) -> list[int]:
    found = [story.find(w) for w in words]
    assert all(i >= 0 for i in found), [w for w, i in zip(words, found, strict=True) if i < 0]
    return found


CITY = "Stack 1 is a fair-sized city"  # seed 5: the first stack entered is a city (the 9 of Hearts)


def test_an_answer_follows_its_question_and_its_card(cli, tmp_path):
    log = play(cli, tmp_path, "carddom", "5", ["journal: Iron-smelling ANSWER-START", "1",
                                                "journal: The bells ANSWER-A"])
    for fmt in ("markdown", "html"):
        story = export(cli, log, fmt)
        for text in ("ANSWER-START", "ANSWER-A"):
            prompt = prompt_of(log, next(e["text"] for e in events(log) if text in e.get("text", "")))
            shown = html.escape(prompt, quote=False) if fmt == "html" else prompt
            q, a = positions(story, shown, text)
            assert q < a and a - q < len(shown) + 120, (fmt, text)  # the question, then at once the answer


def test_an_answer_about_a_card_taken_back_follows_it_when_it_comes_back(cli, tmp_path):
    """Enter the city, answer, undo, enter it again: the city is the same card, and both
    answers follow it, the first before the second."""
    log = play(cli, tmp_path, "carddom", "5", ["1", "journal: ANSWER-A", "undo", "1", "journal: ANSWER-B"])
    assert [e["event"] for e in events(log)].count("undo") == 1
    story = export(cli, log, "markdown")
    city = story.find("city")
    a, b = positions(story, "ANSWER-A", "ANSWER-B")
    assert 0 <= city < a < b
    assert "took back" not in story
    assert story.count("ANSWER-A") == 1


def test_an_answer_about_a_card_that_never_came_back_is_kept_at_the_end(cli, tmp_path):
    """Enter the city, answer, undo, enter elsewhere: the city never turns up again, and the
    answer stands in an aside after the ending, with its question."""
    log = play(cli, tmp_path, "carddom", "5", ["1", "journal: ANSWER-A", "undo", "2", "journal: ANSWER-B"])
    for fmt in ("markdown", "html"):
        story = export(cli, log, fmt)
        ending, aside, a = positions(story, "The ending", "took back", "ANSWER-A")
        b, = positions(story, "ANSWER-B")
        assert b < ending < aside < a, fmt
        prompt = prompt_of(log, "ANSWER-A")
        q, = positions(story, html.escape(prompt, quote=False) if fmt == "html" else prompt)
        assert aside < q < a


@pytest.mark.parametrize("game", ["carddom", "adaman", "cascades", "hexaract"])
def test_the_story_says_whose_words_the_quotes_are_only_when_there_are_any(cli, tmp_path, game):
    said = "your own journal"
    silent = play(cli, tmp_path, game, "3", ["1", "quit"], name="silent.jsonl")
    assert said not in export(cli, silent, "markdown")
    kept = play(cli, tmp_path, game, "3", ["journal: Rain ANSWER", "quit"], name="kept.jsonl")
    for fmt in ("markdown", "html"):
        story = export(cli, kept, fmt)
        assert said in story and "Rain ANSWER" in story, fmt


@pytest.mark.parametrize("game", ["carddom", "adaman", "cascades", "hexaract"])
def test_what_the_oracle_meant_follows_it_in_every_export(cli, tmp_path, game):
    """From an answers file: an oracle question, then a journal line says what the answer
    means; every format exports it, and the story tells the meaning right after the answer."""
    log = play(cli, tmp_path, game, "4", ["1", "oracle even: Is the <road> *watched*?",
                                          "journal: MEANING: someone [waits] there.", "quit"])
    asked = [e for e in events(log) if e["event"] == "question"][-1]
    assert asked["text"] == "What does that answer mean for your story?"
    for fmt in ("markdown", "html"):
        story = export(cli, log, fmt)
        oracle, meaning = positions(story, "road", "MEANING")
        assert oracle < story.find("What does that answer mean") < meaning, fmt
    from storyteller.core.formats import FORMATS

    for fmt in FORMATS.values():
        if fmt.name == "pdf":
            continue
        for kind in fmt.kinds:
            r = cli("export", log, "--format", fmt.name, *([f"--{kind}"] if kind in ("story", "playthrough") else []),
                    "-o", "-")
            assert r.code == 0 and "MEANING" in r.out, (fmt.name, kind, r.err)
    replay = cli("replay", log, "--plain")
    assert replay.code == 0 and "not one the game asks" not in replay.out

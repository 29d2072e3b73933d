"""Adaman's story as a reader keeps it (issue 27): every card told where it was dealt, in
the world's words and once; the card a question was about told just before its answer; no
card label or rank in the narration, the mechanics in one marked line each; no sentence
frame three times; the facts and the score in words. Played from the built-in player's
moves with every question answered, as tests/story_measure.py plays, and read in the
exported Markdown and HTML; a fast run of that measure on a few seeds."""

from __future__ import annotations

import contextlib
import html
import io
import json
import os
import re
from collections import Counter
from pathlib import Path

import pytest

from storyteller import registry
from storyteller.core import decktet
from storyteller.core.sources import SeededSource
from storyteller.games.adaman.rules import PERSON, RANK, landing
from storyteller.log.file import read
from storyteller.play.session import AutoPlayer, Session
from storyteller.telling.export import render
from storyteller.ui.drivers import AnswersDriver
from tests import story_measure

PROMPTS = json.loads((Path(__file__).resolve().parents[1] / "prompts" / "adaman.json").read_text(encoding="utf-8"))
SUITS = "|".join(decktet.SUITS)
LABEL = re.compile(rf"\((?:Ace|Crown|Pawn|Court|\d+), (?:{SUITS})|\b(?:{SUITS})/(?:{SUITS})|\(\d+\)|row \d")


def moves(seed: str, variants: list[str]) -> list[str]:
    """The built-in player's moves for this deal."""
    rules = registry.rules("adaman")
    chosen = rules.parse_variants(variants)
    state, source = rules.new_state(chosen), SeededSource(seed, rules, chosen)
    player = AutoPlayer(rules, seed, "greedy")
    out: list[str] = []
    while state.outcome is None:
        request = state.chance()
        if request is not None:
            state.resolve(source.resolve(request))
            continue
        action = player.choose(state, len(out))
        out.append(action.key)
        state.apply(action.move)
    return out


def play(folder: Path, seed: str, variants: list[str] = [], answer: bool = True) -> Path:  # noqa: B006
    """One game from the built-in player's moves; every question answered ("ANSWER k") or none."""

    class Answering(AnswersDriver):
        written = 0

        def _answer(self, session, asked) -> None:
            if asked is None or not answer:
                return
            Answering.written += 1
            assert self.journal is not None
            self.journal.answer(session, f"ANSWER {Answering.written}, in plain words.", asked)

    rules = registry.rules("adaman")
    path = folder / f"adaman-{seed}-{'-'.join(variants) or 'standard'}-{answer}.jsonl"
    driver = Answering(list(enumerate(moves(seed, variants), start=1)), "answers")
    session = Session.new(rules, rules.parse_variants(variants), seed, path, mode="answers")
    with contextlib.redirect_stdout(io.StringIO()):
        driver.begin(session, resumed=False)
        session.run(driver)
    session.close()
    return path


GAMES = [  # (seed, variants, answered): lost, an utter loss, won, the Excuse, extra personalities, quiet
    ("0", [], True),
    ("1", [], True),
    ("13", [], True),
    ("1", ["extended"], True),
    ("0", ["extra-personalities=3"], True),
    ("14", [], False),
]


@pytest.fixture(scope="module")
def games(tmp_path_factory):
    """(log path, events, Markdown, HTML) for each of GAMES."""
    folder = tmp_path_factory.mktemp("adaman-story")
    was = os.environ.get("STORYTELLER_HOME")
    os.environ["STORYTELLER_HOME"] = str(folder / "home")
    try:
        out = []
        for seed, variants, answered in GAMES:
            path = play(folder, seed, variants, answered)
            log = read(path)
            events = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()[1:]]
            out.append((path, events, render(log, "story", format="markdown"), render(log, "story", format="html")))
        return out
    finally:
        if was is None:
            os.environ.pop("STORYTELLER_HOME", None)
        else:
            os.environ["STORYTELLER_HOME"] = was


def paragraphs(md: str) -> list[str]:
    body = md.split("\n---\n", 1)[1]
    return [p.strip() for p in body.split("\n\n") if p.strip()]


def narration(md: str) -> list[str]:
    """The tale's own paragraphs: no headings, questions, quotes or lines of mechanics."""
    return [p for p in paragraphs(md) if not p.startswith(("#", "*", ">", "!["))]


def page_narration(page: str) -> list[str]:
    """The HTML story's paragraphs of narration, as text: not the marked mechanics, the
    questions, the player's words, the cover or the footer."""
    main = page.split("<main>", 1)[1].split("</main>", 1)[0]
    main = re.sub(r"<(figure|blockquote)\b.*?</\1>", "", main, flags=re.S)
    out = []
    for attrs, text in re.findall(r"<p([^>]*)>(.*?)</p>", main, flags=re.S):
        if "st-mechanics" in attrs or "st-prompt" in attrs:
            continue
        out.append(html.unescape(re.sub(r"<[^>]+>", "", text)))
    return out


def drawn(events: list[dict]) -> list[dict]:
    """The draws that stand (these games take nothing back)."""
    assert not any(e["event"] in ("undo", "correction") for e in events)
    return [e for e in events if e["event"] == "draw"]


COUNTDOWN = "still stood in your way|remained free|all that remained|last one left"


def cap(text: str) -> str:
    return text[:1].upper() + text[1:]


# -- what a reader sees -----------------------------------------------------------------------


def test_no_card_label_rank_or_place_on_the_table_in_the_narration(games):
    for _, _, md, page in games:
        for text in narration(md) + page_narration(page):
            assert not LABEL.search(text), text
        assert "row 1" not in md and "row 1" not in page


def test_every_card_dealt_is_told_in_its_place(games):
    """Each card dealt, the capital's later ones too, is named in a paragraph of the HTML
    that says it tells that draw, and in the Markdown's narration."""
    for _, events, md, page in games:
        told = {int(n) for steps in re.findall(r'data-steps="([^"]+)"', page) for n in steps.split()}
        tale = " ".join(narration(md))
        for e in drawn(events):
            assert e["n"] in told, e
            if e["card"] != "excuse":
                assert decktet.name(e["card"]) in tale or decktet.Name(e["card"]) in tale, e


def test_each_answer_follows_a_paragraph_that_tells_its_card(games):
    """Right before the question an answer answers, the last paragraph of the tale names the
    card (or the personality won over, or the Excuse) the question was about."""
    checked = 0
    for _, events, md, _ in games:
        by_n = {e["n"]: e for e in events}
        paras = paragraphs(md)
        for e in (e for e in events if e["event"] == "journal" and e.get("about")):
            about = by_n[e["about"]]
            if about["event"] == "draw":
                card = about["card"]
            else:
                card = about["action"].split()[1]  # "control TARGET with ...": the one won over
            at = next(i for i, p in enumerate(paras) if e["text"] in p)
            assert paras[at - 1] == f"*{e['prompt']}*"
            before = next(p for p in reversed(paras[:at - 1]) if not p.startswith(("*", ">", "#")))
            assert decktet.name(card) in before or decktet.Name(card) in before, (e["text"], before)
            checked += 1
    assert checked > 60


def test_no_sentence_frame_three_times_and_each_cards_words_once(games):
    mask = story_measure.masker("adaman")
    words = [w for card in PROMPTS["cards"].values() for w in card.values()]
    for _, _, md, _ in games:
        frames = Counter(mask(s) for s in story_measure.narration(md) if len(s.split()) > 3)
        assert max(frames.values()) <= 2, frames.most_common(3)
        for w in words:
            assert md.count(w) <= 1, w


def test_the_tale_is_told_to_you_in_the_past(games):
    for _, _, md, page in games:
        for text in narration(md) + page_narration(page):
            assert not re.search(r"\bI\b|\bI'm\b|\bmy\b", text), text
        assert "You were the heir" in md


def test_the_mechanics_are_one_marked_line_a_play(games):
    """What each play spent is one line, marked as mechanics in HTML (the toggle hides it)
    and in italics in Markdown; the narration of the play says it in words."""
    for _, events, md, page in games:
        plays = [e for e in events if e["event"] == "decision" and e["action"].startswith("control")]
        marked = [line for line in re.findall(r'<p class="st-mechanics">(.*?)</p>', page)
                  if not line.startswith(("<strong>", "Score"))]
        lines = re.findall(r"^\*([^*]*\(\d+\)[^*]*)\*$", md, re.M)
        assert len(marked) == len(plays) == len(lines)
        for e, line, said in zip(plays, marked, lines, strict=True):
            target, paid = e["action"].split()[1], e["action"].split()[3].split("+")
            assert html.unescape(line) == said
            for c in [target, *paid]:
                assert f"{decktet.name(c)} ({RANK[c]})" in said or f"{decktet.Name(c)} ({RANK[c]})" in said
    css = games[0][3]
    assert "body:has(.st-toggle:checked) main .st-mechanics" in css


def test_the_countdown_names_only_those_already_seen_and_comes_late(games):
    """Once three or fewer are left, those named have been dealt already (seed 0 once named
    the Bard before he turned up); before that, no count after each play."""
    people = [decktet.name(c) for c in PERSON if PERSON[c]]
    for _, _, md, _ in games:
        assert "still stand in your way" not in md and "still unaccounted for" not in md
        for m in re.finditer(rf"[^.]*(?:{COUNTDOWN})[^.]*\.", md):
            for name in people:
                if name in m.group(0) or cap(name) in m.group(0):
                    assert name in md[:m.start()] or cap(name) in md[:m.start()], (name, m.group(0))


def test_the_ending_says_who_was_won_over_and_what_the_score_counts(games):
    numbers = PROMPTS["numbers"]
    for path, _, md, page in games:
        ctx = json.loads(render(read(path), None, format="json"))
        outcome, story = ctx["outcome"], ctx["story"]
        done = [c["name"] for c in story["controlled"]]
        assert "**Score:" not in md and "(lost)" not in md
        assert story["reckoning"] in md and story["reckoning"] in html.unescape(page)
        assert f'<p class="st-mechanics">{html.escape(story["score_words"], quote=False)}</p>' in page
        score = outcome["score"]
        if outcome["result"] == "won":
            m = re.search(r"Score (\d+): (\d+) for the personalities, (\d+) for what you still held", md)
            assert m and int(m.group(1)) == score == int(m.group(2)) + int(m.group(3))
            assert int(m.group(2)) == sum(c["rank"] for c in story["controlled"])
        elif outcome["result"] == "lost":
            m = re.search(r"Score (\d+): the ranks of the (\w+) personalit(?:y|ies) you won over", md)
            assert m and int(m.group(1)) == score and m.group(2) == numbers[len(done)]
            assert f"You had won over {numbers[len(done)]} of the {numbers[story['people_total']]}" in md
        else:
            assert "Score 0: a plot found out counts for nothing." in md
            assert "Six at court: one too many." in md
        assert not story_measure.SINGULAR.search(md) and not story_measure.PLURAL.search("\n".join(narration(md)))


def test_the_excuse_is_told_and_what_it_moved(games):
    _, events, md, _ = games[3]
    assert any(e["event"] == "draw" and e["card"] == "excuse" for e in events)
    shift = next(e for e in events if e["event"] == "decision" and e["action"].startswith("move"))
    card = shift["action"].split()[1]
    assert "The Excuse turned up" in md or "The Excuse tumbled" in md
    told = next(p for p in narration(md) if "The fool" in p or "slipped from your hands" in p)
    assert decktet.name(card) in told


def test_the_first_deal_is_told_as_it_was_dealt(games):
    """How things stood: the capital's cards and your means in the order a question needs,
    each card once; no list of labels after them."""
    _, events, md, _ = games[0]
    stood = md.split("## How things stood", 1)[1].split("## The plot", 1)[0]
    first = []
    for e in events:
        if e["event"] == "decision":
            break
        if e["event"] == "draw":
            first.append(e)
    for e in first:
        assert stood.count(decktet.name(e["card"])) + stood.count(decktet.Name(e["card"])) >= 1, e["card"]
    assert "In the capital:" not in stood and "Your resources:" not in stood
    # a personality dealt to the resources went to court, and is told there
    court = [e["card"] for e in first if landing(e["card"], e["to"]) == "court"]
    for c in court:
        assert re.search(rf"[^.]*{decktet.name(c)}[^.]*court", stood, re.I), c


# -- the measure, on a few seeds ---------------------------------------------------------------


def test_the_measure_on_a_few_seeds(tmp_path):
    fig = story_measure.Figures()
    mask = story_measure.masker("adaman")
    for seed in ("0", "1", "13", "20"):
        folder = tmp_path / seed
        folder.mkdir()
        story_measure.read("adaman", story_measure.play("adaman", seed, folder), fig, mask)
    assert fig.answers > 40 and fig.placed > 40
    assert fig.with_question == fig.answers, fig.cases["question"]
    assert fig.in_place == fig.placed and not fig.unmarked, fig.cases["place"]
    assert fig.facts == 0, fig.cases["facts"]
    assert fig.beats == 0, fig.cases["beats"]

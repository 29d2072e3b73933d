"""Cascades' story as a reader keeps it (issue 27): games played by the built-in player while
a person answers every journaling question, exported in Markdown and HTML, and read for what
a reader would notice. Every card is something the water meets, named in passing, never a
label with rank and suits; each card a question is about is told before its answer; no
sentence frame comes three times; the facts agree with the table; the count of the falls is
mechanics, marked so the page's toggle hides it; the tale speaks to "you", in the past."""

from __future__ import annotations

import contextlib
import html
import io
import json
import re
from collections import Counter
from pathlib import Path

import pytest

import story_measure
from storyteller.core import decktet
from storyteller.log.file import read
from storyteller.registry import get
from storyteller.telling.export import render
from storyteller.telling.meanings import meaning

WON, LOST = "0", "237"  # the built-in player wins seed 0; it loses 237 two cards short (one still going round)
SHORT = "175"  # lost with eleven cards short: nine going round, one in a pool, one never turned up
WORDS = get("cascades").prompt_data
LABEL = re.compile(r"\((?:Ace|Crown|Pawn|Court|\d)(?:, [A-Za-z/]+)?\)")  # "(8, Waves/Leaves)", "(Crown)"
SUIT = re.compile(r"(?<!Ace of )\b(Moons|Suns|Waves|Leaves|Wyrms|Knots)\b")  # a suit, not in an Ace's name
MECHANICS = re.compile(r"\b(tiers?|reserves?|stock|waste|pass \d+|passes \d+)\b", re.I)


def play(tmp_path: Path, seed: str, variants: tuple[str, ...] = (), undo_at: int | None = None) -> Path:
    """One game from the built-in player's moves, every question answered ("Answer 1, ..."),
    the last word too; ``undo_at``: the move of that number is taken back and made again."""
    from storyteller import registry
    from questions_measure import decisions
    from storyteller.play.session import Session
    from storyteller.ui.drivers import AnswersDriver

    rules = registry.rules("cascades")
    chosen = rules.parse_variants(list(variants))
    moves = decisions("cascades", seed, variants, "greedy")
    lines = []
    for i, key in enumerate(moves, start=1):
        lines += [key, "undo", key] if i == undo_at else [key]

    class Answering(AnswersDriver):
        written = 0

        def _answer(self, session, asked) -> None:
            if asked is None:
                return
            Answering.written += 1
            assert self.journal is not None
            self.journal.answer(session, f"Answer {Answering.written}, in a few plain words.", asked)

    path = tmp_path / f"cascades-{seed}-{len(variants)}-{undo_at}.jsonl"
    driver = Answering(list(enumerate(lines, start=1)), "answers")
    session = Session.new(rules, chosen, seed, path, mode="answers")
    with contextlib.redirect_stdout(io.StringIO()):
        driver.begin(session, resumed=False)
        session.run(driver)
    session.close()
    return path


def stories(path: Path) -> tuple[str, str]:
    log = read(path)
    return render(log, "story", format="markdown"), render(log, "story", format="html")


def events(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()[1:]]


@pytest.fixture(scope="module")
def games(tmp_path_factory) -> dict[str, Path]:
    """Answered games: won, lost, lost far short, with Pawns and Courts, with an undo."""
    import os

    folder = tmp_path_factory.mktemp("cascades-stories")
    home = os.environ.get("STORYTELLER_HOME")
    os.environ["STORYTELLER_HOME"] = str(folder / "home")
    try:
        return {"won": play(folder, WON), "lost": play(folder, LOST), "short": play(folder, SHORT),
                "pawns": play(folder, "3", ("pawns-courts=on",)), "undo": play(folder, "5", undo_at=27)}
    finally:
        if home is None:
            os.environ.pop("STORYTELLER_HOME", None)
        else:
            os.environ["STORYTELLER_HOME"] = home


# -- cards become the world ------------------------------------------------------------------


def test_every_card_has_words_for_the_water_to_meet_it():
    from storyteller.games.cascades.rules import deck_ids

    for card in deck_ids(pawns_courts=True):
        words = WORDS["cards"][card]
        assert words["by"] and words["by"][0].islower() and not words["by"].endswith("."), card
        assert words["seen"][0].isupper() and words["seen"].endswith("."), card
        assert words["seen"] != meaning(card), f"{card}: its sentence is the meaning, word for word"


@pytest.mark.parametrize("name", ["won", "lost", "short", "pawns", "undo"])
def test_no_card_label_rank_suit_or_place_on_the_table_in_the_story(games, name):
    md, page = stories(games[name])
    page = re.sub(r"<figure.*?</figure>", "", page, flags=re.S)  # a picture's words for a screen reader are its own
    told = "\n".join(story_measure.narration(md))
    assert not LABEL.search(md), LABEL.search(md)
    assert not SUIT.search(told), SUIT.search(told)
    assert not MECHANICS.search(told), MECHANICS.search(told)  # tiers, passes and reserves are mechanics
    assert "row 1" not in md and "Crown" not in md
    for card in decktet.by_id():
        assert decktet.label(card) not in md and html.escape(decktet.label(card)) not in page
        assert meaning(card) not in md, f"{card}: decktet.json's meaning pasted into the story"


def test_a_card_is_named_with_a_few_words_of_what_it_is_the_first_time_and_only_then(games):
    md, _ = stories(games["won"])
    way_down = md[md.index("## The way down"):md.index("## The three falls")]
    introduced = 0
    for card, words in WORDS["cards"].items():
        times = way_down.count(words["by"]) + way_down.count(words["seen"])
        assert times <= 1, f"{card} is introduced {times} times"
        introduced += times
    assert introduced >= 30  # nearly every card of a won game is told on the way down (the source above it)


# -- each answer after its card ------------------------------------------------------------------


def order(page: str) -> list[tuple]:
    parser = story_measure.Order()
    parser.feed(page)
    return parser.items


@pytest.mark.parametrize("name", ["won", "lost", "pawns", "undo"])
def test_each_answer_follows_the_paragraph_that_tells_its_card(games, name):
    path = games[name]
    by_n = {e["n"]: e for e in events(path)}
    if name == "undo":  # the Soldier left the middle pool, the Diplomat surfaced and was answered, all taken back
        assert [e["event"] for e in by_n.values()].count("undo") == 1
    md, page = stories(path)
    told: set[int] = set()
    checked = 0
    for item in order(page):
        if item[0] == "told":
            told.update(item[1])
            continue
        _, n, about = item
        if about is None:
            continue
        assert about in told, f"the answer {n} comes before the step {about} its question is about"
        # nothing later is told before it: no card turned up, and (stricter than the measure, which
        # looks at draws alone) no card played down a fall, the way most cards come into this tale
        assert not [m for m in told if m > max(n, about)], n
        checked += 1
    assert checked >= 15
    # in Markdown too: the card a draw or a play turned up is named between the answer before and this one
    last = 0
    for e in events(path):
        if e["event"] != "journal" or e.get("about") is None:
            continue
        step = by_n[e["about"]]
        card = step.get("card") or (step["action"].split()[1] if step["action"].startswith("play") else None)
        at = md.index(e["text"])
        if card:
            assert decktet.name(card) in md[last:at], (e["text"], card)
        last = at


def test_a_question_about_a_card_the_tale_lets_pass_is_told_before_its_answer(games, tmp_path):
    """A card turned onto the waste passes quietly, unless the journal speaks of it: an entry
    about it (as a question bank may one day ask) brings it into the tale, just before."""
    source = games["won"]
    lines = source.read_text(encoding="utf-8").splitlines()
    header, records = lines[0], [json.loads(line) for line in lines[1:]]
    waste = next(e for e in records if e["event"] == "draw" and e["to"] == "waste" and e["n"] > 30)
    at = waste["n"]  # the new entry follows it, and everything after moves one on
    for e in records:
        for key in ("n", "about", "question"):
            if e.get(key) is not None and e[key] > at:
                e[key] += 1
    entry = {"n": at + 1, "event": "journal", "text": "Words about a QUIET-CARD.", "about": at,
             "at": waste["at"]}
    records.insert(records.index(waste) + 1, entry)
    path = tmp_path / "quiet.jsonl"
    path.write_text("\n".join([header, *(json.dumps(e) for e in records)]) + "\n", encoding="utf-8")
    md, page = stories(path)
    name = decktet.name(waste["card"])
    paragraphs = md.split("\n\n")
    at_entry = next(i for i, para in enumerate(paragraphs) if "QUIET-CARD" in para)
    assert name in paragraphs[at_entry - 1], paragraphs[at_entry - 2:at_entry + 1]  # the paragraph just above it
    items = order(page)
    i = next(i for i, item in enumerate(items) if item[0] == "entry" and item[1] == at + 1)
    assert items[i - 1][0] == "told" and at in items[i - 1][1]


# -- beats ---------------------------------------------------------------------------------------


def frames(md: str) -> Counter[str]:
    """Sentences of narration with card names, numbers, falls and pools, and each card's own
    words masked: stricter than the measure's, which leaves "first fall" and "top pool" be."""
    mask = story_measure.masker("cascades")
    own = sorted([w for c in WORDS["cards"].values() for w in (c["by"], c["seen"])]
                 + [b for bonds in WORDS["bonds"].values() for b in bonds], key=len, reverse=True)
    place = re.compile(r"\b(first|second|third|top|middle|bottom|\w+th|\d+(st|nd|rd|th))\b")
    out: Counter[str] = Counter()
    for sentence in story_measure.narration(md):
        for words in own:
            sentence = sentence.replace(words, "E")
        frame = place.sub("N", mask(sentence))
        if len(sentence.split()) > 3 and frame != "E":  # a card's own sentence, told once
            out[frame] += 1
    return out


@pytest.mark.parametrize("name", ["won", "lost", "short", "pawns", "undo"])
def test_no_sentence_frame_three_times_even_with_falls_and_pools_masked(games, name):
    md, _ = stories(games[name])
    assert not [f for f, k in frames(md).items() if k > 2], frames(md).most_common(3)


# -- facts ---------------------------------------------------------------------------------------


def test_the_cards_left_short_are_told_where_they_were_left_and_counted_right(games):
    """Seed 175 ends eleven cards short: nine still going round with the water, the Calamity
    in the middle pool, one card never turned up. Before, they were a list of labels."""
    md, _ = stories(games["short"])
    ending = md[md.index("## The ending"):]
    assert "The Calamity still lay in the middle pool." in ending
    assert "One card never came to light." in ending
    assert "The Savage, the Painter, the Soldier, the Mountain, the Castle, the Merchant, the Ace of Suns, the " \
        "Windfall and the Desert never found a way down" in ending
    assert "*Tiers at the end: 12/12, 11/12, 2/12.*" in md
    assert "**25 of 36 cards placed** (lost), in 13 passes through the stock." in md
    assert not story_measure.SINGULAR.search(md) and not story_measure.PLURAL.search("\n".join(
        story_measure.narration(md)))
    won, _ = stories(games["won"])
    assert "Tiers at the end" not in won  # every tier full: the tally says it


def test_an_empty_fall_is_told_and_its_context_keeps_to_the_schema(cli, tmp_path):
    from storyteller.telling.context import context

    answers = tmp_path / "a.txt"
    answers.write_text("turn\nturn\nabandon\n", encoding="utf-8")
    path = tmp_path / "short.jsonl"
    assert cli("play", "cascades", "--seed", "4", "--answers", answers, "--log", path).code == 0
    md, _ = stories(path)
    falls = md[md.index("## The three falls"):md.index("## The ending")]
    assert "The first fall held only the Diplomat." in falls or "the water reached the Diplomat" in falls
    told = [para for para in falls.split("\n\n") if "second fall" in para or "third fall" in para]
    assert len(told) == 2 and all("never" in para for para in told)
    story = context(read(path))["story"]
    assert [f["suit"] for f in story["falls"]][1:] == ["", ""]
    assert story["left_words"] == "" and story["tiers"] == "1/12, 0/12, 0/12"


def test_with_pawns_and_courts_the_tiers_count_to_their_own_size(games):
    md, _ = stories(games["pawns"])
    counts = re.findall(r"tiers (\d+)/(\d+), (\d+)/(\d+), (\d+)/(\d+)", md)
    assert counts and all((a, b, c) == ("16", "14", "14") for _, a, _, b, _, c in counts)


# -- mechanics -----------------------------------------------------------------------------------


def test_the_count_of_the_falls_is_a_line_of_mechanics_marked_in_html(games):
    md, page = stories(games["won"])
    lines = re.findall(r"^\*([^*?]*\d+/12[^*?]*)\*$", md, re.M)
    assert 3 <= len(lines) <= 12, lines  # not one a pass: a line once a few passes have moved the falls
    for line in lines:  # worded in turn (as Hexaract's dice are), always the pass and the three tiers
        found = re.search(r"[Pp]ass(?:es (\d+)\u2013(\d+)| \d+)\b", line)
        assert found and (found.group(1) is None or int(found.group(1)) < int(found.group(2))), line
        assert len(re.findall(r"\b\d+/12\b", line)) == 3, line
    assert len({re.sub(r"\d+", "#", line) for line in lines}) >= 3
    marked = re.findall(r'<p class="st-mechanics">([^<]*)</p>', page)
    assert [m for m in marked if "/12" in m] == lines
    assert re.search(r'<p class="st-mechanics"><strong>36 of 36 cards placed</strong>', page)
    text = re.sub(r'<p class="st-mechanics">.*?</p>', "", page, flags=re.S)
    assert not re.search(r"\d+/12", text)  # no count of a fall outside the mechanics


from test_html import headless, needs_browser  # noqa: E402  (a real browser, if the machine has one)

HIDDEN = """<script>
document.title = JSON.stringify([...document.querySelectorAll(".st-mechanics")].map(
  e => getComputedStyle(e).display));
</script>"""


@needs_browser
@pytest.mark.timeout(120)
def test_ticking_the_toggle_hides_the_storys_mechanics_in_a_browser(games, tmp_path):
    _, page = stories(games["lost"])
    shown = {}
    for ticked in (False, True):
        copy = page.replace('class="st-toggle">', 'class="st-toggle" checked>') if ticked else page
        file = tmp_path / f"story-{ticked}.html"
        file.write_text(copy.replace("</body>", HIDDEN + "</body>"), encoding="utf-8")
        dom = headless("--window-size=900,1400", "--virtual-time-budget=3000", "--dump-dom", file.as_uri()).stdout
        shown[ticked] = json.loads(html.unescape(re.search(r"<title>(.*?)</title>", dom, re.S).group(1)))
    assert len(shown[False]) >= 5 and "none" not in shown[False]
    assert set(shown[True]) == {"none"}


# -- one voice -----------------------------------------------------------------------------------


def test_the_tale_speaks_to_you_in_the_past(games):
    md, _ = stories(games["lost"])
    told = story_measure.narration(md)
    assert not [s for s in told if re.search(r"\b(I|I'm|I've|my|me)\b", s)]
    assert sum(bool(re.search(r"\b(you|your)\b", s)) for s in told) >= 3
    present = re.compile(r"\b(is|are|runs|rises|waits|lies|flows)\b")
    assert not [s for s in told if present.search(s) and "Tiers" not in s], [s for s in told if present.search(s)]


# -- the measure, on a few seeds -----------------------------------------------------------------


@pytest.mark.timeout(180)
def test_the_measure_on_a_few_seeds_meets_its_goals(tmp_path, monkeypatch):
    monkeypatch.setenv("STORYTELLER_HOME", str(tmp_path))  # the measure's player sets it for each game
    fig = story_measure.Figures()
    mask = story_measure.masker("cascades")
    for seed in ("1", "6", LOST):
        folder = tmp_path / seed
        folder.mkdir()
        story_measure.read("cascades", story_measure.play("cascades", seed, folder), fig, mask)
    assert fig.answers >= 50 and fig.with_question == fig.answers, fig.cases["question"]
    assert fig.unmarked == 0 and fig.placed >= 50 and fig.in_place == fig.placed, fig.cases["place"]
    assert fig.facts == 0, fig.cases["facts"]
    assert fig.beats == 0, fig.cases["beats"]

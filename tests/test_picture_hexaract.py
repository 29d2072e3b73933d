"""Hexaract's pictures and its HTML story, checked as python-chess checks its boards: every
picture of real games parses, says what it shows in words, holds the cards the state says
where they lie, defines each suit it uses once, and is the same every time it is drawn."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path

import pytest

from storyteller.core import decktet
from storyteller.telling.export import render
from storyteller.games.hexaract import picture
from storyteller.games.hexaract.picture import FULL, SMALL, moments, table
from storyteller.games.hexaract.rules import HARM_LIMIT, Spend, kind_of
from storyteller.log.file import read
from storyteller.registry import rules as get_game
from storyteller.core.rng import Stream
from storyteller.play.session import Session
from storyteller.log.replay import walk

SVG = "{http://www.w3.org/2000/svg}"
EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
EXAMPLE_NAMES = ("won", "lost", "journal", "table")


def play(path: Path, seed: str, undos: bool = True, journal: str | None = None, stop: int | None = None) -> Path:
    """A seeded game played to its end (or to ``stop`` decisions) by moves drawn from the
    seed, with an undo now and then, and a journal entry after the first roll."""
    game = get_game("hexaract")
    session = Session.new(game, game.parse_variants([]), seed, path)
    chooser = Stream(seed, "picture test")
    session.advance()
    decisions = 0
    while not session.over and (stop is None or decisions < stop):
        if journal is not None and decisions == 0:
            session.journal(journal)
        if undos and session.can_undo() and chooser.below(8) == 0:
            session.undo()
        else:
            session.decide(chooser.choice(session.legal_actions()))
        decisions += 1
    session.close()
    return path


@pytest.fixture(scope="module")
def logs(tmp_path_factory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("hexaract-pictures")
    out = {name: EXAMPLES / f"hexaract-{name}.jsonl" for name in EXAMPLE_NAMES}
    for seed in ("3", "11", "picture"):
        out[f"seed {seed}"] = play(folder / f"seed-{seed}.jsonl", seed)
    out["unfinished"] = play(folder / "unfinished.jsonl", "5", stop=9)
    return out


@pytest.fixture(scope="module")
def walks(logs):
    return {name: walk(read(path), keep_steps=True) for name, path in logs.items()}


def states(w):
    """The states a reader sees drawn (the story's sections, the end) and every state
    between moves, undone ones included."""
    out = [w.state]
    out += [w.steps[i].after if i >= 0 else w.state for i in moments(w.steps)]
    out += [s.after for s in w.steps if (s.move is not None or s.rolled is not None)]
    return out


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def card_groups(root: ET.Element) -> list[tuple[float, str]]:
    """Each face-up card drawn: the x of its face, and its words (rank and name)."""
    out = []
    for g in root.iter(f"{SVG}g"):
        classes = g.get("class", "").split()
        if "st-card-group" in classes and "st-face-down" not in classes:
            face = g.find(f"{SVG}rect")
            assert face is not None and face.get("class") == "st-card"
            out.append((float(face.get("x")), g.find(f"{SVG}title").text))
    return out


def expected_cards(state) -> dict[str, str]:
    """The cards face up on the table, by name, and where they lie."""
    out = {decktet.Name(c): f"journey {i + 1}" for i, c in enumerate(state.journey) if c is not None}
    out.update({decktet.Name(a): "ace rewards" for a in state.ace_rewards})
    return out


def where(x: float, L) -> str:
    for place in range(3):
        if x == L.x0 + place * L.pitch:
            return f"journey {place + 1}"
    if L.aces_x <= x < L.deck_x:
        return "ace rewards"
    return f"nowhere ({x})"


def check_picture(state, small: bool, prefix: str) -> None:
    pic = table(state, prefix=prefix, small=small)
    L = SMALL if small else FULL
    root = parse(pic.svg)
    assert root.tag == f"{SVG}svg"
    assert float(root.get("width")) == pic.width <= (480 if small else 720)
    # words: a title and a description, not empty, as the picture's own
    title = root.find(f"{SVG}title")
    desc = root.find(f"{SVG}desc")
    assert title is not None and title.text and title.text.strip() == pic.title
    assert desc is not None and desc.text and desc.text.strip() == pic.desc
    harm = min(state.harm, HARM_LIMIT)  # past the limit, the whole and more: never "11 of 10"
    assert f"Harm: {harm} of {HARM_LIMIT}" in pic.desc and f"of {HARM_LIMIT}" not in pic.desc.replace(f"{harm} of", "")
    for c in [*(c for c in state.journey if c is not None), *state.ace_rewards]:
        assert decktet.label(c) in pic.desc or decktet.name(c) in pic.desc
    if state.roll is not None:
        assert ", ".join(map(str, state.roll[:-1])) in pic.desc
    # the cards: each face-up card once, where it lies, and no other
    drawn = card_groups(root)
    names = [name for _, name in drawn]
    want = expected_cards(state)
    assert sorted(names) == sorted(want), (names, want)
    for x, name in drawn:
        assert where(x, L) == want[name]
    empty = sum(1 for c in state.journey if c is None)
    slots = [r for r in root.iter(f"{SVG}rect") if r.get("class") == "st-slot"]
    assert len(slots) == empty + (not state.ace_rewards) + (state.deck_left == 0)
    # the deck face down, with its count
    backs = [g for g in root.iter(f"{SVG}g") if "st-face-down" in g.get("class", "")]
    if state.deck_left:
        assert len(backs) == 1 and [t.text for t in backs[0].iter(f"{SVG}text")] == [str(state.deck_left)]
    else:
        assert not backs
    # the dice: one die a die of the roll, the used ones in the dimmed group
    dice = [r for r in root.iter(f"{SVG}rect") if r.get("class") == "st-die"]
    assert len(dice) == (len(state.roll) if state.roll is not None else 0)
    used_groups = [g for g in root.iter(f"{SVG}g") if g.get("class") == "st-spent"]
    used = sum(state.used) if state.roll is not None else 0
    assert sum(len(g.findall(f"{SVG}rect")) for g in used_groups) == used
    # harm on its track: ten cells, as many filled as the harm
    cells = [r for r in root.iter(f"{SVG}rect") if r.get("class", "").startswith("st-hx-")
             and r.get("class") != "st-hx-tired"]
    assert len(cells) == HARM_LIMIT
    # 11 harm can come at once
    assert sum(1 for r in cells if r.get("class") != "st-hx-cell") == min(state.harm, HARM_LIMIT)
    # exhausted cards are marked
    texts = [t.text for t in root.iter(f"{SVG}text")]
    assert texts.count("exhausted") == sum(1 for c, e in zip(state.journey, state.exhausted) if c and e)
    # the suits: each used one defined once, under the prefix; each defined one used
    defs = root.find(f"{SVG}defs")
    assert defs is not None
    symbols = [s.get("id") for s in defs.findall(f"{SVG}symbol")]
    assert len(symbols) == len(set(symbols))
    uses = {u.get("href") for u in root.iter(f"{SVG}use")}
    suits_used = {h[1:] for h in uses if "-suit-" in h}
    assert suits_used == {s for s in symbols if "-suit-" in s}
    assert all(s.startswith(f"{prefix}-") for s in symbols)
    for s in decktet.SUITS:
        if state.held(s):
            assert f"{prefix}-suit-{s}" in suits_used
    ids = [e.get("id") for e in root.iter() if e.get("id")]
    assert len(ids) == len(set(ids)) and all(i.startswith(f"{prefix}-") for i in ids)
    # the same picture every time
    assert table(state, prefix=prefix, small=small).svg == pic.svg
    assert table(state.clone(), prefix=prefix, small=small).svg == pic.svg


@pytest.mark.parametrize("small", [False, True], ids=["full", "small"])
def test_every_picture_of_real_games_holds_what_the_state_says(walks, small):
    seen = 0
    for w in walks.values():
        for k, state in enumerate(states(w)):
            check_picture(state, small, f"t{k}")
            seen += 1
    assert seen > 400


def test_the_words_follow_the_terminal_view(walks):
    w = walks["won"]
    start = w.steps[moments(w.steps)[0]].after
    pic = table(start)
    root = parse(pic.svg)
    texts = " ".join(t.text or "" for t in root.iter(f"{SVG}text"))
    for words in ("The journey (turn 1)", "Ace rewards (a Crown wins one)", "Deck", "Your supply",
                  "Still missing:", "Harm", "Roll", "not rolled yet", "Discard pile: 0 cards"):
        assert words in texts
    assert pic.title == "Setting out: the journey"
    day = w.steps[moments(w.steps)[3]].after
    assert table(day, small=True).title == "Day 3: the journey"
    assert "couplets 0 of 2, a 6 is wild (1 to 5)" in table(day).svg
    assert table(w.state).title == "The journey's end, after 16 days"
    assert "all six pieces are in hand" in table(w.state).desc


def test_a_location_shows_its_tokens_and_what_it_lacks(walks):
    for w in walks.values():
        for s in w.steps:
            state = s.after
            places = [i for i, c in enumerate(state.journey) if c and state.tokens[i] and state.lacking(i)]
            if places:
                pic = table(state, prefix="loc")
                root = parse(pic.svg)
                held = [c for c in root.iter(f"{SVG}circle") if c.get("class") == "st-hx-token"]
                lacking = [c for c in root.iter(f"{SVG}circle") if c.get("class") == "st-hx-lacking"]
                on_places = sum(len(state.tokens[i]) for i in range(3) if state.journey[i])
                needs = sum(len(state.lacking(i)) for i in range(3))
                supply_held = sum(1 for n in state.supply if n)
                assert len(held) == on_places + supply_held
                assert len(lacking) == needs + (6 - supply_held)
                i = places[0]
                assert f"with a {state.tokens[i][0]} token" in pic.desc
                assert "still needing " + state.lacking(i)[0] in pic.desc
                return
    pytest.fail("no location with a token on it in these games")


def test_moments_give_one_picture_per_section_of_the_story(walks, logs):
    from storyteller.telling.context import context

    for name, w in walks.items():
        ctx = context(read(logs[name]))
        days = ctx["story"]["days"]
        m = moments(w.steps)
        assert len(m) == 1 + len(days) + 1  # setting out, each day, the ending
        for i in m:
            assert i == -1 or not (w.steps[i].undone or w.steps[i].corrected)
        standing = [i for i in m if i >= 0]
        assert standing == sorted(standing)
        # setting out: after the last card dealt before the first roll
        first_roll = next((i for i, s in enumerate(w.steps) if s.rolled is not None), len(w.steps))
        assert w.steps[m[0]].drawn is not None and m[0] < first_roll
        # each day: the table at its roll
        for day, i in zip(days, m[1:-1]):
            step = w.steps[i]
            if step.rolled is not None:
                assert step.rolled.index + 1 == day["number"] == step.after.turn
        # the ending: the table as the log leaves it
        last = w.steps[m[-1]].after if m[-1] >= 0 else w.state
        assert table(last).svg == table(w.state).svg


class Strict(HTMLParser):
    """html.parser, keeping count: every element that is opened is closed, in order."""

    VOID = frozenset({"meta", "input", "br", "img", "hr", "link"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.svgs = 0
        self.sections: list[dict] = []
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag == "svg":
            self.svgs += 1
        if tag == "section":
            self.sections.append({"class": dict(attrs).get("class", ""), "svgs": 0})
        elif tag == "svg" and "section" in self.stack:
            self.sections[-1]["svgs"] += 1
        if tag not in self.VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        pass  # <path/>, <rect/>...: opened and closed at once

    def handle_endtag(self, tag):
        assert self.stack and self.stack[-1] == tag, f"</{tag}> closes <{self.stack[-1] if self.stack else None}>"
        self.stack.pop()

    def handle_data(self, data):
        self.text.append(data)


def read_page(text: str) -> Strict:
    parser = Strict()
    parser.feed(text)
    parser.close()
    assert parser.stack == [], parser.stack
    return parser


@pytest.mark.parametrize("name", EXAMPLE_NAMES + ("seed 3", "unfinished"))
def test_the_html_story_renders_with_its_pictures(logs, walks, name):
    log = read(logs[name])
    page = render(log, "story", format="html")
    parsed = read_page(page)
    w = walks[name]
    m = moments(w.steps)
    assert parsed.svgs == 1 + len(m)  # the cover, and one at each section
    for k, i in enumerate(m):
        state = w.steps[i].after if i >= 0 else w.state
        before = w.steps[:i + 1] if i >= 0 else w.steps
        assert picture.scene(state, before, prefix=f"p{k + 1}").svg.strip() in page
    assert picture.cover(w.state, w.steps, prefix="cover").svg.strip() in page
    days = [s for s in parsed.sections if s["class"] == "st-day"]
    assert all(s["svgs"] == 1 for s in parsed.sections if s["class"] in ("st-day", "st-setting-out", "st-end"))
    text = " ".join(parsed.text)
    for heading in ("Setting out", "The ending", "The reckoning"):
        assert heading in text
    assert len(days) == len(re.findall(r"<h3>Day \d+</h3>", page))
    for n in range(1, len(days) + 1):
        assert f"<h3>Day {n}</h3>" in page
    assert "<script" not in page


def test_the_html_story_tells_what_the_markdown_story_tells(logs):
    log = read(logs["journal"])
    page = render(log, "story", format="html")
    md = render(log, "story", format="markdown")
    text = " ".join(read_page(page).text)
    for line in md.splitlines():
        line = line.strip()
        if not line or line.startswith(("---", "#", "title:", "game:", "seed:", "outcome:", "date:", "tags:", "*A tale",
                                        "!", "<", "[")):
            continue  # the front matter, the headings, the byline, and a picture however Markdown shows one
        words = re.sub(r"[*_>`]|^- ", "", line).strip()
        for part in re.split(r"\s{2,}", words):
            assert " ".join(part.split()) in " ".join(text.split()), part


def test_a_script_in_a_journal_entry_is_escaped(tmp_path):
    attack = "<script>alert('the dark')</script> & <b>bold</b>"
    path = play(tmp_path / "attack.jsonl", "9", undos=False, journal=attack)
    page = render(read(path), "story", format="html")
    read_page(page)
    assert "<script" not in page and "<b>bold" not in page
    assert "&lt;script&gt;alert(" in page and "&amp; &lt;b&gt;bold&lt;/b&gt;" in page


def test_the_module_draws_only_with_the_shared_drawing():
    source = Path(picture.__file__).read_text(encoding="utf-8")
    assert "<svg" not in source and "xmlns" not in source  # the document is drawing.py's


# -- what changed since the picture before, and the cover (issue 29) ------------------------


def ghosts(root: ET.Element) -> list[str]:
    return [" ".join(t.text or "" for t in g.iter(f"{SVG}text")) for g in root.iter(f"{SVG}g")
            if "st-ghost" in g.get("class", "").split()]


def rings(root: ET.Element) -> list[tuple[float, float]]:
    return [(float(r.get("x")), float(r.get("y"))) for r in root.iter(f"{SVG}rect")
            if "st-now" in r.get("class", "").split()]


def test_each_picture_marks_what_came_and_leaves_ghosts_of_what_left(walks):
    seen = {"came": 0, "gone": 0, "spent": 0, "rolled": 0}
    for name, w in walks.items():
        m = moments(w.steps)
        for k, i in enumerate(m):
            if i < 0:
                continue
            state = w.steps[i].after
            pic = picture.scene(state, w.steps[:i + 1], prefix="t")
            root = parse(pic.svg)
            was = [c for c in (w.steps[m[k - 1]].after.journey if k and m[k - 1] >= 0 else ()) if c]
            now = [c for c in state.journey if c]
            marked = rings(root)
            for c in now:  # what came onto the road is marked where it lies
                place = state.journey.index(c)
                at = (SMALL.x0 + place * SMALL.pitch - 2.5, SMALL.card_y - 2.5)
                assert (at in marked) == (c not in was), (name, k, decktet.name(c))
                seen["came"] += c not in was
            words = ghosts(root)
            for c in was:  # what left it is a ghost with why
                if c not in now:
                    why = {"personality": "thwarted", "event": "turned|passed", "location": "surveyed"}[kind_of(c)]
                    assert any(decktet.Name(c).split()[-1] in g and re.search(why, g) for g in words), (name, k, c)
                    assert decktet.name(c) in pic.title
                    seen["gone"] += 1
            window = w.steps[(m[k - 1] if k else -1) + 1:i + 1]
            spent = [s.move for s in window if s.stands and isinstance(s.move, Spend)]
            assert sum(g.strip().endswith(" token, spent") for g in words) == len(spent)
            seen["spent"] += len(spent)
            if w.steps[i].rolled is not None:  # the roll just made is marked, and said
                assert (SMALL.die_x - 3, pytest.approx(SMALL.row2 - SMALL.die * 0.68 - 3)) in marked or any(
                    x == SMALL.die_x - 3 for x, _ in marked)
                assert "roll " + " ".join(map(str, state.roll)) in pic.title
                seen["rolled"] += 1
            assert pic.svg == picture.scene(state.clone(), w.steps[:i + 1], prefix="t").svg
    assert all(seen.values()), seen


def test_the_cover_of_a_game_over_shows_the_road_walked_and_the_six_pieces(walks):
    for w in walks.values():
        state = w.state
        cover = picture.cover(state, w.steps)
        last = picture.scene(state, w.steps)
        assert cover.title != last.title
        over = state.phase == "over"
        assert cover.title.startswith("The road") and ("so far" in cover.title) == (not over)
        root = parse(cover.svg)
        met = [s.drawn.card for s in w.steps if s.stands and s.drawn is not None and s.drawn.to.startswith("journey")]
        cards = [g for g in root.iter(f"{SVG}g") if "st-hx-met" in g.get("class", "").split()]
        assert len(cards) == len(met) == len(set(met))
        texts = [t.text or "" for t in root.iter(f"{SVG}text")]
        fates = [t for t in texts if t in ("thwarted", "turned", "surveyed", "passed", "remained")]
        assert len(fates) == len(met)
        assert fates.count("remained") == sum(1 for c in state.journey if c)
        assert fates.count("thwarted") == sum(1 for c in state.discard if kind_of(c) == "personality")
        for suit in decktet.SUITS:
            assert f"{suit}: {'won' if state.held(suit) else 'lost' if over else 'not yet'}" in texts
        assert f"The road walked: {len(met)} cards in {state.turn} day" in " ".join(texts)
        for c in met:
            assert decktet.name(c) in cover.desc

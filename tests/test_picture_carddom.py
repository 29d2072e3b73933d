"""Carddom's pictures, checked as python-chess checks its boards: every picture of real games
(seeded games played here, and the examples) is well-formed SVG with words for a screen
reader, shows exactly the cards the state holds, each once and where it lies, defines each
suit once and uses it, and is the same bytes every time; ``moments`` gives one picture per
chapter of the road; the HTML story renders, parses, holds its pictures in chapter order and
escapes the player's words."""

from __future__ import annotations

import copy
import re
from itertools import pairwise
import xml.etree.ElementTree as ET
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path

import pytest

from storyteller import registry
from storyteller.core.cards import card
from storyteller.telling.export import render
from storyteller.telling.context import context
from storyteller.games.carddom import picture
from storyteller.games.carddom.rules import COLUMNS, DEPTH, row_of
from storyteller.log.file import read
from storyteller.play.session import AutoPlayer, Session
from storyteller.log.replay import walk

SVG = "{http://www.w3.org/2000/svg}"
EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
# (seed, variants, policy): each shows something a picture must draw
GAMES = [
    ("29", (), "greedy"),  # a won game
    ("0", (), "greedy"),  # the overlord is a Joker, and every location taken
    ("2", ("jokers=taken",), "random"),  # a Joker lies in a stack, never to be taken
    ("31", (), "greedy"),  # a Joker as the character: the deck shuffled anew; a Joker ends the journey
    ("4", (), "random"),  # many cards carried
    ("1", ("jokers=taken", "overlord=anywhere"), "greedy"),  # the overlord faced from the front row
]
SCRIPT = "<script>alert('carddom')</script> & <b>bold</b>"


def play(tmp_path: Path, seed: str, variants=(), policy: str = "random", words: bool = True, undo: bool = False,
         stop: int | None = None):
    """A seeded game played to its end (or ``stop`` decisions), a journal entry after every
    card turned up, an oracle question now and then, and an undo if asked: its log."""
    rules = registry.rules("carddom")
    path = tmp_path / f"carddom-{seed}-{policy}-{len(variants)}.jsonl"
    session = Session.new(rules, rules.parse_variants(list(variants)), seed, path)
    player = AutoPlayer(rules, seed, policy)
    session.advance()
    if words:
        session.journal(f"Before the road, seed {seed}.")
    undone = False
    while not session.over and (stop is None or session.decisions < stop):
        action = player.choose(session.state, session.decisions)
        session.decide(action)
        if undo and not undone and action.move.kind == "move":
            session.undo()
            undone = True
            session.decide(player.choose(session.state, session.decisions))
        if words and session.state.chance() is None:
            session.journal(f"After step {session.decisions}: {SCRIPT if session.decisions == 2 else 'on we go'}.")
            if session.decisions % 3 == 0 and not session.over:
                session.oracle("Is anyone watching?", "likely")
    if words and session.over:
        session.journal("The last word.")
    session.close()
    return read(path)


@pytest.fixture(scope="module")
def logs(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("carddom-pictures")
    out = [play(tmp, seed, variants, policy) for seed, variants, policy in GAMES]
    out.append(play(tmp, "7", (), "random", undo=True))
    out.append(play(tmp, "12", (), "random", stop=3))  # unfinished
    out += [read(p) for p in sorted(EXAMPLES.glob("carddom-*.jsonl"))]
    return out


@pytest.fixture(scope="module")
def walks(logs):
    return [walk(log, keep_steps=True) for log in logs]


def states(walks):
    """Every table of every game: the start, and after each draw and decision that stands
    (journal entries, questions and the oracle leave the table as it was)."""
    for w in walks:
        yield w.steps[0].before
        for step in w.steps:
            if (step.drawn is not None or step.move is not None) and not step.undone and not step.corrected:
                yield step.after


@pytest.fixture(scope="module")
def drawings(walks):
    """(state, picture, parsed SVG) of every table, full and small, drawn once."""
    return {small: [(state, *drawn(state, small)) for state in states(walks)] for small in (False, True)}


def drawn(state, small: bool, prefix: str = "t"):
    pic = picture.table(state, prefix=prefix, small=small)
    return pic, ET.fromstring(pic.svg)


def classes(el) -> list[str]:
    return (el.get("class") or "").split()


def faces(root):
    """The cards face up: (name, x, y) of each, the name as its lines write it."""
    out = []
    for g in root.iter(f"{SVG}g"):
        if "st-card-group" in classes(g) and "st-face-down" not in classes(g):
            rect = g.find(f"{SVG}rect")
            out.append((g.find(f"{SVG}title").text.lower(), float(rect.get("x")), float(rect.get("y"))))
    return out


def name(card_id: str) -> str:
    return card(card_id).name.lower()


# -- the pictures ------------------------------------------------------------------------------


@pytest.mark.parametrize("small", [False, True], ids=["full", "small"])
def test_every_picture_is_svg_with_a_title_and_a_description(drawings, small):
    for _state, pic, root in drawings[small]:
        assert root.tag == f"{SVG}svg"
        assert pic.width <= (480 if small else 720)
        assert root.get("viewBox") == f"0 0 {root.get('width')} {root.get('height')}"
        title, desc = root.find(f"{SVG}title"), root.find(f"{SVG}desc")
        assert title is not None and title.text and title.text.strip() == pic.title
        assert desc is not None and desc.text and len(desc.text) > 100 and desc.text == pic.desc
        for el in root.iter():
            if el.get("id"):
                assert el.get("id").startswith("t-"), el.get("id")


@pytest.mark.parametrize("small", [False, True], ids=["full", "small"])
def test_every_card_the_state_holds_is_shown_once_where_it_lies(drawings, small):
    for state, _, root in drawings[small]:
        shown = faces(root)
        taken = set(state.taken)
        expected = [state.character] if state.character else []
        expected += [c for cards in state.stacks for c in cards if c not in taken]
        expected += state.taken + ([state.overlord] if state.overlord else [])
        assert Counter(n for n, _, _ in shown) == Counter(name(c) for c in expected)
        at = {n: (x, y) for n, x, y in shown}
        # the realm: row 4 at the top, row 1 at the bottom, left before right, depth by depth
        for i, cards in enumerate(state.stacks, start=1):
            for depth, c in enumerate(cards):
                if c in taken:
                    continue
                x, y = at[name(c)]
                for j, others in enumerate(state.stacks, start=1):
                    for other_depth, o in enumerate(others):
                        if o in taken:
                            continue
                        ox, oy = at[name(o)]
                        if row_of(i) > row_of(j):
                            assert y < oy
                        elif row_of(i) == row_of(j) and (i - 1) % COLUMNS < (j - 1) % COLUMNS:
                            assert x < ox and y == oy
                        elif i == j and depth < other_depth:
                            assert x < ox and y == oy
                if state.overlord:  # beyond the back row
                    assert at[name(state.overlord)][1] < y
                for h in [state.character, *state.taken] if state.character else state.taken:
                    assert at[name(h)][1] > y  # what you hold, before the front row
        # where a card was taken: marked, without its name
        marks = [t for t in root.iter(f"{SVG}text") if "st-taken-label" in classes(t)]
        assert len(marks) == len(state.taken_from)
        # the rest face down, with how many remain; the overlord face down until faced
        backs = [g for g in root.iter(f"{SVG}g") if "st-face-down" in classes(g)]
        counts = sorted(int(t.text) for g in backs for t in g.iter(f"{SVG}text"))
        assert counts == sorted(DEPTH - len(cards) for cards in state.stacks if len(cards) < DEPTH)
        assert len(backs) == len(counts) + (0 if state.overlord else 1)


@pytest.mark.parametrize("small", [False, True], ids=["full", "small"])
def test_each_suit_is_defined_once_and_used(drawings, small):
    for state, pic, root in drawings[small]:
        defined = [s.get("id") for s in root.iter(f"{SVG}symbol") if "-suit-" in s.get("id")]
        assert len(defined) == len(set(defined))
        used = {u.get("href")[1:] for u in root.iter(f"{SVG}use") if "-suit-" in u.get("href")}
        assert used == set(defined)
        shown = {s for c in [state.character, *(x for cards in state.stacks for x in cards), state.overlord]
                 if c for s in card(c).suits}
        assert {f"t-suit-{s}" for s in shown} <= set(defined)
        assert pic.svg.count("<symbol") == len(root.findall(f"{SVG}defs/{SVG}symbol"))


def test_a_picture_is_the_same_bytes_every_time(walks):
    for state in list(states(walks))[::7]:
        for small in (False, True):
            once = picture.table(state, prefix="p3", small=small)
            assert once == picture.table(state, prefix="p3", small=small)
            assert once.svg == picture.table(copy.deepcopy(state), prefix="p3", small=small).svg
            assert once.svg == picture.table(state.clone(), prefix="p3", small=small).svg


def test_the_words_say_what_the_picture_shows(logs, walks):
    w = next(w for log, w in zip(logs, walks) if log.path.name == "carddom-won.jsonl")  # seed 29, won
    pic = picture.table(w.state)
    assert "the overlord faced" in pic.title
    assert "The overlord is turned up: the 7 of Spades, a beast driven by wickedness." in pic.desc
    assert "the location, the 8 of Clovers (a modest forest)" in pic.desc
    assert "taken from here" in pic.desc and "Stack 1 (row 1, left): unexplored, 4 cards face down." in pic.desc
    texts = [t.text for t in ET.fromstring(pic.svg).iter(f"{SVG}text")]
    assert "a modest forest" in " ".join(texts) and "row 4" in texts and "back" in texts and "The overlord" in texts
    start = picture.table(w.steps[0].before)
    assert "The overlord lies face down." in start.desc and "not dealt yet" in start.desc


def test_a_joker_is_drawn_as_a_card(walks):
    w = walks[1]  # seed 0: the overlord is a Joker
    assert card(w.state.overlord).rank == "Joker"
    pic, root = drawn(w.state, False)
    assert name(w.state.overlord) in [n for n, _, _ in faces(root)]
    assert "a Joker: no overlord to subdue" in [t.text for t in root.iter(f"{SVG}text")]
    w = walks[2]  # seed 2, jokers=taken: one lies in a stack
    jokers = [c for cards in w.state.stacks for c in cards if card(c).rank == "Joker"]
    assert jokers
    pic, root = drawn(w.state, False)
    assert {name(j) for j in jokers} <= {n for n, _, _ in faces(root)}
    assert "never to be taken" in pic.desc


def path_points(root) -> list[tuple[float, float]]:
    """The points of the path walked, in order (the way to the overlord left out)."""
    paths = [p for p in root.iter(f"{SVG}path") if "st-path" in classes(p) and "st-to-lord" not in classes(p)]
    assert len(paths) <= 1
    if not paths:
        return []
    nums = [float(n) for n in re.findall(r"-?[\d.]+", paths[0].get("d"))]
    return list(zip(nums[::2], nums[1::2]))


def markers(root) -> dict[int, tuple[float, float]]:
    """Each numbered step of the path: its number, its centre."""
    circles = [c for c in root.iter(f"{SVG}circle") if "st-step" in classes(c)]
    numbers = [int(t.text) for t in root.iter(f"{SVG}text") if "st-step-text" in classes(t)]
    return {k: (float(c.get("cx")), float(c.get("cy"))) for k, c in zip(numbers, circles)}


def test_the_path_walks_every_move_returns_included_to_where_you_are(walks):
    returns = 0
    for w in walks:
        for i in [*picture.moments(w.steps), len(w.steps) - 1]:
            state, before = w.steps[i].after, w.steps[:i + 1]
            small = i != len(w.steps) - 1
            pic = picture.scene(state, before) if small else picture.cover(state, before)
            root = ET.fromstring(pic.svg)
            steps = [t.text for t in root.iter(f"{SVG}text") if "st-step-text" in classes(t)]
            assert steps == [str(k) for k in range(1, len(state.visited) + 1)]  # numbered as first entered
            at = {stack: markers(root)[k] for k, stack in enumerate(state.visited, start=1)}
            walked = picture.walk_of(before)
            points = path_points(root)
            assert len(points) == (2 * (len(walked) - 1) if len(walked) > 1 else 0)
            for j, (a, b) in enumerate(pairwise(walked)):  # each move, in order, from one step to the next
                for (x, y), stack in ((points[2 * j], a), (points[2 * j + 1], b)):
                    assert abs(x - at[stack][0]) + abs(y - at[stack][1]) <= 10, (j, a, b)
            if len(walked) > 1:  # it ends where you are, an arrowhead pointing there
                assert walked[-1] == state.position
                assert any("st-step" in classes(p) and p.tag == f"{SVG}path" for p in root.iter())
            if len(walked) > len(set(walked)):
                returns += 1
                assert "returns included" in pic.desc and f"ends where you are, at stack {state.position}" in pic.desc
                if not small:  # the cover says how often a way was walked
                    assert any((t.text or "").startswith("\u00d7") for t in root.iter(f"{SVG}text"))
            rings = [c for c in root.iter(f"{SVG}circle") if "st-here-ring" in classes(c)]
            assert len(rings) == (1 if state.position is not None else 0)
    assert returns


def test_each_place_marks_the_location_just_turned_up(walks):
    for w in walks:
        found = picture.moments(w.steps)
        for k, i in enumerate(found):
            state = w.steps[i].after
            pic = picture.scene(state, w.steps[:i + 1], prefix="t")
            root = ET.fromstring(pic.svg)
            rings = [r for r in root.iter(f"{SVG}rect") if "st-now" in classes(r)]
            assert len(rings) == 1
            location = state.stacks[state.position - 1][0]
            x, y = float(rings[0].get("x")) + 2.5, float(rings[0].get("y")) + 2.5
            assert any(n == name(location) and (fx, fy) == (x, y) for n, fx, fy in faces(root))
            assert pic.title.startswith(f"Place {k + 1} of the road: ")
            assert pic.desc.startswith(f"Just now, at stack {state.position}, its location turned up (marked)")
        if found:
            cover = picture.cover(w.state, w.steps)
            assert cover.title != picture.scene(w.steps[found[-1]].after, w.steps[:found[-1] + 1]).title


# -- the story's turning points -------------------------------------------------------------


def test_moments_give_one_picture_per_place_of_the_road_in_order(logs, walks):
    """A picture for each place first reached (the sections of the way back have none)."""
    for log, w in zip(logs, walks):
        chapters = [c for c in context(log)["story"]["chapters"] if c["picture"] is not None]
        assert [c["picture"] for c in chapters] == list(range(len(chapters)))
        assert all(c["kind"] == "place" for c in chapters)
        found = picture.moments(w.steps)
        assert len(found) == len(chapters), log.path
        assert found == sorted(found)
        for i, chapter in zip(found, chapters):
            step = w.steps[i]
            assert not step.undone and not step.corrected
            assert step.after.position == chapter["stack"]
            assert step.after.stacks[chapter["stack"] - 1], "the place is seen: its location turned up"
            assert step.drawn.to == f"stack {chapter['stack']} location"


def test_an_undone_move_brings_no_picture(walks):
    w = walks[len(GAMES)]  # with an undo
    assert any(s.undone for s in w.steps)
    for i in picture.moments(w.steps):
        assert not w.steps[i].undone


# -- the HTML story ------------------------------------------------------------------------------


class Checked(HTMLParser):
    """html.parser, with every element closed in the order it was opened."""

    VOID = frozenset({"meta", "br", "input", "link", "img", "hr", "source", "wbr"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.open: list[str] = []
        self.tags: list[tuple[str, dict]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        if tag not in self.VOID:
            self.open.append(tag)

    def handle_startendtag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))

    def handle_endtag(self, tag):
        assert self.open and self.open[-1] == tag, f"</{tag}> closes <{self.open[-1] if self.open else None}>"
        self.open.pop()

    def handle_data(self, data):
        self.text.append(data)


def parsed(page: str) -> Checked:
    p = Checked()
    p.feed(page)
    p.close()
    assert p.open == []
    return p


def test_the_html_story_renders_parses_and_holds_its_pictures(logs, walks):
    reg = registry.get("carddom")
    from storyteller.telling.export import pictures

    for log, w in zip(logs, walks):
        page = render(log, "story", format="html")
        p = parsed(page)
        story = context(log)["story"]
        pics = pictures(reg, w)
        places = [c for c in story["chapters"] if c["picture"] is not None]
        assert len(pics["scenes"]) == len(places)
        assert page.count("<svg") == 1 + len(places)
        assert pics["final"]["svg"].strip() in page
        # each place: its title, then its picture (the table as the place was reached)
        at = 0
        for chapter, scene in zip(places, pics["scenes"]):
            heading = page.index(f"<h3>{escape(chapter['title'])}</h3>", at)
            figure = page.index(scene["svg"].strip(), heading)
            assert figure < page.find("<h3>", heading + 1) or page.find("<h3>", heading + 1) == -1
            at = figure
        headings = [page[m.end():page.index("<", m.end())] for m in re.finditer(r"<h2>", page)]
        wanted = ["Who you are"] + (["The road"] if story["chapters"] else []) + \
            (["The overlord"] if story["overlord"] else []) + ["The ending"]
        assert headings == wanted
        text = " ".join(p.text)
        for t in story["taken"]:  # what it is on the road (its card is in the line of mechanics)
            assert t["thing"] in text
        assert story["ending"] in text


def test_the_html_story_escapes_the_players_words(logs):
    log = logs[0]
    assert any(SCRIPT in e.text for e in log.journal())
    page = render(log, "story", format="html")
    assert "<script" not in page and "<b>bold</b>" not in page
    assert "&lt;script&gt;alert(" in page and "&lt;b&gt;bold&lt;/b&gt;" in page
    parsed(page)


def test_the_playthrough_shows_the_same_pictures(logs, walks):
    log, w = logs[0], walks[0]
    page = render(log, "playthrough", format="html")
    parsed(page)
    for k, i in enumerate(picture.moments(w.steps)):
        pic = picture.scene(w.steps[i].after, w.steps[:i + 1], prefix=f"p{k + 1}")
        assert pic.svg.strip() in page


def escape(text: str) -> str:
    from markupsafe import escape as html_escape

    return str(html_escape(text))


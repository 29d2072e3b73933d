"""Cascades' pictures, tested as python-chess tests its boards: every picture of real games
parses as SVG, has its words, holds the cards the state says where the state says, defines
each suit once, and is drawn the same twice; the story's turning points are one per
section of the HTML story, and that story renders, parses, holds the pictures and escapes
what the player wrote."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path

import pytest

from storyteller import registry
from storyteller.core import decktet
from storyteller.telling.drawing import card_of
from storyteller.telling.export import pictures, render
from storyteller.games.cascades import picture
from storyteller.games.cascades.rules import RESERVES, TIERS, Play, place_of, reserve_draw
from storyteller.log.file import read
from storyteller.play.session import AutoPlayer, Session
from storyteller.log.replay import walk

SVG = "{http://www.w3.org/2000/svg}"
EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
SCRIPT = "<script>alert('the water')</script> & <b>a pool</b>"
GAMES = [("1", ()), ("237", ()), ("4", ("pawns-courts",))]  # won, lost, and with the Pawns and Courts
SECTIONS = 2 + TIERS  # the source, the way down, and each of the three falls


def play(path: Path, seed: str, variants: tuple[str, ...], journal_at: int = 12, undo_at: int = 20) -> Path:
    """A seeded game played to its end by the greedy player, with one journal entry (the
    script) and one decision taken back on the way."""
    game = registry.rules("cascades")
    chosen = game.parse_variants(list(variants))
    session = Session.new(game, chosen, seed, path, mode="auto greedy")
    player = AutoPlayer(game, seed, "greedy")
    session.advance()
    while not session.over:
        action = player.choose(session.state, session.decisions)
        session.decide(action)
        if session.decisions == journal_at:
            session.journal(SCRIPT)
        if session.decisions == undo_at and session.can_undo() and isinstance(action.move, Play):
            session.undo()
            undo_at = -1
        elif session.decisions == undo_at:
            undo_at += 1  # take back a play, not a turn
    session.close()
    return path


@pytest.fixture(scope="module")
def logs(tmp_path_factory):
    folder = tmp_path_factory.mktemp("cascades")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("STORYTELLER_HOME", str(folder / "home"))
        mp.setenv("STORYTELLER_CONFIG", str(folder / "config.toml"))
        made = [play(folder / f"g{seed}.jsonl", seed, variants) for seed, variants in GAMES]
    return made + [EXAMPLES / "cascades-won.jsonl", EXAMPLES / "cascades-lost.jsonl"]


@pytest.fixture(scope="module")
def walks(logs):
    return [walk(read(p), keep_steps=True) for p in logs]


@pytest.fixture(scope="module")
def states(walks):
    """States along every game: every tenth step that stands, each turning point, the end."""
    out = []
    for w in walks:
        live = [s for s in w.steps if not s.undone]
        out += [s.after for s in live[::10]]
        out += [w.steps[i].after for i in picture.moments(w.steps)]
        out.append(w.state)
    return out


# -- reading a picture -------------------------------------------------------------------


def groups(root: ET.Element, cls: str) -> list[ET.Element]:
    return [g for g in root.iter(f"{SVG}g") if cls in g.get("class", "").split()]


def names_face_up(root: ET.Element) -> list[str]:
    """The name of each card drawn face up in full (its title: the lines on its face are fitted to it)."""
    out = []
    for g in groups(root, "st-card-group"):
        classes = g.get("class", "").split()
        if "st-peek" in classes or "st-face-down" in classes:
            continue
        out.append(g.find(f"{SVG}title").text)
    return out


def texts(root: ET.Element) -> list[str]:
    return [t.text or "" for t in root.iter(f"{SVG}text")]


def shown_face_up(state) -> list[str]:
    """The cards the state shows face up in full: every card of the falls, the top of the
    waste, the top of each open pool."""
    out = [c for t in state.tiers for c in t]
    if state.waste:
        out.append(state.waste[-1])
    out += [state.reserve_top(k) for k in range(1, RESERVES + 1) if state.reserve_top(k)]
    return out


# -- the pictures ------------------------------------------------------------------------


@pytest.mark.parametrize("small", [False, True])
def test_every_picture_parses_and_has_its_words(states, small):
    for i, state in enumerate(states):
        pic = picture.table(state, prefix=f"t{i}", small=small)
        root = ET.fromstring(pic.svg)
        assert root.tag == f"{SVG}svg"
        title, desc = root.find(f"{SVG}title"), root.find(f"{SVG}desc")
        assert title is not None and title.text and title.text.strip() == pic.title
        assert desc is not None and desc.text and desc.text.strip() == pic.desc
        assert pic.width <= (480 if small else 720)
        assert root.get("viewBox") == f"0 0 {root.get('width')} {root.get('height')}"
        for el in root.iter():
            if el.get("id"):
                assert el.get("id").startswith(f"t{i}-")


@pytest.mark.parametrize("small", [False, True])
def test_every_picture_holds_the_cards_where_they_lie(states, small):
    for state in states:
        root = ET.fromstring(picture.table(state, small=small).svg)
        expected = [card_of(c)[2] for c in shown_face_up(state)]
        assert Counter(names_face_up(root)) == Counter(expected)  # each card once, and no other
        assert len(groups(root, "st-peek")) == min(picture.PEEK, max(0, len(state.waste) - 1))
        desc = root.find(f"{SVG}desc").text
        for c in shown_face_up(state) + state.waste[-1 - picture.PEEK:-1]:
            assert decktet.name(c) in desc
        words = texts(root)
        if state.stock:
            assert str(len(state.stock)) in words  # written on the stock's back
        for k in range(1, RESERVES + 1):
            if k > state.opened:
                assert str(len(state.reserves[k - 1])) in words
            elif state.reserve_top(k):
                left = len(state.reserves[k - 1]) - 1
                assert (f"{left} under it" if left else "the last card") in words
        for t in range(1, TIERS + 1):
            assert f"Tier {t} · {picture.FALLS[t]}" in words


def test_the_falls_are_rows_in_order_top_to_bottom(walks):
    w = walks[0]
    root = ET.fromstring(picture.table(w.state).svg)
    spots = {}
    for g in groups(root, "st-card-group"):
        rect = g.find(f"{SVG}rect")
        name = g.find(f"{SVG}title").text
        spots[name] = (float(rect.get("x")), float(rect.get("y")))
    for t, cards in enumerate(w.state.tiers):
        row = [spots[card_of(c)[2]] for c in cards]
        assert len({y for _, y in row}) == 1  # one row
        assert [x for x, _ in row] == sorted(x for x, _ in row)  # left to right as placed
        if t:
            above = spots[card_of(w.state.tiers[t - 1][0])[2]][1]
            assert row[0][1] > above


@pytest.mark.parametrize("small", [False, True])
def test_each_suit_used_is_defined_once(states, small):
    for state in states:
        svg = picture.table(state, prefix="q", small=small).svg
        root = ET.fromstring(svg)
        defined = Counter(s.get("id") for s in root.iter(f"{SVG}symbol"))
        used = {u.get("href")[1:] for u in root.iter(f"{SVG}use")}
        assert all(n == 1 for n in defined.values())
        assert used == set(defined)  # every symbol used, every use defined
        suits = {s for c in shown_face_up(state) + state.waste[-1 - picture.PEEK:-1] for s in card_of(c)[1]}
        assert {i for i in defined if i.startswith("q-suit-")} == {f"q-suit-{s}" for s in suits}


def test_a_picture_is_the_same_drawn_twice(states):
    for state in states:
        for small in (False, True):
            first = picture.table(state, prefix="x", small=small)
            assert picture.table(state.clone(), prefix="x", small=small) == first


def test_the_words_say_what_the_table_holds(walks):
    won = picture.table(walks[0].state)
    assert won.title.startswith("All three falls complete: 36 of 36 cards")
    assert "it is complete" in won.desc and "The stock is empty." in won.desc
    lost = walks[1].state
    pic = picture.table(lost)
    assert pic.title.startswith(f"The water stilled in pass {lost.pass_no}")
    assert f"{lost.placed} of 36 cards in the falls" in pic.desc
    first = walks[0].steps[picture.moments(walks[0].steps)[0]].after
    words = picture.table(first, small=True)
    assert words.title == "Where the water rises: the first card of the first fall"
    assert "The top pool is closed: 3 cards face down; it opens at the end of this pass." in words.desc
    assert "Tier 2, the second fall, is empty" in words.desc


# -- the turning points ------------------------------------------------------------------


def test_moments_give_one_turning_point_per_section(walks):
    for w in walks:
        steps = w.steps
        found = picture.moments(steps)
        assert len(found) == SECTIONS
        assert all(0 <= i < len(steps) and not steps[i].undone for i in found)
        source = steps[found[0]]
        assert source.drawn is not None and place_of(source.drawn.to) == ("tier", 1)
        plays = [i for i, s in enumerate(steps) if not s.undone and isinstance(s.move, Play)]
        third = [i for i in plays if steps[i].move.tier == 3]
        if third:
            assert found[1] == third[0]
        else:
            assert reserve_draw(steps[found[1]].drawn.to, steps[found[1]].drawn.slot) == (RESERVES, True)
        for t in range(1, TIERS + 1):
            last = [i for i in plays if steps[i].move.tier == t]
            if last:
                assert found[1 + t] == last[-1]


def test_moments_pass_over_a_play_taken_back(logs):
    w = walk(read(logs[0]), keep_steps=True)
    undone = [i for i, s in enumerate(w.steps) if s.undone]
    assert undone  # the game took one play back
    assert not set(picture.moments(w.steps)) & set(undone)


def test_the_playthrough_pictures_stand_after_the_same_steps(walks):
    w = walks[0]
    pics = pictures(registry.get("cascades"), w)
    assert len(pics["scenes"]) == SECTIONS
    for i in picture.moments(w.steps):
        assert str(w.steps[i].n) in pics["at"]
    assert pics["final"]["width"] == 720 and all(p["width"] == 480 for p in pics["scenes"])


# -- the HTML story ----------------------------------------------------------------------


class Checked(HTMLParser):
    """Every element that opens is closed, in order (void elements aside)."""

    VOID = frozenset({"meta", "input", "br", "img", "hr", "link"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.open: list[str] = []
        self.problems: list[str] = []
        self.headings: list[str] = []
        self._heading: str | None = None
        self.figures = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("h2", "h3"):
            self._heading = ""
        if tag == "figure" and "st-small" in (dict(attrs).get("class") or ""):
            self.figures += 1
        if tag not in self.VOID:
            self.open.append(tag)

    def handle_endtag(self, tag):
        if tag in self.VOID:
            return
        if not self.open or self.open[-1] != tag:
            self.problems.append(f"</{tag}> closes <{self.open[-1] if self.open else None}>")
            return
        self.open.pop()
        if tag in ("h2", "h3") and self._heading is not None:
            self.headings.append(self._heading.strip())
            self._heading = None

    def handle_data(self, data):
        if self._heading is not None:
            self._heading += data


@pytest.mark.parametrize("which", [0, 1, 2, 3, 4])
def test_the_html_story_renders_parses_and_holds_the_pictures(logs, which):
    log = read(logs[which])
    page = render(log, "story", format="html")
    parser = Checked()
    parser.feed(page)
    parser.close()
    assert not parser.problems and not parser.open
    h2 = [h for h in parser.headings if h in ("The source", "The way down", "The three falls", "The ending")]
    assert h2 == ["The source", "The way down", "The three falls", "The ending"]
    falls = [h for h in parser.headings if re.fullmatch(r"The (first|second|third) fall", h)]
    assert len(falls) == TIERS
    assert parser.figures == SECTIONS  # one small picture per section, no more
    w = walk(log, keep_steps=True)
    for k, i in enumerate(picture.moments(w.steps)):
        pic = picture.scene(w.steps[i].after, w.steps[:i + 1], prefix=f"p{k + 1}")
        assert pic.svg in page
    assert picture.cover(w.state, w.steps, prefix="cover").svg in page
    story = w.game.name  # the page is the story's: the tale's own words are in it
    assert story == "cascades" and "You followed the water as it looked for its way down" in page


def test_the_html_story_escapes_what_the_player_wrote(logs):
    page = render(read(logs[0]), "story", format="html")
    assert "<script>" not in page and "<b>a pool</b>" not in page
    assert "&lt;script&gt;alert(&#39;the water&#39;)&lt;/script&gt; &amp; &lt;b&gt;a pool&lt;/b&gt;" in page


def test_the_html_playthrough_shows_the_same_pictures(logs):
    log = read(logs[1])
    page = render(log, "playthrough", format="html")
    w = walk(log, keep_steps=True)
    assert page.count('<li class="st-figure">') == len(set(picture.moments(w.steps)))
    assert "<script>" not in page


# -- what a turning point changed, and the cover (issue 29) ---------------------------------


def ringed(root: ET.Element) -> list[ET.Element]:
    return [r for r in root.iter(f"{SVG}rect") if "st-now" in r.get("class", "").split()]


def card_at(root: ET.Element, ring: ET.Element) -> str:
    """The name of the face-up card the ring is drawn around."""
    x, y = float(ring.get("x")), float(ring.get("y"))
    for g in groups(root, "st-card-group"):
        rect = next(r for r in g.iter(f"{SVG}rect") if "st-card" in r.get("class", "").split())
        if abs(float(rect.get("x")) - x - 2.5) < 0.01 and abs(float(rect.get("y")) - y - 2.5) < 0.01:
            return g.find(f"{SVG}title").text  # the card's name, as its title says it
    raise AssertionError("the ring is around no card")


def test_each_turning_point_marks_the_card_just_placed_and_says_where_from(walks):
    verbs = Counter()
    for w in walks:
        for k, i in enumerate(picture.moments(w.steps)):
            step = w.steps[i]
            pic = picture.scene(step.after, w.steps[:i + 1], prefix="t")
            root = ET.fromstring(pic.svg)
            rings = ringed(root)
            assert len(rings) == 1, pic.title  # one card marked: the one the step moved
            card = step.move.card if isinstance(step.move, Play) else step.drawn.card
            assert card_at(root, rings[0]) == card_of(card)[2]
            name = decktet.name(card)
            assert name in pic.title and pic.desc.startswith("Just now, ")
            if isinstance(step.move, Play):
                reserve = step.move.reserve
                origin = "the waste" if reserve is None else f"the {picture.RESERVE_NAMES[reserve]} pool"
                verb = re.search(r": the .*? (completes|reaches|joins) the (first|second|third) fall, from (.*?);",
                                 pic.title)
                assert verb is not None and verb.group(3) == origin, pic.title
                verbs[verb.group(1)] += 1
            elif k == 0:
                assert pic.title == f"Where the water rises: {name} starts the first fall"
            assert pic.svg == picture.scene(step.after.clone(), w.steps[:i + 1], prefix="t").svg
    assert verbs["completes"] and verbs["reaches"]


def test_the_cover_of_a_game_over_shows_the_falls_stepping_down_as_water(walks):
    for w in walks:
        state = w.state
        pics = pictures(registry.get("cascades"), w)
        cover, last = pics["final"], pics["scenes"][-1]
        assert cover["title"] != last["title"] and cover["desc"] != last["desc"]
        assert state.result is not None
        root = ET.fromstring(cover["svg"])
        bands = [r for r in root.iter(f"{SVG}rect") if "cas-fall" in r.get("class", "").split()]
        assert len(bands) == TIERS
        xs, ys = [float(b.get("x")) for b in bands], [float(b.get("y")) for b in bands]
        assert xs == sorted(set(xs)) and ys == sorted(set(ys))  # each fall below and right of the one above
        curtains = [r for r in root.iter(f"{SVG}rect") if "cas-curtain" in r.get("class", "").split()]
        assert len(curtains) == TIERS - 1
        for t, c in enumerate(curtains):  # the water falls from a fall's end onto the next fall
            upper, lower = bands[t], bands[t + 1]
            left = float(c.get("x"))
            assert float(upper.get("x")) + float(upper.get("width")) <= left
            assert left + float(c.get("width")) <= float(lower.get("x")) + float(lower.get("width"))
            assert float(c.get("y")) < float(lower.get("y")) < float(c.get("y")) + float(c.get("height"))
        assert Counter(names_face_up(root)) >= Counter(card_of(c)[2] for t in state.tiers for c in t)
        won = state.placed == state.deck_size
        assert cover["title"].startswith("The falls complete: all " if won else "The water stilled in pass ")
        assert ("Waste" in texts(root)) == (not won)  # what never reached the falls, when some never did

"""Adaman's pictures (storyteller/games/adaman/picture.py) and its HTML story
(templates/adaman/story.html.j2), tested as python-chess tests its boards: every picture of
real games parses, has its words, holds the cards the state says where they lie, defines
each suit it uses once, and is the same every time it is drawn; the story has one picture
per section, in the order of ``moments``, and escapes the player's words."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path

import pytest

from storyteller import registry
from storyteller.core import decktet
from storyteller.telling.drawing import CARD_H, card_of
from storyteller.telling.export import pictures, render
from storyteller.games.adaman import picture
from storyteller.games.adaman.rules import BASIC, COURT_LIMIT, EXCUSE, PERSON, AdamanState, Control, Shift
from storyteller.log.file import GameLog, read
from storyteller.play.session import AutoPlayer, Session
from storyteller.log.replay import walk

SVG = "{http://www.w3.org/2000/svg}"
ROWS = {"court": 12, "capital": 12 + CARD_H + 22, "resources": 12 + 2 * (CARD_H + 22)}  # each row's top


def play(path: Path, seed: str, variants=(), policy: str = "greedy", journal: dict[int, str] | None = None,
         oracle: tuple[int, ...] = (), undo: tuple[int, ...] = (), abandon_at: int | None = None) -> GameLog:
    """A seeded game played to its end by ``policy``, logged: a journal entry before the
    k-th decision for each k in ``journal``, a question to the oracle before each k in
    ``oracle``, the k-th decision taken back (and made again) for each k in ``undo``."""
    game = registry.rules("adaman")
    session = Session.new(game, game.parse_variants(list(variants)), seed, path)
    player = AutoPlayer(game, seed, policy)
    session.advance()
    k = 0
    while not session.over:
        if abandon_at == k:
            session.abandon()
            break
        if journal and k in journal:
            session.journal(journal[k])
        if k in oracle:
            session.oracle("Does anyone at court suspect me?", "even")
        session.decide(player.choose(session.state, session.decisions))
        if k in undo and session.can_undo():
            session.undo()
        k += 1
    session.close()
    return read(path)


GAMES = [  # (seed, variants, policy): won, lost and utter losses, with the Excuse and the extra personalities
    ("14", (), "greedy"),
    ("0", (), "greedy"),
    ("1", (), "greedy"),
    ("13", (), "greedy"),
    ("3", (), "random"),
    ("1", ("extended",), "greedy"),
    ("0", ("extended",), "greedy"),
    ("2", ("extended",), "random"),
    ("0", ("extra-personalities=3",), "greedy"),
    ("4", ("extra-personalities=3",), "greedy"),
]


@pytest.fixture(scope="module")
def walks(tmp_path_factory):
    folder = tmp_path_factory.mktemp("adaman-pictures")
    out = []
    for i, (seed, variants, policy) in enumerate(GAMES):
        log = play(folder / f"game-{i}.jsonl", seed, variants, policy)
        out.append(walk(log, keep_steps=True))
    return out


def states(walks):
    """Every state of every game: after each step (undone ones too: they are tables that were)."""
    for w in walks:
        for step in w.steps:
            yield step.after


# -- one picture ----------------------------------------------------------------------------


def cards_shown(root: ET.Element) -> list[tuple[str, float]]:
    """(name, top) of every face-up card: its title, the card's rectangle's y."""
    out = []
    for g in root.iter(f"{SVG}g"):
        cls = g.get("class", "").split()
        if "st-card-group" not in cls or "st-face-down" in cls:
            continue
        rect = next(r for r in g.iter(f"{SVG}rect") if "st-card" in r.get("class", "").split())
        out.append((g.find(f"{SVG}title").text, float(rect.get("y"))))
    return out


def row_of(top: float) -> str:
    if top == ROWS["court"]:
        return "court"
    if top == ROWS["capital"]:
        return "capital"
    assert top >= ROWS["resources"], top
    return "resources"


def expected(state: AdamanState) -> Counter:
    want = Counter()
    for row in ("court", "capital", "resources"):
        for c in getattr(state, row):
            want[(card_of(c)[2], row)] += 1
    if state.excuse_at is not None:
        want[(card_of(EXCUSE)[2], state.excuse_at)] += 1
    return want


def check(state: AdamanState, small: bool, prefix: str = "t") -> ET.Element:
    pic = picture.table(state, prefix=prefix, small=small)
    root = ET.fromstring(pic.svg)  # it parses as XML
    assert root.tag == f"{SVG}svg"
    title, desc = root.find(f"{SVG}title"), root.find(f"{SVG}desc")
    assert title is not None and title.text and title.text.strip() == pic.title
    assert desc is not None and desc.text and desc.text.strip() == pic.desc
    assert pic.width <= (480 if small else 720)
    assert float(root.get("width")) == pic.width and float(root.get("height")) == pic.height
    # the cards the state says, each once, where it lies
    shown = Counter((name, row_of(top)) for name, top in cards_shown(root))
    assert shown == expected(state)
    # nothing drawn outside the picture
    for el in root.iter():
        for a, limit in (("x", pic.width), ("y", pic.height)):
            if el.get(a) is not None:
                assert 0 <= float(el.get(a)) <= limit, (el.tag, a, el.get(a))
        if el.tag == f"{SVG}rect" and el.get("width"):
            assert float(el.get("x")) + float(el.get("width")) <= pic.width + 3
            assert float(el.get("y")) + float(el.get("height")) <= pic.height + 3
    # each suit used is defined once, and each defined one is used
    ids = [el.get("id") for el in root.iter() if el.get("id")]
    assert len(ids) == len(set(ids)) and all(i.startswith(prefix + "-") for i in ids)
    defined = [el.get("id") for el in root.iter(f"{SVG}symbol") if "-suit-" in el.get("id")]
    used = {el.get("href") for el in root.iter(f"{SVG}use") if "-suit-" in el.get("href", "")}
    assert used == {"#" + i for i in defined}
    suits = {s for c in [*state.court, *state.capital, *state.resources] for s in card_of(c)[1]}
    assert {f"{prefix}-suit-{s}" for s in suits} == set(defined)
    # the deck, face down, with its count; the tally of the personalities
    backs = [g for g in root.iter(f"{SVG}g") if "st-face-down" in g.get("class", "")]
    if state.deck_count:
        assert len(backs) == 1
        assert [t.text for t in backs[0].iter(f"{SVG}text")] == [str(state.deck_count)]
    else:
        assert not backs
    pips = [c.get("class") for c in root.iter(f"{SVG}circle")]
    assert pips.count("ad-pip-on") == len(state.controlled)
    assert len(pips) == len(state.personalities())
    texts = " ".join(t.text or "" for t in root.iter(f"{SVG}text"))
    assert f"{len(state.court)} of {COURT_LIMIT}" in texts
    assert f"Deck: {state.deck_count} card" in texts
    assert f"{len(state.controlled)} of {len(state.personalities())} personalities" in texts
    # the words say every card and count
    for c in [*state.court, *state.capital, *state.resources]:
        assert decktet.label(c) in pic.desc
    assert f"{state.deck_count} card" in pic.desc
    assert f"Controlled: {len(state.controlled)} of {len(state.personalities())}" in pic.desc
    # the same every time
    assert picture.table(state, prefix=prefix, small=small).svg == pic.svg
    assert picture.table(state.clone(), prefix=prefix, small=small).svg == pic.svg
    return root


@pytest.mark.parametrize("small", [False, True])
def test_every_picture_of_real_games_holds_the_table(walks, small):
    seen = set()
    for state in states(walks):
        check(state, small)
        seen.add((len(state.court), state.excuse_at, len(state.resources) > 5, state.result is not None))
    assert any(court == COURT_LIMIT + 1 for court, *_ in seen)  # an utter loss was drawn
    assert any(court == COURT_LIMIT for court, *_ in seen)
    assert any(excuse is not None for _, excuse, *_ in seen)  # and the Excuse waiting


def test_a_long_row_of_resources_wraps_inside_the_picture():
    resources = [c for c in BASIC if not PERSON[c]][:13]
    state = AdamanState(deck=BASIC, drawn=20, capital=["huntress", "bard"], resources=resources,
                        court=["sailor", "savage"], controlled=["author"], plays=4, filling=None)
    for small in (False, True):
        root = check(state, small)
        tops = sorted({top for name, top in cards_shown(root) if top >= ROWS["resources"]})
        assert len(tops) == (3 if small else 2)  # nine to a line in the full picture, six in the small


def test_the_sixth_place_at_court_is_the_end():
    state = AdamanState(deck=BASIC, drawn=20, capital=[], resources=[], court=["sailor", "savage"], filling=None)
    svg = picture.table(state).svg
    assert 'class="ad-end-slot"' in svg and "the end" in svg and 'class="ad-end-ring"' not in svg
    five = AdamanState(deck=BASIC, drawn=20, court=["sailor", "savage", "author", "bard", "painter"], filling=None)
    assert "one more is" in picture.table(five).svg
    assert "One more is the end" in picture.table(five).desc
    six = AdamanState(deck=BASIC, drawn=20, court=["sailor", "savage", "author", "bard", "painter", "merchant"],
                      filling=None)
    svg = picture.table(six).svg
    assert 'class="ad-end-ring"' in svg and 'class="ad-end-slot"' not in svg and "one too many" in svg


def test_the_title_counts_the_plays(walks):
    w = walks[0]
    assert picture.table(w.steps[0].after).title == "The kingdom before the first play"
    assert picture.table(w.state).title.startswith("The kingdom at the end, after ")
    one = next(s.after for s in w.steps if s.after.plays == 1 and s.after.result is None)
    assert picture.table(one).title == "The kingdom after 1 play"


# -- the story's sections ------------------------------------------------------------------


class StrictParser(HTMLParser):
    """html.parser, failing on any tag closed out of order or left open."""

    VOID = frozenset({"meta", "input", "br", "hr", "img", "link"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.sections: list[list[str]] = []  # per <section>: the ids of its pictures' titles
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "section":
            self.sections.append([])
        if tag == "title" and self.stack and self.stack[-1] == "svg" and self.sections and "section" in self.stack:
            self.sections[-1].append(a.get("id", ""))
        if tag not in self.VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        pass

    def handle_endtag(self, tag):
        assert self.stack and self.stack[-1] == tag, (tag, self.stack[-5:])
        self.stack.pop()

    def handle_data(self, data):
        self.text.append(data)

    def close(self):
        super().close()
        assert not self.stack, self.stack


def parsed(html: str) -> StrictParser:
    p = StrictParser()
    p.feed(html)
    p.close()
    return p


def test_moments_give_one_picture_per_section_in_order(walks):
    for w in walks:
        found = picture.moments(w.steps)
        assert all(0 <= k < len(w.steps) and not w.steps[k].undone for k in found)
        people = [k for k in found if w.steps[k].move is not None
                  and isinstance(w.steps[k].move, Control) and PERSON[w.steps[k].move.target]]
        assert [w.steps[k].move.target for k in people] == w.state.controlled  # one per personality, in order
        assert found == sorted(found)


@pytest.mark.parametrize("seed, variants, policy", GAMES[:6])
def test_the_html_story_renders_with_its_pictures(tmp_path, seed, variants, policy):
    log = play(tmp_path / "game.jsonl", seed, variants, policy,
               journal={0: "Before it all <b>began</b>.", 2: "I wrote <script>alert('court')</script> & waited."})
    html = render(log, "story", format="html")
    p = parsed(html)
    w = walk(log, keep_steps=True)
    found = picture.moments(w.steps)
    # one section per moment, each holding its own picture, in order
    assert len(p.sections) == len(found)
    assert p.sections == [[f"p{k + 1}-title"] for k in range(len(found))]
    assert html.count("<svg") == len(found) + 1  # and the cover
    game = registry.get("adaman")
    pics = pictures(game, w)
    for k, pic in enumerate(pics["scenes"]):
        assert pic["svg"] in html
        at = found[k]
        assert pic["svg"] == picture.scene(w.steps[at].after, w.steps[:at + 1], prefix=f"p{k + 1}", seed=seed).svg
    # each personality's picture says how they were won over, as the section's heading does
    verbs = re.findall(r"<h3>.*? <span class=\"st-meaning\">\((\w+)<span", html)
    people = [p for p in pics["scenes"] if p["title"].startswith("Play ") and "personalities)" in p["title"]]
    assert [p["title"].split(" (")[0].rsplit(" ", 1)[1] for p in people] == verbs
    # the personalities' sections are named after them, in the order they were controlled
    heads = re.findall(r"<h3>(.*?) <span", html)
    assert heads == [decktet.Name(c) for c in w.state.controlled]
    # the player's words are escaped
    assert "<script" not in html
    assert "&lt;script&gt;alert(&#39;court&#39;)&lt;/script&gt; &amp; waited." in html
    assert "&lt;b&gt;began&lt;/b&gt;" in html
    assert html == render(log, "story", format="html")


def test_the_first_moves_have_a_section_when_the_plot_opens_without_a_personality(tmp_path):
    # a question to the oracle before the first play opens the plot: its own section, whose
    # table is the one the setup left, as the first play (a personality's) comes next
    log = play(tmp_path / "oracle.jsonl", "14", (), "greedy", oracle=(0,), undo=(1, 3))
    w = walk(log, keep_steps=True)
    assert any(s.undone for s in w.steps)
    found = picture.moments(w.steps)
    assert all(not w.steps[k].undone for k in found)
    assert found[1] == found[0] and w.steps[found[0] + 1].move is not None
    assert len(found) == 2 + len(w.state.controlled)
    html = render(log, "story", format="html")
    assert len(parsed(html).sections) == len(found) and "The first moves" in html
    # a game whose first play gains a card: the first moves begin after it
    log = play(tmp_path / "gain.jsonl", "19", (), "greedy")  # it first gains the Discovery
    w = walk(log, keep_steps=True)
    found = picture.moments(w.steps)
    first = w.steps[found[1]]
    assert first.move is not None and not PERSON[first.move.target] and found[1] == found[0] + 1
    html = render(log, "story", format="html")
    assert len(parsed(html).sections) == len(found) and "The first moves" in html


def test_a_game_abandoned_before_the_first_play_has_one_section(tmp_path):
    log = play(tmp_path / "abandoned.jsonl", "5", (), "greedy", abandon_at=0)
    w = walk(log, keep_steps=True)
    assert picture.moments(w.steps) == [len(w.steps) - 1]
    p = parsed(render(log, "story", format="html"))
    assert len(p.sections) == 1


def test_the_html_playthrough_shows_the_same_pictures(tmp_path):
    log = play(tmp_path / "game.jsonl", "0", (), "greedy")
    html = render(log, "playthrough", format="html")
    parsed(html)
    w = walk(log, keep_steps=True)
    assert html.count("<svg") == len(picture.moments(w.steps)) + 1


# -- what a turning point changed, and the cover (issue 29) ---------------------------------


def ghosts(root: ET.Element) -> list[str]:
    """The words written in each ghost (a card a play removed), one string per ghost."""
    return [" ".join(t.text or "" for t in g.iter(f"{SVG}text")) for g in root.iter(f"{SVG}g")
            if "st-ghost" in g.get("class", "").split()]


def ringed(root: ET.Element) -> int:
    return sum(1 for r in root.iter(f"{SVG}rect") if "st-now" in r.get("class", "").split())


def test_a_personality_controlled_leaves_a_ghost_where_it_was_with_how(walks):
    from storyteller.games.adaman.story import _verb

    seen = 0
    for w in walks:
        seed = w.header.seed
        for i, step in enumerate(w.steps):
            move = step.move
            if not step.stands or not isinstance(move, Control):
                continue
            pic = picture.scene(step.after, w.steps[:i + 1], prefix="t", seed=seed)
            root = ET.fromstring(pic.svg)
            words = ghosts(root)
            name = card_of(move.target)[2]
            if PERSON[move.target]:
                verb = _verb(move.paid, seed, move.target)
                # the personality, gone from the table, is a ghost saying how, and it is the one marked
                assert any(name.split()[-1] in g and verb in g for g in words), (name, words)
                assert pic.title == f"Play {step.after.plays}: {decktet.name(move.target)} {verb} " \
                                    f"({len(step.after.controlled)} of {len(step.after.personalities())} personalities)"
                assert pic.desc.startswith(f"Just now, play {step.after.plays}: you {verb} {decktet.name(move.target)}")
            else:  # a card won into your resources: marked there, a ghost where it was
                assert any(name.split()[-1] in g and "gained" in g for g in words)
                assert f"{decktet.name(move.target)} joins your resources" in pic.title
            assert ringed(root) == 1  # one thing marked: what the play bought
            for r in move.paid:  # and every card it spent is a ghost in your resources
                assert any(card_of(r)[2].split()[-1] in g and "spent" in g for g in words)
            assert len(words) == len(move.paid) + 1
            # the ghosts are not cards on the table: those are exactly the state's
            assert Counter((name, row_of(top)) for name, top in cards_shown(root)) == expected(step.after)
            assert picture.scene(step.after.clone(), w.steps[:i + 1], prefix="t", seed=seed).svg == pic.svg
            seen += 1
    assert seen > 50


def test_the_first_scene_marks_the_last_card_dealt(walks):
    for w in walks:
        first = picture.moments(w.steps)[0]
        pic = picture.scene(w.steps[first].after, w.steps[:first + 1], prefix="t", seed=w.header.seed)
        last = next(s for s in reversed(w.steps[:first + 1]) if s.stands and (s.drawn or isinstance(s.move, Shift)))
        if last.drawn is not None:
            assert f"{decktet.name(last.drawn.card)} dealt last" in pic.title
        else:  # the Excuse moved a card just before the first play
            assert pic.title.startswith(f"The Excuse: {decktet.name(last.move.card)} moves ")
        root = ET.fromstring(pic.svg)
        assert ringed(root) == 1 and not ghosts(root)


def test_the_cover_of_a_game_over_tells_the_ending(walks):
    outcomes = set()
    for w in walks:
        state = w.state
        pics = pictures(registry.get("adaman"), w)
        cover, last = pics["final"], pics["scenes"][-1]
        assert cover["title"] != last["title"] and cover["desc"] != last["desc"]
        if state.result is None:
            continue
        outcomes.add(state.result.result)
        root = ET.fromstring(cover["svg"])
        texts = [t.text or "" for t in root.iter(f"{SVG}text")]
        names = [name for name, _ in cards_shown(root)]
        # every personality won over is on the cover, with how, in the order won over
        for c in state.controlled:
            assert card_of(c)[2] in names
        assert names[:len(state.controlled)] == [card_of(c)[2] for c in state.controlled]
        assert f"{len(state.controlled)} of {len(state.personalities())}" in texts
        assert all(c in " ".join(texts) for c in ("Capital", "Resources", "Won over"))
        if state.result.won:
            assert cover["title"].startswith("The throne is yours: all ")
            assert "Court" not in texts and "The throne is yours." in texts
        else:
            assert "Court" in texts and texts.count("still free") == sum(
                1 for c in state.court + state.capital if PERSON[c]) - (len(state.court) > COURT_LIMIT)
            assert cover["title"].startswith("The plot discovered" if len(state.court) > COURT_LIMIT
                                             else "The plot abandoned")
    assert len(outcomes) == 3

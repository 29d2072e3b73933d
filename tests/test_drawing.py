"""The shared drawing (storyteller/telling/drawing.py) as a reader meets it, without a
browser: words big enough for the page they are printed on, card faces as the decks print
them, suits told apart by their shapes, colours that stand out from what they are drawn
on, in light and dark. tests/test_pictures_browser.py measures the same pictures as a
browser draws them."""

from __future__ import annotations

import itertools
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from storyteller import registry
from storyteller.log.file import read
from storyteller.log.replay import walk
from storyteller.telling.drawing import (
    COLUMN_PT, LEAST_PT, PIPS, STYLE, SUIT_LINES, Drawing, fit, least, text_width,
)
from storyteller.telling.export import pictures
from test_html import contrast

SVG = "{http://www.w3.org/2000/svg}"
EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def classes(el: ET.Element) -> list[str]:
    return (el.get("class") or "").split()


@pytest.fixture(scope="module")
def drawn() -> list[tuple[str, dict]]:
    """Every picture of every example (the cover and each scene), drawn once."""
    out = []
    for path in sorted(EXAMPLES.glob("*.jsonl")):
        log = read(path)
        pics = pictures(registry.get(log.game), walk(log, keep_steps=True))
        out += [(path.stem, p) for p in [pics["final"], *pics["scenes"]] if p]
    return out


def test_the_least_word_is_6_5_pt_across_a5s_column():
    assert pytest.approx((148 - 2 * 13) / 25.4 * 72, abs=0.1) == COLUMN_PT
    for width in (300, 480, 640, 720):
        assert least(width) * COLUMN_PT / width >= LEAST_PT  # in points, printed across the column
        assert least(width) * COLUMN_PT / width < LEAST_PT + 0.1
        assert least(width) * 696 / width >= 11  # and in pixels across the column of an 800-px page


def test_no_word_of_any_example_picture_is_smaller_than_its_least(drawn):
    for name, p in drawn:
        root = ET.fromstring(p["svg"])
        smallest = least(float(root.get("width")))
        for t in root.iter(f"{SVG}text"):
            assert float(t.get("font-size")) >= smallest, (name, t.text, t.get("font-size"))


def test_each_picture_is_named_by_its_title_alone(drawn):
    for _, p in drawn:
        root = ET.fromstring(p["svg"])
        title = root.find(f"{SVG}title")
        assert root.get("aria-labelledby") == title.get("id"), "the name is the title; the desc is its description"
        assert root.find(f"{SVG}desc").text == p["desc"]


def face(rank: str, suits: list[str], name: str, w: float = 60, h: float = 84, width: float = 720) -> ET.Element:
    d = Drawing(width, 200, "t", "d", prefix="t", background=False)
    d.card(10, 10, rank, suits, name, w=w, h=h)
    return ET.fromstring(d.svg()).find(f"{SVG}g")


def uses(g: ET.Element) -> list[ET.Element]:
    return [u for u in g.iter(f"{SVG}use") if "st-suit" in classes(u)]


@pytest.mark.parametrize("rank", list(PIPS))
def test_a_piquet_card_shows_its_pips_as_a_real_card_and_its_index(rank):
    g = face(rank, ["Spades"], f"{rank} of Spades")
    glyphs = uses(g)
    assert len(glyphs) == int(rank) + 1, "one pip for each point, and the suit in the corner"
    corner, pips = glyphs[0], glyphs[1:]
    assert float(corner.get("width")) < min(float(u.get("width")) for u in pips) * 1.5
    xs = sorted({round(float(u.get("x"))) for u in pips})
    assert len(xs) <= 3, "in columns, as a real card lays them"
    turned = [u for u in pips if "rotate(180" in (u.get("transform") or "")]
    assert len(turned) == sum(1 for _, y in PIPS[rank] if y > 0.5), "the lower pips upside down"
    texts = [t.text for t in g.iter(f"{SVG}text")]
    assert texts == [rank], "the index says the rank; no name written on a piquet card"
    assert g.find(f"{SVG}title").text == f"{rank} of Spades"


@pytest.mark.parametrize("rank, letter", [("King", "K"), ("Queen", "Q"), ("Jack", "J")])
def test_a_court_card_shows_its_letter_large(rank, letter):
    g = face(rank, ["Hearts"], f"{rank} of Hearts")
    sizes = {t.text: float(t.get("font-size")) for t in g.iter(f"{SVG}text") if "st-court" in classes(t)}
    index = next(float(t.get("font-size")) for t in g.iter(f"{SVG}text") if "st-index" in classes(t))
    assert sizes[letter] > index * 1.5
    assert len(uses(g)) == 2  # the corner's suit and the large one


def test_a_decktet_card_stacks_its_suits_under_its_rank_and_keeps_its_name_inside():
    g = face("7", ["Wyrms", "Knots"], "The Castle", w=36, h=54, width=480)
    rect = g.find(f"{SVG}rect")
    x0, w = float(rect.get("x")), float(rect.get("width"))
    index = next(t for t in g.iter(f"{SVG}text") if "st-index" in classes(t))
    stacked = [u for u in uses(g) if float(u.get("x")) < x0 + w / 3][:2]
    assert [u.get("class").split()[-1] for u in stacked] == ["st-suit-Wyrms", "st-suit-Knots"]
    assert float(stacked[0].get("x")) == float(stacked[1].get("x"))
    assert float(index.get("y")) < float(stacked[0].get("y")) < float(stacked[1].get("y"))
    names = [t for t in g.iter(f"{SVG}text") if "st-name" in classes(t)]
    assert names and " ".join(t.text for t in names).replace("- ", "") in ("The Castle", "Castle")
    for t in names:
        room = float(t.get("textLength") or text_width(t.text, float(t.get("font-size"))))
        assert room <= w - 4, t.text


@pytest.mark.parametrize("width", [36, 46, 52, 60])
def test_every_decktet_name_fits_inside_a_card_of_any_width(width):
    from storyteller.core import decktet

    for card_id in decktet.by_id():
        c = decktet.get(card_id)
        g = face(c.rank, list(c.suits), decktet.name(card_id), w=width, h=width * 1.4, width=720)
        for t in g.iter(f"{SVG}text"):
            if "st-name" in classes(t):
                size = float(t.get("font-size"))
                across = float(t.get("textLength") or text_width(t.text, size))
                assert across <= width - 4, (card_id, t.text, across)
                assert text_width(t.text, size) * 0.64 <= width, "never squeezed past legibility"


def test_fit_breaks_only_a_word_too_long_for_a_line():
    assert fit("a broad mountain", 200, 10) == ["a broad mountain"]
    assert fit("a broad mountain", 60, 10) == ["a broad", "mountain"]
    assert all(text_width(line, 10) <= 30 for line in fit("Borderland", 30, 10))
    assert "".join(fit("Borderland", 30, 10)).replace("-", "") == "Borderland"


def test_the_knot_and_the_wyrm_are_drawn_as_lines_a_knot_and_a_serpent():
    d = Drawing(200, 100, "t", "d", prefix="t")
    for s in ("Knots", "Wyrms", "Moons"):
        d.suit(s, 0, 0, 50)
    root = ET.fromstring(d.svg())
    symbols = {s.get("id"): s for s in root.iter(f"{SVG}symbol")}
    for s in ("Knots", "Wyrms"):
        lines = [p for p in symbols[f"t-suit-{s}"].iter(f"{SVG}path") if p.get("fill") == "none"]
        assert lines and float(lines[0].get("stroke-width")) >= 8, s
    knot = SUIT_LINES["Knots"][0]
    points = [tuple(map(float, p.split())) for p in re.findall(r"[ML]([\d.]+ [\d.]+)", knot)]
    segments = list(itertools.pairwise(points))
    crossings = sum(1 for i in range(len(segments)) for j in range(i + 2, len(segments))
                    if not (i == 0 and j == len(segments) - 1) and _cross(*segments[i], *segments[j]))
    assert crossings == 3, "a trefoil: one line crossing itself three times"
    assert not [p for p in symbols["t-suit-Moons"].iter(f"{SVG}path") if p.get("fill") == "none"]


def _cross(a, b, c, d) -> bool:
    def side(p, q, r):
        return (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])
    return side(a, b, c) * side(a, b, d) < 0 and side(c, d, a) * side(c, d, b) < 0


# -- colours -----------------------------------------------------------------------------------


def rules(css: str) -> dict[str, dict[str, str]]:
    out: dict[str, dict[str, str]] = {}
    for selectors, body in re.findall(r"([^{}]+)\{([^{}]*)\}", css):
        props = dict(re.findall(r"([\w-]+):\s*([^;]+);", body))
        for sel in selectors.split(","):
            out.setdefault(sel.strip(), {}).update(props)
    return out


def schemes() -> tuple[dict, dict]:
    light, _, dark = STYLE.partition("@media (prefers-color-scheme: dark)")
    dark = dark.split("@media print")[0]
    base = rules(light)
    return base, {**base, **{k: {**base.get(k, {}), **v} for k, v in rules(dark).items()}}


def test_every_graphic_stands_3_to_1_from_what_it_is_drawn_on_in_light_and_dark():
    suits = ["Hearts", "Diamonds", "Spades", "Clovers", "Moons", "Suns", "Waves", "Leaves", "Wyrms", "Knots"]
    for n, css in enumerate(schemes()):
        bg, card = css[".st-bg"]["fill"], css[".st-card"]["fill"]
        checks = [
            ("card edge", css[".st-card"]["stroke"], bg),
            ("empty place", css[".st-slot"]["stroke"], bg),
            ("card back edge", css[".st-card-back"]["stroke"], bg),
            ("path", css[".st-path"]["stroke"], bg),
            ("die edge", css[".st-die"]["stroke"], bg),
            ("pip", css[".st-pip"]["fill"], css[".st-die"]["fill"]),
            ("faded token", css[".st-faded .st-suit"]["fill"], bg),
            ("spent die edge", css[".st-spent .st-die"]["stroke"], bg),
            ("spent die pip", css[".st-spent .st-pip"]["fill"], css[".st-spent .st-die"]["fill"]),
        ]
        for s in suits:
            key = f".st-suit-{s}"
            plain = css.get(key, css[".st-suit"])
            on_card = css.get(f".st-card-group {key}", css.get(".st-card-group .st-suit", plain)) if n else plain
            checks.append((f"{s} on a card", on_card["fill"], card))
            checks.append((f"{s} on the table", plain["fill"], bg))
        for what, ink, ground in checks:
            assert contrast(ink, ground) >= 3, ("light", "dark")[n] + f": {what} {ink} on {ground}"
    light, dark = schemes()
    assert dark[".st-card"]["fill"] == light[".st-bg"]["fill"], "in dark mode a card's face stays light"
    assert contrast(dark[".st-on-card"]["fill"], dark[".st-card"]["fill"]) >= 4.5
    assert "opacity" not in STYLE

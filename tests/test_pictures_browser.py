"""Issue 29's must-hold, in a real browser (headless Chromium, driven over its DevTools pipe by
tests/browser.py; one browser for the module, each example page rendered and measured once):

- the smallest text in each example's pictures, on a page 800 px wide and 390 px wide (a
  phone: the picture keeps its size and its frame scrolls sideways, the page does not);
- no card's name crossing its card, no two words of a picture over each other, no word
  outside its picture;
- axe-core (the npm package, ``npm install --prefix tests/.node axe-core``) finds nothing on
  any example story, nor on a playthrough of each game;
- each example story printed on A5 by the page's own print rules: no word under 6.5 pt (the
  sizes read from the PDF's text), how many pages, how much of each is left blank.

``python tests/pictures_measure.py`` prints the same figures for every page."""

from __future__ import annotations

from pathlib import Path

import pytest

from browser import Browser, axe, axe_source, chromium, pdf_pages, pdf_words, picture_text, poppler
from storyteller.log.file import read
from storyteller.telling.export import render

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
NAMES = [p.stem for p in sorted(EXAMPLES.glob("*.jsonl"))]
# The playthrough is one template for every game: one example of each game (those with steps
# taken back among them) is enough, and keeps the module under a minute.
PLAYTHROUGHS = ["adaman-lost", "carddom-journal", "cascades-won", "hexaract-lost"]

pytestmark = [
    pytest.mark.skipif(chromium() is None, reason="no Chromium or Chrome here (Debian: apt install chromium)"),
    pytest.mark.xdist_group("browser"),  # one worker measures every page, with one browser
    pytest.mark.timeout(600),
]


@pytest.fixture(scope="module")
def measured(tmp_path_factory) -> dict[tuple[str, str], dict]:
    """Every example's story (and playthrough) as a browser shows and prints it."""
    folder = tmp_path_factory.mktemp("pages")
    source = axe_source()
    out: dict[tuple[str, str], dict] = {}
    with Browser(timeout=120) as b:
        for name in NAMES:
            log = read(EXAMPLES / f"{name}.jsonl")
            for kind in ("story", "playthrough") if name in PLAYTHROUGHS else ("story",):
                page = folder / f"{name}.{kind}.html"
                page.write_text(render(log, kind, format="html"), encoding="utf-8")
                tab = b.open(page, width=800)
                row: dict = {"wide": picture_text(tab)}
                row["axe"] = axe(tab, source) if source else None
                if kind == "story":
                    tab.size(390, 900)
                    row["narrow"] = picture_text(tab)
                    row["page_width"] = tab.evaluate("document.documentElement.scrollWidth")
                    tab.size(800, 1000)
                    pdf = tab.pdf()
                    row["words"] = pdf_words(pdf)
                    row["pages"] = pdf_pages(pdf) if poppler() else None
                tab.close()
                out[(name, kind)] = row
    return out


def kinds(name: str) -> tuple[str, ...]:
    return ("story", "playthrough") if name in PLAYTHROUGHS else ("story",)


@pytest.mark.parametrize("name", NAMES)
def test_no_word_in_a_picture_is_under_11_px_on_a_page_800_px_wide(measured, name):
    for kind in kinds(name):
        wide = measured[(name, kind)]["wide"]
        assert wide["sizes"], f"{kind}: no picture text measured"
        size, word = wide["smallest"]
        assert size >= 11, f"{kind}: {word!r} is {size:.1f} px"


@pytest.mark.parametrize("name", NAMES)
def test_on_a_phone_a_picture_keeps_its_size_and_scrolls_in_its_frame(measured, name):
    row = measured[(name, "story")]
    size, word = row["narrow"]["smallest"]
    assert size >= 11, f"{word!r} is {size:.1f} px at 390 px"
    assert row["page_width"] <= 390, "the page itself does not scroll sideways"


@pytest.mark.parametrize("name", NAMES)
def test_names_stay_inside_their_cards_and_no_words_overlap(measured, name):
    for kind in kinds(name):
        wide = measured[(name, kind)]["wide"]
        assert not wide["crossing"], f"{kind}: names crossing their card: {wide['crossing'][:5]}"
        assert not wide["overlapping"], f"{kind}: words over each other: {wide['overlapping'][:5]}"
        assert not wide["outside"], f"{kind}: words outside the picture: {wide['outside'][:5]}"


@pytest.mark.skipif(axe_source() is None, reason="axe-core is not installed: npm install --prefix tests/.node axe-core")
@pytest.mark.parametrize("name", NAMES)
def test_axe_finds_nothing_on_the_story_or_the_playthrough(measured, name):
    for kind in kinds(name):
        found = measured[(name, kind)]["axe"]
        assert found == [], f"{kind}: " + "; ".join(f"{v['id']} ({v['nodes']}: {v['where']})" for v in found)


@pytest.mark.parametrize("name", NAMES)
def test_printed_on_a5_no_word_is_under_6_5_pt(measured, name):
    words = measured[(name, "story")]["words"]
    assert len(words) > 200, "the PDF's words were read"
    small = [(w["page"], w["text"], w["size"]) for w in words if w["size"] < 6.5]
    assert not small, small[:8]
    body = sorted(w["size"] for w in words)[len(words) // 2]
    assert 10 <= body <= 11, "the reading text at its print size (10.5 pt): the sizes are read right"


needs_poppler = pytest.mark.skipif(not poppler(), reason="no pdftoppm here (Debian: apt install poppler-utils)")

# The scene pictures are compact (a Carddom place is a map a quarter of an A5 page tall) and
# print's headings and figures keep tight margins, so a chapter with a picture no longer
# leaves the page before it half blank; the figures are python tests/pictures_measure.py's.
@needs_poppler
def test_the_carddom_story_fits_nine_a5_pages_none_of_them_a_third_blank(measured):
    pages = measured[("carddom-journal", "story")]["pages"]
    assert len(pages) <= 9
    assert all(p["blank"] <= 1 / 3 for p in pages[:-1]), [p["blank"] for p in pages]


@needs_poppler
@pytest.mark.parametrize("name", NAMES)
def test_the_cover_is_the_first_page_with_its_picture(measured, name):
    """The title and the table as the game left it on page one: the picture is not pushed to
    a page of its own, leaving the first nearly empty."""
    words = measured[(name, "story")]["words"]
    first = {w["text"] for w in words if w["page"] == 1 and w["size"] < 10}
    assert first, "the cover's picture is on the first page"
    pages = measured[(name, "story")]["pages"]
    assert all(p["width"] < p["height"] for p in pages), "A5 upright"
    assert pages[0]["blank"] < 0.6

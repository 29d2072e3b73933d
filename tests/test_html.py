"""The HTML page, the PDF and the pictures beside a note, as a reader meets them: every
example opens as one self-contained page with its pictures, the player's words are
escaped, the colours are legible, a real browser draws and prints it; a note's pictures
are files beside it, linked, never inline. Each game's drawing is tested on its own in
tests/test_picture_<game>.py."""

from __future__ import annotations

import html
import json
import os
import re
import shutil
import struct
import subprocess
import zlib
from html.parser import HTMLParser
from pathlib import Path
from xml.etree import ElementTree

import pytest

from storyteller.telling.export import render
from browser import Pdf
from storyteller.log.file import read

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
LOGS = sorted(EXAMPLES.glob("*.jsonl"))
SVG_NS = "{http://www.w3.org/2000/svg}"


class Page(HTMLParser):
    """What a reader's browser would find in a page: its elements, its text in order (and
    the text outside pictures), the pictures' SVG."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict]] = []
        self.text: list[str] = []  # outside the pictures
        self.svgs: list[str] = []
        self._depth = 0  # inside a <figure>
        self.feed(text)
        self.svgs = re.findall(r"<svg\b.*?</svg>", text, re.S)

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        if tag == "figure":
            self._depth += 1

    def handle_endtag(self, tag):
        if tag == "figure":
            self._depth -= 1

    def handle_data(self, data):
        if not self._depth and data.strip():
            self.text.append(data)

    def words(self) -> str:
        return re.sub(r"\s+", " ", " ".join(self.text))


def squash(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


# -- every example as a page ------------------------------------------------------------


@pytest.mark.parametrize("kind", ["story", "playthrough"])
@pytest.mark.parametrize("path", LOGS, ids=lambda p: p.name)
def test_every_example_is_one_page_with_its_pictures_and_nothing_from_outside(path, kind):
    text = render(read(path), kind, format="html")
    page = Page(text)
    tags = [t for t, _ in page.tags]
    assert tags.count("html") == 1 and tags.count("main") == 1 and "style" in tags
    assert "script" not in tags and "iframe" not in tags and "img" not in tags and "link" not in tags
    for _, attrs in page.tags:  # nothing is fetched: no address but the page's own anchors
        for name in ("src", "href", "xlink:href"):
            value = attrs.get(name)
            assert value is None or value.startswith("#"), f"{name}={value!r}"
        assert not any(a.startswith("on") for a in attrs), attrs
    assert "@import" not in text and "url(" not in text
    assert page.svgs, "a page without a picture of the table"
    ids = re.findall(r'\bid="([^"]+)"', text)
    assert len(ids) == len(set(ids)), "two elements share an id: a picture's glyph would be another's"
    for svg in page.svgs:
        root = ElementTree.fromstring(svg)  # each picture is XML a reader (and a tool) can parse
        assert root.find(f"{SVG_NS}title").text.strip() and root.find(f"{SVG_NS}desc").text.strip()
        assert root.get("role") == "img" and root.get("aria-labelledby")


@pytest.mark.parametrize("path", LOGS, ids=lambda p: p.name)
def test_the_story_has_a_cover_with_the_final_table_and_small_pictures_at_its_turning_points(path):
    text = render(read(path), "story", format="html")
    cover, _, rest = text.partition("</header>")
    assert "<h1>" in cover and cover.count("<svg") == 1, "the cover: the title and the table as the game left it"
    assert rest.count("<svg") >= 1, "no picture at any turning point of the story"
    assert "st-small" in rest


@pytest.mark.parametrize("path", LOGS, ids=lambda p: p.name)
def test_the_page_reads_in_order_without_the_pictures(path):
    """A reader who cannot see the pictures (or a text browser) still reads the whole story:
    every journal entry, outside any picture, in the order the Markdown story tells them (a
    story may tell an entry with the place it is about), and in the order they were written
    in the playthrough."""
    log = read(path)
    firsts = [squash(e.text).split(". ")[0][:60] for e in log.journal()]
    markdown = squash(render(log, "story"))
    told = sorted(firsts, key=lambda f: markdown.find(f))
    assert all(markdown.find(f) >= 0 for f in firsts)
    for kind, order in (("story", told), ("playthrough", firsts)):
        words = Page(render(log, kind, format="html")).words()
        at = 0
        for first in order:
            found = words.find(first, at)
            assert found >= 0, f"{kind}: the entry {first!r} is missing, or out of order"
            at = found


def test_a_journal_entry_is_shown_as_text_never_as_html(tmp_path):
    events = [json.loads(line)
              for line in (EXAMPLES / "carddom-journal.jsonl").read_text(encoding="utf-8").splitlines()]
    attack = '<script>alert("x")</script></blockquote><img src=x onerror=alert(1)> & <b>bold</b>'
    for e in events:
        if e.get("event") == "journal":
            e["text"] = attack
            break
    forged = tmp_path / "forged.jsonl"
    forged.write_text("".join(json.dumps(e) + "\n" for e in events), encoding="utf-8")
    for kind in ("story", "playthrough"):
        text = render(read(forged), kind, format="html")
        assert "<script" not in text and "<img" not in text and "<b>bold" not in text
        assert "&lt;script&gt;alert(" in text
        assert any(attack in t for t in Page(text).text), "the entry is shown as the player typed it"


def test_a_users_html_template_gets_the_pictures_and_its_output_is_escaped(tmp_path, cli):
    template = tmp_path / "mine.html.j2"
    template.write_text(
        "<h1>{{ meta.title }}</h1>{{ pictures.final.svg | svg }}<p>{{ pictures.scenes | length }} scenes</p>"
        "{% for j in journal %}<p>{{ j.text }}</p>{% endfor %}{{ '<i>raw</i>' }}{{ '<svg>x</svg>' | svg }}",
        encoding="utf-8",
    )
    out = tmp_path / "mine.html"
    r = cli("export", EXAMPLES / "carddom-journal.jsonl", "--format", "html", "--template", template, "-o", out)
    assert r.code == 0, r.err
    text = out.read_text(encoding="utf-8")
    assert text.count("<svg") == 1 and "&lt;svg&gt;x" in text, "only storyteller's own pictures pass as SVG"
    assert "&lt;i&gt;raw" in text and "scenes</p>" in text
    bad = tmp_path / "bad.html.j2"
    bad.write_text("{{ ''.__class__.__mro__ }}", encoding="utf-8")
    r = cli("export", EXAMPLES / "carddom-journal.jsonl", "--format", "html", "--template", bad,
            "-o", tmp_path / "b.html")
    assert r.code != 0 and "Traceback" not in r.err and len(r.err.strip().splitlines()) == 1


def test_the_toggle_is_in_the_banner_and_only_where_there_is_something_to_hide(cli, tmp_path):
    text = render(read(EXAMPLES / "hexaract-journal.jsonl"), "story", format="html")
    header = text.split('<header class="st-cover">', 1)[1].split("</header>", 1)[0]
    assert '<input type="checkbox" id="hide-mechanics" class="st-toggle">' in header, "inside the banner landmark"
    assert '<label for="hide-mechanics">' in header and "body:has(.st-toggle:checked) main .st-mechanics" in text
    template = tmp_path / "plain.html.j2"  # a page with no moves or rolls to hide
    template.write_text('{% extends "_page.html.j2" %}{% block content %}<p>Just words.</p>{% endblock %}',
                        encoding="utf-8")
    out = tmp_path / "plain.html"
    r = cli("export", EXAMPLES / "carddom-won.jsonl", "--format", "html", "--template", template, "-o", out)
    assert r.code == 0, r.err
    plain = out.read_text(encoding="utf-8")
    assert "<p>Just words.</p>" in plain and "hide-mechanics" not in plain and "Hide the moves" not in plain


def test_each_picture_has_a_fold_that_says_what_it_shows_and_is_named_once(tmp_path):
    text = render(read(EXAMPLES / "adaman-won.jsonl"), "story", format="html")
    figures = re.findall(r"<figure\b.*?</figure>", text, re.S)
    assert len(figures) == text.count("<svg")
    for fig in figures:
        desc = html.unescape(re.search(r"<desc[^>]*>(.*?)</desc>", fig, re.S).group(1))
        title = html.unescape(re.search(r"<title id=[^>]*>(.*?)</title>", fig, re.S).group(1))
        fold = re.search(r'<details class="st-shows"><summary>What the picture shows</summary><p>(.*?)</p>', fig, re.S)
        assert fold and html.unescape(fold.group(1)) == desc
        caption = re.search(r'<span class="st-caption" aria-hidden="true">(.*?)</span>', fig, re.S)
        assert html.unescape(caption.group(1)) == title, "the title shown for the eye, not read twice"
        assert re.search(r'aria-labelledby="[\w-]+-title"', fig), "the picture's name is its title alone"


def test_the_playthrough_says_when_it_started_in_words():
    text = render(read(EXAMPLES / "carddom-journal.jsonl"), "playthrough", format="html")
    assert '<time datetime="2026-12-01T22:19:47+00:00">1 December 2026, 22:19 UTC</time>' in text


# -- colours a reader can read -------------------------------------------------------------


def luminance(colour: str) -> float:
    colour = colour.lstrip("#")
    if len(colour) == 3:
        colour = "".join(c * 2 for c in colour)
    channels = [int(colour[i:i + 2], 16) / 255 for i in (0, 2, 4)]
    lin = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def contrast(a: str, b: str) -> float:
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def scheme_colours(css: str) -> list[dict[str, str]]:
    """The page's colour variables: light, dark, print."""
    blocks = re.findall(r":root\s*\{([^}]*)\}", css)
    found = [dict(re.findall(r"--([\w-]+):\s*(#[0-9a-fA-F]{3,6})", b)) for b in blocks]
    assert len(found) == 3, "light, dark and print colours"
    return [found[0], {**found[0], **found[1]}, {**found[0], **found[2]}]


def test_text_on_the_page_meets_wcag_aa_in_light_dark_and_print():
    css = (Path(__file__).resolve().parents[1] / "templates" / "_style.css.j2").read_text(encoding="utf-8")
    for colours in scheme_colours(css):
        for text in ("fg", "muted", "accent", "quote"):
            for ground in ("bg", "panel"):
                assert contrast(colours[text], colours[ground]) >= 4.5, (text, ground, colours)


def test_text_in_the_pictures_meets_wcag_aa_on_what_it_is_written_on():
    from storyteller.telling.drawing import STYLE

    light, _, dark = STYLE.partition("@media (prefers-color-scheme: dark)")
    dark = dark.split("@media print")[0]

    def fill(css: str, cls: str) -> str:
        return re.search(rf"\.{cls}\b[^{{]*\{{[^}}]*fill:\s*(#[0-9a-fA-F]{{6}})", css).group(1)

    def on_card(css: str, cls: str) -> str:  # in dark mode a card stays light, and what is written on it dark
        found = re.search(r"\.st-card-group \.st-text[^{]*\{[^}]*fill:\s*(#[0-9a-fA-F]{6})", css)
        return found.group(1) if found else fill(css, cls)

    for css in (light, dark):
        for text in ("st-text", "st-muted", "st-mark"):
            assert contrast(fill(css, text), fill(css, "st-bg")) >= 4.5, (text, "st-bg")
        for text in ("st-text", "st-muted"):
            assert contrast(on_card(css, text), fill(css, "st-card")) >= 4.5, (text, "st-card")
        assert contrast(fill(css, "st-step-text"), fill(css, "st-step")) >= 4.5


# -- pictures beside a note --------------------------------------------------------------


@pytest.mark.parametrize("fmt,linked", [("markdown", r"!\[([^\]]+)\]\(([^)]+\.svg)\)"),
                                        ("obsidian", r"!\[\[([^\]]+\.svg)\]\]")])
def test_export_pictures_writes_svg_files_beside_the_note_and_links_each(cli, tmp_path, fmt, linked):
    folder = tmp_path / "my notes"
    folder.mkdir()
    note = folder / "a story.md"
    r = cli("export", EXAMPLES / "hexaract-journal.jsonl", "--story", "--format", fmt, "--pictures", "-o", note)
    assert r.code == 0, r.err
    assert "picture" in r.out
    text = note.read_text(encoding="utf-8")
    assert "<svg" not in text, "never SVG inside a note: GitHub and Obsidian strip it"
    links = re.findall(linked, text)
    assert links
    files = sorted(p.name for p in folder.glob("*.svg"))
    from urllib.parse import unquote

    named = sorted({unquote(m[-1] if isinstance(m, tuple) else m) for m in links})
    assert named == files, "every picture written is linked, every link has its file"
    if fmt == "markdown":
        assert all(len(m[0]) > 40 for m in links), "each picture's words as its alt text"
    for name in files:
        ElementTree.fromstring((folder / name).read_text(encoding="utf-8"))
    r = cli("export", EXAMPLES / "hexaract-journal.jsonl", "--story", "--format", fmt, "--pictures", "-o", note)
    assert r.code != 0 and "--force" in r.err
    r = cli("export", EXAMPLES / "hexaract-journal.jsonl", "--playthrough", "--format", fmt, "--pictures",
            "-o", folder / "play.md")
    assert r.code == 0, r.err
    assert len(list(folder.glob("play-*.svg"))) >= 2, "a playthrough shows the table where it changed"


def test_pictures_need_a_note_file_and_a_format_that_links_them(cli, tmp_path):
    log = EXAMPLES / "carddom-won.jsonl"
    for args, says in [
        (["--story", "--pictures"], "-o"),
        (["--story", "--pictures", "--format", "html", "-o", tmp_path / "x.html"], "html page has its pictures"),
        (["--pictures", "--format", "json", "-o", tmp_path / "x.json"], "no pictures"),
        (["--story", "--paper", "a4", "-o", tmp_path / "x.md"], "--paper"),
        (["--story", "--format", "html", "--paper", "a3", "-o", tmp_path / "x.html"], "a5, a4, letter"),
    ]:
        r = cli("export", log, *args)
        assert r.code == 2 and says in r.err and "Traceback" not in r.err, (args, r.err)
    assert not list(tmp_path.iterdir()), "nothing written"


def test_the_vault_puts_each_notes_pictures_beside_it(cli, tmp_path, monkeypatch):
    home = tmp_path / "home"
    sessions = home / "sessions"
    sessions.mkdir(parents=True)
    monkeypatch.setenv("STORYTELLER_HOME", str(home))
    for name in ("carddom-won", "adaman-won"):
        shutil.copy(EXAMPLES / f"{name}.jsonl", sessions / f"{name}.jsonl")
    vault = tmp_path / "vault"
    r = cli("export", "--all", vault, "--format", "obsidian", "--pictures")
    assert r.code == 0, r.err
    notes = [p for p in vault.glob("*.md") if p.name != "index.md"]
    assert len(notes) == 2
    for note in notes:
        links = re.findall(r"!\[\[([^\]]+\.svg)\]\]", note.read_text(encoding="utf-8"))
        assert links and all((vault / name).is_file() for name in links)
    again = cli("export", "--all", vault, "--format", "obsidian", "--pictures")
    assert again.code == 0 and "0 new, 0 updated, 3 unchanged" in again.out and "picture" not in again.out


# -- a real browser ------------------------------------------------------------------------


def browser() -> str | None:
    from storyteller.telling.pdf import find_browser

    return find_browser()


needs_browser = pytest.mark.skipif(browser() is None,
                                   reason="no Chromium or Chrome here (Debian: apt install chromium)")


def headless(*args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    import tempfile

    with tempfile.TemporaryDirectory() as profile:
        cmd = [browser(), "--headless", "--disable-gpu", "--no-first-run", "--disable-background-networking",
               "--disable-component-update", "--disable-sync", "--disable-quic", "--hide-scrollbars",
               f"--user-data-dir={profile}", *args]
        if hasattr(os, "geteuid") and os.geteuid() == 0:
            cmd.insert(2, "--no-sandbox")
        return subprocess.run(cmd, capture_output=True, timeout=timeout, text=True)


def png_pixels(data: bytes) -> tuple[int, int, list[bytes]]:
    """A PNG's width, height and rows of RGB(A) bytes (8-bit colour, as a browser writes)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, width = 8, b"", 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and colour in (2, 6)
            bpp = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw, stride, rows, prev = zlib.decompress(idat), width * bpp, [], bytes(width * bpp)
    for y in range(height):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return width, height, rows


SIZES = """<script>
document.title = JSON.stringify([...document.querySelectorAll("figure svg")].map(s => {
  const r = s.getBoundingClientRect(); return [Math.round(r.width), Math.round(r.height)]; }));
</script>"""


@needs_browser
@pytest.mark.parametrize("name", ["carddom-journal", "adaman-won", "cascades-won", "hexaract-journal"])
def test_a_browser_draws_the_page_and_its_pictures(tmp_path, name):
    page = tmp_path / f"{name}.html"
    page.write_text(render(read(EXAMPLES / f"{name}.jsonl"), "story", format="html"), encoding="utf-8")
    shot = tmp_path / f"{name}.png"
    done = headless("--window-size=900,1400", f"--screenshot={shot}", page.as_uri())
    assert shot.is_file(), done.stderr[-400:]
    width, height, rows = png_pixels(shot.read_bytes())
    assert (width, height) == (900, 1400)
    step = 4 if len(rows[0]) == width * 4 else 3
    colours = {row[x:x + 3] for row in rows[::7] for x in range(0, len(row), step * 5)}
    background = max(colours, key=lambda c: sum(row.count(c) for row in rows[::50]))
    inked = sum(1 for row in rows[::7] for x in range(0, len(row), step * 5) if row[x:x + 3] != background)
    assert len(colours) > 50 and inked > 2000, "the screenshot is blank, or nearly"
    # the pictures have a size: measured by the browser, in a copy of the page with a script
    measured = tmp_path / f"{name}.measured.html"
    measured.write_text(page.read_text(encoding="utf-8").replace("</body>", SIZES + "</body>"), encoding="utf-8")
    dom = headless("--window-size=900,1400", "--virtual-time-budget=3000", "--dump-dom", measured.as_uri()).stdout
    sizes = json.loads(html.unescape(re.search(r"<title>(.*?)</title>", dom, re.S).group(1)))
    assert sizes and all(w >= 200 and h >= 100 for w, h in sizes), sizes
    assert sizes[0][0] >= 500, "the cover's picture fills the page's width"


@needs_browser
def test_the_pdf_is_printed_by_the_browser_with_the_pages_print_rules(cli, tmp_path):
    log = EXAMPLES / "hexaract-journal.jsonl"
    a5, a4 = tmp_path / "a5.pdf", tmp_path / "a4.pdf"
    r = cli("export", log, "--story", "--format", "pdf", "-o", a5)
    assert r.code == 0, r.err
    r = cli("export", log, "--story", "--format", "pdf", "--paper", "a4", "-o", a4)
    assert r.code == 0, r.err
    small, large = Pdf(a5.read_bytes()), Pdf(a4.read_bytes())
    assert all(abs(w - 420) < 2 and abs(h - 595) < 2 for w, h in map(small.size, small.pages)), "A5 by default"
    assert all(abs(w - 595) < 2 and abs(h - 842) < 2 for w, h in map(large.size, large.pages)), "A4 with --paper a4"
    assert len(small.pages) > len(large.pages) >= 3, "the page count follows the paper"
    pages = [small.text(p) for p in small.pages]
    title = render(read(log), "story", format="html").split("<h1>")[1].split("</h1>")[0]
    assert html.unescape(title) in pages[0], "the title on the cover"
    assert "Setting out" not in pages[0] and "Setting out" in pages[1], "the cover is a page of its own"
    everything = " ".join(pages)
    assert "Hide the moves" not in everything and "The moves" not in everything, "no controls, no folded moves in print"
    assert "The journey" in everything
    first_entry = squash(read(log).journal()[0].text).split(" ")[:6]
    assert " ".join(first_entry) in everything.replace("\u2019", "'")


def test_without_a_browser_pdf_says_in_one_line_how_to_print_the_html(cli, tmp_path, monkeypatch):
    monkeypatch.setenv("STORYTELLER_BROWSER", str(tmp_path / "no-such-browser"))
    r = cli("export", EXAMPLES / "carddom-won.jsonl", "--story", "--format", "pdf", "-o", tmp_path / "s.pdf")
    assert r.code == 1 and len(r.err.strip().splitlines()) == 1
    assert "--format html" in r.err and "print" in r.err and "Traceback" not in r.err
    assert not (tmp_path / "s.pdf").exists()


def test_a_browser_that_fails_is_one_line_and_writes_nothing(cli, tmp_path, monkeypatch):
    fake = tmp_path / "fake-chrome"
    fake.write_text("#!/bin/sh\necho 'cannot open display' >&2\nexit 3\n", encoding="utf-8")
    fake.chmod(0o755)
    monkeypatch.setenv("STORYTELLER_BROWSER", str(fake))
    r = cli("export", EXAMPLES / "carddom-won.jsonl", "--story", "--format", "pdf", "-o", tmp_path / "s.pdf")
    assert r.code == 1 and "cannot print the PDF" in r.err and "exit 3" in r.err
    assert len(r.err.strip().splitlines()) == 1 and not (tmp_path / "s.pdf").exists()

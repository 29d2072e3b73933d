"""A campaign as a book, read as a reader reads it (issue 28, section 3): a campaign of three
chapters (Hexaract, then Adaman, then Carddom) played by campaigner as a person, with tagged
answers, rendered in every format: the title page, each chapter's story with its questions
and answers under "Chapter N: <game>", the dramatis personae (a card met in two chapters, a
tagged person) and the threads, opened and closed, every link landing; Obsidian's notes for
the cast, linked from the chapters; a chapter whose log is gone; tags with markup in them;
a chapter exported alone, opening with its recap and its bridge; the vault, grouped by
campaign. The campaign is played once for the module (a few short games)."""

from __future__ import annotations

import contextlib
import json
import re
import shutil
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from markdown_it import MarkdownIt

import campaigner
from storyteller import app
from storyteller.core import tags
from storyteller.log.events import Question
from storyteller.log.file import read

pytestmark = pytest.mark.xdist_group("campaign-book")  # one worker plays the campaign, once

CHAPTERS = [("hexaract", "5"), ("adaman", "3"), ("carddom", "2")]
TITLES = ["Hexaract", "Adaman", "Carddom"]
MARKUP = "<b>*Nim*</b>"  # a tag's name that would be markup if it were not escaped
NOTE = "She keeps the ferry's ledger."
BRIDGE = "The mill's smoke had followed me all the way here, and Old Nim knew why."


class Answering(campaigner.Chapter):
    """campaigner's person, who answers the bridge of a chapter after the first (its first
    question, about no card) in words of its own, and any question asked before the first
    move (which campaigner leaves unanswered)."""

    def supply(self, session: Any, waiting: str) -> list[str]:
        if waiting in ("move", "answer") and session is not None and session.log.events:
            last = session.log.events[-1]
            if isinstance(last, Question) and last.id.startswith("campaign:bridge"):
                self.asked.append(last.text)
                self.answers += 1
                return [f"journal: {BRIDGE}"]
        return super().supply(session, waiting)


def answers(chapter: int):
    """What the player writes in a chapter: tags in the first answers, the thread closed in
    the last chapter, and otherwise words that say where they were written."""

    def answer(question: str, k: int) -> str:
        if chapter == 1 and k == 1:
            return "I met [N:Old Nim|charcoal girl] at [L:The Salt Gate]. [Thread:Who burned the mill?|Open]"
        if chapter == 1 and k == 2:
            return f"[N:{MARKUP}|x] & *stars* laughed at [#N:Old Nim]."
        if chapter == 3 and k == 3:
            return "It was [N:Old Nim] all along. [Thread:Who burned the mill?|Closed]"
        return f"Chapter {chapter}, answer {k}: the road went on."

    return answer


@pytest.fixture(scope="module")
def played(tmp_path_factory) -> Path:
    """The campaign 'salt', played: its home folder (the sessions in it)."""
    folder = tmp_path_factory.mktemp("campaign")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("STORYTELLER_CONFIG", str(folder / "config.toml"))
        mp.setattr(campaigner, "Chapter", Answering)
        with campaigner.home(folder):
            code, _, err = campaigner.new("salt", folder, name="Wren", line="a ferryman's daughter",
                                          wants="to find her brother", title="The Salt Road")
            assert code == 0, err
            for number, (game, seed) in enumerate(CHAPTERS, start=1):
                code, _, err, chapter = campaigner.chapter(game, seed, "salt", answers(number))
                assert code == 0, err
                assert chapter.answers >= 5
            from storyteller.play import campaign

            with campaign.locked("salt"):  # the player's own note on one of the cast, in the campaign's file
                c = campaign.load("salt")
                c.notes["Old Nim"] = NOTE
                campaign.save(c)
    return folder


@contextlib.contextmanager
def at(folder: Path):
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("STORYTELLER_CONFIG", str(folder / "config.toml"))
        with campaigner.home(folder):
            yield


def logs(folder: Path) -> list[Path]:
    """The chapters' logs, in order."""
    from storyteller.play import campaign

    with at(folder):
        return [ch.path for ch in campaign.chapters(campaign.load("salt"))]


def export(folder: Path, *args: Any, **options: Any) -> tuple[int, str, str]:
    with at(folder):
        return campaigner.run(app.export, *args, **options)


@pytest.fixture(scope="module")
def books(played, tmp_path_factory) -> dict[str, Any]:
    """The book in every format, written as a player would write them."""
    out = tmp_path_factory.mktemp("books")
    made: dict[str, Any] = {}
    for fmt, name in (("markdown", "salt.md"), ("html", "salt.html"), ("json", "salt.json"),
                      ("lonelog", "salt.lonelog.md"), ("obsidian", "vault/salt.md")):
        code, said, err = export(played, None, campaign="salt", format=fmt, output=out / name)
        assert code == 0, err
        assert not err, err
        assert said.startswith(f"Wrote {out / name}")
        made[fmt] = (out / name).read_text(encoding="utf-8")
    made["vault"] = out / "vault"
    return made


# -- reading what was made ----------------------------------------------------------------


class Page(HTMLParser):
    """An HTML page's elements (with their attributes) and its text, in order."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=True)
        self.elements: list[tuple[str, dict[str, str | None]]] = []
        self.words: list[str] = []
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        self.elements.append((tag, dict(attrs)))

    def handle_data(self, data):
        self.words.append(data)

    def text(self) -> str:
        return " ".join("".join(self.words).split())


MD = MarkdownIt("commonmark")


def visible(markdown: str) -> str:
    """What a reader sees of a Markdown text: its words, whitespace squeezed."""
    return Page(MD.render(markdown)).text()


def entries(log: Path) -> list[Any]:
    return list(read(log).journal())


def said(text: str) -> str:
    """A player's words as a reader sees them: each tag as its name, a thread's close as nothing."""
    return " ".join(tags.shown(text).split())


def sections(markdown: str, level: int = 1) -> dict[str, str]:
    """A Markdown text's parts under its headings of ``level``, by heading."""
    parts = re.split(rf"(?m)^{'#' * level} (.+)$", markdown)
    return {parts[i]: parts[i + 1] for i in range(1, len(parts) - 1, 2)}


def slug(heading: str) -> str:
    return re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")


def twice_met(doc: dict[str, Any]) -> dict[str, Any]:
    """A card of the Decktet met in chapters 1 and 2."""
    return next(m for m in doc["cast"] if m["kind"] == "card" and [a["chapter"] for a in m["appearances"]] == [1, 2])


# -- a chapter alone -----------------------------------------------------------------------


def test_a_chapter_exported_alone_opens_with_its_chapter_its_recap_and_its_bridge(played, tmp_path):
    second = logs(played)[1]
    header = read(second).header.campaign
    assert header is not None and header["chapter"] == 2 and "Wren, a ferryman's daughter." in header["recap"]
    bridge = next(e for e in entries(second) if e.text == BRIDGE)
    for fmt in ("markdown", "obsidian", "html"):
        target = tmp_path / f"chapter.{fmt}"
        code, _, err = export(played, second, story=True, format=fmt, output=target)
        assert code == 0, err
        text = target.read_text(encoding="utf-8")
        shown = Page(text).text() if fmt == "html" else visible(text.split("\n---\n", 1)[1])
        where = [shown.find(x) for x in ("Chapter 2 of The Salt Road", "The story so far: " + header["recap"],
                                         bridge.prompt, BRIDGE, "How things stood")]
        assert -1 not in where, f"{fmt}: {where}"
        assert where == sorted(where), f"{fmt}: the chapter, the recap, the bridge and its answer open the story"
    first = logs(played)[0]
    code, out, _ = export(played, first, story=True)
    assert "**Chapter 1 of The Salt Road**" in out
    recap = read(first).header.campaign["recap"]
    assert "Wren, a ferryman's daughter." in recap and "The story so far" not in out  # nothing so far yet
    assert f"\n\n{recap}\n\n" in out


def test_a_chapters_context_holds_its_campaign_cast_and_threads_and_the_schema_says_so(played):
    jsonschema = pytest.importorskip("jsonschema")
    from storyteller.telling.export import schema

    validator = jsonschema.Draft202012Validator(schema())
    docs = []
    for log in logs(played):
        code, out, err = export(played, log, format="json")
        assert code == 0, err
        doc = json.loads(out)
        errors = list(validator.iter_errors(doc))
        assert not errors, f"{errors[0].json_path}: {errors[0].message}"
        docs.append(doc)
    first, second, third = docs
    assert second["campaign"] == {"name": "salt", "title": "The Salt Road", "chapter": 2,
                                  "recap": read(logs(played)[1]).header.campaign["recap"],
                                  "protagonist": {"name": "Wren", "line": "a ferryman's daughter",
                                                  "wants": "to find her brother"}}
    nim = next(m for m in first["cast"] if m["name"] == "Old Nim")
    assert nim["kind"] == "person" and nim["notes"] == ["charcoal girl"] and nim["first"] == 1
    assert [m["kind"] for m in first["cast"]][:3] == ["person", "place", "person"]  # the player's own first
    assert first["threads"][0]["name"] == "Who burned the mill?" and first["threads"][0]["open"]
    # as the campaign stood when the chapter ended: closed in chapter 3 only
    assert second["threads"][0]["closed"] is None and third["threads"][0]["closed"]["chapter"] == 3
    card = twice_met(second)
    assert card["name"] not in {m["name"] for m in third["cast"]}, "the cast of chapter 3 is those met or named there"
    assert [b["text"] for b in second["story"]["bridge"]] == [BRIDGE] and first["story"]["bridge"] == []
    alone = json.loads(export(played, Path(__file__).parents[1] / "examples" / "adaman-won.jsonl", format="json")[1])
    assert not {"campaign", "cast", "threads"} & set(alone), "a game of its own is no chapter"
    broken = json.loads(json.dumps(second))
    broken.pop("cast")
    assert list(validator.iter_errors(broken)), "campaign, cast and threads come together"


# -- the book ------------------------------------------------------------------------------


def test_the_markdown_book_reads_as_a_book(played, books):
    text = books["markdown"]
    doc = json.loads(books["json"])
    parts = sections(text)
    headings = list(parts)
    assert headings == ["The Salt Road", "Chapter 1: Hexaract", "Chapter 2: Adaman", "Chapter 3: Carddom",
                        "Dramatis personae", "Threads"]
    title = visible(parts["The Salt Road"])
    assert "Wren, a ferryman's daughter." in title and "What Wren wants: to find her brother." in title
    assert "A campaign in 3 chapters" in title
    for n, (log, chapter) in enumerate(zip(logs(played), doc["chapters"]), start=1):
        part = visible(parts[f"Chapter {n}: {TITLES[n - 1]}"])
        assert part.startswith(chapter["title"]), "the story's title under the chapter's heading"
        for e in entries(log):
            assert said(e.text) in part, f"chapter {n}: {e.text!r}"
            if e.prompt:
                assert " ".join(e.prompt.split()) in part, f"chapter {n}: {e.prompt!r}"
        assert "The story so far" not in part  # the book holds the chapters before
    assert "[N:" not in text and "[Thread:" not in text and "[#N:" not in text
    # every link lands on a heading
    anchors = {slug(h) for h in re.findall(r"(?m)^#{1,6} (.+)$", text)}
    links = re.findall(r"\]\(#([^)]+)\)", text)
    assert links and set(links) <= anchors
    personae = parts["Dramatis personae"]
    card = twice_met(doc)
    line = next(x for x in personae.splitlines() if x.startswith(f"- **{card['name']}**"))
    fates = [a["fate"] for a in card["appearances"]]
    assert line == (f"- **{card['name']}**: [chapter 1](#chapter-1-hexaract): {fates[0]}; "
                    f"[chapter 2](#chapter-2-adaman): {fates[1]}.")
    assert personae.index("**Old Nim**, a person: charcoal girl. Your note: She keeps the ferry's ledger. Named in") \
        < personae.index("## The cards met")
    assert "Named in [chapter 1](#chapter-1-hexaract), [chapter 2](#chapter-2-adaman), " \
           "[chapter 3](#chapter-3-carddom)." in personae
    assert visible(parts["Threads"]) == "Who burned the mill?: opened in chapter 1, closed in chapter 3."
    assert "(#chapter-1-hexaract), closed in [chapter 3](#chapter-3-carddom)" in parts["Threads"]


def test_tags_with_markup_read_as_their_names_escaped_in_every_format(books):
    # Markdown: escaped, the name shown as typed and never as markup
    assert "\\<b>\\*Nim\\*\\</b> \\& \\*stars\\* laughed at Old Nim." in books["markdown"]
    html = MD.render(books["markdown"])
    assert "<b>" not in html and "&lt;b&gt;*Nim*&lt;/b&gt;" in html
    # HTML: a span naming a person, its text escaped
    page = books["html"]
    assert '<span class="st-tag st-person">&lt;b&gt;*Nim*&lt;/b&gt;</span> &amp; *stars* laughed at ' \
           '<span class="st-tag st-person">Old Nim</span>.' in page
    assert not [t for t, _ in Page(page).elements if t == "b"]
    # Obsidian: a link to its note, whose text is escaped (a wikilink's could not be)
    chapter = (books["vault"] / "salt" / "Chapter 1 - Hexaract.md").read_text(encoding="utf-8")
    assert "[\\<b>\\*Nim\\*\\</b>](salt/cast/b%20Nim%20b.md) \\& \\*stars\\* laughed at " \
           "[[salt/cast/Old Nim|Old Nim]]." in chapter
    assert (books["vault"] / "salt" / "cast" / "b Nim b.md").is_file()
    # Lonelog keeps them as typed: its own notation, escaped
    assert "\\[N:\\<b>\\*Nim\\*\\</b>\\|x\\]" in books["lonelog"]


def test_a_game_of_its_own_reads_its_tags_as_names_too():
    from storyteller.telling.export import paragraphs
    from storyteller.telling.filters import prose

    words = "[N:Old Nim|charcoal girl] waved from [L:The Salt Gate]!"
    assert prose(words) == "Old Nim waved from The Salt Gate!"
    assert prose(words, "links") == "[[Old Nim]] waved from [[The Salt Gate]]!"
    assert prose("Look![N:Nim]", "links") == "Look\\![[Nim]]", "a ! before a link would embed the note"
    assert str(paragraphs(words)) == ('<p><span class="st-tag st-person">Old Nim</span> waved from '
                                      '<span class="st-tag st-place">The Salt Gate</span>!</p>')
    assert prose("[N:] and [X:y]") == "\\[N:\\] and \\[X:y\\]", "what is no tag stays as typed"


def test_the_html_book_is_one_page_whose_links_all_land(played, books):
    page = books["html"]
    p = Page(page)
    ids = [a["id"] for _, a in p.elements if a.get("id")]
    assert len(ids) == len(set(ids)), "every id once, the pictures' of every chapter too"
    hrefs = [a["href"] for t, a in p.elements if t == "a" and a.get("href", "").startswith("#")]
    assert hrefs and {h[1:] for h in hrefs} <= set(ids)
    svg_ids = re.findall(r'<use href="#([^"]+)"', page)
    assert svg_ids and set(svg_ids) <= set(re.findall(r'\bid="([^"]+)"', page))
    articles = [a for t, a in p.elements if t == "article"]
    assert [a["id"] for a in articles] == ["chapter-1-hexaract", "chapter-2-adaman", "chapter-3-carddom"]
    headings = re.findall(r'<h1 class="st-chapter-heading">([^<]+)</h1>', page)
    assert headings == ["Chapter 1: Hexaract", "Chapter 2: Adaman", "Chapter 3: Carddom"]
    assert page.count("<figure") >= 6, "each chapter's pictures"
    text = p.text()
    for log in logs(played):
        for e in entries(log):
            assert said(e.text) in text
    assert "Who burned the mill?: opened in chapter 1, closed in chapter 3." in text
    assert page.count("<html") == 1 and page.count("<head>") == 1 and page.count("<body") == 1


def test_the_obsidian_book_is_notes_whose_links_show_who_met_whom(books):
    vault = books["vault"]
    doc = json.loads(books["json"])
    notes = {p.relative_to(vault).as_posix()[:-3]: p.read_text(encoding="utf-8") for p in vault.rglob("*.md")}
    chapters = ["salt/Chapter 1 - Hexaract", "salt/Chapter 2 - Adaman", "salt/Chapter 3 - Carddom"]
    assert set(chapters) <= set(notes) and "salt" in notes
    assert len([n for n in notes if n.startswith("salt/cast/")]) == len(doc["cast"])
    links: dict[str, set[str]] = {}
    for name, text in notes.items():
        found = re.findall(r"!?\[\[([^\]|#]+)[^\]]*\]\]", text)
        found += [x.replace("%20", " ")[:-3] for x in re.findall(r"\]\(([^)#]+\.md)", text)]
        links[name] = set(found)
        assert set(found) <= set(notes), f"{name} links a note that is not there: {set(found) - set(notes)}"
        if "#^j" in text:
            for target, block in re.findall(r"\[\[([^\]|#]+)#\^(j\d+)", text):
                assert f"^{block}" in notes[target], f"{name}: {target}#^{block}"
    assert [f"![[{c}]]" in notes["salt"] for c in chapters] == [True] * 3, "the book embeds its chapters"
    card = twice_met(doc)
    note = f"salt/cast/{card['name']}"
    assert {chapters[0], chapters[1]} <= links[note], "a card's note links the chapters it was met in"
    assert note in links[chapters[0]] and note in links[chapters[1]], "and those chapters link it back"
    assert "salt/cast/Old Nim" in links[chapters[0]] and "salt/cast/The Salt Gate" in links[chapters[0]]
    assert "## Cast in this chapter" in notes[chapters[1]]
    assert notes[chapters[1]].index("**Chapter 2 of [[salt|The Salt Road]]**") < notes[chapters[1]].index(BRIDGE)
    nim = notes["salt/cast/Old Nim"]
    assert "Your tags: charcoal girl." in nim and "kind: \"person\"" in nim and f"Your note: {NOTE}" in nim
    assert "## Named in your entries" in nim
    assert "[[salt#Threads|Who burned the mill?]]" in notes[chapters[0]], "a thread links the book's threads"


def test_the_lonelog_book_is_the_chapters_playthroughs_one_session_after_another(books):
    text = books["lonelog"]
    sessions = re.findall(r"(?m)^## Session (\d+): (\w+), ", text)
    assert sessions == [("1", "Hexaract"), ("2", "Adaman"), ("3", "Carddom")]
    assert text.startswith("---\ntitle: \"The Salt Road\"\n") and text.count("\n---\n") == 1
    assert "[PC:Wren|a ferryman's daughter; wants to find her brother]" in text


def test_the_json_book_is_the_campaigns_data(played, books):
    jsonschema = pytest.importorskip("jsonschema")
    from referencing import Registry, Resource

    from storyteller.telling.export import schema

    doc = json.loads(books["json"])
    registry = Registry().with_resource("context.schema.json", Resource.from_contents(schema()))
    validator = jsonschema.Draft202012Validator(schema("campaign"), registry=registry)
    errors = list(validator.iter_errors(doc))
    assert not errors, f"{errors[0].json_path}: {errors[0].message}"
    assert [c["heading"] for c in doc["chapters"]] == ["Chapter 1: Hexaract", "Chapter 2: Adaman",
                                                      "Chapter 3: Carddom"]
    assert [c["context"]["journal"] for c in doc["chapters"]] == [
        [{"n": e.n, "text": e.text, "prompt": e.prompt, "about": e.about, "question": e.question}
         for e in entries(log)] for log in logs(played)]
    assert doc["threads"][0]["closed"]["chapter"] == 3
    broken = json.loads(books["json"])
    broken["chapters"][0]["context"]["story"].pop("bridge")
    assert list(validator.iter_errors(broken)), "each chapter's context is checked against its schema"


@pytest.mark.skipif(shutil.which("chromium") is None and shutil.which("google-chrome") is None,
                    reason="no Chromium or Chrome here to print with")
def test_the_pdf_book_is_printed(played, tmp_path):
    code, _, err = export(played, None, campaign="salt", format="pdf", output=tmp_path / "salt.pdf")
    assert code == 0, err
    data = (tmp_path / "salt.pdf").read_bytes()
    assert data.startswith(b"%PDF") and len(re.findall(rb"/Type\s*/Page\b", data)) >= 4  # a page each, at least


# -- what goes wrong -----------------------------------------------------------------------


def test_a_chapter_whose_log_is_gone_is_one_line_and_the_rest_renders(played, tmp_path):
    folder = tmp_path / "copy"
    shutil.copytree(played, folder)
    second = logs(folder)[1]
    second.unlink()
    line = f"Chapter 2: its log {second.name} was moved or deleted"
    for fmt, name in (("markdown", "b.md"), ("html", "b.html"), ("obsidian", "o/b.md"), ("json", "b.json"),
                      ("lonelog", "b.lonelog.md")):
        code, _, err = export(folder, None, campaign="salt", format=fmt, output=tmp_path / name)
        assert code == 0, err
        assert err == f"storyteller: campaign salt: {line}\n" or err.endswith(f"campaign salt: {line}\n"), err
        text = (tmp_path / name).read_text(encoding="utf-8")
        assert line in text, fmt
        if fmt == "lonelog":
            assert "## Session 3: Carddom, " in text and "## Session 1: Hexaract, " in text
        else:
            assert "Chapter 3: Carddom" in text and "Chapter 1: Hexaract" in text, fmt
    assert "*" + line + ".*" in (tmp_path / "b.md").read_text(encoding="utf-8")
    doc = json.loads((tmp_path / "b.json").read_text(encoding="utf-8"))
    assert doc["chapters"][1]["missing"] and doc["chapters"][1]["context"] is None
    assert doc["chapters"][1]["line"] == line


@pytest.mark.parametrize("args, options, said", [
    (("x.jsonl",), {}, "give a log, or --campaign NAME"),
    ((None,), {"playthrough": True}, "leave out --playthrough"),
    ((None,), {"format": "obsidian"}, "give the file of the book's note"),
    ((None,), {"format": "json", "pictures": True, "output": Path("x.json")}, "--pictures writes pictures"),
    ((None,), {"format": "markdown", "paper": "a4"}, "--paper is the printed page"),
])
def test_a_book_refuses_what_it_cannot_do_in_one_line(played, args, options, said):
    code, _, err = export(played, *args, campaign="salt", **options)
    assert code == 2 and said in err and err.count("\n") == 1, err


def test_an_unknown_campaign_is_one_line(played):
    code, _, err = export(played, None, campaign="nope")
    assert code != 0 and err.count("\n") == 1 and "no campaign called 'nope'" in err


# -- the vault -----------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", ["obsidian", "markdown"])
def test_the_vault_groups_the_games_by_campaign(played, tmp_path, fmt):
    vault = tmp_path / "vault"
    with at(played):
        code, _, err = campaigner.run(app.export_all, vault, format=fmt)
        assert code == 0, err
        again = campaigner.run(app.export_all, vault, format=fmt)[1]
    assert " 0 new, 0 updated, " in again
    index = (vault / "index.md").read_text(encoding="utf-8")
    section = index[index.index("## Campaign: The Salt Road"):index.index("## Statistics")]
    names = [p.stem for p in sorted(vault.glob("*-*-*.md"))]
    chapter_notes = [next(n for n in names if g in n) for g, _ in CHAPTERS]
    if fmt == "obsidian":
        assert "The book: [[campaigns/salt/salt|The Salt Road]]" in section
        for n, note in enumerate(chapter_notes, start=1):
            assert f"{n}. [[{note}|Chapter {n}: {TITLES[n - 1]}]]" in section
        assert len(list((vault / "campaigns" / "salt" / "cast").glob("*.md"))) > 30
        chapter = (vault / f"{chapter_notes[0]}.md").read_text(encoding="utf-8")
        assert "[[campaigns/salt/cast/Old Nim|Old Nim]]" in chapter
        book = (vault / "campaigns" / "salt" / "salt.md").read_text(encoding="utf-8")
        assert f"![[{chapter_notes[1]}]]" in book
    else:
        assert "The book: [The Salt Road](campaigns/salt/salt.md)" in section
        for n, note in enumerate(chapter_notes, start=1):
            assert f"{n}. [Chapter {n}: {TITLES[n - 1]}]({note}.md)" in section
        book = (vault / "campaigns" / "salt" / "salt.md").read_text(encoding="utf-8")
        assert "# Chapter 2: Adaman" in book and "# Dramatis personae" in book
        chapter = (vault / f"{chapter_notes[1]}.md").read_text(encoding="utf-8")
        assert "**Chapter 2 of The Salt Road**" in chapter and "The story so far:" in chapter


def test_a_chapter_whose_log_cannot_be_read_is_one_line_naming_why(played, tmp_path):
    folder = tmp_path / "copy"
    shutil.copytree(played, folder)
    second = logs(folder)[1]
    lines = second.read_text(encoding="utf-8").split("\n")
    lines[5] = '{"n": 5, "event": "draw", "card": "sailor", "to": "capital"}'  # a draw that says not where it was dealt
    second.write_text("\n".join(lines), encoding="utf-8")
    code, _, err = export(folder, None, campaign="salt", output=tmp_path / "b.md")
    assert code == 0, err
    text = (tmp_path / "b.md").read_text(encoding="utf-8")
    line = f"Chapter 2: its log {second.name} cannot be read (line 6: "
    assert line in err and line in text and str(folder) not in text + err
    assert "# Chapter 1: Hexaract" in text and "# Chapter 3: Carddom" in text
    code, out, err = export(folder, logs(folder)[2], story=True)  # the chapter after it, alone, is whole
    assert code == 0 and "**Chapter 3 of The Salt Road**" in out, err


HOSTILE = "<img src=x onerror=alert(1)> [x](javascript:alert(2)) %% *b* # `c` |d|"


def test_the_players_words_on_the_title_page_and_in_the_personae_stay_words(played, tmp_path):
    """The campaign's title, its protagonist and the player's notes are the player's words:
    escaped in every book, as an entry is."""
    from storyteller.play import campaign

    folder = tmp_path / "copy"
    shutil.copytree(played, folder)
    with at(folder), campaign.locked("salt"):
        c = campaign.load("salt")
        c.title, c.protagonist = HOSTILE, campaign.Protagonist(HOSTILE, HOSTILE, HOSTILE)
        c.notes["Old Nim"] = HOSTILE
        campaign.save(c)
    for fmt, name in (("markdown", "b.md"), ("obsidian", "o/b.md"), ("lonelog", "b.lonelog.md"), ("html", "b.html")):
        code, _, err = export(folder, None, campaign="salt", format=fmt, output=tmp_path / name)
        assert code == 0, err
        text = (tmp_path / name).read_text(encoding="utf-8")
        page = text if fmt == "html" else MD.render(text.split("\n---\n", 1)[1])  # YAML's is checked elsewhere
        elements = Page(page).elements
        assert not [a for t, a in elements if t in ("img", "script")], fmt
        assert not [a for t, a in elements if t == "a" and "javascript" in (a.get("href") or "")], fmt
        assert HOSTILE in Page(page).text(), f"{fmt}: the title reads as written"
    nim = (tmp_path / "o" / "b" / "cast" / "Old Nim.md").read_text(encoding="utf-8").split("\n---\n", 1)[1]
    assert not [t for t, _ in Page(MD.render(nim)).elements if t in ("img", "script")]
    assert f"Your note: {HOSTILE}" in Page(MD.render(nim)).text()

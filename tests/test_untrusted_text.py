"""Text from a log never becomes markup. A log can come from someone else, so a journal
entry, the question it answers, an oracle question and the header's words are untrusted:
every Markdown-based export (markdown and obsidian, story and playthrough; lonelog) is
rendered here as a CommonMark renderer with HTML enabled renders it, and the page must hold
no script, frame, event handler or javascript: link, no HTML element or link at all that
the text brought, and show the player's words exactly as written, their paragraphs as
paragraphs. The front matter stays YAML that reads back the same values.

Two kinds of log: games played through storyteller from an answers file, under a hostile
seed (one line per entry, as an answers file holds them), and example logs whose words were
replaced by hostile ones (entries of many lines, control characters, the header's
``started``, ``version`` and ``from_log``)."""

from __future__ import annotations

import datetime
import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from markdown_it import MarkdownIt

from storyteller.core.words import clean

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"

# -- hostile and awkward words ------------------------------------------------------------

ONE_LINE = [
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(1)>",
    '<iframe src="https://evil.example/"></iframe>',
    "<svg onload=alert(1)><circle r=5 /></svg>",
    "[x](javascript:alert(1))",
    '<a href="javascript:alert(1)">click me</a>',
    "<javascript:alert(1)>",
    "<!-- a comment that hides --> and what follows it",
    "%% hidden from Obsidian %%",
    "> [!note] a fake callout",
    "---",
    "a | b | c",
    "# not a heading",
    "1. not a list",
    "``` not a fence",
    "`code` and ``double`` and a lone ` backtick",
    "*stars* _under_ **bold** [brackets] \\ back\\slash &amp; &lt;b&gt; &#60;i&#62; ~~strike~~ ![alt](x.png)",
    "[[wikilink]] ![[embed]] <b>bold</b> #tag 50% of it",
    "[ref] and [ref]: javascript:alert(1)",
    "The long road, " * 500,  # a very long line
]

MANY_LINES = [
    (
        "First paragraph, with <em>HTML</em> in it.\n\n"
        "Second paragraph:\n# a heading?\n- a list?\n+ another?\n> [!note] a callout?\n---\n***\n"
        "1. one\n2) two\n%%\nhidden\n%%\n[ref]: javascript:alert(1)\n[ref]\n\n"
        "    four spaces: code?\n\n"
        "```\nfenced?\n```\n\n"
        "Setext?\n===\n\n"
        "| a | b |\n|---|---|\n| c | d |\n\n"
        "<div>\n<script>alert(1)</script>\n</div>\n\n"
        "<iframe src=x></iframe>\n\n"
        "~~~\ntildes\n~~~"
    ),
    # control characters the export removes: no escape may be undone by their removal
    "\x01<script>alert(2)</script>\n\x01# a heading?\n%\x01% a comment? %\x01%\n`\x01` and \x1b[31mred\x1b[0m",
    "Line one\rline two\r\n<iframe src=x></iframe>\n\nThen\u2028# after a line separator",
    "trailing spaces  \nand a backslash\\\nend",
]

QUESTIONS = [
    "Is <script>alert(3)</script> the answer?",
    "Does [this](javascript:alert(4)) link?",
    "Will %% it hide %% the rest?",
    "Is *this* `code` | a cell?",
    "Two lines?\n<img src=x onerror=alert(5)>",
]

HEADER = {
    "started": "<script>alert(6)</script> %% |",
    "version": "<img src=x onerror=alert(7)>\u2028x",
    "from_log": "<img src=x onerror=alert(8)> `a` |.jsonl",
    "from_step": 2,
}
SEED = "<img src=x onerror=alert(9)> | `a` %% *b* # [c](javascript:alert(9))"

# -- logs ---------------------------------------------------------------------------------

GAMES = ["carddom", "adaman", "cascades", "hexaract"]
REWRITTEN = ["carddom-journal", "hexaract-journal", "adaman-won", "cascades-won"]
SOURCES = [f"answers:{g}" for g in GAMES] + [f"example:{n}" for n in REWRITTEN] + ["date:carddom-won"]


def answers_log(cli, tmp_path: Path, game: str) -> Path:
    """A game played through storyteller from an answers file, under a hostile seed: every
    line of ONE_LINE written to the journal and asked of the oracle, the first legal move
    between them."""
    lines = []
    for i, words in enumerate(ONE_LINE):
        lines.append(f"journal: {words}")
        if i % 2 == 0:
            lines.append(f"oracle even: {words}")
        if i % 4 == 3:
            lines.append("1")
    lines.append("quit")
    script = tmp_path / f"{game}.txt"
    script.write_text("\n".join(lines) + "\n", encoding="utf-8")
    path = tmp_path / f"{game}.jsonl"
    r = cli("play", game, "--seed", SEED, "--answers", script, "--log", path)
    assert r.code == 0, r.err
    logged = [json.loads(x) for x in path.read_text(encoding="utf-8").split("\n") if x][1:]
    assert [e["text"] for e in logged if e["event"] == "journal"] == [w.strip() for w in ONE_LINE]
    assert len([e for e in logged if e["event"] == "oracle"]) == len(ONE_LINE[::2])
    return path


def rewritten_log(tmp_path: Path, name: str, header: dict) -> Path:
    """An example log whose words are hostile: each journal entry, each prompt, each
    question asked and each oracle question, and the header's fields in ``header``."""
    lines = [x for x in (EXAMPLES / f"{name}.jsonl").read_text(encoding="utf-8").split("\n") if x]
    head = {**json.loads(lines[0]), **header}
    events = [json.loads(line) for line in lines[1:]]
    entries = MANY_LINES + ONE_LINE
    journal = oracle = question = 0
    for e in events:
        if e["event"] == "journal":
            e["text"] = entries[journal % len(entries)]
            if "prompt" in e:
                e["prompt"] = QUESTIONS[journal % len(QUESTIONS)]
            journal += 1
        elif e["event"] == "oracle":
            e["question"] = QUESTIONS[oracle % len(QUESTIONS)]
            oracle += 1
        elif e["event"] == "question":
            e["text"] = QUESTIONS[question % len(QUESTIONS)]
            question += 1
    path = tmp_path / f"{name}.jsonl"
    path.write_text("".join(json.dumps(x, ensure_ascii=False) + "\n" for x in [head, *events]), encoding="utf-8")
    return path


EXPORTS = [("markdown", "--story"), ("markdown", "--playthrough"), ("obsidian", "--story"),
           ("obsidian", "--playthrough"), ("lonelog", None)]
_MADE: dict[str, tuple[dict, list[dict], dict[str, str]]] = {}  # each source played and exported once per process


def made(cli, tmp_path: Path, source: str) -> tuple[dict, list[dict], dict[str, str]]:
    """A source's log (its header and events) and every Markdown-based export of it, by
    ``format kind``."""
    if source not in _MADE:
        how, name = source.split(":")
        if how == "answers":
            path = answers_log(cli, tmp_path, name)
        elif how == "example":
            path = rewritten_log(tmp_path, name, HEADER)
        else:  # a start that looks like a date and is not one
            path = rewritten_log(tmp_path, name, {"started": "2026-13-45T25:61:00+00:00"})
        lines = [x for x in path.read_text(encoding="utf-8").split("\n") if x]
        header, events = json.loads(lines[0]), [json.loads(line) for line in lines[1:]]
        out = {}
        for fmt, kind in EXPORTS:
            r = cli("export", path, "--format", fmt, *([kind] if kind else []))
            assert r.code == 0, r.err
            out[f"{fmt} {kind[2:] if kind else 'playthrough'}"] = r.out
        _MADE[source] = (header, events, out)
    return _MADE[source]


# -- reading what a renderer makes of it --------------------------------------------------

MD = MarkdownIt("commonmark", {"html": True}).enable(["table", "strikethrough"])
# markdown-it drops javascript: link destinations itself; not every renderer does, so here
# only the escaping may keep them out.
MD.validateLink = lambda url: True

MARKDOWN_TAGS = {"p", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "ul", "ol", "li", "em", "strong", "code",
                 "pre", "hr", "br", "table", "thead", "tbody", "tr", "th", "td", "s"}  # no a, no img: none is ours


class Page(HTMLParser):
    """The rendered HTML: its elements, its visible text, the text of each paragraph."""

    def __init__(self, markup: str) -> None:
        super().__init__(convert_charrefs=True)
        self.elements: list[tuple[str, list[tuple[str, str | None]]]] = []
        self.comments: list[str] = []
        self.text: list[str] = []
        self.paragraphs: list[str] = []
        self._open: list[str] | None = None
        self.feed(markup)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.elements.append((tag, attrs))
        if tag == "p":
            self._open = []

    handle_startendtag = handle_starttag

    def handle_endtag(self, tag: str) -> None:
        if tag == "p" and self._open is not None:
            self.paragraphs.append(words("".join(self._open)))
            self._open = None

    def handle_data(self, data: str) -> None:
        self.text.append(data)
        if self._open is not None:
            self._open.append(data)

    def handle_comment(self, data: str) -> None:
        self.comments.append(data)

    def visible(self) -> str:
        return words("".join(self.text))


def words(text: str) -> str:
    """Text with its whitespace normalised."""
    return " ".join(text.split())


def as_written(text: str) -> str:
    """What the player wrote, as any export may show it: CommonMark's line endings, control
    characters removed (the export removes them), whitespace normalised."""
    return words(clean(re.sub(r"\r\n?", "\n", text)))


def split(text: str) -> tuple[str, str]:
    assert text.startswith("---\n"), text[:80]
    front, sep, body = text[4:].partition("\n---\n")
    assert sep, "the front matter is not closed"
    return front, body


def page(text: str) -> Page:
    return Page(MD.render(split(text)[1]))


def javascript(value: str | None) -> bool:
    return bool(value) and re.sub(r"[\x00-\x20]", "", value).lower().startswith("javascript:")


# -- the tests ----------------------------------------------------------------------------


@pytest.mark.parametrize("source", SOURCES)
def test_no_element_handler_or_link_from_a_log_in_any_markdown_export(cli, tmp_path, source):
    _, _, exports = made(cli, tmp_path, source)
    for which, text in exports.items():
        p = page(text)
        for tag, attrs in p.elements:
            assert tag not in ("script", "iframe", "svg", "a", "img"), f"{which}: <{tag} {attrs}>"
            assert not [name for name, _ in attrs if name.lower().startswith("on")], f"{which}: <{tag} {attrs}>"
            assert not [value for _, value in attrs if javascript(value)], f"{which}: <{tag} {attrs}>"
            assert tag in MARKDOWN_TAGS, f"{which}: <{tag} {attrs}> is HTML a log brought"
        assert not p.comments, f"{which}: an HTML comment hides {p.comments[0]!r}"


def said(events: list[dict], kind: str) -> list[str]:
    """The player's words an export shows: every journal entry and oracle question, and in
    a playthrough the questions asked and the prompts of entries that answer no logged
    question."""
    out = []
    for e in events:
        if e["event"] == "journal":
            out.append(e["text"])
            if kind == "playthrough" and e.get("prompt") and "question" not in e:
                out.append(e["prompt"])
        elif e["event"] == "oracle":
            out.append(e["question"])
        elif e["event"] == "question" and kind == "playthrough":
            out.append(e["text"])
    return out


@pytest.mark.parametrize("source", SOURCES)
def test_the_players_words_read_exactly_as_written(cli, tmp_path, source):
    header, events, exports = made(cli, tmp_path, source)
    for which, text in exports.items():
        fmt, kind = which.split(" ")
        shown = page(text).visible()
        for words_ in said(events, kind):
            assert as_written(words_) in shown, f"{which}: {words_[:60]!r} does not read as written"
        assert as_written(header["seed"]) in shown, f"{which}: the seed"
        if kind == "playthrough" and fmt != "lonelog" and "from_log" in header:
            assert as_written(header["from_log"]) in shown, f"{which}: the log it is a branch of"
            assert as_written(header["started"]) in shown, f"{which}: when it started"


@pytest.mark.parametrize("source", SOURCES)
def test_an_entrys_paragraphs_stay_paragraphs_of_its_words(cli, tmp_path, source):
    _, events, exports = made(cli, tmp_path, source)
    for which, text in exports.items():
        paragraphs = page(text).paragraphs
        for e in events:
            if e["event"] != "journal":
                continue
            for part in re.split(r"\n[ \t]*\n", clean(re.sub(r"\r\n?", "\n", e["text"]))):
                if not part.strip():
                    continue
                wanted = words(part)
                found = [p for p in paragraphs if p == wanted or p == f"{wanted} ^j{e['n']}"]
                assert found, f"{which}: entry {e['n']}'s paragraph {wanted[:60]!r} is not a paragraph of its own"


# -- the front matter ---------------------------------------------------------------------

# What a YAML parser reads as it is inside a double-quoted scalar: YAML's printable
# characters, less the line separators (a YAML 1.1 reader breaks a line there) and the
# byte order mark.
YAML_PRINTABLE = re.compile("[\t\x20-\x7e\xa0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd\U00010000-\U0010ffff]*")


def front_matter(text: str) -> dict[str, object]:
    """The front matter's flat properties: each ``key: value`` a JSON scalar or list of
    printable characters (JSON's escapes are YAML's too), a bare date that is a real date
    (YAML reads it as a date), a bare number or word, or a block list of such scalars."""
    block, _ = split(text)
    props: dict[str, object] = {}
    key = None
    for line in block.split("\n"):
        if line.startswith("  - "):
            assert key is not None and isinstance(props[key], list), f"a list item outside a list: {line!r}"
            props[key].append(scalar(line[4:]))
            continue
        key, sep, value = line.partition(": ")
        if not sep and line.endswith(":"):
            key, value = line[:-1], ""
        assert re.fullmatch(r"[a-z_]+", key), f"not a flat property: {line!r}"
        props[key] = [] if not value else scalar(value)
    return props


def scalar(value: str) -> object:
    if re.fullmatch(r"[a-z]+", value) and value not in ("true", "false", "yes", "no", "on", "off", "null"):
        return value  # a plain word: the template's own (cssclasses)
    if re.fullmatch(r"\d{4}-\d{2}-\d{2}", value):
        return datetime.date.fromisoformat(value).isoformat()  # fails on a date that is none
    assert YAML_PRINTABLE.fullmatch(value), f"{value!r} holds a character YAML does not read as itself"
    return json.loads(value)


@pytest.mark.parametrize("source", SOURCES)
def test_the_front_matter_stays_yaml_holding_the_same_values(cli, tmp_path, source):
    header, _, exports = made(cli, tmp_path, source)
    for which, text in exports.items():
        props = front_matter(text)
        assert props["seed"] == header["seed"], which
        date = props["start_date"] if which.startswith("lonelog") else props["date"]
        assert date == header["started"][:10], which
        if which.startswith("lonelog"):
            assert props["tools"] == f"storyteller {header['version']}", which


# -- the vault ----------------------------------------------------------------------------


def test_export_all_keeps_the_notes_in_the_vault_and_the_index_free_of_markup(cli, home, tmp_path):
    """``export --all`` names each note after the log's date, game and seed, and lists them
    in an index: a start that is a path writes no note outside the vault, and the index
    shows the log's words as written."""
    sessions = home / "sessions"
    sessions.mkdir(parents=True)
    played = answers_log(cli, tmp_path, "carddom")
    played.rename(sessions / "hostile-seed.jsonl")
    rewritten_log(tmp_path, "carddom-won", {"started": "../../out"}).rename(sessions / "a-path.jsonl")
    records = [json.loads(x) for x in (EXAMPLES / "adaman-won.jsonl").read_text(encoding="utf-8").split("\n") if x]
    for e in records:
        if e.get("event") == "end":  # an end the rules never made: the index lists it all the same
            e["result"] = "<img src=x onerror=alert(10)>"
    (sessions / "a-result.jsonl").write_text("".join(json.dumps(e) + "\n" for e in records), encoding="utf-8")
    vault = tmp_path / "deep" / "er" / "vault"
    for fmt in ("markdown", "obsidian"):
        r = cli("export", "--all", vault, "--format", fmt, "--force")
        assert r.code == 0, r.err
        strays = [p for p in tmp_path.rglob("*.md") if vault not in p.parents]
        assert not strays, f"a note written outside the vault: {strays}"
        text = (vault / "index.md").read_text(encoding="utf-8")
        p = page(text)
        for tag, attrs in p.elements:
            assert tag in MARKDOWN_TAGS | {"a"}, f"index ({fmt}): <{tag} {attrs}> is HTML a log brought"
            assert not [value for _, value in attrs if javascript(value)], f"index ({fmt}): <{tag} {attrs}>"
        assert as_written(SEED) in p.visible(), f"index ({fmt}): the seed"
        assert "<img src=x onerror=alert(10)>" in p.visible(), f"index ({fmt}): the result"


def test_obsidian_markup_in_a_journal_shows_as_typed():
    """Obsidian reads ==highlight==, $math$ and a paragraph's last ^block-id (which would
    shadow the note's own ^jN): escaped, each shows as typed, in CommonMark as in Obsidian."""
    from markdown_it import MarkdownIt

    from storyteller.telling.filters import inline, prose

    words = "a ==bright== coin, $5 worth, and 2^8 ^j3"
    for made in (prose(words), inline(words)):
        bare = [m.group() for m in re.finditer(r"(?<!\\)[=$^]", made)]  # a mark without its backslash
        assert not bare, made
        assert MarkdownIt("commonmark").render(made).strip() == f"<p>{words}</p>"

"""Every export format, over every example: Obsidian notes (typed properties, card and
mechanics callouts, block ids, valid CommonMark), the JSON document (valid against the
schema shipped in the package), Lonelog notation (headings, fences, the notation's line
prefixes); the command line's --format, bad values and --template with every format; and
the user templates of docs/templates.md. Each example is rendered once per format."""

from __future__ import annotations

import html
import json
import re
import sys
from pathlib import Path

import pytest
from markdown_it import MarkdownIt

from storyteller import registry
from storyteller.telling.export import RENDERERS, schema, to_json
from storyteller.telling.context import context
from storyteller.log.file import read
from storyteller.core.words import clean

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
LOGS = sorted(EXAMPLES.glob("*.jsonl"))
NAMES = [p.stem for p in LOGS]
KINDS = [(fmt, kind) for fmt, r in RENDERERS.items() for kind in r.kinds]
MD = MarkdownIt("commonmark")


@pytest.fixture(scope="module")
def contexts() -> dict[str, dict]:
    return {p.stem: context(read(p)) for p in LOGS}


@pytest.fixture(scope="module")
def rendered(contexts) -> dict[tuple[str, str, str], str]:
    """Every example in every format and kind, rendered once (as `export.render` does)."""
    out = {}
    for name, ctx in contexts.items():
        game = registry.get(ctx["game"]["name"])
        for fmt, kind in KINDS:
            out[name, fmt, kind] = clean(RENDERERS[fmt].render(ctx, game, kind))
    return out


def split_front_matter(text: str) -> tuple[dict[str, object], str]:
    """Flat YAML properties as Obsidian and Lonelog notes write them: ``key: value`` with a
    JSON scalar, a bare date or number, or a block list of JSON strings below the key."""
    assert text.startswith("---\n")
    block, sep, body = text[4:].partition("\n---\n")
    assert sep, "the front matter is not closed"
    props: dict[str, object] = {}
    key = None
    for line in block.splitlines():
        if line.startswith("  - "):
            assert key is not None and props[key] == [], f"a list item outside a list: {line!r}"
            item = line[4:]
            props.setdefault("_items", {}).setdefault(key, []).append(item)
            continue
        key, sep, value = line.partition(":")
        assert sep and re.fullmatch(r"[a-z_]+", key), f"not a flat property: {line!r}"
        value = value.strip()
        if not value:
            props[key] = []
        elif re.fullmatch(r"\d{4}-\d{2}-\d{2}", value):
            props[key] = ("date", value)
        else:
            props[key] = json.loads(value)  # a JSON string, number or list reads the same in YAML
    for key, items in props.pop("_items", {}).items():
        props[key] = [json.loads(i) if i.startswith('"') else i for i in items]
    return props, body


# -- Obsidian -------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["story", "playthrough"])
@pytest.mark.parametrize("name", NAMES)
def test_obsidian_properties_are_flat_and_typed(rendered, contexts, name, kind):
    meta = contexts[name]["meta"]
    props, _ = split_front_matter(rendered[name, "obsidian", kind])
    assert props["tags"] == meta["tags"] and all(" " not in t for t in props["tags"])
    assert props["date"] == ("date", meta["date"])  # unquoted: Obsidian reads a date
    alias = meta["title"] if kind == "story" else f"Playthrough: {meta['title']}"
    assert props["aliases"] == [alias]
    assert props["outcome"] == meta["outcome"] and props["game"] == meta["game"] and props["seed"] == meta["seed"]
    assert isinstance(props["seed"], str)  # "042" stays text
    assert props.get("score") == meta["score"]  # a number where the game has one, else absent
    assert props["cssclasses"] == ["storyteller"]


def callouts(tokens) -> list[tuple[str, str, int]]:
    """(type with fold mark, title, level) of each callout: a block quote whose first line is ``[!type]``."""
    out = []
    for i, t in enumerate(tokens):
        if t.type == "blockquote_open":
            first = next(x for x in tokens[i:] if x.type == "inline")
            m = re.match(r"\[!([a-z]+)\]([-+]?) ?(.*)", first.content.split("\n")[0])
            if m:
                out.append((m.group(1) + m.group(2), m.group(3), t.level))
    return out


@pytest.mark.parametrize("kind", ["story", "playthrough"])
@pytest.mark.parametrize("name", NAMES)
def test_obsidian_notes_hold_cards_mechanics_and_block_ids(rendered, contexts, name, kind):
    ctx = contexts[name]
    text = rendered[name, "obsidian", kind]
    assert "\n\n\n" not in text and text.endswith("\n") and not text.endswith("\n\n")
    _, body = split_front_matter(text)
    tokens = MD.parse(body)
    # valid CommonMark that holds its shape: no code, no raw HTML, a title, callouts at the top
    assert not [t for t in tokens if t.type in ("code_block", "fence", "html_block")]
    headings = [(t.tag, tokens[i + 1].content) for i, t in enumerate(tokens) if t.type == "heading_open"]
    assert headings[0][0] == "h1" and all(tag == "h2" for tag, _ in headings[1:])
    assert len(headings) > 2
    found = callouts(tokens)
    assert {c[2] for c in found} == {0} and {c[0] for c in found} <= {"card", "mechanics-", "question", "oracle"}
    quotes = [t for t in tokens if t.type == "blockquote_open" and t.level == 0]
    assert len(quotes) == len(found), "a block quote that is not a callout"

    shown = ctx["steps"] if kind == "playthrough" else [
        s for s in ctx["steps"] if not s["undone"] and not s["corrected"] and s["kind"] != "undo"
    ]
    cards = [title for kind_, title, _ in found if kind_ == "card"]
    draws = [s for s in shown if s["kind"] == "draw"]
    assert len(cards) == len(draws)
    for title, s in zip(cards, draws):
        assert title.endswith(s["text"])
        assert title.startswith(f"Step {s['n']}: ") == (kind == "playthrough")
    quoted = "\n".join(t.content for t in tokens if t.type == "inline" and t.level > 0)  # inside callouts
    for s in shown:
        if s["kind"] in ("decision", "roll"):
            assert f"**{s['text']}**" in quoted, s
    folded = [c for c in found if c[0] == "mechanics-"]
    assert all(title == "" for _, title, _ in folded)
    assert folded or not [s for s in shown if s["kind"] == "decision"]
    paragraphs = [tokens[i + 1].content for i, t in enumerate(tokens) if t.type == "paragraph_open" and t.level == 0]
    for entry in ctx["journal"]:
        ids = [p for p in paragraphs if p.endswith(f" ^j{entry['n']}")]
        assert len(ids) == 1, f"journal entry {entry['n']} has no block id of its own"
        assert entry["text"].strip().splitlines()[-1].strip() in ids[0]
    assert len(re.findall(r" \^j\d+$", body, re.M)) == len(ctx["journal"])
    if ctx["outcome"]:
        assert headings[-1] == ("h2", "The ending")


def test_obsidian_prose_keeps_a_journal_entry_a_paragraph_whatever_it_holds(contexts):
    ctx = json.loads(json.dumps(contexts["carddom-won"]))
    tricky = ("# not a heading\n- not a list\n> [!card] not a card\n```\n1. not a list\n---\n    not code\n"
              "<div>not html</div>")
    for step in ctx["steps"]:
        if step["kind"] == "journal":
            step["text"] = tricky
    text = RENDERERS["obsidian"].render(ctx, registry.get("carddom"), "story")
    tokens = MD.parse(split_front_matter(text)[1])
    assert not [t for t in tokens if t.type in ("code_block", "fence", "html_block", "hr")]
    assert not [t for t in tokens if t.type in ("bullet_list_open", "ordered_list_open") and t.level == 0]
    assert [tag for tag in (t.tag for t in tokens if t.type == "heading_open") if tag == "h1"] == ["h1"]
    assert all(c[0] in ("card", "mechanics-") for c in callouts(tokens))
    paragraphs = [tokens[i + 1] for i, t in enumerate(tokens) if t.type == "paragraph_open" and t.level == 0]
    entries = [p for p in paragraphs if re.search(r" \^j\d+$", p.content)]
    assert len(entries) == sum(s["kind"] == "journal" for s in ctx["steps"])
    words = "".join(c.content for c in entries[0].children)
    for piece in ("# not a heading", "- not a list", "> [!card] not a card", "1. not a list", "not code"):
        assert piece in words


def test_a_journal_entry_cannot_hide_the_rest_of_an_obsidian_note_in_a_comment(contexts):
    """``%%`` opens an Obsidian comment, which hides everything up to the next one: in a
    journal entry it is escaped, and reads as the player typed it."""
    ctx = json.loads(json.dumps(contexts["carddom-won"]))
    entries = [s for s in ctx["steps"] if s["kind"] == "journal"]
    entries[0]["text"] = "I wrote %% to hide this %% and 50% of it."
    for kind in ("story", "playthrough"):
        text = RENDERERS["obsidian"].render(ctx, registry.get("carddom"), kind)
        assert "%%" not in text.replace("\\%\\%", "")
        assert "I wrote \\%\\% to hide this \\%\\% and 50% of it." in text
        words = "".join(c.content for t in MD.parse(text) if t.type == "inline" for c in t.children)
        assert "I wrote %% to hide this %% and 50% of it." in words  # a backslash escape reads as the character


# -- JSON -----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def validator():
    jsonschema = pytest.importorskip("jsonschema")
    doc = schema()
    jsonschema.Draft202012Validator.check_schema(doc)
    return jsonschema.Draft202012Validator(doc)


@pytest.mark.parametrize("name", NAMES)
def test_json_is_the_context_itself_and_valid_against_the_schema(rendered, contexts, validator, name):
    text = rendered[name, "json", "document"]
    doc = json.loads(text)
    assert doc == contexts[name]
    errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.path))
    assert not errors, f"{name}: {errors[0].json_path}: {errors[0].message}"
    assert list(doc) == ["version", "game", "variants", "seed", "source", "outcome", "meta", "steps", "journal",
                         "story"]
    assert text.startswith('{\n  "version": 2,\n  "game": {\n    "name": ') and text.endswith("}\n")


def test_json_keeps_text_as_itself_and_escapes_every_control_character(contexts, validator):
    ctx = json.loads(json.dumps(contexts["carddom-won"]))
    ctx["journal"][0]["text"] = "Ünïcode — “quoted”, a bell\x07, an escape\x1b[2J, a C1\x9b and DEL\x7f."
    text = to_json(ctx)
    assert "Ünïcode — “quoted”" in text and clean(text) == text
    assert "\\u0007" in text and "\\u001b" in text and "\\u009b" in text and "\\u007f" in text
    assert json.loads(text) == ctx
    assert not list(validator.iter_errors(json.loads(text)))


def test_the_schema_refuses_what_the_context_never_holds(contexts, validator):
    good = contexts["hexaract-won"]

    def broken(change) -> bool:
        doc = json.loads(json.dumps(good))
        change(doc)
        return bool(list(validator.iter_errors(doc)))

    assert not broken(lambda d: None)
    assert broken(lambda d: d.pop("story"))
    assert broken(lambda d: d["meta"].update(secret="x"))
    assert broken(lambda d: d.update(version=1))
    assert broken(lambda d: d["outcome"].update(result="draw"))
    assert broken(lambda d: d["steps"][0].update(kind="shuffle"))
    assert broken(lambda d: d["steps"][0].update(undone="no"))
    assert broken(lambda d: next(s for s in d["steps"] if s["kind"] == "roll").pop("table"))
    assert broken(lambda d: next(s for s in d["steps"] if s["kind"] == "decision")["move"].update(type="jump"))
    assert broken(lambda d: d["story"].update(harm="lots"))
    assert broken(lambda d: d["journal"][0].update(about="7"))
    assert broken(lambda d: next(s for s in d["steps"] if s["kind"] == "draw").update(question={"text": "Why?"}))
    assert broken(lambda d: next(s for s in d["steps"] if s["kind"] == "draw").pop("question"))


def test_an_unfinished_games_json_is_valid_too(cli, tmp_path, validator):
    from test_session import play

    r, path = play(cli, tmp_path, "enter 1", "take 10C", "undo", "quit")
    assert r.code == 0, r.err
    r = cli("export", path, "--format", "json")
    assert r.code == 0, r.err
    doc = json.loads(r.out)
    assert doc["outcome"] is None and doc["meta"]["outcome"] == "unfinished"
    assert not list(validator.iter_errors(doc))


# -- Lonelog --------------------------------------------------------------------------------

NOTATION = re.compile(r"^(@ |d: |-> |=> |\? |\((note|undo|table): |\[Deck: )")


@pytest.mark.parametrize("name", NAMES)
def test_lonelog_has_scenes_fences_and_the_notations_prefixes(rendered, contexts, name):
    ctx = contexts[name]
    text = rendered[name, "lonelog", "playthrough"]
    assert "\n\n\n" not in text and text.endswith("\n") and not text.endswith("\n\n")
    props, body = split_front_matter(text)
    assert props["title"] == ctx["meta"]["title"] and props["start_date"] == ("date", ctx["meta"]["date"])
    assert props["ruleset"].startswith(ctx["meta"]["game_title"])
    tokens = MD.parse(body)
    assert not [t for t in tokens if t.type in ("code_block", "html_block")]
    headings = [(t.tag, tokens[i + 1].content) for i, t in enumerate(tokens) if t.type == "heading_open"]
    assert headings[0] == ("h1", ctx["meta"]["title"]) and headings[1] == ("h2", "Session 1")
    scenes = [h for tag, h in headings[2:]]
    assert all(tag == "h3" for tag, _ in headings[2:])
    for number, heading in enumerate(scenes, 1):
        assert re.fullmatch(rf"S{number} \*.+\*", heading), heading  # `### S1 *context*`
    assert f"Scenes: S1-S{len(scenes)}" in text

    fences = [t for t in tokens if t.type == "fence"]
    assert fences and all(t.info == "" and t.level == 0 for t in fences)
    lines = [line for f in fences for line in f.content.splitlines()]
    bad = [line for line in lines if not NOTATION.match(line)]
    assert not bad, f"lines without a Lonelog prefix: {bad[:3]}"
    for s in ctx["steps"]:
        if s["kind"] == "decision":
            assert f"@ {s['text']}" in lines
        elif s["kind"] == "draw":
            assert any(line.startswith("d: draw=") and line.endswith(f" -> {s['meaning']}") for line in lines)
        elif s["kind"] == "roll":
            assert f"d: {' '.join(map(str, s['roll']['dice']))} -> {s['meaning']}" in lines
        elif s["kind"] == "journal":
            prose = [t.content for i, t in enumerate(tokens)
                     if t.type == "inline" and tokens[i - 1].type == "paragraph_open"]
            assert any(s["text"].strip().splitlines()[0].strip() in p for p in prose), "a journal entry not in prose"
            assert not any(s["text"] in f.content for f in fences), "a journal entry inside a fence"
            if s["prompt"]:
                assert f"? {s['prompt']}" in lines
    if ctx["outcome"]:
        assert f"-> {ctx['outcome']['result'].capitalize()}" in lines and f"=> {ctx['outcome']['reason']}" in lines
        assert scenes[-1].endswith("*The ending*")


def test_lonelog_names_cards_as_its_card_add_on_does():
    from storyteller.telling.filters import deck_name, lonelog_card

    assert [lonelog_card(c) for c in ("KH", "10D", "7C", "AS", "QS")] == ["Kh", "10d", "7c", "As", "Qs"]
    assert [lonelog_card(c) for c in ("JK1", "JK2")] == ["RJkr", "BJkr"]
    assert [lonelog_card(c) for c in ("huntress", "ace-of-moons", "excuse")] == [
        "The Huntress", "Ace of Moons", "The Excuse"]
    assert lonelog_card("gold") == "gold"  # a card of a game storyteller has no data for: its id
    assert [deck_name(c) for c in ("KH", "JK1", "huntress", "gold")] == ["piquet", "piquet", "Decktet", ""]


# -- scenes ---------------------------------------------------------------------------------


def test_scenes_open_where_a_game_says_and_the_end_opens_the_last(contexts):
    from storyteller.telling.filters import scenes

    steps = contexts["cascades-won"]["steps"]
    by_pass = scenes(steps, by="pass")
    assert [s["opener"]["pass"] for s in by_pass[:-1]] == list(range(1, len(by_pass)))
    assert by_pass[-1]["ending"] and by_pass[-1]["opener"]["kind"] == "end"
    assert [step for scene in by_pass for step in scene["steps"]] == steps
    assert [s["number"] for s in by_pass] == list(range(1, len(by_pass) + 1))
    for scene in by_pass:  # beats: one card, one entry, or a run of mechanics
        for beat in scene["beats"]:
            kinds = {step["kind"] for step in beat["steps"]}
            if beat["kind"] == "mechanics":
                assert kinds <= {"decision", "roll", "undo"}
            else:
                assert len(beat["steps"]) == 1
        assert [step for beat in scene["beats"] for step in beat["steps"]] == scene["steps"]

    carddom = contexts["carddom-table"]["steps"]
    entered = scenes(carddom, at={"kind": "decision", "move.type": ["enter", "move", "face"]})
    assert entered[0]["opener"] is None and entered[0]["steps"][0]["n"] == 1
    assert next(s["opener"]["move"]["type"] for s in entered[1:-1]) == "enter"
    undone = [s for s in steps if s["undone"] and s["kind"] == "decision"]
    assert undone and all(sc["opener"] is not s for sc in scenes(steps, at={"kind": "decision"}) for s in undone)


# -- the command line -----------------------------------------------------------------------

LOG = EXAMPLES / "hexaract-table.jsonl"


@pytest.mark.parametrize("value", ["docx", "", "mark down", "json2", "--story"])
def test_a_bad_format_is_one_line_and_exit_2(cli, value):
    r = cli("export", LOG, "--story", "--format", value)
    assert r.code == 2 and r.out == ""
    assert r.err.count("\n") == 1 and "format" in r.err and "markdown, obsidian, json, lonelog" in r.err


@pytest.mark.parametrize("fmt, flag, words", [
    ("json", "--story", "the json format has no story, only the document"),
    ("json", "--playthrough", "the json format has no playthrough"),
    ("lonelog", "--story", "the lonelog format has no story, only the playthrough"),
])
def test_a_kind_a_format_does_not_have_is_one_line_and_exit_2(cli, fmt, flag, words):
    r = cli("export", LOG, "--format", fmt, flag)
    assert r.code == 2 and r.err.count("\n") == 1 and words in r.err


def test_formats_from_the_command_line(cli, tmp_path):
    assert cli("export", LOG, "--format", "obsidian").code == 2  # a story or a playthrough?
    lonelog = cli("export", LOG, "--format", "lonelog")
    assert lonelog.code == 0 and "### S1 *Setting out*" in lonelog.out and "\n```\nd: " in lonelog.out
    assert cli("export", LOG, "--format", "LoneLog", "--playthrough").out == lonelog.out
    out = tmp_path / "game.json"
    r = cli("export", LOG, "--format", "json", "-o", out)
    assert r.code == 0 and json.loads(out.read_text(encoding="utf-8"))["game"]["name"] == "hexaract"
    note = cli("export", LOG, "--format", "obsidian", "--story")
    assert note.code == 0 and "> [!card] " in note.out and "> [!mechanics]-\n" in note.out
    markdown = cli("export", LOG, "--story", "--format", "markdown").out
    assert markdown == (EXAMPLES / "hexaract-table.story.md").read_text(encoding="utf-8")


TEMPLATE = "{{ meta.game }} {{ steps | length }} {{ journal | length }}\n"


@pytest.mark.parametrize("fmt", [f for f in RENDERERS if f != "pdf"])  # pdf: tests/test_html.py
def test_a_template_works_with_every_format(cli, tmp_path, fmt):
    tpl = tmp_path / "mine.j2"
    tpl.write_text(TEMPLATE if fmt != "json" else '{"game": {{ meta.game | tojson }}, "steps": {{ steps | length }}}\n')
    r = cli("export", LOG, "--format", fmt, "--template", tpl)
    assert r.code == 0, r.err
    ctx = context(read(LOG))
    if fmt == "json":
        assert json.loads(r.out) == {"game": "hexaract", "steps": len(ctx["steps"])}
    else:
        assert r.out == f"hexaract {len(ctx['steps'])} {len(ctx['journal'])}\n"


def test_a_json_template_must_make_json_and_a_broken_one_is_one_line(cli, tmp_path):
    tpl = tmp_path / "not.json.j2"
    tpl.write_text("{{ meta.game }}: not JSON\n")
    r = cli("export", LOG, "--format", "json", "--template", tpl)
    assert r.code == 1 and r.err.count("\n") == 1 and "is not JSON" in r.err and r.out == ""
    tpl.write_text("{{ ''.__class__ }}\n")
    for fmt in RENDERERS:
        if fmt == "pdf":  # printed by a browser, which this machine may not have: tests/test_html.py
            continue
        kind = ["--playthrough"] if fmt in ("markdown", "obsidian", "html") else []
        r = cli("export", LOG, "--format", fmt, "--template", tpl, *kind)
        assert r.code == 1 and r.err.count("\n") == 1 and "not allowed in a template" in r.err


def test_a_users_obsidian_or_lonelog_template_may_import_the_shared_pieces(cli, tmp_path):
    tpl = tmp_path / "mine.md.j2"
    tpl.write_text('{% import "_obsidian.md.j2" as o %}{% import "_scenes.j2" as sc %}\n'
                   '{{ o.properties(meta, meta.title) }}\n'
                   '{% for scene in steps | scenes(**sc.split) %}\n## {{ sc.title(scene, story) }}\n{% endfor %}\n')
    r = cli("export", LOG, "--format", "obsidian", "--template", tpl)
    assert r.code == 0, r.err
    assert r.out.startswith("---\ntitle: ") and "\n## Setting out\n" in r.out and "\n## Day 1\n" in r.out


# -- a game from another package gets every format --------------------------------------------

PLUGINS = Path(__file__).resolve().parent / "plugins"


def test_a_plugin_game_renders_in_every_format(tmp_path, validator):
    from storyteller.play.session import Session

    sys.path.insert(0, str(PLUGINS))
    registry.refresh()
    try:
        game = registry.rules("doors")
        path = tmp_path / "doors.jsonl"
        session = Session.new(game, game.parse_variants([]), "5", path)
        session.advance()
        while not session.over:
            session.decide(session.legal_actions()[0])
        session.journal("Behind the last door, *nothing* at all.")
        session.close()
        ctx = context(read(path))
        reg = registry.get("doors")
        for fmt, kind in KINDS:
            text = clean(RENDERERS[fmt].render(ctx, reg, kind))
            assert "Behind the last door" in text, (fmt, kind)
        assert not list(validator.iter_errors(ctx))
        lonelog = RENDERERS["lonelog"].render(ctx, reg, "playthrough")
        first = next(s for s in ctx["steps"] if s["kind"] == "decision")
        # the default: a scene with each decision
        assert re.search(rf"^### S\d+ \*{re.escape(first['text'])}\*$", lonelog, re.M)
    finally:
        sys.path.remove(str(PLUGINS))
        registry.refresh()


# -- docs/templates.md ------------------------------------------------------------------------

DOC = ROOT / "docs" / "templates.md"


def doc_templates() -> list[tuple[str, str, str]]:
    """(format, kind, source) of every template in docs/templates.md: a ```jinja fence
    whose first line says ``{# format: F, kind: K #}``."""
    out = []
    for block in re.findall(r"^````jinja\n(.*?)^````$", DOC.read_text(encoding="utf-8"), re.S | re.M):
        m = re.match(r"\{#-? format: (\w+), kind: (\w+)", block)
        if m:
            out.append((m.group(1), m.group(2), block))
    return out


def test_the_reference_has_a_small_template_for_each_format():
    assert sorted({fmt for fmt, _, _ in doc_templates()}) == sorted(RENDERERS)


@pytest.mark.parametrize("fmt, kind, source", doc_templates(), ids=lambda x: x if len(str(x)) < 20 else "")
def test_each_template_in_the_reference_renders_every_example(tmp_path, contexts, fmt, kind, source):
    tpl = tmp_path / f"mine.{fmt}.j2"
    tpl.write_text(source, encoding="utf-8")
    for name, ctx in contexts.items():
        text = RENDERERS[fmt].render(ctx, registry.get(ctx["game"]["name"]), kind, tpl)
        shown = html.unescape(text) if fmt in ("html", "pdf") else text
        assert ctx["meta"]["title"] in shown or fmt == "json", name
        if fmt == "json":
            json.loads(text)
        elif fmt in ("html", "pdf"):
            assert text.count("<h1>") == 1 and "<script" not in text, name
        else:
            assert not [t for t in MD.parse(text) if t.type in ("code_block", "html_block")], name


def test_the_reference_names_every_field_and_every_filter(contexts):
    from storyteller.telling.filters import FILTERS

    doc = DOC.read_text(encoding="utf-8")
    named = set(re.findall(r"`([A-Za-z_][A-Za-z_0-9-]*)`", doc))
    fields: set[str] = set()

    def walk(value):
        if isinstance(value, dict):
            for k, v in value.items():
                fields.add(k)
                if k not in ("variants", "supply"):  # their keys are data: variant names, suits
                    walk(v)
        elif isinstance(value, list):
            for v in value:
                walk(v)

    for ctx in contexts.values():
        walk(ctx)
    missing = fields - named
    assert not missing, f"docs/templates.md does not name {sorted(missing)}"
    assert set(FILTERS) <= named, f"docs/templates.md does not name the filters {sorted(set(FILTERS) - named)}"


def test_the_analysis_goes_into_the_json_document(cli, monkeypatch):
    """Every format that takes --analysis takes it: the JSON document (which has no
    playthrough) holds it as "analysis"; Lonelog shows none and says so in one line."""
    log = EXAMPLES / "carddom-won.jsonl"
    r = cli("export", log, "--format", "json", "--analysis")
    assert r.code == 0, r.err
    found = json.loads(r.out)["analysis"]
    assert found["game"] == "carddom" and found["decisions"]
    r = cli("export", log, "--format", "lonelog", "--analysis")
    assert r.code == 2 and "not shown in Lonelog notation" in r.err and r.err.count("\n") == 1
    r = cli("export", log, "--format", "markdown", "--story", "--analysis")
    assert r.code == 2 and "add --playthrough" in r.err

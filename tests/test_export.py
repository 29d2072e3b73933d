"""Exports: the story and the playthrough, as a reader and a file system see them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from markdown_it import MarkdownIt

from test_session import answers, play

STORY_SCRIPT = (
    "journal: I am Tamsin, and I left the forge to find the one who burned it.",
    "enter 1",
    "journal: Wet leaves, and a path that curls back on itself.",
    "take 10C",
    "explore",
    "journal: They did not smile, but they shared their bread.",
    "move 3",
    "quit",
)


def front_matter(text: str) -> dict[str, object]:
    assert text.startswith("---\n")
    block, _, body = text[4:].partition("\n---\n")
    fields = {}
    for line in block.splitlines():
        key, sep, value = line.partition(": ")
        assert sep, f"not a flat key: value line: {line!r}"
        fields[key] = json.loads(value)  # every value is a JSON scalar or list, which YAML reads the same
    return fields


def body(text: str) -> str:
    return text[4:].partition("\n---\n")[2]


@pytest.fixture
def story_log(cli, tmp_path) -> Path:
    r, path = play(cli, tmp_path, *STORY_SCRIPT)
    assert r.code == 0, r.err
    return path


def test_story_weaves_meanings_and_the_players_words(cli, story_log):
    r = cli("export", story_log, "--story")
    assert r.code == 0, r.err
    text = r.out
    fm = front_matter(text)
    assert set(fm) == {"title", "game", "seed", "outcome", "date", "tags"}
    assert fm["game"] == "carddom" and fm["seed"] == "7" and fm["outcome"] == "unfinished"
    assert "commoner" in text and "power" in text  # 10 of Spades: a commoner seeking power
    assert "forest" in text  # the 10 of Clovers as a location
    for line in STORY_SCRIPT:
        if line.startswith("journal: "):
            assert line[len("journal: "):] in text
    assert "10 of Clovers" in text  # what was taken


def test_story_is_the_same_on_every_render(cli, story_log):
    assert cli("export", story_log, "--story").out == cli("export", story_log, "--story").out


def test_playthrough_records_every_step_and_how_to_replay(cli, story_log):
    r = cli("export", story_log, "--playthrough")
    assert r.code == 0
    text = r.out
    assert "storyteller play carddom --seed 7" in text
    assert "Enter the realm" in text and "Take the 10 of Clovers" in text
    assert "Drew the 10 of Spades as the character" in text
    assert "Wet leaves, and a path that curls back on itself." in text
    events = [json.loads(l) for l in story_log.read_text().splitlines()[1:]]
    for e in events:
        assert f"\n{e['n']}. " in text


def test_markdown_parses_as_commonmark_with_headings(cli, story_log):
    md = MarkdownIt("commonmark")
    for kind in ("--story", "--playthrough"):
        text = cli("export", story_log, kind).out
        tokens = md.parse(body(text))
        headings = [t for t in tokens if t.type == "heading_open"]
        assert headings and headings[0].tag == "h1"
        assert any(t.type == "blockquote_open" for t in tokens) or kind == "--playthrough"


def test_journal_text_with_markdown_characters_stays_inside_its_quote(cli, tmp_path):
    tricky = "# not a heading\n- not a list"
    r, path = play(cli, tmp_path, "enter 1", "quit")
    from storyteller.log import LogWriter, read

    writer = LogWriter.reopen(read(path))
    writer.append("journal", text=tricky)
    writer.close()
    text = cli("export", path, "--story").out
    assert "> # not a heading\n> - not a list" in text


def test_an_undone_move_is_marked_in_the_playthrough_and_left_out_of_the_story(cli, tmp_path):
    r, path = play(cli, tmp_path, "enter 1", "take 10C", "undo", "quit")
    assert r.code == 0
    play_text = cli("export", path, "--playthrough").out
    assert "*(taken back)*" in play_text and "Undo: took back" in play_text
    story_text = cli("export", path, "--story").out
    assert "10 of Clovers with you" not in story_text and "kept the 10 of Clovers" not in story_text


def test_export_to_a_file_is_atomic_and_never_overwrites_without_force(cli, story_log, tmp_path):
    out = tmp_path / "story.md"
    r = cli("export", story_log, "--story", "-o", out)
    assert r.code == 0 and out.read_text().startswith("---\n")
    out.write_text("my edits")
    r = cli("export", story_log, "--story", "-o", out)
    assert r.code == 1 and "--force" in r.err
    assert out.read_text() == "my edits"
    assert cli("export", story_log, "--story", "-o", out, "--force").code == 0
    assert out.read_text().startswith("---\n")
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


def test_export_needs_exactly_one_kind(cli, story_log):
    assert cli("export", story_log).code == 2
    assert cli("export", story_log, "--story", "--playthrough").code == 2


def test_export_to_an_unwritable_place(cli, story_log, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    r = cli("export", story_log, "--story", "-o", blocker / "story.md")
    assert r.code == 1 and "cannot write" in r.err and r.err.count("\n") == 1


def test_a_custom_template(cli, story_log, tmp_path):
    tpl = tmp_path / "mine.md.j2"
    tpl.write_text("{{ meta.title }} / {{ journal | length }} entries\n")
    r = cli("export", story_log, "--template", tpl)
    assert r.code == 0
    assert r.out == "A commoner seeking power / 3 entries\n"


@pytest.mark.parametrize(
    "source, message",
    [
        ("{% for x in %}\n", "line 1"),
        ("ok\n{{ meta.nothing_here }}\n", "template error"),
        ("{% include 'missing.j2' %}", "template not found"),
    ],
)
def test_a_broken_template_is_one_line(cli, story_log, tmp_path, source, message):
    tpl = tmp_path / "broken.md.j2"
    tpl.write_text(source)
    out = tmp_path / "out.md"
    r = cli("export", story_log, "--template", tpl, "-o", out)
    assert r.code == 1
    assert message in r.err and r.err.count("\n") == 1
    assert not out.exists()


def test_a_missing_template_file(cli, story_log, tmp_path):
    r = cli("export", story_log, "--template", tmp_path / "nope.j2")
    assert r.code == 1 and "no such template" in r.err


def test_a_won_game_story_tells_the_overlord_and_the_ending(cli, tmp_path):
    # seed 7 with overlord=anywhere: the 10 of Spades alone against the overlord.
    path = tmp_path / "w.jsonl"
    r = cli("play", "carddom", "--seed", "7", "--variant", "overlord=anywhere", "--answers",
            answers(tmp_path, "face", "journal: It laughed at me."), "--log", path)
    assert r.code == 0, r.err
    text = cli("export", path, "--story").out
    assert "## The overlord" in text and "It laughed at me." in text
    assert "## The ending" in text


def test_a_template_that_fails_while_rendering_is_one_line(cli, story_log, tmp_path):
    tpl = tmp_path / "div.md.j2"
    tpl.write_text("{{ 1 / 0 }}")
    r = cli("export", story_log, "--template", tpl)
    assert r.code == 1 and "ZeroDivisionError" in r.err and r.err.count("\n") == 1


def test_the_context_document_is_plain_json_and_every_field_is_documented():
    """docs/context.md is what template authors and other formats rely on: every field the
    context holds, every cause and every move type is named there."""
    import json
    import re
    from pathlib import Path

    from storyteller import registry
    from storyteller.export import context
    from storyteller.log import read

    doc = (Path(__file__).resolve().parents[1] / "docs" / "context.md").read_text(encoding="utf-8")
    named = set(re.findall(r"`([a-z_-]+)`", doc))
    for path in sorted((Path(__file__).resolve().parents[1] / "examples").glob("*.jsonl")):
        ctx = context(read(path))
        assert json.loads(json.dumps(ctx)) == ctx
        fields = set(ctx) | set(ctx["meta"]) | set(ctx["outcome"]) | set(ctx["story"])
        for step in ctx["steps"]:
            fields |= set(step)
            if step.get("move"):
                fields |= set(step["move"]) | {step["move"]["type"]}
        missing = fields - named
        assert not missing, f"{path.name}: docs/context.md does not name {sorted(missing)}"
    for name in ("carddom", "adaman", "cascades", "hexaract"):
        assert set(registry.rules(name).causes) <= named, f"{name}: a cause is not documented"

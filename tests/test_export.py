"""Exports: the story and the playthrough, as a reader and a file system see them."""

from __future__ import annotations

import json
import os
import stat
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
    block, _, _body = text[4:].partition("\n---\n")
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
    events = [json.loads(line) for line in story_log.read_text().splitlines()[1:]]
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
    _r, path = play(cli, tmp_path, "enter 1", "quit")
    from storyteller.log.events import JournalEntry
    from storyteller.log.file import LogWriter, read

    writer = LogWriter.reopen(read(path))
    writer.append(JournalEntry(writer.next, text=tricky))
    writer.close()
    text = cli("export", path, "--story").out
    assert "> \\# not a heading\n> \\- not a list" in text  # shown as typed: no heading, no list
    tokens = MarkdownIt("commonmark").parse(body(text))
    assert [t.tag for t in tokens if t.type == "heading_open"].count("h1") == 1
    assert not [t for t in tokens if t.type == "bullet_list_open"]


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


def test_export_to_dash_prints_as_without_a_file(cli, story_log, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = cli("export", story_log, "--story", "-o", "-")
    assert r.code == 0 and r.out == cli("export", story_log, "--story").out
    assert not (tmp_path / "-").exists()


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
    from storyteller.telling.context import context
    from storyteller.log.file import read

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


# -- what exports write or print carries no terminal controls ----------------------------

ESCAPES_IN_TEXT = (
    "Before \x1b[2J\x1b[H the screen was cleared; \x1b]0;a new window title\x07 the title set; "
    "\x1b]8;;https://evil.example/\x1b\\a link\x1b]8;;\x1b\\ hidden; \x9b31m C1 red; bell\x07; \rreturn."
    "\nLine two.\tTabbed."
)


def add_journal(path: Path, text: str) -> None:
    from storyteller.log.events import JournalEntry
    from storyteller.log.file import LogWriter, read

    writer = LogWriter.reopen(read(path))
    writer.append(JournalEntry(writer.next, text=text))
    writer.close()


@pytest.mark.parametrize("kind", ["--story", "--playthrough"])
def test_escape_sequences_in_journal_text_reach_neither_the_terminal_nor_the_file(cli, tmp_path, kind):
    _r, path = play(cli, tmp_path, "enter 1", "quit")
    add_journal(path, ESCAPES_IN_TEXT)
    printed = cli("export", path, kind)
    out = tmp_path / "x.md"
    assert cli("export", path, kind, "-o", out).code == 0
    written = out.read_bytes().decode("utf-8")
    for text in (printed.out, written):
        assert not any(ch in text for ch in "\x1b\x07\x9b\r"), repr(text)
        assert "the screen was cleared" in text and "a link" in text and "Line two.\tTabbed." in text
    assert printed.out == written
    from storyteller.log.file import read

    assert read(path).journal()[-1].text == ESCAPES_IN_TEXT  # the log keeps the player's words


# -- commands and code spans that hold any seed --------------------------------------------

TRICKY_SEEDS = ["$(touch${IFS}pwned)", "it's", "a`b", "``x``", "|", "[/]", "a|b`c", "two  spaces", "*em* <b>&amp;",
                "\\|", "'; rm -rf ~; '"]


def parse(text: str):
    return MarkdownIt("commonmark").enable("table").parse(body(text))


def code_after(tokens, words: str) -> list[str]:
    """The code spans of the inline token that holds ``words``."""
    for t in tokens:
        if t.type == "inline" and words in t.content:
            return [c.content for c in t.children if c.type == "code_inline"]
    raise AssertionError(f"no line with {words!r}")


def table_cell(tokens, label: str) -> list[str]:
    """The code spans in the cell to the right of ``label`` in a table."""
    inlines = [t for t in tokens if t.type == "inline"]
    for i, t in enumerate(inlines):
        if t.content == label:
            return [c.content for c in inlines[i + 1].children if c.type == "code_inline"]
    raise AssertionError(f"no cell {label!r}")


def run_shown(command: str, cwd: Path) -> list[str]:
    """The words a shell gives the shown command, ``storyteller`` replaced by a printer."""
    import shutil
    import subprocess

    if shutil.which("bash") is None:
        pytest.skip("no bash here")
    assert command.startswith("storyteller ")
    script = "printf '%s\\0' " + command[len("storyteller "):]
    r = subprocess.run(["bash", "-c", script], cwd=cwd, capture_output=True, timeout=20,
                       env={"PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8"})
    assert r.returncode == 0, r.stderr
    return r.stdout.decode("utf-8").split("\0")[:-1]


@pytest.mark.parametrize("game", ["carddom", "cascades"])
@pytest.mark.parametrize("seed", TRICKY_SEEDS)
def test_the_shown_command_and_code_spans_give_back_exactly_the_seed(cli, tmp_path, game, seed):
    import shlex

    path = tmp_path / "g.jsonl"
    r = cli("play", game, "--seed", seed, "--answers", answers(tmp_path, "quit"), "--log", path)
    assert r.code == 0, r.err
    playthrough = cli("export", path, "--playthrough").out
    tokens = parse(playthrough)
    [command] = code_after(tokens, "To play the same deal")
    assert shlex.split(command) == ["storyteller", "play", game, "--seed", seed]
    assert run_shown(command, tmp_path) == ["play", game, "--seed", seed]
    assert not (tmp_path / "pwned").exists()
    assert table_cell(tokens, "Seed") == [seed]
    if game == "cascades":
        [heading] = [tokens[i + 1] for i, t in enumerate(tokens) if t.type == "heading_open" and t.tag == "h1"]
        assert "".join(c.content for c in heading.children) == f"Playthrough: Cascades, seed {seed}"
    story = cli("export", path, "--story").out
    assert code_after(parse(story), "dealt from seed") == [seed]


def test_a_code_span_holds_any_text():
    import random

    from storyteller.telling.filters import cell, code

    md = MarkdownIt("commonmark").enable("table")
    rng = random.Random(9)
    texts = ["`", "``", " ", "  ", " ` ", "a``b", "`a`", " a", "a ", " a ", "|", "\\|", "\\"]
    texts += ["".join(rng.choice("` a|\\") for _ in range(rng.randint(1, 8))) for _ in range(400)]
    for text in texts:
        [inline] = [t for t in md.parse(f"x {code(text)} y") if t.type == "inline"]
        assert [c.content for c in inline.children if c.type == "code_inline"] == [text], (text, code(text))
        tokens = md.parse(f"| a | b |\n|---|---|\n| {cell(code(text))} | z |\n")
        cells = [t for t in tokens if t.type == "inline"]
        assert [c.content for c in cells[2].children if c.type == "code_inline"] == [text], (text, cell(code(text)))
        assert cells[3].content == "z"


def test_a_seed_with_control_characters_is_shown_as_a_command_that_gives_it_back(tmp_path):
    from storyteller.core.words import command as shell_command
    from storyteller.core.words import clean

    for seed in ["new\nline", "tab\there", "\x1b[31mred", "c1\x85next", "it's\n$(touch pwned)", "back\\slash\x07",
                 "\x1bA"]:
        command = shell_command("storyteller", "play", "carddom", "--seed", seed)
        assert clean(command) == command and "\n" not in command
        assert run_shown(command, tmp_path) == ["play", "carddom", "--seed", seed]
    assert not (tmp_path / "pwned").exists()
    assert shell_command("storyteller", "play", "carddom", "--seed", "it's") == \
        "storyteller play carddom --seed 'it'\"'\"'s'"


# -- list items hold their continuation at any event number ------------------------------

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def assert_items_hold_their_parts(text: str, where: str) -> None:
    """No code block anywhere; in "Every step", every journal quote and every bullet list
    (a roll's table, a turn's consequences) sits inside its step's list item."""
    tokens = MarkdownIt("commonmark").parse(body(text))
    assert not [t for t in tokens if t.type in ("code_block", "fence")], f"{where}: a code block"
    h2 = [i for i, t in enumerate(tokens) if t.type == "heading_open" and t.tag == "h2"]
    start = next(i for i in h2 if tokens[i + 1].content == "Every step")
    end = min([i for i in h2 if i > start], default=len(tokens))
    section = tokens[start:end]
    quotes = [t for t in section if t.type == "blockquote_open"]
    assert quotes and all(t.level > 0 for t in quotes), f"{where}: a journal entry outside its list item"
    assert all(t.level > 0 for t in section if t.type == "bullet_list_open"), f"{where}: a list outside its step"
    assert [t for t in section if t.type == "ordered_list_open"]


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.playthrough.md")), ids=lambda p: p.name)
def test_no_example_playthrough_has_a_code_block(path):
    text = path.read_text(encoding="utf-8")
    assert_items_hold_their_parts(text, path.name)


@pytest.mark.parametrize("name, shift", [("cascades-lost", 900), ("hexaract-won", 9_900), ("carddom-won", 99_990)])
def test_list_items_hold_their_parts_at_any_event_number(name, shift):
    from storyteller import registry
    from storyteller.telling.export import RENDERERS
    from storyteller.telling.context import context
    from storyteller.log.file import read

    log = read(EXAMPLES / f"{name}.jsonl")
    ctx = context(log)
    for step in ctx["steps"]:
        step["n"] += shift
    text = RENDERERS["markdown"].render(ctx, registry.get(log.game), "playthrough")
    assert f"\n{shift + 1}. " in text
    assert_items_hold_their_parts(text, f"{name} + {shift}")
    if name == "hexaract-won":  # the roll's table and a turn's consequences are lists inside their step
        tokens = MarkdownIt("commonmark").parse(body(text))
        assert sum(t.type == "bullet_list_open" and t.level > 0 for t in tokens) >= 25


# -- the words of moves come from the rules, not from the log -----------------------------


def test_an_export_shows_the_rules_words_never_the_logs_text(cli, tmp_path):
    r, path = play(cli, tmp_path, "enter 1", "take 10C", "undo", "explore", "abandon")
    assert r.code == 0, r.err
    lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    for e in lines[1:]:
        if e["event"] == "decision":
            e["text"] = f"Steal the crown jewels ({e['n']})"
        if e["event"] == "end":
            e["reason"] = "The player won everything."
    forged = tmp_path / "forged.jsonl"
    forged.write_text("".join(json.dumps(e) + "\n" for e in lines), encoding="utf-8")
    for kind in ("--playthrough", "--story"):
        r = cli("export", forged, kind)
        assert "crown jewels" not in r.out + r.err and "won everything" not in r.out
        if r.code != 0:  # a log whose words differ from the rules' may be refused: one line, then
            assert r.err.count("\n") == 1 and r.out == ""
            continue
        if kind == "--playthrough":
            assert "**Enter the realm" in r.out and "**Take the 10 of Clovers" in r.out
            assert 'Undo: took back "Take the 10 of Clovers' in r.out
            assert "The player abandoned the game." in r.out


def test_the_steps_words_are_the_rules_words_for_every_example():
    from storyteller.telling.context import context
    from storyteller.log.file import read
    from storyteller.log.replay import walk

    for path in sorted(EXAMPLES.glob("*.jsonl")):
        log = read(path)
        w = walk(log, keep_steps=True)
        said = {s.n: s.before.describe(s.move) for s in w.steps if s.move is not None}
        for step in context(log)["steps"]:
            if step["kind"] == "decision":
                assert step["text"] == said[step["n"]]
            elif step["kind"] == "undo":
                assert step["text"] == said[step["of"]]
            elif step["kind"] == "end":
                assert step["text"] == w.outcome.reason and step["result"] == w.outcome.result


# -- export -o: only regular files are replaced -------------------------------------------

posix_only = pytest.mark.skipif(os.name != "posix", reason="file modes, FIFOs and devices are POSIX")


@posix_only
@pytest.mark.parametrize("umask, mode", [(0o022, 0o644), (0o027, 0o640), (0o077, 0o600)])
def test_a_new_export_gets_the_mode_the_umask_gives(cli, story_log, tmp_path, umask, mode):
    out = tmp_path / "new.md"
    old = os.umask(umask)
    try:
        r = cli("export", story_log, "--story", "-o", out)
    finally:
        os.umask(old)
    assert r.code == 0 and stat.S_IMODE(out.stat().st_mode) == mode


@posix_only
def test_a_replaced_export_keeps_its_mode(cli, story_log, tmp_path):
    out = tmp_path / "kept.md"
    out.write_text("old")
    out.chmod(0o604)
    assert cli("export", story_log, "--story", "-o", out, "--force").code == 0
    assert out.read_text().startswith("---\n") and stat.S_IMODE(out.stat().st_mode) == 0o604
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []


@posix_only
def test_a_symlink_is_followed_to_its_target(cli, story_log, tmp_path):
    target = tmp_path / "real" / "story.md"
    target.parent.mkdir()
    target.write_text("old")
    target.chmod(0o640)
    link = tmp_path / "link.md"
    link.symlink_to(target)
    r = cli("export", story_log, "--story", "-o", link)
    assert r.code == 1 and "--force" in r.err and target.read_text() == "old"
    assert cli("export", story_log, "--story", "-o", link, "--force").code == 0
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert target.read_text().startswith("---\n") and stat.S_IMODE(target.stat().st_mode) == 0o640
    dangling = tmp_path / "dangling.md"
    dangling.symlink_to(tmp_path / "real" / "new.md")
    assert cli("export", story_log, "--story", "-o", dangling).code == 1  # it is there, even if it points nowhere
    assert cli("export", story_log, "--story", "-o", dangling, "--force").code == 0
    assert dangling.is_symlink() and (tmp_path / "real" / "new.md").read_text().startswith("---\n")
    assert sorted(p.name for p in target.parent.iterdir()) == ["new.md", "story.md"]  # no temporary file left


@posix_only
@pytest.mark.timeout(20)
@pytest.mark.parametrize("force", [False, True])
def test_a_fifo_a_device_or_a_folder_is_refused_with_one_line(cli, story_log, tmp_path, force):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    folder = tmp_path / "folder"
    folder.mkdir()
    flag = ["--force"] if force else []
    for target, words in ((fifo, "is a named pipe (FIFO)"), (Path("/dev/null"), "is a character device"),
                          (folder, "is a folder")):
        r = cli("export", story_log, "--story", "-o", target, *flag)
        assert r.code == 1 and r.err.startswith(f"storyteller: {target}: {words}")
        assert r.err.count("\n") == 1 and r.out == ""
    assert stat.S_ISFIFO(fifo.stat().st_mode) and folder.is_dir() and list(folder.iterdir()) == []
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")) == []


def test_every_format_of_the_one_list_has_its_renderer_and_is_a_setting():
    """The formats are listed once (storyteller.core.formats): export renders each, the setting
    export.format takes each, and the command line offers each."""
    from storyteller import config
    from storyteller.core import formats
    from storyteller.cli import export as export_command
    from storyteller.telling.export import RENDERERS

    assert list(RENDERERS) == list(formats.FORMATS)
    assert all(RENDERERS[name].kinds == f.kinds for name, f in formats.FORMATS.items())
    assert config.key_of("export.format").choices == formats.NAMES
    import inspect

    help_text = inspect.signature(export_command).parameters["format"].default.help
    assert all(f.words in help_text for f in formats.FORMATS.values())

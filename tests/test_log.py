"""The log layer: every line checked against a strict schema before use, a bad last line
set aside on request, a full disk and a second writer each one clear line."""

from __future__ import annotations

import errno
import json
import os
import shlex
from pathlib import Path

import pytest
from conftest import last_of, read_events

import storyteller.log.file as log_module
from storyteller.log.events import CardDrawn, Header, JournalEntry
from storyteller.log.file import LogError, LogLocked, LogWriter, TruncatedLog, parse, read

HEADER = {"storyteller": "log", "schema": 1, "game": "carddom", "variants": {}, "seed": "7", "source": "seeded"}
DRAW = {"n": 1, "event": "draw", "card": "10C", "to": "stack 1 location", "deal": 0, "slot": 0}


def text_of(*records: object) -> str:
    lines = [r if isinstance(r, str) else json.dumps(r) for r in records]
    return "\n".join(lines) + "\n"


def refused(*records: object) -> str:
    """The one-line message a log of these records gets."""
    with pytest.raises(LogError) as e:
        parse(text_of(*records))
    assert not isinstance(e.value, TruncatedLog)  # a bad line before the last is no torn tail
    message = str(e.value)
    assert "\n" not in message and len(message) < 400
    return message


# -- the header --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "change, words",
    [
        ({"schema": 1.0}, "line 1: 'schema' must be a whole number, not 1.0"),
        ({"schema": True}, "'schema' must be a whole number, not true"),
        ({"schema": "1"}, "'schema' must be a whole number, not '1'"),
        ({"schema": 2}, "log schema 2 is not one this version reads"),
        ({"game": 5}, "line 1: 'game' must be text, not 5"),
        ({"game": None}, "'game' must be text, not null"),
        ({"game": {}}, "'game' must be text, not an object"),
        ({"game": ""}, "'game' must not be empty"),
        ({"game": "carddom\x1b[2J"}, "'game' holds a control character"),
        ({"game": " carddom"}, "'game' has spaces at one end"),
        ({"game": "x" * 300}, "'game' is 300 characters long; it may hold at most 200"),
        ({"seed": 42}, "'seed' must be text, not 42"),
        ({"seed": ""}, "'seed' is not a seed storyteller makes: a seed cannot be empty"),
        ({"seed": " 7"}, "'seed' is not a seed storyteller makes"),
        ({"seed": "a\x07b"}, "'seed' is not a seed storyteller makes: a seed cannot hold control characters"),
        ({"seed": "s" * 201}, "a seed is at most 200 characters"),
        ({"variants": []}, "'variants' must be a mapping, not a list"),
        ({"variants": {"jokers": 5}}, "the variant 'jokers' must be text, not 5"),
        ({"variants": {str(i): "x" for i in range(100)}}, "'variants' holds 100 entries; at most 64"),
        ({"source": 7}, "'source' must be text, not 7"),
        ({"version": 5}, "'version' must be text, not 5"),
        ({"started": "x" * 10_000}, "'started' is 10,000 characters long"),
        ({"extra": 1}, "the header has a field 'extra' this version does not write"),
    ],
)
def test_a_bad_header_field_is_named(change, words):
    message = refused({**HEADER, **change})
    assert words in message and message.startswith("log: line 1")


@pytest.mark.parametrize("missing", ["storyteller", "schema", "game", "variants", "seed", "source"])
def test_a_header_without_a_required_field_is_refused(missing):
    header = {k: v for k, v in HEADER.items() if k != missing}
    message = refused(header)
    assert "line 1" in message and (f"'{missing}'" in message or "not a storyteller log header" in message)


def test_a_lone_surrogate_in_the_seed_is_refused():
    message = refused('{"storyteller": "log", "schema": 1, "game": "carddom", "variants": {}, "seed": "a\\ud800", '
                      '"source": "seeded"}')
    assert "line 1: 'seed' is not valid text" in message


def test_the_header_keys_this_version_writes_are_accepted(tmp_path, cli):
    path = tmp_path / "g.jsonl"
    assert cli("play", "carddom", "--seed", "7", "--auto", "random", "--log", path).code == 0
    header = read_events(path)[0]
    assert set(header) == {"storyteller", "schema", "game", "variants", "seed", "source", "version", "started", "mode"}
    assert read(path).header.record() == header


# -- events ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "event, words",
    [
        ({**DRAW, "deal": False}, "line 2: 'deal' must be a whole number, not false"),
        ({**DRAW, "slot": 33.0}, "line 2: 'slot' must be a whole number, not 33.0"),
        ({**DRAW, "slot": -1}, "'slot' must be a whole number from 0 to 1,000,000,000, not -1"),
        ({**DRAW, "deal": 10**30},
         "'deal' must be a whole number from 0 to 1,000,000,000, not a number of many digits"),
        ({**DRAW, "card": ["10C"]}, "'card' must be text, not a list"),
        ({**DRAW, "card": ""}, "'card' must not be empty"),
        ({**DRAW, "to": None}, "'to' must be text, not null"),
        ({**DRAW, "pile": 3}, "'pile' must be text, not 3"),
        ({**DRAW, "n": True}, "event number true where 1 was expected"),
        ({**DRAW, "n": 1.0}, "event number 1.0 where 1 was expected"),
        ({**DRAW, "n": 2}, "event number 2 where 1 was expected"),
        ({**DRAW, "event": ["draw"]}, "'event' must be text naming the kind of event, not a list"),
        ({**DRAW, "event": "teleport"}, "unknown event 'teleport'"),
        ({**DRAW, "colour": "red"}, "the draw event has a field 'colour' this version does not write"),
        ({k: v for k, v in DRAW.items() if k != "card"}, "the draw event has no 'card'"),
        ({**DRAW, "at": 5}, "'at' must be text, not 5"),
        ({"n": 1, "event": "roll", "dice": 5, "index": 0}, "'dice' must be a list of 1 to 100 dice, not 5"),
        ({"n": 1, "event": "roll", "dice": [], "index": 0}, "'dice' must be a list of 1 to 100 dice"),
        ({"n": 1, "event": "roll", "dice": [3, 0], "index": 0},
         "'dice' must hold whole numbers from 1 (a die's face), not 0"),
        ({"n": 1, "event": "roll", "dice": [3, 2.0], "index": 0}, "not 2.0"),
        ({"n": 1, "event": "roll", "dice": [3, True], "index": 0}, "not true"),
        ({"n": 1, "event": "roll", "dice": [3], "index": -1}, "'index' must be a whole number from 0"),
        ({"n": 1, "event": "decision", "action": 5}, "'action' must be text, not 5"),
        ({"n": 1, "event": "decision", "action": "enter 1", "text": "x" * 6000},
         "'text' is 6,000 characters long; it may hold at most 5,000"),
        ({"n": 1, "event": "decision", "action": "enter 1", "by": "x\x00"}, "'by' holds a control character"),
        ({"n": 1, "event": "journal", "text": None}, "'text' must be text, not null"),
        ({"n": 1, "event": "journal", "text": "x" * 100_001},
         "'text' is 100,001 characters long; it may hold at most 100,000"),
        ({"n": 1, "event": "journal", "text": "x", "prompt": 3}, "'prompt' must be text, not 3"),
        ({"n": 1, "event": "journal", "text": "x", "about": 1},
         "'about' must be the number of an earlier draw or roll, not 1"),
        ({"n": 1, "event": "journal", "text": "x", "about": "1"},
         "'about' must be the number of an earlier draw or roll, not '1'"),
        ({"n": 1, "event": "undo", "of": 0}, "'of' must be the number of an earlier decision, not 0"),
        ({"n": 1, "event": "end", "result": "won", "score": 1.5}, "'score' must be a whole number, not 1.5"),
        ({"n": 1, "event": "end", "result": "won", "score": False}, "'score' must be a whole number, not false"),
        ({"n": 1, "event": "end", "result": ""}, "'result' must not be empty"),
        ({"n": 1, "event": "end", "result": "won", "reason": ["x"]}, "'reason' must be text, not a list"),
        ([1, 2], "line 2: not an event object (it is a list)"),
    ],
)
def test_a_bad_event_field_is_named_with_its_line(event, words):
    message = refused(HEADER, event, {**DRAW, "n": 2})  # a good line after it: the bad one is not the last
    assert words in message and "line 2" in message


def test_about_and_of_must_name_earlier_events_of_their_kind():
    journal = {"n": 2, "event": "journal", "text": "x", "about": 1}
    assert parse(text_of(HEADER, DRAW, journal)).events[1].about == 1
    decision = {"n": 2, "event": "decision", "action": "enter 1"}
    message = refused(HEADER, DRAW, decision, {"n": 3, "event": "journal", "text": "x", "about": 2}, {**DRAW, "n": 4})
    assert "line 4: 'about' must name an earlier draw or roll; event 2 is not one" in message
    message = refused(HEADER, DRAW, {"n": 2, "event": "undo", "of": 1}, {**DRAW, "n": 3})
    assert "line 3: 'of' must name an earlier decision; event 1 is not one" in message
    message = refused(HEADER, DRAW, {"n": 2, "event": "undo", "of": 5}, {**DRAW, "n": 3})
    assert "'of' must be the number of an earlier decision, not 5" in message


@pytest.mark.parametrize(
    "line, words",
    [
        ('{"n": 1, "event": "journal", "text": "a\\ud800b"}',
         "line 2: 'text' is not valid text (it holds a lone surrogate code point)"),
        ('{"n": 1, "event": "journal", "text": "\\udc80"}', "'text' is not valid text"),
        ("[" * 100_000 + "]" * 100_000, "line 2 nests too deeply to be a log line"),
        ('{"n": 1, "event": "roll", "dice": [1], "index": ' + "9" * 5000 + "}",
         "line 2 holds a number too long to read"),
        ('{"n": 1, "event": "roll", "dice": [1], "index": NaN}', "line 2 holds NaN, which is not a number JSON allows"),
        ('{"n": 1, "n": 1, "event": "undo", "of": 1}', "line 2 has the key 'n' twice"),
        ("", "line 2 is empty"),
        ("   ", "line 2 is empty"),
        ("not json", "line 2 is not valid JSON"),
        ('{"n": 1, "event": "journal", "text": "' + "x" * (1024 * 1024) + '"}', "line 2 is too long"),
    ],
)
def test_a_line_that_cannot_be_read_is_named_never_a_traceback(line, words):
    text = text_of(HEADER, line, {**DRAW, "n": 2})
    with pytest.raises(LogError) as e:
        parse(text)
    assert words in str(e.value) and "\n" not in str(e.value)


def test_a_line_that_is_not_utf8_is_named(tmp_path):
    path = tmp_path / "bin.jsonl"
    path.write_bytes(text_of(HEADER).encode() + b'{"n": 1, "event": "journal", "text": "\xe9t\xe9"}\n'
                     + text_of(DRAW).encode())
    with pytest.raises(LogError, match="line 2 is not valid UTF-8 text"):
        read(path)


def test_every_line_of_the_examples_passes_the_schema():
    for path in sorted((Path(__file__).resolve().parents[1] / "examples").glob("*.jsonl")):
        log = read(path)
        assert log.events and log.size == path.stat().st_size


def test_a_huge_header_line_is_refused_at_once(tmp_path, cli):
    """A 50 MB seed: one line, read no further than the header's bound."""
    import time

    path = tmp_path / "huge.jsonl"
    path.write_text(json.dumps({**HEADER, "seed": "x" * 50_000_000}) + "\n")
    start = time.perf_counter()
    r = cli("replay", path)
    assert time.perf_counter() - start < 2
    assert r.code == 1 and "line 1 is too long (50,000,1" in r.err and r.err.count("\n") == 1


def test_a_file_that_is_not_a_regular_file_is_not_read(tmp_path, cli):
    if not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs here")
    fifo = tmp_path / "pipe.jsonl"
    os.mkfifo(fifo)
    r = cli("replay", fifo)  # would block for ever if it were opened and read
    assert r.code == 1 and "is not a regular file" in r.err


# -- a bad last line ---------------------------------------------------------------------


def game_log(cli, tmp_path, *answers: str, name: str = "g.jsonl") -> Path:
    path = tmp_path / name
    file = tmp_path / f"{name}.answers"
    file.write_text("\n".join(answers) + "\n")
    r = cli("play", "carddom", "--seed", "7", "--answers", file, "--log", path)
    assert r.code == 0, r.err
    return path


@pytest.mark.parametrize(
    "tail, newline",
    [
        (b'{"n": 9, "event": "dra', False),  # cut off mid-write
        (b'{"n": 9, "event": "dra', True),  # a bad line that ends in a newline
        (b"", True),  # an empty last line
        (b"\x00\x00\x00", False),  # garbage
        (b'{"n": 9, "event": "journal", "text": "caf\xc3', False),  # cut inside a character
        (b"[" * 100_000, True),  # nesting too deep
    ],
)
def test_resume_yes_sets_a_bad_last_line_aside_whatever_its_ending(cli, tmp_path, tail, newline):
    path = game_log(cli, tmp_path, "enter 1", "explore", "quit")
    whole = path.read_bytes()
    bad = tail + (b"\n" if newline else b"")
    path.write_bytes(whole + bad)
    r = cli("replay", path)
    lines = whole.count(b"\n") + 1
    assert r.code == 1 and f"line {lines}" in r.err and r.err.count("\n") == 1
    assert path.read_bytes() == whole + bad
    r = cli("resume", path, "--answers", game_answers(tmp_path, "quit"))
    assert r.code == 1 and "--yes" in r.err and path.read_bytes() == whole + bad  # nothing changed unasked
    r = cli("resume", path, "--yes", "--answers", game_answers(tmp_path, "take 10C", "quit"))
    assert r.code == 0, r.err
    kept = path.with_name(path.name + ".cut-off").read_bytes()
    assert kept.rstrip(b"\n") == bad.rstrip(b"\n")  # the bad line is kept, never lost
    assert path.read_bytes().startswith(whole)
    assert last_of(read_events(path), "decision")["action"] == "take 10C"
    assert cli("replay", path).code == 0


def game_answers(tmp_path: Path, *lines: str) -> Path:
    path = tmp_path / "more.answers"
    path.write_text("\n".join(lines) + "\n")
    return path


def test_a_whole_last_line_without_its_newline_is_kept_and_continued(cli, tmp_path):
    path = game_log(cli, tmp_path, "enter 1", "explore", "quit")
    path.write_bytes(path.read_bytes()[:-1])
    assert cli("replay", path).code == 0
    r = cli("resume", path, "--answers", game_answers(tmp_path, "take 10C", "quit"))
    assert r.code == 0, r.err
    assert not path.with_name(path.name + ".cut-off").exists()
    assert cli("replay", path).code == 0 and last_of(read_events(path), "decision")["action"] == "take 10C"


def test_a_second_repair_keeps_both_cut_off_lines(cli, tmp_path):
    path = game_log(cli, tmp_path, "enter 1", "quit")
    for torn in (b'{"n": 99, "ev', b'{"n": 98, "ev'):
        path.write_bytes(path.read_bytes() + torn)
        assert cli("resume", path, "--yes", "--answers", game_answers(tmp_path, "quit")).code == 0
    assert path.with_name(path.name + ".cut-off").read_bytes() == b'{"n": 99, "ev\n{"n": 98, "ev\n'


def test_a_log_that_changed_after_it_was_read_is_not_appended_to(tmp_path, cli):
    path = game_log(cli, tmp_path, "enter 1", "quit")
    log = read(path)
    path.write_bytes(path.read_bytes() + b'{"n": 5, "event": "journal", "text": "from elsewhere"}\n')
    with pytest.raises(LogError, match="changed while it was being opened"):
        LogWriter.reopen(log)


# -- writing -----------------------------------------------------------------------------


def test_logs_are_written_with_newline_line_ends_only(tmp_path):
    """Lines end in \\n on every system: the writer writes bytes (O_BINARY on Windows), never
    through text-mode newline translation; a carriage return in the words stays escaped."""
    path = tmp_path / "nl.jsonl"
    with LogWriter.create(path, Header.read(HEADER)) as w:
        w.append(JournalEntry(w.next, text="one\r\ntwo\rthree"))
    data = path.read_bytes()
    assert data.count(b"\n") == 2 and b"\r" not in data and data.endswith(b"\n")
    assert read(path).events[0].text == "one\r\ntwo\rthree"


def test_text_that_is_not_unicode_is_written_as_the_replacement_character(tmp_path):
    path = tmp_path / "s.jsonl"
    with LogWriter.create(path, Header.read(HEADER)) as w:
        w.append(CardDrawn(w.next, card="10C", to="stack 1 location", deal=0, slot=0))
        event = w.append(JournalEntry(w.next, text="half \ud800 a character", about=1))
    assert event.text == "half \ufffd a character"
    assert read(path).events[-1].text == "half \ufffd a character"


def test_the_writer_never_writes_what_the_reader_would_refuse(tmp_path):
    path = tmp_path / "w.jsonl"
    with LogWriter.create(path, Header.read(HEADER)) as w:
        before = path.read_bytes()
        with pytest.raises(LogError, match="cannot write this journal event: 'text' is 100,001 characters long"):
            w.append(JournalEntry(w.next, text="x" * 100_001))
        with pytest.raises(LogError, match="'about' must be the number of an earlier draw or roll"):
            w.append(JournalEntry(w.next, text="x", about=3))
        assert path.read_bytes() == before
    with pytest.raises(LogError, match="line 1: 'seed' is not a seed"):
        LogWriter.create(tmp_path / "v.jsonl", Header.read(HEADER).replace(seed=" padded"))
    assert not (tmp_path / "v.jsonl").exists()


def test_an_existing_log_is_never_overwritten(cli, tmp_path):
    path = game_log(cli, tmp_path, "quit")
    before = path.read_bytes()
    r = cli("play", "carddom", "--seed", "8", "--auto", "random", "--log", path)
    assert r.code == 1 and "a log already exists there" in r.err and path.read_bytes() == before


def test_a_new_log_leaves_nothing_beside_it(cli, tmp_path):
    folder = tmp_path / "logs"
    assert cli("play", "carddom", "--seed", "7", "--auto", "random", "--log", folder / "one.jsonl").code == 0
    assert sorted(p.name for p in folder.iterdir()) == ["one.jsonl"]  # no temporary file, no pid file left


# -- a full disk -------------------------------------------------------------------------


def fill_disk_after(monkeypatch, appends: int) -> None:
    """From the given append on, every write of the log fails as on a full disk. On Linux
    the log's descriptor is pointed at /dev/full, so the kernel itself says ENOSPC."""
    real = LogWriter.append
    seen = {"n": 0}

    def append(self, kind, **fields):
        seen["n"] += 1
        if seen["n"] == appends:
            if os.path.exists("/dev/full"):
                full = os.open("/dev/full", os.O_WRONLY)
                os.dup2(full, self._fd)
                os.close(full)
            else:  # pragma: no cover - elsewhere: the write itself says so
                monkeypatch.setattr(log_module, "_write_all", no_space)
        return real(self, kind, **fields)

    monkeypatch.setattr(LogWriter, "append", append)


def no_space(fd, data):
    raise OSError(errno.ENOSPC, "No space left on device")


def test_a_full_disk_during_play_is_one_line_with_the_command_to_go_on(cli, tmp_path, monkeypatch):
    path = tmp_path / "my games" / "it's mine.jsonl"
    fill_disk_after(monkeypatch, 6)
    r = cli("play", "carddom", "--seed", "7", "--auto", "random", "--log", path)
    assert r.code == 1
    resume = "storyteller resume " + shlex.quote(str(path))
    assert r.err == f"storyteller: the disk is full: saved up to event 5; free some space and run {resume}\n"
    assert len(read(path).events) == 5
    monkeypatch.undo()  # space is free again
    assert shlex.split(resume)[2] == str(path)
    assert cli("resume", path, "--auto", "random").code == 0
    assert cli("replay", path).code == 0
    assert sorted(p.name for p in path.parent.iterdir()) == [path.name]


def test_a_write_cut_short_by_a_full_disk_leaves_no_half_line(tmp_path, monkeypatch):
    path = tmp_path / "half.jsonl"
    with LogWriter.create(path, Header.read(HEADER)) as w:
        w.append(CardDrawn(w.next, card="10C", to="stack 1 location", deal=0, slot=0))
        before = path.read_bytes()

        def half_then_full(fd, data):
            os.write(fd, data[: len(data) // 2])
            raise OSError(errno.ENOSPC, "No space left on device")

        monkeypatch.setattr(log_module, "_write_all", half_then_full)
        with pytest.raises(log_module.DiskFull, match="saved up to event 1"):
            w.append(JournalEntry(w.next, text="a long entry " * 50, about=1))
        assert path.read_bytes() == before
        assert len(w.log.events) == 1


def test_a_new_log_on_a_full_disk_is_not_left_behind(cli, tmp_path, monkeypatch):
    monkeypatch.setattr(log_module, "_write_all", no_space)
    path = tmp_path / "new.jsonl"
    r = cli("play", "carddom", "--seed", "7", "--auto", "random", "--log", path)
    assert r.code == 1 and r.err.count("\n") == 1
    assert "the disk is full: the game could not be started" in r.err
    assert not path.exists() and list(tmp_path.iterdir()) == []  # nothing blocks the path
    monkeypatch.undo()
    assert cli("play", "carddom", "--seed", "7", "--auto", "random", "--log", path).code == 0


def test_a_new_log_whose_header_fails_in_place_is_removed(tmp_path, monkeypatch):
    """Where the header is written in place (no hard links: Windows, some file systems)."""
    monkeypatch.setattr(log_module.os, "link", lambda a, b: (_ for _ in ()).throw(OSError(errno.EPERM, "no links")))
    ok = tmp_path / "ok.jsonl"
    LogWriter.create(ok, Header.read(HEADER)).close()
    assert read(ok).header.seed == "7"
    monkeypatch.setattr(log_module, "_write_all", no_space)
    path = tmp_path / "in-place.jsonl"
    with pytest.raises(log_module.DiskFull):
        LogWriter.create(path, Header.read(HEADER))
    assert not path.exists()


# -- the lock ----------------------------------------------------------------------------


def test_a_log_being_written_cannot_be_resumed_or_played_again(cli, tmp_path):
    path = game_log(cli, tmp_path, "enter 1", "quit")
    writer = LogWriter.reopen(read(path))  # held open, as by another storyteller
    try:
        before = path.read_bytes()
        for args in (["resume", path, "--auto", "random"], ["resume", path, "--yes", "--auto", "random"],
                     ["play", "carddom", "--seed", "7", "--auto", "random", "--log", path]):
            r = cli(*args)
            assert r.code == 1 and r.err.count("\n") == 1, args
            assert f"this game is open in another storyteller (pid {os.getpid()})" in r.err
        assert path.read_bytes() == before
        assert cli("replay", path).code == 0  # readers never wait for the lock
        assert cli("export", path, "--story").code == 0
        with pytest.raises(LogLocked):
            LogWriter.reopen(read(path))
    finally:
        writer.close()
    assert not path.with_name(path.name + ".pid").exists()
    assert cli("resume", path, "--auto", "random").code == 0


def test_the_repair_of_a_cut_off_log_waits_for_the_lock(cli, tmp_path):
    path = game_log(cli, tmp_path, "enter 1", "quit")
    writer = LogWriter.reopen(read(path))
    try:
        path.write_bytes(path.read_bytes() + b'{"n": 9, "ev')
        torn = path.read_bytes()
        r = cli("resume", path, "--yes", "--auto", "random")
        assert r.code == 1 and "open in another storyteller" in r.err
        assert path.read_bytes() == torn and not path.with_name(path.name + ".cut-off").exists()
    finally:
        writer.close()


def test_a_log_name_near_the_longest_a_folder_allows_still_works(cli, tmp_path):
    path = tmp_path / ("n" * 245 + ".jsonl")  # the header's temporary name beside it would be too long
    assert cli("play", "carddom", "--seed", "7", "--auto", "random", "--log", path).code == 0
    assert [p.name for p in tmp_path.iterdir() if p.name != "home"] == [path.name]
    assert cli("replay", path).code == 0


def test_a_temporary_header_left_by_a_killed_process_with_our_id_is_replaced(tmp_path):
    path = tmp_path / "g.jsonl"
    stale = tmp_path / f".g.jsonl.{os.getpid()}.new"
    stale.write_text("half a head")
    LogWriter.create(path, Header.read(HEADER)).close()
    assert read(path).header.seed == "7" and not stale.exists()

"""The sessions store: where logs live and what each one holds, as a library."""

from __future__ import annotations

from storyteller.log import store


def test_logs_live_in_the_data_folder_and_never_share_a_name(home):
    assert store.sessions_dir() == home / "sessions"
    first = store.new_log_path("carddom", "pine owl/7")
    assert first.parent == home / "sessions" and first.name.endswith("-carddom-pine-owl-7.jsonl")
    first.parent.mkdir(parents=True)
    first.write_text("")
    second = store.new_log_path("carddom", "pine owl/7")
    assert second != first and second.name.endswith("-2.jsonl")


def test_summaries_read_every_log_and_name_the_bad_ones(cli, home):
    assert store.summaries() == [] and store.latest_unfinished() is None
    assert cli("play", "carddom", "--seed", "3", "--auto", "random").code == 0
    folder = store.sessions_dir()
    (folder / "zz-broken.jsonl").write_text("not json\n")
    answers = home / "a.txt"
    answers.write_text("quit\n")
    assert cli("play", "carddom", "--seed", "8", "--answers", answers).code == 0
    found = {s.seed: s for s in store.summaries()}
    assert found["3"].status in ("won", "lost") and not found["3"].unfinished
    assert found["8"].status == "in progress" and found["8"].unfinished
    assert found["?"].status == "unreadable" and "not valid JSON" in found["?"].problem
    assert store.latest_unfinished() == found["8"].path


# -- summaries from the ends of each log -------------------------------------------------

import json  # noqa: E402
import time  # noqa: E402

import pytest  # noqa: E402

from storyteller.log.file import JOURNAL  # noqa: E402


def played(cli, home, seed: str, *answers: str):
    file = home / f"answers-{seed}.txt"
    file.parent.mkdir(parents=True, exist_ok=True)
    file.write_text("\n".join(answers) + "\n")
    r = cli("play", "carddom", "--seed", seed, "--answers", file)
    assert r.code == 0, r.err
    return next(s.path for s in store.summaries() if s.seed == seed)


def test_a_finished_game_with_last_words_after_its_end_is_finished(cli, home):
    path = played(cli, home, "7", "enter 1", "abandon", "journal: Never again.", "journal: " + "x" * JOURNAL)
    kinds = [json.loads(line).get("event") for line in path.read_text().splitlines()]
    assert kinds[-4:] == ["end", "question", "journal", "journal"]  # the last word's question, answered twice over
    assert store.summarize(path).status == "abandoned" and not store.summarize(path).unfinished


@pytest.mark.parametrize("tail", [b'{"n": 40, "ev', b'{"n": 40, "ev\n', b"\n", b"\xff\xfe\n"])
def test_a_bad_last_line_shows_as_cut_off(cli, home, tail):
    path = played(cli, home, "5", "enter 1", "quit")
    path.write_bytes(path.read_bytes() + tail)
    s = store.summarize(path)
    assert s.status == "cut off" and s.unfinished and s.game == "carddom" and s.seed == "5"
    assert "the last line" in s.problem


@pytest.mark.parametrize(
    "content, problem",
    [
        (b"", "the log is empty"),
        (b'{"storyteller": "log", "schema": 1.0}\n', "line 1: 'schema' must be a whole number, not 1.0"),
        (b'{"storyteller": "log", "schema": 1, "game": {}, "variants": {}, "seed": "1", "source": "seeded"}\n',
         "'game' must be text"),
        (b"[" * 5_000 + b"\n", "line 1 nests too deeply"),
        (json.dumps({"storyteller": "log", "schema": 1, "game": "carddom", "variants": {}, "seed": "x" * 50_000_000,
                     "source": "seeded"}).encode() + b"\n", "line 1 is too long"),
    ],
)
def test_a_log_with_a_bad_header_is_unreadable_with_its_reason(home, content, problem):
    folder = store.sessions_dir()
    folder.mkdir(parents=True)
    (folder / "bad.jsonl").write_bytes(content)
    start = time.perf_counter()
    [s] = store.summaries()
    assert time.perf_counter() - start < 1  # a 50 MB seed is refused by the first line's bound, not read
    assert s.status == "unreadable" and problem in s.problem and (s.game, s.seed) == ("?", "?")


def test_a_bad_event_at_the_end_is_unreadable(cli, home):
    path = played(cli, home, "5", "enter 1", "quit")
    path.write_bytes(path.read_bytes()
                     + b'{"n": 99, "event": "draw", "card": "10C", "to": "x", "deal": false, "slot": 0}\n')
    s = store.summarize(path)
    assert s.status == "unreadable" and "the last line: 'deal' must be a whole number, not false" in s.problem


def test_summaries_read_only_the_ends_of_each_log(cli, home, monkeypatch):
    path = played(cli, home, "5", "enter 1", "quit")
    lines = path.read_bytes().split(b"\n")
    lines.insert(2, b"x" * 5_000_000)  # a bad line in the middle, far from both ends
    path.write_bytes(b"\n".join(lines))
    import storyteller.log.file as log_module

    monkeypatch.setattr(log_module, "parse", lambda *a, **k: pytest.fail("a summary read the whole log"))
    assert store.summarize(path).status == "in progress"


def test_sessions_lists_a_bad_log_and_goes_on_and_a_bare_resume_skips_it(cli, home):
    good = played(cli, home, "5", "enter 1", "quit")
    folder = store.sessions_dir()
    (folder / "zz-header.jsonl").write_text(
        '{"storyteller": "log", "schema": 1, "game": 5, "variants": {}, "seed": "1", "source": "seeded"}\n'
    )
    middle = folder / "zz-middle.jsonl"
    lines = good.read_text().splitlines()
    header = json.loads(lines[0])
    header["started"] = "2999-01-01T00:00:00+00:00"  # the newest: a bare resume would pick it first
    lines[0] = json.dumps(header)
    lines[2] = lines[2].replace('"n": 2', '"n": 2.0')
    middle.write_text("\n".join(lines) + "\n")
    r = cli("sessions")
    assert r.code == 0, r.err
    assert "zz-header.jsonl" in r.out and "unreadable: line 1:" in r.out and "'game'" in r.out  # the reason, wrapped
    rows = [line.split() for line in r.out.splitlines()]
    # the good log and the one bad in the middle, by their ends
    assert sum(1 for row in rows if row[:1] == ["carddom"]) == 2
    assert store.latest_unfinished() == good
    before = middle.read_bytes()
    (home / "quit.txt").write_text("quit\n")
    r = cli("resume", "--answers", home / "quit.txt")
    assert r.code == 0 and good.name in r.out, r.err
    assert middle.read_bytes() == before and len(store.summaries()) == 3


# -- the sessions command: the most recent first, and what is left out --------------------------


@pytest.fixture
def many(cli, home, tmp_path):
    """25 saved games: carddom won or lost, adaman lost, some in progress, one abandoned,
    each started a day after the one before (game i on day i)."""
    folder = home / "sessions"
    folder.mkdir(parents=True, exist_ok=True)
    quit_file = tmp_path / "quit.txt"
    quit_file.write_text("quit\n")
    abandon_file = tmp_path / "abandon.txt"
    abandon_file.write_text("enter 1\nabandon\n")
    base = {}
    for name, args in (("won", ["carddom", "--seed", "51", "--auto", "random"]),
                       ("lost", ["carddom", "--seed", "1", "--auto", "random"]),
                       ("adaman", ["adaman", "--seed", "2", "--auto", "greedy"]),
                       ("open", ["carddom", "--seed", "9", "--answers", quit_file]),
                       ("abandoned", ["carddom", "--seed", "7", "--answers", abandon_file])):
        path = tmp_path / f"{name}.jsonl"
        assert cli("play", *args, "--log", path).code == 0
        base[name] = path.read_text(encoding="utf-8").splitlines()
    kinds = ["won", "lost", "adaman", "open", "lost"] * 4 + ["won", "lost", "open", "abandoned", "adaman"]
    for i, kind in enumerate(kinds):
        lines = list(base[kind])
        header = json.loads(lines[0])
        header["started"] = f"2026-01-{i + 1:02d}T10:00:00+00:00"
        lines[0] = json.dumps(header)
        (folder / f"game-{i:02d}-{kind}.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return kinds


def listed(out: str) -> list[str]:
    return [line.split()[-1] for line in out.splitlines() if line.startswith(("carddom ", "adaman "))]


def test_sessions_shows_the_20_most_recent_newest_first_and_says_how_many_more(cli, many):
    r = cli("sessions")
    assert r.code == 0, r.err
    files = listed(r.out)
    assert files == [f"game-{i:02d}-{many[i]}.jsonl" for i in range(24, 4, -1)]
    assert "5 older sessions not shown: storyteller sessions --all (or -n N for the N most recent)" in r.out
    assert len(listed(cli("sessions", "--all").out)) == 25 and "not shown" not in cli("sessions", "--all").out
    three = cli("sessions", "-n", "3")
    assert listed(three.out) == ["game-24-adaman.jsonl", "game-23-abandoned.jsonl", "game-22-open.jsonl"]
    assert "22 older sessions not shown" in three.out


def test_sessions_of_one_game_or_one_status(cli, many):
    adaman = listed(cli("sessions", "--game", "adaman").out)
    assert adaman and all(f.endswith("-adaman.jsonl") for f in adaman) and len(adaman) == many.count("adaman")
    going = cli("sessions", "--status", "in-progress")
    assert listed(going.out) == [f"game-{i:02d}-open.jsonl" for i in range(24, -1, -1) if many[i] == "open"]
    assert "In-progress sessions in" in going.out
    won = listed(cli("sessions", "--status", "won", "--game", "carddom").out)
    assert won == [f"game-{i:02d}-won.jsonl" for i in range(24, -1, -1) if many[i] == "won"]
    assert listed(cli("sessions", "--status", "abandoned").out) == ["game-23-abandoned.jsonl"]
    lost = cli("sessions", "--status", "lost", "-n", "2")
    assert len(listed(lost.out)) == 2 and "--status lost" in lost.out  # the command for the rest keeps the filter
    none = cli("sessions", "--status", "won", "--game", "adaman")
    assert none.code == 0 and "No won adaman sessions" in none.out and "25 saved games in all" in none.out


@pytest.mark.parametrize("args, message", [
    (["--status", "finished"], "--status takes one of: in-progress, won, lost, abandoned (not 'finished')"),
    (["-n", "0"], "-n takes a number of games, 1 or more"),
    (["--game", "chess"], "unknown game 'chess'"),
])
def test_sessions_refuses_a_bad_option_in_one_line(cli, many, args, message):
    r = cli("sessions", *args)
    assert r.code == 2 and message in r.err and r.err.count("\n") == 1


def test_sessions_keeps_what_it_read_beside_the_logs_and_reads_only_what_changed(cli, many, home):
    folder = home / "sessions"
    assert cli("sessions").code == 0
    cache = folder / store.SUMMARIES
    assert cache.exists()
    first = store.summaries(folder)
    target = folder / "game-03-open.jsonl"
    with target.open("a", encoding="utf-8") as f:  # the game goes on elsewhere: its status must follow
        f.write(json.dumps({"n": 99, "event": "end", "result": "abandoned", "reason": "x", "cause": "abandoned"})
                + "\n")
    again = {s.name: s for s in store.summaries(folder)}
    assert again["game-03-open.jsonl"].status != {s.name: s for s in first}["game-03-open.jsonl"].status
    cache.write_text("not json", encoding="utf-8")  # a broken cache is no cache
    assert {s.name: s.status for s in store.summaries(folder)} == {n: s.status for n, s in again.items()}

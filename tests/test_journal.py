"""``storyteller journal``: the player's entries across every saved game, as a person finds
them again: newest first, by game, campaign and day, searched for words, by a tagged name,
as JSON; and ``sessions --campaign``.

Four games are played once from answers files, as a person would write them (tags, stars,
rich's brackets, HTML), then dated by hand to four different days and two of them made the
chapters of a campaign, as ``play --campaign`` writes its header. Each test gets a copy."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from conftest import read_events
from typer.testing import CliRunner

from storyteller.cli import app
from storyteller.study import journal as library

# (game, seed, day, campaign, answers): oldest first
GAMES = [
    ("cascades", "2", "2024-12-01", None, [
        "journal: Old Nim was only a story then, and *nobody* believed it.",  # the Huntress, at the source
        "quit",
    ]),
    ("carddom", "42", "2025-01-10", ("salt-road", 1), [
        "journal: I am [N:Old Nim|charcoal girl], and I keep the *stars* in a jar.",  # the 8 of Diamonds
        "journal: Nothing, [bold]not even[/bold] the jar.",  # the question before the first move
        "enter 1",
        "journal: The mountain is <b>iron</b> all the way down.",  # the King of Spades
        "journal: I wrote this one by the fire, \x1b[31min red\x1b[0m.",  # from the menu: it answers nothing
        "2",
        "journal: Old Nim waved from the trees.",  # the 10 of Clovers
        "quit",
    ]),
    ("hexaract", "7", "2025-02-20", ("salt-road", 2), [
        "journal: The road starts at [L:The Salt Gate]; [#N:Old Nim] walks beside me.",  # the Ace of Leaves
        "journal: A rope, and a map of iron roads.",  # the start
        "1",
        "quit",
    ]),
    ("adaman", "3", "2025-03-05", None, [
        "oracle likely: Is old nim at court?",
        "journal: She is, and [Thread:Who burned the mill?|Open] is whispered.",  # what the oracle's answer means
        "abandon",
        "journal: I walked away from court. OLD NIM did not.",  # the last word
    ]),
]

NEWEST_FIRST = [
    "I walked away from court. OLD NIM did not.",
    "She is, and [Thread:Who burned the mill?|Open] is whispered.",
    "A rope, and a map of iron roads.",
    "The road starts at [L:The Salt Gate]; [#N:Old Nim] walks beside me.",
    "Old Nim waved from the trees.",
    "I wrote this one by the fire, \x1b[31min red\x1b[0m.",
    "The mountain is <b>iron</b> all the way down.",
    "Nothing, [bold]not even[/bold] the jar.",
    "I am [N:Old Nim|charcoal girl], and I keep the *stars* in a jar.",
    "Old Nim was only a story then, and *nobody* believed it.",
]
SHOWN = [t.replace("\x1b", "") for t in NEWEST_FIRST]  # as listed: no control character reaches the terminal


def chapter(path: Path, day: str, campaign: tuple[str, int] | None) -> None:
    """Date a log's events to ``day`` (keeping their times) and, if asked, make it a
    campaign's chapter, as ``play --campaign`` writes its header."""
    records = read_events(path)
    records[0]["started"] = day + records[0]["started"][10:]
    if campaign:
        records[0]["campaign"] = {"name": campaign[0], "chapter": campaign[1], "recap": ""}
    for r in records[1:]:
        r["at"] = day + r["at"][10:]
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")


@pytest.fixture(scope="module")
def shelf(tmp_path_factory) -> Path:
    """The four games' sessions folder, played once for the module."""
    root = tmp_path_factory.mktemp("shelf")
    folder = root / "sessions"
    runner = CliRunner()
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("STORYTELLER_HOME", str(root))
        mp.setenv("STORYTELLER_CONFIG", str(root / "config.toml"))
        for game, seed, day, campaign, answers in GAMES:
            script = root / f"{game}.txt"
            script.write_text("\n".join(answers) + "\n", encoding="utf-8")
            log = folder / f"{day}-{game}-{seed}.jsonl"
            r = runner.invoke(app, ["play", game, "--seed", seed, "--answers", str(script), "--log", str(log)])
            assert r.exit_code == 0, r.stderr
            chapter(log, day, campaign)
    return folder


@pytest.fixture
def saved(shelf, home) -> Path:
    folder = home / "sessions"
    shutil.copytree(shelf, folder)
    return folder


def texts(out: str) -> list[str]:
    """The entries' words as listed: the indented lines, one entry each (these are short)."""
    return [line.strip() for line in out.splitlines() if line.startswith("    ")]


def listed(cli, *args: str) -> list[dict]:
    r = cli("journal", *args, "--json")
    assert r.code == 0, r.err
    return json.loads(r.out)


# -- the list ---------------------------------------------------------------------------------


def test_every_entry_newest_first_with_its_day_game_chapter_and_what_it_answered(cli, saved):
    r = cli("journal")
    assert r.code == 0, r.err
    assert texts(r.out) == SHOWN
    heads = [line for line in r.out.splitlines() if line and not line.startswith(" ")]
    assert heads == [
        "2025-03-05  Adaman - the end",
        "2025-03-05  Adaman - the oracle",
        "2025-02-20  Hexaract, chapter 2 of salt-road - the start",
        "2025-02-20  Hexaract, chapter 2 of salt-road - the Ace of Leaves",
        "2025-01-10  Carddom, chapter 1 of salt-road - the 10 of Clovers",
        "2025-01-10  Carddom, chapter 1 of salt-road",  # written from the menu: it answers no question
        "2025-01-10  Carddom, chapter 1 of salt-road - the King of Spades",
        "2025-01-10  Carddom, chapter 1 of salt-road - the start",
        "2025-01-10  Carddom, chapter 1 of salt-road - the 8 of Diamonds",
        "2024-12-01  Cascades - the Huntress",
    ]


def test_the_players_words_are_shown_as_written_never_as_markup_or_control_characters(cli, saved):
    out = cli("journal").out
    for words in ("[N:Old Nim|charcoal girl]", "*stars*", "[bold]not even[/bold]", "<b>iron</b>",
                  "[Thread:Who burned the mill?|Open]"):
        assert words in out
    assert "\x1b" not in out and "by the fire, [31min red[0m." in out


def test_n_lists_the_latest_and_says_how_many_are_older(cli, saved):
    r = cli("journal", "-n", "3")
    assert texts(r.out) == SHOWN[:3]
    assert r.out.rstrip().endswith("7 older entries not shown: add --all (or -n N for the N most recent).")
    assert len(texts(cli("journal", "--all", "-n", "3").out)) == 10
    r = cli("journal", "-n", "0")
    assert r.code == 2 and r.err == "storyteller: -n takes a number of entries, 1 or more\n"


def test_a_game_a_campaign_and_a_span_of_days(cli, saved):
    assert texts(cli("journal", "--game", "carddom").out) == SHOWN[4:9]
    assert [e["title"] for e in listed(cli, "--campaign", "salt-road")] == ["Hexaract"] * 2 + ["Carddom"] * 5
    assert texts(cli("journal", "--from", "2025-01-10", "--to", "2025-02-20").out) == SHOWN[2:9]
    assert texts(cli("journal", "--from", "2025-02-21").out) == SHOWN[:2]
    assert texts(cli("journal", "--to", "2024-12-31").out) == SHOWN[9:]
    r = cli("journal", "--game", "cascades", "--from", "2025-01-01")
    assert r.code == 0 and r.out == "No entries of Cascades from 2025-01-01 (of 10 entries in all).\n"
    assert cli("journal", "--game", "chess").code == 2


@pytest.mark.parametrize("day", ["2025-02-30", "yesterday", "2025-1-5", "20250105", ""])
def test_a_bad_date_is_one_line_and_exit_2(cli, saved, day):
    r = cli("journal", "--from", day)
    assert r.code == 2 and r.out == ""
    assert r.err.startswith("storyteller: bad --from date: ") and "YYYY-MM-DD" in r.err and r.err.count("\n") == 1


def test_from_after_to_is_refused(cli, saved):
    r = cli("journal", "--from", "2025-03-01", "--to", "2025-02-01")
    assert r.code == 2 and r.err == "storyteller: --from 2025-03-01 is after --to 2025-02-01: no day is in between\n"


def test_an_unknown_campaign_is_one_line_naming_those_there_are(cli, saved):
    r = cli("journal", "--campaign", "salt")
    assert r.code == 2 and r.out == ""
    assert r.err == (f"storyteller: no campaign named 'salt' has a chapter in {saved} "
                     "(campaigns with chapters: salt-road)\n")


# -- search -----------------------------------------------------------------------------------


def test_search_finds_the_entries_that_hold_every_word(cli, saved):
    assert texts(cli("journal", "search", "iron").out) == [SHOWN[2], SHOWN[6]]
    assert texts(cli("journal", "search", "IRON", "roads").out) == [SHOWN[2]]  # every word; any case
    assert texts(cli("journal", "search", "iron", "jar").out) == []
    assert cli("journal", "search", "iron", "jar").out == "No entries holding every word of: iron jar (of 10 " \
                                                          "entries in all).\n"
    assert texts(cli("journal", "search", "mill", "--game", "adaman").out) == [SHOWN[1]]


def test_search_reads_a_tag_as_its_name(cli, saved):
    assert texts(cli("journal", "search", "nim", "jar").out) == [SHOWN[8]]
    assert texts(cli("journal", "search", "salt gate").out) == [SHOWN[3]]  # a phrase, as one word
    assert cli("journal", "search", "N:Old").out.startswith("No entries")  # the notation is not the words
    assert cli("journal", "search", "Thread").out.startswith("No entries")


def test_search_needs_words_and_journal_takes_no_others(cli, saved):
    r = cli("journal", "search")
    assert r.code == 2 and r.err.count("\n") == 1 and "journal search WORDS" in r.err
    r = cli("journal", "nim")
    assert r.code == 2 and r.err.count("\n") == 1 and "storyteller journal search nim" in r.err


# -- tags -------------------------------------------------------------------------------------


def test_tag_finds_a_name_tagged_and_then_named_in_plain_words(cli, saved):
    found = texts(cli("journal", "--tag", "Old Nim").out)
    # tagged in Carddom, then named in plain words there, in Hexaract as [#N:...] and in
    # Adaman's last word; the Cascades entry named her before any entry tagged her
    assert found == [SHOWN[0], SHOWN[3], SHOWN[4], SHOWN[8]]
    assert texts(cli("journal", "--tag", "[#N:old   nim]").out) == found
    assert texts(cli("journal", "--tag", "Salt Gate").out) == []  # the place is "The Salt Gate"
    assert texts(cli("journal", "--tag", "the salt gate").out) == [SHOWN[3]]
    assert texts(cli("journal", "--tag", "Who burned the mill?").out) == [SHOWN[1]]
    assert texts(cli("journal", "--tag", "Old Nim", "--tag", "The Salt Gate").out) == [SHOWN[3]]
    assert texts(cli("journal", "--tag", "old nim", "--game", "carddom", "search", "jar").out) == [SHOWN[8]]


def test_a_name_never_tagged_is_said_so(cli, saved):
    r = cli("journal", "--tag", "Salt Gate")
    assert r.code == 0
    assert r.out.startswith("No entry tags 'Salt Gate': a name is tagged in an entry as [N:Salt Gate] (a person)")
    assert cli("journal", "--tag", " ").code == 2


# -- JSON -------------------------------------------------------------------------------------


def test_json_gives_every_field_of_each_entry(cli, saved):
    entries = listed(cli, "--all")
    assert [e["text"] for e in entries] == NEWEST_FIRST
    first = entries[8]
    assert first == {
        "date": "2025-01-10", "at": first["at"], "game": "carddom", "title": "Carddom", "seed": "42",
        "log": str(saved / "2025-01-10-carddom-42.jsonl"), "n": first["n"],
        "campaign": {"name": "salt-road", "chapter": 1}, "answered": "the 8 of Diamonds",
        "question": first["question"], "text": NEWEST_FIRST[8],
        "tags": [{"kind": "person", "name": "Old Nim", "note": "charcoal girl"}],
    }
    assert first["at"].startswith("2025-01-10T") and first["question"].endswith("?")
    events = read_events(Path(first["log"]))
    assert events[first["n"]]["event"] == "journal" and events[first["n"]]["text"] == first["text"]
    free = entries[5]
    assert free["answered"] is None and free["question"] is None
    assert [e["answered"] for e in entries[:2]] == ["the end", "the oracle"]
    assert entries[9]["campaign"] is None and entries[9]["tags"] == []


def test_json_keeps_the_words_and_escapes_every_control_character(cli, saved):
    r = cli("journal", "--json", "search", "fire")
    assert "\x1b" not in r.out and "\\u001b[31min red" in r.out
    assert json.loads(r.out)[0]["text"] == NEWEST_FIRST[5]


def test_json_of_nothing_is_an_empty_list(cli, saved, home):
    assert listed(cli, "--tag", "nobody") == []
    assert listed(cli, "search", "xyzzy") == []


# -- the folder -------------------------------------------------------------------------------


def test_an_empty_or_missing_sessions_folder_is_a_sentence(cli, home):
    r = cli("journal")
    assert r.code == 0 and r.err == ""
    assert r.out == (f"No journal entries yet: there are no saved games in {home / 'sessions'}. Start one with: "
                     "storyteller play carddom\n")
    (home / "sessions").mkdir(parents=True)
    assert cli("journal").out == r.out
    assert listed(cli) == []


def test_games_without_entries_are_a_sentence(cli, home, tmp_path):
    assert cli("play", "carddom", "--seed", "1", "--auto", "random").code == 0
    r = cli("journal")
    assert r.code == 0 and r.out.startswith("No journal entries yet in your 1 saved game in ")


def test_a_corrupt_log_is_left_out_in_one_line(cli, saved):
    (saved / "2025-04-01-broken.jsonl").write_text("not a log\n", encoding="utf-8")
    (saved / "2025-04-02-empty.jsonl").write_bytes(b"")
    for _ in range(2):  # read, then remembered in the cache as unreadable
        r = cli("journal", "--all")
        assert r.code == 0 and texts(r.out) == SHOWN
        assert r.err == ("storyteller: left out 2 logs that could not be read (2025-04-01-broken.jsonl and 1 other): "
                         "see storyteller sessions\n")
    r = cli("journal", "--json")
    assert len(json.loads(r.out)) == 10 and r.err.count("\n") == 1


def test_a_cut_off_log_keeps_the_entries_before_its_last_line(cli, saved):
    path = saved / "2025-03-05-adaman-3.jsonl"
    path.write_bytes(path.read_bytes() + b'{"n": 99, "ev')
    assert texts(cli("journal", "--game", "adaman").out) == SHOWN[:2]


def test_the_cache_is_kept_beside_the_logs_and_follows_them(cli, saved):
    before = cli("journal", "--all").out
    cache = saved / library.CACHE
    assert cache.exists()
    assert cli("journal", "--all").out == before  # from the cache
    cache.write_text("{not json", encoding="utf-8")
    assert cli("journal", "--all").out == before  # a cache that cannot be read is made again
    kept = json.loads(cache.read_text(encoding="utf-8"))
    name = "2025-02-20-hexaract-7.jsonl"
    kept["logs"][name]["log"]["entries"] = "nonsense"  # a cache edited by hand: that log is read again
    cache.write_text(json.dumps(kept), encoding="utf-8")
    assert cli("journal", "--all").out == before
    answers = saved.parent / "more.txt"
    answers.write_text("journal: Later, the gate was shut.\nquit\n", encoding="utf-8")
    assert cli("resume", saved / name, "--answers", answers).code == 0  # the log changed: read again
    assert texts(cli("journal", "-n", "1").out) == ["Later, the gate was shut."]


def test_a_branch_lists_the_entries_it_copied_once(cli, saved):
    old = saved / "2025-01-10-carddom-42.jsonl"
    steps = len(read_events(old)) - 1
    r = cli("play", "--from", old, "--step", str(steps), "--auto", "random", "--log", saved / "branch.jsonl")
    assert r.code == 0, r.err
    assert [e["text"] for e in listed(cli, "--all")] == NEWEST_FIRST  # the copies are the old game's entries
    old.unlink()
    entries = listed(cli, "--all")
    assert [e["text"] for e in entries] == NEWEST_FIRST  # the old game gone, the branch keeps them
    assert {e["log"] for e in entries if e["game"] == "carddom"} == {str(saved / "branch.jsonl")}


# -- sessions --campaign ------------------------------------------------------------------------


def test_sessions_of_a_campaign_are_its_chapters(cli, saved):
    r = cli("sessions", "--campaign", "salt-road")
    assert r.code == 0, r.err
    assert r.out.startswith(f"Sessions of the campaign salt-road in {saved}, newest first")
    games = [line.split()[0] for line in r.out.splitlines()[4:]]
    assert games == ["hexaract", "carddom"]
    r = cli("sessions", "--campaign", "salt-road", "--game", "adaman")
    assert r.out.startswith("No adaman sessions of the campaign salt-road in ")
    r = cli("sessions", "--campaign", "nowhere")
    assert r.code == 2 and r.out == "" and r.err.count("\n") == 1
    assert "no campaign named 'nowhere' has a chapter" in r.err and "salt-road" in r.err


# -- what an entry answered, and the docs -----------------------------------------------------


def test_what_an_entry_answered_is_the_step_its_question_was_about():
    from storyteller.log.events import (
        CardDrawn, Correction, Decision, DiceRolled, End, JournalEntry, OracleQuestion, Question,
    )

    events = [
        CardDrawn(1, card="huntress", to="court", deal=0, slot=0),
        DiceRolled(2, dice=(3, 5, 6, 1, 2), index=0),
        Correction(3, of=1, card="KH"),
        Correction(4, of=2, dice=(1, 1, 1, 1, 1)),
        Decision(5, action="turn", text="Turn three"),
        Decision(6, action="turn"),  # a hand-made log: the key stands for the words
        OracleQuestion(7, question="Is it safe?", odds="likely", roll=3, answer="yes, and", spark="sailor"),
        End(8, result="lost", score=0),
    ]
    asked = [Question(9 + i, id="q", text="Why?", about=about) for i, about in enumerate([1, 2, 3, 4, 5, 6, 7, 8])]
    start = Question(17, id="q", text="Who?")
    events += asked + [start]
    expected = ["the Huntress", "a roll of 3, 5, 6, 1 and 2", "the King of Hearts", "a roll of 1, 1, 1, 1 and 1",
                "Turn three", "turn", "the oracle", "the end"]
    for question, words in zip(asked, expected):
        assert library.answered(events, JournalEntry(18, text="x", question=question.n), ended=8) == words
    assert library.answered(events, JournalEntry(18, text="x", question=17), ended=8) == "the start"
    assert library.answered(events, JournalEntry(18, text="x", about=1)) == "the Huntress"  # an older log's entry
    assert library.answered(events, JournalEntry(18, text="x")) == ""  # from the menu
    assert library.answered(events, JournalEntry(18, text="x"), ended=8) == "the end"  # after the end


def test_the_docs_name_every_field_of_the_json():
    docs = (Path(__file__).resolve().parents[1] / "docs" / "journal.md").read_text(encoding="utf-8")
    entry = library.Entry("f.jsonl", 3, "", "", 0.0, "carddom", "Carddom", "1", "c", 1, "", "", "[N:Nim]")
    fields = set(entry.as_dict(Path("."))) | {"name", "chapter", "kind", "note"}
    assert {f for f in fields if f"`{f}`" not in docs and f'"{f}"' not in docs} == set()

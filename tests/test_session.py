"""Scripted play, undo, resume, replay and broken logs: what a player would notice."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import read_events

from storyteller.log.file import LogError, TruncatedLog, read
from storyteller.play.session import SaveAndQuit, Session
from storyteller.core.sources import SeededSource
from storyteller.log.replay import walk
from storyteller import registry
from storyteller.registry import rules as get_game

# Seed 7 deals the 10 of Spades as the character and the 10 of Clovers at stack 1.
SEED = "7"


def answers(tmp_path: Path, *lines: str) -> Path:
    path = tmp_path / "answers.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def play(cli, tmp_path, *lines: str, seed: str = SEED, log: str = "g.jsonl"):
    path = tmp_path / log
    r = cli("play", "carddom", "--seed", seed, "--answers", answers(tmp_path, *lines), "--log", path)
    return r, path


def decisions(path: Path) -> list[str]:
    return [e["action"] for e in read_events(path)[1:] if e["event"] == "decision"]


def test_the_seeded_deal_used_by_these_tests():
    game = get_game("carddom")
    deal = SeededSource(SEED, game, game.parse_variants([])).deal(0)
    assert deal[0] == "10S" and deal[1] == "10C"


def test_answers_play_with_journal_entries_kept_verbatim(cli, tmp_path):
    words = "The forest smells of rain — and of smoke. \"Odd,\" I said."
    r, path = play(cli, tmp_path, "journal: I left the forge at dawn.", "enter 1", f"journal: {words}", "take 10C",
                   "quit")
    assert r.code == 0, r.err
    events = read_events(path)
    journal = [e for e in events if e.get("event") == "journal"]
    assert [j["text"] for j in journal] == ["I left the forge at dawn.", words]
    # each entry after a reveal answers that card's question, as it was asked and logged
    location = next(e for e in events[1:] if e["event"] == "draw" and e["to"] == "stack 1 location")
    asked = {e["n"]: e for e in events[1:] if e["event"] == "question"}
    assert journal[0]["about"] == 1 and journal[0]["prompt"] == asked[journal[0]["question"]]["text"]
    assert journal[1]["about"] == location["n"] and asked[journal[1]["question"]]["about"] == location["n"]
    assert decisions(path) == ["enter 1", "take 10C"]
    assert "storyteller resume" in r.out


def test_moves_by_number_and_by_words(cli, tmp_path):
    r, path = play(cli, tmp_path, "2", "Explore deeper: reveal the people here", "quit")
    assert r.code == 0, r.err
    assert decisions(path) == ["enter 2", "explore"]


def test_an_illegal_answer_names_the_rule_and_logs_nothing_illegal(cli, tmp_path):
    r, path = play(cli, tmp_path, "enter 1", "take 10C", "take 10S", "explore")
    assert r.code == 2
    assert "line 3" in r.err and "one card per stack" in r.err
    assert "Traceback" not in r.err
    assert decisions(path) == ["enter 1", "take 10C"]
    assert "storyteller resume" in r.err


def test_an_answers_file_that_runs_out_saves_for_resume(cli, tmp_path):
    r, path = play(cli, tmp_path, "enter 1")
    assert r.code == 130
    assert "ran out" in r.err and "storyteller resume" in r.err
    assert not read(path).finished


def test_undo_is_an_event_and_never_changes_a_later_draw(cli, tmp_path):
    r, path = play(cli, tmp_path, "enter 1", "explore", "undo", "move 2", "undo", "explore", "quit")
    assert r.code == 0, r.err
    events = read_events(path)[1:]
    undos = [e for e in events if e["event"] == "undo"]
    assert len(undos) == 2
    draws = [(e["to"], e["card"]) for e in events if e["event"] == "draw"]
    people = [card for to, card in draws if to == "stack 1 people"]
    assert len(people) == 2 and people[0] == people[1]  # explore, undo, explore: the same card
    assert cli("replay", path).code == 0
    w = walk(read(path))
    assert w.state.stacks[0] == ["10C", people[0]]


def test_undo_with_nothing_to_undo_is_refused(cli, tmp_path):
    r, _path = play(cli, tmp_path, "undo")
    assert r.code == 2 and "no move to undo" in r.err


def test_resume_continues_where_the_game_stopped(cli, tmp_path):
    r, path = play(cli, tmp_path, "enter 1", "journal: Halfway.", "quit")
    assert r.code == 0
    r = cli("resume", path, "--answers", answers(tmp_path, "explore", "quit"))
    assert r.code == 0, r.err
    assert "Resuming" in r.out
    assert decisions(path) == ["enter 1", "explore"]
    assert cli("replay", path).code == 0


def test_resume_without_a_path_takes_the_latest_unfinished(cli, home, tmp_path):
    r = cli("play", "carddom", "--seed", SEED, "--answers", answers(tmp_path, "enter 1", "quit"))
    assert r.code == 0
    r = cli("resume", "--answers", answers(tmp_path, "explore", "quit"))
    assert r.code == 0, r.err
    (log,) = (home / "sessions").glob("*.jsonl")
    assert decisions(log) == ["enter 1", "explore"]


def test_resume_with_nothing_unfinished_says_so(cli):
    r = cli("resume", "--auto", "random")
    assert r.code == 1 and "no unfinished session" in r.err


def test_resume_of_a_finished_game_points_to_export(cli, auto_log):
    path = auto_log("3")
    r = cli("resume", path, "--auto", "random")
    assert r.code == 1 and "already over" in r.err and "export" in r.err


def test_a_last_word_torn_after_the_end_is_set_aside_and_the_game_stays_over(cli, auto_log):
    path = auto_log("3")
    whole = path.read_bytes()
    with open(path, "ab") as f:
        f.write(b'{"event": "journal", "text": "So it ends, and the wi')  # killed while writing
    r = cli("resume", path, "--yes")
    assert r.code == 1 and "already over" in r.err and ".cut-off" in r.err
    assert path.read_bytes() == whole
    assert b"and the wi" in path.with_name(path.name + ".cut-off").read_bytes()
    assert cli("replay", path).code == 0


def test_auto_random_resumes_exactly_as_it_would_have_gone(cli, tmp_path, auto_log):
    whole = auto_log("21", name="whole.jsonl")
    r, part = play(cli, tmp_path, "quit", seed="21", log="part.jsonl")
    assert r.code == 0
    assert cli("resume", part, "--auto", "random").code == 0
    def strip(p):  # the player was asked questions; the built-in player is not
        return [(e.get("event"), e.get("card"), e.get("action")) for e in read_events(p)[1:]
                if e["event"] != "question"]

    assert strip(part) == strip(whole)


def test_a_cut_off_last_line_is_reported_and_resume_offers_the_intact_part(cli, tmp_path):
    r, path = play(cli, tmp_path, "enter 1", "explore", "quit")
    data = path.read_bytes()
    path.write_bytes(data[:-25])  # the last line loses its end
    r = cli("replay", path)
    last_line = data.count(b"\n")
    assert r.code == 1 and "is cut off" in r.err and f"line {last_line}" in r.err
    r = cli("resume", path, "--answers", answers(tmp_path, "quit"))
    assert r.code == 1 and "--yes" in r.err
    assert path.read_bytes() == data[:-25]  # nothing changed without consent
    r = cli("resume", path, "--yes", "--answers", answers(tmp_path, "explore", "quit"))
    assert r.code == 0, r.err
    assert path.with_name(path.name + ".cut-off").exists()  # the torn tail is kept, not lost
    assert cli("replay", path).code == 0


def test_a_corrupt_line_in_the_middle_is_named(cli, tmp_path):
    r, path = play(cli, tmp_path, "enter 1", "explore", "quit")
    lines = path.read_text().splitlines()
    lines[2] = lines[2][:10]
    path.write_text("\n".join(lines) + "\n")
    for command in (["replay", path], ["export", path, "--story"], ["resume", path, "--auto", "random"]):
        r = cli(*command)
        assert r.code == 1, command
        assert "line 3" in r.err and "not valid JSON" in r.err
        assert r.err.count("\n") == 1


def test_a_hand_edited_draw_is_caught_with_its_line(cli, tmp_path):
    r, path = play(cli, tmp_path, "enter 1", "explore", "quit")
    line = next(e["n"] + 1 for e in read_events(path)[1:] if e.get("card") == "10C")
    text = path.read_text().replace('"card": "10C"', '"card": "AH"')
    path.write_text(text)
    r = cli("replay", path)
    assert r.code == 1
    assert f"line {line}:" in r.err and "AH" in r.err and "10C" in r.err
    before = path.read_bytes()
    assert cli("resume", path, "--auto", "random").code == 1
    assert path.read_bytes() == before


def test_a_hand_edited_illegal_decision_is_caught(cli, tmp_path):
    r, path = play(cli, tmp_path, "enter 1", "quit")
    line = next(e["n"] + 1 for e in read_events(path)[1:] if e["event"] == "decision")
    path.write_text(path.read_text().replace('"action": "enter 1"', '"action": "enter 5"'))
    r = cli("replay", path)
    assert r.code == 1 and f"line {line}:" in r.err and "'enter 5' is not a legal move" in r.err


def test_a_hand_edited_outcome_is_caught(cli, auto_log):
    path = auto_log("4")
    text = path.read_text()
    result = "won" if '"result": "lost"' in text else "lost"
    path.write_text(text.replace('"result": "won"', '"result": "X"')
                    .replace('"result": "lost"', f'"result": "{result}"')
                    .replace('"result": "X"', '"result": "lost"'))
    r = cli("replay", path)
    assert r.code == 1 and "the game ends" in r.err


@pytest.mark.parametrize(
    "content, message",
    [
        ("", "empty"),
        ('{"hello": 1}\n', "not a storyteller log header"),
        ('{"storyteller": "log", "schema": 99, "game": "carddom", "variants": {}, "seed": "1", "source": "seeded"}\n',
         "schema 99"),
        ('{"storyteller": "log", "schema": 1, "game": "poker", "variants": {}, "seed": "1", "source": "seeded"}\n',
         "unknown game 'poker'"),
        ('{"storyteller": "log", "schema": 1, "game": "carddom", "variants": {"jokers": "x"}, "seed": "1", '
         '"source": "seeded"}\n', "jokers"),
        ('{"storyteller": "log", "schema": 1, "game": "carddom", "variants": {}, "seed": "1", "source": "seeded"}\n'
         '{"n": 2, "event": "draw"}\n', "event number"),
        ('{"storyteller": "log", "schema": 1, "game": "carddom", "variants": {}, "seed": "1", "source": "seeded"}\n'
         '{"n": 1, "event": "teleport"}\n', "unknown event"),
    ],
)
def test_broken_logs_get_one_clear_line(cli, tmp_path, content, message):
    path = tmp_path / "bad.jsonl"
    path.write_text(content)
    r = cli("replay", path)
    assert r.code == 1
    assert message in r.err
    assert r.err.count("\n") == 1 and "Traceback" not in r.err


def test_missing_log_and_folder(cli, tmp_path):
    r = cli("replay", tmp_path / "nope.jsonl")
    assert r.code == 1 and "no such log" in r.err
    r = cli("replay", tmp_path)
    assert r.code == 1 and "folder" in r.err


def test_every_line_is_on_disk_as_it_happens(tmp_path):
    """A session killed outright loses nothing: each event is written before the next step."""
    game = get_game("carddom")
    path = tmp_path / "live.jsonl"
    session = Session.new(game, game.parse_variants([]), "7", path)
    session.advance()
    session.journal("first words")
    on_disk = path.read_text().splitlines()  # read while the session is still open
    assert json.loads(on_disk[-1])["text"] == "first words"
    session.decide("enter 1")
    assert json.loads(path.read_text().splitlines()[-1])["event"] == "draw"


def test_a_decision_logged_without_its_draw_resumes_by_drawing_it(tmp_path):
    game = get_game("carddom")
    path = tmp_path / "crash.jsonl"
    session = Session.new(game, game.parse_variants([]), "7", path)
    session.advance()
    session.decide("enter 1")
    session.close()
    lines = path.read_text().splitlines()
    path.write_text("\n".join(lines[:-1]) + "\n")  # killed after the decision, before the draw
    resumed = Session.resume(read(path))
    resumed.advance()
    resumed.close()
    assert read_events(path)[-1]["card"] == "10C"
    assert walk(read(path)).state.stacks[0] == ["10C"]


def test_truncated_log_error_keeps_the_intact_part(tmp_path):
    path = tmp_path / "t.jsonl"
    path.write_text('{"storyteller": "log", "schema": 1, "game": "carddom", "variants": {}, "seed": "1", '
                    '"source": "seeded"}\n{"n": 1, "ev')
    with pytest.raises(TruncatedLog) as e:
        read(path)
    assert e.value.intact.events == []
    assert isinstance(e.value, LogError)


@pytest.mark.parametrize("policy", ["random", "greedy"])
@pytest.mark.parametrize("name", ["adaman", "cascades", "hexaract"])
def test_simulate_makes_the_moves_auto_play_makes(cli, tmp_path, name, policy):
    """Win rates are measured with simulate(): it must be the very game --auto plays."""
    from storyteller.play.session import simulate

    path = tmp_path / f"{name}.jsonl"
    assert cli("play", name, "--seed", "5", "--auto", policy, "--log", path).code == 0
    logged = walk(read(path))
    game = get_game(name)
    alone = simulate(game, game.parse_variants([]), "5", policy)
    assert alone.outcome == logged.outcome
    assert alone.places() == logged.state.places()


def test_a_card_the_rules_refuse_is_never_written(tmp_path):
    """Every draw is tried on a clone first: a source that answers with a card that cannot
    be there leaves the log exactly as it was."""
    from storyteller.core.engine import RuleError

    class Wrong:
        def resolve(self, request):
            return "JK9"  # no such card in the deck

    game = get_game("carddom")
    path = tmp_path / "wrong.jsonl"
    session = Session.new(game, game.parse_variants([]), "7", path)
    session.advance()
    session.decide("enter 1")
    session.source = Wrong()
    lines = path.read_bytes().count(b"\n")
    with pytest.raises(RuleError):
        session.decide("explore")
    session.close()
    events = read_events(path)
    assert len(events) == lines + 1 and events[-1]["action"] == "explore"  # the decision, never the card
    assert all(e.get("card") != "JK9" for e in events)
    resumed = Session.resume(read(path))  # the log resumes with that draw still to come
    resumed.advance()
    resumed.close()
    people = SeededSource("7", game, game.parse_variants([])).deal(0)[2]  # stack 1, depth 2
    assert read_events(path)[-1]["card"] == people
    assert walk(read(path)).state.stacks[0] == ["10C", people]


def test_an_illegal_decision_is_never_written(tmp_path):
    from storyteller.core.engine import RuleError

    game = get_game("carddom")
    path = tmp_path / "illegal.jsonl"
    session = Session.new(game, game.parse_variants([]), "7", path)
    session.advance()
    before = path.read_bytes()
    for key in ("enter 5", "take AH", "explore", "fly away"):
        with pytest.raises(RuleError):
            session.decide(key)
    session.close()
    assert path.read_bytes() == before


def test_undo_takes_the_move_back_from_the_count(cli, tmp_path):
    r, path = play(cli, tmp_path, "enter 1", "explore", "undo", "take 10C", "quit")
    assert r.code == 0, r.err
    w = walk(read(path))
    assert w.decisions == 2  # enter 1 and take 10C; the explore was taken back
    r = cli("replay", path)
    assert "2 decisions, 1 undone" in r.out


def test_a_replay_checks_each_card_against_what_the_game_draws_there():
    """A card from a real table must be one the rules allow at that place; a card at another
    place than the game draws to is refused, naming both."""
    from storyteller.log.events import CardDrawn, Header
    from storyteller.log.replay import Replay, ReplayMismatch

    def replay():
        return Replay(Header(game="carddom", variants={}, seed="7", source="physical cards"))

    assert replay().feed(CardDrawn(1, card="7C", to="character", deal=0, slot=0)).after.character == "7C"
    with pytest.raises(ReplayMismatch, match="line 2: the log draws 1C to character, but that card cannot be there"):
        replay().feed(CardDrawn(1, card="1C", to="character", deal=0, slot=0))
    with pytest.raises(ReplayMismatch, match=r"but the game draws to character \(deal 0, place 0\) here"):
        replay().feed(CardDrawn(1, card="7C", to="character", deal=0, slot=4))
    seeded = Replay(Header(game="carddom", variants={}, seed="7"))
    with pytest.raises(ReplayMismatch, match="but the seed deals"):
        seeded.feed(CardDrawn(1, card="7C" if SeededSource("7", get_game("carddom"), {}).deal(0)[0] != "7C" else "8C",
                              to="character", deal=0, slot=0))


@pytest.mark.parametrize("name, policy", [(g, p) for g in ("carddom", "adaman", "cascades", "hexaract")
                                          for p in registry.get(g).policies])
def test_a_resumed_auto_game_plays_on_as_an_uninterrupted_one(name, policy, tmp_path):
    """A policy's memory is its own and is rebuilt on resume: stop an --auto game of every
    built-in player half-way, resume it, and it makes the very moves of the game played in one go."""
    from storyteller.ui.drivers import AutoDriver
    from storyteller.play.session import AutoPlayer

    game = get_game(name)
    variants = game.parse_variants([])
    seed = "13" if name == "carddom" else "11"  # Carddom's greedy ends deal 11 at its first move

    class StopAt(AutoDriver):
        def __init__(self, player, stop):
            super().__init__(player)
            self.stop = stop

        def choose(self, session):
            if session.decisions == self.stop:
                raise SaveAndQuit()
            return super().choose(session)

    def decisions(path):
        return [e["action"] for e in read_events(path)[1:] if e["event"] == "decision"]

    whole = tmp_path / "whole.jsonl"
    session = Session.new(game, variants, seed, whole)
    session.run(AutoDriver(AutoPlayer(game, seed, policy)))
    session.close()
    total = len(decisions(whole))
    for stop in (total // 3, 2 * total // 3):
        part = tmp_path / f"part-{stop}.jsonl"
        session = Session.new(game, variants, seed, part)
        with pytest.raises(SaveAndQuit):
            session.run(StopAt(AutoPlayer(game, seed, policy), stop))
        session.close()
        resumed = Session.resume(read(part))
        driver = AutoDriver(AutoPlayer(game, seed, policy))
        driver.begin(resumed, resumed=True)
        resumed.run(driver)
        resumed.close()
        assert decisions(part) == decisions(whole), f"stopped after {stop} of {total} decisions"

"""Journaling questions: one written for every card in every role, never the same twice for
a player, some reaching back to the game's earlier cards, each logged with a stable id and
checked on replay; and the oracle, which answers a yes/no question without touching the game."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest

from conftest import read_events
from storyteller import registry
from storyteller.core.cards import all_cards
from storyteller.play.questions import Game, Occasion, Role, history

GAMES = ("carddom", "adaman", "cascades", "hexaract")
YES_NO = re.compile(r"^(Is|Are|Was|Were|Do|Does|Did|Can|Could|Will|Would|Shall|Should|Has|Have|Had|May|Might)\b")


def answers(tmp_path: Path, *lines: str, name: str = "answers.txt") -> Path:
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def moves_of(cli, tmp_path, game: str, seed: str) -> list[str]:
    """The built-in player's moves for a deal."""
    auto = tmp_path / f"auto-{game}-{seed}.jsonl"
    assert cli("play", game, "--seed", seed, "--auto", "greedy", "--log", auto).code == 0
    return [e["action"] for e in read_events(auto)[1:] if e["event"] == "decision"]


def asked(path: Path) -> list[dict]:
    return [e for e in read_events(path)[1:] if e["event"] == "question"]


# -- the bank -----------------------------------------------------------------------------------


def live(entries: list) -> list[str]:
    """The words of a list's questions still asked (one an editor cut stays, retired)."""
    return [e["text"] if isinstance(e, dict) else e for e in entries if not (isinstance(e, dict) and e.get("retired"))]


@pytest.mark.parametrize("game", GAMES)
def test_every_card_in_every_role_has_its_questions_and_each_game_hundreds(game):
    q = registry.get(game).questions
    bank = q.bank
    texts = Counter()
    for role, block in bank.roles.items():
        for card, written in block["cards"].items():
            assert len(written) >= 2, f"{role}/{card}: at least two variants, the later ones deeper"
            texts.update(live(written))
        for suit, leads in block.get("compose", {}).get("suit", {}).items():
            named = all(re.search(r"\{(card|Card|piece|Piece)\}", lead) for lead in live(leads))
            assert named, f"{role}/{suit}: a lead names its card"
    for moment, written in bank.moments.items():
        assert len(written) >= 6, f"moment {moment}: at least six"
        assert len(bank.moment_echo.get(moment, [])) >= 6, f"moment {moment}: echoes naming the game's cards"
        texts.update(live(written))
    assert not [t for t, n in texts.items() if n > 1], "no question is written twice"
    assert bank.size() >= 250  # still asked
    for text in texts:  # open questions, addressed to the player: none to answer with a yes or a no
        last = re.split(r"(?<=[.:;!])\s+", text.strip())[-1]
        assert text.endswith("?") and not YES_NO.match(last), text


@pytest.mark.parametrize("game", GAMES)
def test_every_id_a_game_can_ask_has_words_with_nothing_left_to_fill(game):
    """Every written, composed and echo question of a sample of occasions renders from its
    id alone, and its words hold no placeholder left unfilled."""
    q = registry.get(game).questions
    game_so_far = Game(reveals=20)
    roles = [Role.of(r, c) for r, block in q.bank.roles.items() for c in list(block["cards"])[:3]]
    game_so_far.facts = [(i + 1, r) for i, r in enumerate(roles)]
    params = {"tier": "2", "reserve-opened": "1", "reserve": "3"}
    for role in roles:
        role = Role(role.role, role.card, params.get(role.role, ""))
        written, composed, echoes = q.candidates(Occasion(role), game_so_far)
        for qid in written + composed[:40] + echoes[:40]:
            text = q.text(qid)
            assert text and "{" not in text and "}" not in text, (qid, text)


# -- never twice, and new every evening ------------------------------------------------------------


@pytest.mark.parametrize("game, seed", [("hexaract", "4"), ("cascades", "7"), ("adaman", "2"), ("carddom", "9")])
def test_a_question_is_never_asked_twice_in_one_game(cli, tmp_path, home, game, seed):
    moves = moves_of(cli, tmp_path, game, seed)
    path = tmp_path / "g.jsonl"
    assert cli("play", game, "--seed", seed, "--answers", answers(tmp_path, *moves), "--log", path).code == 0
    ids = [e["id"] for e in asked(path)]
    texts = [e["text"] for e in asked(path)]
    assert len(ids) >= 8 and len(set(ids)) == len(ids) and len(set(texts)) == len(texts)


def test_the_same_deal_again_asks_what_the_first_could_not(cli, tmp_path, home):
    """A player's saved games are their history: the same card in the same role the next
    evening gets the next, deeper variant, and the questions of that game are new to them."""
    moves = moves_of(cli, tmp_path, "carddom", "9")
    script = answers(tmp_path, *moves)
    sessions = home / "sessions"
    first, second = sessions / "first.jsonl", sessions / "second.jsonl"
    assert cli("play", "carddom", "--seed", "9", "--answers", script, "--log", first).code == 0
    assert cli("play", "carddom", "--seed", "9", "--answers", script, "--log", second).code == 0
    a, b = asked(first), asked(second)
    assert [e.get("about") for e in a[:3]] == [e.get("about") for e in b[:3]]  # the same steps ask...
    assert not {e["text"] for e in a} & {e["text"] for e in b}  # ...but nothing this player heard before
    deeper = [(x["id"], y["id"]) for x, y in zip(a, b)
              if not x["id"].startswith("@") and ":e:" not in x["id"] + y["id"]]
    assert deeper and all(x.rsplit(":", 1)[0] == y.rsplit(":", 1)[0] and y.endswith(":1") for x, y in deeper[:2])
    # the games of a built-in player ask nothing, and count for nothing
    assert cli("play", "carddom", "--seed", "9", "--auto", "greedy", "--log", sessions / "auto.jsonl").code == 0
    assert not asked(sessions / "auto.jsonl")
    counts = history(sessions, "carddom")
    assert sum(counts.values()) == len(a) + len(b) and counts[a[0]["id"]] == 1


def test_when_the_written_ones_are_used_up_a_new_one_is_composed_from_the_cards_layers():
    q = registry.get("adaman").questions
    role = Role("court", "sailor")
    written = q.written_ids(role)
    seen = Counter(dict.fromkeys(written, 1))
    chosen = q.choose(Occasion(role), Game(), seen, "1", 5)
    assert chosen.id.startswith("court:sailor:c:") and "the Sailor" in chosen.text.replace("The Sailor", "the Sailor")
    c = all_cards()["sailor"]
    suit = chosen.id.split(":")[3]
    assert suit in c.suits and chosen.id.split(":")[5] == c.rank


def test_after_the_eighth_reveal_some_questions_name_an_earlier_card_of_the_game(cli, tmp_path, home):
    moves = moves_of(cli, tmp_path, "cascades", "3")
    path = tmp_path / "g.jsonl"
    assert cli("play", "cascades", "--seed", "3", "--answers", answers(tmp_path, *moves), "--log", path).code == 0
    ctx = json.loads(cli("export", path, "--format", "json").out)
    steps = {s["n"]: s for s in ctx["steps"]}
    naming = [s for s in ctx["steps"] if s["kind"] == "question" and s["names"]]
    assert naming, "no question reached back"
    for s in naming:
        for n in s["names"]:
            earlier = steps[n]
            assert n < s["n"] and earlier["kind"] in ("draw", "decision")
            name = registry.get("cascades").questions.words(
                earlier["draw"]["card"] if earlier["kind"] == "draw" else earlier["move"]["card"], Role("x"))
            assert name.lower() in s["text"].lower()  # it names that card, as the game called it


# -- logged, replayed, exported ------------------------------------------------------------------


def test_each_question_is_logged_with_its_id_answered_or_not_and_the_export_shows_it(cli, tmp_path, home):
    path = tmp_path / "g.jsonl"
    script = answers(tmp_path, "journal: I am a plain miller.", "enter 1", "explore", "quit")
    assert cli("play", "carddom", "--seed", "2", "--answers", script, "--log", path).code == 0
    events = read_events(path)[1:]
    questions = [e for e in events if e["event"] == "question"]
    assert questions[0]["about"] == 1 and questions[0]["id"].startswith("character:")
    entry = next(e for e in events if e["event"] == "journal")
    assert entry["question"] == questions[0]["n"] and entry["prompt"] == questions[0]["text"]
    ctx = json.loads(cli("export", path, "--format", "json").out)
    draw = next(s for s in ctx["steps"] if s["kind"] == "draw")
    assert draw["question"] == {"id": questions[0]["id"], "text": questions[0]["text"], "answered": True, "names": []}
    skipped = next(s for s in ctx["steps"] if s["kind"] == "draw" and s["n"] > 1)
    assert skipped["question"]["answered"] is False
    playthrough = cli("export", path, "--playthrough").out
    assert f"Asked: *{skipped['question']['text']}* (no answer)" in playthrough


def test_replay_notes_a_question_the_game_would_not_ask_there(cli, tmp_path, home):
    path = tmp_path / "g.jsonl"
    assert cli("play", "carddom", "--seed", "2", "--answers", answers(tmp_path, "enter 1", "quit"),
               "--log", path).code == 0
    assert "note:" not in cli("replay", path).out
    lines = path.read_text(encoding="utf-8").splitlines()
    events = [json.loads(line) for line in lines]
    first = next(i for i, e in enumerate(events) if e.get("event") == "question")
    for change in ({"id": "location:KH:0"}, {"text": "What is your favourite colour?"}, {"id": "character:2C:9"}):
        edited = dict(events[first], **change)
        path.write_text("\n".join(lines[:first] + [json.dumps(edited)] + lines[first + 1:]) + "\n", encoding="utf-8")
        r = cli("replay", path)
        assert r.code == 0 and f"note: line {first + 1}: the question asked here is not one the game asks" in r.out


def test_an_old_log_without_questions_still_replays_and_exports_what_its_entries_answered(cli, tmp_path):
    examples = Path(__file__).resolve().parents[1] / "examples"
    old = tmp_path / "old.jsonl"
    lines = [json.loads(line) for line in (examples / "carddom-won.jsonl").read_text(encoding="utf-8").splitlines()]
    kept = [e for e in lines if e.get("event") != "question"]
    for i, e in enumerate(kept[1:], start=1):  # renumber, as a log made before questions were logged
        e.pop("question", None)
        e["n"] = i
    old.write_text("".join(json.dumps(e) + "\n" for e in kept), encoding="utf-8")
    r = cli("replay", old)
    assert r.code == 0, r.err
    ctx = json.loads(cli("export", old, "--format", "json").out)
    assert ctx["version"] == 2 and not [s for s in ctx["steps"] if s["kind"] == "question"]


# -- the oracle -----------------------------------------------------------------------------------


def test_the_oracle_answers_and_never_touches_the_game(cli, tmp_path, home):
    moves = moves_of(cli, tmp_path, "hexaract", "6")
    plain, asking = tmp_path / "plain.jsonl", tmp_path / "asking.jsonl"
    lines = []
    for i, m in enumerate(moves):
        lines.append(m)
        if i % 4 == 0:
            odds = ["likely", "even", "unlikely", "almost-certain", "small-chance"][i % 5]
            lines.append(f"oracle {odds}: Is the road watched?")
    assert cli("play", "hexaract", "--seed", "6", "--answers", answers(tmp_path, *moves, name="a.txt"),
               "--log", plain).code == 0
    r = cli("play", "hexaract", "--seed", "6", "--answers", answers(tmp_path, *lines, name="b.txt"), "--log", asking)
    assert r.code == 0, r.err
    def dealt(p):
        return [(e["event"], e.get("card"), e.get("dice")) for e in read_events(p)[1:]
                if e["event"] in ("draw", "roll")]

    assert dealt(plain) == dealt(asking)  # the same cards and dice, oracle or not
    oracles = [e for e in read_events(asking)[1:] if e["event"] == "oracle"]
    assert len(oracles) == len(moves[::4])
    from storyteller.core import oracle

    for e in oracles:
        assert e["answer"] == oracle.answer(e["odds"], e["roll"]) and e["roll"] == oracle.roll("6", e["n"])
    assert "Oracle (likely): Is the road watched?" in r.out
    assert cli("replay", asking).code == 0
    story = cli("export", asking, "--story").out
    assert "You asked the oracle (likely): *Is the road watched?*" in story
    lonelog = cli("export", asking, "--format", "lonelog").out
    assert "? Is the road watched? (likely)\n-> " in lonelog
    obsidian = cli("export", asking, "--format", "obsidian", "--playthrough").out
    assert "> [!oracle] The oracle, asked (likely): Is the road watched?" in obsidian
    ctx = json.loads(cli("export", asking, "--format", "json").out)
    assert next(s for s in ctx["steps"] if s["kind"] == "oracle")["spark"]["name"]


def test_the_odds_shape_the_answer_and_the_extremes_say_more():
    from storyteller.core import oracle

    assert [oracle.answer("even", r) for r in (1, 10, 11, 45, 46, 50, 51, 55, 56, 90, 91, 100)] == [
        "yes-and", "yes-and", "yes", "yes", "yes-but", "yes-but", "no-but", "no-but", "no", "no", "no-and", "no-and"]
    yes = {odds: sum(oracle.answer(odds, r).startswith("yes") for r in range(1, 101)) for odds in oracle.ODDS}
    assert yes == {"almost-certain": 90, "likely": 75, "even": 50, "unlikely": 25, "small-chance": 10}


@pytest.mark.parametrize("line, message", [
    ("oracle probably: Is it raining?", "write 'oracle ODDS: QUESTION' with ODDS one of almost-certain, likely"),
    ("oracle likely", "write 'oracle ODDS: QUESTION'"),
    ("oracle even:", "the oracle needs a question"),
])
def test_a_bad_oracle_line_is_one_line_and_nothing_is_written(cli, tmp_path, line, message):
    path = tmp_path / "g.jsonl"
    r = cli("play", "carddom", "--seed", "2", "--answers", answers(tmp_path, line), "--log", path)
    assert r.code == 2 and message in r.err and r.err.count("\n") == 1 and "line 1" in r.err
    assert not [e for e in read_events(path)[1:] if e["event"] == "oracle"]


@pytest.mark.parametrize("roll, ok", [("roll 57", True), ("roll 0", False), ("roll 101", False), ("roll many", False),
                                      ("enter 1", False)])
def test_at_a_real_table_the_player_rolls_the_oracles_d100(cli, tmp_path, roll, ok):
    path = tmp_path / "g.jsonl"
    script = answers(tmp_path, "draw KH", "oracle even: Is the king at home?", roll, "quit")
    r = cli("play", "carddom", "--physical", "--answers", script, "--log", path)
    oracles = [e for e in read_events(path)[1:] if e["event"] == "oracle"]
    if ok:
        assert r.code == 0, r.err
        assert oracles[0]["roll"] == 57 and oracles[0]["by"] == "player" and oracles[0]["answer"] == "no"
        assert cli("replay", path).code == 0
    else:
        assert r.code == 2 and r.err.count("\n") == 1 and ("d100" in r.err) and not oracles


@pytest.mark.parametrize("change, why", [({"roll": 99}, "but the seed rolls"),
                                         ({"answer": "yes-and"}, "the oracle's answer"),
                                         ({"spark": "huntress"}, "the oracle's spark"), ({"odds": "sure"}, "odds")])
def test_an_edited_oracle_event_is_caught_by_replay(cli, tmp_path, change, why):
    path = tmp_path / "g.jsonl"
    assert cli("play", "carddom", "--seed", "2",
               "--answers", answers(tmp_path, "oracle likely: Am I followed?", "quit"),
               "--log", path).code == 0
    events = read_events(path)
    i = next(k for k, e in enumerate(events) if e.get("event") == "oracle")
    if events[i]["roll"] == change.get("roll"):
        change = {"roll": 98}
    if events[i]["answer"] == change.get("answer"):
        change = {"answer": "no-and"}
    events[i] = dict(events[i], **change)
    path.write_text("".join(json.dumps(e) + "\n" for e in events), encoding="utf-8")
    r = cli("replay", path)
    assert r.code == 1 and f"line {i + 1}:" in r.err and why in r.err and r.err.count("\n") == 1


# -- the story's own sentences ---------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_a_story_never_tells_one_of_its_sentences_more_than_three_times(game):
    import variety

    for seed, text in variety.stories(game, range(4)):
        n, shape = variety.worst(text)
        assert n <= variety.GOAL, f"{game} seed {seed}: {n} times: {shape}"


def test_the_history_is_made_from_the_logs_and_its_cache_is_only_a_cache(cli, tmp_path, home):
    from storyteller.play.questions import HISTORY

    sessions = home / "sessions"
    moves = moves_of(cli, tmp_path, "carddom", "9")
    assert cli("play", "carddom", "--seed", "9", "--answers", answers(tmp_path, *moves),
               "--log", sessions / "a.jsonl").code == 0
    first = history(sessions, "carddom")
    assert (sessions / HISTORY).exists() and sum(first.values()) == len(asked(sessions / "a.jsonl"))
    (sessions / HISTORY).write_text("{not json", encoding="utf-8")  # a broken cache is no cache
    assert history(sessions, "carddom") == first
    assert history(sessions, "carddom", leave_out=sessions / "a.jsonl") == Counter()  # the game being played
    assert cli("play", "carddom", "--seed", "9", "--answers", answers(tmp_path, *moves),
               "--log", sessions / "b.jsonl").code == 0
    both = history(sessions, "carddom")  # a new log: counted again
    assert sum(both.values()) == sum(first.values()) + len(asked(sessions / "b.jsonl"))
    (sessions / "b.jsonl").unlink()
    assert history(sessions, "carddom") == first


# -- the editors' tools: retired questions, echo frames once a game, callbacks grounded ------


class _Edited:
    """A game's questions over a small bank of our own (a retired question, two echoes)."""

    def __init__(self, still=lambda earlier, game: True):
        from storyteller.play.questions import Bank, Questions

        class Small(Questions):
            def __init__(self, bank):
                self.name = "small"
                self.bank = bank

            def words(self, card, role):
                return card

            def still(self, earlier, game):
                return still(earlier, game)

        self.q = Small(Bank({"roles": {"court": {
            "cards": {"x": [{"text": "Cut: what does the card say?", "retired": "speaks of a card"}, "Who is {card}?"]},
            "echo": [{"with": ["court"], "text": "{Card} and {earlier}, once?"},
                     {"with": ["court"], "text": "Again {card} and {earlier}?"}],
        }}}))


def test_a_retired_question_is_never_asked_and_an_old_log_that_asked_it_still_reads():
    q = _Edited().q
    role = Role("court", "x")
    assert q.written_ids(role) == ["court:x:1"]
    assert q.choose(Occasion(role), Game(), Counter(), "1", 3).id == "court:x:1"
    assert q.text("court:x:0") == "Cut: what does the card say?"  # its words stay, for the logs that asked it
    assert q.can_ask("court:x:0", Occasion(role), Game())
    assert q.bank.size() == 1


def test_each_echo_frame_is_asked_once_a_game_and_only_of_a_card_still_where_it_was():
    gone: set[str] = set()
    q = _Edited(still=lambda earlier, game: earlier.card not in gone).q
    game = Game(facts=[(1, Role("court", "a")), (2, Role("court", "b"))], reveals=9)
    role = Role("court", "x")
    assert sorted(q.echo_ids(role, game)) == ["court:x:e:0:court:a", "court:x:e:0:court:b",
                                              "court:x:e:1:court:a", "court:x:e:1:court:b"]
    from storyteller.play.questions import Asker

    asker = Asker(q, "1")
    asker.game = game
    asker.asked("court:x:e:0:court:a", "X and a, once?")
    assert sorted(q.echo_ids(role, game)) == ["court:x:e:1:court:a", "court:x:e:1:court:b"]  # frame 0 is used up
    gone.add("a")  # "a" has left the court: no echo names it now
    assert q.echo_ids(role, game) == ["court:x:e:1:court:b"]
    assert q.can_ask("court:x:e:0:court:a", Occasion(role), game)  # a log that asked it still reads

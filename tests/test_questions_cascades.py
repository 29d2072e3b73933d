"""Cascades' questions that reach back to an earlier card are true to the table.

Seeded games are played with the questions on (an answers file holding only the moves, so
every question is asked and left unanswered, as a player who skips them would), one after
another in one sessions folder, so that the player's history grows and later games ask
deeper and other questions. Each log is then read again step by step, and for every
question that names an earlier card, the card is looked up on the table of that moment
(the state itself: the falls, the pools, the stock and the waste): the source at the head
of the first fall, a fall's card in that fall, a pool's card on top of that pool, a card of
the first pass still going round; and the fall or pool the words give it is the one it is
in. The same is checked of every echo the game could have asked at each step, not only of
the ones its choice fell on. And no frame (an echo, a fall's moment, a composed question's
lead or ask) comes twice in one game, whichever fall or pool it came with.
"""

from __future__ import annotations

import contextlib
import io
from collections import Counter
from pathlib import Path

import pytest

from storyteller import registry
from storyteller.core.sources import SeededSource
from storyteller.games.cascades.rules import CascadesState
from storyteller.log.events import Question
from storyteller.log.file import read
from storyteller.log.replay import Step, walk
from storyteller.play.questions import QuestionLog, Role
from storyteller.play.session import AutoPlayer, Session
from storyteller.ui.drivers import AnswersDriver

# (seed, player, variants, undo and redo every Nth move): greedy and random play, with the
# Pawns and Courts, and with moves taken back (a card back in its pool, off a fall).
GAMES = [(str(s), "greedy", (), 0) for s in range(1, 9)] + [
    (f"r{s}", "random", (), 0) for s in range(1, 5)] + [
    ("pc1", "greedy", ("pawns-courts=on",), 0), ("pc2", "random", ("pawns-courts=on",), 0),
    ("u1", "greedy", (), 4), ("u2", "random", (), 3)]


def decisions(seed: str, policy: str, variants: tuple[str, ...], undo_every: int) -> list[str]:
    """The moves of a player for this deal; with ``undo_every``, every Nth move is taken
    back and made again."""
    rules = registry.rules("cascades")
    chosen = rules.parse_variants(list(variants))
    state = rules.new_state(chosen)
    source = SeededSource(seed, rules, chosen)
    player = AutoPlayer(rules, seed, policy)
    out: list[str] = []
    made = 0
    while state.outcome is None:
        request = state.chance()
        if request is not None:
            state.resolve(source.resolve(request))
            continue
        action = player.choose(state, made)
        made += 1
        out.append(action.key)
        if undo_every and made % undo_every == 0:
            out += ["undo", action.key]
        state.apply(action.move)
    return out


def play(seed: str, policy: str, variants: tuple[str, ...], undo_every: int, sessions: Path) -> Path:
    rules = registry.rules("cascades")
    path = sessions / f"cascades-{seed}.jsonl"
    moves = decisions(seed, policy, variants, undo_every)
    driver = AnswersDriver(list(enumerate(moves, start=1)), "answers")
    session = Session.new(rules, rules.parse_variants(list(variants)), seed, path, mode="answers")
    with contextlib.redirect_stdout(io.StringIO()):
        driver.begin(session, resumed=False)
        session.run(driver)
    session.close()
    return path


@pytest.fixture(scope="module")
def logs(tmp_path_factory) -> list[tuple[str, Path]]:
    home = tmp_path_factory.mktemp("home")
    sessions = home / "sessions"
    sessions.mkdir()
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("STORYTELLER_HOME", str(home))
        mp.setenv("STORYTELLER_CONFIG", str(home / "config.toml"))
        mp.delenv("STORYTELLER_QUESTIONS", raising=False)
        return [(seed, play(seed, policy, variants, undo, sessions)) for seed, policy, variants, undo in GAMES]


# -- where a card is, read from the table ---------------------------------------------------------


def where(card: str, state: CascadesState) -> tuple[str, int]:
    """("fall", t), ("pool", k) for a card face up on top of pool k, ("round", 0) for a card in
    the stock or the waste, ("elsewhere", 0) for a card still face down in a pool."""
    for t, cards in enumerate(state.tiers, start=1):
        if card in cards:
            return "fall", t
    for k, pile in enumerate(state.reserves, start=1):
        if pile and pile[0] == card:
            return "pool", k
    if card in state.waste or card in state.stock:
        return "round", 0
    return "elsewhere", 0


PROMPTS = registry.get("cascades").prompt_data
FALLS = PROMPTS["falls"]
POOLS = PROMPTS["pools"]


def untrue(questions, qid: str, earlier: Role, state: CascadesState) -> str | None:
    """What the echo ``qid`` says of the card it names that the table contradicts, or None."""
    place, n = where(earlier.card, state)
    said = {"source": ("fall", 1), "tier": ("fall", int(earlier.param or 0)), "stock": ("round", 0),
            "reserve": ("pool", int(earlier.param or 0)), "reserve-opened": ("pool", int(earlier.param or 0))}
    if said[earlier.role] != (place, n):
        return f"{qid}: names {earlier.card} as {earlier.key}, and the table has it in {place} {n}"
    if earlier.role == "source" and state.tiers[0][0] != earlier.card:
        return f"{qid}: names {earlier.card} as the source, and the first fall begins with {state.tiers[0][0]}"
    role = Role.of(qid.split(":")[0], qid.split(":")[1])
    entry = questions.bank.echoes(role)[int(qid.split(":")[3])]
    text = questions.text(qid)
    if "{earlier_fall}" in entry["text"] and FALLS[n - 1] not in text:
        return f"{qid}: does not put {earlier.card} in {FALLS[n - 1]}, where it is: {text}"
    if "{earlier_pool}" in entry["text"] and POOLS[str(n)] not in text:
        return f"{qid}: does not put {earlier.card} in {POOLS[str(n)]}, where it is: {text}"
    return None


def read_back(path: Path, seed: str, on_step) -> QuestionLog:
    """Walk a log with its questions heard as the game heard them; ``on_step(step, journal)``
    after each step."""
    questions = registry.get("cascades").questions
    journal = QuestionLog(questions, seed)
    walk(read(path), listeners=[journal], on_step=lambda step: on_step(step, journal))
    return journal


# -- the tests ---------------------------------------------------------------------------------------


def test_every_question_that_names_an_earlier_card_finds_it_where_its_words_say(logs):
    questions = registry.get("cascades").questions
    wrong: list[str] = []
    named: Counter = Counter()

    for seed, path in logs:
        def on_step(step: Step, journal: QuestionLog) -> None:
            if isinstance(step.event, Question) and ":" in step.event.id:  # (not the oracle's own question)
                found = questions.question(step.event.id)
                assert found is not None and found.text == step.event.text
                echo = step.event.id.split(":")[2] == "e"
                for earlier in found.names:
                    if echo:
                        named[earlier.role] += 1
                        wrong.append(untrue(questions, step.event.id, earlier, step.after) or "")

        read_back(path, seed, on_step)
    assert not [w for w in wrong if w]
    # the games did reach back, to cards in each place the words can name
    assert sum(named.values()) >= 40 and set(named) >= {"source", "tier", "stock", "reserve-opened"}, named


def test_every_echo_the_game_could_ask_is_true_to_the_table_at_that_step(logs):
    questions = registry.get("cascades").questions
    wrong: list[str] = []
    checked: Counter = Counter()
    for seed, path in logs:
        def on_step(step: Step, journal: QuestionLog) -> None:
            occasion = journal.asker.occasions.get(step.n)
            if occasion is None:
                return
            game = journal.asker.game
            for qid in questions.candidates(occasion, game)[2]:
                found = questions.question(qid)
                assert found is not None
                earlier = found.names[-1]
                checked[earlier.role] += 1
                wrong.append(untrue(questions, qid, earlier, step.after) or "")

        read_back(path, seed, on_step)
    assert not [w for w in wrong if w]
    assert set(checked) == {"source", "tier", "stock", "reserve-opened", "reserve"}, checked


def frames(qid: str) -> list[str]:
    """The frames a question uses, its fall or pool left out: an echo (``tier:e:3``), a
    moment's written question (``@tier-complete:2``), a composed question's lead and ask."""
    parts = qid.split(":")
    role = parts[0].partition(".")[0]
    if len(parts) == 6 and parts[2] == "e":
        return [f"{role}:e:{parts[3]}"]
    if len(parts) == 7 and parts[2] == "c":
        return [f"{role}:lead:{parts[3]}:{parts[4]}", f"{role}:ask:{parts[5]}:{parts[6]}"]
    if role.startswith("@"):
        return [f"{role}:{parts[2]}"]
    return []


def test_no_frame_comes_twice_in_a_game_whichever_fall_or_pool_it_comes_with(logs):
    reached_back = 0
    for _, path in logs:
        asked = [e.id for e in read(path).events if isinstance(e, Question)]
        used = Counter(f for qid in asked for f in frames(qid))
        assert not [f for f, n in used.items() if n > 1], (path.name, asked)
        reached_back += sum(1 for f in used if ":e:" in f)
    assert reached_back >= 40


def test_an_id_with_no_such_fall_or_pool_is_no_question_and_breaks_nothing():
    questions = registry.get("cascades").questions
    assert questions.text("tier.2:mill:0") and "the second fall" in questions.text("tier.2:mill:0")
    for qid in ("tier.7:mill:0", "reserve.9:mill:0", "tier.x:mill:0", "tier.2:mill:e:9:tier.8:sea"):
        questions.text(qid)  # a log edited by hand may hold one: its words are looked up without a crash

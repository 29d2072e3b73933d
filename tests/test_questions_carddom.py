"""Carddom's journaling questions, as a player meets them after real draws: a question that
reaches back names a card only as the table shows it at that moment (a place, a people, a
value or a gift where it was met, and not where you stand; a card taken only while you
carry it), each echo's frame once a game; the character's goal or station comes back in at
least one question in three; and nothing asked speaks of cards, ranks, suits or the
table's rows, nor asks a Joker what the teller has just named it."""

from __future__ import annotations

import contextlib
import io
import random
import re
from collections import Counter
from pathlib import Path

import pytest

from storyteller import registry
from storyteller.core.cards import all_cards, piquet_cards
from storyteller.core.sources import SeededSource
from storyteller.games.carddom.rules import LAYERS, CarddomState, Explore, Face, Take
from storyteller.log.events import Question
from storyteller.log.file import read
from storyteller.log.replay import walk
from storyteller.play.questions import Game, Occasion, Role

GAME = "carddom"
PROMPTS = registry.get(GAME).prompt_data
SOCIAL_RANK = re.compile(r"\byour (own )?rank\b|\bclose ranks\b")  # a noble's standing, a people's loyalty: the world's
CARD_TALK = re.compile(r"\b(card|cards|deck|rank|ranks|suit|suits|row|stack|stacks|Joker|face down)\b"
                       r"|\bof (Clovers|Hearts|Spades|Diamonds)\b|\b(7|8|9|10|Jack|Queen|King|Ace) of\b", re.IGNORECASE)


def card_talk(text: str) -> bool:
    return bool(CARD_TALK.search(SOCIAL_RANK.sub("", text)))


def explorer(seed: str, variants: list[str], patient: bool = False) -> list[str]:
    """The moves of a curious player (seeded): takes what it can, explores deep, wanders,
    and faces the overlord in the end. It meets every layer, unlike the greedy player. A
    patient one turns up a whole stack before it takes, and takes the deepest card it can."""
    rules = registry.rules(GAME)
    chosen = rules.parse_variants(variants)
    state = rules.new_state(chosen)
    source = SeededSource(seed, rules, chosen)
    rnd = random.Random(f"explorer {seed}")
    moves: list[str] = []
    while state.outcome is None:
        request = state.chance()
        if request is not None:
            state.resolve(source.resolve(request))
            continue
        actions = state.legal_actions()
        takes = [a for a in actions if isinstance(a.move, Take)]
        explore = [a for a in actions if isinstance(a.move, Explore)]
        face = [a for a in actions if isinstance(a.move, Face)]
        walks = [a for a in actions if not isinstance(a.move, (Take, Explore, Face))]
        if patient and takes and not explore:
            action = takes[-1]
        elif patient and explore:
            action = explore[0]
        elif takes and rnd.random() < 0.8:
            action = rnd.choice(takes)
        elif explore and rnd.random() < 0.75:
            action = explore[0]
        elif face and (len(moves) > 40 or rnd.random() < 0.15):
            action = face[0]
        else:
            action = rnd.choice(walks or actions)
        moves.append(action.key)
        state.apply(action.move)
    return moves


def greedy(seed: str, variants: list[str]) -> list[str]:
    from questions_measure import decisions

    return decisions(GAME, seed, variants, "greedy")


def play(seed: str, variants: list[str], moves: list[str], folder: Path, setting: str = "every-reveal") -> Path:
    """One game played from an answers file holding only its moves, in the sessions folder
    (so each game's questions are chosen against the ones before): every question is asked
    and left unanswered."""
    from storyteller.play.session import Session
    from storyteller.ui.drivers import AnswersDriver

    rules = registry.rules(GAME)
    path = folder / f"{GAME}-{seed}-{'-'.join(variants) or 'standard'}-{setting}.jsonl"
    driver = AnswersDriver([(i, m) for i, m in enumerate(moves, start=1)], "answers", questions=setting)
    session = Session.new(rules, rules.parse_variants(variants), seed, path, mode="answers")
    with contextlib.redirect_stdout(io.StringIO()):
        driver.begin(session, resumed=False)
        session.run(driver)
    session.close()
    return path


def asked_with_tables(path: Path) -> list[tuple[Question, CarddomState]]:
    """Each question the log holds, with the table as it was when it was asked."""
    out: list[tuple[Question, CarddomState]] = []

    def hear(step) -> None:
        if isinstance(step.event, Question):
            state = step.after
            assert isinstance(state, CarddomState)
            out.append((step.event, _copy(state)))

    walk(read(path), on_step=hear)
    return out


def _copy(state: CarddomState) -> CarddomState:
    return CarddomState(character=state.character, stacks=[list(s) for s in state.stacks], overlord=state.overlord,
                        position=state.position, taken=list(state.taken), jokers=state.jokers)


@pytest.fixture(scope="module")
def games(tmp_path_factory) -> list[Path]:
    """Seventy-two games in one player's sessions folder: curious players under the standard rules and
    with Jokers that lurk, the greedy player, a few asked only at key moments, and patient
    players who take the deepest card of a stack."""
    import os

    folder = tmp_path_factory.mktemp("home") / "sessions"
    folder.mkdir(parents=True)
    old = os.environ.get("STORYTELLER_HOME")
    os.environ["STORYTELLER_HOME"] = str(folder.parent)
    try:
        paths = []
        for seed in range(24):
            paths.append(play(str(seed), [], explorer(str(seed), []), folder))
        for seed in range(24, 36):
            paths.append(play(str(seed), ["jokers=taken"], explorer(str(seed), ["jokers=taken"]), folder))
        for seed in range(36, 44):
            paths.append(play(str(seed), [], greedy(str(seed), []), folder))
        for seed in range(44, 48):
            paths.append(play(str(seed), [], explorer(str(seed), []), folder, setting="key-moments"))
        for seed in range(48, 72):
            paths.append(play(str(seed), [], explorer(str(seed), [], patient=True), folder))
        return paths
    finally:
        if old is None:
            del os.environ["STORYTELLER_HOME"]
        else:
            os.environ["STORYTELLER_HOME"] = old


def where(state: CarddomState, card_id: str) -> tuple[int, str] | None:
    for i, cards in enumerate(state.stacks, start=1):
        if card_id in cards:
            return i, LAYERS[cards.index(card_id)]
    return None


def untrue(qid: str, state: CarddomState) -> str | None:
    """What the table contradicts in an echo naming an earlier card, or None when the table
    agrees with its words: the character is who you are; the overlord is the one faced; a
    card taken ("what you carry from the vast city", "the elves pledged you their help", "you
    took friendship to heart", "you carry a rare gift of love") is in your hand; a place,
    its people, their value or their gift, as met ("in the vast city", "the elves", "a gift
    of love"), lies where it was turned up, not taken, and somewhere you are not."""
    role, card_id = qid.split(":")[4:6]
    if role == "character":
        return None if state.character == card_id else "names a character you are not"
    if role == "overlord":
        return None if state.overlord == card_id else "names an overlord not faced"
    found = where(state, card_id)
    if role.startswith("taken-"):
        if card_id not in state.taken:
            return "says you carry a card you do not hold"
        return None if found and found[1] == role.removeprefix("taken-") else "names a taken card as another layer"
    if role in LAYERS:
        if found is None or found[1] != role:
            return "names a card not where the words say"
        if card_id in state.taken:
            return "speaks of a card as met where it was, when you carry it"
        if found[0] == state.position:
            return "speaks of where you stand as somewhere else"
        return None
    return f"names a card in a role no echo has: {role}"


def test_every_callback_names_a_card_as_the_table_shows_it_and_each_frame_once(games):
    q = registry.get(GAME).questions
    named: Counter = Counter()
    for path in games:
        frames: Counter = Counter()
        for event, state in asked_with_tables(path):
            parts = event.id.split(":")
            if len(parts) != 6 or parts[2] != "e":
                continue
            wrong = untrue(event.id, state)
            assert wrong is None, f"{path.name}: {event.text!r} ({event.id}) {wrong}"
            earlier = Role.of(parts[4], parts[5])
            names = [q.words(earlier.card, earlier)] + list(q.echo_words(earlier).values())  # a character: its goal too
            assert any(n.lower() in event.text.lower() for n in names), event.text  # it names that card, in its role
            here, there = parts[0], parts[4]
            if here == "values" and there in ("values", "taken-values"):
                # never "craft" beside "craft"
                assert all_cards()[parts[1]].suits != all_cards()[parts[5]].suits, event.text
            frames[(parts[0], parts[3])] += 1
            named[parts[4]] += 1
        assert not [f for f, n in frames.items() if n > 1], f"{path.name}: an echo's frame asked twice"
    # the games reach back to every kind of card (a test that asked no echo would prove nothing)
    for role in ("character", "location", "people", "taken-location", "taken-people", "taken-values", "taken-gift"):
        assert named[role] >= 2, (role, named)
    assert sum(named.values()) >= 150, named


def test_the_goal_or_station_comes_back_in_at_least_one_question_in_three(games):
    """After the character's own question, at least one in three of the questions asked names
    the character's goal (power, justice, fame, wealth) or station (noble, clergy, merchant,
    soldier, commoner), or asks about "your goal": in every game, whatever its length."""
    shares = []
    for path in games:
        events = [e for e, _ in asked_with_tables(path)]
        character = next(e for e in read(path).events if getattr(e, "to", None) == "character"
                         and all_cards()[e.card].rank != "Joker")
        c = all_cards()[character.card]
        goal = PROMPTS["goals"][c.suits[0]]
        station = PROMPTS["roles"][c.rank].split()[-1]  # "a member of the clergy" -> "clergy"
        touch = re.compile(rf"\b({goal}|{station})\b|\byour (own )?goal\b", re.IGNORECASE)
        after = [e for e in events if not e.id.startswith("character:")]
        touching = [e for e in after if touch.search(e.text)]
        assert after and 3 * len(touching) >= len(after), (path.name, [e.text for e in after])
        shares.append(len(touching) / len(after))
    assert min(shares) >= 1 / 3 and len(shares) == 72


def test_nothing_asked_speaks_of_cards_or_asks_a_joker_what_the_teller_named(games):
    asked = [e for path in games for e, _ in asked_with_tables(path)]
    assert len(asked) >= 72 * 8
    for e in asked:
        assert not card_talk(e.text), e.text
    jokers = [e for e in asked if e.id.startswith("joker-")]
    assert len({e.id.split(":")[0] for e in jokers}) == 3  # a Joker ends the road, lurks, and sits as the overlord
    for e in jokers:
        assert not re.search(r"\bwhat is it\b", e.text, re.IGNORECASE), e.text


def test_no_live_question_in_the_bank_speaks_of_cards_or_asks_a_joker_what_it_is():
    bank = registry.get(GAME).questions.bank

    def live(entries):
        return [e["text"] if isinstance(e, dict) else e for e in entries
                if not (isinstance(e, dict) and e.get("retired"))]

    texts = []
    for name, block in bank.roles.items():
        for entries in block.get("cards", {}).values():
            texts += [(name, t) for t in live(entries)]
        for part in ("suit", "rank"):
            for entries in block.get("compose", {}).get(part, {}).values():
                texts += [(name, t) for t in live(entries)]
        texts += [(name, t) for t in live(block.get("echo", []))]
    for name, entries in bank.moments.items():
        texts += [("@" + name, t) for t in live(entries)]
    for name, entries in bank.moment_echo.items():
        texts += [("@" + name, t) for t in live(entries)]
    assert len(texts) > 700
    for name, text in texts:
        assert not card_talk(text.replace("{card}", "").replace("{Card}", "")), (name, text)
        if name.startswith("joker-"):
            assert not re.search(r"\bwhat is it\b", text, re.IGNORECASE), text


def test_every_echo_of_the_character_says_who_you_are_and_every_echo_renders_for_every_card():
    """An echo of the character names it, its goal or its station (so that it counts toward the
    one in three); and every echo of the bank, for every card it may name, has words with
    nothing left to fill."""
    q = registry.get(GAME).questions
    bank = q.bank
    cards = [c.id for c in piquet_cards() if c.rank != "Joker"]
    lists = [(Role(name, "*"), block.get("echo", [])) for name, block in bank.roles.items()]
    lists += [(Role("@" + name), entries) for name, entries in bank.moment_echo.items()]
    rendered = 0
    for role, entries in lists:
        for i, echo in enumerate(entries):
            if echo.get("retired"):
                continue
            if "character" in echo["with"]:
                assert re.search(r"\{(earlier|Earlier|goal|station)\}", echo["text"]), echo
            for earlier_role in echo["with"]:
                for card_id in cards[:: 5]:
                    here = "any" if role.role == "joker-overlord" else (
                        "location" if role.role.startswith("joker-") else ("*" if role.role.startswith("@") else "KH"))
                    qid = f"{role.key}:{here}:e:{i}:{earlier_role}:{card_id}"
                    text = q.text(qid)
                    assert text and "{" not in text and "}" not in text, (qid, text)
                    rendered += 1
    assert rendered > 900


def test_the_first_card_taken_is_asked_about_as_what_it_is_on_the_road(games):
    firsts = []
    for path in games:
        takes = [e for e, _ in asked_with_tables(path) if e.id.startswith("@take")]
        assert len(takes) <= 1, path.name  # only the first card taken is a turning point
        firsts += takes
    assert {e.id.split(":")[0] for e in firsts} == {"@take-location", "@take-people", "@take-values", "@take-gift"}
    q = registry.get(GAME).questions
    for e in firsts:
        layer = e.id.split(":")[0].removeprefix("@take-")
        card_id = e.id.split(":")[1]
        words = q.words(card_id, Role(layer, card_id))
        assert words.lower() in e.text.lower(), e.text  # "the vast city", "the countless elves", "friendship"...


def test_a_log_that_asked_the_old_take_question_still_reads():
    """Before each layer had its own questions, the first card taken was asked about by the
    card's name (``@take:10S:0``): that question is no longer asked, and still reads."""
    q = registry.get(GAME).questions
    game = Game(facts=[(1, Role("character", "7S")), (3, Role("location", "10S")), (4, Role("taken-location", "10S"))],
                reveals=2)
    occasion = Occasion(Role("@take-location", "10S"))
    assert q.can_ask("@take:10S:0", occasion, game)
    assert q.text("@take:10S:0") == ("You take the 10 of Spades with you. What is it in the story, "
                                      "and how do you carry it?")
    written, _, echoes = q.candidates(occasion, game)
    assert written and not [x for x in written + echoes if x.startswith("@take:")]
    assert q.bank.size() >= 250


def test_a_value_is_never_set_beside_the_same_value_met_again():
    """Two cards of one suit are one value ("friendship"): at a second friendship, an echo of
    the first would set "friendship" beside "friendship"; it names only another value."""
    q = registry.get(GAME).questions
    stacks = [["KH", "9D", "7H", "AS"], ["QC", "JS", "7S", "10D"], ["8H", "JD", "9H"]] + [[] for _ in range(5)]
    state = CarddomState(character="8C", stacks=stacks, position=3, taken=["7H", "7S"])
    game = Game(facts=[(1, Role("character", "8C")), (7, Role("values", "7H")), (8, Role("taken-values", "7H")),
                       (13, Role("values", "7S")), (14, Role("taken-values", "7S")), (20, Role("values", "9H"))],
                reveals=12, state=state)
    echoes = q.echo_ids(Role("values", "9H"), game)
    named = {x.split(":", 4)[4] for x in echoes}
    assert "taken-values:7S" in named  # craft, taken to heart, beside the friendship met here
    assert "taken-values:7H" not in named  # friendship beside friendship: never
    game.asked = {"@start:*:e:0:character:8C"}  # one question asked, and it named the goal: nothing is owed
    assert not [x for x in q.candidates(Occasion(Role("values", "9H")), game)[2] if ":character:" in x]
    game.asked |= {"location:KH:0", "people:9D:0"}  # three asked, one naming the goal: the next must
    assert q.choose(Occasion(Role("values", "9H")), game, Counter(), "1", 30).id.split(":")[4] == "character"


def test_every_question_asked_is_one_the_game_asks_there_when_the_log_is_read_again(games):
    """A replay checks each question against those the game could ask after that step: the
    character named before the eighth card (when the goal was owed) and the first take asked
    by its layer read as they were asked."""
    from storyteller.play.questions import QuestionLog

    reg = registry.get(GAME)
    early = 0
    for path in games:
        log = read(path)
        journal = QuestionLog.of(reg, log.header.seed)
        walk(log, listeners=[journal])
        assert journal.notes == [], (path.name, journal.notes)
        assert all(a.valid for a in journal.asked.values())
        early += sum(1 for a in journal.asked.values() if ":e:" in a.event.id and ":character:" in a.event.id
                     and not a.event.id.startswith("@") and a.event.about is not None and a.event.about < 12)
    assert early >= 10  # the goal comes back early in a game, before echoes are otherwise asked

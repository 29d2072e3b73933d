"""Carddom's built-in player: it plays by the rules, sees only what a player sees, says why
in one sentence, and its model of the table agrees with the rules."""

from __future__ import annotations

import random

import pytest
from helpers import Stacked, act, settle

from storyteller.games.carddom.rules import GAME, neighbours
from storyteller.games.carddom import GAME as REG
from storyteller.games.carddom.players import IDS, INDEX, CarddomGreedy, Hands, View, children, options_of, win_chance
from storyteller.core.sources import SeededSource

STANDARD = {"jokers": "revealed", "overlord": "back-row"}
VARIANTS = [
    STANDARD,
    {"jokers": "taken", "overlord": "back-row"},
    {"jokers": "revealed", "overlord": "anywhere"},
    {"jokers": "taken", "overlord": "anywhere"},
]


def greedy_game(seed: str, variants=STANDARD, source=None):
    """Every (state before, hint) of one game the policy plays, and the final state."""
    state = GAME.new_state(variants)
    source = source or SeededSource(seed, GAME, variants)
    policy = REG.policy()
    out = []
    for _ in range(200):
        settle(state, source)
        if state.outcome is not None:
            return out, state
        hint = policy.choose(state)
        out.append((state.clone(), hint))
        state.apply(hint.action.move)  # raises if the policy chose a move the rules refuse
    raise AssertionError(f"seed {seed}: the policy did not finish in 200 moves")


@pytest.mark.parametrize("variants", VARIANTS, ids=lambda v: ",".join(f"{k}={x}" for k, x in v.items()))
def test_the_policy_plays_every_variant_to_the_end_and_says_why_in_one_sentence(variants):
    for seed in map(str, range(12)):
        hints, end = greedy_game(seed, variants)
        assert end.outcome.result in ("won", "lost")
        for state, hint in hints:
            assert hint.action in state.legal_actions()
            why = hint.why
            assert why and why[0].isupper() and why.endswith(".")
            assert ". " not in why and "\n" not in why, why  # one sentence


def test_the_policy_needs_no_memory_and_gives_no_hint_when_nothing_is_to_decide():
    hints, end = greedy_game("5")
    fresh = CarddomGreedy()
    for state, hint in hints:
        assert fresh.choose(state) == hint  # each choice reads only the state shown
    assert fresh.choose(end) is None
    waiting = GAME.new_state(STANDARD)  # the character is still to be drawn
    assert fresh.choose(waiting) is None


# -- honesty: the same table with the unseen cards elsewhere gets the same choice --------------


def reshuffled(state, seed: str, variants, keys: list[str], rng: random.Random):
    """The state the same moves reach when the cards still unseen lie in another order."""
    source = SeededSource(seed, GAME, variants)
    deals = [list(source.deal(k)) for k in range(state.deal + 1)]
    current = deals[state.deal]
    hidden = [slot for slot, c in enumerate(current) if c not in state.seen]
    cards = [current[slot] for slot in hidden]
    rng.shuffle(cards)
    for slot, c in zip(hidden, cards):
        current[slot] = c
    other = Stacked({"deck": deals})
    alt = GAME.new_state(variants)
    settle(alt, other)
    for key in keys:
        act(alt, key, other)
    return alt, current


@pytest.mark.parametrize("variants", VARIANTS[:3], ids=["standard", "jokers=taken", "overlord=anywhere"])
def test_the_policy_sees_only_what_a_player_sees(variants):
    rng = random.Random(12)
    moved_overlord = 0
    for seed in map(str, range(8)):
        hints, _ = greedy_game(seed, variants)
        keys: list[str] = []
        for state, hint in hints:
            alt, deal = reshuffled(state, seed, variants, keys, rng)
            assert alt.places() == state.places() and alt.position == state.position
            moved_overlord += deal[-1] != SeededSource(seed, GAME, variants).deal(state.deal)[-1]
            assert CarddomGreedy().choose(alt) == hint, f"seed {seed} after {keys}: the hidden order changed the choice"
            keys.append(hint.action.key)
    assert moved_overlord > 50  # the hidden cards really were elsewhere


# -- the policy's model of the table agrees with the rules --------------------------------------


def random_states(count: int, variants=STANDARD):
    """States met in random play (moves drawn from a fixed stream), waiting for a decision."""
    rng = random.Random(3)
    for seed in map(str, range(count)):
        state = GAME.new_state(variants)
        source = SeededSource(seed, GAME, variants)
        for _ in range(40):
            settle(state, source)
            if state.outcome is not None:
                break
            yield state
            state.apply(rng.choice(state.moves()))


def next_reveals(state) -> set[int]:
    """By the rules: the stacks whose next card some walk over turned-up stacks can reveal."""
    out, seen, todo = set(), {state.position}, [state.clone()]
    while todo:
        here = todo.pop()
        for move in here.moves():
            if move.kind in ("take", "face"):
                continue
            after = here.clone()
            after.apply(move)
            request = after.chance()
            if request is not None:
                out.add(int(request.to.split()[1]) - 1)
            elif after.position not in seen:
                seen.add(after.position)
                todo.append(after)
    return out


@pytest.mark.parametrize("variants", [STANDARD, {"jokers": "taken", "overlord": "anywhere"}],
                         ids=["standard", "taken-anywhere"])
def test_the_frontier_and_the_takes_the_policy_sees_are_the_rules(variants):
    checked = 0
    for state in random_states(25, variants):
        view = View.of(state)
        assert set(view.frontier()) == next_reveals(state)
        # The cards worth taking here: the ones the rules let you take that add a rank or a suit.
        if state.position is not None and state.position not in state.taken_from:
            here = state.position - 1
            root = (view.ranks, view.suits, 1 << here)
            modelled = {IDS[c] for _, c, _ in children(options_of(view.stacks), root)}
            ruled = {c for c in state.takeable() if adds(state, c)}
            assert modelled == ruled
            checked += 1
        # Facing: the policy counts no row to cross exactly when the rules let it face now or
        # after walking over turned-up stacks only.
        assert (view.rows_to_go() == 0) == can_face_without_revealing(state)
    assert checked > 40


def adds(state, card_id: str) -> bool:
    held = [INDEX[c] for c in state.held()]
    c = INDEX[card_id]
    return c & 7 not in {h & 7 for h in held} or c >> 3 not in {h >> 3 for h in held}


def can_face_without_revealing(state) -> bool:
    if state.can_face():
        return True
    if state.position is None:
        return False
    reach, todo = {state.position}, [state.position]
    for here in todo:
        for n in neighbours(here):
            if n not in reach and state.stacks[n - 1]:
                reach.add(n)
                todo.append(n)
    return any(k in (7, 8) for k in reach)


def brute_best(held: list[int], stacks: list[list[int]], good: int) -> int:
    """The most good cards any legal set of takes covers, by trying every set (one card or
    none per stack) and every order the rules allow (taking whatever matches, repeatedly)."""
    import itertools

    best = 0
    for pick in itertools.product(*[[None] + [c for c in cards if c < 32] for cards in stacks]):
        hand = list(held)
        left = [c for c in pick if c is not None]
        grew = True
        while left and grew:
            grew = False
            for c in list(left):
                if any(c & 7 == h & 7 or c >> 3 == h >> 3 for h in hand):
                    hand.append(c)
                    left.remove(c)
                    grew = True
        if left:
            continue
        ranks = {h & 7 for h in hand}
        suits = {h >> 3 for h in hand}
        covered = sum(1 for c in range(32) if good >> c & 1 and c & 7 in ranks and c >> 3 in suits)
        best = max(best, covered)
    return best


def test_the_best_hand_search_misses_no_hand():
    rng = random.Random(8)
    for _ in range(60):
        cards = rng.sample(range(32), 13) + rng.sample([32, 33], rng.randint(0, 1))
        rng.shuffle(cards)
        character = next(c for c in cards if c < 32)
        rest = [c for c in cards if c != character]
        stacks, at = [], 0
        for size in (rng.randint(0, 4) for _ in range(4)):
            stacks.append(rest[at:at + size])
            at += size
        stacks += [[]] * 4
        good = 0
        for c in rng.sample([c for c in range(32) if c not in cards], 12):
            good |= 1 << c
        hands = Hands(1 << (character & 7), 1 << (character >> 3), stacks, 0b1111, good)
        assert hands.covered == brute_best([character], stacks[:4], good)
        # The takes it proposes are legal in that order and cover that many.
        hand = [character]
        for stack, c in hands.takes():
            assert c in stacks[stack] and any(c & 7 == h & 7 or c >> 3 == h >> 3 for h in hand)
            hand.append(c)
        assert len({s for s, _ in hands.takes()}) == len(hands.takes())


def test_hands_after_a_card_is_turned_up_are_the_hands_searched_afresh():
    """``Hands.revealed`` (the quick answer for every card a reveal can bring) equals a new
    search with that card on the table."""
    checked = 0
    for state in random_states(6):
        view = View.of(state)
        hands = view.hands()
        top = hands.top_mask()
        for k in view.frontier():
            takeable = k not in view.taken
            for c in range(32):
                if not view.unseen >> c & 1:
                    continue
                stacks = list(view.stacks)
                stacks[k] = stacks[k] + (c,)
                free = sum(1 << i for i in range(8) if i not in view.taken)
                fresh = Hands(view.ranks, view.suits, stacks, free, view.unseen & ~(1 << c) & ((1 << 32) - 1))
                assert hands.revealed(k, c, takeable, top) == fresh.covered
                checked += 1
    assert checked > 500


def test_the_chance_of_winning_by_facing_now_is_the_share_of_subduable_unseen_cards():
    assert win_chance(6, 24, 2, 0) == 6 / 24
    # Two rows still to cross: both must be no Joker, and leave 22 unseen.
    assert win_chance(6, 24, 2, 2) == pytest.approx((22 / 24) * (21 / 23) * 6 / 22)
    assert win_chance(0, 24, 2, 0) == 0


# -- choices a player can check --------------------------------------------------------------


def test_it_never_faces_the_overlord_with_a_hand_that_cannot_subdue_any():
    state = settle(GAME.new_state({"jokers": "revealed", "overlord": "anywhere"}),
                   Stacked(SeededSource("4", GAME, STANDARD).deal(0)))
    assert "face" in [m.key for m in state.moves()]
    hint = CarddomGreedy().choose(state)
    assert hint.action.key == "enter 1"
    assert hint.why.startswith("No overlord can be subdued with your hand yet")


def test_it_takes_only_cards_that_add_a_rank_or_a_suit_and_never_digs_a_stack_it_took_from():
    for seed in map(str, range(25)):
        hints, _ = greedy_game(seed)
        for state, hint in hints:
            move = hint.action.move
            if move.kind == "take":
                assert adds(state, move.card)
                assert hint.why.startswith("Take the ")
            if move.kind == "explore":
                assert state.position not in state.taken_from


def test_with_jokers_taken_it_sees_every_card_then_wins_whenever_the_deal_can_be_won():
    from storyteller.core.engine import Budget

    variants = {"jokers": "taken", "overlord": "back-row"}
    for seed in map(str, range(30)):
        _, end = greedy_game(seed, variants)
        verdict = REG.solver().solve(GAME.new_state(variants), SeededSource(seed, GAME, variants).resolve, Budget())
        assert end.outcome.won == (verdict.answer == "winnable"), seed
        assert len(end.seen) == 34  # every card, the overlord last


def test_the_terminal_offers_the_hint_and_shows_why(tmp_path):
    """The guided session, as ``storyteller play carddom`` starts it: the menu has *Hint*, and
    choosing it shows the move and why without making it."""
    import io

    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput
    from rich.console import Console

    from conftest import read_events
    from storyteller.ui.play import PlayerDriver
    from storyteller.play.session import SaveAndQuit, Session
    from storyteller.ui.terminal import Terminal

    class Once(PlayerDriver):
        def choose(self, session):
            if session.decisions:
                raise SaveAndQuit()
            return super().choose(session)

    # Skip the character's question and the one before the first move; the menu: enter 1,
    # enter 2, journal, oracle, hint; then enter 1.
    from helpers import questions_before_first_move

    keys = "\r" * questions_before_first_move("carddom", "3") + "\x1b[B" * 4 + "\r" + "\r" + "\r"
    buffer = io.StringIO()
    path = tmp_path / "hint.jsonl"
    with create_pipe_input() as pipe:
        pipe.send_text(keys)
        term = Terminal(console=Console(file=buffer, width=140, no_color=True), input=pipe, output=DummyOutput())
        session = Session.new(GAME, dict(STANDARD), "3", path)
        driver = Once(term)
        driver.begin(session, resumed=False)
        with pytest.raises(SaveAndQuit):
            session.run(driver)
        session.close()
    screen = " ".join(buffer.getvalue().replace("│", " ").split())
    start = settle(GAME.new_state(STANDARD), Stacked(SeededSource("3", GAME, STANDARD).deal(0)))
    hint = CarddomGreedy().choose(start)
    assert "Hint" in screen and hint.action.text in screen
    assert " ".join(hint.why.split()[:8]) in screen
    assert [e["action"] for e in read_events(path)[1:] if e["event"] == "decision"] == ["enter 1"]

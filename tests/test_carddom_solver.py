"""Carddom's solver: with every card known, winnable (with a winning game that replays),
not winnable (only after an exhaustive search), or unknown when the budget runs out."""

from __future__ import annotations

import itertools
import random

import pytest
from helpers import Stacked, settle
from test_carddom_rules import deal

from storyteller.core.engine import Budget
from storyteller.games.carddom.rules import GAME
from storyteller.games.carddom import GAME as REG
from storyteller.games.carddom.solver import _fewest_takes
from storyteller.core.sources import SeededSource
from storyteller.play.session import simulate

STANDARD = {"jokers": "revealed", "overlord": "back-row"}
ANYWHERE = {"jokers": "revealed", "overlord": "anywhere"}


def solve(cards, variants=STANDARD, budget=Budget()):
    source = cards if not isinstance(cards, list) else Stacked(cards)
    return REG.solver().solve(GAME.new_state(variants), source.resolve, budget)


def play_back(moves, source, variants=STANDARD):
    """Play a solver's keys on a fresh state, the cards coming from ``source``."""
    state = GAME.new_state(variants)
    for key in moves:
        settle(state, source)
        assert state.outcome is None, f"the game ended before '{key}'"
        state.apply(GAME.parse(key))
    settle(state, source)
    return state.outcome


@pytest.mark.parametrize("variants", [STANDARD, ANYWHERE, {"jokers": "taken", "overlord": "back-row"}],
                         ids=["standard", "overlord=anywhere", "jokers=taken"])
def test_every_deal_the_greedy_wins_is_winnable_and_its_witness_replays(variants):
    wins = 0
    for seed in map(str, range(40)):
        won = simulate(GAME, variants, seed, "greedy").outcome.won
        verdict = solve(SeededSource(seed, GAME, variants), variants)
        assert verdict.answer in ("winnable", "not winnable")
        if won:
            wins += 1
            assert verdict.answer == "winnable", f"seed {seed}: the greedy won a deal the solver calls lost"
        if verdict.answer == "winnable":
            assert play_back(verdict.moves, SeededSource(seed, GAME, variants), variants).won
            assert verdict.moves[-1] == "face" and verdict.why
    assert wins >= 6


def test_a_witness_written_as_a_log_replays(tmp_path):
    from storyteller.log.file import read
    from storyteller.log.replay import walk
    from storyteller.study.simulation import witness

    verdict = solve(SeededSource("5", GAME, STANDARD))
    assert verdict.answer == "winnable"
    outcome = witness(GAME, dict(STANDARD), "5", verdict.moves, tmp_path / "won.jsonl")
    assert outcome.won
    assert walk(read(tmp_path / "won.jsonl")).outcome.won  # replay checks every draw against the seed


def test_the_witness_takes_as_few_cards_as_any_win_needs():
    # Character QH, overlord 9D: the 9 of Hearts (stack 1) gives the 9, then the 9 of Diamonds
    # is the overlord, so a diamond must come from elsewhere: the Queen of Diamonds (stack 2).
    cards = deal("QH", "9D", s1d1="9H", s2d1="QD")
    verdict = solve(cards, ANYWHERE)
    assert verdict.answer == "winnable"
    assert [k for k in verdict.moves if k.startswith("take")] in (["take 9H", "take QD"], ["take QD", "take 9H"])
    assert play_back(verdict.moves, Stacked(cards), ANYWHERE).won


# -- provably lost deals ------------------------------------------------------------------------


def test_a_joker_overlord_is_not_winnable():
    assert solve(deal("QH", "JK1")).answer == "not winnable"


def test_jokers_on_both_front_tops_bar_the_realm():
    verdict = solve(deal("QH", "9D", s1d1="JK1", s2d1="JK2"))
    assert verdict.answer == "not winnable"


def test_jokers_across_a_row_bar_the_back_row_unless_the_overlord_can_be_faced_anywhere():
    # Row 2 (stacks 3 and 4) starts with the Jokers: the back row cannot be reached. The
    # front row alone holds 9H and QD: enough with overlord=anywhere.
    cards = deal("QH", "9D", s1d1="9H", s2d1="QD", s3d1="JK1", s4d1="JK2")
    assert solve(cards).answer == "not winnable"
    assert solve(cards, ANYWHERE).answer == "winnable"
    # With jokers=taken a Joker only blocks a card, not the way.
    assert solve(cards, {"jokers": "taken", "overlord": "back-row"}).answer == "winnable"


def test_one_card_per_stack_can_make_a_deal_lost_after_a_search():
    # overlord=anywhere, and the Jokers close row 2: only stacks 1 and 2 can be reached.
    # Character 9H holds the 9; a diamond can only come through the 7s: 7H then 7D, both in
    # stack 1, and only one card is ever taken from a stack. Stack 2 holds clovers, which
    # share nothing with the hand.
    lost = deal("9H", "9D", s1d1="7H", s1d2="7D", s1d3="8C", s1d4="10C",
                s2d1="JC", s2d2="QC", s2d3="KC", s2d4="AC", s3d1="JK1", s4d1="JK2")
    verdict = solve(lost, ANYWHERE)
    assert verdict.answer == "not winnable" and verdict.nodes > 1
    # The same deal with the 7 of Diamonds in stack 2 is won: 7H from stack 1, then 7D.
    won = deal("9H", "9D", s1d1="7H", s1d2="JC", s1d3="8C", s1d4="10C",
               s2d1="7D", s2d2="QC", s2d3="KC", s2d4="AC", s3d1="JK1", s4d1="JK2")
    verdict = solve(won, ANYWHERE)
    assert verdict.answer == "winnable"
    assert play_back(verdict.moves, Stacked(won), ANYWHERE).won


def brute_force(cards, variants) -> bool:
    """Whether any sequence of legal moves wins, by the rules themselves: every position
    (where the player stands, how deep each stack is turned up, what was taken from where)
    is tried once."""
    source = Stacked(cards)
    seen = set()

    def wins(state) -> bool:
        for move in state.moves():
            after = state.clone()
            after.apply(move)
            settle(after, source)
            if after.outcome is not None:
                if after.outcome.won:
                    return True
                continue
            key = (after.position, tuple(map(len, after.stacks)), tuple(sorted(after.taken_from.items())))
            if key not in seen:
                seen.add(key)
                if wins(after):
                    return True
        return False

    return wins(settle(GAME.new_state(variants), source))


def test_on_small_realms_the_solver_agrees_with_trying_every_move():
    """Jokers on both tops of row 2 leave only the front row to play in (overlord=anywhere),
    small enough to try every line of play by the rules."""
    rng = random.Random(4)
    # Cards of four ranks only, so that hands grow often enough to make both answers common.
    plain = [c for c in deal("QH") if c[:-1] in ("7", "8", "9", "10")]
    answers = []
    for _ in range(60):
        character, overlord, *front = rng.sample(plain, 10)
        placed = {f"s{1 + i // 4}d{1 + i % 4}": c for i, c in enumerate(front)}
        cards = deal(character, overlord, s3d1="JK1", s4d1="JK2", **placed)
        verdict = solve(cards, ANYWHERE)
        assert (verdict.answer == "winnable") == brute_force(cards, ANYWHERE), cards
        answers.append(verdict.answer)
    assert 10 < answers.count("winnable") < 50


# -- the budget ----------------------------------------------------------------------------------


def test_a_tiny_budget_gives_unknown_and_never_a_wrong_answer():
    answers = set()
    for seed in map(str, range(40)):
        full = solve(SeededSource(seed, GAME, STANDARD)).answer
        for nodes in (1, 3, 10, 50):
            small = solve(SeededSource(seed, GAME, STANDARD), budget=Budget(nodes=nodes)).answer
            assert small in (full, "unknown"), f"seed {seed}, {nodes} positions: {small}, not {full}"
            answers.add((nodes, small))
    assert (1, "unknown") in answers
    lost = deal("9H", "9D", s1d1="7H", s1d2="7D", s1d3="8C", s1d4="10C",
                s2d1="JC", s2d2="QC", s2d3="KC", s2d4="AC", s3d1="JK1", s4d1="JK2")
    assert solve(lost, ANYWHERE, Budget(nodes=1)).answer == "unknown"
    assert solve(lost, ANYWHERE, Budget(seconds=0.0)).answer == "unknown"


# -- the search misses nothing --------------------------------------------------------------------


def can_cover(held, stacks, target) -> bool:
    """By brute force: some set of takes (one card or none per stack), in some order the rules
    allow, holds the target's rank and suit."""
    for pick in itertools.product(*[[None] + [c for c in cards if c < 32] for cards in stacks]):
        hand, left = list(held), [c for c in pick if c is not None]
        grew = True
        while left and grew:
            grew = False
            for c in list(left):
                if any(c & 7 == h & 7 or c >> 3 == h >> 3 for h in hand):
                    hand.append(c)
                    left.remove(c)
                    grew = True
        if not left and any(h & 7 == target & 7 for h in hand) and any(h >> 3 == target >> 3 for h in hand):
            return True
    return False


def test_the_search_finds_a_winning_hand_exactly_when_one_exists():
    rng = random.Random(21)
    found = 0
    for _ in range(150):
        cards = rng.sample(range(32), 15)
        character, target, rest = cards[0], cards[1], cards[2:]
        stacks, at = [], 0
        for size in (rng.randint(1, 4) for _ in range(4)):
            stacks.append(rest[at:at + size])
            at += size
        result = _fewest_takes(1 << (character & 7), 1 << (character >> 3), stacks + [[]] * 4, 0b1111, target,
                               Budget(), 0.0)
        takes, _ = result
        assert (takes is not None) == can_cover([character], stacks, target)
        found += takes is not None
    assert 20 < found < 130


def test_from_the_middle_of_a_game_the_solver_answers_for_what_is_left():
    """A state part-way through a game: a winning line plays from there, and a deal lost from
    the start stays lost."""
    checked = 0
    for seed in map(str, range(16)):
        source = SeededSource(seed, GAME, STANDARD)
        at_start = solve(source).answer
        state, policy = settle(GAME.new_state(STANDARD), source), REG.policy()
        for moves in range(12):
            if state.outcome is not None:
                break
            if moves in (3, 8):
                verdict = REG.solver().solve(state, source.resolve, Budget())
                if at_start == "not winnable":
                    assert verdict.answer == "not winnable"
                if verdict.answer == "winnable":
                    later = state.clone()
                    for key in verdict.moves:
                        settle(later, source)
                        later.apply(GAME.parse(key))
                    assert settle(later, source).outcome.won
                    checked += 1
            state.apply(policy.choose(state).action.move)
            settle(state, source)
    assert checked >= 5

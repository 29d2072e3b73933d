"""Adaman's greedy policy: it sees only what a player sees, it says why, and it plays well."""

from __future__ import annotations

import pytest

from helpers import Stacked, settle
from storyteller.games.adaman.rules import GAME, Shift
from storyteller.games.adaman import GAME as REG
from storyteller.games.adaman.players import AdamanGreedy
from storyteller.games.adaman.search import AdamanSearch
from storyteller.core.rng import Stream
from storyteller.core.sources import SeededSource
from storyteller.play.session import simulate

STANDARD = GAME.parse_variants([])
EXTENDED = GAME.parse_variants(["extended"])


def decisions(seed: str, v, count: int):
    """The states before the first ``count`` decisions of a greedy game, each with the deal
    it came from and the moves that led there."""
    source = SeededSource(seed, GAME, v)
    state, policy, moves = GAME.new_state(v), REG.policy("greedy"), []
    settle(state, source)
    while state.outcome is None and len(moves) < count:
        yield state.clone(), source.deal(0), list(moves)
        move = policy.choose(state).action.move
        moves.append(move)
        state.apply(move)
        settle(state, source)


def same_table_other_order(v, deal: list[str], moves, drawn: int, seed: str):
    """The same game, move for move, from a deal whose unseen cards come in another order."""
    hidden = Stream(seed, "another order").shuffled(deal[drawn:])
    source = Stacked(deal[:drawn] + hidden)
    state = settle(GAME.new_state(v), source)
    for move in moves:
        state.apply(move)
        settle(state, source)
    return state


@pytest.mark.parametrize("v", [STANDARD, EXTENDED], ids=["standard", "extended"])
@pytest.mark.parametrize("policy", [AdamanGreedy, AdamanSearch], ids=["greedy", "search"])
def test_the_policy_chooses_the_same_whatever_order_the_unseen_cards_are_in(v, policy):
    checked = excuse = late = early = 0
    search = policy is AdamanSearch
    for seed in map(str, range(4 if search else 10)):
        for state, deal, moves in decisions(seed, v, 40):
            if not state.deck_count:
                continue  # nothing is hidden any more
            if search and state.deck_count > 3 and len(moves) % 4:
                continue  # the sampled search is slow: every fourth decision before the end of the deck
            early += state.deck_count > 3
            for k in range(1 if search else 2):
                twin = same_table_other_order(v, deal, moves, state.drawn, f"{seed}/{len(moves)}/{k}")
                assert twin.places() == state.places() and twin.drawn == state.drawn
                assert policy().choose(twin) == policy().choose(state)
                checked += 1
            excuse += state.excuse_at is not None
            late += state.deck_count <= 3
    assert checked >= 10 and late and early
    if v is EXTENDED and policy is AdamanGreedy:
        assert excuse, "no Excuse decision was met"


def test_every_hint_says_why_in_one_sentence():
    seen = set()
    for v in (STANDARD, EXTENDED):
        for seed in map(str, range(20)):
            for state, _, moves in decisions(seed, v, 60):
                # the search near the end of the deck, and on a few decisions before it (slow)
                search = state.deck_count <= 3 or (seed in ("0", "1") and len(moves) % 3 == 0)
                hint = (AdamanSearch if search else AdamanGreedy)().choose(state)
                assert hint.action in state.legal_actions()
                why = hint.why
                assert why[0].isupper() and why.endswith(".") and why.count(". ") == 0, why
                assert "None" not in why and "{" not in why
                seen.add(why.split(" ")[-1] if isinstance(hint.action.move, Shift) else why[:12])
    assert len(seen) >= 5  # several kinds of reason


def test_the_hint_names_the_suits_to_keep():
    # The Huntress (10, Moons only) is still to control: paying for the Author (Moons/Knots)
    # with the Knots card keeps the Moons for her, and the hint says so.
    capital = ["author", "sea", "castle", "desert", "origin"]
    resources = ["pact", "windfall", "cave", "mill", "ace-of-knots"]
    rest = [c for c in GAME.deck(STANDARD) if c not in capital + resources]
    state = settle(GAME.new_state(STANDARD), Stacked(capital + resources + rest))
    hint = AdamanGreedy().choose(state)
    assert hint.action.move.target == "author" and "pact" not in hint.action.move.paid
    assert hint.why.endswith("keeping your Moons for the Huntress (10).")


@pytest.mark.slow
def test_greedy_wins_a_quarter_of_deals():
    won = sum(simulate(GAME, STANDARD, str(seed), "greedy").outcome.won for seed in range(30000, 30150))
    assert won >= 30  # 20% of 150 deals outside the seeds the README reports (about 28% there)


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_search_wins_more_deals_than_the_greedy():
    # Seeds outside the ones the README reports: the greedy's rollouts over sampled deals,
    # and the exact expectimax at the end, win more than the greedy alone (8 to 4 here).
    seeds = range(30000, 30020)
    greedy = sum(simulate(GAME, STANDARD, str(seed), "greedy").outcome.won for seed in seeds)
    search = sum(simulate(GAME, STANDARD, str(seed), "search").outcome.won for seed in seeds)
    assert search >= greedy + 3, (greedy, search)

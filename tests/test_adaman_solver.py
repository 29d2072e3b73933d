"""Adaman's solver: with every card known, is the deal winnable? Exact or "unknown"."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest

from helpers import Stacked
from storyteller.core.engine import Budget
from storyteller.games.adaman.rules import BASIC, GAME, PERSON, AdamanState
from storyteller.games.adaman import GAME as REG, core
from storyteller.games.adaman.players import AdamanGreedy
from storyteller.games.adaman.solver import AdamanSolver
from storyteller.core.sources import SeededSource
from storyteller.play.session import simulate

STANDARD = GAME.parse_variants([])
EXTENDED = GAME.parse_variants(["extended"])
ENOUGH = Budget(nodes=400_000)


def replay(seed: str, v, keys) -> str:
    """Play the witness's moves on a fresh seeded game: how it ends."""
    state, source = GAME.new_state(v), SeededSource(seed, GAME, v)
    keys = list(keys)
    while state.outcome is None:
        if (request := state.chance()) is not None:
            state.resolve(source.resolve(request))
            continue
        assert keys, "the witness ran out of moves before the end"
        state.apply(GAME.parse(keys.pop(0)))
    assert not keys, "the game ended before the witness did"
    return state.outcome.result


@pytest.mark.parametrize("v", [STANDARD, EXTENDED], ids=["standard", "extended"])
def test_every_deal_the_greedy_wins_is_winnable_and_its_witness_replays(v):
    won = [str(seed) for seed in range(40) if simulate(GAME, v, str(seed), "greedy").outcome.won]
    assert len(won) >= 5
    for seed in won:
        source = SeededSource(seed, GAME, v)
        verdict = REG.solver().solve(GAME.new_state(v), source.resolve, ENOUGH)
        assert verdict.answer == "winnable", (seed, verdict)
        assert replay(seed, v, verdict.moves) == "won"


def endgame(resources: list[str], court: list[str], capital: list[str] = ()) -> AdamanState:
    """A table with the deck empty: every card not placed is spent or controlled."""
    placed = set(resources) | set(court) | set(capital)
    rest = [c for c in BASIC if c not in placed]
    return AdamanState(
        deck=BASIC, drawn=len(BASIC), capital=list(capital), resources=list(resources), court=list(court),
        discard=[c for c in rest if not PERSON[c]], controlled=[c for c in rest if PERSON[c]], filling=None,
    )


def no_card(request):
    raise AssertionError("the deck is empty: nothing is drawn")


def test_a_lost_table_that_no_bound_sees_is_searched_and_not_winnable():
    # The Diplomat (8, Moons/Suns) needs the Castle (7, Suns/Knots): the Ace of Suns and the
    # Journey (3) make only 4 without it; the Soldier (5, Wyrms/Knots) needs it too, the
    # Battle (4) being short. Every count of ranks, cards and suits has enough (15 ranks for
    # the 8 + 7 their cheapest payments need, 4 cards for 3): only the search shows it.
    state = endgame(["ace-of-suns", "journey", "battle", "castle"], ["diplomat", "soldier"])
    verdict = AdamanSolver().solve(state, no_card, ENOUGH)
    assert verdict.answer == "not winnable" and verdict.nodes > 1
    # With the Ace of Wyrms as well, the Soldier is paid with the Battle: winnable, and the witness plays.
    state = endgame(["ace-of-suns", "journey", "battle", "castle", "ace-of-wyrms"], ["diplomat", "soldier"])
    verdict = AdamanSolver().solve(state, no_card, ENOUGH)
    assert verdict.answer == "winnable" and len(verdict.moves) == 2
    for key in verdict.moves:
        state.apply(GAME.parse(key))
    assert state.outcome is not None and state.outcome.won
    # The table the test first had (the Huntress and the Savage against the Pact, the
    # Forest and two Aces) is now seen lost by the bound on the cheapest payments at once.
    state = endgame(["pact", "forest", "ace-of-leaves", "ace-of-wyrms"], ["huntress", "savage"])
    assert AdamanSolver().solve(state, no_card, ENOUGH).answer == "not winnable"


def test_deals_lost_in_the_setup_are_not_winnable_at_once():
    people = ["author", "painter", "savage", "sailor", "soldier", "lunatic"]
    court_full = ["sea", "castle", "desert", "ace-of-moons", "mountain", "forest"] + people
    stalled = ["huntress", "bard", "pact", "diplomat", "castle",
               "ace-of-waves", "ace-of-leaves", "ace-of-wyrms", "origin", "ace-of-knots"]
    for first in (court_full, stalled):
        deal = Stacked(first + [c for c in BASIC if c not in first])
        verdict = AdamanSolver().solve(GAME.new_state(STANDARD), deal.resolve, ENOUGH)
        assert verdict.answer == "not winnable" and verdict.nodes == 0


def test_a_small_budget_gives_unknown_never_a_wrong_answer():
    source = SeededSource("4", GAME, STANDARD)
    assert AdamanSolver().solve(GAME.new_state(STANDARD), source.resolve, ENOUGH).answer == "winnable"
    for budget in (Budget(nodes=3), Budget(seconds=0.0)):
        verdict = AdamanSolver().solve(GAME.new_state(STANDARD), source.resolve, budget)
        assert verdict.answer == "unknown" and verdict.moves == ()


def test_the_solver_is_the_games_and_answers_as_the_contract_says():
    solver = REG.solver()
    assert isinstance(solver, AdamanSolver) and REG.solver() is not solver
    verdict = solver.solve(GAME.new_state(STANDARD), SeededSource("4", GAME, STANDARD).resolve, ENOUGH)
    assert verdict.answer in ("winnable", "not winnable", "unknown") and verdict.why.endswith(".")


# -- a plain exhaustive search over the rules, to check the solver against ---------------


def settle(state: AdamanState, source) -> AdamanState:
    while state.outcome is None and (request := state.chance()) is not None:
        state.resolve(source.resolve(request))
    return state


BRUTE_LIMIT = 2_000  # positions: a deal needing more is left out, to keep the test quick


class TooBig(Exception):
    pass


def brute_force(state: AdamanState, source, memo: dict) -> bool:
    """Whether some sequence of legal actions wins, every card coming in the source's fixed
    order: every legal action of every position is tried, by the rules alone (clone, legal
    actions, apply), no bound, no pruning; positions met twice are looked up."""
    if state.outcome is not None:
        return state.outcome.won
    seen = (state.drawn, frozenset(state.capital), frozenset(state.resources), frozenset(state.court), state.excuse_at)
    if seen not in memo:
        if len(memo) >= BRUTE_LIMIT:
            raise TooBig
        memo[seen] = False
        for action in state.legal_actions():
            after = state.clone()
            after.apply(action.move)
            if brute_force(settle(after, source), source, memo):
                memo[seen] = True
                break
    return memo[seen]


def truncated(seed: int, v, left: int) -> tuple[AdamanState, SeededSource]:
    """A seeded game played (mostly as the greedy policy would, now and then at random)
    until ``left`` cards or fewer are still in the deck: a small deal to search."""
    rng = random.Random(seed)
    source = SeededSource(str(seed), GAME, v)
    state = settle(GAME.new_state(v), source)
    greedy = AdamanGreedy()
    while state.outcome is None and state.deck_count > left:
        if rng.random() < 0.85:
            state.apply(greedy.choose(state).action.move)
        else:
            state.apply(rng.choice(state.legal_actions()).move)
        settle(state, source)
    return state, source


def test_the_solver_agrees_with_a_plain_exhaustive_search_of_the_rules_on_small_deals():
    answers: Counter = Counter()
    for seed in range(60):
        for v in (STANDARD, EXTENDED):
            state, source = truncated(seed, v, seed % 4)  # 0 to 3 cards left in the deck
            if state.outcome is not None:
                continue
            try:
                expected = "winnable" if brute_force(state.clone(), source, {}) else "not winnable"
            except TooBig:
                answers["too big"] += 1
                continue
            verdict = AdamanSolver().solve(state.clone(), source.resolve, ENOUGH)
            assert verdict.answer == expected, (seed, v, verdict)
            if expected == "winnable":
                after = state.clone()
                for key in verdict.moves:
                    assert after.outcome is None
                    after.apply(GAME.parse(key))
                    settle(after, source)
                assert after.outcome is not None and after.outcome.won, (seed, v)
            answers[expected] += 1
    assert answers["winnable"] >= 15 and answers["not winnable"] >= 15, answers


def test_no_deal_is_winnable_at_one_budget_and_not_winnable_at_another():
    answers: dict[int, set] = {}
    for budget in (Budget(nodes=1_000), Budget(nodes=10_000), AdamanSolver(allowances=())):
        for seed in range(60):
            source = SeededSource(str(seed), GAME, STANDARD)
            if isinstance(budget, AdamanSolver):  # no discrepancy runs: plain depth first, a different order of search
                solver, limit = budget, Budget(nodes=10_000)
            else:
                solver, limit = AdamanSolver(), budget
            verdict = solver.solve(GAME.new_state(STANDARD), source.resolve, limit)
            answers.setdefault(seed, set()).add(verdict.answer)
            if verdict.answer == "winnable":
                assert replay(str(seed), STANDARD, verdict.moves) == "won", seed
            else:
                assert verdict.moves == ()
    assert not any({"winnable", "not winnable"} <= found for found in answers.values())
    assert any("winnable" in found for found in answers.values())
    assert any("not winnable" in found for found in answers.values())


# -- what the search remembers of lost positions ------------------------------------------


def test_a_hand_matched_card_for_card_by_a_lost_one_is_lost_too():
    # Sibling positions of small deals (one play apart from the same position, so the same
    # slot, capital and court, and as many resources): wherever the solver takes one hand as
    # outclassed by another, a plain exhaustive search of the rules finds the first won only
    # if the second is.
    checked: Counter = Counter()
    for seed in range(40):
        state, source = truncated(seed, STANDARD, 3)
        if state.outcome is not None:
            continue
        t = core.tables(state.deck)
        solver = AdamanSolver()
        solver.t = t
        siblings: dict = {}
        for action in state.legal_actions():
            after = settle(state.clone(), source)
            after.apply(action.move)
            settle(after, source)
            if after.outcome is None:
                side = (after.drawn, frozenset(after.capital), frozenset(after.court), len(after.resources))
                siblings.setdefault(side, []).append(after)
        for group in siblings.values():
            for a in group:
                for b in group:
                    if a is b or not solver._outclassed(t.mask(a.resources), [t.mask(b.resources)]):
                        continue
                    try:
                        won_a, won_b = brute_force(a.clone(), source, {}), brute_force(b.clone(), source, {})
                    except TooBig:
                        continue
                    assert won_b or not won_a, (seed, a.resources, b.resources)
                    checked[won_a, won_b] += 1
    assert checked[False, False] >= 10 and sum(checked.values()) >= 30, checked
    # a hand is outclassed by itself and by a better one, never by a worse one
    t = core.tables(GAME.new_state(STANDARD).deck)
    solver = AdamanSolver()
    solver.t = t
    ace, sea = t.mask(["ace-of-waves"]), t.mask(["sea"])  # the Sea: a Crown (10) of Waves
    assert solver._outclassed(ace, [ace]) and solver._outclassed(ace, [sea])
    assert not solver._outclassed(sea, [ace]) and not solver._outclassed(ace, [ace | sea])


def payable(t, people: list[int], cards: int, keep_ranks: int, keep_cards: int) -> bool:
    """A plain search of the loose table: can each of ``people`` get its own payment out of
    ``cards`` (each card sharing a suit with it, as many ranks as its own), leaving at least
    ``keep_ranks`` ranks and ``keep_cards`` cards unspent?"""
    if not people:
        return t.total(cards) >= keep_ranks and cards.bit_count() >= keep_cards
    p, rest = people[0], people[1:]
    elig = list(core.bits(cards & t.share[p]))
    for k in range(1, len(elig) + 1):
        for combo in itertools.combinations(elig, k):
            paid = sum(1 << c for c in combo)
            if t.total(paid) >= t.rank[p] and payable(t, rest, cards & ~paid, keep_ranks, keep_cards):
                return True
    return False


def test_a_loose_table_with_less_to_pay_with_than_a_lost_one_is_lost_too():
    rng = random.Random(7)
    t = core.tables(GAME.new_state(STANDARD).deck)
    people = list(core.bits(t.person))
    plain = [c for c in range(t.n) if not t.person >> c & 1]
    solver = AdamanSolver()
    solver.loose_lost = {}  # what a search remembers (``_prepare`` starts it empty)
    lost = []
    while len(lost) < 40:
        who = sum(1 << p for p in rng.sample(people, rng.randint(1, 3)))
        cards = sum(1 << c for c in rng.sample(plain, rng.randint(3, 8)))
        keep = (rng.randint(0, 12), rng.randint(0, 2))
        if not payable(t, list(core.bits(who)), cards, *keep):
            lost.append((who, cards, *keep))
            solver.loose_lost.setdefault(who, []).append((cards, *keep))
    unsaid: Counter = Counter()
    for who, cards, ranks, count in lost:
        # fewer cards, or more to keep: lost by the rule, and truly lost
        fewer = cards & ~(1 << rng.choice(list(core.bits(cards))))
        for table in ((who, fewer, ranks, count), (who, cards, ranks + 1, count), (who, cards, ranks, count + 1),
                      (who, fewer, ranks + 2, count + 1)):
            assert solver._loose_lost(*table)
            assert not payable(t, list(core.bits(who)), *table[1:])
        # a card more, less to keep, or another personality: the rule does not say
        extra = cards | 1 << rng.choice([c for c in plain if not cards >> c & 1])
        other = who ^ 1 << rng.choice(people)
        for table in ((who, extra, ranks, count), (who, cards, ranks - 1, count), (other, cards, ranks, count)):
            if solver._loose_lost(*table):
                assert not payable(t, list(core.bits(table[0])), *table[1:])
            else:
                unsaid[table[0] == who] += 1
    assert unsaid[True] >= 20 and unsaid[False] >= 5, unsaid

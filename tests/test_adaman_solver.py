"""Adaman's solver: with every card known, is the deal winnable? Exact or "unknown"."""

from __future__ import annotations

import pytest

from helpers import Stacked
from storyteller.engine import Budget
from storyteller.games.adaman import BASIC, GAME, PERSON, AdamanState
from storyteller.games.adaman_solver import AdamanSolver
from storyteller.session import SeededSource, simulate

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
        verdict = GAME.solver().solve(GAME.new_state(v), source.resolve, ENOUGH)
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
    # The Huntress (10, Moons) needs the Pact (9) and the Forest (5) together; the Savage
    # (3, Leaves/Wyrms) then has two Aces (2) left, or takes the Forest and the Huntress
    # falls short. Every count of ranks and suits has enough: only the search shows it.
    state = endgame(["pact", "forest", "ace-of-leaves", "ace-of-wyrms"], ["huntress", "savage"])
    verdict = AdamanSolver().solve(state, no_card, ENOUGH)
    assert verdict.answer == "not winnable" and verdict.nodes > 1
    # With the Origin (2, Leaves/Waves) as well, the Savage is paid: winnable, and the witness plays.
    state = endgame(["pact", "forest", "ace-of-leaves", "ace-of-wyrms", "origin"], ["huntress", "savage"])
    verdict = AdamanSolver().solve(state, no_card, ENOUGH)
    assert verdict.answer == "winnable" and len(verdict.moves) == 2
    for key in verdict.moves:
        state.apply(GAME.parse(key))
    assert state.outcome is not None and state.outcome.won


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
    solver = GAME.solver()
    assert isinstance(solver, AdamanSolver) and GAME.solver() is not solver
    verdict = solver.solve(GAME.new_state(STANDARD), SeededSource("4", GAME, STANDARD).resolve, ENOUGH)
    assert verdict.answer in ("winnable", "not winnable", "unknown") and verdict.why.endswith(".")

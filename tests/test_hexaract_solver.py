"""Hexaract's solver, with every card and roll known: "winnable" with a witness that plays
back to a win, "not winnable" only for deals that are lost, "unknown" when the budget
runs out, never a wrong answer."""

from __future__ import annotations

from storyteller.engine import Budget
from storyteller.games.hexaract.rules import ACES, GAME
from storyteller.games.hexaract import GAME as REG
from storyteller.session import SeededSource, Session, simulate
from tests.helpers import Stacked, settle


def solve(state, source, **budget):
    return REG.solver().solve(state, source.resolve, Budget(**budget))


def plays_to_a_win(state, source, keys) -> bool:
    """The witness's keys, played on the rules from ``state`` with the same cards and dice."""
    state = state.clone()
    settle(state, source)
    for key in keys:
        assert state.outcome is None, "the witness goes on after the end"
        state.apply(GAME.parse(key))
        settle(state, source)
    return state.outcome is not None and state.outcome.won


def test_every_deal_the_greedy_wins_is_winnable_and_its_witness_replays():
    won = 0
    for seed in map(str, range(16)):
        if not simulate(GAME, {}, seed, "greedy").outcome.won:
            continue
        won += 1
        source = SeededSource(seed, GAME, {})
        verdict = solve(GAME.new_state({}), source, nodes=20_000)
        assert verdict.answer == "winnable", (seed, verdict)
        assert verdict.moves and verdict.nodes > 0 and verdict.why
        assert plays_to_a_win(GAME.new_state({}), source, verdict.moves)
    assert won >= 3


def test_a_witness_replays_as_a_logged_game(cli, tmp_path):
    """Played back with a seeded session, the witness is a log that `replay` verifies."""
    seed = next(s for s in map(str, range(40)) if not simulate(GAME, {}, s, "greedy").outcome.won
                and solve(GAME.new_state({}), SeededSource(s, GAME, {}), nodes=3_000).answer == "winnable")
    verdict = solve(GAME.new_state({}), SeededSource(seed, GAME, {}), nodes=3_000)
    path = tmp_path / "witness.jsonl"
    session = Session.new(GAME, {}, seed, path)
    session.advance()
    for key in verdict.moves:
        session.decide(key)
    assert session.outcome is not None and session.outcome.won
    session.close()
    r = cli("replay", path)
    assert r.code == 0, r.err


def hand_built(journey, rolls, aces=ACES):
    rest = [c for c in GAME.deck({}) if c not in journey]
    source = Stacked({"aces": [list(aces)], "deck": [list(journey) + rest]}, list(rolls))
    return GAME.new_state({}), source


def test_a_deal_whose_dice_only_ever_make_two_is_not_winnable():
    # Three personalities no couplet of 1s can reach: three harm a turn from the first.
    state, source = hand_built(["lunatic", "merchant", "bard"], [(1, 1, 1, 1, 1)] * 40)
    verdict = solve(state, source, nodes=50_000)
    assert verdict.answer == "not winnable", verdict
    assert not verdict.moves and "ten harm" in verdict.why


def test_a_deal_lost_to_harm_in_a_few_turns_whatever_the_player_does():
    # Dice of 1s and 2s only make 2, 3 and 4: the Soldier (5), the Diplomat (8) and the
    # Penitent (6), dealt behind the first three, can never be thwarted and never leave.
    state, source = hand_built(["author", "painter", "savage", "soldier", "diplomat", "penitent"], [(1, 2, 1, 2, 1)] * 40)
    verdict = solve(state, source, nodes=50_000)
    assert verdict.answer == "not winnable", verdict


def test_a_suit_that_nothing_can_give_back_is_not_winnable():
    """Late in a game: the last card is the Castle, the supply has no Leaves token and no
    card or ace reward is left to give one."""
    state, source = hand_built(["castle", "author", "journey"], [(6, 6, 6, 6, 6)] * 40)
    settle(state, source)
    state.journey = ("castle", None, None)
    state.discard = tuple(c for c in GAME.deck({}) if c != "castle")
    state.deck_drawn = 30
    state.ace_rewards = ()
    state.supply = (1, 1, 1, 0, 1, 1)
    verdict = solve(state, source, nodes=1_000)
    assert verdict.answer == "not winnable", verdict
    state.supply = (1, 1, 1, 1, 1, 1)  # with the Leaves token it is won at once
    verdict = solve(state, source, nodes=1_000)
    assert verdict.answer == "winnable" and plays_to_a_win(state, source, verdict.moves)


def test_a_tiny_budget_answers_unknown_never_a_guess():
    for seed in ("0", "4"):
        source = SeededSource(seed, GAME, {})
        for budget in ({"nodes": 1}, {"nodes": 30}, {"seconds": 0.0}):
            verdict = solve(GAME.new_state({}), source, **budget)
            assert verdict.answer == "unknown", (seed, budget, verdict)
            assert not verdict.moves and "budget" in verdict.why

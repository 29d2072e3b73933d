"""Hexaract's solver, with every card and roll known: "winnable" with a witness that plays
back to a win, "not winnable" only for deals that are lost, "unknown" when the budget
runs out, never a wrong answer."""

from __future__ import annotations

import random

from storyteller.core.engine import Budget
from storyteller.games.hexaract import solver as hex_solver
from storyteller.games.hexaract.core import SUIT_INDICES
from storyteller.games.hexaract.rules import ACES, DECK, GAME
from storyteller.games.hexaract import GAME as REG
from storyteller.core.sources import SeededSource
from storyteller.play.session import Session, simulate
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
    state, source = hand_built(["author", "painter", "savage", "soldier", "diplomat", "penitent"],
                               [(1, 2, 1, 2, 1)] * 40)
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


# -- the easier games' answers inside the real game's search -----------------------------

def late_state(journey, rolls, harm, supply=(1,) * 6, rewards=()):
    """A hand-built table with the deck used up: ``journey`` is all that is left."""
    state, source = hand_built([c for c in journey if c is not None], rolls)
    settle(state, source)
    state.journey = tuple(journey)
    state.discard = tuple(c for c in DECK if c not in journey)
    state.deck_drawn = len(DECK)
    state.ace_rewards = tuple(rewards)
    state.supply = tuple(supply)
    state.harm = harm
    return state, source


def searches(state, source):
    free = hex_solver._Search(state, source.resolve, "free")
    generous = hex_solver._Search(state, source.resolve, "generous", easier=[free])
    exact = hex_solver._Search(state, source.resolve, easier=[free, generous])
    return free, generous, exact


def start_node(state, mode="exact"):
    marks = (0, 0, 0)
    supply, rewards = (hex_solver.FULL, ()) if mode == "free" else (state.supply, state.ace_rewards)
    return (state.turn, state.deck_drawn, state.journey, marks, state.exhausted, supply, rewards, state.harm)


def test_the_free_games_search_sees_harm_that_no_single_card_shows():
    """The Savage and the Painter (both 3) and dice with one 2 among 1s: each roll makes a 3
    once, so one of them stays a turn and deals a point. Each alone can be thwarted at
    once (the harm floor sees nothing), but at 9 harm the pair is lost: the free game's
    search, asked by the real game's, finds it so, and the positions it looked at count."""
    rolls = [(2, 1, 1, 1, 1)] * 10
    state, source = late_state(["savage", "painter", None], rolls, harm=9)
    free, _generous, exact = searches(state, source)
    node = start_node(state)
    assert node[7] + exact._harm_floor(node) < 10  # the old bound alone does not see it
    assert not exact._free_may_win(node, state.roll, 2, False)
    assert exact.nodes == free.nodes > 0
    assert exact._lost_in_easier(node)  # remembered: asking again costs nothing
    verdict = solve(state, source, nodes=1_000)
    assert verdict.answer == "not winnable" and "tokens to spare" in verdict.why, verdict
    # One point less and the two are thwarted a turn apart: won.
    state, source = late_state(["savage", "painter", None], rolls, harm=8)
    free, _generous, exact = searches(state, source)
    assert exact._free_may_win(start_node(state), state.roll, 2, False)
    assert free.won  # ... and remembered as won
    verdict = solve(state, source, nodes=1_000)
    assert verdict.answer == "winnable" and plays_to_a_win(state, source, verdict.moves)


def test_a_position_lost_in_the_generous_game_is_lost_in_the_real_one():
    """The generous game's search alone (no free game to ask) proves the Savage-and-Painter
    table lost; the real game's search then skips it without a position of its own."""
    state, source = late_state(["savage", "painter", None], [(2, 1, 1, 1, 1)] * 10, harm=9)
    generous = hex_solver._Search(state, source.resolve, "generous")
    generous.go_on()
    assert generous.done == "lost" and generous.lost
    exact = hex_solver._Search(state, source.resolve, easier=[generous])
    assert exact._lost_in_easier(start_node(state))
    assert exact.first() is None and exact.exhaustive and exact.nodes == 0


def test_the_generous_games_caps_count_a_spend_of_either_suit():
    """In the generous game a location's spend may be a token of any of its suits, one for
    each token it lacks: the Castle (Suns, Knots) lacking two can take two Suns (or two
    Knots), so one token more of each of its suits can matter than in the real game, where
    it takes one of each."""
    state, source = late_state(["castle", None, None], [(6, 6, 6, 6, 6)] * 10, harm=0)
    _free, generous, exact = searches(state, source)
    suns, knots = SUIT_INDICES["castle"]
    real = exact._caps(state.deck_drawn, state.journey, (0, 0, 0), state.exhausted)
    easy = generous._caps(state.deck_drawn, state.journey, (0, 0, 0), state.exhausted)
    assert real[suns] == real[knots] == 2 and easy[suns] == easy[knots] == 3
    assert all(a == b for i, (a, b) in enumerate(zip(real, easy)) if i not in (suns, knots))


# -- against a plain exhaustive search of the rules ---------------------------------------


def _key(s):
    return (s.turn, s.phase, s.roll, s.used, s.couplets, s.spent, s.harm, s.supply, s.ace_rewards,
            s.journey, s.tokens, s.exhausted, s.deck_drawn, s.to_pay)


def brute_force(state, source, memo) -> bool:
    """Every move the rules allow, every order: can the game from here be won?"""
    settle(state, source)
    if state.outcome is not None:
        return state.outcome.won
    key = _key(state)
    if key not in memo:
        memo[key] = False
        for move in state.moves():
            after = state.clone()
            after.apply(move)
            if brute_force(after, source, memo):
                memo[key] = True
                break
    return memo[key]


def late_deal(rng, left):
    """A random table late in a game: ``left`` cards in the deck, three on the journey, a
    random supply, harm and ace rewards, dice with few wilds (so the search is small)."""
    order = list(GAME.deck({}))
    rng.shuffle(order)
    rolls = [tuple(rng.choice((1, 2, 3, 4, 5, 1, 2, 3, 4, 5, 6)) for _ in range(5)) for _ in range(40)]
    aces = list(ACES)
    rng.shuffle(aces)
    source = Stacked({"aces": [aces], "deck": [order]}, rolls)
    state = GAME.new_state({})
    settle(state, source)
    drawn = len(DECK) - left
    state.deck_drawn = drawn
    state.journey = tuple(order[drawn - 3:drawn])
    state.discard = tuple(order[:drawn - 3])
    state.supply = tuple(rng.choice((0, 1, 1, 1, 2)) for _ in range(6))
    state.harm = rng.randint(3, 8)
    state.ace_rewards = tuple(a for a in state.ace_rewards if rng.random() < 0.6)
    return state, source


def test_the_solver_agrees_with_a_plain_exhaustive_search_on_small_deals(monkeypatch):
    """Late tables, searched both ways; the free game's answers must cut some positions of
    the real game's search (so the cross-check covers them) and both answers must occur."""
    cuts = []
    asked = hex_solver._Search._free_may_win

    def counting(self, *args):
        found = asked(self, *args)
        cuts.append(not found)
        return found

    monkeypatch.setattr(hex_solver._Search, "_free_may_win", counting)
    rng = random.Random(2026)
    answers = []
    for left in (2, 1, 2, 1, 2, 1) * 6:
        state, source = late_deal(rng, left)
        won = brute_force(state.clone(), source, {})
        verdict = solve(state, source, nodes=10_000_000)
        assert verdict.answer == ("winnable" if won else "not winnable"), (left, state.journey, verdict)
        if won:
            assert plays_to_a_win(state, source, verdict.moves)
        answers.append(won)
    assert any(answers) and not all(answers)
    assert sum(cuts) >= 3

"""The Cascades solver: exact answers with every card known, witnesses that replay, and a
compact search that agrees with the rules it never restates."""

from __future__ import annotations

import pytest
from helpers import Stacked, settle

from conftest import last_of, read_events
from storyteller.core.engine import Budget
from storyteller.games.cascades.rules import GAME, Play, Turn
from storyteller.games.cascades import GAME as REG
from storyteller.games.cascades.players import signature, tops_of
from storyteller.games.cascades.solver import Deck, known, settled
from storyteller.core.rng import Stream
from storyteller.core.sources import SeededSource

BASIC = {"pawns-courts": "off"}
PC = {"pawns-courts": "on"}


def solve(state, source, budget=Budget(nodes=200_000)):
    return REG.solver().solve(state, source.resolve, budget)


def replays(state, source, moves) -> bool:
    """Play the witness on a fresh copy of ``state`` with the same source: does it win?"""
    state = settle(state.clone(), source)
    for key in moves:
        assert state.outcome is None, "the witness goes on after the game ended"
        move = GAME.parse(key)
        assert move in state.moves(), f"{key} is not legal here"
        state.apply(move)
        settle(state, source)
    return state.outcome is not None and state.outcome.won


# -- deals the greedy wins are winnable, and the witness replays -------------------------


@pytest.mark.parametrize("variants", [BASIC, PC], ids=["basic", "pawns-courts"])
def test_every_deal_the_greedy_wins_is_winnable_and_the_witness_replays(variants):
    from storyteller.play.session import simulate

    won = 0
    for n in range(12):
        seed = str(n)
        greedy = simulate(GAME, variants, seed, "greedy").outcome
        source = SeededSource(seed, GAME, variants)
        verdict = solve(GAME.new_state(variants), source)
        assert verdict.answer in ("winnable", "not winnable")
        if greedy.won:
            won += 1
            assert verdict.answer == "winnable"
        if verdict.answer == "winnable":
            assert verdict.moves and verdict.why
            assert replays(GAME.new_state(variants), source, verdict.moves)
    assert won >= 10


def test_a_witness_replays_through_play_and_replay(cli, tmp_path):
    seed = "5"
    verdict = solve(GAME.new_state(BASIC), SeededSource(seed, GAME, BASIC))
    assert verdict.answer == "winnable"
    answers = tmp_path / "witness.txt"
    answers.write_text("\n".join(verdict.moves) + "\n")
    path = tmp_path / "w.jsonl"
    r = cli("play", "cascades", "--seed", seed, "--answers", answers, "--log", path, "--questions", "none")
    assert r.code == 0, r.err
    end = last_of(read_events(path), "end")
    assert end["result"] == "won"
    again = cli("replay", path)
    assert again.code == 0 and "match" in again.out


def test_the_solver_starts_from_any_state_and_leaves_it_alone():
    source = SeededSource("8", GAME, BASIC)
    state = settle(GAME.new_state(BASIC), source)
    for _ in range(30):  # into pass 3, a reserve open, nothing played
        state.apply(Turn())
        settle(state, source)
    before = state.clone()
    verdict = solve(state, source)
    assert state == before
    assert verdict.answer == "winnable" and replays(state, source, verdict.moves)


# -- deals that are lost, proven ----------------------------------------------------------

# Turning alone, the cards at these slots never come to the top of the waste: the
# opening turn leaves slots 9 and 10 on the waste (10 on top) and takes 11 to tier 1; from
# then on the cycle is slots 9, 10, 12..35 and a turn of three tops every third card.
HIDDEN_IN_STOCK = [9, 13, 16, 19, 22, 25, 28, 31, 34]
UNDER_RESERVE_TOPS = [1, 2, 4, 5, 7, 8]
MOONS = ["ace-of-moons", "author", "journey", "mountain", "forest", "lunatic", "chance-meeting", "diplomat", "pact"]
CROWNS = ["bard", "sea", "end", "calamity", "windfall"]


def dead_deal() -> list[str]:
    """The Huntress (Crown, Moons) starts tier 1, so tier 1 takes only Moons cards and tier 2
    only a Crown; every other Moons card and every other Crown lies where turning never
    brings it, or under a reserve top that can never be played."""
    deck = GAME.deck(BASIC)
    slots = {11: "huntress"}
    slots.update(zip(HIDDEN_IN_STOCK + UNDER_RESERVE_TOPS, MOONS + CROWNS))
    rest = iter(c for c in deck if c not in slots.values())
    return [slots[i] if i in slots else next(rest) for i in range(len(deck))]


def test_a_deal_where_nothing_can_ever_be_played_is_not_winnable():
    cards = dead_deal()
    source = Stacked(cards)
    verdict = REG.solver().solve(GAME.new_state(BASIC), source.resolve, Budget(nodes=10))
    assert verdict.answer == "not winnable" and verdict.moves == ()
    # the rules agree: turning alone, the game ends lost as the last reserve opens
    state = settle(GAME.new_state(BASIC), source)
    while state.outcome is None:
        assert [a.key for a in state.legal_actions()] == ["turn"]
        state.apply(Turn())
        settle(state, source)
    assert state.outcome.cause == "stalled" and state.placed == 1


def test_a_tiny_budget_gives_unknown_never_a_wrong_answer():
    source = SeededSource("1", GAME, BASIC)
    for budget in (Budget(nodes=1), Budget(nodes=5), Budget(seconds=0.0)):
        verdict = solve(GAME.new_state(BASIC), source, budget)
        assert verdict.answer in ("unknown", "winnable")
        if verdict.answer == "unknown":
            assert verdict.moves == () and "budget" in verdict.why
    assert solve(GAME.new_state(BASIC), source, Budget(nodes=1)).answer == "unknown"


def test_a_game_already_over_is_answered_at_once():
    cards = dead_deal()
    source = Stacked(cards)
    state = settle(GAME.new_state(BASIC), source)
    while state.outcome is None:
        state.apply(Turn())
        settle(state, source)
    assert REG.solver().solve(state, source.resolve, Budget(nodes=1)).answer == "not winnable"


# -- the search agrees with the rules ----------------------------------------------------


def brute(state, source, memo) -> bool:
    """Winnable, by the rules' own moves only: from each position every play after any
    number of turns (turning alone goes round and round, so it stops at a repeat)."""
    key = (tuple(map(tuple, state.tiers)), tuple(state.waste), tuple(state.stock), tuple(map(tuple, state.reserves)),
           state.opened)
    if key in memo:
        return memo[key]
    result = False
    cur, seen = state.clone(), set()
    while not result and cur.outcome is None:
        ring = (tuple(cur.waste), tuple(cur.stock), cur.opened)
        if ring in seen:
            break
        seen.add(ring)
        moves = cur.moves()
        for move in moves:
            if isinstance(move, Play):
                child = cur.clone()
                child.apply(move)
                settle(child, source)
                if (child.outcome is not None and child.outcome.won) or (
                        child.outcome is None and brute(child, source, memo)):
                    result = True
                    break
        if result or Turn() not in moves:
            break
        cur.apply(Turn())
        settle(cur, source)
    memo[key] = result
    return result


def endgames(variants, count: int):
    """Positions near the end of greedy games, some of them spoilt by a random play."""
    from storyteller.games.cascades.players import CascadesGreedy

    out = []
    seed = 0
    while len(out) < count:
        source = SeededSource(str(seed), GAME, variants)
        pick = Stream(str(seed), "spoil")
        state, policy = settle(GAME.new_state(variants), source), CascadesGreedy()
        spoil = pick.below(3)  # 0: keep playing well; else spoil one play this many cards from the end
        while state.outcome is None and state.deck_size - state.placed > 8:
            move = policy.choose(state).action.move
            if spoil and state.deck_size - state.placed == 8 + spoil:
                plays = [m for m in state.moves() if isinstance(m, Play)]
                move = pick.choice(plays) if plays else move
            state.apply(move)
            settle(state, source)
        if state.outcome is None:
            out.append((state, source))
        seed += 1
    return out


@pytest.mark.parametrize("variants", [BASIC, PC], ids=["basic", "pawns-courts"])
def test_the_solver_agrees_with_a_brute_force_over_the_rules(variants):
    answers = []
    for state, source in endgames(variants, 24):
        verdict = solve(state, source)
        expected = brute(state, source, {})
        assert verdict.answer == ("winnable" if expected else "not winnable")
        if expected:
            assert replays(state, source, verdict.moves)
        answers.append(verdict.answer)
    assert "winnable" in answers and "not winnable" in answers


def _random_states(variants, games: int):
    """Every decision state of random games (plays preferred, to go deep)."""
    for n in range(games):
        seed = f"agree-{n}"
        source = SeededSource(seed, GAME, variants)
        pick = Stream(seed, "pick")
        state = settle(GAME.new_state(variants), source)
        while state.outcome is None:
            yield state, source
            moves = state.moves()
            plays = [m for m in moves if isinstance(m, Play)]
            state.apply(pick.choice(plays) if plays and pick.below(3) else pick.choice(moves))
            settle(state, source)


@pytest.mark.parametrize("variants", [BASIC, PC], ids=["basic", "pawns-courts"])
def test_the_next_plays_of_the_search_are_exactly_the_rules(variants):
    """Each next play the search finds is legal after its turns, and every card the rules
    let the player place, now or after turning alone, is among them."""
    checked = 0
    for i, (state, source) in enumerate(_random_states(variants, 6)):
        if i % 3:
            continue
        search = known(state, source.resolve)
        steps = {search.describe(s) for s in search.steps()}
        found = set()
        probe = state.clone()
        for _ in range(2 * (len(state.waste) + len(state.stock)) + 12):
            for move in probe.moves():
                if isinstance(move, Play):
                    found.add((move.card, move.tier, move.reserve))
            if Turn() not in probe.moves():
                break
            probe.apply(Turn())
            settle(probe, source)
            if probe.outcome is not None:
                break
        assert {(s.card, s.tier, s.reserve) for s in steps} == found
        for step in steps:
            probe = state.clone()
            for move in step.moves():
                assert move in probe.moves(), (step, move.key)
                probe.apply(move)
                settle(probe, source)
        checked += 1
    assert checked > 50


@pytest.mark.parametrize("variants", [BASIC, PC], ids=["basic", "pawns-courts"])
def test_the_policy_keys_a_position_as_the_search_does(variants):
    deck = Deck.of(variants["pawns-courts"] == "on")
    for i, (state, source) in enumerate(_random_states(variants, 4)):
        search = known(state, source.resolve)
        assert signature(state, deck) == (search.key(), tops_of(search))
        if i % 7 == 0 and search.steps():  # and after one step, on both sides
            step = search.steps()[0]
            search.do(step)
            after = state.clone()
            for move in search.describe(step).moves():
                after.apply(move)
                settle(after, source)
            if after.outcome is None:
                assert signature(after, deck) == (search.key(), tops_of(search))


def test_settled_clones_and_resolves_what_is_pending():
    source = SeededSource("3", GAME, BASIC)
    state = GAME.new_state(BASIC)
    assert state.chance() is not None
    ready = settled(state, source.resolve)
    assert ready.chance() is None and state.chance() is not None

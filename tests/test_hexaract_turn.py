"""The compact turns the built-in player and the solver search (hexaract_turn) agree with
the rules: over many positions of random and greedy games, phase 2 can end in exactly
the places the rules' own moves reach, each plan is legal and leads where it says, the
events can leave exactly the supplies the rules let them, and the end of a turn (harm,
exhaustion, refill) comes out the same."""

from __future__ import annotations

import pytest

from storyteller.games.hexaract import core as turn
from storyteller.games.hexaract.rules import DONE, GAME, _final_supplies, suits_of
from storyteller.games.hexaract import GAME as REG
from storyteller.core.rng import Stream
from storyteller.core.sources import SeededSource


def rule_ends(state) -> set[tuple]:
    """Every compact position the rules' moves reach before "done" (a search of the rules)."""
    seen: set[tuple] = set()
    ends: set[tuple] = set()
    stack = [state]
    while stack:
        s = stack.pop()
        key = (turn.position_of(s), tuple(sorted(turn.free_dice(s))), s.couplets, s.spent)
        if key in seen:
            continue
        seen.add(key)
        ends.add(key[0])
        if s.outcome is not None:
            continue
        for move in s.moves():
            if move != DONE:
                t = s.clone()
                t.apply(move)
                stack.append(t)
    return ends


def positions(seeds, chooser: str):
    """Every decision state of games on these seeds, played at random or by the greedy."""
    for seed in seeds:
        source = SeededSource(f"t{seed}", GAME, {})
        state = GAME.new_state({})
        pick = Stream(f"t{seed}", "turn")
        policy = REG.policy()
        while state.outcome is None:
            if (request := state.chance()) is not None:
                state.resolve(source.resolve(request))
                continue
            yield state
            if chooser == "greedy":
                move = policy.choose(state).action.move
            else:
                move = pick.choice(state.legal_actions()).move
            state.apply(move)


@pytest.mark.parametrize("chooser,seeds", [("random", range(40)), ("greedy", range(25))])
def test_phase_two_ends_where_the_rules_moves_end(chooser, seeds):
    checked = 0
    for state in positions(seeds, chooser):
        if state.phase != "assign":
            continue
        got = turn.ends(turn.position_of(state), turn.free_dice(state), 2 - state.couplets, state.spent, noace=True)
        assert set(got) == rule_ends(state)
        for position, plan in got.items():
            twin = state.clone()
            here = turn.position_of(twin)
            for step in plan:
                move = turn.to_rules(step, twin.journey)
                twin.apply(move)  # apply() checks the move is legal
                here = turn.advance(here, step)
                assert turn.position_of(twin) == here
            assert here == position
        checked += 1
    assert checked > 100


def test_events_leave_exactly_the_supplies_the_rules_allow():
    events = [c for c in GAME.deck({}) if turn.KIND[c] == turn.EVENT]
    pick = Stream("payments", "test")
    for _ in range(3000):
        chosen = [events[pick.below(len(events))] for _ in range(pick.below(4))]
        chosen = list(dict.fromkeys(chosen))
        supply = tuple(pick.below(3) for _ in range(6))
        want = _final_supplies(supply, [suits_of(c) for c in chosen])
        assert turn.payments(supply, chosen) == want
        best = turn.best_payments(supply, chosen)
        assert set(best) <= want
        for s in want:  # every supply the events can leave is matched or beaten by a best one
            assert any(all(a >= b for a, b in zip(t, s)) for t in best)


def test_the_end_of_a_turn_comes_out_as_the_rules_say():
    for state in positions(range(30), "random"):
        if state.phase != "assign":
            continue
        after = state.clone()
        after.apply(DONE)
        position = turn.position_of(state)
        harm = turn.harm_after(state.journey, state.exhausted, state.harm)
        if harm >= 10:
            assert after.outcome is not None and after.outcome.cause == "harm"
            continue
        assert after.harm == harm
        events = [c for c in state.journey if c is not None and turn.KIND[c] == turn.EVENT]
        while after.phase == "pay":  # pay as the first legal move says
            after.apply(after.moves()[0])
        assert after.supply in turn.payments(state.supply, events)
        board, marks, exhausted = turn.next_board(state.journey, position[1], state.exhausted)
        kept = [(c, m, e) for c, m, e in zip(board, marks, exhausted) if c is not None]
        now = turn.position_of(after)
        assert [(c, m, e) for c, m, e in zip(after.journey, now[1], after.exhausted) if c is not None] == kept

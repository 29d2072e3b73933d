"""Hexaract's built-in player: it sees only what a player sees, explains each choice in
one sentence, and plays the same whether or not it planned the turn itself."""

from __future__ import annotations

import re

import pytest

from storyteller.core.engine import Draw
from storyteller.games.hexaract import players as hexaract_policy
from storyteller.games.hexaract.rules import ACES, GAME, Done, Pay, Spend
from storyteller.games.hexaract import GAME as REG
from storyteller.core.rng import Stream
from storyteller.core.sources import SeededSource
from tests.helpers import Stacked, act, settle


class Twin:
    """The seed's deal and dice up to a point, then another order of the cards not yet
    drawn and other dice: the same table so far, a different hidden future."""

    def __init__(self, seed: str, cards_kept: int, rolls_kept: int) -> None:
        self.seeded = SeededSource(seed, GAME, {})
        deck = list(self.seeded.deal(0))
        rest = deck[cards_kept:]
        self.deck = deck[:cards_kept] + Stream(seed, "twin").shuffled(rest)
        self.rolls_kept = rolls_kept
        self.seed = seed

    def resolve(self, request):
        if isinstance(request, Draw):
            return self.deck[request.slot] if request.pile == "deck" else self.seeded.draw(request)
        if request.index < self.rolls_kept:
            return self.seeded.roll(request)
        dice = Stream(self.seed, "twin roll", str(request.index))
        return tuple(dice.die() for _ in range(request.count))


@pytest.mark.parametrize("policy,seeds,least", [("greedy", range(12), 200), ("search", range(2), 20)])
def test_the_same_table_with_another_hidden_future_gets_the_same_choices(policy, seeds, least):
    """Lockstep games on the seed and on twins that hide another order of the cards still
    to come (and other dice to come): while the tables match, so do the choices."""
    compared = 0
    for seed in map(str, seeds):
        for cards_kept, rolls_kept in ((3, 1), (8, 4), (15, 9)):
            a, b = GAME.new_state({}), GAME.new_state({})
            sa, sb = SeededSource(seed, GAME, {}), Twin(seed, cards_kept, rolls_kept)
            pa, pb = REG.policy(policy), REG.policy(policy)
            while a.outcome is None and b.outcome is None:
                ra, rb = a.chance(), b.chance()
                if ra is not None or rb is not None:
                    assert ra == rb
                    ca, cb = sa.resolve(ra), sb.resolve(rb)
                    if ca != cb:
                        break  # the hidden futures part here
                    a.resolve(ca)
                    b.resolve(cb)
                    continue
                assert vars(a) == vars(b)
                ha, hb = pa.choose(a), pb.choose(b)
                assert ha == hb
                a.apply(ha.action.move)
                b.apply(hb.action.move)
                compared += 1
    assert compared > least


def test_a_policy_that_did_not_plan_the_turn_finishes_it_the_same_way():
    """The player keeps the plan it made at the turn's start; one that first sees the
    table halfway through the turn plans afresh and ends it the same way."""
    for seed in map(str, range(8)):
        source = SeededSource(seed, GAME, {})
        state = GAME.new_state({})
        policy = REG.policy()
        while state.outcome is None:
            if (request := state.chance()) is not None:
                state.resolve(source.resolve(request))
                continue
            hint = policy.choose(state)
            if state.phase == "assign" and (state.couplets or state.spent):
                assert REG.policy().choose(state).action.key == hint.action.key
            state.apply(hint.action.move)


@pytest.mark.parametrize("name,seeds", [("greedy", range(30)), ("search", range(3))])
def test_every_hint_is_legal_and_says_why_in_one_sentence(name, seeds):
    kinds = set()
    for seed in map(str, seeds):
        source = SeededSource(seed, GAME, {})
        state = GAME.new_state({})
        policy = REG.policy(name)
        while state.outcome is None:
            if (request := state.chance()) is not None:
                state.resolve(source.resolve(request))
                continue
            hint = policy.choose(state)
            assert hint.action in state.legal_actions()
            assert hint.action.text == state.describe(hint.action.move)
            why = hint.why
            assert why[0].isupper() and why.endswith(".") and len(why) < 200
            assert not re.search(r"[.!?] [A-Z]", why), f"more than one sentence: {why}"
            kinds.add(type(hint.action.move).__name__)
            state.apply(hint.action.move)
    assert {"Assign", "Spend", "Done"} <= kinds <= {"Assign", "Spend", "Pay", "Done"}


def test_it_keeps_the_last_token_of_a_suit_when_an_event_gives_a_choice():
    rolls = [(5, 5, 5, 5, 5)]
    aces = ACES
    rest = [c for c in GAME.deck({}) if c not in ("journey", "desert", "castle")]
    source = Stacked({"aces": [list(aces)], "deck": [["journey", "desert", "castle", *rest]]}, rolls + [(1,) * 5] * 30)
    state = GAME.new_state({})
    settle(state, source)
    state.supply = (3, 1, 1, 0, 0, 0)  # three Moons, one Suns, one Waves
    act(state, "done", source)
    hint = REG.policy().choose(state)
    assert isinstance(hint.action.move, Pay)
    assert hint.action.key == "pay moons journey"  # keep the lone Waves token
    assert "Journey" in hint.why and "3" in hint.why


def test_it_thwarts_a_personality_it_can_reach_and_spends_a_spare_token():
    rest = [c for c in GAME.deck({}) if c not in ("author", "desert", "castle")]
    source = Stacked({"aces": [list(ACES)], "deck": [["author", "desert", "castle", *rest]]},
                     [(1, 1, 5, 5, 5)] + [(1,) * 5] * 30)
    state = GAME.new_state({})
    settle(state, source)
    state.supply = (1, 3, 1, 0, 0, 0)  # Suns to spare
    policy = REG.policy()
    first = policy.choose(state)
    assert first.action.key.startswith("assign 1+1 author")
    assert "Thwarting the Author" in first.why
    keys = []
    while state.phase == "assign":
        hint = policy.choose(state)
        keys.append(hint.action.key)
        if isinstance(hint.action.move, Done):
            break
        state.apply(hint.action.move)
    spends = [k for k in keys if k.startswith("spend")]
    assert spends and spends[0].startswith("spend suns")
    assert isinstance(hexaract_policy.HexaractGreedy().choose(state).action.move, (Done, Spend))

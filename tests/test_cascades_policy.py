"""The built-in Cascades player: honest, legal, explained, and strong."""

from __future__ import annotations

import pytest
from helpers import Stacked, settle

from storyteller.games.cascades.rules import GAME, RESERVES, Play, Turn
from storyteller.games.cascades import GAME as REG
from storyteller.core.rng import Stream
from storyteller.core.sources import SeededSource
from storyteller.play.session import simulate

BASIC = {"pawns-courts": "off"}
PC = {"pawns-courts": "on"}
UNDER_TOPS = [1, 2, 4, 5, 7, 8]  # the slots under the three reserve tops


def lockstep(cards_a: list[str], cards_b: list[str], variants=BASIC) -> tuple[int, int]:
    """Play the greedy on two deals that differ only in cards still face down, side by
    side, until a card that differs turns up: every state must look the same and get the
    same hint. Returns (decisions compared, of them made with every reserve open)."""
    a, b = GAME.new_state(variants), GAME.new_state(variants)
    source_a, source_b = Stacked(cards_a), Stacked(cards_b)
    policy_a, policy_b = REG.policy(), REG.policy()
    compared = planned = 0
    while a.outcome is None:
        request = a.chance()
        if request is not None:
            assert b.chance() == request
            card_a, card_b = source_a.resolve(request), source_b.resolve(request)
            if card_a != card_b:
                break  # from here on the players see different cards
            a.resolve(card_a)
            b.resolve(card_b)
            continue
        assert a == b  # the same table, the same cards seen
        hint_a, hint_b = policy_a.choose(a), policy_b.choose(b)
        assert (hint_a.action.key, hint_a.why) == (hint_b.action.key, hint_b.why)
        compared += 1
        planned += a.opened == RESERVES
        a.apply(hint_a.action.move)
        b.apply(hint_b.action.move)
    return compared, planned


@pytest.mark.parametrize("seed", ["1", "4", "9"])
def test_the_policy_never_sees_a_face_down_card(seed):
    deal = SeededSource(seed, GAME, BASIC).deal(0)
    # the six cards under the reserve tops in another order: the same until the first turns up
    rotated = list(deal)
    for i, slot in enumerate(UNDER_TOPS):
        rotated[slot] = deal[UNDER_TOPS[(i + 1) % len(UNDER_TOPS)]]
    compared, planned = lockstep(deal, rotated)
    assert planned >= 1 and compared > 26
    # the last two cards to turn up swapped: the same for most of the game
    first, second = reveal_order(deal)[-2:]
    swapped = list(deal)
    swapped[first], swapped[second] = deal[second], deal[first]
    compared, planned = lockstep(deal, swapped)
    assert planned >= 10


def reveal_order(cards: list[str]) -> list[int]:
    """The slots under the reserve tops in the order the greedy turns them up."""
    source = Stacked(cards)
    state, policy, order = GAME.new_state(BASIC), REG.policy(), []
    while state.outcome is None:
        request = state.chance()
        if request is not None:
            if request.slot in UNDER_TOPS:
                order.append(request.slot)
            state.resolve(source.resolve(request))
        else:
            state.apply(policy.choose(state).action.move)
    return order


def test_the_policy_never_sees_the_stock_before_it_is_turned():
    deal = SeededSource("6", GAME, BASIC).deal(0)
    late = list(deal)
    late[30], late[33] = deal[33], deal[30]  # turned up late in pass 1
    compared, _ = lockstep(deal, late)
    assert compared >= 7


@pytest.mark.parametrize("variants", [BASIC, PC], ids=["basic", "pawns-courts"])
def test_every_hint_is_legal_and_says_why_in_one_sentence_even_when_the_player_goes_their_own_way(variants):
    for n in range(6):
        seed = f"hints-{n}"
        source = SeededSource(seed, GAME, variants)
        player = Stream(seed, "player")
        state, policy = settle(GAME.new_state(variants), source), REG.policy()
        kinds = set()
        while state.outcome is None:
            hint = policy.choose(state)
            moves = state.moves()
            assert hint.action.move in moves and hint.action.text == state.describe(hint.action.move)
            why = hint.why
            assert why.endswith(".") and ". " not in why and why[0].isupper(), why
            kinds.add(why.split(" ")[0])
            move = hint.action.move
            if state.opened == RESERVES and player.below(6) == 0:  # now and then the player chooses otherwise
                move = player.choice(moves)
            state.apply(move)
            settle(state, source)
        assert {"Turn", "Planning"} <= kinds or {"Turn", "Play"} <= kinds


def test_the_policy_waits_until_every_reserve_is_open_then_plans_with_what_it_has_seen():
    source = SeededSource("12", GAME, BASIC)
    state, policy = settle(GAME.new_state(BASIC), source), REG.policy()
    while state.opened < RESERVES:
        hint = policy.choose(state)
        assert hint.action.move == Turn() and "every reserve is open" in hint.why
        state.apply(Turn())
        settle(state, source)
    hint = policy.choose(state)
    assert isinstance(hint.action.move, Play) or "plan" in hint.why


def test_a_game_over_gets_no_hint():
    source = SeededSource("1", GAME, BASIC)
    state = simulate(GAME, BASIC, "1", "greedy")
    assert state.outcome is not None and REG.policy().choose(state) is None
    assert source  # the same deal replays: simulate is deterministic
    assert simulate(GAME, BASIC, "1", "greedy").places() == state.places()


@pytest.mark.parametrize("variants, floor", [(BASIC, 27), (PC, 28)], ids=["basic", "pawns-courts"])
def test_the_greedy_wins_nearly_every_deal(variants, floor):
    # 98% on seeds 0..1999 (standard rules); a small sample here, as a floor
    won = sum(simulate(GAME, variants, str(n), "greedy").outcome.won for n in range(30))
    assert won >= floor

"""Carddom, ruling by ruling, each with a hand-built deal (slot 0 = character,
slots 1-32 = stacks 1-8 top to bottom, slot 33 = overlord)."""

from __future__ import annotations

import pytest
from helpers import Stacked, act, keys, settle

from storyteller.core.engine import RuleError
from storyteller.games.carddom.rules import GAME, neighbours, slot_of

FILLER = ["7C", "8C", "9C", "10C", "JC", "QC", "KC", "AC", "7H", "8H", "9H", "10H", "JH", "QH", "KH", "AH",
          "7S", "8S", "9S", "10S", "JS", "QS", "KS", "AS", "7D", "8D", "9D", "10D", "JD", "QD", "KD", "AD",
          "JK1", "JK2"]


def deal(character: str, overlord: str = "QD", **placed: str) -> list[str]:
    """A full 34-card deal: ``s3d2="KH"`` puts the King of Hearts at stack 3, depth 2."""
    cards: list[str | None] = [None] * 34
    cards[0] = character
    cards[33] = overlord
    for name, card_id in placed.items():
        stack, depth = int(name[1]), int(name[3])
        cards[slot_of(stack, depth)] = card_id
    used = {c for c in cards if c}
    rest = iter(c for c in FILLER if c not in used and not c.startswith("JK"))
    rest_jokers = iter(c for c in ("JK1", "JK2") if c not in used)
    out = []
    for c in cards:
        out.append(c if c else next(rest, None) or next(rest_jokers))
    assert sorted(out) == sorted(FILLER)
    return out


def start(cards, variants=(), rolls=()):
    state = GAME.new_state(GAME.parse_variants(list(variants)))
    source = Stacked(cards)
    settle(state, source)
    return state, source


def test_the_character_is_the_first_card():
    state, _ = start(deal("QH"))
    assert state.character == "QH"
    assert keys(state) == ["enter 1", "enter 2"]


def test_a_joker_character_means_a_fresh_shuffle_and_a_new_draw():
    first = deal("JK1")
    second = deal("KS")
    state, _ = start({"deck": [first, second]})
    assert state.character == "KS"
    assert state.deal == 1


def test_the_realm_is_four_rows_of_two_and_moves_are_orthogonal():
    assert neighbours(1) == [2, 3]
    assert neighbours(4) == [2, 3, 6]
    assert neighbours(8) == [6, 7]


def test_entering_reveals_the_location_and_moving_reveals_only_unseen_tops():
    state, source = start(deal("QH", s1d1="9S", s3d1="8D"))
    act(state, "enter 1", source)
    assert state.stacks[0] == ["9S"]
    act(state, "move 3", source)
    assert state.stacks[2] == ["8D"]
    act(state, "move 1", source)  # returning reveals nothing new
    assert state.stacks[0] == ["9S"]
    assert state.chance() is None


def test_entering_is_only_at_the_front():
    state, _ = start(deal("QH"))
    with pytest.raises(RuleError, match="front"):
        state.apply(GAME.parse("enter 3"))


def test_exploring_goes_four_deep_then_stops():
    state, source = start(deal("QH", s1d1="9S", s1d2="9D", s1d3="7S", s1d4="8S"))
    act(state, "enter 1", source)
    for _ in range(3):
        act(state, "explore", source)
    assert state.stacks[0] == ["9S", "9D", "7S", "8S"]
    assert "explore" not in keys(state)
    with pytest.raises(RuleError, match="fully revealed"):
        state.apply(GAME.parse("explore"))


def test_take_needs_a_shared_rank_or_suit_with_the_character_or_a_taken_card():
    # Character QH. Stack 1: 9S (no match), then QS (rank match). Stack 3: 7S matches only the taken QS.
    state, source = start(deal("QH", s1d1="9S", s1d2="QS", s3d1="7S"))
    act(state, "enter 1", source)
    assert not any(k.startswith("take") for k in keys(state))
    act(state, "explore", source)
    assert "take QS" in keys(state)
    assert "take 9S" not in keys(state)
    act(state, "take QS")
    # the same stack gives nothing more, even a card that now matches (9S shares spades with QS)
    assert not any(k.startswith("take") for k in keys(state))
    with pytest.raises(RuleError, match="one card per stack"):
        state.apply(GAME.parse("take 9S"))
    act(state, "move 3", source)
    assert "take 7S" in keys(state)


def test_taking_can_wait_and_any_revealed_card_of_the_stack_can_be_taken():
    state, source = start(deal("QH", s1d1="8H", s1d2="10C"))
    act(state, "enter 1", source)
    act(state, "explore", source)
    act(state, "move 2", source)
    act(state, "move 1", source)
    assert "take 8H" in keys(state)  # the location, taken later, not the latest card


def test_the_location_can_be_taken():
    state, source = start(deal("QH", s1d1="8H"))
    act(state, "enter 1", source)
    act(state, "take 8H")
    assert state.taken == ["8H"]


def test_revealing_a_joker_loses_by_default_also_as_a_top_card():
    state, source = start(deal("QH", s1d1="JK1"))
    act(state, "enter 1", source)
    assert state.outcome.result == "lost"
    assert "Joker" in state.outcome.reason
    assert keys(state) == []


def test_revealing_a_joker_deeper_loses_by_default():
    state, source = start(deal("QH", s2d1="9H", s2d2="JK2"))
    act(state, "enter 2", source)
    act(state, "explore", source)
    assert state.outcome.result == "lost"


def test_jokers_taken_variant_a_joker_is_a_dead_card_and_exploring_goes_on():
    state, source = start(deal("QH", s1d1="JK1", s1d2="QS"), variants=["jokers=taken"])
    act(state, "enter 1", source)
    assert state.outcome is None
    assert "take JK1" not in keys(state)
    act(state, "explore", source)
    assert state.stacks[0] == ["JK1", "QS"]
    assert "take QS" in keys(state)


def test_facing_the_overlord_by_default_only_from_the_back_row():
    state, source = start(deal("QH"))
    act(state, "enter 1", source)
    assert "face" not in keys(state)
    with pytest.raises(RuleError, match="back-row"):
        state.apply(GAME.parse("face"))
    for stack in (3, 5):
        act(state, f"move {stack}", source)
        assert "face" not in keys(state)
    act(state, "move 7", source)
    assert "face" in keys(state)


def test_overlord_anywhere_variant():
    state, source = start(deal("QH"), variants=["overlord=anywhere"])
    assert "face" in keys(state)
    act(state, "enter 1", source)
    assert "face" in keys(state)


def win_path(overlord: str, character: str, **placed: str):
    state, source = start(deal(character, overlord=overlord, **placed), variants=["overlord=anywhere"])
    return state, source


def test_win_needs_both_the_overlords_rank_and_its_suit():
    # Overlord 9D. Character QD gives the suit; the 9H taken from stack 1 gives the rank (matches nothing?
    # 9H shares no suit with QD and not its rank: not takeable). Take QH (rank Q) first, then 9H (suit H).
    state, source = win_path("9D", "QD", s1d1="QH", s2d1="9H")
    act(state, "enter 1", source)
    act(state, "take QH")
    act(state, "move 2", source)
    act(state, "take 9H")
    act(state, "face", source)
    assert state.outcome.result == "won"


def test_rank_without_suit_loses_and_says_what_was_missing():
    state, source = win_path("9D", "9H")
    act(state, "face", source)
    assert state.outcome.result == "lost"
    assert "no diamonds" in state.outcome.reason


def test_the_character_counts_for_both_rank_and_suit():
    state, source = win_path("9D", "QD")
    act(state, "face", source)
    assert state.outcome.result == "lost"
    assert "no 9" in state.outcome.reason


def test_a_joker_overlord_cannot_be_subdued():
    state, source = win_path("JK2", "QH")
    act(state, "face", source)
    assert state.outcome.result == "lost"
    assert "doomed" in state.outcome.reason


def test_at_depth_four_the_player_can_still_take_and_face():
    cards = deal("QH", overlord="QS", s7d1="7D", s7d2="7C", s7d3="8D", s7d4="9S")
    state, source = start(cards)
    for key in ("enter 1", "move 3", "move 5", "move 7", "explore", "explore", "explore"):
        act(state, key, source)
    assert len(state.stacks[6]) == 4
    assert "take 9S" not in keys(state)  # 9S shares nothing with QH
    assert "face" in keys(state)
    act(state, "face", source)
    assert state.outcome.result == "lost"  # QH: the Queen rank, but no spade held


def test_undo_snapshot_is_independent():
    state, source = start(deal("QH", s1d1="8H"))
    before = state.clone()
    act(state, "enter 1", source)
    act(state, "take 8H")
    assert before.taken == [] and before.position is None


def test_bad_variant_values_are_refused_with_the_choices():
    from storyteller.core.engine import VariantError

    with pytest.raises(VariantError, match="revealed, taken"):
        GAME.parse_variants(["jokers=eaten"])
    with pytest.raises(VariantError, match="no variant 'dragons'"):
        GAME.parse_variants(["dragons=on"])
    with pytest.raises(VariantError, match="needs a value"):
        GAME.parse_variants(["jokers"])

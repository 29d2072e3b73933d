"""Cascades, ruling by ruling, each with a hand-built deal.

The deal: slots 0-2 are reserve 1 (top pile) top to bottom, 3-5 reserve 2, 6-8 reserve 3,
and slot 9 on is the stock, slot 9 turned first. The opening turn takes slots 9, 10, 11
and slot 11 starts tier 1; the next turn leaves slots 12, 13, 14 on the waste, 14 on top.
"""

from __future__ import annotations

import pytest
from helpers import Stacked, act, keys, settle

from storyteller.core import decktet
from storyteller.core.engine import Draw, RuleError
from storyteller.games.cascades.rules import (
    FULL, GAME, NO_SUIT, WAITS_ABOVE, WAITS_TIER_3, Play, Turn, deck_ids, place_of, refusal, reserve_draw,
)
from storyteller.games.cascades import GAME as REG
from storyteller.core.rng import Stream
from storyteller.core.sources import SeededSource

BASIC = {"pawns-courts": "off"}
PC = {"pawns-courts": "on"}


def deal(slots: dict[int, str] | None = None, variants=BASIC) -> list[str]:
    """A full deal with the given cards at the given slots, the rest in deck order."""
    slots = slots or {}
    deck = GAME.deck(variants)
    used = set(slots.values())
    assert len(used) == len(slots)
    rest = iter(c for c in deck if c not in used)
    out = [slots[i] if i in slots else next(rest) for i in range(len(deck))]
    assert sorted(out) == sorted(deck)
    return out


def play_order(cards: list[str]) -> dict[int, str]:
    """Slots that let the cards be played in this order straight off the waste: the forced
    first card, then the opening turn's two and the next turn's three (top down), then
    three by three."""
    order = [11, 14, 13, 12, 10, 9]
    base = 15
    while len(order) < len(cards):
        order += [base + 2, base + 1, base]
        base += 3
    return dict(zip(order, cards))


def start(cards: list[str], variants=BASIC):
    state = GAME.new_state(variants)
    source = Stacked(cards)
    settle(state, source)
    return state, source


def play_waste(state, source, card_id: str, tier: int):
    return act(state, f"play {card_id} from waste to tier {tier}", source)


def turn_until(state, source, done):
    for _ in range(200):
        if done(state):
            return state
        act(state, "turn", source)
    raise AssertionError("never reached")


# -- deck and setup -------------------------------------------------------------------


def test_the_deck_is_the_36_basic_cards_and_the_variant_adds_pawns_and_courts():
    basic = GAME.deck(BASIC)
    assert len(basic) == 36 and "excuse" not in basic
    extended = GAME.deck(PC)
    assert len(extended) == 44 and "excuse" not in extended
    assert set(extended) - set(basic) == {
        "watchman", "light-keeper", "harvest", "borderland", "consul", "rite", "island", "window"}
    assert GAME.parse_variants(["pawns-courts"]) == PC


def test_setup_three_face_down_reserves_and_the_opening_turn_starts_tier_1():
    state = GAME.new_state(BASIC)
    source = Stacked(deal({9: "mill", 10: "cave", 11: "author"}))
    draws = []
    while (d := state.chance()) is not None:
        draws.append((d.slot, d.to))
        state.resolve(source.resolve(d))
    # nothing of the reserves is seen; the third card turned goes to tier 1, no choice
    assert draws == [(9, "waste"), (10, "waste"), (11, "tier 1")]
    assert state.tiers[0] == ["author"] and state.waste == ["mill", "cave"]
    assert [state.reserve_view(k) for k in (1, 2, 3)] == ["closed"] * 3
    assert len(state.stock) == 24 and state.next_reserve == 1 and state.pass_no == 1
    assert all(len(p) == 3 for p in state.reserves)


def test_a_draw_offers_only_cards_not_seen_yet():
    state = GAME.new_state(BASIC)
    first = state.chance()
    assert first.options == frozenset(deck_ids(False))
    state.resolve("mill")
    assert "mill" not in state.chance().options
    with pytest.raises(RuleError):
        state.resolve("mill")


# -- the stock and the waste ------------------------------------------------------------


def test_turning_three_leaves_the_third_on_top_and_only_it_is_playable():
    # tier 1: the Author (Moons/Knots). Turn: Journey, Lunatic, then Forest on top (all Moons).
    state, source = start(deal({11: "author", 12: "journey", 13: "lunatic", 14: "forest"}))
    act(state, "turn", source)
    assert state.waste[-3:] == ["journey", "lunatic", "forest"] and state.waste_top == "forest"
    assert [k for k in keys(state) if k.startswith("play")] == ["play forest from waste to tier 1"]
    with pytest.raises(RuleError, match="top card of the waste"):
        state.apply(GAME.parse("play lunatic from waste to tier 1"))
    play_waste(state, source, "forest", 1)  # playing the top exposes the one beneath
    assert state.waste_top == "lunatic"
    assert "play lunatic from waste to tier 1" in keys(state)


def test_action_texts_name_cards_with_rank_and_suits():
    state, source = start(deal({11: "mountain", 14: "diplomat"}))
    act(state, "turn", source)
    texts = {a.key: a.text for a in state.legal_actions()}
    assert texts["play diplomat from waste to tier 1"] == "Play the Diplomat (8, Moons/Suns) from the waste to tier 1"
    assert texts["turn"] == "Turn three"
    assert decktet.label("ace-of-moons") == "the Ace of Moons (Ace, Moons)"


def test_the_last_turn_of_a_pass_takes_fewer_and_the_waste_comes_back_in_order():
    state, source = start(deal())
    turn_until(state, source, lambda s: len(s.stock) <= 3)
    assert len(state.stock) == 3 and state.legal_actions()[-1].text == "Turn three, opening the top reserve"
    act(state, "turn", source)
    assert state.stock == [] and state.opened == 1
    order = list(state.waste)
    assert state.legal_actions()[-1].text == "Turn the waste over and turn three"
    # turning the waste over and turning three is one turn; no card is drawn again
    state.apply(GAME.parse("turn"))
    assert state.chance() is None
    assert state.pass_no == 2 and state.waste == order[:3] and state.stock == order[3:]


def test_a_stock_of_fewer_than_three_turns_what_is_left():
    # 36 cards: 9 in reserves, 27 in the stock: 3 + 8 x 3, so pass 2 (26 cards) ends on a turn of two
    state, source = start(deal())
    turn_until(state, source, lambda s: s.opened == 1)
    turn_until(state, source, lambda s: s.pass_no == 2 and len(s.stock) == 2)
    assert state.legal_actions()[-1].text == "Turn the last two cards of the stock, opening the middle reserve"
    act(state, "turn", source)
    assert len(state.waste) == 26 and state.opened == 2


# -- the reserves -----------------------------------------------------------------------


def test_reserves_open_one_per_pass_at_the_moment_the_stock_runs_out():
    state, source = start(deal({0: "sea", 3: "bard", 6: "end"}))
    turn_until(state, source, lambda s: len(s.stock) <= 3)
    assert state.opened == 0
    state.apply(GAME.parse("turn"))
    for _ in range(3):  # the last three stock cards turn up, then at once the top reserve
        state.resolve(source.resolve(state.chance()))
    assert state.chance() == Draw(0, 0, "reserve 1", state.chance().options)
    assert state.legal_actions() == []
    settle(state, source)
    assert [state.reserve_view(k) for k in (1, 2, 3)] == ["sea", "closed", "closed"]
    assert state.next_reserve == 2
    turn_until(state, source, lambda s: s.opened == 2)
    assert state.pass_no == 2 and state.reserve_view(2) == "bard"
    turn_until(state, source, lambda s: s.opened == 3)
    assert state.pass_no == 3 and state.reserve_view(3) == "end" and state.next_reserve is None


def test_an_open_reserve_top_plays_any_time_and_the_card_under_it_turns_up():
    # tier 1: the Author (Moons/Knots); reserve 1: Forest (Moons) over Chance Meeting (Moons)
    state, source = start(deal({11: "author", 0: "forest", 1: "chance-meeting", 2: "calamity"}))
    with pytest.raises(RuleError, match="still closed"):
        state.apply(GAME.parse("play forest from reserve 1 to tier 1"))
    turn_until(state, source, lambda s: s.opened == 1)
    act(state, "turn", source)  # mid-pass: the reserve is still playable
    assert "play forest from reserve 1 to tier 1" in keys(state)
    text = {a.key: a.text for a in state.legal_actions()}["play forest from reserve 1 to tier 1"]
    assert text == "Play the Forest (5, Moons/Leaves) from the top reserve to tier 1"
    state.apply(GAME.parse("play forest from reserve 1 to tier 1"))
    assert state.chance().to == "reserve 1" and state.chance().slot == 1
    settle(state, source)
    assert state.reserve_view(1) == "chance-meeting"
    act(state, "play chance-meeting from reserve 1 to tier 1", source)
    assert state.reserve_view(1) == "calamity"


def test_with_stock_and_waste_empty_a_turn_ends_the_pass_and_opens_the_next_reserve():
    # Emptying stock and waste by hand-play needs a 27-card chain; the position is set
    # directly: after pass 1, the waste is taken away.
    state, source = start(deal({3: "bard"}))
    turn_until(state, source, lambda s: s.opened == 1)
    state.waste.clear()
    assert state.legal_actions()[-1].text == "End the pass (stock and waste are empty), opening the middle reserve"
    act(state, "turn", source)
    assert state.opened == 2 and state.reserve_view(2) == "bard"


# -- placing ------------------------------------------------------------------------------


def test_a_card_must_share_a_suit_with_the_end_of_the_tier():
    # tier 1: the Author (Moons/Knots); the Cave (Waves/Wyrms) shares nothing
    state, source = start(deal({11: "author", 14: "cave"}))
    act(state, "turn", source)
    assert keys(state) == ["turn"]
    with pytest.raises(RuleError, match="shares no suit"):
        state.apply(GAME.parse("play cave from waste to tier 1"))


def test_an_empty_lower_tier_takes_any_card_the_tier_rules_allow():
    # tier 1: the Mill (8, Waves/Leaves). The Diplomat (8, Moons/Suns) shares no suit, but
    # tier 2 is empty and tier 1 holds an 8.
    state, source = start(deal(play_order(["mill", "diplomat", "betrayal"])))
    act(state, "turn", source)
    assert [k for k in keys(state) if k != "turn"] == ["play diplomat from waste to tier 2"]
    play_waste(state, source, "diplomat", 2)
    # the third 8 (Wyrms/Knots) now goes only to tier 3, which is empty: no suit check
    assert [k for k in keys(state) if k != "turn"] == ["play betrayal from waste to tier 3"]
    with pytest.raises(RuleError, match="already holds an 8"):
        state.apply(GAME.parse("play betrayal from waste to tier 2"))


def test_ranks_go_once_per_tier_and_lower_tiers_need_the_rank_above():
    # tier 1: the Journey (3, Moons/Waves); the Lunatic (6, Moons/Waves) cannot start tier 2
    # (no 6 in tier 1) but fits tier 1; the Savage (3) cannot go on tier 1 again.
    state, source = start(deal(play_order(["journey", "lunatic", "sailor", "savage"])))
    act(state, "turn", source)
    assert [k for k in keys(state) if k != "turn"] == ["play lunatic from waste to tier 1"]
    with pytest.raises(RuleError, match="only once tier 1 holds one"):
        state.apply(GAME.parse("play lunatic from waste to tier 2"))
    play_waste(state, source, "lunatic", 1)
    play_waste(state, source, "sailor", 1)  # 4, Waves/Leaves
    with pytest.raises(RuleError, match="already holds a 3"):
        state.apply(GAME.parse("play savage from waste to tier 1"))
    assert [k for k in keys(state) if k != "turn"] == ["play savage from waste to tier 2"]


def test_aces_two_per_tier_and_a_lower_tier_needs_more_above():
    order = ["ace-of-moons", "ace-of-suns", "ace-of-waves", "journey", "ace-of-knots", "lunatic"]
    state, source = start(deal(play_order(order)))
    act(state, "turn", source)
    play_waste(state, source, "ace-of-suns", 2)  # tier 1 holds 1 Ace, tier 2 none
    # tier 2 holds as many Aces as tier 1: another goes only to tier 3
    assert [k for k in keys(state) if k != "turn"] == ["play ace-of-waves from waste to tier 3"]
    with pytest.raises(RuleError, match="only while tier 1 holds more Aces"):
        state.apply(GAME.parse("play ace-of-waves from waste to tier 2"))
    play_waste(state, source, "ace-of-waves", 3)
    play_waste(state, source, "journey", 1)  # Moons/Waves after the Ace of Moons
    # now tier 1 could take a second Ace; the Ace of Knots shares no suit with the Journey
    # and tier 2 still holds as many as tier 1
    assert [k for k in keys(state) if k != "turn"] == []
    state2, source2 = start(deal(play_order(["ace-of-moons", "journey", "ace-of-waves", "lunatic", "ace-of-suns"])))
    act(state2, "turn", source2)
    play_waste(state2, source2, "journey", 1)
    play_waste(state2, source2, "ace-of-waves", 1)
    play_waste(state2, source2, "lunatic", 1)
    with pytest.raises(RuleError, match="already holds two Aces"):
        state2.apply(GAME.parse("play ace-of-suns from waste to tier 1"))


def test_crowns_two_per_tier_and_another_below_while_the_tier_above_holds_more():
    # tier 1: Huntress (Moons), Mountain (4, Moons/Suns), Bard (Suns): two Crowns.
    # tier 2: Sea (Waves), Sailor (4, Waves/Leaves), then End (Leaves): 2 above > 1 here.
    order = ["huntress", "mountain", "bard", "sea", "sailor", "end", "calamity"]
    state, source = start(deal(play_order(order)))
    act(state, "turn", source)
    play_waste(state, source, "mountain", 1)
    play_waste(state, source, "bard", 1)
    assert [k for k in keys(state) if k != "turn"] == ["play sea from waste to tier 2"]
    with pytest.raises(RuleError, match="already holds two Crowns"):
        state.apply(GAME.parse("play sea from waste to tier 1"))
    play_waste(state, source, "sea", 2)
    play_waste(state, source, "sailor", 2)
    assert [k for k in keys(state) if k != "turn"] == ["play end from waste to tier 2", "play end from waste to tier 3"]
    play_waste(state, source, "end", 2)
    assert state.counts[1]["Crown"] == 2
    act(state, "turn", source)
    assert [k for k in keys(state) if k != "turn"] == ["play calamity from waste to tier 3"]


def test_pawns_two_in_tier_1_one_below_and_the_second_in_tier_1_waits_for_tier_3():
    # Watchman (Moons/Wyrms/Knots) starts tier 1; Harvest cannot be tier 1's second Pawn yet
    order = ["watchman", "harvest", "light-keeper", "borderland"]
    state, source = start(deal(play_order(order), PC), PC)
    act(state, "turn", source)
    assert [k for k in keys(state) if k != "turn"] == ["play harvest from waste to tier 2"]
    with pytest.raises(RuleError, match="second Pawn in tier 1 needs a Pawn in tier 3"):
        state.apply(GAME.parse("play harvest from waste to tier 1"))
    play_waste(state, source, "harvest", 2)
    # tier 2 is full of Pawns (one); tier 3 can start with one now
    assert [k for k in keys(state) if k != "turn"] == ["play light-keeper from waste to tier 3"]
    play_waste(state, source, "light-keeper", 3)
    assert "play borderland from waste to tier 1" in keys(state)  # shares Wyrms with the Watchman
    play_waste(state, source, "borderland", 1)
    assert state.counts[0]["Pawn"] == 2 and state.lacks(1).count("Pawn") == 0


def test_courts_follow_the_same_limits():
    order = ["consul", "rite", "island"]
    state, source = start(deal(play_order(order), PC), PC)
    act(state, "turn", source)
    assert [k for k in keys(state) if k != "turn"] == ["play rite from waste to tier 2"]
    play_waste(state, source, "rite", 2)
    with pytest.raises(RuleError, match="already holds one Court"):
        state.apply(GAME.parse("play island from waste to tier 2"))
    assert [k for k in keys(state) if k != "turn"] == ["play island from waste to tier 3"]


def test_a_terminal_view_has_what_it_needs():
    state, _source = start(deal({11: "author", 0: "sea"}))
    assert state.end(1) == "author" and state.end(2) is None
    assert state.lacks(1) == ["3", "4", "5", "6", "7", "8", "9", "Ace", "Ace", "Crown", "Crown"]
    assert len(state.lacks(2)) == 12
    assert state.waste_top == state.waste[-1] and len(state.stock) == 24 and state.pass_no == 1
    assert state.next_reserve == 1 and state.reserve_view(1) == "closed"
    pc = GAME.new_state(PC)
    assert pc.lacks(1).count("Pawn") == 2 and pc.lacks(3).count("Court") == 1


# -- the end --------------------------------------------------------------------------

# With the Ace of Moons alone in tier 1, a card is playable only if it has Moons (tier 1)
# or is another Ace (tier 2). DEAD cards have neither.
DEAD = ["desert", "origin", "painter", "savage", "sailor", "battle", "discovery", "soldier", "penitent",
        "market", "castle", "cave", "mill", "betrayal", "darkness", "merchant", "bard", "sea", "end",
        "calamity", "windfall"]
LIVE = ["author", "journey", "mountain", "forest", "lunatic", "chance-meeting", "diplomat", "pact", "huntress",
        "ace-of-waves", "ace-of-leaves", "ace-of-wyrms", "ace-of-knots"]
# Slots whose card can reach the top of the waste (or is a reserve top) once all three
# reserves are open, with or without the Ace of Suns played from slot 12.
DEAD_SLOTS = [0, 3, 6, 10, 13, 15, 16, 18, 19, 21, 22, 24, 25, 27, 28, 30, 31, 33, 34, 35]
HIDDEN_SLOTS = [1, 2, 4, 5, 7, 8, 9, 14, 17, 20, 23, 26, 29, 32]


def dead_deal(ace_of_suns_at: int) -> list[str]:
    slots = {11: "ace-of-moons", **dict(zip(DEAD_SLOTS, DEAD))}
    slots[ace_of_suns_at] = "ace-of-suns"
    free = [s for s in HIDDEN_SLOTS if s != ace_of_suns_at] + [12]
    slots.update(zip([s for s in free if s not in slots], LIVE + DEAD[len(DEAD_SLOTS):]))
    return deal(slots)


def test_a_game_where_nothing_can_ever_be_played_ends_as_the_last_reserve_opens():
    state, source = start(dead_deal(ace_of_suns_at=9))  # slot 12 holds a dead card
    turns = 0
    while state.outcome is None:
        assert state.opened < 3  # the game cannot be lost while a reserve is closed
        act(state, "turn", source)
        turns += 1
    assert state.opened == 3 and state.pass_no == 3 and turns == 8 + 9 + 9
    assert state.outcome.result == "lost" and state.outcome.cause == "stalled"
    assert "never" in state.outcome.reason or "can ever" in state.outcome.reason
    assert state.legal_actions() == []


def test_a_card_reachable_only_on_a_later_pass_keeps_the_game_going():
    state, source = start(dead_deal(ace_of_suns_at=12))
    turn_until(state, source, lambda s: s.opened == 3)
    # the Ace of Suns is buried mid-waste now, but the next pass leaves it on top
    assert state.outcome is None and keys(state) == ["turn"]
    act(state, "turn", source)
    assert state.waste_top == "ace-of-suns"
    assert keys(state) == ["play ace-of-suns from waste to tier 2", "turn"]
    # once it is played, nothing left can ever be played: the game ends at once
    play_waste(state, source, "ace-of-suns", 2)
    assert state.outcome is not None and state.outcome.result == "lost"


def test_every_card_in_a_tier_wins():
    variants = BASIC
    state = GAME.new_state(variants)
    source = SeededSource("0", GAME, variants)
    policy = REG.policy()
    while state.outcome is None:
        if (d := state.chance()) is not None:
            state.resolve(source.resolve(d))
        else:
            state.apply(policy.choose(state).action.move)
    assert state.outcome.result == "won" and state.placed == 36
    assert state.outcome.cause == "all-placed"
    assert all(state.lacks(t) == [] for t in (1, 2, 3))
    for t in (1, 2, 3):
        assert len(state.tiers[t - 1]) == 12


def test_rule_errors_name_the_rule():
    state, _source = start(deal({11: "author"}))
    with pytest.raises(RuleError, match="not a Cascades move"):
        state.apply(GAME.parse("build castle"))
    with pytest.raises(RuleError, match="no tier 4"):
        state.apply(GAME.parse("play author from waste to tier 4"))
    with pytest.raises(RuleError, match="waste or an open reserve"):
        state.apply(GAME.parse("play author from tier 1 to tier 2"))
    with pytest.raises(RuleError, match="waste or an open reserve, not from 'reserve 4'"):
        state.apply(GAME.parse("play author from reserve 4 to tier 2"))
    with pytest.raises(RuleError, match="a card must be turned up first"):
        GAME.new_state(BASIC).apply(Turn())


def test_the_outcomes_causes_are_documented():
    assert set(GAME.causes) == {"all-placed", "stalled", "abandoned"}


# -- moves as text ----------------------------------------------------------------------


def test_keys_parse_to_typed_moves_and_print_back():
    assert GAME.parse("turn") == Turn() and Turn().key == "turn"
    play = GAME.parse("play mill from reserve 2 to tier 3")
    assert play == Play("mill", 3, 2) and play.source == "reserve 2"
    assert play.key == "play mill from reserve 2 to tier 3"
    assert Play("mill", 1).key == "play mill from waste to tier 1"
    assert play.facts() == {"type": "play", "key": play.key, "card": "mill", "tier": 3, "reserve": 2}


def test_other_spellings_parse_to_the_logs_spelling():
    assert GAME.canonical("  Play Mill from  Waste to Tier 2 ") == "play mill from waste to tier 2"
    assert GAME.canonical("PLAY mill FROM reserve 1 TO 3") == "play mill from reserve 1 to tier 3"
    assert GAME.canonical("Turn") == "turn"
    assert GAME.canonical("build castle") == "build castle"  # no move: left as typed


@pytest.mark.parametrize("key, words", [
    ("", "not a Cascades move"),
    ("turn three", "not a Cascades move"),
    ("play mill", "not a Cascades move"),
    ("play nobody from waste to tier 1", "no card of Cascades"),
    ("play excuse from waste to tier 1", "no card of Cascades"),
    ("play mill from waste to tier two", "names no tier"),
    ("play mill from the stock to tier 1", "waste or an open reserve, not from 'the stock'"),
])
def test_text_that_is_no_move_is_refused_with_the_reason(key, words):
    with pytest.raises(RuleError, match=words):
        GAME.parse(key)


def test_places_are_read_back_as_the_rules_write_them():
    assert place_of("reserve 2") == ("reserve", 2) and place_of("tier 1") == ("tier", 1)
    assert place_of("waste") == ("waste", None)
    assert reserve_draw("reserve 2", 3) == (2, True) and reserve_draw("reserve 2", 4) == (2, False)
    assert reserve_draw("waste", 12) is None and reserve_draw("tier 1", 11) is None


# -- the placing rule -------------------------------------------------------------------


def test_the_placing_rule_by_its_counts_and_suits():
    # held: how many of the rank tiers 1, 2 and 3 hold
    assert refusal("5", 1, (0, 0, 0)) is None and refusal("5", 1, (1, 0, 0)) == FULL
    assert refusal("5", 2, (0, 0, 0)) == WAITS_ABOVE and refusal("5", 2, (1, 0, 0)) is None
    assert refusal("Ace", 1, (1, 0, 0)) is None and refusal("Ace", 1, (2, 0, 0)) == FULL
    assert refusal("Crown", 2, (2, 1, 0)) is None and refusal("Crown", 2, (1, 1, 0)) == WAITS_ABOVE
    assert refusal("Pawn", 1, (1, 1, 0)) == WAITS_TIER_3 and refusal("Pawn", 1, (1, 1, 1)) is None
    assert refusal("Court", 2, (2, 1, 0)) == FULL
    # the suit: sets or bit masks alike; an empty tier (no end) takes any suit
    assert refusal("5", 1, (0, 0, 0), {"Moons"}, {"Suns"}) == NO_SUIT
    assert refusal("5", 1, (0, 0, 0), {"Moons"}, {"Suns", "Moons"}) is None
    assert refusal("5", 1, (0, 0, 0), 0b01, 0b10) == NO_SUIT and refusal("5", 1, (0, 0, 0), 0b11, 0b10) is None
    assert refusal("5", 1, (0, 0, 0), {"Moons"}, None) is None
    # the rank comes first, as the rule a refused play names
    assert refusal("5", 1, (1, 0, 0), {"Moons"}, {"Suns"}) == FULL


def _check_placing_agrees(state) -> None:
    """The legal plays, the why-not text, the table's "takes now" and the rule on suit
    masks (as the policy's search holds them) all say the same of every visible card."""
    legal = [a.move for a in state.legal_actions() if isinstance(a.move, Play)]
    bits = {s: 1 << i for i, s in enumerate(decktet.SUITS)}

    def mask(card_id):
        return sum(bits[s] for s in decktet.get(card_id).suits) if card_id else 0

    sources = {card_id: k for k, card_id in state.sources()}
    for card_id in GAME.deck({"pawns-courts": "on" if state.pawns_courts else "off"}):
        rank = decktet.get(card_id).rank
        for t in (1, 2, 3):
            fits = state.fits(card_id, t)
            assert fits == (state.why_not(card_id, t) is None)
            if card_id in sources:
                assert fits == (Play(card_id, t, sources[card_id]) in legal)
            end = state.end(t)
            follows = end is None or bool(set(decktet.get(card_id).suits) & set(decktet.get(end).suits))
            assert fits == (rank in state.takes(t) and follows)
            assert fits == (refusal(rank, t, state.held(rank), mask(card_id), mask(end)) is None)


# -- the built-in policy -----------------------------------------------------------------


def _policy_game(seed: str, policy, variants=BASIC) -> list:
    """The hints a policy gives through a whole seeded game it plays."""
    state = GAME.new_state(variants)
    source = SeededSource(seed, GAME, variants)
    hints = []
    while state.outcome is None:
        if (d := state.chance()) is not None:
            state.resolve(source.resolve(d))
        else:
            hint = policy.choose(state)
            hints.append((hint.action.key, hint.action.text, hint.why))
            state.apply(hint.action.move)
    return hints


def test_a_policy_keeps_nothing_of_one_game_for_the_next():
    used = REG.policy()
    first = _policy_game("1", used)
    assert _policy_game("2", used) == _policy_game("2", REG.policy())
    assert _policy_game("1", used) == first  # the same deal again: the same game
    assert REG.policy() is not REG.policy()


def test_a_clone_is_equal_and_independent():
    state, source = start(deal({11: "author", 14: "forest"}))
    act(state, "turn", source)
    copy = state.clone()
    assert copy == state
    act(copy, "play forest from waste to tier 1", source)
    assert state.tiers[0] == ["author"] and state.counts[0] == {"2": 1}
    assert copy.tiers[0] == ["author", "forest"] and copy != state


def test_the_policy_only_turns_until_every_reserve_is_open_then_plans():
    state, source = start(deal({11: "author", 14: "forest"}))
    act(state, "turn", source)
    assert "play forest from waste to tier 1" in keys(state)
    policy = REG.policy()
    hint = policy.choose(state)
    assert hint.action.key == "turn" and "reserve" in hint.why
    turn_until(state, source, lambda s: s.opened == 3)
    hint = policy.choose(state)
    assert hint.action.key in keys(state) and hint.why


# -- properties -------------------------------------------------------------------------


def _turn_only_reaches_a_play(state) -> bool:
    """Brute force: turn (only) through two full cycles looking for a playable card."""
    probe = state.clone()
    for _ in range(2 * (len(probe.stock) + len(probe.waste)) + 3):
        if any(k != "turn" for k in keys(probe)):
            return True
        if "turn" not in keys(probe):
            return False
        probe.apply(GAME.parse("turn"))
        assert probe.chance() is None  # every card in the cycle is already known
    return any(k != "turn" for k in keys(probe))


def _cycle_has_a_play(state) -> bool:
    """Brute force for a lost game: run the turn-only cycle by hand, two rounds."""
    waste, stock = list(state.waste), list(state.stock)
    seen = [waste[-1]] if waste else []
    for _ in range(2 * (len(waste) + len(stock)) + 3):
        if not stock:
            waste, stock = [], waste
        waste += stock[:3]
        stock = stock[3:]
        if waste:
            seen.append(waste[-1])
    tops = [state.reserve_top(k) for k in (1, 2, 3)]
    return any(state.playable(c) for c in seen + [t for t in tops if t])


def _random_game(seed: str, variants: dict, thorough: bool = False):
    """A game of random legal moves; ``thorough`` also checks, now and then, that a game
    still going can always play again and that every form of the placing rule agrees."""
    state = GAME.new_state(variants)
    source = SeededSource(seed, GAME, variants)
    pick = Stream(seed, "auto")
    trace = []
    deck = GAME.deck(variants)
    for step in range(4000):
        if state.outcome is not None:
            return state, trace
        request = state.chance()
        if request is not None:
            assert request.options == frozenset(deck) - {c for cards in state.places().values() for c in cards}
            card_id = source.resolve(request)
            trace.append(("draw", request.slot, request.to, card_id))
            state.resolve(card_id)
        else:
            actions = state.legal_actions()
            assert actions, "a game still going must offer a move"
            if thorough and state.opened == 3 and step % 5 == 0:
                assert _turn_only_reaches_a_play(state)
            for a in actions:  # every key the player sees reads back as its move
                assert GAME.parse(a.key) == a.move and a.move.key == a.key
                assert a.text == state.describe(a.move)
            if thorough and step % 3 == 0:
                _check_placing_agrees(state)
            action = pick.choice(actions)
            trace.append(("act", action.key))
            state.apply(action.move)
        placed = [c for cards in state.places().values() for c in cards]
        assert len(placed) == len(set(placed)) and set(placed) <= set(deck)
    raise AssertionError(f"seed {seed}: no end within 4000 steps")


@pytest.mark.parametrize("variants", [BASIC, PC], ids=["basic", "pawns-courts"])
def test_random_games_keep_every_card_in_one_place_end_and_replay_the_same(variants):
    for n in range(120):
        seed = f"prop-{n}"
        state, trace = _random_game(seed, variants, thorough=n < 10)
        assert state.outcome is not None and state.outcome.result in ("won", "lost")
        if state.outcome.result == "lost":
            assert state.opened == 3 and not _cycle_has_a_play(state)
        again, trace2 = _random_game(seed, variants)
        assert trace == trace2 and again.places() == state.places()

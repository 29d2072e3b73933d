"""Hexaract rules, one ruling at a time, on hand-built decks and scripted dice.

Unless a test says otherwise the Aces come out Moons, Suns, Waves (the three tokens of
the starting supply), then Leaves, Wyrms, Knots (the face-up ace rewards), and the
journey deck starts with the cards the test names, the rest of the deck after them.
"""

from __future__ import annotations

import re

import pytest

from storyteller.core.decktet import SUITS
from storyteller.core.engine import Draw, Roll, RuleError
from storyteller.games.hexaract.rules import GAME, Assign, Done, HexaractState, Pay, Spend, journey_to, place_of
from storyteller.games.hexaract import GAME as REG
from storyteller.core.rng import Stream
from storyteller.core.sources import SeededSource
from tests.helpers import Stacked, act, keys, settle

ACES = ("ace-of-moons", "ace-of-suns", "ace-of-waves", "ace-of-leaves", "ace-of-wyrms", "ace-of-knots")
REWARDS = ("ace-of-leaves", "ace-of-wyrms", "ace-of-knots")
QUIET = (1, 1, 1, 1, 1)  # a roll that only ever makes 2


def source(journey, rolls, aces=ACES) -> Stacked:
    rest = [c for c in GAME.deck({}, "deck") if c not in journey]
    rolls = list(rolls) + [QUIET] * 20  # later turns roll only 1s unless the test says
    return Stacked({"aces": [list(aces)], "deck": [list(journey) + rest]}, rolls)


def start(journey, rolls, aces=ACES) -> tuple[HexaractState, Stacked]:
    src = source(journey, rolls, aces)
    state = GAME.new_state({})
    settle(state, src)
    return state, src


def supply(state) -> dict[str, int]:
    return {s: n for s, n in zip(SUITS, state.supply) if n}


def set_supply(state, **counts: int) -> None:
    """Give the personal supply these counts of these suits (the others stay)."""
    state.supply = tuple(counts.get(s, n) for s, n in zip(SUITS, state.supply))


def texts(state) -> dict[str, str]:
    return {a.key: a.text for a in state.legal_actions()}


def empty_the_deck(state: HexaractState) -> None:
    """Pretend every other journey card has already come and gone (for end-game cases)."""
    on_journey = {c for c in state.journey if c}
    state.discard = tuple(c for c in GAME.deck({}, "deck") if c not in on_journey)
    state.deck_drawn = 30


# -- the deck and setup ------------------------------------------------------------------


def test_the_aces_are_a_pile_of_their_own_and_the_journey_deck_is_the_other_30():
    aces, deck = GAME.deck({}, "aces"), GAME.deck({}, "deck")
    assert sorted(aces) == sorted(ACES)
    assert len(deck) == 30 and not set(deck) & set(aces)
    assert "excuse" not in deck and "watchman" not in deck  # basic deck only


def test_setup_first_three_aces_are_tokens_the_other_three_ace_rewards_then_three_journey_cards():
    state = GAME.new_state({})
    src = source(["author", "desert", "origin"], [QUIET])
    seen = []
    while (request := state.chance()) is not None and isinstance(request, Draw):
        seen.append((request.pile, request.slot, request.to))
        state.resolve(src.resolve(request))
    assert seen == [
        ("aces", 0, "ace token"), ("aces", 1, "ace token"), ("aces", 2, "ace token"),
        ("aces", 3, "ace reward"), ("aces", 4, "ace reward"), ("aces", 5, "ace reward"),
        ("deck", 0, "journey 1"), ("deck", 1, "journey 2"), ("deck", 2, "journey 3"),
    ]
    assert supply(state) == {"Moons": 1, "Suns": 1, "Waves": 1}
    assert state.missing_suits() == ["Leaves", "Wyrms", "Knots"]
    assert state.ace_rewards == REWARDS
    assert state.places()["aces used"] == list(ACES[:3])
    assert state.journey == ("author", "desert", "origin")
    assert state.deck_left == 27
    assert state.chance() == Roll(index=0, count=5)


def test_the_dice_of_a_turn_are_fixed_by_the_turn_so_undo_sees_the_same_roll():
    state, src = start(["author", "desert", "origin"], [QUIET, (2, 2, 2, 2, 2)])
    before = state.clone()
    act(state, "done")  # not settled: the next roll is pending
    assert state.chance() == Roll(index=1, count=5)
    again = before.clone()  # undo, and end the turn again
    act(again, "done")
    assert again.chance() == state.chance()
    settle(again, src)
    assert again.roll == (2, 2, 2, 2, 2)


def test_the_general_supply_never_runs_out_and_the_personal_supply_holds_many_of_a_suit():
    state, src = start(["author", "desert", "castle"], [(1, 1, 1, 1, 1)])
    set_supply(state, Moons=40)
    act(state, "assign 1+1 author moons", src)
    assert state.held("Moons") == 41


# -- phase 1: dice and couplets ------------------------------------------------------------


def test_a_six_is_wild_from_one_to_five():
    state, _src = start(["author", "sea", "castle"], [(6, 6, 2, 3, 4)])
    t = texts(state)
    assert t["assign 6+6 author moons"] == "6 as 1 + 6 as 1 to the Author (2): thwart it, take a Moons token"
    assert t["assign 6+6 sea waves ace-of-leaves"] == (
        "6 as 5 + 6 as 5 to the Sea (Crown), placing a Waves token: survey complete, "
        "take the Ace of Leaves (a Leaves token)"
    )
    assert t["assign 6+2 castle suns"] == "6 as 5 + 2 to the Castle (7), placing a Suns token"
    assert t["assign 4+3 castle knots"] == "4+3 to the Castle (7), placing a Knots token"


def test_a_six_never_counts_as_six():
    state, _src = start(["castle", "sea", "author"], [(6, 1, 1, 1, 1)])
    # 6 + 1 would need the 6 to be a 6 to make 7
    assert not [k for k in keys(state) if "castle" in k and k.startswith("assign")]


def test_a_couplet_must_sum_to_the_rank_and_a_crown_counts_ten():
    state, _src = start(["castle", "sea", "author"], [(5, 5, 4, 3, 1)])
    assert "assign 4+3 castle suns" in keys(state)
    assert "assign 5+5 sea waves ace-of-knots" in keys(state)
    assert "assign 5+4 castle suns" not in keys(state)
    with pytest.raises(RuleError, match="rank"):
        state.apply(GAME.parse("assign 5+4 castle suns"))


def test_at_most_two_couplets_per_roll_and_the_dice_are_used_up():
    state, src = start(["author", "painter", "savage"], [(1, 1, 2, 1, 1)])
    act(state, "assign 1+1 author moons", src)
    act(state, "assign 2+1 painter suns", src)
    assert state.used.count(True) == 4 and state.free_dice() == [1]
    assert not [k for k in keys(state) if k.startswith("assign")]
    assert keys(state) == ["done"]  # one die alone goes nowhere


def test_every_couplet_offered_is_two_free_dice():
    state, _src = start(["author", "painter", "savage"], [(1, 1, 2, 5, 4)])
    for key in keys(state):
        if key.startswith("assign"):
            a, b = key.split()[1].split("+")
            assert a in "12456" and b in "12456"


def test_both_couplets_may_go_to_one_location():
    state, src = start(["castle", "author", "desert"], [(4, 3, 5, 2, 1)])
    act(state, "assign 4+3 castle suns", src)
    assert "assign 5+2 castle knots" in keys(state)
    act(state, "assign 5+2 castle knots", src)
    assert "castle" in state.places()["discard"]
    assert supply(state) == {"Moons": 1, "Suns": 1, "Waves": 1}  # its tokens went with it


# -- phase 2: personalities, events, locations ------------------------------------------------


def test_a_thwarted_personality_is_discarded_for_a_token_of_either_suit():
    state, src = start(["painter", "castle", "desert"], [(2, 1, 1, 1, 1)])
    t = texts(state)
    assert t["assign 2+1 painter knots"] == "2+1 to the Painter (3): thwart it, take a Knots token"
    assert "assign 2+1 painter suns" in t
    act(state, "assign 2+1 painter knots", src)
    assert state.journey[0] is None and state.discard == ("painter",)
    assert supply(state) == {"Moons": 1, "Suns": 1, "Waves": 1, "Knots": 1}


def test_a_crown_personality_may_pay_any_face_up_ace_or_none():
    state, src = start(["huntress", "castle", "desert"], [(5, 5, 1, 1, 1)])
    thwart = sorted(k for k in keys(state) if "huntress" in k)
    assert thwart == sorted(f"assign 5+5 huntress moons {a}" for a in REWARDS + ("no-ace",))
    assert texts(state)["assign 5+5 huntress moons ace-of-wyrms"].endswith(
        "thwart it, take a Moons token and the Ace of Wyrms (a Wyrms token)"
    )
    declined = state.clone()
    act(declined, "assign 5+5 huntress moons no-ace", src)
    assert supply(declined) == {"Moons": 2, "Suns": 1, "Waves": 1}
    assert declined.ace_rewards == REWARDS
    act(state, "assign 5+5 huntress moons ace-of-wyrms", src)
    assert supply(state) == {"Moons": 2, "Suns": 1, "Waves": 1, "Wyrms": 1}
    assert state.ace_rewards == ("ace-of-leaves", "ace-of-knots")
    assert "ace-of-wyrms" in state.places()["aces used"]


def test_a_resolved_event_pays_a_token_and_a_crown_event_must_pay_an_ace():
    state, src = start(["journey", "calamity", "desert"], [(2, 1, 5, 5, 1)])
    assert {"assign 2+1 journey moons", "assign 2+1 journey waves"} <= set(keys(state))
    assert texts(state)["assign 2+1 journey waves"] == "2+1 to the Journey (3): turn the tables, take a Waves token"
    calamity = sorted(k for k in keys(state) if "calamity" in k)
    assert calamity == sorted(f"assign 5+5 calamity wyrms {a}" for a in REWARDS)  # no declining
    act(state, "assign 5+5 calamity wyrms ace-of-knots", src)
    assert supply(state) == {"Moons": 1, "Suns": 1, "Waves": 1, "Wyrms": 1, "Knots": 1}


def test_a_crown_pays_no_ace_once_none_is_face_up():
    state, _src = start(["calamity", "huntress", "desert"], [(5, 5, 5, 5, 1)])
    state.aces_used += state.ace_rewards
    state.ace_rewards = ()
    assert [k for k in keys(state) if "calamity" in k] == ["assign 5+5 calamity wyrms"]
    assert [k for k in keys(state) if "huntress" in k] == ["assign 5+5 huntress moons"]


def test_a_couplet_on_a_location_places_one_token_of_a_suit_it_still_lacks():
    state, src = start(["castle", "author", "desert"], [(4, 3, 1, 1, 1), (4, 3, 1, 1, 1)])
    assert {"assign 4+3 castle suns", "assign 4+3 castle knots"} <= set(keys(state))
    act(state, "assign 4+3 castle suns", src)
    assert state.tokens[0] == ("Suns",) and supply(state) == {"Moons": 1, "Suns": 1, "Waves": 1}
    act(state, "done", src)
    # next turn: the Castle already holds a Suns token, so only Knots goes on
    assert [k for k in keys(state) if "castle" in k and k.startswith("assign")] == ["assign 4+3 castle knots"]
    with pytest.raises(RuleError, match="lacks"):
        state.apply(GAME.parse("assign 4+3 castle suns"))


def test_one_supply_token_per_turn_goes_on_a_location_with_or_without_dice():
    state, src = start(["mountain", "author", "desert"], [QUIET, QUIET])
    t = texts(state)
    assert t["spend moons mountain"] == "Spend a Moons token from your supply on the Mountain (4, Moons/Suns)"
    assert "spend suns desert" in t
    assert "spend waves mountain" not in t  # the Mountain has no Waves
    act(state, "spend moons mountain", src)
    assert state.tokens[0] == ("Moons",) and supply(state) == {"Suns": 1, "Waves": 1}
    assert not [k for k in keys(state) if k.startswith("spend")]
    with pytest.raises(RuleError, match="one token"):
        state.apply(GAME.parse("spend suns mountain"))
    act(state, "done", src)
    assert "spend suns mountain" in keys(state)  # a new turn, a new spend


def test_a_token_won_earlier_in_the_turn_can_be_spent():
    state, src = start(["painter", "castle", "desert"], [(2, 1, 1, 1, 1)])
    assert "spend knots castle" not in keys(state)
    act(state, "assign 2+1 painter knots", src)
    assert "spend knots castle" in keys(state)
    act(state, "spend knots castle", src)
    assert state.tokens[1] == ("Knots",) and state.held("Knots") == 0


def test_a_spend_can_complete_a_location_after_a_couplet():
    state, src = start(["castle", "author", "desert"], [(4, 3, 1, 1, 1)])
    act(state, "assign 4+3 castle knots", src)
    assert texts(state)["spend suns castle"].endswith(": survey complete")
    act(state, "spend suns castle", src)
    assert state.journey[0] is None and "castle" in state.discard
    assert supply(state) == {"Moons": 1, "Waves": 1}


def test_a_completed_crown_location_pays_an_ace_reward():
    state, src = start(["sea", "author", "desert"], [QUIET])
    spends = sorted(k for k in keys(state) if k.startswith("spend waves sea"))
    assert spends == sorted(f"spend waves sea {a}" for a in REWARDS)  # no declining
    assert texts(state)["spend waves sea ace-of-leaves"].endswith(
        "survey complete, take the Ace of Leaves (a Leaves token)"
    )
    act(state, "spend waves sea ace-of-leaves", src)
    assert "sea" in state.discard
    assert supply(state) == {"Moons": 1, "Suns": 1, "Leaves": 1}


def test_a_location_and_event_card_is_a_location_only():
    state, src = start(["origin", "author", "desert"], [QUIET, (5, 5, 5, 5, 5), (5, 5, 5, 5, 5)])
    assert state.journey_view()[0]["type"] == "location"
    act(state, "assign 1+1 origin waves", src)  # a token on it, none for the supply
    assert state.tokens[0] == ("Waves",) and supply(state) == {"Moons": 1, "Suns": 1, "Waves": 1}
    act(state, "done", src)  # turn 1: no token taken as an event would, only the Author harms
    assert state.harm == 1 and supply(state) == {"Moons": 1, "Suns": 1, "Waves": 1}
    assert state.exhausted[0]
    act(state, "done", src)  # turn 2: exhausted, it harms like a location
    assert [c.card for c in state.consequences if c.kind == "harm"] == ["origin", "author", "desert"]


# -- phase 3: consequences -----------------------------------------------------------------


def test_each_personality_still_there_deals_one_harm_every_turn():
    state, src = start(["author", "painter", "desert"], [QUIET, QUIET])
    act(state, "done", src)
    assert state.harm == 2
    assert [c.text for c in state.consequences] == ["The Author (2) deals 1 harm", "The Painter (3) deals 1 harm"]
    act(state, "done", src)
    assert state.harm == 5  # two personalities and the Desert, now exhausted


def test_a_new_location_harms_only_once_exhausted_from_the_turn_after():
    state, src = start(["desert", "castle", "mountain"], [(5, 5, 5, 5, 5)] * 3)
    act(state, "done", src)
    assert state.harm == 0 and state.exhausted == (True, True, True)
    assert state.journey_view()[1]["exhausted"] is True
    act(state, "done", src)
    assert state.harm == 3
    assert [c.kind for c in state.consequences] == ["harm"] * 3


def test_a_location_drawn_at_the_end_of_a_turn_is_fresh_next_turn():
    state, src = start(["author", "painter", "savage", "castle"], [(1, 1, 3, 3, 3), (5, 5, 5, 5, 5), (5, 5, 5, 5, 5)])
    act(state, "assign 1+1 author moons", src)
    act(state, "done", src)
    assert state.journey[0] == "castle" and state.exhausted[0] is False
    harm = state.harm
    act(state, "done", src)
    assert state.harm == harm + 2  # the two personalities; the new Castle does not harm yet
    assert state.exhausted[0] is True


def test_an_event_takes_a_matching_token_and_the_player_picks_the_suit():
    state, src = start(["journey", "desert", "castle"], [(5, 5, 5, 5, 5)])
    act(state, "done", src)
    assert state.phase == "pay"
    t = texts(state)
    assert sorted(t) == ["pay moons journey", "pay waves journey"]
    assert t["pay waves journey"] == "The Journey (3, Moons/Waves) takes a Waves token from your supply"
    act(state, "pay waves journey", src)
    assert supply(state) == {"Moons": 1, "Suns": 1}
    assert [c.text for c in state.consequences] == ["The Journey (3) takes a Waves token"]


def test_an_event_with_no_matching_token_has_no_effect_and_a_forced_one_needs_no_question():
    state, src = start(["battle", "pact", "desert"], [(1, 1, 1, 1, 1), (5, 5, 5, 5, 5)])
    set_supply(state, Moons=0)  # the Pact can only take Suns
    act(state, "done", src)
    assert state.chance() is not None or state.phase == "assign"  # no question was asked
    assert supply(state) == {"Waves": 1}
    assert [(c.card, c.kind, c.suit) for c in state.consequences] == [
        ("battle", "no token", None),
        ("pact", "token lost", "Suns"),
    ]


def test_the_player_chooses_which_event_pays_first():
    state, src = start(["journey", "pact", "desert"], [(5, 5, 5, 5, 5)])
    state.supply = (1, 1, 0, 0, 0, 0)  # Moons and Suns
    act(state, "done", src)
    assert sorted(keys(state)) == ["pay moons journey", "pay moons pact", "pay suns pact"]
    act(state, "pay moons journey", src)
    # the Pact has only Suns left to take: that is forced, so the turn moves on
    assert state.phase == "assign" and supply(state) == {}


def test_an_event_lasts_two_turns_then_passes():
    state, src = start(["discovery", "desert", "castle", "author"], [(1, 1, 1, 1, 1)] + [(4, 4, 4, 4, 4)] * 2)
    set_supply(state, Waves=5)
    act(state, "done", src)
    act(state, "pay waves discovery", src)
    assert state.exhausted[0] and state.held("Waves") == 4
    act(state, "done", src)
    act(state, "pay waves discovery", src)
    assert state.held("Waves") == 3
    assert [c.kind for c in state.consequences if c.card == "discovery"] == ["token lost", "passes"]
    assert state.journey[0] == "author" and "discovery" in state.discard


def test_an_exhausted_event_resolved_in_its_second_turn_still_pays_out():
    state, src = start(["discovery", "desert", "castle"], [QUIET, (4, 1, 5, 5, 5)])
    act(state, "done", src)
    act(state, "pay suns discovery", src)
    assert state.exhausted[0]
    act(state, "assign 4+1 discovery suns", src)
    assert supply(state) == {"Moons": 1, "Suns": 1, "Waves": 1}


def test_an_exhausted_location_can_still_be_surveyed():
    state, src = start(["castle", "desert", "mountain"], [(5, 5, 5, 5, 5), (4, 3, 5, 2, 1)])
    act(state, "done", src)
    assert state.exhausted[0]
    act(state, "assign 4+3 castle suns", src)
    act(state, "assign 5+2 castle knots", src)
    assert "castle" in state.discard


# -- the end -------------------------------------------------------------------------------


def test_ten_harm_ends_the_game_before_events_take_tokens():
    state, src = start(["author", "painter", "battle"], [QUIET])
    state.harm = 8
    set_supply(state, Knots=1)
    act(state, "done", src)
    assert state.outcome is not None and state.outcome.result == "lost"
    assert state.harm == 10 and "10 harm" in state.outcome.reason
    assert state.outcome.cause == "harm"
    assert state.held("Knots") == 1  # the Battle never took its token
    assert keys(state) == [] and state.chance() is None


def test_clearing_the_journey_with_the_deck_empty_and_all_six_suits_wins_at_once():
    state, src = start(["painter", "author", "castle"], [(2, 1, 1, 1, 1)])
    empty_the_deck(state)
    state.journey = ("painter", None, None)
    state.discard += ("author", "castle")
    state.supply = (1, 1, 1, 1, 1, 0)  # all but Knots
    act(state, "assign 2+1 painter knots", src)
    assert state.outcome is not None and state.outcome.result == "won"
    assert state.outcome.cause == "artifact-whole" and state.outcome.score == 6
    assert keys(state) == [] and state.chance() is None


def test_clearing_the_journey_without_all_six_suits_loses():
    state, src = start(["painter", "author", "castle"], [(2, 1, 1, 1, 1)])
    empty_the_deck(state)
    state.journey = ("painter", None, None)
    state.discard += ("author", "castle")
    act(state, "assign 2+1 painter knots", src)
    assert state.outcome.result == "lost"
    assert "Leaves, Wyrms" in state.outcome.reason
    assert state.outcome.cause == "artifact-incomplete" and state.outcome.score == 4


def test_an_empty_deck_leaves_places_vacant_and_the_journey_goes_on():
    state, src = start(["painter", "author", "castle"], [(2, 1, 1, 1, 1), QUIET])
    empty_the_deck(state)
    act(state, "assign 2+1 painter knots", src)
    act(state, "done", src)
    assert state.outcome is None and state.journey[0] is None
    assert state.chance() is None and state.phase == "assign" and state.turn == 2


def test_the_last_event_passing_with_the_deck_empty_ends_the_game():
    state, src = start(["battle", "author", "castle"], [QUIET, QUIET])
    empty_the_deck(state)
    state.journey = ("battle", None, None)
    state.discard += ("author", "castle")
    state.supply = (2,) * 6
    act(state, "done", src)
    act(state, "pay knots battle", src)
    assert state.outcome is None
    act(state, "done", src)
    act(state, "pay wyrms battle", src)
    assert state.outcome.result == "won"  # it passed and nothing is left
    assert state.outcome.cause == "artifact-whole"


def test_every_cause_the_game_gives_is_documented_and_abandoning_is_one():
    assert set(GAME.causes) == {"artifact-whole", "artifact-incomplete", "harm", "abandoned"}
    assert all(GAME.causes.values())


# -- the view, the words, the errors -------------------------------------------------------


def test_the_view_shows_the_roll_the_journey_and_the_last_consequences():
    state, src = start(["castle", "author", "journey"], [(4, 3, 2, 2, 6), QUIET])
    assert state.roll == (4, 3, 2, 2, 6)
    act(state, "assign 4+3 castle suns", src)
    assert state.used == (True, True, False, False, False)
    view = state.journey_view()
    assert view[0] == {
        "card": "castle", "name": "the Castle", "type": "location", "rank": "7",
        "suits": ("Suns", "Knots"), "tokens": ["Suns"], "exhausted": False,
    }
    act(state, "done", src)
    act(state, "pay moons journey", src)
    assert state.consequences_turn == 1
    assert [(c.card, c.kind) for c in state.consequences] == [("author", "harm"), ("journey", "token lost")]


def test_illegal_actions_are_refused_with_the_rule():
    state, _src = start(["castle", "author", "journey"], [(4, 3, 2, 2, 6)])
    with pytest.raises(RuleError, match="not both free"):
        state.apply(GAME.parse("assign 5+2 castle suns"))
    with pytest.raises(RuleError, match="consequences"):
        state.apply(GAME.parse("pay moons journey"))
    with pytest.raises(RuleError, match="location"):
        state.apply(GAME.parse("spend moons author"))
    with pytest.raises(RuleError, match="no Knots"):
        state.apply(GAME.parse("spend knots castle"))


# -- moves as text -------------------------------------------------------------------------


def test_each_kind_of_move_prints_its_key_and_parses_back():
    moves = {
        "assign 6+2 castle suns": Assign((6, 2), "castle", "Suns"),
        "assign 5+5 sea waves ace-of-leaves": Assign((5, 5), "sea", "Waves", "ace-of-leaves"),
        "assign 5+5 huntress moons no-ace": Assign((5, 5), "huntress", "Moons", "no-ace"),
        "spend moons mountain": Spend("Moons", "mountain"),
        "spend waves sea ace-of-knots": Spend("Waves", "sea", "ace-of-knots"),
        "pay waves journey": Pay("Waves", "journey"),
        "done": Done(),
    }
    for key, move in moves.items():
        assert move.key == key and GAME.parse(key) == move
        assert move.facts()["type"] == move.kind and move.facts()["key"] == key


def test_a_couplet_may_be_typed_low_die_first_and_in_any_case():
    assert GAME.parse("Assign 2+6 CASTLE Suns") == Assign((6, 2), "castle", "Suns")
    assert GAME.canonical("assign 1+2 painter knots") == "assign 2+1 painter knots"


@pytest.mark.parametrize("key, why", [
    ("", "not a Hexaract move"),
    ("roll", "not a Hexaract move"),
    ("assign 7+1 castle suns", "two dice, written like 4+3"),
    ("assign 4 castle suns", "two dice, written like 4+3"),
    ("assign 4+3 nowhere suns", "'nowhere' is not a card of the journey deck"),
    ("assign 4+3 ace-of-moons moons", "not a card of the journey deck"),
    ("spend stars castle", "'stars' is not a suit"),
    ("spend suns castle ace-of-nothing", "neither an Ace nor no-ace"),
    ("pay suns", "not a Hexaract move"),
    ("done now", "not a Hexaract move"),
])
def test_text_that_is_no_move_is_refused_by_the_parser(key, why):
    with pytest.raises(RuleError, match=re.escape(why)):
        GAME.parse(key)


def test_every_legal_key_parses_back_to_its_move_through_whole_games():
    seen = set()
    for n in range(40):
        state, source, chooser = GAME.new_state({}), SeededSource(f"p{n}", GAME, {}), Stream(f"p{n}", "keys")
        while state.outcome is None:
            if (request := state.chance()) is not None:
                state.resolve(source.resolve(request))
                continue
            legal = state.legal_actions()
            for action in legal:
                assert GAME.parse(action.key) == action.move and action.move.key == action.key
                assert state.describe(action.move) == action.text
                seen.add(action.move.kind)
            state.apply(chooser.choice(legal).move)
    assert seen == {"assign", "spend", "pay", "done"}


def test_a_draw_names_its_journey_place_and_the_rules_read_it_back():
    assert [journey_to(place) for place in range(3)] == ["journey 1", "journey 2", "journey 3"]
    assert [place_of(journey_to(place)) for place in range(3)] == [0, 1, 2]
    assert place_of("ace token") is None and place_of("ace reward") is None


def test_a_clone_is_equal_and_then_goes_its_own_way():
    state, _src = start(["castle", "author", "journey"], [(4, 3, 2, 2, 6)])
    twin = state.clone()
    assert type(twin) is HexaractState and vars(twin) == vars(state)
    act(twin, "spend suns castle")
    assert twin.tokens[0] == ("Suns",) and twin.held("Suns") == 0
    act(twin, "assign 4+3 castle knots")
    assert twin.journey[0] is None and twin.discard == ("castle",)
    assert state.journey[0] == "castle" and state.tokens[0] == () and state.discard == ()
    assert state.used == (False,) * 5 and supply(state) == {"Moons": 1, "Suns": 1, "Waves": 1}


# -- the greedy policy ---------------------------------------------------------------------


def test_the_hint_is_legal_and_never_peeks_at_undrawn_cards_or_future_dice():
    a, _ = start(["castle", "author", "journey", "painter"], [(4, 3, 2, 2, 6), (1, 1, 1, 1, 1)])
    b, _ = start(["castle", "author", "journey", "battle"], [(4, 3, 2, 2, 6), (6, 6, 6, 6, 6)])
    pa, pb = REG.policy(), REG.policy()
    while a.phase == "assign" and a.chance() is None:
        ha, hb = pa.choose(a), pb.choose(b)
        assert ha.action.key == hb.action.key and ha.action.key in keys(a) and ha.why
        a.apply(ha.action.move)
        b.apply(hb.action.move)
        if ha.action.key == "done":
            break


def test_the_hint_picks_which_event_pays_when_there_is_a_choice():
    state, src = start(["journey", "desert", "castle"], [(5, 5, 5, 5, 5)])
    set_supply(state, Moons=3)
    act(state, "done", src)
    hint = REG.policy().choose(state)
    assert hint.action.key == "pay moons journey"  # keep the lone Waves token
    assert "Journey" in hint.why


def test_the_hint_thwarts_a_personality_it_can_reach():
    state, _src = start(["author", "desert", "castle"], [(1, 1, 5, 5, 5)])
    hint = REG.policy().choose(state)
    assert hint.action.key.startswith("assign 1+1 author")


# -- properties over many seeded games -----------------------------------------------------


def test_greedy_games_end_cleanly():
    for n in range(20):
        source = SeededSource(f"g{n}", GAME, {})
        state = GAME.new_state({})
        policy = REG.policy()
        while state.outcome is None:
            request = state.chance()
            if request is not None:
                state.resolve(source.resolve(request))
            else:
                hint = policy.choose(state)
                assert hint.action.key in keys(state)
                state.apply(hint.action.move)
        assert state.outcome.result in ("won", "lost")

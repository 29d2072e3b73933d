"""Adaman: each rule and ruling, on hand-built decks (see RULINGS.md, "Adaman")."""

from __future__ import annotations

from collections import Counter

import pytest

from helpers import Stacked, act, keys, settle
from storyteller.core.engine import Draw, Move, RuleError, VariantError
from storyteller.games.adaman.rules import (
    BASIC,
    GAME,
    RANK,
    SUITS,
    Control,
    Shift,
    control_action,
    eligible_resources,
    game_deck,
    is_personality,
    payments,
    why_refused,
)
from storyteller.games.adaman import GAME as REG
from storyteller.games.adaman.players import AdamanGreedy
from storyteller.core.rng import Stream
from storyteller.core.sources import SeededSource

STANDARD = {"extended": "off", "extra-personalities": "0"}
EXTENDED = {"extended": "on", "extra-personalities": "0"}


def variants(**kw) -> dict[str, str]:
    out = dict(STANDARD)
    out.update({k.replace("_", "-"): v for k, v in kw.items()})
    return out


def stacked(first: list[str], v=STANDARD) -> Stacked:
    """A deck dealt in the order ``first``, then every other card of the game in deck order."""
    rest = [c for c in game_deck(v) if c not in first]
    assert len(set(first)) == len(first)
    return Stacked(first + rest)


def start(first: list[str], v=STANDARD):
    source = stacked(first, v)
    return settle(GAME.new_state(v), source), source


# A quiet opening: no personality among the first ten cards, so the court starts empty.
CAPITAL = ["sea", "author", "castle", "desert", "ace-of-moons"]
RESOURCES = ["mountain", "forest", "pact", "discovery", "market"]


# -- the cards --------------------------------------------------------------------------------


def test_card_data_matches_known_facts():
    assert len(BASIC) == 36
    people = [c for c in BASIC if is_personality(c)]
    assert len(people) == 11
    assert sum(RANK[c] for c in people) == 66
    per_suit = Counter(s for c in BASIC for s in SUITS[c])
    assert sorted(per_suit) == ["Knots", "Leaves", "Moons", "Suns", "Waves", "Wyrms"]
    assert set(per_suit.values()) == {10}
    assert RANK["ace-of-knots"] == 1 and RANK["huntress"] == 10 and RANK["calamity"] == 10


def test_decks_per_variant():
    assert len(GAME.deck(STANDARD)) == 36
    ext = GAME.deck(EXTENDED)
    assert len(ext) == 45 and "excuse" in ext
    for c in ("watchman", "light-keeper", "consul", "harvest", "borderland", "rite", "island", "window"):
        assert RANK[c] == 10
    assert GAME.deck(variants(extra_personalities="1"))[36:] == ["watchman"]
    assert GAME.deck(variants(extra_personalities="3"))[36:] == ["watchman", "light-keeper", "consul"]
    assert "excuse" not in GAME.deck(variants(extra_personalities="3"))


def test_extended_and_extra_personalities_do_not_combine():
    with pytest.raises(VariantError, match="do not combine"):
        GAME.parse_variants(["extended", "extra-personalities=2"])
    assert GAME.parse_variants(["extended"]) == EXTENDED
    assert GAME.parse_variants(["extra-personalities=2"]) == variants(extra_personalities="2")


# -- setup ------------------------------------------------------------------------------------


def test_setup_deals_capital_first_then_resources():
    state = GAME.new_state(STANDARD)
    source = stacked(CAPITAL + RESOURCES)
    seen = []
    while (draw := state.chance()) is not None:
        assert isinstance(draw, Draw) and draw.deal == 0 and draw.slot == len(seen)
        seen.append(draw.to)
        state.resolve(source.resolve(draw))
    assert seen == ["capital"] * 5 + ["resources"] * 5
    assert state.capital == CAPITAL and state.resources == RESOURCES and state.court == []
    assert state.deck_count == 26


def test_personality_dealt_to_resources_goes_to_court_and_is_replaced():
    state, _ = start(CAPITAL + ["mountain", "bard", "forest", "pact", "huntress", "discovery", "market"])
    assert state.court == ["bard", "huntress"]
    assert state.resources == RESOURCES
    assert state.deck_count == 36 - 12


def test_personality_dealt_to_capital_stays_there():
    state, _ = start(["bard"] + CAPITAL[1:] + RESOURCES)
    assert "bard" in state.capital and state.court == []


def test_sixth_court_card_in_setup_is_utter_loss_at_once():
    people = ["author", "painter", "savage", "sailor", "soldier", "lunatic"]
    state, _ = start(["sea", "castle", "desert", "ace-of-moons", "mountain", "forest"] + people)
    assert state.outcome is not None
    assert state.outcome.result == "utter loss" and state.outcome.score == 0
    assert state.court == people  # the sixth arrived; nothing more is dealt
    assert state.resources == ["forest"] and state.chance() is None and state.legal_actions() == []


def test_no_legal_play_after_setup_is_a_loss_with_cards_left():
    # Capital: only Moons/Suns cards of high rank; resources: only low Waves/Leaves/Wyrms/Knots.
    capital = ["huntress", "bard", "pact", "diplomat", "castle"]
    resources = ["ace-of-waves", "ace-of-leaves", "ace-of-wyrms", "origin", "ace-of-knots"]
    state, _ = start(capital + resources)
    assert state.outcome is not None and state.outcome.result == "lost"
    assert state.outcome.score == 0
    assert state.deck_count > 0


# -- a play -----------------------------------------------------------------------------------


def test_a_play_needs_shared_suits_and_enough_rank():
    state, _ = start(CAPITAL + RESOURCES)
    # Castle (7, Suns/Knots): Mountain 4 (Suns) + Discovery 5 (Suns) = 9, they need not share with each other.
    assert "control castle with mountain+discovery" in keys(state)
    assert "control castle with discovery+market" in keys(state)  # Suns and Knots: different suits
    assert "control castle with pact" in keys(state)  # one card of rank 9 is enough
    assert "control castle with mountain" not in keys(state)  # 4 < 7
    assert "control castle with forest+pact" not in keys(state)  # the Forest shares no suit
    assert why_refused(state, "castle", ["mountain"]) == "ranks total 4, the Castle needs 7 or more"
    assert why_refused(state, "castle", ["forest", "pact"]) == "the Forest (5) does not share a suit with the Castle"
    assert why_refused(state, "castle", []) == "controlling the Castle takes at least one resource"
    assert why_refused(state, "castle", ["desert"]) == "the Desert is not among your resources"
    assert "not in the capital or the court" in why_refused(state, "huntress", ["pact"])
    assert why_refused(state, "castle", ["pact"]) is None
    with pytest.raises(RuleError, match="needs 7 or more"):
        state.apply(GAME.parse("control castle with mountain"))
    with pytest.raises(RuleError, match="needs 7 or more"):
        control_action(state, "castle", ["mountain"])


def test_exact_rank_is_enough_and_overpaying_is_legal():
    capital = ["sea", "author", "castle", "journey", "ace-of-moons"]
    state, _ = start(capital + ["desert", "discovery", "forest", "pact", "market"])
    # Castle (7, Suns/Knots): Desert 2 + Discovery 5 = 7 exactly.
    assert why_refused(state, "castle", ["desert", "discovery"]) is None
    assert "control castle with desert+discovery" in keys(state)
    assert why_refused(state, "castle", ["discovery"]) == "ranks total 5, the Castle needs 7 or more"
    # Overpaying, even with a card that adds nothing needed, is legal.
    assert "control castle with pact" in keys(state)
    assert "control castle with desert+discovery+market+pact" in keys(state)
    assert why_refused(state, "sea", ["discovery"]) == "ranks total 5, the Sea needs 10 or more"


def test_legal_actions_are_exactly_the_legal_pairs():
    state, _ = start(CAPITAL + RESOURCES)
    listed = set(keys(state))
    from itertools import combinations

    expected = set()
    for t in state.capital + state.court:
        for k in range(1, len(state.resources) + 1):
            for combo in combinations(state.resources, k):
                if why_refused(state, t, list(combo)) is None:
                    expected.add(control_action(state, t, list(combo)).key)
    assert listed == expected
    assert len(listed) == len(keys(state))  # no duplicates


def test_helpers_for_the_terminal():
    state, _ = start(CAPITAL + RESOURCES)
    assert set(state.targets()) == {"author", "castle", "desert", "ace-of-moons"}  # not the Sea (Waves only 5)
    assert eligible_resources(state, "castle") == ["mountain", "discovery", "market", "pact"]  # deck order
    assert eligible_resources(state, "sea") == ["discovery"]
    action = control_action(state, "castle", ["pact"])
    assert action.key == "control castle with pact"
    assert "Castle" in action.text and "Pact" in action.text
    # resources come in deck order whatever order they are given
    assert control_action(state, "castle", ["pact", "mountain"]).key == "control castle with mountain+pact"
    with pytest.raises(RuleError, match="does not share a suit"):
        control_action(state, "castle", ["forest"])


def test_controlled_non_personality_joins_resources_and_refill_is_capital_then_resources():
    state, source = start(CAPITAL + RESOURCES + ["journey", "cave"])
    state.apply(control_action(state, "castle", ["mountain", "discovery"]).move)
    # Before the refill: Castle is a resource now, two resources are gone.
    assert state.chance().to == "capital"
    settle(state, source)
    assert "castle" in state.resources
    assert state.capital == ["sea", "author", "desert", "ace-of-moons", "journey"]
    assert state.resources == ["forest", "pact", "market", "castle", "cave"]
    assert state.discard == ["mountain", "discovery"]


def test_controlled_personality_leaves_play_and_counts():
    state, source = start(CAPITAL + RESOURCES)
    act(state, "control author with mountain", source)
    assert state.controlled == ["author"]
    assert "author" not in state.capital and "author" not in state.to_control()
    assert "mountain" in state.discard


def test_court_personality_can_be_controlled_and_court_is_not_refilled():
    state, source = start(CAPITAL + ["mountain", "painter", "forest", "pact", "discovery", "market"] + ["cave"])
    assert state.court == ["painter"]
    act(state, "control painter with mountain", source)
    assert state.court == [] and state.controlled == ["painter"]
    assert state.capital == CAPITAL  # nothing left the capital: nothing dealt there
    assert state.resources[-1] == "cave"


FIVE = ["author", "painter", "savage", "sailor", "soldier"]
CROWDED = (["sea", "castle", "desert", "ace-of-moons", "journey"] + ["mountain"] + FIVE
           + ["forest", "pact", "discovery", "market"])


def test_refill_sends_a_personality_to_court():
    state, source = start(CROWDED + ["lunatic", "cave"])
    assert state.court == FIVE and state.resources == RESOURCES
    act(state, "control painter with mountain", source)  # four at court, one resource to deal
    assert state.court == ["author", "savage", "sailor", "soldier", "lunatic"]
    assert state.outcome is None and state.resources[-1] == "cave"


def test_sixth_court_card_during_a_refill_is_utter_loss():
    state, source = start(CROWDED + ["cave", "lunatic", "window"])
    # Castle from the capital for two resources: the capital takes the Cave, then one resource is dealt.
    state.apply(control_action(state, "castle", ["mountain", "discovery"]).move)
    settle(state, source)
    assert state.capital[-1] == "cave"
    assert state.outcome is not None and state.outcome.result == "utter loss" and state.outcome.score == 0
    assert state.court == FIVE + ["lunatic"]
    assert state.chance() is None and state.legal_actions() == []


# -- the end ----------------------------------------------------------------------------------


def test_win_ends_at_once_without_refill_and_scores_resources_left():
    # A hand-made position: the ten other personalities are already controlled.
    state, _source = start(["bard", "sea", "castle", "desert", "ace-of-moons", "pact", "mountain", "forest", "journey",
                            "cave"])
    people = [c for c in BASIC if is_personality(c) and c != "bard"]
    state.controlled = list(people)
    action = control_action(state, "bard", ["pact", "mountain"])
    state.apply(action.move)
    assert state.outcome is not None and state.outcome.result == "won"
    assert state.chance() is None  # no refill
    assert state.outcome.score == 66 + RANK["forest"] + RANK["journey"] + RANK["cave"]


def test_loss_scores_controlled_personalities():
    # After the play, nothing in the capital or court can be paid for: a loss, with cards left.
    capital = ["huntress", "bard", "diplomat", "author", "castle"]
    resources = ["mountain", "ace-of-waves", "ace-of-leaves", "ace-of-wyrms", "origin"]
    state, source = start(capital + resources + ["calamity", "ace-of-knots"])
    assert keys(state) == ["control author with mountain"]
    act(state, "control author with mountain", source)
    assert state.outcome is not None and state.outcome.result == "lost"
    assert state.outcome.score == 2
    assert state.deck_count > 0


def test_deck_running_out_play_goes_on():
    reached = 0
    for seed in range(30):
        state = GAME.new_state(STANDARD)
        source = SeededSource(str(seed), GAME, STANDARD)
        policy = REG.policy()
        while state.outcome is None:
            if (draw := state.chance()) is not None:
                state.resolve(source.resolve(draw))
            elif state.deck_count == 0:
                break
            else:
                state.apply(policy.choose(state).action.move)
        if state.outcome is None:
            reached += 1
            assert state.chance() is None and state.legal_actions()
            before = len(state.discard)
            state.apply(policy.choose(state).action.move)
            assert state.chance() is None  # nothing left to deal: play simply goes on
            assert len(state.discard) > before
    assert reached > 0


# -- the Excuse -------------------------------------------------------------------------------


def test_excuse_to_capital_moves_a_resource_into_the_capital():
    state, source = start(CAPITAL + RESOURCES + ["excuse", "cave", "journey"], EXTENDED)
    act(state, "control author with mountain")
    assert state.chance().to == "capital"
    state.resolve(source.resolve(state.chance()))  # the Excuse
    assert state.excuse_at == "capital" and state.chance() is None
    assert keys(state) == [f"move {r} to the capital" for r in ["forest", "discovery", "market", "pact"]]
    act(state, "move forest to the capital", source)
    assert "excuse" in state.discard and "forest" in state.capital
    assert len(state.capital) == 5
    assert state.resources == ["pact", "discovery", "market", "cave", "journey"]


def test_excuse_to_resources_moves_a_capital_card_and_it_is_not_replaced_until_next_refill():
    state, source = start(CAPITAL + RESOURCES + ["journey", "excuse", "cave"], EXTENDED)
    act(state, "control author with mountain")
    settle(state, source)
    assert state.excuse_at == "resources"
    assert "move sea to the resources" in keys(state)
    act(state, "move sea to the resources", source)
    assert "sea" in state.resources and len(state.capital) == 4
    assert state.resources == ["forest", "pact", "discovery", "market", "sea"]
    assert state.chance() is None and "excuse" in state.discard
    # The next refill fills the capital again first.
    act(state, "control desert with discovery")
    assert state.chance().to == "capital"


def test_excuse_moving_a_personality_sends_it_to_court():
    state, source = start(["lunatic"] + CAPITAL[1:] + RESOURCES + ["journey", "excuse", "cave"], EXTENDED)
    act(state, "control author with mountain", source)
    assert "move lunatic to the court" in keys(state)
    act(state, "move lunatic to the court", source)
    assert state.court == ["lunatic"] and "lunatic" not in state.capital


def test_excuse_with_nothing_to_move_is_just_discarded():
    # Dealt to the capital during the setup: the resources are still empty.
    state, _ = start(["excuse"] + CAPITAL + RESOURCES, EXTENDED)
    assert state.excuse_at is None and state.discard == ["excuse"]
    assert state.capital == CAPITAL and state.resources == RESOURCES


def test_excuse_move_refused_with_a_reason():
    state, source = start(CAPITAL + RESOURCES + ["excuse", "cave", "journey"], EXTENDED)
    act(state, "control author with mountain", source)
    with pytest.raises(RuleError, match="Excuse"):
        state.apply(GAME.parse("control castle with pact"))
    assert why_refused(state, "castle", ["pact"]) == "the Excuse must be dealt with first"


# -- variants' personalities ---------------------------------------------------------------


def test_extra_personalities_must_be_controlled_and_rank_ten():
    v = variants(extra_personalities="1")
    state, _source = start(["watchman"] + CAPITAL[1:] + RESOURCES, v)
    assert "watchman" in state.to_control() and RANK["watchman"] == 10
    assert "control watchman with pact" not in keys(state)  # 9 < 10
    assert "control watchman with forest+pact" in keys(state)  # Moons 5 + 9


# -- properties -----------------------------------------------------------------------------


def test_greedy_excuse_choices():
    # Dealt to the resources: bring a plain capital card in, never a personality while one is there.
    state, source = start(["lunatic"] + CAPITAL[1:] + RESOURCES + ["journey", "excuse", "cave"], EXTENDED)
    act(state, "control author with mountain", source)
    assert state.excuse_at == "resources"
    hint = AdamanGreedy().choose(state)
    assert hint.action.key in keys(state) and hint.action.key != "move lunatic to the court"
    # Dealt to the capital: some resource goes, and the hint is one of the listed moves.
    state, source = start(CAPITAL + RESOURCES + ["excuse", "cave", "journey"], EXTENDED)
    act(state, "control author with mountain", source)
    assert AdamanGreedy().choose(state).action.key in keys(state)


def test_greedy_does_not_peek_at_the_deck_order():
    opening = CAPITAL + ["mountain", "painter", "forest", "pact", "discovery", "market"]
    rest = [c for c in BASIC if c not in opening]
    hints = set()
    for seed in range(5):
        order = Stream(str(seed), "peek").shuffled(rest)
        state = settle(GAME.new_state(STANDARD), Stacked(opening + order))
        hints.add(AdamanGreedy().choose(state).action.key)
    assert len(hints) == 1


def test_greedy_hint_is_legal_and_beats_random():
    wins_or_ranks = {}
    for policy in ("greedy", "random"):
        total = 0
        for seed in range(40):
            state = GAME.new_state(STANDARD)
            source = SeededSource(str(seed), GAME, STANDARD)
            pick = Stream(str(seed), "auto")
            greedy = REG.policy("greedy")
            while state.outcome is None:
                if (draw := state.chance()) is not None:
                    state.resolve(source.resolve(draw))
                    continue
                if policy == "greedy":
                    hint = greedy.choose(state)
                    assert hint.action.key in keys(state) and hint.why
                    state.apply(hint.action.move)
                else:
                    state.apply(pick.choice(state.legal_actions()).move)
            total += sum(RANK[c] for c in state.controlled)
        wins_or_ranks[policy] = total
    assert wins_or_ranks["greedy"] > wins_or_ranks["random"] * 1.3


# -- moves as facts ---------------------------------------------------------------------------


def test_every_legal_key_parses_back_to_its_move():
    seen = set()
    for v in (STANDARD, EXTENDED):
        for seed in range(25):
            state = GAME.new_state(v)
            source = SeededSource(str(seed), GAME, v)
            pick = Stream(str(seed), "parse")
            while state.outcome is None:
                if (draw := state.chance()) is not None:
                    state.resolve(source.resolve(draw))
                    continue
                for action in state.legal_actions():
                    assert GAME.parse(action.key) == action.move and action.move.key == action.key
                    assert state.describe(action.move) == action.text
                    seen.add(type(action.move))
                state.apply(pick.choice(state.legal_actions()).move)
    assert seen == {Control, Shift}  # the Excuse's moves were met too


def test_parse_accepts_any_order_and_case_and_prints_the_log_spelling():
    move = GAME.parse("  Control CASTLE with pact+Mountain ")
    assert move == Control("castle", ("mountain", "pact"))
    assert move.key == "control castle with mountain+pact"
    assert move.facts() == {"type": "control", "key": move.key, "target": "castle", "paid": ["mountain", "pact"]}
    assert GAME.canonical("control castle with pact+mountain") == "control castle with mountain+pact"
    assert GAME.canonical("take the castle") == "take the castle"  # no move: left as typed
    assert GAME.parse("move Sea to the resources") == Shift("sea", "resources")
    assert GAME.parse("move sea to the resources").key == "move sea to the resources"


@pytest.mark.parametrize(
    "key, why",
    [
        ("control castle", "is not an Adaman play"),
        ("control dragon with pact", "'dragon' is not a card"),
        ("control castle with pact+gold", "'gold' is not a card"),
        ("control castle with +", "takes at least one resource"),
        ("move sea to the moon", "not .moon."),
        ("", "is not an Adaman play"),
    ],
)
def test_parse_refuses_what_is_no_move(key, why):
    with pytest.raises(RuleError, match=why):
        GAME.parse(key)


def test_an_excuse_move_is_refused_when_no_excuse_waits():
    state, _ = start(CAPITAL + RESOURCES)
    with pytest.raises(RuleError, match="only the Excuse"):
        state.apply(GAME.parse("move mountain to the capital"))
    assert isinstance(GAME.parse("move mountain to the capital"), Move)


def test_the_one_payment_enumeration():
    state, _ = start(CAPITAL + RESOURCES)
    # The legal actions are each target's payments, court first, then the capital.
    expected = [Control(t, paid).key for t in state.targets() for paid in payments(state.resources, t)]
    assert keys(state) == expected
    every = payments(state.resources, "castle")
    minimal = payments(state.resources, "castle", minimal=True)
    assert set(minimal) < set(every)
    assert ("mountain", "discovery") in minimal and ("pact",) in minimal
    assert ("mountain", "discovery", "market") in every and ("mountain", "discovery", "market") not in minimal
    for paid in minimal:  # no card of a minimal payment could be left out
        assert all(sum(RANK[r] for r in paid) - RANK[r] < RANK["castle"] for r in paid)
    assert payments(state.resources, "sea") == []


# -- outcome causes ---------------------------------------------------------------------------


def test_each_ending_has_its_cause():
    assert set(GAME.causes) == {"all-controlled", "stalled", "court-full", "abandoned"}
    people = ["author", "painter", "savage", "sailor", "soldier", "lunatic"]
    state, _ = start(["sea", "castle", "desert", "ace-of-moons", "mountain", "forest"] + people)
    assert (state.outcome.result, state.outcome.cause) == ("utter loss", "court-full")
    capital = ["huntress", "bard", "pact", "diplomat", "castle"]
    state, _ = start(capital + ["ace-of-waves", "ace-of-leaves", "ace-of-wyrms", "origin", "ace-of-knots"])
    assert (state.outcome.result, state.outcome.cause) == ("lost", "stalled")
    state, _ = start(["bard", "sea", "castle", "desert", "ace-of-moons", "pact", "mountain", "forest", "journey",
                      "cave"])
    state.controlled = [c for c in BASIC if is_personality(c) and c != "bard"]
    state.apply(GAME.parse("control bard with mountain+pact"))
    assert (state.outcome.result, state.outcome.cause) == ("won", "all-controlled")


# -- the policy -------------------------------------------------------------------------------


def _greedy_game(policy, seed: str, v=STANDARD) -> list[str]:
    """The keys the policy plays in one seeded game."""
    state = GAME.new_state(v)
    source = SeededSource(seed, GAME, v)
    played = []
    while state.outcome is None:
        if (draw := state.chance()) is not None:
            state.resolve(source.resolve(draw))
            continue
        action = policy.choose(state).action
        played.append(action.key)
        state.apply(action.move)
    return played


@pytest.mark.parametrize("v", [STANDARD, EXTENDED])
def test_a_policy_keeps_nothing_from_one_game_to_the_next(v):
    used = REG.policy("greedy")
    assert REG.policy("greedy") is not used  # a new object for each game
    _greedy_game(used, "1", v)
    _greedy_game(used, "2", v)
    assert _greedy_game(used, "3", v) == _greedy_game(REG.policy("greedy"), "3", v)
    assert REG.policy("random") is None and REG.has_policy

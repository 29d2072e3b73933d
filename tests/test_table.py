"""Playing at a real table: what the player types for a card or a roll, read and checked
against the game (storyteller.play.table), and the words that tell them how to set the table up.

Each test asserts what a player would notice: the card they meant is the card found, a
card that cannot be there is refused with the reason, and the setup words name the cards
their variant uses."""

from __future__ import annotations

import random

import pytest

from storyteller import registry
from storyteller.core import decktet
from storyteller.core.cards import card, decktet_cards, piquet_cards
from storyteller.core.engine import Draw, Roll
from storyteller.games.adaman.rules import GAME as ADAMAN
from storyteller.games.carddom.rules import GAME as CARDDOM, Enter
from storyteller.games.cascades.rules import GAME as CASCADES
from storyteller.games.hexaract.rules import GAME as HEXARACT
from storyteller.play.table import (
    TableDeck,
    card_choices,
    card_name,
    check_card,
    find_card,
    parse_dice,
    setup_moments,
    setup_text,
)

PIQUET = [c.id for c in piquet_cards()]
DECKTET = [c.id for c in decktet_cards()]
BASIC = [c.id for c in decktet_cards() if c.deck == "basic"]
GAMES = {"carddom": CARDDOM, "adaman": ADAMAN, "cascades": CASCADES, "hexaract": HEXARACT}


def prompts(game: str) -> dict:
    return registry.get(game).prompt_data


def table(game: str, *specs: str) -> TableDeck:
    rules = GAMES[game]
    return TableDeck.of(rules, rules.parse_variants(list(specs)), prompts(game))


def refusal(fn, *args, **kwargs) -> str:
    with pytest.raises(ValueError) as e:
        fn(*args, **kwargs)
    return str(e.value)


# -- every card, by every name a player might type --------------------------------------------


@pytest.mark.parametrize("card_id", PIQUET)
def test_every_piquet_card_is_found_by_its_id_in_any_case(card_id):
    for text in (card_id, card_id.lower(), f"  {card_id.lower()} "):
        assert find_card(text, PIQUET) == card_id


@pytest.mark.parametrize("card_id", [c for c in PIQUET if not c.startswith("JK")])
def test_every_piquet_card_is_found_by_its_name(card_id):
    c = card(card_id)
    rank, suit = c.rank, c.suits[0]
    spellings = [
        c.name,  # "King of Hearts"
        f"the {c.name}",
        c.name.upper(),
        f"{rank} {suit}",  # "King Hearts"
        f"{rank.lower()} of {suit.lower().rstrip('s')}",  # "king of heart"
        f"{rank}-of-{suit}",
    ]
    if suit == "Clovers":
        spellings += [f"{rank} of clubs", f"{rank} of Club"]
    if rank == "10":
        spellings.append(f"ten of {suit}")
    for text in spellings:
        assert find_card(text, PIQUET) == card_id, text


@pytest.mark.parametrize("card_id", DECKTET)
def test_every_decktet_card_is_found_by_its_id_and_its_name(card_id):
    name = decktet.name(card_id)  # "the Huntress", "the Ace of Moons"
    bare = name.removeprefix("the ")
    spellings = [card_id, card_id.upper(), name, name.upper(), bare, bare.lower(), decktet.label(card_id),
                 card_id.replace("-", " "), f"  {bare}  "]
    for text in spellings:
        assert find_card(text, DECKTET) == card_id, text


@pytest.mark.parametrize("suit", decktet.SUITS)
def test_a_decktet_ace_is_found_by_its_short_forms(suit):
    ace = f"ace-of-{suit.lower()}"
    singular = "Leaf" if suit == "Leaves" else suit[:-1]
    for text in (f"ace-{suit.lower()}", f"ace {suit}", f"Ace of {singular}", f"an ace of {suit}"):
        assert find_card(text, BASIC) == ace, text


def test_the_examples_a_player_types():
    assert find_card("kh", PIQUET) == "KH"
    assert find_card("10c", PIQUET) == "10C"
    assert find_card("king of hearts", PIQUET) == "KH"
    assert find_card("10 of clovers", PIQUET) == "10C"
    assert find_card("10 of clubs", PIQUET) == "10C"
    assert find_card("JK1", PIQUET) == "JK1"
    assert find_card("the Huntress", BASIC) == "huntress"
    assert find_card("huntress", BASIC) == "huntress"
    assert find_card("ace of moons", BASIC) == "ace-of-moons"
    assert find_card("ace-moons", BASIC) == "ace-of-moons"
    assert find_card("Chance Meeting", BASIC) == "chance-meeting"
    assert find_card("the light keeper", DECKTET) == "light-keeper"


def test_the_same_words_in_another_order_name_the_card():
    assert find_card("hearts 7", PIQUET) == "7H"
    assert find_card("Moons, Ace", BASIC) == "ace-of-moons"


def test_a_crown_is_found_by_its_suit():
    assert find_card("the Crown of Moons", BASIC) == "huntress"
    assert find_card("crown of knots", BASIC) == "windfall"


def test_part_of_a_name_is_never_taken_for_the_card():
    assert refusal(find_card, "king", PIQUET) == (
        "'king' could be the King of Clovers, the King of Hearts, the King of Spades or the King of Diamonds: "
        "name one card")
    assert refusal(find_card, "moons", BASIC) == "'moons' could be the Ace of Moons or the Huntress: name one card"
    assert refusal(find_card, "chance", BASIC) == "no card is called 'chance': did you mean the Chance Meeting?"
    assert refusal(find_card, "hearts", PIQUET) == "'hearts' could be any of 8 cards: type the whole name"


def test_what_the_completion_shows_is_read_back_as_its_card():
    for deck in (PIQUET, DECKTET):
        for shown, card_id in card_choices(deck, frozenset(deck)):
            assert find_card(shown, deck) == card_id, shown


def test_no_two_cards_share_a_name():
    """Every card is found by its own name and id even when the whole universe is the deck."""
    universe = PIQUET + DECKTET
    for card_id in universe:
        assert find_card(card_id, universe) == card_id
        assert find_card(card_name(card_id), universe) == card_id


# -- the Jokers: identical at a real table ----------------------------------------------------


def test_joker_names_whichever_joker_is_still_possible():
    both = frozenset(PIQUET)
    assert find_card("joker", PIQUET, both) == "JK1"
    assert find_card("Joker", PIQUET, both - {"JK1"}) == "JK2"
    assert find_card("a joker", PIQUET, both - {"JK2"}) == "JK1"
    # a Joker named by its log id or its colour is that Joker
    assert find_card("JK2", PIQUET, both - {"JK2"}) == "JK2"
    assert find_card("black joker", PIQUET, both) == "JK2"


def test_a_second_joker_when_both_are_out_is_refused_naming_both():
    state = CARDDOM.new_state(CARDDOM.parse_variants(["jokers=taken"]))
    state.resolve("KH")
    state.apply(Enter(1))
    state.resolve("JK1")
    draw = state.chance()
    assert draw is None  # a dead card under jokers=taken: the player chooses next
    state.apply(state.legal_actions()[0].move)  # explore
    state.resolve("JK2")
    state.apply(state.legal_actions()[0].move)
    draw = state.chance()
    assert find_card("joker", PIQUET, draw.options) == "JK1"
    why = check_card("JK1", draw.options, state.places())
    assert why == "both Jokers are already on the table, in stack 1"


def test_a_joker_named_by_id_when_only_the_other_is_left_says_so():
    options = frozenset(PIQUET) - {"JK1"}
    why = check_card("JK1", options, {"stack 2": ["JK1"]})
    assert why.startswith("the red Joker is already on the table, in stack 2")
    assert "type 'joker'" in why


# -- names that are no card, or no card of this game ------------------------------------------


def test_a_typo_is_refused_with_the_closest_name():
    assert refusal(find_card, "kingg of hearts", PIQUET) == \
        "no card is called 'kingg of hearts': did you mean the King of Hearts?"
    assert refusal(find_card, "huntres", BASIC) == "no card is called 'huntres': did you mean the Huntress?"
    assert "the Ace of Moons" in refusal(find_card, "ace of moos", BASIC)


def test_a_typo_may_suggest_several_cards():
    message = refusal(find_card, "the mil", BASIC + ["light-keeper"])
    assert message.startswith("no card is called 'the mil': did you mean the Mill")


def test_nonsense_is_refused_with_how_to_name_a_card():
    message = refusal(find_card, "xyzzy", PIQUET)
    assert message == "no card is called 'xyzzy': type its name, such as the 7 of Clovers, or its id, such as 7C"
    assert "such as the Ace of Moons" in refusal(find_card, "qqqq", BASIC)
    assert refusal(find_card, "   ", PIQUET) == "type the card you turned up, such as the 7 of Clovers or 7C"


def test_what_the_player_typed_is_shown_clean_and_short():
    message = refusal(find_card, "\x1b[31mzz" + "z" * 200, PIQUET)
    assert "\x1b" not in message
    assert len(message) < 200


def test_a_card_of_the_other_deck_is_not_in_this_games_deck():
    assert refusal(find_card, "the Huntress", PIQUET) == "the Huntress is not in this game's deck"
    assert refusal(find_card, "king of hearts", BASIC) == "the King of Hearts is not in this game's deck"
    assert refusal(find_card, "joker", BASIC) == "there is no Joker in this game's deck"


def test_a_card_a_variant_adds_is_not_in_the_standard_deck():
    standard = table("adaman")
    assert refusal(standard.find, "the Excuse") == "the Excuse is not in the standard deck"
    assert refusal(standard.find, "consul") == "the Consul is not in the standard deck"
    assert refusal(table("adaman", "extra-personalities=1").find, "consul") == \
        "the Consul is not in this game's deck with these variants"
    assert table("adaman", "extended").find("the Excuse") == "excuse"
    assert table("adaman", "extra-personalities=3").find("consul") == "consul"
    assert refusal(table("cascades").find, "the Window") == "the Window is not in the standard deck"
    assert table("cascades", "pawns-courts").find("the Window") == "window"


def test_a_card_no_variant_uses_is_not_in_this_games_deck():
    """Cascades never uses the Excuse; Carddom never a Decktet card."""
    assert refusal(table("cascades", "pawns-courts").find, "excuse") == "the Excuse is not in this game's deck"
    assert refusal(table("carddom").find, "the mill") == "the Mill is not in this game's deck"


# -- cards that cannot be the one turned up now -----------------------------------------------


def test_a_card_already_on_the_table_is_refused_with_where_it_lies():
    state = CARDDOM.new_state(CARDDOM.parse_variants([]))
    state.resolve("KH")
    state.apply(Enter(1))
    state.resolve("7H")
    state.apply(state.legal_actions()[0].move)  # explore: the people of stack 1
    draw = state.chance()
    assert check_card("7H", draw.options, state.places()) == "the 7 of Hearts is already on the table, in stack 1"
    assert check_card("KH", draw.options, state.places()) == \
        "the King of Hearts is already on the table, as the character"
    assert check_card("8H", draw.options, state.places()) is None


def test_places_are_named_in_the_games_words():
    for place, words in [
        ("court", "in the court"), ("capital", "in the capital"), ("tier 2", "in tier 2"),
        ("reserve 1", "in reserve 1"), ("discard", "in the discard pile"), ("taken", "among the cards taken"),
        ("ace rewards", "among the ace rewards"), ("journey", "in the journey"), ("waste", "in the waste"),
    ]:
        assert check_card("mill", frozenset(), {place: ["mill"]}) == f"the Mill is already on the table, {words}"


def test_an_ace_is_refused_for_the_journey_deck_and_a_journey_card_for_the_aces():
    t = table("hexaract")
    journey = Draw(0, 0, "journey 1", frozenset(t.piles["deck"]), pile="deck")
    aces = Draw(0, 0, "ace token", frozenset(t.piles["aces"]), pile="aces")
    assert t.check("ace-of-moons", journey, {}) == \
        "the Ace of Moons is one of the Aces set apart, not in the journey deck"
    assert t.check("mill", aces, {}) == "the Mill is in the journey deck, not one of the Aces set apart"
    assert t.check("mill", journey, {}) is None
    with pytest.raises(ValueError, match="one of the Aces set apart"):
        t.read("ace of moons", journey, {})


def test_a_card_not_among_the_options_for_no_other_reason_is_refused():
    assert check_card("mill", frozenset({"sea"}), {}) == "the Mill cannot be the card turned up now"


def test_read_finds_and_checks_in_one_call():
    t = table("carddom")
    draw = Draw(0, 0, "character", frozenset(PIQUET) - {"KH"})
    assert t.read("jack of spades", draw, {}) == "JS"
    assert refusal(t.read, "king of hearts", draw, {"stack 3": ["KH"]}) == \
        "the King of Hearts is already on the table, in stack 3"
    assert refusal(t.read, "kingg of hearts", draw, {}).startswith("no card is called")


# -- completion -------------------------------------------------------------------------------


def test_choices_are_the_possible_cards_in_deck_order_names_first():
    options = frozenset({"KH", "7C", "JK2"})
    assert card_choices(PIQUET, options) == [
        ("the 7 of Clovers (7C)", "7C"), ("the King of Hearts (KH)", "KH"), ("the black Joker (JK2)", "JK2"),
    ]
    assert card_choices(BASIC, frozenset({"huntress", "ace-of-moons"})) == [
        ("the Ace of Moons", "ace-of-moons"), ("the Huntress (Crown, Moons)", "huntress"),  # an Ace's name says it all
    ]
    assert table("adaman", "extended").choices(frozenset({"excuse"})) == [("the Excuse", "excuse")]


# -- the deck each game puts on the table -----------------------------------------------------


@pytest.mark.parametrize("game, specs, size", [
    ("carddom", [], 34), ("adaman", [], 36), ("adaman", ["extended"], 45),
    ("adaman", ["extra-personalities=2"], 38), ("cascades", [], 36), ("cascades", ["pawns-courts"], 44),
    ("hexaract", [], 36),
])
def test_the_table_holds_the_cards_the_variant_uses(game, specs, size):
    t = table(game, *specs)
    assert len(t.cards) == size
    assert t.standard == (not specs)
    rules = GAMES[game]
    variants = rules.parse_variants(specs)
    assert set(t.cards) == {c for pile in rules.piles for c in rules.deck(variants, pile)}


def test_hexaracts_table_keeps_the_aces_apart():
    t = table("hexaract")
    assert sorted(t.piles) == ["aces", "deck"]
    assert len(t.piles["aces"]) == 6 and len(t.piles["deck"]) == 30


def test_a_game_storyteller_does_not_know_the_cards_of_still_works():
    """A plugin game's cards are found by their ids."""
    deck = ["gold", "key", "lamp"]
    assert find_card("Gold", deck) == "gold"
    assert card_choices(deck, frozenset({"key"})) == [("key", "key")]
    assert check_card("gold", frozenset({"key"}), {"row": ["gold"]}) == "gold is already on the table, in the row"


# -- every card of real games, read as the player would type it -------------------------------


def _play(game: str, specs: list[str], seed: int):
    """Random games with every card entered by name: the card found is the card meant, and a
    card already on the table is refused."""
    rules = GAMES[game]
    t = table(game, *specs)
    state = rules.new_state(rules.parse_variants(specs))
    chooser = random.Random(seed)
    steps = 0
    while state.outcome is None and steps < 400:
        steps += 1
        request = state.chance()
        if isinstance(request, Roll):
            dice = tuple(chooser.randint(1, request.sides) for _ in range(request.count))
            assert parse_dice(" ".join(map(str, dice)), request.count, request.sides) == dice
            assert parse_dice("".join(map(str, dice)), request.count, request.sides) == dice
            state.resolve(dice)
        elif isinstance(request, Draw):
            places = state.places()
            drawn = chooser.choice(sorted(request.options))
            for text in (card_name(drawn), card_name(drawn).upper(), drawn):
                assert t.read(text, request, places) == drawn
            pile = set(t.piles[request.pile])
            on_table = [c for cards in places.values() for c in cards if c in pile]
            if on_table:
                seen = chooser.choice(on_table)
                assert "already on the table" in refusal(t.read, card_name(seen), request, places)
            state.resolve(drawn)
        else:
            state.apply(chooser.choice(state.legal_actions()).move)


@pytest.mark.parametrize("game, specs", [
    ("carddom", []), ("carddom", ["jokers=taken", "overlord=anywhere"]), ("adaman", []), ("adaman", ["extended"]),
    ("adaman", ["extra-personalities=3"]), ("cascades", []), ("cascades", ["pawns-courts"]), ("hexaract", []),
])
def test_random_games_read_every_card_as_typed(game, specs):
    for seed in range(6):
        _play(game, specs, seed)


# -- dice -------------------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["3 5 6 1 2", "3,5,6,1,2", "35612", " 3, 5 ,6 1  2 ", "3;5;6;1;2"])
def test_dice_are_read_in_the_usual_ways(text):
    assert parse_dice(text, 5) == (3, 5, 6, 1, 2)


def test_dice_keep_their_order_and_other_dice_work():
    assert parse_dice("6 6 1 1 2", 5) == (6, 6, 1, 1, 2)
    assert parse_dice("4", 1) == (4,)
    assert parse_dice("12", 1, sides=20) == (12,)
    assert parse_dice("7 8", 2, sides=8) == (7, 8)
    assert parse_dice("10 12", 2, sides=12) == (10, 12)


def test_the_wrong_number_of_dice_is_refused_with_how_many():
    assert refusal(parse_dice, "3 5 6", 5) == "five dice, please: 3 were given"
    assert refusal(parse_dice, "356", 5) == "five dice, please: 3 were given"
    assert refusal(parse_dice, "3 5 6 1 2 4", 5) == "five dice, please: 6 were given"
    assert refusal(parse_dice, "3", 5) == "five dice, please: 1 was given"
    assert refusal(parse_dice, "3 4", 1) == "one die, please: 2 were given"


def test_a_value_no_die_shows_is_refused():
    assert refusal(parse_dice, "3 5 7 1 2", 5) == "a die shows 1 to 6, not 7"
    assert refusal(parse_dice, "35712", 5) == "a die shows 1 to 6, not 7"
    assert refusal(parse_dice, "0 5 6 1 2", 5) == "a die shows 1 to 6, not 0"
    assert refusal(parse_dice, "10", 1) == "a die shows 1 to 6, not 10"
    assert refusal(parse_dice, "9 1", 2, sides=8) == "a die shows 1 to 8, not 9"


def test_anything_else_is_refused_with_what_to_type():
    assert refusal(parse_dice, "", 5) == "type the five dice you rolled, such as 3 5 6 1 2"
    assert refusal(parse_dice, "3 five 6 1 2", 5) == \
        "'five' is not a die: type the five dice as numbers, such as 3 5 6 1 2"
    assert refusal(parse_dice, "3 -5 6 1 2", 5).startswith("'-5' is not a die")
    assert refusal(parse_dice, "3 ² 6 1 2", 5).startswith("'²' is not a die")
    assert refusal(parse_dice, "3 5.5 6 1 2", 5).startswith("'5.5' is not a die")


# -- setup words ------------------------------------------------------------------------------


def _all_variants(game: str):
    rules = GAMES[game]
    out = [rules.parse_variants([])]
    for v in rules.variants:
        for choice in v.choices[1:]:
            spec = v.name if v.flag else f"{v.name}={choice}"
            out.append(rules.parse_variants([spec]))
    return out


@pytest.mark.parametrize("game", GAMES)
def test_every_game_and_variant_has_start_words(game):
    for variants in _all_variants(game):
        text = setup_text(prompts(game), "start", variants)
        assert text and len(text.split()) < 160, variants
        assert "shuffle" in text.lower()
        assert "storyteller asks" in text
        assert "{" not in text and "}" not in text


@pytest.mark.parametrize("game, moments", [
    ("carddom", ["start", "reshuffle"]), ("adaman", ["start", "refill"]),
    ("cascades", ["start", "pass", "reserve"]), ("hexaract", ["start", "roll", "refill"]),
])
def test_each_game_has_words_for_its_moments(game, moments):
    assert setup_moments(prompts(game)) == moments
    for variants in _all_variants(game):
        for moment in moments:
            assert setup_text(prompts(game), moment, variants)


def test_the_cards_to_use_follow_the_variant():
    p = prompts("adaman")
    standard = setup_text(p, "start", ADAMAN.parse_variants([]))
    assert "36 basic cards" in standard and "Leave the Excuse, the four Pawns and the four Courts" in standard
    assert "Excuse turns up" not in standard
    extended = setup_text(p, "start", ADAMAN.parse_variants(["extended"]))
    assert "45 cards" in extended and "Excuse turns up" in extended and "36 basic cards:" not in extended
    one = setup_text(p, "start", ADAMAN.parse_variants(["extra-personalities=1"]))
    assert "the Watchman" in one and "Light Keeper" not in one and "Leave the Excuse" not in one
    three = setup_text(p, "start", ADAMAN.parse_variants(["extra-personalities=3"]))
    assert "the Watchman, the Light Keeper and the Consul" in three
    refill = setup_text(p, "refill", ADAMAN.parse_variants([]))
    assert refill.index("capital") < refill.index("resources")
    c = prompts("cascades")
    assert "44 cards" in setup_text(c, "start", CASCADES.parse_variants(["pawns-courts"]))
    assert "44 cards" not in setup_text(c, "start", CASCADES.parse_variants([]))


def test_setup_words_say_what_stays_face_down_and_the_dice():
    carddom = setup_text(prompts("carddom"), "start", CARDDOM.parse_variants([]))
    assert "34" in carddom and "face down" in carddom and "overlord" in carddom
    assert "34" in setup_text(prompts("carddom"), "reshuffle", CARDDOM.parse_variants([]))
    cascades = setup_text(prompts("cascades"), "start", CASCADES.parse_variants([]))
    assert "face down until storyteller asks" in cascades
    assert "without shuffling" in setup_text(prompts("cascades"), "pass", CASCADES.parse_variants([]))
    hexaract = setup_text(prompts("hexaract"), "start", {})
    assert "six Aces" in hexaract and "five six-sided dice" in hexaract
    assert "A 6 is wild" in setup_text(prompts("hexaract"), "roll", {})


def test_setup_text_shapes():
    p = {"setup": {
        "start": ["Always.", {"text": "Only extended.", "when": {"extended": "on"}},
                  {"text": "One or two.", "when": {"extra": ["1", "2"], "extended": "off"}}],
        "plain": "Just this.",
        "piles": {"deck": "in the deck"},
    }}
    assert setup_text(p, "start", {"extended": "on", "extra": "0"}) == "Always.\nOnly extended."
    assert setup_text(p, "start", {"extended": "off", "extra": "2"}) == "Always.\nOne or two."
    assert setup_text(p, "start", {"extended": "off", "extra": "0"}) == "Always."
    assert setup_text(p, "plain", {}) == "Just this."
    assert setup_text(p, "missing", {}) is None
    assert setup_text(p, "piles", {}) is None
    assert setup_text({}, "start", {}) is None
    assert setup_moments(p) == ["start", "plain"]
    with pytest.raises(ValueError, match="variant 'extended'"):
        setup_text(p, "start", {})


def test_setup_words_are_not_the_rule_texts():
    """The project's own words: no run of twelve words from a designer's text."""
    from pathlib import Path

    rules = Path(__file__).resolve().parents[2] / "shared" / "rules"
    if not rules.exists():
        pytest.skip("the designers' rule texts are not beside this checkout")
    original = " ".join(" ".join(p.read_text(encoding="utf-8").split()) for p in rules.glob("*.txt"))
    for game in GAMES:
        for variants in _all_variants(game):
            for moment in setup_moments(prompts(game)):
                words = setup_text(prompts(game), moment, variants).split()
                runs = [" ".join(words[i:i + 12]) for i in range(len(words) - 12)]
                assert not [r for r in runs if r in original], (game, moment)


def test_pile_words_come_from_the_prompts():
    t = table("hexaract")
    assert t.pile_words == {"aces": "one of the Aces set apart", "deck": "in the journey deck"}
    plain = TableDeck.of(HEXARACT, {})
    assert plain.check("mill", Draw(0, 0, "ace token", frozenset({"ace-of-moons"}), pile="aces"), {}) == \
        "the Mill is in the deck, not in the aces pile"

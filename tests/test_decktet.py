"""The Decktet data, checked against known facts, and one way to show a card."""

from __future__ import annotations

from collections import Counter

from rich.console import Console

from storyteller.core import decktet
from storyteller.core.cards import decktet_cards
from storyteller.telling import meanings as words
from storyteller.ui.decktet import card_text


def test_the_deck_holds_45_cards_36_of_them_basic():
    assert len(decktet_cards()) == 45
    assert len(decktet.basic()) == 36


def test_eleven_basic_personalities_sum_to_66():
    people = [c for c in decktet.basic() if "personality" in c.types]
    assert len(people) == 11 and sum(c.value for c in people) == 66


def test_each_suit_is_on_ten_basic_cards():
    counts = Counter(s for c in decktet.basic() for s in c.suits)
    assert counts == dict.fromkeys(decktet.SUITS, 10)


def test_aces_have_no_type_and_three_cards_are_location_and_event():
    assert all(not c.types for c in decktet.basic() if c.rank == "Ace")
    both = {c.id for c in decktet_cards() if {"location", "event"} <= set(c.types)}
    assert both == {"origin", "market", "end"}


def test_crowns_are_rank_ten_and_ranks_run_ace_to_crown():
    assert {c.value for c in decktet.basic() if c.rank == "Crown"} == {10}
    assert sorted({c.value for c in decktet.basic()}) == list(range(1, 11))


def test_every_card_and_suit_has_a_meaning():
    for c in decktet_cards():
        assert len(words.meaning(c.id).split()) >= 5
        assert len(words.keywords(c.id)) == 3
    for suit in decktet.SUITS:
        info = words.suit_info(suit)
        assert info["theme"] and len(info["symbol"]) == 1
    assert len({words.suit_info(s)["symbol"] for s in decktet.SUITS}) == 6


def test_a_card_in_words_names_rank_and_suits():
    assert decktet.label("mill") == "the Mill (8, Waves/Leaves)"
    assert decktet.label("ace-of-moons") == "the Ace of Moons (Ace, Moons)"
    assert decktet.label("sea") == "the Sea (Crown, Waves)"
    assert decktet.label("excuse") == "the Excuse"
    assert decktet.label("watchman") == "the Watchman (Pawn, Moons/Wyrms/Knots)"
    assert decktet.label("ace-of-moons", rank="1") == "the Ace of Moons (1, Moons)"  # a game counting ranks
    assert decktet.label("castle", suits=False) == "the Castle (7)"
    assert decktet.names(["mill", "sea", "ace-of-moons"]) == "the Mill, the Sea and the Ace of Moons"


def test_card_facts_carry_no_prose():
    """Rules modules name cards through storyteller.core.decktet, which knows no story words."""
    import subprocess
    import sys

    probe = "import sys, storyteller.core.decktet; print('storyteller.core.narrative' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True).stdout.strip() == "False"


def render(text, color: bool) -> str:
    console = Console(width=80, force_terminal=color, no_color=not color, color_system="truecolor" if color else None)
    with console.capture() as cap:
        console.print(text)
    return cap.get()


def test_in_the_terminal_each_suit_has_its_colour_and_symbol_with_a_plain_fallback():
    coloured = render(card_text("mill"), True)
    assert "\x1b[" in coloured and "≈" in coloured and "❦" in coloured
    plain = render(card_text("mill", plain=True), False)
    assert plain.strip() == "the Mill (8, Waves/Leaves)"

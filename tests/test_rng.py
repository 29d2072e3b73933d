"""Seeds mean the same deal forever: golden deals pinned for a few seeds."""

from __future__ import annotations

from hypothesis import given, strategies as st

from storyteller.registry import rules as get_game
from storyteller.core.rng import Stream, fresh_seed, normalize_seed, seed_to_int
from storyteller.core.sources import SeededSource

GOLDEN = {
    "0": "10D JH AD QC 10C KH 9S 9D KC KS 8D AC AS 8H 10H 9C QS 9H AH JS JK2 JC 10S 8S JD 7H 8C QH 7S KD 7D QD 7C JK1",
    "42": "8D KS 7S KH JS 10C 9H 10D 10H JD QD 7D KC 9S 7H AD QC 8S AC 9D 10S 8C 9C QS 7C AS JC JK2 8H QH AH KD JK1 JH",
    "pine-owl-7": "9H 7S 9C AS 9S QH JK2 10C 10H JK1 JC 10D 8H JH 10S 7C AD 7H 8S 8D 7D JS KC 8C KD QS AC QD AH KH JD "
                  "QC KS 9D",
}


def test_golden_carddom_deals():
    game = get_game("carddom")
    variants = game.parse_variants([])
    for seed, deal in GOLDEN.items():
        assert SeededSource(seed, game, variants).deal(0) == deal.split(), seed


def test_seed_42_means_this_table():
    """Seed 42: you are the 8 of Diamonds; stack 1 holds the King of Spades, 7 of Spades,
    King of Hearts and Jack of Spades; the overlord is the Jack of Hearts."""
    game = get_game("carddom")
    deal = SeededSource("42", game, game.parse_variants([])).deal(0)
    assert deal[0] == "8D" and deal[1:5] == ["KS", "7S", "KH", "JS"] and deal[33] == "JH"


def test_a_seed_is_text_hashed_with_what_its_stream_is_for():
    assert seed_to_int("pine-owl-7") == 81909094097120646402915398930965197584
    assert seed_to_int("42", "deal", "0") != seed_to_int("042", "deal", "0")  # digits are text too
    assert seed_to_int("42", "deal", "0") != seed_to_int("42", "deal", "1")
    game = get_game("carddom")
    variants = game.parse_variants([])
    assert SeededSource("42", game, variants).deal(0) != SeededSource("042", game, variants).deal(0)


def test_dice_are_stable():
    stream = Stream("42", "roll", "0")
    assert [stream.die() for _ in range(10)] == [2, 1, 5, 5, 4, 1, 6, 1, 5, 6]


@given(st.text(min_size=1, max_size=30).filter(
    lambda s: s.strip() and all(ord(c) >= 32 and not 127 <= ord(c) < 160 for c in s)))
def test_any_text_is_a_seed_and_shuffles_are_permutations(seed):
    text = normalize_seed(seed)
    deck = list(range(34))
    assert sorted(Stream(text, "deal", "0").shuffled(deck)) == deck


def test_fresh_seeds_are_readable():
    seed = fresh_seed()
    assert normalize_seed(seed) == seed and seed.count("-") == 2

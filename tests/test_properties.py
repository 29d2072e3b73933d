"""Random legal play over many seeds, for every game: each card always in exactly one
place, the game always ends, and the log replays to the same game."""

from __future__ import annotations

import pytest

from storyteller.engine import Draw
from storyteller.registry import names as game_names, rules as get_game
from storyteller.log import read
from storyteller.rng import Stream
from storyteller.session import SeededSource, Session, walk

SEEDS = [str(n) for n in range(300)]
MAX_STEPS = 5000


def variant_sets(game):
    yield game.parse_variants([])
    for v in game.variants:
        for choice in v.choices[1:]:
            try:
                yield game.parse_variants([v.name if v.flag else f"{v.name}={choice}"])
            except ValueError:
                continue


def check_places(game, variants, state):
    places = state.places()
    seen = [c for cards in places.values() for c in cards]
    assert len(seen) == len(set(seen)), f"a card is in two places: {places}"
    every = set()
    for pile in game.piles:
        every |= set(game.deck(variants, pile))
    assert set(seen) <= every, f"cards from outside the game: {set(seen) - every}"
    request = state.chance()
    if isinstance(request, Draw):
        assert request.options, "a draw with no card left to draw"
        assert not (request.options & set(seen)), "a card already on the table could be drawn again"


@pytest.mark.parametrize("name", game_names())
def test_random_play_keeps_every_card_in_one_place_and_always_ends(name):
    game = get_game(name)
    for variants in variant_sets(game):
        for seed in SEEDS[:120]:
            state = game.new_state(variants)
            source = SeededSource(seed, game, variants)
            chooser = Stream(seed, "auto")
            for _ in range(MAX_STEPS):
                if state.outcome is not None:
                    break
                request = state.chance()
                if request is not None:
                    state.resolve(source.resolve(request))
                else:
                    legal = state.legal_actions()
                    assert legal, f"{name} seed {seed}: no legal move and no outcome"
                    state.apply(chooser.choice(legal).move)
                check_places(game, variants, state)
            assert state.outcome is not None, f"{name} seed {seed}: no end within {MAX_STEPS} steps"
            assert state.legal_actions() == []


@pytest.mark.parametrize("name", game_names())
def test_a_logged_game_with_undos_replays_to_the_same_game(name, tmp_path):
    game = get_game(name)
    for seed in SEEDS[:40]:
        variants = game.parse_variants([])
        path = tmp_path / f"{seed}.jsonl"
        session = Session.new(game, variants, seed, path)
        chooser = Stream(seed, "test")
        session.advance()
        steps = 0
        while not session.over and steps < MAX_STEPS:
            steps += 1
            if session.can_undo() and chooser.below(5) == 0:
                session.undo()
                continue
            session.decide(chooser.choice(session.legal_actions()))
        session.close()
        log = read(path)
        w = walk(log)
        assert w.outcome == session.outcome
        assert w.state.places() == session.state.places()

"""What the story's pictures show (issue 29), over every example and a few seeded games of
each game, read as tests/scenes_measure.py reads them: every picture of a turning point
marks what changed, what a turn removed leaves a ghost with a word of why, a picture's
title names what changed, Carddom's path passes every move to where you are, and no cover
repeats its last scene; the same log gives the same pictures, byte for byte."""

from __future__ import annotations

import pytest
from scenes_measure import GAMES, ROOT, drawn, measure, play, walk_of

from storyteller.log.file import read

SEEDS = 6  # seeded games of each game, played by its built-in player, besides the examples


@pytest.fixture(scope="module", params=GAMES)
def game(request, tmp_path_factory):
    """(the game, its logs, the figures of its pictures)."""
    name = request.param
    folder = tmp_path_factory.mktemp(f"scenes-{name}")
    logs = [(p.name, read(p)) for p in sorted((ROOT / "examples").glob(f"{name}-*.jsonl"))]
    logs += [(f"seed {s}", play(name, str(s), folder / f"{name}-{s}.jsonl")) for s in range(SEEDS)]
    return name, logs, measure(name, logs)


def test_every_turning_point_marks_what_changed(game):
    _, logs, got = game
    n = got["counts"]
    assert n["scenes"] >= len(logs)
    assert n["marked"] == n["scenes"], got["worst"]


def test_what_a_turn_removed_leaves_a_ghost_with_a_word_of_why(game):
    name, _, got = game
    n = got["counts"]
    if name in ("adaman", "hexaract"):  # a personality won over, resources spent; cards off the road
        assert n["removals"] > 0
    assert n["ghosted"] == n["removals"], got["worst"]


def test_a_pictures_title_names_what_changed(game):
    _, _, got = game
    n = got["counts"]
    assert n["to name"] > 0 and n["named"] == n["to name"], got["worst"]


def test_no_cover_repeats_its_last_scene(game):
    _, logs, got = game
    n = got["counts"]
    assert n["stories"] == len(logs)
    assert n["covers repeated"] == 0, got["worst"]


@pytest.mark.parametrize("game", ["carddom"], indirect=True)
def test_carddoms_path_passes_every_move_returns_included(game):
    _, logs, got = game
    n = got["counts"]
    assert n["walked"] == n["walks"] > 0, got["worst"]
    returns = 0
    for _, log in logs:
        w, _, _ = drawn(log)
        walk = walk_of(w.steps, len(w.steps) - 1)
        returns += len(walk) > len(set(walk))
    assert returns  # the sample holds walks that go back


def test_the_same_log_gives_the_same_pictures(game):
    _, logs, _ = game
    for _, log in logs[:3]:
        first, again = drawn(log)[1], drawn(log)[1]
        assert first == again

"""Adaman at the prompt, from scripts and as a story."""

from __future__ import annotations

import pytest

from conftest import read_events
from helpers import play_one_move, settle
from storyteller import registry
from storyteller.core.engine import Action
from storyteller.registry import rules as get_game
from storyteller.core.sources import SeededSource

DOWN, ENTER, SPACE = "\x1b[B", "\r", " "


def first_play(seed: str):
    """A seeded Adaman deal after its setup, waiting for the first play (no session)."""
    game = get_game("adaman")
    variants = game.parse_variants([])
    return settle(game.new_state(variants), SeededSource(seed, game, variants))


def test_auto_greedy_plays_adaman_to_the_end_and_replays(cli, tmp_path):
    path = tmp_path / "a.jsonl"
    r = cli("play", "adaman", "--seed", "3", "--auto", "greedy", "--log", path)
    assert r.code == 0, r.err
    end = read_events(path)[-1]
    assert end["event"] == "end" and end["result"] in ("won", "lost", "utter loss")
    assert isinstance(end["score"], int)
    assert "Score:" in r.out
    assert cli("replay", path).code == 0


def test_an_illegal_payment_in_an_answers_file_names_the_rule(cli, tmp_path):
    state = first_play("3")
    target = state.targets()[0]
    # pay with every resource that does NOT share a suit with the target, if there is one
    from storyteller.games.adaman.rules import SUITS

    strangers = [r for r in state.resources if not SUITS[r] & SUITS[target]]
    if not strangers:
        pytest.skip("every resource shares a suit with the first target in this deal")
    answers = tmp_path / "ans.txt"
    answers.write_text(f"control {target} with {strangers[0]}\n")
    path = tmp_path / "b.jsonl"
    r = cli("play", "adaman", "--seed", "3", "--answers", answers, "--log", path)
    assert r.code == 2
    assert "does not share a suit with" in r.err
    assert not [e for e in read_events(path)[1:] if e["event"] == "decision"]


def test_resources_may_be_typed_in_any_order(cli, tmp_path):
    game = get_game("adaman")
    state = first_play("3")
    action = next(a for a in state.legal_actions() if len(a.move.paid) > 1)
    target, paid = action.move.target, action.move.paid
    answers = tmp_path / "ans.txt"
    answers.write_text(f"control {target} with {'+'.join(reversed(paid))}\nquit\n")
    r = cli("play", "adaman", "--seed", "3", "--answers", answers, "--log", tmp_path / "c.jsonl")
    assert r.code == 0, r.err
    decided = [e["action"] for e in read_events(tmp_path / "c.jsonl")[1:] if e["event"] == "decision"]
    assert decided == [action.key]
    assert game.canonical(f"control {target} with {'+'.join(reversed(paid))}") == action.key


def test_unknown_and_combined_variants(cli):
    r = cli("play", "adaman", "--variant", "extra-personalities=4", "--auto", "greedy")
    assert r.code == 2 and "0, 1, 2, 3" in r.err
    r = cli("play", "adaman", "--variant", "extended", "--variant", "extra-personalities=2", "--auto", "greedy")
    assert r.code == 2 and "do not combine" in r.err


def find_small_payment(state):
    """A target, its eligible resources, and the index of one too small to pay alone."""
    from storyteller.games.adaman.rules import RANK, eligible_resources

    for i, t in enumerate(state.targets()):
        eligible = eligible_resources(state, t)
        small = [j for j, r in enumerate(eligible) if RANK[r] < RANK[t]]
        if small and sum(RANK[r] for r in eligible) >= RANK[t]:
            return i, t, eligible, small[0]
    return None


def test_the_checkbox_validator_says_why_a_set_is_refused():
    from storyteller.games.adaman.view import validator

    state = first_play("3")
    found = find_small_payment(state)
    assert found, "seed 3 should offer a target with a too-small resource"
    _, target, eligible, small = found
    check = validator(state, target)
    message = check([eligible[small]])
    assert isinstance(message, str) and message.startswith("Refused: ranks total")
    assert check(eligible) is True
    assert check([]) is True  # nothing marked: back to the menu


@pytest.mark.timeout(20)
def test_target_then_checkbox_at_the_prompt(tmp_path):
    state = first_play("3")
    index, target, eligible, small = find_small_payment(state)
    # the target, mark the small resource only and confirm (refused, the prompt stays),
    # then 'a' marks them all and Enter confirms; Enters after that skip any journal questions
    from helpers import questions_before_first_move

    keys = ENTER * questions_before_first_move("adaman", "3")  # each personality asks one, then the start
    keys += DOWN * index + ENTER + DOWN * small + SPACE + ENTER + "a" + ENTER + ENTER * 6
    events, screen = play_one_move("adaman", "3", keys, tmp_path / "cb.jsonl", width=120)
    decided = [e for e in events if e["event"] == "decision"]
    assert len(decided) == 1
    assert decided[0]["action"] == f"control {target} with {'+'.join(eligible)}"
    assert "Court" in screen and "Resources" in screen and "Still to control" in screen


def test_the_menu_offers_one_dialog_per_target_and_the_excuse_moves_as_they_are():
    view = registry.get("adaman").view
    state = first_play("3")
    menu = view.menu(state, state.legal_actions(), None)
    assert len(menu) == len(state.targets())
    assert all(title.startswith("Control the ") and title.endswith("...") and callable(entry) for title, entry in menu)
    game = get_game("adaman")
    variants = game.parse_variants(["extended"])
    for seed in map(str, range(40)):  # a deal where the Excuse waits for a choice
        state = game.new_state(variants)
        source = SeededSource(seed, game, variants)
        policy = registry.get("adaman").policy()
        while state.outcome is None and state.excuse_at is None:
            if state.chance() is not None:
                state.resolve(source.resolve(state.chance()))
            else:
                state.apply(policy.choose(state).action.move)
        if state.excuse_at is not None:
            break
    assert state.excuse_at is not None
    legal = state.legal_actions()
    assert view.menu(state, legal, None) == [(a.text, a) for a in legal]
    assert all(isinstance(a, Action) and a.text.startswith("The Excuse: move ") for a in legal)

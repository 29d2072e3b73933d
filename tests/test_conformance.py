"""Every registered game, the built-in ones and a tiny one that lives only in the tests
(``tests/plugins/doors``, registered through its own distribution's entry point), must
keep the house rules: what a player, a log and an export rely on for any game.

Random legal play to the end over many seeds and every variant, checking at each step:
every card in exactly one place; every draw's card among its options; every action's key
parses back to the same move and its words are the state's words for it; a move is
accepted exactly when it is legal; a clone equals its original and then goes its own way;
the policy, if any, picks a legal move. Then each game is logged, replayed and exported:
both templates render valid CommonMark and the export context is plain JSON.
"""

from __future__ import annotations

import copy
import io
import json
import sys
from pathlib import Path

import pytest
from markdown_it import MarkdownIt

from helpers import variant_sets
from storyteller import registry
from storyteller.core.engine import Action, Draw, Move, RuleError
from storyteller.telling.export import render
from storyteller.telling.context import context
from storyteller.log.file import read
from storyteller.core.rng import Stream
from storyteller.core.sources import SeededSource
from storyteller.log.events import CardDrawn, DiceRolled
from storyteller.play.session import Session
from storyteller.log.replay import walk

PLUGINS = Path(__file__).resolve().parent / "plugins"
SEEDS = 30
MAX_STEPS = 3000
RESULTS = {"won", "lost", "utter loss"}


def _with_plugins(func):
    sys.path.insert(0, str(PLUGINS))
    registry.refresh()
    try:
        return func()
    finally:
        sys.path.remove(str(PLUGINS))
        registry.refresh()


GAMES = _with_plugins(lambda: list(registry.names()))


@pytest.fixture(autouse=True, scope="module")
def plugins_on_the_path():
    sys.path.insert(0, str(PLUGINS))
    registry.refresh()
    yield
    sys.path.remove(str(PLUGINS))
    registry.refresh()


def test_the_built_in_games_and_the_test_game_are_registered():
    assert set(GAMES) >= {"carddom", "adaman", "cascades", "hexaract", "doors"}
    assert registry.get("doors").rules.__module__ == "doors"  # a game from outside storyteller/


def check_places(deck: set[str], state) -> set[str]:
    places = state.places()
    seen = [c for cards in places.values() for c in cards]
    assert len(seen) == len(set(seen)), f"a card is in two places: {places}"
    assert set(seen) <= deck, f"cards from outside the game: {set(seen) - deck}"
    return set(seen)


def check_actions(game, state, foreign: dict[str, Move]) -> list[Action]:
    legal = state.legal_actions()
    keys = [a.key for a in legal]
    assert len(keys) == len(set(keys)), f"two legal actions share a key: {keys}"
    for a in legal:
        assert isinstance(a.move, Move)
        assert game.parse(a.key) == a.move, f"{a.key!r} does not parse back to its move"
        assert a.move.key == a.key
        assert state.describe(a.move) == a.text
        json.dumps(a.move.facts())
    # A move is accepted exactly when it is legal: try moves that were legal elsewhere.
    legal_moves = {a.move for a in legal}
    for move in list(foreign.values())[:12]:
        probe = state.clone()
        if move in legal_moves:
            probe.apply(move)
        else:
            with pytest.raises(RuleError):
                probe.apply(move)
    return legal


def check_clone(state, action: Action) -> None:
    twin = state.clone()
    assert type(twin) is type(state) and vars(twin) == vars(state), "a clone differs from its original"
    frozen = copy.deepcopy(vars(state))
    twin.apply(action.move)
    assert vars(state) == frozen, "playing on a clone changed its original"


@pytest.mark.parametrize("name", GAMES)
def test_random_play_keeps_the_house_rules(name):
    reg = registry.get(name)
    game = reg.rules
    teller = reg.teller
    assert not reg.problems(), reg.problems()
    for variants in variant_sets(game):
        deck = set().union(*(game.deck(variants, pile) for pile in game.piles))
        drawn: set[str] = set()
        foreign: dict[str, Move] = {}
        for seed in map(str, range(SEEDS)):
            state = game.new_state(variants)
            source = SeededSource(seed, game, variants)
            chooser = Stream(seed, "conformance")
            policy = reg.policy("greedy")
            n = 0
            for n in range(MAX_STEPS):
                if state.outcome is not None:
                    break
                request = state.chance()
                if request is not None:
                    on_table = check_places(deck, state)
                    outcome = source.resolve(request)
                    if isinstance(request, Draw):
                        # A card can be any card of its pile that is not on the table yet.
                        assert request.options == set(game.deck(variants, request.pile)) - on_table
                        assert outcome in request.options, \
                            f"{name} seed {seed}: the seed deals a card the rules do not allow"
                        event = CardDrawn(n + 1, card=outcome, to=request.to, deal=request.deal, slot=request.slot)
                        drawn.add(outcome)
                    else:
                        event = DiceRolled(n + 1, dice=tuple(outcome), index=request.index)
                    assert teller.draw_text(event) and teller.meaning(event, seed, variants)
                    teller.question(event, seed)
                    state.resolve(outcome)
                    continue
                legal = check_actions(game, state, foreign)
                assert legal, f"{name} seed {seed}: no legal move and no outcome"
                if policy is not None and n % 3 == 0:
                    hint = policy.choose(state)
                    assert hint is not None and hint.action in legal and hint.why
                action = chooser.choice(legal)
                if n % 5 == 0:
                    check_clone(state, action)
                foreign.setdefault(action.key, action.move)
                state.apply(action.move)
            check_places(deck, state)
            assert state.outcome is not None, f"{name} seed {seed}: no end within {MAX_STEPS} steps"
            assert state.outcome.result in RESULTS
            assert state.outcome.cause in game.causes, f"{name}: the cause {state.outcome.cause!r} is not in causes"
            assert state.legal_actions() == []
        assert drawn == deck, f"{name}: random play never drew {deck - drawn}: are its words ever checked?"


@pytest.mark.parametrize("name", GAMES)
def test_the_same_seed_and_choices_make_the_same_game(name):
    game = registry.rules(name)
    variants = game.parse_variants([])

    def trail(seed: str) -> list:
        state, source = game.new_state(variants), SeededSource(seed, game, variants)
        chooser, out = Stream(seed, "x"), []
        while state.outcome is None:
            if (request := state.chance()) is not None:
                out.append(source.resolve(request))
                state.resolve(out[-1])
            else:
                out.append(chooser.choice(state.legal_actions()).key)
                state.apply(game.parse(out[-1]))
        return out + [state.outcome, state.places()]

    for seed in ("0", "1", "2"):
        assert trail(seed) == trail(seed)


@pytest.mark.parametrize("name", GAMES)
def test_a_policy_remembers_nothing_from_one_game_to_the_next(name):
    game = registry.rules(name)
    if not registry.get(name).has_policy:
        pytest.skip(f"{name} has no policy")
    variants = game.parse_variants([])

    def play(seed: str, policy, fresh=None) -> list[str]:
        state, source, out = game.new_state(variants), SeededSource(seed, game, variants), []
        while state.outcome is None:
            if (request := state.chance()) is not None:
                state.resolve(source.resolve(request))
                continue
            hint = policy.choose(state)
            if fresh is not None:
                assert fresh.choose(state) == hint, f"{name}: a used policy chose otherwise than a fresh one"
            out.append(hint.action.key)
            state.apply(hint.action.move)
        return out

    reg = registry.get(name)
    used = reg.policy()
    play("7", used)
    assert play("8", used, fresh=reg.policy()) == play("8", reg.policy())
    assert reg.policy() is not reg.policy()


@pytest.mark.parametrize("name", GAMES)
def test_a_logged_game_replays_and_renders_valid_commonmark(name, tmp_path):
    reg = registry.get(name)
    game = reg.rules
    md = MarkdownIt("commonmark")
    for seed in ("1", "2", "3"):
        variants = game.parse_variants([])
        path = tmp_path / f"{name}-{seed}.jsonl"
        session = Session.new(game, variants, seed, path)
        chooser = Stream(seed, "with undos")
        session.advance()
        while not session.over:
            if session.can_undo() and chooser.below(5) == 0:
                session.undo()
            else:
                session.decide(chooser.choice(session.legal_actions()))
        session.journal("A last word, with *stars* and <tags>.")
        session.close()
        log = read(path)
        w = walk(log)
        assert w.outcome == session.outcome and w.state.places() == session.state.places()
        assert w.decisions == session.decisions == len(session.history)
        ctx = context(log)
        assert json.loads(json.dumps(ctx)) == ctx, "the export context is not plain JSON"
        assert ctx["version"] == 2 and ctx["outcome"]["cause"] in game.causes
        for kind in ("story", "playthrough"):
            text = render(log, kind)
            assert text.startswith("---\n") and "\n# " in text
            assert "None" not in text.replace("Nonetheless", "")
            tokens = md.parse(text)
            assert any(t.type == "heading_open" for t in tokens)
            # the player's words read as typed, not as emphasis and HTML
            assert "<p>A last word, with *stars* and &lt;tags&gt;.</p>" in md.render(text)


@pytest.mark.parametrize("name", GAMES)
def test_the_view_shows_every_state_and_offers_every_move(name):
    from rich.console import Console

    from storyteller.ui.terminal import Terminal

    reg = registry.get(name)
    game = reg.rules
    term = Terminal(console=Console(file=io.StringIO(), width=120), plain=True)
    state = game.new_state(game.parse_variants([]))
    source = SeededSource("4", game, game.parse_variants([]))
    chooser = Stream("4", "view")
    while state.outcome is None:
        if (request := state.chance()) is not None:
            state.resolve(source.resolve(request))
            continue
        term.print(reg.view.table(state, term))
        legal = state.legal_actions()
        for title, entry in reg.view.menu(state, legal, term):
            assert title and ((isinstance(entry, Action) and entry in legal) or callable(entry))
        state.apply(chooser.choice(legal).move)
    term.print(reg.view.table(state, term))
    assert reg.rules_markdown().strip()


def test_a_game_from_another_package_plays_from_the_command_line(tmp_path):
    """Installed beside storyteller (here: on the path), a game is listed, played, replayed
    and exported like a built-in one."""
    import os
    import subprocess

    env = dict(os.environ, PYTHONPATH=str(PLUGINS), STORYTELLER_HOME=str(tmp_path / "home"))

    def run(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "storyteller", *args], capture_output=True, text=True,
                              env=env, timeout=60)

    listed = run("games")
    assert listed.returncode == 0 and "doors" in listed.stdout and "--variant lamp" in listed.stdout
    log = tmp_path / "doors.jsonl"
    played = run("play", "doors", "--seed", "9", "--auto", "random", "--log", str(log))
    assert played.returncode == 0, played.stderr
    assert run("replay", str(log)).returncode == 0
    story = run("export", str(log), "--story")
    assert story.returncode == 0 and "# Behind the doors" in story.stdout
    assert "Doors" in run("rules", "doors").stdout

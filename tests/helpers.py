"""Small helpers for rule tests: hand-built decks and scripted dice."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from storyteller.core.engine import Draw, Roll, State


class Stacked:
    """A source that deals hand-built decks: ``decks[pile][deal]`` lists card ids by slot.

    ``decks`` may also be a plain list (pile "deck", deal 0). Rolls come from ``rolls``
    in order, so a test says exactly which dice each turn sees.
    """

    def __init__(self, decks, rolls: Iterable[Sequence[int]] = ()) -> None:
        if isinstance(decks, (list, tuple)):
            decks = {"deck": [list(decks)]}
        self.decks = {pile: [list(d) for d in deals] for pile, deals in decks.items()}
        self.rolls = [tuple(r) for r in rolls]

    def resolve(self, request):
        if isinstance(request, Draw):
            deal = self.decks[request.pile][request.deal]
            return deal[request.slot]
        assert isinstance(request, Roll)
        dice = self.rolls[request.index]
        assert len(dice) == request.count
        return dice


def variant_sets(game):
    """The standard rules, then each variant's other choices one at a time (those the
    rulings allow)."""
    yield game.parse_variants([])
    for v in game.variants:
        for choice in v.choices[1:]:
            try:
                yield game.parse_variants([v.name if v.flag else f"{v.name}={choice}"])
            except ValueError:
                continue


def questions_before_first_move(game_name: str, seed: str, variants=()) -> int:
    """How many journaling questions a seeded deal asks before the first decision (each is
    a prompt the terminal shows, and Enter skips): those its opening cards raise, and the
    question before the first move."""
    from storyteller import registry
    from storyteller.core.sources import SeededSource
    from storyteller.log.events import CardDrawn, DiceRolled
    from storyteller.log.replay import Step
    from storyteller.play.questions import Asker

    reg = registry.get(game_name)
    rules = reg.rules
    chosen = rules.parse_variants(list(variants))
    state = rules.new_state(chosen)
    source = SeededSource(seed, rules, chosen)
    asker = Asker(reg.questions, seed)
    asked, n = 0, 0
    while state.chance() is not None:
        request = state.chance()
        result = source.resolve(request)
        state.resolve(result)
        n += 1
        if isinstance(request, Draw):
            event = CardDrawn(n, card=result, to=request.to, deal=request.deal, slot=request.slot)
        else:
            event = DiceRolled(n, dice=tuple(result), index=request.index)
        question = asker.ask(asker.hear(Step(event, state, revealed=event)), n + 1)
        if question is not None:
            asker.asked(question.id, question.text)
            asked += 1
            n += 1
    return asked + (asker.ask(asker.start(), n + 1) is not None)


def settle(state: State, source: Stacked) -> State:
    """Resolve every pending draw or roll from ``source``."""
    while state.outcome is None and (request := state.chance()) is not None:
        state.resolve(source.resolve(request))
    return state


def act(state: State, key: str, source: Stacked | None = None) -> State:
    """Apply the legal action with this key (failing loudly if it is not legal), then settle."""
    legal = {a.key: a for a in state.legal_actions()}
    assert key in legal, f"{key!r} is not legal; legal: {sorted(legal)}"
    state.apply(legal[key].move)
    if source is not None:
        settle(state, source)
    return state


def keys(state: State) -> list[str]:
    return [a.key for a in state.legal_actions()]


def play_one_move(game_name: str, seed: str, keys: str, path, variants=(), width: int = 140):
    """Drive the guided session through prompt_toolkit pipe input for one decision, then
    save and quit. Returns (the log's events after the header, what the screen showed)."""
    import io

    import pytest
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput
    from rich.console import Console

    from conftest import read_events
    from storyteller.ui.play import PlayerDriver
    from storyteller.registry import rules as get_game
    from storyteller.play.session import SaveAndQuit, Session
    from storyteller.ui.terminal import Terminal

    class Once(PlayerDriver):
        def choose(self, s):
            if s.decisions:
                raise SaveAndQuit()
            return super().choose(s)

    game = get_game(game_name)
    buffer = io.StringIO()
    with create_pipe_input() as pipe:
        pipe.send_text(keys)
        term = Terminal(console=Console(file=buffer, width=width, no_color=True), input=pipe, output=DummyOutput())
        session = Session.new(game, game.parse_variants(list(variants)), seed, path)
        with pytest.raises(SaveAndQuit):
            session.run(Once(term))
        session.close()
    return read_events(path)[1:], buffer.getvalue()

"""Small helpers for rule tests: hand-built decks and scripted dice."""

from __future__ import annotations

from typing import Iterable, Sequence

from storyteller.engine import Draw, Roll, State


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


def settle(state: State, source: Stacked) -> State:
    """Resolve every pending draw or roll from ``source``."""
    while state.outcome is None and (request := state.chance()) is not None:
        state.resolve(source.resolve(request))
    return state


def act(state: State, key: str, source: Stacked | None = None) -> State:
    """Apply the legal action with this key (failing loudly if it is not legal), then settle."""
    legal = {a.key: a for a in state.legal_actions()}
    assert key in legal, f"{key!r} is not legal; legal: {sorted(legal)}"
    state.apply(legal[key])
    if source is not None:
        settle(state, source)
    return state


def keys(state: State) -> list[str]:
    return [a.key for a in state.legal_actions()]

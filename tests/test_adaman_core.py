"""Adaman on bit masks (``adaman_core``) plays exactly as the rules do.

The policy and the solver look at positions through ``adaman_core``; the rules of record
are ``AdamanState``. Here both play the same games, random and greedy, in every variant,
and must agree at every step: what the table waits for, the rows, the legal moves (and the
order of the payments), the end.
"""

from __future__ import annotations

import pytest

from storyteller.games.adaman import core
from storyteller.games.adaman.rules import BASIC, GAME, Control, Shift, payments
from storyteller.games.adaman import GAME as REG
from storyteller.core.rng import Stream
from storyteller.core.sources import SeededSource

VARIANTS = [[], ["extended"], ["extra-personalities=3"]]


def waits_of(state) -> int:
    if state.outcome is not None:
        return {"won": core.WON, "lost": core.LOST, "utter loss": core.UTTER}[state.outcome.result]
    if state.excuse_at is not None:
        return core.EXCUSE_CAPITAL if state.excuse_at == "capital" else core.EXCUSE_RESOURCES
    return core.PLAY


def settle(state, source) -> None:
    while state.outcome is None and (request := state.chance()) is not None:
        state.resolve(source.resolve(request))


def as_move(t: core.Tables, waits: int, card: int, paid: int):
    if waits == core.PLAY:
        return Control(t.ids[card], tuple(t.cards(paid)))
    if waits == core.EXCUSE_CAPITAL:
        return Shift(t.ids[card], "capital")
    return Shift(t.ids[card], "court" if t.person >> card & 1 else "resources")


def play_both(seed: str, specs: list[str], chooser) -> int:
    """Play one game with the rules and the core side by side; return the result."""
    v = GAME.parse_variants(specs)
    source = SeededSource(seed, GAME, v)
    state = GAME.new_state(v)
    t = core.tables(state.deck)
    d = core.Deal(t, [t.index[c] for c in source.deal(0)])
    pos = d.deal(0, 0, 0, 0, core.CAPITAL)
    settle(state, source)
    while True:
        mine = (waits_of(state), state.drawn, t.mask(state.capital), t.mask(state.resources), t.mask(state.court))
        assert pos == mine, f"seed {seed} {specs}: the core has {pos}, the rules {mine}"
        if state.outcome is not None:
            return pos[0]
        legal = state.moves()
        moves = d.moves(pos[0], *pos[2:])
        by_move = {as_move(t, pos[0], c, p): (c, p) for c, p in moves}
        assert set(by_move) == set(legal), f"seed {seed}: the core's moves differ from the rules'"
        if pos[0] == core.PLAY:  # and each target's payments come in the rules' order
            for target in {m.target for m in legal}:
                c = t.index[target]
                assert [t.cards(p) for p in t.payments(pos[3], c)] == [list(p)
                                                                       for p in payments(state.resources, target)]
        move = chooser(state, legal)
        state.apply(move)
        settle(state, source)
        c, p = by_move[move]
        pos = d.play(*pos[1:], c, p) if pos[0] == core.PLAY else d.shift(pos[0], *pos[1:], c)


@pytest.mark.parametrize("specs", VARIANTS, ids=lambda s: "+".join(s) or "standard")
def test_random_games_agree_step_by_step(specs):
    ends = set()
    for seed in map(str, range(40)):
        pick = Stream(seed, "core agreement")
        ends.add(play_both(seed, specs, lambda state, legal, pick=pick: pick.choice(legal)))
    assert ends >= {core.LOST}


@pytest.mark.parametrize("specs", VARIANTS, ids=lambda s: "+".join(s) or "standard")
def test_greedy_games_agree_step_by_step(specs):
    ends = set()
    for seed in map(str, range(25)):
        policy = REG.policy("greedy")
        ends.add(play_both(seed, specs, lambda state, legal, policy=policy: policy.choose(state).action.move))
    if not specs or specs == ["extended"]:
        assert core.WON in ends  # the win (no refill) is met too


def test_lean_payments_leave_out_only_payments_that_keep_worse_cards():
    t = core.tables(BASIC)
    i = t.index
    res = t.mask(["mountain", "pact", "ace-of-moons", "forest"])
    every = t.payments(res, i["author"])  # the Author: rank 2, Moons/Knots
    lean = t.lean_payments(res, i["author"])
    assert set(lean) < set(every)
    # Paying with the Pact keeps the Mountain; paying with the Mountain keeps the Pact: better.
    assert t.mask(["mountain"]) in lean and t.mask(["pact"]) not in lean
    assert t.keeps_better(t.mask(["mountain"]), t.mask(["pact"]))
    assert not t.keeps_better(t.mask(["pact"]), t.mask(["mountain"]))
    # Cards that do different things are both kept: the Forest (Leaves/Moons) and the Mountain (Moons/Suns).
    assert not t.keeps_better(t.mask(["forest"]), t.mask(["mountain"]))
    assert t.mask(["forest"]) in lean and t.mask(["mountain"]) in lean
    # With the deck empty only minimal payments: never a card more than needed.
    assert all(t.total(p) - min(t.rank[c] for c in core.bits(p)) < 2 for p in t.lean_payments(res, i["author"], True))

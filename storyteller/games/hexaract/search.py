"""Hexaract's stronger, slower player (``--auto search``): the built-in player's few best
turns, each judged one turn further on, over sampled next turns.

It sees what the greedy player sees. A sample is one possible next turn: the cards that
refill the journey, drawn from the cards still to come (which a player can count), and a
roll of five dice. The samples come from a stream seeded by the table itself, so the
same table always gets the same samples and the same choice, and no sample knows the
real order of the deck or the real dice. For each of the greedy player's best few ends
of this turn, every sample is played as the greedy player would play it, and the end
whose next turn leaves the best chance of winning on average is chosen.
"""

from __future__ import annotations

import math

from storyteller.games.hexaract import core as turn
from storyteller.games.hexaract.rules import HARM_LIMIT
from storyteller.games.hexaract.players import _BIG, Evaluator, HexaractGreedy, end_of_turn, settled, unseen
from storyteller.games.hexaract.core import EVENT, KIND
from storyteller.core.rng import Stream

EMPTY = (None, None, None)


def next_turn(order: list[str], roll: tuple, position: tuple, exhausted: tuple, harm: int, weights=None) -> float:
    """The greedy player's value (log of its chance of winning) after the next turn, when
    phase 2 ends in ``position`` now, the cards to come come in ``order`` and the next
    turn rolls ``roll``."""
    journey, marks, supply, rewards = position
    if journey == EMPTY and not order:
        return _BIG if all(supply) else -_BIG
    harm = turn.harm_after(journey, exhausted, harm)
    if harm >= HARM_LIMIT:
        return -_BIG - harm
    board, marks, exhausted = turn.next_board(journey, marks, exhausted)
    events = [c for c in journey if c is not None and KIND[c] == EVENT]
    if events:
        ev = Evaluator(order, weights)
        supply = max(turn.best_payments(supply, events), key=lambda s: settled(ev, harm, board, marks, s, rewards))
    jl, ml, el = list(board), list(marks), list(exhausted)
    drawn = 0
    for place in range(3):
        if jl[place] is None and drawn < len(order):
            jl[place], ml[place], el[place] = order[drawn], 0, False
            drawn += 1
    journey, marks, exhausted = tuple(jl), tuple(ml), tuple(el)
    if journey == EMPTY and drawn == len(order):
        return _BIG if all(supply) else -_BIG
    ev = Evaluator(order[drawn:], weights)
    best = -2 * _BIG
    for end in turn.ends((journey, marks, supply, rewards), roll, 2, False):
        value = end_of_turn(ev, harm, exhausted, end)
        if value > best:
            best = value
    return best


class HexaractSearch(HexaractGreedy):
    """The greedy player's ``candidates`` best ends of phase 2, each judged over the same
    ``samples`` sampled next turns."""

    def __init__(self, candidates: int = 4, samples: int = 24, weights: dict | None = None) -> None:
        super().__init__(weights)
        self.candidates = candidates
        self.samples = samples

    def _pick(self, state, options: dict) -> tuple[float, tuple]:
        ev = Evaluator(unseen(state), self.weights)
        scored = sorted(((end_of_turn(ev, state.harm, state.exhausted, p), k, p, plan)
                         for k, (p, plan) in enumerate(options.items())), key=lambda t: (-t[0], t[1]))
        top = [t for t in scored[:self.candidates] if t[0] > -_BIG]
        if len(top) < 2:
            return scored[0][0], scored[0][3]
        cards = unseen(state)
        table = repr((state.turn, state.harm, state.journey, state.tokens, state.exhausted, state.supply,
                      state.ace_rewards, state.roll, state.used, state.spent))
        futures = []
        for k in range(self.samples):
            stream = Stream(table, "search", str(k))
            futures.append((stream.shuffled(cards), tuple(stream.die() for _ in range(5))))
        best, best_plan = None, ()
        for _value, _, position, plan in top:
            chance = 0.0
            for order, roll in futures:
                v = next_turn(order, roll, position, state.exhausted, state.harm, self.weights)
                chance += 1.0 if v >= _BIG else math.exp(max(v, -50.0))
            if best is None or chance > best + 1e-12:
                best, best_plan = chance, plan
        return best, best_plan  # type: ignore[return-value]

"""Adaman's search player: the greedy player's best plays, each tried against every order
the last few cards of the deck can come in, and scored by the share of orders that can
still be won from there (searched exactly by the solver). Slower and stronger than the
greedy; it sees only what a player sees (which cards are unseen, never their order)."""

from __future__ import annotations

from itertools import permutations

import storyteller.decktet as decktet
from storyteller.engine import Action, Hint
from storyteller.games.adaman import core
from storyteller.games.adaman.players import AdamanGreedy, best_play, endgame
from storyteller.games.adaman.rules import AdamanState, Control
from storyteller.games.adaman.solver import AdamanSolver


class AdamanSearch(AdamanGreedy):
    """The greedy policy, and near the end of the deck a look at every order the last
    cards can come in: with ``depth`` cards or fewer left, each of the greedy's best plays
    is tried against every order of the unseen cards (a player knows which they are, not
    their order), and scored by the share of orders in which the game can then be won
    (with every card known from there on, searched exactly). Slower, stronger."""

    def __init__(self, weights: dict | None = None, depth: int = 3, width: int = 8, nodes: int = 2000) -> None:
        super().__init__(weights)
        self.depth = depth  # look when this many cards or fewer are left in the deck
        self.width = width  # at the greedy's best plays, this many
        self.nodes = nodes  # positions searched for each order before calling it even

    def choose(self, state: AdamanState) -> Hint | None:
        if state.result is not None or state.pending is not None or state.excuse_at is not None:
            return super().choose(state)
        left = state.deck_count
        if not 1 <= left <= self.depth:
            return super().choose(state)
        t = core.tables(state.deck)
        mask = t.mask
        cap, res, court = mask(state.capital), mask(state.resources), mask(state.court)
        seen = [t.index[c] for cards in state.places().values() for c in cards]
        unseen = t.all & ~sum(1 << c for c in seen)
        scores: list = []
        best_play(t, cap, res, court, unseen, self.weights, scores)
        scores.sort(key=lambda s: -s[0])
        deals = [core.Deal(t, seen + list(order)) for order in permutations(core.indexes(unseen))]
        best = None
        for _, c, paid in scores[: self.width]:
            won = 0.0
            for d in deals:
                nxt = d.play(state.drawn, cap, res, court, c, paid)
                if nxt[0] == core.WON:
                    won += 1.0
                elif nxt[0] == core.PLAY and nxt[1] >= d.n:
                    won += endgame(t, *nxt[2:])
                elif nxt[0] in (core.PLAY, core.EXCUSE_CAPITAL, core.EXCUSE_RESOURCES):
                    found = AdamanSolver(guided=0, relax=0).search(d, nxt, self.nodes)
                    won += 0.5 if found is None else float(found)
            share = won / len(deals)
            if best is None or share > best[0]:
                best = (share, c, paid)
            if share == 1.0:
                break
        share, c, paid = best
        move = Control(t.ids[c], tuple(t.cards(paid)))
        orders = len(deals)
        name = decktet.name(t.ids[c])
        wins = round(share * orders)
        if orders == 1:
            card = decktet.name(t.ids[next(iter(core.indexes(unseen)))])
            if wins:
                why = f"Only {card} is left in the deck, and after controlling {name} the game can still be won."
            else:
                why = f"Only {card} is left in the deck, and no play can win any more: {name} is the greedy choice."
        elif wins == orders:
            why = f"Controlling {name} can still win however the last {left} cards of the deck come."
        elif wins:
            why = (f"Controlling {name} can still win in {wins} of the {orders} orders the last {left} "
                   "cards of the deck can come in, more than any other play.")
        else:
            why = f"However the last {left} cards of the deck come, no play can win: {name} is the greedy choice."
        return Hint(Action(move, state.describe(move)), why)

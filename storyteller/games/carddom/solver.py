"""Could this Carddom deal have been won, with every card known?

With the whole deal in view, the journey reduces to a small question. Moving over a stack
already turned up reveals nothing, and turning a card up costs nothing but the risk of a
Joker, which a player who knows the deal simply avoids. So:

- a stack can be entered unless its top card is a Joker (with ``jokers=revealed``: turning
  it up would end the journey), and the stacks the player can ever stand on are those
  connected to the front row (or to where the player stands) through such stacks;
- of each of those stacks the player can turn up every card above the first Joker (all four
  with ``jokers=taken``, where a Joker is only a dead card), and take any one of them;
- the game is won by facing an overlord that is no Joker, from the back row unless
  ``overlord=anywhere``, with its rank and its suit in hand.

So the deal is winnable exactly when the overlord is no Joker, a back-row stack can be
reached (where the rules ask for one), and some hand made of one card from each reachable
stack, each card sharing a rank or a suit with what is already held, holds the overlord's
rank and suit. The last question is an exhaustive search over positions (ranks held, suits
held, stacks still free), each visited once (:class:`carddom_policy.Hands`): a card that adds
no rank or suit is never needed, so every winning game has a winning hand among them.

A "winnable" answer comes with a witness: the moves of a winning game from the state given,
which the solver plays through on a copy, with the cards revealed, before it answers.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from storyteller.core.cards import card
from storyteller.core.engine import Budget, Draw, Verdict
from storyteller.games.carddom.rules import DECK, DEPTH, LAYERS, OVERLORD_SLOT, parse, slot_of
from storyteller.games.carddom.players import (
    BACK, IDS, INDEX, NEIGHBOURS, ROW, STACKS, children, options_of, rank_of, suit_of,
)


class CarddomSolver:
    """Answers for one deal at a time; keeps nothing between deals."""

    def solve(self, state, reveal: Callable, budget: Budget) -> Verdict:
        started = time.perf_counter()
        root = state.clone()
        while root.outcome is None and (request := root.chance()) is not None:  # the character
            root.resolve(reveal(request))
        if root.outcome is not None:
            won = root.outcome.won
            return Verdict("winnable" if won else "not winnable", nodes=1, why="The game is already over.")
        unseen = DECK - root.seen

        def deal(slot: int, to: str) -> int:
            return INDEX[reveal(Draw(deal=root.deal, slot=slot, to=to, options=unseen))]

        stacks = []
        for k in range(STACKS):
            shown = [INDEX[c] for c in root.stacks[k]]
            rest = [deal(slot_of(k + 1, d + 1), f"stack {k + 1} {LAYERS[d]}") for d in range(len(shown), DEPTH)]
            stacks.append(shown + rest)
        lord = deal(OVERLORD_SLOT, "overlord")
        if lord >= 32:
            return Verdict("not winnable", nodes=1, why="The overlord is a Joker: no hand subdues it.")

        deadly = root.jokers == "revealed"
        reachable = [cards[: _first_joker(cards)] if deadly else cards for cards in stacks]
        start = [root.position - 1] if root.position is not None else [0, 1]
        region = _region(start, reachable, root.position is not None)
        if root.overlord_rule == "back-row" and not any(ROW[k] == BACK for k in region):
            return Verdict("not winnable", nodes=1, why="Every way to the back row turns up a Joker first.")
        held_r = held_s = 0
        for c in root.held():
            held_r |= 1 << rank_of(INDEX[c])
            held_s |= 1 << suit_of(INDEX[c])
        taken = {k - 1 for k in root.taken_from}
        free = sum(1 << k for k in region if k not in taken)
        options = [reachable[k] if k in region else [] for k in range(STACKS)]
        lord_name = card(IDS[lord]).name
        found = _fewest_takes(held_r, held_s, options, free, lord, budget, started)
        if found is None:
            return Verdict("unknown", nodes=budget.nodes or 0,
                           why="The search ran out of its budget before it could tell.")
        takes, searched = found
        if takes is None:
            return Verdict("not winnable", nodes=searched,
                           why="No hand the reachable stacks allow holds both the rank and the suit of the overlord, "
                               f"the {lord_name}.")
        keys = _witness(root, stacks, takes, region)
        # Play the witness through on a copy of the state given before answering.
        check = state.clone()
        for key in keys:
            while check.outcome is None and (request := check.chance()) is not None:
                check.resolve(reveal(request))
            if check.outcome is not None:
                break
            check.apply(parse(key))
        while check.outcome is None and (request := check.chance()) is not None:
            check.resolve(reveal(request))
        if check.outcome is None or not check.outcome.won:
            return Verdict("unknown", nodes=searched, why="The winning line found did not play through (a solver bug).")
        return Verdict("winnable", tuple(keys), searched,
                       why=f"Taking {len(takes)} cards gives the rank and the suit of the overlord, the {lord_name}.")


def _fewest_takes(ranks: int, suits: int, stacks, free: int, lord: int, budget: Budget, started: float):
    """The fewest takes that give a hand with the overlord's rank and suit, found breadth
    first over positions (ranks held, suits held, stacks free), each visited once: (takes,
    positions searched), (None, positions searched) when no hand does, or None when the
    budget runs out first."""
    options = options_of(stacks)
    rb, sb = 1 << rank_of(lord), 1 << suit_of(lord)
    root = (ranks, suits, free)
    came: dict = {root: None}
    layer = [root]
    while layer:
        following = []
        for position in layer:
            if position[0] & rb and position[1] & sb:
                takes = []
                while came[position] is not None:
                    position, stack, c = came[position]
                    takes.append((stack, c))
                return takes[::-1], len(came)
            for stack, c, nxt in children(options, position):
                if nxt not in came:
                    came[nxt] = (position, stack, c)
                    following.append(nxt)
            if budget.nodes is not None and len(came) > budget.nodes:
                return None
            if budget.seconds is not None and time.perf_counter() - started > budget.seconds:
                return None
        layer = following
    return None, len(came)


def _first_joker(cards: list[int]) -> int:
    for d, c in enumerate(cards):
        if c >= 32:
            return d
    return len(cards)


def _region(start: list[int], reachable: list[list[int]], inside: bool) -> list[int]:
    """The stacks the player can stand on: from ``start`` (the front row, or the stack the
    player is at), through stacks whose top can be turned up safely."""
    region = [k for k in start if inside or reachable[k]]
    for here in region:
        for n in NEIGHBOURS[here]:
            if n not in region and reachable[n]:
                region.append(n)
    return sorted(region)


def _witness(root, stacks: list[list[int]], takes: list[tuple[int, int]], region: list[int]) -> list[str]:
    """The keys of a winning game from ``root``: walk to each card and turn it up, take the
    cards in order, then face the overlord (from the back row where the rules ask).
    Walking stays inside ``region``, where every stack is safe to enter."""
    keys: list[str] = []
    here = None if root.position is None else root.position - 1
    depth = [len(cards) for cards in root.stacks]
    inside = set(region)

    def walk(to: int) -> None:
        nonlocal here
        if here is None:
            here = to if ROW[to] == 0 else min(k for k in region if ROW[k] == 0)
            keys.append(f"enter {here + 1}")
            depth[here] = max(depth[here], 1)
        back = {here: here}
        queue = [here]
        for k in queue:
            for n in NEIGHBOURS[k]:
                if n in inside and n not in back:
                    back[n] = k
                    queue.append(n)
        path = []
        k = to
        while k != here:
            path.append(k)
            k = back[k]
        for k in reversed(path):
            keys.append(f"move {k + 1}")
            depth[k] = max(depth[k], 1)
        here = to

    for stack, c in takes:
        walk(stack)
        while depth[stack] <= stacks[stack].index(c):
            keys.append("explore")
            depth[stack] += 1
        keys.append(f"take {IDS[c]}")
    if root.overlord_rule == "back-row" and (here is None or ROW[here] != BACK):
        walk(min(k for k in region if ROW[k] == BACK))
    keys.append("face")
    return keys

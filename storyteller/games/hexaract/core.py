"""Hexaract's turns in a compact form, for the built-in player and the solver.

The rules live in :mod:`storyteller.games.hexaract.rules`. This module only lists, fast, every
place a turn's phase 2 can end (which couplets go where, which token is spent, which
suits and ace rewards are taken) and what the consequences then do, over plain tuples:
the player's search and the solver try thousands of them a game, where cloning the
rules' state for each would be too slow. ``tests/test_hexaract_turn.py`` checks, over
many random positions, that it reaches exactly the ends the rules' own moves reach and
that the moves it names are legal and lead there.

A *position* in phase 2 is ``(journey, marks, supply, rewards)``: the card id (or None)
at each journey place, a bitmask of the suits placed on each location, the personal
supply as six counts (in :data:`SUITS` order), and the face-up ace rewards.
"""

from __future__ import annotations

from storyteller.games.hexaract import rules
from storyteller.games.hexaract.rules import ACES, DECK, DICE, HARM_LIMIT, MAX_COUPLETS, SUITS

PERSONALITY, LOCATION, EVENT = 0, 1, 2
_SI = {s: i for i, s in enumerate(SUITS)}
KIND = {c: (PERSONALITY, LOCATION, EVENT)[("personality", "location", "event").index(rules.kind_of(c))] for c in DECK}
RANK = {c: rules.rank_of(c) for c in DECK}
SUIT_INDICES = {c: tuple(_SI[s] for s in rules.suits_of(c)) for c in DECK}
MASK = {c: sum(1 << i for i in SUIT_INDICES[c]) for c in DECK}
CROWN = {c: rules.is_crown(c) for c in DECK}
ACE_SUIT = {a: _SI[rules.ace_suit(a)] for a in ACES}
NEED = {c: len(SUIT_INDICES[c]) if KIND[c] == LOCATION else 1 for c in DECK}  # couplets (or spends) it takes
POPCOUNT = tuple(bin(n).count("1") for n in range(64))


def reach(a: int, b: int) -> frozenset[int]:
    """The ranks a couplet of dice a >= b can make (a 6 is any of 1-5)."""
    return frozenset(r for r in range(2, 11) if rules.couplet_values(a, b, r) is not None)


_REACH = {(a, b): reach(a, b) for a in range(1, 7) for b in range(1, a + 1)}
_TABLES: dict[tuple, tuple[dict, dict]] = {}


def dice_table(free: tuple[int, ...], couplets_left: int) -> tuple[dict, dict]:
    """For the free dice (in any order): ``singles`` maps each rank one couplet can make
    to a couplet (high die first) that makes it; ``doubles`` maps each pair of ranks
    (r1, r2) two disjoint couplets can make to such couplets, in that order."""
    key = (tuple(sorted(free, reverse=True)), min(couplets_left, MAX_COUPLETS))
    found = _TABLES.get(key)
    if found is not None:
        return found
    dice, left = key
    singles: dict[int, tuple[int, int]] = {}
    doubles: dict[tuple[int, int], tuple[tuple[int, int], tuple[int, int]]] = {}
    if left > 0:
        n = len(dice)
        for i in range(n):
            for j in range(i + 1, n):
                first = (dice[i], dice[j])
                for r in _REACH[first]:
                    singles.setdefault(r, first)
                if left < 2:
                    continue
                rest = [dice[k] for k in range(n) if k != i and k != j]
                for x in range(len(rest)):
                    for y in range(x + 1, len(rest)):
                        second = (rest[x], rest[y])
                        for r1 in _REACH[first]:
                            for r2 in _REACH[second]:
                                doubles.setdefault((r1, r2), (first, second))
    _TABLES[key] = (singles, doubles)
    return singles, doubles


# -- one step of phase 2 ------------------------------------------------------------------


def _put(items: tuple, index: int, value) -> tuple:
    return items[:index] + (value,) + items[index + 1:]


def steps(position: tuple, spend: bool, noace: bool = False) -> list[tuple]:
    """Every way one couplet (``spend`` False; the rank is checked by the caller) or the
    turn's spend (``spend`` True) can go, as ``(place, suit, ace, position after)``.
    ``ace`` is the reward taken when a Crown is done (None: none); ``noace`` also lists
    a Crown personality declining one (the player never needs to: a token is never worse)."""
    journey, marks, supply, rewards = position
    out: list[tuple] = []
    lacking: list[int] | tuple[int, ...]
    for place in range(3):
        card = journey[place]
        if card is None:
            continue
        kind = KIND[card]
        if kind == LOCATION:
            mark = marks[place]
            lacking = [i for i in SUIT_INDICES[card] if not mark >> i & 1]
            done = len(lacking) == 1
        elif spend:
            continue
        else:
            lacking = SUIT_INDICES[card]
            done = True
        for suit in lacking:
            if spend and supply[suit] == 0:
                continue
            got = supply
            if spend:
                got = _put(got, suit, got[suit] - 1)
            if kind != LOCATION:
                got = _put(got, suit, got[suit] + 1)
            if not done:
                out.append((place, suit, None, (journey, _put(marks, place, mark | 1 << suit), got, rewards)))
                continue
            left = _put(journey, place, None)
            cleared = _put(marks, place, 0)
            if CROWN[card] and rewards:
                for ace in rewards:
                    a = ACE_SUIT[ace]
                    more = _put(got, a, got[a] + 1)
                    out.append((place, suit, ace, (left, cleared, more, tuple(r for r in rewards if r != ace))))
                if noace and kind == PERSONALITY:
                    out.append((place, suit, rules.NO_ACE, (left, cleared, got, rewards)))
            else:
                out.append((place, suit, None, (left, cleared, got, rewards)))
    return out


def ends(position: tuple, free: tuple[int, ...], couplets_left: int, spent: bool, noace: bool = False) -> dict:
    """Every position phase 2 can end in from here, each with one plan that reaches it:
    a tuple of steps ``("assign", couplet, place, suit, ace)`` or ``("spend", place, suit, ace)``.

    A spend never helps a couplet (it only takes a token and may clear a card), so every
    plan can be put in the order couplets first, spend last."""
    singles, doubles = dice_table(free, couplets_left)
    found: dict[tuple, tuple] = {position: ()}
    if singles:
        for place, suit, ace, after in steps(position, False, noace):
            rank = RANK[position[0][place]]
            couplet = singles.get(rank)
            if couplet is None:
                continue
            if after not in found:
                found[after] = (("assign", couplet, place, suit, ace),)
            if not doubles:
                continue
            for place2, suit2, ace2, after2 in steps(after, False, noace):
                if place2 < place or after2 in found:
                    continue  # two couplets on different cards: either order ends the same
                pair = doubles.get((rank, RANK[after[0][place2]]))
                if pair is not None:
                    found[after2] = (("assign", pair[0], place, suit, ace), ("assign", pair[1], place2, suit2, ace2))
    if not spent:
        for where, plan in list(found.items()):
            for place, suit, ace, after in steps(where, True, noace):
                if after not in found:
                    found[after] = plan + (("spend", place, suit, ace),)
    return found


def advance(position: tuple, step: tuple) -> tuple:
    """The position after one step of a plan."""
    journey, marks, supply, rewards = position
    if step[0] == "assign":
        _, _, place, suit, ace = step
    else:
        _, place, suit, ace = step
        supply = _put(supply, suit, supply[suit] - 1)
    card = journey[place]
    if KIND[card] == LOCATION:
        mark = marks[place] | 1 << suit
        if mark != MASK[card]:
            return journey, _put(marks, place, mark), supply, rewards
    else:
        supply = _put(supply, suit, supply[suit] + 1)
    journey, marks = _put(journey, place, None), _put(marks, place, 0)
    if ace is not None and ace != rules.NO_ACE:
        a = ACE_SUIT[ace]
        supply = _put(supply, a, supply[a] + 1)
        rewards = tuple(r for r in rewards if r != ace)
    return journey, marks, supply, rewards


def without(free: tuple, couplet: tuple) -> tuple:
    """The free dice once a couplet is assigned."""
    rest = list(free)
    rest.remove(couplet[0])
    rest.remove(couplet[1])
    return tuple(rest)


# -- phase 3 and 4 ------------------------------------------------------------------------


def harm_after(journey: tuple, exhausted: tuple, harm: int) -> int:
    """The harm once the consequences strike: each personality and exhausted location."""
    for place in range(3):
        card = journey[place]
        if card is not None:
            kind = KIND[card]
            if kind == PERSONALITY or (kind == LOCATION and exhausted[place]):
                harm += 1
    return harm


def payments(supply: tuple, events: list[str]) -> set[tuple]:
    """Every supply the events still there can leave, over every order the player may
    pay them in and every suit: an event that finds no token of its suits when its turn
    comes takes nothing, so the order matters."""
    if not events:
        return {supply}
    if len(events) == 1:
        paid = {_put(supply, i, supply[i] - 1) for i in SUIT_INDICES[events[0]] if supply[i]}
        return paid or {supply}
    out: set[tuple] = set()
    for k, card in enumerate(events):
        rest = events[:k] + events[k + 1:]
        took = False
        for i in SUIT_INDICES[card]:
            if supply[i]:
                out |= payments(_put(supply, i, supply[i] - 1), rest)
                took = True
        if not took:
            out |= payments(supply, rest)
    return out


def best_payments(supply: tuple, events: list[str]) -> list[tuple]:
    """The supplies of :func:`payments` that no other leaves worse off in every suit (a
    token more never hurts: the player who holds it can do all the other could)."""
    found = payments(supply, events)
    if len(found) == 1:
        return list(found)
    return [s for s in found if not any(t != s and all(a >= b for a, b in zip(t, s)) for t in found)]


def next_board(journey: tuple, marks: tuple, exhausted: tuple) -> tuple[tuple, tuple, tuple]:
    """Phase 4 before the refill: locations tire, exhausted events pass, fresh events tire."""
    j, m, e = list(journey), list(marks), list(exhausted)
    for place in range(3):
        card = j[place]
        if card is None:
            continue
        kind = KIND[card]
        if kind == EVENT and e[place]:
            j[place], m[place], e[place] = None, 0, False
        elif kind != PERSONALITY:
            e[place] = True
    return tuple(j), tuple(m), tuple(e)


def to_rules(plan_step: tuple, journey: tuple):
    """The rules' move for one step of a plan."""
    if plan_step[0] == "assign":
        _, couplet, place, suit, ace = plan_step
        return rules.Assign(couplet, journey[place], SUITS[suit], ace)
    _, place, suit, ace = plan_step
    return rules.Spend(SUITS[suit], journey[place], ace)


def position_of(state) -> tuple:
    """The compact phase-2 position of a rules state."""
    marks = tuple(sum(1 << _SI[s] for s in t) for t in state.tokens)
    return (state.journey, marks, state.supply, state.ace_rewards)


def free_dice(state) -> tuple[int, ...]:
    return tuple(d for d, u in zip(state.roll or (), state.used) if not u)


__all__ = [
    "ACE_SUIT", "CROWN", "DICE", "EVENT", "HARM_LIMIT", "KIND", "LOCATION", "MASK", "NEED", "PERSONALITY",
    "RANK", "SUIT_INDICES", "dice_table", "ends", "free_dice", "harm_after", "next_board", "payments",
    "position_of", "steps", "to_rules",
]

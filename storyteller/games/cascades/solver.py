"""Cascades with the cards known: a compact position and an exact depth-first search.

The search (:class:`Search`) is used twice: by the solver, with every card of the deal
revealed, and by the built-in policy, with the cards a player has seen and a guess for the
few still face down (see ``cascades_policy``). It states no rule of its own:

* Where a card may go is ``cascades.refusal``, the rules' one placing rule, asked once per
  rank for every count the rule can reach (:func:`rank_table`). What the rule says of a
  rank depends only on how many of it each tier holds, so the search keeps, for each rank,
  which of those count-states it is in; of the card at the end of a tier it keeps only
  its suits, as a bit mask, which is all the rule looks at.
* The stock and the waste are one cycle of cards in order (the waste, bottom first, then
  the stock, next card to turn first) and a pointer: how many of them are on the waste.
  Turning moves the pointer on by three (by what is left at the end of a pass), and the
  waste turned over is the pointer going back to 0; playing the top of the waste takes
  the card before the pointer out. A pass ends when a turn takes the stock's last card,
  and that opens the next reserve.

A step of the search is a *next play*: turn some number of times (maybe none), then play
one card. Turning alone is deterministic, so the cards a step can play are the top of the
waste after each turn of the rest of this pass and of one whole pass after that (and,
while reserves are still closed, of the passes that open them), and each reserve's top,
from the moment it is open (a reserve card played later gives the same table as played at
once and then turned to the same place). Two ways to the same card differ only in how
many reserves are open on the way, and more open is never worse, so the search keeps the
way that opens most.

Positions that lead nowhere are remembered, keyed by the placed cards (they fix which
cards are left, in which order, and how many of each number each tier holds), the
pointer, the reserves open, the suits at the end of each tier and the count-states of the
ranks whose counts do not fix them (Aces and Crowns). A position is given up at once when
some tier lacks cards and none of the cards left that it lacks shares a suit with its end:
a tier's end changes only by playing on it, so that tier can never grow.

The plays are tried cards with fewer suits first (an Ace or a Crown leaves one suit to
follow, so it is best placed while followers abound), then lower tiers, then reserve
cards, then nearer cards. A try that runs out of its share of the budget starts again with
that order shuffled a little (many small tries find a way far more often than one long
one), keeping what every try learnt: the positions that lead nowhere. A try that ends
without running out has tried everything, so "no line" is exact.

``tests/test_cascades_solver.py`` plays the search's lines on the real rules and checks
its verdicts against a brute force over the rules' own moves.
"""

from __future__ import annotations

import hashlib
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import ClassVar

from storyteller.core.decktet import SUITS
from storyteller.core.engine import Budget, Chance, Draw, Move, Verdict
from storyteller.games.cascades.rules import (
    _FACTS, FULL, RESERVES, TIERS, TURN, CascadesState, Play, Turn, deck_ids, ranks, refusal,
)

TRY_NODES = 100  # positions the first try of a search may visit (later tries: more, see luby)
FIELD = 48  # bits per tier in the masks that hold a set of cards for each tier
_ONE = (1 << FIELD) - 1
_SUIT_BIT = {s: 1 << i for i, s in enumerate(SUITS)}


def seeded(*salt: str) -> random.Random:
    """A generator seeded with the SHA-256 of ``salt``: the same on every machine and in
    every process (never ``hash()``); only its ``random()`` is used, which Python keeps
    stable across versions."""
    return random.Random(int.from_bytes(hashlib.sha256("\x1f".join(salt).encode("utf-8")).digest()[:16], "big"))


def shuffled(items: Sequence, *salt: str) -> list:
    """A Fisher-Yates shuffle of a copy of ``items``, seeded by ``salt``."""
    draw = seeded(*salt).random
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = min(int(draw() * (i + 1)), i)
        out[i], out[j] = out[j], out[i]
    return out


def rank_table(rank: str) -> tuple[list[tuple[int, ...]], list[tuple[tuple[int, int], ...]]]:
    """Every (tier 1, tier 2, tier 3) count of ``rank`` the placing rule can reach from
    none, and for each the (tier index 0-2, next state) pairs it allows, suits aside."""
    states: list[tuple[int, ...]] = [(0, 0, 0)]
    index: dict[tuple[int, ...], int] = {(0, 0, 0): 0}
    trans: list[tuple[tuple[int, int], ...]] = []
    i = 0
    while i < len(states):
        held = states[i]
        out = []
        for t in range(1, TIERS + 1):
            if refusal(rank, t, held) is None:
                nxt = held[: t - 1] + (held[t - 1] + 1,) + held[t:]
                if nxt not in index:
                    index[nxt] = len(states)
                    states.append(nxt)
                out.append((t - 1, index[nxt]))
        trans.append(tuple(out))
        i += 1
    return states, trans


class Deck:
    """The cards of one variant as small numbers (codes), with what the search needs of
    each, worked out once."""

    _made: ClassVar[dict[bool, Deck]] = {}

    def __init__(self, pawns_courts: bool) -> None:
        self.pawns_courts = pawns_courts
        self.ids = deck_ids(pawns_courts)
        self.size = n = len(self.ids)
        self.code = {cid: i for i, cid in enumerate(self.ids)}
        self.ranks = ranks(pawns_courts)
        rank_index = {r: i for i, r in enumerate(self.ranks)}
        self.rank = [rank_index[_FACTS[c][0]] for c in self.ids]
        self.mask = [sum(_SUIT_BIT[s] for s in _FACTS[c][1]) for c in self.ids]  # suits, by code
        self.nsuits = [len(_FACTS[c][1]) for c in self.ids]
        self.cbit = [1 << i for i in range(n)]  # by code
        self.bit = {c: 1 << i for i, c in enumerate(self.ids)}  # by card id
        self.suits_of = {c: self.mask[i] for i, c in enumerate(self.ids)}  # by card id
        self.full = (1 << n) - 1
        self.rank_cards = [sum(1 << c for c in range(n) if self.rank[c] == r) for r in range(len(self.ranks))]
        self.suit_cards = [sum(1 << c for c in range(n) if self.mask[c] & m) for m in range(1 << len(SUITS))]
        tables = [rank_table(r) for r in self.ranks]
        self.states = [t[0] for t in tables]
        self.state_index = [{h: i for i, h in enumerate(t[0])} for t in tables]
        # the ranks whose count-state is not fixed by how many of them are placed (Aces, Crowns)
        self.free = [r for r, states in enumerate(self.states) if len({sum(h) for h in states}) < len(states)]
        assert len(self.free) == 2  # the Aces and the Crowns: the search's key has room for two
        self.free_index = [(self.ranks[r], self.state_index[r]) for r in self.free]  # for the policy's signature
        # For each rank and count-state: the cards of that rank, tier by tier (FIELD bits a
        # tier), where the rule lets that rank go now (suits aside), and where the tier is
        # not full of it yet.
        self.allows = []
        self.lacks = []
        for r, (rank, (states, trans)) in enumerate(zip(self.ranks, tables)):
            cards = self.rank_cards[r]
            self.allows.append([sum(cards << (FIELD * t) for t, _ in moves) for moves in trans])
            self.lacks.append([
                sum(cards << (FIELD * t) for t in range(TIERS) if refusal(rank, t + 1, held) != FULL) for held in states
            ])
        # For each rank and count-state, the plays the rule allows: (tier index, next state,
        # what changes in the cards each tier takes, what changes in the cards it lacks).
        self.moves = [
            [
                tuple((t, ns, self.allows[r][s] ^ self.allows[r][ns], self.lacks[r][s] ^ self.lacks[r][ns])
                      for t, ns in moves)
                for s, moves in enumerate(trans)
            ]
            for r, (_, trans) in enumerate(tables)
        ]
        self.card_moves = [self.moves[self.rank[c]] for c in range(n)]  # by code
        self._weights: dict[int, list[tuple[int, ...]]] = {}

    def weights(self, k: int) -> list[tuple[int, ...]]:
        """The order try ``k`` of a search tries plays in, for each card and tier (lower
        first): try 0 takes cards with fewer suits first, then lower tiers (tier 3 first);
        later tries shuffle that a little, each its own way."""
        if k not in self._weights:
            draw = seeded("cascades search", str(k)).random if k else None
            out = []
            a: float
            b: float
            for c in range(self.size):
                by_tier = []
                for t in range(TIERS):
                    a, b = self.nsuits[c], TIERS - 1 - t
                    if draw is not None:
                        a += draw()
                        b += draw()
                    by_tier.append(int(a * 10_000) + int(b * 1000))
                out.append(tuple(by_tier))
            self._weights[k] = out
        return self._weights[k]

    @classmethod
    def of(cls, pawns_courts: bool) -> Deck:
        if pawns_courts not in cls._made:
            cls._made[pawns_courts] = cls(pawns_courts)
        return cls._made[pawns_courts]


@dataclass(frozen=True)
class Step:
    """One step of a line: ``turns`` turns, then ``card`` to ``tier`` (1-3) from the waste
    (``reserve`` None) or from reserve 1-3."""

    turns: int
    card: str
    tier: int
    reserve: int | None

    def moves(self) -> list[Move]:
        return [Turn()] * self.turns + [Play(self.card, self.tier, self.reserve)]


class OutOfBudget(Exception):
    """The search ran out of its budget (nodes or seconds) before it could answer."""


class _Restart(Exception):
    """One try of the search ran out of its share of the budget: start again, another way."""


def _turns(n: int, p: int, o: int) -> tuple[tuple[tuple[int, int, int], ...], tuple]:
    """Where turning alone goes from pointer ``p`` of a cycle of ``n`` cards with ``o``
    reserves open: for each cycle index that comes to the top of the waste, (index, turns,
    reserves open then), keeping the way that opens most; and for each reserve, (turns,
    pointer) when it opens, or None if it is open already."""
    tops: dict[int, tuple[int, int]] = {}
    if p > 0:
        tops[p - 1] = (0, o)
    opens: list = [None] * RESERVES
    d, q, oo = 0, p, o
    looped: set[int] = set()
    while True:
        if q == n:
            if n == 0:
                if oo >= RESERVES:
                    break
                d += 1
                oo += 1
                opens[oo - 1] = (d, q)
                continue
            q = 0
        q = q + TURN if q + TURN < n else n
        d += 1
        if q == n and oo < RESERVES:
            oo += 1
            opens[oo - 1] = (d, q)
        prev = tops.get(q - 1)
        if prev is None or prev[1] < oo:
            tops[q - 1] = (d, oo)
        if oo == RESERVES:
            if q in looped:
                break
            looped.add(q)
    return tuple((i, d, oi) for i, (d, oi) in tops.items()), tuple(opens)


_TURNS: dict[tuple[int, int, int], tuple] = {}



def turned(n: int, p: int, o: int) -> tuple[int, int]:
    """The pointer and the reserves open after one turn (what ``_turns`` does turn by turn)."""
    if p == n:
        if n == 0:
            return p, min(o + 1, RESERVES)
        p = 0
    p = p + TURN if p + TURN < n else n
    if p == n and o < RESERVES:
        o += 1
    return p, o


class Search:
    """A position with every card in it known (or guessed) and a depth-first search for a
    line that places them all (see the module docstring).

    ``cycle`` is the waste (bottom first) then the stock (next to turn first), ``pointer``
    how many of them are on the waste, ``opened`` how many reserves are open, ``reserves``
    each pile's cards, top first, ``tiers`` the cards in each tier.
    """

    def __init__(
        self,
        deck: Deck,
        tiers: Sequence[Sequence[str]],
        cycle: Sequence[str],
        pointer: int,
        opened: int,
        reserves: Sequence[Sequence[str]],
    ) -> None:
        self.deck = deck
        code = deck.code
        self.cyc = [code[c] for c in cycle]
        self.p = pointer
        self.o = opened
        self.res = [[code[c] for c in pile] for pile in reserves]
        self.rp = [0] * RESERVES  # cards played from each reserve
        self.ends = [deck.mask[code[t[-1]]] if t else 0 for t in tiers]
        self.mask = 0  # the placed cards
        counts = [[0] * TIERS for _ in deck.ranks]
        for ti, cards in enumerate(tiers):
            for c in cards:
                self.mask |= 1 << code[c]
                counts[deck.rank[code[c]]][ti] += 1
        self.rs = [deck.state_index[r][tuple(counts[r])] for r in range(len(deck.ranks))]
        # the cards each tier may take now, suits aside
        self.allow = sum(deck.allows[r][s] for r, s in enumerate(self.rs))
        self.lack = sum(deck.lacks[r][s] for r, s in enumerate(self.rs))  # the cards of the ranks each tier lacks
        self.left = len(self.cyc) + sum(len(p) for p in self.res)
        self.free = deck.free
        self.nodes = 0
        self.tries = 0
        self.failed: set[int] = set()
        self.line: list[tuple] = []
        self.best: list[tuple] = []  # the longest line met (a search cut short still has one)
        self.weights = deck.weights(0)
        self.guessed = [len(pile) for pile in self.res]  # where each reserve's guessed cards start
        self.eager = 0  # how much sooner a play that turns up a guessed card is tried
        self.prefer: dict[int, int] = {}  # 3 * card + tier index -> its order, before any other (an earlier plan)
        self.stop = 0  # set by find before the search runs, as are the two below
        self.last = False
        self.deadline: float | None = None

    # -- the position ----------------------------------------------------------------

    def key(self) -> int:
        free = 0
        for r in self.free:
            free = free * 16 + self.rs[r]
        e = self.ends
        return self.mask | (self.p << 44) | (self.o << 50) | (e[0] << 52) | (e[1] << 58) | (e[2] << 64) | (free << 70)

    def steps(self, p: int | None = None, o: int | None = None, allow: int | None = None) -> list[tuple]:
        """Every next play, in the order the search tries them: (order, card code, (tier
        index, next rank state, change to ``allow``, change to ``lack``), source, turns,
        pointer then, reserves open then), the source being the cycle index or -1-k for
        reserve index k. The pointer, the reserves open and ``allow`` are the search's
        own unless given (inside the search they are arguments)."""
        if p is None:
            p, o, allow = self.p, self.o, self.allow
        cyc = self.cyc
        n = len(cyc)
        # o and allow are given with p (mypy cannot tell)
        known = _TURNS.get((n, p, o))  # type: ignore[arg-type]
        if known is None:
            known = _TURNS[(n, p, o)] = _turns(n, p, o)  # type: ignore[index, arg-type]
        tops, opens = known
        deck = self.deck
        card_moves, rank, rs, w = deck.card_moves, deck.rank, self.rs, self.weights
        cbit, suit_cards = deck.cbit, deck.suit_cards
        prefer = self.prefer
        e0, e1, e2 = self.ends
        a0, a1, a2 = allow & _ONE, allow >> FIELD & _ONE, allow >> 2 * FIELD  # type: ignore[operator]
        fit = (a0 & suit_cards[e0] if e0 else a0, a1 & suit_cards[e1] if e1 else a1, a2 & suit_cards[e2] if e2 else a2)
        fits = fit[0] | fit[1] | fit[2]
        out = []
        for k in range(RESERVES):
            pile = self.res[k]
            i = self.rp[k]
            if i < len(pile) and cbit[pile[i]] & fits:
                if k < o:  # type: ignore[operator]
                    dk, qk, ok = 0, p, o
                elif opens[k] is not None:
                    dk, qk = opens[k]
                    ok = k + 1
                else:
                    continue
                c = pile[i]
                b = cbit[c]
                wc = w[c]
                first = dk - self.eager if self.guessed[k] <= i + 1 < len(pile) else dk
                for mv in card_moves[c][rs[rank[c]]]:
                    t = mv[0]
                    if b & fit[t]:
                        x = prefer.get(3 * c + t) if prefer else None
                        out.append((wc[t] + first if x is None else x, c, mv, -1 - k, dk, qk, ok))
        if prefer:
            for i, d, oi in tops:
                c = cyc[i]
                b = cbit[c]
                if b & fits:
                    wc = w[c]
                    for mv in card_moves[c][rs[rank[c]]]:
                        t = mv[0]
                        if b & fit[t]:
                            x = prefer.get(3 * c + t)
                            out.append((wc[t] + 100 + d if x is None else x, c, mv, i, d, i, oi))
        else:
            for i, d, oi in tops:
                c = cyc[i]
                if cbit[c] & fits:
                    b = cbit[c]
                    wc = w[c]
                    for mv in card_moves[c][rs[rank[c]]]:
                        if b & fit[mv[0]]:
                            out.append((wc[mv[0]] + 100 + d, c, mv, i, d, i, oi))
        out.sort()
        return out

    def do(self, step: tuple) -> tuple:
        """Play one step (outside the search: the policy walks a line with it)."""
        _, c, (t, ns, ax, lx), src, _, q, oo = step
        r = self.deck.rank[c]
        undo = (self.p, self.o, self.ends[t], self.rs[r])
        if src >= 0:
            del self.cyc[src]
        else:
            self.rp[-1 - src] += 1
        self.p, self.o = q, oo
        self.ends[t] = self.deck.mask[c]
        self.rs[r] = ns
        self.allow ^= ax
        self.lack ^= lx
        self.mask ^= 1 << c
        self.left -= 1
        return undo

    def undo(self, step: tuple, undo: tuple) -> None:
        _, c, (t, _, ax, lx), src, _, _, _ = step
        self.p, self.o, self.ends[t], self.rs[self.deck.rank[c]] = undo
        if src >= 0:
            self.cyc.insert(src, c)
        else:
            self.rp[-1 - src] -= 1
        self.allow ^= ax
        self.lack ^= lx
        self.mask ^= 1 << c
        self.left += 1

    def describe(self, step: tuple) -> Step:
        _, c, mv, src, d, _, _ = step
        return Step(d, self.deck.ids[c], mv[0] + 1, None if src >= 0 else -src)

    # -- the search --------------------------------------------------------------------

    def solve(self, nodes: int | None = None, seconds: float | None = None,
              first: int = TRY_NODES) -> list[Step] | None:
        """A line that places every card (a list of steps), or None when there is none;
        raises OutOfBudget when ``nodes`` or ``seconds`` run out first (see ``find``)."""
        return [self.describe(s) for s in self.line] if self.find(nodes, seconds, first) else None

    def find(self, nodes: int | None = None, seconds: float | None = None, first: int = TRY_NODES) -> bool:
        """Whether a line places every card; raises OutOfBudget when ``nodes`` or
        ``seconds`` run out first. The tries get ``first`` positions each, more as they go
        on (the Luby sequence). The search stands where it started; ``line`` holds the
        line found (as the search's own steps)."""
        limit = self.nodes + nodes if nodes is not None else None
        self.deadline = time.perf_counter() + seconds if seconds is not None else None
        self._start = (list(self.ends), list(self.rs), list(self.cyc), list(self.rp))
        while True:
            share = first * luby(self.tries + 1)
            self.tries += 1
            self.stop = self.nodes + share if limit is None else min(self.nodes + share, limit)
            self.last = self.stop == limit
            self.line = []
            try:
                return self._dfs(self.p, self.o, self.mask, self.allow, self.lack, self.left)
            except _Restart:
                self._unwind()
                self.weights = self.deck.weights(self.tries)
                self.prefer = {}
            except OutOfBudget:
                self._unwind()
                raise

    def _unwind(self) -> None:
        """Back to where the search started, from where a try was cut short."""
        ends, rs, cyc, rp = self._start
        self.ends[:], self.rs[:], self.cyc[:], self.rp[:] = ends, rs, cyc, rp
        self.line = []

    def _dfs(self, p: int, o: int, mask: int, allow: int, lack: int, left: int) -> bool:
        """One position of the search: the pointer, the reserves open, the placed cards,
        ``allow``, ``lack`` and the cards left are arguments; the tiers' ends, the rank
        states, the cycle and the reserves are changed in place and put back (the inner
        loop: written out for speed)."""
        if not left:
            return True
        ends = self.ends
        e0, e1, e2 = ends
        rs = self.rs
        fa, fc = self.free
        key = mask | (p << 44) | (o << 50) | (e0 << 52) | (e1 << 58) | (e2 << 64) | ((rs[fa] * 16 + rs[fc]) << 70)
        failed = self.failed
        if key in failed:
            return False
        self.nodes += 1
        if self.nodes >= self.stop:
            raise OutOfBudget if self.last else _Restart
        if self.deadline is not None and not self.nodes & 1023 and time.perf_counter() > self.deadline:
            raise OutOfBudget
        deck = self.deck
        suit_cards = deck.suit_cards
        rest = deck.full ^ mask
        l0, l1, l2 = lack & _ONE & rest, lack >> FIELD & _ONE & rest, lack >> 2 * FIELD & rest
        if ((e0 and l0 and not l0 & suit_cards[e0]) or (e1 and l1 and not l1 & suit_cards[e1])
                or (e2 and l2 and not l2 & suit_cards[e2])):
            failed.add(key)  # a tier lacks cards none of which could follow its end
            return False
        line = self.line
        if len(line) > len(self.best):
            self.best = list(line)
        rank, dmask, cbit, cyc, rp = deck.rank, deck.mask, deck.cbit, self.cyc, self.rp
        left -= 1
        for step in self.steps(p, o, allow):
            _, c, (t, ns, ax, lx), src, _, q, oo = step
            r = rank[c]
            old_end, old_rs = ends[t], rs[r]
            if src >= 0:
                del cyc[src]
            else:
                rp[-1 - src] += 1
            ends[t] = dmask[c]
            rs[r] = ns
            line.append(step)
            found = self._dfs(q, oo, mask ^ cbit[c], allow ^ ax, lack ^ lx, left)
            ends[t] = old_end
            rs[r] = old_rs
            if src >= 0:
                cyc.insert(src, c)
            else:
                rp[-1 - src] -= 1
            if found:
                return True
            line.pop()
        failed.add(key)
        return False


def luby(i: int) -> int:
    """The i-th term (from 1) of the Luby sequence 1, 1, 2, 1, 1, 2, 4, 1, 1, 2, ..."""
    while True:
        k = 1
        while (1 << k) - 1 < i:
            k += 1
        if i == (1 << k) - 1:
            return 1 << (k - 1)
        i -= (1 << (k - 1)) - 1


# -- the solver ------------------------------------------------------------------------


def settled(state: CascadesState, reveal: Callable[[Chance], object]) -> CascadesState:
    """A clone of ``state`` with every pending card turned up by ``reveal``."""
    state = state.clone()
    while state.outcome is None and (request := state.chance()) is not None:
        state.resolve(reveal(request))
    return state


def known(state: CascadesState, reveal: Callable[[Chance], object]) -> Search:
    """The search for ``state`` (settled: no card pending) with every face-down card
    revealed."""
    unseen = frozenset(deck_ids(state.pawns_courts)) - state.seen

    def card(item, to: str) -> str:
        return item if isinstance(item, str) else str(reveal(Draw(0, item, to, unseen)))

    cycle = [card(c, "waste") for c in list(state.waste) + list(state.stock)]
    reserves = [[card(c, f"reserve {k + 1}") for c in pile] for k, pile in enumerate(state.reserves)]
    return Search(Deck.of(state.pawns_courts), state.tiers, cycle, len(state.waste), state.opened, reserves)


class CascadesSolver:
    """Is this deal winnable with every card known? An exhaustive depth-first search of
    the next plays with memoised positions (see the module docstring)."""

    def solve(self, state: CascadesState, reveal: Callable[[Chance], object], budget: Budget) -> Verdict:
        state = settled(state, reveal)
        if state.outcome is not None:
            if state.outcome.won:
                return Verdict("winnable", (), 0, "The game is already won.")
            return Verdict("not winnable", (), 0, "The game is already over: no card can ever be played again.")
        search = known(state, reveal)
        try:
            line = search.solve(budget.nodes, budget.seconds)
        except OutOfBudget:
            return Verdict("unknown", (), search.nodes,
                           f"The search ran out of its budget after {search.nodes:,} positions.")
        if line is None:
            return Verdict(
                "not winnable", (), search.nodes,
                f"Every line of play was tried ({search.nodes:,} positions): none places every card.",
            )
        moves = tuple(m.key for step in line for m in step.moves())
        return Verdict("winnable", moves, search.nodes, f"A line of {len(line)} plays places every card.")

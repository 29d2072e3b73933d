"""Could this Adaman deal be won, with every card known?

Once every card is known the order of the deal is fixed, so a position is just where the
deal has got to and what lies in the capital, the resources and the court
(:class:`storyteller.games.adaman_core.Deal`). The solver searches the plays depth first,
most promising first, and remembers every position it has searched without a win (two
orders of the same plays meet there). It cuts a position off when a bound shows it lost:

* the ranks the personalities still to control need cannot exceed what can still be paid:
  the resources in hand and the plain cards not yet dealt (a capital card bought costs at
  least its rank, so it adds nothing, unless the Excuse, still to come, moves it for free);
* each personality needs, in the resources in hand, the plain cards not yet dealt and the
  capital's plain cards, enough rank sharing one of its suits (and so does each group of
  personalities whose suits are among the same three);
* near the end of the deck, the table as if every card still to come were dealt at once
  (the plain ones to the resources, the personalities to the capital) must be winnable:
  whatever a real deal allows, that table allows too (more resources, no court to fill,
  nothing to buy that is not already in hand), and with nothing left to deal it is solved
  exactly.

Of two payments of the same number of cards for the same target, the one that keeps the
better cards (each card it spends matched by one it keeps of rank as high and with all its
suits) is as good: the deal goes on the same way and the better cards can pay for whatever
the others could, so the other is not tried (while the Excuse is still to come this does
not hold: it could move a better card into the capital). Once the deck is empty nothing
more is dealt, so a card kept never hurts: only payments none of whose cards could be left
out are tried then.

The search runs again and again from the start, each run longer than the last, ordering
the moves alternately as the greedy policy would (so a deal it wins is found at once) and
by plain rules of thumb (personalities first, the court's first, the cheapest payments
first); the positions a run searched to the end stay known to the next.

The answer is exact: "winnable" with the moves of a won game, "not winnable" once every
line is searched, "unknown" when the budget runs out first.
"""

from __future__ import annotations

import time
from typing import Callable

from storyteller.engine import Budget, Chance, ChanceOutcome, Draw, Verdict
from storyteller.games import adaman_core as core
from storyteller.games import adaman_policy as policy
from storyteller.games.adaman import AdamanState, Control, Shift


class _OutOfBudget(Exception):
    pass


def deal_of(state: AdamanState, reveal: Callable[[Chance], ChanceOutcome]) -> tuple[core.Deal, tuple]:
    """The deal of ``state`` with every card known, and the core position the state is in:
    (what it waits for, slot, capital, resources, court). Chance the state waits for is
    answered by ``reveal`` and dealt by the core."""
    t = core.tables(state.deck)
    seen = [c for cards in state.places().values() for c in cards]
    options = frozenset(state.deck).difference(seen)
    order = [t.index[c] for c in seen]  # the cards drawn so far (their order no longer matters)
    for slot in range(state.drawn, len(state.deck)):
        card = reveal(Draw(deal=0, slot=slot, to="capital", options=options))
        order.append(t.index[card])
    d = core.Deal(t, order)
    cap, res, court = t.mask(state.capital), t.mask(state.resources), t.mask(state.court)
    if state.outcome is not None:
        waits = {"won": core.WON, "lost": core.LOST}.get(state.outcome.result, core.UTTER)
        return d, (waits, state.drawn, cap, res, court)
    if state.excuse_at is not None:
        waits = core.EXCUSE_CAPITAL if state.excuse_at == "capital" else core.EXCUSE_RESOURCES
        return d, (waits, state.drawn, cap, res, court)
    if state.pending is not None:  # dealing is under way: finish it as the rules would
        filling = core.CAPITAL if state.filling == "capital" else core.RESOURCES
        return d, d.deal(state.drawn, cap, res, court, filling)
    return d, (core.PLAY if d.stuck(state.drawn, cap, res, court) == core.PLAY else core.LOST,
               state.drawn, cap, res, court)


_GROUPS: dict[int, list[tuple[int, int]]] = {}


def _groups(t: core.Tables) -> list[tuple[int, int]]:
    """For each set U of up to three suits: the personalities all of whose suits are in U,
    and the plain cards with a suit in U (only they can pay for those personalities)."""
    found = _GROUPS.get(id(t))
    if found is None:
        found = []
        for u in range(1, 64):
            if bin(u).count("1") > 3:
                continue
            people_u = sum(1 << c for c in range(t.n) if t.person >> c & 1 and t.suits[c] and not t.suits[c] & ~u)
            cards_u = sum(1 << c for c in range(t.n) if not t.person >> c & 1 and t.suits[c] & u)
            if people_u:
                found.append((people_u, cards_u))
        _GROUPS[id(t)] = found
    return found


class AdamanSolver:
    """Depth-first search with memoised positions and bounds (see the module's text)."""

    def __init__(self, guided: int = 99, first: int = 20_000, relax: int = 4) -> None:
        self.nodes = 0
        self.guided = guided  # up to which slot the policy's scores order the search (in its runs)
        self.first = first  # positions of the first run; each pair of runs doubles it
        self.relax = relax  # with this many cards or fewer still to deal, the bound of the dealt-at-once table

    def solve(self, state: AdamanState, reveal: Callable[[Chance], ChanceOutcome], budget: Budget) -> Verdict:
        d, pos = deal_of(state, reveal)
        waits = pos[0]
        if waits == core.WON:
            return Verdict("winnable", (), 0, "The game is already won.")
        if waits in (core.LOST, core.UTTER):
            return Verdict("not winnable", (), 0, "The game is already lost.")
        deadline = None if budget.seconds is None else time.monotonic() + budget.seconds
        won = self.search(d, pos, budget.nodes, deadline)
        if won is None:
            return Verdict("unknown", (), self.nodes,
                           f"The search stopped after {self.nodes:,} positions without an answer.")
        if not won:
            return Verdict("not winnable", (), self.nodes,
                           f"Every line of play was searched ({self.nodes:,} positions): none controls every personality.")
        keys = tuple(self._key(*step) for step in reversed(self.line))
        return Verdict("winnable", keys, self.nodes,
                       f"Found a winning line of {len(keys)} moves after {self.nodes:,} positions.")

    def search(self, d: core.Deal, pos: tuple, nodes: int | None = None, deadline: float | None = None) -> bool | None:
        """Whether the deal ``d`` can be won from position ``pos`` (waiting for a move), or
        None if ``nodes`` positions or the ``deadline`` (time.monotonic) came first. When
        it can, ``self.line`` holds the winning moves, deepest first."""
        self._prepare(d)
        self.limit, self.deadline = nodes, deadline
        # Runs alternate two orders of the moves (the policy's, then plain rules of thumb),
        # each longer than the last; what a run searched to the end stays known to the next.
        run = 0
        while True:
            self.with_policy = run % 2 == 0
            self.stop = self.nodes + self.first * 2 ** (run // 2)
            if self.limit is not None:
                self.stop = min(self.stop, self.limit)
            self.line = []
            try:
                return self._search(*pos)
            except _OutOfBudget:
                if (self.limit is not None and self.nodes >= self.limit) or (
                        self.deadline is not None and time.monotonic() > self.deadline):
                    return None
                run += 1

    def _prepare(self, d: core.Deal) -> None:
        self.d, self.t = d, d.t
        self.nodes = 0
        self.failed: set[int] = set()
        self.failed_end: dict[tuple[int, int], list[int]] = {}  # (capital, court): resources that lost
        self.line: list[tuple[int, int, int]] = []  # (waits, card, paid) of the winning line, deepest last
        # tails[slot]: ranks of the plain cards dealt from slot on; people likewise
        t, order = self.t, d.order
        plain = [0] * (d.n + 1)
        people = [0] * (d.n + 1)
        for k in range(d.n - 1, -1, -1):
            c = order[k]
            is_person = t.person >> c & 1
            plain[k] = plain[k + 1] + (0 if is_person else t.rank[c])
            people[k] = people[k + 1] + (t.rank[c] if is_person else 0)
        self.plain_tail, self.people_tail = plain, people
        self.groups = _groups(t)

    # -- the search --------------------------------------------------------------------------

    def _key(self, waits: int, card: int, paid: int) -> str:
        ids = self.t.ids
        if waits == core.PLAY:
            return Control(ids[card], tuple(self.t.cards(paid))).key
        if waits == core.EXCUSE_CAPITAL:
            return Shift(ids[card], "capital").key
        person = self.t.person >> card & 1
        return Shift(ids[card], "court" if person else "resources").key

    def _hopeless(self, slot: int, cap: int, res: int, court: int) -> bool:
        """A bound shows the position lost (see the module's text)."""
        t, d = self.t, self.d
        rank, share = t.rank, t.share
        table_people = (cap | court) & t.person
        need = t.total(table_people) + self.people_tail[slot]
        have = t.total(res) + self.plain_tail[slot]
        if t.excuse >= 0 and not d.prefix[slot] >> t.excuse & 1:
            have += t.total(cap & ~t.person)  # the Excuse may yet bring a capital card in for free
        if need > have:
            return True
        undealt = t.all ^ d.prefix[slot]
        supply = res | (undealt & ~t.person) | (cap & ~t.person)
        left = table_people | (undealt & t.person)
        for p in core.bits(left):
            if t.total(supply & share[p]) < rank[p]:
                return True
        total = t.total
        for people_u, cards_u in self.groups:
            if people_u & left and total(left & people_u) > total(supply & cards_u):
                return True
        if d.n - slot <= self.relax and (t.excuse < 0 or d.prefix[slot] >> t.excuse & 1):
            # As if every card still to come were dealt at once, the plain ones to the
            # resources and the personalities to the capital: that table is never worse.
            line = len(self.line)
            ok = self._endgame(cap | (undealt & t.person), res | (undealt & ~t.person), court)
            del self.line[line:]
            if not ok:
                return True
        return False

    def _endgame(self, cap: int, res: int, court: int) -> bool:
        """The deck is empty: plays only, nothing dealt, minimal payments."""
        t = self.t
        person = t.person
        people = (cap | court) & person
        if not people:
            return True
        key = -1 - ((court << t.n | res) << t.n | cap)  # apart from the keys of ``_search``
        if key in self.failed:
            return False
        # Nothing is dealt any more, so fewer resources never do better: a table whose
        # resources are among those of a lost one is lost too.
        lost = self.failed_end.get((cap, court))
        if lost is not None:
            for other in lost:
                if not res & ~other:
                    return False
        self.nodes += 1
        if self.nodes > self.stop:
            raise _OutOfBudget
        if self.deadline is not None and self.nodes & 1023 == 1 and time.monotonic() > self.deadline:
            raise _OutOfBudget
        total, share, rank = t.total, t.share, t.rank
        if total(people) > total(res):
            self.failed.add(key)
            return False
        supply = res | (cap & ~person)
        for p in core.bits(people):
            if total(supply & share[p]) < rank[p]:
                self.failed.add(key)
                return False
        lean = t.lean_payments
        for group in (court, cap & person, cap & ~person):
            for c in core.bits(group):
                b = 1 << c
                for paid in lean(res, c, True):
                    if person & b:
                        ok = self._endgame(cap & ~b, res & ~paid, court & ~b)
                    else:
                        ok = self._endgame(cap & ~b, (res & ~paid) | b, court)
                    if ok:
                        self.line.append((core.PLAY, c, paid))
                        return True
        self.failed.add(key)
        lost = self.failed_end.setdefault((cap, court), [])
        if len(lost) < 32:
            lost.append(res)
        return False

    def _search(self, waits: int, slot: int, cap: int, res: int, court: int) -> bool:
        n = self.t.n
        if slot >= self.d.n and waits == core.PLAY and (self.t.excuse < 0 or self.d.prefix[slot] >> self.t.excuse & 1):
            return self._endgame(cap, res, court)
        key = (((court << n | res) << n | cap) << 7 | slot) << 2 | waits
        if key in self.failed:
            return False
        self.nodes += 1
        if self.nodes > self.stop:
            raise _OutOfBudget
        if self.deadline is not None and self.nodes & 1023 == 1 and time.monotonic() > self.deadline:
            raise _OutOfBudget
        if waits == core.PLAY and self._hopeless(slot, cap, res, court):
            self.failed.add(key)
            return False
        d = self.d
        for card, paid in self._ordered(waits, slot, cap, res, court):
            if waits == core.PLAY:
                nxt = d.play(slot, cap, res, court, card, paid)
            else:
                nxt = d.shift(waits, slot, cap, res, court, card)
            w = nxt[0]
            if w == core.WON or (w in (core.PLAY, core.EXCUSE_CAPITAL, core.EXCUSE_RESOURCES) and self._search(*nxt)):
                self.line.append((waits, card, paid))
                return True
        self.failed.add(key)
        return False

    def _ordered(self, waits: int, slot: int, cap: int, res: int, court: int) -> list[tuple[int, int]]:
        """The moves, most promising first: personalities (the court's first), cheapest
        payments first; with the deck empty, only payments that leave nothing out."""
        t, d = self.t, self.d
        if waits != core.PLAY:
            moves = d.moves(waits, cap, res, court)
            if self.with_policy:  # the greedy's choice first
                first = policy.best_shift(t, waits, cap, res, court, t.all ^ d.prefix[slot], policy.WEIGHTS)
                moves.sort(key=lambda m: m[0] != first)
            return moves
        if self.with_policy and slot < d.n and slot < self.guided:
            # The order the greedy policy would try them in, seeing what a player sees (its
            # payments are the same lean ones), so its own winning games are found at once
            scores: list = []
            policy.best_play(t, cap, res, court, t.all ^ d.prefix[slot], policy.WEIGHTS, scores)
            scores.sort(key=lambda s: -s[0])
            return [(c, p) for _, c, p in scores]
        rank = t.rank
        if t.excuse < 0 or d.prefix[slot] >> t.excuse & 1:  # no Excuse to come
            minimal = slot >= d.n

            def pay(res: int, c: int) -> tuple[int, ...]:
                return t.lean_payments(res, c, minimal)
        else:
            pay = t.payments
        scored = []
        for group, cards in ((0, court), (1, cap & t.person), (2, cap & ~t.person)):
            for c in core.bits(cards):
                for p in pay(res, c):
                    over = t.total(p) - rank[c]
                    scored.append((group, over, p.bit_count(), -rank[c], c, p))
        scored.sort()
        return [(c, p) for *_, c, p in scored]

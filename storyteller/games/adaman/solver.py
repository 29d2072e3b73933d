"""Could this Adaman deal be won, with every card known?

Once every card is known the order of the deal is fixed, so a position is just where the
deal has got to and what lies in the capital, the resources and the court
(:class:`storyteller.games.adaman.core.Deal`). The solver searches the plays depth first,
most promising first, and remembers every position it has searched without a win (two
orders of the same plays meet there). It cuts a position off when a bound shows it lost.
Each bound is a necessary condition for a win, so a position it cuts off is lost:

* ranks: the ranks the personalities still to control need cannot exceed what can still be
  paid: the resources in hand and the plain cards not yet dealt (a capital card bought
  costs at least its rank, so it adds nothing, unless the Excuse, still to come, moves it
  for free);
* suits: every card ever spent comes from the resources in hand, the plain cards not yet
  dealt or the capital's plain cards (bought first), each is spent once, and a
  personality is paid only with cards sharing one of its suits. So for every set U of
  suits, the personalities all of whose suits are in U need no more ranks than those
  cards with a suit in U hold (Hall's condition, for every U that makes a different set);
* the loose table (from ``loose`` cards before the end): every personality not yet
  controlled must get its own payment out of those same cards, and all the payments
  together must leave unspent at least the ranks (and as many cards) as the capital's
  plain cards now: whatever is bought from the capital costs at least its rank and one
  card, and a card dealt later is never cheaper. It is a plain assignment problem, tried
  first greedily and else searched exactly (``_loose``);
* the table dealt at once (from ``relax`` cards before the end): as if every card still to
  come were dealt at once, the plain ones to the resources and the personalities to the
  capital: whatever a real deal allows, that table allows too (more resources, no court
  to fill, nothing to buy that is not already in hand), and with nothing left to deal it
  is solved exactly (``_endgame``).

Of two payments of the same number of cards for the same target, the one that keeps the
better cards (each card it spends matched by one it keeps of rank as high and with all its
suits) is as good: the deal goes on the same way and the better cards can pay for whatever
the others could, so the other is not tried (while the Excuse is still to come this does
not hold: it could move a better card into the capital). Once the deck is empty nothing
more is dealt, so a card kept never hurts: only payments none of whose cards could be left
out are tried then, and the order of the plays no longer matters as long as a card is
bought before it pays (see ``_endgame``).

What is found lost is remembered beyond the position itself. A position waiting for a play
whose resources are matched, card for card, by as good cards (rank as high, every suit) in
a lost position of the same slot, capital and court is lost too: whatever it could play,
the other could play, paying with the matching cards, and the same cards would be dealt
to the same places (``_outclassed``; not while the Excuse is still to come). And a loose
table with the same personalities as a lost one, some of its cards and at least as much to
keep, is lost too (``_loose_lost``).

The search follows the greedy policy's order of the moves (so a deal it wins is found at
once), and most winnable deals are won by a line that strays from that order only a few
times. So it runs again and again from the start as a limited discrepancy search: a run
with allowance k follows, at each position, the first move the bounds do not cut off, and
tries another only while fewer than k such moves have been searched on the way from the
start (``_search``); the allowance grows from run to run, and the last run has none.
What a run searched to the end stays known to the next; a position a run left
unfinished is never taken as lost.

The answer is exact: "winnable" with the moves of a won game (played back on the rules
before it is given), "not winnable" once every line is searched, "unknown" when the budget
runs out first.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import cast

from storyteller.core.engine import Budget, Chance, ChanceOutcome, Draw, Result, Verdict
from storyteller.games.adaman import core
from storyteller.games.adaman import players as policy
from storyteller.games.adaman.rules import AdamanState, Control, Shift, parse


class _OutOfBudget(Exception):
    pass


EVERY = 1 << 30  # an allowance of strayings that never runs out
ALLOWANCES = (0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24)  # the runs' allowances (then EVERY)
KEPT_LOOSE = 256  # lost loose tables remembered for each set of personalities (see ``_loose_lost``)
KEPT_HANDS = 32  # lost resources remembered for each slot, capital and court (see ``_outclassed``)
KEPT = 32  # lost tables remembered for each set of personalities (see ``_endgame``)


def deal_of(state: AdamanState,
            reveal: Callable[[Chance], ChanceOutcome]) -> tuple[core.Deal, tuple[int, int, int, int, int]]:
    """The deal of ``state`` with every card known, and the core position the state is in:
    (what it waits for, slot, capital, resources, court). Chance the state waits for is
    answered by ``reveal`` and dealt by the core."""
    t = core.tables(state.deck)
    seen = [c for cards in state.places().values() for c in cards]
    options = frozenset(state.deck).difference(seen)
    order = [t.index[c] for c in seen]  # the cards drawn so far (their order no longer matters)
    for slot in range(state.drawn, len(state.deck)):
        card = cast(str, reveal(Draw(deal=0, slot=slot, to="capital", options=options)))
        order.append(t.index[card])
    d = core.Deal(t, order)
    cap, res, court = t.mask(state.capital), t.mask(state.resources), t.mask(state.court)
    if state.outcome is not None:
        waits = {Result.WON: core.WON, Result.LOST: core.LOST}.get(state.outcome.result, core.UTTER)
        return d, (waits, state.drawn, cap, res, court)
    if state.excuse_at is not None:
        waits = core.EXCUSE_CAPITAL if state.excuse_at == "capital" else core.EXCUSE_RESOURCES
        return d, (waits, state.drawn, cap, res, court)
    if state.pending is not None:  # dealing is under way: finish it as the rules would
        filling = core.CAPITAL if state.filling == "capital" else core.RESOURCES
        return d, d.deal(state.drawn, cap, res, court, filling)
    return d, (core.PLAY if d.stuck(state.drawn, cap, res, court) == core.PLAY else core.LOST,
               state.drawn, cap, res, court)


_ALL_GROUPS: dict[int, list[int]] = {}


def _all_groups(t: core.Tables) -> list[int]:
    """Every set of personalities that holds all those whose suits are in some set of suits."""
    found = _ALL_GROUPS.get(id(t))
    if found is None:
        seen: dict[int, None] = {}
        for u in range(1, 64):
            people_u = sum(1 << c for c in range(t.n) if t.person >> c & 1 and t.suits[c] and not t.suits[c] & ~u)
            if people_u:
                seen[people_u] = None
        found = _ALL_GROUPS[id(t)] = list(seen)
    return found


class AdamanSolver:
    """Depth-first search with memoised positions and bounds (see the module's text)."""

    def __init__(self, guided: int = 99, relax: int = 8, loose: int = 20,
                 allowances: tuple[int, ...] = ALLOWANCES) -> None:
        self.nodes = 0
        self.guided = guided  # up to which slot the policy's scores order the search
        self.relax = relax  # with this many cards or fewer still to deal, the bound of the dealt-at-once table
        self.loose = loose  # ... and with this many or fewer, the bound of the loose table
        self.allowances = allowances  # of the runs (see ``search``)

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
                           f"Every line of play was searched ({self.nodes:,} positions): "
                           "none controls every personality.")
        keys = tuple(self._key(*step) for step in reversed(self.line))
        if not plays_to_a_win(state, reveal, keys):  # never an answer the rules do not bear out
            return Verdict("unknown", (), self.nodes,
                           f"The winning line found after {self.nodes:,} positions did not win when played: "
                           "a fault of the solver.")
        return Verdict("winnable", keys, self.nodes,
                       f"Found a winning line of {len(keys)} moves after {self.nodes:,} positions.")

    def search(self, d: core.Deal, pos: tuple[int, int, int, int, int], nodes: int | None = None,
               deadline: float | None = None) -> bool | None:
        """Whether the deal ``d`` can be won from position ``pos`` (waiting for a move), or
        None if ``nodes`` positions or the ``deadline`` (time.monotonic) came first. When
        it can, ``self.line`` holds the winning moves, deepest first.

        Runs of a limited discrepancy search, each with a larger allowance (the last with
        none): what a run searched to the end stays known to the next."""
        self._prepare(d)
        self.limit, self.deadline = nodes, deadline
        self.stop = nodes if nodes is not None else 1 << 62
        for allow in self.allowances + (EVERY,):
            self.line: list[tuple[int, int, int]] = []  # (waits, card, paid) of the winning line, deepest last
            try:
                found = self._search(*pos, allow)
            except _OutOfBudget:
                return None
            if found is not None:
                return found
        raise AssertionError("a run with no limit on straying always answers")

    def _prepare(self, d: core.Deal) -> None:
        self.d, self.t = d, d.t
        t, order = self.t, d.order
        self.nodes = 0
        self.expanded = 0  # positions whose moves were searched (see ``_search``)
        self.failed: set[int] = set()  # positions (and, with negative keys, empty-deck tables) lost
        self.tried: dict[int, int] = {}  # position -> the largest allowance a run left it unfinished with
        self.passed: set[int] = set()  # positions no bound shows lost
        self.failed_loose: set[tuple[int, int, int, int]] = set()
        # the loose tables of ``_hopeless`` found lost, by their personalities: (cards, ranks to keep, cards to keep)
        self.loose_lost: dict[int, list[tuple[int, int, int]]] = {}
        # the resources of the positions waiting for a play found lost, by (slot, capital, court)
        self.lost_hands: dict[tuple[int, int, int], list[int]] = {}
        # the cards (resources) lost tables had: by (capital, court) for ``_endgame``'s tables
        # with purchases allowed, by their personalities for those without, by
        # (personalities, ranks to keep, cards to keep) for ``_loose``'s
        self.failed_end: dict[int | tuple[int, ...], list[int]] = {}
        self.least: dict[int, tuple[int, int, int] | tuple[()]] = {}  # see ``_least``
        self.group_cache: dict[int, tuple[tuple[int, int, int, int], ...]] = {}
        self.all_groups = _all_groups(t)
        # plain_of[U]: the plain cards with a suit in the set of suits U
        self.plain_of = [sum(1 << c for c in range(t.n) if not t.person >> c & 1 and t.suits[c] & u) for u in range(64)]
        self.line = []
        # tails[slot]: ranks of the plain cards dealt from slot on; people likewise
        plain = [0] * (d.n + 1)
        people = [0] * (d.n + 1)
        for k in range(d.n - 1, -1, -1):
            c = order[k]
            is_person = t.person >> c & 1
            plain[k] = plain[k + 1] + (0 if is_person else t.rank[c])
            people[k] = people[k + 1] + (t.rank[c] if is_person else 0)
        self.plain_tail, self.people_tail = plain, people

    def _tick(self) -> None:
        """Count a position; stop the search when the budget is spent."""
        self.nodes += 1
        if self.nodes > self.stop:
            raise _OutOfBudget
        if self.deadline is not None and self.nodes & 1023 == 1 and time.monotonic() > self.deadline:
            raise _OutOfBudget

    # -- the search --------------------------------------------------------------------------

    def _key(self, waits: int, card: int, paid: int) -> str:
        ids = self.t.ids
        if waits == core.PLAY:
            return Control(ids[card], tuple(self.t.cards(paid))).key
        if waits == core.EXCUSE_CAPITAL:
            return Shift(ids[card], "capital").key
        person = self.t.person >> card & 1
        return Shift(ids[card], "court" if person else "resources").key

    def _search(self, waits: int, slot: int, cap: int, res: int, court: int, allow: int) -> bool | None:
        """True if the position can be won (its moves are then added to ``self.line``),
        False if it cannot, None if the run's ``allow``-ance left it unfinished.

        The moves come most promising first. Each one searched (not cut off at once by a
        bound or by what is known) uses up one of the allowance: the first one goes on
        with the whole allowance, the next with one less, and so on; past the allowance
        the others are left, and the position is unfinished. Only a position all of whose
        moves were searched to the end is known lost."""
        t, d = self.t, self.d
        if slot >= d.n and waits == core.PLAY and (t.excuse < 0 or d.prefix[slot] >> t.excuse & 1):
            return self._endgame(cap, res, court)
        key = (((court << t.n | res) << t.n | cap) << 7 | slot) << 2 | waits
        if key in self.failed:
            return False
        hands = self.lost_hands.get((slot, cap, court)) if waits == core.PLAY else None
        if hands is not None and self._outclassed(res, hands):
            self.failed.add(key)
            return False
        if allow < EVERY:
            tried = self.tried.get(key)
            if tried is not None and tried >= allow:
                return None
        self._tick()
        if waits == core.PLAY and key not in self.passed:
            if self._hopeless(slot, cap, res, court):
                self._lost(key, waits, slot, cap, res, court)
                return False
            if len(self.passed) > 500_000:  # a cache: the bounds are only computed again
                self.passed.clear()
            self.passed.add(key)
        self.expanded += 1
        spent, complete = 0, True
        for card, paid in self._ordered(waits, slot, cap, res, court):
            if spent > allow:
                complete = False
                break
            if waits == core.PLAY:
                nxt = d.play(slot, cap, res, court, card, paid)
            else:
                nxt = d.shift(waits, slot, cap, res, court, card)
            w = nxt[0]
            if w == core.WON:
                self.line.append((waits, card, paid))
                return True
            if w in (core.PLAY, core.EXCUSE_CAPITAL, core.EXCUSE_RESOURCES):
                before = self.expanded
                found = self._search(*nxt, allow - spent)
                if found:
                    self.line.append((waits, card, paid))
                    return True
                if found is None or self.expanded != before:
                    spent += 1
                    complete = complete and found is not None
        if not complete:
            self.tried[key] = allow
            return None
        self._lost(key, waits, slot, cap, res, court)
        return False

    def _lost(self, key: int, waits: int, slot: int, cap: int, res: int, court: int) -> None:
        """Remember a position found lost; and, waiting for a play with the Excuse no more
        to come, its resources (see ``_outclassed``)."""
        self.failed.add(key)
        t = self.t
        if waits == core.PLAY and (t.excuse < 0 or self.d.prefix[slot] >> t.excuse & 1):
            hands = self.lost_hands.setdefault((slot, cap, court), [])
            if len(hands) < KEPT_HANDS:
                hands.append(res)

    def _outclassed(self, res: int, hands: list[int]) -> bool:
        """Whether the resources ``res`` are matched, card for card, by better or equal
        cards (rank as high, every suit) in one of the lost ``hands`` of the same slot,
        capital and court, the Excuse no more to come: then this position is lost too.
        Whatever is played from here, the same plays can be made there, paying with the
        matching cards; as many cards are spent, so the same cards are dealt to the same
        places, and there the hand stays as good, card for card, to the end."""
        t, size = self.t, res.bit_count()
        for other in hands:  # noqa: SIM110 (a loop: any() over a generator is slower, and this runs at every position)
            # the cards of both match themselves; each of the others is matched as when two
            # payments of as many cards are compared (``Tables.keeps_better``)
            if other.bit_count() == size and (other == res or t.keeps_better(res, other)):
                return True
        return False

    # -- the bounds --------------------------------------------------------------------------

    def _hopeless(self, slot: int, cap: int, res: int, court: int) -> bool:
        """A bound shows the position lost (see the module's text)."""
        t, d = self.t, self.d
        total, person = t.total, t.person
        table_people = (cap | court) & person
        need = total(table_people) + self.people_tail[slot]
        have = total(res) + self.plain_tail[slot]
        excuse_dealt = t.excuse < 0 or d.prefix[slot] >> t.excuse & 1
        if not excuse_dealt:
            have += total(cap & ~person)  # the Excuse may yet bring a capital card in for free
        if need > have:
            return True
        undealt = t.all ^ d.prefix[slot]
        supply = res | (undealt & ~person) | (cap & ~person)
        left = table_people | (undealt & person)
        for _, cards_u, ranks, _ in self._groups_of(left):
            if ranks > total(supply & cards_u):
                return True
        if not excuse_dealt:
            return False
        if d.n - slot <= self.loose:
            bought = cap & ~person
            keep_ranks, keep_cards = total(bought), bought.bit_count()
            if self._loose_lost(left, supply, keep_ranks, keep_cards):
                return True
            if not self._dive(left, supply, keep_ranks, keep_cards) and not self._loose(
                    left, supply, keep_ranks, keep_cards):
                lost = self.loose_lost.setdefault(left, [])
                if len(lost) < KEPT_LOOSE:
                    lost.append((supply, keep_ranks, keep_cards))
                return True
        if d.n - slot <= self.relax:
            line = len(self.line)
            ok = self._endgame(cap | (undealt & person), res | (undealt & ~person), court)
            del self.line[line:]
            if not ok:
                return True
        return False

    def _loose_lost(self, people: int, cards: int, keep_ranks: int, keep_cards: int) -> bool:
        """Whether a loose table of the same personalities already found lost shows this
        one lost too: it had all of these cards (and maybe more) and no more to keep.
        Whatever pays for the personalities out of these cards would pay for them out of
        those, and leave as much unspent."""
        lost = self.loose_lost.get(people)
        if lost is not None:
            for more, ranks, count in lost:
                if not cards & ~more and ranks <= keep_ranks and count <= keep_cards:
                    return True
        return False

    def _groups_of(self, people: int) -> tuple[tuple[int, int, int, int], ...]:
        """The groups of ``people``: for each set U of suits, those of them whose suits are
        all in U (when there are some), once each, smallest first, as (the group, the plain
        cards with a suit in U, the group's ranks, its number), U as small as it can be for
        them (their suits together)."""
        found = self.group_cache.get(people)
        if found is None:
            seen = {}
            suits, total = self.t.suits, self.t.total
            for people_u in self.all_groups:
                mine = people & people_u
                if mine and mine not in seen:
                    union = 0
                    for c in core.bits(mine):
                        union |= suits[c]
                    seen[mine] = (mine, self.plain_of[union], total(mine), mine.bit_count())
            if len(self.group_cache) > 20_000:
                self.group_cache.clear()
            found = self.group_cache[people] = tuple(sorted(seen.values(), key=lambda g: g[3]))
        return found

    def _least(self, elig: int, need: int) -> tuple[int, int, int] | tuple[()]:
        """For a target of rank ``need`` paid with cards among ``elig``: how many ranks and
        cards its smallest payment needs beyond its rank and one card, and the ranks of
        ``elig``; () if they cannot pay for it. Remembered in ``self.least``."""
        key = elig << 4 | need
        found = self.least.get(key)
        if found is not None:
            return found
        rank = self.t.rank
        ranks = sorted((rank[c] for c in core.bits(elig)), reverse=True)
        have = sum(ranks)
        if have < need:
            found = ()
        else:
            got = fewest = 0
            for r in ranks:  # the fewest cards: the highest
                got += r
                fewest += 1
                if got >= need:
                    break
            reach = 1  # bit s: some of the cards add up to s (a smallest payment is below need + 10)
            upto = (1 << (need + 11)) - 1
            for r in ranks:
                reach = (reach | reach << r) & upto
            above = reach >> need
            found = ((above & -above).bit_length() - 1, fewest - 1, have)
        if len(self.least) > 100_000:  # a cache: keep memory flat
            self.least.clear()
        self.least[key] = found
        return found

    def _short(self, people: int, supply: int, ranks: int, cards: int, pay: int) -> int | None:
        """None if a bound shows that ``people`` cannot all be paid for; else the one of them
        that the cards ``pay`` leave the least to spare (the one to try first).

        The payments of the personalities are disjoint sets of cards of ``supply``; added
        up they hold no more than ``ranks`` ranks and ``cards`` cards. Each is drawn from the
        cards of ``supply`` sharing a suit with its personality, and holds at least as many
        cards and as many ranks as the smallest such payment. So for every set U of suits,
        the personalities all of whose suits are in U need, added up, no more cards and
        ranks than the cards of ``supply`` with a suit in U hold, and all of them no more
        than ``ranks`` and ``cards``."""
        t = self.t
        total, rank, share, least = t.total, t.rank, t.share, self._least
        same = pay == supply
        best, tightest = -1, 1 << 30
        extra = {}  # the personalities whose smallest payments need more than their rank, or than one card
        more_ranks = more_cards = 0
        for p in core.indexes(people):
            r = rank[p]
            found = least(supply & share[p], r)
            if not found:
                return None
            if found[0] or found[1]:
                extra[p] = found
                more_ranks += found[0]
                more_cards += found[1]
            spare = (found[2] if same else total(pay & share[p])) - r
            if spare < tightest:
                best, tightest = p, spare
        if total(people) + more_ranks > ranks or people.bit_count() + more_cards > cards:
            return None
        for mine, cards_u, need, count in self._groups_of(people):
            if extra:
                for p, found in extra.items():
                    if mine >> p & 1:
                        need += found[0]
                        count += found[1]
            have = supply & cards_u
            if need > total(have) or count > have.bit_count():
                return None
        return best

    def _dive(self, people: int, cards: int, keep_ranks: int, keep_cards: int) -> bool:
        """A quick try at ``_loose``'s question: each personality in turn (the one with the
        least to spare first) takes its cheapest payment. True if that pays for them all
        (False says nothing)."""
        t = self.t
        total, share, rank, lean = t.total, t.share, t.rank, t.lean_payments
        budget = total(cards) - keep_ranks
        count = cards.bit_count() - keep_cards
        while people:
            best, tightest = -1, 1 << 30
            for p in core.indexes(people):
                spare = total(cards & share[p]) - rank[p]
                if spare < tightest:
                    best, tightest = p, spare
            if tightest < 0:
                return False
            paid = min(lean(cards, best, True), key=total)
            budget -= total(paid)
            count -= paid.bit_count()
            if budget < 0 or count < 0:
                return False
            people &= ~(1 << best)
            cards &= ~paid
        return True

    def _loose(self, people: int, cards: int, keep_ranks: int, keep_cards: int) -> bool:
        """Whether ``people`` can all be paid for with disjoint payments out of ``cards``
        that leave at least ``keep_ranks`` ranks and ``keep_cards`` cards unspent.

        The payments can be made in any order, so only the personality with the least to
        spare is tried first, with each of its payments; and as in ``_endgame``, only
        payments none of whose cards could be left out, and of those of as many cards only
        the one keeping the better cards (a payment left out is replaced, in any answer, by
        one of these that leaves at least as much unspent and cards as good). Fewer cards,
        with as much to keep, never do better: a set of cards among those of a lost table
        is lost too."""
        if not people:
            return True
        key = (people, cards, keep_ranks, keep_cards)
        if key in self.failed_loose:
            return False
        side = (people, keep_ranks, keep_cards)
        lost = self.failed_end.get(side)
        if lost is not None:
            for other in lost:
                if not cards & ~other:
                    return False
        self._tick()
        t = self.t
        p = self._short(people, cards, t.total(cards) - keep_ranks, cards.bit_count() - keep_cards, cards)
        if p is not None:
            b = 1 << p
            for paid in t.lean_payments(cards, p, True):
                if self._loose(people & ~b, cards & ~paid, keep_ranks, keep_cards):
                    return True
        self.failed_loose.add(key)
        lost = self.failed_end.setdefault(side, [])
        if len(lost) < KEPT:
            lost.append(cards)
        return False

    # -- the empty deck --------------------------------------------------------------------

    def _endgame(self, cap: int, res: int, court: int, bought: bool = True) -> bool:
        """The deck is empty (and the Excuse dealt): whether the table can be won (its moves
        are then added to ``self.line``). Plays only, nothing dealt, minimal payments.

        Nothing is dealt any more, so a play changes nothing but the cards it moves: a
        personality controlled takes its payment out of the resources, a plain capital card
        bought takes its payment and joins them. A winning game therefore stays a winning
        game when its plays are reordered so that every purchase comes before every
        personality (a purchase pays only with resources in hand or bought before it, none
        of which a personality's payment used), and its personalities come in any order
        (their payments are disjoint sets of the resources left after the purchases). So
        from any table it is enough to try each purchase and, of the personalities, only
        one (the one with the least to spare, see ``_short``). Once a personality is
        controlled (``bought`` false) no purchase is tried any more, and the plain capital
        cards no longer matter.

        Fewer resources never do better: a table whose resources are among those of a
        lost one (the same capital and court, or, without purchases, the same
        personalities) is lost too; and a table lost with purchases allowed is lost
        without them."""
        t = self.t
        person = t.person
        people = (cap | court) & person
        if not people:
            return True
        n = t.n
        if bought:
            key = -2 - (((court << n | res) << n | cap) << 1)  # apart from the keys of ``_search``
            side: int | tuple[int, int] = (cap, court)
        else:
            key = -3 - ((people << n | res) << 1)
            side = people
        if key in self.failed:
            return False
        lost = self.failed_end.get(side)
        if lost is not None:
            for other in lost:
                if not res & ~other:
                    return False
        self._tick()
        if self._endgame_moves(cap, res, court, people, bought):
            return True
        self.failed.add(key)
        for side in ((cap, court), people) if bought else (people,):
            lost = self.failed_end.setdefault(side, [])
            if len(lost) < KEPT:
                lost.append(res)
        return False

    def _endgame_moves(self, cap: int, res: int, court: int, people: int, bought: bool) -> bool:
        """The plays of ``_endgame`` (see there), once ``_short`` finds no bound that shows
        the table lost: whatever is bought, the personalities are paid out of the
        resources and the plain capital cards, no more ranks or cards than the resources
        now hold (a purchase spends at least the rank and the one card it brings in)."""
        t = self.t
        person = t.person
        supply = res | (cap & ~person) if bought else res
        p = self._short(people, supply, t.total(res), res.bit_count(), res)
        if p is None:
            return False
        lean = t.lean_payments
        b = 1 << p
        for paid in lean(res, p, True):
            if self._endgame(cap & ~b, res & ~paid, court & ~b, False):
                self.line.append((core.PLAY, p, paid))
                return True
        if bought:
            for c in core.indexes(cap & ~person):
                b = 1 << c
                for paid in lean(res, c, True):
                    if self._endgame(cap & ~b, (res & ~paid) | b, court, True):
                        self.line.append((core.PLAY, c, paid))
                        return True
        return False

    # -- the order of the moves ----------------------------------------------------------

    def _ordered(self, waits: int, slot: int, cap: int, res: int, court: int) -> list[tuple[int, int]]:
        """The moves, most promising first: personalities (the court's first), cheapest
        payments first; with the deck empty, only payments that leave nothing out."""
        t, d = self.t, self.d
        if waits != core.PLAY:
            moves = d.moves(waits, cap, res, court)
            # the greedy's choice first
            first = policy.best_shift(t, waits, cap, res, court, t.all ^ d.prefix[slot], policy.WEIGHTS)
            moves.sort(key=lambda m: m[0] != first)
            return moves
        if slot < d.n and slot < self.guided:
            # The order the greedy policy would try them in, seeing what a player sees (its
            # payments are the same lean ones), so its own winning games are found at once
            scores: list = []
            policy.best_play(t, cap, res, court, t.all ^ d.prefix[slot], policy.WEIGHTS, scores)
            scores.sort(key=lambda s: -s[0])
            return [(c, p) for _, c, p in scores]
        rank = t.rank
        if t.excuse < 0 or d.prefix[slot] >> t.excuse & 1:  # no Excuse to come
            minimal = slot >= d.n

            def pay(res: int, target: int) -> tuple[int, ...]:
                return t.lean_payments(res, target, minimal)
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


def plays_to_a_win(state: AdamanState, reveal: Callable[[Chance], ChanceOutcome], keys: tuple[str, ...]) -> bool:
    """Whether the moves ``keys``, played on a copy of ``state`` by the rules (chance
    answered by ``reveal``), win the game."""
    game = state.clone()
    try:
        for key in keys:
            while game.outcome is None and (request := game.chance()) is not None:
                game.resolve(reveal(request))
            if game.outcome is not None:
                return False
            game.apply(parse(key))
        while game.outcome is None and (request := game.chance()) is not None:
            game.resolve(reveal(request))
    except ValueError:  # a move or a card the rules refuse (RuleError)
        return False
    return game.outcome is not None and game.outcome.won

"""Adaman with bit masks: the same rules as :mod:`storyteller.games.adaman.rules`, for the policy
and the solver, which look at many positions.

A row (the capital, the resources, the court) is an int whose bit ``i`` stands for card
``i`` of the game's deck in deck order; the deck still to be dealt is an index into a
known order. Nothing here is the rules of record: ``AdamanState`` is. These functions
mirror its dealing, its plays, its Excuse and its ends, and ``tests/test_adaman_core.py``
plays many random games with both and checks they agree at every step (the legal moves,
the rows after each play and deal, the outcome).
"""

from __future__ import annotations

from itertools import combinations

from storyteller.core.cards import decktet_cards

ROW = 5
COURT_LIMIT = 5

# What the table waits for after a deal (``deal``) or a play (``play``).
PLAY = 0  # a play (control)
EXCUSE_CAPITAL = 1  # the Excuse was dealt to the capital: a resource moves there
EXCUSE_RESOURCES = 2  # the Excuse was dealt to the resources: a capital card moves there
WON = 3
LOST = 4  # no play after a complete deal
UTTER = 5  # a sixth personality at court

# Which row a deal goes on with (the pass is capital first, then resources).
CAPITAL, RESOURCES = 0, 1

_SUIT_BIT = {s: 1 << k for k, s in enumerate(("Moons", "Suns", "Waves", "Leaves", "Wyrms", "Knots"))}
_ORDER = {c.id: i for i, c in enumerate(decktet_cards())}
_CARDS = {c.id: c for c in decktet_cards()}


def _rank(card_id: str) -> int:
    c = _CARDS[card_id]
    if c.value is not None:
        return c.value
    return 10 if c.rank in ("Pawn", "Court") else 0


class Tables:
    """Everything about one game's deck, by card index (deck order)."""

    def __init__(self, deck: tuple[str, ...]) -> None:
        ids = tuple(sorted(deck, key=_ORDER.__getitem__))
        self.ids = ids
        self.n = len(ids)
        self.index = {c: i for i, c in enumerate(ids)}
        self.rank = tuple(_rank(c) for c in ids)
        self.suits = tuple(sum(_SUIT_BIT[s] for s in _CARDS[c].suits) for c in ids)
        self.person = sum(1 << i for i, c in enumerate(ids) if "personality" in _CARDS[c].types)
        self.excuse = self.index.get("excuse", -1)
        self.excuse_bit = 0 if self.excuse < 0 else 1 << self.excuse
        self.all = (1 << self.n) - 1
        # share[i]: the cards that share a suit with card i (the Excuse shares none)
        self.share = tuple(
            sum(1 << j for j in range(self.n) if self.suits[i] & self.suits[j]) for i in range(self.n)
        )
        self.people = bin(self.person).count("1")
        # _sums[k][h]: the ranks of the cards of the k-th 16 bits of a mask, when they are h
        sums = []
        for k in range(0, self.n, 16):
            part = [0] * 65536
            for j in range(min(16, self.n - k)):
                bit, r = 1 << j, self.rank[k + j]
                for h in range(bit, 2 * bit):  # every h whose highest bit is j
                    part[h] = part[h - bit] + r
            sums.append(part)
        self._sums = sums
        self.total = self._total()
        # better[b]: the plain cards that can do all card b can as a resource (rank as high,
        # every suit of b), b itself excluded
        self.better = tuple(
            0 if self.person >> b & 1 or b == self.excuse else sum(
                1 << a for a in range(self.n)
                if a != b and not self.person >> a & 1 and a != self.excuse
                and self.rank[a] >= self.rank[b] and not self.suits[b] & ~self.suits[a])
            for b in range(self.n)
        )
        # worse[a]: the cards that card a can do all of (a itself excluded): the converse of ``better``
        self.worse = tuple(sum(1 << b for b in range(self.n) if self.better[b] >> a & 1) for a in range(self.n))
        self._pay: dict[tuple[int, int], tuple[int, ...]] = {}
        self._cards_of: dict[int, tuple[int, ...]] = {}  # a payment's mask -> its cards
        self._payc: dict[tuple[int, int, bool], tuple[tuple[int, tuple[int, ...]], ...]] = {}
        self._lean: dict[tuple[int, int, bool], tuple[int, ...]] = {}

    def mask(self, card_ids) -> int:
        out = 0
        for c in card_ids:
            out |= 1 << self.index[c]
        return out

    def cards(self, mask: int) -> list[str]:
        """The card ids of a mask, in deck order."""
        ids, out, i = self.ids, [], 0
        while mask:
            if mask & 1:
                out.append(ids[i])
            mask >>= 1
            i += 1
        return out

    def _total(self):
        """``total(mask)``: the ranks of the cards of a mask, added up (16 cards at a time)."""
        s0, s1, *more = self._sums + [[0]] * (3 - len(self._sums))
        s2 = more[0]
        if len(s2) > 1:
            return lambda m: s0[m & 65535] + s1[m >> 16 & 65535] + s2[m >> 32]
        return lambda m: s0[m & 65535] + s1[m >> 16]

    def payments(self, res: int, target: int) -> tuple[int, ...]:
        """Every legal payment for card ``target`` as masks, fewest cards first, each size
        in deck order (the order of the rules' ``payments``)."""
        elig = res & self.share[target]
        key = (elig, self.rank[target])
        found = self._pay.get(key)
        if found is None:
            found = self._payments(elig, self.rank[target], False)
            if len(self._pay) > 50_000:  # a cache, not a record: keep memory flat
                self._pay.clear()
            self._pay[key] = found
        return found

    def payments_by_card(self, res: int, target: int, lean: bool = False) -> tuple[tuple[int, tuple[int, ...]], ...]:
        """As ``payments`` (or ``lean_payments``), each with the indexes of its cards."""
        elig = res & self.share[target]
        key = (elig, self.rank[target], lean)
        found = self._payc.get(key)
        if found is None:
            pays = self.lean_payments(res, target) if lean else self.payments(res, target)
            cards_of = self._cards_of
            found = tuple((p, cards_of.get(p) or tuple(bits(p))) for p in pays)
            if len(self._payc) > 30_000:
                self._payc.clear()
            self._payc[key] = found
        return found

    def lean_payments(self, res: int, target: int, minimal: bool = False) -> tuple[int, ...]:
        """The payments worth trying when no Excuse is still to come: of two payments of the
        same number of cards, the one that keeps the better cards is as good (the deal goes on
        the same way, and whatever the other could pay later, these can), so the other is
        left out. With ``minimal`` (the deck is empty), only the minimal payments."""
        elig = res & self.share[target]
        key = (elig, self.rank[target], minimal)
        found = self._lean.get(key)
        if found is None:
            pays = self._payments(elig, self.rank[target], minimal)
            worse, cards_of = self.worse, self._cards_of
            by_size: dict[int, list[int]] = {}
            for p in pays:
                by_size.setdefault(p.bit_count(), []).append(p)
            kept = []
            for same in by_size.values():
                for i, p in enumerate(same):
                    # the cards some card of p can stand in for: q keeps better cards only
                    # if every card q spends and p keeps is among them
                    below = 0
                    for a in cards_of.get(p) or bits(p):
                        below |= worse[a]
                    for j, q in enumerate(same):
                        if j != i and not q & ~p & ~below and self.keeps_better(q, p) and (
                                j < i or not self.keeps_better(p, q)):
                            break
                    else:
                        kept.append(p)
            found = tuple(kept)
            if len(self._lean) > 30_000:
                self._lean.clear()
            self._lean[key] = found
        return found

    def keeps_better(self, q: int, p: int) -> bool:
        """Whether paying ``q`` keeps cards as good as paying ``p`` does (same size): each
        card ``q`` spends and ``p`` keeps is matched by a distinct card ``p`` spends and ``q``
        keeps that can do all it can."""
        kept = p & ~q  # kept by q
        better = self.better
        only = q & ~p  # kept by p
        if not only & (only - 1):  # one card each way: is p's one better?
            return bool(kept & better[only.bit_length() - 1])
        spent = list(bits(only))
        for b in spent:
            if not kept & better[b]:
                return False

        def match(i: int, free: int) -> bool:
            if i == len(spent):
                return True
            b = spent[i]
            m = free & better[b]
            while m:
                low = m & -m
                if match(i + 1, free ^ low):
                    return True
                m ^= low
            return False

        return match(0, kept)

    def _payments(self, elig: int, need: int, minimal: bool) -> tuple[int, ...]:
        if len(self._cards_of) > 50_000:
            self._cards_of.clear()
        idx = list(bits(elig))
        rank = self.rank
        ranks = sorted((rank[i] for i in idx), reverse=True)
        if sum(ranks) < need:
            return ()
        out = []
        for k in range(1, len(idx) + 1):
            if sum(ranks[:k]) < need:
                continue  # even the k best cards fall short
            for combo in combinations(idx, k):
                total = sum(map(rank.__getitem__, combo))
                if total < need:
                    continue
                if minimal and total - min(map(rank.__getitem__, combo)) >= need:
                    continue
                m = 0
                for i in combo:
                    m |= 1 << i
                out.append(m)
                self._cards_of[m] = combo
        return tuple(out)


_TABLES: dict[tuple[str, ...], Tables] = {}


def tables(deck: tuple[str, ...]) -> Tables:
    """The (shared, never changed) tables of a game's deck."""
    t = _TABLES.get(deck)
    if t is None:
        t = _TABLES[deck] = Tables(deck)
    return t


def bits(mask: int):
    """The card indexes of a mask, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


_INDEXES: dict[int, tuple[int, ...]] = {}


def indexes(mask: int) -> tuple[int, ...]:
    """As ``bits``, as a tuple remembered for the masks met most (a cache of bounded size)."""
    found = _INDEXES.get(mask)
    if found is None:
        if len(_INDEXES) > 20_000:
            _INDEXES.clear()
        found = _INDEXES[mask] = tuple(bits(mask))
    return found


class Deal:
    """One deal with every card known: ``order`` is card indexes by slot (slot ``k`` is the
    ``k``-th card drawn). A position is ``(slot, capital, resources, court)``: the cards
    drawn are those of slots before ``slot``."""

    def __init__(self, t: Tables, order: list[int]) -> None:
        self.t = t
        self.order = order
        self.n = len(order)
        prefix = [0]
        for c in order:
            prefix.append(prefix[-1] | 1 << c)
        self.prefix = prefix  # prefix[k]: the cards of slots before k

    def won(self, slot: int, cap: int, court: int) -> bool:
        """Every personality controlled: none on the table, none still to be dealt."""
        return not (self.t.person & (cap | court | (self.t.all ^ self.prefix[slot])))

    def deal(self, slot: int, cap: int, res: int, court: int, filling: int) -> tuple[int, int, int, int, int]:
        """Go on with a pass of dealing: capital to five, then resources to five. Returns
        (what the table waits for, slot, capital, resources, court)."""
        t, order, n = self.t, self.order, self.n
        if filling == CAPITAL:
            while cap.bit_count() < ROW and slot < n:
                c = order[slot]
                slot += 1
                if c == t.excuse:
                    if res:
                        return EXCUSE_CAPITAL, slot, cap, res, court
                    continue  # nothing to move: discarded
                cap |= 1 << c
        while res.bit_count() < ROW and slot < n:
            c = order[slot]
            slot += 1
            b = 1 << c
            if c == t.excuse:
                if cap:
                    return EXCUSE_RESOURCES, slot, cap, res, court
                continue
            if t.person & b:
                court |= b
                if court.bit_count() > COURT_LIMIT:
                    return UTTER, slot, cap, res, court
            else:
                res |= b
        return self.stuck(slot, cap, res, court), slot, cap, res, court

    def stuck(self, slot: int, cap: int, res: int, court: int) -> int:
        t = self.t
        share, rank = t.share, t.rank
        for c in bits(cap | court):
            if t.total(res & share[c]) >= rank[c]:
                return PLAY
        return LOST

    def play(self, slot: int, cap: int, res: int, court: int, target: int, paid: int) -> tuple[int, int, int, int, int]:
        """Control card ``target`` with the resources ``paid`` (a legal play), then deal."""
        b = 1 << target
        res &= ~paid
        if self.t.person & b:
            cap &= ~b
            court &= ~b
            if self.won(slot, cap, court):
                return WON, slot, cap, res, court
        else:
            cap &= ~b
            res |= b
        return self.deal(slot, cap, res, court, CAPITAL)

    def shift(self, waits: int, slot: int, cap: int, res: int, court: int, card: int) -> tuple[int, int, int, int, int]:
        """The Excuse's move of card ``card``, then the deal goes on where it was."""
        b = 1 << card
        if waits == EXCUSE_CAPITAL:
            return self.deal(slot, cap | b, res & ~b, court, CAPITAL)
        cap &= ~b
        if self.t.person & b:
            court |= b
            if court.bit_count() > COURT_LIMIT:
                return UTTER, slot, cap, res, court
        else:
            res |= b
        return self.deal(slot, cap, res, court, RESOURCES)

    def moves(self, waits: int, cap: int, res: int, court: int) -> list[tuple[int, int]]:
        """The legal moves: (target, paid mask) for a play, (card, 0) for the Excuse."""
        t = self.t
        if waits == EXCUSE_CAPITAL:
            return [(c, 0) for c in bits(res)]
        if waits == EXCUSE_RESOURCES:
            return [(c, 0) for c in bits(cap)]
        if waits != PLAY:
            return []
        out = []
        for c in bits(court):
            out += [(c, p) for p in t.payments(res, c)]
        for c in bits(cap):
            out += [(c, p) for p in t.payments(res, c)]
        return out

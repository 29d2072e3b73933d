"""Adaman's built-in players: the best-scoring play, and why, seeing only what a player sees.

The greedy policy scores every legal play by the table it leaves, using what a player can
see: the rows, and which cards are still in the deck (never their order). What it weighs:

* a personality controlled, and one taken out of the court;
* the chance that the coming refill puts a sixth personality at court, and the court it
  is expected to leave;
* suits: for each set of suits a personality wears (and for all suits together), the
  ranks its personalities still to control need against the ranks that can still pay for
  them (the resources, the plain cards in the capital, in part, and those still in the
  deck). Its pressure grows fast as the spare shrinks, so a payment that eats into the
  Moons the Huntress (10) needs costs much, and one with Knots little;
* suits one at a time: each card spent or gained is worth its rank times how much its
  suits are needed (what the personalities left need, over what can pay for them);
* the targets the resources can still pay for, and the personalities they cannot;
* the worth of the fresh cards the refill will deal into the resources.

Once the deck is empty the rest of the game is solved exactly. The weights were tuned on
seeds 10000..11999 and checked on 20000..21999, outside the seeds the README reports.

The search player (:mod:`storyteller.games.adaman.search`) is the greedy one until three
cards or fewer are left in the deck; then it tries the greedy's best plays against every
order those cards can come in.

Both work on the bit masks of :mod:`storyteller.games.adaman.core`, whose agreement with
the rules is tested, and answer with the rules' own moves.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable
from functools import lru_cache
from math import exp

import storyteller.core.decktet as decktet
from storyteller.core.engine import Action, Hint
from storyteller.games.adaman import core
from storyteller.games.adaman.rules import AdamanState, Control, Shift

WEIGHTS = {
    "control": 31.8,  # a personality controlled
    "from_court": 0.87,  # ... taken out of the court
    "utter": 37.3,  # chance that the coming refill puts a sixth personality at court
    "court": 2.4,  # expected court size after the refill
    "unaffordable": 1.0,  # personalities on the table the remaining resources cannot pay for
    "mobility": 0.5,  # targets the remaining resources can still pay for
    "stuck": 3.18,  # ... none at all
    "spent": 0.283,  # per card spent
    "short": 12.8,  # pressure on the suit sets: the sum of exp(-spare ranks / margin)
    "margin": 5.3,
    "capital": 0.236,  # how much a plain capital card counts as supply (it must be bought)
    "slots": 0.0,  # per card the refill deals into the resources
    "value": 1.6,  # worth of the cards spent (rank weighted by how much their suits are needed)
    "gain": 1.06,  # worth of a card brought into the resources
    "fresh": 1.0,  # worth of the cards the refill will deal into the resources (on average)
}


@lru_cache(maxsize=4096)
def court_risk(court: int, resources: int, capital: int, people: int, cards: int) -> tuple[float, float]:
    """(chance of a sixth personality at court, expected court size) over the coming refill.

    ``people`` of the ``cards`` left in the deck are personalities; the capital is dealt
    first (a personality there is harmless), then the resources, where each personality
    goes to court and is replaced.
    """
    dist = {(people, cards): 1.0}
    for _ in range(max(0, core.ROW - capital)):
        nxt: dict = {}
        for (k, n), p in dist.items():
            if n == 0:
                nxt[(k, n)] = nxt.get((k, n), 0.0) + p
                continue
            if k:
                nxt[(k - 1, n - 1)] = nxt.get((k - 1, n - 1), 0.0) + p * k / n
            if k < n:
                nxt[(k, n - 1)] = nxt.get((k, n - 1), 0.0) + p * (n - k) / n
        dist = nxt
    need = max(0, core.ROW - resources)
    utter = expected = 0.0
    cur = {(k, n, court, 0): p for (k, n), p in dist.items()}
    while cur:
        nxt = {}
        for (k, n, c, got), p in cur.items():
            if got >= need or n == 0:
                expected += p * c
                continue
            if k:
                q = p * k / n
                if c + 1 > core.COURT_LIMIT:
                    utter += q
                else:
                    key = (k - 1, n - 1, c + 1, got)
                    nxt[key] = nxt.get(key, 0.0) + q
            if k < n:
                key = (k, n - 1, c, got + 1)
                nxt[key] = nxt.get(key, 0.0) + p * (n - k) / n
        cur = nxt
    return utter, expected


class Groups:
    """The suit sets that matter for one deck: each set of suits a personality wears, and
    all suits together. ``people[g]``: the personalities all of whose suits are in set g;
    ``cards[g]``: the plain cards with a suit in set g (only they can pay those)."""

    def __init__(self, t: core.Tables) -> None:
        sets = sorted({t.suits[c] for c in core.bits(t.person)} | {63})
        self.people = [sum(1 << c for c in core.bits(t.person) if t.suits[c] and not t.suits[c] & ~u) for u in sets]
        self.cards = [sum(1 << c for c in range(t.n) if not t.person >> c & 1 and t.suits[c] & u) for u in sets]
        self.suits = sets
        # vec[c]: card c's rank in each group it counts in (as a payer: ``cards``; as a personality: ``people``)
        self.payer = [tuple(t.rank[c] if m >> c & 1 else 0 for m in self.cards) for c in range(t.n)]
        self.needer = [tuple(t.rank[c] if m >> c & 1 else 0 for m in self.people) for c in range(t.n)]
        # per suit: a card's rank shared among its suits; the suit indexes of each card
        self.split = [tuple(t.rank[c] / bin(t.suits[c]).count("1") if t.suits[c] >> x & 1 else 0.0 for x in range(6))
                      for c in range(t.n)]
        self.suit_of = [tuple(x for x in range(6) if t.suits[c] >> x & 1) for c in range(t.n)]
        self.split_of = [tuple((x, self.split[c][x]) for x in self.suit_of[c]) for c in range(t.n)]
        # pair[c]: card c's suits as two indexes (the same twice for one suit; (0, 0) for
        # none); cards of three suits (the Pawns, the Courts) keep their third in ``third``
        self.pair = [(s + s + (0, 0))[:2] for s in self.suit_of]
        self.third = {c: s[2] for c, s in enumerate(self.suit_of) if len(s) > 2}
        self.total = t.total
        # personalities still to control -> ``wanted`` and ``demand`` (a set of personalities
        # of the deck: a few thousand at most)
        self._wanted: dict[int, list[int]] = {}
        self._demand: dict[int, list[float]] = {}
        # split_total[x](mask): the cards' ranks shared into suit x, added up (16 cards at a time)
        self.split_total: list[Callable[[int], float]] = []
        for x in range(6):
            parts = []
            for k in range(0, t.n, 16):
                part = array("d", bytes(8 * 65536))  # compact: a list of floats would take four times the memory
                for j in range(min(16, t.n - k)):
                    bit, v = 1 << j, self.split[k + j][x]
                    for h in range(bit, 2 * bit):
                        part[h] = part[h - bit] + v
                parts.append(part)
            s0, s1, *rest = parts + [[0.0]] * (3 - len(parts))
            s2 = rest[0]
            # the tables bound as defaults: fast locals in the hot loop (mypy cannot type such lambdas,
            # python/mypy#15459)
            self.split_total.append(
                (lambda m, s0=s0, s1=s1, s2=s2: s0[m & 65535] + s1[m >> 16 & 65535] + s2[m >> 32])  # type: ignore[misc]
                if len(s2) > 1 else (lambda m, s0=s0, s1=s1: s0[m & 65535] + s1[m >> 16]))  # type: ignore[misc]


    def wanted(self, todo: int) -> list[int]:
        """Per suit set, the ranks of the personalities ``todo`` in it (remembered)."""
        found = self._wanted.get(todo)
        if found is None:
            found = self._wanted[todo] = [self.total(todo & pm) for pm in self.people]
        return found

    def demand(self, todo: int) -> list[float]:
        """Per suit, the ranks of the personalities ``todo`` shared into it (remembered)."""
        found = self._demand.get(todo)
        if found is None:
            found = self._demand[todo] = [f(todo) for f in self.split_total]
        return found


_GROUPS: dict[int, Groups] = {}


def groups(t: core.Tables) -> Groups:
    g = _GROUPS.get(id(t))
    if g is None:
        g = _GROUPS[id(t)] = Groups(t)
    return g


_ENDGAME: dict[tuple, bool] = {}


def endgame(t: core.Tables, cap: int, res: int, court: int) -> bool:
    """With the deck empty: can every personality left on the table still be controlled?
    Nothing is dealt any more, so keeping a card never hurts: only minimal payments.
    (Answers are remembered: they depend on nothing but the table.)"""
    people = (cap | court) & t.person
    if not people:
        return True
    key = (id(t), cap, res, court)
    found = _ENDGAME.get(key)
    if found is not None:
        return found
    if len(_ENDGAME) > 50_000:
        _ENDGAME.clear()
    ok = False
    total, share, rank = t.total, t.share, t.rank
    # Nothing is dealt now: the resources must cover every personality's rank, and each
    # personality needs enough rank in its suits among the resources and the capital.
    if total(people) <= total(res):
        supply = res | (cap & ~t.person)
        if all(total(supply & share[p]) >= rank[p] for p in core.indexes(people)):
            for c in sorted(core.indexes(cap | court), key=rank.__getitem__, reverse=True):
                b = 1 << c
                for pay in t.lean_payments(res, c, True):
                    rest = res & ~pay
                    if t.person & b:
                        ok = endgame(t, cap & ~b, rest, court & ~b)
                    else:
                        ok = endgame(t, cap & ~b, rest | b, court)
                    if ok:
                        break
                if ok:
                    break
    _ENDGAME[key] = ok
    return ok


# Why a play was chosen: the reasons a hint can give.
WINS, ENDGAME, COURT, PERSON, PLAIN, BEYOND = range(6)


def best_play(t: core.Tables, cap: int, res: int, court: int, unseen: int, w: dict,
              scores: list | None = None, info: dict | None = None) -> tuple[int, int, int]:
    """The best play (target, paid mask) by the weights ``w``, and why (one of WINS...).
    With ``scores`` (and cards still unseen), every play's (score, target, paid) is added
    to it (the solver orders its search so); ``info`` gets the suit sets' pressure."""
    person_mask, rank, total, share = t.person, t.rank, t.total, t.share
    todo = (cap | court | unseen) & person_mask
    if not unseen:
        # Nothing is left to deal: the rest is solved exactly. The first winning play in the
        # order the search tries them (it has just searched them, so it remembers them all)
        if endgame(t, cap, res, court):
            for c in sorted(core.indexes(cap | court), key=rank.__getitem__, reverse=True):
                b = 1 << c
                for paid in t.lean_payments(res, c, True):
                    if person_mask & b:
                        if todo == b:
                            return c, paid, WINS
                        if endgame(t, cap & ~b, res & ~paid, court & ~b):
                            return c, paid, ENDGAME
                    elif endgame(t, cap & ~b, (res & ~paid) | b, court):
                        return c, paid, ENDGAME
        # Lost whatever is played: a personality if one can be paid for, at the least cost
        least = None
        for c in core.indexes(court | cap):
            for paid in t.lean_payments(res, c, True):
                order = (not person_mask >> c & 1, total(paid), paid.bit_count())
                if least is None or order < least[0]:
                    least = (order, c, paid)
        assert least is not None
        return least[1], least[2], BEYOND

    g = groups(t)
    plain = ~person_mask
    people_unseen = (unseen & person_mask).bit_count()
    cards_unseen = unseen.bit_count()
    n_cap, n_court, n_res = cap.bit_count(), court.bit_count(), res.bit_count()
    last = todo.bit_count() == 1
    # Of two payments of as many cards, the one keeping the better cards is as good, unless
    # the Excuse is still to come (see ``Tables.lean_payments``): the other is not weighed.
    lean = not unseen & t.excuse_bit
    lam = w["capital"]
    f = factors(t, 1.0 / w["margin"], lam)
    pair, third = g.pair, g.third

    # The pressure on each suit set: exp(-spare / margin), spare being the ranks that can
    # still pay for its personalities beyond what they need; and what spending each
    # resource would add to it.
    cap_plain = cap & plain
    supply_now = res | (unseen & plain)
    tau = f.tau
    wanted = g.wanted(todo)  # per suit set, the ranks its personalities still to control need
    press = [exp(min(40.0, (x - total(supply_now & cm) - lam * total(cap_plain & cm)) * tau))
             for x, cm in zip(wanted, g.cards)]
    if info is not None:
        info["press"] = press
    res_cards = core.indexes(res)
    base_cost = {}
    for r in res_cards:
        x = 0.0
        for k, m in f.spend[r]:
            x += press[k] * m
        base_cost[r] = x
    # Suits one at a time: how much each is needed against what can still pay for it.
    pool = res | cap_plain | (unseen & plain)
    demand = g.demand(todo)
    inv_supply = [1.0 / (b if b > 1.0 else 1.0) for b in [split(pool) for split in g.split_total]]
    need = [a * b for a, b in zip(demand, inv_supply)]
    fresh_cards = core.indexes(unseen & plain & ~t.excuse_bit)
    room = len(fresh_cards)
    if room:
        fresh = 0.0
        for r in fresh_cards:
            x, y = pair[r]
            a, bb = need[x], need[y]
            if third and r in third:
                a = max(a, need[third[r]])
            fresh += rank[r] * (a if a > bb else bb)
        fresh_each = w["fresh"] * fresh / room
    else:
        fresh_each = 0.0

    w_short, w_value, w_spent, w_gain = w["short"], w["value"], w["spent"], w["gain"]
    w_utter, w_court, w_slots = w["utter"], w["court"], w["slots"]
    w_unaff, w_mob, w_stuck = w["unaffordable"], w["mobility"], w["stuck"]
    w_control, w_from_court = w["control"], w["from_court"]

    # What the resources can pay for now: per target, the ranks sharing a suit with it;
    # and for each resource, the targets it helps pay for.
    tlist = core.indexes(court | cap)
    reach = [total(res & share[x]) for x in tlist]
    need_rank = [rank[x] for x in tlist]
    is_person_t = [person_mask >> x & 1 for x in tlist]
    helps: dict = {}  # for each resource (when asked), the targets it helps pay for
    affordable = [a >= n for a, n in zip(reach, need_rank)]
    able_all = sum(affordable)
    unable_all = sum(1 for ok, p in zip(affordable, is_person_t) if p and not ok)

    # First each target's own worth; then the targets in order of it, each with its
    # payments, skipping a target whose best conceivable play cannot beat the best found.
    heads = []
    for ci, c in enumerate(tlist):
        pays = t.payments_by_card(res, c, lean)
        if not pays:
            continue
        b = 1 << c
        is_person = person_mask & b
        if is_person and last and scores is None:
            return c, pays[0][0], WINS
        # the target's own effect on the suit sets' pressure
        delta = [(k, press[k] * m) for k, m in (f.control[c] if is_person else f.gain[c])]
        relief = 0.0
        for _, d in delta:
            relief += d
        if is_person:
            head = w_control + (w_from_court if court & b else 0.0) - w_short * relief
        else:
            x, y = pair[c]
            a = max(need[x], need[y], need[third[c]]) if third and c in third else max(need[x], need[y])
            head = w_gain * rank[c] * a - w_short * relief
        heads.append((-head, ci, c, pays, delta))
    heads.sort()
    most_able = w_mob * (len(tlist) - 1) - w_spent
    # by the number of resources left: the refill's risks and gains (target in the capital, at court)
    tails_of: tuple[dict, dict] = ({}, {})
    best_value = None
    best_at = (0, 0)  # read only once best_value is set
    best = (0, 0, PLAIN)
    for minus_head, ci, c, pays, delta in heads:
        head = -minus_head
        b = 1 << c
        is_person = person_mask & b
        in_court = court & b
        courts = n_court - (1 if in_court else 0)
        caps = n_cap - (0 if in_court else 1)
        keep = n_res + (0 if is_person else 1)
        tails = tails_of[1 if in_court else 0]
        for n_rest in range(keep - len(pays[-1][1]), keep - len(pays[0][1]) + 1):
            if n_rest not in tails:
                utter, expected = court_risk(courts, n_rest, caps, people_unseen, cards_unseen)
                slots = min(max(0, core.ROW - n_rest), room)
                tails[n_rest] = -w_utter * utter - w_court * expected + slots * (w_slots + fresh_each)
        if scores is None and best_value is not None and head + max(
                [tails[n] for n in range(keep - len(pays[-1][1]), keep - len(pays[0][1]) + 1)]
        ) + most_able < best_value:
            continue
        # the suits' need without this personality
        if is_person:
            need_c = need.copy()
            for x, v in g.split_of[c]:
                need_c[x] = (demand[x] - v) * inv_supply[x]
            reach_c = reach
        else:
            need_c = need
            reach_c = [a + rank[c] if share[x] >> c & 1 else a for a, x in zip(reach, tlist)]
        # what the resources can pay for after the play, before paying: the target is gone
        if affordable[ci]:
            able0, unable0 = able_all - 1, unable_all
        else:
            able0, unable0 = able_all, unable_all - is_person_t[ci]
        if not is_person:  # and a plain target joins the resources
            for i, _a in enumerate(reach):
                if i != ci and not affordable[i] and reach_c[i] >= need_rank[i]:
                    able0 += 1
                    unable0 -= is_person_t[i]
        cost = {}
        for r in core.indexes(res & share[c]):
            sp = f.dense[r]
            x = base_cost[r]
            for k, d in delta:
                x += d * sp[k]
            y, z = pair[r]
            a, bb = need_c[y], need_c[z]
            if third and r in third:
                a = max(a, need_c[third[r]])
            cost[r] = w_short * x + w_value * rank[r] * (a if a > bb else bb) + w_spent
        why = COURT if is_person and in_court else PERSON if is_person else PLAIN
        # paying only takes cards away: what the resources can pay for is at best as now
        most = w_mob * able0 - w_unaff * unable0 - (w_stuck if able0 == 0 else 0.0)
        for pi, (paid, paid_cards) in enumerate(pays):
            value = head + tails[keep - len(paid_cards)]
            for r in paid_cards:
                value -= cost[r]
            if scores is None and best_value is not None and value + most < best_value:
                continue
            able, unable = able0, unable0
            if len(paid_cards) == 1:
                r = paid_cards[0]
                rr = rank[r]
                h = helps.get(r)
                if h is None:
                    h = helps[r] = [i for i, x in enumerate(tlist) if share[x] >> r & 1]
                for i in h:
                    if i != ci:
                        a = reach_c[i]
                        if a >= need_rank[i] > a - rr:
                            able -= 1
                            if is_person_t[i]:
                                unable += 1
            else:
                lost: dict = {}
                for r in paid_cards:
                    rr = rank[r]
                    h = helps.get(r)
                    if h is None:
                        h = helps[r] = [i for i, x in enumerate(tlist) if share[x] >> r & 1]
                    for i in h:
                        lost[i] = lost.get(i, 0) + rr
                for i, rr in lost.items():
                    if i != ci:
                        a = reach_c[i]
                        if a >= need_rank[i] > a - rr:
                            able -= 1
                            if is_person_t[i]:
                                unable += 1
            value += w_mob * able - w_unaff * unable - (w_stuck if able == 0 else 0.0)
            if scores is not None:
                scores.append((value, c, paid))
            # the best value; of equal ones, the first in the order of the targets and payments
            if best_value is None or value > best_value or (value == best_value and (ci, pi) < best_at):
                best_value, best_at = value, (ci, pi)
                best = (c, paid, why)
    return best


class Factors:
    """For one deck and one margin: how each card moves the suit sets' pressure.

    ``spend[r]``: (set, factor - 1) for the sets card r pays in: taking r away multiplies
    their pressure by the factor. ``control[c]``: the same for controlling personality c
    (its need goes), ``gain[c]``: for bringing plain card c from the capital to the
    resources (it counts fully instead of in part)."""

    def __init__(self, t: core.Tables, tau: float, lam: float) -> None:
        g = groups(t)
        self.tau = tau
        self.spend = [[(k, exp(v * tau) - 1.0) for k, v in enumerate(g.payer[c]) if v] for c in range(t.n)]
        self.dense = [[exp(v * tau) - 1.0 if v else 0.0 for v in g.payer[c]] for c in range(t.n)]
        self.control = [[(k, exp(-v * tau) - 1.0) for k, v in enumerate(g.needer[c]) if v] for c in range(t.n)]
        self.gain = [[(k, exp(-(1.0 - lam) * v * tau) - 1.0) for k, v in enumerate(g.payer[c]) if v]
                     for c in range(t.n)]


_FACTORS: dict[tuple[int, float, float], Factors] = {}


def factors(t: core.Tables, tau: float, lam: float) -> Factors:
    key = (id(t), tau, lam)
    found = _FACTORS.get(key)
    if found is None:
        if len(_FACTORS) > 64:
            _FACTORS.clear()
        found = _FACTORS[key] = Factors(t, tau, lam)
    return found


def best_shift(t: core.Tables, waits: int, cap: int, res: int, court: int, unseen: int, w: dict) -> int:
    """The Excuse's move: away goes the resource the suits need least; in comes the capital
    card worth most (a personality only if nothing else is there)."""
    g = groups(t)
    todo = (cap | court | unseen) & t.person
    plain = ~t.person
    supply = res | (unseen & plain) | (cap & plain)
    slack = [t.total(supply & cm) - t.total(todo & pm) for pm, cm in zip(g.people, g.cards)]
    margin = w["margin"]

    def need(c: int) -> float:  # how much the suit sets would miss card c
        return sum(min(max(margin - (s - r), 0.0), r) for s, r in zip(slack, g.payer[c])) + 0.1 * t.rank[c]

    if waits == core.EXCUSE_CAPITAL:
        return min(core.bits(res), key=need)
    options = list(core.bits(cap & plain)) or list(core.bits(cap))
    if cap & plain:
        return max(options, key=need)
    return min(options, key=lambda c: t.rank[c])


def keeping(t: core.Tables, cap: int, court: int, unseen: int, c: int, paid: int, press: list[float]) -> str:
    """", keeping your Moons for the Huntress (10)" when the play spends none of the suits
    of the suit set under the most pressure (``press``, from ``best_play``) that still has
    a personality to control besides the target; else ""."""
    g = groups(t)
    todo = (cap | court | unseen) & t.person & ~(1 << c)
    tightest = None
    for k, (u, pm) in enumerate(zip(g.suits, g.people)):
        if u != 63 and pm & todo and (tightest is None or press[k] > press[tightest]):
            tightest = k
    if tightest is None or press[tightest] < 0.1 or paid & g.cards[tightest]:
        return ""
    who = max(core.indexes(todo & g.people[tightest]), key=t.rank.__getitem__)
    card = decktet.get(t.ids[who])
    return f", keeping your {' and '.join(card.suits)} for {decktet.name(card)} ({t.rank[who]})"


class AdamanGreedy:
    """The built-in policy: the best-scoring play (or Excuse move) and why, in plain words.

    It keeps no memory between choices: each one looks only at the state it is shown."""

    def __init__(self, weights: dict | None = None) -> None:
        self.weights = weights or WEIGHTS

    def choose(self, state: AdamanState) -> Hint | None:
        if state.result is not None or state.pending is not None:
            return None
        t = core.tables(state.deck)
        mask = t.mask
        cap, res, court = mask(state.capital), mask(state.resources), mask(state.court)
        seen = cap | res | court | mask(state.discard) | mask(state.controlled)
        if state.excuse_at is not None:
            seen |= 1 << t.excuse
        unseen = t.all & ~seen
        if state.excuse_at is not None:
            waits = core.EXCUSE_CAPITAL if state.excuse_at == "capital" else core.EXCUSE_RESOURCES
            c = best_shift(t, waits, cap, res, court, unseen, self.weights)
            return self._shift_hint(state, t, waits, c)
        info: dict = {}
        c, paid, why = best_play(t, cap, res, court, unseen, self.weights, info=info)
        move = Control(t.ids[c], tuple(t.cards(paid)))
        return Hint(Action(move, state.describe(move)), self._why(t, (cap, court, unseen), c, paid, why, info))

    def _why(self, t: core.Tables, masks: tuple[int, int, int], c: int, paid: int, why: int, info: dict) -> str:
        target = t.ids[c]
        over = t.total(paid) - t.rank[c]
        cost = "at its exact rank" if over == 0 else f"paying {over} over its rank"
        name, Name = decktet.name(target), decktet.Name(target)
        if why == WINS:
            return f"Controlling {name} wins: it is the last personality."
        if why == ENDGAME:
            return f"The deck is empty, and after controlling {name} every personality left can still be paid for."
        if why == BEYOND:
            if t.person >> c & 1:
                return ("The deck is empty and no line of play controls every personality now: "
                        f"{name} adds {t.rank[c]} to your score.")
            return ("The deck is empty and no line of play controls every personality now: "
                    f"{name} joins your resources to pay for more.")
        keep = keeping(t, *masks, c, paid, info["press"]) if "press" in info else ""
        if why == COURT:
            return f"{Name} is at court, where a sixth personality would end the game: control it {cost}{keep}."
        if why == PERSON:
            keep = keep or ", with the cards your other targets need least"
            return f"{Name} is a personality you can control now, {cost}{keep}."
        return f"{Name} joins your resources {cost}{keep or ', keeping the court safe'}."

    @staticmethod
    def _shift_hint(state: AdamanState, t: core.Tables, waits: int, c: int) -> Hint:
        card = t.ids[c]
        if waits == core.EXCUSE_CAPITAL:
            move = Shift(card, "capital")
            why = (f"{decktet.Name(card)} is the resource your personalities need least; "
                   "it stays within reach in the capital.")
        elif t.person >> c & 1:
            move = Shift(card, "court")
            why = f"Only personalities are in the capital: {decktet.name(card)} is the cheapest to control at court."
        else:
            move = Shift(card, "resources")
            why = f"{decktet.Name(card)} is the capital card most useful as a resource."
        return Hint(Action(move, state.describe(move)), why)

"""Adaman's search player: the greedy player's best plays, each played on over deals
sampled from the cards still unseen, and, near the end of the deck, an exact
expectimax over the orders the last cards can come in.

It sees only what a player sees: which cards are still in the deck, never their order.
Every card still to come is chance, through the whole game:

* Early on, each of the greedy player's few best plays is made on the same sampled
  deals (orders of the unseen cards, shuffled by a stream seeded by what the table
  shows, so the same table always gets the same samples and the same choice), and the
  game is played on to its end by the greedy player, who sees, in each sample, only
  what it would see at the table. The play that wins most of the samples is chosen
  (of equal ones, the greedy's first). The samples never know the real order, and the
  greedy player on them never peeks at the order of its sample either: this is a
  rollout of an honest player, not a deal solved as if known.
* With ``exact`` cards or fewer left in the deck, every order of those cards is
  weighed (each as likely), and the choice is an expectimax: the play whose average,
  over the cards the refill then turns up, of the best that can be done next is
  highest. Each decision in that tree knows only the cards turned up so far; once the
  deck is empty the rest is solved exactly (nothing is hidden any more).
"""

from __future__ import annotations

from itertools import permutations

import storyteller.core.decktet as decktet
from storyteller.core.engine import Action, Hint
from storyteller.games.adaman import core
from storyteller.games.adaman.players import AdamanGreedy, best_play, best_shift, endgame, groups
from storyteller.games.adaman.rules import AdamanState, Control
from storyteller.core.rng import Stream

LIVE = (core.PLAY, core.EXCUSE_CAPITAL, core.EXCUSE_RESOURCES)


def rollout(d: core.Deal, nxt: tuple, w: dict, count: list) -> int:
    """1 if the greedy player, playing on from ``nxt`` (what the table waits for, slot,
    capital, resources, court) of the sampled deal ``d``, wins; else 0. The greedy sees
    only the cards of its sample turned up so far (``unseen`` is the rest, as a set).
    ``count[0]`` counts its decisions (the search's measure of work).

    A sample is given up as lost as soon as a bound shows that no player could win it any
    more (see ``lost``): the greedy would lose it too, so that changes no result."""
    t = d.t
    prefix, every = d.prefix, t.all
    sets = suit_sets(t)
    while True:
        waits = nxt[0]
        if waits == core.WON:
            return 1
        if waits not in LIVE:
            return 0
        _, slot, cap, res, court = nxt
        unseen = every ^ prefix[slot]
        if waits == core.PLAY:
            if not unseen:
                return 1 if endgame(t, cap, res, court) else 0
            if lost(t, sets, cap, res, court, unseen):
                return 0
        count[0] += 1
        if waits == core.PLAY:
            c, p, _ = best_play(t, cap, res, court, unseen, w)
            nxt = d.play(slot, cap, res, court, c, p)
        else:
            c = best_shift(t, waits, cap, res, court, unseen, w)
            nxt = d.shift(waits, slot, cap, res, court, c)


_SETS: dict[int, tuple] = {}


def suit_sets(t: core.Tables) -> tuple:
    """For each set of suits a personality wears, and for all suits together: (the
    personalities all of whose suits are in it, the plain cards with a suit in it)."""
    found = _SETS.get(id(t))
    if found is None:
        g = groups(t)
        found = _SETS[id(t)] = tuple(zip(g.people, g.cards))
    return found


def lost(t: core.Tables, sets: tuple, cap: int, res: int, court: int, unseen: int) -> bool:
    """Whether no line of play can win, whatever order the ``unseen`` cards come in: the
    personalities still to control need more ranks than the resources and the plain cards
    still to come hold (a capital card bought costs at least its rank, so it adds none,
    unless the Excuse, still to come, may move it in for free); or, for some set of suits,
    more than the plain cards with a suit in it (resources, capital, still to come) hold."""
    total, person = t.total, t.person
    todo = (cap | court | unseen) & person
    plain_unseen = unseen & ~person
    supply = res | plain_unseen
    have = total(supply)
    if unseen & t.excuse_bit:
        have += total(cap & ~person)
    if total(todo) > have:
        return True
    supply |= cap & ~person
    for people, cards in sets:
        mine = todo & people
        if mine and total(mine) > total(supply & cards):
            return True
    return False


def ranked(t: core.Tables, waits: int, cap: int, res: int, court: int, unseen: int, w: dict) -> list[tuple[int, int]]:
    """The moves at a table, the greedy's best first: (card, paid) plays, each once; or, where
    the Excuse waits, the cards it can move (paid 0), the greedy's choice first."""
    if waits == core.PLAY:
        scores: list = []
        best_play(t, cap, res, court, unseen, w, scores)
        scores.sort(key=lambda s: -s[0])
        return list(dict.fromkeys((c, p) for _, c, p in scores))
    cards = res if waits == core.EXCUSE_CAPITAL else cap
    first = best_shift(t, waits, cap, res, court, unseen, w)
    return sorted(((c, 0) for c in core.bits(cards)), key=lambda m: m[0] != first)


class Expectimax:
    """The exact chance of winning of the best play, with few cards left: over every
    order of the unseen cards (equally likely), the decisions knowing only what has
    been turned up. ``width`` bounds the plays tried at each decision (the greedy's
    best first)."""

    def __init__(self, t: core.Tables, w: dict, width: int) -> None:
        self.t, self.w, self.width = t, w, width
        self.memo: dict[tuple, float] = {}
        self.count = 0

    def moves(self, waits: int, slot: int, cap: int, res: int, court: int, unseen: int) -> list[tuple[int, int]]:
        out = ranked(self.t, waits, cap, res, court, unseen, self.w)
        return out[: self.width] if waits == core.PLAY else out

    def after(self, deals: list[core.Deal], pos: tuple, move: tuple[int, int]) -> float:
        """The chance of winning after ``move``, the deals grouped by what the player sees next."""
        waits, slot, cap, res, court = pos
        c, p = move
        groups: dict[tuple, list[core.Deal]] = {}
        for d in deals:
            nxt = (d.play(slot, cap, res, court, c, p) if waits == core.PLAY
                   else d.shift(waits, slot, cap, res, court, c))
            groups.setdefault(nxt, []).append(d)
        total = 0.0
        for nxt, group in groups.items():
            total += len(group) * self.value(group, nxt)
        return total / len(deals)

    def value(self, deals: list[core.Deal], pos: tuple) -> float:
        waits, slot, cap, res, court = pos
        if waits == core.WON:
            return 1.0
        if waits not in LIVE:
            return 0.0
        t, d = self.t, deals[0]
        unseen = t.all ^ d.prefix[slot]
        if slot >= d.n and waits == core.PLAY and not (t.excuse_bit & unseen):
            return 1.0 if endgame(t, cap, res, court) else 0.0
        key = (pos, unseen)
        found = self.memo.get(key)
        if found is not None:
            return found
        self.count += 1
        best = 0.0
        for move in self.moves(waits, slot, cap, res, court, unseen):
            v = self.after(deals, pos, move)
            if v > best + 1e-12:
                best = v
                if best >= 1.0 - 1e-12:
                    break
        self.memo[key] = best
        return best


class AdamanSearch(AdamanGreedy):
    """The greedy player's ``candidates`` best plays, each played on over ``samples``
    sampled deals by the greedy player (see the module's text); with ``exact`` cards or
    fewer left, an exact expectimax over their orders, ``width`` plays at each decision.
    ``work`` bounds the greedy decisions of one choice's rollouts (about a second)."""

    def __init__(self, weights: dict | None = None, candidates: int = 8, rounds: tuple = ((2, 8), (1, 32)),
                 exact: int = 3, width: int = 8, work: int = 3500) -> None:
        super().__init__(weights)
        self.candidates = candidates
        self.rounds = rounds
        self.exact = exact
        self.width = width
        self.work = work

    def choose(self, state: AdamanState) -> Hint | None:
        if state.result is not None or state.pending is not None or not state.deck_count:
            return super().choose(state)  # with the deck empty the greedy solves the rest exactly
        t = core.tables(state.deck)
        mask = t.mask
        cap, res, court = mask(state.capital), mask(state.resources), mask(state.court)
        seen = [t.index[c] for cards in state.places().values() for c in cards]
        unseen = t.all & ~sum(1 << c for c in seen)
        if state.excuse_at is not None:
            waits = core.EXCUSE_CAPITAL if state.excuse_at == "capital" else core.EXCUSE_RESOURCES
        else:
            waits = core.PLAY
        table = repr((state.drawn, state.capital, state.resources, state.court, state.discard, state.controlled,
                      state.excuse_at))
        found = plan(t, waits, state.drawn, cap, res, court, seen, unseen, table, self.weights, self.candidates,
                     self.rounds, self.exact, self.width, self.work)
        if found is None:
            return super().choose(state)
        (c, paid), chance, tried, how = found
        if waits != core.PLAY:
            hint = self._shift_hint(state, t, waits, c)
            return Hint(hint.action, hint.why[:-1] + f" ({_odds(chance, how)}).")
        move = Control(t.ids[c], tuple(t.cards(paid)))
        name = decktet.name(t.ids[c])
        if how[0] == "exact":
            left = state.deck_count
            cards = "card" if left == 1 else f"{left} cards"
            if chance >= 1.0 - 1e-9:
                why = f"Controlling {name} wins however the last {cards} of the deck come."
            elif chance > 0:
                why = (f"Controlling {name} wins in {round(100 * chance)} of every 100 ways the last {cards} of the "
                       f"deck can come: more than any other of the {tried} plays.")
            else:
                why = (f"However the last {cards} of the deck come, no play can win now; the quick player would "
                       f"control {name}.")
        else:
            wins, of = how[1], how[2]
            if wins == 0:
                why = (f"Played on {of} times from here, the hidden cards shuffled each time, no play ever won; the "
                       f"quick player would control {name}.")
            else:
                why = (f"Played on {of} times from here, the hidden cards shuffled each time, controlling {name} won "
                       f"{wins} of them: the best of the {tried} plays tried.")
        return Hint(Action(move, state.describe(move)), why)


def _odds(chance: float, how: tuple) -> str:
    if how[0] == "exact":
        return f"winning in {round(100 * chance)} of every 100 ways the last cards can come"
    return f"it won {how[1]} of {how[2]} games played on from here, the hidden cards shuffled each time"


def plan(t: core.Tables, waits: int, slot: int, cap: int, res: int, court: int, seen: list[int], unseen: int,
         table: str, w: dict, candidates: int, rounds: tuple, exact: int, width: int, work: int):
    """The search's choice at a table a player sees: ((card, paid), chance of winning,
    plays weighed, ("exact",) or ("sampled", wins, samples)); None when there is no
    choice to make (one move only)."""
    left = unseen.bit_count()
    moves = ranked(t, waits, cap, res, court, unseen, w)
    if len(moves) < 2:
        return None
    pos = (waits, slot, cap, res, court)
    if left <= exact:
        deals = [core.Deal(t, seen + list(order)) for order in permutations(core.indexes(unseen))]
        ex = Expectimax(t, w, width)
        best = None
        tried = 0
        for move in moves[:width]:
            v = ex.after(deals, pos, move)
            tried += 1
            if best is None or v > best[1] + 1e-12:
                best = (move, v)
                if v >= 1.0 - 1e-12:
                    break
        assert best is not None  # two moves or more were weighed
        return best[0], best[1], tried, ("exact",)
    cards = list(core.indexes(unseen))
    most = max(n for _, n in rounds)
    deals = [core.Deal(t, seen + Stream(table, "search", str(k)).shuffled(cards)) for k in range(most)]
    count = [0]
    alive = list(range(min(candidates, len(moves))))
    won = [0] * len(alive)
    done = [0] * len(alive)
    for keep, n in rounds:
        for i in alive:
            c, p = moves[i]
            for d in deals[done[i]:n]:
                nxt = (d.play(slot, cap, res, court, c, p) if waits == core.PLAY
                       else d.shift(waits, slot, cap, res, court, c))
                won[i] += rollout(d, nxt, w, count)
            done[i] = n
        alive.sort(key=lambda i: (-won[i], i))
        if won[alive[0]] == done[alive[0]] or count[0] > work:
            break  # a play that won every sample, or the work is spent
        if all(won[i] == 0 for i in alive):
            break  # nothing wins: more samples will not tell the plays apart
        alive = sorted(alive[:keep])
    tried = sum(1 for k in done if k)
    chosen = min(alive, key=lambda i: (-won[i] / done[i], i))
    return moves[chosen], won[chosen] / done[chosen], tried, ("sampled", won[chosen], done[chosen])

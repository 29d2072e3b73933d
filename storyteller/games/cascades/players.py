"""The built-in Cascades player (``--auto greedy`` and *Hint*): wait, then plan with what
has been seen.

Three facts make it strong. First, it pays to turn through the first three passes without
playing: by then every reserve is open, every card of the stock has been seen, and only
the two cards under each reserve's top are still face down. Second, with that much known
nearly every deal can still be won, and the search of ``cascades_solver`` finds a way in
a few hundred positions. For the cards still face down the player knows which they are,
only not where: the policy guesses where (a shuffle seeded from the table, nothing else),
searches for a line that places every card, and follows it. Third, the guess should be
trusted as little as possible: the search tries first the plays that turn a face-down card
up, so the cards are seen early and few plays are made on the strength of a guess (this
alone took the wins on seeds 0..199 from 87.5% to 99%). When a card turns up, the policy
looks again, now knowing one card more; its new guess keeps the old one where it still
can (the card that turned up and the card guessed there change places) and it tries the
old line's plays first, so a wrong guess costs little. When no line places every card it
plays the longest line it found.

The plans are kept in the policy object, one per game, keyed by everything the next move
depends on (the placed cards, the waste and stock, the suits at the tiers' ends, how the
Aces and Crowns are spread, the reserve tops): a position met along a plan gets that
plan's next move, and a position off every plan (the player chose otherwise, a card
turned up) gets a fresh search. The search is bounded (SEARCH_NODES positions, then a few
more guesses), so a hint is quick. Everything here reads only what a player sees: the
state holds no face-down card, only where one lies.
"""

from __future__ import annotations

from storyteller.core.engine import Action, Hint, Move
from storyteller.games.cascades.rules import _DECK_SETS, _LABELS, RESERVES, CascadesState, Play, Turn
from storyteller.games.cascades.solver import Deck, OutOfBudget, Search, shuffled, turned

SEARCH_NODES = 10_000  # positions one search may visit
GUESSES = 2  # where the face-down cards lie: how many guesses may be searched for a full line
EAGER = 100_000  # a play that turns up a face-down card is tried before any other (see above)
PREFERRED = 10_000_000  # the last line's plays are tried before those, in its order (a first try only)
PLAN_MAX = 100_000  # positions remembered before the memory starts afresh

TURN_TOWARD = "Turn toward {0}: the plan plays it next, on tier {1}."
WHOLE = ("Planning with every card you have seen (and a guess for the few still face down), all {0} cards left "
         "can be placed; this play is the next step of that plan.")
WHOLE_KNOWN = "Every card is known now and all {0} left can be placed; this play is the next step of the plan."
PART = "No way to place all {0} cards left was found; this play starts the longest line found, placing {1}."
REVEAL = ("Play from this reserve now: it turns up a face-down card, and the sooner you see it the better you can "
          "plan; a way to place all {0} cards left still exists.")
REVEAL_PART = ("Play from this reserve now: it turns up a face-down card, and the sooner you see it the better you "
               "can plan; no way to place all {0} cards was found, this line places {1}.")
WAIT = (
    "Turn without playing until every reserve is open: by then you have seen every card but the few "
    "under the reserve tops, and a plan made with all of them wins far more often than playing early."
)


def signature(state: CascadesState, deck: Deck) -> tuple:
    """What the next move depends on, written as the search writes it (``Search.key`` and
    the reserve tops): the placed cards, the waste and the reserves open, the suits at the
    tiers' ends, how the Aces and Crowns are spread, and the reserve tops."""
    bit, dmask = deck.bit.__getitem__, deck.suits_of
    t1, t2, t3 = state.tiers
    mask = sum(map(bit, t1)) + sum(map(bit, t2)) + sum(map(bit, t3))  # each card once: the sum is the union
    free = 0
    c1, c2, c3 = state.counts
    for rank, index in deck.free_index:
        free = free * 16 + index[c1.get(rank, 0), c2.get(rank, 0), c3.get(rank, 0)]
    opened = state.opened
    key = (mask | (len(state.waste) << 44) | (opened << 50) | ((dmask[t1[-1]] if t1 else 0) << 52)
           | ((dmask[t2[-1]] if t2 else 0) << 58) | ((dmask[t3[-1]] if t3 else 0) << 64) | (free << 70))
    code = deck.code
    tops = []
    for k, pile in enumerate(state.reserves):
        top = pile[0] if k < opened and pile else None
        tops.append(code[top] if top.__class__ is str else -1)
    return key, tuple(tops)


def tops_of(search: Search) -> tuple:
    """The reserve tops of a search's position, as ``signature`` writes them."""
    tops = []
    for k in range(RESERVES):
        pile, i = search.res[k], search.rp[k]
        tops.append(pile[i] if k < search.o and i < len(pile) else -1)
    return tuple(tops)


class CascadesGreedy:
    """Turns until every reserve is open, then follows a line found by a search of the
    cards seen, with a guess for the ones face down (see the module docstring)."""

    def __init__(self) -> None:
        self.plans: dict[tuple, tuple[Move, str, tuple]] = {}
        self.guess: dict[int, str] = {}  # the last plan's guess: slot -> the card face down there
        self.line: dict[int, int] = {}  # the last plan's plays (3 * card + tier index) -> their order

    def choose(self, state: CascadesState) -> Hint | None:
        if state.result is not None or state.pending is not None:
            return None
        if state.opened < RESERVES:
            return self._hint(state, Turn(), WAIT)
        deck = Deck.of(state.pawns_courts)
        sig = signature(state, deck)
        entry = self.plans.get(sig)
        if entry is None:
            self._plan(state, deck, sig)
            entry = self.plans.get(sig)
        if entry is None:  # the search and the rules agree this cannot happen: a safe answer all the same
            moves = state.moves()
            if not moves:
                return None
            move = Turn() if Turn() in moves else moves[0]
            return self._hint(state, move, "No line of play was found from here; this move keeps the game going.")
        move, why, args = entry
        return self._hint(state, move, why.format(*(_LABELS[a] if isinstance(a, str) else a for a in args)))

    @staticmethod
    def _hint(state: CascadesState, move: Move, why: str) -> Hint:
        return Hint(Action(move, state.describe(move)), why)

    def _guess(self, state: CascadesState, sig: tuple, guess: int) -> dict[int, str]:
        """Where the face-down cards might lie (slot -> card): guess 0 keeps the guesses
        of the last plan that still can be (a card turned up where another was guessed
        takes that card's place in the guess), the others are fresh; whatever is left to
        guess is shuffled by a stream seeded with the table alone."""
        slots = [c for pile in state.reserves for c in pile if not isinstance(c, str)]
        unseen = _DECK_SETS[state.pawns_courts] - state.seen
        kept = {s: c for s, c in self.guess.items() if s in slots and c in unseen} if guess == 0 else {}
        cards = sorted(unseen - set(kept.values()))
        if len(cards) > 1:
            cards = shuffled(cards, repr(sig), "cascades guess", str(guess))
        kept.update(zip([s for s in slots if s not in kept], cards))
        return kept

    def _search(self, state: CascadesState, deck: Deck, guess: dict[int, str]) -> Search:
        """The position with the face-down cards where ``guess`` puts them."""
        reserves = [[c if isinstance(c, str) else guess[c] for c in pile] for pile in state.reserves]
        cycle = list(state.waste) + list(state.stock)  # every stock card is seen once the reserves are open
        search = Search(deck, state.tiers, cycle, len(state.waste), state.opened, reserves)
        search.guessed = [next((i for i, c in enumerate(pile) if not isinstance(c, str)), len(pile))
                          for pile in state.reserves]
        search.eager = EAGER
        search.prefer = self.line
        return search

    def _plan(self, state: CascadesState, deck: Deck, sig: tuple) -> None:
        """Search from here and remember the move at every position along the line found."""
        best: Search | None = None
        for g in range(GUESSES):
            guess = self._guess(state, sig, g)
            search = self._search(state, deck, guess)
            try:
                found = search.find(nodes=SEARCH_NODES)
                tried_all = True
            except OutOfBudget:
                found = tried_all = False
            if best is None or found or len(search.best) > len(best.best):
                best, best_guess = search, guess
            if found or not tried_all:
                break  # another guess helps only where this one was shown to lose
        assert best is not None
        line = list(best.line) if found else best.best
        if not line:  # lost, as far as the search can tell: still play what can be played
            line = best.steps()[:1]
        if len(self.plans) > PLAN_MAX:
            self.plans.clear()
        self.guess = best_guess
        self.line = {3 * s[1] + s[2][0]: i - PREFERRED for i, s in enumerate(line)}
        self._remember(best, line, found)

    def _remember(self, search: Search, line: list[tuple], whole: bool) -> None:
        """The move at every position along ``line`` from the search's position, with why
        (its words are made when a hint is asked for)."""
        left = search.left
        plans = self.plans
        guessing = any(g < len(pile) for g, pile in zip(search.guessed, search.res))
        for n, step in enumerate(line):
            _, c, (t, *_), src, turns, _, _ = step
            card = search.deck.ids[c]
            key, tops = search.key(), tops_of(search)
            base = key & ~(0xFF << 44)  # the pointer and the reserves open change as it turns
            for _ in range(turns):
                plans[(base | (search.p << 44) | (search.o << 50), tops)] = (Turn(), TURN_TOWARD, (card, t + 1))
                opened = search.o
                search.p, search.o = turned(len(search.cyc), search.p, search.o)
                if search.o != opened:
                    tops = tops_of(search)
            k = -1 - src
            reveals = src < 0 and search.guessed[k] <= search.rp[k] + 1 < len(search.res[k])
            if reveals:
                why = REVEAL if whole else REVEAL_PART
            else:
                why = (WHOLE if guessing else WHOLE_KNOWN) if whole else PART
            plans[(search.key(), tops)] = (Play(card, t + 1, None if src >= 0 else -src), why, (left, len(line) - n))
            if reveals:
                break  # a guessed card turns up: the next move waits to see it
            search.do(step)
            left -= 1

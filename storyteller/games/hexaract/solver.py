"""Could this Hexaract deal have been won? A search with every card and every roll known.

With the order of the deck and the dice of every turn known (``reveal`` answers them:
the dice are fixed by the turn, not by what the player did), the game is a puzzle
without chance. From each turn's start the player picks where phase 2 ends (every way
the roll's couplets and the one spend can go, :mod:`hexaract_turn`) and, when the events
give a choice, which tokens they take. The answers:

* **winnable**, with the decision keys of a winning game from the given state, played
  back on the rules before they are returned;
* **not winnable**, only once every line has been searched, in the real game or in an
  easier one (below) whose loss proves the real one lost;
* **unknown** when the budget (positions or seconds) runs out first.

How it searches. Turns are tried best-looking first, by the built-in player's judgement,
the first few of them again one turn on (the next roll is known); *limited discrepancy
search* tries the lines that turn aside from that order once, then twice, and so on, so
a winning line that differs from the built-in player's in a few turns is found early.
A turn-start position searched to the end is remembered as lost, and so is every
position no better than one lost (as much harm or more, no suit held more often, no ace
reward face up that is not face up there: a token, an ace reward or a point of harm less
never hurts). Tokens of a suit beyond what can still be spent or lost, plus the one to
keep, change nothing and are not counted. A position is lost without search when a suit
is missing that no card still to come can give, or when the cards on the journey will
surely deal the harm that is left: a personality until a roll can make its rank.

The easier games (see :class:`_Search`): one where tokens never run short, where only
harm decides; and one where every card pays each of its suits. Their searches are
smaller, so they settle many lost deals that the real game's search cannot finish.
Every line of the real game is a line of the generous game, and every line of that is
one of the free game, from the corresponding position (the same cards, harm and turn;
location tokens counted, supply at least as large or never short). So a position lost
in an easier game is lost in the harder ones: the real game's search (and the generous
game's) skips the positions the easier searches have found lost, and asks the free
game's search about each position it reaches (its positions counted in the budget, its
answers remembered, lost or won), which bounds harm as an exact search of harm alone.

What the search leaves out never changes the answer: a Crown personality declining its
ace reward (taking it is never worse), and payments that leave the supply worse off in
every suit than another payment would. What it cannot do: prove most deals lost in which
the easier games can be won; those stay "unknown" unless the whole real game is searched.
"""

from __future__ import annotations

import time
from typing import Any, cast

from storyteller.core.engine import Budget, Roll, Verdict, Draw
from storyteller.games.hexaract import core as turn
from storyteller.games.hexaract.rules import DECK, DICE, DONE, HARM_LIMIT, Pay, journey_to
from storyteller.games.hexaract.players import Evaluator, end_of_turn, settled
from storyteller.games.hexaract.core import CROWN, EVENT, KIND, LOCATION, SUIT_INDICES

EMPTY = (None, None, None)
INFINITE = 1 << 30
FULL = (9,) * 6  # the supply of the easier game: more than a turn can spend or lose


class OutOfBudget(Exception):
    pass


class HexaractSolver:
    """Exact answers for a deal whose cards and dice are all known (engine.Solver)."""

    def solve(self, state, reveal, budget: Budget) -> Verdict:
        start = state.clone()
        while start.outcome is None and start.chance() is not None:
            start.resolve(reveal(start.chance()))
        if start.outcome is not None:
            answer = "winnable" if start.outcome.won else "not winnable"
            return Verdict(answer, (), 0, "The game is already over.")
        # The real game first, briefly (most deals are won along a line close to the
        # built-in player's); then the easier games, whose loss proves the deal lost (each
        # stops as soon as it finds a win of its own, so they cost little on a deal that
        # can be won); then the real game again with what is left of the budget.
        clock = _Clock(budget)
        free = _Search(start, reveal, "free")
        generous = _Search(start, reveal, "generous", easier=[free])
        exact = _Search(start, reveal, easier=[free, generous])
        rounds = [(exact, 8), (free, 2), (generous, 2), (exact, 1)]
        line = None
        for search, share in rounds:
            result = clock.run(search, share)
            if result == "lost":
                nodes = clock.nodes
                if search.mode == "exact" and free.lost_from_start():
                    search = free  # the real game's search found the free game lost: say so
                if search.mode == "free":
                    why = "Even with tokens to spare every turn, every line ends in ten harm"
                elif search.mode == "generous":
                    why = "Even taking every suit a card offers, every line ends in ten harm or with a suit missing"
                else:
                    why = "Every line ends in ten harm or with a suit missing"
                return Verdict("not winnable", (), nodes, f"{why} ({nodes:,} positions searched).")
            if result == "won" and search is exact:
                line = search.line
                break
        nodes = clock.nodes
        if line is None:
            return Verdict("unknown", (), nodes,
                           f"The budget ran out after {nodes:,} positions, before every line was searched.")
        keys = _witness(start, reveal, line)
        if keys is None:  # pragma: no cover - the tests hold the compact turns to the rules
            return Verdict("unknown", (), nodes, "The line found did not play out on the rules.")
        return Verdict("winnable", tuple(keys), nodes, f"A winning line was found after {nodes:,} positions.")


class _Clock:
    """Shares one budget between the searches, each round taking a part of what is left."""

    def __init__(self, budget: Budget) -> None:
        self.budget = budget
        self.started = time.monotonic()
        self.nodes = 0

    def run(self, search: _Search, share: int) -> str | None:
        """Go on with ``search`` for 1/share of the budget left: "won", "lost", or None."""
        if search.done is not None:
            return search.done
        b = self.budget
        if b.nodes is not None:
            search.max_nodes = search.nodes + max(0, b.nodes - self.nodes) // share
        if b.seconds is not None:
            left = b.seconds - (time.monotonic() - self.started)
            search.deadline = time.monotonic() + max(0.0, left) / share
        before = search.nodes
        try:
            search.go_on()
        except OutOfBudget:
            pass
        self.nodes += search.nodes - before
        return search.done


class _Search:
    """A depth-first search from ``start``, of the real game (``mode`` "exact") or of an
    easier one whose loss proves the real one lost:

    * "generous": a couplet on a personality or an event gives a token of *each* of its
      suits, the first Crown done takes *every* face-up ace reward, a location counts
      its tokens without minding which suits they are, and a spend may be any token of
      the location's suits. The supply is then always at least the real one's, so any
      real line is a line of this game with as much in the supply at every step.
    * "free": tokens never run short (spends are always possible, events take nothing
      that matters, every suit is held at the end): only harm decides.
    """

    def __init__(self, start, reveal, mode: str = "exact", budget: Budget = Budget(), easier=()) -> None:
        self.mode = mode
        self.easier = list(easier)  # searches of easier games: a position lost there is lost here
        # the free game's search, asked about every position searched here (see _free_may_win)
        self.oracle = next((e for e in self.easier if e.free), None)
        self.won: dict[tuple, int] = {}  # free game: positions won, with the most harm known won
        self.looked: dict[tuple, float] = {}
        self.free = mode == "free"
        self.start = start
        self.reveal = reveal
        self.max_nodes = budget.nodes
        self.deadline = None if budget.seconds is None else time.monotonic() + budget.seconds
        self.nodes = 0
        self.slack = 0 if mode == "exact" else INFINITE  # the easier games only serve to prove a loss
        self.done: str | None = None  # "won" or "lost" once known
        self.line: list | None = None
        self.rolls: dict[int, tuple] = {}
        self.lost: dict[tuple, list] = {}  # positions searched to the end: lost
        self.cut: dict[tuple, int] = {}  # positions searched with this much slack, no win found
        self.waits: dict[tuple, int] = {}
        self.judges: dict[int, Evaluator] = {}
        self.caps: dict[tuple, tuple] = {}
        self.look = 4 if mode == "exact" else 0
        self.exhaustive = True
        # The rest of the deck, in order. A deal's card is fixed by its place in the
        # shuffle; which journey place it goes to depends on the line played, so the
        # request names the first.
        seen = set(start.discard) | {c for c in start.journey if c is not None}
        self.deck: list[str | None] = [None] * start.deck_drawn
        for slot in range(start.deck_drawn, len(DECK)):
            options = frozenset(c for c in DECK if c not in seen)
            card = cast(str, reveal(Draw(deal=0, slot=slot, to=journey_to(0), options=options)))
            seen.add(card)
            self.deck.append(card)
        # For each place in the deck: the suits the cards from there on can give, and
        # whether a Crown (which pays an ace reward) is among them.
        self.gives = [0] * (len(DECK) + 1)
        self.crowns = [False] * (len(DECK) + 1)
        # and the tokens of each suit they can use (see _caps).
        self.deck_caps: list[tuple[int, ...]] = [(1,) * 6] * (len(DECK) + 1)
        for slot in range(len(DECK) - 1, start.deck_drawn - 1, -1):
            card = cast(str, self.deck[slot])  # dealt above, as every slot from deck_drawn on
            self.gives[slot] = self.gives[slot + 1] | (turn.MASK[card] if KIND[card] != LOCATION else 0)
            self.crowns[slot] = self.crowns[slot + 1] or CROWN[card]
            uses = {EVENT: 2, LOCATION: 1 if mode == "exact" else turn.NEED[card]}.get(KIND[card], 0)
            self.deck_caps[slot] = tuple(n + (uses if i in SUIT_INDICES[card] else 0)
                                         for i, n in enumerate(self.deck_caps[slot + 1]))

    # -- what the deal holds --------------------------------------------------------------

    def roll(self, turn_number: int) -> tuple:
        found = self.rolls.get(turn_number)
        if found is None:
            found = self.rolls[turn_number] = tuple(self.reveal(Roll(index=turn_number - 1, count=DICE)))
        return found

    # -- the search -----------------------------------------------------------------------

    def go_on(self) -> None:
        """Limited discrepancy search: the lines that turn aside from the best-looking turn
        at most once, then at most twice... until one wins or every line is searched
        (OutOfBudget may stop it; going on again starts over at the same slack, with
        what was learnt kept)."""
        while self.done is None:
            line = self.first(self.slack)
            if line is not None:
                self.done, self.line = "won", line
            elif self.exhaustive:
                self.done = "lost"
            else:
                self.slack += 1

    def lost_from_start(self) -> bool:
        """The start is known lost (searched to the end here, or while answering another
        search's questions)."""
        s = self.start
        if self.done is not None or s.phase == "pay":
            return self.done == "lost"
        marks = turn.position_of(s)[1]
        if self.mode != "exact":
            marks = _counted(s.journey, marks)
        supply, rewards = (FULL, ()) if self.free else (s.supply, s.ace_rewards)
        return self._known_lost((s.turn, s.deck_drawn, s.journey, marks, s.exhausted, supply, rewards, s.harm))

    def first(self, slack: int = INFINITE):
        """A winning line from the start (a list of (plan, supply after the payments) per
        turn), or None; ``self.exhaustive`` says whether None means that none exists or
        only that none turns aside from the best-looking turn more than ``slack`` times."""
        s = self.start
        self.exhaustive = True
        if s.phase == "pay":
            return self._paying(s, slack)
        position = turn.position_of(s)
        supply, rewards = (FULL, ()) if self.free else (s.supply, s.ace_rewards)
        marks = position[1] if self.mode == "exact" else _counted(s.journey, position[1])
        node = (s.turn, s.deck_drawn, s.journey, marks, s.exhausted, supply, rewards, s.harm)
        found, self.exhaustive = self._win(node, turn.free_dice(s), 2 - s.couplets, s.spent, slack)
        return found

    def _paying(self, s, slack):
        """The search from a state that waits for the player to say which event pays."""
        events = [s.journey[p] for p in s.to_pay]
        marks = turn.position_of(s)[1]
        if self.mode != "exact":
            marks = _counted(s.journey, marks)
        board, marks2, ex2 = turn.next_board(s.journey, marks, s.exhausted)
        for paid in ([FULL] if self.free else turn.best_payments(s.supply, events)):
            found, exhaustive = self._after_turn(s.turn, s.deck_drawn, board, marks2, ex2, paid, s.ace_rewards, s.harm,
                                                 slack)
            self.exhaustive = self.exhaustive and exhaustive
            if found is not None:
                return [((), paid)] + found
        return None

    def _tick(self) -> None:
        self.nodes += 1
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise OutOfBudget
        if self.deadline is not None and self.nodes & 255 == 1 and time.monotonic() > self.deadline:
            raise OutOfBudget

    def _after_turn(self, number, drawn, board, marks, exhausted, supply, rewards, harm, slack):
        """From the end of a turn (payments made, events passed): refill, then the next turn.
        (A list of (plan, supply after payments) for the turns to come, [] when the game is
        already won, None when no line was found; whether the search was exhaustive.)"""
        jl, ml, el = list(board), list(marks), list(exhausted)
        for place in range(3):
            if jl[place] is None and drawn < len(DECK):
                jl[place], ml[place], el[place] = self.deck[drawn], 0, False
                drawn += 1
        j, m, e = tuple(jl), tuple(ml), tuple(el)
        if self.free:
            supply, rewards = FULL, ()
        if drawn == len(DECK) and j == EMPTY:
            return ([] if all(supply) else None), True
        node = (number + 1, drawn, j, m, e, supply, rewards, harm)
        return self._win(node, self.roll(number + 1), 2, False, slack)

    def _lookahead(self, number, drawn, board, marks, exhausted, supply, rewards, harm) -> float:
        """How good a turn's end looks once the next turn's cards and roll are played as
        well as can be (the roll is known): the built-in player's judgement, one turn on.
        (Remembered: the same turn's end looked at again is not examined again.)"""
        key = (number, drawn, board, marks, exhausted, supply, rewards, harm)
        found = self.looked.get(key)
        if found is None:
            found = self.looked[key] = self._look(number, drawn, board, marks, exhausted, supply, rewards, harm)
        return found

    def _look(self, number, drawn, board, marks, exhausted, supply, rewards, harm) -> float:
        self._tick()  # a position looked at, if not searched from
        jl, ml, el = list(board), list(marks), list(exhausted)
        for place in range(3):
            if jl[place] is None and drawn < len(DECK):
                jl[place], ml[place], el[place] = self.deck[drawn], 0, False
                drawn += 1
        j, m, e = tuple(jl), tuple(ml), tuple(el)
        if drawn == len(DECK) and j == EMPTY:
            return 1e12 if all(supply) else -1e12
        ev = self.judges.get(drawn)
        if ev is None:
            ev = self.judges[drawn] = Evaluator(self.deck[drawn:])
        if self.free:
            ends = _easier_ends((j, m, supply, rewards), self.roll(number + 1), 2, False, True)
        elif self.mode == "exact":
            ends = turn.ends((j, m, supply, rewards), self.roll(number + 1), 2, False)
        else:
            ends = _easier_ends((j, m, supply, rewards), self.roll(number + 1), 2, False, False)
        best = -1e12
        for position in ends:
            v = end_of_turn(ev, harm, e, position)
            if v > best:
                best = v
        return best

    def _hopeless(self, node) -> bool:
        """A suit is missing and nothing still to come can give it back."""
        _number, drawn, journey, _marks, _exhausted, supply, rewards, _harm = node
        if all(supply):
            return False
        gives = self.gives[drawn]
        crowns = self.crowns[drawn]
        for c in journey:
            if c is not None:
                if KIND[c] != LOCATION:
                    gives |= turn.MASK[c]
                crowns = crowns or CROWN[c]
        if crowns:
            for a in rewards:
                gives |= 1 << turn.ACE_SUIT[a]
        for i in range(6):  # noqa: SIM110 (a loop: any() over a generator is slower, and this runs at every turn's start)
            if not supply[i] and not gives >> i & 1:
                return True
        return False

    def _wait(self, number: int, rank: int) -> int:
        """How many turns from turn ``number`` on pass before a roll can make ``rank``."""
        key = (number, rank)
        found = self.waits.get(key)
        if found is None:
            found = 0
            while found < HARM_LIMIT and rank not in turn.dice_table(self.roll(number + found), 2)[0]:
                found += 1
            self.waits[key] = found
        return found

    def _harm_floor(self, node) -> int:
        """Harm the cards on the journey will surely deal, whatever the player does: a
        personality until a roll can make its rank, and a tired location that lacks two
        tokens when this roll cannot make its rank (one spend a turn is not enough)."""
        number, _drawn, journey, marks, exhausted, _supply, _rewards, _harm = node
        floor = 0
        for place in range(3):
            card = journey[place]
            if card is None:
                continue
            kind = KIND[card]
            if kind == turn.PERSONALITY:
                floor += self._wait(number, turn.RANK[card])
            elif kind == LOCATION and exhausted[place] and turn.POPCOUNT[turn.MASK[card] & ~marks[place]] == 2:
                floor += self._wait(number, turn.RANK[card]) > 0
        return floor

    def _caps(self, drawn: int, journey: tuple, marks: tuple, exhausted: tuple) -> tuple:
        """For each suit, how many tokens can still matter: one to hold at the end, one for
        each location (here or to come) that lacks the suit (in the generous game, where a
        spend may be any suit of the location, one for each token a location of that suit
        lacks), and one for each payment an event (here or to come) may still take. Tokens
        beyond that can never all be lost, so a supply with more is the same as one with
        just that many."""
        key = (drawn, journey, marks, exhausted)
        found = self.caps.get(key)
        if found is None:
            caps = list(self.deck_caps[drawn])
            for place in range(3):
                card = journey[place]
                if card is None:
                    continue
                kind = KIND[card]
                if kind == LOCATION:
                    if self.mode == "exact":
                        for i in SUIT_INDICES[card]:
                            if not marks[place] >> i & 1:
                                caps[i] += 1
                    else:  # a spend there may be a token of any of its suits, for each one lacking
                        lacking = turn.NEED[card] - turn.POPCOUNT[marks[place]]
                        for i in SUIT_INDICES[card]:
                            caps[i] += lacking
                elif kind == EVENT:
                    for i in SUIT_INDICES[card]:
                        caps[i] += 1 if exhausted[place] else 2
            found = self.caps[key] = tuple(caps)
        return found

    def _capped(self, drawn, journey, marks, exhausted, supply) -> tuple:
        caps = self._caps(drawn, journey, marks, exhausted)
        return tuple(n if n < c else c for n, c in zip(supply, caps))

    def _known_lost(self, node) -> bool:
        number, drawn, journey, marks, exhausted, supply, rewards, harm = node
        supply = self._capped(drawn, journey, marks, exhausted, supply)
        for s, r, h in self.lost.get((number, drawn, journey, marks, exhausted), ()):
            if h <= harm and all(a >= b for a, b in zip(s, supply)) and set(rewards) <= set(r):
                return True
        return False

    def _lost_in_easier(self, node) -> bool:
        """The position, as it stands in an easier game (see _Search), is known lost there.

        Proof: the easier games were built so that every line of the real game (of the
        generous game, for the free one) is a line of theirs from the corresponding
        position (the same cards, marks counted, harm the same, supply at least as
        large, or never short), so a win here would be a win there."""
        return any(other._known_lost(self._there(node, other.free)) for other in self.easier)

    def _there(self, node, free: bool) -> tuple:
        """The position ``node`` as it stands in an easier game: marks counted, and, in the
        free game, tokens never short and no rewards to wait for."""
        number, drawn, journey, marks, exhausted, supply, rewards, harm = node
        if self.mode == "exact":
            marks = _counted(journey, marks)
        if free:
            supply, rewards = FULL, ()
        return number, drawn, journey, marks, exhausted, supply, rewards, harm

    def _free_may_win(self, node, dice, couplets_left, spent) -> bool:
        """Whether the position can be won in the free game (tokens never short), asked of
        the free game's own search (its positions count in this search's budget). When it
        cannot, the position is lost here (the proof of :meth:`_lost_in_easier`): a bound on
        harm as strong as an exact search of harm alone. Its answers are remembered, lost
        and won (a position won with some harm is won with less), so each is searched once."""
        o: _Search = self.oracle  # type: ignore[assignment]  # asked only when there is one (see _win)
        there = self._there(node, True)
        if o.won.get(there[:5], -1) >= there[7]:
            return True
        o.max_nodes = None if self.max_nodes is None else o.nodes + max(0, self.max_nodes - self.nodes)
        o.deadline = self.deadline
        before = o.nodes
        try:
            found, _ = o._win(there, dice, couplets_left, spent, INFINITE)
        finally:
            self.nodes += o.nodes - before
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise OutOfBudget
        return found is not None

    def _win(self, node, free, couplets_left, spent, slack):
        """The search from a turn's start: the best-looking turn first; any other costs one
        of ``slack``. A position searched to the end without a win is remembered as lost."""
        if self._known_lost(node) or (not self.free and self._hopeless(node)) or self._lost_in_easier(node):
            return None, True
        if node[7] + self._harm_floor(node) >= HARM_LIMIT:
            return None, True
        if self.cut.get(node, -1) >= slack:
            return None, False
        if self.free and self.won.get(node[:5], -1) >= node[7]:
            return [], True
        if self.oracle is not None and not self._free_may_win(node, free, couplets_left, spent):
            return None, True
        self._tick()
        number, drawn, journey, marks, exhausted, supply, rewards, harm = node
        if self.mode == "exact":
            ends = turn.ends((journey, marks, supply, rewards), tuple(free), couplets_left, spent)
        else:
            ends = _easier_ends((journey, marks, supply, rewards), tuple(free), couplets_left, spent, self.free)
        ev = self.judges.get(drawn)
        if ev is None:
            ev = self.judges[drawn] = Evaluator(self.deck[drawn:])  # its memos serve every line
        # (-score, order, plan, paid, board, marks, exhausted, ace rewards, harm) of each turn
        children: list[tuple[float, int, Any, tuple, tuple, tuple, tuple, tuple, int]] = []
        for position, plan in ends.items():
            j2, m2, s2, a2 = position
            if j2 == EMPTY and drawn == len(DECK):
                if all(s2):
                    return [(plan, None)], True
                continue
            h2 = turn.harm_after(j2, exhausted, harm)
            if h2 >= HARM_LIMIT:
                continue
            events = [] if self.free else [c for c in j2 if c is not None and KIND[c] == EVENT]
            board, marks2, ex2 = turn.next_board(j2, m2, exhausted)
            for paid in turn.best_payments(s2, events):
                score = settled(ev, h2, board, marks2, paid, a2)
                children.append((-score, len(children), plan, paid, board, marks2, ex2, a2, h2))
        children.sort()
        if self.look and len(children) > 1:
            # The few best-looking turns again, one turn further on (the next roll is known).
            top = children[:self.look]
            top = [(-self._lookahead(number, drawn, *c[4:7], c[3], *c[7:]), *c[1:]) for c in top]
            top.sort()
            children[:self.look] = top
        tried: set[tuple] = set()
        exhaustive = True
        for _, _, plan, paid, board, marks2, ex2, a2, h2 in children:
            key = (board, marks2, self._capped(drawn, board, marks2, ex2, paid), a2, h2)
            if key in tried:
                continue
            cost = 1 if tried else 0
            tried.add(key)
            if cost > slack:
                exhaustive = False
                break
            found, complete = self._after_turn(number, drawn, board, marks2, ex2, paid, a2, h2, slack - cost)
            if found is not None:
                if self.free and self.won.get(node[:5], -1) < harm:
                    self.won[node[:5]] = harm
                return [(plan, paid)] + found, True
            exhaustive = exhaustive and complete
        if exhaustive:
            capped = self._capped(drawn, journey, marks, exhausted, supply)
            self.lost.setdefault((number, drawn, journey, marks, exhausted), []).append((capped, rewards, harm))
        else:
            self.cut[node] = slack
        return None, exhaustive


def _counted(journey: tuple, marks: tuple) -> tuple:
    """Marks that only count a location's tokens: the first of its suits for one token."""
    out = []
    for card, mark in zip(journey, marks):
        if card is None or KIND[card] != LOCATION or not mark:
            out.append(0)
        elif mark == turn.MASK[card]:
            out.append(mark)
        else:
            out.append(1 << SUIT_INDICES[card][0])
    return tuple(out)


def _easier_steps(position: tuple, spend: bool, free: bool) -> list[tuple]:
    """The positions one couplet (or the spend) leads to in the easier games (see _Search)."""
    journey, marks, supply, rewards = position
    out = []
    for place in range(3):
        card = journey[place]
        if card is None:
            continue
        kind = KIND[card]
        if kind != LOCATION and spend:
            continue
        got = supply
        if kind == LOCATION:
            mark = marks[place]
            if mark != 0 and mark != turn.MASK[card]:
                done = True  # one token of two: the next completes it
            else:
                done = len(SUIT_INDICES[card]) == 1
            if not done:
                after_marks = turn._put(marks, place, 1 << SUIT_INDICES[card][0])
        elif not free:
            got = list(got)
            for i in SUIT_INDICES[card]:
                got[i] += 1
            got = tuple(got)
            done = True
        else:
            done = True
        spends = [got]
        if spend and not free:
            spends = [turn._put(got, i, got[i] - 1) for i in SUIT_INDICES[card] if got[i] > 0]
        for got2 in spends:
            if not done:
                out.append((place, (journey, after_marks, got2, rewards)))
                continue
            rest = rewards
            if CROWN[card] and rewards and not free:
                got2 = list(got2)
                for ace in rewards:
                    got2[turn.ACE_SUIT[ace]] += 1
                got2, rest = tuple(got2), ()
            out.append((place, (turn._put(journey, place, None), turn._put(marks, place, 0), got2, rest)))
    return out


def _easier_ends(position: tuple, free_dice: tuple, couplets_left: int, spent: bool, free: bool) -> dict:
    """Where phase 2 can end in the easier games (plans are not kept: nothing is played back)."""
    singles, doubles = turn.dice_table(free_dice, couplets_left)
    found: dict[tuple, tuple] = {position: ()}
    if singles:
        for place, after in _easier_steps(position, False, free):
            rank = turn.RANK[position[0][place]]
            if rank not in singles:
                continue
            found[after] = ()
            if not doubles:
                continue
            for place2, after2 in _easier_steps(after, False, free):
                if place2 >= place and (rank, turn.RANK[after[0][place2]]) in doubles:
                    found[after2] = ()
    if not spent:
        for where in list(found):
            for _, after in _easier_steps(where, True, free):
                found[after] = ()
    return found


def _witness(start, reveal, line) -> list[str] | None:
    """Play the line on the rules and return its decision keys (None if it does not win)."""
    s = start.clone()
    keys: list[str] = []
    for plan, target in line:
        for step in plan:
            move = turn.to_rules(step, s.journey)
            s.apply(move)
            keys.append(move.key)
        if s.outcome is None and s.phase == "assign":
            s.apply(DONE)
            keys.append(DONE.key)
        while s.outcome is None and s.phase == "pay":
            for move in s.moves():
                assert isinstance(move, Pay)
                i = turn._SI[move.suit]
                after = s.supply[:i] + (s.supply[i] - 1,) + s.supply[i + 1:]
                rest = [s.journey[p] for p in s.to_pay if s.journey[p] != move.card]
                if target in turn.payments(after, rest):
                    break
            else:
                return None
            s.apply(move)
            keys.append(move.key)
        while s.outcome is None and s.chance() is not None:
            s.resolve(reveal(s.chance()))
        if s.outcome is not None:
            break
    return keys if s.outcome is not None and s.outcome.won else None

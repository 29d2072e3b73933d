"""Carddom's built-in player: ``--auto greedy`` and *Hint*.

Three facts make the game small enough to reason about exactly:

- The overlord is the last card of the deal, so for a player it is equally likely to be
  any card not yet seen. With ranks ``R`` and suits ``S`` in hand, the overlords that can be
  subdued are the unseen cards of a rank in ``R`` and a suit in ``S``: with ``g`` of them
  among the ``u`` unseen cards, facing the overlord now wins with chance ``g / u``.
- A card taken shares a rank or a suit with one already held, so each card taken adds at
  most one rank or one suit. Taking is never urgent: a revealed card stays there, and the
  player can walk back for it (moving over revealed stacks turns up nothing). So what
  matters is which cards are revealed; the best hand is worked out from them, and taken
  just before facing the overlord.
- Under the standard rules each card turned up is a Joker with chance ``j / u`` (``j``
  Jokers unseen), which ends the journey. A card that adds a rank or a suit is worth that
  risk; one that adds nothing only removes a card from the unseen (a subduable one, or
  not), which on average makes things worse. With ``jokers=taken`` turning a card up costs
  nothing, so the player sees every card first and knows the overlord before facing it.

So at each choice the player works out the best hand the revealed cards allow and its
chance now; then, for each stack whose next card can be turned up, the chance after turning
it up, averaged over every card it can be (the best hand worked out again for each, the
Jokers counted as losses). It turns up the best of them if that beats facing the overlord
now (or if no hand can subdue anything yet); otherwise it takes the best hand's cards and
faces the overlord, crossing to the back row first where the rules ask (a row not yet
explored is counted as a risk with nothing gained).

The policy sees only what a player sees: the character, the revealed cards, what was taken
and from where, and which cards are still unseen (never where they lie). The solver
(``carddom_solver``) shares the take rule on bitmasks (:func:`children`).
"""

from __future__ import annotations

from dataclasses import dataclass

from storyteller.core.cards import card, piquet_cards
from storyteller.core.engine import Action, Hint, Move
from storyteller.games.carddom.rules import (COLUMNS, DEPTH, LAYERS, ROWS, Enter, Explore, Face, MoveTo, Take,
                                             neighbours, row_of)

# Cards as numbers: 8 * suit + rank, suits in the deck's order (Clovers, Hearts, Spades,
# Diamonds), ranks 7 to Ace; the two Jokers are 32 and 33. Sets of cards are bitmasks.
IDS = tuple(c.id for c in piquet_cards())
INDEX = {cid: i for i, cid in enumerate(IDS)}
SUITS = ("Clovers", "Hearts", "Spades", "Diamonds")
RANKS = ("7", "8", "9", "10", "Jack", "Queen", "King", "Ace")
JOKERS = (1 << 32) | (1 << 33)
PLAIN = (1 << 32) - 1  # every card but the Jokers
ALL = PLAIN | JOKERS
STACKS = ROWS * COLUMNS


def rank_of(c: int) -> int:
    return c & 7


def suit_of(c: int) -> int:
    return c >> 3


def _box(ranks: int, suits: int) -> int:
    out = 0
    for s in range(4):
        if suits >> s & 1:
            out |= ranks << (8 * s)
    return out


# BOX[ranks][suits]: the cards of a rank in ``ranks`` and a suit in ``suits`` (both bitmasks).
BOX = [[_box(r, s) for s in range(16)] for r in range(256)]

# Stacks numbered 0-7 here (1-8 in the rules), rows 0 (front) to 3 (back).
NEIGHBOURS = tuple(tuple(n - 1 for n in neighbours(k + 1)) for k in range(STACKS))
ROW = tuple(row_of(k + 1) - 1 for k in range(STACKS))
BACK = ROWS - 1


# -- the best hand that the revealed cards allow --------------------------------------------


def options_of(stacks) -> list[list[tuple[int, int, int]]]:
    """Per stack, (rank bit, suit bit, card) of each card that could ever be taken."""
    return [[(1 << rank_of(c), 1 << suit_of(c), c) for c in cards if c < 32] for cards in stacks]


def children(options, position: tuple[int, int, int]):
    """(stack, card, next position) for each card worth taking at ``position`` (ranks held,
    suits held, stacks free): one of a free stack that shares a rank or a suit with the
    hand and adds the other. A card that adds nothing is never worth a stack."""
    r, s, avail = position
    for i in range(STACKS):
        if avail >> i & 1:
            rest = avail & ~(1 << i)
            for rb, sb, c in options[i]:
                if r & rb:
                    if not s & sb:
                        yield i, c, (r, s | sb, rest)
                elif s & sb:
                    yield i, c, (r | rb, s, rest)


class Hands:
    """Every hand the revealed cards allow, and the best of them.

    A position is (ranks held, suits held, stacks not yet taken from); from it, each card
    of a free stack that shares a rank or a suit with the hand, and adds the other, leads to
    the next position (a card that adds nothing is never worth a stack). ``best[p]`` is the
    most ``good`` cards covered by any hand reachable from position ``p``: the search visits
    each position once (it is memoised); ``good`` is the cards worth covering (the unseen
    ones). A position that covers every good card ends the search (nothing can beat it), so
    ``reachable`` may then miss positions, none of them better.
    """

    def __init__(self, ranks: int, suits: int, stacks, free: int, good: int) -> None:
        self.options = options_of(stacks)
        self.good = good
        self.ceiling = good.bit_count()
        self.best: dict[tuple[int, int, int], int] = {}
        self.root = (ranks, suits, free)
        self.value(self.root)
        self.reachable = list(self.best)  # the positions the revealed cards lead to

    def covers(self, ranks: int, suits: int) -> int:
        return (BOX[ranks][suits] & self.good).bit_count()

    def children(self, position: tuple[int, int, int]):
        return children(self.options, position)

    def value(self, position: tuple[int, int, int]) -> int:
        known = self.best
        best = known.get(position)
        if best is not None:
            return best
        r, s, avail = position
        best = (BOX[r][s] & self.good).bit_count()
        known[position] = best  # a placeholder: a position never comes back on its own path
        if best < self.ceiling:  # no hand covers more than every good card
            options = self.options
            for i in range(STACKS):
                if not avail >> i & 1:
                    continue
                rest = avail & ~(1 << i)
                for rb, sb, _ in options[i]:  # the same moves as children(), inline: this is the hot loop
                    if r & rb:
                        if s & sb:
                            continue
                        nxt = (r, s | sb, rest)
                    elif s & sb:
                        nxt = (r | rb, s, rest)
                    else:
                        continue
                    v = known.get(nxt)
                    if v is None:
                        v = self.value(nxt)
                    if v > best:
                        best = v
                        if best == self.ceiling:
                            break
                if best == self.ceiling:
                    break
        known[position] = best
        return best

    @property
    def covered(self) -> int:
        return self.best[self.root]

    def takes(self) -> list[tuple[int, int]]:
        """The takes, as (stack, card) in an order the rules allow, of a best hand."""
        out = []
        position = self.root
        goal = self.best[position]
        while self.covers(position[0], position[1]) < goal:
            for i, c, nxt in self.children(position):
                if self.best[nxt] == goal:
                    out.append((i, c))
                    position = nxt
                    break
        return out

    def top_mask(self) -> int:
        """The cards every best hand covers (those whose loss lowers the best by one)."""
        goal = self.covered
        mask = ALL
        for r, s, _ in self.reachable:
            if self.covers(r, s) == goal:
                mask &= BOX[r][s]
        return mask

    def revealed(self, stack: int, c: int, takeable: bool, top: int) -> int:
        """The most cards of ``good`` still unseen that a hand covers once card ``c`` (unseen
        until now) is turned up at ``stack``: left there, or taken."""
        if c >= 32:
            return self.covered
        bit = 1 << c
        best = self.covered - (1 if top & bit else 0)  # left where it lies
        if takeable:
            rb, sb = 1 << rank_of(c), 1 << suit_of(c)
            sbit = 1 << stack
            known = self.best
            was = 1 if self.good & bit else 0  # once taken, it is no longer unseen
            for r, s, avail in self.reachable:
                if not avail & sbit:
                    continue
                if r & rb:
                    if s & sb:
                        continue
                    nxt = (r, s | sb, avail & ~sbit)
                elif s & sb:
                    nxt = (r | rb, s, avail & ~sbit)
                else:
                    continue
                v = known.get(nxt)
                if v is None:
                    v = self.value(nxt)
                if v - was > best:
                    best = v - was
        return best


# -- what a player sees ----------------------------------------------------------------------


@dataclass(frozen=True)
class View:
    """The table as a player sees it, in numbers."""

    character: int
    stacks: tuple[tuple[int, ...], ...]  # revealed cards, top first (taken ones included)
    taken: frozenset[int]  # stacks already taken from
    position: int | None
    seen: int  # bitmask of every card seen in this deal (the character too)
    ranks: int  # held: the character and the cards taken
    suits: int
    jokers_end: bool  # jokers=revealed: turning up a Joker ends the journey
    back_row: bool  # overlord=back-row: face it only from stack 7 or 8

    @classmethod
    def of(cls, state) -> View:
        held = [INDEX[c] for c in state.held()]
        ranks = suits = 0
        for c in held:
            ranks |= 1 << rank_of(c)
            suits |= 1 << suit_of(c)
        seen = 0
        for c in state.seen:
            seen |= 1 << INDEX[c]
        return cls(
            character=INDEX[state.character],
            stacks=tuple(tuple(INDEX[c] for c in cards) for cards in state.stacks),
            taken=frozenset(k - 1 for k in state.taken_from),
            position=None if state.position is None else state.position - 1,
            seen=seen,
            ranks=ranks,
            suits=suits,
            jokers_end=state.jokers == "revealed",
            back_row=state.overlord_rule == "back-row",
        )

    @property
    def unseen(self) -> int:
        return ALL & ~self.seen

    def hands(self, good: int | None = None) -> Hands:
        """Every hand the revealed cards allow (``good``: the cards worth covering, by
        default the unseen ones but the Jokers). Stacks not yet revealed count as free, with
        nothing in them yet."""
        good = self.unseen & PLAIN if good is None else good
        free = sum(1 << i for i in range(STACKS) if i not in self.taken)
        return Hands(self.ranks, self.suits, self.stacks, free, good)

    def frontier(self) -> list[int]:
        """Stacks whose next card can be turned up: an unexplored stack next to an explored
        one (or a front stack before entering), or an explored stack not yet exhausted."""
        if self.position is None:
            return [0, 1]
        out = []
        for i in range(STACKS):
            depth = len(self.stacks[i])
            if depth == 0:
                if any(self.stacks[n] for n in NEIGHBOURS[i]):
                    out.append(i)
            elif depth < DEPTH:
                out.append(i)
        return out

    def rows_to_go(self) -> int:
        """Unexplored rows between the explored stacks and the back row (where the overlord
        must be faced from, under the standard rules)."""
        if not self.back_row:
            return 0
        rows = [ROW[i] for i in range(STACKS) if self.stacks[i]]
        return BACK + 1 if not rows else BACK - max(rows)


# -- the chances -------------------------------------------------------------------------------


def survive(unseen: int, jokers: int, reveals: int) -> float:
    """The chance that ``reveals`` more cards turned up are no Joker."""
    p = 1.0
    for t in range(reveals):
        p *= 1 - jokers / (unseen - t)
    return p


def win_chance(covered: int, unseen: int, jokers: int, rows: int) -> float:
    """The chance to win by facing the overlord as soon as the rules allow, with a hand that
    covers ``covered`` of the ``unseen`` cards: the ``rows`` still to cross to the back row
    are turned up first, each a risk of one of the ``jokers`` (counted as adding nothing)."""
    if unseen - rows <= 0:
        return 0.0
    return survive(unseen, jokers, rows) * covered / (unseen - rows)


@dataclass(frozen=True)
class Prospect:
    """What turning up the next card of one stack is worth."""

    stack: int
    worth: float  # the expected chance to win after it, facing the overlord as soon as allowed
    adds: int  # unseen cards that would add a rank or a suit to the best hand, if found there


def prospect(view: View, hands: Hands, top: int, stack: int, ranks: int, suits: int) -> Prospect:
    """The expected chance to win if the next card of ``stack`` is turned up, then the
    overlord faced as soon as the rules allow, over every card it can be (each equally
    likely). ``ranks`` and ``suits`` are those of the best hand now."""
    unseen = view.unseen
    u = unseen.bit_count()
    j = (unseen & JOKERS).bit_count() if view.jokers_end else 0
    rows = view.rows_to_go()
    if view.back_row and not view.stacks[stack]:
        rows = max(0, BACK - max([ROW[stack]] + [ROW[i] for i in range(STACKS) if view.stacks[i]]))
    takeable = stack not in view.taken
    total = 0.0
    adds = 0
    for c in range(34):
        if not unseen >> c & 1:
            continue
        if c >= 32:
            if not view.jokers_end:  # a dead card: one fewer unseen, nothing else
                total += win_chance(hands.covered, u - 1, j, rows)
            continue  # else the journey ends: worth nothing
        rb, sb = 1 << rank_of(c), 1 << suit_of(c)
        if takeable and bool(ranks & rb) != bool(suits & sb):
            adds += 1
        total += win_chance(hands.revealed(stack, c, takeable, top), u - 1, j, rows)
    return Prospect(stack, total / u, adds)


# -- the policy --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Outlook:
    """What a table is worth, wherever the player stands on it: the best hand the revealed
    cards allow, the chance to win by facing the overlord with it as soon as the rules allow,
    and what turning up the next card of each stack would be worth."""

    covered: int  # unseen cards the best hand subdues
    takes: tuple[tuple[int, int], ...]  # its cards still to take: (stack, card), in order
    now: float
    unseen: int
    jokers: int
    prospects: tuple[Prospect, ...]  # stacks already taken from are left out: digging there
    # can only turn up an overlord the hand would have subdued

    @classmethod
    def of(cls, view: View) -> Outlook:
        hands = view.hands()
        takes = tuple(hands.takes())
        ranks, suits = view.ranks, view.suits
        for _, c in takes:
            ranks |= 1 << rank_of(c)
            suits |= 1 << suit_of(c)
        unseen = view.unseen
        u = unseen.bit_count()
        j = (unseen & JOKERS).bit_count()
        now = win_chance(hands.covered, u, j, view.rows_to_go())
        top = hands.top_mask()
        prospects = tuple(prospect(view, hands, top, k, ranks, suits) for k in view.frontier() if k not in view.taken)
        return cls(hands.covered, takes, now, u, j, prospects)


@dataclass(frozen=True)
class Goal:
    """What the player should do next, wherever it is: turn up the next card of a stack,
    take a card, or face the overlord; and why."""

    kind: str  # "reveal", "take", "face"
    why: str
    stack: int | None = None
    card: int | None = None


def name(c: int) -> str:
    return card(IDS[c]).name


def added(c: int, ranks: int, suits: int) -> str:
    """What card ``c`` adds to a hand holding ``ranks`` and ``suits``, in words."""
    if not ranks >> rank_of(c) & 1:
        return f"the rank {RANKS[rank_of(c)]}"
    return SUITS[suit_of(c)].lower()


def percent(p: float) -> str:
    return f"{100 * p:.0f}%"


def chance(k: int, n: int) -> str:
    return f"{k} in {n}"


class CarddomGreedy:
    """The built-in player: turns up the card most worth its risk, stops when none is, takes
    the best hand the revealed cards allow and faces the overlord.

    Each choice looks only at the state it is shown, and only at what a player sees there.
    The one thing it keeps is the last :class:`Outlook` it worked out, with the table it was
    for: walking changes nothing on the table, so the steps on the way reuse it.
    """

    def __init__(self) -> None:
        self._last: tuple[tuple, Outlook] | None = None

    def choose(self, state) -> Hint | None:
        if state.result is not None or state.pending is not None:
            return None
        view = View.of(state)
        goal = self.goal(view) if view.jokers_end else self.goal_seeing_all(view)
        move, walking = step(view, goal)
        why = goal.why
        if walking is not None:
            why = f"On the way to stack {walking + 1}: {why[0].lower()}{why[1:]}"
        return Hint(Action(move, state.describe(move)), why)

    # -- standard rules: every card turned up may be a Joker ------------------------------

    def outlook(self, view: View) -> Outlook:
        table = (view.stacks, view.taken, view.seen, view.ranks, view.suits, view.jokers_end, view.back_row)
        if self._last is None or self._last[0] != table:
            self._last = (table, Outlook.of(view))
        return self._last[1]

    def goal(self, view: View) -> Goal:
        outlook = self.outlook(view)
        covered, takes, now, prospects = outlook.covered, outlook.takes, outlook.now, outlook.prospects
        u, j = outlook.unseen, outlook.jokers
        # The best card to turn up: the most worth, then the most cards that would add a rank
        # or a suit, then (between cards the table cannot tell apart) the nearest, the first.
        steps = walking_steps(view)

        def order(p: Prospect) -> tuple:
            return (round(p.worth, 9), p.adds, -steps(p.stack), -p.stack)

        best = max(prospects, key=order, default=None)
        if best is not None and (best.worth > now or covered == 0):
            layer = LAYERS[len(view.stacks[best.stack])]
            there = f"the {layer} of stack {best.stack + 1}"
            if covered == 0:
                why = (f"No overlord can be subdued with your hand yet (you need a card of its rank and one of "
                       f"its suit), so turn up {there}: {best.adds} of the {u} unseen cards would add a rank "
                       f"or a suit if found there.")
            else:
                why = (f"Facing the overlord now would win {percent(now)} of the time, but after turning up "
                       f"{there} the chance is {percent(best.worth)} on average: {best.adds} of the {u} unseen "
                       f"cards would add a rank or a suit there, against a {chance(j, u)} risk of a Joker.")
            return Goal("reveal", why, stack=best.stack)
        if view.rows_to_go():
            row = BACK + 1 - view.rows_to_go()
            ahead = [p for p in prospects if ROW[p.stack] == row and not view.stacks[p.stack]]
            best = max(ahead, key=order)
            why = (f"The overlord is faced from the back row, so a stack of row {row + 1} must be turned up "
                   f"on the way: stack {best.stack + 1}, where {best.adds} of the {u} unseen cards would add a "
                   f"rank or a suit.")
            return Goal("reveal", why, stack=best.stack)
        if prospects:
            rest = f"no card left to turn up is worth the {chance(j, u)} risk of a Joker"
        elif view.frontier():
            rest = "every stack you can still dig into has already given you its one card"
        else:
            rest = "there is nothing left to turn up"
        after = f"{covered} of the {u} unseen cards are overlords your hand subdues ({percent(now)}), and {rest}"
        if takes:
            stack, c = takes[0]
            left = len(takes) - 1
            more = f"; {left} more card{'s' if left != 1 else ''} to take after it" if left else ""
            why = f"Take the {name(c)} (it adds {added(c, view.ranks, view.suits)}{more}): then {after}."
            return Goal("take", why, stack=stack, card=c)
        if covered == 0:
            why = ("Face the overlord: nothing left to turn up or take can give you a card of its rank and one "
                   "of its suit, so the journey can only end here.")
        else:
            why = f"Face the overlord: {after}."
        return Goal("face", why)

    # -- jokers=taken: a Joker only blocks, so seeing every card is free -------------------------

    def goal_seeing_all(self, view: View) -> Goal:
        frontier = view.frontier()
        if frontier:
            here = view.position
            if here is None:
                stack = frontier[0]
            else:
                stack = here if here in frontier else nearest(view, frontier)
            layer = LAYERS[len(view.stacks[stack])]
            why = (f"With jokers=taken a Joker only blocks, so turning up every card costs nothing: the {layer} "
                   f"of stack {stack + 1} is one more card the overlord cannot be.")
            return Goal("reveal", why, stack=stack)
        unseen = view.unseen
        hands = view.hands()
        covered, takes = hands.covered, hands.takes()
        left = [c for c in range(34) if unseen >> c & 1]
        if len(left) == 1:
            lord = left[0]
            if lord >= 32:
                return Goal("face", "Every other card is seen, so the overlord is a Joker: it cannot be "
                                    "subdued, and facing it ends the journey.")
            the_lord = f"the overlord must be the {name(lord)}"
            if takes:
                stack, c = takes[0]
                why = (f"Every other card is seen, so {the_lord}: take the {name(c)}, which adds "
                       f"{added(c, view.ranks, view.suits)}, towards holding its rank and its suit.")
                return Goal("take", why, stack=stack, card=c)
            if covered:
                return Goal("face", f"Every other card is seen, so {the_lord}, and you hold its rank and its suit.")
            return Goal("face", f"Every other card is seen, so {the_lord}, and no hand the realm allows "
                                "holds both its rank and its suit.")
        # Not every card could be seen (the rules never leave one out of reach, but be safe).
        if takes:
            stack, c = takes[0]
            return Goal("take", f"Take the {name(c)}: it adds {added(c, view.ranks, view.suits)}, so your hand "
                                "covers more of the overlords still possible.", stack=stack, card=c)
        return Goal("face", f"Face the overlord: {covered} of the {unseen.bit_count()} unseen cards are overlords "
                            "your hand subdues.")


# -- from a goal to a move -----------------------------------------------------------------------


def paths(view: View) -> dict[int, int]:
    """The first step from the player's stack to every explored stack, walking only over
    explored stacks (which turns nothing up): stack -> first stack to move to."""
    start = view.position
    assert start is not None  # inside the realm
    first: dict[int, int] = {start: start}
    queue = [start]
    for here in queue:
        for n in NEIGHBOURS[here]:
            if n not in first and view.stacks[n]:
                first[n] = n if here == start else first[here]
                queue.append(n)
    return first


def distance(view: View) -> dict[int, int]:
    start = view.position
    assert start is not None  # inside the realm
    dist = {start: 0}
    queue = [start]
    for here in queue:
        for n in NEIGHBOURS[here]:
            if n not in dist and view.stacks[n]:
                dist[n] = dist[here] + 1
                queue.append(n)
    return dist


def walking_steps(view: View):
    """How many moves it takes to turn up the next card of a stack of the frontier (an
    exploration counted as none)."""
    if view.position is None:
        return lambda k: 1
    dist = distance(view)

    def steps(k: int) -> int:
        if view.stacks[k]:
            return dist[k]
        return 1 + min(dist[n] for n in NEIGHBOURS[k] if n in dist)

    return steps


def nearest(view: View, stacks: list[int]) -> int:
    """The stack to turn up next among ``stacks``: the fewest steps away, then the lowest."""
    steps = walking_steps(view)
    return min(stacks, key=lambda k: (steps(k), k))


def step(view: View, goal: Goal) -> tuple[Move, int | None]:
    """The move that carries out ``goal``, or the first step towards it; with the stack
    walked to when the move is only a step on the way (else None)."""
    here = view.position
    if goal.kind == "face":
        if not view.back_row or (here is not None and ROW[here] == BACK):
            return Face(), None
        dist = distance(view)
        target = min((k for k in dist if ROW[k] == BACK), key=lambda k: (dist[k], k))
        first = paths(view)[target]
        return MoveTo(first + 1), (target if first != target else None)
    stack = goal.stack
    assert stack is not None
    if here is None:
        return Enter(stack + 1), None
    if goal.kind == "take" and stack == here:
        return Take(IDS[goal.card]), None  # type: ignore[index]
    if goal.kind == "reveal" and stack == here:
        return Explore(), None
    if view.stacks[stack]:
        first = paths(view)[stack]
        return MoveTo(first + 1), (stack if first != stack else None)
    if stack in NEIGHBOURS[here]:
        return MoveTo(stack + 1), None
    firsts = paths(view)
    dist = distance(view)
    door = min((n for n in NEIGHBOURS[stack] if n in dist), key=lambda k: (dist[k], k))
    return MoveTo(firsts[door] + 1), stack

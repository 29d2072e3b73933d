"""Cascades (Joe Conard, draft): build three tiers from a draw-three stock and three reserves.

The deal, in slot order (slot = place in the shuffle, deal 0):

* slots 0-2: reserve 1 (the top pile), slot 0 its top card, slot 2 its bottom card;
* slots 3-5: reserve 2 (the middle pile), top first;
* slots 6-8: reserve 3 (the bottom pile), top first;
* slots 9 onward: the stock, slot 9 being the first card turned.

Every card is dealt face down, so a card is drawn (a ``Draw``) only when it is first
turned face up: onto the waste (``to="waste"``), as the forced first card of tier 1
(``to="tier 1"``), or as the top of a reserve (``to="reserve 1"`` .. ``"reserve 3"``).
Once seen, a card stays known: turning the waste over and going through it again draws
nothing.

The moves (:class:`Turn`, :class:`Play`) are written ``turn`` and ``play <card> from
waste to tier <t>`` or ``play <card> from reserve <k> to tier <t>``.

How the rulings read the draft (see RULINGS.md):

* The stock is turned three cards at a time, one card after the other, so the third card
  turned lies on top of the waste; only that top card is playable. At the very start the
  third card turned goes straight to tier 1 (no choice).
* A pass ends when a turn takes the last card of the stock; that moment opens the next
  reserve (top pile after pass 1, middle after 2, bottom after 3) and turns its top card
  up. Turning the waste over and turning three is a single "turn". With stock and waste
  both empty and a reserve still closed, "turn" is an empty pass that opens it.
* A card goes at the right end of a tier and must share a suit with the card there; an
  empty tier 2 or 3 skips the suit check. Ranks 2-9: once per tier, and on tiers 2 and 3
  only after that rank is in the tier above. Aces and Crowns: two per tier at most, and
  on tiers 2 and 3 only while the tier above holds more of them than this tier does.
  Pawns and Courts (variant): two per kind in tier 1, one in tiers 2 and 3; a lower tier
  needs one in the tier above first, and the second in tier 1 needs one in tier 3 first.
* Won when every card is in a tier. Lost, and detected at once, when all three reserves
  are open and no card can ever be played again. That test is exact: playing is the only
  thing that changes the tiers, so the first play of any future must be made with the
  tiers as they are now, from a position reached by turning alone. Turning alone is
  deterministic, so the cards that can reach the top of the waste before the next play
  are the current top, the tops left in this pass, and the tops of one full pass through
  the whole stock-and-waste cycle. If none of those and no reserve top fits any tier now,
  nothing ever will. While a reserve is closed the game cannot be lost: it will open at
  the end of the pass, and "turn" is always there to get it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from storyteller.core.cards import decktet_cards
from storyteller.core.decktet import label
from storyteller.core.engine import (
    Abandoned, Action, Draw, Game, GameState, Move, Outcome, Result, RuleError, Variant, Word,
)
from storyteller.core.words import cap

RESERVES = 3
RESERVE_SIZE = 3
STOCK_START = RESERVES * RESERVE_SIZE  # slot of the first stock card
TIERS = 3
TURN = 3  # cards turned at a time
RESERVE_NAMES = {1: "top", 2: "middle", 3: "bottom"}
RANKS = tuple(str(n) for n in range(2, 10))
PAWNS_COURTS = ("Pawn", "Court")
NUMBER_WORDS = {1: "one", 2: "two", 3: "three"}


def basic_ids() -> list[str]:
    return [c.id for c in decktet_cards() if c.deck == "basic"]


def extra_ids() -> list[str]:
    """The 4 Pawns and 4 Courts (never the Excuse)."""
    return [c.id for c in decktet_cards() if c.rank in PAWNS_COURTS]


_DECKS = {pc: tuple(basic_ids() + (extra_ids() if pc else [])) for pc in (False, True)}
_DECK_SETS = {pc: frozenset(ids) for pc, ids in _DECKS.items()}  # looked up at every draw


def deck_ids(pawns_courts: bool) -> list[str]:
    return list(_DECKS[pawns_courts])


_CARDS = _DECK_SETS[True]  # every card either deck holds
_LABELS = {c: label(c) for c in _CARDS}  # each card in words, as the moves name it
# Card facts the rules look at, by id: (rank, frozenset of suits).
_FACTS: dict[str, tuple[str, frozenset[str]]] = {
    c.id: (c.rank, frozenset(c.suits)) for c in decktet_cards() if c.id in _CARDS
}


def ranks(pawns_courts: bool) -> tuple[str, ...]:
    """Every rank the deck holds, numbers first."""
    return RANKS + ("Ace", "Crown") + (PAWNS_COURTS if pawns_courts else ())


# How many cards of a rank tiers 1, 2 and 3 may hold.
LIMITS: dict[str, tuple[int, int, int]] = {
    **dict.fromkeys(RANKS, (1, 1, 1)),
    "Ace": (2, 2, 2),
    "Crown": (2, 2, 2),
    "Pawn": (2, 1, 1),
    "Court": (2, 1, 1),
}


def limit(rank: str, tier: int) -> int:
    """How many cards of this rank one tier may hold."""
    return LIMITS[rank][tier - 1]


def a(rank: str) -> str:
    """``a 4``, ``an 8``, ``an Ace``."""
    return f"{'an' if rank in ('8', 'Ace') else 'a'} {rank}"


# -- the placing rule -----------------------------------------------------------------------
#
# Written once, here, and used by everything that asks whether a card may go on a tier:
# the legal moves and the end-of-game test (``CascadesState.fits``, ``fitting`` and
# ``stuck``), the rule a refused play names (``CascadesState.why_not``), what the table
# shows a tier takes now (``CascadesState.takes``) and the search of the policy and the
# solver (``cascades_solver.rank_table``), which asks it once for every count a rank can
# reach and keeps suits as bit masks: the rule needs only counts of one rank and ``&``
# between suits.

FULL = "full"  # the tier holds as many of the rank as it may
WAITS_ABOVE = "waits-above"  # tier 2 or 3: the tier above must hold more of the rank first
WAITS_TIER_3 = "waits-tier-3"  # the second Pawn or Court of tier 1 waits for one in tier 3
NO_SUIT = "no-suit"  # the card shares no suit with the card at the end of the tier


def refusal(rank: str, tier: int, held: Sequence[int], suits=None, end=None) -> str | None:
    """Why a card cannot go at the end of ``tier`` now (one of the codes above), or None.

    ``held`` is how many cards of the card's rank tiers 1, 2 and 3 hold; ``suits`` are the
    card's suits and ``end`` those of the card at the end of the tier, as sets or as bit
    masks. With no ``end`` (an empty tier, or a question about the rank alone) any suit
    will do.
    """
    here = held[tier - 1]
    if here >= LIMITS[rank][tier - 1]:
        return FULL
    if tier > 1:
        if held[tier - 2] <= here:
            return WAITS_ABOVE
    elif here == 1 and rank in PAWNS_COURTS and not held[2]:
        return WAITS_TIER_3
    if end and not suits & end:
        return NO_SUIT
    return None


# -- places -------------------------------------------------------------------------------


def place_of(to: str) -> tuple[str, int | None]:
    """A place as the rules write it (where a draw goes, a key of ``places()``):
    ``"reserve 2"`` -> ("reserve", 2), ``"tier 1"`` -> ("tier", 1), ``"waste"`` -> ("waste", None)."""
    where, _, number = to.partition(" ")
    return where, int(number) if number else None


def reserve_draw(to: str, slot: int) -> tuple[int, bool] | None:
    """(reserve 1-3, whether the card is the reserve's top, turned up as it opens) for a
    draw to a reserve, else None."""
    where, k = place_of(to)
    if where != "reserve" or k is None:
        return None
    return k, slot == (k - 1) * RESERVE_SIZE


class Cause(Word):
    """How a game of Cascades ends (a player who abandons it: ``Abandoned``); the
    meaning of each is in the game's ``causes``."""

    ALL_PLACED = "all-placed"
    STALLED = "stalled"


# -- the moves ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Play(Move):
    """Play the top card of the waste (``reserve`` None) or of an open reserve to a tier."""

    kind = "play"
    card: str
    tier: int
    reserve: int | None = None

    @property
    def source(self) -> str:
        return "waste" if self.reserve is None else f"reserve {self.reserve}"

    @property
    def key(self) -> str:
        return f"play {self.card} from {self.source} to tier {self.tier}"


@dataclass(frozen=True)
class Turn(Move):
    """Turn the next three cards of the stock (turning the waste over first if the stock is
    empty), or end the pass when stock and waste are both empty."""

    kind = "turn"
    spelling = "turn"


NOT_A_MOVE = "'{key}' is not a Cascades move: play a card to a tier, or turn"


def parse(key: str) -> Move:
    """``turn``, or ``play <card> from waste to tier <t>`` / ``play <card> from reserve <k>
    to tier <t>``, in any case and spacing (the word ``tier`` may be left out)."""
    words = key.split()
    low = [w.lower() for w in words]
    if low == ["turn"]:
        return Turn()
    if not (low and low[0] == "play" and "from" in low and "to" in low):
        raise RuleError(NOT_A_MOVE.format(key=key))
    card = low[1]
    if card not in _CARDS:
        raise RuleError(f"'{key}' names no card of Cascades: there is no '{words[1]}'")
    start, end = low.index("from") + 1, low.index("to")
    where = low[start:end]
    try:
        tier = int(low[-1])
    except ValueError:
        raise RuleError(f"'{key}' names no tier: the tiers are 1, 2 and 3") from None
    if where == ["waste"]:
        return Play(card, tier)
    if len(where) == 2 and where[0] == "reserve" and where[1].isdigit():
        return Play(card, tier, int(where[1]))  # a reserve that does not exist is refused by apply()
    raise RuleError(f"cards are played from the waste or an open reserve, not from '{' '.join(words[start:end])}'")


# -- the state ------------------------------------------------------------------------------


@dataclass
class CascadesState(GameState):
    pawns_courts: bool = False
    tiers: list[list[str]] = field(default_factory=lambda: [[] for _ in range(TIERS)])
    counts: list[dict[str, int]] = field(default_factory=lambda: [{} for _ in range(TIERS)])
    stock: list = field(default_factory=list)  # next card to turn first; ints are unseen slots
    waste: list[str] = field(default_factory=list)  # the last is the top, the playable one
    reserves: list[list] = field(default_factory=lambda: [[] for _ in range(RESERVES)])  # top first
    opened: int = 0  # reserves open so far (they open in order 1, 2, 3)
    pass_no: int = 1  # the pass in progress, or just finished when the stock is empty
    started: bool = False  # the forced first card is in tier 1
    seen: set[str] = field(default_factory=set)
    deck_size: int = 36
    turning: int = 0  # cards still to turn in the turn in progress
    pending: Draw | None = None
    result: Outcome | None = None

    # -- what a view shows ---------------------------------------------------------------

    def end(self, tier: int) -> str | None:
        """The card at the right end of tier 1-3, or None if the tier is empty."""
        cards = self.tiers[tier - 1]
        return cards[-1] if cards else None

    @property
    def ranks(self) -> tuple[str, ...]:
        return ranks(self.pawns_courts)

    def lacks(self, tier: int) -> list[str]:
        """The ranks tier 1-3 still needs to be complete, one entry per missing card."""
        out = []
        for rank in self.ranks:
            out += [rank] * (limit(rank, tier) - self.counts[tier - 1].get(rank, 0))
        return out

    def takes(self, tier: int) -> list[str]:
        """The ranks tier 1-3 may take now, whatever the suit (a card must still share a
        suit with the end of the tier)."""
        return [rank for rank in self.ranks if refusal(rank, tier, self.held(rank)) is None]

    @property
    def waste_top(self) -> str | None:
        return self.waste[-1] if self.waste else None

    def reserve_view(self, k: int) -> str:
        """``closed``, ``empty``, or the id of the face-up top card of reserve k (1-3)."""
        if k > self.opened:
            return "closed"
        pile = self.reserves[k - 1]
        if not pile:
            return "empty"
        return pile[0] if isinstance(pile[0], str) else "closed"

    def reserve_top(self, k: int) -> str | None:
        view = self.reserve_view(k)
        return None if view in ("closed", "empty") else view

    @property
    def next_reserve(self) -> int | None:
        """The reserve the end of the current pass will open, if any is still closed."""
        return self.opened + 1 if self.opened < RESERVES else None

    @property
    def placed(self) -> int:
        return sum(len(t) for t in self.tiers)

    # -- placing (see refusal) -----------------------------------------------------------

    def held(self, rank: str) -> tuple[int, int, int]:
        """How many cards of ``rank`` tiers 1, 2 and 3 hold."""
        c1, c2, c3 = self.counts
        return c1.get(rank, 0), c2.get(rank, 0), c3.get(rank, 0)

    def _end_suits(self, tier: int) -> frozenset[str] | None:
        cards = self.tiers[tier - 1]
        return _FACTS[cards[-1]][1] if cards else None

    def _refusal(self, card_id: str, tier: int) -> str | None:
        rank, suits = _FACTS[card_id]
        return refusal(rank, tier, self.held(rank), suits, self._end_suits(tier))

    def fits(self, card_id: str, tier: int) -> bool:
        return self._refusal(card_id, tier) is None

    def fitting(self, card_id: str) -> list[int]:
        """The tiers the card may go on now (its facts looked up once: the legal moves and
        the end-of-game test ask this of many cards)."""
        rank, suits = _FACTS[card_id]
        held = self.held(rank)
        return [t for t in range(1, TIERS + 1) if refusal(rank, t, held, suits, self._end_suits(t)) is None]

    def why_not(self, card_id: str, tier: int) -> str | None:
        """None if the card may go to the end of the tier now, else the rule that stops it."""
        code = self._refusal(card_id, tier)
        if code is None:
            return None
        rank = _FACTS[card_id][0]
        n = self.counts[tier - 1].get(rank, 0)
        if code == FULL:
            most = limit(rank, tier)
            if most == 1 and rank in RANKS:
                return f"tier {tier} already holds {a(rank)}: each rank goes once in a tier"
            return f"tier {tier} already holds {NUMBER_WORDS[most]} {rank}{'s' if most > 1 else ''}, its most"
        if code == WAITS_ABOVE:
            if rank in RANKS or n == 0:
                return f"{a(rank)} goes on tier {tier} only once tier {tier - 1} holds one"
            return f"tier {tier} may take another {rank} only while tier {tier - 1} holds more {rank}s than it does"
        if code == WAITS_TIER_3:
            return f"the second {rank} in tier 1 needs {a(rank)} in tier 3 first"
        end = self.end(tier)
        return f"{label(card_id)} shares no suit with {label(end)} at the end of tier {tier}"  # type: ignore[arg-type]

    def playable(self, card_id: str) -> bool:
        return bool(self.fitting(card_id))

    def _place(self, card_id: str, tier: int) -> None:
        self.tiers[tier - 1].append(card_id)
        rank = _FACTS[card_id][0]
        self.counts[tier - 1][rank] = self.counts[tier - 1].get(rank, 0) + 1

    # -- chance --------------------------------------------------------------------------

    def _unseen(self) -> frozenset[str]:
        return _DECK_SETS[self.pawns_courts] - self.seen

    def chance(self) -> Draw | None:
        return self.pending

    def resolve(self, outcome) -> None:
        draw = self.pending
        if draw is None:
            raise RuleError("no card is waiting to be turned up")
        if outcome not in draw.options:
            raise RuleError(f"{outcome} cannot be turned up here: it is not among the cards still face down")
        self.pending = None
        self.seen.add(outcome)
        where, k = place_of(draw.to)
        if where == "reserve":
            self.reserves[k - 1][0] = outcome  # type: ignore[operator]
        else:
            self.stock.pop(0)
            self.turning -= 1
            if where == "tier":
                self._place(outcome, 1)
                self.started = True
            else:
                self.waste.append(outcome)
            self._continue_turn()
        self._settle()

    def _continue_turn(self) -> None:
        """Move cards of the turn in progress to the waste, asking for each unseen one."""
        while self.turning > 0 and self.stock:
            item = self.stock[0]
            if isinstance(item, int):
                first = not self.started and self.turning == 1
                self.pending = Draw(0, item, "tier 1" if first else "waste", self._unseen())
                return
            self.stock.pop(0)
            self.waste.append(item)
            self.turning -= 1
        self.turning = 0
        if not self.stock:
            self._end_pass()

    def _end_pass(self) -> None:
        """The turn took the stock's last card: the pass is over, the next reserve opens."""
        if self.opened < RESERVES:
            self.opened += 1
            self._turn_up_reserve(self.opened)

    def _turn_up_reserve(self, k: int) -> None:
        pile = self.reserves[k - 1]
        if pile and isinstance(pile[0], int):
            self.pending = Draw(0, pile[0], f"reserve {k}", self._unseen())

    # -- the end -------------------------------------------------------------------------

    def stuck(self) -> bool:
        """All reserves open and nothing can ever be played again (see the module docstring).

        It runs after every move, so it asks the placing rule directly, the tiers' ends
        looked up once, and stops at the first card that can be played."""
        if self.opened < RESERVES:
            return False
        ends = (self._end_suits(1), self._end_suits(2), self._end_suits(3))
        c1, c2, c3 = self.counts

        def fits(card_id: str) -> bool:
            rank, suits = _FACTS[card_id]
            held = c1.get(rank, 0), c2.get(rank, 0), c3.get(rank, 0)
            return (
                refusal(rank, 1, held, suits, ends[0]) is None
                or refusal(rank, 2, held, suits, ends[1]) is None
                or refusal(rank, 3, held, suits, ends[2]) is None
            )

        for k in range(1, RESERVES + 1):
            top = self.reserve_top(k)
            if top and fits(top):
                return False
        return not any(fits(c) for c in self._reachable())

    def _reachable(self):
        """Every card that turning alone (no play) can leave on top of the waste, now or later,
        one at a time: the top now, those of the rest of this pass, then those of every later
        pass (the waste and the stock, the same cycle again)."""
        waste, stock = self.waste, self.stock
        if waste:
            yield waste[-1]
        n = len(stock)
        for i in range(TURN - 1, n + TURN - 1, TURN):
            yield stock[i if i < n else n - 1]
        w = len(waste)
        n += w
        for i in range(TURN - 1, n + TURN - 1, TURN):
            j = i if i < n else n - 1
            yield waste[j] if j < w else stock[j - w]

    def _settle(self) -> None:
        if self.pending is not None or self.result is not None:
            return
        total = self.deck_size
        if self.placed == total:
            self.result = Outcome(Result.WON, f"All {total} cards are in the three tiers.", cause=Cause.ALL_PLACED)
        elif self.stuck():
            self.result = Outcome(
                Result.LOST,
                f"All three reserves are open and no card left can ever be played: "
                f"{self.placed} of {total} cards are in the tiers.",
                cause=Cause.STALLED,
            )

    @property
    def outcome(self) -> Outcome | None:
        return self.result

    # -- the player's choices ------------------------------------------------------------

    def sources(self) -> list[tuple[int | None, str]]:
        """The playable cards with where they come from: (None, id) for the top of the
        waste, (k, id) for the top of reserve k."""
        out: list[tuple[int | None, str]] = []
        if self.waste:
            out.append((None, self.waste[-1]))
        for k in range(1, RESERVES + 1):
            top = self.reserve_top(k)
            if top:
                out.append((k, top))
        return out

    def can_turn(self) -> bool:
        return bool(self.stock or self.waste) or self.opened < RESERVES

    def turn_text(self) -> str:
        if self.stock:
            n = min(TURN, len(self.stock))
            text = "Turn three" if n == TURN else f"Turn the last {'card' if n == 1 else 'two cards'} of the stock"
            ends = len(self.stock) <= TURN
        elif self.waste:
            n = min(TURN, len(self.waste))
            text = f"Turn the waste over and turn {NUMBER_WORDS[n]}"
            ends = len(self.waste) <= TURN
        else:
            text = "End the pass (stock and waste are empty)"
            ends = True
        if ends and self.opened < RESERVES:
            k = self.opened + 1
            text += f", opening the {RESERVE_NAMES[k]} reserve"
        return text

    def moves(self) -> list[Move]:
        """The legal moves, in the order the player sees them: each playable card to each
        tier it fits (the waste first, then the reserves), then the turn."""
        if self.result is not None or self.pending is not None:
            return []
        out: list[Move] = []
        for k, card_id in self.sources():
            out += [Play(card_id, t, k) for t in self.fitting(card_id)]
        if self.can_turn():
            out.append(Turn())
        return out

    def legal_actions(self) -> list[Action]:
        return [Action(m, self.describe(m)) for m in self.moves()]

    def describe(self, move: Move) -> str:
        if isinstance(move, Turn):
            return self.turn_text()
        assert isinstance(move, Play)
        src = "the waste" if move.reserve is None else f"the {RESERVE_NAMES[move.reserve]} reserve"
        return f"Play {_LABELS[move.card]} from {src} to tier {move.tier}"

    def apply(self, move: Move) -> None:
        if self.result is not None:
            raise RuleError("the game is over")
        if self.pending is not None:
            raise RuleError("a card must be turned up first")
        if isinstance(move, Turn):
            self._turn()
        elif isinstance(move, Play):
            self._play(move)
        else:
            raise RuleError(NOT_A_MOVE.format(key=move.key))
        self._settle()

    def _turn(self) -> None:
        if not self.can_turn():
            raise RuleError("there is nothing left to turn: stock and waste are empty and every reserve is open")
        if not self.stock:
            self.pass_no += 1
            self.stock = list(self.waste)
            self.waste = []
        self.turning = TURN
        self._continue_turn()

    def _play(self, move: Play) -> None:
        card_id, tier, k = move.card, move.tier, move.reserve
        if not 1 <= tier <= TIERS:
            raise RuleError(f"there is no tier {tier}: the tiers are 1, 2 and 3")
        if k is None:
            if self.waste_top != card_id:
                raise RuleError(f"only the top card of the waste can be played, and {card_id} is not it")
        elif 1 <= k <= RESERVES:
            if k > self.opened:
                raise RuleError(f"the {RESERVE_NAMES[k]} reserve is still closed: it opens after pass {k}")
            if self.reserve_top(k) != card_id:
                raise RuleError(f"only the top card of the {RESERVE_NAMES[k]} reserve can be played, "
                                f"and {card_id} is not it")
        else:
            raise RuleError(f"cards are played from the waste or an open reserve, not from '{move.source}'")
        why = self.why_not(card_id, tier)
        if why:
            raise RuleError(cap(why))
        if k is None:
            self.waste.pop()
        else:
            pile = self.reserves[k - 1]
            pile.pop(0)
            if pile:
                self._turn_up_reserve(k)
        self._place(card_id, tier)

    # -- bookkeeping ---------------------------------------------------------------------

    def places(self) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {f"tier {t}": list(self.tiers[t - 1]) for t in range(1, TIERS + 1)}
        out["waste"] = list(self.waste)
        out["stock"] = [c for c in self.stock if isinstance(c, str)]
        for k in range(1, RESERVES + 1):
            out[f"reserve {k}"] = [c for c in self.reserves[k - 1] if isinstance(c, str)]
        return out


class Cascades(Game):
    name = "cascades"
    title = "Cascades"
    summary = "Turn the stock three at a time and build all the cards into three tiers that follow suit."
    variants = (
        Variant(
            "pawns-courts",
            ("off", "on"),
            "add the 4 Pawns and 4 Courts (two of each in tier 1, one in tiers 2 and 3)",
            flag=True,
        ),
    )
    causes: Mapping[str, str] = {
        Cause.ALL_PLACED: "won: every card is in one of the three tiers",
        Cause.STALLED: "lost: all three reserves are open and no card left can ever be played",
        Abandoned.ABANDONED: "the player abandoned the game",
    }

    def deck(self, variants: Mapping[str, str], pile: str = "deck") -> list[str]:
        return deck_ids(variants.get("pawns-courts", "off") == "on")

    def parse(self, key: str) -> Move:
        return parse(key)

    def new_state(self, variants: Mapping[str, str]) -> CascadesState:
        pc = variants.get("pawns-courts", "off") == "on"
        size = len(deck_ids(pc))
        state = CascadesState(pawns_courts=pc, deck_size=size)
        state.reserves = [list(range(k * RESERVE_SIZE, (k + 1) * RESERVE_SIZE)) for k in range(RESERVES)]
        state.stock = list(range(STOCK_START, size))
        state.turning = TURN  # the opening turn; its third card starts tier 1
        state._continue_turn()
        return state


GAME = Cascades()

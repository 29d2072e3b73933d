"""Hexaract (Dejan Racković): a solitaire adventure along a journey of Decktet cards.

The six Aces are shuffled apart: the first three each give the adventurer one token of
their suit (and are discarded), the other three lie face up as *ace rewards* that a
Crown card can pay out. The other 30 cards are the journey deck; three of them lie face
up as the journey.

Each turn:

1. Roll five dice. A 6 is wild: it counts as any value from 1 to 5, chosen when the die
   is assigned. Two dice make a *couplet*; at most two couplets per roll, and a couplet
   goes to a journey card whose rank equals its sum (a Crown counts 10).
2. Act. A couplet on a personality thwarts it and on an event turns the tables: the card
   is discarded and the adventurer takes a token of one of its suits. A couplet on a
   location places a token of a suit the location still lacks on it; once it holds one
   token of each of its suits, it is discarded with its tokens. A Crown event or
   location also pays one face-up ace reward (the Ace's suit) while any is left; a Crown
   personality may pay one. Once per turn, one token of the personal supply may be
   moved onto a location that lacks its suit, with or without dice.
3. Consequences: every personality still there and every exhausted location deals one
   harm (harm first: ten ends the game before anything else); then every event still
   there takes one matching token from the supply, if there is one.
4. Locations still there become exhausted; events that were exhausted pass (are
   discarded) and the others become exhausted, so an event lasts two turns; the
   journey is refilled to three cards from the deck.

Ten harm at any moment loses. When the deck and the journey are both empty the game is
over: won if the personal supply holds all six suits, lost otherwise.

How the rulings read the text (RULINGS.md): the Origin, the Market and the End are
locations only; exhausted cards can still be targeted (an event resolved in its second
turn still pays out); the player picks which event pays first and with which suit when
that makes a difference.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from itertools import permutations

from storyteller.core import decktet
from storyteller.core.decktet import SUITS
from storyteller.core.engine import (
    Abandoned, Action, Draw, Game, GameState, Move, Outcome, Result, Roll, RuleError, Word,
)
from storyteller.core.words import cap

HARM_LIMIT = 10


def harm_words(harm: int) -> str:
    """Harm as a player reads it: "4 of 10", and never more than the whole ("10 of 10, and
    more than you could bear" when the last blow went past it)."""
    if harm > HARM_LIMIT:
        return f"{HARM_LIMIT} of {HARM_LIMIT}, and more than you could bear"
    return f"{harm} of {HARM_LIMIT}"
JOURNEY_SIZE = 3
DICE = 5
MAX_COUPLETS = 2
TOKEN_ACES = 3  # the first three Aces give tokens; the rest are ace rewards
NO_ACE = "no-ace"  # a Crown personality's reward taken without an ace
ACE_TOKEN = "ace token"  # where an Ace drawn for the starting supply goes (Draw.to)
ACE_REWARD = "ace reward"  # where an Ace drawn face up as a reward goes (Draw.to)

_BASIC = decktet.basic()
CARDS = {c.id: c for c in _BASIC}
ACES = tuple(c.id for c in _BASIC if c.rank == "Ace")
DECK = tuple(c.id for c in _BASIC if c.rank != "Ace")


def _kind(types: tuple[str, ...]) -> str:
    if "location" in types:
        return "location"  # a location-and-event is a location only
    if "personality" in types:
        return "personality"
    return "event"


# Looked up on every move the policy's search tries: plain dicts, not Card attributes.
_KIND = {c.id: _kind(c.types) for c in _BASIC}
_RANK = {c.id: c.value or 0 for c in _BASIC}  # a Crown's value is 10
_SUITS = {c.id: c.suits for c in _BASIC}


def kind_of(card_id: str) -> str:
    """The card's type as the game treats it: a location-and-event is a location."""
    return _KIND[card_id]


def rank_of(card_id: str) -> int:
    return _RANK[card_id]


def suits_of(card_id: str) -> tuple[str, ...]:
    return _SUITS[card_id]


def ace_suit(ace: str) -> str:
    """The suit of the token an Ace gives."""
    return _SUITS[ace][0]


def is_crown(card_id: str) -> bool:
    return CARDS[card_id].rank == "Crown"


def short_label(card_id: str) -> str:
    """'the Castle (7)': the name and rank, as the moves and consequences name a card."""
    return decktet.label(card_id, suits=False)


def journey_to(place: int) -> str:
    """Where a draw onto journey place ``place`` (from 0) goes, as a Draw says it: "journey 1"."""
    return f"journey {place + 1}"


def place_of(to: str) -> int | None:
    """The journey place (from 0) a draw goes to, read back from :func:`journey_to`'s
    words; None for the Aces (:data:`ACE_TOKEN`, :data:`ACE_REWARD`)."""
    words = to.split()
    return int(words[1]) - 1 if words[0] == "journey" else None


def couplet_values(a: int, b: int, rank: int) -> tuple[int, int] | None:
    """What the dice a >= b count as to sum to ``rank`` (a 6 is any of 1-5), or None."""
    if a != 6:
        return (a, b) if a + b == rank else None
    if b == 6:
        first = min(5, rank - 1)
        second = rank - first
        return (first, second) if 1 <= second <= 5 and first >= 1 else None
    first = rank - b
    return (first, b) if 1 <= first <= 5 else None


# The ranks each couplet (high die first) can make: looked up for every journey card in
# every list of moves, which the policy's search asks for many times a turn.
_REACH = {
    (a, b): frozenset(r for r in range(2, 11) if couplet_values(a, b, r) is not None)
    for a in range(1, 7)
    for b in range(1, a + 1)
}


def dice_text(a: int, b: int, values: tuple[int, int]) -> str:
    """'4+3', or '6 as 5 + 5' when a wild die is in the couplet."""
    if a != 6 and b != 6:
        return f"{a}+{b}"
    parts = [f"6 as {v}" if d == 6 else str(d) for d, v in zip((a, b), values)]
    return " + ".join(parts)


# -- the moves ----------------------------------------------------------------------------
# A move names the journey card by its id, as its key does; the state finds its place.
# ``ace`` is the ace reward a completed Crown pays: an Ace id, NO_ACE (a Crown personality
# declines) or None (nothing to win: no Crown, not completed, or no ace reward left).


def _won(ace: str | None) -> str | None:
    return None if ace == NO_ACE else ace


def _key(*words: str | None) -> str:
    """A move's key: its words in order, leaving out those it has none for (the ace)."""
    return " ".join(w for w in words if w)


class Cause(Word):
    """How a game of Hexaract ends (a player who abandons it: ``Abandoned``); the
    meaning of each is in the game's ``causes``."""

    ARTIFACT_WHOLE = "artifact-whole"
    ARTIFACT_INCOMPLETE = "artifact-incomplete"
    HARM = "harm"


@dataclass(frozen=True)
class Assign(Move):
    """A couplet (two free dice, the higher first) to a journey card of that rank: a
    token of ``suit`` onto a location, or a personality thwarted / an event turned for a
    token of ``suit``."""

    dice: tuple[int, int]
    card: str
    suit: str
    ace: str | None = None
    kind = "assign"

    @property
    def key(self) -> str:
        a, b = self.dice
        return _key(self.kind, f"{a}+{b}", self.card, self.suit.lower(), self.ace)

    @property
    def ace_won(self) -> str | None:
        """The Ace this move wins (None when it wins none, or a Crown personality declines it)."""
        return _won(self.ace)


@dataclass(frozen=True)
class Spend(Move):
    """One token of the personal supply onto a location that lacks its suit (once a turn)."""

    suit: str
    card: str
    ace: str | None = None
    kind = "spend"

    @property
    def key(self) -> str:
        return _key(self.kind, self.suit.lower(), self.card, self.ace)

    @property
    def ace_won(self) -> str | None:
        """The Ace this move wins (None when it wins none, or a Crown personality declines it)."""
        return _won(self.ace)


@dataclass(frozen=True)
class Pay(Move):
    """In the consequences, the event ``card`` takes a ``suit`` token from the supply."""

    suit: str
    card: str
    kind = "pay"

    @property
    def key(self) -> str:
        return _key(self.kind, self.suit.lower(), self.card)


@dataclass(frozen=True)
class Done(Move):
    kind = "done"  # the assignments are over: the turn's consequences follow
    spelling = "done"


DONE = Done()
_SUIT_INDEX = {s: i for i, s in enumerate(SUITS)}
_SUIT_WORDS = {s.lower(): s for s in SUITS}
_DIE = {"1", "2", "3", "4", "5", "6"}
SHAPES = "assign A+B CARD SUIT [ACE], spend SUIT CARD [ACE], pay SUIT CARD, done"


def _dice(word: str) -> tuple[int, int]:
    a, plus, b = word.partition("+")
    if not plus or a not in _DIE or b not in _DIE:
        raise RuleError("a couplet is two dice, written like 4+3")
    high, low = sorted((int(a), int(b)), reverse=True)  # a couplet is a pair: either order
    return high, low


def _journey_card(word: str) -> str:
    if word not in DECK:
        raise RuleError(f"'{word}' is not a card of the journey deck")
    return word


def _suit(word: str) -> str:
    if word not in _SUIT_WORDS:
        raise RuleError(f"'{word}' is not a suit ({', '.join(_SUIT_WORDS)})")
    return _SUIT_WORDS[word]


def _ace(words: list[str]) -> str | None:
    if not words:
        return None
    if words[0] != NO_ACE and words[0] not in ACES:
        raise RuleError(f"'{words[0]}' is neither an Ace nor {NO_ACE}")
    return words[0]


def parse(key: str) -> Move:
    """The move a key names, in any letter case and with a couplet's dice in either order;
    RuleError if it names none."""
    words = key.lower().split()
    verb, args = (words[0], words[1:]) if words else ("", [])
    try:
        if verb == "done" and not args:
            return DONE
        if verb == "assign" and len(args) in (3, 4):
            return Assign(_dice(args[0]), _journey_card(args[1]), _suit(args[2]), _ace(args[3:]))
        if verb == "spend" and len(args) in (2, 3):
            return Spend(_suit(args[0]), _journey_card(args[1]), _ace(args[2:]))
        if verb == "pay" and len(args) == 2:
            return Pay(_suit(args[0]), _journey_card(args[1]))
    except RuleError as e:
        raise RuleError(f"'{key}' is not a Hexaract move: {e}") from None
    raise RuleError(f"'{key}' is not a Hexaract move ({SHAPES})")


# -- the state ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Consequence:
    """One thing the consequences phase did, and the card that caused it."""

    card: str
    kind: str  # "harm", "token lost", "no token", "passes"
    suit: str | None
    text: str


def _final_supplies(supply: tuple[int, ...], events: list[tuple[str, ...]]) -> set[tuple[int, ...]]:
    """Every supply the events can leave, over all orders and suit choices."""
    out: set[tuple[int, ...]] = set()
    for order in permutations(range(len(events))):
        stack = [(supply, 0)]
        while stack:
            s, k = stack.pop()
            if k == len(order):
                out.add(s)
                continue
            suits = [i for i, name in enumerate(SUITS) if name in events[order[k]] and s[i] > 0]
            if not suits:
                stack.append((s, k + 1))
            for i in suits:
                t = list(s)
                t[i] -= 1
                stack.append((tuple(t), k + 1))
    return out


def _put(items: tuple, index: int, value) -> tuple:
    """``items`` with the one at ``index`` replaced by ``value``."""
    return items[:index] + (value,) + items[index + 1:]


@dataclass
class HexaractState(GameState):
    """The table. Every field is an immutable value (tuples are replaced, never changed in
    place): the policy's search clones the state for every move it tries, and the generic
    clone shares immutable values instead of copying them."""

    turn: int = 1  # the roll of turn n is dice roll number n-1
    phase: str = "setup"  # "setup", "assign", "pay", "refill", "over" (the roll is pending in "assign")
    roll: tuple[int, ...] | None = None
    used: tuple[bool, ...] = (False,) * DICE
    couplets: int = 0  # couplets assigned this turn
    spent: bool = False  # a token of the personal supply went onto a location this turn
    harm: int = 0
    supply: tuple[int, ...] = (0,) * len(SUITS)  # the personal supply: tokens of each suit, in SUITS order
    ace_rewards: tuple[str, ...] = ()  # face up, still to be won
    aces_used: tuple[str, ...] = ()  # the token aces and the rewards taken
    aces_drawn: int = 0
    journey: tuple[str | None, ...] = (None,) * JOURNEY_SIZE
    tokens: tuple[tuple[str, ...], ...] = ((),) * JOURNEY_SIZE  # the tokens on each journey place
    exhausted: tuple[bool, ...] = (False,) * JOURNEY_SIZE
    deck_drawn: int = 0
    discard: tuple[str, ...] = ()
    to_pay: tuple[int, ...] = ()  # journey places of events still to pay this turn
    consequences: tuple[Consequence, ...] = ()  # of the last consequences phase
    consequences_turn: int = 0  # the turn those consequences belong to (0: none yet)
    pending: Draw | Roll | None = None
    result: Outcome | None = None

    # -- what a view shows -------------------------------------------------------------

    @property
    def deck_left(self) -> int:
        return len(DECK) - self.deck_drawn

    def held(self, suit: str) -> int:
        """How many tokens of ``suit`` the personal supply holds."""
        return self.supply[_SUIT_INDEX[suit]]

    def _gain(self, suit: str, n: int) -> None:
        i = _SUIT_INDEX[suit]
        self.supply = _put(self.supply, i, self.supply[i] + n)

    def missing_suits(self) -> list[str]:
        return [s for s, n in zip(SUITS, self.supply) if n == 0]

    def free_dice(self) -> list[int]:
        if self.roll is None:
            return []
        return [d for d, u in zip(self.roll, self.used) if not u]

    def lacking(self, place: int) -> list[str]:
        """The suits a location at this journey place still needs."""
        card_id = self.journey[place]
        if card_id is None or _KIND[card_id] != "location":
            return []
        placed = self.tokens[place]
        return [s for s in _SUITS[card_id] if s not in placed]

    def journey_view(self) -> list[dict | None]:
        """Each journey place: the card, its type, rank, suits, tokens and exhaustion."""
        out: list[dict | None] = []
        for i, card_id in enumerate(self.journey):
            if card_id is None:
                out.append(None)
                continue
            out.append(
                {
                    "card": card_id,
                    "name": decktet.name(card_id),
                    "type": kind_of(card_id),
                    "rank": CARDS[card_id].rank,
                    "suits": suits_of(card_id),
                    "tokens": list(self.tokens[i]),
                    "exhausted": self.exhausted[i],
                }
            )
        return out

    # -- chance ------------------------------------------------------------------------

    def chance(self) -> Draw | Roll | None:
        return self.pending

    def _seen_deck(self) -> set[str]:
        seen = set(self.discard)
        seen.update(c for c in self.journey if c is not None)
        return seen

    def _draw_ace(self) -> None:
        to = ACE_TOKEN if self.aces_drawn < TOKEN_ACES else ACE_REWARD
        options = frozenset(ACES) - set(self.aces_used) - set(self.ace_rewards)
        self.pending = Draw(deal=0, slot=self.aces_drawn, to=to, options=options, pile="aces")

    def _refill_next(self) -> None:
        """Draw into the first vacant journey place, or start the next turn."""
        if self.deck_left > 0:
            for i, card_id in enumerate(self.journey):
                if card_id is None:
                    options = frozenset(DECK) - self._seen_deck()
                    self.pending = Draw(deal=0, slot=self.deck_drawn, to=journey_to(i), options=options)
                    return
        if self._check_end():
            return
        if self.phase == "refill":
            self.turn += 1
        self._start_turn()

    def _start_turn(self) -> None:
        self.phase = "assign"
        self.roll = None
        self.used = (False,) * DICE
        self.couplets = 0
        self.spent = False
        self.pending = Roll(index=self.turn - 1, count=DICE)

    def resolve(self, outcome) -> None:
        request = self.pending
        if request is None:
            raise RuleError("nothing is waiting to be drawn or rolled")
        if isinstance(request, Roll):
            dice = tuple(outcome) if isinstance(outcome, (tuple, list)) else None
            if dice is None or len(dice) != DICE or any(not isinstance(d, int) or not 1 <= d <= 6 for d in dice):
                raise RuleError("the roll is five six-sided dice, each from 1 to 6")
            self.pending = None
            self.roll = dice
            return
        if outcome not in request.options:
            raise RuleError(f"{outcome} cannot be drawn here: it is not among the cards left in that pile")
        self.pending = None
        if request.pile == "aces":
            self.aces_drawn += 1
            if request.to == ACE_TOKEN:
                self._gain(ace_suit(outcome), 1)
                self.aces_used += (outcome,)
            else:
                self.ace_rewards += (outcome,)
            if self.aces_drawn < len(ACES):
                self._draw_ace()
            else:
                self._refill_next()
            return
        place = place_of(request.to)
        assert place is not None
        self.journey = _put(self.journey, place, outcome)
        self.tokens = _put(self.tokens, place, ())
        self.exhausted = _put(self.exhausted, place, False)
        self.deck_drawn += 1
        self._refill_next()

    # -- the moves -------------------------------------------------------------------

    def _ace_choices(self, card_id: str, completes: bool) -> list[str | None]:
        if not completes or not is_crown(card_id) or not self.ace_rewards:
            return [None]
        choices: list[str | None] = list(self.ace_rewards)
        if kind_of(card_id) == "personality":
            choices.append(NO_ACE)  # a Crown personality only *may* pay an ace
        return choices

    def moves(self, like: Move | None = None) -> list[Move]:
        """The legal moves, in the order the player sees them: couplets (highest dice
        first, journey order), then the token spends, then done; or the payments.
        With ``like``, only those that could equal it (``apply`` checks one move so)."""
        if self.result is not None or self.pending is not None:
            return []
        if self.phase == "pay":
            return self._pay_moves()
        if self.phase != "assign":
            return []
        out: list[Move] = []
        assigning = like is None or isinstance(like, Assign)
        if assigning and self.couplets < MAX_COUPLETS:
            free = self.free_dice()
            pairs = set()
            for i in range(len(free)):
                for j in range(i + 1, len(free)):
                    a, b = free[i], free[j]
                    pairs.add((a, b) if a >= b else (b, a))
            for pair in sorted(pairs, reverse=True):
                if like is not None and pair != like.dice:  # type: ignore[attr-defined]
                    continue
                reach = _REACH[pair]
                for place, card_id in enumerate(self.journey):
                    if card_id is None or _RANK[card_id] not in reach:
                        continue
                    if _KIND[card_id] == "location":
                        lacking = self.lacking(place)
                        for suit in lacking:
                            for ace in self._ace_choices(card_id, len(lacking) == 1):
                                out.append(Assign(pair, card_id, suit, ace))
                    else:
                        for suit in _SUITS[card_id]:
                            for ace in self._ace_choices(card_id, True):
                                out.append(Assign(pair, card_id, suit, ace))
        if (like is None or isinstance(like, Spend)) and not self.spent:
            for place, card_id in enumerate(self.journey):
                if card_id is None or _KIND[card_id] != "location":
                    continue
                lacking = self.lacking(place)
                for suit in lacking:
                    if self.held(suit) > 0:
                        for ace in self._ace_choices(card_id, len(lacking) == 1):
                            out.append(Spend(suit, card_id, ace))
        out.append(DONE)
        return out

    def _pay_moves(self) -> list[Move]:
        out: list[Move] = []
        for place in self.to_pay:
            card_id = self.journey[place]
            assert card_id is not None
            for suit in _SUITS[card_id]:
                if self.held(suit) > 0:
                    out.append(Pay(suit, card_id))
        return out

    def legal_actions(self) -> list[Action]:
        return [Action(m, self.describe(m)) for m in self.moves()]

    # -- words -----------------------------------------------------------------------

    def _ace_text(self, ace: str | None) -> str:
        if ace is None:
            return ""
        if ace == NO_ACE:
            return ", leaving the ace rewards"
        return f" and {decktet.name(ace)} (a {ace_suit(ace)} token)"

    def _survey_text(self, place: int, ace: str | None) -> str:
        """What placing the last token a location lacks adds to the words."""
        if len(self.lacking(place)) != 1:
            return ""
        return ": survey complete" + (f", take {decktet.name(ace)} (a {ace_suit(ace)} token)" if ace else "")

    def describe(self, move: Move) -> str:
        if isinstance(move, Assign):
            place = self.journey.index(move.card)
            a, b = move.dice
            dice = dice_text(a, b, couplet_values(a, b, rank_of(move.card)))  # type: ignore[arg-type]
            head = f"{dice} to {short_label(move.card)}"
            kind = kind_of(move.card)
            if kind == "location":
                return f"{head}, placing a {move.suit} token{self._survey_text(place, move.ace)}"
            verb = "thwart it" if kind == "personality" else "turn the tables"
            return f"{head}: {verb}, take a {move.suit} token{self._ace_text(move.ace)}"
        if isinstance(move, Spend):
            place = self.journey.index(move.card)
            text = f"Spend a {move.suit} token from your supply on {decktet.label(move.card)}"
            return text + self._survey_text(place, move.ace)
        if isinstance(move, Pay):
            return f"{cap(decktet.label(move.card))} takes a {move.suit} token from your supply"
        return "Done assigning: end the turn"

    # -- doing -----------------------------------------------------------------------

    def apply(self, move: Move) -> None:
        if self.result is not None:
            raise RuleError("the game is over")
        if self.pending is not None:
            what = "dice must be rolled" if isinstance(self.pending, Roll) else "a card must be drawn"
            raise RuleError(f"{what} first")
        if move not in self.moves(like=move):
            raise RuleError(self._why_not(move))
        self.do(move)

    def do(self, move: Move) -> None:
        """Carry out a move taken from :meth:`moves` (``apply`` checks it first; the
        policy's search, which only tries moves it has just listed, calls this directly)."""
        if isinstance(move, Assign):
            a, b = move.dice
            self._use_die(a)
            self._use_die(b)
            self.couplets += 1
            self._reward(self.journey.index(move.card), move.suit, move.ace)
            self._check_end()
        elif isinstance(move, Spend):
            self.spent = True
            self._gain(move.suit, -1)
            self._reward(self.journey.index(move.card), move.suit, move.ace)
            self._check_end()
        elif isinstance(move, Pay):
            self._pay(self.journey.index(move.card), move.suit)
            self._settle_payments()
        else:
            self._consequences()

    def _use_die(self, value: int) -> None:
        for i, d in enumerate(self.roll or ()):
            if d == value and not self.used[i]:
                self.used = _put(self.used, i, True)
                return
        raise RuleError(f"no free die shows {value}")  # pragma: no cover - moves() checks

    def _remove(self, place: int) -> None:
        self.discard += (self.journey[place],)  # type: ignore[operator]
        self.journey = _put(self.journey, place, None)
        self.tokens = _put(self.tokens, place, ())
        self.exhausted = _put(self.exhausted, place, False)

    def _take_ace(self, ace: str | None) -> None:
        if ace and ace != NO_ACE:
            self.ace_rewards = tuple(a for a in self.ace_rewards if a != ace)
            self.aces_used += (ace,)
            self._gain(ace_suit(ace), 1)

    def _reward(self, place: int, suit: str, ace: str | None) -> None:
        card_id = self.journey[place]
        assert card_id is not None
        if kind_of(card_id) == "location":
            self.tokens = _put(self.tokens, place, self.tokens[place] + (suit,))
            if not self.lacking(place):
                self._remove(place)  # the survey is complete; its tokens go with it
                self._take_ace(ace)
        else:
            self._gain(suit, 1)
            self._remove(place)
            self._take_ace(ace)

    def _consequences(self) -> None:
        """Phase 3: harm from personalities and exhausted locations, then events pay."""
        self.consequences = ()
        self.consequences_turn = self.turn
        for place, card_id in enumerate(self.journey):
            if card_id is None:
                continue
            kind = kind_of(card_id)
            if kind == "personality":
                why = f"{cap(short_label(card_id))} deals 1 harm"
            elif kind == "location" and self.exhausted[place]:
                why = f"{cap(short_label(card_id))}, exhausted, deals 1 harm"
            else:
                continue
            self.harm += 1
            self.consequences += (Consequence(card_id, "harm", None, why),)
        if self.harm >= HARM_LIMIT:
            self.phase = "over"
            self.result = Outcome(Result.LOST, f"You took {self.harm} harm: the journey ends here.", self._score(),
                                  Cause.HARM)
            return
        self.to_pay = tuple(p for p, c in enumerate(self.journey) if c is not None and kind_of(c) == "event")
        self.phase = "pay"
        self._settle_payments()

    def _pay(self, place: int, suit: str) -> None:
        card_id = self.journey[place]
        assert card_id is not None
        self._gain(suit, -1)
        self.to_pay = tuple(p for p in self.to_pay if p != place)
        self.consequences += (
            Consequence(card_id, "token lost", suit, f"{cap(short_label(card_id))} takes a {suit} token"),
        )

    def _settle_payments(self) -> None:
        """Pay every event whose payment is forced; stop where the player has a real choice."""
        while True:
            for place in self.to_pay:
                card_id = self.journey[place]
                assert card_id is not None
                if not any(self.held(s) > 0 for s in suits_of(card_id)):
                    self.to_pay = tuple(p for p in self.to_pay if p != place)
                    text = f"{cap(short_label(card_id))} finds no matching token"
                    self.consequences += (Consequence(card_id, "no token", None, text),)
            if not self.to_pay:
                break
            events = [suits_of(self.journey[p]) for p in self.to_pay]  # type: ignore[arg-type]
            if len(_final_supplies(self.supply, events)) > 1:
                return  # the order or the suit matters: the player decides
            place = self.to_pay[0]
            suit = next(s for s in suits_of(self.journey[place]) if self.held(s) > 0)  # type: ignore[arg-type]
            self._pay(place, suit)
        self._exhaust_and_refill()

    def _exhaust_and_refill(self) -> None:
        """Phase 4: locations tire, old events pass, fresh events tire, the journey refills."""
        for place, card_id in enumerate(self.journey):
            if card_id is not None and kind_of(card_id) == "location":
                self.exhausted = _put(self.exhausted, place, True)
        for place, card_id in enumerate(self.journey):
            if card_id is not None and kind_of(card_id) == "event" and self.exhausted[place]:
                self.consequences += (Consequence(card_id, "passes", None, f"{cap(short_label(card_id))} passes"),)
                self._remove(place)
        for place, card_id in enumerate(self.journey):
            if card_id is not None and kind_of(card_id) == "event":
                self.exhausted = _put(self.exhausted, place, True)
        self.phase = "refill"
        self.roll = None
        self.used = (False,) * DICE
        self._refill_next()

    # -- the end -----------------------------------------------------------------------

    def _score(self) -> int:
        return sum(1 for n in self.supply if n > 0)

    def _check_end(self) -> bool:
        if self.result is not None:
            return True
        if self.deck_left == 0 and all(c is None for c in self.journey):
            self.phase = "over"
            self.pending = None
            missing = self.missing_suits()
            if not missing:
                reason = "The journey is cleared and you hold all six suits: the artifact is whole."
                self.result = Outcome(Result.WON, reason, 6, Cause.ARTIFACT_WHOLE)
            else:
                reason = (f"The journey is cleared, but your supply lacks {', '.join(missing)}: "
                          "the artifact is incomplete.")
                self.result = Outcome(Result.LOST, reason, self._score(), Cause.ARTIFACT_INCOMPLETE)
            return True
        return False

    @property
    def outcome(self) -> Outcome | None:
        return self.result

    def _why_not(self, move: Move) -> str:
        """The rule an illegal move breaks, in words."""
        if self.phase == "pay":
            if not isinstance(move, Pay):
                return "the consequences are being paid: choose which event takes which token"
            return "an event takes a token of one of its own suits, from your supply, once per turn"
        if isinstance(move, Pay):
            return "events take tokens only in the consequences phase, after you end the turn"
        if isinstance(move, Assign):
            if self.couplets >= MAX_COUPLETS:
                return "at most two couplets may be assigned per roll"
            card_id = move.card
            if card_id not in self.journey:
                return "a couplet goes to a card on the journey"
            a, b = move.dice
            free = self.free_dice()
            if free.count(a) < move.dice.count(a) or free.count(b) < move.dice.count(b):
                return f"the dice {a} and {b} are not both free in this roll"
            if couplet_values(a, b, rank_of(card_id)) is None:
                return f"a couplet's sum must equal the card's rank ({CARDS[card_id].rank}); a 6 counts as 1 to 5"
            lacking = self.lacking(self.journey.index(card_id))
            if kind_of(card_id) == "location" and move.suit not in lacking:
                return f"a location only takes a token of a suit it still lacks ({', '.join(lacking)})"
            if move.suit not in suits_of(card_id):
                return f"the token must match one of the card's suits ({'/'.join(suits_of(card_id))})"
            return "a Crown pays one of the face-up ace rewards while any is left (a Crown personality may decline)"
        if isinstance(move, Spend):
            if self.spent:
                return "only one token from your supply may be spent per turn"
            if move.card not in self.journey or kind_of(move.card) != "location":
                return "a token from your supply can only go onto a location on the journey"
            if self.held(move.suit) == 0:
                return f"you have no {move.suit} token in your supply"
            if move.suit not in self.lacking(self.journey.index(move.card)):
                return "a location only takes a token of a suit it still lacks"
            return "a Crown location pays one of the face-up ace rewards while any is left"
        return f"'{move.key}' is not a legal move now"

    def places(self) -> dict[str, list[str]]:
        return {
            "ace rewards": list(self.ace_rewards),
            "aces used": list(self.aces_used),
            "journey": [c for c in self.journey if c is not None],
            "discard": list(self.discard),
        }


class Hexaract(Game):
    name = "hexaract"
    title = "Hexaract"
    piles = ("deck", "aces")
    dice = True
    summary = ("Roll five dice along a journey of Decktet cards and bring back all six suits "
               "(Decktet, 5d6, suit tokens).")
    variants = ()
    causes: Mapping[str, str] = {
        Cause.ARTIFACT_WHOLE: "won: the journey is cleared with all six suits in the supply",
        Cause.ARTIFACT_INCOMPLETE: "lost: the journey is cleared, but the supply lacks a suit",
        Cause.HARM: "lost: the adventurer took ten harm",
        Abandoned.ABANDONED: "the player abandoned the game",
    }

    def deck(self, variants: Mapping[str, str], pile: str = "deck") -> list[str]:
        if pile == "aces":
            return list(ACES)
        if pile == "deck":
            return list(DECK)
        raise ValueError(f"Hexaract has no pile '{pile}' (its piles: aces, deck)")

    def parse(self, key: str) -> Move:
        return parse(key)

    def new_state(self, variants: Mapping[str, str]) -> HexaractState:
        state = HexaractState()
        state._draw_ace()
        return state


GAME = Hexaract()

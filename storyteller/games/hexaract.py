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

from dataclasses import dataclass, field
from itertools import permutations
from typing import Mapping

from storyteller.cards import decktet_cards
from storyteller.engine import Action, Draw, Game, Hint, Outcome, Roll, RuleError

SUITS = ("Moons", "Suns", "Waves", "Leaves", "Wyrms", "Knots")
HARM_LIMIT = 10
JOURNEY_SIZE = 3
DICE = 5
MAX_COUPLETS = 2
TOKEN_ACES = 3  # the first three Aces give tokens; the rest are ace rewards
NO_ACE = "no-ace"  # a Crown personality's reward taken without an ace

_BASIC = [c for c in decktet_cards() if c.deck == "basic"]
CARDS = {c.id: c for c in _BASIC}
ACES = tuple(c.id for c in _BASIC if c.rank == "Ace")
DECK = tuple(c.id for c in _BASIC if c.rank != "Ace")


def _kind(types: tuple[str, ...]) -> str:
    if "location" in types:
        return "location"  # a location-and-event is a location only
    if "personality" in types:
        return "personality"
    return "event"


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


def is_crown(card_id: str) -> bool:
    return CARDS[card_id].rank == "Crown"


def name_of(card_id: str) -> str:
    return CARDS[card_id].name


def rank_label(card_id: str) -> str:
    c = CARDS[card_id]
    return "Crown" if c.rank == "Crown" else c.rank


def label(card_id: str, suits: bool = False) -> str:
    """'the Castle (7)' or, with suits, 'the Castle (7, Suns/Knots)'."""
    inside = rank_label(card_id)
    if suits:
        inside += ", " + "/".join(suits_of(card_id))
    return f"{name_of(card_id)} ({inside})"


def capital(text: str) -> str:
    return text[:1].upper() + text[1:]


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


def dice_text(a: int, b: int, values: tuple[int, int]) -> str:
    """'4+3', or '6 as 5 + 5' when a wild die is in the couplet."""
    if a != 6 and b != 6:
        return f"{a}+{b}"
    parts = [f"6 as {v}" if d == 6 else str(d) for d, v in zip((a, b), values)]
    return " + ".join(parts)


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


@dataclass
class HexaractState:
    turn: int = 1  # the roll of turn n is dice roll number n-1
    phase: str = "setup"  # "setup", "assign", "pay", "refill", "over" (the roll is pending in "assign")
    roll: tuple[int, ...] | None = None
    used: list[bool] = field(default_factory=lambda: [False] * DICE)
    couplets: int = 0  # couplets assigned this turn
    spent: bool = False  # a token of the personal supply went onto a location this turn
    harm: int = 0
    supply: dict[str, int] = field(default_factory=lambda: {s: 0 for s in SUITS})
    ace_rewards: list[str] = field(default_factory=list)  # face up, still to be won
    aces_used: list[str] = field(default_factory=list)  # the token aces and the rewards taken
    aces_drawn: int = 0
    journey: list[str | None] = field(default_factory=lambda: [None] * JOURNEY_SIZE)
    tokens: list[list[str]] = field(default_factory=lambda: [[] for _ in range(JOURNEY_SIZE)])
    exhausted: list[bool] = field(default_factory=lambda: [False] * JOURNEY_SIZE)
    deck_drawn: int = 0
    discard: list[str] = field(default_factory=list)
    to_pay: list[int] = field(default_factory=list)  # journey places of events still to pay this turn
    consequences: list[Consequence] = field(default_factory=list)  # of the last consequences phase
    consequences_turn: int = 0  # the turn those consequences belong to (0: none yet)
    pending: Draw | Roll | None = None
    result: Outcome | None = None

    # -- what a view shows -------------------------------------------------------------

    @property
    def deck_left(self) -> int:
        return len(DECK) - self.deck_drawn

    def missing_suits(self) -> list[str]:
        return [s for s in SUITS if self.supply[s] == 0]

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
                    "name": name_of(card_id),
                    "type": kind_of(card_id),
                    "rank": rank_label(card_id),
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
        to = "ace token" if self.aces_drawn < TOKEN_ACES else "ace reward"
        options = frozenset(ACES) - set(self.aces_used) - set(self.ace_rewards)
        self.pending = Draw(deal=0, slot=self.aces_drawn, to=to, options=options, pile="aces")

    def _refill_next(self) -> None:
        """Draw into the first vacant journey place, or start the next turn."""
        if self.deck_left > 0:
            for i, card_id in enumerate(self.journey):
                if card_id is None:
                    options = frozenset(DECK) - self._seen_deck()
                    self.pending = Draw(deal=0, slot=self.deck_drawn, to=f"journey {i + 1}", options=options)
                    return
        if self._check_end():
            return
        if self.phase == "refill":
            self.turn += 1
        self._start_turn()

    def _start_turn(self) -> None:
        self.phase = "assign"
        self.roll = None
        self.used = [False] * DICE
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
            if request.to == "ace token":
                self.supply[CARDS[outcome].suits[0]] += 1
                self.aces_used.append(outcome)
            else:
                self.ace_rewards.append(outcome)
            if self.aces_drawn < len(ACES):
                self._draw_ace()
            else:
                self._refill_next()
            return
        place = int(request.to.split()[1]) - 1
        self.journey[place] = outcome
        self.tokens[place] = []
        self.exhausted[place] = False
        self.deck_drawn += 1
        self._refill_next()

    # -- the moves -------------------------------------------------------------------
    # A move is a tuple: ("assign", (a, b), place, suit, ace), ("spend", place, suit, ace),
    # ("done",), ("pay", place, suit). ``ace`` is an Ace id, NO_ACE or None (no ace to win).

    def _ace_choices(self, card_id: str, completes: bool) -> list[str | None]:
        if not completes or not is_crown(card_id) or not self.ace_rewards:
            return [None]
        choices: list[str | None] = list(self.ace_rewards)
        if kind_of(card_id) == "personality":
            choices.append(NO_ACE)  # a Crown personality only *may* pay an ace
        return choices

    def moves(self) -> list[tuple]:
        if self.result is not None or self.pending is not None:
            return []
        if self.phase == "pay":
            return self._pay_moves()
        if self.phase != "assign":
            return []
        out: list[tuple] = []
        if self.couplets < MAX_COUPLETS:
            free = self.free_dice()
            pairs = set()
            for i in range(len(free)):
                for j in range(i + 1, len(free)):
                    a, b = free[i], free[j]
                    pairs.add((a, b) if a >= b else (b, a))
            for pair in sorted(pairs, reverse=True):
                for place, card_id in enumerate(self.journey):
                    if card_id is None or couplet_values(pair[0], pair[1], rank_of(card_id)) is None:
                        continue
                    if kind_of(card_id) == "location":
                        lacking = self.lacking(place)
                        for suit in lacking:
                            for ace in self._ace_choices(card_id, len(lacking) == 1):
                                out.append(("assign", pair, place, suit, ace))
                    else:
                        for suit in suits_of(card_id):
                            for ace in self._ace_choices(card_id, True):
                                out.append(("assign", pair, place, suit, ace))
        if not self.spent:
            for place, card_id in enumerate(self.journey):
                if card_id is None or kind_of(card_id) != "location":
                    continue
                lacking = self.lacking(place)
                for suit in lacking:
                    if self.supply[suit] > 0:
                        for ace in self._ace_choices(card_id, len(lacking) == 1):
                            out.append(("spend", place, suit, ace))
        out.append(("done",))
        return out

    def _pay_moves(self) -> list[tuple]:
        out = []
        for place in self.to_pay:
            for suit in suits_of(self.journey[place]):  # type: ignore[arg-type]
                if self.supply[suit] > 0:
                    out.append(("pay", place, suit))
        return out

    # -- words -----------------------------------------------------------------------

    def key_of(self, move: tuple) -> str:
        verb = move[0]
        if verb == "assign":
            _, (a, b), place, suit, ace = move
            key = f"assign {a}+{b} {self.journey[place]} {suit.lower()}"
            return key + (f" {ace}" if ace else "")
        if verb == "spend":
            _, place, suit, ace = move
            return f"spend {suit.lower()} {self.journey[place]}" + (f" {ace}" if ace else "")
        if verb == "pay":
            _, place, suit = move
            return f"pay {suit.lower()} {self.journey[place]}"
        return "done"

    def _ace_text(self, ace: str | None) -> str:
        if ace is None:
            return ""
        if ace == NO_ACE:
            return ", leaving the ace rewards"
        return f" and the {name_of(ace)} (a {CARDS[ace].suits[0]} token)"

    def text_of(self, move: tuple) -> str:
        verb = move[0]
        if verb == "assign":
            _, (a, b), place, suit, ace = move
            card_id = self.journey[place]
            assert card_id is not None
            dice = dice_text(a, b, couplet_values(a, b, rank_of(card_id)))  # type: ignore[arg-type]
            kind = kind_of(card_id)
            head = f"{dice} to {label(card_id)}"
            if kind == "location":
                done = len(self.lacking(place)) == 1
                text = f"{head}, placing a {suit} token"
                if done:
                    text += ": survey complete"
                    if ace:
                        text += f", take the {name_of(ace)} (a {CARDS[ace].suits[0]} token)"
                return text
            verb_text = "thwart it" if kind == "personality" else "turn the tables"
            return f"{head}: {verb_text}, take a {suit} token{self._ace_text(ace)}"
        if verb == "spend":
            _, place, suit, ace = move
            card_id = self.journey[place]
            assert card_id is not None
            text = f"Spend a {suit} token from your supply on {label(card_id, suits=True)}"
            if len(self.lacking(place)) == 1:
                text += ": survey complete"
                if ace:
                    text += f", take the {name_of(ace)} (a {CARDS[ace].suits[0]} token)"
            return text
        if verb == "pay":
            _, place, suit = move
            card_id = self.journey[place]
            return f"{capital(label(card_id, suits=True))} takes a {suit} token from your supply"  # type: ignore[arg-type]
        return "Done assigning: end the turn"

    def action_of(self, move: tuple) -> Action:
        return Action(self.key_of(move), self.text_of(move))

    def legal_actions(self) -> list[Action]:
        return [self.action_of(m) for m in self.moves()]

    # -- doing -----------------------------------------------------------------------

    def apply(self, action: Action) -> None:
        if self.result is not None:
            raise RuleError("the game is over")
        if self.pending is not None:
            what = "dice must be rolled" if isinstance(self.pending, Roll) else "a card must be drawn"
            raise RuleError(f"{what} first")
        key = action.key if isinstance(action, Action) else str(action)
        for move in self.moves():
            if self.key_of(move) == key:
                self.do(move)
                return
        raise RuleError(self._why_not(key))

    def do(self, move: tuple) -> None:
        """Carry out a legal move (the policy calls this directly)."""
        verb = move[0]
        if verb == "assign":
            _, (a, b), place, suit, ace = move
            self._use_die(a)
            self._use_die(b)
            self.couplets += 1
            self._reward(place, suit, ace)
            self._check_end()
        elif verb == "spend":
            _, place, suit, ace = move
            self.spent = True
            self.supply[suit] -= 1
            self._reward(place, suit, ace)
            self._check_end()
        elif verb == "pay":
            _, place, suit = move
            self._pay(place, suit)
            self._settle_payments()
        else:
            self._consequences()

    def _use_die(self, value: int) -> None:
        for i, d in enumerate(self.roll or ()):
            if d == value and not self.used[i]:
                self.used[i] = True
                return
        raise RuleError(f"no free die shows {value}")  # pragma: no cover - moves() checks

    def _remove(self, place: int) -> None:
        self.discard.append(self.journey[place])  # type: ignore[arg-type]
        self.journey[place] = None
        self.tokens[place] = []
        self.exhausted[place] = False

    def _take_ace(self, ace: str | None) -> None:
        if ace and ace != NO_ACE:
            self.ace_rewards.remove(ace)
            self.aces_used.append(ace)
            self.supply[CARDS[ace].suits[0]] += 1

    def _reward(self, place: int, suit: str, ace: str | None) -> None:
        card_id = self.journey[place]
        assert card_id is not None
        if kind_of(card_id) == "location":
            self.tokens[place].append(suit)
            if not self.lacking(place):
                self._remove(place)  # the survey is complete; its tokens go with it
                self._take_ace(ace)
        else:
            self.supply[suit] += 1
            self._remove(place)
            self._take_ace(ace)

    def _consequences(self) -> None:
        """Phase 3: harm from personalities and exhausted locations, then events pay."""
        self.consequences = []
        self.consequences_turn = self.turn
        for place, card_id in enumerate(self.journey):
            if card_id is None:
                continue
            kind = kind_of(card_id)
            if kind == "personality":
                why = f"{capital(label(card_id))} deals 1 harm"
            elif kind == "location" and self.exhausted[place]:
                why = f"{capital(label(card_id))}, exhausted, deals 1 harm"
            else:
                continue
            self.harm += 1
            self.consequences.append(Consequence(card_id, "harm", None, why))
        if self.harm >= HARM_LIMIT:
            self.phase = "over"
            self.result = Outcome("lost", f"You took {self.harm} harm: the journey ends here.", self._score())
            return
        self.to_pay = [p for p, c in enumerate(self.journey) if c is not None and kind_of(c) == "event"]
        self.phase = "pay"
        self._settle_payments()

    def _pay(self, place: int, suit: str) -> None:
        card_id = self.journey[place]
        self.supply[suit] -= 1
        self.to_pay.remove(place)
        self.consequences.append(
            Consequence(card_id, "token lost", suit, f"{capital(label(card_id))} takes a {suit} token")  # type: ignore[arg-type]
        )

    def _settle_payments(self) -> None:
        """Pay every event whose payment is forced; stop where the player has a real choice."""
        while True:
            for place in list(self.to_pay):
                card_id = self.journey[place]
                if not any(self.supply[s] > 0 for s in suits_of(card_id)):  # type: ignore[arg-type]
                    self.to_pay.remove(place)
                    self.consequences.append(
                        Consequence(card_id, "no token", None, f"{capital(label(card_id))} finds no matching token")  # type: ignore[arg-type]
                    )
            if not self.to_pay:
                break
            supply = tuple(self.supply[s] for s in SUITS)
            events = [suits_of(self.journey[p]) for p in self.to_pay]  # type: ignore[arg-type]
            if len(_final_supplies(supply, events)) > 1:
                return  # the order or the suit matters: the player decides
            place = self.to_pay[0]
            suit = next(s for s in suits_of(self.journey[place]) if self.supply[s] > 0)  # type: ignore[arg-type]
            self._pay(place, suit)
        self._exhaust_and_refill()

    def _exhaust_and_refill(self) -> None:
        """Phase 4: locations tire, old events pass, fresh events tire, the journey refills."""
        for place, card_id in enumerate(self.journey):
            if card_id is not None and kind_of(card_id) == "location":
                self.exhausted[place] = True
        for place, card_id in enumerate(self.journey):
            if card_id is not None and kind_of(card_id) == "event" and self.exhausted[place]:
                self.consequences.append(Consequence(card_id, "passes", None, f"{capital(label(card_id))} passes"))
                self._remove(place)
        for place, card_id in enumerate(self.journey):
            if card_id is not None and kind_of(card_id) == "event":
                self.exhausted[place] = True
        self.phase = "refill"
        self.roll = None
        self.used = [False] * DICE
        self._refill_next()

    # -- the end -----------------------------------------------------------------------

    def _score(self) -> int:
        return sum(1 for s in SUITS if self.supply[s] > 0)

    def _check_end(self) -> bool:
        if self.result is not None:
            return True
        if self.deck_left == 0 and all(c is None for c in self.journey):
            self.phase = "over"
            self.pending = None
            missing = self.missing_suits()
            if not missing:
                self.result = Outcome("won", "The journey is cleared and you hold all six suits: the artifact is whole.", 6)
            else:
                self.result = Outcome(
                    "lost",
                    f"The journey is cleared, but your supply lacks {', '.join(missing)}: the artifact is incomplete.",
                    self._score(),
                )
            return True
        return False

    @property
    def outcome(self) -> Outcome | None:
        return self.result

    def _why_not(self, key: str) -> str:
        verb, _, rest = key.partition(" ")
        words = rest.split()
        if self.phase == "pay":
            if verb != "pay":
                return "the consequences are being paid: choose which event takes which token"
            return "an event takes a token of one of its own suits, from your supply, once per turn"
        if verb == "pay":
            return "events take tokens only in the consequences phase, after you end the turn"
        if verb == "assign":
            if self.couplets >= MAX_COUPLETS:
                return "at most two couplets may be assigned per roll"
            if len(words) < 3 or words[1] not in self.journey:
                return "a couplet goes to a card on the journey"
            place = self.journey.index(words[1])
            try:
                a, b = (int(x) for x in words[0].split("+"))
            except ValueError:
                return "a couplet is two dice, written like 4+3"
            free = self.free_dice()
            if free.count(a) < [a, b].count(a) or free.count(b) < [a, b].count(b):
                return f"the dice {a} and {b} are not both free in this roll"
            if couplet_values(max(a, b), min(a, b), rank_of(words[1])) is None:
                return f"a couplet's sum must equal the card's rank ({rank_label(words[1])}); a 6 counts as 1 to 5"
            suit = words[2].capitalize()
            if kind_of(words[1]) == "location" and suit not in self.lacking(place):
                return f"a location only takes a token of a suit it still lacks ({', '.join(self.lacking(place))})"
            if suit not in suits_of(words[1]):
                return f"the token must match one of the card's suits ({'/'.join(suits_of(words[1]))})"
            return "a Crown pays one of the face-up ace rewards while any is left (a Crown personality may decline)"
        if verb == "spend":
            if self.spent:
                return "only one token from your supply may be spent per turn"
            if len(words) < 2 or words[1] not in self.journey or kind_of(words[1]) != "location":
                return "a token from your supply can only go onto a location on the journey"
            suit = words[0].capitalize()
            if suit not in SUITS or self.supply.get(suit, 0) == 0:
                return f"you have no {suit} token in your supply"
            place = self.journey.index(words[1])
            if suit not in self.lacking(place):
                return "a location only takes a token of a suit it still lacks"
            return "a Crown location pays one of the face-up ace rewards while any is left"
        return f"'{key}' is not a Hexaract move"

    def places(self) -> dict[str, list[str]]:
        return {
            "ace rewards": list(self.ace_rewards),
            "aces used": list(self.aces_used),
            "journey": [c for c in self.journey if c is not None],
            "discard": list(self.discard),
        }

    def clone(self) -> "HexaractState":
        new = HexaractState.__new__(HexaractState)
        new.__dict__.update(self.__dict__)
        new.used = list(self.used)
        new.supply = dict(self.supply)
        new.ace_rewards = list(self.ace_rewards)
        new.aces_used = list(self.aces_used)
        new.journey = list(self.journey)
        new.tokens = [list(t) for t in self.tokens]
        new.exhausted = list(self.exhausted)
        new.discard = list(self.discard)
        new.to_pay = list(self.to_pay)
        new.consequences = list(self.consequences)
        return new


class Hexaract(Game):
    name = "hexaract"
    title = "Hexaract"
    has_policy = True
    piles = ("deck", "aces")
    summary = "Roll five dice along a journey of Decktet cards and bring back all six suits (Decktet, 5d6, suit tokens)."
    variants = ()

    def deck(self, variants: Mapping[str, str], pile: str = "deck") -> list[str]:
        if pile == "aces":
            return list(ACES)
        if pile == "deck":
            return list(DECK)
        raise ValueError(f"Hexaract has no pile '{pile}' (its piles: aces, deck)")

    def new_state(self, variants: Mapping[str, str]) -> HexaractState:
        state = HexaractState()
        state._draw_ace()
        return state

    def hint(self, state: HexaractState) -> Hint | None:  # type: ignore[override]
        if state.outcome is not None or state.chance() is not None:
            return None
        move, why = choose(state)
        return Hint(state.action_of(move), why)


GAME = Hexaract()


# -- the greedy policy ---------------------------------------------------------------------
# It looks only at what the player sees: the journey, the dice rolled, the supply, the
# ace rewards, the harm and how many cards are left (never which ones, never future dice).
# In phase 2 it searches every way to use this roll (couplets, the one token spend, in
# any order) and scores where each way leaves the turn, before the consequences.

# Chance that five dice hold a couplet of this sum (6 wild), for rank 2..10.
_HIT = {2: 0.539, 3: 0.716, 4: 0.837, 5: 0.891, 6: 0.945, 7: 0.891, 8: 0.837, 9: 0.716, 10: 0.539}
_TOKEN_VALUE = (0.0, 2.0, 3.0, 3.5, 3.8, 4.0, 4.1, 4.2)  # the first of a suit counts most
_BIG = 1_000_000.0
_memo: dict[tuple, tuple[float, tuple]] = {}  # values of this turn's positions
_memo_turn: tuple | None = None


def _supply_value(counts: list[int], urgency: float) -> float:
    value = 0.0
    for n in counts:
        value += _TOKEN_VALUE[min(n, len(_TOKEN_VALUE) - 1)]
        if n == 0:
            value -= urgency
    return value


def _pay_greedily(counts: list[int], suits: tuple[str, ...]) -> None:
    """An event takes the token the supply misses least (the suit held most)."""
    best = -1
    for s in suits:
        i = SUITS.index(s)
        if counts[i] > 0 and (best < 0 or counts[i] > counts[best]):
            best = i
    if best >= 0:
        counts[best] -= 1


# Weights of the evaluation, tuned on seeded games: harm now and harm to come weigh
# against the tokens in the supply (the first of each suit above all).
W = {
    "pers": 0.9, "pers_miss": 1.5, "loc": 0.6, "loc_miss": 1.5, "event": 1.2,
    "harm": 2.0, "harm_sq": 3.0, "harm_knee": 5, "doom": 5.0, "future": 3.0,
    "urg0": 2.0, "urg1": 6.0, "ace": 3.0,
}


def evaluate(state: HexaractState) -> float:
    """How good the end of phase 2 looks, counting this turn's consequences."""
    if state.result is not None:
        return _BIG + state.result.score if state.result.won else -_BIG + (state.result.score or 0)
    w = W
    harm = state.harm
    future = 0.0
    upcoming = 0  # harm the cards still there would deal next turn
    events = []
    for place, card_id in enumerate(state.journey):
        if card_id is None:
            continue
        kind = _KIND[card_id]
        miss = 1.0 - _HIT[_RANK[card_id]]
        if kind == "personality":
            harm += 1
            upcoming += 1
            future += w["pers"] + w["pers_miss"] * miss
        elif kind == "location":
            if state.exhausted[place]:
                harm += 1
            upcoming += 1
            need = len(state.lacking(place))
            future += w["loc"] * need + w["loc_miss"] * miss
        else:
            events.append(_SUITS[card_id])
            if not state.exhausted[place]:
                future += w["event"]  # it takes a token again next turn
    if harm >= HARM_LIMIT:
        return -_BIG + 100 - harm
    counts = [state.supply[s] for s in SUITS]
    for suits in events:
        _pay_greedily(counts, suits)
    late = 1.0 - state.deck_left / len(DECK)
    value = _supply_value(counts, w["urg0"] + w["urg1"] * late)
    # harm grows dearer as it nears the limit
    value -= w["harm"] * harm + w["harm_sq"] * max(0, harm - w["harm_knee"]) ** 2
    if harm + upcoming >= HARM_LIMIT:
        value -= w["doom"] * (harm + upcoming - HARM_LIMIT + 1)
    value -= w["future"] * future
    for ace in state.ace_rewards:
        if counts[SUITS.index(CARDS[ace].suits[0])] == 0:
            value += w["ace"]  # a way back to a missing suit
    return value


def _signature(state: HexaractState) -> tuple:
    return (
        state.turn,
        state.roll,
        tuple(state.used),
        tuple(state.journey),
        tuple(tuple(t) for t in state.tokens),
        tuple(state.exhausted),
        tuple(state.supply.values()),
        state.spent,
        tuple(state.ace_rewards),
        state.harm,
        state.deck_drawn,
        state.couplets,
        state.phase,
    )


def _best(state: HexaractState) -> tuple[float, tuple]:
    """The best value reachable from here this turn, and the move that starts it.

    A token spend changes nothing that a couplet could use later except the spent token
    itself, so every plan can be reordered with its spend last: after a spend the search
    only ends the turn.
    """
    key = _signature(state)
    found = _memo.get(key)
    if found is not None:
        return found
    if state.result is not None:
        found = (evaluate(state), ("done",))
    else:
        best_value, best_move = None, ("done",)
        for move in state.moves():
            verb = move[0]
            if verb == "done":
                value = evaluate(state)
            else:
                after = state.clone()
                after.do(move)
                value = evaluate(after) if verb == "spend" else _best(after)[0]
            if best_value is None or value > best_value + 1e-9:
                best_value, best_move = value, move
        found = (best_value, best_move)  # type: ignore[assignment]
    _memo[key] = found  # type: ignore[assignment]
    return found  # type: ignore[return-value]


def _pay_choice(state: HexaractState) -> tuple:
    best_value, best_move = None, None
    for move in state.moves():
        counts = [state.supply[s] for s in SUITS]
        counts[SUITS.index(move[2])] -= 1
        for place in state.to_pay:
            if place != move[1]:
                _pay_greedily(counts, suits_of(state.journey[place]))  # type: ignore[arg-type]
        value = _supply_value(counts, 0.0)
        if best_value is None or value > best_value:
            best_value, best_move = value, move
    return best_move  # type: ignore[return-value]


def choose(state: HexaractState) -> tuple[tuple, str]:
    """The greedy policy's move and the reason, in words."""
    global _memo_turn
    if state.phase == "pay":
        move = _pay_choice(state)
        card = name_of(state.journey[move[1]])  # type: ignore[arg-type]
        return move, f"Let {card} take a {move[2]} token: that keeps the most suits in your supply, with spares."
    turn = (state.turn, state.roll, state.harm, state.deck_drawn)
    if turn != _memo_turn:  # the search only ever looks within one turn
        _memo.clear()
        _memo_turn = turn
    _, move = _best(state)
    verb = move[0]
    if verb == "done":
        if state.couplets < MAX_COUPLETS and any(m[0] == "assign" for m in state.moves()):
            return move, "No other use of these dice or of your supply leaves you better off this turn."
        return move, "Nothing more to do with this roll: face the consequences."
    card_id = state.journey[move[2] if verb == "assign" else move[1]]
    name = name_of(card_id)  # type: ignore[arg-type]
    if verb == "spend":
        if len(state.lacking(move[1])) == 1:
            return move, f"A {move[2]} token you can spare completes {name}, saving dice and harm."
        return move, f"A {move[2]} token you can spare brings {name} one step from done."
    kind = kind_of(card_id)  # type: ignore[arg-type]
    if kind == "personality":
        return move, f"Thwarting {name} spares you its harm at the end of the turn and wins a {move[3]} token."
    if kind == "event":
        return move, f"Turning {name} wins a {move[3]} token instead of losing one to it."
    if len(state.lacking(move[2])) == 1:
        return move, f"This completes {name} before it can tire you."
    return move, f"Surveying {name} now leaves it one token from done, before it tires you."

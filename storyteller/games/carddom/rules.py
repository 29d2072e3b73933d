"""Carddom (Adrien Charpentier): a storybuilding journey through a realm of 8 stacks.

The realm is 4 rows of 2 stacks of 4 face-down cards, row 1 at the front; the overlord
lies beyond the back row. Stacks are numbered 1 to 8 from the front: 1 and 2 are the
front row (left, right), 7 and 8 the back row. A stack's cards are, from the top: the
location, its people, their values, their gift.

How the rulings read the text (see RULINGS.md): a Joker drawn as the character means a
fresh shuffle of all 34 cards; the player takes at most one card per stack, any revealed
one, if it shares a rank or a suit with the character or a card already taken; facing the
overlord ends the game and wins with a card of its rank and a card of its suit in hand.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from storyteller.core.cards import Card, card, piquet_cards
from storyteller.core.engine import (
    Abandoned, Action, Draw, Game, GameState, Move, Outcome, Result, RuleError, Variant, Word,
)

ROWS, COLUMNS, DEPTH = 4, 2, 4
STACKS = ROWS * COLUMNS
OVERLORD_SLOT = 1 + STACKS * DEPTH  # 33: the last card of the deal
LAYERS = ("location", "people", "values", "gift")
JOKER = "Joker"
DECK = frozenset(c.id for c in piquet_cards())


def row_of(stack: int) -> int:
    """Row 1 (front) to 4 (back) of a stack numbered 1 to 8."""
    return (stack - 1) // COLUMNS + 1


def side_of(stack: int) -> str:
    return "left" if (stack - 1) % COLUMNS == 0 else "right"


def where(stack: int) -> str:
    return f"row {row_of(stack)}, {side_of(stack)}"


def neighbours(stack: int) -> list[int]:
    """Orthogonally adjacent stacks, front to back, left to right."""
    r, c = divmod(stack - 1, COLUMNS)
    out = []
    for dr, dc in ((-1, 0), (0, -1), (0, 1), (1, 0)):
        nr, nc = r + dr, c + dc
        if 0 <= nr < ROWS and 0 <= nc < COLUMNS:
            out.append(nr * COLUMNS + nc + 1)
    return sorted(out)


def slot_of(stack: int, depth: int) -> int:
    """Place in the deal of the card at ``depth`` (1-4) of ``stack`` (1-8)."""
    return 1 + (stack - 1) * DEPTH + (depth - 1)


def place_of(to: str) -> tuple[int | None, str]:
    """Where a draw goes, as the rules write it: ``"stack 3 people"`` -> (3, "people");
    ``"character"`` and ``"overlord"`` -> (None, that place)."""
    parts = to.split()
    if parts[0] == "stack":
        return int(parts[1]), parts[2]
    return None, to


def is_joker(card_id: str) -> bool:
    return card(card_id).rank == JOKER


def matches(a: Card, b: Card) -> bool:
    """Same face or a shared suit; a Joker matches nothing."""
    if a.rank == JOKER or b.rank == JOKER:
        return False
    return a.rank == b.rank or bool(set(a.suits) & set(b.suits))


def subduers(held: list[str], overlord: str) -> tuple[list[str], list[str]]:
    """The cards held that match the overlord's rank, and those that match its suit."""
    lord = card(overlord)
    hand = [card(h) for h in held]
    return [h.id for h in hand if h.rank == lord.rank], [h.id for h in hand if lord.suits[0] in h.suits]


class Cause(Word):
    """How a game of Carddom ends (a player who abandons it: ``Abandoned``); the
    meaning of each is in the game's ``causes``."""

    SUBDUED = "subdued"
    NOT_SUBDUED = "not-subdued"
    JOKER_OVERLORD = "joker-overlord"
    JOKER_REVEALED = "joker-revealed"


# -- the moves ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Enter(Move):
    """Enter the realm at a front-row stack (1 or 2)."""

    stack: int
    kind = "enter"
    spelling = "enter {stack}"


@dataclass(frozen=True)
class MoveTo(Move):
    """Move to an orthogonally adjacent stack."""

    stack: int
    kind = "move"
    spelling = "move {stack}"


@dataclass(frozen=True)
class Explore(Move):
    """Reveal the next card of the stack you are at."""

    kind = "explore"
    spelling = "explore"


@dataclass(frozen=True)
class Take(Move):
    """Take a revealed card of the stack you are at."""

    card: str
    kind = "take"
    spelling = "take {card}"


@dataclass(frozen=True)
class Face(Move):
    """Face the overlord: the game ends."""

    kind = "face"
    spelling = "face"


def parse(key: str) -> Move:
    words = key.split()
    verb, args = (words[0].lower(), words[1:]) if words else ("", [])
    if verb in ("explore", "face") and not args:
        return Explore() if verb == "explore" else Face()
    if verb in ("enter", "move") and len(args) == 1 and args[0].isdigit():
        return (Enter if verb == "enter" else MoveTo)(int(args[0]))
    if verb == "take" and len(args) == 1:
        return Take(args[0])
    raise RuleError(f"'{key}' is not a Carddom move (enter N, move N, explore, take CARD, face)")


# -- the state ----------------------------------------------------------------------------


@dataclass
class CarddomState(GameState):
    jokers: str = "revealed"  # or "taken"
    overlord_rule: str = "back-row"  # or "anywhere"
    deal: int = 0
    character: str | None = None
    stacks: list[list[str]] = field(default_factory=lambda: [[] for _ in range(STACKS)])
    overlord: str | None = None
    position: int | None = None  # stack 1-8 once inside the realm
    taken: list[str] = field(default_factory=list)
    taken_from: dict[int, str] = field(default_factory=dict)
    visited: list[int] = field(default_factory=list)  # stacks in the order first entered
    seen: set[str] = field(default_factory=set)  # cards drawn from the current deal
    pending: Draw | None = None
    result: Outcome | None = None

    # -- chance -----------------------------------------------------------------------

    def _draw(self, slot: int, to: str) -> None:
        options = DECK - self.seen
        self.pending = Draw(deal=self.deal, slot=slot, to=to, options=options)

    def chance(self) -> Draw | None:
        return self.pending

    def resolve(self, outcome) -> None:
        draw = self.chance()
        if draw is None:
            raise RuleError("no card is waiting to be drawn")
        if outcome not in draw.options:
            raise RuleError(f"{outcome} cannot be drawn here: it is not among the cards left")
        self.pending = None
        self.seen.add(outcome)
        if draw.to == "character":
            if is_joker(outcome):
                # A Joker cannot be the character: shuffle all 34 anew and draw again.
                self.deal += 1
                self.seen = set()
                self._draw(0, "character")
            else:
                self.character = outcome
            return
        if draw.to == "overlord":
            self.overlord = outcome
            self.result = self._judge()
            return
        stack, layer = place_of(draw.to)
        self.stacks[stack - 1].append(outcome)  # type: ignore[operator]
        if is_joker(outcome) and self.jokers == "revealed":
            self.result = Outcome(
                Result.LOST, f"A Joker was revealed as the {layer} of stack {stack}: the journey ends there.",
                cause=Cause.JOKER_REVEALED,
            )

    def _reveal_next(self, stack: int) -> None:
        depth = len(self.stacks[stack - 1]) + 1
        self._draw(slot_of(stack, depth), f"stack {stack} {LAYERS[depth - 1]}")

    # -- the player's choices --------------------------------------------------------

    def held(self) -> list[str]:
        """The character and the cards taken: what is tested against the overlord."""
        return ([self.character] if self.character else []) + self.taken

    def can_take(self, card_id: str) -> bool:
        candidate = card(card_id)
        return any(matches(candidate, card(h)) for h in self.held())

    def takeable(self) -> list[str]:
        if self.position is None or self.position in self.taken_from:
            return []
        return [c for c in self.stacks[self.position - 1] if self.can_take(c)]

    def can_face(self) -> bool:
        if self.overlord_rule == "anywhere":
            return True
        return self.position is not None and row_of(self.position) == ROWS

    def moves(self) -> list[Move]:
        """The legal moves, in the order the player sees them."""
        if self.result is not None or self.pending is not None:
            return []
        out: list[Move] = []
        if self.position is None:
            out += [Enter(stack) for stack in range(1, COLUMNS + 1)]
        else:
            if len(self.stacks[self.position - 1]) < DEPTH:
                out.append(Explore())
            out += [Take(c) for c in self.takeable()]
            out += [MoveTo(stack) for stack in neighbours(self.position)]
        if self.can_face():
            out.append(Face())
        return out

    def legal_actions(self) -> list[Action]:
        return [Action(m, self.describe(m)) for m in self.moves()]

    def describe(self, move: Move) -> str:
        if isinstance(move, Enter):
            return f"Enter the realm at the front {side_of(move.stack)} stack ({move.stack})"
        if isinstance(move, Face):
            return "Face the overlord"
        assert self.position is not None
        here = self.stacks[self.position - 1]
        if isinstance(move, Explore):
            return f"Explore deeper: reveal the {LAYERS[len(here)]} here"
        if isinstance(move, Take):
            return f"Take the {card(move.card).name} (the {LAYERS[here.index(move.card)]})"
        assert isinstance(move, MoveTo)
        return self._move_text(move.stack)

    def _move_text(self, stack: int) -> str:
        assert self.position is not None
        dr = row_of(stack) - row_of(self.position)
        direction = "on" if dr > 0 else "back" if dr < 0 else "across"
        cards = self.stacks[stack - 1]
        if not cards:
            state = "unexplored"
        else:
            state = f"the {card(cards[0]).name}, {len(cards)} of 4 revealed"
        return f"Move {direction} to stack {stack} ({where(stack)}; {state})"

    def apply(self, move: Move) -> None:
        if self.result is not None:
            raise RuleError("the game is over")
        if self.chance() is not None:
            raise RuleError("a card must be drawn first")
        if move not in self.moves():
            raise RuleError(self._why_not(move))
        if isinstance(move, (Enter, MoveTo)):
            stack = move.stack
            self.position = stack
            if stack not in self.visited:
                self.visited.append(stack)
            if not self.stacks[stack - 1]:
                self._reveal_next(stack)
        elif isinstance(move, Explore):
            self._reveal_next(self.position)  # type: ignore[arg-type]
        elif isinstance(move, Take):
            self.taken.append(move.card)
            self.taken_from[self.position] = move.card  # type: ignore[index]
        elif isinstance(move, Face):
            self._draw(OVERLORD_SLOT, "overlord")

    def _why_not(self, move: Move) -> str:
        verb = move.kind
        if verb == "enter":
            if self.position is not None:
                return "you are already in the realm: move to a neighbouring stack instead"
            return "the realm is entered at one of the two front stacks (1 or 2)"
        if self.position is None and verb in ("move", "explore", "take"):
            return "enter the realm first, at one of the two front stacks"
        if verb == "move":
            stacks = ", ".join(map(str, neighbours(self.position)))  # type: ignore[arg-type]
            return f"from stack {self.position} you can only move to stacks {stacks}"
        if verb == "explore":
            return "this stack is fully revealed: all four of its cards are face up"
        if isinstance(move, Take):
            if self.position in self.taken_from:
                return "you already took a card from this stack: one card per stack, ever"
            if move.card not in self.stacks[self.position - 1]:  # type: ignore[operator]
                return f"{move.card} is not a revealed card of this stack"
            return f"the {card(move.card).name} shares neither a rank nor a suit with any card you hold"
        return "the overlord can only be faced from one of the two back-row stacks (7 or 8)"

    def _judge(self) -> Outcome:
        lord = card(self.overlord)  # type: ignore[arg-type]
        if lord.rank == JOKER:
            return Outcome(Result.LOST, "The overlord is a Joker: this journey was doomed from the start.",
                           cause=Cause.JOKER_OVERLORD)
        by_rank, by_suit = subduers(self.held(), lord.id)
        rank, suit = bool(by_rank), bool(by_suit)
        if rank and suit:
            return Outcome(Result.WON, f"You held its rank and its suit: the {lord.name} is subdued.",
                           cause=Cause.SUBDUED)
        missing = " and ".join(
            part for part, ok in ((f"no {lord.rank}", rank), (f"no {lord.suits[0].lower()}", suit)) if not ok
        )
        return Outcome(Result.LOST, f"You held {missing}: the {lord.name} cannot be subdued.", cause=Cause.NOT_SUBDUED)

    @property
    def outcome(self) -> Outcome | None:
        return self.result

    def places(self) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {"character": [self.character] if self.character else []}
        for i, cards in enumerate(self.stacks, start=1):
            out[f"stack {i}"] = [c for c in cards if c not in self.taken]
        out["taken"] = list(self.taken)
        out["overlord"] = [self.overlord] if self.overlord else []
        return out


class Carddom(Game):
    name = "carddom"
    title = "Carddom"
    summary = "A journey through a realm of eight stacks to face its overlord (piquet deck and two Jokers)."
    variants = (
        Variant("jokers", ("revealed", "taken"),
                "revealed: a Joker turned up ends the journey; taken: a Joker is a dead card that can never be taken"),
        Variant("overlord", ("back-row", "anywhere"),
                "back-row: face the overlord from a back-row stack; anywhere: face it at any time"),
    )
    gentler = "jokers=taken"  # a first game that a Joker does not end (RULINGS: the jokers variant)

    causes: Mapping[str, str] = {
        Cause.SUBDUED: "won: the overlord was faced with a card of its rank and a card of its suit in hand",
        Cause.NOT_SUBDUED: "lost: the overlord was faced without a card of its rank or of its suit",
        Cause.JOKER_OVERLORD: "lost: the overlord was a Joker, which cannot be subdued",
        Cause.JOKER_REVEALED: "lost: a Joker was revealed in the realm (jokers=revealed)",
        Abandoned.ABANDONED: "the player abandoned the game",
    }

    def deck(self, variants: Mapping[str, str], pile: str = "deck") -> list[str]:
        return [c.id for c in piquet_cards()]

    def parse(self, key: str) -> Move:
        return parse(key)

    def new_state(self, variants: Mapping[str, str]) -> CarddomState:
        state = CarddomState(jokers=variants.get("jokers", "revealed"),
                             overlord_rule=variants.get("overlord", "back-row"))
        state._draw(0, "character")
        return state


GAME = Carddom()

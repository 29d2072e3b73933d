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

from dataclasses import dataclass, field
from typing import Mapping

from storyteller.cards import Card, card, piquet_cards
from storyteller.engine import Action, Draw, Game, Outcome, RuleError, Variant

ROWS, COLUMNS, DEPTH = 4, 2, 4
STACKS = ROWS * COLUMNS
OVERLORD_SLOT = 1 + STACKS * DEPTH  # 33: the last card of the deal
LAYERS = ("location", "people", "values", "gift")
JOKER = "Joker"


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


def is_joker(card_id: str) -> bool:
    return card(card_id).rank == JOKER


def matches(a: Card, b: Card) -> bool:
    """Same face or a shared suit; a Joker matches nothing."""
    if a.rank == JOKER or b.rank == JOKER:
        return False
    return a.rank == b.rank or bool(set(a.suits) & set(b.suits))


@dataclass
class CarddomState:
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
        options = frozenset(c.id for c in piquet_cards()) - self.seen
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
        stack = int(draw.to.split()[1])
        self.stacks[stack - 1].append(outcome)
        if is_joker(outcome) and self.jokers == "revealed":
            layer = LAYERS[len(self.stacks[stack - 1]) - 1]
            self.result = Outcome(
                "lost", f"A Joker was revealed as the {layer} of stack {stack}: the journey ends there."
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

    def _legal_keys(self) -> set[str]:
        """The keys of the legal actions, without their words (apply() checks against these)."""
        if self.result is not None or self.pending is not None:
            return set()
        if self.position is None:
            keys = {f"enter {stack}" for stack in range(1, COLUMNS + 1)}
        else:
            keys = {f"move {stack}" for stack in neighbours(self.position)}
            keys.update(f"take {c}" for c in self.takeable())
            if len(self.stacks[self.position - 1]) < DEPTH:
                keys.add("explore")
        if self.can_face():
            keys.add("face")
        return keys

    def legal_actions(self) -> list[Action]:
        if self.result is not None or self.chance() is not None:
            return []
        actions: list[Action] = []
        if self.position is None:
            for stack in range(1, COLUMNS + 1):
                actions.append(Action(f"enter {stack}", f"Enter the realm at the front {side_of(stack)} stack ({stack})"))
        else:
            here = self.stacks[self.position - 1]
            if len(here) < DEPTH:
                layer = LAYERS[len(here)]
                actions.append(Action("explore", f"Explore deeper: reveal the {layer} here"))
            for card_id in self.takeable():
                layer = LAYERS[here.index(card_id)]
                actions.append(Action(f"take {card_id}", f"Take the {card(card_id).name} (the {layer})"))
            for stack in neighbours(self.position):
                actions.append(Action(f"move {stack}", self._move_text(stack)))
        if self.can_face():
            actions.append(Action("face", "Face the overlord"))
        return actions

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

    def apply(self, action: Action) -> None:
        if self.result is not None:
            raise RuleError("the game is over")
        if self.chance() is not None:
            raise RuleError("a card must be drawn first")
        verb, _, arg = action.key.partition(" ")
        if action.key not in self._legal_keys():
            raise RuleError(self._why_not(verb, arg))
        if verb in ("enter", "move"):
            stack = int(arg)
            self.position = stack
            if stack not in self.visited:
                self.visited.append(stack)
            if not self.stacks[stack - 1]:
                self._reveal_next(stack)
        elif verb == "explore":
            self._reveal_next(self.position)  # type: ignore[arg-type]
        elif verb == "take":
            self.taken.append(arg)
            self.taken_from[self.position] = arg  # type: ignore[index]
        elif verb == "face":
            self._draw(OVERLORD_SLOT, "overlord")

    def _why_not(self, verb: str, arg: str) -> str:
        if verb == "enter":
            if self.position is not None:
                return "you are already in the realm: move to a neighbouring stack instead"
            return "the realm is entered at one of the two front stacks (1 or 2)"
        if self.position is None and verb in ("move", "explore", "take"):
            return "enter the realm first, at one of the two front stacks"
        if verb == "move":
            return f"from stack {self.position} you can only move to stacks {', '.join(map(str, neighbours(self.position)))}"
        if verb == "explore":
            return "this stack is fully revealed: all four of its cards are face up"
        if verb == "take":
            if self.position in self.taken_from:
                return "you already took a card from this stack: one card per stack, ever"
            if arg not in self.stacks[self.position - 1]:
                return f"{arg} is not a revealed card of this stack"
            return f"the {card(arg).name} shares neither a rank nor a suit with any card you hold"
        if verb == "face":
            return "the overlord can only be faced from one of the two back-row stacks (7 or 8)"
        return f"'{verb}' is not a Carddom move"

    def _judge(self) -> Outcome:
        lord = card(self.overlord)  # type: ignore[arg-type]
        if lord.rank == JOKER:
            return Outcome("lost", "The overlord is a Joker: this journey was doomed from the start.")
        hand = [card(h) for h in self.held()]
        rank = any(h.rank == lord.rank for h in hand)
        suit = any(lord.suits[0] in h.suits for h in hand)
        if rank and suit:
            return Outcome("won", f"You held its rank and its suit: the {lord.name} is subdued.")
        missing = " and ".join(
            part for part, ok in ((f"no {lord.rank}", rank), (f"no {lord.suits[0].lower()}", suit)) if not ok
        )
        return Outcome("lost", f"You held {missing}: the {lord.name} cannot be subdued.")

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

    def clone(self) -> "CarddomState":
        return CarddomState(
            jokers=self.jokers,
            overlord_rule=self.overlord_rule,
            deal=self.deal,
            character=self.character,
            stacks=[list(s) for s in self.stacks],
            overlord=self.overlord,
            position=self.position,
            taken=list(self.taken),
            taken_from=dict(self.taken_from),
            visited=list(self.visited),
            seen=set(self.seen),
            pending=self.pending,
            result=self.result,
        )


class Carddom(Game):
    name = "carddom"
    title = "Carddom"
    summary = "A journey through a realm of eight stacks to face its overlord (piquet deck and two Jokers)."
    variants = (
        Variant("jokers", ("revealed", "taken"), "revealed: a Joker turned up ends the journey; taken: a Joker is a dead card that can never be taken"),
        Variant("overlord", ("back-row", "anywhere"), "back-row: face the overlord from a back-row stack; anywhere: face it at any time"),
    )

    def deck(self, variants: Mapping[str, str], pile: str = "deck") -> list[str]:
        return [c.id for c in piquet_cards()]

    def new_state(self, variants: Mapping[str, str]) -> CarddomState:
        state = CarddomState(jokers=variants.get("jokers", "revealed"), overlord_rule=variants.get("overlord", "back-row"))
        state._draw(0, "character")
        return state


GAME = Carddom()

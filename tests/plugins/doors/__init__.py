"""Doors: a tiny game that lives outside ``storyteller/``, to prove a game can.

Five cards lie face down in a row of doors: gold, a key, a lamp, a moth and a trap. Open
the doors one by one; open the trap and you are lost. Leave whenever you like: you win if
you found the gold. Registered through the ``storyteller.games`` entry point of the
``doors_game`` distribution beside this folder, exactly as a published package would be.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from storyteller.core.engine import (Action, Budget, Draw, Game, GameState, Hint, Move, Outcome, RuleError, Variant,
                                     Verdict)
from storyteller.registry import Registration
from storyteller.telling.stories import Tale, Teller
from storyteller.ui.view import View

HERE = Path(__file__).resolve().parent
CARDS = ("gold", "key", "lamp", "moth", "trap")


@dataclass(frozen=True)
class Open(Move):
    kind = "open"

    @property
    def key(self) -> str:
        return "open"


@dataclass(frozen=True)
class Leave(Move):
    kind = "leave"

    @property
    def key(self) -> str:
        return "leave"


@dataclass
class DoorsState(GameState):
    lamp_lit: bool = False  # the variant: with the lamp lit, the trap shows before you step in
    opened: list[str] = field(default_factory=list)
    pending: Draw | None = None
    result: Outcome | None = None

    def chance(self) -> Draw | None:
        return self.pending

    def resolve(self, outcome: Any) -> None:
        if self.pending is None or outcome not in self.pending.options:
            raise RuleError(f"{outcome} cannot be behind this door")
        self.pending = None
        self.opened.append(outcome)
        if outcome == "trap" and not self.lamp_lit:
            self.result = Outcome("lost", "The door hid a trap.", 0, "trap")
        elif len(self.opened) == len(CARDS):
            self._leave()

    def moves(self) -> list[Move]:
        if self.result is not None or self.pending is not None:
            return []
        return ([Open()] if len(self.opened) < len(CARDS) else []) + [Leave()]

    def legal_actions(self) -> list[Action]:
        return [Action(m, self.describe(m)) for m in self.moves()]

    def describe(self, move: Move) -> str:
        return f"Open door {len(self.opened) + 1}" if isinstance(move, Open) else "Leave with what you found"

    def apply(self, move: Move) -> None:
        if self.result is not None:
            raise RuleError("the game is over")
        if self.pending is not None:
            raise RuleError("a door is opening")
        if move not in self.moves():
            raise RuleError("every door is open")
        if isinstance(move, Open):
            self.pending = Draw(0, len(self.opened), f"door {len(self.opened) + 1}",
                                frozenset(CARDS) - set(self.opened))
        else:
            self._leave()

    def _leave(self) -> None:
        found = "gold" in self.opened
        self.result = Outcome("won" if found else "lost",
                              "You left with the gold." if found else "You left empty-handed.",
                              len(self.opened), "gold" if found else "empty-handed")

    @property
    def outcome(self) -> Outcome | None:
        return self.result

    def places(self) -> dict[str, list[str]]:
        return {"opened": list(self.opened)}


def parse(key: str) -> Move:
    word = key.strip().lower()
    if word in ("open", "leave"):
        return Open() if word == "open" else Leave()
    raise RuleError(f"'{key}' is not a Doors move (open, leave)")


class Doors(Game):
    name = "doors"
    title = "Doors"
    summary = "Open doors until you find the gold, and leave before the trap (a test game)."
    variants = (Variant("lamp", ("off", "on"), "a lit lamp shows the trap: it no longer ends the game", flag=True),)
    causes: Mapping[str, str] = {"gold": "won: left with the gold", "empty-handed": "lost: left without it",
              "trap": "lost: opened the trap", "abandoned": "the player abandoned the game"}

    def deck(self, variants: Mapping[str, str], pile: str = "deck") -> list[str]:
        return list(CARDS)

    def new_state(self, variants: Mapping[str, str]) -> DoorsState:
        return DoorsState(lamp_lit=variants.get("lamp", "off") == "on")

    def parse(self, key: str) -> Move:
        return parse(key)


class DoorsGreedy:
    """The built-in player: opens doors until the gold is found, then leaves with it (it
    sees only the doors opened)."""

    def choose(self, state: DoorsState) -> Hint | None:
        actions = state.legal_actions()
        if not actions:
            return None
        found = "gold" in state.opened
        move = Leave() if found or len(actions) == 1 else Open()
        action = next(a for a in actions if a.move == move)
        return Hint(action, "The gold is found: leave with it." if found else "No gold yet: open the next door.")


class DoorsSolver:
    """With every card known: every line of play, searched (five doors make a small tree)."""

    def solve(self, state: DoorsState, reveal, budget: Budget) -> Verdict:
        nodes = 0

        def search(s: DoorsState) -> tuple[str, ...] | None:
            nonlocal nodes
            nodes += 1
            while s.chance() is not None:
                s.resolve(reveal(s.chance()))
            if s.outcome is not None:
                return () if s.outcome.won else None
            for a in s.legal_actions():
                child = s.clone()
                child.apply(a.move)
                line = search(child)
                if line is not None:
                    return (a.key,) + line
            return None

        line = search(state.clone())
        if line is None:
            return Verdict("not winnable", (), nodes, "no order of opening and leaving finds the gold first")
        return Verdict("winnable", line, nodes, "a winning line was found")


class DoorsTale(Tale):
    def __init__(self, teller, seed, walk) -> None:
        super().__init__(teller, seed, walk)
        self.doors: list[dict[str, Any]] = []

    @property
    def begun(self) -> bool:
        return bool(self.doors)

    def journal(self, entry) -> None:
        self.doors[-1]["journal"].append(entry.text)

    def draw(self, step, drawn) -> None:
        card = drawn.card
        self.doors.append({"card": card, "meaning": self.p["cards"][card], "journal": []})

    def finish(self) -> dict[str, Any]:
        result = self.outcome.result if self.outcome else "unfinished"
        return {"doors": self.doors, "ending": self.p["endings"][result]}


class DoorsTeller(Teller):
    tale = DoorsTale

    def draw_text(self, event) -> str:
        return f"Opened {event.to}: the {event.card}."

    def meaning(self, event, seed: str, variants: dict[str, str]) -> str:
        return self.prompts["cards"][event.card]

    def topic(self, event) -> str | None:
        return "door"

    def title(self, story: dict[str, Any]) -> str:
        return "Behind the doors"


class DoorsView(View):
    def table(self, state: DoorsState, term: Any) -> Any:
        from rich.text import Text

        return Text("Doors opened: " + (", ".join(state.opened) or "none"))


GAME = Registration(
    "doors",
    rules=Doors(),
    players={"greedy": DoorsGreedy},
    solver=DoorsSolver,
    teller=DoorsTeller,
    view=DoorsView,
    prompts=HERE / "prompts.json",
    rules_text=HERE / "rules.md",
    templates=HERE / "templates",
)

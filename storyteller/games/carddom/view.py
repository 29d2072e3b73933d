"""Carddom's table: the realm's 4x2 stacks, the overlord beyond them, the character and
the cards taken."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from rich.console import Group
from rich.table import Table
from rich.text import Text

from storyteller.core.cards import card
from storyteller.games.carddom.rules import COLUMNS, DEPTH, LAYERS, ROWS, CarddomState
from storyteller.ui.view import View

if TYPE_CHECKING:
    from storyteller.games.carddom.story import CarddomTeller

SYMBOLS = {"Clovers": "\u2663", "Hearts": "\u2665", "Spades": "\u2660", "Diamonds": "\u2666"}
COLOURS = {"Clovers": "green", "Hearts": "red", "Spades": "blue", "Diamonds": "yellow"}
SHORT = {"Jack": "J", "Queen": "Q", "King": "K", "Ace": "A"}


def label(card_id: str, plain: bool = False) -> Text:
    c = card(card_id)
    if c.rank == "Joker":
        return Text("Joker", style="" if plain else "bold magenta")
    rank = SHORT.get(c.rank, c.rank)
    suit = c.suits[0]
    if plain:
        return Text(f"{rank} of {suit}")
    return Text(f"{rank}{SYMBOLS[suit]}", style=f"bold {COLOURS[suit]}")


def _stack_cell(tell, state: CarddomState, stack: int, plain: bool) -> Text:
    cards = state.stacks[stack - 1]
    here = state.position == stack
    out = Text()
    title = f"Stack {stack}"
    out.append(("> " if here else "") + title, style="bold reverse" if here and not plain else "bold")
    if here:
        out.append("  (you are here)")
    for depth, card_id in enumerate(cards):
        layer = LAYERS[depth]
        out.append(f"\n{layer:<9}")
        out.append_text(label(card_id, plain))
        if card(card_id).rank != "Joker":
            out.append(f"  {tell.thing(card_id, layer)}", style="dim" if not plain else "")
        if state.taken_from.get(stack) == card_id:
            out.append("  [taken]", style="bold green" if not plain else "")
    hidden = DEPTH - len(cards)
    if hidden:
        out.append(f"\n{hidden} face down", style="dim" if not plain else "")
    return out


class CarddomView(View):
    def table(self, state: CarddomState, term) -> Group:
        plain = term.plain
        tell = cast("CarddomTeller", self.teller)
        lord = Text("The realm - beyond the back row lies the overlord: ")
        if state.overlord:
            lord.append_text(label(state.overlord, plain))
            if card(state.overlord).rank != "Joker":
                lord.append(f"  {tell.overlord(state.overlord)}")
        else:
            lord.append("face down")
        realm = Table(title=lord, show_header=False, show_lines=True, expand=False)
        realm.add_column("row", justify="right", style="dim")
        for _ in range(COLUMNS):
            realm.add_column(min_width=30)
        for row in range(ROWS, 0, -1):
            name = "back" if row == ROWS else "front" if row == 1 else ""
            cells = [_stack_cell(tell, state, (row - 1) * COLUMNS + col, plain) for col in range(1, COLUMNS + 1)]
            realm.add_row(f"row {row}\n{name}", *cells)
        you = Text("You: ")
        if state.character:
            you.append_text(label(state.character, plain))
            you.append(f"  {tell.role(state.character)} seeking {tell.goal(state.character)}")
        held = Text("Taken: ")
        if state.taken:
            for i, card_id in enumerate(state.taken):
                if i:
                    held.append(", ")
                held.append_text(label(card_id, plain))
        else:
            held.append("nothing yet")
        return Group(realm, you, held)

"""Adaman's table (court, capital, resources, deck, discard, who is still to control)
and its play dialog: first the target, then the resources, in a checkbox that accepts
only a valid set and says why a set is refused."""

from __future__ import annotations

from typing import Any

from rich.console import Group
from rich.table import Table
from rich.text import Text

from storyteller.core.words import plural
from storyteller.core import decktet
from storyteller.games.adaman.rules import (
    COURT_LIMIT,
    PERSON,
    RANK,
    AdamanState,
    control_action,
    eligible_resources,
    why_refused,
)
from storyteller.ui.decktet import card_text, cards_text, suit_legend
from storyteller.ui.view import View


def _row(name: str, cards: list[str], plain: bool, note: str = "") -> tuple[Text, Text]:
    head = Text(name, style="bold")
    if note:
        head.append(f"\n{note}", style="dim")
    body = Text()
    for i, card_id in enumerate(cards):
        if i:
            body.append("\n")
        body.append_text(card_text(card_id, plain))
        if PERSON.get(card_id):
            body.append("  personality", style="magenta" if not plain else "")
    if not cards:
        body.append("empty", style="dim")
    return head, body


def validator(state: AdamanState, target: str):
    """For the checkbox: True for a valid set (or none, to go back), else why it is refused."""

    def validate(selected: list[str]) -> Any:
        if not selected:
            return True
        why = why_refused(state, target, selected)
        return True if why is None else f"Refused: {why}"

    return validate


def _dialog(target: str):
    """The menu entry of one target: a checkbox of the resources that could pay for it."""

    def ask(term, session) -> Any:
        state = session.state
        choices = [(decktet.label(r, rank=str(RANK[r])), r) for r in eligible_resources(state, target)]
        picked = term.checkbox(
            f"Pay for {decktet.name(target)} (rank {RANK[target]}) with resources sharing a suit with it:",
            choices,
            validate=validator(state, target),
            instruction="(space to mark, Enter to confirm; none to go back)",
        )
        if not picked:
            return None
        return control_action(state, target, picked)

    return ask


class AdamanView(View):
    def table(self, state: AdamanState, term) -> Group:
        plain = term.plain
        grid = Table(show_header=False, show_lines=True, title="The kingdom", title_justify="left")
        grid.add_column(justify="right", min_width=12)
        grid.add_column(min_width=40)
        danger = len(state.court)
        court_note = f"{danger} of {COURT_LIMIT}" + ("  (one more is the end!)" if danger == COURT_LIMIT else "")
        grid.add_row(*_row("Court", state.court, plain, court_note))
        grid.add_row(*_row("Capital", state.capital, plain))
        grid.add_row(*_row("Resources", state.resources, plain, f"total {sum(RANK[r] for r in state.resources)}"))
        left = state.to_control()
        facts = Text()
        facts.append(f"Deck: {plural(state.deck_count, 'card')}.  ")
        facts.append(f"Discard pile: {plural(len(state.discard), 'card')}.  ")
        facts.append(f"Controlled: {len(state.controlled)} of {len(state.personalities())} personalities.")
        on_table = [c for c in left if c in state.court or c in state.capital]
        waiting = Text("Still to control: ")
        waiting.append_text(cards_text(on_table, plain, empty="none on the table"))
        hidden = len(left) - len(on_table)
        if hidden:
            waiting.append(f", and {hidden} not yet dealt")
        legend = suit_legend(plain)
        return Group(grid, facts, waiting, *([legend] if legend else []))

    def menu(self, state: AdamanState, legal, term) -> list[tuple[str, Any]]:
        """While the Excuse waits, its moves; else one entry per target, each opening the
        checkbox of the resources to pay with."""
        if state.excuse_at is not None:
            return super().menu(state, legal, term)
        entries = []
        for t in state.targets():
            where = "at court" if t in state.court else "in the capital"
            entries.append((f"Control {decktet.label(t, rank=str(RANK[t]))} {where}...", _dialog(t)))
        return entries

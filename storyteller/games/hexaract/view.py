"""Hexaract's table (the journey, the roll, the ace rewards, the supply, harm, the deck)
and its menu: the assignments grouped by journey card when the list is long, and the end
of the turn followed at once by its consequences, before the journey refills."""

from __future__ import annotations

from typing import Any

from rich.console import Group
from rich.table import Table
from rich.text import Text

from storyteller.core.words import plural
from storyteller.core import decktet
from storyteller.core.decktet import SUITS
from storyteller.games.hexaract.rules import (
    HARM_LIMIT, MAX_COUPLETS, Assign, Done, HexaractState, Spend, harm_words, kind_of, short_label, suits_of,
)
from storyteller.telling.meanings import suit_info
from storyteller.ui.decktet import card_text
from storyteller.ui.view import View

FLAT_LIMIT = 9  # up to this many moves, the menu is the engine's flat list


def _suit(suit: str, plain: bool, count: int | None = None) -> Text:
    out = Text()
    if plain:
        out.append(suit)
    else:
        info = suit_info(suit)
        out.append(info["symbol"], style=f"bold {info['colour']}")
        out.append(f" {suit}")
    if count is not None:
        out.append(f" {count}", style="bold" if count else "dim")
    return out


def _suits(suits, plain: bool, empty: str = "none") -> Text:
    out = Text()
    for i, s in enumerate(suits):
        if i:
            out.append(", ")
        out.append_text(_suit(s, plain))
    if not suits:
        out.append(empty, style="dim")
    return out


def _if_left(state: HexaractState, place: int, card_id: str) -> str:
    """What the card does at the end of the turn if it is still on the journey."""
    kind = kind_of(card_id)
    tired = state.exhausted[place]
    if kind == "personality":
        return "1 harm"
    if kind == "location":
        return "exhausted: 1 harm" if tired else "fresh: tires, no harm yet"
    take = "takes a " + "/".join(suits_of(card_id)) + " token"
    return f"exhausted: {take}, then passes" if tired else f"fresh: {take}, lasts 2 turns"


def journey_table(state: HexaractState, plain: bool) -> Table:
    grid = Table(title=f"The journey (turn {state.turn})", title_justify="left", show_lines=False)
    grid.add_column("#", justify="right")
    grid.add_column("Card")
    grid.add_column("Type")
    grid.add_column("Tokens on it")
    grid.add_column("If left at the end of the turn")
    for place, view in enumerate(state.journey_view()):
        if view is None:
            grid.add_row(str(place + 1), Text("empty", style="dim"), "", "", "")
            continue
        card_id = view["card"]
        tokens = Text()
        if view["type"] == "location":
            tokens.append_text(_suits(view["tokens"], plain))
            tokens.append(" (needs ", style="dim")
            tokens.append_text(_suits(state.lacking(place), plain))
            tokens.append(")", style="dim")
        else:
            tokens.append("-", style="dim")
        rank = "Crown (10)" if view["rank"] == "Crown" else view["rank"]
        kind = Text(f"{view['type']}, rank {rank}")
        note = Text(_if_left(state, place, card_id), style="yellow" if view["exhausted"] else "")
        grid.add_row(str(place + 1), card_text(card_id, plain), kind, tokens, note)
    return grid


def roll_text(state: HexaractState, plain: bool) -> Text:
    out = Text("Roll: ", style="bold")
    if state.roll is None:
        out.append("not rolled yet", style="dim")
        return out
    for i, (d, used) in enumerate(zip(state.roll, state.used)):
        if i:
            out.append(" ")
        if used:
            out.append(f"({d})" if plain else str(d), style="dim strike")
        else:
            out.append(str(d), style="bold")
    spent = [d for d, u in zip(state.roll, state.used) if u]
    out.append("   ")
    if spent:
        out.append(f"used: {' '.join(map(str, spent))}" + ("  " if plain else ""), style="dim")
        if not plain:
            out.append("  ")
    out.append(f"couplets {state.couplets} of {MAX_COUPLETS}")
    out.append("   a 6 is wild (1 to 5)", style="dim")
    return out


def supply_text(state: HexaractState, plain: bool) -> Text:
    out = Text("Your supply: ", style="bold")
    for i, s in enumerate(SUITS):
        if i:
            out.append("  ")
        out.append_text(_suit(s, plain, state.held(s)))
    missing = state.missing_suits()
    out.append("\nStill missing: ", style="bold")
    out.append_text(_suits(missing, plain, empty="nothing: all six pieces are in hand"))
    has_location = any(c is not None and kind_of(c) == "location" for c in state.journey)
    if state.phase == "assign" and state.roll is not None and has_location:
        out.append("\n")
        if state.spent:
            out.append("A token of your supply has gone onto a location this turn.", style="dim")
        else:
            out.append("You may still spend one token of your supply on a location this turn.", style="dim")
    return out


def harm_text(state: HexaractState, plain: bool) -> Text:
    out = Text("Harm: ", style="bold")
    filled = min(state.harm, HARM_LIMIT)
    if plain:
        out.append(harm_words(state.harm))
    else:
        style = "red" if state.harm >= HARM_LIMIT - 3 else "yellow" if state.harm >= HARM_LIMIT // 2 else "green"
        out.append("#" * filled, style=style)
        out.append("." * (HARM_LIMIT - filled), style="dim")
        out.append(f"  {harm_words(state.harm)}")
    return out


def consequences_text(state: HexaractState) -> Text | None:
    if not state.consequences_turn or not state.consequences:
        return None
    head = "This turn's consequences so far" if state.phase == "pay" else f"End of turn {state.consequences_turn}"
    out = Text(f"{head}: ", style="bold")
    out.append(" ".join(c.text + "." for c in state.consequences))
    return out


def _assigns_to(legal, card_id: str) -> list:
    return [a for a in legal if isinstance(a.move, Assign) and a.move.card == card_id]


def _spends(legal) -> list:
    return [a for a in legal if isinstance(a.move, Spend)]


def _card_dialog(card_id: str):
    def ask(term, session) -> Any:
        choices: list[Any] = [(a.text, a) for a in _assigns_to(session.state.legal_actions(), card_id)]
        choices.append(("Back", None))
        return term.select(f"Which couplet for {short_label(card_id)}?", choices)

    return ask


def _spend_dialog(term, session) -> Any:
    choices: list[Any] = [(a.text, a) for a in _spends(session.state.legal_actions())]
    choices.append(("Back", None))
    return term.select("Which token, on which location?", choices)


class HexaractView(View):
    def table(self, state: HexaractState, term) -> Group:
        plain = term.plain
        parts: list[Any] = [journey_table(state, plain), roll_text(state, plain)]
        rewards = Text("Ace rewards (a Crown wins one): ", style="bold")
        for i, ace in enumerate(state.ace_rewards):
            if i:
                rewards.append(", ")
            rewards.append_text(Text(decktet.name(ace)) if plain else card_text(ace, plain))
        if not state.ace_rewards:
            rewards.append("none left", style="dim")
        parts += [rewards, supply_text(state, plain), harm_text(state, plain)]
        parts.append(Text(f"Deck: {plural(state.deck_left, 'card')} left.  "
                          f"Discard pile: {plural(len(state.discard), 'card')}."))
        if state.phase == "pay":
            parts.append(Text("The turn is over and the events take their tokens: you choose which.",
                              style="bold yellow"))
        told = consequences_text(state)
        if told is not None:
            parts.append(told)
        return Group(*parts)

    def menu(self, state: HexaractState, legal, term) -> list[tuple[str, Any]]:
        """A short list as it is; a long one grouped: each card's couplets behind one entry,
        the token spends behind another, then the end of the turn."""
        if state.phase == "pay" or len(legal) <= FLAT_LIMIT:
            return [(a.text, a) for a in legal]
        out: list[tuple[str, Any]] = []
        for card_id in state.journey:
            if card_id is None:
                continue
            ways = _assigns_to(legal, card_id)
            if len(ways) == 1:
                out.append((ways[0].text, ways[0]))
            elif ways:
                out.append((f"Assign a couplet to {short_label(card_id)}... ({len(ways)} ways)", _card_dialog(card_id)))
        spends = _spends(legal)
        if len(spends) <= 2:
            out += [(a.text, a) for a in spends]
        else:
            out.append((f"Spend a token from your supply on a location... ({len(spends)} ways)", _spend_dialog))
        out += [(a.text, a) for a in legal if isinstance(a.move, Done)]
        return out

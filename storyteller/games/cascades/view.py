"""Cascades' table: the three tiers side by side (the card at each end, what each still
lacks and what it takes now), then the waste, the stock, the pass and the reserves.

The moves need no dialog: there are never more than a dozen, and the engine's words
("Play the Mill (8, Waves/Leaves) from the waste to tier 2", "Turn three") say it all.
"""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from storyteller.core import decktet
from storyteller.games.cascades.picture import lacks_text as picture_lacks
from storyteller.games.cascades.rules import RESERVE_NAMES, RESERVES, TIERS, CascadesState
from storyteller.ui.decktet import card_text, suit_legend
from storyteller.ui.view import View
from storyteller.core.words import plural

FALLS = {1: "the first fall", 2: "the second fall", 3: "the third fall"}
TRAIL = 3  # cards shown before the end card


def lacks_text(ranks: list[str]) -> str:
    """``2 3 5 9, 2 Aces, Crown`` from a list of ranks (one entry per card), as the pictures
    write it too."""
    return picture_lacks(ranks) if ranks else "nothing: complete"


def _end_cell(state: CascadesState, tier: int, plain: bool) -> Text:
    end = state.end(tier)
    if end is None:
        return Text("empty: any suit will do" if tier > 1 else "empty", style="dim")
    return card_text(end, plain)


def _trail_cell(state: CascadesState, tier: int, plain: bool) -> Text:
    cards = state.tiers[tier - 1]
    out = Text(plural(len(cards), "card"))
    before = cards[:-1][-TRAIL:]
    if before:
        out.append("\nbefore the end: ", style="dim")
        if len(cards) - 1 > TRAIL:
            out.append("... ", style="dim")
        for i, card_id in enumerate(before):
            if i:
                out.append(", ")
            out.append_text(card_text(card_id, plain, short=True))
    return out


def _takes_cell(state: CascadesState, tier: int) -> Text:
    ranks = state.takes(tier)
    if not state.lacks(tier):
        return Text("nothing more", style="dim")
    if not ranks:
        return Text(f"nothing until tier {tier - 1} grows", style="dim")
    out = Text(lacks_text(ranks))
    end = state.end(tier)
    if end:
        out.append(f"\nsharing {' or '.join(decktet.get(end).suits)}", style="dim")
    return out


def _reserve_text(state: CascadesState, k: int, plain: bool) -> Text:
    out = Text(f"{RESERVE_NAMES[k].capitalize()}: ", style="bold")
    view = state.reserve_view(k)
    left = len(state.reserves[k - 1])
    if view == "closed":
        out.append("closed", style="dim")
        if state.next_reserve == k:
            out.append(" (opens next)", style="bold yellow" if not plain else "")
    elif view == "empty":
        out.append("empty", style="dim")
    else:
        out.append_text(card_text(view, plain))
        if left > 1:
            out.append(f" ({left - 1} face down under it)", style="dim")
    return out


class CascadesView(View):
    def table(self, state: CascadesState, term) -> Group:
        plain = term.plain
        grid = Table(
            title=f"The falls: {state.placed} of {state.deck_size} cards placed",
            title_justify="left",
            show_lines=True,
        )
        grid.add_column("", justify="right", style="bold")
        tiers = range(1, TIERS + 1)
        wide = term.width >= 110  # three tiers of 26 columns; narrower, the tiers share what there is
        for t in tiers:
            grid.add_column(f"Tier {t}\n{FALLS[t]}", min_width=26 if wide else None)
        grid.add_row("At the end", *[_end_cell(state, t, plain) for t in tiers])
        grid.add_row("Holds", *[_trail_cell(state, t, plain) for t in tiers])
        grid.add_row("Still lacks", *[Text(lacks_text(state.lacks(t))) for t in tiers])
        grid.add_row("Takes now", *[_takes_cell(state, t) for t in tiers])

        waste = Text("Waste: ", style="bold")
        top = state.waste_top
        if top:
            waste.append_text(card_text(top, plain))
            waste.append(f" on top, {plural(len(state.waste), 'card')} in all.  ")
        else:
            waste.append("empty.  ", style="dim")
        waste.append("Stock: ", style="bold")
        waste.append(f"{plural(len(state.stock), 'card')}.  ")
        waste.append("Pass: ", style="bold")
        waste.append(str(state.pass_no))
        done = not state.stock
        if done:
            waste.append(f" (over: the next turn starts pass {state.pass_no + 1})")

        reserves = Text("Reserves  ", style="bold")
        for k in range(1, RESERVES + 1):
            if k > 1:
                reserves.append("   ")
            reserves.append_text(_reserve_text(state, k, plain))
        parts: list[RenderableType] = [grid, waste, reserves]
        opening = state.next_reserve
        if opening is not None and state.outcome is None:
            which = state.pass_no + 1 if done else state.pass_no
            parts.append(Text(f"The {RESERVE_NAMES[opening]} reserve opens when pass {which} ends "
                              f"(when a turn takes the last card of the stock).", style="dim"))
        legend = suit_legend(plain)
        return Group(*parts, *([legend] if legend else []))

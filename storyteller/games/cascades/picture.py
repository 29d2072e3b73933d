"""Cascades' table as a picture: the falls and the pools as the terminal shows them
(``view.py``), drawn, in the words of the view and the tale.

- **The falls** (the tiers), one below the other, tier 1 at the top: each a row of the
  cards placed in it, left to right as the water reached them, on a band of water; above
  each row its name ("Tier 1 · the first fall"), how many of its cards it holds and, when
  that is short to say (six cards or fewer), what it still lacks. An empty fall is an
  empty place.
- **The water still to come**, below: the stock face down with its count (and the pass
  under way), the waste with its top card face up, the one that plays, and the two under
  it peeking out at its left (their rank and suits showing, as a fanned hand shows them),
  then **the three pools** (the reserves): a closed one face down with its count ("opens
  next" under the one the end of this pass opens), an open one with its top card face up
  and how many lie face down under it, an empty one as an empty place.

``small=True`` draws the same table at most 480 units wide (a smaller card), for the
story's turning points: the source, the water reaching the third fall, and each fall as
far as the water took it (see :func:`moments`).

The cards face up are :meth:`Drawing.card`'s (their names fitted inside them at the
picture's least size); a fall too long for one row (the Pawns and Courts make sixteen) goes
on two. The peeking cards of the waste show their corner only (rank and suits), as they do
on a table.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from storyteller.core import decktet
from storyteller.telling.drawing import Drawing, Picture, card_of, mark, mark_width, short_rank
from storyteller.games.cascades.rules import (
    PAWNS_COURTS, RANKS, RESERVE_NAMES, RESERVES, TIERS, CascadesState, Play, place_of, reserve_draw,
)
from storyteller.core.words import join_and, plural
from storyteller.log.events import End
from storyteller.core.engine import Result

FALLS = {1: "the first fall", 2: "the second fall", 3: "the third fall"}
POOLS = {k: f"the {RESERVE_NAMES[k]} pool" for k in range(1, RESERVES + 1)}
ORDINALS = {1: "first", 2: "second", 3: "third"}
SHORT = 6  # a fall's lacks are written in the picture when it lacks this many cards or fewer
PEEK = 2  # cards under the top of the waste that peek out

CSS = """
.cas-fall { fill: #e3edf5; }
.cas-pools { fill: #ece6da; }
.cas-label { font-weight: 700; }
@media (prefers-color-scheme: dark) {
  .cas-fall { fill: #23313c; }
  .cas-pools { fill: #2e2a25; }
}
@media print {
  .cas-fall, .cas-pools { fill: #ffffff; stroke: #999999; stroke-width: 0.8; }
}
""".strip()


class Size:
    """The measures of one picture (the full one, or the small one)."""

    def __init__(self, small: bool) -> None:
        self.small = small
        self.width = 480 if small else 720
        self.margin = 8 if small else 12
        self.card_w, self.card_h = (36, 54) if small else (52, 74)  # a card of a fall
        self.empty_h = 20 if small else 26  # the empty place of a fall the water has not reached
        self.min_w = 34 if small else 38  # narrower than this, a fall's row goes on a second line
        self.gap = 2 if small else 4
        self.name = 7 if small else 8.5  # the size of a card's name
        self.label = 8.5 if small else 10.5  # the words above a row
        self.line = 13 if small else 16  # the height of those words
        self.pad = 5 if small else 7  # inside a band
        self.low_w, self.low_h = (44, 62) if small else (60, 84)  # a card of the stock, waste or pools
        self.peek = 11 if small else 14  # how much of a card under the waste's top shows
        self.caption = 8 if small else 10
        self.low_name = 7 if small else 9.5  # the size of a name there
        self.apart = 14 if small else 24  # between the stock and the waste
        self.pool_gap = 36 if small else 56  # between two pools
        self.between = 4 if small else 6  # between two falls

    @property
    def avail(self) -> float:
        return self.width - 2 * self.margin - 2 * self.pad


# -- words ------------------------------------------------------------------------------


def lacks_text(ranks: list[str]) -> str:
    """``2 3 5 9, 2 Aces, Crown`` from a list of ranks (one entry per card): what a fall still
    lacks, in the pictures and the terminal's view."""
    if not ranks:
        return "nothing"
    numbers = [r for r in RANKS if r in ranks]
    out = [" ".join(numbers)] if numbers else []
    for rank in ("Ace", "Crown") + PAWNS_COURTS:
        n = ranks.count(rank)
        if n:
            out.append(rank if n == 1 else plural(n, rank))
    return ", ".join(out)


def said(card_id: str) -> str:
    """A card as the description says it: "the Mill (8, Waves and Leaves)"; an Ace's name
    already says its rank and suit."""
    c = decktet.get(card_id)
    name = decktet.name(card_id)
    if c.rank == "Ace":
        return name
    return f"{name} ({c.rank}, {join_and(c.suits)})"


def size_of(state: CascadesState, tier: int) -> int:
    return len(state.tiers[tier - 1]) + len(state.lacks(tier))


def _when(state: CascadesState) -> str:
    if state.result is not None and state.result.result is Result.LOST:
        return f"The water stilled in pass {state.pass_no}"
    if not state.stock and (state.waste or state.opened < RESERVES):
        return f"End of pass {state.pass_no}"
    return f"Pass {state.pass_no}"


def title(state: CascadesState) -> str:
    """A short title: the pass, the cards placed, and the fall or pools worth naming."""
    total, placed = state.deck_size, state.placed
    if placed == total:
        return f"All three falls complete: {total} of {total} cards, in {plural(state.pass_no, 'pass', 'passes')}"
    if placed == 1 and state.pass_no == 1 and state.opened == 0:
        return "Where the water rises: the first card of the first fall"
    text = f"{_when(state)}: {placed} of {total} cards in the falls"
    full = [ORDINALS[t] for t in range(1, TIERS + 1) if state.tiers[t - 1] and not state.lacks(t)]
    if full:
        text += f", the {join_and(full)} fall{'s' if len(full) > 1 else ''} complete"
    elif all(state.tiers):
        text += ", the water in all three falls"
    elif state.opened == RESERVES:
        text += ", every pool open"
    return text


def describe(state: CascadesState) -> str:
    """Every card the picture shows and where, and its counts, in plain sentences."""
    total = state.deck_size
    out = [f"{_when(state)}, with {state.placed} of {total} cards in the falls."]
    for t in range(1, TIERS + 1):
        cards = state.tiers[t - 1]
        size = size_of(state, t)
        head = f"Tier {t}, {FALLS[t]},"
        if not cards:
            out.append(f"{head} is empty: it lacks all its {size} cards"
                       + (", and any suit will do." if t > 1 else "."))
            continue
        sentence = f"{head} holds {len(cards)} of its {size} cards, left to right: {join_and(said(c) for c in cards)}"
        lacks = state.lacks(t)
        sentence += f"; it still lacks {lacks_text(lacks)}." if lacks else "; it is complete."
        out.append(sentence)
    n = len(state.stock)
    out.append(f"The stock holds {plural(n, 'card')}, face down." if n else "The stock is empty.")
    if state.waste:
        under = list(reversed(state.waste[-1 - PEEK:-1]))
        sentence = (f"The waste holds {plural(len(state.waste), 'card')}; on top, face up, the one that plays: "
                    f"{said(state.waste[-1])}")
        if under:
            sentence += f"; under it {join_and(said(c) for c in under)} peek{'s' if len(under) == 1 else ''} out"
        out.append(sentence + ".")
    else:
        out.append("The waste is empty.")
    for k in range(1, RESERVES + 1):
        pile = state.reserves[k - 1]
        name = POOLS[k][:1].upper() + POOLS[k][1:]
        view = state.reserve_view(k)
        if view == "empty":
            out.append(f"{name} is empty.")
        elif k > state.opened:
            sentence = f"{name} is closed: {plural(len(pile), 'card')} face down"
            out.append(sentence + ("; it opens at the end of this pass." if state.next_reserve == k else "."))
        elif view == "closed":
            out.append(f"{name} is open, its top card still face down, with {plural(len(pile), 'card')} in all.")
        else:
            hidden = len(pile) - 1
            out.append(f"{name} is open: {said(view)} on top, face up, with "
                       f"{plural(hidden, 'card') if hidden else 'no card'} face down under it.")
    return " ".join(out)


# -- drawing ----------------------------------------------------------------------------


def face(d: Drawing, x: float, y: float, card_id: str, w: float, h: float, most: float) -> None:
    """A card face up, as :meth:`Drawing.card` draws one (rank and suits in the corner, its
    suits large, its name inside it, legible at the picture's size)."""
    rank, suits, name = card_of(card_id)
    d.card(x, y, rank, suits, name, w=w, h=h)


def edge(d: Drawing, x: float, y: float, card_id: str, w: float, h: float, strip: float) -> None:
    """A card face up with only its left ``strip`` showing (the rest under another card):
    its rank in the corner and its suits below it, one under the other."""
    rank, suits, _ = card_of(card_id)
    d.add('<g class="st-card-group st-peek">')
    d.rect(x, y, w, h, "st-card", rx=max(3.0, w * 0.08))
    corner = min(strip - 2, max(8.0, w * 0.18))
    d.text(x + 2, y + corner + 1, short_rank(rank), size=corner if len(short_rank(rank)) < 2 else corner * 0.8,
           cls="st-text st-rank")
    size = strip - 3
    for i, s in enumerate(suits):
        d.suit(s, x + 1.5, y + corner + 4 + i * (size + 1), size)
    d.add("</g>")


def _rows(n: int, z: Size, avail: float | None = None) -> tuple[int, float, float]:
    """How a fall's ``n`` cards are laid in ``avail`` units (the picture's width less its
    margins by default): (lines, cards per line, a card's width)."""
    room = z.avail if avail is None else avail
    fit = max(1, int((room + z.gap) // (z.min_w + z.gap)))
    lines = max(1, math.ceil(n / fit))
    per = max(1, math.ceil(n / lines))
    pitch = min(z.card_w + z.gap, (room + z.gap) / per)
    return lines, per, pitch - z.gap


def _fall_height(state: CascadesState, t: int, z: Size, avail: float | None = None) -> float:
    cards = state.tiers[t - 1]
    if not cards:
        return z.pad + z.line + z.empty_h + z.pad
    lines = _rows(len(cards), z, avail)[0]
    return z.pad + z.line + lines * (z.card_h + z.gap) - z.gap + z.pad


def _below_height(z: Size) -> float:
    return z.pad + z.line + z.low_h + 4 + z.caption + z.pad


def _fall(d: Drawing, state: CascadesState, t: int, y: float, z: Size, x0: float | None = None,
          span: float | None = None, marked: bool = False, words_end: float | None = None) -> None:
    """Tier ``t`` as a band with its words above a row of its cards (the band from ``x0``,
    ``span`` wide: the picture's width less its margins by default; its count's words end at
    ``words_end``, its right end by default); ``marked``: its last card is the one just
    placed."""
    x0 = z.margin if x0 is None else x0
    span = z.width - 2 * z.margin if span is None else span
    cards = state.tiers[t - 1]
    _, per, w = _rows(len(cards), z, span - 2 * z.pad)
    h = z.card_h
    height = _fall_height(state, t, z, span - 2 * z.pad)
    d.rect(x0, y, span, height, "cas-fall", rx=6)
    left = x0 + z.pad
    d.text(left, y + z.pad + z.label - 1, f"Tier {t} · {FALLS[t]}", size=z.label, cls="st-text cas-label")
    size = size_of(state, t)
    lacks = state.lacks(t)
    words = f"{len(cards)} of {size}"
    if cards and not lacks:
        words += " · complete"
    elif cards and len(lacks) <= SHORT:
        words += f" · still lacks {lacks_text(lacks)}"
    elif not cards and t > 1:
        words += " · any suit will do"
    d.text(x0 + span - z.pad if words_end is None else words_end, y + z.pad + z.label - 1, words, size=z.label,
           cls="st-text st-muted", anchor="end")
    top = y + z.pad + z.line
    if not cards:
        d.slot(left, top, z.card_w * 2, z.empty_h, label="empty")
        return
    for i, c in enumerate(cards):
        row, col = divmod(i, per)
        face(d, left + col * (w + z.gap), top + row * (h + z.gap), c, w, h, z.name)
    if marked:  # the card just placed, with a word where the row leaves room for it
        row, col = divmod(len(cards) - 1, per)
        x = left + col * (w + z.gap)
        words = "the source" if t == 1 and len(cards) == 1 else "just placed"
        room = x0 + span - (x + w + 2.5 + 6) - z.pad
        mark(d, x, top + row * (h + z.gap), w, h, words if room >= mark_width(words, z.label) else "", z.label,
             side="right", pad=2.5)


def _below(d: Drawing, state: CascadesState, y: float, z: Size, marked: str | None = None) -> None:
    """The stock, the waste and the three pools, in a band (``marked``: the card just turned
    up on the waste or a pool, ringed)."""
    w, h = z.low_w, z.low_h
    top = y + z.pad + z.line
    height = _below_height(z)
    d.rect(z.margin, y, z.width - 2 * z.margin, height, "cas-pools", rx=6)
    label_y = y + z.pad + z.label - 1
    caption_y = top + h + 3 + z.caption

    # the stock
    x = z.margin + z.pad
    d.text(x + w / 2, label_y, "Stock", size=z.label, cls="st-text cas-label", anchor="middle")
    if state.stock:
        d.back(x, top, w, h, count=len(state.stock))
    else:
        d.slot(x, top, w, h, label="empty")
    d.text(x + w / 2, caption_y, f"pass {state.pass_no}", size=z.caption, cls="st-text st-muted", anchor="middle")

    # the waste: the top card, and the two under it peeking out at its left
    x += w + z.apart
    d.text(x + (PEEK * z.peek + w) / 2, label_y, "Waste", size=z.label, cls="st-text cas-label", anchor="middle")
    under = state.waste[-1 - PEEK:-1]
    for i, c in enumerate(under):
        edge(d, x + i * z.peek, top, c, w, h, z.peek)
    wx = x + PEEK * z.peek
    if state.waste:
        face(d, wx, top, state.waste[-1], w, h, z.low_name)
        if marked == state.waste[-1]:
            mark(d, wx, top, w, h, pad=2.5)
        d.text(x + (PEEK * z.peek + w) / 2, caption_y, plural(len(state.waste), "card"), size=z.caption,
               cls="st-text st-muted", anchor="middle")
    else:
        d.slot(wx, top, w, h, label="empty")

    # the pools, at the right
    step = w + z.pool_gap
    for k in range(1, RESERVES + 1):
        x = z.width - z.margin - z.pad - w - 8 - (RESERVES - k) * step
        pile = state.reserves[k - 1]
        view = state.reserve_view(k)
        d.text(x + w / 2, label_y, f"{RESERVE_NAMES[k].capitalize()} pool", size=z.label, cls="st-text cas-label",
               anchor="middle")
        if view == "empty":
            d.slot(x, top, w, h, label="empty")
            caption = "drained"
        elif k > state.opened or view == "closed":
            d.back(x, top, w, h, count=len(pile))
            caption = "opens next" if state.next_reserve == k else ("closed" if k > state.opened else "open")
        else:
            left = len(pile) - 1
            if left:
                d.back(x + 4, top - 3, w, h)
            face(d, x, top, view, w, h, z.low_name)
            if marked == view:
                mark(d, x, top, w, h, pad=2.5)
            caption = f"{left} under it" if left else "the last card"
        d.text(x + w / 2, caption_y, caption, size=z.caption, cls="st-text st-muted", anchor="middle")


def table(state: CascadesState, prefix: str = "st", small: bool = False, change: Change | None = None) -> Picture:
    """The table as SVG: the three falls, then the stock, the waste and the pools; with
    ``change``, the card just placed or turned up ringed, and the title and description
    saying what it did."""
    z = Size(small)
    falls = [_fall_height(state, t, z) for t in range(1, TIERS + 1)]
    height = z.margin + sum(falls) + TIERS * z.between + 2 + _below_height(z) + z.margin
    head, words = title(state), describe(state)
    if change is not None:
        head, words = change_title(state, change), change_words(change) + " " + words
    d = Drawing(z.width, height, head, words, prefix=prefix, css=CSS)
    y: float = z.margin
    for t in range(1, TIERS + 1):
        _fall(d, state, t, y, z, marked=change is not None and change.tier == t and change.kind in ("placed", "source"))
        y += falls[t - 1] + z.between
    _below(d, state, y + 2, z, change.card if change is not None and change.kind in ("opened", "turned") else None)
    return d.picture()


# -- what a turning point changed ---------------------------------------------------------


@dataclass(frozen=True)
class Change:
    """What the step a picture is drawn after did: a card ``placed`` in a fall (from the
    waste or a pool), the ``source`` (the first card, dealt to the first fall), a pool
    ``opened`` (its top card turned up), or a card ``turned`` onto the waste."""

    kind: str
    card: str
    tier: int = 0
    origin: str = ""  # where a card placed came from: "the waste", "the top pool"


def change_of(steps: Sequence) -> Change | None:
    """What the last step standing that moved a card did (None if none did)."""
    for step in reversed(steps):
        if not step.stands:
            continue
        move = step.move
        if isinstance(move, Play):
            return Change("placed", move.card, move.tier, "the waste" if move.reserve is None else POOLS[move.reserve])
        drawn = step.drawn
        if drawn is not None:
            where, k = place_of(drawn.to)
            if where == "tier":
                return Change("source", drawn.card, 1)
            if where == "reserve":
                opened = reserve_draw(drawn.to, drawn.slot)
                return Change("opened", drawn.card, 0, POOLS[k or 1]) if opened and opened[1] else None
            return Change("turned", drawn.card)
    return None


def _verb(state: CascadesState, change: Change) -> str:
    """What a card placed did to its fall: completes it, reaches it (the first card of a
    lower fall) or joins it."""
    if not state.lacks(change.tier):
        return "completes"
    if change.tier > 1 and state.tiers[change.tier - 1][:1] == [change.card]:
        return "reaches"
    return "joins"


def change_title(state: CascadesState, change: Change) -> str:
    """The title of a turning point: what its step did, and the count."""
    name = decktet.name(change.card)
    count = f"{state.placed} of {state.deck_size} cards in the falls"
    if change.kind == "source":
        return f"Where the water rises: {name} starts the first fall"
    if change.kind == "placed":
        return f"{_when(state)}: {name} {_verb(state, change)} {FALLS[change.tier]}, from {change.origin}; {count}"
    if change.kind == "opened":
        return f"{_when(state)}: {change.origin} opens, {name} on top; {count}"
    return f"{_when(state)}: {name} turned up on the waste; {count}"


def change_words(change: Change) -> str:
    """What the step did, the first sentence of the description."""
    name = decktet.name(change.card)
    if change.kind == "source":
        return f"Just now, the first card turned up, {name}, started the first fall (marked)."
    if change.kind == "placed":
        return f"Just now, {name} went from {change.origin} to the right end of {FALLS[change.tier]} (marked)."
    if change.kind == "opened":
        return f"Just now, {change.origin} opened: its top card, {name}, is turned up (marked)."
    return f"Just now, {name} was turned up on the waste (marked)."


def scene(state: CascadesState, steps: Sequence, prefix: str = "st", seed: str = "") -> Picture:
    """The small picture of a turning point: the table after ``steps``, the card the last of
    them placed or turned up marked, and its title saying what it did."""
    return table(state, prefix, small=True, change=change_of(steps))


def cover(state: CascadesState, steps: Sequence, prefix: str = "cover", seed: str = "") -> Picture:
    """The story's cover: the falls as water, each tier a step below and to the right of the
    one above it, the water running along each and falling from its end onto the next (of a
    game not over, the falls so far, with the stock, the waste and the pools)."""
    return _falls(state, prefix)


STEP = 44  # how far each fall stands to the right of the one above it, in the cover
LEDGE = 7  # the rock under a fall
DROP = 18  # between a fall's rock and the fall below it: the water falls there
CURTAIN = 26  # the falling water's width

WATER_CSS = """
.cas-rock { fill: #7d6d58; }
.cas-curtain { fill: #3f78ad; }
.cas-flow { fill: none; stroke: #ffffff; stroke-width: 1.8; stroke-linecap: round; }
.cas-ending { font-weight: 700; }
@media (prefers-color-scheme: dark) {
  .cas-rock { fill: #a39279; } .cas-curtain { fill: #6fa5d8; } .cas-flow { stroke: #1f1c19; }
}
@media print {
  .cas-rock { fill: #666666; } .cas-curtain { fill: #999999; }
}
""".strip()


def _ending_title(state: CascadesState) -> str:
    total = state.deck_size
    passes = plural(state.pass_no, "pass", "passes")
    if state.result is None:
        return f"The falls so far, in pass {state.pass_no}: {state.placed} of {total} cards in the falls"
    if state.placed == total:
        return f"The falls complete: all {total} cards in three falls, in {passes}"
    full = [ORDINALS[t] for t in range(1, TIERS + 1) if state.tiers[t - 1] and not state.lacks(t)]
    done = f", the {join_and(full)} complete" if full else ""
    return f"The water stilled in pass {state.pass_no}: {state.placed} of {total} cards in the falls{done}"


def _falls(state: CascadesState, prefix: str) -> Picture:
    """The cover of a game over: the three falls stepping down to the right, each on its rock,
    a curtain of water falling from each fall's end onto the next; then what never reached
    them (a game lost) or the words of the ending."""
    z = Size(False)
    span = z.width - 2 * z.margin - (TIERS - 1) * STEP
    avail = span - 2 * z.pad
    falls = [_fall_height(state, t, z, avail) for t in range(1, TIERS + 1)]
    won = state.placed == state.deck_size
    tail = z.line + 20 if won else _below_height(z) + 8
    height = z.margin + sum(falls) + TIERS * (LEDGE + DROP) - DROP + 8 + tail + z.margin
    head = _ending_title(state)
    words = (f"{head}. The falls step down to the right, the water running along each and falling from its end "
             "onto the next. " + describe(state))
    d = Drawing(z.width, height, head, words, prefix=prefix, css=CSS + "\n" + WATER_CSS)
    tops: list[float] = []
    y: float = z.margin
    for t in range(1, TIERS + 1):
        x0 = z.margin + (t - 1) * STEP
        h = falls[t - 1]
        d.rect(x0, y + h - 2, span, LEDGE + 2, "cas-rock", rx=2)  # the rock the fall runs on
        # a lower fall's count is written left of the water falling onto its end
        _fall(d, state, t, y, z, x0, span, words_end=x0 + span - STEP - 6 if t > 1 else None)
        tops.append(y)
        y += h + LEDGE + DROP
    for t in range(1, TIERS):  # the water, from each fall's end onto the next
        right = z.margin + (t - 1) * STEP + span
        top, bottom = tops[t - 1] + z.pad, tops[t] + z.line
        cx = right + (STEP - CURTAIN) / 2
        d.rect(cx, top, CURTAIN, bottom - top, "cas-curtain", rx=CURTAIN / 2)
        for k in range(3):
            fx = cx + CURTAIN / 2 + (k - 1) * 7
            d.line([(fx, top + 8 + k * 5), (fx, bottom - 8 - (2 - k) * 5)], "cas-flow")
    y += 8 - DROP
    if won:
        d.text(z.margin, y + z.line, f"Every card reached the falls, in {plural(state.pass_no, 'pass', 'passes')}.",
               size=z.label + 1, cls="st-text cas-ending")
    else:
        _below(d, state, y, z)
    return d.picture()


# -- the story's turning points ---------------------------------------------------------


def moments(steps) -> list[int]:
    """Where the pictures of the HTML story stand, one for each of its sections in order:

    0. **The source**: after the first card is turned up and starts the first fall;
    1. **The way down**: after the first card reaches the third fall, when the water has
       found its whole way down and all three falls run (or, if it never does, after the
       bottom pool opens; or after the last step);
    2-4. **The three falls**, one for each: after the last card the fall received (the one
       that completed it, or the last the water brought it); after the last step for a
       fall the water never reached.

    Steps taken back, and draws a correction replaced, are passed over."""
    live = [i for i, s in enumerate(steps)
            if s.stands and (s.drawn is not None or s.move is not None or isinstance(s.event, End))]
    if not live:
        return [-1] * (2 + TIERS)
    last = live[-1]
    source = pools = last
    bottom: int | None = None  # the first card of the third fall
    falls: dict[int, int] = {}  # the last card of each fall
    for i in live:
        s, drawn = steps[i], steps[i].drawn
        if drawn is not None:
            if place_of(drawn.to)[0] == "tier":
                source = falls[1] = i
            elif reserve_draw(drawn.to, drawn.slot) == (RESERVES, True):
                pools = i
        elif isinstance(s.move, Play):
            falls[s.move.tier] = i
            if s.move.tier == TIERS and bottom is None:
                bottom = i
    return [source, pools if bottom is None else bottom] + [falls.get(t, last) for t in range(1, TIERS + 1)]

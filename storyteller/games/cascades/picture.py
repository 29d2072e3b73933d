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

from storyteller.core import decktet
from storyteller.telling.drawing import Drawing, Picture, card_of, short_rank
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


def _rows(n: int, z: Size) -> tuple[int, float, float]:
    """How a fall's ``n`` cards are laid: (lines, cards per line, a card's width)."""
    fit = max(1, int((z.avail + z.gap) // (z.min_w + z.gap)))
    lines = max(1, math.ceil(n / fit))
    per = max(1, math.ceil(n / lines))
    pitch = min(z.card_w + z.gap, (z.avail + z.gap) / per)
    return lines, per, pitch - z.gap


def _fall_height(state: CascadesState, t: int, z: Size) -> float:
    cards = state.tiers[t - 1]
    if not cards:
        return z.pad + z.line + z.empty_h + z.pad
    lines = _rows(len(cards), z)[0]
    return z.pad + z.line + lines * (z.card_h + z.gap) - z.gap + z.pad


def _below_height(z: Size) -> float:
    return z.pad + z.line + z.low_h + 4 + z.caption + z.pad


def _fall(d: Drawing, state: CascadesState, t: int, y: float, z: Size) -> None:
    """Tier ``t`` as a band with its words above a row of its cards."""
    cards = state.tiers[t - 1]
    _, per, w = _rows(len(cards), z)
    h = z.card_h
    height = _fall_height(state, t, z)
    x0 = z.margin
    d.rect(x0, y, z.width - 2 * z.margin, height, "cas-fall", rx=6)
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
    d.text(z.width - z.margin - z.pad, y + z.pad + z.label - 1, words, size=z.label, cls="st-text st-muted",
           anchor="end")
    top = y + z.pad + z.line
    if not cards:
        d.slot(left, top, z.card_w * 2, z.empty_h, label="empty")
        return
    for i, c in enumerate(cards):
        row, col = divmod(i, per)
        face(d, left + col * (w + z.gap), top + row * (h + z.gap), c, w, h, z.name)


def _below(d: Drawing, state: CascadesState, y: float, z: Size) -> None:
    """The stock, the waste and the three pools, in a band."""
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
            caption = f"{left} under it" if left else "the last card"
        d.text(x + w / 2, caption_y, caption, size=z.caption, cls="st-text st-muted", anchor="middle")


def table(state: CascadesState, prefix: str = "st", small: bool = False) -> Picture:
    """The table as SVG: the three falls, then the stock, the waste and the pools."""
    z = Size(small)
    falls = [_fall_height(state, t, z) for t in range(1, TIERS + 1)]
    height = z.margin + sum(falls) + TIERS * z.between + 2 + _below_height(z) + z.margin
    d = Drawing(z.width, height, title(state), describe(state), prefix=prefix, css=CSS)
    y: float = z.margin
    for t in range(1, TIERS + 1):
        _fall(d, state, t, y, z)
        y += falls[t - 1] + z.between
    _below(d, state, y + 2, z)
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

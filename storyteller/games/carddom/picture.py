"""Carddom's table as a picture: the realm's four rows of two stacks (row 4, the back, at the
top, nearest the overlord; row 1, the front, at the bottom), what each stack showed at each
depth (the location, the people, the values, the gift) with the words the terminal gives
them ("a vast city", "countless elves"), the rest of each stack face down with how many
remain, the path walked (the stacks in the order first entered, numbered and joined), the
traveller's place, the cards taken (marked where they lay, and shown in a row with the
character card), and the overlord beyond the back row, face down until faced.

``table(state)`` draws the whole table (at most 720 units wide): every card with its words;
the story's cover is this table with the whole walk (:func:`cover`). ``table(state,
small=True)`` draws the same realm at most 480 wide, with smaller cards and each stack named
by its place, without the words of each card. ``moments(steps)``: one picture per chapter
of the story's road, the table as it was when the traveller first reached that place (its
location turned up), drawn compact (:func:`scene`, :func:`compact`: a map of the realm about
a quarter of an A5 page tall, the road running from the front at the left to the back at the
right).

Besides :mod:`storyteller.telling.drawing`'s pieces this module draws, from its primitives, the
mark left where a card was taken (an empty dashed place, green, with the card's rank and
suit but not its name, which is written once, where the card now lies: in the row of what
you carry), the panels of the stacks, the traveller's place, and the path's numbered steps.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise
from typing import Any
from collections.abc import Callable
from collections.abc import Sequence

from storyteller.telling.drawing import (
    SQUEEZE, SQUEEZE_WORD, Drawing, Picture, card_of, fit, mark, short_rank, text_width,
)
from storyteller.games.carddom.rules import (
    Cause, Enter, MoveTo, Take, COLUMNS, DEPTH, LAYERS, ROWS, place_of, row_of, subduers, where,
)
from storyteller.log.events import End, JournalEntry, OracleQuestion

CSS = """
.st-cell { fill: #f1ebdf; stroke: #d8d0c2; stroke-width: 1; }
.st-here { fill: none; stroke: #7a5c2e; stroke-width: 2.5; }
.st-here-ring { fill: none; stroke: #7a5c2e; stroke-width: 2; }
.st-outline { fill: none; }
.st-layer { fill: #5e564c; font-style: italic; }
.st-words { fill: #2b2620; }
.st-stack-title { font-weight: 700; }
.st-heading { font-weight: 700; }
.st-danger-text { fill: #b3261e; font-weight: 700; }
.st-ok-text { fill: #2e6b2e; font-weight: 700; }
.st-taken-label { fill: #2e6b2e; font-weight: 700; }
@media (prefers-color-scheme: dark) {
  .st-cell { fill: #2a2622; stroke: #4a443d; }
  .st-here, .st-here-ring { stroke: #d8b06a; }
  .st-layer { fill: #bcb3a5; }
  .st-words { fill: #ece6da; }
  .st-danger-text { fill: #f2877e; }
  .st-ok-text, .st-taken-label { fill: #8fce8f; }
  .st-taken { stroke: #8fce8f; }
}
@media print {
  .st-cell { fill: #ffffff; stroke: #999999; }
  .st-here, .st-here-ring { stroke: #000000; }
}
""".strip()

ORDINAL = {1: "first", 2: "second", 3: "third", 4: "fourth", 5: "fifth", 6: "sixth", 7: "seventh", 8: "eighth"}


@dataclass(frozen=True)
class Layout:
    """Where everything goes, for the full picture or the small one."""

    width: float
    margin: float
    label: float  # the column of row labels, left of the realm (0: none)
    card_w: float
    card_h: float
    gap: float  # between the cards of a stack
    top: float  # the overlord's band
    header: float  # a stack's title, above its cards
    heads: float  # the layers' names, once above the back row's cards (0: none)
    words: int  # lines of words below each card (0: none)
    line: float  # one line of words
    pad: float  # below a stack's cards
    row_gap: float
    marker: float  # a path step's radius
    font: float  # the size of the words
    hand_words: int  # lines below a card of what you carry


FULL = Layout(width=720, margin=10, label=44, card_w=60, card_h=80, gap=16, top=86, header=18, heads=16, words=3,
              line=14, pad=2, row_gap=2, marker=10, font=13.5, hand_words=3)
SMALL = Layout(width=480, margin=8, label=0, card_w=40, card_h=56, gap=5, top=68, header=14, heads=0, words=0,
               line=8, pad=6, row_gap=4, marker=8, font=7, hand_words=0)


def _teller():
    from storyteller.games.carddom import GAME as REGISTRATION

    return REGISTRATION.teller


def _name(card_id: str) -> str:
    """The card's name as the picture writes it: "10 of Diamonds", "Red Joker"."""
    name = card_of(card_id)[2]
    name = name[4:] if name.startswith("The ") else name
    return name[:1].upper() + name[1:]


def _the(card_id: str) -> str:
    """The card as a sentence names it: "the 10 of Diamonds"."""
    from storyteller.play.table import card_name

    return card_name(card_id)


def _joker(card_id: str) -> bool:
    return card_of(card_id)[0] == "Joker"


def _words(tell, card_id: str, layer: str) -> str:
    """What a card is as this layer of a stack, in the terminal's words."""
    if _joker(card_id):
        return "a Joker"
    return tell.thing(card_id, layer)


def _place(tell, state, stack: int) -> str | None:
    """The place a stack is, once its location is turned up: "a vast city"."""
    cards = state.stacks[stack - 1]
    if not cards:
        return None
    return "a place of ill omen" if _joker(cards[0]) else tell.thing(cards[0], "location")


def _ends(state) -> bool:
    """Whether a Joker turned up in the realm ended the journey."""
    return state.result is not None and state.result.cause is Cause.JOKER_REVEALED


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _and(items: Sequence[str]) -> str:
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


# -- the picture ------------------------------------------------------------------------------


def table(state, prefix: str = "st", small: bool = False, walk: Sequence[int] | None = None,
          change: Change | None = None, ending: bool = False) -> Picture:
    """The table of ``state`` as SVG (the same state gives the same bytes). ``walk``: every
    stack the traveller moved to, in order, returns included (the path is drawn through them
    all, to where you are); without it, the stacks in the order first entered. ``change``:
    what the step the picture is drawn after did, marked and said first (with ``ending``,
    the cover's words say how the journey ended first instead)."""
    tell = _teller()
    lay = SMALL if small else FULL
    cell_w = DEPTH * lay.card_w + (DEPTH - 1) * lay.gap
    gutter = lay.width - 2 * lay.margin - lay.label - 2 * cell_w
    left_x = lay.margin + lay.label
    xs = [left_x, left_x + cell_w + gutter]  # the left and right stacks' first card
    centre = left_x + cell_w + gutter / 2
    row_h = lay.header + lay.card_h + lay.words * lay.line + lay.pad
    realm_top = lay.margin + lay.top + lay.heads
    hand_top = realm_top + ROWS * (row_h + lay.row_gap) + 2
    hand_h = 16 + lay.card_h + (lay.hand_words * lay.line + 4 if lay.hand_words else 6)
    height = hand_top + hand_h + lay.margin

    title, desc = _title(tell, state, small), _desc(tell, state, small, walk)
    if ending and state.result is not None:
        desc = f"The journey is over: {state.result.reason} " + desc
    elif change is not None:
        title = _scene_title(tell, state) if small else title
        desc = change_words(tell, state, change) + " " + desc
    d = Drawing(lay.width, height, title, desc, prefix=prefix, css=CSS)

    def stack_box(stack: int) -> tuple[float, float]:
        """The top left corner of a stack's panel."""
        row, col = row_of(stack), (stack - 1) % COLUMNS
        return xs[col], realm_top + (ROWS - row) * (row_h + lay.row_gap)

    def marker_at(stack: int) -> tuple[float, float]:
        """Where a stack's step of the path is drawn: in the gutter beside its title."""
        x, y = stack_box(stack)
        inset = lay.marker + (12 if lay.words else 11)
        mx = x + cell_w + inset if (stack - 1) % COLUMNS == 0 else x - inset
        return mx, y + lay.header / 2 + 3

    # The realm: each stack's panel, title, cards.
    for stack in range(1, ROWS * COLUMNS + 1):
        x, y = stack_box(stack)
        _stack(d, tell, state, stack, x, y, cell_w, row_h, lay)
    if lay.heads:  # the layers, once, above the back row: every stack's cards lie in this order
        for x in xs:
            for depth, layer in enumerate(LAYERS):
                d.text(x + depth * (lay.card_w + lay.gap) + lay.card_w / 2, realm_top - 4, layer, size=8,
                       cls="st-text st-layer", anchor="middle")
    if lay.label:
        for row in range(1, ROWS + 1):
            _, y = stack_box((row - 1) * COLUMNS + 1)
            mid = y + row_h / 2
            d.text(lay.margin, mid - 2, f"row {row}", size=9, cls="st-text st-heading")
            name = "back" if row == ROWS else "front" if row == 1 else ""
            if name:
                d.text(lay.margin, mid + 2 + max(9.0, d.least), name, size=8, cls="st-text st-muted")

    # The overlord, beyond the back row between its two stacks.
    lord_x, lord_y = centre - lay.card_w / 2, lay.margin + (lay.top - lay.card_h) / 2 - 2
    if state.overlord:
        _face(d, state.overlord, lord_x, lord_y, lay)
    else:
        d.back(lord_x, lord_y, w=lay.card_w, h=lay.card_h)
    _lord_words(d, tell, state, xs[1], lord_y, lay)

    # The path walked: every move in order, a way walked again a little beside the first
    # (so a return shows), ending at where you are; then to the overlord.
    stops = list(walk) if walk else list(state.visited)
    points = _path([marker_at(s) for s in stops], stops, 4.5 if lay.words else 4)
    if len(points) > 1:
        d.line(points, "st-path")
        _head(d, points[-2], points[-1], lay.marker + (3.5 if lay.words else 3))
        for (a, b), times in _walked(stops).items():  # a way walked more than once says how often
            if times > 1:
                (ax, ay), (bx, by) = marker_at(a), marker_at(b)
                left = [(s - 1) % COLUMNS == 0 for s in (a, b)]
                if all(left) or not any(left):  # beside a way up the gutter, on its outer side
                    x, anchor = (ax - 6, "end") if all(left) else (ax + 6, "start")
                    y = (ay + by) / 2 + 3.5
                else:  # above a way across it
                    x, y, anchor = (ax + bx) / 2, ay - 6, "middle"
                d.text(x, y, f"\u00d7{times}", size=lay.font + 1.5, cls="st-text st-heading", anchor=anchor)
    if state.overlord and state.position is not None:  # and from where you stood, to face it
        mx, my = marker_at(state.position)
        d.line([(mx, my), (centre, my), (centre, lord_y + lay.card_h)], "st-path st-to-lord")
    for k, stack in enumerate(state.visited, start=1):
        mx, my = marker_at(stack)
        if stack == state.position:
            d.circle(mx, my, lay.marker + (3.5 if lay.words else 3), "st-here-ring")
        d.circle(mx, my, lay.marker, "st-step")
        d.text(mx, my + 3.3, str(k), size=lay.marker * 1.05, cls="st-text st-step-text", anchor="middle")

    _hand(d, tell, state, hand_top, lay)
    if change is not None:  # the card the step turned up, ringed where it lies
        if change.stack and change.depth is not None and change.depth < len(state.stacks[change.stack - 1]):
            x, y = stack_box(change.stack)
            mark(d, x + change.depth * (lay.card_w + lay.gap), y + lay.header, lay.card_w, lay.card_h, pad=2.5)
        elif change.kind == "overlord" and state.overlord:
            mark(d, lord_x, lord_y, lay.card_w, lay.card_h, pad=2.5)
    return d.picture()


LANES = 3  # a way walked again is drawn beside the way before it, up to this many lines


def _path(points: list[tuple[float, float]], stops: list[int], lane: float,
          side: Callable[[int, int], tuple[float, float]] | None = None) -> list[tuple[float, float]]:
    """The path's points: each way between two stacks, walked again, ``lane`` units beside
    the way before it, to the ``side`` of it (by default towards the middle of the gutter
    between the two columns, so a return shows and the lines stay off the stacks), up to
    :data:`LANES` lines."""
    if len(points) < 2:
        return points
    side = side or _inwards
    walked: dict[tuple[int, int], int] = {}
    out: list[tuple[float, float]] = []
    for (a, b), ((x0, y0), (x1, y1)) in zip(pairwise(stops), pairwise(points)):
        key = (min(a, b), max(a, b))
        n = min(walked.get(key, 0), LANES - 1)
        walked[key] = walked.get(key, 0) + 1
        dx, dy = side(*key)
        out += [(x0 + dx * n * lane, y0 + dy * n * lane), (x1 + dx * n * lane, y1 + dy * n * lane)]
    return out


def _inwards(a: int, b: int) -> tuple[float, float]:
    """Towards the middle of the gutter between the columns, in the table as the cover draws it
    (the columns upright): a way up the left column to the right, up the right one to the
    left, a way across it upwards."""
    left = [(s - 1) % COLUMNS == 0 for s in (a, b)]
    return (1, 0) if all(left) else (-1, 0) if not any(left) else (0, -1)


def _walked(stops: list[int]) -> dict[tuple[int, int], int]:
    """How many times each way between two stacks was walked."""
    out: dict[tuple[int, int], int] = {}
    for a, b in pairwise(stops):
        key = (min(a, b), max(a, b))
        out[key] = out.get(key, 0) + 1
    return out


def _head(d: Drawing, a: tuple[float, float], b: tuple[float, float], stop: float) -> None:
    """An arrowhead on the path's last way, its tip at the edge of where you are."""
    (x0, y0), (x1, y1) = a, b
    length = max(1e-6, ((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5)
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    tx, ty = x1 - ux * stop, y1 - uy * stop
    size = 7.0
    bx, by = tx - ux * size, ty - uy * size
    d.add(f'<path class="st-step" d="M{tx:.2f} {ty:.2f} L{bx - uy * size * 0.6:.2f} {by + ux * size * 0.6:.2f} '
          f'L{bx + uy * size * 0.6:.2f} {by - ux * size * 0.6:.2f} Z"/>')


def _stack(d: Drawing, tell, state, stack: int, x: float, y: float, cell_w: float, row_h: float, lay: Layout) -> None:
    """One stack: its panel, its title, each depth revealed, the rest face down."""
    cards = state.stacks[stack - 1]
    here = state.position == stack
    d.rect(x - 6, y, cell_w + 12, row_h, "st-cell", rx=6)
    if here:
        d.rect(x - 6, y, cell_w + 12, row_h, "st-here", rx=6)
    title = f"Stack {stack}"
    place = _place(tell, state, stack)
    if lay.words:
        title += f" · {where(stack)}"
    elif place:
        title += f" · {place}"
    size = max(9.5 if lay.words else 8.5, d.least)
    d.text(x, y + lay.header - 3.5, title, size=size, cls="st-text st-stack-title")
    if here and (len(title) + 14) * size * 0.56 < cell_w:  # where the title leaves room for it
        d.text(x + cell_w, y + lay.header - 3.5, "you are here", size=size - 1, cls="st-text st-heading", anchor="end")
    top = y + lay.header
    taken = state.taken_from.get(stack)
    for depth in range(DEPTH):
        cx = x + depth * (lay.card_w + lay.gap)
        layer = LAYERS[depth]
        if depth < len(cards):
            card_id = cards[depth]
            if card_id == taken:
                _taken_mark(d, card_id, cx, top, lay)
            else:
                _face(d, card_id, cx, top, lay)
            if lay.words:
                words = _words(tell, card_id, layer)
                if _joker(card_id):
                    words += ": the journey ends here" if _ends(state) else ", never to be taken"
                _lines(d, _fitted(words, lay)[: lay.words], cx + lay.card_w / 2,
                       top + lay.card_h + lay.font, lay,
                       "st-text st-danger-text" if _joker(card_id) else "st-text st-words")
        elif depth == len(cards):
            left = DEPTH - len(cards)
            d.back(cx, top, w=lay.card_w, h=lay.card_h, count=left)
            if lay.words:
                words = "unexplored" if left == DEPTH else f"{left} face down"
                _lines(d, _fitted(words, lay), cx + lay.card_w / 2,
                       top + lay.card_h + lay.font, lay, "st-text st-muted")


def _face(d: Drawing, card_id: str, x: float, y: float, lay: Layout) -> None:
    """A card face up; a Joker, which has no suit, says so across its face."""
    rank, suits, _ = card_of(card_id)
    d.card(x, y, rank, suits, _name(card_id), w=lay.card_w, h=lay.card_h)
    if _joker(card_id):
        d.text(x + lay.card_w / 2, y + lay.card_h * 0.45, "Joker", size=lay.card_w * 0.2,
               cls="st-text st-danger-text", anchor="middle")


def _fitted(words: str, lay: Layout) -> list[str]:
    """Words under a card, in lines that keep to its column (a little narrower if need be)."""
    room = lay.card_w + lay.gap - 2
    return fit(words, room / SQUEEZE, lay.font, room / SQUEEZE_WORD)


def _lines(d: Drawing, lines: list[str], x: float, y: float, lay: Layout, cls: str) -> None:
    for i, words in enumerate(lines):
        d.text(x, y + i * lay.line, words, size=lay.font, cls=cls, anchor="middle", within=lay.card_w + lay.gap - 2)


def _taken_mark(d: Drawing, card_id: str, x: float, y: float, lay: Layout) -> None:
    """Where a card was taken: an empty place, its rank and suit, and the word "taken" (its
    name is written where it lies now, in the row of what you carry)."""
    w, h = lay.card_w, lay.card_h
    d.rect(x, y, w, h, "st-slot st-taken", rx=5)
    rank, suits, _ = card_of(card_id)
    corner = max(8.0, w * 0.17)
    d.text(x + 4, y + corner + 1, short_rank(rank), size=corner, cls="st-text st-rank st-muted")
    size = w * 0.3
    for i, s in enumerate(suits):
        d.suit(s, x + (w - size * len(suits)) / 2 + i * size, y + h * 0.3, size * 0.92)
    d.text(x + w / 2, y + h - 8, "taken", size=max(7.0, w * 0.14), cls="st-text st-taken-label", anchor="middle")


def _lord_words(d: Drawing, tell, state, x: float, y: float, lay: Layout) -> None:
    """The overlord's words, to the right of its card."""
    big, size = (11.0, 9.0) if lay.words else (9.5, 8.0)
    big, size = max(big, d.least * 1.1), max(size, d.least)
    lines: list[tuple[str, str]] = [("The overlord", "st-text st-heading")]
    if not state.overlord and _ends(state):
        lines.append(("never faced: a Joker ended", "st-text st-danger-text"))
        lines.append((f"the journey at stack {state.position}", "st-text st-danger-text"))
    elif not state.overlord:
        lines.append(("beyond the back row, face down", "st-text st-muted"))
        lines.append(("until it is faced" if lay.words else "until faced", "st-text st-muted"))
    else:
        if _joker(state.overlord):
            lines.append(("a Joker: no overlord to subdue", "st-text st-danger-text"))
        else:
            for part in fit(tell.overlord(state.overlord), lay.width - lay.margin - x, size):
                lines.append((part, "st-text st-words"))
        if state.result is not None and state.result.cause in (Cause.SUBDUED, Cause.NOT_SUBDUED, Cause.JOKER_OVERLORD):
            ok = state.result.won
            lines.append(("Subdued: you won." if ok else "Not subdued: you lost.",
                          "st-text st-ok-text" if ok else "st-text st-danger-text"))
    top = y + 14
    for i, (words, cls) in enumerate(lines):
        d.text(x, top + (0 if i == 0 else 4) + i * (size + 3), words, size=big if i == 0 else size, cls=cls)


def _hand(d: Drawing, tell, state, top: float, lay: Layout) -> None:
    """Below the front row: you (the character card) and what you carry."""
    m, w, h = lay.margin, lay.card_w, lay.card_h
    size = max(9.5 if lay.words else 8.5, d.least)
    d.text(m, top + 10, "You", size=size, cls="st-text st-heading")
    cy = top + 16
    if state.character:
        _face(d, state.character, m, cy, lay)
        if lay.hand_words:
            words = f"{tell.role(state.character)} seeking {tell.goal(state.character)}"
            lines = [(part, "st-text st-words") for part in fit(words, w + (34 if lay.words else 22) - 6, lay.font)]
            by_rank, by_suit = _subduers(state)
            held = [p for p, ok in (("its rank", state.character in by_rank), ("its suit", state.character in by_suit))
                    if ok]
            if held:
                lines.append((" and ".join(held), "st-text st-ok-text"))
            for j, (words, cls) in enumerate(lines[: lay.hand_words]):
                d.text(m, cy + h + lay.font + j * lay.line, words, size=lay.font, cls=cls)
    else:
        d.slot(m, cy, w=w, h=h, label="character")
    hx = m + w + (34 if lay.words else 22)
    d.text(hx, top + 10, "What you carry", size=size, cls="st-text st-heading")
    if not state.taken:
        d.text(hx, cy + h / 2 - 3, "nothing yet", size=size - 0.5, cls="st-text st-muted")
        if state.position is None:
            d.text(hx, cy + h / 2 + 10, "You are not in the realm yet: it is entered at the front row.",
                   size=size - 0.5, cls="st-text st-muted")
        return
    room = lay.width - m - hx
    step = min(w + (8 if lay.words else 5), (room - w) / max(1, len(state.taken) - 1))
    by_rank, by_suit = _subduers(state)
    origin = {card_id: stack for stack, card_id in state.taken_from.items()}
    for i, card_id in enumerate(state.taken):
        x = hx + i * step
        _face(d, card_id, x, cy, lay)
        d.rect(x - 1.5, cy - 1.5, w + 3, h + 3, "st-outline st-taken", rx=6)
        if lay.hand_words:
            lines = [(part, "st-text st-words") for part in fit(f"from stack {origin[card_id]}", step - 2, lay.font)] \
                if card_id in origin else []
            if card_id in by_rank:
                lines.append(("its rank", "st-text st-ok-text"))
            if card_id in by_suit:
                lines.append(("its suit", "st-text st-ok-text"))
            for j, (words, cls) in enumerate(lines[: lay.hand_words]):
                d.text(x + w / 2, cy + h + lay.font + j * lay.line, words, size=lay.font, cls=cls, anchor="middle")


def _subduers(state) -> tuple[list[str], list[str]]:
    """The cards you hold of the overlord's rank, and of its suit, once it is faced."""
    if not state.overlord or _joker(state.overlord):
        return [], []
    return subduers(state.held(), state.overlord)


# -- the words ----------------------------------------------------------------------------------


def _title(tell, state, small: bool) -> str:
    seen = len(state.visited)
    if state.overlord:
        return f"The realm after {_plural(seen, 'place')}: the overlord faced"
    if _ends(state):
        return f"The realm after {_plural(seen, 'place')}: a Joker ends the journey"
    if state.position is None:
        return "The realm before the journey" if state.character else "The realm, before you are dealt"
    place = _place(tell, state, state.position) or "a place not yet seen"
    k = state.visited.index(state.position) + 1 if state.position in state.visited else seen
    if small:
        return f"Place {k} of the road: {place} (stack {state.position})"
    return f"The realm after {_plural(seen, 'place')}, at {place} (stack {state.position})"


def _desc(tell, state, small: bool, walk: Sequence[int] | None = None) -> str:
    out = ["Carddom's realm: four rows of two stacks, row 1 at the front (drawn at the bottom) and row 4 at the back "
           "(at the top), with the overlord beyond the back row."]
    if state.overlord:
        lord = state.overlord
        if _joker(lord):
            out.append(f"The overlord is turned up: {_the(lord)}, a Joker: there is no overlord to subdue.")
        else:
            out.append(f"The overlord is turned up: {_the(lord)}, {tell.overlord(lord)}.")
        if state.result is not None:
            out.append(state.result.reason)
    else:
        out.append("The overlord lies face down.")
    order = {stack: k for k, stack in enumerate(state.visited, start=1)}
    for stack in range(1, ROWS * COLUMNS + 1):
        cards = state.stacks[stack - 1]
        head = f"Stack {stack} ({where(stack)})"
        notes = []
        if stack in order:
            notes.append(f"the {ORDINAL[order[stack]]} place on the path")
        if stack == state.position:
            notes.append("where you are")
        if notes:
            head += ", " + ", ".join(notes)
        if not cards:
            out.append(f"{head}: unexplored, {DEPTH} cards face down.")
            continue
        parts = []
        for depth, card_id in enumerate(cards):
            layer = LAYERS[depth]
            said = f"the {layer}, {_the(card_id)}"
            if _joker(card_id):
                said += " (a Joker" + (": the journey ends here)" if _ends(state) else ", never to be taken)")
            elif not small or layer == "location":
                said += f" ({tell.thing(card_id, layer)})"
            if state.taken_from.get(stack) == card_id:
                said += ", taken from here"
            parts.append(said)
        left = DEPTH - len(cards)
        tail = f"; {_plural(left, 'card')} face down" if left else "; all four turned up"
        out.append(f"{head}: {'; '.join(parts)}{tail}.")
    if state.visited:
        steps = [str(s) for s in state.visited]
        path = f"The path walked, numbered in the order first entered: stack {steps[0]}" if len(steps) == 1 else \
            f"The path walked, numbered in the order first entered: stacks {_and(steps)}"
        out.append(path + (", then the overlord." if state.overlord else "."))
        if walk and len(walk) > len(set(walk)):  # a return: the walk as it went
            moves: list[str] = []
            been: set[int] = set()
            for stack in walk:
                moves.append(f"back to {stack}" if stack in been else str(stack))
                been.add(stack)
            out.append(f"The walk, every move in order, returns included: stack {_and(moves)}; "
                       f"it ends where you are, at stack {walk[-1]}.")
    else:
        out.append("You have not entered the realm yet: it is entered at one of the two front stacks.")
    if state.character:
        c = state.character
        out.append(f"You are {_the(c)}, {tell.role(c)} seeking {tell.goal(c)}.")
    else:
        out.append("Your character card is not dealt yet.")
    if state.taken:
        origin = {card_id: stack for stack, card_id in state.taken_from.items()}
        out.append("You carry " + _and([f"{_the(c)} (from stack {origin[c]})" if c in origin else _the(c)
                                        for c in state.taken]) + ".")
    else:
        out.append("You carry nothing yet.")
    return " ".join(out)


# -- the story's turning points --------------------------------------------------------------


def moments(steps: Sequence[Any]) -> list[int]:
    """One index per chapter of the story's road, in chapter order: the step after which the
    traveller first stands in that place (its location turned up), or the move there if its
    location never turned up. A chapter is told, as the story tells it, for each place first
    reached where something happened (a card turned up or taken, a journal entry, a question
    to the oracle); undone and corrected steps are left out."""
    arrived: dict[int, int | None] = {}
    entered: dict[int, int] = {}
    told: set[int] = set()
    order: list[int] = []
    here: int | None = None
    lord = ended = False
    for i, step in enumerate(steps):
        event, move, drawn = step.event, step.move, step.drawn
        if isinstance(event, JournalEntry):
            if not ended and not lord and here is not None:
                told.add(here)
        elif isinstance(event, End):
            ended = True
        elif isinstance(event, OracleQuestion):
            if not lord and here is not None:
                told.add(here)
        elif not step.stands:
            continue
        elif move is not None:
            if isinstance(move, (Enter, MoveTo)):
                here = move.stack
                if here not in entered:
                    entered[here] = i
                    arrived[here] = None
                    order.append(here)
            elif isinstance(move, Take) and here is not None:
                told.add(here)
        elif drawn is not None:
            to = drawn.to
            if to == "overlord":
                lord = True
            elif to.startswith("stack") and here is not None:
                told.add(here)
                stack, layer = place_of(to)
                if layer == "location" and stack == here and arrived.get(here) is None:
                    arrived[here] = i
    out = []
    for s in order:
        if s in told:
            at = arrived[s]
            out.append(at if at is not None else entered[s])
    return out


# -- what a turning point changed, and the cover (issue 29) ------------------------------------


@dataclass(frozen=True)
class Change:
    """What the step a picture is drawn after did: a card turned up in a stack (``stack``,
    ``depth``), the overlord turned up, a card taken, or a move to a stack already seen."""

    kind: str  # "revealed", "overlord", "taken", "moved", "dealt"
    card: str = ""
    stack: int = 0
    depth: int | None = None


def walk_of(steps: Sequence[Any]) -> list[int]:
    """Every stack the traveller moved to, in order, returns included."""
    return [s.move.stack for s in steps if s.stands and isinstance(s.move, (Enter, MoveTo))]


def change_of(steps: Sequence[Any]) -> Change | None:
    """What the last step standing that turned up, took or moved something did."""
    for step in reversed(steps):
        if not step.stands:
            continue
        move, drawn = step.move, step.drawn
        if drawn is not None:
            if drawn.to == "overlord":
                return Change("overlord", drawn.card)
            if drawn.to.startswith("stack"):
                stack, layer = place_of(drawn.to)
                return Change("revealed", drawn.card, stack or 0, LAYERS.index(layer))
            return Change("dealt", drawn.card)
        if isinstance(move, Take):
            return Change("taken", move.card)
        if isinstance(move, (Enter, MoveTo)):
            return Change("moved", "", move.stack)
    return None


def _scene_title(tell, state) -> str:
    """A turning point's title: the place of the road reached, and how the journey ends there."""
    if state.position is None:
        return _title(tell, state, True)
    place = _place(tell, state, state.position) or "a place not yet seen"
    k = state.visited.index(state.position) + 1 if state.position in state.visited else len(state.visited)
    head = f"Place {k} of the road: {place} (stack {state.position})"
    if _ends(state):
        return head + ", where a Joker ends the journey"
    if state.overlord:
        return head + ", then the overlord faced"
    return head


def change_words(tell, state, change: Change) -> str:
    """What the step did, the first sentence of the description."""
    if change.kind == "revealed":
        layer = LAYERS[change.depth or 0]
        what = "a Joker" if _joker(change.card) else tell.thing(change.card, layer)
        return (f"Just now, at stack {change.stack}, its {layer} turned up (marked): {_the(change.card)}, {what}.")
    if change.kind == "overlord":
        return f"Just now, the overlord turned up (marked): {_the(change.card)}."
    if change.kind == "taken":
        return f"Just now, you took {_the(change.card)}."
    if change.kind == "moved":
        return f"Just now, you moved to stack {change.stack}."
    return f"Just now, {_the(change.card)} was dealt."


def scene(state, steps: Sequence[Any], prefix: str = "st", seed: str = "") -> Picture:
    """The small picture of a place of the road (:func:`compact`): the realm after ``steps``,
    the path walked through every move (returns included) to where you are, the card just
    turned up marked."""
    return compact(state, prefix, walk=walk_of(steps), change=change_of(steps))


def cover(state, steps: Sequence[Any], prefix: str = "cover", seed: str = "") -> Picture:
    """The story's cover: the whole realm as the journey left it, the path walked through every
    move to where you stood, the last card turned up (the overlord, or the Joker that ended
    the journey) marked; its words open with the ending."""
    return table(state, prefix, walk=walk_of(steps), change=change_of(steps), ending=True)


# -- a place of the road, compact -------------------------------------------------------------
#
# A story has a picture at every place of the road: each is a map of the realm a third of an
# A5 page tall, not the whole table. Each stack is a tile: its location (face up, or the
# stack face down with how many cards it holds), its number and place, and a line of what
# else it holds (where you are, what you took from it, how many cards are still face down);
# the path runs up the gutter between the two columns; above them, you and what you carry,
# and the overlord. The cover (:func:`table`) shows every card with its words.

MINI_W, MINI_H = 28.0, 39.0  # a card in the compact picture
LANE_GAP = 28.0  # between the two lines of stacks: the path runs there
TILE_GAP = 4.0


def compact(state, prefix: str = "st", walk: Sequence[int] | None = None, change: Change | None = None) -> Picture:
    """The realm at a place of the road, 480 wide and about 200 tall: the road runs from the
    front (row 1, at the left) to the back (row 4, at the right), the left-hand stacks above
    the path and the right-hand ones below it; you and what you carry above them, the
    overlord at the right, beyond the back row."""
    tell = _teller()
    width, m = 480.0, 6.0
    tile_w = (width - 2 * m - (ROWS - 1) * TILE_GAP) / ROWS
    tile_h = MINI_H + 5
    top = m + MINI_H + 6  # the left-hand stacks
    gutter = top + tile_h  # the path's lane, from here down LANE_GAP
    height = gutter + LANE_GAP + tile_h + m
    title = _scene_title(tell, state) if change is not None else _title(tell, state, True)
    desc = _desc(tell, state, True, walk)
    if change is not None:
        desc = change_words(tell, state, change) + " " + desc
    d = Drawing(width, height, title, desc, prefix=prefix, css=CSS)
    size = d.least

    def tile(stack: int) -> tuple[float, float]:
        row, col = row_of(stack), (stack - 1) % COLUMNS
        return m + (row - 1) * (tile_w + TILE_GAP), top if col == 0 else gutter + LANE_GAP

    def marker_at(stack: int) -> tuple[float, float]:
        """A left-hand stack's step a little left of its tile's middle and near its lane's
        top, a right-hand one's a little right and near the bottom: never on each other."""
        x, _ = tile(stack)
        left = (stack - 1) % COLUMNS == 0
        return x + tile_w / 2 + (-9 if left else 9), gutter + (8 if left else LANE_GAP - 8)

    def side(a: int, b: int) -> tuple[float, float]:
        """Towards the middle of the path's lane: a way along the left-hand stacks downwards,
        along the right-hand ones upwards, a way across the lane to the right."""
        left = [(s - 1) % COLUMNS == 0 for s in (a, b)]
        return (0, 1) if all(left) else (0, -1) if not any(left) else (1, 0)

    for stack in range(1, ROWS * COLUMNS + 1):
        x, y = tile(stack)
        _tile(d, tell, state, stack, x, y, tile_w, tile_h, size)
        if change is not None and change.stack == stack and change.depth is not None:
            if change.depth == 0 and state.stacks[stack - 1]:  # its location, just turned up
                mark(d, x + 3, y + 3, MINI_W, MINI_H, pad=2.5)
            elif change.depth < len(state.stacks[stack - 1]):  # a card under it: the tile
                mark(d, x, y, tile_w, tile_h, pad=2)
    ends = gutter + LANE_GAP / 2 + size * 0.36
    d.text(m, ends, "front", size=size, cls="st-text st-muted")
    d.text(width - m, ends, "back", size=size, cls="st-text st-muted", anchor="end")

    # you and what you carry, at the left above the stacks; the overlord at the right
    d.text(m, m + MINI_H / 2 + size * 0.35, "You", size=size, cls="st-text st-heading")
    cx = m + size * 2.6
    if state.character:
        _mini(d, state.character, cx, m)
    else:
        d.slot(cx, m, MINI_W, MINI_H)
    hx = cx + MINI_W + 8
    lord_x = width - m - MINI_W
    words: list[tuple[str, str]] = [("The overlord", "st-text st-heading")]
    if not state.overlord:
        words.append(("never faced" if _ends(state) else "face down", "st-text st-muted"))
    elif _joker(state.overlord):
        words.append(("a Joker: none to subdue", "st-text st-danger-text"))
    elif state.result is not None and state.result.cause in (Cause.SUBDUED, Cause.NOT_SUBDUED):
        words.append(("subdued: you won" if state.result.won else "not subdued: you lost",
                      "st-text st-ok-text" if state.result.won else "st-text st-danger-text"))
    else:
        words.append(("faced", "st-text st-words"))
    said = max(text_width(w, size) for w, _ in words)
    room = lord_x - 8 - said - 12 - hx  # what you carry stays clear of the overlord's words
    if state.taken:
        step = min(MINI_W + 3, (room - MINI_W) / max(1, len(state.taken) - 1))
        for i, card_id in enumerate(state.taken):
            _mini(d, card_id, hx + i * step, m)
            d.rect(hx + i * step - 1.5, m - 1.5, MINI_W + 3, MINI_H + 3, "st-outline st-taken", rx=5)
    else:
        d.text(hx, m + MINI_H / 2 + size * 0.35, "carrying nothing yet", size=size, cls="st-text st-muted",
               within=room)
    if state.overlord:
        _mini(d, state.overlord, lord_x, m)
        if change is not None and change.kind == "overlord":
            mark(d, lord_x, m, MINI_W, MINI_H, pad=2.5)
    else:
        d.back(lord_x, m, w=MINI_W, h=MINI_H)
    for i, (line, cls) in enumerate(words):
        d.text(lord_x - 8, m + MINI_H / 2 - size * 0.25 + i * size * 1.2, line, size=size, cls=cls, anchor="end")

    # the path: every move, a way walked again beside the one before, to where you are
    stops = list(walk) if walk else list(state.visited)
    points = _path([marker_at(s) for s in stops], stops, 3.0, side)
    if len(points) > 1:
        d.line(points, "st-path")
        _head(d, points[-2], points[-1], 7.5 + 3)
    if state.overlord and state.position is not None:  # and on, beyond the back row, to face it
        mx, my = marker_at(state.position)
        d.line([(mx, my), (mx, gutter + LANE_GAP / 2), (lord_x + MINI_W / 2, gutter + LANE_GAP / 2),
                (lord_x + MINI_W / 2, m + MINI_H)], "st-path st-to-lord")
    for k, stack in enumerate(state.visited, start=1):
        mx, my = marker_at(stack)
        if stack == state.position:
            d.circle(mx, my, 7.5 + 3, "st-here-ring")
        d.circle(mx, my, 7.5, "st-step")
        d.text(mx, my + size * 0.36, str(k), size=size, cls="st-text st-step-text", anchor="middle")
    return d.picture()


def _mini(d: Drawing, card_id: str, x: float, y: float) -> None:
    """A card face up, small (a Joker says so across its face)."""
    rank, suits, _ = card_of(card_id)
    d.card(x, y, rank, suits, _name(card_id), w=MINI_W, h=MINI_H)


def _tile(d: Drawing, tell, state, stack: int, x: float, y: float, w: float, h: float, size: float) -> None:
    """A stack in the compact picture: its location (or the stack face down), its number and
    place, and what else it holds."""
    cards = state.stacks[stack - 1]
    here = state.position == stack
    d.rect(x, y, w, h, "st-cell", rx=5)
    if here:
        d.rect(x, y, w, h, "st-here", rx=5)
    cx, cy = x + 3, y + 3
    taken = state.taken_from.get(stack)
    if cards:
        _mini(d, cards[0], cx, cy)
        if taken == cards[0]:
            d.rect(cx - 1.5, cy - 1.5, MINI_W + 3, MINI_H + 3, "st-outline st-taken", rx=5)
    else:
        d.back(cx, cy, w=MINI_W, h=MINI_H, count=DEPTH)
    tx = cx + MINI_W + 5
    room = x + w - 3 - tx
    place = _place(tell, state, stack) or "unexplored"
    lines = fit(f"{stack} \u00b7 {place}", room / SQUEEZE, size, room / SQUEEZE_WORD)[:2]
    notes: list[tuple[str, str]] = []
    if here:
        notes.append(("you are here", "st-heading"))
    joker = next((c for c in cards if _joker(c)), None)
    if joker is not None:
        notes.append(("a Joker: the end" if _ends(state) and here else "a Joker", "st-danger-text"))
    if taken is not None:
        notes.append(("one card taken", "st-taken-label"))
    if cards and DEPTH - len(cards):
        notes.append((f"{DEPTH - len(cards)} face down", "st-muted"))
    line_h = size * 1.12
    first = y + 3 + size * 0.9
    for i, words in enumerate(lines):
        d.text(tx, first + i * line_h, words, size=size, cls="st-text st-stack-title", within=room)
    for j, (words, cls) in enumerate(notes[:3 - len(lines)]):  # three lines in all
        d.text(tx, first + (len(lines) + j) * line_h, words, size=size, cls="st-text " + cls, within=room)

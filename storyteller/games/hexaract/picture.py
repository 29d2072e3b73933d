"""Hexaract's table as a picture: the journey (three places, each a card face up or an empty
place, the tokens on a location as small suit glyphs, a mark on an exhausted card), the
roll of the turn (the dice still free, the used ones set apart and dimmed), harm on its
track to ten, the personal supply (a token per suit with its count, the missing suits
hollow), the ace rewards still face up and the deck face down with its count.

The words are the terminal view's (``view.py``): "The journey (turn 4)", "Roll",
"couplets 1 of 2", "a 6 is wild (1 to 5)", "Ace rewards (a Crown wins one)", "none left",
"Your supply", "Still missing", "Harm", "Deck", "Discard pile", "exhausted".

Drawn from :mod:`storyteller.telling.drawing`'s primitives; what it lacks is made here from
them: the suit tokens (a disc with a glyph, a hollow dashed one for a suit still
lacking), the exhausted badge, the harm track and the dimmed group of used dice.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from storyteller.core import decktet
from storyteller.core.decktet import SUITS
from storyteller.telling.drawing import (
    Drawing, Picture, card_of, chip_size, ghost_chip, least, mark, ring, short_rank, text_width,
)
from storyteller.games.hexaract.rules import (
    HARM_LIMIT, MAX_COUPLETS, Assign, Done, Pay, Spend, harm_words, kind_of, place_of,
)
from storyteller.core.words import join_and, plural
from storyteller.log.events import Correction, Undo


KIND_WORD = {"personality": "a personality", "location": "a location", "event": "an event"}

CSS = """
.st-hx-token { fill: #f3eee3; stroke: #3a342c; stroke-width: 1; }
.st-hx-lacking { fill: none; stroke: #8a8176; stroke-width: 1; stroke-dasharray: 3 2; }
.st-hx-tired { fill: #7a4a12; }
.st-hx-tired-text { fill: #ffffff; font-weight: 700; letter-spacing: 0.04em; }
.st-hx-cell { fill: #e8e2d6; stroke: #8a8176; stroke-width: 1; }
.st-hx-harm-low { fill: #2e6b2e; } .st-hx-harm-middle { fill: #8a5a00; } .st-hx-harm-high { fill: #b3261e; }
.st-hx-cell-on { fill: #ffffff; font-weight: 700; }
.st-hx-head { font-weight: 700; }
@media (prefers-color-scheme: dark) {
  .st-hx-token { fill: #3a3631; stroke: #d8d0c2; }
  .st-hx-lacking { stroke: #9a9184; }
  .st-hx-tired { fill: #e0a36a; } .st-hx-tired-text { fill: #1f1c19; }
  .st-hx-cell { fill: #3a3631; stroke: #9a9184; }
  .st-hx-harm-low { fill: #8fce8f; } .st-hx-harm-middle { fill: #e6b94a; } .st-hx-harm-high { fill: #f2877e; }
  .st-hx-cell-on { fill: #1f1c19; }
}
@media print {
  .st-hx-token { fill: #ffffff; stroke: #000000; }
  .st-hx-tired { fill: #000000; } .st-hx-tired-text { fill: #ffffff; }
  .st-hx-cell { fill: #ffffff; stroke: #000000; }
}
""".strip()


@dataclass(frozen=True)
class Layout:
    """Where everything goes, in the picture's units: one for the cover, one for the story."""

    width: float
    height: float
    x0: float  # the left margin
    head: float  # the baseline of the journey's heading (0: no heading)
    label: float  # the baseline of the labels above the cards
    label_size: float
    card_y: float
    card_w: float
    card_h: float
    pitch: float  # from one journey place to the next
    token_r: float
    badge_h: float
    aces_x: float
    ace_w: float
    ace_h: float
    deck_x: float
    row2: float  # the baseline of the roll's and the harm's labels
    die: float
    die_x: float  # where the dice begin (after the "Roll" label)
    harm_x: float
    cell_w: float
    cell_h: float
    row3: float  # the centre line of the supply's tokens
    supply_x: float
    supply_pitch: float
    supply_r: float
    text: float  # the size of the words beside things
    words: bool  # the longer words (numbers in the harm cells, the full headings)


FULL = Layout(width=680, height=368, x0=16, head=22, label=40, label_size=9, card_y=46, card_w=80, card_h=112,
              pitch=96, token_r=9, badge_h=15, aces_x=320, ace_w=60, ace_h=84, deck_x=556, row2=234, die=28,
              die_x=62, harm_x=336, cell_w=26, cell_h=20, row3=318, supply_x=16, supply_pitch=74, supply_r=13,
              text=10, words=True)
SMALL = Layout(width=480, height=196, x0=8, head=0, label=11, label_size=7.5, card_y=16, card_w=56, card_h=78,
               pitch=62, token_r=6.5, badge_h=11, aces_x=204, ace_w=52, ace_h=72, deck_x=384, row2=145, die=18,
               die_x=36, harm_x=204, cell_w=16, cell_h=12, row3=168, supply_x=204, supply_pitch=40, supply_r=7,
               text=7.5, words=False)


def _band(harm: int) -> str:
    """How near the harm is to the end, as the story's words have it (low, middle, high)."""
    if harm >= HARM_LIMIT - 3:
        return "high"
    return "middle" if harm >= 4 else "low"


# -- the pieces ---------------------------------------------------------------------------


def _token(d: Drawing, suit: str, cx: float, cy: float, r: float, held: bool) -> None:
    """A suit token: a disc with the suit's glyph, or, for a suit still lacking, a hollow
    dashed disc with the glyph faint."""
    g = r * 1.3
    if held:
        d.circle(cx, cy, r, "st-hx-token")
        d.suit(suit, cx - g / 2, cy - g / 2, g)
    else:
        d.circle(cx, cy, r, "st-hx-lacking")
        d.add('<g class="st-faded">')
        d.suit(suit, cx - g / 2, cy - g / 2, g)
        d.add("</g>")


def _badge(d: Drawing, cx: float, y: float, h: float, words: str, most: float = 1e9) -> None:
    """A dark label under a card: "exhausted" (its words never smaller than the picture's
    least size, the label as wide as they are)."""
    size = max(h * 0.62, d.least)
    h = max(h, size * 1.45)
    w = min(most, text_width(words, size) * 1.15 + h * 0.8)  # (bold, spaced), at most ``most`` wide
    d.rect(cx - w / 2, y, w, h, "st-hx-tired", rx=h / 2)
    d.text(cx, y + h * 0.5 + size * 0.36, words, size=size, cls="st-text st-hx-tired-text", anchor="middle",
           within=w - h * 0.6)


def _journey(d: Drawing, state, L: Layout, came: tuple[str, ...] = ()) -> None:
    if L.head:
        d.text(L.x0, L.head, f"The journey (turn {state.turn})", size=L.text + 2, cls="st-text st-hx-head")
    for place, card_id in enumerate(state.journey):
        x = L.x0 + place * L.pitch
        cx = x + L.card_w / 2
        d.add('<g class="st-hx-place">')
        if card_id is None:
            d.text(x, L.label, f"{place + 1}" if L.words else "", size=L.label_size, cls="st-text st-muted")
            d.slot(x, L.card_y, L.card_w, L.card_h, label="empty")
            d.add("</g>")
            continue
        kind = kind_of(card_id)
        d.text(x, L.label, f"{place + 1} \u00b7 {kind}" if L.words else kind, size=L.label_size,
               cls="st-text st-muted")
        rank, suits, name = card_of(card_id)
        d.card(x, L.card_y, rank, suits, name, w=L.card_w, h=L.card_h)
        if card_id in came:  # new on the road since the picture before
            mark(d, x, L.card_y, L.card_w, L.card_h, pad=2.5)
        below = L.card_y + L.card_h + L.token_r + 4
        if kind == "location":
            placed = state.tokens[place]
            n = len(suits)
            step = L.token_r * 2 + 4
            left = cx - (n - 1) * step / 2
            for i, s in enumerate(suits):
                _token(d, s, left + i * step, below, L.token_r, s in placed)
        if state.exhausted[place]:
            _badge(d, cx, below + L.token_r + 3, L.badge_h, "exhausted", most=L.pitch - 5)
        d.add("</g>")


def _rewards(d: Drawing, state, L: Layout) -> None:
    y = L.card_y + (L.card_h - L.ace_h) if L.words else L.card_y
    d.text(L.aces_x, L.label, "Ace rewards (a Crown wins one)" if L.words else "Ace rewards",
           size=L.label_size, cls="st-text st-muted")
    if not state.ace_rewards:
        d.slot(L.aces_x, y, L.ace_w, L.ace_h, label="none left")
    for i, ace in enumerate(state.ace_rewards):
        rank, suits, name = card_of(ace)
        d.card(L.aces_x + i * (L.ace_w + 4 + (4 if L.words else 0)), y, rank, suits, name, w=L.ace_w, h=L.ace_h)


def _deck(d: Drawing, state, L: Layout) -> None:
    y = L.card_y + (L.card_h - L.ace_h) if L.words else L.card_y
    d.text(L.deck_x, L.label, "Deck", size=L.label_size, cls="st-text st-muted")
    if state.deck_left:
        d.back(L.deck_x, y, L.ace_w, L.ace_h, count=state.deck_left)
    else:
        d.slot(L.deck_x, y, L.ace_w, L.ace_h, label="empty")
    below = y + L.ace_h + L.text + 3
    if L.words:
        d.text(L.deck_x, below, f"{plural(state.deck_left, 'card')} left", size=L.text, cls="st-text")
        d.text(L.deck_x, below + L.text + 4, f"Discard pile: {plural(len(state.discard), 'card')}", size=L.text,
               cls="st-text st-muted", within=L.width - L.deck_x - 4)
    else:
        d.text(L.deck_x, below, f"{state.deck_left} left", size=L.text, cls="st-text")
        d.text(L.deck_x, below + L.text + 3, f"Discard pile: {len(state.discard)}", size=L.text,
               cls="st-text st-muted")


def _roll(d: Drawing, state, L: Layout, rolled: bool = False) -> None:
    d.text(L.x0, L.row2, "Roll", size=L.text + 1, cls="st-text st-hx-head")
    top = L.row2 - L.die * 0.68
    if state.roll is None:
        words = "no dice: the road is over" if state.phase == "over" else "not rolled yet"
        d.text(L.die_x, L.row2, words, size=L.text, cls="st-text st-muted")
        return
    gap = L.die * 0.22
    x = L.die_x
    for value, used in zip(state.roll, state.used):
        if not used:
            d.die(x, top, value, L.die)
            x += L.die + gap
    if rolled and x > L.die_x:  # the roll just made
        mark(d, L.die_x, top, x - gap - L.die_x, L.die, pad=3)
    used = [v for v, u in zip(state.roll, state.used) if u]
    if used:
        x += gap * 2
        d.text(x, top - 3, "used", size=L.text * 0.85, cls="st-text st-muted")
        d.add('<g class="st-spent">')
        for value in used:
            d.die(x, top, value, L.die)
            x += L.die + gap
        d.add("</g>")
    words = f"couplets {state.couplets} of {MAX_COUPLETS}, a 6 is wild (1 to 5)"
    d.text(L.x0, top + L.die + L.text + 6, words, size=L.text, cls="st-text st-muted")


def _harm(d: Drawing, state, L: Layout, was: int | None = None) -> None:
    """The harm track to ten; with ``was``, the harm taken since (from ``was`` on) marked."""
    d.text(L.harm_x, L.row2, "Harm", size=L.text + 1, cls="st-text st-hx-head")
    left = L.harm_x + (L.text + 1) * 3.6
    top = L.row2 - L.cell_h * 0.75
    band = _band(state.harm)
    step = L.cell_w + 2
    for i in range(HARM_LIMIT):
        x = left + i * step
        on = i < state.harm
        d.rect(x, top, L.cell_w, L.cell_h, f"st-hx-harm-{band}" if on else "st-hx-cell", rx=2)
        if L.words:
            d.text(x + L.cell_w / 2, top + L.cell_h * 0.7, str(i + 1), size=L.text * 0.9,
                   cls="st-text st-hx-cell-on" if on else "st-text st-muted", anchor="middle")
    if was is not None and state.harm > was:
        first, last = max(0, was), min(HARM_LIMIT, state.harm) - 1
        if last >= first:
            mark(d, left + first * step, top, (last - first) * step + L.cell_w, L.cell_h, pad=2.5)
    words = harm_words(state.harm)
    if L.words:
        left_to_go = max(0, HARM_LIMIT - state.harm)
        words += f": {left_to_go} more ends the road" if left_to_go else ": the road ends here"
        d.text(left, top + L.cell_h + L.text + 6, words, size=L.text, cls="st-text")
    else:
        d.text(left + HARM_LIMIT * step + 4, L.row2, words, size=L.text + 0.5, cls="st-text", weight="700")


def _supply(d: Drawing, state, L: Layout, gained: tuple[str, ...] = ()) -> None:
    if L.words:
        d.text(L.supply_x, L.row3 - L.supply_r - 8, "Your supply", size=L.text + 1, cls="st-text st-hx-head")
        left = L.supply_x + L.supply_r
    else:
        d.text(L.supply_x, L.row3 + L.text * 0.35, "Supply", size=L.text + 1, cls="st-text st-hx-head")
        left = L.supply_x + 36 + L.supply_r
    for i, s in enumerate(SUITS):
        cx = left + i * L.supply_pitch
        n = state.held(s)
        _token(d, s, cx, L.row3, L.supply_r, n > 0)
        if s in gained and n > 0:  # a token won since the picture before
            ring(d, cx, L.row3, L.supply_r)
        d.text(cx + L.supply_r + 6, L.row3 + L.text * 0.45, str(n), size=L.text + 2,
               cls="st-text" if n else "st-text st-muted", weight="700" if n else None)
        if L.words:
            d.text(cx, L.row3 + L.supply_r + L.text + 3, s, size=L.text * 0.85,
                   cls="st-text" if n else "st-text st-muted", anchor="middle")
    missing = state.missing_suits()
    words = "Still missing: " + (", ".join(missing) if missing else "nothing: all six pieces are in hand")
    y = L.row3 + L.supply_r + (L.text * 2 + 10 if L.words else L.text + 4)
    d.text(L.supply_x, y, words, size=L.text, cls="st-text" if missing else "st-text st-ok")


# -- the words ----------------------------------------------------------------------------


def _title(state) -> str:
    if state.phase == "over":
        return f"The journey's end, after {plural(state.turn, 'day')}"
    if state.turn == 1 and state.roll is None:
        return "Setting out: the journey"
    return f"Day {state.turn}: the journey"


def _place_words(state, place: int) -> str:
    card_id = state.journey[place]
    head = f"Journey place {place + 1}:"
    if card_id is None:
        return f"{head} empty."
    kind = kind_of(card_id)
    words = f"{head} {decktet.label(card_id)}, {KIND_WORD[kind]}"
    if state.exhausted[place]:
        words += ", exhausted"
    if kind == "location":
        placed = state.tokens[place]
        lacking = state.lacking(place)
        words += ", with " + (join_and(f"a {s} token" for s in placed) if placed else "no token") + " on it"
        if lacking:
            words += ", still needing " + join_and(lacking)
    return words + "."


def _roll_words(state) -> str:
    if state.roll is None:
        return "No dice: the road is over." if state.phase == "over" else "The dice are not rolled yet."
    used = [v for v, u in zip(state.roll, state.used) if u]
    free = [v for v, u in zip(state.roll, state.used) if not u]
    words = f"The roll: {join_and(state.roll)} (a 6 is wild, 1 to 5)"
    if used:
        words += f"; used so far, set apart: {join_and(used)}; still free: {join_and(free) if free else 'none'}"
    else:
        words += "; no die used yet"
    return words + f"; couplets {state.couplets} of {MAX_COUPLETS}."


def _supply_words(state) -> str:
    held = [f"{state.held(s)} {s}" for s in SUITS if state.held(s)]
    missing = state.missing_suits()
    words = f"Your supply: {join_and(held)}" if held else "Your supply is empty"
    if missing:
        words += f"; still missing {join_and(missing)}."
    else:
        words += ": all six pieces are in hand."
    return words


def _desc(state) -> str:
    parts = []
    if state.result is not None:
        parts.append(f"The game is over ({state.result.result}): {state.result.reason}")
    parts += [_place_words(state, p) for p in range(len(state.journey))]
    parts.append(_roll_words(state))
    left = max(0, HARM_LIMIT - state.harm)
    parts.append(f"Harm: {harm_words(state.harm)}" + (f", {left} more ends the road." if left else "."))
    parts.append(_supply_words(state))
    if state.ace_rewards:
        parts.append(f"Ace rewards face up (a Crown wins one): {decktet.names(state.ace_rewards)}.")
    else:
        parts.append("No ace rewards are left face up.")
    if state.deck_left:
        parts.append(f"The deck, face down: {plural(state.deck_left, 'card')} left.")
    else:
        parts.append("The deck is empty.")
    parts.append(f"Discard pile: {plural(len(state.discard), 'card')}.")
    return " ".join(parts)


# -- the picture --------------------------------------------------------------------------


def table(state, prefix: str = "st", small: bool = False, change: Change | None = None) -> Picture:
    """The table as SVG: the journey, the ace rewards and the deck in a row of cards; the
    roll and the harm track below them; the personal supply. ``small`` is the story's
    picture of a day (480 wide); the cover's is 680. With ``change`` (what happened since
    the picture before), the cards that came onto the road, the roll, the harm taken and
    the tokens won are marked, and a band below holds ghosts of the cards that left the road
    and the tokens spent or lost, each with a word of why."""
    L = SMALL if small else FULL
    gone = change is not None and bool(change.gone or change.tokens)
    size = max(L.text, least(L.width))
    band = len(_gone_lines(change, L, size)) * (chip_size("x", 1, size)[1] + 6) + 6 if change is not None and gone \
        else 0
    title, desc = _title(state), _desc(state)
    if change is not None:
        title, desc = change_title(state, change), change_words(state, change) + " " + desc
    d = Drawing(L.width, L.height + band, title, desc, prefix=prefix, css=CSS)
    _journey(d, state, L, change.came if change is not None else ())
    _rewards(d, state, L)
    _deck(d, state, L)
    _roll(d, state, L, change is not None and change.rolled)
    _harm(d, state, L, state.harm - change.harm if change is not None and change.harm > 0 else None)
    _supply(d, state, L, change.gained if change is not None else ())
    if gone:
        assert change is not None
        _gone(d, change, L, L.height)
    return d.picture()


# -- what changed since the picture before ----------------------------------------------------


WHY = {"personality": "thwarted", "event": "turned", "location": "surveyed"}


@dataclass(frozen=True)
class Change:
    """What happened since the picture before (the steps after ``since``): the cards that
    left the road and why (thwarted, turned, surveyed, passed), the cards that came onto it,
    the tokens that left your supply (spent on a location, lost to an event) and those won,
    the harm taken, and whether the last step is the day's roll."""

    gone: tuple[tuple[str, str], ...] = ()
    came: tuple[str, ...] = ()
    tokens: tuple[tuple[str, str, str], ...] = ()  # (suit, why, the card it went to)
    gained: tuple[str, ...] = ()
    harm: int = 0
    rolled: bool = False
    since: int = 0  # the day of the picture before (0: the game's start)
    just: tuple[str, ...] = ()  # the cards the last step took off the road (their ghosts are marked)


def _moved(step) -> bool:
    """Whether a step moved things on the table itself: a decision or a card or roll turned up
    that stands (not an undo or a correction, which put back what other steps did)."""
    return step.stands and step.before is not None and not isinstance(step.event, (Undo, Correction))


def _left(step) -> list[tuple[str, str]]:
    """The cards a step took off the road, each with why."""
    before, after = step.before, step.after
    if before is None or not _moved(step):
        return []
    out = []
    for card_id in before.journey:
        if card_id is None or card_id in after.journey:
            continue
        move = step.move
        if isinstance(move, (Assign, Spend)) and move.card == card_id:
            out.append((card_id, WHY[kind_of(card_id)]))
        else:  # an event's two days are over
            out.append((card_id, "passed"))
    return out


def change_between(steps: Sequence, since: int, at: int) -> Change:
    """What the steps standing after index ``since`` up to ``at`` did."""
    gone: list[tuple[str, str]] = []
    came: list[str] = []
    tokens: list[tuple[str, str, str]] = []
    gained: list[str] = []
    for step in steps[since + 1:at + 1]:
        if not step.stands:
            continue
        drawn = step.drawn  # a card dealt onto the road (or a correction's card, in its place)
        if drawn is not None and place_of(drawn.to) is not None:
            came.append(drawn.card)
        if not _moved(step):
            continue
        for card_id, why in _left(step):
            if card_id in came:
                came.remove(card_id)  # it came and went since the picture before
            gone.append((card_id, why))
        for suit, was, now in zip(SUITS, step.before.supply, step.after.supply):
            if now > was:
                gained += [suit] * (now - was)
            for _ in range(was - now):
                move = step.move
                if isinstance(move, Spend):
                    tokens.append((suit, "spent", move.card))
                else:
                    card = next((c.card for c in reversed(step.after.consequences)
                                 if c.kind == "token lost" and c.suit == suit), "")
                    tokens.append((suit, "lost", card))
    harm = (steps[at].after.harm if at >= 0 else 0) - (steps[since].after.harm if since >= 0 else 0)
    day = steps[since].after.turn if since >= 0 and steps[since].after.roll is not None else 0
    last = steps[at] if at >= 0 else None
    doing = next((st for st in reversed(steps[since + 1:at + 1])
                  if st.stands and (st.move is not None or st.revealed is not None)), None)
    just = tuple(c for c, _ in _left(doing)) if doing is not None else ()
    return Change(tuple(gone), tuple(came), tuple(tokens), tuple(gained), harm,
                  last is not None and last.rolled is not None, day, just)


def change_of(steps: Sequence) -> Change | None:
    """What happened since the picture before the one after ``steps`` (the story's
    :func:`moments` of these steps say which that is); None before any step."""
    if not steps:
        return None
    at = len(steps) - 1
    earlier = [m for m in moments(steps) if m < at]
    return change_between(steps, earlier[-1] if earlier else -1, at)


def _names(cards) -> str:
    return join_and(decktet.name(c) for c in cards)


def change_title(state, change: Change) -> str:
    """A picture's title: the day, and what came and went since the picture before."""
    parts = []
    for why in ("thwarted", "turned", "surveyed", "passed"):
        cards = [c for c, w in change.gone if w == why]
        if cards:
            parts.append(f"{_names(cards)} {why}")
    if change.came:
        parts.append(f"{_names(change.came)} {'comes' if len(change.came) == 1 else 'come'}")
    if state.phase == "over":
        head = f"The journey's end, day {state.turn}"
    elif state.turn == 1 and state.roll is None:
        return f"Setting out: {_names(change.came)} on the road" if change.came else _title(state)
    else:
        head = f"Day {state.turn}"
    if change.rolled and state.roll is not None:
        parts.append("roll " + " ".join(map(str, state.roll)))
    return f"{head}: {'; '.join(parts)}" if parts else f"{head}: the road as it was"


def change_words(state, change: Change) -> str:
    """The first sentences of a picture's description: what happened since the one before."""
    since = f"Since day {change.since}" if change.since else "Since the start"
    out = []
    for why in ("thwarted", "turned", "surveyed", "passed"):
        cards = [c for c, w in change.gone if w == why]
        if cards:
            out.append(f"{_names(cards)} {'was' if len(cards) == 1 else 'were'} {why}")
    if change.gone:
        out[-1] += " (ghosts below, where they left the road)"
    for suit, why, card in change.tokens:
        to = f" on {decktet.name(card)}" if why == "spent" and card else (f" to {decktet.name(card)}" if card else "")
        out.append(f"a {suit} token {'spent' if why == 'spent' else 'lost'}{to} (a ghost below)")
    if change.gained:
        suits = [(s, change.gained.count(s)) for s in SUITS if s in change.gained]
        out.append(f"{plural(len(change.gained), 'token')} won "
                   f"({join_and(s if n == 1 else f'{n} {s}' for s, n in suits)}, marked)")
    if change.harm > 0:
        out.append(f"{change.harm} harm taken (now {harm_words(state.harm)}, marked)")
    if change.came:
        out.append(f"{_names(change.came)} came onto the road (marked)")
    words = f"{since}: " + "; ".join(out) + "." if out else f"{since}, nothing came or went."
    if change.rolled and state.roll is not None:
        words += f" Then the roll: {join_and(state.roll)} (marked)."
    return words


def _chips(change: Change, L: Layout, size: float) -> list[tuple[str, tuple[str, ...], str, bool]]:
    """The ghosts of what left since the picture before, as chips: (words, suits, title,
    whether the last step took it)."""
    out = []
    for card_id, why in change.gone:
        rank, suits, name = card_of(card_id)
        out.append((f"{decktet.name(card_id)}, {why}", suits, f"{name} ({rank}), {why}", card_id in change.just))
    for suit, why, card in change.tokens:
        to = f" on {decktet.name(card)}" if why == "spent" and card else f" to {decktet.name(card)}" if card else ""
        out.append((f"a {suit} token, {why}", (suit,), f"a {suit} token, {why}{to}", False))
    return out


def _gone_lines(change: Change, L: Layout, size: float) -> list[list[int]]:
    """The ghosts' chips laid in lines across the picture (the first after the words "Gone
    since ..."): the indices of the chips on each line."""
    head = text_width(_since(change), size) * 1.1 + size
    lines: list[list[int]] = [[]]
    x = L.x0 + head
    for i, (words, suits, _, _) in enumerate(_chips(change, L, size)):
        w = chip_size(words, len(suits), size)[0]
        if lines[-1] and x + w > L.width - L.x0:
            lines.append([])
            x = L.x0
        lines[-1].append(i)
        x += w + size * 0.8
    return lines


def _since(change: Change) -> str:
    return f"Gone since day {change.since}:" if change.since else "Gone since the start:"


def _gone(d: Drawing, change: Change, L: Layout, top: float) -> None:
    """The band below the table: ghosts of the cards that left the road and of the tokens that
    left your supply, each a dashed chip with a word of why (the one the last step took
    marked)."""
    size = max(L.text, d.least)
    chips = _chips(change, L, size)
    h = chip_size("x", 1, size)[1]
    y = top + 4
    for n, line in enumerate(_gone_lines(change, L, size)):
        x = L.x0
        if n == 0:
            d.text(x, y + h / 2 + size * 0.36, _since(change), size=size, cls="st-text st-hx-head")
            x += text_width(_since(change), size) * 1.1 + size
        for i in line:
            words, suits, title, just = chips[i]
            w = ghost_chip(d, x, y, words, suits, size, title)
            if just:  # what the last step did
                mark(d, x, y, w, h, pad=2)
            x += w + size * 0.8
        y += h + 6


# -- the cover: the road walked and the six pieces -------------------------------------------


def scene(state, steps: Sequence, prefix: str = "st", seed: str = "") -> Picture:
    """The small picture of a day: the table after ``steps``, with what came and went since
    the picture before marked, and ghosts of what left."""
    return table(state, prefix, small=True, change=change_of(steps))


def road(steps: Sequence) -> list[tuple[str, str]]:
    """Every card the journey met, in the order met, with its fate: thwarted, turned,
    surveyed, passed, or "remained" at the end."""
    order: list[str] = []
    fate: dict[str, str] = {}
    for step in steps:
        if not step.stands:
            continue
        drawn = step.drawn
        if drawn is not None and place_of(drawn.to) is not None and drawn.card not in fate:
            order.append(drawn.card)
            fate[drawn.card] = "remained"
        for card_id, why in _left(step):
            fate[card_id] = why
    return [(c, fate[c]) for c in order]


def cover(state, steps: Sequence, prefix: str = "cover", seed: str = "") -> Picture:
    """The story's cover: the road walked (every card met, in order, with its fate) and the
    six pieces won or lost, the harm; of a game not over, the road so far."""
    return _road(state, road(steps), prefix)


COVER_CSS = """
.st-hx-road { fill: none; stroke: #e3d6bd; stroke-width: 10; stroke-linecap: round; stroke-linejoin: round; }
.st-hx-road-line { fill: none; stroke: #7a5c2e; stroke-width: 2.5; stroke-dasharray: 7 5; }
.st-hx-fate { font-weight: 700; }
@media (prefers-color-scheme: dark) {
  .st-hx-road { stroke: #3a3631; } .st-hx-road-line { stroke: #d8b06a; }
}
@media print { .st-hx-road { stroke: #e6e6e6; } .st-hx-road-line { stroke: #000000; } }
""".strip()
PER_ROW = 10


def _ending_title(state, met: int) -> str:
    missing = state.missing_suits()
    cards, days = plural(met, "card"), plural(state.turn, "day")
    if state.result is None:
        return f"The road so far, day {state.turn}: {cards} met, {6 - len(missing)} of six pieces in hand"
    if state.result.won:
        return f"The road walked to its end: {cards} met in {days}, all six pieces won"
    if state.harm >= HARM_LIMIT:
        return f"The road ends in harm on day {state.turn}: {cards} met, {6 - len(missing)} of six pieces"
    return f"The road walked to its end without {join_and(missing)}: {cards} met in {days}"


def _road(state, met: list[tuple[str, str]], prefix: str) -> Picture:
    """The cover of a game over: the road as a winding line through every card met (left to
    right, then back), each card small with its fate under it; the six pieces below, each
    won or lost; the harm; the ending in words."""
    L = FULL
    mw, mh = 44.0, 62.0
    pitch = (L.width - 2 * L.x0 - mw) / (PER_ROW - 1)
    row_h = mh + 34
    rows = max(1, -(-len(met) // PER_ROW))
    top = 44.0
    pieces = top + rows * row_h + 12
    harm_y = pieces + 124
    height = harm_y + 44
    title = _ending_title(state, len(met))
    said = [f"{decktet.name(c)} ({why})" for c, why in met]
    desc = (f"{title}. The road, in the order met: {join_and(said)}. " if said else f"{title}. ") + _desc(state)
    d = Drawing(L.width, height, title, desc, prefix=prefix, css=CSS + "\n" + COVER_CSS)
    d.text(L.x0, 22, f"The road walked: {plural(len(met), 'card')} in {plural(state.turn, 'day')}", size=L.text + 3,
           cls="st-text st-hx-head")

    def at(i: int) -> tuple[float, float]:
        row, col = divmod(i, PER_ROW)
        if row % 2:
            col = PER_ROW - 1 - col
        return L.x0 + col * pitch, top + row * row_h

    way: list[tuple[float, float]] = []  # through each card, turning beside the row's last card
    for i in range(len(met)):
        x, y = at(i)
        if i and i % PER_ROW == 0:
            side = x + mw + 9 if (i // PER_ROW) % 2 else x - 9
            way += [(side, way[-1][1]), (side, y + mh / 2)]
        way.append((x + mw / 2, y + mh / 2))
    if len(way) > 1:
        d.line(way, "st-hx-road")
        d.line(way, "st-hx-road-line")
    for i, (card_id, why) in enumerate(met):
        x, y = at(i)
        rank, suits, _ = card_of(card_id)
        d.add('<g class="st-hx-met">')
        d.rect(x, y, mw, mh, "st-card", rx=4)
        d.text(x + 3, y + 12, short_rank(rank), size=11, cls="st-text st-rank")
        glyph = min(16.0, (mw - 6) / max(1, len(suits)))
        for k, suit in enumerate(suits):
            d.suit(suit, x + (mw - glyph * len(suits)) / 2 + k * glyph, y + 22, glyph * 0.92)
        d.add("</g>")
        cls = "st-text st-hx-fate" + (" st-muted" if why == "remained" else "")
        d.text(x + mw / 2, y + mh + 13, why, size=10, cls=cls, anchor="middle", within=pitch - 8)

    # the six pieces
    missing = state.missing_suits()
    over = state.result is not None
    lost = "lost" if over else "still to find"
    words = "The six pieces: all in hand" if not missing else \
        f"The six pieces: {6 - len(missing)} in hand, {join_and(missing)} {'is' if len(missing) == 1 else 'are'} {lost}"
    d.text(L.x0, pieces + 14, words, size=L.text + 3, cls="st-text st-hx-head")
    r = 17.0
    step = (L.width - 2 * L.x0) / len(SUITS)
    for i, suit in enumerate(SUITS):
        cx = L.x0 + r + i * step
        cy = pieces + 44
        n = state.held(suit)
        _token(d, suit, cx, cy, r, n > 0)
        d.text(cx + r + 6, cy + 6, str(n), size=L.text + 5, cls="st-text" if n else "st-text st-muted", weight="700")
        d.text(cx - r, cy + r + 16, f"{suit}: {'won' if n else 'lost' if over else 'not yet'}", size=L.text,
               cls="st-text st-hx-fate" if n else "st-text st-hx-fate st-muted")
    _harm(d, state, replace(L, harm_x=L.x0, row2=harm_y), None)
    return d.picture()


def moments(steps) -> list[int]:
    """Where the HTML story's sections begin, as its tale divides the steps (skipping those
    undone or corrected): setting out (after the last card dealt before the first roll),
    each day (after its roll; a day cut short before it, after its last card), and the
    ending (after the last step that stands; -1, the table as the log leaves it, when
    there is none)."""
    setting = -1
    days: list[int] = []
    started = between = False
    last = -1
    for i, step in enumerate(steps):
        if step.undone or step.corrected:
            continue
        last = i
        if step.drawn is not None and not started:
            setting = i
        elif step.revealed is not None:
            if step.rolled is not None:
                started = True
            if between or not days:  # a new day begins
                days.append(i)
                between = False
            if step.rolled is not None:
                days[-1] = i  # the day's picture is the table at its roll
        elif isinstance(step.move, (Done, Pay)) and step.after.phase != "pay":
            between = True  # the turn's consequences are told: what comes next is the next day
    return [setting, *days, last]


__all__ = ["CSS", "FULL", "SMALL", "moments", "table"]

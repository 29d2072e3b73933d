"""Adaman's table as a picture: the kingdom as the terminal shows it (``view.py``), drawn.

Three rows, each with its name on the left, as the view names them:

- **Court**: the personalities sitting there, in the order they came, in five places,
  and a sixth place drawn in red, "the end": a sixth personality at court is an utter
  loss. The row's note says how many of five are there ("2 of 5"; at five, "one more is
  the end!").
- **Capital**: its cards (five places; a personality is tagged "personality", the cards
  you can only control, never keep), then the **deck**, face down, with the number of
  cards left on it.
- **Resources**: every card you hold, the row wrapping onto a new line when it grows
  past what fits; its note gives the total of their ranks, as the view does.

The full picture adds, on the right, how many personalities are under your control out
of the game's total (a tally of marks, one per personality, the controlled ones filled),
how many are still to control (and how many of those are not yet dealt), and the discard
pile. The small picture (a turning point of the story) keeps the three rows and the deck
and puts the tally on one line under them.

While the Excuse waits for the player's choice it lies at the end of the row it was dealt
to, tagged "waiting".

:func:`moments` says where the HTML story's sections begin (see ``story.html.j2``): how
things stood (the table just before the first play), the first moves if the plot opens
with anything but a personality controlled, then one section for each personality
controlled, beginning right after the play that controls them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from storyteller.core import decktet
from storyteller.telling.drawing import CARD_H, CARD_W, Drawing, Picture, card_of, ghost, mark
from storyteller.games.adaman.rules import (
    COURT_LIMIT, EXCUSE, PERSON, RANK, ROW, AdamanState, Control, Shift, landing,
)
from storyteller.games.adaman.story import _verb
from storyteller.core.words import cap, join_and, plural
from storyteller.log.events import OracleQuestion
from storyteller.log.replay import Step

CSS = """
.ad-label { font-weight: 700; }
.ad-note { fill: #5e564c; }
.ad-warn { fill: #a3221b; font-weight: 700; }
.ad-end-slot { fill: none; stroke: #a3221b; stroke-width: 1.6; stroke-dasharray: 5 3; }
.ad-end-ring { fill: none; stroke: #a3221b; stroke-width: 3; }
.ad-wait-ring { fill: none; stroke: #7a5c2e; stroke-width: 2.5; stroke-dasharray: 5 3; }
.ad-pip { fill: none; stroke: #5e564c; stroke-width: 1.3; }
.ad-pip-on { fill: #7a5c2e; stroke: #7a5c2e; stroke-width: 1.3; }
.ad-rule { fill: none; stroke: #d8d0c2; stroke-width: 1; }
@media (prefers-color-scheme: dark) {
  .ad-note { fill: #bcb3a5; }
  .ad-warn { fill: #f2877e; }
  .ad-end-slot, .ad-end-ring { stroke: #f2877e; }
  .ad-wait-ring { stroke: #d8b06a; }
  .ad-pip { stroke: #bcb3a5; }
  .ad-pip-on { fill: #d8b06a; stroke: #d8b06a; }
  .ad-rule { stroke: #4a443d; }
}
@media print {
  .ad-note { fill: #333333; }
  .ad-warn { fill: #000000; }
  .ad-end-slot, .ad-end-ring { stroke: #000000; }
  .ad-pip-on { fill: #000000; stroke: #000000; }
}
""".strip()

PAD = 12
TAG = 22  # room under a row of cards for the tags ("personality", the deck's count)


class _Layout:
    """Where things go: the full picture (720 wide) or the small one (480 wide)."""

    def __init__(self, small: bool) -> None:
        self.small = small
        self.width = 480 if small else 720
        self.left = 88 if small else 104  # where the cards begin, after the rows' names
        self.step = CARD_W + (4 if small else 6)
        self.right = self.width - PAD  # the cards' right edge
        # The court's six places and the capital's five with the deck end here; the full
        # picture's panel (the tally, the discard) lies to the right of them.
        self.places_end = self.left + (COURT_LIMIT + 1) * self.step - (self.step - CARD_W)
        self.per_line = (self.right - self.left + self.step - CARD_W) // self.step  # resources on one line

    def x(self, i: int) -> float:
        return self.left + i * self.step


def _name(card_id: str) -> str:
    return decktet.label(card_id)


def _title(state: AdamanState) -> str:
    if state.result is not None:
        if state.plays == 0:
            return "The kingdom at the end, before any play"
        return f"The kingdom at the end, after {plural(state.plays, 'play')}"
    if state.plays == 0:
        return "The kingdom before the first play"
    return f"The kingdom after {plural(state.plays, 'play')}"


def _desc(state: AdamanState, total: int, small: bool) -> str:
    """The picture in plain sentences: every card where it lies, and every count it shows."""
    court, capital, resources = state.court, state.capital, state.resources
    out = []
    n = len(court)
    if not court:
        out.append(f"The court is empty: none of its {COURT_LIMIT} places is taken.")
    elif n > COURT_LIMIT:
        out.append(f"The court holds {n} personalities, one more than its {COURT_LIMIT} places: "
                   f"{join_and(_name(c) for c in court)}. The sixth has discovered the plot.")
    else:
        warn = " One more is the end." if n == COURT_LIMIT else " A sixth would be the end."
        out.append(f"The court holds {n} of {COURT_LIMIT} personalities: {join_and(_name(c) for c in court)}.{warn}")
    if capital:
        empty = ROW - len(capital)
        gap = f"; {plural(empty, 'place')} {'is' if empty == 1 else 'are'} empty" if empty > 0 else ""
        out.append(f"The capital holds {join_and(_name(c) for c in capital)}{gap}.")
        people = [decktet.name(c) for c in capital if PERSON[c]]
        if len(people) == 1:
            out.append(f"Of these, {people[0]} is a personality.")
        elif people:
            out.append(f"Of these, {join_and(people)} are personalities.")
    else:
        out.append("The capital is empty.")
    if resources:
        total_rank = sum(RANK[r] for r in resources)
        out.append(f"Your resources, {plural(len(resources), 'card')} with ranks totalling {total_rank}: "
                   f"{join_and(_name(r) for r in resources)}.")
    else:
        out.append("You hold no resources.")
    if state.excuse_at is not None:
        if state.excuse_at == "capital":
            out.append("The Excuse waits at the end of the capital: one of your resources must move into the capital.")
        else:
            out.append("The Excuse waits at the end of your resources: one capital card must move into your resources.")
    deck = f"The deck lies face down beside the capital with {plural(state.deck_count, 'card')} left"
    out.append(f"{deck}." if small else f"{deck}; the discard pile holds {plural(len(state.discard), 'card')}.")
    done = state.controlled
    tally = f"Controlled: {len(done)} of {total} personalities"
    out.append(f"{tally}: {join_and(decktet.name(c) for c in done)}." if done else f"{tally}.")
    left = state.to_control()
    hidden = [c for c in left if c not in court and c not in capital]
    if left and not small:
        out.append(f"Still to control: {len(left)}" + (f", {len(hidden)} of them not yet dealt." if hidden else "."))
    if state.result is not None and not small:
        out.append(f"The game is over ({state.result.result}).")
    return " ".join(out)


def _row_name(d: Drawing, y: float, name: str, notes: list[tuple[str, str]]) -> None:
    d.text(PAD, y + 16, name, size=12, cls="st-text ad-label")
    for i, (words, cls) in enumerate(notes):
        d.text(PAD, y + 32 + i * 12, words, size=9.5, cls=f"st-text {cls}")


def _tag(d: Drawing, x: float, y: float, words: str) -> None:
    """A word under a card (its centre at x, the card's bottom at y)."""
    d.text(x + CARD_W / 2, y + CARD_H + 12, words, size=8.5, cls="st-text ad-note", anchor="middle", within=CARD_W + 4)


def _card(d: Drawing, x: float, y: float, card_id: str) -> None:
    rank, suits, name = card_of(card_id)
    d.card(x, y, rank, suits, name)


def _tally(d: Drawing, x: float, y: float, done: int, total: int, per_row: int, step: float = 13) -> float:
    """One mark per personality of the game, the controlled ones filled; returns the bottom."""
    for i in range(total):
        cx = x + 5 + (i % per_row) * step
        cy = y + 5 + (i // per_row) * step
        d.circle(cx, cy, 4.5, "ad-pip-on" if i < done else "ad-pip")
    return y + ((total - 1) // per_row + 1) * step if total else y


@dataclass(frozen=True)
class Change:
    """What the step a picture is drawn after did to the table, to mark it and leave ghosts."""

    kind: str  # "control" (a personality), "gain" (a card won into your resources), "shift" (the Excuse), "dealt"
    card: str
    before: AdamanState | None = None  # the table before a play (where the cards were)
    paid: tuple[str, ...] = ()
    verb: str = ""  # a personality bought, tricked or eliminated (as the story says)
    row: str = ""  # where the card was (a play) or went (a card dealt, the Excuse's move)
    play: int = 0  # the play's number


def change_of(steps: Sequence[Step], seed: str = "") -> Change | None:
    """What the last step standing that moved a card did (None if no step did)."""
    for step in reversed(steps):
        if not step.stands:
            continue
        move = step.move
        if isinstance(move, Control) and isinstance(step.before, AdamanState):
            before = step.before
            row = "court" if move.target in before.court else "capital"
            plays = before.plays + 1
            if PERSON[move.target]:
                return Change("control", move.target, before, move.paid, _verb(move.paid, seed, move.target), row,
                              plays)
            return Change("gain", move.target, before, move.paid, "gained", row, plays)
        if isinstance(move, Shift):
            return Change("shift", move.card, row=move.to)
        if step.drawn is not None:
            return Change("dealt", step.drawn.card, row=landing(step.drawn.card, step.drawn.to))
    return None


def verbs(steps: Sequence[Step], seed: str = "") -> dict[str, str]:
    """How each personality controlled was won over: bought, tricked or eliminated."""
    return {s.move.target: _verb(s.move.paid, seed, s.move.target) for s in steps
            if s.stands and isinstance(s.move, Control) and PERSON[s.move.target]}


def table(state: AdamanState, prefix: str = "st", small: bool = False, change: Change | None = None,
          title: str | None = None, desc: str | None = None) -> Picture:
    """The kingdom as it stands: court, capital with the deck, resources, and the tally; with
    ``change``, what the last play did: the card it bought, tricked, eliminated or gained
    marked (a personality won over as a ghost where it was) and the resources it spent as
    ghosts in your row."""
    lay = _Layout(small)
    total = len(state.personalities())
    court, capital, resources = state.court, state.capital, state.resources

    # What each row shows: (card, None) for a card there, (card, why) for a ghost of one.
    court_row: list[tuple[str, str | None]] = [(c, None) for c in court]
    capital_row: list[tuple[str, str | None]] = [(c, None) for c in capital]
    kept_row: list[tuple[str, str | None]] = [(c, None) for c in resources]
    marked: tuple[str, str] | None = None  # (row, card) ringed
    if change is not None and change.kind in ("control", "gain") and change.before is not None:
        b = change.before
        court_row = [(c, change.verb if c == change.card else None) for c in b.court]
        capital_row = [(c, change.verb if c == change.card else None) for c in b.capital]
        kept_row = [(c, "spent" if c in change.paid else None) for c in b.resources]
        if change.kind == "gain":
            kept_row.append((change.card, None))
            marked = ("resources", change.card)
        else:
            marked = (change.row, change.card)
    elif change is not None:
        marked = (change.row, change.card)

    y_court = PAD
    y_capital = y_court + CARD_H + TAG
    y_resources = y_capital + CARD_H + TAG
    lines = max(1, -(-(len(kept_row) + (state.excuse_at == "resources")) // lay.per_line))
    bottom = y_resources + lines * (CARD_H + 10) - 10
    height = bottom + (40 if small else PAD)
    d = Drawing(lay.width, height, title or _title(state), desc or _desc(state, total, small), prefix=prefix,
                css=CSS)

    def put(row: str, x: float, y: float, card_id: str, why: str | None) -> None:
        """A card of a row, or its ghost; ringed if it is the one the step moved."""
        if why is not None:
            ghost(d, x, y, card_id, why, size=8.5)
        else:
            _card(d, x, y, card_id)
        if marked == (row, card_id):
            mark(d, x, y, CARD_W, CARD_H)

    # -- the court: five places and the sixth, the end
    n = len(court)
    if n > COURT_LIMIT:
        notes = [(f"{n} of {COURT_LIMIT}", "ad-warn"), ("one too many", "ad-warn")]
    elif n == COURT_LIMIT:
        notes = [(f"{n} of {COURT_LIMIT}", "ad-warn"), ("one more is", "ad-warn"), ("the end!", "ad-warn")]
    else:
        notes = [(f"{n} of {COURT_LIMIT}", "ad-note")]
    _row_name(d, y_court, "Court", notes)
    for i in range(COURT_LIMIT + 1):
        x = lay.x(i)
        if i < len(court_row):
            if i == COURT_LIMIT:
                d.rect(x - 3, y_court - 3, CARD_W + 6, CARD_H + 6, "ad-end-ring", rx=7)
            put("court", x, y_court, *court_row[i])
        elif i == COURT_LIMIT:
            d.rect(x, y_court, CARD_W, CARD_H, "ad-end-slot", rx=5)
            d.text(x + CARD_W / 2, y_court + CARD_H / 2 - 2, "a sixth:", size=8.5, cls="st-text ad-warn",
                   anchor="middle")
            d.text(x + CARD_W / 2, y_court + CARD_H / 2 + 10, "the end", size=8.5, cls="st-text ad-warn",
                   anchor="middle")
        else:  # where the next one will sit (a ghost's place is free again)
            d.slot(x, y_court, label=str(i + 1 - sum(why is not None for _, why in court_row)))

    # -- the capital, then the deck
    _row_name(d, y_capital, "Capital", [])
    i = 0
    for c, why in capital_row:
        put("capital", lay.x(i), y_capital, c, why)
        if PERSON[c] and why is None:
            _tag(d, lay.x(i), y_capital, "personality")
        i += 1
    if state.excuse_at == "capital":
        _excuse(d, lay.x(i), y_capital, marked == ("excuse", EXCUSE))
        i += 1
    while i < ROW:
        d.slot(lay.x(i), y_capital)
        i += 1
    deck_x = lay.x(max(i, ROW))
    if state.deck_count > 0:
        d.back(deck_x, y_capital, count=state.deck_count)
    else:
        d.slot(deck_x, y_capital)
    _tag(d, deck_x, y_capital, "Deck: " + plural(state.deck_count, "card"))

    # -- the resources, wrapping
    kept = sum(RANK[r] for r in resources)
    _row_name(d, y_resources, "Resources", [(f"total {kept}", "ad-note")])
    if not kept_row and state.excuse_at != "resources":
        d.slot(lay.x(0), y_resources, label="none")
    for i, (r, why) in enumerate(kept_row):
        x = lay.x(i % lay.per_line)
        y = y_resources + (i // lay.per_line) * (CARD_H + 10)
        put("resources", x, y, r, why)
    if state.excuse_at == "resources":
        i = len(kept_row)
        _excuse(d, lay.x(i % lay.per_line), y_resources + (i // lay.per_line) * (CARD_H + 10),
                marked == ("excuse", EXCUSE))

    # -- the tally: how many of the game's personalities are yours
    done = len(state.controlled)
    left = state.to_control()
    hidden = sum(1 for c in left if c not in court and c not in capital)
    if small:
        y = bottom + 24
        words = f"Controlled: {done} of {total} personalities"
        d.text(PAD, y, words, size=10.5, cls="st-text ad-label")
        _tally(d, 226, y - 9, done, total, per_row=total or 1, step=12)
    else:
        x = lay.places_end + 18
        d.line([(x - 9, y_court), (x - 9, y_capital + CARD_H + 4)], "ad-rule")
        d.text(x, y_court + 16, "Controlled", size=12, cls="st-text ad-label")
        d.text(x, y_court + 32, f"{done} of {total} personalities", size=10, cls="st-text")
        end = _tally(d, x, y_court + 42, done, total, per_row=14)
        if left:
            d.text(x, end + 14, f"Still to control: {len(left)}", size=9.5, cls="st-text ad-note")
            if hidden:
                d.text(x, end + 27, f"({hidden} not yet dealt)", size=9.5, cls="st-text ad-note")
        d.text(x, y_capital + 16, "Discard pile", size=12, cls="st-text ad-label")
        d.text(x, y_capital + 32, plural(len(state.discard), "card"), size=10, cls="st-text")
        if state.result is not None:
            word = str(state.result.result).capitalize()  # Won, Lost, Utter loss
            d.text(x, y_capital + 60, word, size=13, cls="st-text " + ("ad-label" if state.result.won else "ad-warn"))
    return d.picture()


def _excuse(d: Drawing, x: float, y: float, marked: bool = False) -> None:
    """The Excuse, dealt to this row, waiting for the player to choose what it moves."""
    if marked:
        mark(d, x, y, CARD_W, CARD_H)
    else:
        d.rect(x - 3, y - 3, CARD_W + 6, CARD_H + 6, "ad-wait-ring", rx=7)
    _card(d, x, y, EXCUSE)
    _tag(d, x, y, "waiting")


# -- a turning point, and the cover --------------------------------------------------------

ROW_WORDS = {"court": "the court", "capital": "the capital", "resources": "your resources", "excuse": "the table"}
INTO = {"capital": "into the capital", "resources": "into your resources", "court": "to the court"}


def _change_title(state: AdamanState, change: Change, total: int) -> str:
    name = decktet.name(change.card)
    if change.kind == "control":
        return f"Play {change.play}: {name} {change.verb} ({len(state.controlled)} of {total} personalities)"
    if change.kind == "gain":
        return f"Play {change.play}: {name} joins your resources"
    if change.kind == "shift":
        return f"The Excuse: {name} moves {INTO.get(change.row, 'on')}"
    return f"{_title(state)}: {decktet.name(change.card)} dealt last, to {ROW_WORDS.get(change.row, 'the table')}"


def _change_words(change: Change) -> str:
    """What the step did, as the first sentence of the picture's description."""
    name = decktet.name(change.card)
    spent = decktet.names(change.paid)
    if change.kind == "control":
        where = "at court" if change.row == "court" else "in the capital"
        return (f"Just now, play {change.play}: you {change.verb} {name} {where}, spending {spent}; "
                f"{name} leaves play, a ghost where the card was, marked, and the cards spent are ghosts in "
                "your resources.")
    if change.kind == "gain":
        return (f"Just now, play {change.play}: {name} moved from the capital into your resources (marked there, "
                f"a ghost where it was), for {spent}, ghosts in your resources.")
    if change.kind == "shift":
        return f"Just now, the Excuse moved {name} {INTO.get(change.row, 'on')} (marked)."
    return f"The last card dealt, marked: {name}, to {ROW_WORDS.get(change.row, 'the table')}."


def scene(state: AdamanState, steps: Sequence[Step], prefix: str = "st", seed: str = "") -> Picture:
    """The small picture of a turning point: the kingdom after ``steps``, with what the last
    of them did marked, and ghosts of what it removed; its title and the first sentence of
    its description say what changed."""
    change = change_of(steps, seed)
    if change is None:
        return table(state, prefix, small=True)
    total = len(state.personalities())
    return table(state, prefix, small=True, change=change, title=_change_title(state, change, total),
                 desc=_change_words(change) + " " + _desc(state, total, True))


def cover(state: AdamanState, steps: Sequence[Step], prefix: str = "cover", seed: str = "") -> Picture:
    """The story's cover: the ending (who is under your control and how they were won over,
    who is still free in the court and the capital, your resources); of a game not over, the
    same so far."""
    return _ending(state, verbs(steps, seed), prefix)


def _ending_title(state: AdamanState, total: int) -> str:
    done, plays = len(state.controlled), plural(state.plays, "play")
    if state.result is None:
        return f"The plot so far: {done} of {total} personalities under your control, after {plays}"
    if state.result.won:
        return f"The throne is yours: all {total} personalities under your control, in {plays}"
    if len(state.court) > COURT_LIMIT:
        return f"The plot discovered: a sixth personality at court, after {plays}; {done} of {total} won over"
    return f"The plot abandoned: {done} of {total} personalities under your control, after {plays}"


def _ending(state: AdamanState, how: dict[str, str], prefix: str) -> Picture:
    """The cover of a game over: a row of the personalities under your control (in the order
    won over, each with how: bought, tricked, eliminated), the court if anyone is left there,
    the capital with the deck, your resources, and the ending in words at the right."""
    lay = _Layout(False)
    total = len(state.personalities())
    done = state.controlled
    per = COURT_LIMIT + 1  # the places' width: the panel of words is at their right
    won = state.result is not None and state.result.won
    lines = max(1, -(-len(done) // per))
    y = PAD
    y_done = y
    y = y_done + lines * (CARD_H + TAG)
    y_court = None if won else y
    y = y + (CARD_H + TAG if y_court is not None else 0)
    y_capital = y
    y_resources = y_capital + CARD_H + TAG
    rows = max(1, -(-len(state.resources) // per))
    height = y_resources + rows * (CARD_H + 10) - 10 + PAD
    title = _ending_title(state, total)
    said = [f"{decktet.name(c)} ({how.get(c, 'controlled')})" for c in done]
    desc = (f"{title}. " + (f"Under your control, in the order won over: {join_and(said)}. " if said else
                            "No personality came under your control. ")
            + _desc(state, total, False))
    d = Drawing(lay.width, height, title, desc, prefix=prefix, css=CSS)

    _row_name(d, y_done, "Won over", [(f"{len(done)} of {total}", "ad-note")])
    if not done:
        d.slot(lay.x(0), y_done, label="none")
    for i, c in enumerate(done):
        x, top = lay.x(i % per), y_done + (i // per) * (CARD_H + TAG)
        _card(d, x, top, c)
        _tag(d, x, top, how.get(c, "controlled"))
    if y_court is not None:
        n = len(state.court)
        _row_name(d, y_court, "Court", [(f"{n} of {COURT_LIMIT}", "ad-warn" if n >= COURT_LIMIT else "ad-note")])
        for i in range(COURT_LIMIT + 1):
            x = lay.x(i)
            if i < n:
                if i == COURT_LIMIT:
                    d.rect(x - 3, y_court - 3, CARD_W + 6, CARD_H + 6, "ad-end-ring", rx=7)
                _card(d, x, y_court, state.court[i])
                _tag(d, x, y_court, "the end" if i == COURT_LIMIT else "still free")
            elif i < COURT_LIMIT:
                d.slot(x, y_court)
    _row_name(d, y_capital, "Capital", [])
    for i in range(ROW):
        if i < len(state.capital):
            c = state.capital[i]
            _card(d, lay.x(i), y_capital, c)
            if PERSON[c]:
                _tag(d, lay.x(i), y_capital, "still free")
        else:
            d.slot(lay.x(i), y_capital)
    deck_x = lay.x(ROW)
    if state.deck_count > 0:
        d.back(deck_x, y_capital, count=state.deck_count)
    else:
        d.slot(deck_x, y_capital)
    _tag(d, deck_x, y_capital, "Deck: " + plural(state.deck_count, "card"))
    kept = sum(RANK[r] for r in state.resources)
    _row_name(d, y_resources, "Resources", [(f"total {kept}", "ad-note")])
    if not state.resources:
        d.slot(lay.x(0), y_resources, label="none")
    for i, r in enumerate(state.resources):
        _card(d, lay.x(i % per), y_resources + (i // per) * (CARD_H + 10), r)

    # -- the ending, in words, at the right of the places
    x = lay.places_end + 18
    d.line([(x - 9, y_done), (x - 9, height - PAD)], "ad-rule")
    word = cap(str(state.result.result)) if state.result is not None else "Unfinished"  # Won, Lost, Utter loss
    d.text(x, y_done + 18, word, size=16, cls="st-text " + ("ad-label" if won or state.result is None else "ad-warn"))
    lines_said = [f"{len(done)} of {total} personalities", "under your control"]
    if won:
        lines_said += ["", "The throne is yours."]
    else:
        left = state.to_control()
        hidden = [c for c in left if c not in state.court and c not in state.capital]
        lines_said += ["", f"{len(left)} still free"] + ([f"({len(hidden)} never dealt)"] if hidden else [])
        if len(state.court) > COURT_LIMIT:
            lines_said += ["", "A sixth at court:", "the plot is discovered."]
    if state.result is not None:
        lines_said += ["", f"Score: {state.result.score}"]
    else:
        lines_said += ["", f"Deck: {plural(state.deck_count, 'card')}"]
    lines_said.append(f"Discard pile: {plural(len(state.discard), 'card')}")
    for i, words in enumerate(lines_said):
        if words:
            d.text(x, y_done + 40 + i * 14, words, size=10.5, cls="st-text")
    return d.picture()


# -- the story's turning points ------------------------------------------------------------


def _stands(step: Step) -> bool:
    return not step.undone and step.move is not None


def moments(steps: list[Step]) -> list[int]:
    """Where the sections of ``templates/adaman/story.html.j2`` begin, in their order:

    1. how things stood: after the step just before the first play (the table the first
       play is made on), or after the last step if no play was ever made;
    2. the first moves, when the plot (the story's ``acts``) opens with anything but a
       personality controlled (a card gained, a move of the Excuse, a question to the
       oracle): after the first play if it gains a card, else (the plot opened during the
       setup, before a personality's play) after the same step as how things stood, so
       that no picture is earlier than the one before it;
    3. one for each personality controlled: after the play that controls them.

    Undone steps are skipped (their tables were taken back)."""
    first_play = next((i for i, s in enumerate(steps) if _stands(s) and isinstance(s.move, Control)), None)
    if first_play is not None:
        setup = first_play - 1
    else:
        setup = next((i for i in range(len(steps) - 1, -1, -1) if not steps[i].undone), -1)
    out = [setup]
    opens = next((i for i, s in enumerate(steps)
                  if isinstance(s.event, OracleQuestion) or (_stands(s) and isinstance(s.move, (Control, Shift)))),
                 None)
    people = [i for i, s in enumerate(steps)
              if _stands(s) and isinstance(s.move, Control) and PERSON[s.move.target]]
    if opens is not None and (not people or opens < people[0]):
        # The first moves: after the first play when it gains a card (the plot opens with it,
        # or with a move of the Excuse or a question asked just before it); when the plot
        # opens during the setup and the first play controls a personality (whose section
        # comes next), or no play was made, the table the setup left (as how things stood).
        out.append(first_play if first_play is not None and first_play not in people else setup)
    return out + people

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

from storyteller.core import decktet
from storyteller.telling.drawing import CARD_H, CARD_W, Drawing, Picture, card_of
from storyteller.games.adaman.rules import COURT_LIMIT, EXCUSE, PERSON, RANK, ROW, AdamanState, Control, Shift
from storyteller.core.words import join_and, plural
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


def table(state: AdamanState, prefix: str = "st", small: bool = False) -> Picture:
    """The kingdom as it stands: court, capital with the deck, resources, and the tally."""
    lay = _Layout(small)
    total = len(state.personalities())
    court, capital, resources = state.court, state.capital, state.resources

    y_court = PAD
    y_capital = y_court + CARD_H + TAG
    y_resources = y_capital + CARD_H + TAG
    lines = max(1, -(-(len(resources) + (state.excuse_at == "resources")) // lay.per_line))
    bottom = y_resources + lines * (CARD_H + 10) - 10
    height = bottom + (40 if small else PAD)
    d = Drawing(lay.width, height, _title(state), _desc(state, total, small), prefix=prefix, css=CSS)

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
        if i < n:
            if i == COURT_LIMIT:
                d.rect(x - 3, y_court - 3, CARD_W + 6, CARD_H + 6, "ad-end-ring", rx=7)
            _card(d, x, y_court, court[i])
        elif i == COURT_LIMIT:
            d.rect(x, y_court, CARD_W, CARD_H, "ad-end-slot", rx=5)
            d.text(x + CARD_W / 2, y_court + CARD_H / 2 - 2, "a sixth:", size=8.5, cls="st-text ad-warn",
                   anchor="middle")
            d.text(x + CARD_W / 2, y_court + CARD_H / 2 + 10, "the end", size=8.5, cls="st-text ad-warn",
                   anchor="middle")
        else:
            d.slot(x, y_court, label=str(i + 1))  # where the next one will sit

    # -- the capital, then the deck
    _row_name(d, y_capital, "Capital", [])
    i = 0
    for c in capital:
        _card(d, lay.x(i), y_capital, c)
        if PERSON[c]:
            _tag(d, lay.x(i), y_capital, "personality")
        i += 1
    if state.excuse_at == "capital":
        _excuse(d, lay.x(i), y_capital)
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
    if not resources and state.excuse_at != "resources":
        d.slot(lay.x(0), y_resources, label="none")
    for i, r in enumerate(resources):
        x = lay.x(i % lay.per_line)
        y = y_resources + (i // lay.per_line) * (CARD_H + 10)
        _card(d, x, y, r)
    if state.excuse_at == "resources":
        i = len(resources)
        _excuse(d, lay.x(i % lay.per_line), y_resources + (i // lay.per_line) * (CARD_H + 10))

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


def _excuse(d: Drawing, x: float, y: float) -> None:
    """The Excuse, dealt to this row, waiting for the player to choose what it moves."""
    d.rect(x - 3, y - 3, CARD_W + 6, CARD_H + 6, "ad-wait-ring", rx=7)
    _card(d, x, y, EXCUSE)
    _tag(d, x, y, "waiting")


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

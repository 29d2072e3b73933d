"""Pictures of a game's table as SVG: the shared pieces every game's ``picture.py`` draws
with, in the manner of python-chess's ``chess.svg``: pure functions from facts to SVG text,
each glyph defined once (``<defs>``/``<symbol>``) and used where it is needed (``<use>``),
and CSS classes on every element so that a stylesheet can recolour them.

- **Suits are drawn, never typed.** The four piquet suits and the Decktet's six are SVG
  paths of our own (the Decktet's have no characters, and ♠♥♦♣ turn into emoji on some
  systems), so no font decides how a suit looks.
- **Cards look like cards**: a rounded face with the rank in its corner, the suit glyphs,
  and the card's name written in text; a face-down card shows its back.
- **Every picture has words**: a ``<title>`` and a ``<desc>`` made from the state, what a
  screen reader says of it.
- **Deterministic**: the same calls give byte-identical SVG (numbers are written the same
  way every time, nothing is random, ids come from a prefix the caller gives, so several
  pictures can share one HTML page).
"""

from __future__ import annotations

from dataclasses import dataclass
from xml.sax.saxutils import escape, quoteattr

CARD_W, CARD_H = 60, 84  # a card's size in the pictures' units (about a poker card's shape)

# Each suit's glyph on a 100 x 100 grid, filled (stroke-free, so it prints in black and white).
SUIT_PATHS: dict[str, str] = {
    # the piquet deck (the rulings call clubs Clovers)
    "Hearts": "M50 88 C34 74 10 60 10 36 C10 20 22 10 34 10 C42 10 48 15 50 22 C52 15 58 10 66 10 "
              "C78 10 90 20 90 36 C90 60 66 74 50 88 Z",
    "Diamonds": "M50 6 L84 50 L50 94 L16 50 Z",
    "Spades": "M50 8 C66 28 90 42 90 62 C90 76 80 84 68 84 C61 84 55 80 53 74 C54 82 58 88 64 92 L36 92 "
              "C42 88 46 82 47 74 C45 80 39 84 32 84 C20 84 10 76 10 62 C10 42 34 28 50 8 Z",
    "Clovers": "M50 8 C62 8 70 17 70 28 C70 34 67 39 63 43 C68 40 73 39 77 39 C88 39 96 48 96 59 C96 70 88 79 77 79 "
               "C66 79 58 71 54 62 C54 74 58 84 66 92 L34 92 C42 84 46 74 46 62 C42 71 34 79 23 79 C12 79 4 70 4 59 "
               "C4 48 12 39 23 39 C27 39 32 40 37 43 C33 39 30 34 30 28 C30 17 38 8 50 8 Z",
    # the Decktet
    "Moons": "M62 8 C38 12 20 30 20 52 C20 74 38 92 62 94 C48 84 40 68 40 51 C40 34 48 18 62 8 Z",
    "Suns": "M50 30 A20 20 0 1 1 49.9 30 Z M47 2 L53 2 L53 20 L47 20 Z M47 80 L53 80 L53 98 L47 98 Z "
            "M2 47 L20 47 L20 53 L2 53 Z M80 47 L98 47 L98 53 L80 53 Z "
            "M15.1 19.3 L19.3 15.1 L32 27.8 L27.8 32 Z M68 72.2 L72.2 68 L84.9 80.7 L80.7 84.9 Z "
            "M80.7 15.1 L84.9 19.3 L72.2 32 L68 27.8 Z M27.8 68 L32 72.2 L19.3 84.9 L15.1 80.7 Z",
    "Waves": "M4 34 C16 22 28 22 40 34 C52 46 64 46 76 34 C84 26 90 24 96 26 L96 38 C90 36 84 38 76 46 "
             "C64 58 52 58 40 46 C28 34 16 34 4 46 Z M4 62 C16 50 28 50 40 62 C52 74 64 74 76 62 C84 54 90 52 96 54 "
             "L96 66 C90 64 84 66 76 74 C64 86 52 86 40 74 C28 62 16 62 4 74 Z",
    "Leaves": "M50 4 C76 22 86 48 74 72 C68 84 58 90 53 92 L53 98 L47 98 L47 92 C42 90 32 84 26 72 C14 48 24 22 50 4 Z "
              "M48 30 L48 88 L52 88 L52 30 Z",
    "Wyrms": "M70 10 C86 10 94 22 90 34 C86 46 70 48 56 50 C40 52 26 56 26 68 C26 78 36 84 48 82 L44 74 L66 86 "
             "L48 98 L50 90 C30 94 12 84 12 68 C12 50 30 42 52 40 C66 38 76 36 78 30 C80 24 74 20 66 22 "
             "C62 23 58 26 56 30 L48 24 C52 16 60 10 70 10 Z",
    "Knots": "M50 4 L62 16 L56 22 L50 16 L26 40 L36 50 L26 60 L50 84 L74 60 L64 50 L74 40 L50 16 L56 22 "
             "L62 16 L96 50 L50 96 L4 50 Z M50 36 L64 50 L50 64 L36 50 Z",
}

STYLE = """
.st-bg { fill: #fbf8f1; }
.st-text { fill: #2b2620; font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
.st-muted { fill: #5e564c; }
.st-card { fill: #ffffff; stroke: #3a342c; stroke-width: 1.2; }
.st-card-back { fill: #3b5a7a; stroke: #22374d; stroke-width: 1.2; }
.st-card-back-mark { fill: none; stroke: #a9c0d6; stroke-width: 1; }
.st-slot { fill: none; stroke: #8a8176; stroke-width: 1; stroke-dasharray: 4 3; }
.st-rank { font-weight: 700; }
.st-suit { fill: #2b2620; }
.st-suit-Hearts, .st-suit-Diamonds { fill: #b3261e; }
.st-suit-Moons { fill: #5b3f8c; } .st-suit-Suns { fill: #9a6a00; } .st-suit-Waves { fill: #1f5f99; }
.st-suit-Leaves { fill: #2e6b2e; } .st-suit-Wyrms { fill: #9b2c1d; } .st-suit-Knots { fill: #8a4b14; }
.st-mark { fill: #2b2620; }
.st-path { fill: none; stroke: #7a5c2e; stroke-width: 2.5; stroke-dasharray: 6 4; }
.st-step { fill: #7a5c2e; } .st-step-text { fill: #ffffff; font-weight: 700; }
.st-taken { stroke: #2e6b2e; stroke-width: 3; }
.st-danger { fill: #b3261e; } .st-ok { fill: #2e6b2e; }
.st-track { fill: #e8e2d6; stroke: #8a8176; stroke-width: 1; }
.st-die { fill: #ffffff; stroke: #3a342c; stroke-width: 1.2; } .st-pip { fill: #2b2620; }
@media (prefers-color-scheme: dark) {
  .st-bg { fill: #1f1c19; }
  .st-text { fill: #ece6da; } .st-muted { fill: #bcb3a5; }
  .st-card { fill: #2c2925; stroke: #d8d0c2; }
  .st-card-back { fill: #2f4a66; stroke: #a9c0d6; }
  .st-slot { stroke: #9a9184; }
  .st-suit { fill: #ece6da; }
  .st-suit-Hearts, .st-suit-Diamonds { fill: #f2877e; }
  .st-suit-Moons { fill: #b9a2e6; } .st-suit-Suns { fill: #e6b94a; } .st-suit-Waves { fill: #7fb6ea; }
  .st-suit-Leaves { fill: #8fce8f; } .st-suit-Wyrms { fill: #f28b74; } .st-suit-Knots { fill: #e0a36a; }
  .st-mark { fill: #ece6da; } .st-path { stroke: #d8b06a; } .st-step { fill: #d8b06a; } .st-step-text { fill: #1f1c19; }
  .st-track { fill: #3a3631; stroke: #9a9184; }
  .st-die { fill: #2c2925; stroke: #d8d0c2; } .st-pip { fill: #ece6da; }
}
@media print {
  .st-bg { fill: #ffffff; }
  .st-card-back { fill: #dddddd; stroke: #000000; }
}
""".strip()


def num(x: float) -> str:
    """A coordinate as SVG text: at most two decimals, never an exponent, never ``-0``."""
    text = f"{x:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def text_escape(text: str) -> str:
    return escape(str(text))


def attr(value: str) -> str:
    return quoteattr(str(value))


def wrap(text: str, width: int) -> list[str]:
    """Words in lines of at most ``width`` characters (a longer word keeps its own line)."""
    lines: list[str] = []
    for word in str(text).split():
        if lines and len(lines[-1]) + 1 + len(word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines or [""]


@dataclass(frozen=True)
class Picture:
    """A table drawn: the SVG document, and its words (title and description)."""

    svg: str
    title: str
    desc: str
    width: float
    height: float

    def as_dict(self) -> dict:
        return {"svg": self.svg, "title": self.title, "desc": self.desc, "width": self.width, "height": self.height}


class Drawing:
    """One SVG picture being drawn: elements are added in order; the suits used are defined
    once in ``<defs>``; ``svg()`` gives the document. ``prefix`` starts every id, so that
    pictures sharing a page never share an id."""

    def __init__(self, width: float, height: float, title: str, desc: str, prefix: str = "st", css: str = "",
                 background: bool = True) -> None:
        self.width, self.height = width, height
        self.title, self.desc = title, desc
        self.prefix = prefix
        self.css = css
        self.parts: list[str] = []
        self.suits: set[str] = set()
        self.backs = False
        if background:
            self.parts.append(f'<rect class="st-bg" x="0" y="0" width="{num(width)}" height="{num(height)}" rx="8"/>')

    # -- pieces ---------------------------------------------------------------------------

    def add(self, element: str) -> None:
        self.parts.append(element)

    def text(self, x: float, y: float, words: str, size: float = 10, cls: str = "st-text", anchor: str = "start",
             weight: str | None = None) -> None:
        w = f' font-weight="{weight}"' if weight else ""
        self.parts.append(f'<text class={attr(cls)} x="{num(x)}" y="{num(y)}" font-size="{num(size)}" '
                          f'text-anchor="{anchor}"{w}>{text_escape(words)}</text>')

    def rect(self, x: float, y: float, w: float, h: float, cls: str, rx: float = 3) -> None:
        self.parts.append(f'<rect class={attr(cls)} x="{num(x)}" y="{num(y)}" width="{num(w)}" height="{num(h)}" '
                          f'rx="{num(rx)}"/>')

    def circle(self, x: float, y: float, r: float, cls: str) -> None:
        self.parts.append(f'<circle class={attr(cls)} cx="{num(x)}" cy="{num(y)}" r="{num(r)}"/>')

    def line(self, points: list[tuple[float, float]], cls: str) -> None:
        d = " ".join(f"{'M' if i == 0 else 'L'}{num(x)} {num(y)}" for i, (x, y) in enumerate(points))
        self.parts.append(f'<path class={attr(cls)} d="{d}"/>')

    def suit(self, suit: str, x: float, y: float, size: float) -> None:
        """The suit's glyph, its top left corner at (x, y), ``size`` across."""
        if suit not in SUIT_PATHS:
            return
        self.suits.add(suit)
        self.parts.append(f'<use href="#{self.prefix}-suit-{suit}" class="st-suit st-suit-{suit}" '
                          f'x="{num(x)}" y="{num(y)}" width="{num(size)}" height="{num(size)}"/>')

    def card(self, x: float, y: float, rank: str, suits: tuple[str, ...] | list[str], name: str, w: float = CARD_W,
             h: float = CARD_H, cls: str = "") -> None:
        """A card face up: the rank in its corner, its suits, its name in text below them."""
        extra = f" {cls}" if cls else ""
        self.parts.append(f'<g class="st-card-group{extra}">')
        self.rect(x, y, w, h, "st-card", rx=5)
        corner = max(8.0, w * 0.17)
        self.text(x + 4, y + corner + 1, short_rank(rank), size=corner, cls="st-text st-rank")
        suits = list(suits)
        if suits:
            size = min(w * 0.34, (w - 8) / max(1, len(suits)))
            top = y + h * 0.26
            left = x + (w - size * len(suits)) / 2
            for i, s in enumerate(suits):
                self.suit(s, left + i * size, top, size * 0.92)
        lines = wrap(name, max(6, int(w / 5.2)))[:3]
        size = max(6.0, min(8.5, w * 0.135))
        base = y + h - 4 - (len(lines) - 1) * (size + 1)
        for i, words in enumerate(lines):
            self.text(x + w / 2, base + i * (size + 1), words, size=size, cls="st-text st-name", anchor="middle")
        self.parts.append("</g>")

    def back(self, x: float, y: float, w: float = CARD_W, h: float = CARD_H, count: int | None = None) -> None:
        """A face-down card (with ``count`` written on it: the cards under it, a deck's size)."""
        self.backs = True
        self.parts.append('<g class="st-card-group st-face-down">')
        self.rect(x, y, w, h, "st-card-back", rx=5)
        self.parts.append(f'<use href="#{self.prefix}-back" x="{num(x)}" y="{num(y)}" width="{num(w)}" '
                          f'height="{num(h)}"/>')
        if count is not None:
            self.rect(x + w / 2 - 11, y + h / 2 - 8, 22, 16, "st-card", rx=3)
            self.text(x + w / 2, y + h / 2 + 4, str(count), size=10, cls="st-text", anchor="middle", weight="700")
        self.parts.append("</g>")

    def slot(self, x: float, y: float, w: float = CARD_W, h: float = CARD_H, label: str = "") -> None:
        """An empty place where a card may come."""
        self.rect(x, y, w, h, "st-slot", rx=5)
        if label:
            self.text(x + w / 2, y + h / 2 + 3, label, size=8, cls="st-text st-muted", anchor="middle")

    def die(self, x: float, y: float, value: int, size: float = 20) -> None:
        """A six-sided die showing ``value``."""
        self.rect(x, y, size, size, "st-die", rx=size * 0.18)
        spots = {1: [(1, 1)], 2: [(0, 0), (2, 2)], 3: [(0, 0), (1, 1), (2, 2)], 4: [(0, 0), (2, 0), (0, 2), (2, 2)],
                 5: [(0, 0), (2, 0), (1, 1), (0, 2), (2, 2)], 6: [(0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2)]}
        step = size / 4
        for cx, cy in spots.get(value, []):
            self.circle(x + step * (cx + 1), y + step * (cy + 1), size * 0.08, "st-pip")

    # -- the document ------------------------------------------------------------------------

    def svg(self) -> str:
        p = self.prefix
        defs = []
        for s in sorted(self.suits):
            defs.append(f'<symbol id="{p}-suit-{s}" viewBox="0 0 100 100"><path d="{SUIT_PATHS[s]}"/></symbol>')
        if self.backs:
            defs.append(f'<symbol id="{p}-back" viewBox="0 0 60 84"><rect class="st-card-back-mark" x="6" y="6" '
                        'width="48" height="72" rx="3"/>'
                        '<path class="st-card-back-mark" d="M6 6 L54 78 M54 6 L6 78"/></symbol>')
        css = STYLE + ("\n" + self.css if self.css else "")
        head = (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {num(self.width)} {num(self.height)}" '
                f'width="{num(self.width)}" height="{num(self.height)}" role="img" '
                f'aria-labelledby="{p}-title {p}-desc" class="st-picture">')
        return "\n".join([
            head,
            f'<title id="{p}-title">{text_escape(self.title)}</title>',
            f'<desc id="{p}-desc">{text_escape(self.desc)}</desc>',
            f"<style>{css}</style>",
            "<defs>" + "".join(defs) + "</defs>",
            *self.parts,
            "</svg>",
        ]) + "\n"

    def picture(self) -> Picture:
        return Picture(self.svg(), self.title, self.desc, self.width, self.height)


def short_rank(rank: str) -> str:
    """A rank as a card's corner shows it: K, Q, J, A, 10...; a Decktet Crown, Pawn or Court as
    its first letter; a Joker as a star."""
    return {"King": "K", "Queen": "Q", "Jack": "J", "Ace": "A", "Crown": "C", "Pawn": "P", "Court": "Ct",
            "Joker": "*", "": ""}.get(rank, rank)


def card_of(card_id: str) -> tuple[str, tuple[str, ...], str]:
    """(rank, suits, name with a capital) of a card of any deck, for :meth:`Drawing.card`."""
    from storyteller.core.cards import all_cards
    from storyteller.play.table import card_name

    c = all_cards().get(card_id)
    if c is None:
        return "", (), card_id
    name = card_name(card_id)
    return c.rank, tuple(c.suits), name[:1].upper() + name[1:]


# -- the win chance over a game (storyteller analyse) ----------------------------------------

CHART_CSS = """
.st-chart-area { fill: #e8e2d6; stroke: none; }
.st-chart-line { fill: none; stroke: #7a4a12; stroke-width: 2; }
.st-chart-grid { fill: none; stroke: #c9c0b2; stroke-width: 1; stroke-dasharray: 3 3; }
.st-chart-mark { fill: #b3261e; }
@media (prefers-color-scheme: dark) {
  .st-chart-area { fill: #3a3631; } .st-chart-line { stroke: #e0a36a; } .st-chart-grid { stroke: #5a544c; }
  .st-chart-mark { fill: #f2877e; }
}
@media print { .st-chart-area { fill: #e6e6e6; } .st-chart-line { stroke: #000000; } .st-chart-mark { fill: #000000; } }
""".strip()
CHART_LETTERS = {"fatal": "F", "blunder": "B", "mistake": "M", "inaccuracy": "i"}


def chance_chart(start: float, points: list[tuple[int, float, str | None]], title: str, prefix: str = "chart",
                 width: float = 640, height: float = 220) -> Picture:
    """The chance to win over a game: ``points`` are (step, chance after it, a decision's
    label or None), in order, after ``start``. A letter marks each labelled decision (B
    blunder, M mistake, i inaccuracy, F fatal); the words say the same for a screen reader."""
    left, right, top, bottom = 44.0, 12.0, 14.0, 34.0
    inner_w, inner_h = width - left - right, height - top - bottom
    values = [start] + [v for _, v, _ in points]
    steps = [points[0][0] - 1 if points else 0] + [n for n, _, _ in points]
    first, last = steps[0], max(steps[-1], steps[0] + 1)

    def at(n: float, v: float) -> tuple[float, float]:
        return left + inner_w * (n - first) / (last - first), top + inner_h * (1 - v)

    marked = [(n, v, lb) for n, v, lb in points if lb]
    words = [f"The chance to win starts at {start * 100:.0f}%"]
    if values:
        low = min(range(len(values)), key=lambda i: values[i])
        high = max(range(len(values)), key=lambda i: values[i])
        words.append(f"is highest ({values[high] * 100:.0f}%) at step {steps[high]} and lowest "
                     f"({values[low] * 100:.0f}%) at step {steps[low]}")
        words.append(f"and ends at {values[-1] * 100:.0f}%")
    desc = ", ".join(words) + "."
    if marked:
        named = {"inaccuracy": "an inaccuracy", "fatal": "a fatal move"}
        desc += " " + " ".join(f"Step {n}: {named.get(lb, 'a ' + lb)} (the chance after it {v * 100:.0f}%)."
                               for n, v, lb in marked)
    d = Drawing(width, height, title, desc, prefix=prefix, css=CHART_CSS)
    for v in (0.0, 0.5, 1.0):
        x0, y = at(first, v)
        d.line([(x0, y), (left + inner_w, y)], "st-chart-grid")
        d.text(left - 6, y + 3.5, f"{v * 100:.0f}%", size=10, cls="st-text st-muted", anchor="end")
    line = [at(n, v) for n, v in zip(steps, values)]
    stepped: list[tuple[float, float]] = []
    for i, (x, y) in enumerate(line):  # a value holds until the next step changes it
        if i:
            stepped.append((x, stepped[-1][1]))
        stepped.append((x, y))
    base = top + inner_h
    area = [(stepped[0][0], base)] + stepped + [(stepped[-1][0], base)]
    d.add('<path class="st-chart-area" d="' + " ".join(f"{'M' if i == 0 else 'L'}{num(x)} {num(y)}"
                                                          for i, (x, y) in enumerate(area)) + ' Z"/>')
    d.line(stepped, "st-chart-line")
    before = dict(zip(steps[1:], values))  # the value each step started from
    for n, v, lb in marked:
        x, y = at(n, v)
        d.circle(x, y, 4, "st-chart-mark")
        above = min(y, at(n, before.get(n, v))[1])  # the letter clear of the line on either side
        d.text(x, above - 7, CHART_LETTERS.get(lb or "", ""), size=10, cls="st-text", anchor="middle", weight="700")
    d.text(left, height - 10, f"step {first}", size=10, cls="st-text st-muted")
    d.text(left + inner_w, height - 10, f"step {steps[-1]}", size=10, cls="st-text st-muted", anchor="end")
    return d.picture()


# -- marks and ghosts (issue 29, scenes) -----------------------------------------------------
#
# A picture of a turning point shows what its step changed, as python-chess's ``chess.svg``
# shows the last move: the card just revealed, taken, bought or placed has a mark (a thick
# ring, and a word in a tag: never colour alone), and what the step removed leaves a ghost
# where it lay (its outline dashed, its rank, suits and name in a muted ink that still
# stands 4.5:1 on the page) with a word of why: "eliminated", "spent", "thwarted".

MARKS_CSS = """
.st-now { fill: none; stroke: #1d5fa8; stroke-width: 3.5; } .st-now-thin { stroke-width: 2.5; }
.st-now-tag { fill: #1d5fa8; } .st-now-word { fill: #ffffff; font-weight: 700; }
.st-now-line { fill: none; stroke: #1d5fa8; stroke-width: 2.5; }
.st-now-head { fill: #1d5fa8; }
.st-ghost-card { fill: none; stroke: #6b6257; stroke-width: 1.5; stroke-dasharray: 5 3; }
.st-ghost .st-ghost-ink { fill: #6b6257; }
.st-ghost .st-suit { fill: #6b6257; stroke: #6b6257; }
.st-ghost-tag { fill: #fbf8f1; stroke: #6b6257; stroke-width: 1.2; }
.st-ghost-word { fill: #4f473e; font-weight: 700; font-style: italic; }
@media (prefers-color-scheme: dark) {
  .st-now, .st-now-line { stroke: #8cc4ff; } .st-now-tag, .st-now-head { fill: #8cc4ff; }
  .st-now-word { fill: #1f1c19; }
  .st-ghost-card { stroke: #a39a8c; }
  .st-ghost .st-ghost-ink { fill: #b3aa9c; }
  .st-ghost .st-suit { fill: #b3aa9c; stroke: #b3aa9c; }
  .st-ghost-tag { fill: #1f1c19; stroke: #b3aa9c; } .st-ghost-word { fill: #d8d0c2; }
}
@media print {
  .st-now, .st-now-line { stroke: #000000; } .st-now-tag, .st-now-head { fill: #000000; }
  .st-now-word { fill: #ffffff; }
  .st-ghost-card { stroke: #555555; } .st-ghost .st-ghost-ink { fill: #555555; }
  .st-ghost .st-suit { fill: #555555; stroke: #555555; }
  .st-ghost-tag { fill: #ffffff; stroke: #555555; } .st-ghost-word { fill: #333333; }
}
""".strip()


def _marks(d: Drawing) -> None:
    """The marks' style, once in the picture that uses them."""
    if MARKS_CSS not in d.css:
        d.css = d.css + "\n" + MARKS_CSS if d.css else MARKS_CSS


def word_width(words: str, size: float) -> float:
    """About how wide ``words`` are at ``size`` (a generous estimate for a sans-serif face,
    bold included)."""
    return len(words) * size * 0.62


def tag(d: Drawing, cx: float, y: float, words: str, size: float, ghost: bool = False) -> float:
    """``words`` in a rounded tag centred on ``cx``, its top at ``y``; returns its bottom. A
    mark's tag is filled (white words on the mark's colour), a ghost's is outlined."""
    _marks(d)
    w, h = mark_width(words, size), size * 1.55
    d.rect(cx - w / 2, y, w, h, "st-ghost-tag" if ghost else "st-now-tag", rx=h / 2)
    d.text(cx, y + h * 0.72, words, size=size, cls="st-text " + ("st-ghost-word" if ghost else "st-now-word"),
           anchor="middle")
    return y + h


def mark(d: Drawing, x: float, y: float, w: float, h: float, words: str = "", size: float = 9.0,
         side: str = "below", pad: float = 3.5) -> None:
    """What just changed: a thick ring ``pad`` outside the box (a card, a die, a token) at
    (x, y), and ``words`` in a tag on one ``side`` of it: "below", "above" or "right"."""
    _marks(d)
    d.add('<g class="st-now-group">')
    d.rect(x - pad, y - pad, w + 2 * pad, h + 2 * pad, "st-now", rx=4 + pad)
    if words:
        if side == "right":
            tag(d, x + w + pad + 6 + mark_width(words, size) / 2, y + h / 2 - size * 0.78, words, size)
        else:
            tag(d, x + w / 2, y - pad - 2 - size * 1.55 if side == "above" else y + h + pad + 2, words, size)
    d.add("</g>")


def mark_width(words: str, size: float) -> float:
    """How wide a mark's tag of ``words`` is."""
    return word_width(words, size) + size


def ring(d: Drawing, cx: float, cy: float, r: float) -> None:
    """The mark of what just changed around a round thing (a token, a step of a path): a ring
    a little thinner than a card's, close to it."""
    _marks(d)
    d.circle(cx, cy, r + 2.5, "st-now st-now-thin")


def arrow(d: Drawing, points: list[tuple[float, float]], head: float = 7.0) -> None:
    """A move drawn in the mark's colour: a line through ``points`` with a head at the last."""
    _marks(d)
    d.line(points, "st-now-line")
    (x0, y0), (x1, y1) = points[-2], points[-1]
    length = max(1e-6, ((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5)
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    bx, by = x1 - ux * head, y1 - uy * head
    d.add(f'<path class="st-now-head" d="M{num(x1)} {num(y1)} L{num(bx - uy * head * 0.55)} '
          f'{num(by + ux * head * 0.55)} L{num(bx + uy * head * 0.55)} {num(by - ux * head * 0.55)} Z"/>')


def ghost(d: Drawing, x: float, y: float, card_id: str, why: str, w: float = CARD_W, h: float = CARD_H,
          size: float = 8.5) -> None:
    """What was removed, where it lay: the card's outline dashed, its rank, suits and name in
    a muted ink, and ``why`` ("eliminated", "spent") in a tag across it."""
    _marks(d)
    rank, suits, name = card_of(card_id)
    d.add('<g class="st-ghost">')
    d.rect(x, y, w, h, "st-ghost-card", rx=5)
    corner = max(size, w * 0.17)
    d.text(x + 4, y + corner + 1, short_rank(rank), size=corner, cls="st-text st-ghost-ink st-rank")
    if suits:
        glyph = min(w * 0.26, (w - 8) / max(1, len(suits)))
        left = x + w - 4 - glyph * len(suits)
        for i, s in enumerate(suits):
            d.suit(s, left + i * glyph, y + 4, glyph * 0.92)
    lines = wrap(name, max(4, int((w - 4) / (size * 0.58))))[:3]
    base = y + h - 4 - (len(lines) - 1) * (size + 1)
    for i, words in enumerate(lines):
        d.text(x + w / 2, base + i * (size + 1), words, size=size, cls="st-text st-ghost-ink st-ghost-name",
               anchor="middle")
    top = y + corner + 6
    room = base - size - 2 - top  # between the corner and the name
    word = min(size, (w + 6) / (len(why) * 0.62 + 1))
    tag(d, x + w / 2, top + max(0.0, (room - word * 1.55) / 2), why, word, ghost=True)
    d.add("</g>")

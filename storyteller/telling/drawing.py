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

import math
from dataclasses import dataclass
from xml.sax.saxutils import escape, quoteattr

CARD_W, CARD_H = 60, 84  # a card's size in the pictures' units (about a poker card's shape)

# -- legible on paper and on a screen (issue 29) -----------------------------------------------
#
# A picture is shown across the page's text column: about 700 px on a screen 800 px wide, and
# 122 mm (A5 less its 13 mm margins: 345.8 pt) on the smallest paper. So a picture's units have
# a size on paper that depends only on its width, and the smallest word it may hold follows:
# 6.5 pt on A5 (which is over 11 px on the 800-px screen). ``Drawing.text`` writes nothing
# smaller than that; card faces are laid out for it.
COLUMN_PT = 345.8  # the A5 page's text column, in points: 148 mm less 2 x 13 mm margins
LEAST_PT = 6.5  # the smallest word in print


def least(width: float) -> float:
    """The smallest text size, in its own units, of a picture ``width`` units wide: 6.5 pt
    when the picture fills an A5 text column (rounded up to a tenth)."""
    return math.ceil(LEAST_PT * width / COLUMN_PT * 10) / 10


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
    # a serpent's head (an eye through it) and forked tongue; its body is a line (SUIT_LINES)
    "Wyrms": "M62 10 C70 3 86 4 92 12 C96 18 92 26 84 28 C76 30 66 28 62 22 C60 18 60 13 62 10 Z "
             "M78 12 A3.5 3.5 0 1 0 78.1 12 Z M93 14 L99 9 L100 11 L95 16 L100 20 L98 22 Z",
    # a knot: a trefoil, its one line crossing itself three times (SUIT_LINES)
    "Knots": "",
}
# Glyphs drawn as a thick line (fill none, the suit's colour as stroke), on the same grid.
SUIT_LINES: dict[str, tuple[str, float]] = {
    "Wyrms": ("M66 22 C48 14 22 20 24 38 C26 56 72 46 74 66 C76 86 46 94 26 86 C18 83 12 78 8 72", 10.0),
    "Knots": ("M50 42 L62 44 L74 48 L82 55 L88 63 L90 71 L88 79 L82 84 L74 87 L64 86 L54 82 L45 74 L37 64 "
              "L33 53 L31 41 L32 30 L36 21 L43 15 L50 14 L57 15 L64 21 L68 30 L69 41 L67 53 L63 64 L55 74 "
              "L46 82 L36 86 L26 87 L18 84 L12 79 L10 71 L12 63 L18 55 L26 48 L38 44 Z", 10.0),
}
PIQUET = ("Hearts", "Diamonds", "Spades", "Clovers")
SQUEEZE = 0.78  # how much narrower than its face a line may be set to stay inside its card
SQUEEZE_WORD = 0.64  # and one long word alone, before it is broken
# Where a real piquet card puts its pips, on a grid 0..1 wide and tall (rows read down).
PIPS: dict[str, list[tuple[float, float]]] = {
    "2": [(0.5, 0), (0.5, 1)],
    "3": [(0.5, 0), (0.5, 0.5), (0.5, 1)],
    "4": [(0, 0), (1, 0), (0, 1), (1, 1)],
    "5": [(0, 0), (1, 0), (0.5, 0.5), (0, 1), (1, 1)],
    "6": [(0, 0), (1, 0), (0, 0.5), (1, 0.5), (0, 1), (1, 1)],
    "7": [(0, 0), (1, 0), (0.5, 0.25), (0, 0.5), (1, 0.5), (0, 1), (1, 1)],
    "8": [(0, 0), (1, 0), (0.5, 0.25), (0, 0.5), (1, 0.5), (0.5, 0.75), (0, 1), (1, 1)],
    "9": [(0, 0), (1, 0), (0, 1 / 3), (1, 1 / 3), (0.5, 0.5), (0, 2 / 3), (1, 2 / 3), (0, 1), (1, 1)],
    "10": [(0, 0), (1, 0), (0.5, 1 / 6), (0, 1 / 3), (1, 1 / 3), (0, 2 / 3), (1, 2 / 3), (0.5, 5 / 6), (0, 1),
           (1, 1)],
}

# Colours: each graphic stands at least 3:1 against what it is drawn on, and text 4.5:1
# (tests/test_html.py checks them). Card faces and dice stay light in dark mode, as real
# ones are: what is drawn on them keeps its light-mode colour.
STYLE = """
.st-bg { fill: #fbf8f1; }
.st-text { fill: #2b2620; font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
.st-muted { fill: #5e564c; }
.st-card { fill: #ffffff; stroke: #3a342c; stroke-width: 1.2; }
.st-card-back { fill: #3b5a7a; stroke: #22374d; stroke-width: 1.2; }
.st-card-back-mark { fill: none; stroke: #a9c0d6; stroke-width: 1; }
.st-slot { fill: none; stroke: #7a7166; stroke-width: 1.2; stroke-dasharray: 4 3; }
.st-rank { font-weight: 700; }
.st-suit { fill: #2b2620; stroke: #2b2620; }
.st-suit-Hearts, .st-suit-Diamonds { fill: #b3261e; stroke: #b3261e; }
.st-suit-Moons { fill: #5b3f8c; stroke: #5b3f8c; } .st-suit-Suns { fill: #8a5f00; stroke: #8a5f00; }
.st-suit-Waves { fill: #1f5f99; stroke: #1f5f99; } .st-suit-Leaves { fill: #2e6b2e; stroke: #2e6b2e; }
.st-suit-Wyrms { fill: #9b2c1d; stroke: #9b2c1d; } .st-suit-Knots { fill: #7a4210; stroke: #7a4210; }
.st-mark { fill: #2b2620; }
.st-path { fill: none; stroke: #7a5c2e; stroke-width: 2.5; stroke-dasharray: 6 4; }
.st-step { fill: #7a5c2e; } .st-step-text { fill: #ffffff; font-weight: 700; }
.st-taken { stroke: #2e6b2e; stroke-width: 3; }
.st-danger { fill: #b3261e; } .st-ok { fill: #2e6b2e; }
.st-track { fill: #e8e2d6; stroke: #7a7166; stroke-width: 1; }
.st-die { fill: #ffffff; stroke: #3a342c; stroke-width: 1.2; } .st-pip { fill: #2b2620; }
.st-faded .st-suit { fill: #7a7166; stroke: #7a7166; }
.st-spent .st-die { fill: #ece6da; stroke: #7a7166; stroke-dasharray: 3 2; } .st-spent .st-pip { fill: #6b6257; }
@media (prefers-color-scheme: dark) {
  .st-bg { fill: #1f1c19; }
  .st-text { fill: #ece6da; } .st-muted { fill: #bcb3a5; }
  .st-card { fill: #fbf8f1; stroke: #d8d0c2; }
  .st-card-group .st-text, .st-on-card { fill: #2b2620; }
  .st-card-back { fill: #2f4a66; stroke: #a9c0d6; }
  .st-slot { stroke: #9a9184; }
  .st-suit { fill: #ece6da; stroke: #ece6da; }
  .st-suit-Hearts, .st-suit-Diamonds { fill: #f2877e; stroke: #f2877e; }
  .st-suit-Moons { fill: #b9a2e6; stroke: #b9a2e6; } .st-suit-Suns { fill: #e6b94a; stroke: #e6b94a; }
  .st-suit-Waves { fill: #7fb6ea; stroke: #7fb6ea; } .st-suit-Leaves { fill: #8fce8f; stroke: #8fce8f; }
  .st-suit-Wyrms { fill: #f28b74; stroke: #f28b74; } .st-suit-Knots { fill: #e0a36a; stroke: #e0a36a; }
  .st-card-group .st-suit { fill: #2b2620; stroke: #2b2620; }
  .st-card-group .st-suit-Hearts, .st-card-group .st-suit-Diamonds { fill: #b3261e; stroke: #b3261e; }
  .st-card-group .st-suit-Moons { fill: #5b3f8c; stroke: #5b3f8c; }
  .st-card-group .st-suit-Suns { fill: #8a5f00; stroke: #8a5f00; }
  .st-card-group .st-suit-Waves { fill: #1f5f99; stroke: #1f5f99; }
  .st-card-group .st-suit-Leaves { fill: #2e6b2e; stroke: #2e6b2e; }
  .st-card-group .st-suit-Wyrms { fill: #9b2c1d; stroke: #9b2c1d; }
  .st-card-group .st-suit-Knots { fill: #7a4210; stroke: #7a4210; }
  .st-mark { fill: #ece6da; } .st-path { stroke: #d8b06a; } .st-step { fill: #d8b06a; } .st-step-text { fill: #1f1c19; }
  .st-track { fill: #3a3631; stroke: #9a9184; }
  .st-die { fill: #fbf8f1; stroke: #d8d0c2; } .st-pip { fill: #2b2620; }
  .st-faded .st-suit { fill: #9a9184; stroke: #9a9184; }
  .st-spent .st-die { fill: #3a3631; stroke: #9a9184; } .st-spent .st-pip { fill: #bcb3a5; }
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


def text_width(text: str, size: float) -> float:
    """About how wide ``text`` is at ``size`` in a sans-serif face (a generous estimate: the
    wide faces, DejaVu Sans among them, fit inside it)."""
    wide = sum(1 for c in text if c.isupper() or c in "mwMW@%")
    narrow = sum(1 for c in text if c in "il.,:;'|!()[]1 ")
    return size * (0.6 * (len(text) - wide - narrow) + 0.78 * wide + 0.34 * narrow)


def fit(text: str, width: float, size: float, longest: float | None = None) -> list[str]:
    """Words in lines no wider than ``width`` at ``size``; a word alone wider than
    ``longest`` (``width`` unless given) is broken, with a hyphen."""
    lines: list[str] = []
    longest = width if longest is None else longest
    for word in str(text).split():
        while text_width(word, size) > longest and len(word) > 3:
            cut = len(word) - 1
            while cut > 2 and text_width(word[:cut] + "-", size) > width:
                cut -= 1
            if lines and text_width(lines[-1] + " " + word[:cut] + "-", size) <= width:
                lines[-1] += " " + word[:cut] + "-"
            else:
                lines.append(word[:cut] + "-")
            word = word[cut:]
        if lines and not lines[-1].endswith("-") and text_width(lines[-1] + " " + word, size) <= width:
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
        self.least = least(width)  # the smallest text this picture writes, in its units
        if background:
            self.parts.append(f'<rect class="st-bg" x="0" y="0" width="{num(width)}" height="{num(height)}" rx="8"/>')

    # -- pieces ---------------------------------------------------------------------------

    def add(self, element: str) -> None:
        self.parts.append(element)

    def text(self, x: float, y: float, words: str, size: float = 10, cls: str = "st-text", anchor: str = "start",
             weight: str | None = None, within: float | None = None) -> None:
        """Words with their baseline at ``y``; never smaller than the picture's least size.
        ``within``: the room they have across; words that would be wider are set a little
        narrower (their letters' height kept) to stay inside it."""
        size = max(size, self.least)
        w = f' font-weight="{weight}"' if weight else ""
        if within is not None and text_width(words, size) > within:
            w += f' textLength="{num(within)}" lengthAdjust="spacingAndGlyphs"'
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

    def suit(self, suit: str, x: float, y: float, size: float, turned: bool = False) -> None:
        """The suit's glyph, its top left corner at (x, y), ``size`` across (``turned``: upside
        down, as the lower pips of a real card)."""
        if suit not in SUIT_PATHS:
            return
        self.suits.add(suit)
        turn = f' transform="rotate(180 {num(x + size / 2)} {num(y + size / 2)})"' if turned else ""
        self.parts.append(f'<use href="#{self.prefix}-suit-{suit}" class="st-suit st-suit-{suit}" '
                          f'x="{num(x)}" y="{num(y)}" width="{num(size)}" height="{num(size)}"{turn}/>')

    def card(self, x: float, y: float, rank: str, suits: tuple[str, ...] | list[str], name: str, w: float = CARD_W,
             h: float = CARD_H, cls: str = "") -> None:
        """A card face up, as the deck prints it. Its index in the top left corner: the rank,
        and under it the suits stacked. A piquet card then shows its pips laid out as a real
        card's (a court card its letter, large), and needs no name; a Decktet card its suits
        large, and its name below them, wrapped to stay inside the card at any size."""
        extra = f" {cls}" if cls else ""
        self.parts.append(f'<g class="st-card-group{extra}"><title>{text_escape(name)}</title>')
        self.rect(x, y, w, h, "st-card", rx=min(5.0, w * 0.09))
        suits = list(suits)
        piquet = bool(suits) and all(s in PIQUET for s in suits)
        index = max(self.least, min(w * 0.24, 16.0))
        short = short_rank(rank)
        self.text(x + 3, y + 2 + index * 0.82, short, size=index, cls="st-text st-rank st-index")
        glyph = max(index * 0.82, 6.0)
        column = max(glyph, len(short) * index * 0.62)
        gy = y + 4 + index
        for s in suits:
            self.suit(s, x + 3 + (column - glyph) / 2, gy, glyph)
            gy += glyph + 1
        if piquet:
            self._pips(x, y, w, h, rank, suits[0], 3 + column + 2)
        elif name:
            self._name(x, y, w, h, name, suits, top=y + 4 + index, corner=3 + column + 2, below=gy)
        self.parts.append("</g>")

    def _pips(self, x: float, y: float, w: float, h: float, rank: str, suit: str, inset: float) -> None:
        """A piquet card's middle: its pips where a real card has them, or a court card's
        letter, large, beside its suit, or an Ace's one pip, large."""
        left, right, top, bottom = x + inset, x + w - 4, y + h * 0.1, y + h * 0.9
        short = short_rank(rank)
        if short in PIPS:
            spots = PIPS[short]
            pip = max(4.0, min((right - left) / 2.6, (bottom - top) / 4.6))
            span_x, span_y = right - left - pip, bottom - top - pip
            for px, py in spots:
                self.suit(suit, left + px * span_x, top + py * span_y, pip, turned=py > 0.5)
        elif short == "A":
            size = min(right - left, bottom - top) * 0.8
            self.suit(suit, x + (w - size) / 2, y + (h - size) / 2, size)
        else:  # King, Queen, Jack: the letter, large, over the suit
            size = min(right - left, (bottom - top) * 0.55)
            big = max(self.least, size * 1.05)
            middle = (left + right) / 2
            self.text(middle, top + big * 0.85, short, size=big, cls="st-text st-rank st-court", anchor="middle")
            glyph = min(size * 0.7, bottom - top - big - 2)
            if glyph > 3:
                self.suit(suit, middle - glyph / 2, bottom - glyph, glyph)

    def _name(self, x: float, y: float, w: float, h: float, name: str, suits: list[str], top: float,
              corner: float, below: float) -> None:
        """A Decktet card's name at its foot, wrapped (a long word broken with a hyphen) so that
        every line stays inside the card; its suits large above it where there is room."""
        size = max(self.least, min(w * 0.15, 10.0))
        room = w - 5
        lines = fit(name, room / SQUEEZE, size, room / SQUEEZE_WORD)  # a line a little too wide is set narrower
        if len(lines) > 2 and name.startswith("The "):  # a narrow card: "Huntress" says it
            lines = fit(name[4:], room / SQUEEZE, size, room / SQUEEZE_WORD)
        line_h = size * 1.12
        most = max(1, int((h - (top - y) - 4) // line_h))  # below the index, at the most
        if len(lines) > most:
            lines = lines[:most]
            lines[-1] = lines[-1].rstrip("-") + "…"
        base = y + h - 3.5 - size * 0.22 - (len(lines) - 1) * line_h
        for i, words in enumerate(lines):
            self.text(x + w / 2, base + i * line_h, words, size=size, cls="st-text st-name", anchor="middle",
                      within=room)
        room_top, room_bottom = top, base - size - 2
        room_w = w - corner - 3
        if suits and room_bottom - room_top > 8 and room_w > 8:
            glyph = min(room_w / len(suits), room_bottom - room_top, w * 0.34)
            left = x + corner + (room_w - glyph * len(suits)) / 2
            for i, s in enumerate(suits):
                self.suit(s, left + i * glyph, room_top + (room_bottom - room_top - glyph) / 2, glyph * 0.92)

    def back(self, x: float, y: float, w: float = CARD_W, h: float = CARD_H, count: int | None = None) -> None:
        """A face-down card (with ``count`` written on it: the cards under it, a deck's size)."""
        self.backs = True
        self.parts.append('<g class="st-card-group st-face-down">')
        self.rect(x, y, w, h, "st-card-back", rx=min(5.0, w * 0.09))
        self.parts.append(f'<use href="#{self.prefix}-back" x="{num(x)}" y="{num(y)}" width="{num(w)}" '
                          f'height="{num(h)}"/>')
        if count is not None:
            size = max(10.0, self.least)
            bw, bh = size * (0.9 + 0.62 * len(str(count))), size * 1.5
            self.rect(x + w / 2 - bw / 2, y + h / 2 - bh / 2, bw, bh, "st-card", rx=3)
            self.text(x + w / 2, y + h / 2 + size * 0.36, str(count), size=size, cls="st-text st-on-card",
                      anchor="middle", weight="700")
        self.parts.append("</g>")

    def slot(self, x: float, y: float, w: float = CARD_W, h: float = CARD_H, label: str = "") -> None:
        """An empty place where a card may come."""
        self.rect(x, y, w, h, "st-slot", rx=min(5.0, w * 0.09))
        if label:
            size = max(8.0, self.least)
            lines = fit(label, w - 4, size)
            first = y + h / 2 + size * 0.36 - (len(lines) - 1) * size * 0.56
            for i, words in enumerate(lines):
                self.text(x + w / 2, first + i * size * 1.12, words, size=size, cls="st-text st-muted",
                          anchor="middle")

    def die(self, x: float, y: float, value: int, size: float = 20, spent: bool = False) -> None:
        """A six-sided die showing ``value`` (``spent``: used this turn, drawn paler and dashed,
        its pips still plain)."""
        if spent:
            self.parts.append('<g class="st-spent">')
        self.rect(x, y, size, size, "st-die", rx=size * 0.18)
        spots = {1: [(1, 1)], 2: [(0, 0), (2, 2)], 3: [(0, 0), (1, 1), (2, 2)], 4: [(0, 0), (2, 0), (0, 2), (2, 2)],
                 5: [(0, 0), (2, 0), (1, 1), (0, 2), (2, 2)], 6: [(0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2)]}
        step = size / 4
        for cx, cy in spots.get(value, []):
            self.circle(x + step * (cx + 1), y + step * (cy + 1), size * 0.08, "st-pip")
        if spent:
            self.parts.append("</g>")

    # -- the document ------------------------------------------------------------------------

    def svg(self) -> str:
        p = self.prefix
        defs = []
        for s in sorted(self.suits):
            body = f'<path stroke="none" d="{SUIT_PATHS[s]}"/>' if SUIT_PATHS[s] else ""
            if s in SUIT_LINES:
                d, width = SUIT_LINES[s]
                body = (f'<path fill="none" stroke-width="{num(width)}" stroke-linecap="round" '
                        f'stroke-linejoin="round" d="{d}"/>') + body
            defs.append(f'<symbol id="{p}-suit-{s}" viewBox="0 0 100 100">{body}</symbol>')
        if self.backs:
            defs.append(f'<symbol id="{p}-back" viewBox="0 0 60 84"><rect class="st-card-back-mark" x="6" y="6" '
                        'width="48" height="72" rx="3"/>'
                        '<path class="st-card-back-mark" d="M6 6 L54 78 M54 6 L6 78"/></symbol>')
        css = STYLE + ("\n" + self.css if self.css else "")
        head = (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {num(self.width)} {num(self.height)}" '
                f'width="{num(self.width)}" height="{num(self.height)}" role="img" '
                f'aria-labelledby="{p}-title" class="st-picture">')
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
.st-ghost-card { fill: none; stroke: #6b6257; stroke-width: 1.5; stroke-dasharray: 5 3; }
.st-ghost .st-ghost-ink { fill: #6b6257; }
.st-ghost .st-suit { fill: #6b6257; stroke: #6b6257; }
.st-ghost-tag { fill: #fbf8f1; stroke: #6b6257; stroke-width: 1.2; }
.st-ghost-word { fill: #4f473e; font-weight: 700; font-style: italic; }
@media (prefers-color-scheme: dark) {
  .st-now { stroke: #8cc4ff; } .st-now-tag { fill: #8cc4ff; }
  .st-now-word { fill: #1f1c19; }
  .st-ghost-card { stroke: #a39a8c; }
  .st-ghost .st-ghost-ink { fill: #b3aa9c; }
  .st-ghost .st-suit { fill: #b3aa9c; stroke: #b3aa9c; }
  .st-ghost-tag { fill: #1f1c19; stroke: #b3aa9c; } .st-ghost-word { fill: #d8d0c2; }
}
@media print {
  .st-now { stroke: #000000; } .st-now-tag { fill: #000000; }
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


def tag(d: Drawing, cx: float, y: float, words: str, size: float, ghost: bool = False,
        within: float | None = None) -> float:
    """``words`` in a rounded tag centred on ``cx``, its top at ``y`` (``within``: at most that
    wide, the words set a little narrower to stay inside); returns its bottom. A mark's tag is
    filled (white words on the mark's colour), a ghost's is outlined."""
    _marks(d)
    size = max(size, d.least)
    w, h = mark_width(words, size), size * 1.55
    if within is not None and w > within:
        w = within
    d.rect(cx - w / 2, y, w, h, "st-ghost-tag" if ghost else "st-now-tag", rx=h / 2)
    d.text(cx, y + h * 0.72, words, size=size, cls="st-text " + ("st-ghost-word" if ghost else "st-now-word"),
           anchor="middle", within=w - size * 0.6)
    return y + h


def mark(d: Drawing, x: float, y: float, w: float, h: float, words: str = "", size: float = 9.0,
         side: str = "below", pad: float = 3.5) -> None:
    """What just changed: a thick ring ``pad`` outside the box (a card, a die, a token) at
    (x, y), and ``words`` in a tag on one ``side`` of it: "below", "above" or "right"."""
    _marks(d)
    d.add('<g class="st-now-group">')
    d.rect(x - pad, y - pad, w + 2 * pad, h + 2 * pad, "st-now", rx=4 + pad)
    if words:
        size = max(size, d.least)
        if side == "right":
            tag(d, x + w + pad + 6 + mark_width(words, size) / 2, y + h / 2 - size * 0.78, words, size)
        else:
            tag(d, x + w / 2, y - pad - 2 - size * 1.55 if side == "above" else y + h + pad + 2, words, size)
    d.add("</g>")


def mark_width(words: str, size: float) -> float:
    """How wide a mark's tag of ``words`` is."""
    return text_width(words, size) * 1.08 + size  # (its words are bold)


def ring(d: Drawing, cx: float, cy: float, r: float) -> None:
    """The mark of what just changed around a round thing (a token, a step of a path): a ring
    a little thinner than a card's, close to it."""
    _marks(d)
    d.circle(cx, cy, r + 2.5, "st-now st-now-thin")


def ghost(d: Drawing, x: float, y: float, card_id: str, why: str, w: float = CARD_W, h: float = CARD_H,
          size: float = 8.5) -> None:
    """What was removed, where it lay: the card's outline dashed, its rank, suits and name in
    a muted ink, and ``why`` ("eliminated", "spent") in a tag across it."""
    _marks(d)
    rank, suits, name = card_of(card_id)
    size = max(size, d.least)
    d.add(f'<g class="st-ghost"><title>{text_escape(name)}, {text_escape(why)}</title>')
    d.rect(x, y, w, h, "st-ghost-card", rx=min(5.0, w * 0.09))
    d.text(x + 3, y + 2 + size * 0.82, short_rank(rank), size=size, cls="st-text st-ghost-ink st-rank")
    if suits:
        glyph = min(size, (w - 6 - text_width(short_rank(rank), size)) / len(suits))
        left = x + w - 3 - glyph * len(suits)
        for i, s in enumerate(suits):
            d.suit(s, left + i * glyph, y + 3, glyph * 0.92)
    room = w - 5
    lines = fit(name, room / SQUEEZE, size, room / SQUEEZE_WORD)
    if len(lines) > 2 and name.startswith("The "):
        lines = fit(name[4:], room / SQUEEZE, size, room / SQUEEZE_WORD)
    if len(lines) > 2:
        lines = lines[:2]
        lines[-1] = lines[-1].rstrip("-") + "\u2026"
    line_h = size * 1.12
    base = y + h - 3.5 - size * 0.22 - (len(lines) - 1) * line_h
    for i, words in enumerate(lines):
        d.text(x + w / 2, base + i * line_h, words, size=size, cls="st-text st-ghost-ink st-ghost-name",
               anchor="middle", within=room)
    top, bottom = y + 3 + size * 1.05, base - size * 0.9  # between the rank and the name
    tag(d, x + w / 2, top + max(0.0, (bottom - top - size * 1.55) / 2), why, size, ghost=True, within=w + 4)
    d.add("</g>")


def chip_size(words: str, glyphs: int, size: float) -> tuple[float, float]:
    """How wide and tall a ghost's chip of ``words`` with ``glyphs`` suit glyphs is."""
    return size * (0.9 + 1.05 * glyphs) + text_width(words, size) * 1.1 + size * 0.6, size * 1.9  # (bold words)


def ghost_chip(d: Drawing, x: float, y: float, words: str, suits: tuple[str, ...] | list[str], size: float,
               title: str = "") -> float:
    """A ghost in a line of them, where cards no longer lie: a dashed chip holding the suits
    (glyphs) and ``words`` ("the Savage, thwarted"; "a Moons token, spent"); returns its
    width."""
    _marks(d)
    size = max(size, d.least)
    w, h = chip_size(words, len(suits), size)
    d.add(f'<g class="st-ghost"><title>{text_escape(title or words)}</title>')
    d.rect(x, y, w, h, "st-ghost-card", rx=h / 2)
    gx = x + size * 0.6
    for s in suits:
        d.suit(s, gx, y + (h - size) / 2, size)
        gx += size * 1.05
    d.text(gx + size * 0.3, y + h / 2 + size * 0.36, words, size=size, cls="st-text st-ghost-word")
    d.add("</g>")
    return w

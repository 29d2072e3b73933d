"""The templates' filters: plain functions of plain data, the same for every format. They
make text from a log safe where a template puts it (a YAML value, a table cell, a line of
Markdown, a journal entry's paragraphs) and name cards as sentences and notations do; their
reference is ``docs/templates.md``."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from storyteller.core.words import join_and


def yaml_str(value: Any) -> str:
    """A YAML scalar that is always read back as the same text (JSON strings are YAML)."""
    return json.dumps("" if value is None else str(value), ensure_ascii=False)


def yaml_list(values: list[Any]) -> str:
    return "[" + ", ".join(yaml_str(v) for v in values) + "]"


def quote(text: Any) -> str:
    """A Markdown block quote of every line."""
    return "\n".join("> " + line if line else ">" for line in str(text).splitlines())


def code(text: Any) -> str:
    """A CommonMark code span that shows exactly ``text``, backticks included: the fence is
    one backtick longer than the longest run inside, and a space pads each side when the
    text starts or ends with a backtick, or starts and ends with a space (a reader strips
    one space from each side). Line breaks show as spaces, as in any code span."""
    text = str(text)
    if not text:
        return "` `"
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * (longest + 1)
    if text[0] == "`" or text[-1] == "`" or (text[0] == " " and text[-1] == " " and text.strip(" ")):
        text = f" {text} "
    return f"{fence}{text}{fence}"


def cell(text: Any) -> str:
    """Text made safe inside a table cell: a ``|`` is escaped (GitHub-flavoured tables read
    ``\\|`` as ``|``, inside code spans too) and a line break becomes a space."""
    return re.sub(r"\r\n|[\r\n]", " ", str(text)).replace("|", "\\|")


_INLINE_SPECIAL = re.compile(r"([\\`*_\[\]<&~|])")


def inline(text: Any) -> str:
    """Text from a log shown as itself in a line of Markdown: the characters that would
    start emphasis, links, code, HTML, entities or table cells are escaped with a
    backslash, and a line break becomes a space."""
    return _INLINE_SPECIAL.sub(r"\\\1", re.sub(r"\r\n|[\r\n]", " ", str(text)))


def link(name: Any) -> str:
    """A file name as a Markdown link's destination: every character but letters, digits and
    ``-._~`` percent-encoded, so spaces and brackets in a name cannot end the link."""
    from urllib.parse import quote as percent

    return percent(str(name), safe="")


def continuation(text: Any, n: Any) -> str:
    """Text continuing the list item ``n.``: every line but blank ones indented past the
    item's marker (its width, at least 4 spaces), so that it stays inside the item (a
    smaller indent would end the list and make a code block from event 100 on)."""
    pad = " " * max(4, len(f"{n}. "))
    return "\n".join(pad + line if line.strip() else line for line in str(text).splitlines())


_BLOCK_START = re.compile(
    r"^(?:"
    r"#{1,6}(?=[ \t]|$)"  # an ATX heading
    r"|[>|]"  # a block quote, an Obsidian callout, a table row
    r"|[-+*](?=[ \t]|$)"  # a bullet list item
    r"|([-*_])(?:[ \t]*\1){2,}[ \t]*$"  # a thematic break
    r"|[-=:|][-=:| \t]*$"  # a setext underline or a table's delimiter row
    r"|`{3,}|~{3,}"  # a code fence
    r"|<(?=[A-Za-z/!?])"  # an HTML block
    r"|\[[^\]]*\]:"  # a link reference definition
    r")"
)
_ORDERED = re.compile(r"^(\d{1,9})([.)])(?=[ \t]|$)")


def prose(text: Any) -> str:
    """A journal entry as Markdown paragraphs that stay paragraphs, whatever it holds: a line
    that would start a heading, a list, a quote or callout, a table, a fence, a thematic
    break or HTML has that first character escaped, lines lose their indentation (which
    would make code) and trailing spaces, and blank lines between paragraphs become one.
    Emphasis, links and other inline Markdown the player wrote are kept."""
    paragraphs: list[list[str]] = [[]]
    for raw in re.split(r"\r\n|[\r\n]", str(text)):
        row = raw.strip(" \t")
        if not row:
            if paragraphs[-1]:
                paragraphs.append([])
            continue
        ordered = _ORDERED.match(row)
        if ordered:
            row = f"{ordered.group(1)}\\{row[len(ordered.group(1)):]}"
        elif _BLOCK_START.match(row):
            row = "\\" + row
        paragraphs[-1].append(row)
    return "\n\n".join("\n".join(p) for p in paragraphs if p)


def line(text: Any) -> str:
    """Text on one line (a line break becomes a space): for a line of notation inside a code
    fence, or a callout's title, which a line break would end."""
    return re.sub(r"\r\n|[\r\n]", " ", str(text))


def uncommented(text: Any) -> str:
    """Text for an Obsidian note that Obsidian cannot read as a comment: each ``%`` of a run
    of two or more (``%%`` opens and closes a comment, hiding what follows) is escaped."""
    return re.sub(r"%{2,}", lambda m: "\\%" * len(m.group()), str(text))


_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


def yaml_date(value: Any) -> str:
    """A date as YAML (and Obsidian) read it, ``2026-11-30``, unquoted; anything that is not
    a date is quoted, and read back as text."""
    text = "" if value is None else str(value)
    return text if _DATE.fullmatch(text) else yaml_str(text)


def card_name(card_id: Any, capital: bool = False) -> str:
    """A card named as a sentence names it: "the King of Hearts", "the Huntress"
    (``capital``: "The Huntress"). A card storyteller has no data for is named by its id."""
    from storyteller.play.table import card_name as name

    text = name(str(card_id))
    return text[:1].upper() + text[1:] if capital else text


_PIQUET_ID = re.compile(r"(10|[2-9AJQK])([HDCS])")


def lonelog_card(card_id: Any) -> str:
    """A card in the notation of Lonelog's card add-on: a standard card as its rank and its
    suit's letter (``Kh``, ``10d``, ``7c``: the Clovers are clubs), a Joker as ``RJkr``
    or ``BJkr``, and a card of another deck (the Decktet) by its name, as the add-on says
    of oracle decks: ``The Huntress``, ``Ace of Moons``."""
    from storyteller.core.cards import all_cards

    card_id = str(card_id)
    m = _PIQUET_ID.fullmatch(card_id)
    if m and card_id in all_cards():
        return m.group(1) + m.group(2).lower()
    card = all_cards().get(card_id)
    if card is None:
        return card_id
    if card.rank == "Joker":
        colour = card.name.split()[0].lower()
        return {"red": "RJkr", "black": "BJkr"}.get(colour, "Jkr")
    return card.name[:1].upper() + card.name[1:]


def deck_name(card_id: Any) -> str:
    """The deck a card belongs to, as a log's header names it: ``piquet`` (its Jokers too),
    ``Decktet``, or ``""`` for a card storyteller has no data for."""
    from storyteller.core import decktet
    from storyteller.core.cards import all_cards

    card_id = str(card_id)
    if card_id in decktet.by_id():
        return "Decktet"
    return "piquet" if card_id in all_cards() else ""


_MISSING = object()


def _at(step: Any, path: str) -> Any:
    """The value at a dotted ``path`` in a step (``move.type``), or _MISSING."""
    value = step
    for part in path.split("."):
        if not isinstance(value, dict) or part not in value:
            return _MISSING
        value = value[part]
    return value


def _matches(step: Any, at: dict[str, Any]) -> bool:
    for path, wanted in at.items():
        value = _at(step, path)
        if value is _MISSING:
            return False
        if isinstance(wanted, (list, tuple)):
            if value not in wanted:
                return False
        elif value != wanted:
            return False
    return True


def scenes(steps: Any, at: dict[str, Any] | None = None, by: str | None = None) -> list[dict[str, Any]]:
    """Steps grouped into scenes, in order. A scene opens at each step that matches ``at``
    (every dotted path given holds the value, or one of the list of values, given:
    ``{"kind": "decision", "move.type": ["enter", "move"]}``), or, with ``by``, at each
    step whose value at that path differs from the last one's (``"pass"``); the end of the
    game always opens the last scene, which holds what was written after it. A step a
    later undo took back opens no scene, nor does a correction of a step that opened one.

    Each scene: ``number`` (from 1), ``opener`` (the step that opened it, or null for the
    steps before the first), ``ending`` (the scene the end opened), ``steps``, and
    ``beats``: the steps in runs a reader sees, each ``{"kind", "steps"}`` where ``kind``
    is ``"card"`` (one draw), ``"journal"`` (one entry), ``"end"`` (the end) or
    ``"mechanics"`` (consecutive decisions, rolls and undos)."""
    out: list[dict[str, Any]] = []
    current: dict[str, Any] | None = None
    openers: set[Any] = set()
    last: Any = _MISSING
    ended = False
    for step in steps:
        kind = _at(step, "kind")
        opens = False
        if kind == "end":
            opens = ended = True
        elif ended or _at(step, "undone") is True:
            opens = False
        elif _at(step, "corrects") not in (None, _MISSING) and step["corrects"] in openers:
            opens = False
        elif by is not None:
            value = _at(step, by)
            if value is not _MISSING:
                opens, last = value != last, value
        elif at:
            opens = _matches(step, at)
        if current is None or (opens and current["steps"]):
            current = {"number": len(out) + 1, "opener": None, "ending": False, "steps": []}
            out.append(current)
        if opens:
            current["opener"] = step
            current["ending"] = kind == "end"
            openers.add(_at(step, "n"))
        current["steps"].append(step)
    for scene in out:
        scene["beats"] = _beats(scene["steps"])
    return out


def _beats(steps: list[Any]) -> list[dict[str, Any]]:
    beats: list[dict[str, Any]] = []
    for step in steps:
        kind = _at(step, "kind")
        role = {"draw": "card", "journal": "journal", "end": "end", "question": "question", "oracle": "oracle"}.get(
            kind, "mechanics")
        if role == "mechanics" and beats and beats[-1]["kind"] == "mechanics":
            beats[-1]["steps"].append(step)
        else:
            beats.append({"kind": role, "steps": [step]})
    return beats


FILTERS: dict[str, Callable[..., Any]] = {
    "yaml": yaml_str,
    "yaml_list": yaml_list,
    "yaml_date": yaml_date,
    "join_and": join_and,
    "quote": quote,
    "code": code,
    "cell": cell,
    "inline": inline,
    "continuation": continuation,
    "prose": prose,
    "line": line,
    "uncommented": uncommented,
    "scenes": scenes,
    "card_name": card_name,
    "lonelog_card": lonelog_card,
    "deck_name": deck_name,
    "link": link,
}

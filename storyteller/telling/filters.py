"""The templates' filters: plain functions of plain data, the same for every format. They
make text from a log safe where a template puts it (a YAML value, a table cell, a line of
Markdown, a journal entry's paragraphs) and name cards as sentences and notations do; their
reference is ``docs/templates.md``.

A log can come from someone else: what a player wrote (a journal entry, an oracle question)
is shown as the text it is, never read as Markdown or HTML. Each filter first takes the text
as the export will write it (CommonMark's line endings as ``\\n``, and the control
characters the export removes removed), so that nothing undoes an escape afterwards."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from storyteller.core.words import clean, join_and

_LINE_END = re.compile(r"\r\n?")


def _text(value: Any) -> str:
    """The text as the export writes it: line endings as ``\\n``, control characters but
    the line break and the tab removed (``storyteller.core.words.clean`` removes them from
    everything an export writes: done first, ``%\\x01%`` cannot become ``%%`` after its
    escape)."""
    return clean(_LINE_END.sub("\n", str(value)))


def _lines(text: str) -> list[str]:
    """The lines of a text, split where CommonMark splits them (``\\n``; not at the other
    breaks ``str.splitlines`` knows, which a Markdown reader does not)."""
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return lines


# What YAML does not read as itself inside a double-quoted scalar: its non-printable
# characters, and the line and paragraph separators, the next line and the byte order mark,
# which a YAML 1.1 reader (PyYAML, older js-yaml) takes for line breaks or strips.
_YAML_ESCAPE = re.compile("[\x7f-\x9f\u2028\u2029\ufeff\ufffe\uffff]")


def yaml_str(value: Any) -> str:
    """A YAML scalar that is always read back as the same text: a JSON string (which is
    YAML), with the characters YAML would not read as themselves written as ``\\u`` escapes."""
    text = json.dumps("" if value is None else str(value), ensure_ascii=False)
    return _YAML_ESCAPE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def yaml_list(values: list[Any]) -> str:
    return "[" + ", ".join(yaml_str(v) for v in values) + "]"


def quote(text: Any) -> str:
    """A Markdown block quote of every line. It escapes nothing: a player's words go
    through ``prose`` first (``entry.text | prose | quote``)."""
    return "\n".join("> " + line if line else ">" for line in _lines(_text(text)))


def code(text: Any) -> str:
    """A CommonMark code span that shows exactly ``text``, backticks included: the fence is
    one backtick longer than the longest run inside, and a space pads each side when the
    text starts or ends with a backtick, or starts and ends with a space (a reader strips
    one space from each side). Line breaks become spaces, as a code span shows them (a
    line break left in could let the next line start a heading or HTML)."""
    text = _text(text).replace("\n", " ")
    if not text:
        return "` `"
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * (longest + 1)
    if text[0] == "`" or text[-1] == "`" or (text[0] == " " and text[-1] == " " and text.strip(" ")):
        text = f" {text} "
    return f"{fence}{text}{fence}"


def cell(text: Any) -> str:
    """Text made safe inside a table cell: a ``|`` is escaped (GitHub-flavoured tables read
    ``\\|`` as ``|``, inside code spans too) and a line break becomes a space. It escapes
    nothing else: a player's words are ``inline``, which escapes ``|`` too."""
    return _text(text).replace("\n", " ").replace("|", "\\|")


# What starts emphasis, a link or an image, code, HTML or an autolink, an entity, a
# strikethrough, a table cell or an Obsidian tag, and the backslash itself.
# Obsidian reads more than CommonMark: ==highlight==, $math$ and a paragraph's last ^block-id
# (which would shadow the note's own ^jN); escaped, they show as typed in both. A lone "="
# ("jokers=taken") is left as it is: only a doubled one highlights.
_INLINE_SPECIAL = re.compile(r"([\\`*_\[\]<&~|#$^]|=(?==)|(?<==)=)")


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
    return "\n".join(pad + line if line.strip() else line for line in _lines(_text(text)))


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


def _literal(row: str) -> str:
    """One line of a player's words, shown as it is wherever a template puts it: every
    character that would start inline Markdown escaped with a backslash, and the first one
    of a line that would start a block (a heading, a list, a quote or callout, a table, a
    fence, a thematic break, a setext underline, HTML)."""
    row = _INLINE_SPECIAL.sub(r"\\\1", row)
    ordered = _ORDERED.match(row)
    if ordered:
        return f"{ordered.group(1)}\\{row[len(ordered.group(1)):]}"
    return "\\" + row if _BLOCK_START.match(row) else row


def inline(text: Any) -> str:
    """Text from a log shown as itself in a line of Markdown, anywhere in the line (a
    heading, a table cell, a callout's title, emphasis): every character that would start
    emphasis, a link, code, HTML, an entity, a strikethrough, a table cell or an Obsidian
    tag is escaped with a backslash, and so is a first character that would start a block;
    line breaks become spaces, and spaces at either end go (they would break the emphasis
    around the text, or make code)."""
    return _literal(_text(text).replace("\n", " ").strip(" \t"))


def prose(text: Any, tags: str = "names", targets: dict[str, str] | None = None) -> str:
    """A journal entry as Markdown paragraphs that show the player's words as written,
    whatever they hold: every character that would start inline Markdown or HTML is escaped
    (as ``inline`` does: a ``*``, a ``<``, a link shows as the characters typed), and so is
    the first character of a line that would start a heading, a list, a quote or callout, a
    table, a fence, a thematic break or HTML; lines lose their indentation (which would make
    code) and trailing spaces, and blank lines between paragraphs become one. A line break
    stays one, and a paragraph a paragraph.

    A tag the player wrote (``[N:Old Nim|charcoal girl]``, see ``storyteller.core.tags``)
    reads as its name, escaped as the rest (``tags="names"``); ``tags="links"`` makes it a
    link to its note in Obsidian (:func:`note_link`; ``targets`` maps a tag's
    :func:`tag_key` to the note's path, else the note is named after it), and
    ``tags="typed"`` shows it as typed (Lonelog's own notation)."""
    paragraphs: list[list[str]] = [[]]
    for raw in _text(text).split("\n"):
        row = raw.strip(" \t")
        if not row:
            if paragraphs[-1]:
                paragraphs.append([])
            continue
        paragraphs[-1].append(_literal(row) if tags == "typed" else _tagged(row, tags == "links", targets))
    return "\n\n".join("\n".join(p) for p in paragraphs if p)


def tag_key(kind: str, name: str) -> str:
    """How a tag is known in ``targets``: a person or place by its name as the campaign's
    cast knows it (its ``key``: case and inner spaces do not matter, ``"old nim"``), a
    thread by ``thread:`` and its name so known."""
    from storyteller.core.tags import key

    return f"thread:{key(name)}" if kind == "Thread" else key(name)


_SLOT = re.compile("(!?)\x00(\\d+)\x00")  # where a tag stood in a line being escaped (no text holds \x00)


def _tagged(row: str, links: bool, targets: dict[str, str] | None) -> str:
    """One line of a player's words escaped as :func:`_literal` escapes it, each tag in it
    read as its name (escaped as ``inline`` escapes it) or, with ``links``, as a link to
    its note."""
    from storyteller.core.tags import find

    found = find(row)
    if not found:
        return _literal(row)
    parts, at = [], 0
    for i, tag in enumerate(found):
        parts.append(row[at:tag.start] + f"\x00{i}\x00")
        at = tag.end
    parts.append(row[at:])
    escaped = _literal("".join(parts))

    def shown(m: re.Match[str]) -> str:
        tag = found[int(m.group(2))]
        if tag.closed:  # a thread closed reads as nothing: the answer before it is the close
            return m.group(1)
        target = (targets or {}).get(tag_key(tag.kind, tag.name))
        if not links or (tag.kind == "Thread" and target is None):  # a thread has a note only in a book
            return m.group(1) + inline(tag.name)
        # a "!" just before a link would make it an embed (or an image): it is escaped
        return ("\\!" if m.group(1) else "") + note_link(target or note_name(tag.name), tag.name)

    return _SLOT.sub(shown, escaped).rstrip()  # a closed thread at a line's end leaves no space


_FILE_UNSAFE = re.compile(r'[\x00-\x1f\x7f\\/:*?"<>|#^\[\]%]+')
_PLAIN_NAME = re.compile(r"[\w][\w '\u2019.,:;?!()\-]*")


def note_name(name: Any) -> str:
    """A note's file name (without ``.md``) made from a name: the characters a file name or an
    Obsidian link cannot hold (``/ \\ : * ? " < > | # ^ [ ] %``) become spaces, spaces are
    squeezed, dots and spaces at the ends go; ``"unnamed"`` if nothing is left."""
    text = " ".join(_FILE_UNSAFE.sub(" ", _text(name)).split()).strip(" .")[:80].strip(" .")
    return text or "unnamed"


def note_link(target: Any, text: Any) -> str:
    """A link in an Obsidian note to the note ``target`` (its path in the vault, without
    ``.md``; ``#`` and a heading or ``^`` block after it for a part of the note), showing
    ``text``: a wikilink (``[[cast/Old Nim|Old Nim]]``) when the text is plain words, else
    a Markdown link whose text is escaped as ``inline`` escapes it (a wikilink's text
    cannot be escaped). Either counts in Obsidian's graph."""
    from urllib.parse import quote as percent

    target, shown = _text(target).replace("\n", " "), _text(text).replace("\n", " ").strip()
    if _PLAIN_NAME.fullmatch(shown) and not re.search(r"[\[\]|]", target):
        return f"[[{target}]]" if target == shown else f"[[{target}|{shown}]]"
    path, _, heading = target.partition("#")
    where = percent(path + ".md", safe="/") + (f"#{percent(heading, safe='^')}" if heading else "")
    return f"[{inline(shown)}]({where})"


def line(text: Any) -> str:
    """Text on one line (a line break becomes a space), nothing escaped: for a line of
    notation inside a code fence (which shows it as it is), or the game's own words where
    a line break would end a callout's title. A player's words anywhere else are
    ``inline``."""
    return _text(text).replace("\n", " ")


def uncommented(text: Any) -> str:
    """Text for an Obsidian note that Obsidian cannot read as a comment: each ``%`` of a run
    of two or more (``%%`` opens and closes a comment, hiding what follows) is escaped.
    Apply it last, after ``prose`` or ``inline``."""
    return re.sub(r"%{2,}", lambda m: "\\%" * len(m.group()), _text(text))


_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


def yaml_date(value: Any) -> str:
    """A date as YAML (and Obsidian) read it, ``2026-11-30``, unquoted; anything that is not
    a date is quoted, and read back as text (``2026-13-45`` too: a reader would fail on it)."""
    from datetime import date

    text = "" if value is None else str(value)
    if _DATE.fullmatch(text):
        try:
            date.fromisoformat(text)
            return text
        except ValueError:
            pass
    return yaml_str(text)


def human_date(value: Any) -> str:
    """A moment as a reader says it: ``1 December 2026, 22:19 UTC`` from the log's
    ``2026-12-01T22:19:47+00:00`` (another offset as ``UTC+02:00``); anything that is not a
    moment is given back as it is."""
    from datetime import datetime

    text = "" if value is None else str(value)
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        return text
    months = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
              "November", "December")
    out = f"{moment.day} {months[moment.month - 1]} {moment.year}"
    if "T" in text or " " in text.strip():
        out += f", {moment.hour:02d}:{moment.minute:02d}"
        offset = moment.utcoffset()
        if offset is not None:
            minutes = int(offset.total_seconds() // 60)
            sign = "+" if minutes >= 0 else "-"
            out += " UTC" if minutes == 0 else f" UTC{sign}{abs(minutes) // 60:02d}:{abs(minutes) % 60:02d}"
    return out


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
    "human_date": human_date,
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
    "note_link": note_link,
    "note_name": note_name,
    "tag_key": tag_key,
}

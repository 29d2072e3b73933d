"""The names a player tags in their own words, in Lonelog's notation: a person
``[N:Old Nim|charcoal girl]``, a place ``[L:The Salt Gate]``, a thread
``[Thread:Who burned the mill?|Open]`` (closed with ``|Closed``), and a later mention of one
``[#N:Old Nim]``. A name once tagged is also recognised in plain words, as it was written.

Pure: no I/O. The text is the player's: a tag is only read, never trusted to be well made
(``problems`` says what is wrong with one in a line the player can act on)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from collections.abc import Iterable

KINDS = {"n": "N", "npc": "N", "pc": "N", "l": "L", "thread": "Thread"}
WORDS = {"N": "person", "L": "place", "Thread": "thread"}
MAX_NAME = 80
MAX_NOTE = 200

# [N:Name], [N:Name|note], [#N:Name]; a kind is letters, the name anything but ] | [ and newlines
TAG = re.compile(r"\[(?P<ref>#)?(?P<kind>[A-Za-z]{1,8}):(?P<name>[^\]\|\[\n]*)(?:\|(?P<note>[^\]\[\n]*))?\]")


@dataclass(frozen=True)
class Tag:
    """One tag in a text: its kind ("N" a person, "L" a place, "Thread"), the name as
    written (spaces at either end trimmed), the note after ``|`` ("" when none), whether it
    is a later mention (``[#N:...]``), and where it stands in the text."""

    kind: str
    name: str
    note: str = ""
    ref: bool = False
    start: int = 0
    end: int = 0

    @property
    def key(self) -> str:
        """The name as the cast knows it: case and inner spaces do not matter."""
        return key(self.name)

    @property
    def closed(self) -> bool:
        """A thread closed by this tag (``|Closed``)."""
        return self.kind == "Thread" and self.note.strip().lower() == "closed"

    @property
    def what(self) -> str:
        return WORDS[self.kind]


def key(name: str) -> str:
    return " ".join(name.split()).casefold()


def _matches(text: str) -> Iterable[tuple[re.Match[str], str]]:
    for m in TAG.finditer(text):
        kind = KINDS.get(m.group("kind").lower())
        if kind is not None:
            yield m, kind


def find(text: str) -> list[Tag]:
    """Every well-made tag in ``text``, in order (one with no name is left out: see
    :func:`problems`)."""
    found = []
    for m, kind in _matches(text):
        name = " ".join(m.group("name").split())
        if not name or len(name) > MAX_NAME:
            continue
        note = " ".join((m.group("note") or "").split())[:MAX_NOTE]
        found.append(Tag(kind, name, note, bool(m.group("ref")), m.start(), m.end()))
    return found


def problems(text: str) -> list[str]:
    """What is wrong with the tags in ``text``, a line each ("" tags are kept as typed)."""
    out = []
    for m, kind in _matches(text):
        name = " ".join(m.group("name").split())
        if not name:
            out.append(f"{m.group(0)} names no {WORDS[kind]}: it is kept as you typed it, and names no one "
                       f"(write it as [{m.group('kind')}:A name])")
        elif len(name) > MAX_NAME:
            out.append(f"a {WORDS[kind]}'s name is at most {MAX_NAME} characters; that tag is kept as typed and "
                       "names no one")
    return out


def plain(text: str) -> str:
    """``text`` with each well-made tag read as its name alone: "[N:Old Nim|charcoal girl]
    waved" becomes "Old Nim waved"."""
    out, at = [], 0
    for tag in find(text):
        out.append(text[at:tag.start])
        out.append(tag.name)
        at = tag.end
    out.append(text[at:])
    return "".join(out)


SMALL = frozenset({"the", "old", "young", "little", "big", "great", "lady", "lord", "sir", "master", "mistress",
                   "mother", "father", "brother", "sister", "saint", "captain", "doctor", "king", "queen", "north",
                   "south", "east", "west", "upper", "lower", "gate", "house", "road", "lane", "ford", "hill"})


def shown(text: str) -> str:
    """``text`` as a reader of the story sees it: each tag read as its name, and a thread's
    closing tag as nothing (the words before it are the close)."""
    out, at = [], 0
    for tag in find(text):
        out.append(text[at:tag.start])
        out.append("" if tag.closed else tag.name)
        at = tag.end
    out.append(text[at:])
    return "".join(out)


def mentions(text: str, names: Iterable[str]) -> set[str]:
    """The keys of ``names`` (see :func:`key`) that ``text`` names: in a tag, or in plain
    words as a whole word or words (case does not matter), or, for a name of two words or
    more, by one of its own words as a person writes a name short ("Tamsin" for "Old
    Tamsin"): a capitalised word of four letters or more that is no title or common word,
    written capitalised."""
    found = {t.key for t in find(text)}
    words = plain(text)
    bare = " ".join(words.split()).casefold()
    for name in names:
        k = key(name)
        if k in found or not k:
            continue
        if re.search(r"(?<!\w)" + re.escape(k) + r"(?!\w)", bare):
            found.add(k)
            continue
        parts = name.split()
        if len(parts) > 1 and any(len(p) >= 4 and p[:1].isupper() and p.casefold() not in SMALL
                                  and re.search(r"(?<!\w)" + re.escape(p) + r"(?!\w)", words) for p in parts):
            found.add(k)
    return found

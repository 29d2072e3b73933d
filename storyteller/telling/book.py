"""A campaign as a book: a title page (the title, the protagonist, what they want), a
chapter per game in order, each with its story as the game's own story renders it, the
cast as a dramatis personae and the threads, in every export format.

The campaign is read once (:class:`Book`): its chapters, what it remembers
(:func:`storyteller.play.campaign.remember`) and each chapter's export context. A chapter
whose log was moved or deleted, or cannot be read, is one line of the book, and the rest
renders. By format, as each format describes itself (:mod:`storyteller.core.formats`):

- a page (HTML, and the PDF printed from it): one page, each chapter's story page as an
  article of it (its pictures inline), with links from the cast and the threads to the
  chapters (:meth:`Book.page`);
- a format of notes with wikilinks (Obsidian): a note for the book that embeds a note for
  each chapter, and a note for each of the cast, linked from the chapters, so that the
  graph shows who met whom (:meth:`Book.notes`);
- the data (JSON): the campaign, its chapters (each with its export context), the cast and
  the threads (:meth:`Book.data`);
- a format of playthroughs alone (Lonelog): each chapter's playthrough, one session after
  another;
- any other (Markdown): one text, each chapter's story under its heading.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from storyteller import registry
from storyteller.core.formats import DEFAULT_PAPER, FORMATS, PAPERS, Format
from storyteller.log import store
from storyteller.log.file import GameLog, LogError, TruncatedLog
from storyteller.play import campaign as campaigns
from storyteller.telling import cast
from storyteller.telling.filters import note_name

BOOK_VERSION = 1  # of the book's JSON document


def slug(text: str) -> str:
    """A heading's anchor as GitHub and most Markdown readers make it: lower case, the
    characters other than letters, digits, spaces and ``-`` left out, spaces as ``-``."""
    return re.sub(r"[^\w\- ]", "", text.lower()).replace(" ", "-")


@dataclass
class Part:
    """One chapter of the book: its heading, and its log and context if it can be read
    (else ``line``, the one line the book gives it)."""

    chapter: campaigns.Chapter
    game_title: str
    log: GameLog | None = None
    made: tuple[dict[str, Any], Any] | None = None  # its export context and replay
    line: str = ""

    @property
    def number(self) -> int:
        return self.chapter.number

    @property
    def heading(self) -> str:
        return f"Chapter {self.number}: {self.game_title}"

    @property
    def anchor(self) -> str:
        return slug(self.heading)

    def fail(self, why: str) -> None:
        self.log, self.made = None, None
        for where in (f"{self.chapter.path}: ", f"{self.chapter.log}: "):  # the log is named once, by its name
            why = why.removeprefix(where)
        self.line = f"Chapter {self.number}: its log {self.chapter.log} cannot be read ({why})"


@dataclass
class Book:
    """A campaign read once, to be rendered as a book."""

    campaign: campaigns.Campaign
    chapters: list[campaigns.Chapter]
    memory: campaigns.Memory
    parts: list[Part] = field(default_factory=list)

    @classmethod
    def read(cls, name: str) -> Book:
        """The campaign called ``name`` (``CampaignError`` if there is none)."""
        c = campaigns.load(name)
        return cls.of(c, campaigns.chapters(c))

    @classmethod
    def of(cls, c: campaigns.Campaign, chapters: list[campaigns.Chapter]) -> Book:
        from storyteller.telling.context import make

        book = cls(c, chapters, campaigns.remember(c, chapters))
        found = (c, book.memory)
        for ch in chapters:
            part = Part(ch, _game_title(ch.game))
            book.parts.append(part)
            if ch.missing:
                part.line = f"Chapter {ch.number}: its log {ch.log} was moved or deleted"
                continue
            try:
                try:
                    part.log = store.open_log(ch.path)
                except TruncatedLog as e:
                    part.log = e.intact
                part.made = make(part.log, found)
            except LogError as e:
                part.fail(str(e))
            except registry.RegistryError as e:
                part.fail(str(e))
        return book

    @property
    def found(self) -> tuple[campaigns.Campaign, campaigns.Memory]:
        return self.campaign, self.memory

    # -- the data -------------------------------------------------------------------------

    def about(self) -> dict[str, Any]:
        return {**cast.about(self.campaign), "created": self.campaign.created, "chapters": len(self.parts)}

    def chapter_items(self) -> list[dict[str, Any]]:
        out = []
        for part in self.parts:
            ch, ctx = part.chapter, part.made[0] if part.made else None
            out.append({
                "number": part.number, "heading": part.heading, "anchor": part.anchor, "log": ch.log,
                "game": ch.game or None, "game_title": part.game_title if ch.game else None,
                "seed": ch.seed if not ch.missing else None,
                "title": ctx["meta"]["title"] if ctx else None,
                "outcome": ctx["meta"]["outcome"] if ctx else None,
                "missing": ch.missing, "line": part.line or None,
            })
        return out

    def data(self) -> dict[str, Any]:
        """The book as data (``export --campaign NAME --format json``): the campaign, its
        chapters (each with its export context, null when it cannot be read), the cast and
        the threads. See docs/context.md."""
        chapters = self.chapter_items()
        for item, part in zip(chapters, self.parts):
            item["context"] = part.made[0] if part.made else None
        return {"version": BOOK_VERSION, "kind": "campaign", "campaign": self.about(), "chapters": chapters,
                "cast": cast.members(self.memory), "threads": cast.threads(self.memory)}

    def _context(self) -> dict[str, Any]:
        """What a book's template is told: the campaign, the chapters, the cast, the threads."""
        from storyteller import __version__

        chapters = self.chapter_items()
        return {"campaign": self.about(), "chapters": chapters, "cast": cast.members(self.memory),
                "threads": cast.threads(self.memory), "by_number": {c["number"]: c for c in chapters},
                "journal": any(t.entries for t in self.memory.told), "version": __version__}

    # -- rendering ------------------------------------------------------------------------

    def _chapter(self, part: Part, kind: str, fmt: Format, paper: str, **options: Any) -> tuple[str, dict[str, str]]:
        """One chapter rendered as the book's part, or its line if it cannot be."""
        from storyteller.telling.export import rendered

        assert part.log is not None and part.made is not None
        ctx, w = part.made
        book = {"number": part.number, "heading": part.heading, "anchor": part.anchor,
                "campaign": self.campaign.heading}
        extra = {"book": book, **options.pop("extra", {})}
        try:
            return rendered(part.log, kind, None, fmt.name, paper, memory=self.found, extra=extra,
                           built=({**ctx}, w), **options)
        except LogError as e:
            part.fail(str(e))
            return "", {}

    def text(self, format: str, paper: str = DEFAULT_PAPER, stem: str | None = None) -> tuple[str, dict[str, str]]:
        """The book as one text in a format of text (Markdown: each chapter's story under its
        heading; Lonelog: each chapter's playthrough, a session each), and the pictures to
        write beside it (with ``stem``, as ``export --pictures`` writes them)."""
        from storyteller.telling.export import RENDERERS

        fmt = FORMATS[format]
        kind = "story" if "story" in fmt.kinds else fmt.kinds[0]
        ctx = self._context()
        files: dict[str, str] = {}
        for item, part in zip(ctx["chapters"], self.parts):
            item["text"] = ""
            if part.made is None:
                continue
            text, drawn = self._chapter(part, kind, fmt, paper, stem=f"{stem}-chapter-{part.number}" if stem else None)
            item["text"] = _as_part(text) if kind == "story" else text
            item["line"] = part.line or None
            files.update(drawn)
        return RENDERERS[format].render_shared(ctx, f"book{fmt.templates}"), files

    def page(self, format: str = "html", paper: str = DEFAULT_PAPER) -> str:
        """The book as one HTML page: a title page, each chapter's story page as an article
        (its pictures inline, their ids its own), the dramatis personae and the threads."""
        from markupsafe import Markup

        from storyteller.telling.export import RENDERERS

        fmt = FORMATS[format]
        ctx = self._context()
        ctx["paper"] = PAPERS[paper]
        for item, part in zip(ctx["chapters"], self.parts):
            item["page"] = None
            if part.made is None:
                continue
            text, _ = self._chapter(part, "story", fmt, paper, prefix=f"c{part.number}-")
            item["page"] = Markup(text) if text else None  # our own templates' page, its words escaped
            item["line"] = part.line or None
        return RENDERERS[format].render_shared(ctx, f"book{fmt.templates}")

    def links(self, book: str, chapters: dict[int, str] | None = None, folder: str | None = None) -> dict[str, Any]:
        """Where the book's notes are (their paths in the vault, without ``.md``): ``book``
        (the book's note), ``chapters`` (by number: the paths given, else in ``folder`` as
        "Chapter 1 - Hexaract"), ``cast`` (each member's note in ``folder``/cast, by its key,
        and each thread's place in the book's note, by ``thread:`` and its key)."""
        where = folder if folder is not None else book
        paths = dict(chapters or {})
        for part in self.parts:
            paths.setdefault(part.number, f"{where}/{note_name(part.heading.replace(':', ' -'))}")
        targets = _cast_notes(cast.members(self.memory), f"{where}/cast")
        for t in cast.threads(self.memory):
            targets[f"thread:{t['key']}"] = f"{book}#Threads"
        return {"cast": targets, "book": book, "chapters": paths}

    def chapter_note(self, part: Part, format: str, links: dict[str, Any], stem: str | None = None,
                     kind: str = "story") -> tuple[str, dict[str, str]]:
        """A chapter as a note of the book's (its tags and its cast linked to the cast's
        notes, its campaign to the book's note), and its pictures (with ``stem``)."""
        return self._chapter(part, kind, FORMATS[format], DEFAULT_PAPER, stem=stem, extra={"links": links})

    def notes(self, format: str, book: str, chapters: dict[int, str] | None = None, folder: str | None = None,
              pictures: bool = False, with_chapters: bool = True) -> dict[str, str]:
        """The book as notes that link each other (Obsidian), by their paths in the vault
        (``.md`` and all; pictures as ``.svg``): the book note at ``book`` (a path without
        ``.md``), a note for each chapter (at ``chapters``' paths, or in ``folder`` as
        "Chapter 1 - Hexaract"; none with ``with_chapters`` false: a vault writes them), and
        a note for each of the cast in ``folder``/cast. Each person, place and card links the
        chapters it appears in, and each chapter the cast it met, so that the graph shows
        who met whom."""
        from storyteller.telling.export import RENDERERS

        fmt = FORMATS[format]
        links = self.links(book, chapters, folder)
        paths, targets = links["chapters"], links["cast"]
        ctx = self._context()
        out: dict[str, str] = {}
        for item, part in zip(ctx["chapters"], self.parts):
            item["note"] = paths[part.number] if part.made is not None else None
            if part.made is None or not with_chapters:
                continue
            stem = paths[part.number].rsplit("/", 1)[-1] if pictures else None
            text, drawn = self.chapter_note(part, format, links, stem)
            if not text:
                item["note"] = None
                item["line"] = part.line
                continue
            out[paths[part.number] + fmt.suffix] = text
            base = paths[part.number].rsplit("/", 1)[0] + "/" if "/" in paths[part.number] else ""
            out.update({base + name: svg for name, svg in drawn.items()})
        ctx["links"] = links
        renderer = RENDERERS[format]
        for member in ctx["cast"]:
            note = {**ctx, "member": member}
            out[targets[member["key"]] + fmt.suffix] = renderer.render_shared(note, f"cast{fmt.templates}")
        out[book + fmt.suffix] = renderer.render_shared(ctx, f"book{fmt.templates}")
        return out


def _game_title(game: str) -> str:
    if not game:
        return "a game"
    try:
        return registry.rules(game).title
    except registry.RegistryError:
        return game


def _cast_notes(members: list[dict[str, Any]], folder: str) -> dict[str, str]:
    """Each member's note (its path, without ``.md``), by its key: named after it, a number
    added when two names make the same file name (on a file system that ignores case too)."""
    out, taken = {}, set()
    for m in members:
        base = note_name(m["name"])
        name, n = base, 1
        while name.casefold() in taken:
            n += 1
            name = f"{base} {n}"
        taken.add(name.casefold())
        out[m["key"]] = f"{folder}/{name}"
    return out


_FRONT = re.compile(r"\A---\n.*?\n---\n+", re.S)
_ATX = re.compile(r"^(#{1,5}) ", re.M)


def _as_part(text: str) -> str:
    """A story's Markdown as a chapter of the book: without its front matter, every heading
    a level lower (its title under the chapter's heading). The player's words are escaped
    (a ``#`` in them is ``\\#``): only the template's headings start a line with ``#``."""
    return _ATX.sub(lambda m: "#" + m.group(1) + " ", _FRONT.sub("", text, count=1)).strip() + "\n"

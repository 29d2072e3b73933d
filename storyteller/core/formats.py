"""The export formats, one description each: the one list every layer reads. The settings
check ``export.format`` against it, the command line offers it and completes it, the export
command and the vault ask it what a format takes, and the renderers
(:mod:`storyteller.telling.export`) render each by what it says; nobody branches on a
format's name. Kept apart from the renderers, so that reading it loads nothing."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Format:
    name: str
    kinds: tuple[str, ...]  # what it renders: "story", "playthrough" or "document"; the first is its default
    words: str  # what it is, for --help
    title: str  # what it is, in a sentence: "Lonelog notation"
    suffix: str  # the file it makes: ".md", ".html"...
    templates: str  # its templates' suffix: "story.md.j2", "playthrough.lonelog.md.j2"...
    helpers: tuple[str, ...] = ()  # the shared templates they import
    pictures: str = "none"  # "inline" (in the page), "beside" (with --pictures, SVG files beside the note), "none"
    analysis: bool = False  # takes --analysis (in its playthrough, or its document)
    page: bool = False  # a page of HTML: escaped, with the CSS and pictures inline, printed on --paper
    printed: bool = False  # the page printed to PDF by a browser
    data: bool = False  # the export context itself (a user's template may make another document of it)
    notes: bool = False  # a note of a vault (export --all)
    wikilinks: bool = False  # its notes link each other as [[name]] (Obsidian), not [name](name.md)

    @property
    def binary(self) -> bool:
        """Bytes, not text: never written to a terminal."""
        return self.printed


FORMATS: dict[str, Format] = {f.name: f for f in (
    Format("markdown", ("story", "playthrough"), "markdown (the default)", "Markdown", ".md", ".md.j2",
           ("_macros.md.j2",), pictures="beside", analysis=True, notes=True),
    Format("obsidian", ("story", "playthrough"), "obsidian (a note with callouts)", "an Obsidian note", ".md",
           ".obsidian.md.j2", ("_macros.md.j2", "_obsidian.md.j2", "_scenes.j2"), pictures="beside", analysis=True,
           notes=True, wikilinks=True),
    Format("json", ("document",), "json (the export context)", "JSON", ".json", ".json.j2", analysis=True, data=True),
    Format("lonelog", ("playthrough",), "lonelog (the playthrough in Lonelog notation)", "Lonelog notation", ".md",
           ".lonelog.md.j2", ("_macros.md.j2", "_scenes.j2")),
    Format("html", ("story", "playthrough"), "html (one page to read, share or print, with pictures of the table)",
           "an HTML page", ".html", ".html.j2", ("_page.html.j2", "_html.j2", "_scenes.j2"), pictures="inline",
           analysis=True, page=True),
    Format("pdf", ("story", "playthrough"), "pdf (that page printed by Chromium or Chrome, if the machine has one)",
           "a PDF", ".pdf", ".html.j2", ("_page.html.j2", "_html.j2", "_scenes.j2"), pictures="inline", analysis=True,
           page=True, printed=True),
)}
DEFAULT = "markdown"
NAMES = tuple(FORMATS)


def named(*names: str) -> str:
    """Formats' names in words: "markdown or obsidian"."""
    return ", ".join(names[:-1]) + (" or " if len(names) > 1 else "") + names[-1]


PAPERS = {"a5": "A5", "a4": "A4", "letter": "letter"}  # the printed page of an HTML or PDF export
DEFAULT_PAPER = "a5"

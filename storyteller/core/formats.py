"""The export formats: their names, what each makes, and in words what it is. The one list
every layer reads (the settings check ``export.format`` against it, the command line
offers it, ``storyteller.telling.export`` has a renderer for each), kept apart from the renderers
so that reading it loads nothing."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Format:
    name: str
    kinds: tuple[str, ...]  # what it renders: "story", "playthrough" or "document"; the first is its default
    words: str  # what it is, for --help


FORMATS: dict[str, Format] = {f.name: f for f in (
    Format("markdown", ("story", "playthrough"), "markdown (the default)"),
    Format("obsidian", ("story", "playthrough"), "obsidian (a note with callouts)"),
    Format("json", ("document",), "json (the export context)"),
    Format("lonelog", ("playthrough",), "lonelog (the playthrough in Lonelog notation)"),
    Format("html", ("story", "playthrough"), "html (one page to read, share or print, with pictures of the table)"),
    Format("pdf", ("story", "playthrough"), "pdf (that page printed by Chromium or Chrome, if the machine has one)"),
)}
DEFAULT = "markdown"
NAMES = tuple(FORMATS)

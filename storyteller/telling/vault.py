"""Every saved game as notes in a folder: a story note per session (and, if asked, its
playthrough), and an index note with a table of the sessions and the statistics.

Notes have stable names (``<date>-<game>-<seed>.md``), so running the export again finds
them. Each note keeps a hash of what storyteller wrote in its front matter
(``storyteller-hash``): a note whose text no longer matches its hash was edited by the
player, and is kept as it is (``force`` writes over it). A note whose game has not changed
is not rendered again. Nothing is ever deleted.

With pictures, each note links SVG pictures of its game's table kept beside it
(``<note>-table.svg``, ``<note>-1.svg``...; a story and its playthrough share them). A
picture is storyteller's own drawing, not the player's: it is written again whenever it
changes.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from storyteller.core.formats import FORMATS
from storyteller.log.records import Record, records

HASH_KEY = "storyteller-hash"
INDEX = "index.md"
MANIFEST = ".storyteller-vault.json"  # which log each note was made from, and when


@dataclass
class Report:
    written: list[str] = field(default_factory=list)  # new notes
    updated: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    kept: list[str] = field(default_factory=list)  # edited by the player: left as they are
    unreadable: list[str] = field(default_factory=list)  # logs that could not be read
    pictures: int = 0  # picture files written (new or changed)


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "-", text).strip("-")[:40] or "seed"


_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


def note_names(found: list[Record]) -> dict[str, str]:
    """A stable note name for each log (oldest first): date, game and seed, and a number
    when several sessions share them. The date and the game come from the log, which may
    come from someone else: a date is a date or "undated", and a game's name keeps only
    letters, digits, ``-`` and ``_`` (no ``/`` or ``..`` takes a note out of the vault)."""
    names: dict[str, str] = {}
    taken: dict[str, int] = {}
    for r in found:
        date = r.date if _DATE.fullmatch(r.date) else "undated"
        game = re.sub(r"[^A-Za-z0-9_-]+", "-", r.game).strip("-") or "game"
        base = f"{date}-{game}-{_slug(r.seed)}"
        n = taken.get(base, 0) + 1
        taken[base] = n
        names[r.file] = base if n == 1 else f"{base}-{n}"
    return names


def _without_hash(text: str) -> str:
    return re.sub(rf"(?m)^{HASH_KEY}: .*\n", "", text, count=1)


def sign(text: str) -> str:
    """The note as written to the vault: its front matter carries the hash of the rest."""
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]
    line = f"{HASH_KEY}: {digest}\n"
    if text.startswith("---\n"):
        end = text.find("\n---", 4)
        if end != -1:
            return text[: end + 1] + line + text[end + 1 :]
    return f"---\n{line}---\n\n{text}"


def edited(text: str) -> bool:
    """Whether a note was changed since storyteller wrote it (or was never storyteller's)."""
    found = re.search(rf"(?m)^{HASH_KEY}: (\w+)$", text)
    if not found:
        return True
    rest = _without_hash(text)
    return hashlib.sha256(rest.encode("utf-8")).hexdigest()[:16] != found.group(1)


def _put(path: Path, text: str, force: bool, report: Report) -> None:
    from storyteller.telling.export import write_atomic

    signed = sign(text)
    name = path.name
    if path.exists():
        try:
            current = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            current = None
        if current == signed:
            report.unchanged.append(name)
            return
        if (current is None or edited(current)) and not force:
            report.kept.append(name)
            return
        write_atomic(path, signed)
        report.updated.append(name)
        return
    write_atomic(path, signed)
    report.written.append(name)


def _put_picture(path: Path, svg: str, report: Report) -> None:
    from storyteller.telling.export import write_atomic

    try:
        if path.read_text(encoding="utf-8") == svg:
            return
    except (OSError, UnicodeDecodeError):
        pass
    write_atomic(path, svg)
    report.pictures += 1


class CampaignNotes:
    """A campaign in the vault: its chapters (a note each, where the other games' notes are),
    its book's note and, in a vault of notes that link each other (Obsidian), a note for
    each of its cast, in ``campaigns/NAME/``. What it remembers is read once, when one of
    its notes must be written."""

    def __init__(self, c: Any, chapters: list[Any], names: dict[str, str], folder: Path) -> None:
        self.campaign = c
        self.chapters = chapters
        self.names = names  # each log's note name
        self.where = f"{FOLDER}/{c.name}"
        self.book_note = f"{self.where}/{c.name}"
        self._book: Any = None
        st = _file_stamp(folder / FOLDER / f"{c.name}.toml")
        self.stamp = [st, *(_file_stamp(ch.path) for ch in chapters)]

    @property
    def book(self) -> Any:
        from storyteller.telling.book import Book

        if self._book is None:
            self._book = Book.of(self.campaign, self.chapters)
        return self._book

    def links(self) -> dict[str, Any]:
        return self.book.links(self.book_note, {ch.number: self.names[ch.log] for ch in self.chapters
                                                if ch.log in self.names}, self.where)

    def part(self, log_name: str) -> Any:
        return next(p for p in self.book.parts if p.chapter.log == log_name)


FOLDER = "campaigns"  # a campaign's notes in the vault: campaigns/NAME/


def _file_stamp(path: Path) -> list:
    try:
        st = path.stat()
    except OSError:
        return []
    return [st.st_size, st.st_mtime_ns]


def campaigns_of(folder: Path, found: list[Record]) -> list[Any]:
    """The campaigns whose chapters are among ``found`` (as their files list them, or
    rebuilt from the logs that name them when the file is gone), in the order of their
    names."""
    from storyteller.log import store
    from storyteller.play import campaign as campaigns

    logs = {r.file for r in found}
    named = {s.campaign for s in store.summaries(folder) if s.campaign and s.name in logs}
    out = []
    for name in sorted(named | set(campaigns.names())):
        try:
            c = campaigns.load(name)
        except campaigns.CampaignError:
            c = campaigns.Campaign(name)
        chapters = campaigns.chapters(c)
        if any(ch.log in logs for ch in chapters):
            out.append((c, chapters))
    return out


def export_all(folder: Path, out: Path, fmt: str = "markdown", playthroughs: bool = False, force: bool = False,
               pictures: bool = False) -> Report:
    """Write (or bring up to date) a note for every readable log in ``folder`` into ``out``,
    and for every campaign its book's note (and in Obsidian its cast's notes); the index
    lists the sessions and each campaign's chapters in order."""
    from storyteller import __version__
    from storyteller.core.formats import DEFAULT_PAPER
    from storyteller.telling.export import rendered
    from storyteller.log.file import LogError, TruncatedLog, read

    report = Report()
    found, bad = records(folder)
    report.unreadable = [p.name for p, _ in bad]
    out.mkdir(parents=True, exist_ok=True)
    names = note_names(found)
    manifest = _load(out / MANIFEST)
    fresh: dict[str, list] = {}
    kinds = ("story", "playthrough") if playthroughs else ("story",)
    linked = FORMATS[fmt].wikilinks
    groups = [CampaignNotes(c, chapters, names, folder) for c, chapters in campaigns_of(folder, found)]
    chapter_of = {ch.log: g for g in groups for ch in g.chapters}
    for r in found:
        group = chapter_of.get(r.file)
        stamp = _stamp(folder / r.file) + ([group.stamp] if group is not None else [])
        for kind in kinds:
            suffix = FORMATS[fmt].suffix
            note = out / (names[r.file] + (suffix if kind == "story" else f".playthrough{suffix}"))
            key = f"{r.file}:{kind}:{fmt}" + (":pictures" if pictures else "")
            fresh[key] = stamp
            if manifest.get(key) == stamp and note.exists() and not edited(note.read_text(encoding="utf-8")):
                report.unchanged.append(note.name)  # the game has not changed since it was written
                continue
            stem = names[r.file] if pictures else None
            try:
                if group is not None and group.part(r.file).made is not None:
                    part = group.part(r.file)
                    if linked:  # a chapter of the campaign's book: its cast linked to their notes
                        text, files = group.book.chapter_note(part, fmt, group.links(), stem, kind)
                    else:
                        text, files = rendered(part.log, kind, None, fmt, DEFAULT_PAPER, stem, memory=group.book.found)
                    if not text:
                        raise LogError(part.line)
                else:
                    try:
                        log = read(folder / r.file)
                    except TruncatedLog as e:
                        log = e.intact
                    text, files = rendered(log, kind, None, fmt, DEFAULT_PAPER, stem)
            except LogError as e:
                report.unreadable.append(f"{r.file} ({e})")
                continue
            for name, svg in files.items():  # before the note: it never links to a missing file
                _put_picture(out / name, svg, report)
            _put(note, text, force, report)
    for group in groups:
        key = f"campaign:{group.campaign.name}:{fmt}"
        fresh[key] = [group.stamp, __version__]
        book_note = out / f"{group.book_note}{FORMATS[fmt].suffix}"
        written = manifest.get(f"{key}:notes")
        if manifest.get(key) == fresh[key] and isinstance(written, list) and book_note.exists() \
                and not edited(book_note.read_text("utf-8")):
            fresh[f"{key}:notes"] = written  # nothing in the campaign changed since they were written
            report.unchanged += [Path(str(path)).name for path in written]
            continue
        (out / group.where).mkdir(parents=True, exist_ok=True)
        if linked:
            notes = group.book.notes(fmt, group.book_note, dict(group.links()["chapters"]),
                                     group.where, with_chapters=False)
        else:
            notes = {f"{group.book_note}{FORMATS[fmt].suffix}": group.book.text(fmt)[0]}
        for path, text in notes.items():
            (out / path).parent.mkdir(parents=True, exist_ok=True)
            _put(out / path, text, force, report)
        fresh[f"{key}:notes"] = sorted(notes)
    _put(out / INDEX, index(found, names, fmt, groups), force, report)
    _save(out / MANIFEST, fresh)
    return report


def _stamp(path: Path) -> list:
    """What makes a note stale: its log changed, or storyteller did (its words, its templates)."""
    from storyteller import __version__

    st = path.stat()
    return [st.st_size, st.st_mtime_ns, __version__]


def _load(path: Path) -> dict:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _save(path: Path, data: dict) -> None:
    from storyteller.telling.export import write_atomic

    try:
        write_atomic(path, json.dumps(data, indent=1, sort_keys=True) + "\n")
    except OSError:
        pass  # without it, the next run renders every note again: slower, the same notes


def index(found: list[Record], names: dict[str, str], fmt: str, groups: list[Any] | None = None) -> str:
    """The index note: every session in a table, each campaign's chapters in order with its
    book, then the statistics."""
    from urllib.parse import quote as url

    from storyteller import registry
    from storyteller.telling.filters import cell, inline, note_link
    from storyteller.study.stats import RESULTS, compute

    def describe(r: Record) -> str:
        try:
            return registry.rules(r.game).describe_variants(r.variants)
        except registry.RegistryError:
            return "?"

    def link(name: str) -> str:
        return f"[[{name}]]" if FORMATS[fmt].wikilinks else f"[{cell(name)}]({name}{FORMATS[fmt].suffix})"

    def link_to(path: str, text: str) -> str:
        """A link to the note at ``path`` in the vault, showing ``text``."""
        if FORMATS[fmt].wikilinks:
            return note_link(path, text)
        return f"[{inline(text)}]({url(path + FORMATS[fmt].suffix, safe='/')})"

    def registry_title(game: str) -> str:
        try:
            return registry.rules(game).title
        except registry.RegistryError:
            return game or "a game"

    lines = [
        "---",
        'title: "Storyteller sessions"',
        "tags: [\"storyteller\"]",
        "---",
        "",
        "# Storyteller sessions",
        "",
        "| date | game | seed | outcome | journal words | note |",
        "|---|---|---|---|---|---|",
    ]
    for r in reversed(found):  # the newest first
        outcome = inline(r.result) if r.result else "in progress"
        lines.append(f"| {inline(r.date)} | {inline(r.game)} | {inline(r.seed)} | {outcome} | {r.words:,} "
                     f"| {link(names[r.file])} |")
    for group in groups or []:
        c = group.campaign
        noted = {r.file for r in found}
        lines += ["", f"## Campaign: {inline(c.heading)}", "",
                  f"The book: {link_to(group.book_note, c.heading)}", ""]
        for ch in group.chapters:
            title = registry_title(ch.game)
            if ch.missing:
                lines.append(f"{ch.number}. Chapter {ch.number}: its log {inline(ch.log)} was moved or deleted")
            elif ch.log not in noted:
                lines.append(f"{ch.number}. Chapter {ch.number}: its log {inline(ch.log)} cannot be read")
            else:
                lines.append(f"{ch.number}. {link_to(names[ch.log], f'Chapter {ch.number}: {title}')} "
                             f"({inline(ch.status)})")
    own = [r for r in found if r.own]
    stats = compute(own, describe)
    others = len(found) - len(own)
    counted = "Your own games: those played at the terminal or from an answers file."
    if others:
        counted += (f" The {others} game{'s' if others != 1 else ''} of the built-in players (--auto, simulate --logs) "
                    "are listed above but not counted here.")
    lines += ["", "## Statistics", "", counted, "",
              "| game | rules | played | won | lost | utter losses | abandoned | win rate | streak (best) "
              "| mean score | words |",
              "|---|---|---|---|---|---|---|---|---|---|---|"]

    def row(game: str, rules: str, t) -> str:
        rate = "-" if t.win_rate is None else f"{100 * t.win_rate:.1f}%"
        mean = "-" if t.mean_score is None else f"{t.mean_score:.1f}"
        counts = " | ".join(str(t.count(r)) for r in RESULTS)
        return (f"| {game} | {rules} | {t.played} | {counts} | {rate} | {t.streak} ({t.best_streak}) "
                f"| {mean} | {t.words:,} |")

    for game, total in sorted(stats.games.items()):
        kinds = [(v, t) for (g, v), t in sorted(stats.variants.items()) if g == game]
        lines.append(row(f"**{inline(game)}**", "all" if len(kinds) > 1 else inline(kinds[0][0]), total))
        if len(kinds) > 1:
            lines += [row("", inline(rules), t) for rules, t in kinds]
    if len(stats.games) > 1:
        lines.append(row("**all games**", "", stats.total))
    return "\n".join(lines) + "\n"

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


def export_all(folder: Path, out: Path, fmt: str = "markdown", playthroughs: bool = False, force: bool = False,
               pictures: bool = False) -> Report:
    """Write (or bring up to date) a note for every readable log in ``folder`` into ``out``."""
    from storyteller.telling.export import render, render_with_pictures
    from storyteller.log.file import LogError, TruncatedLog, read

    report = Report()
    found, bad = records(folder)
    report.unreadable = [p.name for p, _ in bad]
    out.mkdir(parents=True, exist_ok=True)
    names = note_names(found)
    manifest = _load(out / MANIFEST)
    fresh: dict[str, list] = {}
    kinds = ("story", "playthrough") if playthroughs else ("story",)
    for r in found:
        stamp = _stamp(folder / r.file)
        for kind in kinds:
            suffix = FORMATS[fmt].suffix
            note = out / (names[r.file] + (suffix if kind == "story" else f".playthrough{suffix}"))
            key = f"{r.file}:{kind}:{fmt}" + (":pictures" if pictures else "")
            fresh[key] = stamp
            if manifest.get(key) == stamp and note.exists() and not edited(note.read_text(encoding="utf-8")):
                report.unchanged.append(note.name)  # the game has not changed since it was written
                continue
            try:
                try:
                    log = read(folder / r.file)
                except TruncatedLog as e:
                    log = e.intact
                if pictures:
                    text, files = render_with_pictures(log, names[r.file], kind, format=fmt)
                else:
                    text, files = render(log, kind, format=fmt), {}
            except LogError as e:
                report.unreadable.append(f"{r.file} ({e})")
                continue
            for name, svg in files.items():  # before the note: it never links to a missing file
                _put_picture(out / name, svg, report)
            _put(note, text, force, report)
    _put(out / INDEX, index(found, names, fmt), force, report)
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


def index(found: list[Record], names: dict[str, str], fmt: str) -> str:
    """The index note: every session in a table, then the statistics."""
    from storyteller import registry
    from storyteller.telling.filters import cell, inline
    from storyteller.study.stats import RESULTS, compute

    def describe(r: Record) -> str:
        try:
            return registry.rules(r.game).describe_variants(r.variants)
        except registry.RegistryError:
            return "?"

    def link(name: str) -> str:
        return f"[[{name}]]" if FORMATS[fmt].wikilinks else f"[{cell(name)}]({name}{FORMATS[fmt].suffix})"

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

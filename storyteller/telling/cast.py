"""What a campaign remembers, as plain data for the export context and the book: the
campaign (its name, title, protagonist), its cast (every card met and every person and
place the player tagged, with each appearance) and its threads.

A chapter's context holds the campaign as it stood when the chapter ended: the cast met or
named in that chapter, each with its history up to it, and the threads opened by then
(:func:`part`). The book holds all of it (:func:`members`, :func:`threads`). The memory
itself is :func:`storyteller.play.campaign.remember`'s."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from storyteller.core import tags as tagging
from storyteller.log.file import GameLog
from storyteller.play import campaign as campaigns

KINDS = {"card": "card", "N": "person", "L": "place"}
ALL = 10**9  # "every chapter"


def memory_of(log: GameLog) -> tuple[campaigns.Campaign, campaigns.Memory] | None:
    """The campaign a chapter's log belongs to and what it remembers up to that chapter
    (the chapters before it, as the campaign lists them, and the log itself); None for a
    log that is no chapter. A campaign whose file is gone is rebuilt from the logs that
    name it."""
    field = log.header.campaign
    if not field:
        return None
    name, number = field["name"], field["chapter"]
    try:
        c = campaigns.load(name)
    except campaigns.CampaignError:
        c = campaigns.Campaign(name)
    here = Path(log.path).name if log.path else ""
    done = [ch for ch in campaigns.chapters(c) if ch.number < number and ch.log != here]
    if log.path:
        done.append(campaigns.Chapter(number, here, Path(log.path), log.game, log.seed))
    return c, campaigns.remember(c, done)


def about(c: campaigns.Campaign) -> dict[str, Any]:
    who = c.protagonist
    return {"name": c.name, "title": c.heading,
            "protagonist": {"name": who.name, "line": who.line, "wants": who.wants}}


def part(log: GameLog, found: tuple[campaigns.Campaign, campaigns.Memory]) -> dict[str, Any]:
    """The context's ``campaign``, ``cast`` and ``threads`` of a chapter's log, from its
    campaign's memory (``found``: of every chapter, or of those up to this one)."""
    c, memory = found
    field = log.header.campaign
    assert field is not None
    number = field["chapter"]
    return {
        "campaign": {**about(c), "chapter": number, "recap": field.get("recap", "")},
        "cast": members(memory, number, only=True),
        "threads": threads(memory, number),
    }


def _notes(memory: campaigns.Memory, until: int) -> dict[str, list[str]]:
    """The notes of each tag (by the cast's key), in order, each once, from the entries of
    the chapters up to ``until``."""
    out: dict[str, list[str]] = {}
    for told in memory.told:
        if told.chapter.number > until:
            continue
        for entry in told.entries:
            for tag in tagging.find(entry.text):
                if tag.kind != "Thread" and tag.note:
                    seen = out.setdefault(tag.key, [])
                    if tag.note not in seen:
                        seen.append(tag.note)
    return out


def members(memory: campaigns.Memory, until: int = ALL, only: bool = False) -> list[dict[str, Any]]:
    """The cast as plain data, as it stood at the end of chapter ``until`` (every chapter by
    default): the player's people and places first, in the order first tagged, then the
    cards, in the order first met; ``only``: those met or named in that chapter alone."""
    notes = _notes(memory, until)
    out: list[dict[str, Any]] = []
    for m in memory.cast.values():
        seen = [a for a in m.appearances if a.chapter <= until]
        named = [(ch, n) for ch, n in m.mentions if ch <= until]
        if not seen and not named:
            continue
        if only and not any(a.chapter == until for a in seen) and not any(ch == until for ch, _ in named):
            continue
        chapters = sorted({a.chapter for a in seen} | {ch for ch, _ in named})
        out.append({
            "key": m.key, "name": m.name, "kind": KINDS[m.kind],
            "appearances": [{"chapter": a.chapter, "game": a.game, "role": a.role, "fate": a.fate, "step": a.step,
                             "answered": a.answered} for a in seen],
            "mentions": [{"chapter": ch, "entry": n} for ch, n in named],
            "notes": notes.get(m.key, []) if m.kind != "card" else [],
            "note": m.note,
            "chapters": chapters,
            "first": chapters[0],
        })
    tagged = [m for m in out if m["kind"] != "card"]
    cards = sorted((m for m in out if m["kind"] == "card"),
                   key=lambda m: (m["first"], min((a["step"] for a in m["appearances"] if a["chapter"] == m["first"]),
                                                  default=0), m["name"]))
    return tagged + cards


def threads(memory: campaigns.Memory, until: int = ALL) -> list[dict[str, Any]]:
    """The threads the player opened by the end of chapter ``until``: where each was opened,
    where it was closed (null while it is open) and every entry that names it."""
    out = []
    for t in memory.threads.values():
        if t.opened is None or t.opened[0] > until:
            continue
        closed = t.closed if t.closed is not None and t.closed[0] <= until else None
        out.append({
            "key": tagging.key(t.name), "name": t.name,
            "opened": {"chapter": t.opened[0], "entry": t.opened[1]},
            "closed": {"chapter": closed[0], "entry": closed[1]} if closed else None,
            "open": closed is None,
            "mentions": [{"chapter": ch, "entry": n} for ch, n in t.mentions if ch <= until],
        })
    return out

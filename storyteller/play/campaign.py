"""Campaigns: one story across many games.

A campaign is a small TOML file in the sessions folder (``campaigns/NAME.toml``): its name
and title, the protagonist, the chapters (their logs' file names, in order) and the
player's own notes on the cast. Each chapter's log names the campaign in its header (see
:class:`storyteller.log.events.Header`), so everything else is rebuilt from the logs: the
chapters themselves if the file is lost or spoilt, the cast (every card met and what became
of it, every person, place and thread the player tagged) and the threads.

Writes take a lock beside the file and replace it whole (written aside, flushed, renamed):
two sessions cannot corrupt it, and a kill at any moment leaves the old file or the new one.
A chapter's log is made before the file names it; a log that names a campaign the file
does not list is still its chapter (:func:`chapters`).

:class:`Recaller` asks the questions that carry the story across chapters: a bridge at
the start of each chapter after the first, a recall when a card met in an earlier chapter
comes up again, and now and then a question about a person, place or thread the player
tagged. Their ids start with ``campaign:``; their words are the log's."""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from storyteller.core import tags as tagging
from storyteller.core.errors import UserError
from storyteller.core.narrative import shared_prompts
from storyteller.core.rng import Stream
from storyteller.core.words import command_line
from storyteller.log import store
from storyteller.log.events import CAMPAIGN_NAME, End, Header, JournalEntry, Question as QuestionEvent
from storyteller.log.file import GameLog, LogError, TruncatedLog, now, sync_folder
from storyteller.play.questions import CAMPAIGN, Game, Occasion, Question, QuestionLog

PREFIX = CAMPAIGN  # the ids of the questions a campaign asks
FOLDER = "campaigns"
MAX_TEXT = 300  # characters of a protagonist's name, line, want, a title or a note
SPACING = 2  # questions of the game's own between two of the campaign's, at least
MAX_RECALLS = 3  # cards from earlier chapters recalled in one chapter, at most


class CampaignError(UserError):
    """A campaign that cannot be found, read or written: one line for the player."""


def words() -> dict[str, Any]:
    return shared_prompts("campaign")


# -- the file --------------------------------------------------------------------------------


@dataclass
class Protagonist:
    name: str = ""
    line: str = ""  # who they are, in a line
    wants: str = ""


@dataclass
class Campaign:
    name: str
    title: str = ""
    protagonist: Protagonist = field(default_factory=Protagonist)
    created: str = ""
    chapters: list[str] = field(default_factory=list)  # log file names, in the sessions folder, in order
    notes: dict[str, str] = field(default_factory=dict)  # the player's notes on the cast, by name
    problems: list[str] = field(default_factory=list)  # what was wrong with the file as read

    @property
    def heading(self) -> str:
        return self.title or self.name


def folder() -> Path:
    return store.sessions_dir() / FOLDER


def check_name(name: str) -> str:
    if not CAMPAIGN_NAME.fullmatch(name or ""):
        raise CampaignError(f"a campaign's name is letters, digits, - and _, at most 40, starting with a letter or "
                            f"digit (not {name!r})")
    return name


def path_of(name: str) -> Path:
    return folder() / f"{check_name(name)}.toml"


def names() -> list[str]:
    try:
        return sorted(p.stem for p in folder().glob("*.toml") if CAMPAIGN_NAME.fullmatch(p.stem))
    except OSError:
        return []


def _text(value: Any, limit: int = MAX_TEXT) -> str:
    if not isinstance(value, str):
        return ""
    return " ".join(value.split())[:limit]


def parse(name: str, text: str) -> Campaign:
    """A campaign from its file's text; what cannot be read is left out and said in
    ``problems`` (the chapters are then rebuilt from the logs)."""
    from storyteller.config import toml_reader

    reader = toml_reader()
    c = Campaign(name)
    try:
        data = reader.loads(text)
    except (reader.TOMLDecodeError, ValueError) as e:
        c.problems.append(f"its file is not TOML storyteller can read ({e}); the chapters are rebuilt from the logs "
                          "that name the campaign")
        return c
    c.title = _text(data.get("title"))
    c.created = _text(data.get("created"), 40)
    who = data.get("protagonist")
    if isinstance(who, dict):
        c.protagonist = Protagonist(_text(who.get("name")), _text(who.get("line")), _text(who.get("wants")))
    chapters = data.get("chapters", [])
    if not isinstance(chapters, list) or not all(isinstance(x, str) for x in chapters):
        c.problems.append("its list of chapters is not a list of log names; the chapters are rebuilt from the logs")
        chapters = []
    seen: set[str] = set()
    for log in chapters:
        base = Path(log).name
        if base != log or not base.endswith(".jsonl"):
            c.problems.append(f"a chapter names {log!r}, which is not a log in the sessions folder; left out")
        elif base in seen:
            c.problems.append(f"two chapters claim the same log, {base}; it is kept once, as the earlier")
        else:
            seen.add(base)
            c.chapters.append(base)
    notes = data.get("notes", {})
    if isinstance(notes, dict):
        c.notes = {_text(k, tagging.MAX_NAME): _text(v) for k, v in notes.items() if _text(k) and _text(v)}
    return c


def dump(c: Campaign) -> str:
    import tomlkit

    doc = tomlkit.document()
    doc.add(tomlkit.comment("A storyteller campaign: the chapters are logs in the sessions folder; the notes are "
                            "yours."))
    doc["name"] = c.name
    doc["title"] = c.title
    doc["created"] = c.created
    who = tomlkit.table()
    who["name"], who["line"], who["wants"] = c.protagonist.name, c.protagonist.line, c.protagonist.wants
    doc["protagonist"] = who
    chapters = tomlkit.array()
    chapters.multiline(True)
    chapters.extend(c.chapters)
    doc["chapters"] = chapters
    notes = tomlkit.table()
    for k, v in c.notes.items():
        notes[k] = v
    doc["notes"] = notes
    return tomlkit.dumps(doc)


def load(name: str) -> Campaign:
    """The campaign called ``name`` (CampaignError if there is none)."""
    path = path_of(name)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        known = names()
        hint = (f" (campaigns: {', '.join(known)})" if known
                else f" (start one with: {command_line('campaign', 'new', 'NAME')})")
        raise CampaignError(f"no campaign called {name!r}{hint}") from None
    except (OSError, UnicodeDecodeError) as e:
        why = e.strerror if isinstance(e, OSError) and e.strerror else str(e)
        return Campaign(name, problems=[f"its file cannot be read ({why}); the chapters are rebuilt from the logs"])
    return parse(name, text)


@contextmanager
def locked(name: str) -> Iterator[None]:
    """Hold the campaign's lock (waiting for it) while its file is read, changed and written."""
    where = folder()
    try:
        where.mkdir(parents=True, exist_ok=True)
        fd = os.open(where / f".{check_name(name)}.lock", os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as e:
        raise CampaignError(f"{where}: cannot write campaigns there ({e.strerror or e})") from None
    try:
        if sys.platform != "win32":
            import fcntl

            try:
                fcntl.flock(fd, fcntl.LOCK_EX)
            except OSError:
                pass  # a file system without locks: write as before
        yield
    finally:
        os.close(fd)  # closing releases the lock


def save(c: Campaign) -> None:
    """Replace the campaign's file whole (hold :func:`locked`)."""
    path = path_of(c.name)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(dump(c))
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
        sync_folder(path.parent)
    except OSError as e:
        try:
            tmp.unlink()
        except OSError:
            pass
        raise CampaignError(f"{path}: cannot write the campaign ({e.strerror or e})") from None


def create(name: str, title: str = "", protagonist: Protagonist | None = None) -> Campaign:
    with locked(name):
        if path_of(name).exists():
            shown = command_line("campaign", "show", name)
            raise CampaignError(f"there is already a campaign called {name!r}: {shown}")
        c = Campaign(name, _text(title), protagonist or Protagonist(), created=now())
        c.protagonist = Protagonist(*(_text(x) for x in (c.protagonist.name, c.protagonist.line,
                                                          c.protagonist.wants)))
        save(c)
    return c


# -- the chapters ----------------------------------------------------------------------------


@dataclass
class Chapter:
    """One chapter: its number, its log, and what its header and ends say (``missing``: the
    log was moved or deleted; ``problem``: it cannot be read)."""

    number: int
    log: str
    path: Path
    game: str = ""
    seed: str = ""
    started: str = ""
    status: str = ""
    missing: bool = False
    problem: str = ""

    @property
    def finished(self) -> bool:
        return self.status not in ("in progress", "cut off", "unreadable", "")


def chapters(c: Campaign) -> list[Chapter]:
    """The campaign's chapters in order: those its file lists, then any log in the sessions
    folder whose header names the campaign and which the file does not list (a chapter begun
    when the file could not be written, or after it was lost), by when it started. A listed
    log whose header names another campaign is left out, with a problem said."""
    here = store.sessions_dir()
    by_name = {s.name: s for s in store.summaries(here)}
    listed = []
    for log in c.chapters:
        s = by_name.get(log)
        if s is not None and s.campaign and s.campaign != c.name:
            c.problems.append(f"{log} is a chapter of the campaign {s.campaign!r} (its header says so); left out here")
            continue
        listed.append(log)
    from storyteller.log.records import made_order

    extra = sorted((s for s in by_name.values() if s.campaign == c.name and s.name not in listed),
                   key=lambda s: (s.started, *made_order(s.name, set(by_name))))
    out = []
    for i, log in enumerate(listed + [s.name for s in extra], start=1):
        s = by_name.get(log)
        if s is None:
            out.append(Chapter(i, log, here / log, missing=True))
        else:
            out.append(Chapter(i, log, s.path, s.game, s.seed, s.started, s.status,
                               problem=s.problem if s.status == "unreadable" else ""))
    return out


def begin_chapter(name: str, start: Any) -> Any:
    """Start the next chapter of campaign ``name``: under the campaign's lock, ``start`` is
    called with the chapter's header field ({"name", "chapter", "recap"}) and makes the log
    (returning what it returns, whose ``path`` is the log); the file then lists it."""
    with locked(name):
        c = load(name)
        if c.problems:
            raise CampaignError(f"the campaign {name!r} cannot be played on as it is: {c.problems[0]} "
                                f"(see {command_line('campaign', 'show', name)})")
        done = chapters(c)
        memory = remember(c, done)
        number = len(done) + 1
        made = start({"name": name, "chapter": number, "recap": memory.recap()})
        c.chapters = [ch.log for ch in done] + [Path(made.path).name]
        save(c)
    return made


# -- what the campaign remembers -------------------------------------------------------------


@dataclass
class Appearance:
    chapter: int
    game: str
    role: str
    fate: str  # what became of it there, in words ("came to court to watch you")
    step: int  # the step of the log where it took that role
    answered: bool = False  # the player answered a question about it there
    wrote: str = ""  # ... and what they wrote


@dataclass
class Member:
    """One of the cast: a card met in some chapter (``kind`` "card"), or a person ("N") or
    place ("L") the player tagged."""

    key: str
    name: str
    kind: str
    appearances: list[Appearance] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # the notes of its tags, in order, each once
    mentions: list[tuple[int, int]] = field(default_factory=list)  # (chapter, entry n) naming it
    note: str = ""  # the player's own note in the campaign file

    @property
    def first(self) -> int | None:
        seen = [a.chapter for a in self.appearances] + [ch for ch, _ in self.mentions]
        return min(seen) if seen else None


@dataclass
class Thread:
    name: str
    opened: tuple[int, int] | None = None  # (chapter, entry n)
    closed: tuple[int, int] | None = None
    mentions: list[tuple[int, int]] = field(default_factory=list)

    @property
    def open(self) -> bool:
        return self.closed is None


@dataclass
class Told:
    """A chapter as the campaign remembers it."""

    chapter: Chapter
    title: str = ""
    result: str = ""
    last_words: str = ""
    entries: list[JournalEntry] = field(default_factory=list)
    asked: list[str] = field(default_factory=list)  # the campaign's questions asked in it, their words
    readable: bool = True


@dataclass
class Memory:
    campaign: Campaign
    told: list[Told] = field(default_factory=list)
    cast: dict[str, Member] = field(default_factory=dict)
    threads: dict[str, Thread] = field(default_factory=dict)

    @property
    def texts(self) -> set[str]:
        return {t for told in self.told for t in told.asked}

    def named(self) -> list[Member]:
        """The people and places the player tagged, in the order first tagged."""
        return [m for m in self.cast.values() if m.kind in ("N", "L")]

    def open_threads(self) -> list[Thread]:
        return [t for t in self.threads.values() if t.open]

    def last(self) -> Told | None:
        """The last chapter played to its end (else the last that can be read), which the
        next one follows on from."""
        readable = [t for t in self.told if t.readable and t.chapter.game]
        return next((t for t in reversed(readable) if t.result), readable[-1] if readable else None)

    def recap(self) -> str:
        """The story so far, in a few sentences, for the next chapter's start ("" before the
        first chapter)."""
        w = words()
        who = self.campaign.protagonist
        out = []
        if who.name or who.line:
            out.append(f"You are {', '.join(x for x in (who.name, _clause(who.line)) if x)}.")
        if who.wants:
            wants = _clause(who.wants)
            out.append(f"You want {wants}." if wants.startswith("to ") else f"What you want: {_quoted(wants)}")
        last = self.last()
        earlier = [t for t in self.told if t is not last and t.readable and t.title]
        if earlier:
            done = ", ".join(f"{t.title} ({t.result or 'unfinished'})" for t in earlier[-4:])
            more = f" and {len(earlier) - 4} more" if len(earlier) > 4 else ""
            out.append(f"Behind you: {done}{more}.")
        if last is not None and last.result:
            ending = w["ending"].get(last.chapter.game, {}).get(last.result, "")
            where = w["where"].get(last.chapter.game, "")
            if ending and where:
                when = "Last time" if last is self.told[-1] else f"In chapter {last.chapter.number}"
                out.append(f"{when}, {where}, {ending}.")
            if last.last_words:
                out.append(f"The last words written there: \u201c{_excerpt(last.last_words)}\u201d")
        elif self.told:
            out.append(f"{len(self.told)} chapter{'s' if len(self.told) != 1 else ''} before this one, "
                       "left unfinished.")
        threads = self.open_threads()
        if threads:
            said = ", ".join(_quoted(t.name) for t in threads[:3])
            out.append(f"Still open: {said}" + ("" if said.endswith(("?\u201d", "!\u201d", ".\u201d")) else "."))
        return " ".join(out)


def _clause(text: str) -> str:
    """The player's words as part of a sentence: no full stop, and "To find..." as "to find..."."""
    text = text.strip().rstrip(".")
    first, _, rest = text.partition(" ")
    return f"{first.lower()} {rest}" if rest and first in ("To", "A", "An", "The") else text


def _excerpt(text: str, limit: int = 200) -> str:
    """The player's words, their tags read as names, cut at the end of a sentence that fits
    (else at a word)."""
    text = " ".join(tagging.plain(text).split())
    if len(text) <= limit:
        return text
    ends = [m.end() for m in re.finditer(r"[.!?](?=\s)", text[:limit + 1])]
    if ends and ends[-1] > limit // 3:
        return text[:ends[-1]]
    cut = text[:limit].rsplit(" ", 1)[0]
    return cut.rstrip(",;:") + "\u2026"


def _sentence(text: str, limit: int = 110) -> str:
    """The first sentence of the player's words, if it is short enough to quote in a question."""
    text = " ".join(tagging.plain(text).split())
    m = re.match(r"(.+?[.!?])(\s|$)", text)
    first = m.group(1) if m else text
    return first if 0 < len(first) <= limit else ""


def _quoted(text: str) -> str:
    """A thread's words in quotes, ending as a sentence ends."""
    text = text.strip()
    return f"\u201c{text}\u201d" if text[-1:] in "?!." else f"\u201c{text}.\u201d"


def remember(c: Campaign, done: list[Chapter] | None = None) -> Memory:
    """What the campaign's chapters hold: each chapter read and replayed (one that cannot be
    is remembered as unreadable), the cards met and what became of them, the people, places
    and threads the player tagged, and the campaign's own questions asked."""
    memory = Memory(c)
    for chapter in done if done is not None else chapters(c):
        told = Told(chapter)
        memory.told.append(told)
        log = _read(chapter)
        if log is None:
            told.readable = False
            continue
        _hear(memory, told, log)
    for name, note in c.notes.items():
        member = memory.cast.get(tagging.key(name))
        if member is not None:
            member.note = note
    return memory


def _read(chapter: Chapter) -> GameLog | None:
    if chapter.missing:
        return None
    try:
        return store.open_log(chapter.path)
    except TruncatedLog as e:
        return e.intact
    except LogError:
        return None


def _hear(memory: Memory, told: Told, log: GameLog) -> None:
    from storyteller import registry
    from storyteller.log.replay import walk

    try:
        reg = registry.get(log.game)
        told.title = reg.rules.title
    except Exception:  # a game this version does not know: its words are kept, its cards are not
        reg = None
    number = told.chapter.number
    if reg is not None:
        heard = QuestionLog.of(reg, log.seed)
        try:
            walk(log, listeners=[heard])
        except LogError:
            told.readable = False
        else:
            said = {e.question: e.text for e in log.journal() if e.question is not None}
            answered: dict[tuple[int, str], str] = {}  # (step, the card its question names, or "") -> words
            for n, a in heard.asked.items():
                if a.answered and a.about is not None:
                    parts = a.event.id.split(":")
                    named = parts[1] if len(parts) >= 3 and not a.event.id.startswith(PREFIX) else ""
                    answered.setdefault((a.about, named), said.get(n, ""))
            _cards(memory, number, log.game, heard.asker.game, reg, answered)
    end = log.end
    told.result = end.result if isinstance(end, End) else ""
    told.asked = [e.text for e in log.events if isinstance(e, QuestionEvent) and e.id.startswith(PREFIX)]
    told.entries = list(log.journal())
    if told.entries:
        told.last_words = told.entries[-1].text
    for entry in told.entries:
        _tags(memory, number, entry)


def _cards(memory: Memory, chapter: int, game: str, facts: Game, reg: Any,
           answered: dict[tuple[int, str], str]) -> None:
    """The cards of one chapter, each with what became of it there (the last role it took)
    and, if the player answered a question about it, the first thing they wrote of it."""
    fates = words()["fates"].get(game, {})
    last: dict[str, tuple[int, str]] = {}
    spoken: dict[str, str] = {}  # the cards the player answered a question about, and their words
    for n, role in facts.facts:
        if role.role in fates:
            who = cast_key(game, role.card, reg, role.role)
            if who is not None:
                last[who[0]] = (n, role.role)
                memory.cast.setdefault(who[0], Member(who[0], who[1], "card"))
                words_ = answered.get((n, role.card))  # a question about this very card, answered
                if words_ is None and (n, "") in answered:  # one about the step, naming no card
                    words_ = answered[(n, "")]
                if words_ is not None:
                    spoken.setdefault(who[0], words_)
    for key, (n, took) in last.items():
        memory.cast[key].appearances.append(Appearance(chapter, game, took, fates[took], n, key in spoken,
                                                       spoken.get(key, "")))


def cast_key(game: str, card_id: str, reg: Any = None, role: str = "") -> tuple[str, str] | None:
    """How the cast knows a card: its key and its name ("sailor", "the Sailor"). A Decktet
    card other than an Ace is the same one in every Decktet game; a Carddom card is its
    people ("the dwarves") or its overlord ("the witch"), by what it is in the tale."""
    from storyteller.core import decktet

    if card_id in decktet.by_id():
        face = decktet.get(card_id)
        if face.rank == "Ace" or not face.name:
            return None
        return card_id, decktet.name(card_id)
    if game == "carddom" and reg is not None:
        from storyteller.core.cards import all_cards

        card = all_cards().get(card_id)
        if card is None or card.rank == "Joker":
            return None
        p = reg.prompt_data
        if role == "overlord":  # "a secret society": the overlord, by what it is
            kind = p["overlord_kind"][card.rank].split(" ", 1)[-1]
            return f"carddom:overlord:{kind}", f"the {kind}"
        people = p["people"][card.suits[0]]
        return f"carddom:{people}", f"the {people}"
    return None


def _tags(memory: Memory, chapter: int, entry: JournalEntry) -> None:
    text = entry.text
    found = tagging.find(text)
    for tag in found:
        where = (chapter, entry.n)
        if tag.kind == "Thread":
            thread = memory.threads.setdefault(tag.key, Thread(tag.name))
            if thread.opened is None:
                thread.opened = where
            if tag.closed:
                thread.closed = thread.closed or where
            elif tag.note.strip().lower() == "open" and thread.closed is not None:
                thread.closed = None  # opened again
            thread.mentions.append(where)
            continue
        member = memory.cast.setdefault(tag.key, Member(tag.key, tag.name, tag.kind))
        if tag.note and tag.note not in member.notes:
            member.notes.append(tag.note)
        if where not in member.mentions:
            member.mentions.append(where)
    tagged = {t.key for t in found}
    named = [m.name for m in memory.named()]
    for k in tagging.mentions(text, named) - tagged:
        known = memory.cast.get(k)
        if known is not None and (chapter, entry.n) not in known.mentions:
            known.mentions.append((chapter, entry.n))


# -- the questions that remember -------------------------------------------------------------


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", tagging.key(text)).strip("-")[:40] or "x"


class Recaller:
    """The campaign's questions in one chapter (its header's ``campaign``): heard by the
    chapter's :class:`QuestionLog`, which asks through it (:meth:`instead`)."""

    def __init__(self, memory: Memory, chapter: int, game: str, seed: str, reg: Any) -> None:
        self.memory = memory
        self.chapter = chapter
        self.game = game
        self.seed = seed
        self.reg = reg
        self.since = 0  # the game's own questions since the campaign's last
        self.recalled: set[str] = set()  # cast keys recalled in this chapter
        self.used: set[str] = set(memory.texts)  # the campaign's questions' words, asked anywhere
        self.turn = 0
        self.bridged = False  # the bridge from the chapter before was asked
        self.frames: set[str] = set()  # the campaign's frames asked in this chapter ("recall:3"), each once
        self.about: set[str] = set()  # the cards the game's own questions were about in this chapter

    @classmethod
    def of(cls, header: Header, reg: Any) -> Recaller | None:
        """The recaller of a chapter's log header, or None if it is no chapter (or its
        campaign cannot be read: the game's own questions are asked then)."""
        field_ = header.campaign
        if not field_:
            return None
        try:
            c = load(field_["name"])
            done = [ch for ch in chapters(c) if ch.number < field_["chapter"]]
        except (UserError, OSError):
            return None
        return cls(remember(c, done), field_["chapter"], header.game, header.seed, reg)

    def hear(self, event: QuestionEvent) -> None:
        parts = event.id.split(":")
        if event.id.startswith(PREFIX):
            self.since = 0
            self.used.add(event.text)
            if len(parts) >= 3:
                self.frames.add(f"{parts[1]}:{parts[-1]}")
            if len(parts) >= 3 and parts[1] == "recall":
                self.recalled.add(parts[2])
            if parts[1].startswith("bridge"):
                self.bridged = True
        else:
            self.since += 1
            if len(parts) >= 2:
                self.about.add(parts[1])  # a card the game asked about in this chapter

    def _pick(self, kind: str, options: list[tuple[str, str]], n: int) -> Question | None:
        def frame(qid: str) -> str:
            parts = qid.split(":")
            return f"{parts[1]}:{parts[-1]}"

        fresh = [(qid, text) for qid, text in options if text not in self.used and frame(qid) not in self.frames]
        if not fresh:
            return None
        order = Stream(self.seed, "campaign", kind, str(n)).shuffled(range(len(fresh)))
        qid, text = fresh[order[0]]
        return Question(qid, text, ())

    def instead(self, occasion: Occasion | None, game: Game, chosen: Question | None, n: int,
                start: bool = False, end: bool = False) -> Question | None:
        """The campaign's question to ask at event ``n`` in place of ``chosen`` (the game's
        own, None if it asks nothing here), or None to leave it be."""
        if self.chapter < 2 or end:
            return None
        if not self.bridged and (start or chosen is not None):  # the chapter's first question: a bridge
            return self.bridge(n)
        if chosen is None or occasion is None:
            return None
        role = occasion.role
        card = role.card if role.card not in ("", "*", "any") else None
        if self.since >= 1 and card:  # a card met before: its first question in the chapter recalls it
            recall = self.recall(role.role, card, n)
            if recall is not None:
                return recall
        if self.since < SPACING:
            return None
        thing = self.thing(role, card)
        return self.named(thing, n)

    def bridge(self, n: int) -> Question | None:
        w = words()
        last = self.memory.last()
        since = w["since"].get(last.chapter.game, "the last chapter") if last else "the last chapter"
        options = [(f"{PREFIX}bridge:{i}", f.format(since=since)) for i, f in enumerate(w["bridge"])]
        threads = self.memory.open_threads()
        if threads:
            newest = threads[-1].name
            options += [(f"{PREFIX}bridge-thread:{i}:{_slug(newest)}", f.format(thread=_quoted(newest)))
                        for i, f in enumerate(w["bridge-thread"])]
        wants = self.memory.campaign.protagonist.wants
        if wants and _clause(wants).startswith("to "):
            said = _clause(wants) + "."
            options += [(f"{PREFIX}bridge-wants:{i}", f.format(wants=said)) for i, f in enumerate(w["bridge-wants"])]
        return self._pick("bridge", options, n)

    def recall(self, role: str, card: str, n: int) -> Question | None:
        w = words()
        now_words = w["now"].get(self.game, {}).get(role)
        who = cast_key(self.game, card, self.reg, role)
        if (now_words is None or who is None or who[0] in self.recalled or len(self.recalled) >= MAX_RECALLS
                or card in self.about):
            return None
        member = self.memory.cast.get(who[0])
        if member is None:
            return None
        remembered = [a for a in member.appearances if a.answered]  # what the player wrote about
        if not remembered:
            return None
        past = remembered[-1]
        where = w["where"].get(past.game, "")
        when = "In the last chapter" if past.chapter == self.chapter - 1 else f"In chapter {past.chapter}"
        name = member.name
        again = " again" if past.game == self.game and past.role == role else ""
        wrote = _sentence(past.wrote)
        said = f" You wrote then: \u201c{wrote}\u201d" if wrote else ""
        lead = f"{when}, {where}, {name} {past.fate}.{said} Now {name} {now_words}{again}."
        options = [(f"{PREFIX}recall:{who[0]}:{i}", f"{lead} {f.format(name=name)}")
                   for i, f in enumerate(w["recall"][_kind_of(card)])]
        return self._pick("recall", options, n)

    def thing(self, role: Any, card: str | None) -> str:
        if card is None or role.role.startswith("@") or card.startswith("ace-"):  # an Ace is asked as a moment
            return ""
        try:
            words_ = self.reg.questions.words(card, role) or ""
        except Exception:  # a card the game names in no way it knows: a moment's question then
            return ""
        return words_.split(",")[0].strip()  # "the witch, driven by envy": "the witch"

    def named(self, thing: str, n: int) -> Question | None:
        """A question about one of the player's people, places or open threads, taken in turn."""
        w = words()
        people = [m for m in self.memory.named() if m.kind == "N"]
        places = [m for m in self.memory.named() if m.kind == "L"]
        threads = self.memory.open_threads()
        kinds = [k for k, there in (("person", people), ("place", places), ("thread", threads)) if there]
        if not kinds:
            return None
        for i in range(len(kinds)):
            kind = kinds[(self.turn + i) % len(kinds)]
            frames = w[kind] if thing else w[f"{kind}-moment"]
            pools: dict[str, list[Any]] = {"person": people, "place": places, "thread": threads}
            pool = pools[kind]
            options = []
            for who in pool:
                slug = _slug(who.name)
                for j, f in enumerate(frames):
                    if kind == "thread":
                        text = f.format(thread=_quoted(who.name), thing=thing)
                    else:
                        text = f.format(name=who.name, thing=thing)
                    options.append((f"{PREFIX}{kind}:{slug}:{j}", _capital(text)))
            question = self._pick(kind, options, n)
            if question is not None:
                self.turn += i + 1
                return question
        return None


def _kind_of(card_id: str) -> str:
    """What a card is, for a recall: a personality, a location or an event (a Carddom people
    are personalities)."""
    from storyteller.core import decktet

    if card_id not in decktet.by_id():
        return "personality"
    types = decktet.get(card_id).types
    return "location" if "location" in types else "event" if "event" in types else "personality"


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]

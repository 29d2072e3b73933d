"""Journaling questions: one written for every card in every role it takes, asked so that a
player hears a new one each time.

A game's **question bank** (``prompts/<game>.questions.json``) holds, for each *role* a card
can take (Carddom's ``location``, Adaman's ``court``, Hexaract's ``personality-harm``...):

- ``cards``: questions written for each card in that role, in order of depth: a player
  meets the first the first time the card comes in that role, the next one in a later
  game, and so on;
- ``compose``: pieces for when the written ones are used up: a *lead* by suit (a sentence
  naming the card) and an *ask* by rank (a question), joined as "lead ask";
- ``echo``: questions that reach back to an earlier card of the same game, by name.

and ``moments`` (the start, the turning points, the end) with ``moment_echo``: moment
questions that name a card of the game.

Every question has a **stable id** that says exactly which words it is, so its text can be
made again from the id alone (and a log checked against it):

- ``ROLE:CARD:I`` the I-th written question of CARD in ROLE;
- ``ROLE:CARD:c:SUIT:I:RANK:J`` a composed one (lead I of SUIT, ask J of RANK);
- ``ROLE:CARD:e:I:EROLE:ECARD`` echo I, naming ECARD as it was in EROLE.

ROLE may carry a parameter after a dot (``tier.2``: the second fall), and a moment is the
role ``@NAME`` (``@won``, ``@take``) with the card ``*`` where it names none. Ids are only
ever added to a bank, never renumbered: a log keeps meaning what it asked.

**Choosing** (:meth:`Questions.choose`): never a question already asked in this game; across
the player's saved games, the least-asked written question of that card and role first (in
order of depth), then a composed one the player has not met; after the game's 8th reveal,
about one question in four reaches back to an earlier card, when one fits. What the player
has been asked is counted from their logs (:func:`history`); any cache of it is only a cache.

What a step means for the questions (the roles its cards take, the question it raises, if
any) is each game's own: a subclass of :class:`Questions` in ``games/<game>/questions.py``.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any
from collections.abc import Iterable, Sequence

from storyteller.core.rng import Stream
from storyteller.log.events import Correction, End, JournalEntry, Undo, Visitor
from storyteller.log.events import Question as QuestionEvent
from storyteller.log.replay import Step
from storyteller.core.engine import Result

if TYPE_CHECKING:
    from storyteller.registry import Registration

ECHO_AFTER = 8  # reveals (cards turned up) before a question may reach back to an earlier card
ECHO_SHARE = 0.3  # how often, after that, a question that can reach back does
END_MOMENTS: dict[str, str] = {  # the moment each ending asks its last word at
    Result.WON: "won", Result.LOST: "lost", Result.UTTER_LOSS: "utter-loss", Result.ABANDONED: "abandoned",
}


@dataclass(frozen=True)
class Role:
    """What a step made a card be: ``Role("location", "KH")``, ``Role("tier", "mill", "2")``."""

    role: str
    card: str = "*"
    param: str = ""

    @property
    def key(self) -> str:
        return f"{self.role}.{self.param}" if self.param else self.role

    @classmethod
    def of(cls, key: str, card: str = "*") -> Role:
        role, _, param = key.partition(".")
        return cls(role, card, param)


@dataclass(frozen=True)
class Occasion:
    """A question to ask now: for a card in a role (or a moment, the role ``@NAME``), and
    whether it is one of the game's turning points (asked with ``questions = key-moments``)."""

    role: Role
    key: bool = True


@dataclass(frozen=True)
class Question:
    id: str
    text: str
    names: tuple[Role, ...] = ()  # the earlier cards it names, in their roles


@dataclass
class Game:
    """What one game has shown so far, for the questions: the roles its cards took (each
    with the step that gave it), how many cards were turned up, and what was asked."""

    facts: list[tuple[int, Role]] = field(default_factory=list)
    reveals: int = 0
    asked: set[str] = field(default_factory=set)
    texts: set[str] = field(default_factory=set)
    decisions: int = 0
    last_decision: int = 0  # the n of the last decision
    notes: dict[str, Any] = field(default_factory=dict)  # what a game's questions keep for themselves
    state: Any = None  # the table as the last step heard left it (read it while asking, never keep it)
    frames: set[str] = field(default_factory=set)  # the echo frames asked ("court:e:3"): each once a game

    def earlier(self) -> list[tuple[int, Role]]:
        return list(self.facts)

    def since(self, n: int) -> list[tuple[int, Role]]:
        return [(k, r) for k, r in self.facts if k > n]

    def step_of(self, role: Role) -> int | None:
        """The step at which a card took this role (the latest), if it did."""
        for k, r in reversed(self.facts):
            if r.card == role.card and r.key == role.key:
                return k
        return None

    def take_back(self, n: int) -> None:
        """Forget what steps ``n`` and after showed (an undo, a correction)."""
        self.facts = [(k, r) for k, r in self.facts if k < n]


def _fill(text: str, values: dict[str, str]) -> str:
    out = text
    for name, value in values.items():
        out = out.replace("{" + name + "}", value)
        cap = name[:1].upper() + name[1:]
        out = out.replace("{" + cap + "}", value[:1].upper() + value[1:])
    return out


def _text_of(entry: Any) -> str:
    return str(entry["text"]) if isinstance(entry, dict) else str(entry)


def _retired(entry: Any) -> bool:
    return isinstance(entry, dict) and bool(entry.get("retired"))


def frame(role_key: str, i: int) -> str:
    """An echo's frame: its words with the cards it names left out (each asked once a game)."""
    return f"{role_key}:e:{i}"


class Bank:
    """A game's questions, read from its JSON file: the written ones, the pieces to compose
    more, the echoes and the moments. Pure data and text; which card is where is the game's.

    A question's place in its list is its id, for good: one an editor cut stays where it was,
    as ``{"text": ..., "retired": "why"}``, so that a log that asked it still reads; it is
    never asked again (:meth:`live`). A question rewritten is the old one retired and the
    new one added at the end."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.roles: dict[str, Any] = data.get("roles", {})
        self.moments: dict[str, list[str]] = data.get("moments", {})
        self.moment_echo: dict[str, list[dict[str, Any]]] = data.get("moment_echo", {})

    @classmethod
    def load(cls, path: Path) -> Bank:
        return cls(json.loads(path.read_text(encoding="utf-8")))

    def _written(self, role: Role) -> list[Any]:
        if role.role.startswith("@"):
            return list(self.moments.get(role.role[1:], []))
        return list(self.roles.get(role.role, {}).get("cards", {}).get(role.card, []))

    def written(self, role: Role) -> list[str]:
        return [_text_of(e) for e in self._written(role)]

    def _leads(self, role: Role, suit: str) -> list[Any]:
        return list(self.roles.get(role.role, {}).get("compose", {}).get("suit", {}).get(suit, []))

    def leads(self, role: Role, suit: str) -> list[str]:
        return [_text_of(e) for e in self._leads(role, suit)]

    def _asks(self, role: Role, rank: str) -> list[Any]:
        return list(self.roles.get(role.role, {}).get("compose", {}).get("rank", {}).get(rank, []))

    def asks(self, role: Role, rank: str) -> list[str]:
        return [_text_of(e) for e in self._asks(role, rank)]

    def echoes(self, role: Role) -> list[dict[str, Any]]:
        if role.role.startswith("@"):
            return list(self.moment_echo.get(role.role[1:], []))
        return list(self.roles.get(role.role, {}).get("echo", []))

    def live(self, role: Role, what: str, key: str = "") -> list[int]:
        """The places of the questions still asked in a list: ``what`` is "written", "leads"
        (of suit ``key``), "asks" (of rank ``key``) or "echoes"."""
        entries = {"written": lambda: self._written(role), "leads": lambda: self._leads(role, key),
                   "asks": lambda: self._asks(role, key), "echoes": lambda: self.echoes(role)}[what]()
        return [i for i, e in enumerate(entries) if not _retired(e)]

    def size(self) -> int:
        """How many questions are written in it and still asked (card questions and moments)."""
        n = sum(1 for r in self.roles.values() for qs in r.get("cards", {}).values() for q in qs if not _retired(q))
        return n + sum(1 for qs in self.moments.values() for q in qs if not _retired(q))


class Questions:
    """What a game asks, and when: made by the game's registration, with its question bank.

    A game says, for each step, the roles its cards took (:meth:`facts`) and the question
    the step raises, if any (:meth:`occasion`); how a card is named in a role
    (:meth:`words`); and the placeholders a role fills (:meth:`placeholders`). This base
    class reads a game that has no bank of its own the way storyteller always did: the
    teller's ``topic`` of each draw, from the ``questions`` of the game's prompts."""

    def __init__(self, registration: Registration) -> None:
        self.registration = registration
        self.name = registration.name
        path = registration.question_bank
        if path is not None:
            self.bank = Bank.load(path)
        else:
            legacy = registration.prompt_data.get("questions", {})
            self.bank = Bank({"roles": {t: {"cards": {"*": qs}} for t, qs in legacy.items()},
                              "moments": {m: ["A last word for your journal?"] for m in END_MOMENTS.values()}})

    # -- what a game says ---------------------------------------------------------------

    def facts(self, step: Step, game: Game) -> list[Role]:
        """The roles the cards of this step took (for echoes, and the game's own choices):
        a draw, a roll or a decision (a correction is heard as the draw or roll it stands for)."""
        if self.registration.question_bank is None and step.revealed is not None:
            topic = self.registration.teller.topic(step.revealed)
            return [Role(topic)] if topic else []
        return []

    def occasion(self, step: Step, game: Game) -> Occasion | None:
        """The question this step raises (after it), or None."""
        if self.registration.question_bank is None and step.revealed is not None:
            topic = self.registration.teller.topic(step.revealed)
            return Occasion(Role(topic), self.registration.teller.key_moment(step.revealed)) if topic else None
        return None

    def start(self, game: Game) -> Occasion | None:
        """The question asked before the first decision."""
        return Occasion(Role("@start")) if self.bank.moments.get("start") else None

    def end(self, result: str, game: Game) -> Occasion:
        """The last word, once the game is over."""
        return Occasion(Role("@" + END_MOMENTS.get(result, END_MOMENTS[Result.LOST])))

    def words(self, card: str, role: Role) -> str:
        """How the card is named in this role, with a small "the" where it takes one."""
        from storyteller.play.table import card_name

        return card_name(card)

    def placeholders(self, role: Role) -> dict[str, str]:
        """Other words a role fills in (Cascades: ``{fall}`` for tier 2)."""
        return {}

    def echo_words(self, earlier: Role) -> dict[str, str]:
        """Other words an echo naming ``earlier`` fills in, beside ``{earlier}`` (Carddom: the
        character's ``{goal}``). A function of the role alone, as every word of a question is
        of its id."""
        return {}

    def still(self, earlier: Role, game: Game) -> bool:
        """Whether a card is still as it was in ``earlier`` on the table the game shows now
        (``game.state``): at court, on the road, in the hand. An echo names an earlier card
        only so, and a game whose cards change places says when they did; by default every
        card stays as it was."""
        return True

    def card(self, card: str) -> Any:
        """The card's facts (rank, suits), for composing."""
        from storyteller.core.cards import all_cards

        return all_cards().get(card)

    # -- the candidates ------------------------------------------------------------------

    def written_ids(self, role: Role, live: bool = True) -> list[str]:
        places = self.bank.live(role, "written") if live else range(len(self.bank.written(role)))
        return [f"{role.key}:{role.card}:{i}" for i in places]

    def composed_ids(self, role: Role, live: bool = True) -> list[str]:
        c = self.card(role.card) if not role.role.startswith("@") else None
        if c is None:
            return []
        out = []
        for suit in c.suits:
            leads = self.bank.live(role, "leads", suit) if live else range(len(self.bank.leads(role, suit)))
            asks = self.bank.live(role, "asks", c.rank) if live else range(len(self.bank.asks(role, c.rank)))
            for i in leads:
                for j in asks:
                    out.append(f"{role.key}:{role.card}:c:{suit}:{i}:{c.rank}:{j}")
        return out

    def echo_ids(self, role: Role, game: Game, live: bool = True) -> list[str]:
        """The echoes ``role`` may ask, naming the earlier cards their ``with`` allows; when
        asking (``live``), only those still written, whose frame this game has not asked, of
        cards still as they were (:meth:`still`)."""
        out = []
        here = (role.key, role.card)
        echoes = self.bank.echoes(role)
        for i in self.bank.live(role, "echoes") if live else range(len(echoes)):
            if live and frame(role.key, i) in game.frames:
                continue
            allowed = set(echoes[i].get("with", []))
            seen = set()
            for _, earlier in game.facts:
                if earlier.role in allowed and (earlier.key, earlier.card) != here and earlier.card != role.card:
                    key = (earlier.key, earlier.card)
                    if key not in seen and (not live or self.still(earlier, game)):
                        seen.add(key)
                        out.append(f"{role.key}:{role.card}:e:{i}:{earlier.key}:{earlier.card}")
        return out

    def candidates(self, occasion: Occasion, game: Game, live: bool = True) -> tuple[list[str], list[str], list[str]]:
        """The ids this occasion may ask, in three groups: written, composed, echoes (a card's
        echoes only once the game has turned up enough cards). ``live``: only those it asks
        now; else every one it ever could (an older log's question is checked against these)."""
        role = occasion.role
        moment = role.role.startswith("@")  # a moment may name any card the game has shown
        echoes = self.echo_ids(role, game, live) if moment or game.reveals >= ECHO_AFTER else []
        return self.written_ids(role, live), self.composed_ids(role, live), echoes

    # -- an id's words ----------------------------------------------------------------------

    def text(self, qid: str) -> str | None:
        """The words of a question id, or None if this game has no such question."""
        found = self.parse(qid)
        return None if found is None else found[0]

    def parse(self, qid: str) -> tuple[str, Role, tuple[Role, ...]] | None:
        """(text, the role asked about, the earlier roles it names) of an id, or None."""
        parts = qid.split(":")
        if len(parts) < 3:
            return None
        role = Role.of(parts[0], parts[1])
        try:  # an id from a hand-edited log may name a card or a place no game has
            values = {"card": self.words(role.card, role) if role.card != "*" else ""} | self.placeholders(role)
            if len(parts) == 3:
                i = int(parts[2])
                texts = self.bank.written(role)
                if not 0 <= i < len(texts):
                    return None
                return _fill(texts[i], values), role, ()
            if parts[2] == "c" and len(parts) == 7:
                suit, i, rank, j = parts[3], int(parts[4]), parts[5], int(parts[6])
                c = self.card(role.card)
                if c is None or suit not in c.suits or rank != c.rank:
                    return None
                leads, asks = self.bank.leads(role, suit), self.bank.asks(role, rank)
                if not (0 <= i < len(leads) and 0 <= j < len(asks)):
                    return None
                return _fill(f"{leads[i]} {asks[j]}", values), role, ()
            if parts[2] == "e" and len(parts) == 6:
                i = int(parts[3])
                echoes = self.bank.echoes(role)
                if not 0 <= i < len(echoes):
                    return None
                earlier = Role.of(parts[4], parts[5])
                if earlier.role not in echoes[i].get("with", []):
                    return None
                values["earlier"] = self.words(earlier.card, earlier)
                values |= self.echo_words(earlier)
                return _fill(echoes[i]["text"], values), role, (earlier,)
        except (ValueError, KeyError, TypeError, IndexError):
            return None
        return None

    def question(self, qid: str) -> Question | None:
        found = self.parse(qid)
        if found is None:
            return None
        text, role, names = found
        if role.role.startswith("@") and role.card != "*":
            names = (Role("*", role.card),) + names  # a moment that names a card the game showed
        return Question(qid, text, names)

    # -- choosing ----------------------------------------------------------------------------

    def choose(self, occasion: Occasion, game: Game, history: Counter, seed: str, n: int) -> Question | None:
        """The question to ask for ``occasion`` at step ``n`` (see the module's words)."""
        written, composed, echoes = self.candidates(occasion, game)

        def fresh(ids: Iterable[str]) -> list[tuple[str, str]]:
            out = []
            for qid in ids:
                if qid in game.asked:
                    continue
                text = self.text(qid)
                if text and text not in game.texts:
                    out.append((qid, text))
            return out

        w, c, e = fresh(written), fresh(composed), fresh(echoes)
        stream = Stream(seed, "question", str(n))
        if e and stream.random() < ECHO_SHARE:
            unseen = [x for x in e if history[x[0]] == 0]
            if unseen:
                return self.question(stream.choice(unseen)[0])
        for group, in_order in ((w, True), (c, False), (e, False)):
            unseen = [x for x in group if history[x[0]] == 0]
            if unseen:
                return self.question((unseen[0] if in_order else stream.choice(unseen))[0])
        every = w + c + e
        if not every:
            return None
        least = min(history[x[0]] for x in every)
        return self.question(next(x for x in every if history[x[0]] == least)[0])

    def can_ask(self, qid: str, occasion: Occasion | None, game: Game) -> bool:
        """Whether ``qid`` is one of the questions this game could ask for ``occasion`` (a
        log's question is checked so: the history chooses among them, so another may have
        been chosen, but only one of these)."""
        if occasion is None:
            return False
        written, composed, echoes = self.candidates(occasion, game, live=False)
        return qid in written or qid in composed or qid in echoes


HISTORY = ".questions.json"  # what the player was asked, counted per game, with the logs it was counted from
HISTORY_VERSION = 1


def history(folder: Path | None, game: str, leave_out: Path | None = None) -> Counter:
    """How many times the player was asked each question of ``game`` in their saved games
    (the logs a person played in ``folder``, at the terminal or from an answers file; the
    built-in players ask nothing), leaving out the log ``leave_out`` (the game being played).

    Made from the logs (through the records' cache, :mod:`storyteller.log.records`); the counts
    are kept beside them (``.questions.json``) with the size and time of every log they
    were counted from, and made again when any of those changed: only ever a cache."""
    import hashlib
    import os

    counts: Counter = Counter()
    if folder is None or not folder.is_dir():
        return counts
    skip = leave_out.name if leave_out is not None and leave_out.resolve().parent == folder.resolve() else None
    try:
        stamps = sorted((e.name, e.stat().st_size, e.stat().st_mtime_ns) for e in os.scandir(folder)
                        if e.name.endswith(".jsonl") and e.name != skip)
    except OSError:
        return counts
    sig = hashlib.sha256(json.dumps(stamps).encode()).hexdigest()
    path = folder / HISTORY
    try:
        kept = json.loads(path.read_text(encoding="utf-8"))
        found = kept["games"][game] if kept.get("version") == HISTORY_VERSION else None
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        kept, found = {}, None
    if isinstance(found, dict) and found.get("sig") == sig and isinstance(found.get("counts"), dict):
        return Counter({k: v for k, v in found["counts"].items() if type(v) is int})
    from storyteller.log.records import records

    for r in records(folder)[0]:
        if r.game == game and r.own and r.file != skip:
            counts.update(r.questions)
    games = kept.get("games") if isinstance(kept, dict) and kept.get("version") == HISTORY_VERSION else None
    games = dict(games) if isinstance(games, dict) else {}
    games[game] = {"sig": sig, "counts": dict(counts)}
    tmp = folder / f".{HISTORY}.{os.getpid()}.tmp"
    try:
        tmp.write_text(json.dumps({"version": HISTORY_VERSION, "games": games}), encoding="utf-8")
        os.replace(tmp, path)
    except OSError:  # a folder we may read but not write: no cache, the same counts
        try:
            tmp.unlink()
        except OSError:
            pass
    return counts


def role_names(names: Sequence[Role], game: Game) -> list[int]:
    """The step numbers at which the cards a question names were turned up in their roles."""
    out = []
    for r in names:
        if r.role == "*":
            found = next((k for k, f in reversed(game.facts) if f.card == r.card), None)
        else:
            found = game.step_of(r)
        if found is not None:
            out.append(found)
    return out


# -- one game's questions, as it is played or read -----------------------------------------


class Asker:
    """The questions of one game: it hears every step in order (:meth:`hear`), remembers the
    roles the cards took and what was asked, and chooses each question (:meth:`ask`).

    ``history`` counts what the player was asked in their other games (:func:`history`);
    ``setting`` is the ``questions`` setting: ``every-reveal`` asks at each occasion,
    ``key-moments`` at the turning points, ``none`` never (the last word is always asked)."""

    def __init__(self, questions: Questions, seed: str, history: Counter | None = None,
                 setting: str = "every-reveal") -> None:
        self.questions = questions
        self.seed = seed
        self.history = history if history is not None else Counter()
        self.setting = setting
        self.game = Game()
        self.occasions: dict[int, Occasion | None] = {}  # by the n of the step that raised it
        self.started = False  # the start's question was asked (or the first decision is past)

    def hear(self, step: Step) -> Occasion | None:
        """Take in one draw, roll or decision (a correction, as the draw or roll it stands
        for); returns the occasion it raises, if any."""
        game = self.game
        game.state = step.after
        if step.drawn is not None:
            game.reveals += 1
        for role in self.questions.facts(step, game):
            game.facts.append((step.n, role))
        occasion = self.questions.occasion(step, game)
        if step.move is not None:
            game.decisions += 1
            game.last_decision = step.n
            self.started = True
        self.occasions[step.n] = occasion
        return occasion

    def take_back(self, n: int) -> None:
        """An undo of decision ``n``, or a correction of draw ``n``: what those steps showed is
        forgotten (what was asked stays asked)."""
        self.game.take_back(n)

    def wants(self, occasion: Occasion | None, always: bool = False) -> bool:
        if occasion is None:
            return False
        if always:
            return True
        return self.setting == "every-reveal" or (self.setting == "key-moments" and occasion.key)

    def ask(self, occasion: Occasion | None, n: int, always: bool = False) -> Question | None:
        """The question to ask for ``occasion`` at event ``n`` (None when the setting asks
        nothing here, or nothing is left to ask)."""
        if not self.wants(occasion, always):
            return None
        assert occasion is not None
        return self.questions.choose(occasion, self.game, self.history, self.seed, n)

    def start(self) -> Occasion | None:
        if self.started:
            return None
        self.started = True
        return self.questions.start(self.game)

    def end(self, result: str) -> Occasion:
        return self.questions.end(result, self.game)

    def asked(self, qid: str, text: str) -> None:
        self.game.asked.add(qid)
        self.game.texts.add(text)
        parts = qid.split(":")
        if len(parts) == 6 and parts[2] == "e" and parts[3].isdigit():  # an echo: its frame is used up
            self.game.frames.add(frame(parts[0], int(parts[3])))

    def names(self, question: Question) -> list[int]:
        return role_names(question.names, self.game)


@dataclass
class Asked:
    """A question a log recorded, as a replay checks it: its event, whether the game could
    ask it there, the step numbers of the earlier cards it names, and whether it was answered."""

    event: QuestionEvent
    valid: bool
    names: list[int]
    answered: bool = False

    @property
    def about(self) -> int | None:
        return self.event.about


CAMPAIGN = "campaign:"  # the start of the ids of a campaign's questions (see play.campaign)
ORACLE_QUESTION = "oracle"  # the id of the question asked after the oracle's answer
ORACLE_MEANING = "What does that answer mean for your story?"


class QuestionLog(Visitor):
    """The journaling questions of one game, heard step by step in the order the game was
    played: live, in a resumed game's replay and in any later reading of its log alike, so
    that all three agree. A step a later undo takes back was heard when it was played, and
    the undo takes back what it showed, exactly as at the table.

    It keeps an :class:`Asker` (what the cards became, the occasion each step raises, what
    was asked), every question the log records (:class:`Asked`: whether the game could ask it
    where it was asked, the earlier cards it names, whether it was answered), and a note for
    each question the game could not have asked there. A driver that asks questions asks
    them through it (:meth:`ask`)."""

    def __init__(self, questions: Questions, seed: str, history: Counter | None = None,
                 setting: str = "every-reveal", campaign: bool = False) -> None:
        self.questions = questions
        self.asker = Asker(questions, seed, history, setting)
        self.campaign = campaign  # a chapter of a campaign, whose own questions it may ask
        self.recaller: Any = None  # a chapter being played: the campaign's questions (play.campaign.Recaller)
        self.asked: dict[int, Asked] = {}  # by the question's n
        self.notes: list[str] = []
        self.ended: tuple[int, str] | None = None  # the end's n and result
        self.oracles: set[int] = set()  # the n of every question asked of the oracle

    @classmethod
    def of(cls, registration: Registration, seed: str, path: Path | None = None, setting: str = "every-reveal",
           own: bool = False, campaign: bool = False) -> QuestionLog:
        """The questions of a game of ``registration``'s dealt from ``seed``; with ``own``, for a
        player who is asked them, with the history of their other saved games (in the sessions
        folder: the log at ``path``, this game's, left out)."""
        counts: Counter = Counter()
        if own:
            from storyteller.log import store

            try:
                folder = store.sessions_dir()
            except Exception:  # a bad settings file was named when the game began; no history then
                folder = None
            counts = history(folder, registration.name, leave_out=path)
        return cls(registration.questions, seed, counts, setting, campaign)

    # -- hearing the game ------------------------------------------------------------------

    def on_draw(self, step: Step) -> None:
        self.asker.hear(step)

    def on_roll(self, step: Step) -> None:
        self.asker.hear(step)

    def on_decision(self, step: Step) -> None:
        self.asker.hear(step)

    def on_correction(self, step: Step) -> None:
        assert isinstance(step.event, Correction)
        self.asker.take_back(step.event.of)
        self.asker.hear(step)

    def on_undo(self, step: Step) -> None:
        assert isinstance(step.event, Undo)
        self.asker.take_back(step.event.of)
        self.asker.game.state = step.after

    def on_end(self, step: Step) -> None:
        assert isinstance(step.event, End)
        self.ended = (step.n, step.event.result)
        self.asker.game.state = step.after

    def on_oracle(self, step: Step) -> None:
        self.oracles.add(step.n)

    def on_question(self, step: Step) -> None:
        e = step.event
        assert isinstance(e, QuestionEvent)
        questions, asker = self.questions, self.asker
        if self.recaller is not None:
            self.recaller.hear(e)
        if e.id.startswith(CAMPAIGN):  # a campaign's question: its words come from the other chapters
            if e.about is None:
                asker.started = True
            self.asked[e.n] = Asked(e, self.campaign, [])
            if not self.campaign:
                self.notes.append(f"line {e.n + 1}: a campaign's question, in a game that is no campaign's chapter")
            asker.asked(e.id, e.text)
            return
        if e.about is not None and e.about in self.oracles:  # what the oracle's answer means
            self.asked[e.n] = Asked(e, e.id == ORACLE_QUESTION and e.text == ORACLE_MEANING, [])
            if not self.asked[e.n].valid:
                self.notes.append(f"line {e.n + 1}: the question asked here is not one the game asks after that step")
            return
        if e.about is None:
            occasion = questions.start(asker.game)
            asker.started = True
        elif self.ended is not None and e.about == self.ended[0]:
            occasion = questions.end(self.ended[1], asker.game)
        else:
            occasion = asker.occasions.get(e.about)
        valid = questions.can_ask(e.id, occasion, asker.game) and questions.text(e.id) == e.text
        found = questions.question(e.id) if valid else None
        self.asked[e.n] = Asked(e, valid, asker.names(found) if found else [])
        if not valid:
            self.notes.append(f"line {e.n + 1}: the question asked here is not one the game asks after that step")
        asker.asked(e.id, e.text)

    def on_journal(self, step: Step) -> None:
        e = step.event
        assert isinstance(e, JournalEntry)
        if e.question in self.asked:
            self.asked[e.question].answered = True

    # -- asking, in a game being played ----------------------------------------------------

    def ask_start(self, session: Any) -> tuple[Question, Any] | None:
        """The question before the first move, once a game (see :meth:`ask_after`)."""
        if session.decisions:
            self.asker.started = True
        fresh = not self.asker.started
        occasion = self.asker.start()
        if fresh and self.recaller is not None and self.asker.setting != "none":
            bridge = self.recaller.instead(occasion, self.asker.game, None, len(session.log.events) + 1, start=True)
            if bridge is not None:
                return bridge, session.question(bridge.id, bridge.text, None)
        return self._ask(session, occasion, None)

    def ask_after(self, session: Any, step: Step) -> tuple[Question, Any] | None:
        """The question the step just heard raises, chosen, logged through ``session`` and
        returned with its event; None when the setting asks nothing there or nothing is left
        to ask."""
        return self._ask(session, self.asker.occasions.get(step.n), step.n)

    def ask_end(self, session: Any) -> tuple[Question, Any] | None:
        """The last word, asked whatever the setting, once the end is heard."""
        assert self.ended is not None, "the end is asked about once it is heard"
        n, result = self.ended
        return self._ask(session, self.asker.end(result), n, always=True)

    def _ask(self, session: Any, occasion: Occasion | None, about: int | None,
             always: bool = False) -> tuple[Question, Any] | None:
        n = len(session.log.events) + 1
        question = self.asker.ask(occasion, n, always)
        if self.recaller is not None and about is not None and not always:
            question = self.recaller.instead(occasion, self.asker.game, question, n) or question
            if question is not None and question.id.startswith(CAMPAIGN + "bridge"):
                about = None  # the bridge from the chapter before: about no card, at the chapter's start
        if question is None:
            return None
        return question, session.question(question.id, question.text, about)

    def ask_oracle(self, session: Any, oracle: Any) -> tuple[Question, Any]:
        """After the oracle's answer (``oracle``: its event), what it means for the story: the
        start of a journal entry, asked every time."""
        question = Question(ORACLE_QUESTION, ORACLE_MEANING, ())
        return question, session.question(question.id, question.text, oracle.n)

    def answer(self, session: Any, text: str, asked: tuple[Question, Any]) -> None:
        """Write the player's words as the answer to ``asked`` (a question and its event)."""
        question, event = asked
        session.journal(text, question.text, event.about, question=event.n)

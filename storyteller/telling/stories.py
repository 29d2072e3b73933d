"""Each game told in words: what a draw means, the journaling question it raises, what a
decision set off, and the story of a whole game.

A game's :class:`Teller` says what each step means; one reader of the steps, the
:class:`Story` visitor, owns the loop every story shares: journal entries written before
the tale begins open it, those written after the end close it, undone and corrected steps
are left out, and everything else is handed to the game's :class:`Tale` in order. Tellers
read facts (typed events and moves, card ids, states, outcome causes); none parses a key or
a sentence.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeVar
from collections.abc import Sequence

from storyteller.core.narrative import pick
from storyteller.log.events import (
    CardDrawn, Revealed, Decision, DiceRolled, End, JournalEntry, OracleQuestion, Question, Undo, Visitor,
)
from storyteller.log.replay import Replay, Step

if TYPE_CHECKING:
    from storyteller.core.engine import Move, Outcome, State
    from storyteller.registry import Registration

Told = tuple[str, list[str]]  # a panel title and its lines
T = TypeVar("T")


class Phrasing:
    """Words for the beats a story tells again and again (an arrival, a card taken, a
    pass), varied within one story: the options of each kind of beat are dealt in an order
    seeded by the story's seed, and none comes again before all the others have been used
    (then they are dealt anew, never starting with the one just used). The same story is
    told the same way every time."""

    def __init__(self, seed: str, *salt: str) -> None:
        self.seed = seed
        self.salt = salt
        self.dealt: dict[str, list[int]] = {}
        self.rounds: dict[str, int] = {}
        self.last: dict[str, int] = {}

    def pick(self, kind: str, options: Sequence[T]) -> T:
        """The next of ``options`` for this kind of beat."""
        from storyteller.core.rng import Stream

        if len(options) == 1:
            return options[0]
        left = self.dealt.get(kind)
        if not left or max(left) >= len(options):
            n = self.rounds.get(kind, 0)
            self.rounds[kind] = n + 1
            order = Stream(self.seed, *self.salt, "phrasing", kind, str(n)).shuffled(range(len(options)))
            if order[0] == self.last.get(kind) and len(order) > 1:
                order.append(order.pop(0))
            left = self.dealt[kind] = order
        i = left.pop(0)
        self.last[kind] = i
        return options[i]
LAST_WORD = "A last word for your journal?"  # the question asked once the game is over
BRIDGE = "campaign:bridge"  # the ids of the questions that open a campaign's chapter after the first


class Tale:
    """One story being told: the game's teller makes one per story.

    ``begun`` says whether the tale has started (journal entries written before it open
    the story); :meth:`journal` places an entry written since; :meth:`draw`, :meth:`roll`
    and :meth:`decision` hear each step that stands, with its typed event or move;
    :meth:`finish` returns the story's context.
    """

    def __init__(self, teller: Teller, seed: str, walk: Replay) -> None:
        self.teller = teller
        self.p = teller.prompts
        self.seed = seed
        self.walk = walk
        self.outcome: Outcome | None = walk.outcome
        self.phrasing = Phrasing(seed, teller.name)
        self.asides: list[dict[str, Any]] = []  # oracle questions the tale did not place
        self.now: int | None = None  # the step being told (set before each draw, roll or decision)

    def stamp(self, beat: dict[str, Any]) -> dict[str, Any]:
        """``beat`` saying it tells the step being told (``steps``: their event numbers), so
        that a reader, or a measure, can tell which paragraph tells which card."""
        if self.now is not None:
            steps = beat.setdefault("steps", [])
            if self.now not in steps:
                steps.append(self.now)
        return beat

    @staticmethod
    def joined(first: dict[str, Any], then: dict[str, Any]) -> dict[str, Any]:
        """Two paragraphs of narration as one: their words and the steps they tell."""
        steps = list(first.get("steps", []))
        steps += [n for n in then.get("steps", []) if n not in steps]
        return {**first, "text": f"{first['text']} {then['text']}", "steps": steps}

    def say(self, kind: str, options: Sequence[T]) -> T:
        """One of ``options`` for this kind of beat, not used again in this story before the
        others (see :class:`Phrasing`)."""
        return self.phrasing.pick(kind, options)

    @property
    def begun(self) -> bool:
        raise NotImplementedError

    def journal(self, beat: dict[str, Any]) -> None:
        """Place a journal entry written since the tale began, as a beat (:func:`entry_beat`):
        right where the tale stands, which is just after the card its question was about."""
        raise NotImplementedError

    def draw(self, step: Step, card: CardDrawn) -> None:
        """A card turned up (``card``: the draw, or the draw a correction stands for)."""

    def roll(self, step: Step, dice: DiceRolled) -> None:
        """Dice rolled (``dice``: the roll, or the roll a correction stands for)."""

    def decision(self, step: Step, move: Move) -> None:
        """A move made, with the states before and after it in ``step``."""

    def oracle(self, beat: dict[str, Any]) -> None:
        """A question asked of the oracle (:func:`oracle_beat`): a tale places it where its
        journal entries go; by default it is kept aside (``story.asides``)."""
        self.asides.append(beat)

    def finish(self) -> dict[str, Any]:
        raise NotImplementedError


class Teller:
    """What a game's steps mean, in words. Made by the game's registration, with its prompts."""

    tale: type[Tale] = Tale

    def __init__(self, registration: Registration) -> None:
        self.registration = registration
        self.rules = registration.rules
        self.name = registration.name
        self.prompts: dict[str, Any] = registration.prompt_data

    # -- one draw or roll, as it happens ----------------------------------------------

    def draw_text(self, event: Revealed) -> str:
        """The playthrough's line for a draw or a roll."""
        raise NotImplementedError

    def meaning(self, event: Revealed, seed: str, variants: dict[str, str]) -> str:
        """One sentence: what this draw or roll means in the story."""
        raise NotImplementedError

    def topic(self, event: Revealed) -> str | None:
        """Which kind of journaling question a draw raises, or None for a quiet card."""
        return None

    def question(self, event: Revealed, seed: str) -> str | None:
        """The journaling question a draw raises (the same for the same log), or None."""
        topic = self.topic(event)
        return self.ask(topic, seed, event.n) if topic else None

    def key_moment(self, event: Revealed) -> bool:
        """Whether a draw or roll that raises a question is one of the game's turning
        points, the only ones asked with the setting ``questions = "key-moments"``. A game
        that does not choose asks every question."""
        return True

    def asked(self, event: Revealed, seed: str, questions: str = "every-reveal") -> str | None:
        """The question asked after this draw or roll with the ``questions`` setting
        ("every-reveal", "key-moments" or "none"), or None: always one of the questions
        :meth:`question` gives, so a log made with any setting reads the same."""
        if questions == "none":
            return None
        prompt = self.question(event, seed)
        if prompt and questions == "key-moments" and not self.key_moment(event):
            return None
        return prompt

    def ask(self, topic: str, *key: object) -> str | None:
        options = self.prompts.get("questions", {}).get(topic)
        return pick(options, self.name, topic, *key) if options else None

    def setup(self, moment: str, variants: dict[str, str], source: str = "physical") -> str | None:
        """At a real table: what to do with the real cards at ``moment`` ("start", or
        another moment of the game such as "reshuffle"), in the game's words, for what the
        player brings (``source``: "physical", "physical cards" or "physical dice")."""
        from storyteller.play.table import setup_text

        return setup_text(self.prompts, moment, variants, source)

    def moment(self, request: Any, state: Any) -> str | None:
        """Which setup moment (see :meth:`setup`) the rules have reached when they ask for
        ``request`` in ``state``, if any: the driver says those words before asking for the
        card (a "reshuffle" every time, any other moment the first time it comes)."""
        return None

    def moments(self) -> list[str]:
        """The moments this game has setup words for ("start" first)."""
        from storyteller.play.table import setup_moments

        return setup_moments(self.prompts)

    def after_decision(self, before: State, move: Move, after: State) -> Told | None:
        """What a decision set off, told before the draws it brings, or None."""
        return None

    # -- a whole game ---------------------------------------------------------------

    def step_facts(self, steps: list[Step]) -> list[dict[str, Any]]:
        """Extra facts for each step of the playthrough, undone ones included (Hexaract:
        the table at each roll; Cascades: the pass each step belongs to)."""
        return [{} for _ in steps]

    def title(self, story: dict[str, Any]) -> str:
        raise NotImplementedError


class Story(Visitor):
    """The story loop every game shares, as a reader of the steps: journal entries written
    before the tale begins open the story, those written after the end close it, oracle
    questions go where the tale places them, and every draw, roll and decision that stands
    (neither undone nor corrected) is told by the game's tale, in order.

    An entry goes with the card its question was about: right after it, since a question
    follows its step. When an undo took that card back, the entry waits for the card to
    come back (the same place in the deal, or the same move made again) and follows it
    then; an entry whose card never came back is kept for the end (``taken_back``): nothing
    the player wrote is lost. In a campaign's chapter, the entries that answer the question
    bridging it to the chapter before (asked at the start) are the story's ``bridge``, read
    with the story so far, before the tale. The story is :attr:`told` once every step is
    visited."""

    ignores = (Undo,)

    def __init__(self, teller: Teller, seed: str, walk: Replay) -> None:
        self.tale = teller.tale(teller, seed, walk)
        self.opening: list[JournalEntry] = []
        self.closing: list[JournalEntry] = []
        self.ended = False
        self.steps: dict[int, Step] = {}  # every step seen, by n
        self.about: dict[int, int] = {}  # a question's n -> the n of the step it is about
        self.waiting: dict[tuple[str, ...], list[JournalEntry]] = {}  # entries whose card an undo took back
        self.bridges: set[int] = set()  # the n of each question that bridges a campaign's chapters
        self.bridge: list[JournalEntry] = []  # the entries that answer them
        self.told: dict[str, Any] = {}

    # -- where an entry goes ------------------------------------------------------------

    @staticmethod
    def _place(step: Step) -> tuple[str, ...] | None:
        """What makes a step's card the same when it comes back: its place in the deal, or
        the move made again."""
        if step.drawn is not None:
            return ("card", *map(str, step.drawn.place))
        if step.rolled is not None:
            return ("roll", str(step.rolled.index))
        if isinstance(step.event, Decision):
            return ("move", step.event.action)
        return None

    def _subject(self, entry: JournalEntry) -> Step | None:
        """The step the entry's question was about (None: a question before the first move,
        the last word, or an entry written from the menu)."""
        n = self.about.get(entry.question) if entry.question is not None else entry.about
        return self.steps.get(n) if n is not None else None

    def on_question(self, step: Step) -> None:
        assert isinstance(step.event, Question)
        if step.event.about is not None:
            self.about[step.n] = step.event.about
        if step.event.id.startswith(BRIDGE):
            self.bridges.add(step.n)

    def on_journal(self, step: Step) -> None:
        entry = step.event
        assert isinstance(entry, JournalEntry)
        self.steps[step.n] = step
        if entry.question in self.bridges:  # read with the story so far, before the tale
            self.bridge.append(entry)
            return
        subject = self._subject(entry)
        place = self._place(subject) if subject is not None and not subject.stands else None
        if self.ended:
            self.closing.append(entry)
        elif place is not None:  # its card was taken back: it waits for the card to come back
            self.waiting.setdefault(place, []).append(entry)
        elif self.tale.begun:
            self.tale.journal(entry_beat(entry, subject))
        else:
            self.opening.append(entry)

    def _told(self, step: Step) -> None:
        """After a step is told: the entries that waited for its card follow it."""
        place = self._place(step)
        for entry in self.waiting.pop(place, []) if place is not None else []:
            self.tale.journal(entry_beat(entry, step))

    # -- the steps ------------------------------------------------------------------------

    def on_end(self, step: Step) -> None:
        self.ended = True

    def on_oracle(self, step: Step) -> None:
        assert isinstance(step.event, OracleQuestion)
        self.steps[step.n] = step  # an entry after it says what the answer means
        self.tale.oracle(oracle_beat(step.event))

    def on_draw(self, step: Step) -> None:
        self.steps[step.n] = step
        if step.stands and step.drawn is not None:
            self.tale.now = step.n
            self.tale.draw(step, step.drawn)
            self._told(step)

    def on_roll(self, step: Step) -> None:
        self.steps[step.n] = step
        if step.stands and step.rolled is not None:
            self.tale.now = step.n
            self.tale.roll(step, step.rolled)
            self._told(step)

    def on_correction(self, step: Step) -> None:  # the card or dice really turned up, told as drawn
        self.on_draw(step)
        self.on_roll(step)

    def on_decision(self, step: Step) -> None:
        self.steps[step.n] = step
        if step.stands and step.move is not None:
            self.tale.now = step.n
            self.tale.decision(step, step.move)
            self._told(step)

    def finish(self) -> None:
        def words(entries: list[JournalEntry]) -> list[dict[str, Any]]:
            return [entry_beat(e, self._subject(e)) for e in entries]

        kept = [e for entries in self.waiting.values() for e in entries]
        self.told = {**self.tale.finish(), "opening_journal": [e.text for e in self.opening],
                     "epilogue": [e.text for e in self.closing], "asides": self.tale.asides,
                     "opening": words(self.opening), "closing": words(self.closing),
                     "taken_back": words(sorted(kept, key=lambda e: e.n)), "bridge": words(self.bridge)}


def entry_beat(entry: JournalEntry, subject: Step | None) -> dict[str, Any]:
    """A journal entry as a story tells it: the player's words (``text``), the question they
    answer (``prompt``, None for an entry written from the menu), the entry's event number
    (``n``) and the step its question was about (``about``: a draw, roll, decision or oracle
    question; None when it was about no step)."""
    return {"kind": "journal", "text": entry.text, "prompt": entry.prompt, "n": entry.n,
            "about": subject.n if subject is not None else None}


def tell(teller: Teller, seed: str, walk: Replay) -> dict[str, Any]:
    """The story of a walked log (one that kept its steps)."""
    story = Story(teller, seed, walk)
    walk.visit(story)
    return story.told


def oracle_beat(event: OracleQuestion) -> dict[str, Any]:
    """A question to the oracle as a story tells it: the player's question (their words,
    to be escaped where they are shown), the odds, the answer and the spark, in words, and
    its event number (``n``: an entry about what the answer means is ``about`` it)."""
    from storyteller.core import oracle
    from storyteller.play.table import card_name
    from storyteller.telling.meanings import keywords

    return {"kind": "oracle", "question": event.question, "odds": oracle.ODDS_WORDS[event.odds],
            "answer": oracle.ANSWER_WORDS[event.answer], "spark": card_name(event.spark),
            "words": keywords(event.spark)[:2], "n": event.n}


class PromptNotes(Visitor):
    """Where a journal entry claims to answer a question this game never asked: an entry
    that answers a logged question (``question``) has that question's words; in a log made
    before questions were logged, the question after a draw is the teller's question for
    that draw, the one after the end is :data:`LAST_WORD`; an entry written from the menu
    answers none. A branch of an older log (``play --from``) holds both: the older entries
    before its first logged question. The :attr:`notes` are made once every step is visited."""

    ignores = (Decision, OracleQuestion, Undo, End)

    def __init__(self, teller: Teller, seed: str) -> None:
        self.teller = teller
        self.seed = seed
        self.draws: dict[int, Revealed] = {}
        self.asked: dict[int, str] = {}
        self.entries: list[JournalEntry] = []
        self.notes: list[str] = []

    def on_draw(self, step: Step) -> None:
        if step.revealed is not None:
            self.draws[step.n] = step.revealed

    on_roll = on_correction = on_draw  # a card turned up again, read as its draw

    def on_question(self, step: Step) -> None:
        assert isinstance(step.event, Question)
        self.asked[step.n] = step.event.text

    def on_journal(self, step: Step) -> None:
        assert isinstance(step.event, JournalEntry)
        self.entries.append(step.event)

    def finish(self) -> None:
        asked = self.asked
        for e in self.entries:
            if e.prompt is None:
                continue
            if e.question is not None:
                wanted = asked.get(e.question)
            elif asked and e.n > min(asked):  # (before the first: a branch of an older log, its first steps)
                wanted = e.prompt if e.n > max(asked) else None  # more last words, after the last question
            else:
                about = e.about
                wanted = self.teller.question(self.draws[about], self.seed) if about in self.draws else LAST_WORD
            if e.prompt != wanted:
                self.notes.append(f"line {e.n + 1}: the question this entry answers is not one the game asked")

"""The play loop: a game's rules, a source of chance, a decision maker and the log.

A session is a replay (:mod:`storyteller.log.replay`) with a writer and a driver. The
session owns all randomness: a state names the draw it needs, the session asks its source
(the seeded shuffle; at a real table, the player) and makes the event. Every event, a
draw, a roll, a decision, an undo, a correction, a journal entry, is first fed to the
replay, which carries it out on a copy of the state and refuses what the rules refuse:
only what it accepted is written, so a refused one leaves the log as it was. A resumed game
is its log replayed, once, with the same replay: there is one copy of the bookkeeping.
Undo is an event too: the state before the decision comes back, and since a draw is fixed
by its deal and its place in that deal, undoing never changes a later draw.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol
from collections.abc import Sequence

from storyteller import __version__
from storyteller.core.engine import ABANDONED, Action, Chance, Draw, Game, Hint, Move, Outcome, Roll, RuleError, State
from storyteller.core.rng import Stream
from storyteller.core.sources import SeededSource, Source
from storyteller.log.events import (
    CardDrawn, Correction as Corrected, Decision, DiceRolled, End, Event, Header, JournalEntry, OracleQuestion,
    Question, Undo, Visitor,
)
from storyteller.log.file import GameLog, LogWriter, now
from storyteller.log.replay import Replay, Step, rules_words, walk

# -- playing without a person ------------------------------------------------------------


class AutoPlayer:
    """The moves ``--auto`` makes: ``random`` draws from the seed, one stream per decision,
    so a resumed game goes on exactly as it would have; any other name is one of the
    game's policies, a new object for this game that keeps its own memory."""

    def __init__(self, game: Game, seed: str, policy: str) -> None:
        self.seed = seed
        self.name = policy
        from storyteller import registry

        self.policy = None if policy == "random" else registry.get(game.name).policy(policy)
        if policy != "random" and self.policy is None:
            raise ValueError(f"{game.title} has no {policy} policy")

    def warm(self, states: list[State]) -> None:
        """Show a resumed game's policy the states before every standing decision, in
        order, as an uninterrupted game would have: it then chooses as that game would."""
        if self.policy is not None:
            for state in states:
                self.policy.choose(state)

    def choose(self, state: State, decisions: int) -> Action:
        if self.policy is not None:
            hint = self.policy.choose(state)
            return hint.action if hint is not None else state.legal_actions()[0]
        return Stream(self.seed, "auto", str(decisions)).choice(state.legal_actions())


def simulate(game: Game, variants: dict[str, str], seed: str, policy: str) -> State:
    """Play one seeded game to its end with ``--auto``'s choices, without a log
    (win rates, batch runs): the same moves ``storyteller play --auto`` would make."""
    state = game.new_state(variants)
    source = SeededSource(seed, game, variants)
    player = AutoPlayer(game, seed, policy)
    decisions = 0
    while state.outcome is None:
        request = state.chance()
        if request is not None:
            state.resolve(source.resolve(request))
        else:
            state.apply(player.choose(state, decisions).move)
            decisions += 1
    return state


# -- the live session -------------------------------------------------------------------


def _listeners(driver: Driver | None, log: GameLog) -> list[Visitor]:
    if driver is None:
        return []
    assert log.path is not None
    heard = list(driver.listeners(log.game, log.seed, log.path))
    if log.header.campaign:  # a chapter of a campaign: its questions remember the chapters before
        from storyteller import registry
        from storyteller.play.campaign import Recaller
        from storyteller.play.questions import QuestionLog

        for listener in heard:
            if isinstance(listener, QuestionLog):
                listener.campaign = True
                listener.recaller = Recaller.of(log.header, registry.get(log.game))
    return heard


@dataclass(frozen=True)
class Correction:
    """The player entered the wrong card or roll: ``value`` is the one really turned up."""

    value: Any


class Driver(Protocol):
    """Who makes the decisions: the player at a terminal, a policy, a script."""

    def listeners(self, game: str, seed: str, path: Path) -> Sequence[Visitor]:
        """The visitors that hear every step of the game of ``game`` dealt from ``seed`` whose
        log is at ``path``, as it is replayed (a resumed game) and as it is played: the
        journaling questions, for a driver that asks them."""
        ...

    def begin(self, session: Session, resumed: bool) -> None: ...

    def choose(self, session: Session) -> Choice: ...

    def after_draw(self, session: Session, step: Step) -> None: ...

    def enter(self, session: Session, request: Chance) -> Any | Correction:
        """At a real table: the card or dice the player turned up for ``request`` (valid
        for it), or a Correction of the last one entered."""
        ...

    def check_end(self, session: Session) -> Correction | None:
        """At a real table, when the card just entered ends the game: a Correction if it
        was entered wrong, else None."""
        ...

    def after_decision(self, session: Session, step: Step) -> None: ...

    def after_end(self, session: Session) -> None: ...

    def interrupted(self, session: Session) -> None: ...


@dataclass(frozen=True)
class Write:
    """A journal entry written from the menu (``prompt``: the question it answers, if any)."""

    text: str
    prompt: str | None = None


@dataclass(frozen=True)
class TakeBack:
    """Undo the last move."""


@dataclass(frozen=True)
class Quit:
    """Save and stop for now."""


@dataclass(frozen=True)
class Abandon:
    """End the game for good, as a loss."""


# A choice that is not a move; a Correction is one too: the card or dice really turned up
# at a real table, for the last one entered.
Command = Write | TakeBack | Quit | Abandon | Correction
Choice = Action | Command


class SaveAndQuit(Exception):
    """The player chose to stop for now; the log is complete up to here."""


class Session:
    """A game being played: the replay of its log so far, the writer that appends to it and
    the source of its chance. A driver's listeners (:meth:`Driver.listeners`) hear every step
    of the game, from its first: a session made or resumed with its driver reads the log once
    for them; a driver first met later (:meth:`attach`) hears the game so far first."""

    def __init__(self, writer: LogWriter, replay: Replay, driver: Driver | None = None) -> None:
        self.writer = writer
        self.log = writer.log
        self.replay = replay
        self.game = replay.game
        self.variants = replay.variants
        self.source: Source = replay.seeded
        self._drivers: list[Driver] = [driver] if driver is not None else []

    @property
    def seed(self) -> str:
        return self.log.seed

    @property
    def path(self) -> Path:
        return self.writer.path

    @property
    def state(self) -> State:
        return self.replay.state

    @property
    def outcome(self) -> Outcome | None:
        return self.replay.outcome

    @property
    def decisions(self) -> int:
        return self.replay.decisions

    @property
    def history(self) -> list[tuple[int, State]]:
        return self.replay.history

    @property
    def table(self) -> Any:
        """The player's own table (its cards or dice), or None for a seeded game."""
        return self.replay.table

    # -- starting -----------------------------------------------------------------------

    @classmethod
    def new(cls, game: Game, variants: dict[str, str], seed: str, path: Path, mode: str = "player",
            source: str = "seeded", driver: Driver | None = None,
            campaign: dict[str, Any] | None = None, deal: dict[str, Any] | None = None) -> Session:
        """A new game; ``source`` says where its cards and dice come from (see SOURCES);
        ``campaign``: the chapter of a campaign it is ({"name", "chapter", "recap"}); ``deal``:
        how its seed was chosen (``play --deal``, ``--daily``)."""
        header = Header(game=game.name, variants=variants, seed=seed, source=source, version=__version__,
                        started=now(), mode=mode, campaign=campaign, deal=deal)
        return cls.of(LogWriter.create(path, header), driver)

    @classmethod
    def of(cls, writer: LogWriter, driver: Driver | None = None) -> Session:
        """The session of a log being written (its events so far replayed, once, for the
        driver's listeners too)."""
        log = writer.log
        heard = _listeners(driver, log)
        replay = Replay(log.header, str(log.path), atomic=True, listeners=heard)
        for event in log.events:
            replay.feed(event)
        return cls(writer, replay, driver)

    @classmethod
    def resume(cls, log: GameLog, repair: bool = False, driver: Driver | None = None) -> Session:
        """Go on with a saved game: its log replayed once (checked, and every step heard by
        the driver's listeners), then opened for writing."""
        replay = walk(log, resumable=True, listeners=_listeners(driver, log))
        replay.atomic = True
        writer = LogWriter.reopen(log, repair=repair)
        return cls(writer, replay, driver)

    def attach(self, driver: Driver) -> None:
        """Let ``driver``'s listeners hear this game: the game so far (a walk of the log),
        then every step as it is made. Once for each driver."""
        if any(d is driver for d in self._drivers):
            return
        self._drivers.append(driver)
        heard = _listeners(driver, self.log)
        if heard and self.log.events:
            walk(self.log, listeners=heard)
        self.replay.listeners.extend(heard)

    # -- writing events -------------------------------------------------------------------

    def _next(self) -> int:
        return len(self.log.events) + 1

    def _write(self, event: Event) -> Step:
        """Check ``event`` as the log will hold it, carry it out, then write it."""
        line = self.writer.prepare(event)
        step = self.replay.feed(line.event)
        self.writer.append(line)
        return step

    # -- the loop ---------------------------------------------------------------------

    @property
    def over(self) -> bool:
        return self.outcome is not None

    def advance(self, driver: Driver | None = None) -> None:
        """Resolve every pending draw or roll, logging each, then note the end if reached.
        At a real table the player enters what was turned up (a place already turned up
        is not asked again), and may correct the last card or roll entered."""
        if driver is not None:
            self.attach(driver)
        table = self.replay.table
        while self.outcome is None:
            request = self.state.chance()
            if request is None:
                break
            physical = table is not None and table.physical(request)
            if table is not None and physical:
                result = table.remembered(request)
                if result is None:
                    if driver is None:
                        raise RuleError("the cards and dice come from the player's table: someone must enter them")
                    entered = driver.enter(self, request)
                    if isinstance(entered, Correction):
                        self.correct(entered.value, driver)
                        continue
                    result = entered
            else:
                result = self.source.resolve(request)
            by = "player" if physical else None
            event: Event
            if isinstance(request, Draw):
                pile = request.pile if request.pile != "deck" else None
                event = CardDrawn(self._next(), at=now(), card=result, to=request.to, deal=request.deal,
                                  slot=request.slot, pile=pile, by=by)
            else:
                event = DiceRolled(self._next(), at=now(), dice=tuple(result), index=request.index, by=by)
            step = self._write(event)
            if driver is not None:
                driver.after_draw(self, step)
            if physical and step.after.outcome is not None and driver is not None:
                # The card just entered ends the game: make sure it was the right one.
                fix = driver.check_end(self)
                if fix is not None:
                    self.correct(fix.value, driver)
        if self.outcome is None and self.state.outcome is not None:
            self._finish(self.state.outcome)

    def can_correct(self) -> bool:
        """Whether a card or roll entered at the table since the last move can be corrected."""
        return self.outcome is None and self._correctable() is not None

    def _correctable(self) -> tuple[int, Any, Any] | None:
        table = self.replay.table
        for entry in reversed(self.replay.rewind):
            if table is not None and table.physical(entry[2]):
                return entry
        return None

    def correction_target(self) -> tuple[Chance, State] | None:
        """What a correction would replace: its request, and the state before it (the table
        as it was when that card was turned up)."""
        entry = self._correctable() if self.outcome is None else None
        return (entry[2], entry[1]) if entry else None

    def correct(self, value: Any, driver: Driver | None = None) -> Event:
        """Replace the last card or roll entered at the table since the last move with
        ``value`` (RuleError if there is none, or if the rules refuse it there: then nothing
        is written). The game goes on from there: what the seed answered after it is
        answered again. Returns the correction's event."""
        target = self._correctable() if self.outcome is None else None
        if target is None:
            raise RuleError("there is no card or roll entered since the last move to correct: undo the move first")
        start, _, request = target
        if isinstance(request, Roll):
            event = Corrected(self._next(), at=now(), of=start, dice=tuple(value), by="player")
        else:
            event = Corrected(self._next(), at=now(), of=start, card=value, by="player")
        step = self._write(event)
        if driver is not None:
            driver.after_draw(self, step)
        self.advance(driver)
        return step.event

    def _finish(self, outcome: Outcome) -> None:
        self._write(End(self._next(), at=now(), result=outcome.result, score=outcome.score, reason=outcome.reason,
                        cause=outcome.cause))

    def legal_actions(self) -> list[Action]:
        return self.state.legal_actions()

    def decide(self, action: Action | Move | str, driver: Driver | None = None, by: str | None = None) -> None:
        """Carry out a decision: an Action, a Move or a key. RuleError if the rules refuse it
        (then nothing is written)."""
        if isinstance(action, Action):
            move = action.move
        elif isinstance(action, Move):
            move = action
        else:
            move = self.game.parse(action)
        text = rules_words(self.state, move)  # the replay refuses an illegal move, saying why
        step = self._write(Decision(self._next(), at=now(), action=move.key, text=text, by=by))
        if driver is not None:
            driver.after_decision(self, step)
        self.advance(driver)

    def can_undo(self) -> bool:
        return bool(self.history) and self.outcome is None

    def undo(self) -> Decision:
        """Take back the last standing decision; returns its event."""
        if not self.can_undo():
            raise RuleError("there is no move to undo")
        n = self.history[-1][0]
        self._write(Undo(self._next(), at=now(), of=n))
        taken = self.log.events[n - 1]
        assert isinstance(taken, Decision)
        return taken

    def last_decision(self) -> Decision | None:
        """The event of the decision an undo would take back."""
        if not self.history:
            return None
        event = self.log.events[self.history[-1][0] - 1]
        assert isinstance(event, Decision)
        return event

    def journal(self, text: str, prompt: str | None = None, about: int | None = None,
                question: int | None = None) -> JournalEntry:
        """A journal entry: the player's words, the ``prompt`` they answer, the draw or roll it
        is ``about`` and the ``question`` event it answers, if any."""
        if about is not None and not isinstance(self.log.events[about - 1], (CardDrawn, DiceRolled, Corrected)):
            about = None
        event = JournalEntry(self._next(), at=now(), text=text, prompt=prompt or None, about=about, question=question)
        written = self._write(event).event
        assert isinstance(written, JournalEntry)
        return written

    def question(self, qid: str, text: str, about: int | None = None) -> Question:
        """Log a journaling question as it is asked (whether or not it is answered)."""
        written = self._write(Question(self._next(), at=now(), id=qid, text=text, about=about)).event
        assert isinstance(written, Question)
        return written

    def oracle(self, question: str, odds: str, roll: int | None = None) -> OracleQuestion:
        """Ask the oracle ``question`` at ``odds``: ``roll`` is the d100 the player rolled at a
        real table (None: the seed rolls it). Nothing of the game changes. ValueError for
        odds or a roll the oracle does not take."""
        from storyteller.core import oracle

        if odds not in oracle.ODDS:
            raise ValueError(f"the odds are one of: {', '.join(oracle.ODDS)} (not '{odds}')")
        if roll is not None and not (type(roll) is int and 1 <= roll <= 100):
            raise ValueError(f"a d100 roll is a number from 1 to 100, not {roll}")
        n = self._next()
        d100 = oracle.roll(self.seed, n) if roll is None else roll
        event = OracleQuestion(n, at=now(), question=question, odds=odds, roll=d100, answer=oracle.answer(odds, d100),
                               spark=oracle.spark(self.seed, n), by="player" if roll is not None else None)
        written = self._write(event).event
        assert isinstance(written, OracleQuestion)
        return written

    def abandon(self) -> None:
        self._finish(ABANDONED)

    def run(self, driver: Driver) -> Outcome:
        """Play until the game ends. SaveAndQuit, KeyboardInterrupt and EOFError pass through."""
        self.advance(driver)
        while self.outcome is None:
            choice = driver.choose(self)
            if isinstance(choice, Action):
                self.decide(choice, driver)
            elif isinstance(choice, Write):
                if choice.text.strip():
                    self.journal(choice.text, choice.prompt)
            elif isinstance(choice, TakeBack):
                self.undo()
            elif isinstance(choice, Correction):
                self.correct(choice.value, driver)
            elif isinstance(choice, Abandon):
                self.abandon()
            elif isinstance(choice, Quit):
                raise SaveAndQuit()
            else:  # pragma: no cover - drivers only make the choices above
                raise TypeError(f"a driver chose {choice!r}, which is neither a move nor a command")
        driver.after_end(self)
        assert self.outcome is not None
        return self.outcome

    def close(self) -> None:
        self.writer.close()


__all__ = [
    "Abandon", "AutoPlayer", "Choice", "Command", "Correction", "Driver", "Hint", "Quit", "SaveAndQuit", "SeededSource",
    "Session", "Step", "TakeBack", "Write", "simulate", "walk",
]

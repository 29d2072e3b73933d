"""The one replay: a machine that turns a log's events into the game's steps.

It starts from the header (the game, its variants, its seed, where its cards come from) and
takes the events one by one (:meth:`Replay.feed`), checking each against the rules and the
seed as it goes: a draw must be the card the seed deals there (or, at a real table, one the
rules allow there), a decision a legal move, an undo the last decision standing, a correction
a card or roll entered since the last move, the oracle's answer the one its roll gives, the
end the rules' own. Each event becomes a :class:`Step`: the event, the state before it and
after it, a decision's typed move and the rules' words for it. It keeps what play needs
(the state before every decision standing, for undo; at a real table, the state before each
card entered since the last move, for a correction).

Every reader of a log is served by it:

- a session (:mod:`storyteller.play.session`) is a replay with a writer and a driver: it
  feeds each new event to the replay before writing it, so the log only ever holds what the
  replay accepted, and a resumed game is the replay of its log, read once;
- :func:`walk` replays a whole log, for ``replay``, export, analysis, branch and stats.

Readers are visitors (:class:`~storyteller.log.events.Visitor`): :func:`visit` gives each
step to each of them by the type of its event. A replay can feed its steps to listeners as
they are made (the journaling questions of a session, ``replay --show``), or keep them, with
a snapshot of the state before and after each (``keep_steps``), for readers that need the
whole game first: a step a later undo takes back is marked ``undone``, one a later
correction replaced is marked ``corrected``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from collections.abc import Callable, Iterable, Sequence

from storyteller.core.engine import ABANDONED, Chance, Draw, Game, Move, Outcome, RuleError, State
from storyteller.core.sources import SeededSource, Table, check_source
from storyteller.log.events import (
    WORDS_OF_PLAYER, CardDrawn, Correction, Decision, DiceRolled, End, Event, Header, OracleQuestion, Revealed, Undo,
    Visitor,
)
from storyteller.log.file import GameLog, LogError


class ReplayMismatch(LogError):
    """The log and the game disagree; the message names the first line that differs."""


@dataclass
class Step:
    """One event of a game, with the state it left (``after``) and, where it is known, the
    state before it (``before``: always for a decision standing; for every step of a replay
    that keeps its steps).

    ``move`` is a decision's typed move and ``words`` the rules' words for it. ``revealed`` is
    what a draw or roll turned up: the event itself, or for a correction, the draw or roll it
    stands for (the card really turned up, in the first draw's place). A step of a replay that
    does not keep its steps holds the live state: read it when it is given, never later.
    """

    event: Event
    after: State
    before: State | None = None
    move: Move | None = None
    words: str = ""  # a decision's move in the rules' words (not the log's)
    revealed: Revealed | None = None
    undone: bool = False  # a later undo took it back
    corrected: bool = False  # a draw or roll a later correction replaced (or one that followed it)
    corrects: int | None = None  # a correction: the draw or roll it replaces (the first of them)

    @property
    def n(self) -> int:
        return self.event.n

    @property
    def drawn(self) -> CardDrawn | None:
        """The card this step turned up (a draw, or a correction of one)."""
        return self.revealed if isinstance(self.revealed, CardDrawn) else None

    @property
    def rolled(self) -> DiceRolled | None:
        """The dice this step rolled (a roll, or a correction of one)."""
        return self.revealed if isinstance(self.revealed, DiceRolled) else None

    @property
    def stands(self) -> bool:
        """Neither taken back by an undo nor replaced by a correction."""
        return not self.undone and not self.corrected

    def accept(self, visitor: Visitor) -> None:
        self.event.accept(visitor, self)


def visit(steps: Iterable[Step], visitors: Sequence[Visitor]) -> None:
    """Give every step, in order, to every visitor, by the type of its event; then tell each
    visitor that the game is over."""
    for step in steps:
        for visitor in visitors:
            step.event.accept(visitor, step)
    for visitor in visitors:
        visitor.finish()


def open_game(header: Header, where: str = "log") -> tuple[Game, dict[str, str]]:
    """The rules of a log's game and its variants, checked (LogError naming line 1)."""
    from storyteller import registry

    try:
        game = registry.rules(header.game)
    except registry.RegistryError as e:
        raise LogError(f"{where}: line 1: {e}") from None
    try:
        variants = game.validate_variants(header.variants)
    except ValueError as e:
        raise LogError(f"{where}: line 1: {e}") from None
    return game, variants


class Replay:
    """A game as its events make it (see the module's words).

    ``keep_steps``: keep every step, with a snapshot of the state before and after it.
    ``resumable``: keep the state before every decision standing (and, at a real table, before
    every card or roll entered since the last move), so that play can go on: undo and correct.
    Without it, only what ``taken_back`` (the decisions a later undo takes back) and
    ``replaced`` (the draws and rolls a later correction replaces) need is kept.
    ``atomic``: every event is carried out on a copy of the state, so that one the rules
    refuse changes nothing (a session checks each event so before it writes it).
    ``listeners``: visitors told of each step as it is made.
    """

    def __init__(self, header: Header, where: str = "log", *, keep_steps: bool = False, resumable: bool = True,
                 atomic: bool = False, taken_back: Iterable[int] = (), replaced: Iterable[int] = (),
                 listeners: Sequence[Visitor] = ()) -> None:
        try:
            check_source(header.source)
        except ValueError as e:
            raise LogError(str(e)) from None
        self.header = header
        self.where = where
        self.game, self.variants = open_game(header, where)
        self.seeded = SeededSource(header.seed, self.game, self.variants)
        self.table = Table.of(header.source)  # the player's own cards or dice, what they entered
        self.state: State = self.game.new_state(self.variants)
        self.keep_steps = keep_steps
        self.resumable = resumable
        self.atomic = atomic
        self.taken_back = set(taken_back)
        self.replaced = set(replaced)
        self.listeners: list[Visitor] = list(listeners)
        self.steps: list[Step] = []
        self.count = 0  # events fed
        self.outcome: Outcome | None = None  # including an abandoned game
        self.decisions = 0  # decisions standing (undone ones are not counted)
        self.history: list[tuple[int, State]] = []  # (decision n, state before), the standing ones
        self.words: dict[int, str] = {}  # decision n -> the rules' words for its move
        self.notes: list[str] = []  # where the log's words are not the rules' words
        # The draws and rolls since the last standing decision, (n, state before, request): a
        # correction rewinds to one of them. Kept for each standing decision, for after an undo.
        self.rewind: list[tuple[int, State | None, Chance]] = []
        self.rewinds: dict[int, list[tuple[int, State | None, Chance]]] = {}
        self.revealed: dict[int, Revealed] = {}  # a draw or roll by n (a correction, as the draw it stands for)
        self._snapshot: State | None = self.state.clone() if keep_steps else None

    # -- feeding events ----------------------------------------------------------------

    def fail(self, event: Event, why: str) -> Exception:
        """The error for an event the game refuses: for a log, a ReplayMismatch naming its line
        (line 1 is the header); for a session's new event (an atomic replay), the rule itself."""
        if self.atomic:
            return RuleError(why)
        return ReplayMismatch(f"{self.where}: line {event.n + 1}: {why}")

    def feed(self, event: Event) -> Step:
        """Carry out one event (the next: its ``n`` follows the last one's). ReplayMismatch
        if the game refuses it; for an atomic replay, RuleError, and nothing has changed."""
        if self.outcome is not None and not isinstance(event, WORDS_OF_PLAYER):
            raise self.fail(event, f"a {event.kind} event after the end of the game")
        if isinstance(event, (CardDrawn, DiceRolled)):
            step = self._chance(event)
        elif isinstance(event, Correction):
            step = self._correction(event)
        elif isinstance(event, Decision):
            step = self._decision(event)
        elif isinstance(event, Undo):
            step = self._undo(event)
        elif isinstance(event, OracleQuestion):
            self._oracle(event)
            step = Step(event, self.state)
        elif isinstance(event, End):
            self._end(event)
            step = Step(event, self.state)
        else:  # a journal entry or a question: words, which change nothing of the game
            step = Step(event, self.state)
        self.count = event.n
        if self.keep_steps:
            step.after = self.state.clone() if not self.atomic else self.state
            step.before = self._snapshot
            self._snapshot = step.after
            self.steps.append(step)
        for listener in self.listeners:
            event.accept(listener, step)
        return step

    def _change(self, change: Callable[[State], None], keep: bool) -> tuple[State | None, State]:
        """Carry out ``change``: (the state before, when kept; the state after). An atomic
        replay changes a copy and keeps the state before as it was."""
        if self.atomic:
            after = self.state.clone()
            change(after)
            return self.state, after
        before = self.state.clone() if keep else None
        change(self.state)
        return before, self.state

    def _answer(self, request: Chance, event: Event, revealed: Revealed) -> Any:
        """The card or dice the log gives for ``request``, checked: at its place, among the
        cards the rules allow there, and for what the seed answers, the seed's own."""
        seeded = None if self.table is not None and self.table.physical(request) else self.seeded
        if isinstance(request, Draw):
            assert isinstance(revealed, CardDrawn)
            card = revealed.card
            if revealed.place != (request.to, request.deal, request.slot, request.pile):
                raise self.fail(event, (
                    f"the log draws {card} to {revealed.to} (deal {revealed.deal}, place {revealed.slot}), "
                    f"but the game draws to {request.to} (deal {request.deal}, place {request.slot}) here"))
            if seeded is not None:
                expected = seeded.draw(request)
                if card != expected:
                    raise self.fail(event, (
                        f"the log draws {card} to {revealed.to} (deal {revealed.deal}, place {revealed.slot}), "
                        f"but the seed deals {expected} to {request.to} (deal {request.deal}, place {request.slot})"))
            if card not in request.options:
                raise self.fail(event, f"the log draws {card} to {request.to}, but that card cannot be there now")
            return card
        assert isinstance(revealed, DiceRolled)
        dice = revealed.dice
        if revealed.index != request.index:
            raise self.fail(event, f"the log has roll {revealed.index} here, but the game makes roll {request.index}")
        if len(dice) != request.count or any(not 1 <= d <= request.sides for d in dice):
            raise self.fail(event, f"the log rolls {list(dice)}, not {request.count} dice of {request.sides} sides")
        if seeded is not None:
            expected_dice = seeded.roll(request)
            if dice != expected_dice:
                raise self.fail(event, f"the log rolls {list(dice)}, but the seed rolls {list(expected_dice)}")
        return dice

    def _resolve(self, event: Event, value: Any, keep: bool, start: State | None = None) -> tuple[State | None, State]:
        """Resolve the pending chance with ``value`` (from ``start``, the state a correction
        rewinds to, if given)."""
        try:
            if start is not None:
                after = start.clone()
                after.resolve(value)
                return start, after
            return self._change(lambda s: s.resolve(value), keep)
        except RuleError as e:
            raise self.fail(event, str(e)) from None

    def _chance(self, event: CardDrawn | DiceRolled) -> Step:
        request = self.state.chance()
        if request is None:
            raise self.fail(event, f"the log has a {event.kind} here but the game is waiting for a decision")
        if isinstance(event, CardDrawn) != isinstance(request, Draw):
            raise self.fail(event, "the game rolls dice here, but the log has a card" if isinstance(event, CardDrawn)
                            else "the game draws a card here, but the log has dice")
        value = self._answer(request, event, event)
        keep = (self.table is not None and self.resumable) or event.n in self.replaced
        before, after = self._resolve(event, value, keep)
        if self.table is not None:
            self.table.remember(request, value)
            self.rewind.append((event.n, before, request))
        self.state = after
        self.revealed[event.n] = event
        return Step(event, after, before if self.atomic else None, revealed=event)

    def _correction(self, event: Correction) -> Step:
        target = next((entry for entry in self.rewind if entry[0] == event.of), None)
        if target is None:
            raise self.fail(event, f"a correction of event {event.of}, which is not a card or roll entered since the "
                                   "last move")
        start, before, request = target
        if self.table is None or not self.table.physical(request):
            raise self.fail(event, "a correction of a card or roll that did not come from the player's table")
        assert before is not None  # kept for every card entered at a real table that a correction can reach
        original = self.revealed[start]
        revealed: Revealed
        if isinstance(original, CardDrawn):
            if event.card is None:
                raise self.fail(event, "the log corrects a card with dice")
            revealed = original.replace(n=event.n, at=event.at, card=event.card)
        else:
            if event.dice is None:
                raise self.fail(event, "the log corrects a roll with a card")
            revealed = original.replace(n=event.n, at=event.at, dice=event.dice)
        value = self._answer(request, event, revealed)
        _, after = self._resolve(event, value, True, start=before)
        self.table.remember(request, value)
        self.rewind[self.rewind.index(target):] = [(event.n, before, request)]
        self.state = after
        self.revealed[event.n] = revealed
        if self.keep_steps:
            for step in self.steps:
                if step.n >= start and isinstance(step.event, (CardDrawn, DiceRolled, Correction)) and not step.undone:
                    step.corrected = True
        return Step(event, after, before if self.atomic else None, revealed=revealed, corrects=start)

    def _decision(self, event: Decision) -> Step:
        if self.state.chance() is not None:
            raise self.fail(event, "a decision where the game still has a card to draw")
        key = event.action
        try:
            move = self.game.parse(key)
            words = rules_words(self.state, move)
            # the state before is kept for undo, and for the readers that hear the step (what a move did)
            keep = self.resumable or event.n in self.taken_back or bool(self.listeners)
            before, after = self._change(lambda s: s.apply(move), keep)
        except RuleError as e:
            raise self.fail(event, f"'{key}' is not a legal move at this point: {e}") from None
        self.words[event.n] = words
        if event.text is not None and event.text != words:
            self.notes.append(f"line {event.n + 1}: the log's words for '{key}' are not the rules' words")
        # Without a snapshot (before is None) no undo will ask for it: the state itself stands in.
        self.history.append((event.n, before if before is not None else after))
        self.rewinds[event.n], self.rewind = self.rewind, []
        self.decisions += 1
        self.state = after
        return Step(event, after, before, move, words)

    def _undo(self, event: Undo) -> Step:
        if not self.history:
            raise self.fail(event, "an undo with no decision to take back")
        last, before = self.history[-1]
        if event.of != last:
            raise self.fail(event, f"the undo names decision {event.of}, but the last decision standing is {last}")
        self.history.pop()
        self.state = before
        self.rewind = self.rewinds.pop(last)
        self.decisions -= 1
        if self.keep_steps:
            for step in self.steps:
                if step.n >= last and not step.undone and isinstance(step.event, (Decision, CardDrawn, DiceRolled,
                                                                                   Correction)):
                    step.undone = True
        return Step(event, before)

    def _oracle(self, event: OracleQuestion) -> None:
        from storyteller.core import oracle

        by_player = event.by == "player"
        problem = oracle.check(self.header.seed, event.n, event.odds, event.roll, event.answer, event.spark, by_player)
        if problem:
            raise self.fail(event, problem)
        if by_player and self.table is None:
            raise self.fail(event, "the oracle was rolled at a real table, but this game's dice come from the seed")

    def _end(self, event: End) -> None:
        outcome = self._outcome(event)
        if (event.reason if event.reason is not None else outcome.reason) != outcome.reason:
            self.notes.append(f"line {event.n + 1}: the log's sentence for the end is not the rules' sentence")
        self.outcome = outcome

    def _outcome(self, event: End) -> Outcome:
        state, result = self.state, event.result
        if result == ABANDONED.result:
            # A player abandons a game that waits for a decision; not one the rules have ended.
            if state.outcome is not None:
                raise self.fail(event, f"the log says the game was abandoned, but the rules ended it: "
                                       f"{state.outcome.result}")
            if state.chance() is not None:
                raise self.fail(event, "the log says the game was abandoned while a card was still being drawn")
            return ABANDONED
        if state.chance() is not None or state.outcome is None:
            raise self.fail(event, f"the log says the game ended ({result}) but it was still going on")
        got = state.outcome
        if result != got.result or event.score != got.score:
            raise self.fail(event, f"the log says {result} (score {event.score}), but the game ends {got.result} "
                                   f"(score {got.score})")
        if event.cause is not None and event.cause != got.cause:
            raise self.fail(event, f"the log gives the cause '{event.cause}', but the game ends by '{got.cause}'")
        return got

    # -- reading it ----------------------------------------------------------------------

    def visit(self, *visitors: Visitor) -> None:
        """Give every kept step to each visitor (a replay that keeps its steps)."""
        visit(self.steps, visitors)

    @property
    def decision_states(self) -> list[State]:
        """The state before every decision standing, in order."""
        return [before for _, before in self.history]


def walk(log: GameLog, keep_steps: bool = False, on_step: Callable[[Step], None] | None = None,
         resumable: bool = False, visitors: Sequence[Visitor] = (), listeners: Sequence[Visitor] = ()) -> Replay:
    """Replay a whole log from its header, checking every draw, decision, undo, correction,
    oracle answer and the end (ReplayMismatch names the first line that differs). A log that
    stops early (an unfinished game) walks fine: the replay is the game to continue from.

    ``keep_steps`` keeps every step with its snapshots, and then ``visitors`` visit them once
    the walk is over (undone and corrected steps marked); ``listeners`` (and ``on_step``) hear
    each step as it is made. ``resumable`` keeps what play needs to go on (see :class:`Replay`)."""
    taken_back = {e.of for e in log.events if isinstance(e, Undo)}
    replaced = {e.of for e in log.events if isinstance(e, Correction)}
    heard = list(listeners)
    if on_step is not None:
        heard.append(_Callback(on_step))
    replay = Replay(log.header, str(log.path) if log.path else "log", keep_steps=keep_steps or bool(visitors),
                    resumable=resumable, taken_back=taken_back, replaced=replaced, listeners=heard)
    for event in log.events:
        replay.feed(event)
    for listener in heard:
        listener.finish()
    if visitors:
        replay.visit(*visitors)
    return replay


class _Callback(Visitor):
    """Every step, whatever its type, to one function."""

    def __init__(self, call: Callable[[Step], None]) -> None:
        self.call = call

    def on_draw(self, step: Step) -> None:
        self.call(step)

    on_roll = on_decision = on_question = on_journal = on_oracle = on_undo = on_correction = on_end = on_draw


def rules_words(state: State, move: Move) -> str:
    """The rules' words for a move about to be applied. Words exist only for legal moves:
    for any other, apply() says what is wrong, so whatever describing it raises is moot."""
    try:
        return state.describe(move)
    except Exception:
        return ""

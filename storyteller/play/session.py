"""The play loop: a game's rules, a source of chance, a decision maker and the log.

The session owns all randomness. A state names the draw it needs; the session asks its
source to answer (a seeded shuffle; in replay, the log itself) and logs the answer. Every
draw, roll and decision is first carried out on a clone of the state: only what the rules
accept is written, so a rejected one leaves the log as it was. Undo is an event too: the
state before the decision comes back, and since a draw is fixed by its deal and its place
in that deal, undoing never changes a later draw.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Protocol

from storyteller import __version__
from storyteller.core.engine import ABANDONED, Action, Draw, Game, Hint, Move, Outcome, Roll, RuleError, State
from storyteller.log.file import GameLog, LogError, LogWriter, now
from storyteller.core.rng import Stream


class ReplayMismatch(LogError):
    """The log and the game disagree; the message names the first line that differs."""


# -- sources of chance ------------------------------------------------------------------


class Source(Protocol):
    """Who answers the rules' requests for chance: a card for a Draw, dice for a Roll."""

    name: str

    def draw(self, request: Draw) -> str: ...

    def roll(self, request: Roll) -> tuple[int, ...]: ...

    def resolve(self, request: Draw | Roll) -> Any:
        """The answer to either kind of request."""
        ...


class SourceBase:
    name = ""

    def draw(self, request: Draw) -> str:
        raise NotImplementedError

    def roll(self, request: Roll) -> tuple[int, ...]:
        raise NotImplementedError

    def resolve(self, request: Draw | Roll) -> Any:
        return self.draw(request) if isinstance(request, Draw) else self.roll(request)


class SeededSource(SourceBase):
    """Draws and dice from the seed: deal ``k`` is the k-th seeded shuffle of the pile."""

    name = "seeded"

    def __init__(self, seed: str, game: Game, variants: dict[str, str]) -> None:
        self.seed = seed
        self.game = game
        self.variants = variants
        self._deals: dict[tuple[str, int], list[str]] = {}

    def deal(self, k: int, pile: str = "deck") -> list[str]:
        if (pile, k) not in self._deals:
            deck = self.game.deck(self.variants, pile)
            salt = ("deal", str(k)) if pile == "deck" else ("deal", pile, str(k))
            self._deals[(pile, k)] = Stream(self.seed, *salt).shuffled(deck)
        return self._deals[(pile, k)]

    def draw(self, request: Draw) -> str:
        return self.deal(request.deal, request.pile)[request.slot]

    def roll(self, request: Roll) -> tuple[int, ...]:
        stream = Stream(self.seed, "roll", str(request.index))
        return tuple(stream.die(request.sides) for _ in range(request.count))


# Where a game's cards and dice come from: (cards from the player's table, dice from it).
SOURCES = {"seeded": (False, False), "physical": (True, True), "physical cards": (True, False), "physical dice": (False, True)}


def make_source(header: dict[str, Any], game: Game, variants: dict[str, str]) -> SeededSource:
    """What the seed answers: everything in a seeded game, and what does not come from the
    table in a game played with the player's own cards or dice."""
    kind = header.get("source", "seeded")
    if kind not in SOURCES:
        raise LogError(f"draws from the source '{kind}' cannot be played or replayed by this version")
    return SeededSource(header["seed"], game, variants)


class Table:
    """The player's own table: which of cards and dice come from it, and every card and
    roll entered there so far, by place. A place the rules ask for again (after an undo)
    gets the card already turned up there; a turn's dice stay rolled."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self.cards, self.dice = SOURCES[kind]
        self.known: dict[tuple, Any] = {}

    def physical(self, request: Draw | Roll) -> bool:
        return self.cards if isinstance(request, Draw) else self.dice

    @staticmethod
    def place(request: Draw | Roll) -> tuple:
        if isinstance(request, Draw):
            return ("card", request.pile, request.deal, request.slot)
        return ("roll", request.index)

    def remembered(self, request: Draw | Roll) -> Any:
        """The card or roll already entered for this place, if it can still be there."""
        value = self.known.get(self.place(request))
        if isinstance(request, Draw) and value not in request.options:
            return None
        return value

    def remember(self, request: Draw | Roll, value: Any) -> None:
        self.known[self.place(request)] = value


def table_of(header: dict[str, Any]) -> Table | None:
    kind = header.get("source", "seeded")
    return Table(kind) if kind in SOURCES and kind != "seeded" else None


@dataclass(frozen=True)
class Correction:
    """The player entered the wrong card or roll: ``value`` is the one really turned up."""

    value: Any


def corrected_event(original: dict[str, Any], correction: dict[str, Any]) -> dict[str, Any]:
    """A correction read as the draw or roll it stands for: the place of the event it
    replaces, the card or dice it gives, and its own number."""
    value = {"card": correction["card"]} if "card" in correction else {"dice": correction["dice"]}
    return {**original, **value, "n": correction["n"], "at": correction.get("at", "")}


class LogSource:
    """In replay the log answers each request with its own event, checked first: the card
    must be one the rules allow there (among the request's options), and for a seeded log
    it must be the card the seed deals."""

    name = "log"

    def __init__(self, seeded: SeededSource | None, table: Table | None = None) -> None:
        self.seeded = seeded
        self.table = table

    def _seeded(self, request: Draw | Roll) -> SeededSource | None:
        return None if self.table is not None and self.table.physical(request) else self.seeded

    def draw_of(self, request: Draw, event: dict[str, Any]) -> str:
        card = event["card"]
        logged = (event["to"], event["deal"], event["slot"], event.get("pile", "deck"))
        if logged != (request.to, request.deal, request.slot, request.pile):
            raise RuleError(
                f"the log draws {card} to {event['to']} (deal {event['deal']}, place {event['slot']}), "
                f"but the game draws to {request.to} (deal {request.deal}, place {request.slot}) here"
            )
        seeded = self._seeded(request)
        if seeded is not None:
            expected = seeded.draw(request)
            if card != expected:
                raise RuleError(
                    f"the log draws {card} to {event['to']} (deal {event['deal']}, place {event['slot']}), "
                    f"but the seed deals {expected} to {request.to} (deal {request.deal}, place {request.slot})"
                )
        if card not in request.options:
            raise RuleError(f"the log draws {card} to {request.to}, but that card cannot be there now")
        return card

    def roll_of(self, request: Roll, event: dict[str, Any]) -> tuple[int, ...]:
        dice = tuple(event["dice"])
        if event["index"] != request.index:
            raise RuleError(f"the log has roll {event['index']} here, but the game makes roll {request.index}")
        if len(dice) != request.count or any(type(d) is not int or not 1 <= d <= request.sides for d in dice):
            raise RuleError(f"the log rolls {list(dice)}, not {request.count} dice of {request.sides} sides")
        seeded = self._seeded(request)
        if seeded is not None:
            expected = seeded.roll(request)
            if dice != expected:
                raise RuleError(f"the log rolls {list(dice)}, but the seed rolls {list(expected)}")
        return dice


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


# -- walking a log ----------------------------------------------------------------------


@dataclass
class Step:
    """One event of a log, with the state before it and the state it left.

    ``move`` is the typed move of a decision; a draw's card and a roll's dice are in the
    event. ``before`` is None when the walk keeps no snapshots (a live view of replay).
    """

    event: dict[str, Any]
    after: State
    before: State | None = None
    move: Move | None = None
    undone: bool = False
    words: str = ""  # a decision's move in the rules' words (not the log's)
    corrected: bool = False  # a draw or roll a later correction replaced (or one that followed it)
    corrects: int | None = None  # for a correction: the event it replaces (its event reads as a draw or roll)

    @property
    def kind(self) -> str:
        return self.event["event"]

    @property
    def n(self) -> int:
        return self.event["n"]


@dataclass
class Walk:
    game: Game
    variants: dict[str, str]
    state: State
    history: list[tuple[int, State]] = field(default_factory=list)  # (decision n, state before), standing ones
    steps: list[Step] = field(default_factory=list)
    outcome: Outcome | None = None  # including an abandoned game
    decisions: int = 0  # decisions standing (undone ones are not counted)
    words: dict[int, str] = field(default_factory=dict)  # decision n -> the rules' words for its move
    notes: list[str] = field(default_factory=list)  # where the log's words are not the rules' words
    table: "Table | None" = None  # a game played with the player's own cards or dice: what they entered
    # The draws and rolls since the last standing decision, (n, state before, request): a
    # correction rewinds to one of them. Kept for each standing decision, for after an undo.
    rewind: list[tuple[int, Any, Any]] = field(default_factory=list)
    rewinds: dict[int, list] = field(default_factory=dict)


def _event_line(event: dict[str, Any]) -> int:
    return int(event["n"]) + 1  # line 1 is the header


def open_game(log: GameLog) -> tuple[Game, dict[str, str]]:
    from storyteller import registry

    where = str(log.path) if log.path else "log"
    try:
        game = registry.rules(log.game)
    except registry.RegistryError as e:
        raise LogError(f"{where}: line 1: {e}") from None
    try:
        variants = game.validate_variants(log.variants)
    except ValueError as e:
        raise LogError(f"{where}: line 1: {e}") from None
    return game, variants


def walk(
    log: GameLog,
    keep_steps: bool = False,
    on_step: Callable[[Step], None] | None = None,
    resumable: bool = False,
) -> Walk:
    """Re-run a log from its header, checking every draw, decision, undo, correction and the end.

    Raises ReplayMismatch naming the first line that differs. A log that stops early
    (an unfinished session) walks fine: the result is the state to continue from. With
    ``keep_steps`` every step keeps snapshots of the state before and after it. With
    ``resumable`` the walk keeps the state before every standing decision (and, at a real
    table, before every draw since the last one), so that a resumed session can undo and
    correct; otherwise only what an undo or a correction in the log takes back is kept.
    """
    game, variants = open_game(log)
    table = table_of(log.header)
    source = LogSource(make_source(log.header, game, variants), table)
    where = str(log.path) if log.path else "log"
    state = game.new_state(variants)
    w = Walk(game=game, variants=variants, state=state, table=table)
    snapshot = state.clone() if keep_steps else None
    taken_back = {e.get("of") for e in log.events if e["event"] == "undo"}
    replaced = {e.get("of") for e in log.events if e["event"] == "correction"}
    by_n: dict[int, dict[str, Any]] = {}
    rewinding = table is not None and resumable

    def fail(event: dict[str, Any], why: str) -> ReplayMismatch:
        return ReplayMismatch(f"{where}: line {_event_line(event)}: {why}")

    def answer(request: Draw | Roll, event: dict[str, Any]) -> Any:
        try:
            return source.draw_of(request, event) if isinstance(request, Draw) else source.roll_of(request, event)
        except RuleError as e:
            raise fail(event, str(e)) from None

    for event in log.events:
        kind = event["event"]
        n = event["n"]
        move, words, corrects, shown = None, "", None, event
        if w.outcome is not None and kind not in ("journal", "question"):
            raise fail(event, f"a {kind} event after the end of the game")
        if kind == "draw" or kind == "roll":
            request = state.chance()
            if request is None:
                raise fail(event, f"the log has a {kind} here but the game is waiting for a decision")
            if (kind == "draw") != isinstance(request, Draw):
                raise fail(event, "the game rolls dice here, but the log has a card" if kind == "draw"
                           else "the game draws a card here, but the log has dice")
            value = answer(request, event)
            before = state.clone() if rewinding or n in replaced else None
            try:
                state.resolve(value)
            except RuleError as e:
                raise fail(event, str(e)) from None
            if table is not None:
                table.remember(request, value)
                w.rewind.append((n, before, request))
        elif kind == "correction":
            target = next((entry for entry in w.rewind if entry[0] == event["of"]), None)
            if target is None:
                raise fail(event, f"a correction of event {event['of']}, which is not a card or roll entered since the last move")
            start, before, request = target
            if table is None or not table.physical(request):
                raise fail(event, "a correction of a card or roll that did not come from the player's table")
            corrects = start
            shown = corrected_event(by_n[start], event)
            value = answer(request, shown)
            state = before.clone()
            try:
                state.resolve(value)
            except RuleError as e:
                raise fail(event, str(e)) from None
            table.remember(request, value)
            w.rewind[w.rewind.index(target):] = [(n, before, request)]
            if keep_steps:
                for step in w.steps:
                    if step.n >= start and step.kind in ("draw", "roll") and not step.undone:
                        step.corrected = True
        elif kind == "decision":
            if state.chance() is not None:
                raise fail(event, "a decision where the game still has a card to draw")
            key = str(event["action"])
            before = state.clone() if resumable or n in taken_back else state
            try:
                move = game.parse(key)
                words = _words(state, move)
                state.apply(move)  # every game's apply() checks the move against the rules first
            except RuleError as e:
                raise fail(event, f"'{key}' is not a legal move at this point: {e}") from None
            w.words[n] = words
            if "text" in event and event["text"] != words:
                w.notes.append(f"line {_event_line(event)}: the log's words for '{key}' are not the rules' words")
            w.history.append((n, before))  # without a snapshot: no undo will ask for it
            w.rewinds[n], w.rewind = w.rewind, []
            w.decisions += 1
        elif kind == "undo":
            if not w.history:
                raise fail(event, "an undo with no decision to take back")
            last, before = w.history.pop()
            if event["of"] != last:
                raise fail(event, f"the undo names decision {event['of']}, but the last decision standing is {last}")
            state = before
            w.rewind = w.rewinds.pop(last)
            w.decisions -= 1
            if keep_steps:
                for step in w.steps:
                    if step.n >= last and not step.undone and step.kind in ("decision", "draw", "roll"):
                        step.undone = True
        elif kind == "oracle":
            from storyteller.core import oracle

            problem = oracle.check(event, log.seed)
            if problem:
                raise fail(event, problem)
            if event.get("by") == "player" and table is None:
                raise fail(event, "the oracle was rolled at a real table, but this game's dice come from the seed")
        elif kind == "end":
            w.outcome = _check_end(event, state, fail)
            if event.get("reason", w.outcome.reason) != w.outcome.reason:
                w.notes.append(f"line {_event_line(event)}: the log's sentence for the end is not the rules' sentence")
        w.state = state
        by_n[n] = shown  # a correction, as the draw or roll it stands for
        if keep_steps or on_step:
            after = state.clone() if keep_steps else state
            step = Step(shown, after, snapshot, move, words=words, corrects=corrects)
            if keep_steps:
                snapshot = after
                w.steps.append(step)
            if on_step:
                on_step(step)
    return w


def _words(state: State, move: Move) -> str:
    """The rules' words for a move about to be applied. Words exist only for legal moves:
    for any other, apply() says what is wrong, so whatever describing it raises is moot."""
    try:
        return state.describe(move)
    except Exception:
        return ""


def _check_end(event: dict[str, Any], state: State, fail) -> Outcome:
    result = event["result"]
    if result == "abandoned":
        # A player abandons a game that waits for a decision; not one the rules have ended.
        if state.outcome is not None:
            raise fail(event, f"the log says the game was abandoned, but the rules ended it: {state.outcome.result}")
        if state.chance() is not None:
            raise fail(event, "the log says the game was abandoned while a card was still being drawn")
        return ABANDONED
    if state.chance() is not None or state.outcome is None:
        raise fail(event, f"the log says the game ended ({result}) but it was still going on")
    got = state.outcome
    if result != got.result or event.get("score") != got.score:
        raise fail(
            event,
            f"the log says {result} (score {event.get('score')}), but the game ends {got.result} (score {got.score})",
        )
    if "cause" in event and event["cause"] != got.cause:
        raise fail(event, f"the log gives the cause '{event['cause']}', but the game ends by '{got.cause}'")
    return got


# -- the live session -------------------------------------------------------------------


class Driver(Protocol):
    """Who makes the decisions: the player at a terminal, a policy, a script."""

    def begin(self, session: "Session", resumed: bool) -> None: ...

    def choose(self, session: "Session") -> "Choice": ...

    def after_draw(self, session: "Session", event: dict[str, Any]) -> None: ...

    def enter(self, session: "Session", request: Draw | Roll) -> "Any | Correction":
        """At a real table: the card or dice the player turned up for ``request`` (valid
        for it), or a Correction of the last one entered."""
        ...

    def check_end(self, session: "Session") -> "Correction | None":
        """At a real table, when the card just entered ends the game: a Correction if it
        was entered wrong, else None."""
        ...

    def after_decision(self, session: "Session", event: dict[str, Any], before: State, move: Move) -> None: ...

    def after_end(self, session: "Session") -> None: ...

    def interrupted(self, session: "Session") -> None: ...


@dataclass(frozen=True)
class Command:
    """A choice that is not a move: ``journal`` (with text), ``undo``, ``quit``, ``abandon``,
    ``correct`` (``value``: the card or dice really turned up at a real table)."""

    name: str
    text: str = ""
    prompt: str | None = None
    value: Any = None


Choice = Action | Command


class SaveAndQuit(Exception):
    """The player chose to stop for now; the log is complete up to here."""


class Session:
    def __init__(self, game: Game, variants: dict[str, str], writer: LogWriter, walk_: Walk | None = None) -> None:
        self.game = game
        self.variants = variants
        self.writer = writer
        self.log = writer.log
        self.source: Source = make_source(self.log.header, game, variants)
        if walk_ is None:
            walk_ = Walk(game=game, variants=variants, state=game.new_state(variants), table=table_of(self.log.header))
        self.state: State = walk_.state
        self.history = walk_.history
        self.decisions = walk_.decisions
        self.outcome: Outcome | None = walk_.outcome
        self.table = walk_.table  # the player's own cards or dice, if they come from a real table
        self.rewind = walk_.rewind
        self.rewinds = walk_.rewinds

    @property
    def seed(self) -> str:
        return self.log.seed

    @property
    def path(self) -> Path:
        return self.writer.path

    # -- starting -----------------------------------------------------------------------

    @classmethod
    def new(
        cls, game: Game, variants: dict[str, str], seed: str, path: Path, mode: str = "player", source: str = "seeded"
    ) -> "Session":
        """A new game; ``source`` says where its cards and dice come from (see SOURCES)."""
        header = {
            "game": game.name,
            "variants": variants,
            "seed": seed,
            "source": source,
            "version": __version__,
            "started": now(),
            "mode": mode,
        }
        return cls(game, variants, LogWriter.create(path, header))

    @classmethod
    def resume(cls, log: GameLog, repair: bool = False) -> "Session":
        w = walk(log, resumable=True)
        writer = LogWriter.reopen(log, repair=repair)
        return cls(w.game, w.variants, writer, w)

    # -- the loop ---------------------------------------------------------------------

    @property
    def over(self) -> bool:
        return self.outcome is not None

    def advance(self, driver: Driver | None = None) -> None:
        """Resolve every pending draw or roll, logging each, then note the end if reached.
        At a real table the player enters what was turned up (a place already turned up
        is not asked again), and may correct the last card or roll entered."""
        while self.outcome is None:
            request = self.state.chance()
            if request is None:
                break
            physical = self.table is not None and self.table.physical(request)
            if physical:
                result = self.table.remembered(request)  # type: ignore[union-attr]
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
            after = self.state.clone()
            after.resolve(result)  # a card the rules refuse raises here, before anything is written
            by = {"by": "player"} if physical else {}
            if isinstance(request, Draw):
                pile = {"pile": request.pile} if request.pile != "deck" else {}
                event = self.writer.append(
                    "draw", card=result, to=request.to, deal=request.deal, slot=request.slot, **pile, **by
                )
            else:
                event = self.writer.append("roll", dice=list(result), index=request.index, **by)
            if self.table is not None:
                if physical:
                    self.table.remember(request, result)
                self.rewind.append((event["n"], self.state, request))
            self.state = after
            if driver is not None:
                driver.after_draw(self, event)
            if physical and after.outcome is not None and driver is not None:
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
        for entry in reversed(self.rewind):
            if self.table is not None and self.table.physical(entry[2]):
                return entry
        return None

    def correction_target(self) -> tuple[Draw | Roll, State] | None:
        """What a correction would replace: its request, and the state before it (the table
        as it was when that card was turned up)."""
        entry = self._correctable() if self.outcome is None else None
        return (entry[2], entry[1]) if entry else None

    def correct(self, value: Any, driver: Driver | None = None) -> dict[str, Any]:
        """Replace the last card or roll entered at the table since the last move with
        ``value`` (RuleError if there is none, or if the rules refuse it there: then nothing
        is written). The game goes on from there: what the seed answered after it is
        answered again. Returns the correction's event."""
        target = self._correctable() if self.outcome is None else None
        if target is None:
            raise RuleError("there is no card or roll entered since the last move to correct: undo the move first")
        start, before, request = target
        after = before.clone()
        after.resolve(tuple(value) if isinstance(request, Roll) else value)
        fix = {"dice": list(value)} if isinstance(request, Roll) else {"card": value}
        event = self.writer.append("correction", of=start, **fix, by="player")
        self.table.remember(request, tuple(value) if isinstance(request, Roll) else value)  # type: ignore[union-attr]
        self.rewind[self.rewind.index(target):] = [(event["n"], before, request)]
        self.state = after
        if driver is not None:
            original = next(e for e in self.log.events if e["n"] == start)
            while original["event"] == "correction":  # a correction of a correction: the first event's place
                original = next(e for e in self.log.events if e["n"] == original["of"])
            driver.after_draw(self, corrected_event(original, event))
        self.advance(driver)
        return event

    def _finish(self, outcome: Outcome) -> None:
        self.writer.append("end", **outcome.as_dict())
        self.outcome = outcome

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
        before = self.state
        after = before.clone()
        after.apply(move)
        fields: dict[str, Any] = {"action": move.key, "text": before.describe(move)}
        if by:
            fields["by"] = by
        event = self.writer.append("decision", **fields)
        self.history.append((event["n"], before))
        if self.table is not None:
            self.rewinds[event["n"]], self.rewind = self.rewind, []
        self.state = after
        self.decisions += 1
        if driver is not None:
            driver.after_decision(self, event, before, move)
        self.advance(driver)

    def can_undo(self) -> bool:
        return bool(self.history) and self.outcome is None

    def undo(self) -> dict[str, Any]:
        """Take back the last standing decision; returns its event."""
        if not self.can_undo():
            raise RuleError("there is no move to undo")
        n, before = self.history[-1]
        self.writer.append("undo", of=n)
        self.history.pop()
        self.state = before
        if self.table is not None:
            self.rewind = self.rewinds.pop(n, [])
        self.decisions -= 1
        return self.log.events[n - 1]

    def last_decision(self) -> dict[str, Any] | None:
        """The event of the decision an undo would take back."""
        return self.log.events[self.history[-1][0] - 1] if self.history else None

    def journal(self, text: str, prompt: str | None = None, about: int | None = None,
                question: int | None = None) -> dict[str, Any]:
        """A journal entry: the player's words, the ``prompt`` they answer, the draw or roll it
        is ``about`` and the ``question`` event it answers, if any."""
        fields: dict[str, Any] = {"text": text}
        if prompt:
            fields["prompt"] = prompt
        if about is not None and self.log.events[about - 1]["event"] in ("draw", "roll", "correction"):
            fields["about"] = about
        if question is not None:
            fields["question"] = question
        return self.writer.append("journal", **fields)

    def question(self, qid: str, text: str, about: int | None = None) -> dict[str, Any]:
        """Log a journaling question as it is asked (whether or not it is answered)."""
        fields: dict[str, Any] = {"id": qid, "text": text}
        if about is not None:
            fields["about"] = about
        return self.writer.append("question", **fields)

    def oracle(self, question: str, odds: str, roll: int | None = None) -> dict[str, Any]:
        """Ask the oracle ``question`` at ``odds``: ``roll`` is the d100 the player rolled at a
        real table (None: the seed rolls it). Nothing of the game changes. ValueError for
        odds or a roll the oracle does not take."""
        from storyteller.core import oracle

        if odds not in oracle.ODDS:
            raise ValueError(f"the odds are one of: {', '.join(oracle.ODDS)} (not '{odds}')")
        if roll is not None and not (type(roll) is int and 1 <= roll <= 100):
            raise ValueError(f"a d100 roll is a number from 1 to 100, not {roll}")
        n = len(self.log.events) + 1
        d100 = oracle.roll(self.seed, n) if roll is None else roll
        by = {"by": "player"} if roll is not None else {}
        return self.writer.append("oracle", question=question, odds=odds, roll=d100,
                                  answer=oracle.answer(odds, d100), spark=oracle.spark(self.seed, n), **by)

    def abandon(self) -> None:
        self._finish(ABANDONED)

    def run(self, driver: Driver) -> Outcome:
        """Play until the game ends. SaveAndQuit, KeyboardInterrupt and EOFError pass through."""
        self.advance(driver)
        while self.outcome is None:
            choice = driver.choose(self)
            if isinstance(choice, Action):
                self.decide(choice, driver)
            elif choice.name == "journal":
                if choice.text.strip():
                    self.journal(choice.text, choice.prompt)
            elif choice.name == "undo":
                self.undo()
            elif choice.name == "correct":
                self.correct(choice.value, driver)
            elif choice.name == "abandon":
                self.abandon()
            elif choice.name == "quit":
                raise SaveAndQuit()
            else:  # pragma: no cover - drivers only make the commands above
                raise ValueError(f"unknown command {choice.name}")
        driver.after_end(self)
        return self.outcome

    def close(self) -> None:
        self.writer.close()


__all__ = [
    "AutoPlayer", "Choice", "Command", "Correction", "Driver", "Hint", "LogSource", "ReplayMismatch", "SaveAndQuit",
    "SeededSource", "Session", "Source", "SourceBase", "Step", "Walk", "make_source", "simulate", "walk",
]

"""The play loop: a game's rules, a source of chance, a decision maker and the log.

The session owns all randomness. A state names the draw it needs; the session's
source answers it (a seeded shuffle today; a player's own deck later) and the session
logs it. Undo is an event too: the state is re-derived from the log, and since a draw
is fixed by its deal and its place in that deal, undoing never changes a later draw.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Protocol

from storyteller import __version__
from storyteller.engine import Action, Draw, Game, Outcome, Roll, RuleError, State, get_game
from storyteller.log import GameLog, LogError, LogWriter, now
from storyteller.rng import Stream


class ReplayMismatch(LogError):
    """The log and the game disagree; the message names the first line that differs."""


# -- sources of chance ------------------------------------------------------------------


class SeededSource:
    """Draws and dice from the seed: deal ``k`` is the k-th seeded shuffle of the deck."""

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

    def resolve(self, request: Draw | Roll) -> Any:
        return self.draw(request) if isinstance(request, Draw) else self.roll(request)


def make_source(header: dict[str, Any], game: Game, variants: dict[str, str]) -> SeededSource:
    kind = header.get("source", "seeded")
    if kind != "seeded":
        raise LogError(f"draws from the source '{kind}' cannot be replayed by this version")
    return SeededSource(header["seed"], game, variants)


# -- playing without a person ------------------------------------------------------------


def auto_choice(game: Game, state: State, seed: str, policy: str, decisions: int) -> Action:
    """The move ``--auto`` makes: ``greedy`` takes the game's hint; ``random`` draws from
    the seed, one stream per decision, so a resumed game goes on exactly as it would have."""
    if policy == "greedy":
        hint = game.hint(state)
        if hint is not None:
            return hint.action
        return state.legal_actions()[0]
    return Stream(seed, "auto", str(decisions)).choice(state.legal_actions())


def simulate(game: Game, variants: dict[str, str], seed: str, policy: str) -> State:
    """Play one seeded game to its end with ``--auto``'s choices, without a log
    (win rates, batch runs): the same moves ``storyteller play --auto`` would make."""
    state = game.new_state(variants)
    source = SeededSource(seed, game, variants)
    decisions = 0
    while state.outcome is None:
        request = state.chance()
        if request is not None:
            state.resolve(source.resolve(request))
        else:
            state.apply(auto_choice(game, state, seed, policy, decisions))
            decisions += 1
    return state


# -- walking a log ----------------------------------------------------------------------


@dataclass
class Step:
    """One event of a log with the state it left (for views and renderers)."""

    event: dict[str, Any]
    state: State
    undone: bool = False


@dataclass
class Walk:
    game: Game
    variants: dict[str, str]
    state: State
    history: list[tuple[int, State]] = field(default_factory=list)  # (decision n, state before)
    steps: list[Step] = field(default_factory=list)
    outcome: Outcome | None = None  # including an abandoned game
    decisions: int = 0


def _event_line(event: dict[str, Any]) -> int:
    return int(event["n"]) + 1  # line 1 is the header


def open_game(log: GameLog) -> tuple[Game, dict[str, str]]:
    where = str(log.path) if log.path else "log"
    try:
        game = get_game(log.game)
    except KeyError as e:
        raise LogError(f"{where}: line 1: {e.args[0]}") from None
    try:
        variants = game.validate_variants(log.variants)
    except ValueError as e:
        raise LogError(f"{where}: line 1: {e}") from None
    return game, variants


def walk(log: GameLog, keep_steps: bool = False, on_step: Callable[[Step], None] | None = None) -> Walk:
    """Re-run a log from its header, checking every draw, decision, undo and the end.

    Raises ReplayMismatch naming the first line that differs. A log that stops early
    (an unfinished session) walks fine: the result is the state to continue from.
    """
    game, variants = open_game(log)
    source = make_source(log.header, game, variants)
    where = str(log.path) if log.path else "log"
    state = game.new_state(variants)
    w = Walk(game=game, variants=variants, state=state)

    def fail(event: dict[str, Any], why: str) -> ReplayMismatch:
        return ReplayMismatch(f"{where}: line {_event_line(event)}: {why}")

    for event in log.events:
        kind = event["event"]
        if w.outcome is not None and kind != "journal":
            raise fail(event, f"a {kind} event after the end of the game")
        if kind == "draw" or kind == "roll":
            request = state.chance()
            if request is None:
                raise fail(event, f"the log has a {kind} here but the game is waiting for a decision")
            expected = source.resolve(request)
            if kind == "draw":
                if not isinstance(request, Draw):
                    raise fail(event, "the game rolls dice here, but the log has a card")
                got = (event["card"], event["to"], event["deal"], event["slot"], event.get("pile", "deck"))
                want = (expected, request.to, request.deal, request.slot, request.pile)
                if got != want:
                    raise fail(
                        event,
                        f"the log draws {event['card']} to {event['to']} (deal {event['deal']}, place {event['slot']}), "
                        f"but the seed deals {expected} to {request.to} (deal {request.deal}, place {request.slot})",
                    )
            else:
                if not isinstance(request, Roll):
                    raise fail(event, "the game draws a card here, but the log has dice")
                if list(event["dice"]) != list(expected) or event["index"] != request.index:
                    raise fail(event, f"the log rolls {event['dice']}, but the seed rolls {list(expected)}")
            state.resolve(expected)
        elif kind == "decision":
            if state.chance() is not None:
                raise fail(event, "a decision where the game still has a card to draw")
            if state.outcome is not None:
                raise fail(event, "a decision after the game was over")
            key = event["action"]
            before = state.clone()
            try:
                # Every game's apply() checks its move against the rules before changing anything.
                state.apply(Action(str(key), str(event.get("text", key))))
            except RuleError as e:
                raise fail(event, f"'{key}' is not a legal move at this point: {e}") from None
            w.history.append((event["n"], before))
            w.decisions += 1
        elif kind == "undo":
            if not w.history:
                raise fail(event, "an undo with no decision to take back")
            n, before = w.history.pop()
            if event["of"] != n:
                raise fail(event, f"the undo names decision {event['of']}, but the last decision standing is {n}")
            state = before
            w.state = state
            if keep_steps:
                for step in w.steps:
                    if step.event["n"] >= n and not step.undone and step.event["event"] in ("decision", "draw", "roll"):
                        step.undone = True
        elif kind == "end":
            result = event["result"]
            if result == "abandoned":
                w.outcome = Outcome("abandoned", "The player abandoned the game.", None)
            else:
                if state.chance() is not None or state.outcome is None:
                    raise fail(event, f"the log says the game ended ({result}) but it was still going on")
                if result != state.outcome.result or event.get("score") != state.outcome.score:
                    raise fail(
                        event,
                        f"the log says {result} (score {event.get('score')}), but the game ends "
                        f"{state.outcome.result} (score {state.outcome.score})",
                    )
                w.outcome = state.outcome
        w.state = state
        if keep_steps or on_step:
            step = Step(event, state.clone() if keep_steps else state)
            if keep_steps:
                w.steps.append(step)
            if on_step:
                on_step(step)
    return w


# -- the live session -------------------------------------------------------------------


class Driver(Protocol):
    """Who makes the decisions: the player at a terminal, a policy, a script."""

    def begin(self, session: "Session", resumed: bool) -> None: ...

    def choose(self, session: "Session") -> "Choice": ...

    def after_draw(self, session: "Session", event: dict[str, Any]) -> None: ...

    def after_decision(self, session: "Session", event: dict[str, Any], before: State) -> None: ...

    def after_end(self, session: "Session") -> None: ...

    def interrupted(self, session: "Session") -> None: ...


@dataclass(frozen=True)
class Command:
    """A choice that is not a move: ``journal`` (with text), ``undo``, ``quit``, ``abandon``."""

    name: str
    text: str = ""
    prompt: str | None = None


Choice = Action | Command


class SaveAndQuit(Exception):
    """The player chose to stop for now; the log is complete up to here."""


class Session:
    def __init__(self, game: Game, variants: dict[str, str], writer: LogWriter, walk_: Walk | None = None) -> None:
        self.game = game
        self.variants = variants
        self.writer = writer
        self.log = writer.log
        self.source = make_source(self.log.header, game, variants)
        if walk_ is None:
            walk_ = Walk(game=game, variants=variants, state=game.new_state(variants))
        self.state: State = walk_.state
        self.history = walk_.history
        self.decisions = walk_.decisions
        self.outcome: Outcome | None = walk_.outcome

    @property
    def seed(self) -> str:
        return self.log.seed

    @property
    def path(self) -> Path:
        return self.writer.path

    # -- starting -----------------------------------------------------------------------

    @classmethod
    def new(cls, game: Game, variants: dict[str, str], seed: str, path: Path, mode: str = "player") -> "Session":
        header = {
            "game": game.name,
            "variants": variants,
            "seed": seed,
            "source": "seeded",
            "version": __version__,
            "started": now(),
            "mode": mode,
        }
        return cls(game, variants, LogWriter.create(path, header))

    @classmethod
    def resume(cls, log: GameLog, repair: bool = False) -> "Session":
        w = walk(log)
        writer = LogWriter.reopen(log, repair=repair)
        return cls(w.game, w.variants, writer, w)

    # -- the loop ---------------------------------------------------------------------

    @property
    def over(self) -> bool:
        return self.outcome is not None

    def advance(self, driver: Driver | None = None) -> None:
        """Resolve every pending draw or roll, logging each, then note the end if reached."""
        while self.outcome is None:
            request = self.state.chance()
            if request is None:
                break
            result = self.source.resolve(request)
            if isinstance(request, Draw):
                pile = {"pile": request.pile} if request.pile != "deck" else {}
                event = self.writer.append(
                    "draw", card=result, to=request.to, deal=request.deal, slot=request.slot, **pile
                )
            else:
                event = self.writer.append("roll", dice=list(result), index=request.index)
            self.state.resolve(result)
            if driver is not None:
                driver.after_draw(self, event)
        if self.outcome is None and self.state.outcome is not None:
            self._finish(self.state.outcome)

    def _finish(self, outcome: Outcome) -> None:
        self.writer.append("end", **outcome.as_dict())
        self.outcome = outcome

    def legal_actions(self) -> list[Action]:
        return self.state.legal_actions()

    def decide(self, action: Action | str, driver: Driver | None = None, by: str | None = None) -> None:
        key = action.key if isinstance(action, Action) else action
        legal = {a.key: a for a in self.state.legal_actions()}
        if key not in legal:
            raise RuleError(f"'{key}' is not a legal move now")
        chosen = legal[key]
        fields: dict[str, Any] = {"action": chosen.key, "text": chosen.text}
        if by:
            fields["by"] = by
        event = self.writer.append("decision", **fields)
        before = self.state.clone()
        self.history.append((event["n"], before))
        self.state.apply(chosen)
        self.decisions += 1
        if driver is not None:
            driver.after_decision(self, event, before)
        self.advance(driver)

    def can_undo(self) -> bool:
        return bool(self.history) and self.outcome is None

    def undo(self) -> None:
        if not self.can_undo():
            raise RuleError("there is no move to undo")
        n, before = self.history.pop()
        self.writer.append("undo", of=n)
        self.state = before

    def journal(self, text: str, prompt: str | None = None, about: int | None = None) -> dict[str, Any]:
        fields: dict[str, Any] = {"text": text}
        if prompt:
            fields["prompt"] = prompt
        if about is not None:
            fields["about"] = about
        return self.writer.append("journal", **fields)

    def abandon(self) -> None:
        self._finish(Outcome("abandoned", "The player abandoned the game."))

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

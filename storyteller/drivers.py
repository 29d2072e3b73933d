"""Who decides: the player at a terminal, a policy (``--auto``), or a script (``--answers``).

A driver is asked for a choice whenever the game waits for a decision, and is told of
every draw (so the player can be shown what the card means and asked to journal).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from storyteller import registry
from storyteller.engine import Move, RuleError, State
from storyteller.log import JOURNAL
from storyteller.session import AutoPlayer, Command, Session
from storyteller.stories import LAST_WORD, Teller
from storyteller.words import clean


class AnswersExhausted(Exception):
    pass


class IllegalAnswer(Exception):
    pass


def _out(text: str = "") -> None:
    print(clean(text), flush=True)


def teller_of(session: Session) -> Teller:
    return registry.get(session.game.name).teller


def why_illegal(session: Session, key: str) -> str:
    """The rule that forbids ``key`` now, in words."""
    probe = session.state.clone()
    try:
        probe.apply(session.game.parse(key))
    except RuleError as e:
        return str(e)
    return "it is not a legal move now"


class _Narrating:
    """Shared plain-text narration for the drivers that run without prompts."""

    def begin(self, session: Session, resumed: bool) -> None:
        verb = "Resuming" if resumed else "Playing"
        variants = session.game.describe_variants(session.variants)
        _out(f"{verb} {session.game.title} ({variants}) with seed {session.seed}")
        _out(f"Log: {session.path}")

    def after_draw(self, session: Session, event: dict[str, Any]) -> None:
        tell = teller_of(session)
        _out(f"  {tell.draw_text(event)} {tell.meaning(event, session.seed, session.variants)}")

    def after_decision(self, session: Session, event: dict[str, Any], before: State, move: Move) -> None:
        told = teller_of(session).after_decision(before, move, session.state)
        if told:
            title, lines = told
            _out(f"  {title}:")
            for line in lines:
                _out(f"    - {line}")

    def after_end(self, session: Session) -> None:
        outcome = session.outcome
        assert outcome is not None
        score = f" Score: {outcome.score}." if outcome.score is not None else ""
        _out(f"The game is over: {outcome.result}. {outcome.reason}{score}")

    def interrupted(self, session: Session) -> None:
        pass


class AutoDriver(_Narrating):
    """Plays by itself: ``random`` picks a legal move from the seed, ``greedy`` takes the hint."""

    def __init__(self, player: AutoPlayer) -> None:
        self.player = player

    def begin(self, session: Session, resumed: bool) -> None:
        super().begin(session, resumed)
        if resumed:
            self.player.warm([before for _, before in session.history])

    def choose(self, session: Session):
        action = self.player.choose(session.state, session.decisions)
        _out(f"> {action.text}")
        return action


class AnswersDriver(_Narrating):
    """Plays from scripted answers, one per line.

    - ``#`` starts a comment line; blank lines are skipped.
    - A move, by its key (``explore``, ``take QH``), its number in the list of legal
      moves (``2``), or its words as shown.
    - ``journal: some words`` writes a journal entry. Right after a card is revealed, it
      answers that card's journaling question.
    - ``undo``, ``quit`` (save and stop), ``abandon``.
    """

    def __init__(self, lines: list[tuple[int, str]], name: str = "answers") -> None:
        self.lines = lines
        self.name = name
        self.pos = 0

    @classmethod
    def from_file(cls, path: Path) -> "AnswersDriver":
        text = path.read_text(encoding="utf-8")
        lines = [
            (i, line.strip())
            for i, line in enumerate(text.splitlines(), start=1)
            if line.strip() and not line.strip().startswith("#")
        ]
        return cls(lines, str(path))

    def _entry(self, lineno: int, answer: str) -> str:
        """The words of a ``journal:`` line."""
        text = answer.split(":", 1)[1].strip()
        if len(text) > JOURNAL:
            raise IllegalAnswer(f"{self.name} line {lineno}: a journal entry holds at most {JOURNAL:,} characters")
        return text

    def _peek(self) -> tuple[int, str] | None:
        return self.lines[self.pos] if self.pos < len(self.lines) else None

    def after_draw(self, session: Session, event: dict[str, Any]) -> None:
        super().after_draw(session, event)
        nxt = self._peek()
        prompt = teller_of(session).question(event, session.seed)
        if prompt and nxt and nxt[1].lower().startswith("journal:"):
            # An entry right after a card that asks a question answers it (even the last card's).
            self.pos += 1
            session.journal(self._entry(*nxt), prompt, about=event["n"])

    def after_end(self, session: Session) -> None:
        super().after_end(session)
        # Journal lines left after the end are the player's last words.
        while (nxt := self._peek()) and nxt[1].lower().startswith("journal:"):
            self.pos += 1
            session.journal(self._entry(*nxt), LAST_WORD)

    def choose(self, session: Session):
        nxt = self._peek()
        if nxt is None:
            raise AnswersExhausted(f"{self.name}: the answers ran out before the game ended")
        self.pos += 1
        lineno, answer = nxt
        low = answer.lower()
        if low.startswith("journal:"):
            return Command("journal", self._entry(lineno, answer))
        if low in ("undo", "quit", "abandon"):
            if low == "undo" and not session.can_undo():
                raise IllegalAnswer(f"{self.name} line {lineno}: 'undo': there is no move to undo")
            return Command(low)
        legal = session.legal_actions()
        canonical = session.game.canonical(answer).lower()
        for action in legal:
            if low in (action.key.lower(), action.text.lower()) or canonical == action.key.lower():
                _out(f"> {action.text}")
                return action
        if answer.isdigit() and 1 <= int(answer) <= len(legal):
            action = legal[int(answer) - 1]
            _out(f"> {action.text}")
            return action
        raise IllegalAnswer(f"{self.name} line {lineno}: '{answer}' is refused: {why_illegal(session, answer)}")


class PlayerDriver:
    """The player at a terminal: rich views, questionary prompts."""

    def __init__(self, terminal) -> None:
        self.term = terminal
        self.policy = None  # the hint's policy, made for this game at its start

    def begin(self, session: Session, resumed: bool) -> None:
        from storyteller.ui import play

        self.policy = session.game.policy("greedy")
        play.begin(self.term, session, resumed)

    def choose(self, session: Session):
        from storyteller.ui import play

        return play.choose(self.term, session, self.policy)

    def after_draw(self, session: Session, event: dict[str, Any]) -> None:
        from storyteller.ui import play

        play.after_draw(self.term, session, event)

    def after_decision(self, session: Session, event: dict[str, Any], before: State, move: Move) -> None:
        told = teller_of(session).after_decision(before, move, session.state)
        if told:
            from storyteller.ui import play

            play.told(self.term, *told)

    def after_end(self, session: Session) -> None:
        from storyteller.ui import play

        play.after_end(self.term, session)

    def interrupted(self, session: Session) -> None:
        pass

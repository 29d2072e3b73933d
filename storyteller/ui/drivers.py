"""Who decides: the player at a terminal, a policy (``--auto``), or a script (``--answers``).

A driver is asked for a choice whenever the game waits for a decision, and is told of
every draw (so the player can be shown what the card means and asked to journal).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from storyteller import registry
from storyteller.core.engine import Chance, Draw, Roll, RuleError
from storyteller.core.words import clean
from storyteller.log.events import JOURNAL, OracleQuestion, Visitor
from storyteller.log.replay import Step
from storyteller.play.questions import QuestionLog
from storyteller.play.session import Abandon, AutoPlayer, Correction, Quit, Session, TakeBack, Write
from storyteller.telling.stories import Teller


class AnswersExhausted(Exception):
    pass


class IllegalAnswer(Exception):
    pass


def _out(text: str = "") -> None:
    print(clean(text), flush=True)


def could_have_won(session: Session) -> str | None:
    """The end screen's line for a lost game whose deal the solver proved winnable before it
    began (``play --deal winnable``, a day's deal proved so): it could have been won, and the
    commands that show how. None for any other game."""
    from storyteller.core.words import command_line

    deal = session.log.header.deal
    outcome = session.outcome
    if deal is None or not deal.get("winnable") or outcome is None or not outcome.lost:
        return None
    which = f"The day's deal of {deal['date']}" if deal["chosen"] == "daily" else "This deal"
    won = f"{session.path.stem}-won.jsonl"
    return (f"{which} could have been won: the solver proved it before you began. A winning game: "
            f"{command_line('solve', session.path, '--log', won)}; where yours turned: "
            f"{command_line('analyse', session.path)}")


def teller_of(session: Session) -> Teller:
    return registry.get(session.game.name).teller


def table_deck(session: Session):
    """The cards of this game at a real table (to read what the player types)."""
    from storyteller.play.table import TableDeck

    game = registry.get(session.game.name)
    return TableDeck.of(game.rules, session.variants, game.prompt_data)


def read_entry(session: Session, request: Chance, text: str, places: dict[str, list[str]] | None = None) -> Any:
    """The card or dice that ``text`` names for ``request`` (ValueError with the reason when
    it cannot be there). ``places``: the table to check a card against (default: now)."""
    from storyteller.play.table import parse_dice

    if isinstance(request, Roll):
        return parse_dice(text, request.count, request.sides)
    return table_deck(session).read(text, request, session.state.places() if places is None else places)


def read_correction(session: Session, text: str) -> Any:
    """What ``text`` says was really turned up, for the last card or roll entered (ValueError
    if there is none, or if it cannot be there)."""
    target = session.correction_target()
    if target is None:
        raise ValueError("there is no card or roll entered since the last move to correct: undo the move first")
    request, before = target
    if isinstance(request, Roll) and text.lower().startswith("roll "):
        text = text[5:]
    return read_entry(session, request, text, before.places())


def setup_words(session: Session, request: Chance, said: set[str]) -> str | None:
    """What to do at the real table before this card or roll, if the rules have reached a
    moment with setup words: a reshuffle every time, any other moment the first time it
    comes in this sitting (``said`` holds those already told)."""
    tell = teller_of(session)
    moment = tell.moment(request, session.state)
    if moment is None or moment in said:
        return None
    if moment != "reshuffle":
        said.add(moment)
    return tell.setup(moment, session.variants, session.log.header.source)


def oracle_words(event: OracleQuestion) -> str:
    """The oracle's answer and its spark, in one line."""
    from storyteller.core import oracle
    from storyteller.play.table import card_name
    from storyteller.telling.meanings import keywords

    words = keywords(event.spark)
    return (f"{oracle.ANSWER_WORDS[event.answer]} (rolled {event.roll}) Spark: {card_name(event.spark)}"
            + (f", {' and '.join(words[:2])}." if words else "."))


def why_illegal(session: Session, key: str) -> str:
    """The rule that forbids ``key`` now, in words."""
    probe = session.state.clone()
    try:
        probe.apply(session.game.parse(key))
    except RuleError as e:
        return str(e)
    return "it is not a legal move now"


OWN = {"physical": "your own cards and dice", "physical cards": "your own cards", "physical dice": "your own dice"}


class _Narrating:
    """Shared plain-text narration for the drivers that run without prompts."""

    def listeners(self, game: str, seed: str, path: Path) -> list[Visitor]:
        return []

    def begin(self, session: Session, resumed: bool) -> None:
        verb = "Resuming" if resumed else "Playing"
        variants = session.game.describe_variants(session.variants)
        source = session.log.header.source
        where = f"seed {session.seed}" if session.table is None else OWN[source]
        _out(f"{verb} {session.game.title} ({variants}) with {where}")
        _out(f"Log: {session.path}")
        if session.table is not None and not resumed:
            moment = "roll" if source == "physical dice" else "start"
            words = teller_of(session).setup(moment, session.variants, source)
            if words:
                _out(words)

    def enter(self, session: Session, request: Chance) -> Any:
        raise RuleError("this driver cannot turn up the player's own cards or roll their dice")

    def check_end(self, session: Session) -> Correction | None:
        return None

    def after_draw(self, session: Session, step: Step) -> None:
        tell = teller_of(session)
        assert step.revealed is not None
        _out(f"  {tell.draw_text(step.revealed)} {tell.meaning(step.revealed, session.seed, session.variants)}")

    def after_decision(self, session: Session, step: Step) -> None:
        assert step.before is not None and step.move is not None
        told = teller_of(session).after_decision(step.before, step.move, step.after)
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
        lost = could_have_won(session)
        if lost:
            _out(lost)

    def interrupted(self, session: Session) -> None:
        pass


class AutoDriver(_Narrating):
    """Plays by itself: ``random`` picks a legal move from the seed, ``greedy`` takes the hint."""

    def __init__(self, player: AutoPlayer) -> None:
        self.player = player

    def begin(self, session: Session, resumed: bool) -> None:
        super().begin(session, resumed)
        if resumed:
            self.player.warm(session.replay.decision_states)

    def choose(self, session: Session):
        action = self.player.choose(session.state, session.decisions)
        _out(f"> {action.text}")
        return action


COMMANDS = {"undo": TakeBack(), "quit": Quit(), "abandon": Abandon()}  # an answers file's words for them
TABLE_WORDS = frozenset({"draw", "roll"})  # an answers file's words for what is turned up at a real table


class AnswersDriver(_Narrating):
    """Plays from scripted answers, one per line.

    - ``#`` starts a comment line; blank lines are skipped.
    - A move, by its key (``explore``, ``take QH``), its number in the list of legal
      moves (``2``), or its words as shown.
    - ``journal: some words`` writes a journal entry. Right after a question is asked (after
      a card is revealed, before the first move, after the end...), it answers it, if one
      was asked (see ``questions``); otherwise it is an entry of its own, as if written from
      the menu.
    - ``oracle ODDS: QUESTION`` asks the oracle a yes/no question (ODDS: almost-certain,
      likely, even, unlikely, small-chance); at a real table the next line is the d100
      rolled, ``roll N``.
    - ``undo``, ``quit`` (save and stop), ``abandon``.
    """

    def __init__(self, lines: list[tuple[int, str]], name: str = "answers", questions: str = "every-reveal") -> None:
        self.lines = lines
        self.name = name
        self.questions = questions  # the setting: which reveals ask a question
        self.pos = 0
        self.said: set[str] = set()  # setup moments already told
        self.journal: QuestionLog | None = None

    def listeners(self, game: str, seed: str, path: Path) -> list[Visitor]:
        """The journaling questions, which hear the game from its first step."""
        self.journal = QuestionLog.of(registry.get(game), seed, path, self.questions, own=True)
        return [self.journal]

    def _answer(self, session: Session, asked) -> None:
        """Print a question just asked; the next line answers it if it is a journal line."""
        if asked is None:
            return
        _out(f"  ? {asked[0].text}")
        nxt = self._peek()
        if nxt and nxt[1].lower().startswith("journal:"):
            self.pos += 1
            assert self.journal is not None
            self.journal.answer(session, self._entry(*nxt), asked)

    @classmethod
    def from_file(cls, path: Path, questions: str = "every-reveal") -> AnswersDriver:
        text = path.read_text(encoding="utf-8")
        lines = [
            (i, line.strip())
            for i, line in enumerate(text.splitlines(), start=1)
            if line.strip() and not line.strip().startswith("#")
        ]
        return cls(lines, str(path), questions)

    def _entry(self, lineno: int, answer: str) -> str:
        """The words of a ``journal:`` line."""
        text = answer.split(":", 1)[1].strip()
        if len(text) > JOURNAL:
            raise IllegalAnswer(f"{self.name} line {lineno}: a journal entry holds at most {JOURNAL:,} characters")
        from storyteller.core import tags

        for problem in tags.problems(text):  # the entry is kept as written all the same
            print(f"storyteller: {self.name} line {lineno}: {clean(problem)}", file=sys.stderr, flush=True)
        return text

    def _peek(self) -> tuple[int, str] | None:
        return self.lines[self.pos] if self.pos < len(self.lines) else None

    def enter(self, session: Session, request: Chance) -> Any:
        """The next line says what was turned up: ``draw CARD`` or ``roll 3 5 6 1 2`` (or
        ``correct ...`` for the card or roll entered before)."""
        words = setup_words(session, request, self.said)
        if words:
            _out(words)
        nxt = self._peek()
        if nxt is None:
            raise AnswersExhausted(f"{self.name}: the answers ran out before the game ended")
        lineno, answer = nxt
        verb, _, rest = answer.partition(" ")
        verb = verb.lower()
        card = isinstance(request, Draw)
        want = "draw" if card else "roll"
        if verb == "correct":
            self.pos += 1
            return Correction(self._read(lineno, answer, lambda: read_correction(session, rest.strip())))
        if verb != want:
            what = f"the card turned up for {request.to}: 'draw CARD'" if card else "the dice rolled: 'roll 3 5 6 1 2'"
            raise IllegalAnswer(f"{self.name} line {lineno}: '{answer}' is refused: the game needs {what}")
        self.pos += 1
        return self._read(lineno, answer, lambda: read_entry(session, request, rest.strip()))

    def check_end(self, session: Session) -> Correction | None:
        nxt = self._peek()
        if nxt and nxt[1].lower().startswith("correct "):
            self.pos += 1
            rest = nxt[1].partition(" ")[2].strip()
            return Correction(self._read(nxt[0], nxt[1], lambda: read_correction(session, rest)))
        return None

    def _read(self, lineno: int, answer: str, read) -> Any:
        try:
            return read()
        except ValueError as e:
            raise IllegalAnswer(f"{self.name} line {lineno}: '{answer}' is refused: {e}") from None

    def after_draw(self, session: Session, step: Step) -> None:
        super().after_draw(session, step)
        assert self.journal is not None
        self._answer(session, self.journal.ask_after(session, step))

    def after_decision(self, session: Session, step: Step) -> None:
        super().after_decision(session, step)
        assert self.journal is not None
        self._answer(session, self.journal.ask_after(session, step))

    def after_end(self, session: Session) -> None:
        super().after_end(session)
        assert self.journal is not None
        asked = self.journal.ask_end(session)
        self._answer(session, asked)
        # Journal lines left after that are more of the player's last words.
        while (nxt := self._peek()) and nxt[1].lower().startswith("journal:"):
            self.pos += 1
            session.journal(self._entry(*nxt), asked[0].text if asked else None)

    def _oracle(self, session: Session, lineno: int, answer: str) -> None:
        """``oracle ODDS: QUESTION`` (and at a real table, ``roll N`` on the next line)."""
        from storyteller.core import oracle

        head, colon, question = answer[len("oracle"):].partition(":")
        odds, question = head.strip().lower(), question.strip()
        if not colon or odds not in oracle.ODDS:
            raise IllegalAnswer(f"{self.name} line {lineno}: '{answer}' is refused: write 'oracle ODDS: QUESTION' "
                                f"with ODDS one of {', '.join(oracle.ODDS)}")
        if not question:
            raise IllegalAnswer(f"{self.name} line {lineno}: '{answer}' is refused: the oracle needs a question")
        if len(question) > JOURNAL:
            raise IllegalAnswer(f"{self.name} line {lineno}: an oracle question holds at most {JOURNAL:,} characters")
        rolled = None
        if session.table is not None:
            nxt = self._peek()
            if nxt is None or not nxt[1].lower().startswith("roll "):
                raise IllegalAnswer(f"{self.name} line {lineno}: at a real table the oracle needs the d100 you rolled "
                                    "on the next line: 'roll N'")
            self.pos += 1
            value = nxt[1][5:].strip()
            if not value.isdigit() or not 1 <= int(value) <= 100:
                raise IllegalAnswer(f"{self.name} line {nxt[0]}: '{nxt[1]}' is refused: a d100 roll is a number "
                                    "from 1 to 100")
            rolled = int(value)
        event = session.oracle(question, odds, rolled)
        _out(f"  Oracle ({oracle.ODDS_WORDS[odds]}): {question}")
        _out(f"    {oracle_words(event)}")
        assert self.journal is not None
        self._answer(session, self.journal.ask_oracle(session, event))  # a journal line next says what it means

    def choose(self, session: Session):
        assert self.journal is not None
        if not session.decisions:
            self._answer(session, self.journal.ask_start(session))
        while True:
            nxt = self._peek()
            if nxt is None:
                raise AnswersExhausted(f"{self.name}: the answers ran out before the game ended")
            self.pos += 1
            lineno, answer = nxt
            if answer.lower().startswith("oracle"):
                self._oracle(session, lineno, answer)
                continue
            break
        low = answer.lower()
        if low.startswith("journal:"):
            return Write(self._entry(lineno, answer))
        command = COMMANDS.get(low)
        if command is not None:
            if isinstance(command, TakeBack) and not session.can_undo():
                raise IllegalAnswer(f"{self.name} line {lineno}: 'undo': there is no move to undo")
            return command
        verb, _, rest = answer.partition(" ")
        if verb.lower() == "correct":
            return Correction(self._read(lineno, answer, lambda: read_correction(session, rest.strip())))
        if verb.lower() in TABLE_WORDS:
            raise IllegalAnswer(f"{self.name} line {lineno}: '{answer}' is refused: nothing is waiting to be turned "
                                "up or rolled; the game waits for a move")
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

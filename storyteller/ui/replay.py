"""``storyteller replay --show``: the table after each event, as the game went."""

from __future__ import annotations

import sys

from rich.markup import escape

from storyteller import registry
from storyteller.core.engine import ABANDONED
from storyteller.core.words import clean
from storyteller.log.events import JournalEntry, OracleQuestion, Question, Undo, Visitor
from storyteller.log.file import GameLog
from storyteller.log.replay import Step
from storyteller.ui.terminal import Terminal


class ReplayView(Visitor):
    """Each event in a line as the replay makes its step, and the table after each that
    changed it (a question, a journal entry or the oracle changes nothing of it)."""

    def __init__(self, log: GameLog, plain: bool = False, pause: bool | None = None) -> None:
        game = registry.get(log.game)
        self.log = log
        self.term = Terminal(plain=plain)
        self.tell = game.teller
        self.view = game.view
        self.pause = sys.stdin.isatty() and sys.stdout.isatty() if pause is None else pause

    def show(self, step: Step, line: str, table: bool = True) -> None:
        line = escape(clean(line))  # the log's words: no markup, no terminal escapes
        self.term.print(f"[bold]{step.n}.[/bold] {line}" if not self.term.plain else f"{step.n}. {line}")
        if table:
            self.term.print(self.view.table(step.after, self.term))
            if self.pause:
                input("(Enter for the next event, Ctrl-C to stop) ")

    def on_draw(self, step: Step) -> None:
        e = step.revealed
        assert e is not None
        self.show(step, f"{self.tell.draw_text(e)} {self.tell.meaning(e, self.log.seed, self.log.variants)}")

    on_roll = on_correction = on_draw

    def on_decision(self, step: Step) -> None:
        self.show(step, f"Decision: {step.words}", table=step.after.chance() is None)

    def on_journal(self, step: Step) -> None:
        assert isinstance(step.event, JournalEntry)
        self.show(step, f"Journal: {step.event.text}", table=False)

    def on_undo(self, step: Step) -> None:
        assert isinstance(step.event, Undo)
        self.show(step, f"Undo: decision {step.event.of} taken back")

    def on_question(self, step: Step) -> None:
        assert isinstance(step.event, Question)
        self.show(step, f"Asked: {step.event.text}", table=False)

    def on_oracle(self, step: Step) -> None:
        from storyteller.ui.drivers import oracle_words

        assert isinstance(step.event, OracleQuestion)
        self.show(step, f"Oracle: {step.event.question} {oracle_words(step.event)}", table=False)

    def on_end(self, step: Step) -> None:
        outcome = step.after.outcome or ABANDONED
        self.show(step, f"The end: {outcome.result}. {outcome.reason}")

"""``storyteller replay --show``: the table after each event, as the game went."""

from __future__ import annotations

import sys

from rich.markup import escape

from storyteller import registry
from storyteller.core.engine import ABANDONED
from storyteller.log.file import GameLog
from storyteller.play.session import Step
from storyteller.ui.terminal import Terminal
from storyteller.core.words import clean


class ReplayView:
    def __init__(self, log: GameLog, plain: bool = False, pause: bool | None = None) -> None:
        game = registry.get(log.game)
        self.log = log
        self.term = Terminal(plain=plain)
        self.tell = game.teller
        self.view = game.view
        self.pause = sys.stdin.isatty() and sys.stdout.isatty() if pause is None else pause

    def step(self, step: Step) -> None:
        e = step.event
        kind = e["event"]
        n = e["n"]
        if kind in ("draw", "roll"):
            line = f"{self.tell.draw_text(e)} {self.tell.meaning(e, self.log.seed, self.log.variants)}"
        elif kind == "decision":
            line = f"Decision: {step.words}"
        elif kind == "journal":
            line = f"Journal: {e['text']}"
        elif kind == "undo":
            line = f"Undo: decision {e['of']} taken back"
        else:
            outcome = step.after.outcome or ABANDONED
            line = f"The end: {outcome.result}. {outcome.reason}"
        line = escape(clean(line))  # the log's words: no markup, no terminal escapes
        self.term.print(f"[bold]{n}.[/bold] {line}" if not self.term.plain else f"{n}. {line}")
        if kind in ("draw", "roll", "undo", "end") or (kind == "decision" and step.after.chance() is None):
            self.term.print(self.view.table(step.after, self.term))
            if self.pause:
                input("(Enter for the next event, Ctrl-C to stop) ")

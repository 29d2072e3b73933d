"""The terminal: a rich console for views, questionary for questions.

Input and output can be swapped (prompt_toolkit pipe input, a recording console), so
tests drive the same code a player does.
"""

from __future__ import annotations

import os
import textwrap
from collections.abc import Sequence
from typing import Any

import questionary
from rich.console import Console

from storyteller.core.words import can_show
from storyteller.log.file import JOURNAL


SELECT = "(Use arrow keys)"  # questionary's own words under a menu, said here so that they are fitted too


class Terminal:
    def __init__(self, plain: bool = False, console: Console | None = None, input: Any = None,
                 output: Any = None) -> None:
        self.console = console or Console(no_color=plain or bool(os.environ.get("NO_COLOR")), highlight=False)
        # Plain words, not symbols, where colours are off or the terminal cannot show the symbols.
        self.plain = plain or bool(os.environ.get("NO_COLOR")) or not can_show(self.console.encoding)
        self._io = {k: v for k, v in (("input", input), ("output", output)) if v is not None}

    def print(self, *things: Any, **kwargs: Any) -> None:
        self.console.print(*things, **kwargs)

    # -- words that fit: questionary leaves a long line to the terminal, which cuts it
    # wherever the edge falls ("Who keep/s it?"); so every question, option and message is
    # wrapped here, at word boundaries, to the terminal's width.

    @property
    def width(self) -> int:
        return max(self.console.width, 20)

    def fit(self, text: str, indent: int, after: str = "") -> str:
        """``text`` wrapped at spaces to the terminal's width, every line but the first
        indented by ``indent`` (the first follows a prefix as wide: "? ", " » "), and room
        left on its last line for ``after`` (an instruction, shown after it), or the
        instruction goes to a line of its own. A word wider than a line is left whole."""
        room = self.width - 1 - indent  # the last column left free: some terminals wrap on it
        lines: list[str] = []
        for paragraph in text.split("\n"):
            lines += textwrap.wrap(paragraph, room, break_long_words=False, break_on_hyphens=False) or [""]
        if after and len(lines[-1]) + 1 + len(after) > room:
            lines.append("")
        return ("\n" + " " * indent).join(lines)

    def select(self, message: str, choices: Sequence[tuple[str, Any] | None], default: Any = None) -> Any:
        """One of ``choices`` ((title, value) pairs; None draws a separator line)."""
        items = [
            questionary.Separator() if c is None else questionary.Choice(title=self.fit(c[0], 3), value=c[1])
            for c in choices
        ]
        chosen = questionary.select(
            self.fit(message, 2, SELECT), choices=items, default=default, use_shortcuts=False, use_indicator=False,
            instruction=SELECT, **self._io,
        ).unsafe_ask()
        return chosen

    def text(self, message: str, instruction: str | None = None, limit: int = JOURNAL) -> str:
        """What the player types (a journal entry: at most ``limit`` characters, as a log holds)."""
        kwargs = dict(self._io)
        if instruction:
            kwargs["instruction"] = instruction
        too_long = f"At most {limit:,} characters, please: a journal entry holds no more."
        kwargs["validate"] = lambda typed: len(typed) <= limit or too_long
        return questionary.text(self.fit(message, 2, instruction or ""), **kwargs).unsafe_ask() or ""

    def autocomplete(self, message: str, choices: Sequence[str], validate) -> str:
        """Free text with completion over ``choices``; ``validate(text)`` is True or why not."""
        message = self.fit(message, 2)
        if not choices:  # nothing to complete (dice): plain text, checked the same way
            return questionary.text(message, validate=validate, **self._io).unsafe_ask() or ""
        return questionary.autocomplete(
            message, choices=list(choices), validate=validate, match_middle=True, ignore_case=True, **self._io
        ).unsafe_ask() or ""

    def confirm(self, message: str, default: bool = True) -> bool:
        return bool(questionary.confirm(self.fit(message, 2, "(y/N)"), default=default, **self._io).unsafe_ask())

    def checkbox(self, message: str, choices: Sequence[tuple[str, Any]], validate=None,
                 instruction: str = "(space to mark, Enter to confirm)") -> list[Any]:
        items = [questionary.Choice(title=self.fit(t, 5), value=v) for t, v in choices]
        asked = questionary.checkbox(self.fit(message, 2, instruction), choices=items, validate=validate,
                                     instruction=instruction, **self._io)
        return asked.unsafe_ask() or []

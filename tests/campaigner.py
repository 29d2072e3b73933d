"""A person playing a campaign, for tests and measures: each chapter played from the
built-in player's moves for its deal, every question the game asks answered by
``answer(question_text, k)`` (k counts the answers, from 1) as a ``journal:`` line would.

    with campaigner.home(tmp_path):                       # a fresh sessions folder
        campaigner.new("salt", name="Wren", line="a ferryman's daughter", wants="to find her brother")
        code, out, log = campaigner.chapter("hexaract", "5", "salt", answer)
"""

from __future__ import annotations

import contextlib
import io
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from storyteller import app

import person
from questions_measure import decisions

Answer = Callable[[str, int], str]


@contextlib.contextmanager
def home(folder: Path) -> Iterator[Path]:
    """``STORYTELLER_HOME`` is ``folder`` while this lasts."""
    old = os.environ.get("STORYTELLER_HOME")
    os.environ["STORYTELLER_HOME"] = str(folder)
    try:
        yield folder
    finally:
        if old is None:
            os.environ.pop("STORYTELLER_HOME", None)
        else:
            os.environ["STORYTELLER_HOME"] = old


def run(func: Callable[..., int], *args: Any, **kwargs: Any) -> tuple[int, str, str]:
    """A command as a function: its exit code, what it printed, and what it said on stderr."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = app.guarded(func, *args, **kwargs)
    return code, out.getvalue(), err.getvalue()


def new(campaign: str, folder: Path, **said: str) -> tuple[int, str, str]:
    """``storyteller campaign new NAME --answers FILE`` with ``said`` (name, line, wants, title)."""
    answers = folder / f"{campaign}-new.txt"
    answers.write_text("".join(f"{k}: {v}\n" for k, v in said.items()), encoding="utf-8")
    return run(app.campaign_new, campaign, answers=answers)


class Chapter:
    """One chapter's play: the questions asked (their words) and the answers given."""

    def __init__(self, game: str, seed: str, answer: Answer, stop_after: int | None = None) -> None:
        self.moves = list(decisions(game, seed))
        self.answer = answer
        self.asked: list[str] = []
        self.answers = 0
        self.stop_after = stop_after  # quit after this many moves (then resume)
        self.made = 0

    def supply(self, session: Any, waiting: str) -> list[str]:
        if waiting in ("answer", "last words"):
            from storyteller.log.events import Question

            question = session.log.events[-1]
            if not isinstance(question, Question):  # the last words are written: no more of them
                return []
            text = question.text
            self.asked.append(text)
            self.answers += 1
            return [f"journal: {self.answer(text, self.answers)}"]
        if waiting == "move":
            if self.stop_after is not None and self.made >= self.stop_after:
                self.stop_after = None
                return ["quit"]
            done = session.decisions
            if done < len(self.moves):
                self.made += 1
                return [self.moves[done]]
        return []


def chapter(game: str, seed: str, campaign: str | None, answer: Answer, log: Path | None = None,
            stop_after: int | None = None, **options: Any) -> tuple[int, str, str, Chapter]:
    """``storyteller play GAME --seed SEED --campaign NAME --answers X``."""
    playing = Chapter(game, seed, answer, stop_after)
    with person.typing(playing.supply):
        code, out, err = run(app.play, game, seed=seed, campaign=campaign, answers=Path("answers"), log=log,
                             **options)
    return code, out, err, playing


def resume(log: Path, playing: Chapter) -> tuple[int, str, str]:
    with person.typing(playing.supply):
        return run(app.resume, log, answers=Path("answers"))

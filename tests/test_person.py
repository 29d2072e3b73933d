"""A person's sessions as Hypothesis rules: storyteller played as a person plays it, not as a bot.

For every game, with its rule sets and tables (seeded, or at a real table with the cards and
dice typed in), a state machine plays from answers a person could type, drawn as the game
asks for them (``tests/person.py``): moves among the legal ones, by key, by number or by the
words shown; journal entries full of markup and control characters, answering a question or
on their own; oracle questions at any decision (with the d100 typed at a real table); an undo
and the same move again; quit, Ctrl-C (at a move, a question or a card) and answers running
out, then ``resume``; the game's process killed (its log cut after any event), then ``resume``;
and ``play --from LOG --step N`` from a step of the game. The answers go through the same parsing
as ``--answers FILE``, and the commands run as the command line runs them.

After each step no log was ever changed by anyone but its own game; and every log, when read
back (as a rule, at any time, and at the end), replays with no note (an untouched log of this
version is never called edited), renders in every format without a crash, leaves its bytes
as they were, and every journal entry and every oracle question, with its answer, reaches the
story, the playthrough and the JSON.

``PERSON_EXAMPLES=200 pytest tests/test_person.py`` plays more games (the default is small,
so that the suite stays quick; Hypothesis runs derandomized and without a database, so the
same games are played on every machine), and ``PERSON_SHRINK=1`` shrinks a failure to its
shortest path (slow: minutes).
"""

from __future__ import annotations

import html
import json
import os
import re
import shutil
import tempfile
import unicodedata
from pathlib import Path
from typing import Any

import person
import pytest
from hypothesis import HealthCheck, Phase, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    rule,
    run_state_machine_as_test,
)

GAMES = ["carddom", "adaman", "cascades", "hexaract"]
FORMATS = [("markdown", "story"), ("markdown", "playthrough"), ("obsidian", "story"), ("obsidian", "playthrough"),
           ("html", "story"), ("html", "playthrough"), ("lonelog", "playthrough"), ("json", None)]
ODDS = ["almost-certain", "likely", "even", "unlikely", "small-chance"]
SAVED, STOPPED = 0, 130  # the exit codes of a game saved (quit, or over) and of one stopped at a prompt
MOST_MOVES = 150  # then the person gives up (abandon): a person choosing at random may walk in circles

# What a person writes: Markdown, HTML, scripts, links that run code, table pipes, backticks,
# Obsidian comments, entities, template syntax, many alphabets; and anything else one line holds.
MARKUP = [
    "*emphasis* and **strong**, _under_ the moon",
    "# a heading",
    "<b>tags</b> and <i>italics</i>",
    "<script>alert(1)</script>",
    "[link](javascript:alert(1))",
    "a | pipe | in | cells",
    "backticks `code` and ``` a fence",
    "%% an obsidian comment %%",
    "café, naïve, 日本語, עברית, 🐉",
    "> a quote",
    "- a list",
    "1. a number",
    "---",
    "&amp; &lt;b&gt;",
    "{{ jinja }} {% block %} {# note #}",
    "back\\slash \\*",
    "\x1b[31mred\x1b[0m, a bell\x07, a tab\there, a NUL\x00",
]
LINE_BREAKS = "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"  # a line of answers cannot hold these
WORDS = st.one_of(
    st.sampled_from(MARKUP),
    st.text(st.characters(codec="utf-8", exclude_characters=LINE_BREAKS), max_size=24),  # no lone surrogates
)

# Shrinking a failure to its shortest path replays whole games thousands of times (minutes): it
# is left out unless asked for, with PERSON_SHRINK=1; the failure is shown as it was found.
SHRINK = (Phase.shrink, Phase.explain) if os.environ.get("PERSON_SHRINK") else ()
settings.register_profile(
    "person", max_examples=3, stateful_step_count=8, deadline=None, derandomize=True, database=None,
    phases=(Phase.explicit, Phase.generate, *SHRINK),
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much,
                          HealthCheck.large_base_example],
)


def import_all_of_storyteller() -> None:
    """Hypothesis draws a few values from the constants of the code imported so far: with all of
    storyteller imported first, a derandomized run plays the same games whatever ran before it
    in the process (this file alone, one case, or the whole suite)."""
    import importlib
    import pkgutil

    import storyteller

    for found in pkgutil.walk_packages(storyteller.__path__, "storyteller."):
        if not found.name.endswith("__main__"):
            importlib.import_module(found.name)


import_all_of_storyteller()


def letters(text: str) -> str:
    """Only the letters and digits of ``text``: what stays of a person's words in any format,
    whatever it escapes (a backslash, an entity) or leaves out (control characters)."""
    return "".join(ch for ch in unicodedata.normalize("NFC", text) if ch.isalnum())


def readable(text: str, fmt: str) -> str:
    """What a reader sees of an export, as letters and digits (an HTML page without its tags)."""
    if fmt == "html":
        text = re.sub(r"<style\b.*?</style>|<svg\b.*?</svg>", " ", text, flags=re.DOTALL)
        text = html.unescape(re.sub(r"<[^>]*>", " ", text))
    return letters(text)


def strings(value: Any) -> list[str]:
    """Every string in a JSON document."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in strings(v)]
    return []


def events(log: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]


def branch_steps(log: Path) -> list[int]:
    """The steps a game can be played on from: before its end, and keeping no move that a later
    undo took back."""
    found = events(log)[1:]
    end = next((e["n"] for e in found if e["event"] == "end"), len(found) + 1)
    undone = [(e["of"], e["n"]) for e in found if e["event"] == "undo"]
    return [n for n in range(1, end) if not any(of <= n < by for of, by in undone)]


def standing_move(log: Path) -> str:
    """The key of the last decision that stands (the one an undo takes back)."""
    stack: list[dict[str, Any]] = []
    for e in events(log)[1:]:
        if e["event"] == "decision":
            stack.append(e)
        elif e["event"] == "undo":
            stack.pop()
    return str(stack[-1]["action"])


def machine(game: str, variants: list[str]) -> type[RuleBasedStateMachine]:
    class Person(RuleBasedStateMachine):
        """One person at one game: sits down, plays on (again and again), reads it back, and at
        times plays on from an earlier step in a new log."""

        def __init__(self) -> None:
            super().__init__()
            self.folder = Path(tempfile.mkdtemp(prefix=f"person-{game}-"))
            self.logs: dict[Path, bytes] = {}  # every log made, as its game last left it
            self.read: set[Path] = set()  # the logs read back since their game last wrote them
            self.log = self.folder / "game.jsonl"
            self.typed: list[str] = []  # every journal entry and oracle question, as the log must hold it
            self.redo: str | None = None  # the move just taken back, to make again
            self.moves = 0
            self.data: Any = None
            self.busy = False  # a step is under way (and if it is still at the end, it failed)

        # -- the person ------------------------------------------------------------------

        def words(self, tag: str) -> str:
            """Words a person types, each with a tag of its own (to find it again)."""
            text = f"{self.data.draw(WORDS, label='words')} {tag}{len(self.typed):03d}x"
            self.typed.append(text.strip())
            return text

        def supply(self, session: Any, waiting: str) -> list[str]:
            """The next line a person types, for what the game waits for."""
            draw = self.data.draw
            if waiting == "answer":  # a question was just asked: most are answered, a few skipped
                how = draw(st.integers(0, 59), label="answer")
                if how == 59:
                    raise KeyboardInterrupt  # Ctrl-C at the question
                return [] if how >= 45 else [f"journal: {self.words('Wren')}"]
            if waiting == "last words":
                if self.last_words >= 2 or not draw(st.booleans(), label="last words"):
                    return []
                self.last_words += 1
                return [f"journal: {self.words('Wren')}"]
            if waiting == "entry":
                if draw(st.integers(0, 79), label="enter it") == 79:
                    raise KeyboardInterrupt  # Ctrl-C while the game waits for a card or the dice
                return [person.entry(session)]
            if waiting != "move":  # the end check: the card that ended the game was the right one
                return []
            if self.redo is not None:
                key, self.redo = self.redo, None
                return [key]
            if self.moves >= MOST_MOVES:
                return ["abandon"]
            act = draw(st.integers(0, 199), label="act")  # mostly a move (and 0, where Hypothesis starts)
            if 156 <= act < 176:
                return [f"journal: {self.words('Wren')}"]
            if 176 <= act < 186:
                asked = [f"oracle {draw(st.sampled_from(ODDS), label='odds')}: {self.words('Heron')}"]
                if self.table is not None:
                    asked.append(f"roll {draw(st.integers(1, 100), label='d100')}")
                return asked
            if 186 <= act < 196 and person.can_undo(session):
                self.redo = standing_move(self.log)
                return ["undo"]
            if act in (196, 197):
                return ["quit"]
            if act == 198:
                raise KeyboardInterrupt  # Ctrl-C at the prompt
            if act == 199:
                return []  # the answers run out, as when a game is stopped at a prompt
            legal = person.moves(session)
            key, text = legal[draw(st.integers(0, len(legal) - 1), label="move")]
            self.moves += 1
            how = draw(st.sampled_from(["key", "number", "words"]), label="typed as")
            return [key if how == "key" else str(legal.index((key, text)) + 1) if how == "number" else text]

        def played(self, code: int, out: str) -> None:
            assert code in (SAVED, STOPPED), f"exit {code}:\n{out[-2000:]}"
            self.logs[self.log] = self.log.read_bytes()
            end = next((e for e in events(self.log)[1:] if e["event"] == "end"), None)
            event(f"a game {'stopped' if end is None else end['result']}")
            self.read.discard(self.log)
            written = {e["text"] for e in events(self.log)[1:] if e["event"] == "journal"}
            written |= {e["question"] for e in events(self.log)[1:] if e["event"] == "oracle"}
            lost = [t for t in self.typed if t not in written and self.log.name in self.mine.get(t, ())]
            assert not lost, f"typed but not in the log: {lost[:3]}"
            self.busy = False

        # -- the rules -------------------------------------------------------------------

        @initialize(seed=st.integers(0, 99), table=st.sampled_from(person.tables(game)), data=st.data())
        def sit_down(self, seed: int, table: list[str] | None, data: Any) -> None:
            """``play GAME --seed SEED [--variant V] [--physical ...]``, until the person stops or
            the game ends."""
            self.variants, self.seed, self.table = variants, str(seed), table
            event("seeded" if table is None else f"at a real table: --physical {' '.join(table)}")
            self.mine: dict[str, set[str]] = {}  # which logs each typed text was written to
            self.play_on(data)

        @rule(data=st.data())
        def play_on(self, data: Any) -> None:
            """``resume LOG`` (or the first ``play``) until the person stops or the game ends."""
            if self.over():
                return
            self.busy, self.data, self.last_words = True, data, 0
            first = len(self.typed)
            with person.typing(self.supply):
                if not self.log.exists():
                    code, out = person.play(game, self.seed, self.variants, self.log, self.table)
                else:
                    code, out = person.resume(self.log)
            for text in self.typed[first:]:
                self.mine.setdefault(text, set()).add(self.log.name)
            self.played(code, out)

        @rule(data=st.data())
        def play_on_from_a_step(self, data: Any) -> None:
            """``play --from LOG --step N``: a new game that keeps the first N steps."""
            if not branch_steps(self.log):
                return
            self.busy, self.data, self.last_words = True, data, 0
            step = data.draw(st.sampled_from(branch_steps(self.log)), label="step")
            old, self.log = self.log, self.folder / f"branch-{len(self.logs)}.jsonl"
            kept = [e["text"] for e in events(old)[1:step + 1] if e["event"] == "journal"]
            first = len(self.typed)
            with person.typing(self.supply):
                code, out = person.branch(old, step, self.log)
            for text in self.typed[first:] + kept:
                self.mine.setdefault(text, set()).add(self.log.name)
            self.played(code, out)

        @rule(data=st.data())
        def killed(self, data: Any) -> None:
            """The game's process killed (a power cut): the log holds what was written up to some
            event, every line whole (each is flushed and synced as it is written). ``resume``
            goes on from there."""
            lines = self.log.read_bytes().splitlines(keepends=True)
            first = int(json.loads(lines[0]).get("from_step", 0)) + 1  # a branch is made whole at once
            if len(lines) <= first:
                return
            keep = len(lines) - 1 - data.draw(st.integers(0, len(lines) - 1 - first), label="lines cut off")
            self.log.write_bytes(b"".join(lines[:keep]))
            self.logs[self.log] = self.log.read_bytes()
            self.read.discard(self.log)
            left = {e.get("text") for e in events(self.log)[1:]} | {e.get("question") for e in events(self.log)[1:]}
            for text, logs in self.mine.items():  # what was written after the cut is lost with it
                if text not in left:
                    logs.discard(self.log.name)

        @rule()
        def read_back(self) -> None:
            """``replay LOG`` and ``export LOG`` in every format, now (the game may go on after)."""
            self.check(self.log)

        @invariant()
        def no_log_is_changed_but_by_its_game(self) -> None:
            for log, content in self.logs.items():
                assert log.read_bytes() == content, f"{log.name} changed after its game wrote it"

        def over(self) -> bool:
            return self.log.exists() and any(e["event"] == "end" for e in events(self.log)[1:])

        # -- reading a log back ----------------------------------------------------------

        def check(self, log: Path) -> None:
            self.busy = True
            content = log.read_bytes()
            found = events(log)[1:]
            entries = [e["text"] for e in found if e["event"] == "journal" and letters(e["text"])]
            asked = [(e["question"], e["answer"]) for e in found if e["event"] == "oracle"]
            code, out = person.replay(log)
            assert code == 0, out
            notes = [line.strip() for line in out.splitlines() if line.strip().startswith("note:")]
            assert not notes, f"replay of {log.name}, written by this version and untouched, says: {notes}"
            assert log.read_bytes() == content, "replay changed the log"
            rendered = {}
            for fmt, kind in FORMATS:
                code, out = person.export(log, fmt, kind)
                assert code == 0, f"export --format {fmt} --{kind}: exit {code}"
                assert log.read_bytes() == content, f"export --format {fmt} --{kind} changed the log"
                rendered[fmt, kind] = out
            document = json.loads(rendered["json", None])  # the JSON holds the words exactly
            shown = strings(document)
            for text in entries:
                assert any(text in s for s in shown), f"the JSON lost the entry {text!r}"
            answers = {}
            for step in document["steps"]:
                if step["kind"] == "oracle":
                    answers[step["text"]] = (step["answer"], step["answer_text"])
            for question, answer in asked:
                assert answers.get(question, ("",))[0] == answer, f"the JSON lost the oracle's {question!r}"
            for (fmt, kind), out in rendered.items():
                if fmt == "json":
                    continue
                seen = readable(out, fmt)
                for text in entries:
                    assert letters(text) in seen, f"the {fmt} {kind} lost the entry {text!r}"
                for question, _ in asked:
                    at = seen.find(letters(question))
                    assert at >= 0, f"the {fmt} {kind} lost the oracle question {question!r}"
                    assert letters(answers[question][1]) in seen[at:], \
                        f"the {fmt} {kind} lost the oracle's answer to {question!r}"
            self.read.add(log)
            self.busy = False

        def teardown(self) -> None:
            """Every log read back that was not since its game last wrote it."""
            try:
                if not self.busy:  # else a step failed: that is the failure to see, not what follows
                    for log, content in self.logs.items():
                        if log not in self.read and log.read_bytes() == content:
                            self.check(log)
            finally:
                shutil.rmtree(self.folder, ignore_errors=True)

    Person.__name__ = Person.__qualname__ = f"Person{game.capitalize()}"  # as a failure names it
    return Person


CASES = [(game, variants) for game in GAMES for variants in person.rule_sets(game)]
EXAMPLES = int(os.environ.get("PERSON_EXAMPLES", "0")) or settings.get_profile("person").max_examples


@pytest.mark.timeout(60 + 20 * EXAMPLES + (1800 if SHRINK else 0))  # a game takes a few seconds; shrinking, minutes
@pytest.mark.parametrize(("game", "variants"), CASES, ids=[" ".join([g, *v]) for g, v in CASES])
def test_a_person_at_the_table(game, variants):
    run_state_machine_as_test(machine(game, variants),
                              settings=settings(settings.get_profile("person"), max_examples=EXAMPLES))

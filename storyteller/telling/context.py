"""The export context: a log read once, as one JSON-safe document that every format renders.

:func:`context` replays the log (checking it) and gives its steps, once, to three readers:
the game's story (:class:`~storyteller.telling.stories.Story`), the journaling questions
(:class:`~storyteller.play.questions.QuestionLog`) and :class:`Steps`, which tells each step
in the rules' words. The document has a version number; its fields are documented in
``docs/context.md`` and described by ``storyteller/data/context.schema.json``; user templates
and other formats rely on them. The words of moves, undos and the end are the rules' own,
never the log's.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from storyteller import registry
from storyteller.core.sources import SOURCES
from storyteller.core.words import command
from storyteller.log.events import Decision, JournalEntry, OracleQuestion, Question, Undo, Visitor
from storyteller.log.file import GameLog
from storyteller.log.replay import Replay, Step, walk
from storyteller.telling.stories import Story, Teller

if TYPE_CHECKING:
    from storyteller.play.questions import QuestionLog

CONTEXT_VERSION = 2


def context(log: GameLog) -> dict[str, Any]:
    """The export context of a log: plain data (str, int, bool, None, lists, dicts)."""
    return make(log)[0]


def make(log: GameLog, memory: Any = None) -> tuple[dict[str, Any], Replay]:
    """The export context of a log, and the replay it was made from (for its pictures). A
    campaign's chapter has its ``campaign``, ``cast`` and ``threads`` too (see
    :mod:`storyteller.telling.cast`), from ``memory`` when given (its campaign and what it
    remembers, as :func:`storyteller.telling.cast.memory_of` gives them: a book reads its
    campaign once), else read now."""
    game = registry.get(log.game)
    teller = game.teller
    w = walk(log, keep_steps=True)
    story = Story(teller, log.seed, w)
    readers: list[Visitor] = [story]
    questions = None
    if any(isinstance(e, Question) for e in log.events):  # a log older than logged questions has none to check
        from storyteller.play.questions import QuestionLog

        questions = QuestionLog.of(game, log.seed, campaign=log.header.campaign is not None)
        readers.append(questions)
    steps = Steps(teller, log, w, questions)
    w.visit(*readers, steps)
    told = story.told
    outcome = w.outcome
    result = outcome.result if outcome else "unfinished"
    header = log.header
    started = header.started or ""
    specs = w.game.variant_specs(w.variants)
    cards, dice = SOURCES[header.source]
    meta = {
        "title": teller.title(told),
        "game": w.game.name,
        "game_title": w.game.title,
        "seed": log.seed,
        "source": header.source,
        "table": {"cards": cards, "dice": dice, "rolls": w.game.dice},  # what came from the player's own table
        "variants": w.variants,
        "variants_text": w.game.describe_variants(w.variants),
        "replay_options": "".join(" " + command("--variant", s) for s in specs),
        "replay_command": command(
            "storyteller", "play", w.game.name, "--seed", log.seed, *(x for s in specs for x in ("--variant", s))
        ),
        "outcome": result,
        "cause": outcome.cause if outcome else "",
        "reason": outcome.reason if outcome else "The game is not finished yet.",
        "score": outcome.score if outcome else None,
        "date": started[:10],
        "started": started,
        "tags": ["storyteller", w.game.name, result.replace(" ", "-")],
        "log": Path(log.path).name if log.path else "",
        "version": header.version or "",
        "decisions": w.decisions,
        "decisions_made": sum(1 for e in log.events if isinstance(e, Decision)),
        "branch": ({"log": header.from_log, "step": header.from_step} if header.from_log is not None else None),
        "deal": ({"chosen": header.deal["chosen"], "winnable": header.deal["winnable"],
                  "date": header.deal.get("date")} if header.deal is not None else None),
    }
    doc = {
        "version": CONTEXT_VERSION,
        "game": {"name": w.game.name, "title": w.game.title},
        "variants": dict(w.variants),
        "seed": log.seed,
        "source": header.source,
        "outcome": outcome.as_dict() if outcome else None,
        "meta": meta,
        "steps": steps.items,
        "journal": [journal_item(e) for e in log.journal()],
        "story": told,
    }
    if header.campaign is not None:
        from storyteller.telling import cast

        found = memory if memory is not None else cast.memory_of(log)
        if found is not None:
            doc.update(cast.part(log, found))
    return doc, w


def journal_item(e: JournalEntry) -> dict[str, Any]:
    return {"n": e.n, "text": e.text, "prompt": e.prompt, "about": e.about, "question": e.question}


class Steps(Visitor):
    """Every step in words, for the playthrough: a draw's line and meaning, a decision's move
    in the rules' words for the state it was made in (what the player was offered), an
    undo's those of the decision it takes back, the end's the rules' outcome; with the
    game's own facts for each step (:meth:`Teller.step_facts`) and the question asked after
    it. The log's own text is never shown."""

    def __init__(self, teller: Teller, log: GameLog, walk: Replay, questions: QuestionLog | None) -> None:
        self.teller = teller
        self.log = log
        self.seed = log.seed
        self.walk = walk
        self.questions = questions
        self.facts = teller.step_facts(walk.steps)
        self.items: list[dict[str, Any]] = []
        self.said: dict[int, str] = {}  # a decision's words, by its n, for the undo that takes it back
        self.asking: list[dict[str, Any]] = []  # the items of draws, rolls, decisions and the end
        self.asked: list[dict[str, Any]] = []  # the items of questions

    def _item(self, step: Step, kind: str, **fields: Any) -> dict[str, Any]:
        item: dict[str, Any] = {"n": step.n, "kind": kind, "undone": step.undone, "corrected": step.corrected,
                                "corrects": step.corrects, **fields, **self.facts[len(self.items)]}
        self.items.append(item)
        return item

    def on_draw(self, step: Step) -> None:
        e = step.revealed
        assert e is not None
        words: dict[str, Any] = {"by": e.by, "text": self.teller.draw_text(e),
                                 "meaning": self.teller.meaning(e, self.seed, self.walk.variants)}
        if step.drawn is not None:
            d = step.drawn
            words["draw"] = {"card": d.card, "to": d.to, "deal": d.deal, "slot": d.slot, "pile": d.pile or "deck"}
        elif step.rolled is not None:
            words["roll"] = {"dice": list(step.rolled.dice), "index": step.rolled.index}
        self.asking.append(self._item(step, e.kind, **words))

    on_roll = on_correction = on_draw  # a correction reads as the draw or roll it stands for

    def on_decision(self, step: Step) -> None:
        e = step.event
        assert isinstance(e, Decision) and step.before is not None and step.move is not None
        text = self.said[e.n] = step.before.describe(step.move)
        self.asking.append(self._item(step, e.kind, text=text, action=e.action, move=step.move.facts()))

    def on_journal(self, step: Step) -> None:
        assert isinstance(step.event, JournalEntry)
        self._item(step, step.event.kind, **journal_item(step.event))

    def on_question(self, step: Step) -> None:
        e = step.event
        assert isinstance(e, Question)
        self.asked.append(self._item(step, e.kind, text=e.text, id=e.id, about=e.about))

    def on_oracle(self, step: Step) -> None:
        from storyteller.core import oracle
        from storyteller.play.table import card_name
        from storyteller.telling.meanings import keywords

        e = step.event
        assert isinstance(e, OracleQuestion)
        self._item(step, e.kind, text=e.question, odds=e.odds, odds_text=oracle.ODDS_WORDS[e.odds], roll=e.roll,
                   answer=e.answer, answer_text=oracle.ANSWER_WORDS[e.answer],
                   spark={"card": e.spark, "name": card_name(e.spark), "keywords": keywords(e.spark)}, by=e.by)

    def on_undo(self, step: Step) -> None:
        e = step.event
        assert isinstance(e, Undo)
        self._item(step, e.kind, text=self.said.get(e.of, ""), of=e.of)

    def on_end(self, step: Step) -> None:
        outcome = self.walk.outcome
        assert outcome is not None  # the walk checked the end against the rules
        self.asking.append(self._item(step, step.event.kind, text=outcome.reason, result=outcome.result,
                                       cause=outcome.cause))

    def finish(self) -> None:
        asked = self._asked()
        for item in self.asking:
            item["question"] = asked.get(item["n"])
        for item in self.asked:
            found = asked.get(item["n"], {})
            item["answered"] = bool(found.get("answered"))
            item["names"] = list(found.get("names", []))

    def _asked(self) -> dict[int, dict[str, Any]]:
        """The question asked after each step, by the step's ``n`` (and each question by its own
        ``n``, and the one asked before the first move by 0): ``{"id", "text", "answered",
        "names"}``. A log made before questions were logged gives the question each journal
        entry answered (with no id), as the entry recorded it."""
        out: dict[int, dict[str, Any]] = {}
        if self.questions is not None:
            for n, a in self.questions.asked.items():
                q = {"id": a.event.id, "text": a.event.text, "answered": a.answered, "names": a.names}
                out[n] = q
                out.setdefault(a.about if a.about is not None else 0, q)
            return out
        for e in self.log.journal():
            if e.prompt and e.about is not None:
                out.setdefault(e.about, {"id": None, "text": e.prompt, "answered": True, "names": []})
        return out

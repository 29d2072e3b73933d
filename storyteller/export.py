"""Markdown from a log, through Jinja2 templates in ``templates/<game>/``.

The context is built once from a verified walk of the log: ``meta`` (title, seed,
variants, outcome...), ``steps`` (every event in order, for the playthrough),
``journal`` (the player's entries) and ``story`` (what the game's teller makes of it).
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

from storyteller.log import GameLog
from storyteller.narrative import data_dir
from storyteller.session import walk
from storyteller.stories import teller


class TemplateProblem(Exception):
    """A template that is missing or broken; the message names the file and line."""


def yaml_str(value: Any) -> str:
    """A YAML scalar that is always read back as the same text (JSON strings are YAML)."""
    return json.dumps("" if value is None else str(value), ensure_ascii=False)


def yaml_list(values: list[Any]) -> str:
    return "[" + ", ".join(yaml_str(v) for v in values) + "]"


def join_and(items) -> str:
    """"a, b and c"."""
    items = [str(i) for i in items]
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def environment(extra: Path | None = None):
    import jinja2

    folders = [str(extra)] if extra else []
    folders.append(str(data_dir("templates")))
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(folders),
        undefined=jinja2.StrictUndefined,
        autoescape=False,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["yaml"] = yaml_str
    env.filters["join_and"] = join_and
    env.filters["yaml_list"] = yaml_list
    env.filters["quote"] = lambda text: "\n".join("> " + line if line else ">" for line in str(text).splitlines())
    return env


def context(log: GameLog) -> dict[str, Any]:
    w = walk(log, keep_steps=True)
    tell = teller(w.game.name)
    outcome = w.outcome
    story = tell.story(log, w.steps, outcome)
    result = outcome.result if outcome else "unfinished"
    started = str(log.header.get("started", ""))
    steps = []
    for step in w.steps:
        e = step.event
        kind = e["event"]
        item: dict[str, Any] = {"n": e["n"], "kind": kind, "undone": step.undone}
        if kind in ("draw", "roll"):
            item["text"] = tell.draw_text(e)
            item["meaning"] = tell.meaning(e, log.seed, w.variants)
        elif kind == "decision":
            item["text"] = e.get("text") or e["action"]
            item["action"] = e["action"]
        elif kind == "journal":
            item["text"] = e["text"]
            item["prompt"] = e.get("prompt")
        elif kind == "undo":
            undone = next((x for x in log.events if x["n"] == e["of"]), {})
            item["text"] = undone.get("text") or undone.get("action", "")
        elif kind == "end":
            item["text"] = e.get("reason", "")
            item["result"] = e["result"]
        steps.append(item)
    variants = w.game.describe_variants(w.variants)
    replay_variants = " ".join(
        f"--variant {name}" if w.game.variant(name).flag else f"--variant {name}={value}"
        for name, value in w.variants.items()
        if value != w.game.variant(name).default
    )
    meta = {
        "title": tell.title(story),
        "game": w.game.name,
        "game_title": w.game.title,
        "seed": log.seed,
        "variants": w.variants,
        "variants_text": variants,
        "replay_options": (" " + replay_variants) if replay_variants else "",
        "outcome": result,
        "reason": outcome.reason if outcome else "The game is not finished yet.",
        "score": outcome.score if outcome else None,
        "date": started[:10],
        "started": started,
        "tags": ["storyteller", w.game.name, result.replace(" ", "-")],
        "log": log.path.name if log.path else "",
        "version": log.header.get("version", ""),
        "decisions": w.decisions,
    }
    return {"meta": meta, "steps": steps, "journal": log.journal(), "story": story}


def render(log: GameLog, kind: str, template: Path | None = None) -> str:
    import jinja2

    ctx = context(log)
    name = str(template) if template is not None else f"{log.game}/{kind}.md.j2"
    try:
        if template is not None:
            if not template.is_file():
                raise TemplateProblem(f"{template}: no such template file")
            env = environment(template.resolve().parent)
            tpl = env.get_template(template.name)
        else:
            env = environment()
            tpl = env.get_template(name)
        return tpl.render(**ctx)
    except TemplateProblem:
        raise
    except jinja2.TemplateSyntaxError as e:
        where = e.filename or name
        raise TemplateProblem(f"{where}: line {e.lineno}: template error: {e.message}") from None
    except jinja2.TemplateNotFound as e:
        raise TemplateProblem(f"template not found: {e.name}") from None
    except jinja2.UndefinedError as e:
        raise TemplateProblem(f"{name}: template error: {e.message}") from None
    except Exception as e:  # a template is code: any failure in it is the template's
        raise TemplateProblem(f"{name}: template error: {type(e).__name__}: {e}") from None


def write_atomic(path: Path, text: str) -> None:
    """Write to a temporary file beside ``path`` and move it into place."""
    folder = path.resolve().parent
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise

"""From a log to what people read: the export context, and the renderers that turn it
into a format.

:func:`context` walks the log (verifying it) and returns one JSON-safe document with a
version number: the game, variants, seed and source, the outcome with its cause, every
step with its typed move, draw or roll, the journal entries with what they are about, and
the story the game's teller makes of it. Its fields are documented in
``docs/context.md``; user templates and other formats rely on them.

Renderers are registered by format name in :data:`RENDERERS`. Markdown is the one today,
with two kinds, ``story`` and ``playthrough``, drawn from each game's templates.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any, Protocol

from storyteller import registry
from storyteller.log import GameLog
from storyteller.narrative import data_dir
from storyteller.session import Step, Walk, walk
from storyteller.stories import tell
from storyteller.words import join_and

CONTEXT_VERSION = 1


class TemplateProblem(Exception):
    """A template that is missing or broken; the message names the file and line."""


# -- the context -------------------------------------------------------------------------


def context(log: GameLog) -> dict[str, Any]:
    """The export context of a log: plain data (str, int, bool, None, lists, dicts)."""
    w = walk(log, keep_steps=True)
    game = registry.get(w.game.name)
    teller = game.teller
    story = tell(teller, log.seed, w)
    outcome = w.outcome
    result = outcome.result if outcome else "unfinished"
    started = str(log.header.get("started", ""))
    specs = w.game.variant_specs(w.variants)
    meta = {
        "title": teller.title(story),
        "game": w.game.name,
        "game_title": w.game.title,
        "seed": log.seed,
        "source": log.header.get("source", "seeded"),
        "variants": w.variants,
        "variants_text": w.game.describe_variants(w.variants),
        "replay_options": "".join(f" --variant {s}" for s in specs),
        "outcome": result,
        "cause": outcome.cause if outcome else "",
        "reason": outcome.reason if outcome else "The game is not finished yet.",
        "score": outcome.score if outcome else None,
        "date": started[:10],
        "started": started,
        "tags": ["storyteller", w.game.name, result.replace(" ", "-")],
        "log": log.path.name if log.path else "",
        "version": log.header.get("version", ""),
        "decisions": w.decisions,
        "decisions_made": sum(1 for e in log.events if e["event"] == "decision"),
    }
    return {
        "version": CONTEXT_VERSION,
        "game": {"name": w.game.name, "title": w.game.title},
        "variants": dict(w.variants),
        "seed": log.seed,
        "source": meta["source"],
        "outcome": outcome.as_dict() if outcome else None,
        "meta": meta,
        "steps": _steps(teller, log, w),
        "journal": [_journal(e) for e in log.journal()],
        "story": story,
    }


def _journal(e: dict[str, Any]) -> dict[str, Any]:
    return {"n": e["n"], "text": e["text"], "prompt": e.get("prompt"), "about": e.get("about")}


def _steps(teller, log: GameLog, w: Walk) -> list[dict[str, Any]]:
    by_n = {e["n"]: e for e in log.events}
    out = []
    for step, facts in zip(w.steps, teller.step_facts(w.steps)):
        out.append({**_step(teller, log.seed, w.variants, step, by_n), **facts})
    return out


def _step(teller, seed: str, variants: dict[str, str], step: Step, by_n: dict[int, dict]) -> dict[str, Any]:
    e = step.event
    kind = step.kind
    item: dict[str, Any] = {"n": e["n"], "kind": kind, "undone": step.undone}
    if kind == "draw":
        item["text"] = teller.draw_text(e)
        item["meaning"] = teller.meaning(e, seed, variants)
        item["draw"] = {k: e[k] for k in ("card", "to", "deal", "slot")} | {"pile": e.get("pile", "deck")}
    elif kind == "roll":
        item["text"] = teller.draw_text(e)
        item["meaning"] = teller.meaning(e, seed, variants)
        item["roll"] = {"dice": list(e["dice"]), "index": e["index"]}
    elif kind == "decision":
        item["text"] = e.get("text") or e["action"]
        item["action"] = e["action"]
        item["move"] = step.move.facts() if step.move is not None else None
    elif kind == "journal":
        item.update(_journal(e))
    elif kind == "undo":
        undone = by_n.get(e["of"], {})
        item["text"] = undone.get("text") or undone.get("action", "")
        item["of"] = e["of"]
    elif kind == "end":
        item["text"] = e.get("reason", "")
        item["result"] = e["result"]
        item["cause"] = e.get("cause", "")
    return item


# -- renderers ---------------------------------------------------------------------------


class Renderer(Protocol):
    """Turns an export context into one format."""

    name: str
    kinds: tuple[str, ...]

    def render(self, ctx: dict[str, Any], game: registry.Registration, kind: str, template: Path | None = None) -> str: ...


def yaml_str(value: Any) -> str:
    """A YAML scalar that is always read back as the same text (JSON strings are YAML)."""
    return json.dumps("" if value is None else str(value), ensure_ascii=False)


def yaml_list(values: list[Any]) -> str:
    return "[" + ", ".join(yaml_str(v) for v in values) + "]"


def quote(text: Any) -> str:
    """A Markdown block quote of every line."""
    return "\n".join("> " + line if line else ">" for line in str(text).splitlines())


class MarkdownRenderer:
    """CommonMark with YAML front matter, through Jinja2 templates: the game's own
    ``story.md.j2`` and ``playthrough.md.j2``, with the shared ``_macros.md.j2``."""

    name = "markdown"
    kinds = ("story", "playthrough")
    suffix = ".md.j2"

    def environment(self, folders: list[Path]):
        import jinja2

        env = jinja2.Environment(
            loader=jinja2.FileSystemLoader([str(f) for f in folders]),
            undefined=jinja2.StrictUndefined,
            autoescape=False,
            keep_trailing_newline=True,
            trim_blocks=True,
            lstrip_blocks=True,
        )
        env.filters["yaml"] = yaml_str
        env.filters["join_and"] = join_and
        env.filters["yaml_list"] = yaml_list
        env.filters["quote"] = quote
        return env

    def render(self, ctx: dict[str, Any], game: registry.Registration, kind: str, template: Path | None = None) -> str:
        import jinja2

        shared = data_dir("templates")
        if template is not None:
            if not template.is_file():
                raise TemplateProblem(f"{template}: no such template file")
            name = template.name
            folders = [template.resolve().parent, game.templates, shared]
        else:
            name = game.template(kind, self.suffix).name
            folders = [game.templates, shared]
        shown = str(template) if template is not None else f"{game.name}/{name}"
        try:
            return self.environment(folders).get_template(name).render(**ctx)
        except jinja2.TemplateSyntaxError as e:
            raise TemplateProblem(f"{e.filename or shown}: line {e.lineno}: template error: {e.message}") from None
        except jinja2.TemplateNotFound as e:
            raise TemplateProblem(f"template not found: {e.name}") from None
        except jinja2.UndefinedError as e:
            raise TemplateProblem(f"{shown}: template error: {e.message}") from None
        except Exception as e:  # a template is code: any failure in it is the template's
            raise TemplateProblem(f"{shown}: template error: {type(e).__name__}: {e}") from None


RENDERERS: dict[str, Renderer] = {"markdown": MarkdownRenderer()}


def render(log: GameLog, kind: str = "story", template: Path | None = None, format: str = "markdown") -> str:
    """The log rendered in ``format`` as ``kind`` (or through the user's ``template``)."""
    renderer = RENDERERS[format]
    if kind not in renderer.kinds:
        raise TemplateProblem(f"the {format} format has no '{kind}' (it has: {', '.join(renderer.kinds)})")
    ctx = context(log)
    return renderer.render(ctx, registry.get(log.game), kind, template)


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

"""From a log to what people read: the export context, and the renderers that turn it
into a format.

:func:`context` walks the log (verifying it) and returns one JSON-safe document with a
version number: the game, variants, seed and source, the outcome with its cause, every
step with its typed move, draw or roll, the journal entries with what they are about, and
the story the game's teller makes of it. Its fields are documented in
``docs/context.md``; user templates and other formats rely on them. The words of moves,
undos and the end are the rules' own, never the log's.

Renderers are registered by format name in :data:`RENDERERS`. Markdown is the one today,
with two kinds, ``story`` and ``playthrough``, drawn from each game's templates. Every
template, built-in or shared by a stranger, runs in a sandbox (:class:`SafeEnvironment`):
it sees only the context, cannot reach Python's internals, files or commands, and is
stopped with one line when it runs too long or makes too much.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import stat
from pathlib import Path
from typing import Any, Callable, Protocol

from storyteller import registry
from storyteller.log import GameLog, sync_folder
from storyteller.narrative import data_dir
from storyteller.sandbox import SAFE_JINJA, environment_class, explain, generate, jinja_version, one_line
from storyteller.session import SOURCES, Step, Walk, walk
from storyteller.stories import tell
from storyteller.words import clean, command, join_and

CONTEXT_VERSION = 1


class TemplateProblem(Exception):
    """A template that is missing, broken, unsafe or runaway; the message is one line that
    names the file and, when known, the line."""


class OutputProblem(Exception):
    """An export's output path that storyteller will not write: the message is one line."""


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
    source = str(log.header.get("source", "seeded"))
    cards, dice = SOURCES[source]
    meta = {
        "title": teller.title(story),
        "game": w.game.name,
        "game_title": w.game.title,
        "seed": log.seed,
        "source": source,
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
    said: dict[int, str] = {}  # a decision's words, by its n, for the undo that takes it back
    out = []
    for step, facts in zip(w.steps, teller.step_facts(w.steps)):
        out.append({**_step(teller, log.seed, w, step, said), **facts})
    return out


def _step(teller, seed: str, w: Walk, step: Step, said: dict[int, str]) -> dict[str, Any]:
    """One step in words. A decision's words are the rules' words for its move in the state
    before it (what the player was offered), an undo's those of the decision it takes back,
    the end's the rules' outcome: the log's own text is never shown."""
    e = step.event
    kind = step.kind
    item: dict[str, Any] = {
        "n": e["n"], "kind": kind, "undone": step.undone, "corrected": step.corrected, "corrects": step.corrects,
    }
    if kind in ("draw", "roll"):
        item["by"] = e.get("by")
    if kind == "draw":
        item["text"] = teller.draw_text(e)
        item["meaning"] = teller.meaning(e, seed, w.variants)
        item["draw"] = {k: e[k] for k in ("card", "to", "deal", "slot")} | {"pile": e.get("pile", "deck")}
    elif kind == "roll":
        item["text"] = teller.draw_text(e)
        item["meaning"] = teller.meaning(e, seed, w.variants)
        item["roll"] = {"dice": list(e["dice"]), "index": e["index"]}
    elif kind == "decision":
        assert step.before is not None and step.move is not None  # a walk with keep_steps has both
        item["text"] = said[e["n"]] = step.before.describe(step.move)
        item["action"] = e["action"]
        item["move"] = step.move.facts()
    elif kind == "journal":
        item.update(_journal(e))
    elif kind == "undo":
        item["text"] = said.get(e["of"], "")
        item["of"] = e["of"]
    elif kind == "end":
        assert w.outcome is not None  # the walk checked the end against the rules
        item["text"] = w.outcome.reason
        item["result"] = w.outcome.result
        item["cause"] = w.outcome.cause
    return item


# -- Markdown helpers (the templates' filters: plain functions of plain data) -----------


def yaml_str(value: Any) -> str:
    """A YAML scalar that is always read back as the same text (JSON strings are YAML)."""
    return json.dumps("" if value is None else str(value), ensure_ascii=False)


def yaml_list(values: list[Any]) -> str:
    return "[" + ", ".join(yaml_str(v) for v in values) + "]"


def quote(text: Any) -> str:
    """A Markdown block quote of every line."""
    return "\n".join("> " + line if line else ">" for line in str(text).splitlines())


def code(text: Any) -> str:
    """A CommonMark code span that shows exactly ``text``, backticks included: the fence is
    one backtick longer than the longest run inside, and a space pads each side when the
    text starts or ends with a backtick, or starts and ends with a space (a reader strips
    one space from each side). Line breaks show as spaces, as in any code span."""
    text = str(text)
    if not text:
        return "` `"
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * (longest + 1)
    if text[0] == "`" or text[-1] == "`" or (text[0] == " " and text[-1] == " " and text.strip(" ")):
        text = f" {text} "
    return f"{fence}{text}{fence}"


def cell(text: Any) -> str:
    """Text made safe inside a table cell: a ``|`` is escaped (GitHub-flavoured tables read
    ``\\|`` as ``|``, inside code spans too) and a line break becomes a space."""
    return re.sub(r"\r\n|[\r\n]", " ", str(text)).replace("|", "\\|")


_INLINE_SPECIAL = re.compile(r"([\\`*_\[\]<&~|])")


def inline(text: Any) -> str:
    """Text from a log shown as itself in a line of Markdown: the characters that would
    start emphasis, links, code, HTML, entities or table cells are escaped with a
    backslash, and a line break becomes a space."""
    return _INLINE_SPECIAL.sub(r"\\\1", re.sub(r"\r\n|[\r\n]", " ", str(text)))


def continuation(text: Any, n: Any) -> str:
    """Text continuing the list item ``n.``: every line but blank ones indented past the
    item's marker (its width, at least 4 spaces), so that it stays inside the item (a
    smaller indent would end the list and make a code block from event 100 on)."""
    pad = " " * max(4, len(f"{n}. "))
    return "\n".join(pad + line if line.strip() else line for line in str(text).splitlines())


FILTERS: dict[str, Callable[..., Any]] = {
    "yaml": yaml_str,
    "yaml_list": yaml_list,
    "join_and": join_and,
    "quote": quote,
    "code": code,
    "cell": cell,
    "inline": inline,
    "continuation": continuation,
}


# -- renderers ---------------------------------------------------------------------------


class Renderer(Protocol):
    """Turns an export context into one format."""

    name: str
    kinds: tuple[str, ...]

    def render(self, ctx: dict[str, Any], game: registry.Registration, kind: str, template: Path | None = None) -> str: ...


class MarkdownRenderer:
    """CommonMark with YAML front matter, through Jinja2 templates: the game's own
    ``story.md.j2`` and ``playthrough.md.j2``, with the shared ``_macros.md.j2``."""

    name = "markdown"
    kinds = ("story", "playthrough")
    suffix = ".md.j2"

    def __init__(self) -> None:
        self._environments: dict[tuple[str, ...], Any] = {}

    def environment(self, folders: list[Path]):
        """A new sandboxed environment that loads templates from ``folders``."""
        return environment_class()(folders, FILTERS)

    def _environment(self, folders: list[Path]):
        key = tuple(str(f) for f in folders)
        if key not in self._environments:
            self._environments[key] = self.environment(folders)
        return self._environments[key]

    def render(self, ctx: dict[str, Any], game: registry.Registration, kind: str, template: Path | None = None) -> str:
        shared = data_dir("templates")
        if template is not None:
            if not template.is_file():
                raise TemplateProblem(one_line(f"{template}: no such template file"))
            if jinja_version() < SAFE_JINJA:
                import jinja2

                raise TemplateProblem(
                    f"your own templates need Jinja2 {'.'.join(map(str, SAFE_JINJA))} or newer, whose sandbox has "
                    f"no known escape (this is {jinja2.__version__}): pip install --upgrade jinja2"
                )
            name = template.name
            folders = [template.resolve().parent, game.templates, shared]
        else:
            name = game.template(kind, self.suffix).name
            folders = [game.templates, shared]
        names = {}  # a template file -> how to show it (other *.j2 files show their path)
        if template is not None:
            names[os.path.normpath(str(template.resolve()))] = str(template)
        for folder, prefix in ((game.templates, f"{game.name}/"), (shared, "")):
            for path in Path(folder).glob("*.j2"):
                names.setdefault(os.path.normpath(str(path)), prefix + path.name)
        shown = str(template) if template is not None else f"{game.name}/{name}"
        env = self._environment(folders)
        # The built-in templates are compiled before the clock starts (they are ours, and
        # compiling under the tracer is slow); a user's template is compiled on the clock.
        ready = [] if template is not None else [name, *(p.name for p in shared.glob("*.j2"))]
        try:
            return clean(generate(env, name, ctx, ready, frozenset(names)))
        except Exception as e:  # a template is code: any failure in it is the template's (Ctrl-C is not)
            raise TemplateProblem(one_line(explain(e, names, shown))) from None


RENDERERS: dict[str, Renderer] = {"markdown": MarkdownRenderer()}


def render(log: GameLog, kind: str = "story", template: Path | None = None, format: str = "markdown") -> str:
    """The log rendered in ``format`` as ``kind`` (or through the user's ``template``),
    cleaned of control characters."""
    renderer = RENDERERS[format]
    if kind not in renderer.kinds:
        raise TemplateProblem(f"the {format} format has no '{kind}' (it has: {', '.join(renderer.kinds)})")
    ctx = context(log)
    return clean(renderer.render(ctx, registry.get(log.game), kind, template))


# -- writing a file ------------------------------------------------------------------------


_KINDS = {
    stat.S_IFIFO: "a named pipe (FIFO)",
    stat.S_IFCHR: "a character device",
    stat.S_IFBLK: "a block device",
    stat.S_IFSOCK: "a socket",
}


def output_target(path: Path) -> tuple[Path, os.stat_result | None]:
    """Where writing ``path`` lands, as shell redirection would: the file itself, or the
    target of a symlink (followed, even when it does not exist yet); and that file's
    status, or None when it does not exist. Anything but a regular file is refused."""
    shown = clean(str(path))
    try:
        target = Path(os.path.realpath(path))
        st = os.stat(target)
    except FileNotFoundError:
        return target, None
    except OSError as e:
        raise OutputProblem(f"{shown}: cannot write here ({e.strerror})") from None
    if stat.S_ISDIR(st.st_mode):
        raise OutputProblem(f"{shown}: is a folder; give a file name to write to")
    if not stat.S_ISREG(st.st_mode):
        kind = _KINDS.get(stat.S_IFMT(st.st_mode), "not a regular file")
        raise OutputProblem(f"{shown}: is {kind}, not a regular file; storyteller only replaces regular files")
    return target, st


def check_output(path: Path, force: bool) -> None:
    """Refuse, before any work, an output storyteller would not write: not a regular file,
    or an existing one (a symlink included, even a dangling one) without ``force``."""
    output_target(path)
    if os.path.lexists(path) and not force:
        raise OutputProblem(f"{clean(str(path))}: already exists; add --force to overwrite it")


def write_atomic(path: Path, text: str) -> None:
    """Write to a temporary file beside the target of ``path`` and move it into place:
    a reader sees the old file or the new one, never half of one. Only a regular file is
    replaced (a symlink is followed to it), and it keeps its mode (and, where allowed,
    its owner); a new file gets the mode the umask gives."""
    target, st = output_target(path)
    folder = target.parent
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | (os.O_NOFOLLOW if os.name == "posix" else os.O_BINARY)
    for _ in range(100):
        tmp = folder / f".{target.name}.{secrets.token_hex(4)}.tmp"
        try:
            fd = os.open(tmp, flags, 0o666)  # the umask applies, as for any new file
            break
        except FileExistsError:
            continue
    else:
        raise FileExistsError(f"no free temporary name in {folder}")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
            if st is not None:
                _keep_mode(f.fileno(), tmp, st)
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    sync_folder(folder)


def _keep_mode(fd: int, tmp: Path, st: os.stat_result) -> None:
    mode = stat.S_IMODE(st.st_mode)
    if os.name != "posix":
        os.chmod(tmp, mode)  # Windows: only the read-only flag
        return
    os.fchmod(fd, mode)
    if (st.st_uid, st.st_gid) != (os.getuid(), os.getgid()):
        try:
            os.fchown(fd, st.st_uid, st.st_gid)
            os.fchmod(fd, mode)  # a change of owner may clear set-id bits
        except OSError:
            pass  # only the superuser may give a file away: it stays ours

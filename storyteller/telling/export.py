"""From a log to what people read: the renderers that turn its export context
(:mod:`storyteller.telling.context`, one JSON-safe document) into a format.

Renderers are registered by format name in :data:`RENDERERS`, each declaring its kinds:
``markdown`` and ``obsidian`` (a ``story`` and a ``playthrough``), ``lonelog`` (the
``playthrough`` in Lonelog notation) through Jinja2 templates, and ``json`` (one
``document``: the context itself, described by ``storyteller/data/context.schema.json``).
A game's folder may hold its own template for any text format (``story.md.j2``,
``story.obsidian.md.j2``, ``playthrough.lonelog.md.j2``) and ``_scenes.j2``, how its
game falls into scenes; the shared ``templates/`` folder holds the rest. Every template,
built-in or shared by a stranger, runs in a sandbox (:class:`SafeEnvironment`): it sees
only the context, cannot reach Python's internals, files or commands, and is stopped with
one line when it runs too long or makes too much. The templates' filters are plain
functions of plain data (:data:`FILTERS`); their reference is ``docs/templates.md``.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import stat
import sys
from pathlib import Path
from typing import IO, Any
from collections.abc import Callable, Iterable

from storyteller import registry
from storyteller.core.formats import DEFAULT, DEFAULT_PAPER, FORMATS, PAPERS, Format
from storyteller.log.file import GameLog, sync_folder
from storyteller.core.narrative import data_dir
from storyteller.telling.sandbox import SAFE_JINJA, environment_class, explain, generate, jinja_version, one_line
from storyteller.log.replay import Replay
from storyteller.telling.context import make as make_context
from storyteller.telling.filters import FILTERS, link
from storyteller.core.words import clean


class TemplateProblem(Exception):
    """A template that is missing, broken, unsafe or runaway; the message is one line that
    names the file and, when known, the line."""


class OutputProblem(Exception):
    """An export's output path that storyteller will not write: the message is one line."""


# -- renderers ---------------------------------------------------------------------------


_ENVIRONMENTS: dict[tuple[str, ...], Any] = {}  # sandboxed environments by their folders, shared by the renderers


def _template_cache() -> Any:
    """Where storyteller's own templates are kept compiled: the per-user cache folder
    (``STORYTELLER_HOME/cache`` when that is set), or no cache if there is none."""
    from storyteller.telling.sandbox import template_cache

    home = os.environ.get("STORYTELLER_HOME")
    if home:
        return template_cache(Path(home).expanduser() / "cache")
    try:
        from platformdirs import user_cache_dir
    except ImportError:  # pragma: no cover - platformdirs is a dependency
        return None
    return template_cache(Path(user_cache_dir("storyteller", appauthor=False)))


class TemplateRenderer:
    """A format made by Jinja2 templates (see its :class:`~storyteller.core.formats.Format`):
    for each kind, the game's own ``{kind}{templates}`` if its folder has one, else the shared
    one in ``templates/``; ``helpers`` are the shared templates they import, compiled before
    the clock starts. ``template`` is a user's own template, used instead."""

    def __init__(self, fmt: Format) -> None:
        self.format = fmt
        self.name = fmt.name
        self.kinds = fmt.kinds
        self.suffix = fmt.templates
        self.helpers = fmt.helpers

    def environment(self, folders: list[Path], cache: Any = None):
        """A new sandboxed environment that loads templates from ``folders`` (with
        ``cache``, a cache of compiled templates: for storyteller's own templates only)."""
        return environment_class()(folders, FILTERS, cache)

    def _environment(self, folders: list[Path], own: bool = False):
        key = tuple(str(f) for f in folders)
        if key not in _ENVIRONMENTS:
            _ENVIRONMENTS[key] = self.environment(folders, _template_cache() if own else None)
        return _ENVIRONMENTS[key]

    def render(self, ctx: dict[str, Any], game: registry.Registration, kind: str, template: Path | None = None) -> str:
        if "pictures" not in ctx:  # a context without pictures drawn (context(log)): templates see none
            ctx = {**ctx, "pictures": {"final": None, "scenes": [], "at": {}}}
        if "analysis" not in ctx:  # export --analysis adds it
            ctx = {**ctx, "analysis": None}
        # a game of its own is no campaign's chapter; a chapter is rendered alone unless a
        # book renders it (``book``: its number and heading there), and its notes link the
        # cast's notes only in a book or a vault (``links``)
        ctx = {"campaign": None, "cast": [], "threads": [], "book": None, "links": None, **ctx}
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
        if template is not None:
            shown = str(template)
        else:
            shown = f"{game.name}/{name}" if (Path(game.templates) / name).is_file() else name
        env = self._environment(folders, own=template is None)
        # The built-in templates are compiled before the clock starts (they are ours, and
        # compiling under the tracer is slow); a user's template is compiled on the clock.
        ready = [] if template is not None else [name, *self.helpers]
        try:
            return clean(generate(env, name, ctx, ready, frozenset(names), trusted=template is None))
        except Exception as e:  # a template is code: any failure in it is the template's (Ctrl-C is not)
            raise TemplateProblem(one_line(explain(e, names, shown))) from None

    def render_shared(self, ctx: dict[str, Any], name: str) -> str:
        """One of storyteller's own templates in ``templates/`` that belongs to no game (a
        campaign's book, a note of its cast), rendered with ``ctx``."""
        shared = data_dir("templates")
        names = {os.path.normpath(str(path)): path.name for path in Path(shared).glob("*.j2")}
        env = self._environment([shared], own=True)
        try:
            return clean(generate(env, name, ctx, [name, *self.helpers], frozenset(names), trusted=True))
        except Exception as e:  # a template is code: any failure in it is the template's (Ctrl-C is not)
            raise TemplateProblem(one_line(explain(e, names, name))) from None


def pictures(game: registry.Registration, w: Replay, prefix: str = "") -> dict[str, Any]:
    """The game's table drawn (see ``storyteller.telling.drawing``), as plain data for templates:
    ``final`` (the table as the log leaves it), ``scenes`` (a small picture at each of the
    story's turning points, in the order of its sections) and ``at`` (the same, by the
    ``n`` of the step after which the table is drawn, for a playthrough). Each picture is
    ``{"svg", "title", "desc", "width", "height"}``; empty when the game draws none.
    ``prefix`` starts the pictures' ids, unique on a page that holds several games.

    The game's picture module draws them: ``cover(state, steps, prefix, seed)``, the table as
    the log leaves it, telling the ending; ``moments(steps)``, the indices of the steps the
    story's turning points are drawn after; ``scene(state, steps, prefix, seed)``, the table
    after ``steps``, marking what the last of them changed (the card just revealed, bought
    or placed; a ghost of what was removed)."""
    module = game.pictures
    if module is None:
        return {"final": None, "scenes": [], "at": {}}
    steps = w.steps
    seed = w.header.seed
    final = module.cover(w.state, steps, prefix=f"{prefix}cover", seed=seed).as_dict()
    scenes, at = [], {}
    for k, i in enumerate(module.moments(steps)):
        state = steps[i].after if i >= 0 else w.state
        before = steps[:i + 1] if i >= 0 else steps
        pic = module.scene(state, before, prefix=f"{prefix}p{k + 1}", seed=seed).as_dict()
        scenes.append(pic)
        if i >= 0:
            at[str(steps[i].n)] = pic
    return {"final": final, "scenes": scenes, "at": at}


def svg(text: Any) -> Any:
    """A picture's SVG, as it is, in an HTML page: only the pictures the render drew pass as
    they are (the page's renderer marks them); any other text is escaped."""
    from markupsafe import Markup, escape

    return text if isinstance(text, Markup) else escape(text)


def paragraphs(text: Any) -> Any:
    """A player's words as HTML paragraphs: every character escaped, a blank line between
    paragraphs, a single line break kept as one; a tag the player wrote
    (``[N:Old Nim|charcoal girl]``) reads as its name, in a span whose classes say what it
    names (``st-tag st-person``, ``st-place``, ``st-thread``)."""
    from markupsafe import Markup

    parts = [p for p in re.split(r"\r\n\s*\r\n|\n\s*\n|\r\s*\r", str(text)) if p.strip()]
    return Markup("".join(f"<p>{tagged(p.strip())}</p>".replace("\n", "<br>") for p in parts))


def tagged(text: Any) -> Any:
    """A player's words escaped for HTML, each tag in them read as its name in a span (see
    :func:`paragraphs`)."""
    from markupsafe import Markup, escape

    from storyteller.core.tags import WORDS, find

    text = str(text)
    out, at = [], 0
    for tag in find(text):
        out.append(escape(text[at:tag.start]))
        if not tag.closed:  # a thread closed reads as nothing: the answer before it is the close
            out.append(Markup('<span class="st-tag st-{}">{}</span>').format(WORDS[tag.kind], tag.name))
        at = tag.end
    out.append(escape(text[at:]))
    return Markup("").join(out)


_HEADING = re.compile(r"<(/?)h([1-5])(?=[\s>])")


def headings_down(html: Any) -> Any:
    """An HTML page's part with every heading a level lower (``<h2>`` becomes ``<h3>``...):
    a chapter of a book's page. Only markup the page's templates wrote is touched: every
    text from a log is escaped, so ``<h2`` never stands in it."""
    from markupsafe import Markup

    return Markup(_HEADING.sub(lambda m: f"<{m.group(1)}h{int(m.group(2)) + 1}", str(html)))


FILTERS.update(svg=svg, paragraphs=paragraphs, tagged=tagged, headings_down=headings_down)  # the HTML pages' own


class HtmlRenderer(TemplateRenderer):
    """One self-contained HTML page: no network, no script, the CSS inline, the pictures
    inline SVG; the game's own ``story.html.j2`` (or the shared one) and the shared
    ``playthrough.html.j2``, on the shared ``_page.html.j2``. Every text from the log is
    escaped (the environment escapes all it shows); the pictures this render drew alone pass
    as they are."""

    def environment(self, folders: list[Path], cache: Any = None):
        return environment_class()(folders, FILTERS, cache, autoescape=True)

    def _environment(self, folders: list[Path], own: bool = False):
        key = ("page",) + tuple(str(f) for f in folders)
        if key not in _ENVIRONMENTS:
            _ENVIRONMENTS[key] = self.environment(folders, _template_cache() if own else None)
        return _ENVIRONMENTS[key]

    def render(self, ctx: dict[str, Any], game: registry.Registration, kind: str, template: Path | None = None) -> str:
        from markupsafe import Markup

        if "paper" not in ctx:
            ctx = {**ctx, "paper": PAPERS[DEFAULT_PAPER]}
        pics = ctx.get("pictures") or {}
        for p in [pics.get("final"), pics.get("chart"), *pics.get("scenes", [])]:
            if p:  # drawn by this render: passed as it is (the same dicts serve "at" too)
                p["svg"] = Markup(p["svg"])
        return super().render(ctx, game, kind, template)


_C1 = re.compile(r"[\x7f-\x9f]")


def to_json(ctx: dict[str, Any]) -> str:
    """The context as JSON: its own key order (the documented one), indent 2, text as
    itself; every control character is written as a ``\\u`` escape, so the document is
    safe to print and reads back exactly."""
    text = json.dumps(ctx, indent=2, ensure_ascii=False, allow_nan=False)
    return _C1.sub(lambda m: f"\\u{ord(m.group()):04x}", text) + "\n"


class JsonRenderer(TemplateRenderer):
    """The export context itself, as JSON: one document. A user's template may make
    another JSON document from it (a summary for another tool, say): what it writes must
    read as JSON."""

    def render(self, ctx: dict[str, Any], game: registry.Registration, kind: str, template: Path | None = None) -> str:
        if template is None:
            return to_json(ctx)
        text = super().render(ctx, game, kind, template)
        try:
            json.loads(text)
        except ValueError as e:
            raise TemplateProblem(one_line(f"{template}: what it wrote is not JSON ({e})")) from None
        return text


def schema(name: str = "context") -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of the context document (or, ``name="campaign"``, of
    a campaign's book as data, whose chapters' contexts refer to ``context.schema.json``),
    as shipped in the package."""
    from importlib import resources

    shipped = resources.files("storyteller").joinpath("data").joinpath(f"{name}.schema.json")
    return json.loads(shipped.read_text("utf-8"))


def renderer(fmt: Format) -> TemplateRenderer:
    """The renderer of a format, by what it is: the context itself, a page, or text."""
    return (JsonRenderer if fmt.data else HtmlRenderer if fmt.page else TemplateRenderer)(fmt)


RENDERERS: dict[str, TemplateRenderer] = {name: renderer(fmt) for name, fmt in FORMATS.items()}
DEFAULT_FORMAT = DEFAULT


def render(
    log: GameLog, kind: str | None = None, template: Path | None = None, format: str = DEFAULT_FORMAT,
    paper: str = DEFAULT_PAPER, analysis: dict[str, Any] | None = None,
) -> str:
    """The log rendered in ``format`` as ``kind`` (the format's first kind if None; or
    through the user's ``template``), cleaned of control characters. An HTML page carries
    its pictures inline and prints on ``paper``; a note in any other format has none (see
    ``render_with_pictures``). ``analysis`` (``storyteller.study.analysis``'s, as a dict) goes
    into the context as ``analysis``: a playthrough shows it (an HTML page with a chart)."""
    return rendered(log, kind, template, format, paper, analysis=analysis)[0]


def render_with_pictures(
    log: GameLog, stem: str, kind: str | None = None, template: Path | None = None, format: str = DEFAULT_FORMAT,
    analysis: dict[str, Any] | None = None,
) -> tuple[str, dict[str, str]]:
    """A Markdown or Obsidian note that links pictures of the table kept beside it (GitHub
    and Obsidian show a linked SVG file, but strip SVG written into a note): the note's
    text, and each picture's file name (``<stem>-table.svg``, ``<stem>-1.svg``, ...) with
    its SVG."""
    return rendered(log, kind, template, format, DEFAULT_PAPER, stem, analysis)


def render_pdf(log: GameLog, browser: str, kind: str | None = None, template: Path | None = None,
               paper: str = DEFAULT_PAPER, analysis: dict[str, Any] | None = None, format: str = "pdf") -> bytes:
    """The HTML page of a printed ``format`` printed to PDF by ``browser`` (see
    ``storyteller.telling.pdf``); PdfProblem when it cannot print."""
    from storyteller.telling.pdf import print_pdf

    return print_pdf(rendered(log, kind, template, format, paper, analysis=analysis)[0], browser)


def rendered(log: GameLog, kind: str | None, template: Path | None, format: str, paper: str,
            stem: str | None = None, analysis: dict[str, Any] | None = None, memory: Any = None,
            extra: dict[str, Any] | None = None, prefix: str = "",
            built: tuple[dict[str, Any], Replay] | None = None) -> tuple[str, dict[str, str]]:
    """The log rendered (see :func:`render`; with ``stem``, as :func:`render_with_pictures`
    renders it), and the pictures to write beside it. For a campaign's book or vault:
    ``memory`` is the campaign's (see ``storyteller.telling.cast``), ``extra`` what the
    templates are told besides the context (``book``, ``links``), ``prefix`` starts the
    pictures' ids, and ``built`` is the log's context and replay if made before."""
    made = RENDERERS[format]
    fmt = made.format
    kind = kind or fmt.kinds[0]
    if kind not in fmt.kinds:
        raise TemplateProblem(f"the {format} format has no '{kind}' (it has: {', '.join(fmt.kinds)})")
    if paper not in PAPERS:
        raise TemplateProblem(f"unknown paper '{paper}' (papers: {', '.join(PAPERS)})")
    ctx, w = built if built is not None else make_context(log, memory)
    game = registry.get(log.game)
    files: dict[str, str] = {}
    if analysis is not None:
        ctx["analysis"] = analysis
    if extra:
        ctx.update(extra)
    if fmt.pictures == "inline":
        ctx["pictures"] = pictures(game, w, prefix)
        ctx["paper"] = PAPERS[paper]
        if analysis is not None and analysis.get("start") is not None:
            from storyteller.telling.drawing import chance_chart

            marks = sorted(analysis["decisions"] + analysis["chances"], key=lambda m: m["n"])
            ctx["pictures"]["chart"] = chance_chart(
                analysis["start"], [(m["n"], m["after"], m.get("label")) for m in marks],
                "The chance to win, step by step").as_dict()
    elif stem is not None and fmt.pictures == "beside":
        ctx["pictures"] = pics = pictures(game, w)
        for name, p in [("table", pics["final"]), *((str(k + 1), p) for k, p in enumerate(pics["scenes"]))]:
            if p is not None:
                p["file"] = f"{stem}-{name}.svg"
                files[p["file"]] = p.pop("svg")
    text = clean(made.render(ctx, game, kind, template))
    return text, {f: svg for f, svg in files.items() if f in text or link(f) in text}  # those the note shows


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


def write_atomic(path: Path, text: str | bytes | Iterable[str]) -> None:
    """Write ``text`` (or its pieces, one after the other) to a temporary file beside the
    target of ``path`` and move it into place:
    a reader sees the old file or the new one, never half of one. Only a regular file is
    replaced (a symlink is followed to it), and it keeps its mode (and, where allowed,
    its owner); a new file gets the mode the umask gives."""
    target, st = output_target(path)
    folder = target.parent
    if sys.platform == "win32":  # pragma: no cover - Windows: no newline translation
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_BINARY
    else:  # and never through a symlink swapped in for the temporary name
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW
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
        if isinstance(text, bytes):
            with os.fdopen(fd, "wb") as out:
                _written(out, tmp, st, lambda: out.write(text))
        else:
            with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
                _written(f, tmp, st, lambda: f.write(text) if isinstance(text, str) else f.writelines(text))
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    sync_folder(folder)


def _written(f: IO[Any], tmp: Path, st: os.stat_result | None, write: Callable[[], object]) -> None:
    """Give the temporary file ``f`` the target's mode, write it, and make it durable."""
    if st is not None:
        _keep_mode(f.fileno(), tmp, st)
    write()
    f.flush()
    os.fsync(f.fileno())


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

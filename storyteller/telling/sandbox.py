"""The sandbox every template renders in, built-in or shared by a stranger.

Jinja2's immutable sandbox, with only ``range`` as a global and only the plain data of
the export context to read, so a template cannot reach Python's internals, files or
commands. On top of it, limits: a deadline (a tracer on this thread), the size of what a
template writes and of what it makes on the way (checked before operators, calls and
filters that can grow a value run), and the size of numbers. Whatever goes wrong is one
line that names the template and its line (:func:`explain`).
"""

from __future__ import annotations

import collections.abc
import functools
import inspect
import math
import os
import re
import sys
import time
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

from storyteller.core.words import clean


#: Seconds a template may run before it is stopped.
TIME_LIMIT = 2.0
#: Characters an export may write: this, plus four times the size of its context.
OUTPUT_BASE = 10_000_000
#: What a template may make in all (strings count their characters, lists 8 per item),
#: as a multiple of its output limit: what bounds the memory a template can take.
BUDGET_FACTOR = 10
#: Bits in a number a template computes (about 1,200 digits).
MAX_INT_BITS = 4096
#: Counts a template passes to batch() or slice(), as range() is bounded.
MAX_COUNT = 100_000
#: The largest template file read (compiling one this size takes about a second).
MAX_TEMPLATE_BYTES = 256_000
#: The first Jinja2 whose sandbox has no known escape (3.1.5 and 3.1.6 closed two).
SAFE_JINJA = (3, 1, 6)


class TemplateLimit(Exception):
    """A template went past one of the sandbox's limits (time, size, numbers)."""


_METHODS_ALLOWED = frozenset(
    # str (and Markup)
    "capitalize casefold count endswith find index isalnum isalpha isascii isdecimal isdigit "
    "isidentifier islower isnumeric isprintable isspace istitle isupper lower lstrip rstrip strip "
    "partition rpartition rsplit split splitlines startswith swapcase title upper removeprefix "
    "removesuffix rfind rindex striptags unescape "
    # dict, list, tuple, range, numbers
    "get items keys values copy bit_length bit_count as_integer_ratio conjugate is_integer "
    # sized by a guard before the call
    "center ljust rjust zfill expandtabs join replace".split()
)


def _builtin_data(owner: Any) -> bool:
    return isinstance(owner, str) or type(owner).__module__ == "builtins"


class _Run:
    """One render's limits and what it has made so far."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.budget = BUDGET_FACTOR * limit
        self.made = 0
        self.sizes: dict[int, tuple[Any, int]] = {}  # id -> (object kept alive, measured size)
        self.main = ""  # the file name of the template rendered

    def too_big(self, what: str) -> TemplateLimit:
        return TemplateLimit(f"{what}: more than {self.limit:,} characters, past what an export may hold")

    def room(self, size: int, what: str = "the text it makes") -> None:
        """Refuse a string or list of ``size`` before it is made."""
        if size > self.limit:
            raise self.too_big(what)

    def spend(self, result: Any) -> Any:
        """Count what a template made against its budget."""
        if isinstance(result, str):
            size = len(result)
            self.room(size)
        elif isinstance(result, (list, tuple, dict, set, frozenset)):
            self.room(len(result), "the list it makes")
            size = 8 * len(result)
        else:
            return result
        self.made += size
        if self.made > self.budget:
            raise TemplateLimit(f"it made more than {self.budget:,} characters and items in all")
        return result

    def measure(self, x: Any) -> int:
        """About how many characters ``str(x)`` would be, without making it, refused past
        the limit: a container shared many times counts every time (as its text would),
        and the walk stops as soon as the total passes the limit."""
        size = self._measure(x)
        if size > self.limit:
            raise self.too_big("a value it shows")
        return size

    def _measure(self, x: Any) -> int:
        t = type(x)
        if t is str or isinstance(x, str):
            return len(x)
        if t is bool or x is None or t is float:
            return 8
        if t is int:
            return x.bit_length() * 3 // 10 + 2
        if not isinstance(x, (list, tuple, dict, set, frozenset, collections.abc.MappingView)):
            from jinja2.environment import TemplateModule

            if isinstance(x, TemplateModule):  # an imported template shows its body, made in a list
                return sum(map(len, x._body_stream))
            return 64  # a macro, a loop, an undefined: a short description at most
        known = self.sizes.get(id(x))
        if known is not None and known[0] is x:
            return known[1]
        limit = self.limit
        sizes = self.sizes

        def children(c: Any):
            return iter(c.items()) if isinstance(c, dict) else iter(c)

        stack: list[list[Any]] = [[x, children(x), 2]]
        visiting = {id(x)}
        while True:
            frame = stack[-1]
            container, items, total = frame
            pushed = False
            for item in items:
                if isinstance(container, dict):
                    key, item = item
                    total += self._quick(key) + 2
                size = self._quick(item)
                if size < 0:  # a container not measured yet: measure it first
                    if id(item) in visiting:
                        size = 8  # a cycle (no template can make one): shown as [...]
                    else:
                        frame[2] = total
                        stack.append([item, children(item), 2])
                        visiting.add(id(item))
                        pushed = True
                        break
                total += size + 2
                if total > limit:
                    raise self.too_big("a value it shows")
            if pushed:
                continue
            stack.pop()
            visiting.discard(id(container))
            sizes[id(container)] = (container, total)
            if not stack:
                return total
            parent = stack[-1]
            parent[2] += total + 2
            if parent[2] > limit:
                raise self.too_big("a value it shows")

    def _quick(self, x: Any) -> int:
        """measure() without walking: -1 for a container not measured yet."""
        if isinstance(x, (list, tuple, dict, set, frozenset, collections.abc.MappingView)):
            known = self.sizes.get(id(x))
            return known[1] if known is not None and known[0] is x else -1
        return self._measure(x)


class _Trusted(_Run):
    """The accounts of a render of storyteller's own templates: nothing to count or refuse
    (they are ours, tested, and bounded by the log they tell)."""

    def __init__(self) -> None:
        super().__init__(sys.maxsize)

    def room(self, size: int, what: str = "the text it makes") -> None:
        pass

    def spend(self, result: Any) -> Any:
        return result

    def measure(self, x: Any) -> int:
        return 0


class _Watch:
    """The deadline, checked every few hundred lines of Python run while a template renders:
    a tracer (``sys.settrace``, on this thread only; the previous tracer is put back after)
    counts lines in every frame, and calls in Jinja2's compiler, whose lines are not traced
    (compiling a template is all calls, and tracing its lines made exports 4 times slower).
    It stops the template by raising an exception in the frame running when time is up, if
    a template's frame is on the stack (so the message can name its line) and none of the
    few Jinja2 functions that catch every exception (they would swallow it); otherwise it
    raises at the next line that qualifies."""

    EVERY = 200

    def __init__(self, seconds: float, templates: frozenset[str] = frozenset()) -> None:
        self.seconds = seconds
        self.templates = templates  # template files not named *.j2 (the user's own, by any name)
        self.previous: Any = None
        import jinja2

        folder = os.path.dirname(os.path.abspath(jinja2.__file__))

        def files(*names: str) -> frozenset[str]:
            return frozenset(os.path.normcase(os.path.join(folder, f"{n}.py")) for n in names)

        self.swallowers = files("nodes", "tests", "lexer")
        self.compiler = files("lexer", "parser", "compiler", "nodes", "optimizer", "visitor", "idtracking")

    def __enter__(self) -> _Watch:
        ticks = 0
        every = self.EVERY
        deadline = time.monotonic() + self.seconds
        expired = False
        swallowers = self.swallowers
        compiler = self.compiler
        clock = time.monotonic
        normcase = os.path.normcase
        seconds = self.seconds
        templates = self.templates

        def check(frame) -> None:
            nonlocal ticks, expired
            ticks = 0
            if expired or clock() > deadline:
                expired = True
                in_template = False
                f = frame
                while f is not None:
                    filename = f.f_code.co_filename
                    if normcase(filename) in swallowers:
                        return
                    in_template = in_template or filename.endswith(".j2") or filename in templates
                    f = f.f_back
                if in_template:
                    raise TemplateLimit(f"it ran longer than {seconds:g} seconds")

        def local(frame, event, arg):
            nonlocal ticks
            ticks += 1
            if (ticks >= every or expired) and event == "line":
                check(frame)
            return local

        def on_call(frame, event, arg):
            nonlocal ticks
            ticks += 1
            if ticks >= every or expired:
                check(frame)
            return None if normcase(frame.f_code.co_filename) in compiler else local

        self.previous = sys.gettrace()
        sys.settrace(on_call)
        return self

    def __exit__(self, *exc: Any) -> None:
        sys.settrace(self.previous)


def _bound(func: Callable[..., Any]):
    """``bind(args, kwargs)``: the filter's arguments by name, and the call that makes it
    with them. A filter Jinja2 passes an environment or context to may not show that
    parameter in its signature (its async variant drops it): it is set aside."""
    sig = inspect.signature(func)
    first = next(iter(sig.parameters), "")
    aside = 1 if _passes_arg(func) and first not in ("environment", "env", "eval_ctx", "context", "ctx") else 0

    def bind(args: tuple, kwargs: dict):
        ba = sig.bind(*args[aside:], **kwargs)
        ba.apply_defaults()
        return ba, lambda: func(*args[:aside], *ba.args, **ba.kwargs)

    return bind


def _printf_size(run: _Run, fmt: str, args: Any) -> int:
    """About how long ``fmt % args`` is: the format, every width and precision, the values."""
    total = len(fmt)
    positional = list(args) if isinstance(args, tuple) else [args]
    mapping = args if isinstance(args, collections.abc.Mapping) else None
    for m in re.finditer(r"%(?:\(([^)]*)\))?[#0\- +]*(\*|\d+)?(?:\.(\*|\d+))?[hlL]?(.)", fmt):
        key, width, precision, kind = m.groups()
        for n in (width, precision):
            if n == "*":
                value = positional.pop(0) if positional else 0
                total += abs(value) if isinstance(value, int) else 0
            elif n:
                total += int(n)
        if kind == "%":
            continue
        if key is not None and mapping is not None:
            total += run.measure(mapping.get(key)) * 4  # %r may escape every character
        elif positional:
            total += run.measure(positional.pop(0)) * 4
        run.room(total)
    return total


def _check_center(run, p):
    run.room(max(run.measure(p["value"]), p["width"] if isinstance(p["width"], int) else 0))


def _check_indent(run, p):
    width = p["width"]
    pad = width if isinstance(width, int) else run.measure(width)
    text = p["s"]
    lines = str(text).count("\n") + 1 if isinstance(text, str) else 1
    run.room(run.measure(text) + lines * max(pad, 0))


def _check_format(run, p):
    run.room(_printf_size(run, str(p["value"]), p["kwargs"] or tuple(p["args"])))


def _check_join(run, p):
    items = p["value"] = list(p["value"])
    run.room(len(items), "the list it joins")
    sep = run.measure(p["d"])
    total = 0
    for item in items:
        total += run.measure(item) + sep
        run.room(total, "the text it joins")


def _replace_size(run, text, old, new, count) -> int:
    text, old, new = str(text), str(old), str(new)
    times = (text.count(old) if old else len(text) + 1)
    if isinstance(count, int) and count >= 0:
        times = min(times, count)
    return len(text) + times * max(0, len(new) - len(old))


def _check_replace(run, p):
    run.room(run.measure(p["s"]) + run.measure(p["new"]))
    run.room(_replace_size(run, p["s"], p["old"], p["new"], p["count"]))


def _check_wordwrap(run, p):
    text = str(p["s"]) if isinstance(p["s"], str) else ""
    width = p["width"] if isinstance(p["width"], int) and p["width"] > 0 else 1
    wrap = run.measure(p["wrapstring"]) if p["wrapstring"] is not None else 1
    run.room(len(text) + (len(text) // width + text.count("\n") + 1) * wrap)


def _check_count(name: str):
    def check(run, p):
        n = p[name]
        if isinstance(n, int) and n > MAX_COUNT:
            raise TemplateLimit(f"{name} {n:,} is more than {MAX_COUNT:,}")

    return check


def _check_tojson(run, p):
    indent = p["indent"]
    if (isinstance(indent, int) and indent > 16) or (isinstance(indent, str) and len(indent) > 16):
        raise TemplateLimit("a JSON indent wider than 16")


def _check_sum(run, p):
    start = p["start"]
    if isinstance(start, (str, list, tuple)):  # sum() joins lists in quadratic time: refuse big ones
        items = p["iterable"] = list(p["iterable"])
        run.room(len(items), "the list it sums")
        total = len(start)
        for item in items:
            total += len(item) if isinstance(item, (str, list, tuple)) else 1
            run.room(total, "the list it sums")
        if len(items) * total > 50_000_000:  # what sum() copies, one list after another
            raise TemplateLimit("a sum of lists too long to add up")


def _check_int(run, p):
    if isinstance(p["value"], str) and len(p["value"]) > 5000:
        raise TemplateLimit("a number of more than 5,000 digits")


_FILTER_CHECKS: dict[str, Callable[[_Run, Any], None]] = {
    "center": _check_center,
    "indent": _check_indent,
    "format": _check_format,
    "join": _check_join,
    "replace": _check_replace,
    "wordwrap": _check_wordwrap,
    "batch": _check_count("linecount"),
    "slice": _check_count("slices"),
    "tojson": _check_tojson,
    "sum": _check_sum,
    "int": _check_int,
}


def _passes_arg(func: Callable[..., Any]) -> bool:
    # set by @pass_context and the like (a builtin such as len takes nothing more)
    return isinstance(func, types.FunctionType) and func.__dict__.get("jinja_pass_arg") is not None


def template_cache(folder: Path) -> Any:
    """A cache of compiled templates in ``folder``, for storyteller's own templates (never a
    user's): an export then compiles each only the first time. Its entries are keyed by each
    template's source and kept in a subfolder named for this sandbox's code and Jinja2's
    version, so a change to either starts afresh. A cache that cannot be written or read is
    no cache: the templates are compiled as if it were not there."""
    import hashlib

    import jinja2
    from jinja2 import FileSystemBytecodeCache

    stamp = hashlib.sha256(Path(__file__).read_bytes() + jinja2.__version__.encode()).hexdigest()[:12]

    class Cache(FileSystemBytecodeCache):
        def load_bytecode(self, bucket) -> None:
            try:
                super().load_bytecode(bucket)
            except (OSError, ValueError, EOFError, TypeError):
                bucket.reset()

        def dump_bytecode(self, bucket) -> None:
            try:
                os.makedirs(self.directory, exist_ok=True)
                super().dump_bytecode(bucket)
            except OSError:
                pass

    return Cache(str(folder / f"templates-{stamp}"))


def environment_class():
    """The sandboxed environment class, made when first needed (Jinja2 is imported late)."""
    global _SafeEnvironment
    if _SafeEnvironment is not None:
        return _SafeEnvironment
    from jinja2 import FileSystemLoader, StrictUndefined, TemplateNotFound
    from jinja2.compiler import CodeGenerator
    from jinja2.loaders import split_template_path
    from jinja2.sandbox import (ImmutableSandboxedEnvironment, SandboxedEscapeFormatter,
                                SandboxedFormatter, SecurityError, safe_range)
    from markupsafe import Markup

    class CodeGen(CodeGenerator):
        def visit_Concat(self, node, frame) -> None:  # ``a ~ b``: sized before it is joined
            self.write("environment.join_values((")
            for arg in node.nodes:
                self.visit(arg, frame)
                self.write(", ")
            self.write("))")

    class Loader(FileSystemLoader):
        """Only templates (``*.j2``, or the file asked for by name), none larger than
        MAX_TEMPLATE_BYTES: an include cannot read other files in the folder."""

        def get_source(self, environment, template):
            if not template.endswith(".j2") and template != environment.run.main:
                raise TemplateNotFound(template)
            pieces = split_template_path(template)  # refuses ".."
            for folder in self.searchpath:
                path = os.path.join(folder, *pieces)
                if os.path.isfile(path):
                    if os.path.getsize(path) > MAX_TEMPLATE_BYTES:
                        raise TemplateLimit(f"{template} is larger than {MAX_TEMPLATE_BYTES:,} bytes")
                    break
            return super().get_source(environment, template)

    class Formatter(SandboxedFormatter):
        """str.format() whose every field is sized before it is made."""

        _env: Any  # a SafeEnvironment (below): it holds the render's run

        def __init__(self, env, **kwargs) -> None:
            super().__init__(env, **kwargs)
            self.total = 0

        def convert_field(self, value, conversion):
            self._env.run.measure(value)
            return super().convert_field(value, conversion)

        def format_field(self, value, format_spec):
            run = self._env.run
            widest = max((int(n) for n in re.findall(r"\d+", format_spec)), default=0)
            run.room(self.total + widest + run.measure(value))
            out = super().format_field(value, format_spec)
            self.total += len(out)
            run.room(self.total)
            return out

    class EscapeFormatter(Formatter, SandboxedEscapeFormatter):
        pass

    class SafeEnvironment(ImmutableSandboxedEnvironment):
        """Jinja2's immutable sandbox with only ``range`` as a global, size checks on the
        operators, calls and filters that can make big values, and output sized as it is
        made. ``run`` holds the current render's limits and accounts."""

        code_generator_class = CodeGen
        intercepted_binops = frozenset({"+", "*", "**", "%"})

        def __init__(self, folders: list[Path], filters: dict[str, Callable[..., Any]], cache: Any = None,
                     autoescape: bool = False) -> None:
            super().__init__(
                bytecode_cache=cache,
                loader=Loader([str(f) for f in folders]),
                undefined=StrictUndefined,
                autoescape=autoescape,  # HTML: everything shown is escaped unless it is Markup
                keep_trailing_newline=True,
                trim_blocks=True,
                lstrip_blocks=True,
            )
            self.run = _Run(OUTPUT_BASE)
            self.globals.clear()  # no lipsum, cycler, joiner, namespace or dict: only range
            self.globals["range"] = safe_range
            self.finalize = self.shown
            self.filters.update(filters)
            self.filters = {name: self._guarded(name, f) for name, f in self.filters.items()}

        # -- everything shown or joined is sized first
        def shown(self, value: Any) -> Any:
            if type(value) is not str:
                self.run.measure(value)
            return value

        def concat(self, parts) -> str:  # a macro's, a block's or a {% set %} block's text
            parts = list(parts)
            self.run.room(sum(map(len, parts)))
            return self.run.spend("".join(parts))

        def join_values(self, values: tuple) -> str:
            run = self.run
            run.room(sum(run.measure(v) for v in values))
            if self.autoescape:  # as Jinja's own ``~`` does: each part escaped unless it is Markup
                return run.spend(Markup("").join(values))
            return run.spend("".join(map(str, values)))

        # -- operators
        def call_binop(self, context, operator_: str, left: Any, right: Any) -> Any:
            run = self.run
            if operator_ == "*":
                for seq, n in ((left, right), (right, left)):
                    if isinstance(seq, (str, list, tuple)) and isinstance(n, int):
                        run.room(len(seq) * max(n, 0), "a repeated text or list")
                if isinstance(left, int) and isinstance(right, int):
                    self._bits(left.bit_length() + right.bit_length())
            elif operator_ == "**":
                if isinstance(left, int) and isinstance(right, int) and right > 0 and abs(left) > 1:
                    self._bits(int(right * math.log2(abs(left))) + 1)
            elif operator_ == "+":
                if isinstance(left, (str, list, tuple)) and isinstance(right, (str, list, tuple)):
                    run.room(len(left) + len(right))
            elif operator_ == "%":  # noqa: SIM102 (one branch per operator, its size check inside, as above)
                if isinstance(left, str):
                    run.room(_printf_size(run, left, right))
            return run.spend(self.binop_table[operator_](left, right))

        def _bits(self, bits: int) -> None:
            if bits > MAX_INT_BITS:
                raise TemplateLimit(f"a number of more than {MAX_INT_BITS:,} bits")

        # -- calls: the methods of plain data are allowed by name, and sized when they can grow
        def call(__self, __context, __obj, *args: Any, **kwargs: Any) -> Any:
            run = __self.run
            bound = isinstance(__obj, (types.BuiltinMethodType, types.MethodType))
            owner = __obj.__self__ if bound else None
            if bound and _builtin_data(owner):
                name = __obj.__name__
                if name not in _METHODS_ALLOWED:
                    raise SecurityError(f"a template may not call {type(owner).__name__}.{name}()")
                if isinstance(owner, str) and name in ("center", "ljust", "rjust", "zfill"):
                    width = args[0] if args else kwargs.get("width", 0)
                    run.room(max(len(owner), width if isinstance(width, int) else 0))
                elif isinstance(owner, str) and name == "expandtabs":
                    size = args[0] if args else kwargs.get("tabsize", 8)
                    run.room(len(owner) + owner.count("\t") * (size if isinstance(size, int) else 0))
                elif isinstance(owner, str) and name == "join":
                    items = list(args[0]) if args else []
                    args = (items, *args[1:])
                    run.room(len(items), "the list it joins")
                    total = 0
                    for item in items:
                        total += run.measure(item) + len(owner)
                        run.room(total, "the text it joins")
                elif isinstance(owner, str) and name == "replace" and len(args) >= 2:
                    run.room(_replace_size(run, owner, args[0], args[1], args[2] if len(args) > 2 else -1))
            for a in args:
                run.measure(a)
            for a in kwargs.values():
                run.measure(a)
            return run.spend(super().call(__context, __obj, *args, **kwargs))

        def wrap_str_format(self, value: Any):
            if not isinstance(value, (types.MethodType, types.BuiltinMethodType)) or value.__name__ not in (
                "format",
                "format_map",
            ):
                return None
            f_self = value.__self__
            if not isinstance(f_self, str):
                return None
            str_type = type(f_self)
            is_format_map = value.__name__ == "format_map"
            env = self

            def wrapper(*args: Any, **kwargs: Any) -> str:
                if isinstance(f_self, Markup):
                    formatter: Formatter = EscapeFormatter(env, escape=f_self.escape)
                else:
                    formatter = Formatter(env)
                if is_format_map:
                    if kwargs:
                        raise TypeError("format_map() takes no keyword arguments")
                    if len(args) != 1:
                        raise TypeError(f"format_map() takes exactly one argument ({len(args)} given)")
                    kwargs = args[0]
                    args = ()
                return env.run.spend(str_type(formatter.vformat(f_self, args, kwargs)))

            return functools.update_wrapper(wrapper, value)

        # -- filters: every argument sized, the ones that can grow checked before they run
        def _guarded(self, name: str, func: Callable[..., Any]) -> Callable[..., Any]:
            check = _FILTER_CHECKS.get(name)
            bind = _bound(func) if check else None
            skip = 1 if _passes_arg(func) else 0
            env = self

            @functools.wraps(func)
            def guarded(*args: Any, **kwargs: Any) -> Any:
                run = env.run
                for a in args[skip:]:
                    run.measure(a)
                for a in kwargs.values():
                    run.measure(a)
                if bind is None:
                    return run.spend(func(*args, **kwargs))
                ba, make = bind(args, kwargs)
                # check is set whenever bind is (mypy cannot tell); it may put a list in place of an
                # iterable it had to read
                check(run, ba.arguments)  # type: ignore[misc]
                return run.spend(make())

            return guarded

    _SafeEnvironment = SafeEnvironment
    return SafeEnvironment


_SafeEnvironment: Any = None


def jinja_version() -> tuple[int, ...]:
    import jinja2

    parts = []
    for piece in jinja2.__version__.split(".")[:3]:
        digits = re.match(r"\d+", piece)
        parts.append(int(digits.group()) if digits else 0)
    return tuple(parts)


def one_line(text: str, most: int = 300) -> str:
    text = " ".join(clean(str(text)).split())
    return text if len(text) <= most else text[: most - 3] + "..."


def generate(env: Any, name: str, ctx: dict[str, Any], ready: list[str], files: frozenset[str],
             trusted: bool = False) -> str:
    """Render through ``generate()``, counting the output as it comes, with a deadline
    (the templates named in ``ready`` are compiled before it starts). A ``trusted`` render,
    of storyteller's own templates, is still sandboxed but neither counted nor timed."""
    if trusted:
        env.run = _Trusted()
        try:
            for template in ready:
                env.get_template(template)
            return env.get_template(name).render(**ctx)
        finally:
            env.run = _Run(OUTPUT_BASE)
    run = _Run(sys.maxsize)
    run.limit = OUTPUT_BASE + 4 * run.measure(ctx)
    run.budget = BUDGET_FACTOR * run.limit
    run.main = name
    env.run = run
    out: list[str] = []
    size = 0
    try:
        for ours in ready:
            env.get_template(ours)
        with _Watch(TIME_LIMIT, files):
            chunks = env.get_template(name).generate(**ctx)
            for chunk in chunks:
                size += len(chunk)
                if size > run.limit:
                    chunks.throw(TemplateLimit(f"it writes more than {run.limit:,} characters"))
                out.append(chunk)
    finally:
        env.run = _Run(OUTPUT_BASE)
    return "".join(out)


def explain(e: BaseException, names: dict[str, str], shown: str) -> str:
    """One line for a template's failure: the template and line it happened on (the
    innermost template frame of the traceback), and what it was."""
    import jinja2
    from jinja2.sandbox import SecurityError

    if isinstance(e, jinja2.TemplateSyntaxError):
        where = names.get(os.path.normpath(e.filename), e.filename) if e.filename else shown
        return f"{where}: line {e.lineno}: template error: {e.message}"
    frames = []
    tb = e.__traceback__
    while tb is not None:
        filename = os.path.normpath(tb.tb_frame.f_code.co_filename)
        if filename in names or filename.endswith(".j2"):
            frames.append((names.get(filename, filename), tb.tb_lineno))
        tb = tb.tb_next
    if frames:
        inner, line = frames[-1]
        where = f"{inner}: line {line}"
        outer = frames[0]
        if outer[0] != inner:
            where += f" (from {outer[0]}, line {outer[1]})"
    else:
        where = shown
    if isinstance(e, SecurityError):
        return f"{where}: not allowed in a template: {e}"
    if isinstance(e, TemplateLimit):
        return f"{where}: template stopped: {e}"
    if isinstance(e, RecursionError):
        return f"{where}: template stopped: it calls itself too deeply"
    if isinstance(e, MemoryError):
        return f"{where}: template stopped: out of memory"
    if isinstance(e, jinja2.TemplateNotFound):
        return f"{where}: template not found: {e.name}"
    if isinstance(e, jinja2.UndefinedError):
        return f"{where}: template error: {e.message}"
    return f"{where}: template error: {type(e).__name__}: {e}"

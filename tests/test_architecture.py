"""The house plan, checked: data flows one way (rules -> session -> log -> context ->
renderers), layers only look down, no two modules import each other (directly or through
others, lazy imports included), rules know nothing of words, files or terminals, and
tellers read facts, never keys or sentences.

The layers are the packages of ``storyteller/``, lowest first (a module may import its own
layer or a lower one):

0. ``core/`` (the shapes every game has, cards, randomness, words, the oracle, the
   formats), ``registry`` and each game's registration (``games/<game>/__init__.py``,
   which names its parts and loads none);
1. rules: ``games/<game>/rules.py`` and a fast inner form of them, ``core.py``;
2. players and solvers: ``games/<game>/players.py``, ``search.py``, ``solver.py``;
3. ``log/`` (events, the file, the replay, where logs live) and ``config`` (the settings);
4. ``play/``: the session, the journaling questions, the real table;
5. ``study/``: simulation, analysis, statistics;
6. ``telling/``: stories, the export context, formats, pictures, the sandbox, and each
   game's ``story.py``, ``questions.py`` and ``picture.py``;
7. ``ui/``: the terminal, the drivers, and each game's ``view.py``;
8. the commands: ``app``;
9. the command line: ``cli``, ``__main__``.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "storyteller"
GAME_DIRS = sorted(p.parent for p in (PACKAGE / "games").glob("*/__init__.py"))
RULES = sorted(p for d in GAME_DIRS for p in d.glob("*.py")
               if p.stem in ("rules", "core", "players", "search", "solver"))
TELLERS = sorted(d / "story.py" for d in GAME_DIRS) + [PACKAGE / "telling" / "meanings.py"]

LAYER_OF_GAME_PART = {"__init__": 0, "rules": 1, "core": 1, "players": 2, "search": 2, "solver": 2, "questions": 6,
                      "story": 6, "picture": 6, "view": 7}
LAYER_OF_PACKAGE = {"__init__": 0, "core": 0, "registry": 0, "games": 0, "log": 3, "config": 3, "play": 4, "study": 5,
                    "telling": 6, "ui": 7, "app": 8, "cli": 9, "__main__": 9}
LAYER_NAMES = ["core", "rules", "players/solver", "log", "play", "study", "telling", "ui", "app", "cli"]
LOOSE = {"__init__", "__main__", "cli", "app", "config", "registry"}  # the modules at the top of storyteller/


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {module_name(p): p for p in PACKAGE.rglob("*.py")}


def layer(module: str) -> int:
    parts = module.split(".")[1:]  # without "storyteller"
    if not parts:
        return 0
    if parts[0] == "games" and len(parts) >= 2:
        part = parts[2] if len(parts) > 2 else "__init__"
        assert part in LAYER_OF_GAME_PART, \
            f"{module}: a game module's name says its role ({', '.join(LAYER_OF_GAME_PART)})"
        return LAYER_OF_GAME_PART[part]
    assert parts[0] in LAYER_OF_PACKAGE, f"{module}: which layer is it in? (add it to this test)"
    return LAYER_OF_PACKAGE[parts[0]]


def _type_checking_only(tree: ast.AST) -> set[int]:
    """The ids of import nodes under ``if TYPE_CHECKING:`` (never run)."""
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for inner in node.body:
                skip |= {id(n) for n in ast.walk(inner)}
    return skip


def imports(path: Path) -> list[tuple[str, list[str], int]]:
    """(module, names, line) for every import in a file, at any depth, lazy ones included."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip = _type_checking_only(tree)
    me = module_name(path)
    package = me if path.name == "__init__.py" else me.rpartition(".")[0]
    out = []
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Import):
            out += [(a.name, [], node.lineno) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")
                up = up[: len(up) - node.level + 1]
                base = ".".join(up + ([base] if base else []))
            out.append((base, [a.name for a in node.names], node.lineno))
    return out


@cache
def graph() -> dict[str, set[tuple[str, int]]]:
    """Each module's imports of storyteller's modules (a name imported from a package that
    is a module counts as that module; importing a module runs its packages too)."""
    edges: dict[str, set[tuple[str, int]]] = {m: set() for m in MODULES}
    for me, path in MODULES.items():
        for module, names, line in imports(path):
            if not module.startswith("storyteller"):
                continue
            targets = [f"{module}.{n}" for n in names if f"{module}.{n}" in MODULES] or [module]
            for target in targets:
                parts = target.split(".")
                for i in range(2, len(parts) + 1):  # storyteller.games.adaman.rules runs storyteller.games.adaman too
                    above = ".".join(parts[:i])
                    if above in MODULES and above != me and not me.startswith(above + "."):
                        edges[me].add((above, line))
    return edges


def cycles() -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan's algorithm)."""
    edges = {m: {t for t, _ in ts} for m, ts in graph().items()}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = []
            while True:
                w = stack.pop()
                on.discard(w)
                part.append(w)
                if w == v:
                    break
            if len(part) > 1:
                found.append(sorted(part))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def test_no_module_imports_itself_through_others():
    assert cycles() == [], f"import cycles: {cycles()}"


def test_layers_only_look_down():
    wrong = []
    for me, targets in sorted(graph().items()):
        for target, line in sorted(targets):
            if layer(target) > layer(me):
                wrong.append(f"{MODULES[me].relative_to(PACKAGE.parent)}:{line} ({LAYER_NAMES[layer(me)]}) imports "
                             f"{target} ({LAYER_NAMES[layer(target)]})")
    assert not wrong, "\n".join(wrong)


def test_the_check_sees_lazy_imports_and_skips_type_checking_ones():
    """The graph is the one Python runs: an import inside a function counts."""
    drivers = {t for t, _ in graph()["storyteller.ui.drivers"]}
    assert "storyteller.play.table" in drivers  # imported inside a function
    registry = {t for t, _ in graph()["storyteller.registry"]}
    assert "storyteller.core.engine" not in registry  # only under TYPE_CHECKING


def test_every_game_is_one_package_with_parts_named_for_their_roles():
    for folder in GAME_DIRS:
        parts = {p.stem for p in folder.glob("*.py")}
        assert {"__init__", "rules", "story", "view"} <= parts, f"{folder.name}: {sorted(parts)}"
        assert parts <= set(LAYER_OF_GAME_PART), f"{folder.name}: a module whose name says no role: {sorted(parts)}"
    assert not list((PACKAGE / "games").glob("*.py"))[1:], "games/ holds only the games' packages"


@pytest.mark.parametrize("path", RULES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_rules_and_players_import_no_words_files_or_terminal(path):
    allowed = ("storyteller.core.engine", "storyteller.core.cards", "storyteller.core.decktet",
               "storyteller.core.words",
               "storyteller.core.rng", "storyteller.games")
    for module, names, line in imports(path):
        for full in [f"{module}.{n}" for n in names if f"{module}.{n}" in MODULES] or [module]:
            if full.startswith("storyteller"):
                assert full.startswith(allowed), f"{path.name}:{line} imports {full}"
        assert module.split(".")[0] not in ("rich", "questionary", "jinja2", "json", "os", "pathlib"), \
            f"{path.name}:{line} imports {module}"


@pytest.mark.parametrize("path", sorted(d / "rules.py" for d in GAME_DIRS), ids=lambda p: p.parent.name)
def test_rules_never_import_their_players_or_solver(path):
    for module, names, line in imports(path):
        parts = {module.rsplit(".", 1)[-1], *names}
        assert not parts & {"players", "search", "solver"}, f"{path.parent.name}/rules.py:{line} imports {module}"


@pytest.mark.parametrize("path", TELLERS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_tellers_use_no_private_names_and_read_no_keys(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for module, names, _ in imports(path):
        private = [n for n in names if n.startswith("_")]
        assert not private, f"{path.name} imports private names {private} from {module}"
    for node in ast.walk(tree):
        # A decision's key is the log's spelling; tellers read the typed move instead.
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
            assert node.slice.value != "action", f"{path.name}:{node.lineno} reads a decision's key"
        if isinstance(node, ast.Compare) and any(isinstance(c, ast.Constant) and isinstance(c.value, str)
                                                 and " " in c.value and c.value[0].isupper() for c in node.comparators):
            pytest.fail(f"{path.name}:{node.lineno} matches a sentence")


def test_games_are_found_only_through_their_registrations():
    """No module finds a game's parts by naming convention or probes for optional hooks."""
    for path in PACKAGE.rglob("*.py"):
        if path.name == "registry.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, (ast.Name, ast.Attribute)):
                name = node.func.id if isinstance(node.func, ast.Name) else node.func.attr
                where = f"{path.relative_to(PACKAGE)}:{node.lineno}"
                assert name != "import_module", f"{where} imports a module by name"
                assert not ((name in ("getattr", "hasattr") and len(node.args) != 2) or name == "hasattr"), \
                    f"{where} probes for an optional attribute"


def test_the_top_of_the_package_shows_the_layers():
    """A newcomer sees the layers from the folder listing: a few modules at the top, the
    rest in packages, each saying in its first sentence what it holds."""
    loose = {p.stem for p in PACKAGE.glob("*.py")}
    assert loose == LOOSE, f"modules at the top of storyteller/: {sorted(loose)}"
    assert len(loose) <= 8
    for folder in sorted(p.parent for p in PACKAGE.glob("*/__init__.py")):
        text = (folder / "__init__.py").read_text(encoding="utf-8")
        doc = ast.get_docstring(ast.parse(text))
        assert doc and doc.split(".")[0].strip(), f"{folder.name}/__init__.py says nothing of what the package holds"
        assert folder.name in LAYER_OF_PACKAGE, f"{folder.name}/: which layer is it? (add it to this test)"


# -- one event model: events are typed, and every reader thinks about every type --------------

EVENT_KINDS = {"draw", "roll", "decision", "question", "journal", "oracle", "undo", "correction", "end"}
# The modules that may compare a string with an event kind's name: the event model itself
# (where a log's "event" field is read and written), and the templates' filters, which group
# the steps of the export context (JSON, whose "kind" fields are that context's own data).
SPELLS_EVENT_KINDS = {"storyteller.log.events", "storyteller.telling.filters"}


def _strings(node: ast.AST) -> set[str]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return {node.value}
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return set().union(*(_strings(e) for e in node.elts)) if node.elts else set()
    return set()


def test_no_module_dispatches_on_an_event_kinds_name():
    """Readers dispatch on an event's type (a visitor's method, isinstance), never on a string."""
    found = {}
    for name, path in sorted(MODULES.items()):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Compare) and any(_strings(c) & EVENT_KINDS for c in [node.left, *node.comparators]):
                found.setdefault(name, []).append(f"{path.name}:{node.lineno}: {ast.unparse(node)}")
    outside = {m: lines for m, lines in found.items() if m not in SPELLS_EVENT_KINDS}
    assert not outside, "\n".join(line for lines in outside.values() for line in lines)
    assert len(found) <= 2


def _all_modules() -> None:
    import importlib

    for name in MODULES:
        if not name.endswith("__main__"):
            importlib.import_module(name)


def _subclasses(cls: type) -> list[type]:
    out = []
    for sub in cls.__subclasses__():
        out += [sub, *_subclasses(sub)]
    return out


def test_every_type_of_event_is_in_the_model_and_has_its_visitor_method():
    from storyteller.log import events

    assert set(_subclasses(events.Event)) == set(events.EVENTS)
    assert set(events.Visitor.HANDLERS) == set(events.EVENTS)
    assert {t.kind for t in events.EVENTS} == EVENT_KINDS
    for t in events.EVENTS:
        assert "accept" in vars(t), f"{t.__name__} does not say which visitor method it calls"
        assert callable(getattr(events.Visitor, events.Visitor.HANDLERS[t]))


def test_every_reader_handles_or_ignores_every_type_of_event():
    """A new type of event is handled or explicitly ignored by each visitor: the readers of a
    log (the story, the playthrough's steps, the questions, the notes, replay --show) cannot
    forget it, as Cascades' teller once forgot the oracle."""
    from storyteller.log import events

    _all_modules()
    readers = [c for c in _subclasses(events.Visitor) if c.__module__.startswith("storyteller") and not c.abstract]
    names = {c.__name__ for c in readers}
    assert {"Story", "Steps", "QuestionLog", "PromptNotes", "ReplayView"} <= names, names
    for reader in readers:
        assert events.unhandled(reader) == [], f"{reader.__qualname__} forgets {events.unhandled(reader)}"
        both = [t.__name__ for t in reader.ignores if events.handles(reader, t)]
        assert not both, f"{reader.__qualname__} both handles and ignores {both}"


def test_a_reader_that_forgets_a_type_of_event_cannot_be_made():
    from storyteller.log import events

    with pytest.raises(TypeError, match="neither handles nor ignores OracleQuestion"):
        type("Forgetful", (events.Visitor,), {
            "on_draw": lambda self, s: None, "on_roll": lambda self, s: None, "on_decision": lambda self, s: None,
            "on_question": lambda self, s: None, "on_journal": lambda self, s: None, "on_undo": lambda self, s: None,
            "on_correction": lambda self, s: None, "on_end": lambda self, s: None,
        })
    ignoring = type("Ignoring", (events.Visitor,), {"ignores": tuple(events.EVENTS)})
    assert events.unhandled(ignoring) == []


# -- formats are objects: one description each, and nobody branches on a format's name -------


def test_no_module_branches_on_a_formats_name():
    """The export command, the vault, the settings and completion ask a format what it takes
    (storyteller.core.formats); only that description names the formats."""
    from storyteller.core.formats import FORMATS

    found = []
    for name, path in sorted(MODULES.items()):
        if name == "storyteller.core.formats":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            compared = [node.left, *node.comparators] if isinstance(node, ast.Compare) else []
            if any(_strings(c) & set(FORMATS) for c in compared):
                found.append(f"{path.name}:{node.lineno}: {ast.unparse(node)}")
            if isinstance(node, ast.Subscript) and _strings(node.slice) & set(FORMATS):
                found.append(f"{path.name}:{node.lineno}: {ast.unparse(node)}")
    assert not found, "\n".join(found)


def test_every_format_has_a_renderer_made_from_its_description():
    from storyteller.core.formats import FORMATS
    from storyteller.telling.export import RENDERERS

    assert set(RENDERERS) == set(FORMATS)
    for name, fmt in FORMATS.items():
        assert RENDERERS[name].format is fmt and RENDERERS[name].kinds == fmt.kinds

"""The house plan, checked: data flows one way (rules -> session -> log -> context ->
renderers), rules know nothing of words, files or terminals, and tellers read facts,
never keys or sentences."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "storyteller"
GAMES = sorted((PACKAGE / "games").glob("*.py"))
TELLERS = sorted(p for p in (PACKAGE / "stories").glob("*.py") if p.name != "__init__.py")


def imports(path: Path) -> list[tuple[str, list[str]]]:
    """(module, names) for every import in a file, at any depth."""
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out += [(a.name, []) for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module == "storyteller":
            out += [(f"storyteller.{a.name}", []) for a in node.names]  # from storyteller import decktet
        elif isinstance(node, ast.ImportFrom):
            out.append((node.module or "", [a.name for a in node.names]))
    return out


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.name)
def test_rules_import_no_words_files_or_terminal(path):
    allowed = ("storyteller.engine", "storyteller.cards", "storyteller.decktet", "storyteller.words", "storyteller.rng", "storyteller.games")
    for module, _ in imports(path):
        if module.startswith("storyteller"):
            assert module.startswith(allowed), f"{path.name} imports {module}"
        assert module.split(".")[0] not in ("rich", "questionary", "jinja2", "json", "os", "pathlib"), f"{path.name} imports {module}"


@pytest.mark.parametrize("path", TELLERS, ids=lambda p: p.name)
def test_tellers_use_no_private_names_and_read_no_keys(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for module, names in imports(path):
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
                assert not (name in ("getattr", "hasattr") and len(node.args) != 2 or name == "hasattr"), \
                    f"{where} probes for an optional attribute"

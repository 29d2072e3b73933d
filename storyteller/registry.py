"""The games storyteller knows, found the way pytest finds plugins: each game registers
once, in the ``storyteller.games`` entry-point group, as one :class:`Registration` that
names everything the game is made of (its rules, its built-in players and solver, its
teller, its terminal view, its prompts, its rules text and its templates). The four
built-in games register themselves in ``pyproject.toml`` exactly as a package of someone
else's would, each from its own package::

    [project.entry-points."storyteller.games"]
    carddom = "storyteller.games.carddom:GAME"

Parts may be given as objects or as ``"module:attribute"`` strings, loaded on first use,
so listing the games never imports the terminal or the templates. The registration is
what binds a game's parts together: the rules know nothing of their players or their
solver, which import the rules.
"""

from __future__ import annotations

import importlib
import json
from functools import cached_property, cache
from importlib import metadata
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from storyteller.core.engine import Game, Policy, Solver
    from storyteller.telling.stories import Teller
    from storyteller.ui.view import View

GROUP = "storyteller.games"


class RegistryError(LookupError):
    """An unknown game, or a game whose registration is broken; the message says which."""


def _load(ref: Any) -> Any:
    if not isinstance(ref, str):
        return ref
    module, _, attr = ref.partition(":")
    obj: Any = importlib.import_module(module)
    for part in attr.split(".") if attr else ():
        obj = getattr(obj, part)
    return obj


class Registration:
    """Everything one game is made of.

    - ``rules``: a :class:`storyteller.core.engine.Game` (pure rules, no I/O);
    - ``players``: the game's built-in players by name (``{"greedy": ..., "search": ...}``),
      each a class or a function that makes a new :class:`storyteller.core.engine.Policy` for
      one game; ``hint`` names the one behind *Hint* (the strongest that answers within a
      second; default ``greedy``);
    - ``solver``: a class or function that makes a new :class:`storyteller.core.engine.Solver`;
    - ``questions``: a :class:`storyteller.play.questions.Questions` class, made with this
      registration (which role each step gives its cards, the question it raises), and
      ``question_bank``: a JSON file of questions for every card in every role (see
      :mod:`storyteller.play.questions`); without them the prompts' ``questions`` are asked;
    - ``pictures``: a module that draws the table as SVG (``storyteller.games.carddom.picture``);
    - ``teller``: a :class:`storyteller.telling.stories.Teller` class, made with this registration;
    - ``view``: a :class:`storyteller.ui.view.View` class (the table and the move menu);
    - ``prompts``: a JSON file (what the cards mean, journaling questions, story words);
    - ``rules_text``: a Markdown file explaining the rules in the project's own words;
    - ``templates``: a folder holding ``story.md.j2`` and ``playthrough.md.j2``.
    """

    def __init__(
        self,
        name: str,
        rules: Any,
        teller: Any,
        view: Any,
        prompts: str | Path,
        rules_text: str | Path,
        templates: str | Path,
        players: dict[str, Any] | None = None,
        solver: Any = None,
        questions: Any = None,
        question_bank: str | Path | None = None,
        pictures: Any = None,
        hint: str = "greedy",
    ) -> None:
        self.name = name
        self._hint = hint
        self._refs = {"rules": rules, "teller": teller, "view": view, "questions": questions, "pictures": pictures}
        self.question_bank = Path(question_bank) if question_bank is not None else None
        self._players = dict(players or {})
        self._solver = solver
        self.prompts = Path(prompts)
        self.rules_text = Path(rules_text)
        self.templates = Path(templates)

    def __repr__(self) -> str:
        return f"Registration({self.name!r})"

    @cached_property
    def rules(self) -> Game:
        rules = _load(self._refs["rules"])
        if getattr(rules, "name", None) != self.name:
            raise RegistryError(f"the game registered as '{self.name}' calls itself '{getattr(rules, 'name', '?')}'")
        return rules

    # -- the built-in players and the solver ------------------------------------------

    @property
    def policies(self) -> tuple[str, ...]:
        """The names of the game's built-in players (none is loaded)."""
        return tuple(self._players)

    @property
    def hint_player(self) -> str | None:
        """The name of the player behind *Hint*, or None if the game has none."""
        if self._hint in self._players:
            return self._hint
        return "greedy" if "greedy" in self._players else None

    @property
    def has_policy(self) -> bool:
        """Whether the game has the player behind *Hint* (``greedy``)."""
        return "greedy" in self._players

    def policy(self, name: str = "greedy") -> Policy | None:
        """A new built-in player for one game, or None if the game has none of that name."""
        ref = self._players.get(name)
        return _load(ref)() if ref is not None else None

    @property
    def has_solver(self) -> bool:
        return self._solver is not None

    def solver(self) -> Solver | None:
        """A new solver for deals with every card known, or None if the game has none."""
        return _load(self._solver)() if self._solver is not None else None

    @cached_property
    def teller(self) -> Teller:
        return _load(self._refs["teller"])(self)

    @cached_property
    def questions(self) -> Any:
        """The game's journaling questions (a :class:`storyteller.play.questions.Questions`)."""
        ref = self._refs["questions"] or "storyteller.play.questions:Questions"  # the prompts' questions, by topic
        return _load(ref)(self)

    @cached_property
    def pictures(self) -> Any:
        """The module that draws the game's table (``cover(state, steps, prefix, seed)``,
        ``moments(steps)`` and ``scene(state, steps, prefix, seed)``, see
        :func:`storyteller.telling.export.pictures`), or None if it draws none."""
        ref = self._refs["pictures"]
        return _load(ref) if ref is not None else None

    @cached_property
    def view(self) -> View:
        return _load(self._refs["view"])(self)

    @cached_property
    def prompt_data(self) -> dict[str, Any]:
        return json.loads(self.prompts.read_text(encoding="utf-8"))

    def rules_markdown(self) -> str:
        return self.rules_text.read_text(encoding="utf-8")

    def template(self, kind: str, suffix: str = ".md.j2") -> Path:
        return self.templates / f"{kind}{suffix}"

    def problems(self) -> list[str]:
        """What is missing from this registration (empty when the game is whole)."""
        out = []
        files = [("prompts", self.prompts), ("rules text", self.rules_text)]
        if self.question_bank is not None:
            files.append(("questions", self.question_bank))
        for what, path in files:
            if not path.is_file():
                out.append(f"its {what} file {path} is missing")
        for kind in ("story", "playthrough"):
            if not self.template(kind).is_file():
                out.append(f"its {kind} template {self.template(kind)} is missing")
        return out


def _entry_points() -> list[metadata.EntryPoint]:
    seen: dict[str, metadata.EntryPoint] = {}
    for ep in metadata.entry_points(group=GROUP):
        seen.setdefault(ep.name, ep)  # the first on the path wins, as for any import
    return list(seen.values())


@cache
def names() -> tuple[str, ...]:
    """Every registered game's name, without loading any of them."""
    return tuple(ep.name for ep in _entry_points())


@cache
def get(name: str) -> Registration:
    key = name.strip().lower()
    for ep in _entry_points():
        if ep.name == key:
            try:
                reg = ep.load()
            except Exception as e:  # someone else's package: say which game broke, and how
                raise RegistryError(f"the game '{key}' cannot be loaded ({type(e).__name__}: {e})") from None
            if not isinstance(reg, Registration) or reg.name != key:
                raise RegistryError(f"the entry point '{key}' ({ep.value}) "
                                    f"is not the Registration of a game named '{key}'")
            return reg
    known = ", ".join(names()) or "none: reinstall storyteller"
    raise RegistryError(f"unknown game '{name}' (games: {known})")


def rules(name: str) -> Game:
    """The rules of a registered game."""
    reg = get(name)
    try:
        return reg.rules
    except RegistryError:
        raise
    except Exception as e:
        raise RegistryError(f"the rules of the game '{reg.name}' cannot be loaded ({type(e).__name__}: {e})") from None


def refresh() -> None:
    """Forget what was found (after a package was installed, or in tests)."""
    names.cache_clear()
    get.cache_clear()

"""The four games that come with storyteller, registered as any other package's game
would be (see ``[project.entry-points."storyteller.games"]`` in ``pyproject.toml``).

The built-in games keep their parts in the same places (``games/``, ``stories/``, ``ui/``,
``prompts/``, ``templates/``), so one helper spells their registrations; a game of
another package names its own parts wherever they are.
"""

from __future__ import annotations

from storyteller.narrative import data_dir
from storyteller.registry import Registration


def _builtin(name: str, title: str) -> Registration:
    prompts, templates = data_dir("prompts"), data_dir("templates")
    return Registration(
        name,
        rules=f"storyteller.games.{name}:GAME",
        teller=f"storyteller.stories.{name}:{title}Teller",
        view=f"storyteller.ui.{name}:{title}View",
        prompts=prompts / f"{name}.json",
        rules_text=prompts / f"{name}.rules.md",
        templates=templates / name,
    )


CARDDOM = _builtin("carddom", "Carddom")
ADAMAN = _builtin("adaman", "Adaman")
CASCADES = _builtin("cascades", "Cascades")
HEXARACT = _builtin("hexaract", "Hexaract")

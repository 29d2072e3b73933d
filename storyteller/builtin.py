"""The four games that come with storyteller, registered as any other package's game
would be (see ``[project.entry-points."storyteller.games"]`` in ``pyproject.toml``)."""

from __future__ import annotations

from storyteller.narrative import data_dir
from storyteller.registry import Registration

_PROMPTS = data_dir("prompts")
_TEMPLATES = data_dir("templates")

CARDDOM = Registration(
    "carddom",
    rules="storyteller.games.carddom:GAME",
    teller="storyteller.stories.carddom:CarddomTeller",
    view="storyteller.ui.carddom:CarddomView",
    prompts=_PROMPTS / "carddom.json",
    rules_text=_PROMPTS / "carddom.rules.md",
    templates=_TEMPLATES / "carddom",
)

ADAMAN = Registration(
    "adaman",
    rules="storyteller.games.adaman:GAME",
    teller="storyteller.stories.adaman:AdamanTeller",
    view="storyteller.ui.adaman:AdamanView",
    prompts=_PROMPTS / "adaman.json",
    rules_text=_PROMPTS / "adaman.rules.md",
    templates=_TEMPLATES / "adaman",
)

CASCADES = Registration(
    "cascades",
    rules="storyteller.games.cascades:GAME",
    teller="storyteller.stories.cascades:CascadesTeller",
    view="storyteller.ui.cascades:CascadesView",
    prompts=_PROMPTS / "cascades.json",
    rules_text=_PROMPTS / "cascades.rules.md",
    templates=_TEMPLATES / "cascades",
)

HEXARACT = Registration(
    "hexaract",
    rules="storyteller.games.hexaract:GAME",
    teller="storyteller.stories.hexaract:HexaractTeller",
    view="storyteller.ui.hexaract:HexaractView",
    prompts=_PROMPTS / "hexaract.json",
    rules_text=_PROMPTS / "hexaract.rules.md",
    templates=_TEMPLATES / "hexaract",
)

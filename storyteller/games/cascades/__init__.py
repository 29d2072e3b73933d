"""Cascades: Water finding its way down three falls, for the Decktet.

Its registration, found through the ``storyteller.games`` entry point in
``pyproject.toml``. Each part is named here and loaded when first used.
"""

from storyteller.core.narrative import data_dir
from storyteller.registry import Registration

GAME = Registration(
    "cascades",
    rules="storyteller.games.cascades.rules:GAME",
    players={
        "greedy": "storyteller.games.cascades.players:CascadesGreedy",
    },
    solver="storyteller.games.cascades.solver:CascadesSolver",
    teller="storyteller.games.cascades.story:CascadesTeller",
    view="storyteller.games.cascades.view:CascadesView",
    questions="storyteller.games.cascades.questions:CascadesQuestions",
    question_bank=data_dir("prompts") / "cascades.questions.json",
    pictures="storyteller.games.cascades.picture",
    prompts=data_dir("prompts") / "cascades.json",
    rules_text=data_dir("prompts") / "cascades.rules.md",
    templates=data_dir("templates") / "cascades",
)

"""Carddom: A journey through a realm of eight stacks to face its overlord.

Its registration, found through the ``storyteller.games`` entry point in
``pyproject.toml``. Each part is named here and loaded when first used.
"""

from storyteller.core.narrative import data_dir
from storyteller.registry import Registration

GAME = Registration(
    "carddom",
    rules="storyteller.games.carddom.rules:GAME",
    players={
        "greedy": "storyteller.games.carddom.players:CarddomGreedy",
    },
    solver="storyteller.games.carddom.solver:CarddomSolver",
    teller="storyteller.games.carddom.story:CarddomTeller",
    view="storyteller.games.carddom.view:CarddomView",
    questions="storyteller.games.carddom.questions:CarddomQuestions",
    question_bank=data_dir("prompts") / "carddom.questions.json",
    pictures="storyteller.games.carddom.picture",
    prompts=data_dir("prompts") / "carddom.json",
    rules_text=data_dir("prompts") / "carddom.rules.md",
    templates=data_dir("templates") / "carddom",
)

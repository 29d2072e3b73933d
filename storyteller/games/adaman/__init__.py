"""Adaman: The heir's conspiracy at court, for the Decktet.

Its registration, found through the ``storyteller.games`` entry point in
``pyproject.toml``. Each part is named here and loaded when first used.
"""

from storyteller.core.narrative import data_dir
from storyteller.registry import Registration

GAME = Registration(
    "adaman",
    rules="storyteller.games.adaman.rules:GAME",
    players={
        "greedy": "storyteller.games.adaman.players:AdamanGreedy",
        "search": "storyteller.games.adaman.search:AdamanSearch",
    },
    hint="search",  # the strongest player that answers within a second (tests/benchmark.py decisions)
    solver="storyteller.games.adaman.solver:AdamanSolver",
    teller="storyteller.games.adaman.story:AdamanTeller",
    view="storyteller.games.adaman.view:AdamanView",
    questions="storyteller.games.adaman.questions:AdamanQuestions",
    question_bank=data_dir("prompts") / "adaman.questions.json",
    pictures="storyteller.games.adaman.picture",
    prompts=data_dir("prompts") / "adaman.json",
    rules_text=data_dir("prompts") / "adaman.rules.md",
    templates=data_dir("templates") / "adaman",
)

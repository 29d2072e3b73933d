"""Hexaract: An adventurer's road, for the Decktet and five dice.

Its registration, found through the ``storyteller.games`` entry point in
``pyproject.toml``. Each part is named here and loaded when first used.
"""

from storyteller.core.narrative import data_dir
from storyteller.registry import Registration

GAME = Registration(
    "hexaract",
    rules="storyteller.games.hexaract.rules:GAME",
    players={
        "greedy": "storyteller.games.hexaract.players:HexaractGreedy",
        "search": "storyteller.games.hexaract.search:HexaractSearch",
    },
    hint="search",  # the strongest player that answers within a second (tests/benchmark.py decisions)
    solver="storyteller.games.hexaract.solver:HexaractSolver",
    teller="storyteller.games.hexaract.story:HexaractTeller",
    view="storyteller.games.hexaract.view:HexaractView",
    questions="storyteller.games.hexaract.questions:HexaractQuestions",
    question_bank=data_dir("prompts") / "hexaract.questions.json",
    pictures="storyteller.games.hexaract.picture",
    prompts=data_dir("prompts") / "hexaract.json",
    rules_text=data_dir("prompts") / "hexaract.rules.md",
    templates=data_dir("templates") / "hexaract",
)

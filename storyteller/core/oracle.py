"""Ask the oracle: a yes/no question about the story, answered by a d100 against the odds
the player chooses, with a spark to interpret. It never touches the game: its rolls come
from a stream of their own (the game's seed and the question's place in the log), never
from the cards or dice the game deals, so a game deals the same with or without it.

The odds (as Ironsworn gives them): ``almost-certain`` 90, ``likely`` 75, ``even`` 50,
``unlikely`` 25, ``small-chance`` 10. A roll at or under the odds is a yes, over them a no;
the extreme rolls say more:

- a yes in the lowest fifth of the yes rolls is **yes, and** (more than you asked);
- a yes within 5 under the odds is **yes, but** (with a cost or a catch);
- a no in the highest fifth of the no rolls is **no, and** (worse than no);
- a no within 5 over the odds is **no, but** (something else instead).

The spark is one card of a separate oracle deck, the Decktet's 44 cards (not the Excuse),
drawn for each question from its own stream: its name and its keywords are the spark.
"""

from __future__ import annotations


from storyteller.core.rng import Stream

ODDS = {"almost-certain": 90, "likely": 75, "even": 50, "unlikely": 25, "small-chance": 10}
ODDS_WORDS = {"almost-certain": "almost certain", "likely": "likely", "even": "50/50", "unlikely": "unlikely",
              "small-chance": "a small chance"}
ANSWER_WORDS = {
    "yes-and": "Yes, and more than you asked.",
    "yes": "Yes.",
    "yes-but": "Yes, but at a cost.",
    "no-but": "No, but something else instead.",
    "no": "No.",
    "no-and": "No, and worse than no.",
}


def roll(seed: str, n: int) -> int:
    """The d100 for the oracle question at event ``n`` of a seeded game."""
    return Stream(seed, "oracle", str(n)).die(100)


def answer(odds: str, d100: int) -> str:
    """The answer a roll of ``d100`` gives at these odds (a key of :data:`ANSWER_WORDS`)."""
    t = ODDS[odds]
    if d100 <= t:
        if d100 <= max(1, t // 5):
            return "yes-and"
        return "yes-but" if d100 > t - 5 else "yes"
    if d100 > 100 - max(1, (100 - t) // 5):
        return "no-and"
    return "no-but" if d100 <= t + 5 else "no"


def deck() -> list[str]:
    from storyteller.core.cards import decktet_cards

    return [c.id for c in decktet_cards() if c.id != "excuse"]


def spark(seed: str, n: int) -> str:
    """The card of the oracle deck drawn for the question at event ``n``."""
    return Stream(seed, "oracle spark", str(n)).choice(deck())


def check(seed: str, n: int, odds: str, d100: int, given: str, sparked: str, by_player: bool) -> str | None:
    """Why the oracle question at event ``n`` is not what the oracle says for it (None when it
    is): its odds, its answer for its roll, its spark, and, unless the player rolled it at a
    real table (``by_player``), its roll."""
    if odds not in ODDS:
        return f"the oracle's odds '{odds}' are not one of: {', '.join(ODDS)}"
    if not by_player and d100 != roll(seed, n):
        return f"the oracle rolled {d100}, but the seed rolls {roll(seed, n)} for it"
    expected = answer(odds, d100)
    if given != expected:
        return f"the oracle's answer to a roll of {d100} at {odds} odds is '{expected}', not '{given}'"
    if sparked != spark(seed, n):
        return f"the oracle's spark is '{spark(seed, n)}' for this question, not '{sparked}'"
    return None

"""Adaman told as the heir's conspiracy: who sat at court and in the capital, who was
bought, tricked or eliminated with what, and how close the court came to finding out."""

from __future__ import annotations

from typing import Any

from storyteller import decktet
from storyteller.games.adaman import COURT_LIMIT, EXCUSE, PERSON, RANK, _parse_control
from storyteller.log import GameLog
from storyteller.narrative import pick, prompts
from storyteller.narrative import question as ask

GAME = "adaman"


def _p() -> dict[str, Any]:
    return prompts(GAME)


def _cap(text: str) -> str:
    return text[0].upper() + text[1:] if text else text


def where_to(event: dict[str, Any]) -> str:
    """Where a dealt card really went: a personality dealt to the resources goes to court."""
    card_id, to = event["card"], event["to"]
    if card_id == EXCUSE:
        return "excuse"
    if to == "resources" and PERSON[card_id]:
        return "court"
    return to


def draw_text(event: dict[str, Any]) -> str:
    place = where_to(event)
    label = decktet.label(event["card"])
    if place == "excuse":
        return f"Dealt the Excuse to the {event['to']}."
    if place == "court":
        return f"Dealt {label}, a personality: it goes to the court."
    if place == "capital":
        return f"Dealt {label} to the capital."
    return f"Dealt {label} to the resources."


def meaning(event: dict[str, Any], seed: str, variants: dict[str, str] | None = None) -> str:
    card_id = event["card"]
    place = where_to(event)
    if place == "excuse":
        if event["to"] == "capital":
            return "The Excuse: one of your resources must move into the capital."
        return "The Excuse: one capital card must move into your resources."
    text = decktet.meaning(card_id)
    if place == "court":
        return f"At court: {text}"
    if PERSON[card_id]:
        return f"In the capital: {text}"
    return text


def topic(event: dict[str, Any]) -> str | None:
    place = where_to(event)
    if place == "excuse":
        return "excuse"
    if place == "court":
        return "court"
    if place == "capital" and PERSON[event["card"]]:
        return "capital"
    return None


def question(event: dict[str, Any], seed: str) -> str | None:
    """Personalities and the Excuse raise a question; ordinary cards pass quietly."""
    t = topic(event)
    return ask(GAME, t, seed, event["n"]) if t else None


def _verb(paid: list[str], seed: str, n: int) -> str:
    """Bought with places, tricked with events, eliminated with raw force (an Ace)."""
    cards = [decktet.get(c) for c in paid]
    if any(c.rank == "Ace" for c in cards):
        return "eliminated"
    events = sum("event" in c.types for c in cards)
    places = sum("location" in c.types for c in cards)
    if events > places:
        return "tricked"
    if places > events:
        return "bought"
    return pick(["bought", "tricked"], seed, "verb", n)


def story(log: GameLog, steps: list, outcome) -> dict[str, Any]:
    seed = log.seed
    p = _p()
    setup = {"capital": [], "court": [], "resources": []}
    acts: list[dict[str, Any]] = []
    opening_journal: list[str] = []
    epilogue: list[str] = []
    in_setup = True
    ended = False
    at_court: set[str] = set()
    closest = 0
    plays = 0
    people_total = sum(1 for c in _deck_of(log) if PERSON[c])
    controlled: list[str] = []

    def say(text: str, **extra: Any) -> None:
        acts.append({"kind": "text", "text": text, **extra})

    for step in steps:
        e = step.event
        kind = e["event"]
        if kind == "journal":
            if ended:
                epilogue.append(e["text"])
            elif in_setup:
                opening_journal.append(e["text"])
            else:
                acts.append({"kind": "journal", "text": e["text"]})
            continue
        if kind == "end":
            ended = True
            continue
        if step.undone:
            continue
        if kind == "draw":
            place = where_to(e)
            card_id = e["card"]
            if place == "excuse":
                if not in_setup:
                    say(f"The Excuse turned up in the {e['to']}, and upset the careful order of things.")
                continue
            if place == "court":
                at_court.add(card_id)
            if in_setup:
                setup[place].append(card_id)
            elif place == "court":
                say(pick(p["arrival"], seed, e["n"]).format(name=decktet.name(card_id), Name=decktet.Name(card_id))
                    + f" {decktet.meaning(card_id)}")
                if str(len(at_court)) in p["tension"] and len(at_court) > closest:
                    say(p["tension"][str(len(at_court))])
            closest = max(closest, len(at_court))
        elif kind == "decision":
            key = e["action"]
            if key.startswith("move "):
                parts = key.split()
                card_id, dest = parts[1], parts[-1]
                if dest == "court":
                    at_court.add(card_id)
                    closest = max(closest, len(at_court))
                say(f"Thanks to the Excuse, {decktet.name(card_id)} moved to the {dest}.")
                continue
            in_setup = False
            target, paid = _parse_control(key)
            plays += 1
            if PERSON.get(target):
                controlled.append(target)
                verb = _verb(paid, seed, e["n"])
                lead = pick(p["verbs"][verb], seed, e["n"]).format(
                    target=decktet.name(target), Target=decktet.Name(target)
                )
                left = people_total - len(controlled)
                tail = (
                    "Only one personality still stands in your way." if left == 1
                    else f"{left} personalities still stand in your way." if left else ""
                )
                say(f"{lead}, spending {decktet.names(paid)}. {tail}".strip(), verb=verb, target=target)
            else:
                say(pick(p["gained"], seed, e["n"]).format(target=decktet.name(target), Target=decktet.Name(target))
                    + f" It cost {decktet.names(paid)}.")
            at_court.discard(target)  # a personality leaving the court eases the pressure
    return {
        "setup": {k: [decktet.info(c) for c in v] for k, v in setup.items()},
        "opening_journal": opening_journal,
        "acts": _paragraphs(acts),
        "closest": closest,
        "court_limit": COURT_LIMIT,
        "controlled": [{"name": decktet.name(c), "rank": RANK[c]} for c in controlled],
        "plays": plays,
        "ending": p["endings"].get(outcome.result if outcome else "unfinished", ""),
        "epilogue": epilogue,
        "people_total": people_total,
    }


def _deck_of(log: GameLog) -> list[str]:
    from storyteller.engine import get_game

    game = get_game(GAME)
    return game.deck(game.validate_variants(log.variants))


def _paragraphs(acts: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for a in acts:
        if a["kind"] == "text" and out and out[-1]["kind"] == "text" and not a.get("verb") and not out[-1].get("verb"):
            out[-1] = {"kind": "text", "text": out[-1]["text"] + " " + a["text"]}
        else:
            out.append(a)
    return out


def title(story: dict[str, Any]) -> str:
    return "The heir's conspiracy"

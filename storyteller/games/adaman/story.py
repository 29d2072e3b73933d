"""Adaman told as the heir's conspiracy: who sat at court and in the capital, who was
bought, tricked or eliminated with what, and how close the court came to finding out."""

from __future__ import annotations

from typing import Any

from storyteller import decktet
from storyteller.games.adaman.rules import COURT_LIMIT, PERSON, RANK, Control, Shift, landing
from storyteller.narrative import pick
from storyteller.stories import Tale, Teller
from storyteller.stories.decktet import info, meaning as card_meaning


def _landing(event: dict[str, Any]) -> str:
    """Where a dealt card really went ("capital", "resources", "court" or "excuse")."""
    return landing(event["card"], event["to"])


def _verb(paid: tuple[str, ...], seed: str, n: int) -> str:
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


class AdamanTale(Tale):
    """How things stood after the setup (the first deal), then the plot: each arrival at
    court, each play and each move of the Excuse, with the journal entries between them."""

    def __init__(self, teller: "AdamanTeller", seed: str, walk) -> None:
        super().__init__(teller, seed, walk)
        self.setup: dict[str, list[str]] = {"capital": [], "court": [], "resources": []}
        self.acts: list[dict[str, Any]] = []
        self.in_setup = True  # until the first play
        self.at_court: set[str] = set()
        self.closest = 0  # the most personalities at court at once
        self.plays = 0
        self.people_total = len(walk.state.personalities())
        self.controlled: list[str] = []

    @property
    def begun(self) -> bool:
        return not self.in_setup

    def say(self, text: str, **extra: Any) -> None:
        self.acts.append({"kind": "text", "text": text, **extra})

    def journal(self, step) -> None:
        self.acts.append({"kind": "journal", "text": step.event["text"]})

    def draw(self, step) -> None:
        e, p = step.event, self.p
        card_id = e["card"]
        place = _landing(e)
        if place == "excuse":
            if not self.in_setup:
                self.say(f"The Excuse turned up in the {e['to']}, and upset the careful order of things.")
            return
        if place == "court":
            self.at_court.add(card_id)
        if self.in_setup:
            self.setup[place].append(card_id)
        elif place == "court":
            arrival = pick(p["arrival"], self.seed, e["n"])
            named = arrival.format(name=decktet.name(card_id), Name=decktet.Name(card_id))
            self.say(f"{named} {card_meaning(card_id)}")
            crowd = len(self.at_court)
            if str(crowd) in p["tension"] and crowd > self.closest:
                self.say(p["tension"][str(crowd)])
        self.closest = max(self.closest, len(self.at_court))

    def decision(self, step) -> None:
        move, n, p = step.move, step.n, self.p
        if isinstance(move, Shift):
            if move.to == "court":
                self.at_court.add(move.card)
                self.closest = max(self.closest, len(self.at_court))
            self.say(f"Thanks to the Excuse, {decktet.name(move.card)} moved to the {move.to}.")
            return
        assert isinstance(move, Control)
        self.in_setup = False
        target, paid = move.target, move.paid
        self.plays += 1
        if PERSON[target]:
            self.controlled.append(target)
            verb = _verb(paid, self.seed, n)
            lead = pick(p["verbs"][verb], self.seed, n).format(target=decktet.name(target), Target=decktet.Name(target))
            left = self.people_total - len(self.controlled)
            tail = (
                "Only one personality still stands in your way." if left == 1
                else f"{left} personalities still stand in your way." if left else ""
            )
            self.say(f"{lead}, spending {decktet.names(paid)}. {tail}".strip(), verb=verb, target=target)
        else:
            gained = pick(p["gained"], self.seed, n).format(target=decktet.name(target), Target=decktet.Name(target))
            self.say(gained + f" It cost {decktet.names(paid)}.")
        self.at_court.discard(target)  # a personality leaving the court eases the pressure

    def finish(self) -> dict[str, Any]:
        outcome = self.outcome
        return {
            "setup": {k: [info(c) for c in v] for k, v in self.setup.items()},
            "acts": _paragraphs(self.acts),
            "closest": self.closest,
            "court_limit": COURT_LIMIT,
            "controlled": [{"name": decktet.name(c), "rank": RANK[c]} for c in self.controlled],
            "plays": self.plays,
            "ending": self.p["endings"].get(outcome.result if outcome else "unfinished", ""),
            "people_total": self.people_total,
        }


def _paragraphs(acts: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Run narration together into paragraphs; each play on a personality stands alone."""
    out: list[dict[str, Any]] = []
    for a in acts:
        if a["kind"] == "text" and out and out[-1]["kind"] == "text" and not a.get("verb") and not out[-1].get("verb"):
            out[-1] = {"kind": "text", "text": out[-1]["text"] + " " + a["text"]}
        else:
            out.append(a)
    return out


class AdamanTeller(Teller):
    tale = AdamanTale

    def moment(self, request: Any, state: Any) -> str | None:
        # After a play the capital, then the resources, are dealt back up to five.
        return "refill" if state.plays > 0 else None

    def draw_text(self, event: dict[str, Any]) -> str:
        place = _landing(event)
        if place == "excuse":
            return f"Dealt the Excuse to the {event['to']}."
        went = ", a personality: it goes to the court" if place == "court" else f" to the {place}"
        return f"Dealt {decktet.label(event['card'])}{went}."

    def meaning(self, event: dict[str, Any], seed: str, variants: dict[str, str]) -> str:
        card_id = event["card"]
        place = _landing(event)
        if place == "excuse":
            if event["to"] == "capital":
                return "The Excuse: one of your resources must move into the capital."
            return "The Excuse: one capital card must move into your resources."
        text = card_meaning(card_id)
        if place == "court":
            return f"At court: {text}"
        if PERSON[card_id]:
            return f"In the capital: {text}"
        return text

    def topic(self, event: dict[str, Any]) -> str | None:
        """Personalities and the Excuse raise a question; ordinary cards pass quietly."""
        place = _landing(event)
        if place in ("excuse", "court"):
            return place
        if place == "capital" and PERSON[event["card"]]:
            return "capital"
        return None

    def key_moment(self, event: dict[str, Any]) -> bool:
        """The turning points: a personality arriving at court, and the Excuse (the
        personalities dealt to the capital wait without a question)."""
        return self.topic(event) in ("court", "excuse")

    def title(self, story: dict[str, Any]) -> str:
        return "The heir's conspiracy"

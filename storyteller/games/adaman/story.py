"""Adaman told as the heir's conspiracy: who sat at court and in the capital, who was
bought, tricked or eliminated with what, and how close the court came to finding out."""

from __future__ import annotations

from typing import Any

from storyteller.core import decktet
from storyteller.games.adaman.rules import COURT_LIMIT, PERSON, RANK, Control, Shift, landing
from storyteller.core.narrative import pick
from storyteller.core.engine import Move
from storyteller.log.events import CardDrawn, Revealed
from storyteller.log.replay import Step
from storyteller.telling.stories import Tale, Teller
from storyteller.telling.meanings import info, meaning as card_meaning
from storyteller.core.words import cap


def _landing(event: CardDrawn) -> str:
    """Where a dealt card really went ("capital", "resources", "court" or "excuse")."""
    return landing(event.card, event.to)


def _verb(paid: tuple[str, ...], seed: str, target: str) -> str:
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
    return pick(["bought", "tricked"], seed, "verb", target)  # by the card, not the line: questions move lines


class AdamanTale(Tale):
    """How things stood after the setup (the first deal), then the plot: each arrival at
    court, each play and each move of the Excuse, with the journal entries between them.
    The beats that come again and again (an arrival, a play, the count of those still
    free) take their words from the phrasing lists in turn (:meth:`Tale.say`)."""

    def __init__(self, teller: AdamanTeller, seed: str, walk) -> None:
        super().__init__(teller, seed, walk)
        self.setup: dict[str, list[str]] = {"capital": [], "court": [], "resources": []}
        self.acts: list[dict[str, Any]] = []
        self.in_setup = True  # until the first play
        self.at_court: list[str] = []  # in the order they came
        self.closest = 0  # the most personalities at court at once
        self.plays = 0
        self.people = walk.state.personalities()
        self.people_total = len(self.people)
        self.controlled: list[str] = []

    @property
    def begun(self) -> bool:
        return not self.in_setup

    def narrate(self, text: str, **extra: Any) -> None:
        self.acts.append({"kind": "text", "text": text, **extra})

    def journal(self, beat: dict[str, Any]) -> None:
        self.acts.append(beat)

    def oracle(self, beat: dict[str, Any]) -> None:
        self.acts.append(beat)

    def seat(self, card_id: str) -> None:
        if card_id not in self.at_court:
            self.at_court.append(card_id)
        self.closest = max(self.closest, len(self.at_court))

    def number(self, n: int) -> str:
        words = self.p["numbers"]
        return words[n] if n < len(words) else str(n)

    def draw(self, step: Step, e: CardDrawn) -> None:
        p = self.p
        card_id = e.card
        place = _landing(e)
        if place == "excuse":
            if not self.in_setup:
                self.narrate(self.say("excuse dealt", p["excuse"]["dealt"]).format(to=e.to))
            return
        if self.in_setup:
            self.setup[place].append(card_id)
        if place != "court":
            return
        before, worst = list(self.at_court), self.closest
        self.seat(card_id)
        if self.in_setup:
            return
        words = {"name": decktet.name(card_id), "Name": decktet.Name(card_id), "others": decktet.names(before)}
        arrival = self.say("arrival", p["arrival"]) if before else self.say("arrival alone", p["arrival_alone"])
        self.narrate(f"{arrival.format(**words)} {card_meaning(card_id)}")
        crowd = len(self.at_court)
        if str(crowd) in p["tension"] and crowd > worst:  # told the first time the court is this full
            self.narrate(p["tension"][str(crowd)])

    def still_free(self) -> str:
        """Who still stands in the way after a play: a count, or names once few are left."""
        done = set(self.controlled)
        free = [c for c in self.people if c not in done]
        p = self.p["left"]
        if not free:
            return ""
        if len(free) == 1:
            return self.say("left one", p["one"]).format(name=decktet.name(free[0]), Name=decktet.Name(free[0]))
        if len(free) <= 3:
            names = decktet.names(free)
            return self.say("left few", p["few"]).format(names=names, Names=cap(names))
        n = self.number(len(free))
        return self.say("left many", p["many"]).format(left=n, Left=cap(n))

    def decision(self, step: Step, move: Move) -> None:
        p = self.p
        if isinstance(move, Shift):
            if move.to == "court":
                self.seat(move.card)
            moved = self.say("excuse moved", p["excuse"]["moved"])
            self.narrate(moved.format(name=decktet.name(move.card), to=move.to))
            return
        assert isinstance(move, Control)
        self.in_setup = False
        target, paid = move.target, move.paid
        self.plays += 1
        names = decktet.names(paid)
        words = {"target": decktet.name(target), "Target": decktet.Name(target), "paid": names, "Paid": cap(names)}
        if PERSON[target]:
            self.controlled.append(target)
            verb = _verb(paid, self.seed, target)
            lead = self.say(f"verb {verb}", p["verbs"][verb]).format(**words)
            self.narrate(f"{lead} {self.still_free()}".strip(), verb=verb, target=target)
        else:
            self.narrate(self.say("gained", p["gained"]).format(**words))
        if target in self.at_court:  # a personality leaving the court eases the pressure
            self.at_court.remove(target)

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

    def draw_text(self, event: Revealed) -> str:
        assert isinstance(event, CardDrawn)  # Adaman deals cards, and rolls no dice
        place = _landing(event)
        if place == "excuse":
            return f"Dealt the Excuse to the {event.to}."
        went = ", a personality: it goes to the court" if place == "court" else f" to the {place}"
        return f"Dealt {decktet.label(event.card)}{went}."

    def meaning(self, event: Revealed, seed: str, variants: dict[str, str]) -> str:
        assert isinstance(event, CardDrawn)  # Adaman deals cards, and rolls no dice
        card_id = event.card
        place = _landing(event)
        if place == "excuse":
            if event.to == "capital":
                return "The Excuse: one of your resources must move into the capital."
            return "The Excuse: one capital card must move into your resources."
        text = card_meaning(card_id)
        if place == "court":
            return f"At court: {text}"
        if PERSON[card_id]:
            return f"In the capital: {text}"
        return text

    def topic(self, event: Revealed) -> str | None:
        """Personalities and the Excuse raise a question; ordinary cards pass quietly."""
        assert isinstance(event, CardDrawn)  # Adaman deals cards, and rolls no dice
        place = _landing(event)
        if place in ("excuse", "court"):
            return place
        if place == "capital" and PERSON[event.card]:
            return "capital"
        return None

    def key_moment(self, event: Revealed) -> bool:
        """The turning points: a personality arriving at court, and the Excuse (the
        personalities dealt to the capital wait without a question)."""
        assert isinstance(event, CardDrawn)  # Adaman deals cards, and rolls no dice
        return self.topic(event) in ("court", "excuse")

    def title(self, story: dict[str, Any]) -> str:
        return "The heir's conspiracy"

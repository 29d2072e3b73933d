"""Adaman told as the heir's conspiracy: the capital, your means and the court as the cards
were dealt, each play that bought, tricked or eliminated someone, and how close the court
came to finding you out.

Every card is told where it was dealt, in the world's words (prompts/adaman.json ``cards``:
what it was doing in the capital, what it gave you in your hands, how a personality sat at
court), once, with its name in passing; a card a journaling question was about is told last
in its paragraph, in a short line that leaves the question its image, and the answer follows
it. What a play spent is one line of mechanics beside its narration."""

from __future__ import annotations

from typing import Any

from storyteller.core import decktet
from storyteller.games.adaman.rules import COURT_LIMIT, PERSON, RANK, SPENT, Control, Shift, landing
from storyteller.core.narrative import pick
from storyteller.core.engine import Move, Result
from storyteller.log.events import CardDrawn, Revealed
from storyteller.log.replay import Step
from storyteller.telling.stories import Tale, Teller
from storyteller.telling.meanings import info, meaning as card_meaning
from storyteller.core.words import cap, join_and


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


PLAYERS = ("entry", "consulted")  # the player's own beats in the tale: a journal entry, a question to the oracle


class AdamanTale(Tale):
    """The game as it was dealt and played, told at the end (:meth:`finish`), when the tale
    knows which cards a question followed: each step becomes an item (a card dealt, the
    Excuse, a move of the Excuse, a play; journal entries and oracle questions where they
    fell), and the items become paragraphs. The first deal is ``deal``; the plot (``acts``)
    opens with the first play, move of the Excuse or question to the oracle, as the picture
    module's moments do; a play on a personality opens a paragraph of its own (its ``verb``
    and ``target``), with what it spent as ``mechanics``."""

    def __init__(self, teller: AdamanTeller, seed: str, walk) -> None:
        super().__init__(teller, seed, walk)
        self.setup: dict[str, list[str]] = {"capital": [], "court": [], "resources": []}
        self.items: list[dict[str, Any]] = []
        self.in_setup = True  # until the first play
        self.at_court: list[str] = []  # in the order they came
        self.closest = 0  # the most personalities at court at once
        self.plays = 0
        self.people = walk.state.personalities()
        self.people_total = len(self.people)
        self.controlled: list[str] = []
        self.seen: set[str] = set()  # the personalities dealt so far

    @property
    def begun(self) -> bool:
        return bool(self.items)

    def item(self, kind: str, **fields: Any) -> None:
        self.items.append(self.stamp({"item": kind, **fields}))

    def journal(self, beat: dict[str, Any]) -> None:
        self.items.append({"item": "entry", "beat": beat})

    def oracle(self, beat: dict[str, Any]) -> None:
        self.items.append({"item": "consulted", "beat": beat})

    def seat(self, card_id: str) -> dict[str, Any]:
        """A personality at court: how full the court is now, and whether it was ever this full."""
        worst = self.closest
        if card_id not in self.at_court:
            self.at_court.append(card_id)
        self.closest = max(self.closest, len(self.at_court))
        return {"crowd": len(self.at_court), "worst": len(self.at_court) > worst}

    def number(self, n: int) -> str:
        words = self.p["numbers"]
        return words[n] if n < len(words) else str(n)

    # -- hearing the steps ------------------------------------------------------------------

    def draw(self, step: Step, e: CardDrawn) -> None:
        card_id = e.card
        place = _landing(e)
        if place == "excuse":
            self.item("excuse", to=e.to)
            return
        if self.in_setup:
            self.setup[place].append(card_id)
        if PERSON[card_id]:
            self.seen.add(card_id)
        court = self.seat(card_id) if place == "court" else {}
        self.item("card", card=card_id, place=place, first=self.in_setup, **court)

    def decision(self, step: Step, move: Move) -> None:
        if isinstance(move, Shift):
            court = self.seat(move.card) if move.to == "court" else {}
            self.item("shift", card=move.card, to=move.to, **court)
            return
        assert isinstance(move, Control)
        self.in_setup = False
        target, paid = move.target, move.paid
        self.plays += 1
        if target in self.at_court:  # a personality leaving the court eases the pressure
            self.at_court.remove(target)
        if PERSON[target]:
            self.controlled.append(target)
        free = [c for c in self.people if c not in self.controlled]
        self.item("play", target=target, paid=list(paid), person=PERSON[target],
                  free=[c for c in free if c in self.seen], unseen=sum(c not in self.seen for c in free))

    # -- telling ------------------------------------------------------------------------------

    def finish(self) -> dict[str, Any]:
        outcome = self.outcome
        result = outcome.result.value if outcome else "unfinished"
        for i, it in enumerate(self.items):  # the Excuse moved a card, or found none to move
            if it["item"] == "excuse":
                later = next((x for x in self.items[i + 1:] if x["item"] not in PLAYERS), None)
                it["moves"] = later is not None and later["item"] == "shift"
        opens = next((i for i, it in enumerate(self.items) if it["item"] in ("consulted", "shift", "play")),
                     len(self.items))
        deal = self.tell(self.items[:opens])
        acts = self.tell(self.items[opens:])
        return {
            "setup": {k: [info(c) for c in v] for k, v in self.setup.items()},
            "intro": self.p["intro"].format(people=f"{self.number(self.people_total)} personalities"),
            "deal": deal,
            "acts": acts,
            "closest": self.closest,
            "court_limit": COURT_LIMIT,
            "watch": self.watch(result),
            "controlled": [{"name": decktet.name(c), "rank": RANK[c]} for c in self.controlled],
            "plays": self.plays,
            "ending": self.p["endings"].get(result, ""),
            "reckoning": self.reckoning(result),
            "score_words": self.score_words(result, outcome.score if outcome else None),
            "people_total": self.people_total,
        }

    def tell(self, items: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The items as beats: narration run together into paragraphs, a paragraph ending at
        each journal entry or oracle question (so that an entry follows the paragraph that told
        its card, and no later card is told before it) and a new one opening with each play."""
        beats: list[dict[str, Any]] = []
        para: dict[str, Any] | None = None

        def flush() -> None:
            nonlocal para
            if para is not None and para["text"]:
                beats.append(para)
            para = None

        def add(text: str, steps: list[int]) -> None:
            nonlocal para
            if para is None:
                para = {"kind": "text", "text": "", "steps": []}
            para["text"] = f"{para['text']} {text}".strip()
            para["steps"] += [n for n in steps if n not in para["steps"]]

        i = 0
        while i < len(items):
            it = items[i]
            kind = it["item"]
            if kind in PLAYERS:
                flush()
                beats.append(it["beat"])
                i += 1
            elif kind == "play":
                flush()
                para = self.play(it)
                i += 1
            elif kind == "card":
                j = i
                while j < len(items) and items[j]["item"] == "card":
                    j += 1
                run = items[i:j]
                after = items[j] if j < len(items) else None
                asked = (after is not None and after["item"] == "entry" and after["beat"].get("prompt")
                         and after["beat"].get("about") in run[-1].get("steps", []))
                for k, (text, steps) in enumerate(self.run(run, bool(asked))):
                    if k and run[0]["first"]:  # the first deal: the capital, then your means and the court
                        flush()
                    add(text, steps)
                i = j
            elif kind == "excuse":
                add(self.p["excuse"][it["to"] if it["moves"] else f"{it['to']} alone"], it.get("steps", []))
                i += 1
            else:  # a move of the Excuse
                words = {"name": decktet.name(it["card"]), "Name": decktet.Name(it["card"])}
                text = self.p["excuse"]["moved"][it["to"]].format(**words)
                add(f"{text} {self.tension(it)}".strip(), it.get("steps", []))
                i += 1
        flush()
        return beats

    def run(self, cards: list[dict[str, Any]], asked: bool) -> list[tuple[str, list[int]]]:
        """Cards dealt one after another, in a few sentences: what came to the capital, what
        came to your hands, who came to court; the card a question follows last, briefly.
        Two parts, each with the steps it tells: the capital's, then the rest."""
        p = self.p
        subject = cards[-1] if asked else None
        rest = cards[:-1] if asked else cards
        city: list[str] = []
        out: list[str] = []
        capital = [c for c in rest if c["place"] == "capital"]
        for k, c in enumerate(capital):
            doing = f"{decktet.name(c['card'])} {p['cards'][c['card']]['capital']}"
            city.append(self.say("dealt capital", p["dealt"]["capital"]).format(cards=doing) if k == 0
                        else f"{cap(doing)}.")
        hands = [c for c in rest if c["place"] == "resources"]
        if hands:  # three at most in a sentence
            first = " first" if hands[0]["first"] else ""
            held = join_and(p["cards"][c["card"]]["hand"] for c in hands[:3])
            out.append(self.say(f"dealt resources{first}", p["dealt"][f"resources{first}"])
                       .format(cards=held, Cards=cap(held)))
            if hands[3:]:
                held = join_and(p["cards"][c["card"]]["hand"] for c in hands[3:])
                out.append(self.say("dealt resources more", p["dealt"]["resources more"]).format(cards=held))
        for c in rest:
            if c["place"] == "court":
                first = " first" if c["first"] else ""
                words = {"name": decktet.name(c["card"]), "Name": decktet.Name(c["card"]),
                         "court": p["cards"][c["card"]]["court"]}
                out.append(self.say(f"dealt court{first}", p["dealt"][f"court{first}"]).format(**words))
                out.append(self.tension(c))
        if subject is not None:
            place = subject["place"]
            if place == "capital" and PERSON[subject["card"]]:
                place = "capital-personality"
            elif place == "court" and subject["first"]:
                place = "court first"
            words = {"name": decktet.name(subject["card"]), "Name": decktet.Name(subject["card"])}
            said = [self.say(f"asked {place}", p["asked"][place]).format(**words), self.tension(subject)]
            (city if subject["place"] == "capital" else out).extend(said)
        there = [c for c in cards if c["place"] == "capital"]
        parts = [(city, there), (out, [c for c in cards if c["place"] != "capital"])]
        return [(" ".join(s for s in said if s), [n for c in told for n in c.get("steps", [])])
                for said, told in parts if said]

    def tension(self, item: dict[str, Any]) -> str:
        """How crowded the court was, told the first time it was this full (from three on)."""
        crowd = item.get("crowd")
        if crowd is None or not item.get("worst"):
            return ""
        return self.p["tension"].get(str(crowd), "")

    def play(self, it: dict[str, Any]) -> dict[str, Any]:
        """A play's paragraph: who was bought, tricked or eliminated (or what was gained) with
        what, the few still free once few are left, and what it spent as mechanics."""
        p = self.p
        target, paid = it["target"], tuple(it["paid"])
        names = decktet.names(paid)
        words = {"target": decktet.name(target), "Target": decktet.Name(target), "paid": names, "Paid": cap(names)}
        total = sum(RANK[c] for c in paid)
        spent = join_and(SPENT[c] for c in paid)
        many = "one" if len(paid) == 1 else "many"
        line = self.say(f"spent {many}", p["spent"][many]).format(
            paid=spent, Paid=cap(spent), total=total, target=SPENT[target], Target=cap(SPENT[target]))
        if not it["person"]:
            return {"kind": "text", "text": self.say("gained", p["gained"]).format(**words),
                    "steps": it.get("steps", []), "mechanics": line}
        verb = _verb(paid, self.seed, target)
        lead = self.say(f"verb {verb}", p["verbs"][verb]).format(**words)
        return {"kind": "text", "text": f"{lead} {self.still_free(it)}".strip(), "steps": it.get("steps", []),
                "verb": verb, "target": target, "mechanics": line}

    def still_free(self, it: dict[str, Any]) -> str:
        """Who still stood in the way, once three or fewer did: by name, those already seen."""
        free, unseen = it["free"], it["unseen"]
        left = self.p["left"]
        if not 0 < len(free) + unseen <= 3:
            return ""
        if len(free) == 1 and not unseen:
            return self.say("left one", left["one"]).format(name=decktet.name(free[0]), Name=decktet.Name(free[0]))
        if not free:
            return left["one unseen"] if unseen == 1 else left["all unseen"].format(n=self.number(unseen))
        parts = [decktet.name(c) for c in free]
        if unseen:
            parts.append(left["unseen"][0] if unseen == 1 else left["unseen"][1].format(n=self.number(unseen)))
        names = join_and(parts)
        return self.say("left few", left["few"]).format(names=names, Names=cap(names))

    # -- the ending ---------------------------------------------------------------------------

    def watch(self, result: str) -> str:
        """How close the court came to finding you out (nothing after an utter loss: the
        court's last arrival already said it)."""
        if result == Result.UTTER_LOSS.value:
            return ""
        n = self.closest
        words = self.p["watch"]
        if n == 0:
            return words["none"]
        if n < 3:
            return words["few"].format(count=self.number(n), whom="personality" if n == 1 else "personalities")
        return words["close" if n == COURT_LIMIT else "crowded"].format(count=self.number(n))

    def reckoning(self, result: str) -> str:
        """Who you won over, in words: all of them, or how many of how many and who never came round."""
        words = self.p["reckoning"]
        total, done = self.number(self.people_total), self.controlled
        if result == Result.WON.value:
            return words["won"].format(total=total, last=decktet.name(done[-1]))
        free = [c for c in self.people if c not in done]
        seen = [c for c in free if c in self.seen]
        rest = []
        if seen:
            rest.append(words["never"].format(names=decktet.names(seen)))
        unseen = len(free) - len(seen)
        if unseen:
            rest.append(words["unseen"][0] if unseen == 1 else words["unseen"][1].format(n=self.number(unseen)))
        count = self.number(len(done)) if done else words["none"]
        text = words.get(result, words["unfinished"]).format(count=count, total=total, free=", and ".join(rest))
        return text

    def score_words(self, result: str, score: int | None) -> str:
        """The score, said with what it counts (nothing for a game without one)."""
        words = self.p["score"]
        if score is None or result not in words:
            return ""
        ruled = sum(RANK[c] for c in self.controlled)
        n = len(self.controlled)
        whom = f"{self.number(n)} {'personality' if n == 1 else 'personalities'}"
        return words[result].format(score=score, people=ruled, kept=score - ruled, whom=whom)


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

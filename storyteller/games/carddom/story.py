"""Carddom told as a story: what each revealed card means, for the terminal and for Markdown."""

from __future__ import annotations

from typing import Any

from storyteller.core.cards import card
from storyteller.games.carddom.rules import CarddomState, Cause, Enter, MoveTo, Take, place_of, subduers, where
from storyteller.core.narrative import pick
from storyteller.core.engine import Move, State
from storyteller.log.events import CardDrawn, Revealed
from storyteller.log.replay import Step
from storyteller.telling.stories import Tale, Teller
from storyteller.core.words import cap


def _carddom(state: State | None) -> CarddomState:
    """A step's state, as this game's (every state a Carddom step holds is one)."""
    assert isinstance(state, CarddomState)
    return state


class CarddomTale(Tale):
    """A chapter per place, in the order the traveller first reached it; what happened on a
    later visit joins that place's chapter. Each journal entry joins the place where it
    was written."""

    def __init__(self, teller: CarddomTeller, seed: str, walk) -> None:
        super().__init__(teller, seed, walk)
        self.t = teller
        self.character: dict[str, Any] | None = None
        self.names: dict[int, str] = {}  # stack -> "a vast mountain"
        self.chapters: dict[int, dict[str, Any]] = {}
        self.order: list[int] = []
        self.taken: list[dict[str, Any]] = []
        self.lord: dict[str, Any] | None = None
        self.doom: dict[str, Any] | None = None
        self.here: int | None = None
        self.returned: dict[int,
                            str] = {}  # stack -> "the vast mountain": come back to, told once something happens there

    @property
    def begun(self) -> bool:
        return self.here is not None or self.lord is not None

    def add(self, beat: dict[str, Any]) -> None:
        if self.lord is not None:
            self.lord["journal"].append(beat)
            return
        assert self.here is not None
        chapter = self.chapters[self.here]
        if self.here in self.returned:
            back = self.say("return", self.p["phrasing"]["return"]).format(place=self.returned.pop(self.here))
            chapter["beats"].append({"kind": "text", "text": back})
        chapter["beats"].append(beat)

    def journal(self, beat: dict[str, Any]) -> None:
        self.add(beat)

    def oracle(self, beat: dict[str, Any]) -> None:
        if self.begun:
            self.add(beat)
        else:
            super().oracle(beat)

    def draw(self, step: Step, e: CardDrawn) -> None:
        p, seed = self.p, self.seed
        to = e.to
        c = card(e.card)
        if to == "character":
            if c.rank != "Joker":
                self.character = {"card": c.name, "role": self.t.role(c.id), "goal": self.t.goal(c.id)}
            return
        if to == "overlord":
            joker = c.rank == "Joker"
            self.lord = {
                "id": c.id,
                "card": c.name,
                "joker": joker,
                "kind": None if joker else p["overlord_kind"][c.rank],
                "motivation": None if joker else p["motivation"][c.suits[0]],
                "journal": [],
            }
            return
        stack, layer = place_of(to)
        assert stack is not None
        if c.rank == "Joker":
            fatal = self.outcome is not None and self.outcome.cause is Cause.JOKER_REVEALED
            self.doom = {"layer": layer, "stack": stack, "kind": self.t.joker_kind(seed, e), "fatal": fatal}
            if layer == "location":
                self.names[stack] = "a place of ill omen"
                self.chapters[stack]["title"] = "A place of ill omen"
            kind = "doom" if fatal else "shadow"
            depth = "location" if layer == "location" else "deeper"
            sentence = self.say(f"{kind} {depth}", p["phrasing"][kind][depth]).format(kind=self.doom["kind"])
            self.add({"kind": "joker", "text": sentence})
            return
        if layer == "location":
            self.names[stack] = self.t.thing(c.id, layer)
            self.chapters[stack]["title"] = _title(self.names[stack])
            first = self.order and self.order[0] == stack
            beat = "enter" if first else "arrive"
            sentence = self.say(beat, p["phrasing"][beat]).format(place=self.names[stack])
        elif layer == "people":
            sentence = self.say("people", p["phrasing"]["people"]).format(people=self.t.thing(c.id, layer))
        elif layer == "values":
            value = p["values"][c.suits[0]]
            scale = p["scale"]["values"][c.rank]
            sentence = self.say("values", p["phrasing"]["values"]).format(
                value=value, Value=value.capitalize(), scale=scale)
        else:
            sentence = self.say("gift", p["phrasing"]["gift"]).format(gift=self.t.thing(c.id, layer))
        self.add({"kind": "text", "text": sentence, "card": c.name, "layer": layer})

    def decision(self, step: Step, move: Move) -> None:
        p = self.p
        if isinstance(move, (Enter, MoveTo)):
            here = self.here = move.stack
            if here not in self.chapters:
                self.chapters[here] = {"stack": here, "where": where(here), "title": f"Stack {here}", "beats": []}
                self.order.append(here)
            elif here in self.names:
                self.returned[here] = "the " + self.names[here].split(" ", 1)[1]
        elif isinstance(move, Take):
            c = card(move.card)
            self.taken.append({"id": c.id, "card": c.name, "from": self.names.get(self.here) if self.here else None})
            back = self.returned.pop(self.here, None) if self.here is not None else None
            if back is not None:  # come back for it: the return and the taking told in one sentence
                text = self.say("return_take", p["phrasing"]["return_take"]).format(place=back, card=c.name)
            else:
                text = self.say("take", p["phrasing"]["take"]).format(card=c.name)
            self.add({"kind": "text", "text": text})

    def finish(self) -> dict[str, Any]:
        for chapter in self.chapters.values():
            chapter["beats"] = _paragraphs(chapter["beats"])
        order, names = self.order, self.names
        return {
            "character": self.character,
            "chapters": [self.chapters[s] for s in order if self.chapters[s]["beats"]],
            "places": [{"name": names[s], "where": where(s)} for s in order if s in names],
            "taken": self.taken,
            "overlord": self.lord,
            "doom": self.doom,
            "ending": self._ending(),
        }

    def _ending(self) -> str:
        """The last paragraph, in the story's words rather than the rules'."""
        outcome, lord, doom = self.outcome, self.lord, self.doom
        if outcome is None:
            return "The story is not over yet: the road still waits."
        if outcome.abandoned:
            return "You turned back, and left the realm to its overlord."
        if lord is not None and lord["joker"]:
            return ("There was no one to subdue: a Joker sat where the overlord should be, and the journey had been "
                    "doomed from its first step.")
        if lord is not None:
            held = _carddom(self.walk.state).held()
            by_rank, by_suit = subduers(held, lord["id"])
            lord_card = card(lord["id"])
            if outcome.won:
                return (
                    f"You faced {lord['kind']} with the {card(by_rank[0]).name} and the {card(by_suit[0]).name}, "
                    f"and the {lord['kind'].split(' ', 1)[1]} was subdued. You won."
                )
            lacking = []
            if not by_rank:
                lacking.append(f"nothing of its rank ({lord_card.rank})")
            if not by_suit:
                lacking.append(f"nothing of its suit ({lord_card.suits[0].lower()})")
            return (f"You faced {lord['kind']}, but you held {' and '.join(lacking)}, and it could not be subdued. "
                    "You lost.")
        if doom is not None and doom["fatal"]:
            names = self.names
            place = "the " + names[doom["stack"]].split(" ", 1)[1] if doom["stack"] in names else "that place"
            return f"{cap(doom['kind'])} ended the journey in {place}, before the overlord was ever faced. You lost."
        return f"The journey ended: {outcome.reason}"


class CarddomTeller(Teller):
    tale = CarddomTale

    def role(self, card_id: str) -> str:
        return self.prompts["roles"][card(card_id).rank]

    def goal(self, card_id: str) -> str:
        return self.prompts["goals"][card(card_id).suits[0]]

    def joker_kind(self, seed: str, event: CardDrawn) -> str:
        """What a Joker is in the story (a monster, a dragon...): fixed by its place in the
        deal, so the same seed tells the same Joker whatever else the log holds."""
        return pick(self.prompts["jokers"], seed, "joker", event.deal, event.slot)

    def thing(self, card_id: str, layer: str) -> str:
        """What a card is as this layer of a stack: "a vast city", "a host of elves"."""
        c = card(card_id)
        p = self.prompts
        suit = c.suits[0]
        scale = p["scale"][layer][c.rank]
        if layer == "location":
            return f"{'an' if scale[0] in 'aeiou' else 'a'} {scale} {p['location'][suit].split(' ', 1)[1]}"
        if layer == "people":
            return f"{scale} {p['people'][suit]}"
        if layer == "values":
            return f"{p['values'][suit]}, cherished {scale}"
        return f"{scale} {p['gift'][suit].removeprefix('a ')}"

    def overlord(self, card_id: str) -> str:
        c = card(card_id)
        return f"{self.prompts['overlord_kind'][c.rank]} driven by {self.prompts['motivation'][c.suits[0]]}"

    def moment(self, request: Any, state: Any) -> str | None:
        # A Joker drawn as the character: all 34 cards are shuffled again.
        return "reshuffle" if request.to == "character" and request.deal > 0 else None

    def meaning(self, event: Revealed, seed: str, variants: dict[str, str]) -> str:
        """One sentence: what this draw means in the story."""
        assert isinstance(event, CardDrawn)  # Carddom deals cards, and rolls no dice
        card_id, to = event.card, event.to
        c = card(card_id)
        p = self.prompts
        if c.rank == "Joker":
            if to == "character":
                return "A Joker cannot be your character: the deck is shuffled again."
            if to == "overlord":
                return "The overlord is a Joker: this journey was doomed from the start."
            if variants.get("jokers", "revealed") == "revealed":
                return f"A Joker: {self.joker_kind(seed, event)} ends your journey here."
            return f"A Joker: {self.joker_kind(seed, event)} lies here; it can never be taken."
        if to == "character":
            return f"You are {self.role(card_id)}, and you seek {self.goal(card_id)}."
        if to == "overlord":
            return f"The overlord is {self.overlord(card_id)}."
        stack, layer = place_of(to)
        if layer == "location":
            return f"Stack {stack} is {self.thing(card_id, layer)}."
        if layer == "people":
            return f"Here live {self.thing(card_id, layer)}."
        if layer == "values":
            return f"They cherish {p['values'][c.suits[0]]} {p['scale']['values'][c.rank]}."
        return f"Their gift: {self.thing(card_id, layer)}."

    def topic(self, event: Revealed) -> str | None:
        assert isinstance(event, CardDrawn)  # Carddom deals cards, and rolls no dice
        joker = card(event.card).rank == "Joker"
        to = event.to
        if joker:
            return None if to == "character" else "joker"
        return to if to in ("character", "overlord") else place_of(to)[1]

    def key_moment(self, event: Revealed) -> bool:
        """The turning points: who you are, each new place, a Joker, the overlord (the
        people, values and gifts of a place pass without a question)."""
        assert isinstance(event, CardDrawn)  # Carddom deals cards, and rolls no dice
        return self.topic(event) in ("character", "location", "joker", "overlord")

    def draw_text(self, event: Revealed) -> str:
        """The playthrough's line for a draw."""
        assert isinstance(event, CardDrawn)  # Carddom deals cards, and rolls no dice
        name = card(event.card).name
        to = event.to
        if to == "character":
            return f"Drew the {name} as the character."
        if to == "overlord":
            return f"Revealed the overlord: the {name}."
        stack, layer = place_of(to)
        return f"Revealed the {name} as the {layer} of stack {stack} ({where(stack)})."  # type: ignore[arg-type]

    def title(self, story: dict[str, Any]) -> str:
        c = story.get("character")
        if not c:
            return "A journey that never began"
        return f"{cap(c['role'])} seeking {c['goal']}"


NARRATION = ("text", "joker")  # the tale's own beats; the others are the player's (a journal entry, the oracle)


def _paragraphs(beats: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Run the narration between journal entries together into paragraphs."""
    out: list[dict[str, Any]] = []
    for beat in beats:
        if beat["kind"] not in NARRATION:  # a journal entry or a question to the oracle: a paragraph of its own
            out.append(beat)
        elif out and out[-1]["kind"] == "text":
            out[-1] = {"kind": "text", "text": out[-1]["text"] + " " + beat["text"]}
        else:
            out.append({"kind": "text", "text": beat["text"]})
    return out


def _title(place: str) -> str:
    """"a vast mountain" -> "The vast mountain"."""
    words = place.split(" ", 1)
    return f"The {words[1]}" if len(words) == 2 else place


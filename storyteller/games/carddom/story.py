"""Carddom told as a story: what each revealed card means, for the terminal and for Markdown."""

from __future__ import annotations

from typing import Any

from storyteller.core.cards import card
from storyteller.games.carddom.rules import (
    LAYERS, ROWS, CarddomState, Cause, Enter, Face, MoveTo, Take, place_of, row_of, subduers, where,
)
from storyteller.core.narrative import pick
from storyteller.core.engine import Move, State
from storyteller.log.events import CardDrawn, Revealed
from storyteller.log.replay import Step
from storyteller.telling.stories import Tale, Teller
from storyteller.core.words import cap, join_and as _and

KEEPSAKES = 4  # the keepsakes of a place of each suit, in the prompts' "carried"
NUMBERS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight")


def _carddom(state: State | None) -> CarddomState:
    """A step's state, as this game's (every state a Carddom step holds is one)."""
    assert isinstance(state, CarddomState)
    return state


def _joker(card_id: str) -> bool:
    return card(card_id).rank == "Joker"


class CarddomTale(Tale):
    """The journey in the order it was walked: a section for each place first reached (its
    location, its people, their values, their gift, what you took from it), and a section
    for each way back over places already seen, where something happened on the way (a
    card taken or turned up, an entry written). Then the overlord, faced with what you
    carried, and the ending. Each journal entry follows the paragraph that tells the card
    its question was about; each paragraph says which steps it tells (``steps``)."""

    def __init__(self, teller: CarddomTeller, seed: str, walk) -> None:
        super().__init__(teller, seed, walk)
        self.t = teller
        self.character: dict[str, Any] | None = None
        self.names: dict[int, str] = {}  # stack -> "a vast mountain"
        self.sections: list[dict[str, Any]] = []  # the road, in the order it was walked
        self.section: dict[str, Any] | None = None  # the one being told
        self.opened: dict[int, dict[str, Any]] = {}  # stack -> its own section (the first visit)
        self.order: list[int] = []  # stacks, in the order first reached
        self.taken: list[dict[str, Any]] = []
        self.lord: dict[str, Any] | None = None
        self.doom: dict[str, Any] | None = None
        self.here: int | None = None
        self.back: tuple[int, int] | None = None  # (stack, the move's n): come back to, told once something happens
        self.away = 0  # peoples told as far from home: the thought is worth saying a few times, not at every place
        self.answered: set[int] = set()  # the steps a journal entry answered a question about
        self.jokers: list[str] = []  # what each Joker met in the realm was
        self.took: int | None = None  # the step of a card just taken, while nothing else is told after it

    @property
    def begun(self) -> bool:
        return self.here is not None or self.lord is not None

    # -- where a beat goes ------------------------------------------------------------------

    def the(self, stack: int) -> str:
        """A place by name, once met: "the vast mountain"."""
        name = self.names.get(stack)
        return "the " + name.split(" ", 1)[1] if name else "that place"

    def _returned(self) -> dict[str, Any] | None:
        """On coming back to a place, the section its return is told in (the place's own
        when nothing was told since, else a section of the way back), and the move's n;
        None when this visit is already being told."""
        if self.back is None:
            return None
        stack, n = self.back
        self.back = None
        current = self.section
        if current is not None and current["kind"] == "return":
            pass  # the way back goes on
        elif current is not None and current["stack"] == stack:
            pass  # back where this section is told: no new heading
        else:
            current = self._open("return", stack)
        if stack not in current["visits"]:
            current["visits"].append(stack)
        return {"n": n, "section": current}

    def _open(self, kind: str, stack: int) -> dict[str, Any]:
        section = {"kind": kind, "stack": stack, "where": where(stack), "title": "", "beats": [], "visits": [stack]}
        self.sections.append(section)
        self.section = section
        return section

    def add(self, beat: dict[str, Any], back: bool = False) -> None:
        """Tell ``beat`` where the tale stands: in the overlord's part once it is faced, else
        in the section of the road being walked. Coming back to a place, its return is told
        first, unless the beat tells it (``back``)."""
        if beat["kind"] in NARRATION:
            self.stamp(beat)
            self.took = None
        if self.lord is not None:
            self.lord["beats"].append(beat)
            if beat["kind"] not in NARRATION:
                self.lord["journal"].append(beat)
            return
        returned = self._returned()
        if returned is not None:
            section = returned["section"]
            place = self.the(section["visits"][-1] if section["kind"] == "return" else section["stack"])
            if back:
                beat = {**beat, "steps": [returned["n"], *beat.get("steps", [])]}
            else:
                words = self.say("return", self.p["phrasing"]["return"]).format(place=place)
                section["beats"].append({"kind": "text", "text": words, "steps": [returned["n"]]})
        assert self.section is not None
        self.section["beats"].append(beat)

    def journal(self, beat: dict[str, Any]) -> None:
        if beat["about"] is not None:
            self.answered.add(beat["about"])
        elif self.took is not None:  # written right after a taking, with nothing told since: about it
            self.answered.add(self.took)
        self.add(beat)

    def oracle(self, beat: dict[str, Any]) -> None:
        if self.begun:
            self.add(beat)
        else:
            super().oracle(beat)

    # -- the steps ----------------------------------------------------------------------------

    def draw(self, step: Step, e: CardDrawn) -> None:
        p, seed = self.p, self.seed
        to = e.to
        c = card(e.card)
        if to == "character":
            if c.rank != "Joker":
                self.character = {"card": c.name, "role": self.t.role(c.id), "goal": self.t.goal(c.id),
                                  "text": self.t.who(c.id)}
                self.stamp(self.character)
            return
        if to == "overlord":
            self._lord(step)
            lord = self.lord
            assert lord is not None
            joker = c.rank == "Joker"
            lord.update({"id": c.id, "card": c.name, "joker": joker,
                         "kind": None if joker else p["overlord_kind"][c.rank],
                         "motivation": None if joker else p["motivation"][c.suits[0]]})
            if joker:
                doom = self.t.joker_kind(seed, e)
                text = (f"Where the overlord should have waited there was no one to subdue, only {doom}: a doom no "
                        "hand could turn aside, waiting at the end of the road since before you set out.")
            else:
                text = f"At the end of the road waited the overlord: {lord['kind']}, driven by {lord['motivation']}."
            self.add({"kind": "text", "text": text})
            return
        stack, layer = place_of(to)
        assert stack is not None
        if c.rank == "Joker":
            fatal = self.outcome is not None and self.outcome.cause is Cause.JOKER_REVEALED
            self.doom = {"layer": layer, "stack": stack, "kind": self.t.joker_kind(seed, e), "fatal": fatal}
            if layer == "location":
                self.names[stack] = "a place of ill omen"
                self.opened[stack]["title"] = "A place of ill omen"
            kind = "doom" if fatal else "shadow"
            depth = "location" if layer == "location" else "deeper"
            what = self.doom["kind"]
            if what in self.jokers:  # the second Joker met is the same kind of thing as the first
                what = "another " + what.split(" ", 1)[1]
            self.jokers.append(self.doom["kind"])
            sentence = self.say(f"{kind} {depth}", p["phrasing"][kind][depth]).format(kind=what)
            self.add({"kind": "joker", "text": sentence})
            return
        if layer == "location":
            self.names[stack] = self.t.thing(c.id, layer)
            self.opened[stack]["title"] = _title(self.names[stack])
            beat = "enter" if self.order and self.order[0] == stack else "arrive"
            sentence = self.say(beat, p["phrasing"][beat]).format(place=self.names[stack])
        elif layer == "people":
            sentence = self._people(c.id, _carddom(step.after).stacks[stack - 1])
        elif layer == "values":
            value = p["values"][c.suits[0]]
            scale = p["scale"]["values"][c.rank]
            kind = "values" if self._peopled(step, stack) else "values_unpeopled"
            sentence = self.say(kind, p["phrasing"][kind]).format(value=value, Value=value.capitalize(), scale=scale)
            if c.rank in ("10", "Jack", "Queen", "King", "Ace"):  # cherished enough to show everywhere
                image = self.say(f"image {c.suits[0]}", p["value_images"][c.suits[0]])
                sentence = f"{sentence[:-1]}{'; ' if ':' in sentence else ': '}{image}."
        else:
            kind = "gift" if self._peopled(step, stack) else "gift_unpeopled"
            sentence = self.say(kind, p["phrasing"][kind]).format(gift=self.t.thing(c.id, layer))
        self.add({"kind": "text", "text": sentence})

    @staticmethod
    def _peopled(step: Step, stack: int) -> bool:
        """Whether a place has people to cherish a value or give a gift (under jokers=taken, a
        Joker may lie where they should be)."""
        cards = _carddom(step.after).stacks[stack - 1]
        return len(cards) > 1 and not _joker(cards[1])

    def _people(self, card_id: str, stack_cards: list[str]) -> str:
        """The people of a place, and, the first few times, how far they are from the kind
        of place their kind calls home (elves in a city, dwarves in the fields)."""
        p = self.p
        c = card(card_id)
        people = self.t.thing(card_id, "people")
        place = card(stack_cards[0]) if stack_cards else None
        if place is not None and place.rank != "Joker" and place.suits[0] != c.suits[0] and self.away < 3:
            self.away += 1
            return self.say("people_away", p["phrasing"]["people_away"]).format(
                people=people, People=cap(people), home=p["home"][c.suits[0]])
        return self.say("people", p["phrasing"]["people"]).format(people=people)

    def decision(self, step: Step, move: Move) -> None:
        p = self.p
        if isinstance(move, (Enter, MoveTo)):
            here = self.here = move.stack
            if here not in self.opened:
                self.opened[here] = self._open("place", here)
                self.order.append(here)
                self.back = None
            else:  # come back to: told once something happens here
                self.back = (here, step.n)
        elif isinstance(move, Take):
            assert self.here is not None
            before = _carddom(step.before)
            c = card(move.card)
            layer = LAYERS[before.stacks[self.here - 1].index(move.card)]
            keepsake = self.say("keepsake " + c.suits[0], range(KEEPSAKES)) if layer == "location" else 0
            words = self.t.taking(before, self.here, move.card, keepsake)
            plain = self.t.taking(before, self.here, move.card, keepsake, answered=True)
            self.taken.append({"id": move.card, "card": c.name, "from": self.names.get(self.here),
                               "layer": layer, "thing": words["thing"], "plain": plain["thing"], "step": step.n})
            if self.back is not None:  # come back for it: the return and the taking in one sentence
                frame = self.say("return and", p["phrasing"]["return_and"]) + \
                    self.say("return " + layer, p["phrasing"]["return_" + layer]) + "."
            else:
                frame = self.say("take " + layer, p["phrasing"]["take_" + layer])
            # a keepsake the player names in answer to a question about it is left for them to name
            self.add({"kind": "text", "text": frame.format(**words), "plain": frame.format(**plain)},
                     back=self.back is not None)
            self.took = step.n
        elif isinstance(move, Face):
            self._lord(step)

    def _lord(self, step: Step) -> None:
        """Facing the overlord: the way there, and what you brought, told once."""
        if self.lord is not None:
            return
        self.back = None
        self.lord = {"id": "", "card": "", "joker": False, "kind": None, "motivation": None, "journal": [],
                     "beats": []}
        things = [self._thing(t) for t in self.taken]
        place = self.the(self.here) if self.here is not None else "the realm's edge"
        if things:
            text = (f"From {place} you went on to face the overlord, and what you brought was all you had gathered: "
                    f"{_and(things)}.")
        else:
            text = f"From {place} you went on to face the overlord, carrying nothing but yourself."
        self.add({"kind": "text", "text": text})

    def _thing(self, taken: dict[str, Any]) -> str:
        """What a card taken is on the road: as the player named it, when they answered a
        question about it or wrote of it right after taking it, else in the tale's words."""
        return taken["plain"] if taken["step"] in self.answered else taken["thing"]

    # -- the whole story --------------------------------------------------------------------

    def _settled(self, beats: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The beats as paragraphs, a taking the player answered a question about told in
        the words that leave it to them."""
        for beat in beats:
            plain = beat.pop("plain", None)
            if plain is not None and set(beat.get("steps", [])) & self.answered:
                beat["text"] = plain
        return _paragraphs(beats)

    def finish(self) -> dict[str, Any]:
        told = [s for s in self.sections if s["beats"]]
        picture = 0
        for section in told:
            section["beats"] = self._settled(section["beats"])
            if section["kind"] == "place":
                section["picture"] = picture
                picture += 1
                section["name"] = self.the(section["stack"])
            else:
                section["picture"] = None
                section["title"] = self._back_title(section["visits"])
                section["name"] = self.the(section["visits"][0])
        for section in told:
            del section["visits"]
        if self.lord is not None:
            self.lord["beats"] = self._settled(self.lord["beats"])
        ending = self._ending()
        carried = None if self.lord is not None else self._carried()
        for t in self.taken:
            t["thing"] = self._thing(t)
            del t["plain"], t["step"]
        order, names = self.order, self.names
        return {
            "character": self.character,
            "chapters": told,
            "places": [{"name": names[s], "where": where(s)} for s in order if s in names],
            "taken": self.taken,
            "overlord": self.lord,
            "doom": self.doom,
            "ending": ending,
            "journey": self._journey(),
            "carried": carried,
            "mechanics": self._mechanics(),
        }

    def _back_title(self, visits: list[int]) -> str:
        if len(visits) == 1:
            return "Back to " + self.the(visits[0])
        if len(visits) == 2:
            return f"Back to {self.the(visits[0])} and {self.the(visits[1])}"
        return self.say("return_title", self.p["phrasing"]["return_title"])

    def _journey(self) -> str:
        """The road as a whole: where it began, how it went on (deeper into the realm, across
        it, back toward its edge, when it kept to a few such legs; else the places in the
        order they were found), and how much of the realm it saw."""
        stops = [(s, self.names[s]) for s in self.order if s in self.names]
        if not stops:
            return "You went straight to the overlord, and saw none of the realm's eight places." \
                if self.lord is not None else ""
        legs: list[list[Any]] = []  # [way, places, reaching the far side]
        row = row_of(stops[0][0])
        for stack, name in stops[1:]:
            r = row_of(stack)
            way = "deeper" if r > row else "back" if r < row else "across"
            if legs and legs[-1][0] == way and way != "across":
                legs[-1][1].append(name)
            else:
                legs.append([way, [name], False])
            legs[-1][2] = legs[-1][2] or (r == ROWS and way == "deeper")
            row = r
        if len(stops) == 1:
            return f"Your road had begun and ended at {stops[0][1]}, on the near edge of the realm: of its eight " \
                   "places you had seen only one."
        text = f"Your road had begun at {stops[0][1]}, on the near edge of the realm."
        if len(legs) > 3:  # a wandering road: the places in order, and how far it reached
            far = next((stack for stack, _ in stops if row_of(stack) == ROWS), None)
            text += f" From there it led you to {_and([name for _, name in stops[1:]])}"
            text += f", and reached the far side of the realm at {self.the(far)}." if far else \
                ", but never reached the far side of the realm."
        elif legs:
            said = []
            for way, places, far in legs:
                if way == "deeper":
                    said.append(f"went deeper to {places[0]}" + (" on the far side" if far else "")
                                if len(places) == 1 else f"went deeper by {_and(places)}" +
                                (", to the far side" if far else ""))
                elif way == "across":
                    said.append(f"crossed to {_and(places)}")
                else:
                    said.append(f"came back toward the near edge by {_and(places)}")
            text += " From there it " + "; then it ".join(said) + "."
        seen = len(stops)
        if seen >= 8:
            return text + " You had seen every one of the realm's eight places."
        return text + f" Of the realm's eight places you had seen {NUMBERS[seen]}."

    def _carried(self) -> str:
        if not self.taken:
            return "You had taken nothing from the realm: you carried nothing but yourself."
        things = [self._thing(t) for t in self.taken]
        return f"What you carried from the realm was {_and(things)}."

    def _mechanics(self) -> str:
        """One line of the cards behind the tale, for a reader who wants them (hidden with the
        page's mechanics)."""
        state = _carddom(self.walk.state)
        said = []
        if state.character:
            said.append(f"your character was the {card(state.character).name}")
        if state.taken:
            said.append(f"you took {_and(['the ' + card(c).name for c in state.taken])}")
        lord = state.overlord
        if lord is not None and _joker(lord):
            said.append(f"the overlord was the {card(lord).name}, which cannot be subdued")
        elif lord is not None:
            by_rank, by_suit = subduers(state.held(), lord)
            c = card(lord)
            rank, suit = c.rank, c.suits[0].lower()[:-1]
            if by_rank and by_suit:
                held = f"its rank ({self._named(by_rank)}) and its suit ({self._named(by_suit)})"
            elif by_rank:
                held = f"its rank ({self._named(by_rank)}) but no {suit}"
            elif by_suit:
                held = f"its suit ({self._named(by_suit)}) but no {rank}"
            else:
                held = f"neither {'an' if rank == 'Ace' else 'a'} {rank} nor a {suit}"
            said.append(f"the overlord was the {c.name}, and you held {held}")
        elif self.doom is not None and self.doom["fatal"]:
            stack_cards = state.stacks[self.doom["stack"] - 1]
            said.append(f"the {card(stack_cards[-1]).name} turned up as the {self.doom['layer']} of stack "
                        f"{self.doom['stack']}")
        if not said:
            return ""
        return "; ".join(said) + "."

    def _matched(self, held: list[str]) -> str:
        """Which of the cards that match the overlord the tale names: one taken on the road
        if there is one, else the character."""
        return next((t["id"] for t in self.taken if t["id"] in held), held[0])

    def _named(self, held: list[str]) -> str:
        return "the " + card(self._matched(held)).name

    def _ending(self) -> str:
        """The last paragraph, in the story's words rather than the rules'."""
        outcome, lord, doom = self.outcome, self.lord, self.doom
        if outcome is None:
            return "The story is not over yet: the road still waits."
        if outcome.abandoned:
            return "You turned back, and left the realm to its overlord."
        if lord is not None and lord["joker"]:
            return ("The journey had been doomed from its first step: nothing you carried could have turned that doom "
                    "aside. You lost.")
        if lord is not None:
            state = _carddom(self.walk.state)
            by_rank, by_suit = subduers(state.held(), lord["id"])
            lord_card = card(lord["id"])
            kind = "the " + lord["kind"].split(" ", 1)[1]
            their = self.p["overlord_their"][lord_card.rank]
            them = {"his": "him", "their": "them", "its": "it"}.get(their, their)
            motive = f"{their} {lord['motivation']}"
            if outcome.won:
                a, b = self._answer(by_rank, state), self._answer(by_suit, state)
                return f"{cap(a)} was a match for {kind}, and {b} for {motive}: the overlord was subdued. You won."
            if not by_rank and not by_suit:
                return (f"You stood before {kind}, and nothing you carried was a match for {them} or {motive}. The "
                        "overlord could not be subdued. You lost.")
            if not by_rank:
                held = f"{cap(self._answer(by_suit, state))} could answer {motive}, but nothing you carried was a " \
                       f"match for {them}"
            else:
                held = f"{cap(self._answer(by_rank, state))} was a match for {them}, but nothing you carried could " \
                       f"answer {motive}"
            return f"You stood before {kind}. {held}, and the overlord could not be subdued. You lost."
        if doom is not None and doom["fatal"]:
            place = self.the(doom["stack"]) if doom["stack"] in self.names else "that place"
            return f"{cap(doom['kind'])} ended the journey at {place}, before the overlord was ever faced. You lost."
        return "The journey ended there."

    def _answer(self, held: list[str], state: CarddomState) -> str:
        """What answered the overlord, in the tale's words: a thing carried from the road
        (preferred), else the character's own station or goal."""
        found = self._matched(held)
        for t in self.taken:
            if t["id"] == found:
                return self._thing(t)
        c = card(found)
        assert self.lord is not None
        if c.rank == card(self.lord["id"]).rank:
            return self.p["station_in_you"][c.rank]
        return self.p["in_you"][c.suits[0]]


class CarddomTeller(Teller):
    tale = CarddomTale

    def role(self, card_id: str) -> str:
        return self.prompts["roles"][card(card_id).rank]

    def goal(self, card_id: str) -> str:
        return self.prompts["goals"][card(card_id).suits[0]]

    def who(self, card_id: str) -> str:
        """Who you were, in the tale: your station and what you came for."""
        c = card(card_id)
        p = self.prompts
        return (f"You came to the realm {self.role(card_id)}, {p['station'][c.rank]}, and what you sought there "
                f"was {self.goal(card_id)}: {p['yearning'][c.suits[0]]}.")

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

    def taking(self, state: CarddomState, stack: int, card_id: str, keepsake: int = 0,
               answered: bool = False) -> dict[str, str]:
        """The words for a card taken from ``stack`` (in ``state``, before it is taken): what
        it is on the road (``thing``: "a stone from the vast mountain", "the help of the
        dwarves of the vast city", "a love of craft learned from the elves", "a rare gift of
        love from the elves"; ``near``, said where the place was just named: "a stone from its
        slopes"), and the words a sentence about the taking needs (``place``, ``people``,
        ``value``, ``them``, ``gift``), each also capitalised. A place's keepsake is one of a
        few (``keepsake``); one the player was asked about is theirs to name (``answered``:
        "something of the vast mountain")."""
        p = self.prompts
        cards = state.stacks[stack - 1]
        layer = LAYERS[cards.index(card_id)]
        c = card(card_id)
        place = "the " + self.thing(cards[0], "location").split(" ", 1)[1] if not _joker(cards[0]) else "that place"
        folk = c if layer == "people" else card(cards[1]) if len(cards) > 1 and not _joker(cards[1]) else None
        people = f"the {p['people'][folk.suits[0]]}" if folk is not None else place  # (a Joker where they were)
        gift = self.thing(card_id, "gift") if layer == "gift" else ""
        words = {"place": place, "people": people, "them": people, "value": p["values"][c.suits[0]],
                 "gift": ("their " if folk is not None else "the ") + gift.removeprefix("a ") if gift else ""}
        carried = p["carried"]
        if layer == "location":
            forms = carried["location"]["answered"] if answered else \
                carried["location"][c.suits[0]][keepsake % len(carried["location"][c.suits[0]])]
            words["thing"], words["near"] = (f.format(place=place) for f in forms)
        else:
            words["thing"] = carried[layer].format(place=place, people=people, them=people, value=words["value"],
                                                   gift=gift)
            words["near"] = words["thing"]
        return {**words, **{k.capitalize(): cap(v) for k, v in words.items()}}

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
    """Run the narration between journal entries together into paragraphs (a visit that
    comes back to a place opens a paragraph of its own), each saying which steps it tells."""
    out: list[dict[str, Any]] = []
    for beat in beats:
        if beat["kind"] not in NARRATION:  # a journal entry or a question to the oracle: a paragraph of its own
            out.append(beat)
            continue
        told = {"kind": "text", "text": beat["text"], "steps": list(beat.get("steps", []))}
        if out and out[-1]["kind"] == "text" and not beat.get("para"):
            out[-1] = Tale.joined(out[-1], told)
        else:
            out.append(told)
    return out


def _title(place: str) -> str:
    """"a vast mountain" -> "The vast mountain"."""
    words = place.split(" ", 1)
    return f"The {words[1]}" if len(words) == 2 else place

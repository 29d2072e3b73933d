"""Hexaract told as Jacynth's adventurer on the road: the minions thwarted or suffered,
the places surveyed, the events turned or endured, the six pieces of the artifact (the
suit tokens) gathered and lost, the harm taken, and how the journey ended."""

from __future__ import annotations

from typing import Any

from storyteller.core import decktet
from storyteller.core.engine import Roll, State
from storyteller.core.decktet import SUITS
from storyteller.games.hexaract.rules import (
    HexaractState,
    ACE_REWARD,
    ACE_TOKEN,
    CARDS,
    HARM_LIMIT,
    NO_ACE,
    Assign,
    Done,
    Pay,
    Spend,
    ace_suit,
    kind_of,
    place_of,
    short_label,
    suits_of,
)
from storyteller.core.engine import Move
from storyteller.log.events import CardDrawn, Revealed, DiceRolled
from storyteller.log.replay import Step
from storyteller.telling.stories import Tale, Teller
from storyteller.telling.meanings import info, theme
from storyteller.telling.meanings import meaning as card_meaning
from storyteller.core.words import cap, join_and


def _hexaract(state: State | None) -> HexaractState:
    """A step's state, as this game's (every state a Hexaract step holds is one)."""
    assert isinstance(state, HexaractState)
    return state

KIND_WORD = {"personality": "a personality", "location": "a location", "event": "an event"}
CARD_TALLIES = ("thwarted", "suffered", "surveyed", "tired", "turned", "endured")
TALLIES = CARD_TALLIES + ("gathered", "lost", "placed", "aces")


def dice_line(dice) -> str:
    return " ".join(str(d) for d in dice)


def dice_words(dice) -> str:
    """The dice of a roll as a sentence says them: "3, 5, 6, 1 and 2"."""
    return join_and(str(d) for d in dice)


def couplet_words(dice) -> str:
    """The two dice of a couplet: "a 5 and a 2", "a wild 6 and a 3", "two wild sixes"."""
    if all(d == 6 for d in dice):
        return "two wild sixes"
    return " and ".join("a wild 6" if d == 6 else f"a {d}" for d in dice)


def harm_band(harm: int) -> str:
    """How near the harm is to the end of the road, in the words' own bands."""
    if harm >= HARM_LIMIT:
        return "last"
    if harm >= HARM_LIMIT - 3:
        return "high"
    return "middle" if harm >= 4 else "low"


def piece(suit: str) -> str:
    """A suit token as the story names it: "the Waves piece"."""
    return f"the {suit} piece"


def set_off(before, move, after) -> list:
    """The consequences a decision set off: all of them when it ended the turn, the new
    ones when an event took its token; none for any other move."""
    if not isinstance(move, (Done, Pay)):
        return []
    start = len(before.consequences) if before.phase == "pay" else 0
    return list(after.consequences[start:])


def journey_line(state) -> str:
    """The journey in one line of plain words, for the playthrough."""
    parts = []
    for v in state.journey_view():
        if v is None:
            continue
        text = f"{decktet.label(v['card'])} {v['type']}"
        notes = []
        if v["tokens"]:
            notes.append("holding " + "/".join(v["tokens"]))
        if v["exhausted"]:
            notes.append("exhausted")
        if notes:
            text += " (" + ", ".join(notes) + ")"
        parts.append(text)
    return "; ".join(parts) if parts else "empty"


def supply_line(state) -> str:
    held = [f"{state.held(s)} {s}" for s in SUITS if state.held(s)]
    missing = state.missing_suits()
    text = ", ".join(held) if held else "empty"
    if missing:
        text += f" (missing {', '.join(missing)})"
    return text


def _card_info(card_id: str) -> dict[str, Any]:
    return info(card_id) | {
        "kind": kind_of(card_id),
        "kind_word": KIND_WORD[kind_of(card_id)],
        "rank": CARDS[card_id].rank,
        "suits": list(suits_of(card_id)),
    }


def _unique(items: list[str]) -> list[str]:
    return list(dict.fromkeys(items))


class HexaractTale(Tale):
    """A day per turn: the cards that arrive, the dice, what the adventurer did with them
    and one paragraph of consequences. Journal entries join the day they were written in."""

    def __init__(self, teller: HexaractTeller, seed: str, walk) -> None:
        super().__init__(teller, seed, walk)
        self.setup: dict[str, list] = {"pieces": [], "rewards": [], "journey": []}
        self.days: list[dict[str, Any]] = []
        self.day: dict[str, Any] | None = None
        self.started = False  # the first roll starts day 1
        self.between = False  # the turn's consequences are over; draws belong to the next day
        self.tally: dict[str, list] = {k: [] for k in TALLIES}
        self.final: HexaractState | None = None  # the state after the last step told
        self.hurt_last: set[str] = set()  # the cards that hurt you the evening before

    @property
    def begun(self) -> bool:
        return self.day is not None

    def tell(self, text: str, **extra: Any) -> None:
        assert self.day is not None
        self.day["beats"].append({"kind": "text", "text": text, **extra})

    def today(self) -> None:
        """A new day begins with the first draw or roll after the last day's consequences."""
        if self.between or self.day is None:
            self.day = {"number": len(self.days) + 1, "beats": []}
            self.days.append(self.day)
            self.between = False

    def journal(self, beat: dict[str, Any]) -> None:
        assert self.day is not None
        self.day["beats"].append(beat)

    def oracle(self, beat: dict[str, Any]) -> None:
        if self.day is not None:
            self.day["beats"].append(beat)
        else:
            super().oracle(beat)

    def draw(self, step: Step, e: CardDrawn) -> None:
        self.final = _hexaract(step.after)
        card_id, to = e.card, e.to
        if to == ACE_TOKEN:
            self.setup["pieces"].append(piece(ace_suit(card_id)))
        elif to == ACE_REWARD:
            self.setup["rewards"].append(f"{decktet.name(card_id)} ({piece(ace_suit(card_id))})")
        elif not self.started:
            self.setup["journey"].append(_card_info(card_id))
        else:
            self.today()
            kind = kind_of(card_id)
            arrival = self.say("arrival " + kind, self.p["arrival"][kind])
            text = arrival.format(name=decktet.name(card_id), Name=decktet.Name(card_id))
            self.tell(text + " " + card_meaning(card_id), card=card_id)

    def roll(self, step: Step, rolled: DiceRolled) -> None:
        self.final = _hexaract(step.after)
        self.started = True
        self.today()
        assert self.day is not None
        dice = list(rolled.dice)
        sixes = dice.count(6)
        if not any(isinstance(a.move, Assign) for a in step.after.legal_actions()):
            how = "barren"  # no couplet fits any card on the journey
        else:
            how = ("none", "one", "two")[sixes] if sixes < 3 else "wild"
        words = self.say("dice " + how, self.p["dice"][how]).format(dice=dice_words(dice))
        self.day["beats"].append({"kind": "dice", "text": words, "dice": dice})

    def decision(self, step: Step, move: Move) -> None:
        self.final = after = _hexaract(step.after)
        if isinstance(move, (Assign, Spend)):
            self.tell(self._deed(move, after))
        elif after.phase != "pay":  # the turn's consequences are all paid
            self._tell_consequences(after)
            self.between = True

    def _deed(self, move: Assign | Spend, after) -> str:
        """A couplet or a spend, in the story's words."""
        p, tally = self.p, self.tally
        card_id, suit = move.card, move.suit
        fmt = {"name": decktet.name(card_id), "Name": decktet.Name(card_id), "suit": suit, "piece": piece(suit),
               "Piece": cap(piece(suit))}
        if isinstance(move, Assign):
            fmt["couplet"] = couplet_words(move.dice)
            fmt["Couplet"] = cap(fmt["couplet"])
        done = card_id not in after.journey  # it left the journey: thwarted, turned, surveyed
        kind = kind_of(card_id)
        if isinstance(move, Spend):
            tally["placed"].append(suit)
            text = self.say("spent", p["spent"]).format(**fmt)
            if done:
                tally["surveyed"].append(card_id)
                text += " " + self.say("surveyed", p["surveyed"]).format(**fmt)
        elif kind == "personality":
            tally["thwarted"].append(card_id)
            tally["gathered"].append(suit)
            text = self.say("thwarted", p["thwarted"]).format(**fmt)
        elif kind == "event":
            tally["turned"].append(card_id)
            tally["gathered"].append(suit)
            text = self.say("turned", p["turned"]).format(**fmt)
        else:
            text = self.say("survey", p["survey"]).format(**fmt)
            if done:
                tally["surveyed"].append(card_id)
                text += " " + self.say("surveyed", p["surveyed"]).format(**fmt)
        if move.ace == NO_ACE:
            text += " " + p["no_ace"]
        elif move.ace:
            s = ace_suit(move.ace)
            tally["gathered"].append(s)
            tally["aces"].append(s)
            text += " " + self.say("ace", p["ace"]).format(ace=decktet.name(move.ace), piece=piece(s), suit=s)
        return text

    def _tell_consequences(self, state) -> None:
        """One paragraph: who hurt you (told another way when the same cards hurt you the
        evening before) and how far the harm has come, what each event took or failed to
        take (and whether it passed with it), and how the day ended."""
        p, tally = self.p, self.tally
        hurt, taken, missed, passed = [], {}, [], []
        for c in state.consequences:
            if c.kind == "harm":
                hurt.append(c.card)
                tally["suffered" if kind_of(c.card) == "personality" else "tired"].append(c.card)
            elif c.kind == "token lost":
                taken[c.card] = c.suit
                tally["endured"].append(c.card)
                tally["lost"].append(c.suit)
            elif c.kind == "no token":
                missed.append(c.card)
                tally["endured"].append(c.card)
            elif c.kind == "passes":
                passed.append(c.card)
        parts = []
        if hurt:
            bits = []
            for group, words in (("personality", "harm_people"), ("location", "harm_places")):
                cards = [c for c in hurt if kind_of(c) == group]
                if cards:
                    if set(cards) <= self.hurt_last:
                        words += "_again"
                    names = decktet.names(cards)
                    bits.append(self.say(words, p[words]).format(names=names, Names=cap(names)))
            band = harm_band(state.harm)
            count = self.say("harm " + band, p["harm"][band])
            bits.append(count.format(harm=state.harm, limit=HARM_LIMIT, left=HARM_LIMIT - state.harm))
            parts.append(" ".join(bits))
        self.hurt_last = set(hurt)
        for card_id, suit in taken.items():
            fmt = {"Name": decktet.Name(card_id), "name": decktet.name(card_id), "piece": piece(suit), "suit": suit}
            words = "taken_last" if card_id in passed else "taken"
            parts.append(self.say(words, p[words]).format(**fmt))
        for card_id in missed:
            fmt = {"Name": decktet.Name(card_id), "name": decktet.name(card_id)}
            words = "missed_last" if card_id in passed else "missed"
            parts.append(self.say(words, p[words]).format(**fmt))
        for card_id in passed:
            if card_id not in taken and card_id not in missed:
                parts.append(self.say("passed", p["passed"]).format(Name=decktet.Name(card_id)))
        if not parts:
            parts.append(self.say("quiet", p["quiet"]))
        self.tell(" ".join(parts), consequences=True)

    def finish(self) -> dict[str, Any]:
        final, tally = self.final, self.tally
        tally["endured"] = [c for c in tally["endured"] if c not in tally["turned"]]
        result = self.outcome.result if self.outcome else "unfinished"
        held = [s for s in SUITS if final is not None and final.held(s) > 0]
        return {
            "setup": self.setup,
            "days": self.days,
            "ending": self.p["endings"].get(result, ""),
            "harm": final.harm if final is not None else 0,
            "harm_limit": HARM_LIMIT,
            "held": held,
            "missing": [s for s in SUITS if s not in held],
            "supply": {s: final.held(s) for s in SUITS} if final is not None else {},
            "tally": {k: (_unique([decktet.name(c) for c in v]) if k in CARD_TALLIES else v) for k, v in tally.items()},
            "result": result,
        }


class HexaractTeller(Teller):
    tale = HexaractTale

    def moment(self, request: Any, state: Any) -> str | None:
        if isinstance(request, Roll):
            return "roll"
        return "refill" if place_of(request.to) is not None and state.turn > 1 else None

    def draw_text(self, event: Revealed) -> str:
        if isinstance(event, DiceRolled):
            return f"Turn {event.index + 1}: rolled {dice_line(event.dice)}."
        card_id, to = event.card, event.to
        if to == ACE_TOKEN:
            return f"Turned up {decktet.name(card_id)}: a {ace_suit(card_id)} token for your supply."
        if to == ACE_REWARD:
            return f"Turned up {decktet.name(card_id)}: a face-up ace reward."
        place = place_of(to)
        assert place is not None
        return f"Journey {place + 1}: {decktet.label(card_id)}, {KIND_WORD[kind_of(card_id)]}."

    def meaning(self, event: Revealed, seed: str, variants: dict[str, str] | None = None) -> str:
        p = self.prompts
        if isinstance(event, DiceRolled):
            sixes = list(event.dice).count(6)
            return p["wild"][min(sixes, len(p["wild"]) - 1)]
        card_id, to = event.card, event.to
        if to == ACE_TOKEN:
            suit = ace_suit(card_id)
            return f"You set out with {piece(suit)} of the artifact: {theme(suit)}."
        if to == ACE_REWARD:
            suit = ace_suit(card_id)
            return f"Somewhere on the road waits {piece(suit)} ({theme(suit)}); a Crown can win it."
        return f"{p['kinds'][kind_of(card_id)]} {card_meaning(card_id)}"

    def topic(self, event: Revealed) -> str | None:
        """Each new journey card raises a question; so do the first Ace and a lucky roll."""
        if isinstance(event, DiceRolled):
            return "fortune" if list(event.dice).count(6) >= 2 else None
        to = event.to
        if to == ACE_TOKEN:
            return "quest" if event.slot == 0 else None
        if to == ACE_REWARD:
            return None
        return kind_of(event.card)

    def key_moment(self, event: Revealed) -> bool:
        """The turning points: the first Ace (why you set out), each Crown that comes onto
        the journey (the great powers of the road), and a roll of three sixes or more.
        About six questions a game instead of about thirty."""
        if isinstance(event, DiceRolled):
            return list(event.dice).count(6) >= 3
        if place_of(event.to) is None:
            return event.to == ACE_TOKEN and event.slot == 0
        return CARDS[event.card].rank == "Crown"

    def after_decision(self, before, move, after) -> tuple[str, list[str]] | None:
        """The consequences of inaction, told as the turn ends (or as an event takes its token),
        before the journey is refilled: each harm and each token lost, with the card behind it."""
        if not isinstance(move, (Done, Pay)):
            return None
        told = [f"{c.text}." for c in set_off(before, move, after)]
        if not told:
            told = ["Nothing on the journey hurts you or takes a token."]
        if after.outcome is not None:
            return "Consequences of inaction", told
        if after.phase == "pay":
            return "Consequences of inaction", told + ["Now choose which token each event takes."]
        places = [short_label(c) for c in after.journey if c is not None and kind_of(c) == "location"]
        events = [short_label(c) for c in after.journey if c is not None and kind_of(c) == "event"]
        if places:
            told.append(f"Exhausted now, 1 harm a turn until surveyed: {', '.join(places)}.")
        if events:
            told.append(f"Exhausted now, in their last turn: {', '.join(events)}.")
        empty = sum(1 for c in after.journey if c is None)
        if empty and after.deck_left:
            n = min(empty, after.deck_left)
            told.append(f"The journey refills: {n} new card{'s' if n != 1 else ''} from the deck.")
        elif empty:
            told.append("The deck is empty: the journey is not refilled.")
        return "Consequences of inaction", told

    def step_facts(self, steps: list[Step]) -> list[dict[str, Any]]:
        """For the playthrough: the day each step belongs to (0 while setting out; the cards
        that refill the journey belong to the day they open), the table as it stood at each
        roll, and the consequences each end of a turn (or payment) set off, undone steps
        included."""
        out: list[dict[str, Any]] = []
        day = 0
        for step in steps:
            state = _hexaract(step.after)
            rolled = step.rolled
            if rolled is not None:
                day = rolled.index + 1
            elif step.drawn is not None and step.before is not None and _hexaract(step.before).phase == "refill":
                day = _hexaract(step.before).turn + 1
            if rolled is not None:
                out.append({"day": day, "table": {
                    "journey": journey_line(state),
                    "supply": supply_line(state),
                    "harm": f"{state.harm} of {HARM_LIMIT}",
                    "deck": str(state.deck_left),
                }})
            elif step.move is not None:
                out.append({"day": day, "consequences": [f"{c.text}." for c in set_off(step.before, step.move, state)]})
            else:
                out.append({"day": day})
        return out

    def title(self, story: dict[str, Any]) -> str:
        if story.get("result") == "won":
            return "The artifact made whole"
        return "The road to the secret chamber"

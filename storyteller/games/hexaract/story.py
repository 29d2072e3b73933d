"""Hexaract told as Jacynth's adventurer on the road: the minions thwarted or suffered,
the places made safe, the misfortunes turned or endured, the shards of the artifact's six
pieces (the suit tokens) won and lost, the harm taken, and how the journey ended.

Every card is told as what it is on the road, in its own words (``prompts/hexaract.json``
``cards``: how it came, how it was thwarted, turned or made safe, how it first hurt you),
each sentence told once, since each card comes once. A token is a *shard* of its suit's
*piece*: you hold a piece while you hold a shard of it, so the artifact never has more
than six pieces. The dice are one line of mechanics a day; harm is told in words each time
it grows (each count once); the beats that come again and again (a night with nothing
in it, a misfortune finding nothing to take) are said a few ways in turn (``phrasing``).
Every paragraph says which steps it tells (``steps``), so each journal entry stands right
after the card its question was about."""

from __future__ import annotations

from typing import Any

from storyteller.core import decktet
from storyteller.core.engine import Move, Roll, State
from storyteller.core.decktet import SUITS
from storyteller.games.hexaract.rules import (
    HexaractState,
    ACE_REWARD,
    ACE_TOKEN,
    CARDS,
    HARM_LIMIT,
    NO_ACE,
    Assign,
    Cause,
    Done,
    Pay,
    Spend,
    ace_suit,
    couplet_values,
    dice_text,
    harm_words,
    kind_of,
    place_of,
    rank_of,
    short_label,
)
from storyteller.log.events import CardDrawn, Revealed, DiceRolled
from storyteller.log.replay import Step
from storyteller.telling.stories import Tale, Teller
from storyteller.telling.meanings import theme
from storyteller.telling.meanings import meaning as card_meaning
from storyteller.core.words import cap, join_and


def _hexaract(state: State | None) -> HexaractState:
    """A step's state, as this game's (every state a Hexaract step holds is one)."""
    assert isinstance(state, HexaractState)
    return state

KIND_WORD = {"personality": "a personality", "location": "a location", "event": "an event"}
CARD_TALLIES = ("thwarted", "suffered", "surveyed", "tired", "turned", "endured")
TALLIES = CARD_TALLIES + ("gathered", "lost", "placed", "aces")
NUMBERS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
           "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen")
TENS = ("", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety")


def dice_line(dice) -> str:
    return " ".join(str(d) for d in dice)


def number(n: int) -> str:
    """A count as a sentence says it: "no", "three", "twenty-one" (digits from a hundred)."""
    if 0 <= n < len(NUMBERS):
        return NUMBERS[n]
    if n < 100:
        return TENS[n // 10] + (f"-{NUMBERS[n % 10]}" if n % 10 else "")
    return str(n)


def count(n: int, word: str, many: str | None = None) -> str:
    """"one shard", "three shards", "no shards"."""
    return f"{number(n)} {word if n == 1 else many or word + 's'}"


def piece(suit: str) -> str:
    """A suit's piece of the artifact, as the story names it: "the Waves piece"."""
    return f"the {suit} piece"


def shard(suit: str, short: bool = False) -> str:
    """A token, as the story names it: "a shard of the Waves piece" ("a Waves shard",
    ``short``, once the story has named one)."""
    return f"a {suit} shard" if short else f"a shard of {piece(suit)}"


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


def _unique(items: list[str]) -> list[str]:
    return list(dict.fromkeys(items))


class HexaractTale(Tale):
    """Setting out (the shards you carry, the pieces the Crowns keep, the road's first
    cards), then a day per roll: the cards that came, the day's line of dice, what you did
    with them, and one paragraph for the night. Journal entries stand where the tale is
    when they are written, which is right after the card their question is about: a
    paragraph is joined to the one before only when nothing stands between them."""

    def __init__(self, teller: HexaractTeller, seed: str, walk) -> None:
        super().__init__(teller, seed, walk)
        self.setting: list[dict[str, Any]] = []
        self.days: list[dict[str, Any]] = []
        self.beats = self.setting  # where the next beat goes: setting out, then the day
        self.part: str | None = None  # what the last beat tells, while the next may join it
        self.started = False  # the first roll starts day 1
        self.between = False  # the night is told; what comes next belongs to the next day
        self.set_out = False  # the first Ace is told
        self.more: list[str] = []  # the Aces of the paragraph after the first, while it is open
        self.rewards: list[str] = []
        self.road = False  # the road's first card is told
        self.morning: dict[str, Any] | None = None  # the day's line of dice, while the day lasts
        self.head = ""  # its first words: the roll, and the harm you carried into the day
        self.moves: list[str] = []  # what the day's dice (and a shard spent) went to
        self.barren = False
        self.night: list[int] = []  # the steps of a night being paid (an event's token chosen)
        self.hurts: dict[str, int] = {}  # nights each card hurt you
        self.took: set[str] = set()  # the events that took a shard
        self.told = dict.fromkeys(SUITS, "never")  # each piece as the tale last told it: "held", "missing"
        self.named: set[str] = set()  # the suits whose shards the story has named
        self.harm_told = 0
        self.shards = {"won": 0, "crowns": 0, "lost": 0, "warded": 0}
        self.tally: dict[str, list] = {k: [] for k in TALLIES}
        self.final: HexaractState | None = None  # the state after the last step told

    @property
    def begun(self) -> bool:
        return bool(self.setting) or bool(self.days)

    # -- paragraphs -------------------------------------------------------------------

    def tell(self, text: str, part: str | None = None, **extra: Any) -> dict[str, Any]:
        """A paragraph of narration telling the step being told; joined to the last one
        when both are of the same ``part`` (the cards that came, the day's deeds) and
        nothing stands between them."""
        last = self.beats[-1] if self.beats else None
        if part is not None and part == self.part and last is not None and last["kind"] == "text":
            self.beats[-1] = self.joined(last, self.stamp({"kind": "text", "text": text}))
            return self.beats[-1]
        beat = self.stamp({"kind": "text", "text": text, **extra})
        self.beats.append(beat)
        self.part = part
        return beat

    def today(self) -> None:
        """A new day begins with the first draw or roll after the last night."""
        if self.between or not self.days:
            self.days.append({"number": len(self.days) + 1, "beats": []})
            self.beats = self.days[-1]["beats"]
            self.part = None
            self.between = False
            self.morning = None

    def journal(self, beat: dict[str, Any]) -> None:
        self.beats.append(beat)
        self.part = None

    def oracle(self, beat: dict[str, Any]) -> None:
        self.beats.append(beat)
        self.part = None

    # -- the steps --------------------------------------------------------------------

    def draw(self, step: Step, e: CardDrawn) -> None:
        self.final = _hexaract(step.after)
        p = self.p
        card_id, to = e.card, e.to
        if to == ACE_TOKEN:
            suit = ace_suit(card_id)
            self.told[suit] = "held"
            self.named.add(suit)
            if not self.set_out:
                self.set_out = True
                self.tell(p["set_out"].format(suit=suit, image=p["aces"][card_id]), "first ace")
                return
            if self.part != "aces":
                self.more = []
                self.tell("", "aces")
            self.more.append(card_id)
            self._retell(self._aces())
        elif to == ACE_REWARD:
            if self.part != "rewards":
                self.rewards = []
                self.tell("", "rewards")
            self.rewards.append(ace_suit(card_id))
            suits = self.rewards
            if len(suits) == 1:
                self._retell(p["rewards"][1].format(Piece=cap(piece(suits[0]))))
            else:
                named = join_and(f"the {s}" for s in suits)
                self._retell(p["rewards"][0].format(count=number(len(suits)), suits=named))
        else:
            if self.started:
                self.today()
            text = p["cards"][card_id]["arrive"]
            if not self.started and not self.road:
                text = f"{p['road_begins']} {text}"
            self.road = True
            self.tell(text, "arrivals")

    def _retell(self, text: str) -> None:
        """The open paragraph told again with one more card in it (the Aces set out with,
        the ace rewards), and the step being told among its steps."""
        self.beats[-1] = self.stamp({**self.beats[-1], "text": text})

    def _aces(self) -> str:
        """The Aces you set out with after the first, in one sentence."""
        p = self.p
        if len(self.more) == 1:
            return p["set_out_more"][1].format(suit=ace_suit(self.more[0]), image=p["aces"][self.more[0]])
        a, b = self.more[-2:]  # (two at most: three Aces give tokens, the first told alone)
        return p["set_out_more"][0].format(a=ace_suit(a), b=ace_suit(b), image_a=p["aces"][a], image_b=p["aces"][b])

    def roll(self, step: Step, rolled: DiceRolled) -> None:
        after = self.final = _hexaract(step.after)
        self.started = True
        self.today()
        dice = list(rolled.dice)
        self.barren = not any(isinstance(a.move, Assign) for a in after.legal_actions())
        self.moves = []
        harm = f" (harm {harm_words(after.harm)})" if after.harm else ""
        self.head = f"Roll {dice_line(dice)}{harm}"
        self.morning = self.stamp({"kind": "mechanics", "text": "", "dice": dice})
        self._morning_words()
        self.beats.append(self.morning)
        self.part = None
        if self.barren:
            self.tell(self.say("barren", self.p["phrasing"]["barren"]), "deeds")
        elif dice.count(6) >= 3:
            self.tell(self.say("wild", self.p["phrasing"]["wild"]), "deeds")

    def _morning_words(self) -> None:
        """The day's line of mechanics: the roll, then what each couplet and the shard
        spent went to."""
        m = self.morning
        if m is None:
            return
        if self.moves:
            what = "; ".join(self.moves)
        elif self.barren:
            what = "no couplet fit the journey"
        else:
            what = "no couplet assigned"
        m["text"] = f"{self.head}: {what}."

    def decision(self, step: Step, move: Move) -> None:
        after = _hexaract(step.after)
        self.final = after
        if isinstance(move, (Assign, Spend)):
            self._mechanics(move)
            self.tell(self._deed(move, after), "deeds")
        elif after.phase == "pay":  # an event's token is still to be chosen: the night goes on
            if self.now is not None:
                self.night.append(self.now)
        else:  # the night's consequences are all paid
            self._tell_night(after)
            self.between = True

    def _mechanics(self, move: Assign | Spend) -> None:
        """What a couplet or a shard spent went to, for the day's line of mechanics."""
        name = decktet.name(move.card)
        if isinstance(move, Assign):
            a, b = move.dice
            values = couplet_values(a, b, rank_of(move.card))
            text = f"{dice_text(a, b, values) if values else f'{a}+{b}'} to {name} for {move.suit}"
        else:
            text = f"a {move.suit} token spent on {name}"
        if move.ace_won:
            text += f", with {decktet.name(move.ace_won)}"
        self.moves.append(text)
        self._morning_words()

    def shard(self, suit: str) -> str:
        """A shard of ``suit``, named in full the first time the story names one."""
        short = suit in self.named
        self.named.add(suit)
        return shard(suit, short)

    # -- what you did -----------------------------------------------------------------

    def _deed(self, move: Assign | Spend, after: HexaractState) -> str:
        """A couplet or a shard spent, in the card's own words, with what it won or cost."""
        p, tally = self.p, self.tally
        card_id, suit = move.card, move.suit
        words = p["cards"][card_id]
        done = card_id not in after.journey  # it left the journey: thwarted, turned, made safe
        kind = kind_of(card_id)
        out = []
        if kind == "location":
            ward = f"one of your own {suit} shards" if isinstance(move, Spend) else f"a {suit} ward"
            out.append(words["safe" if done else "begun"].format(ward=ward))
            if isinstance(move, Spend):
                tally["placed"].append(suit)
                self.shards["warded"] += 1
            if done:
                tally["surveyed"].append(card_id)
        else:
            tally["thwarted" if kind == "personality" else "turned"].append(card_id)
            out.append(words["thwarted" if kind == "personality" else "turned"].format(shard=self.shard(suit)))
            self._gained(suit)
        if move.ace == NO_ACE:
            out.append(p["no_ace"])
        elif move.ace_won:
            s = ace_suit(move.ace_won)
            self.shards["crowns"] += 1
            tally["aces"].append(s)
            won = self.shard(s)
            fmt = {"name": decktet.name(card_id), "Name": decktet.Name(card_id), "shard": won, "Shard": cap(won)}
            out.append(self.say("ace", p["phrasing"]["ace"]).format(**fmt))
            self._gained(s)
        return " ".join(out)

    def _gained(self, suit: str) -> None:
        """A shard won, counted (whether it brings a piece is told as the night leaves it)."""
        self.tally["gathered"].append(suit)
        self.shards["won"] += 1

    # -- the night --------------------------------------------------------------------

    def _tell_night(self, state: HexaractState) -> None:
        """One paragraph: who hurt you (each card in its own words the first two nights it
        does), how far the harm has come (each count told once), what each misfortune took
        or failed to take, and whether it passed; a quiet night when nothing happened."""
        p, ph, tally = self.p, self.p["phrasing"], self.tally
        hurt: list[str] = []
        taken: dict[str, str] = {}
        missed: list[str] = []
        passed: list[str] = []
        for c in state.consequences:
            if c.kind == "harm":
                hurt.append(c.card)
                tally["suffered" if kind_of(c.card) == "personality" else "tired"].append(c.card)
            elif c.kind == "token lost":
                assert c.suit is not None
                taken[c.card] = c.suit
                tally["endured"].append(c.card)
                tally["lost"].append(c.suit)
                self.shards["lost"] += 1
            elif c.kind == "no token":
                missed.append(c.card)
                tally["endured"].append(c.card)
            elif c.kind == "passes":
                passed.append(c.card)
        parts: list[str] = []
        for group, key in (("personality", "people_again"), ("location", "places_again")):
            often = []
            for card_id in (c for c in hurt if kind_of(c) == group):
                nights = self.hurts.get(card_id, 0)
                self.hurts[card_id] = nights + 1
                if nights < 2:
                    parts.append(p["cards"][card_id]["hurt" if nights == 0 else "again"])
                else:
                    often.append(card_id)
            if often:
                names = decktet.names(often)
                parts.append(self.say(key, ph[key]).format(names=names, Names=cap(names)))
        if state.harm > self.harm_told:
            self.harm_told = state.harm
            parts.append(p["harm"]["over" if state.harm > HARM_LIMIT else str(state.harm)])
        for card_id, suit in taken.items():
            fmt = {"Name": decktet.Name(card_id), "name": decktet.name(card_id), "shard": self.shard(suit)}
            if card_id not in self.took:
                parts.append(p["cards"][card_id]["took"].format(**fmt))
                if card_id in passed:
                    parts.append(self.say("passed", ph["passed"]).format(**fmt))
            else:
                key = "taken_last" if card_id in passed else "taken"
                parts.append(self.say(key, ph[key]).format(**fmt))
            self.took.add(card_id)
        for card_id in missed:
            key = "missed_last" if card_id in passed else "missed"
            parts.append(self.say(key, ph[key]).format(Name=decktet.Name(card_id), name=decktet.name(card_id)))
        if not parts:
            parts.append(self.say("quiet", ph["quiet"]))
        if state.outcome is None:  # (a night that ends the road: the reckoning tells what you held)
            parts.extend(self._pieces(state))
        beat = self.tell(" ".join(parts), "night")
        for n in self.night:
            if n not in beat["steps"]:
                beat["steps"].insert(0, n)
        self.night = []

    def _pieces(self, state: HexaractState) -> list[str]:
        """The pieces the night leaves you with for the first time, without, or with again,
        against what the tale last told of each (a piece spent and won back in one day, or
        won and spent, is not told)."""
        ph = self.p["phrasing"]
        first = [s for s in SUITS if self.told[s] == "never" and state.held(s) > 0]
        gone = [s for s in SUITS if self.told[s] == "held" and state.held(s) == 0]
        back = [s for s in SUITS if self.told[s] == "missing" and state.held(s) > 0]
        for s in first + back:
            self.told[s] = "held"
        for s in gone:
            self.told[s] = "missing"

        def words(suits: list[str]) -> dict[str, str]:
            pieces = piece(suits[0]) if len(suits) == 1 else f"the {join_and(suits)} pieces"
            return {"pieces": pieces, "Pieces": cap(pieces), "was": "was" if len(suits) == 1 else "were"}

        out = []
        if first:
            out.append(self.say("first", ph["first"]).format(**words(first)))
        if gone and back:
            g, b = words(gone), words(back)
            out.append(self.say("swap", ph["swap"]).format(gone=g["pieces"], back=b["pieces"], Back=b["Pieces"],
                                                          gone_was=g["was"], back_was=b["was"]))
        elif gone:
            out.append(self.say("gone", ph["gone"]).format(**words(gone)))
        elif back:
            out.append(self.say("back", ph["back"]).format(**words(back)))
        return out

    # -- the end ----------------------------------------------------------------------

    def finish(self) -> dict[str, Any]:
        final, tally = self.final, self.tally
        tally["endured"] = [c for c in tally["endured"] if c not in tally["turned"]]
        outcome = self.outcome
        result = outcome.result if outcome else "unfinished"
        cause = outcome.cause if outcome else None
        held = [s for s in SUITS if final is not None and final.held(s) > 0]
        missing = [s for s in SUITS if s not in held]
        harm = final.harm if final is not None else 0
        return {
            "intro": self.p["intro"],
            "setting_out": self.setting,
            "days": self.days,
            "ending": self._ending(result, cause, missing),
            "outcome_words": self._outcome_words(result, cause, harm, held, missing),
            "reckoning": self._reckoning(final, held, missing),
            "harm": harm,
            "harm_limit": HARM_LIMIT,
            "harm_words": harm_words(harm),
            "held": held,
            "missing": missing,
            "supply": {s: final.held(s) for s in SUITS} if final is not None else {},
            "tally": {k: (_unique([decktet.name(c) for c in v]) if k in CARD_TALLIES else v) for k, v in tally.items()},
            "result": result,
        }

    def _ending(self, result: str, cause: object, missing: list[str]) -> str:
        endings = self.p["endings"]
        if result == "won":
            return endings["won"]
        if cause == Cause.HARM:
            return endings["harm"]
        if cause == Cause.ARTIFACT_INCOMPLETE:
            return endings["artifact-incomplete"].format(missing=join_and(piece(s) for s in missing))
        return endings.get(result, endings["unfinished"])

    @staticmethod
    def _outcome_words(result: str, cause: object, harm: int, held: list[str], missing: list[str]) -> str:
        """The ending and the score as one line of mechanics."""
        score = f"score {len(held)}"
        if result == "won":
            return f"Won: the journey cleared with all six suits in your supply ({score})."
        if cause == Cause.HARM:
            return f"Lost: harm {harm_words(harm)}; {count(len(held), 'suit')} in your supply ({score})."
        if cause == Cause.ARTIFACT_INCOMPLETE:
            return (f"Lost: the journey cleared, but your supply lacked {join_and(missing)}; "
                    f"{count(len(held), 'suit')} in it ({score}).")
        if result == "abandoned":
            return f"Abandoned, with harm {harm_words(harm)} and {count(len(held), 'suit')} in your supply."
        return f"Unfinished: harm {harm_words(harm)}, {count(len(held), 'suit')} in your supply."

    def _reckoning(self, final: HexaractState | None, held: list[str], missing: list[str]) -> list[str]:
        """The road as a whole, in a few sentences: who you thwarted and who hurt you, the
        places made safe, the misfortunes, and what the artifact held at the end."""
        r, tally = self.p["reckoning"], self.tally
        left = [c for c in (final.journey if final is not None else ()) if c is not None]
        out = []

        def some(key: str, cards: list[str]) -> str:
            cards = _unique(cards)
            options = r[key]
            names = decktet.names(cards)
            if len(cards) >= 4:
                return options[2].format(count=number(len(cards)), first=decktet.name(cards[0]),
                                         last=decktet.name(cards[-1]))
            return options[0 if len(cards) == 1 else 1].format(names=names)

        def names(cards: list[str]) -> dict[str, str]:
            words = decktet.names(_unique(cards))
            return {"names": words, "Names": cap(words)}

        people = []
        thwarted = tally["thwarted"]
        if thwarted:
            people.append(some("people", thwarted))
            hurt_first = [c for c in thwarted if c in self.hurts]
            if hurt_first:
                people.append(r["people_hurt"].format(**names(hurt_first)))
        still = [c for c in left if kind_of(c) == "personality"]
        if still:
            people.append(r["people_left"].format(**names(still)))
        places = []
        if tally["surveyed"]:
            places.append(some("places", tally["surveyed"]))
            tired = [c for c in tally["surveyed"] if c in self.hurts]
            if tired:
                places.append(r["places_hurt"].format(**names(tired)))
        unsafe = [c for c in left if kind_of(c) == "location"]
        if unsafe:
            places.append(r["places_left" if len(unsafe) == 1 else "places_left_many"].format(**names(unsafe)))
        events = []
        if tally["turned"]:
            events.append(r["events"].format(**names(tally["turned"])))
        endured = _unique([c for c in tally["endured"] if c not in tally["turned"]])
        if endured:
            events.append(r["events_endured"].format(**names(endured)))
        out = [" ".join(x) for x in (people, places, events) if x]
        s = self.shards
        if not s["crowns"]:
            crowns = ""
        elif s["won"] == 1:
            crowns = " from a Crown"
        elif s["crowns"] == 1:
            crowns = ", one of them from a Crown"
        else:
            crowns = f", {number(s['crowns'])} of them from the Crowns"
        shards = r["shards_won"].format(shards=count(s["won"], "shard"), crowns=crowns)
        rest = [r[f"shards_{k}"].format(n=number(s[k]), verb="was" if s[k] == 1 else "were")
                for k in ("lost", "warded") if s[k]]
        artifact = [f"{shards}; {join_and(rest)}." if rest else f"{shards}."]
        when = r["when"]["unfinished" if self.outcome is None else "end"]
        if not missing:
            result = self.outcome.result if self.outcome is not None else None
            artifact.append(r["whole"] if result == "won" else r["all_so_far"] if result is None
                            else r["all_held"].format(When=when))
        elif held:
            artifact.append(r["part"].format(When=when, count=number(len(held)),
                                             missing=join_and(piece(m) for m in missing),
                                             was="was" if len(missing) == 1 else "were"))
        else:
            artifact.append(r["none"].format(When=when))
        out.append(" ".join(artifact))
        return out


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
                    "harm": harm_words(state.harm),
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

"""Cascades told as water finding its way down three falls, and you following it: the
forced first card is the source, tier 1 the first fall, tier 2 the second, tier 3 the
third, and the reserves are hidden pools the water uncovers as it circles round, pass after
pass.

Journaling questions come with the cards worth one: the source, each card a pool shows, the
first card of the second and of the third fall, a fall made whole, and the rounds the water
begins. Each of these is told in a paragraph of its own before its question (stamped with
its step); the dozens of cards turned onto the waste pass quietly.

Every card is something the water meets (``prompts/cascades.json``, ``cards``): named in
passing, with a few words of what it is, the first time the tale meets it (``by``), or told
in a whole sentence where a question follows it (``seen``); after that, by its name alone.
The plays between two questions are told together, the first of a round with a word of
when it came ("two rounds later"); a card following another down a fall may be told
through what the two share (the same moonlight, the same current). The count of the falls
is mechanics: one line at the end of each round that moved them, and the tally at the end.

The beats that come back in one story take their words from the tale's dealt phrasings
(:meth:`Tale.say`), so no wording comes again before the others have had their turn.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from storyteller.core import decktet
from storyteller.core.engine import Draw, Move, State
from storyteller.core.words import cap, join_and
from storyteller.games.cascades.rules import (
    RESERVE_NAMES, TIERS, CascadesState, Play, Turn, place_of, reserve_draw,
)
from storyteller.log.events import CardDrawn, Revealed
from storyteller.log.replay import Step
from storyteller.telling.meanings import info, theme
from storyteller.telling.meanings import meaning as card_meaning
from storyteller.telling.stories import Tale, Teller


def _cascades(state: State | None) -> CascadesState:
    """A step's state, as this game's (every state a Cascades step holds is one)."""
    assert isinstance(state, CascadesState)
    return state


PARAGRAPH = 4  # sentences of narration in one paragraph at most
MECHANICS = 3  # sentences told, at least, before a line of mechanics (or an entry of the journal)
RECENT = 4  # how many of a beat's last wordings are not used again right away
GAP = "\x00"  # where a card named in passing ends, in a sentence being made (see _mend)

ORDINALS = ("first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth thirteenth "
            "fourteenth fifteenth sixteenth seventeenth eighteenth nineteenth twentieth").split()

CARDINALS = "one two three four five six seven eight nine ten eleven twelve".split()


def cardinal(n: int) -> str:
    """``two``, ``twelve``; past twelve, the number."""
    return CARDINALS[n - 1] if 1 <= n <= len(CARDINALS) else str(n)


def ordinal(n: int) -> str:
    """``second``, ``twelfth``; past twenty, ``21st``, ``22nd``, ``23rd``, ``24th``."""
    if 1 <= n <= len(ORDINALS):
        return ORDINALS[n - 1]
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def an(word: str) -> str:
    """``an eighth``, ``a fifth``, ``an 18th``: a word (or a number's ordinal) with its article."""
    vowel = word[:1] in "aeiou" or (word[:1].isdigit() and re.match(r"(8|11|18|8\d)(st|nd|rd|th)$", word) is not None)
    return f"{'an' if vowel else 'a'} {word}"


def counted(n: int, noun: str) -> str:
    """``one card``, ``two cards``, ``14 cards``: a number in words and its noun, agreeing."""
    return f"{cardinal(n)} {noun}{'' if n == 1 else 's'}"


def _mend(text: str) -> str:
    """A sentence with its cards named in passing closed: the words that follow a card's
    appositive ("the Huntress, a silent archer who never missed") are set off by a comma,
    and none is added before a stop."""
    return re.sub(f"{GAP}(?=[ ])", ",", text).replace(GAP, "")


class CascadesTale(Tale):
    """The way down: the source, then, in order, the plays (told together between two
    questions), each pool opening or a card surfacing in one, each round the water begins
    that a question is about, and a line of mechanics when a round moved the falls."""

    def __init__(self, teller: CascadesTeller, seed: str, walk) -> None:
        super().__init__(teller, seed, walk)
        self.acts: list[dict[str, Any]] = []
        self.run: list[dict[str, Any]] = []  # sentences told since the last paragraph, not yet joined
        self.source: dict[str, str] | None = None
        self.start: dict[str, Any] | None = None  # the source's paragraph
        self.source_words = ""
        self.started = False  # a decision has been made
        self.round = 1  # the pass the table is in
        self.spoken = 1  # the last pass the tale has spoken of
        self.turn: dict[str, Any] | None = None  # the turn that began this pass, if not yet told
        self.first_met: str | None = None  # the card the last round told met first
        self.shown: tuple[int, ...] = (0, 0, 0)  # the falls' counts the last line of mechanics gave
        self.since = 0  # sentences told since that line
        self.wrote = False  # whether the journal has had its say since then
        self.covers = 1  # the first pass the next line of mechanics covers
        self.sizes: tuple[int, ...] = ()
        self.tiers: list[list[str]] = [[] for _ in range(TIERS)]
        self.told: set[str] = set()  # cards the tale has named
        self.stamped: set[int] = set()  # steps a paragraph tells
        self.quiet: dict[int, str | None] = {}  # steps not told (a card turned onto the waste, a turn): the card
        self.recent: dict[str, list[str]] = {}  # the words each kind of beat has used, in order

    # -- words ----------------------------------------------------------------------------

    def words(self, kind: str, options: list[str], memory: str | None = None) -> str:
        """The next words for this kind of beat (:meth:`Tale.say`), passing over any used
        in the last few beats of its kind (or of ``memory``, shared by two kinds dealt from
        overlapping lists), so that no wording comes back within a few lines when a new
        round of them is dealt."""
        recent = self.recent.setdefault(memory or kind, [])
        keep = min(RECENT, (len(options) - 1) // 2)
        words = self.say(kind, options)
        for _ in range(len(options)):
            if not keep or words not in recent[-keep:]:
                break
            words = self.say(kind, options)
        recent.append(words)
        return words

    def card(self, card_id: str) -> str:
        """A card as the tale names it: the first time, with a few words of what it is; then
        by its name alone."""
        name = decktet.name(card_id)
        if card_id in self.told:
            return name
        self.told.add(card_id)
        return f"{name}, {self.p['cards'][card_id]['by']}{GAP}"

    def seen(self, card_id: str) -> str:
        """The sentence that tells a card where a question may follow it (the first time the
        tale meets it), or nothing."""
        if card_id in self.told:
            return ""
        self.told.add(card_id)
        return " " + self.p["cards"][card_id]["seen"]

    def when(self) -> str:
        """A word of when, for the first sentence of a round the tale has not spoken of yet
        ("on the next round, ", "two rounds later, "; within a paragraph, "then " or
        nothing), or nothing."""
        gap = self.round - self.spoken
        self.spoken = self.round
        if gap <= 0:
            if self.acts or self.run:
                return ""
            return self.words("when.first", self.p["when"]["first"])
        kind = "next" if gap == 1 else "later"
        if kind == "next" and len(self.run) % PARAGRAPH:  # within a paragraph, a lighter word, or none
            kind = "more"
        words = self.words(f"when.{kind}", self.p["when"][kind])
        return words.format(nth=ordinal(self.round), count=cardinal(gap))

    # -- paragraphs -----------------------------------------------------------------------

    def sentence(self, text: str, *steps: int, brk: bool = False, glue: bool = False) -> None:
        """One sentence of narration, telling ``steps``; ``brk``: it starts a paragraph;
        ``glue``: it stays in the paragraph of the sentence before it, however long."""
        self.since += 1
        self.run.append({"text": cap(_mend(text)), "steps": list(steps), "break": brk, "glue": glue})
        self.stamped.update(steps)

    def flush(self) -> None:
        """The sentences told since the last paragraph, as paragraphs (a new one at a break,
        and after PARAGRAPH sentences)."""
        para: dict[str, Any] | None = None
        size = 0
        for s in self.run:
            beat = {"kind": "text", "text": s["text"], "steps": list(s["steps"])}
            if para is not None and not s["break"] and (size < PARAGRAPH or s["glue"]):
                para.update(self.joined(para, beat))
                size += 1
            else:
                para = beat
                self.acts.append(para)
                size = 1
        self.run = []

    def mechanics(self) -> None:
        """At the end of a pass: a line of mechanics, how full each fall (tier) is, once the
        passes since the last line moved the falls and the tale has told a good part of it
        (a few sentences, or the journal's words); else the next line covers this pass too."""
        counts = tuple(len(t) for t in self.tiers)
        if counts == self.shown or not self.sizes or (self.since < MECHANICS and not self.wrote):
            return
        self.flush()
        a, b, c = (f"{n}/{size}" for n, size in zip(counts, self.sizes, strict=True))
        passes = f"pass {self.round}" if self.covers == self.round else f"passes {self.covers}\N{EN DASH}{self.round}"
        words = self.words("mechanics", self.p["mechanics"])  # worded in turn, as Hexaract's dice are
        text = words.format(passes=cap(passes), passes_low=passes, a=a, b=b, c=c)
        self.acts.append({"kind": "mechanics", "text": text})
        self.shown, self.since, self.wrote, self.covers = counts, 0, False, self.round + 1

    # -- what the water meets --------------------------------------------------------------

    @property
    def begun(self) -> bool:
        return self.started

    def journal(self, beat: dict[str, Any]) -> None:
        about = beat.get("about")
        if self.turn is not None and about == self.turn["n"]:
            self.tell_round()
        elif about is not None and about not in self.stamped and about in self.quiet:
            card = self.quiet[about]
            if card is not None:  # a question about a card the tale let pass: it is told now
                self.sentence(self.words("turned", self.p["turned"]).format(card=self.card(card)), about,
                              brk=True)
        self.flush()
        self.wrote = True
        self.acts.append(beat)

    def oracle(self, beat: dict[str, Any]) -> None:
        self.flush()
        self.acts.append(beat)

    def tell_round(self) -> None:
        """The round the water has just begun, in a paragraph of its own: the first card it
        met, when there is one."""
        turn, self.turn = self.turn, None
        assert turn is not None
        self.spoken = self.round
        nth = ordinal(self.round)
        card = turn["card"]
        rounds = self.p["rounds"]
        said = {"nth": nth, "a_nth": an(nth)}
        if card is None:
            text = self.words("round.empty", rounds["empty"]).format(**said)
        else:
            said |= {"name": decktet.name(card), "name_cap": decktet.Name(card)}
            if card == self.first_met:
                text = self.words("round.again", rounds["again"]).format(**said)
            else:
                text = self.words("round.new", rounds["new"]).format(**said) + self.seen(card)
        self.first_met = card
        self.sentence(text, turn["n"], brk=True)

    def draw(self, step: Step, e: CardDrawn) -> None:
        card_id = e.card
        state = _cascades(step.after)
        if not self.sizes:
            self.sizes = tuple(len(state.tiers[t]) + len(state.lacks(t + 1)) for t in range(TIERS))
        if place_of(e.to)[0] == "tier":  # the source
            self.source = info(card_id)
            self.tiers[0].append(card_id)
            self.source_words = self.words("source", self.p["source"]).format(name=decktet.name(card_id))
            self.start = self.stamp({"kind": "text", "text": self.source_words + self.seen(card_id)})
            self.stamped.add(e.n)
            self.shown = tuple(len(t) for t in self.tiers)
            return
        found = reserve_draw(e.to, e.slot)
        if not found:
            self.quiet[e.n] = card_id
            return
        k, opens = found
        pool = self.p["pools"][str(k)]
        name = decktet.name(card_id)
        if opens:  # at the end of a pass: the pass that ended is the one the tale speaks of
            self.flush()
            text = self.words("opened", self.p["opened"]).format(nth=ordinal(state.pass_no), pool=pool, name=name)
            self.spoken = self.round
        else:
            text = self.words("surfaced", self.p["surfaced"]).format(pool=pool, pool_cap=cap(pool), name=name)
        self.sentence(text + self.seen(card_id), e.n, brk=opens, glue=not opens)

    def decision(self, step: Step, move: Move) -> None:
        self.started = True
        before, after = _cascades(step.before), _cascades(step.after)
        if isinstance(move, Turn):
            if after.pass_no > self.round:  # a new pass begins
                self.mechanics()
                self.round = after.pass_no
                self.turn = {"n": step.n, "card": after.waste_top}
            else:
                self.quiet[step.n] = after.waste_top
            return
        if not isinstance(move, Play):
            return
        card_id, k, t = move.card, move.reserve, move.tier
        p = self.p
        here = self.tiers[t - 1]
        prev = here[-1] if here else None  # the card it follows down this fall
        here.append(card_id)
        fall = p["falls"][t - 1]
        steps = [step.n]
        if self.turn is not None:  # the round this play is the first news of
            steps.append(self.turn["n"])
            self.turn = None
        when = self.when()
        if prev is None:
            kind = "begins"
        elif before.lacks(t) and not after.lacks(t):
            kind = "completes"
        elif k is not None:
            kind = "from_pool"
        else:
            kind = "plays"
        options = p[kind]
        if kind == "plays" and not when:  # those that open on where the card fell read well only without a when
            kind, options = "plays.any", p["plays"] + p["plays_after"]
        words = self.words(kind, options, memory=kind.split(".")[0])
        bond = ""
        if prev is not None and "{bond}" in words:  # what the two share: the rules make them share a suit
            suit = _shared(card_id, prev)[0]
            bond = self.words(f"bond.{suit}", p["bonds"][suit])
        card = self.card(card_id)
        if k is not None and kind in ("begins", "completes"):  # their words say nothing of a pool
            card += f", out of {p['pools'][str(k)]}{GAP}"
        text = words.format(when=when, fall=fall, pool=p["pools"][str(k or 1)], card=card,
                            prev=decktet.name(prev) if prev else "", bond=bond)
        self.sentence(text, *steps)

    # -- the end ----------------------------------------------------------------------------

    def finish(self) -> dict[str, Any]:
        self.flush()
        p, source = self.p, self.source
        steps = self.walk.steps
        final: CascadesState | None = steps[-1].after if steps else None  # type: ignore[assignment]
        total = final.deck_size if final is not None else 0
        placed = final.placed if final is not None else 0
        result = self.outcome.result if self.outcome else "unfinished"
        left: list[str] = []
        if final is not None:
            left = [c for where, cards in final.places().items() if place_of(where)[0] != "tier" for c in cards]
        unseen = total - placed - len(left)
        falls = [self._fall(final, t) for t in range(1, TIERS + 1)] if final is not None else []
        return {
            "intro": p["intro"],
            "source": source,
            "source_words": self.source_words,
            "start": self.start,
            "acts": self.acts,
            "falls": falls,
            "tiers": ", ".join(f"{f['count']}/{f['size']}" for f in falls),
            "placed": placed,
            "left": [info(c) for c in left],
            "left_words": self._left(final, unseen) if final is not None and result == "lost" else "",
            "unseen": unseen,
            "total": total,
            "passes": max(self.round, final.pass_no if final is not None else 1),
            "outcome": result,
            "ending": p["endings"].get(result, ""),
        }

    def _fall(self, state: CascadesState, tier: int) -> dict[str, Any]:
        """A fall at the end, with its course in words: from its first card down to its last."""
        name = self.p["falls"][tier - 1]
        cards = list(state.tiers[tier - 1])
        size = len(cards) + len(state.lacks(tier))
        suits = Counter(s for c in cards for s in decktet.get(c).suits)
        main = max(decktet.SUITS, key=lambda s: (suits[s], -decktet.SUITS.index(s))) if cards else None
        full = len(cards) == size
        course = self.p["course"]
        names = [decktet.name(c) for c in cards]
        kind = "none" if not cards else "one" if len(cards) == 1 else "pair" if len(cards) == 2 else \
            "whole" if full else "short"
        words = self.words(f"course.{kind}", course[kind]).format(
            fall=name, fall_cap=cap(name), first=names[0] if names else "", last=names[-1] if names else "",
            middle=join_and(names[1:-1]))
        if len(cards) >= 3 and main:
            themed = theme(main)
            words += " " + self.words("course.theme", course["theme"]).format(theme=themed, theme_cap=cap(themed))
        return {
            "no": tier,
            "name": name,
            "Name": cap(name),
            "cards": [info(c) for c in cards],
            "count": len(cards),
            "size": size,
            "full": full,
            "suit": main or "",
            "theme": theme(main) if main else "",
            "words": words,
        }

    def _left(self, state: CascadesState, unseen: int) -> str:
        """Where the cards the falls never took were left, in words: those still going round
        with the water, those lying in a pool, and how many never came to light."""
        words = self.p["left"]
        out = []
        circling = [*state.waste, *(c for c in state.stock if isinstance(c, str))]
        if circling:
            who = self.card(circling[0]) if len(circling) == 1 else join_and(decktet.name(c) for c in circling)
            out.append(_mend(cap(words["circling"].format(who=who))))
        for k in range(1, len(RESERVE_NAMES) + 1):
            lying = state.places()[f"reserve {k}"]
            if lying:
                who = join_and(decktet.name(c) for c in lying)
                out.append(cap(words["pool"].format(who=who, pool=self.p["pools"][str(k)])))
        if unseen:
            out.append(cap(words["unseen"].format(count=counted(unseen, "card"))))
        return " ".join(out)


class CascadesTeller(Teller):
    tale = CascadesTale

    def moment(self, request: Any, state: Any) -> str | None:
        # A reserve opens at the end of a pass: its top card is turned up.
        found = reserve_draw(request.to, request.slot) if isinstance(request, Draw) else None
        return "reserve" if found and found[1] else None

    def draw_text(self, event: Revealed) -> str:
        assert isinstance(event, CardDrawn)  # Cascades deals cards, and rolls no dice
        label = decktet.label(event.card)
        if place_of(event.to)[0] == "tier":
            return f"Turned three; the third, {label}, starts tier 1."
        found = reserve_draw(event.to, event.slot)
        if found:
            k, opens = found
            if opens:
                return f"The {RESERVE_NAMES[k]} reserve opened: {label} lies on top."
            return f"Turned up {label} in the {RESERVE_NAMES[k]} reserve."
        return f"Turned {label} onto the waste."

    def meaning(self, event: Revealed, seed: str, variants: dict[str, str] | None = None) -> str:
        assert isinstance(event, CardDrawn)  # Cascades deals cards, and rolls no dice
        text = card_meaning(event.card)
        if place_of(event.to)[0] == "tier":
            return f"Where the water rises: {text}"
        if reserve_draw(event.to, event.slot):
            return f"In a hidden pool: {text}"
        return text

    def topic(self, event: Revealed) -> str | None:
        """The source and every reserve card raise a question; waste cards pass quietly."""
        assert isinstance(event, CardDrawn)  # Cascades deals cards, and rolls no dice
        if place_of(event.to)[0] == "tier":
            return "source"
        found = reserve_draw(event.to, event.slot)
        if found:
            return "opening" if found[1] else "reserve"
        return None

    def key_moment(self, event: Revealed) -> bool:
        """The turning points: the source, and each hidden pool opening (cards surfacing
        later in a pool pass without a question)."""
        assert isinstance(event, CardDrawn)  # Cascades deals cards, and rolls no dice
        return self.topic(event) in ("source", "opening")

    def step_facts(self, steps: list[Step]) -> list[dict[str, Any]]:
        """The pass each step belongs to, for the playthrough's headings: the highest pass
        reached so far, so a step taken back stays under the pass it was made in."""
        out = []
        shown = 1
        for step in steps:
            shown = max(shown, _cascades(step.after).pass_no)
            out.append({"pass": shown})
        return out

    def title(self, story: dict[str, Any]) -> str:
        titles = self.prompts["titles"]
        return titles.get(story["outcome"], titles["unfinished"])


def _shared(card: str, prev: str) -> list[str]:
    """The suits a card shares with the one it follows in a fall, in the deck's order."""
    mine, theirs = set(decktet.get(card).suits), set(decktet.get(prev).suits)
    return [s for s in decktet.SUITS if s in mine and s in theirs]

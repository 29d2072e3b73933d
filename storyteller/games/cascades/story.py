"""Cascades told as water finding its way down three falls: the forced first card is the
source, tier 1 is the first fall, tier 2 the second, tier 3 the third, and the reserves
are hidden pools the water uncovers as it circles round, pass after pass.

Journaling questions come with the cards worth one: the source, and each reserve card
turned up (a pool opening, or a card surfacing in it). The dozens of cards turned onto
the waste pass quietly; the generic journal entry is always in the menu.

The beats that come back many times in one story (a card reaching a fall, a pass, a pool
giving up a card) take their words from the tale's dealt phrasings (:meth:`Tale.say`), so
no wording comes again before the others have had their turn; a card reaching a fall may
be told with the card it follows there and the suits the two share.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from storyteller.core import decktet
from storyteller.core.engine import Draw, Move, State
from storyteller.games.cascades.rules import RESERVE_NAMES, TIERS, CascadesState, Play, place_of, reserve_draw
from storyteller.log.events import CardDrawn, Revealed
from storyteller.log.replay import Step
from storyteller.telling.stories import Tale, Teller
from storyteller.telling.meanings import info, theme
from storyteller.telling.meanings import meaning as card_meaning
from storyteller.core.words import cap, join_and


def _cascades(state: State | None) -> CascadesState:
    """A step's state, as this game's (every state a Cascades step holds is one)."""
    assert isinstance(state, CascadesState)
    return state

PARAGRAPH = 4  # plays told in one paragraph at most
RECENT = 4  # how many of a beat's last wordings are not used again right away

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


class CascadesTale(Tale):
    """The way down, play by play: a pool opening or a card surfacing in one, each card
    reaching a fall, and a line when the water comes round again (passes that go by with
    nothing told are counted in one line)."""

    def __init__(self, teller: CascadesTeller, seed: str, walk) -> None:
        super().__init__(teller, seed, walk)
        self.acts: list[dict[str, Any]] = []
        self.source: dict[str, str] | None = None
        self.started = False  # a decision has been made
        self.pass_seen = 1
        self.idle = 0  # passes gone round with nothing told since
        self.told_since_pass = True
        self.tiers: list[list[str]] = [[] for _ in range(TIERS)]
        self.told: set[str] = set()  # cards whose meaning the tale has given
        self.recent: dict[str, list[str]] = {}  # the words each kind of beat has used, in order

    def words(self, kind: str, options: list[str]) -> str:
        """The next words for this kind of beat (:meth:`Tale.say`), passing over any used
        in the last few beats of its kind, so that no wording comes back within a few
        lines when a new round of them is dealt."""
        recent = self.recent.setdefault(kind, [])
        keep = min(RECENT, (len(options) - 1) // 2)
        words = self.say(kind, options)
        for _ in range(len(options)):
            if not keep or words not in recent[-keep:]:
                break
            words = self.say(kind, options)
        recent.append(words)
        return words

    @property
    def begun(self) -> bool:
        return self.started

    def tell(self, text: str, brk: bool = False) -> None:
        """One line of the tale (``brk``: it starts a paragraph)."""
        self.told_since_pass = True
        self.acts.append({"kind": "text", "text": text, "break": brk})

    def journal(self, beat: dict[str, Any]) -> None:
        self.acts.append(beat)

    def oracle(self, beat: dict[str, Any]) -> None:
        self.acts.append(beat)

    def _pass(self, step: Step) -> None:
        """Tell a new pass once something happens in it (after the first decision)."""
        now = max(self.pass_seen, _cascades(step.after).pass_no)
        if now > self.pass_seen and self.started:
            acts = self.acts
            if not self.told_since_pass and acts and acts[-1].get("pass"):
                self.idle += now - self.pass_seen
                if "idle" not in acts[-1]:  # one wording for the line, however many passes it grows to
                    acts[-1]["idle"] = self.words("idle", self.p["idle"]["many"])
                acts[-1]["text"] = acts[-1]["idle"].format(count=cardinal(self.idle + 1))
            else:
                self.idle = 0
                self.tell(self.words("pass", self.p["passes"]).format(n=now, nth=ordinal(now)), brk=True)
                acts[-1]["pass"] = True
            self.told_since_pass = False
        self.pass_seen = now

    def draw(self, step: Step, e: CardDrawn) -> None:
        self._pass(step)
        p = self.p
        card_id = e.card
        if place_of(e.to)[0] == "tier":
            self.source = info(card_id)
            self.tiers[0].append(card_id)
            return
        found = reserve_draw(e.to, e.slot)
        if not found:
            return
        k, opens = found
        pool = p["pools"][str(k)]
        kind = "opened" if opens else "surfaced"
        words = self.words(kind, p[kind])
        c = info(card_id)
        self.told.add(card_id)
        self.tell(words.format(pool=pool, pool_cap=cap(pool), **c) + f" {c['meaning']}", brk=opens)

    def decision(self, step: Step, move: Move) -> None:
        self._pass(step)
        self.started = True
        p = self.p
        if not isinstance(move, Play):
            return  # a turn: the passes are told as they come
        card_id, k, t = move.card, move.reserve, move.tier
        fall = p["falls"][t - 1]
        pool = p["pools"][str(k or 1)]
        c = info(card_id)
        here = self.tiers[t - 1]
        prev = here[-1] if here else None  # the card it follows in this fall
        shared = _shared(card_id, prev) if prev else []  # never empty: the rules make them share a suit
        if prev is None:
            words = self.words("begins", p["begins"])
        elif k is not None:
            words = self.words("from_pool", p["from_pool"])
        else:
            words = self.words("play", p["plays"])
        here.append(card_id)
        text = words.format(fall=fall, fall_cap=cap(fall), pool=pool, pool_cap=cap(pool),
                            prev=info(prev)["name"] if prev else "", shared=join_and(shared), **c)
        if card_id not in self.told:  # a card met in a pool was told of when it surfaced
            text += f" {c['meaning']}"
            self.told.add(card_id)
        self.tell(text, brk=prev is None)

    def finish(self) -> dict[str, Any]:
        p, source = self.p, self.source
        steps = self.walk.steps
        final: CascadesState | None = steps[-1].after if steps else None  # type: ignore[assignment]
        total = final.deck_size if final is not None else 0
        placed = final.placed if final is not None else 0
        result = self.outcome.result if self.outcome else "unfinished"
        left: list[str] = []
        if final is not None:
            left = [c for where, cards in final.places().items() if place_of(where)[0] != "tier" for c in cards]
        return {
            "source": source,
            "source_words": self.words("source", p["source"]).format(**source) if source else "",
            "acts": _paragraphs(self.acts),
            "falls": [_fall(final, t, p["falls"][t - 1]) for t in range(1, TIERS + 1)] if final is not None else [],
            "placed": placed,
            "left": [info(c) for c in left],
            "unseen": total - placed - len(left),
            "total": total,
            "passes": self.pass_seen,
            "outcome": result,
            "ending": p["endings"].get(result, ""),
        }


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


def _fall(state: CascadesState, tier: int, name: str) -> dict[str, Any]:
    cards = list(state.tiers[tier - 1])
    size = len(cards) + len(state.lacks(tier))
    suits = Counter(s for c in cards for s in decktet.get(c).suits)
    main = max(decktet.SUITS, key=lambda s: (suits[s], -decktet.SUITS.index(s))) if cards else None
    return {
        "no": tier,
        "name": name,
        "Name": cap(name),
        "cards": [info(c) for c in cards],
        "count": len(cards),
        "size": size,
        "full": len(cards) == size,
        "suit": main,
        "theme": theme(main) if main else "",
    }


def _shared(card: str, prev: str) -> list[str]:
    """The suits a card shares with the one it follows in a fall, in the deck's order."""
    mine, theirs = set(decktet.get(card).suits), set(decktet.get(prev).suits)
    return [s for s in decktet.SUITS if s in mine and s in theirs]


def _paragraphs(acts: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Consecutive lines of the tale joined into paragraphs; a journal entry, a new pass or
    a pool opening starts a new one, and no paragraph tells more than PARAGRAPH events."""
    out: list[dict[str, Any]] = []
    size = 0
    for a in acts:
        joinable = a["kind"] == "text" and not a["break"] and out and out[-1]["kind"] == "text"
        if joinable and size < PARAGRAPH:
            out[-1] = {"kind": "text", "text": out[-1]["text"] + " " + a["text"]}
            size += 1
        else:  # a journal entry or a question to the oracle stands as it is, between paragraphs
            out.append({"kind": "text", "text": a["text"]} if a["kind"] == "text" else a)
            size = 1
    return out

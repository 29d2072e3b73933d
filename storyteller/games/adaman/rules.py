"""Adaman (P.D. Magnus): the heir's conspiracy, played with the Decktet.

Three rows lie on the table. The capital (five cards, refilled after every play) holds
people and events around the city; the resources (kept at five) are what the player
spends; the court holds the personalities that turned up while resources were dealt.
A play picks a target in the capital or the court and pays for it with resources that
each share a suit with it and whose ranks add up to the target's rank or more. A
personality so controlled leaves play (it is counted as controlled, and scores its
rank); any other card joins the resources to be spent later.

How the rulings read the text (see RULINGS.md):

* Dealing is one pass, capital first (to five), then resources (to five). A personality
  dealt to the resources goes to the court and another card is dealt in its place. The
  setup is simply the first such pass.
* Six personalities in the court at once is an utter loss, at that very moment, even
  during the setup.
* Controlling the last personality wins at once: there is no refill, so the resources
  scored are what is left after paying.
* After every complete pass of dealing (setup included) the game is lost if no play is
  possible, even with cards left in the deck.
* Score: won = ranks of the controlled personalities + ranks left in the resources;
  lost = ranks of the controlled personalities; utter loss = 0.
* ``extended`` adds the Excuse, the Pawns and the Courts (rank 10); ``extra-personalities``
  adds only the first N of the Watchman, the Light Keeper and the Consul. The two do not
  combine.
* The Excuse is never kept. Dealt to the capital, the player moves one resource into the
  capital; dealt to the resources, the player moves one capital card into the resources
  (a personality goes to the court instead). Then it is discarded and dealing goes on
  where it was. With nothing to move it is discarded at once. A capital card taken by
  the Excuse during the resource part of a refill is only replaced at the next refill.

Card ids in action keys are the Decktet ids of ``storyteller.core.cards``; the resources paid
are listed in deck order (the order of ``decktet_cards()``), joined by ``+``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from itertools import combinations

import storyteller.core.decktet as decktet
from storyteller.core.cards import Card, decktet_cards
from storyteller.core.engine import (
    Abandoned, Action, Draw, Game, GameState, Move, Outcome, Result, RuleError, Variant, VariantError, Word,
)

ROW = 5  # the capital and the resources are dealt up to five cards
COURT_LIMIT = 5  # a sixth personality at court is the end
EXCUSE = "excuse"
EXTRA_PERSONALITIES = ("watchman", "light-keeper", "consul")


# -- card data ----------------------------------------------------------------------------

CARDS: dict[str, Card] = {c.id: c for c in decktet_cards()}
ORDER: dict[str, int] = {c.id: i for i, c in enumerate(decktet_cards())}
BASIC: tuple[str, ...] = tuple(c.id for c in decktet_cards() if c.deck == "basic")
EXTENDED: tuple[str, ...] = tuple(c.id for c in decktet_cards() if c.deck == "extended")


def rank(card_id: str) -> int:
    """Ace 1, numerals as printed, Crown 10, Pawn and Court 10; the Excuse has none (0)."""
    c = CARDS[card_id]
    if c.value is not None:
        return c.value
    if c.rank in ("Pawn", "Court"):
        return 10
    return 0


def suits(card_id: str) -> tuple[str, ...]:
    return CARDS[card_id].suits


def is_personality(card_id: str) -> bool:
    return "personality" in CARDS[card_id].types


RANK: dict[str, int] = {cid: rank(cid) for cid in CARDS}
SUITS: dict[str, frozenset[str]] = {cid: frozenset(suits(cid)) for cid in CARDS}
PERSON: dict[str, bool] = {cid: is_personality(cid) for cid in CARDS}
LABEL: dict[str, str] = {cid: decktet.label(cid, rank=str(RANK[cid])) for cid in CARDS}  # "the Mill (8, Waves/Leaves)"
SPENT: dict[str, str] = {cid: f"{decktet.name(cid)} ({RANK[cid]})" for cid in CARDS}  # "the Mill (8)"


def game_deck(variants: Mapping[str, str]) -> tuple[str, ...]:
    """The card ids this game shuffles, in a fixed order (deck order)."""
    if variants.get("extended", "off") == "on":
        return BASIC + EXTENDED
    n = int(variants.get("extra-personalities", "0"))
    return BASIC + EXTRA_PERSONALITIES[:n]


_SETS: dict[tuple[str, ...], frozenset[str]] = {}


def _as_set(deck: tuple[str, ...]) -> frozenset[str]:
    """The cards of a game's deck as a set (made once per deck)."""
    found = _SETS.get(deck)
    if found is None:
        found = _SETS[deck] = frozenset(deck)
    return found


_PEOPLE: dict[tuple[str, ...], int] = {}


def _people(deck: tuple[str, ...]) -> int:
    """How many personalities a game's deck holds (counted once per deck)."""
    found = _PEOPLE.get(deck)
    if found is None:
        found = _PEOPLE[deck] = sum(1 for c in deck if PERSON[c])
    return found


def in_order(card_ids: Iterable[str]) -> list[str]:
    return sorted(card_ids, key=ORDER.__getitem__)


def landing(card_id: str, row: str) -> str:
    """Where a card dealt to ``row`` ("capital" or "resources") ends up: that row, "court"
    for a personality dealt to the resources, "excuse" for the Excuse (set aside until
    it has done its work)."""
    if card_id == EXCUSE:
        return "excuse"
    if row == "resources" and PERSON[card_id]:
        return "court"
    return row


def can_pay(resources: Iterable[str], target: str) -> bool:
    """Whether the resources sharing a suit with ``target`` reach its rank together."""
    ts = SUITS[target]
    return sum(RANK[r] for r in resources if SUITS[r] & ts) >= RANK[target]


def payments(resources: Iterable[str], target: str, minimal: bool = False) -> list[tuple[str, ...]]:
    """Every legal payment for ``target`` from ``resources``: fewest cards first, each in
    deck order. With ``minimal``, only the payments no card of which could be left out.

    The one enumeration of payments of the rules: the legal actions use it (the policy and
    the solver use the same enumeration on bit masks, ``adaman_core.Tables.payments``,
    and a test checks the two agree)."""
    need = RANK[target]
    ts = SUITS[target]
    eligible = in_order(r for r in resources if SUITS[r] & ts)
    if sum(RANK[r] for r in eligible) < need:
        return []
    out = []
    for k in range(1, len(eligible) + 1):
        for combo in combinations(eligible, k):
            total = sum(RANK[r] for r in combo)
            if total < need:
                continue
            if minimal and total - min(RANK[r] for r in combo) >= need:
                continue  # its smallest card could be left out
            out.append(combo)
    return out


class Cause(Word):
    """How a game of Adaman ends (a player who abandons it: ``Abandoned``); the
    meaning of each is in the game's ``causes``."""

    ALL_CONTROLLED = "all-controlled"
    STALLED = "stalled"
    COURT_FULL = "court-full"


# -- the moves ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Control(Move):
    """Pay for ``target`` (in the capital or the court) with the resources ``paid``."""

    target: str
    paid: tuple[str, ...]  # deck order
    kind = "control"

    @property
    def key(self) -> str:
        return f"control {self.target} with {'+'.join(self.paid)}"


@dataclass(frozen=True)
class Shift(Move):
    """The Excuse's move: ``card`` goes to the row ``to`` ("capital", "resources", or
    "court" for a personality taken from the capital)."""

    card: str
    to: str
    kind = "excuse"
    spelling = "move {card} to the {to}"


def parse(key: str) -> Move:
    """The move a key names, in any case and with the resources in any order."""
    words = key.strip().lower().split()
    if len(words) == 4 and words[0] == "control" and words[2] == "with":
        target, paid = words[1], [r for r in words[3].split("+") if r]
        for c in [target, *paid]:
            if c not in CARDS:
                raise RuleError(f"'{c}' is not a card")
        if not paid:
            raise RuleError(f"controlling {decktet.name(target)} takes at least one resource")
        return Control(target, tuple(in_order(paid)))
    if len(words) == 5 and words[0] == "move" and words[2:4] == ["to", "the"]:
        if words[4] not in ("capital", "resources", "court"):
            raise RuleError(f"the Excuse moves a card to the capital, the resources or the court, not '{words[4]}'")
        if words[1] not in CARDS:
            raise RuleError(f"'{words[1]}' is not a card")
        return Shift(words[1], words[4])
    raise RuleError(
        f"'{key}' is not an Adaman play (control CARD with CARD+CARD..., or for the Excuse: move CARD to the ROW)"
    )


# -- the state ----------------------------------------------------------------------------


@dataclass
class AdamanState(GameState):
    deck: tuple[str, ...] = BASIC  # every card of this game, deck order (shared, never changed)
    drawn: int = 0  # cards drawn so far: the next draw is slot ``drawn``
    capital: list[str] = field(default_factory=list)
    resources: list[str] = field(default_factory=list)
    court: list[str] = field(default_factory=list)
    discard: list[str] = field(default_factory=list)  # resources spent, and the Excuse
    controlled: list[str] = field(default_factory=list)  # personalities controlled, in order
    filling: str | None = "capital"  # the row being dealt: "capital", "resources" or None
    excuse_at: str | None = None  # where the Excuse lies while the player chooses what it moves
    plays: int = 0
    pending: Draw | None = None
    result: Outcome | None = None

    # -- what the table shows ---------------------------------------------------------------

    @property
    def deck_count(self) -> int:
        """Cards left in the deck."""
        return len(self.deck) - self.drawn

    def personalities(self) -> list[str]:
        """Every personality in this game, deck order."""
        return [c for c in self.deck if PERSON[c]]

    def to_control(self) -> list[str]:
        """Personalities not yet controlled, whether on the table or still in the deck."""
        done = set(self.controlled)
        return [c for c in self.deck if PERSON[c] and c not in done]

    def seen(self) -> set[str]:
        return {c for cards in self.places().values() for c in cards}

    def unseen(self) -> list[str]:
        """Cards still in the deck (what a player could count; their order is unknown)."""
        seen = self.seen()
        return [c for c in self.deck if c not in seen]

    def places(self) -> dict[str, list[str]]:
        return {
            "court": list(self.court),
            "capital": list(self.capital),
            "resources": list(self.resources),
            "excuse": [EXCUSE] if self.excuse_at else [],
            "discard": list(self.discard),
            "controlled": list(self.controlled),
        }

    @property
    def outcome(self) -> Outcome | None:
        return self.result

    def playing(self) -> bool:
        """Whether the game waits for a play (not for a card, the Excuse or nothing at all)."""
        return self.result is None and self.pending is None and self.excuse_at is None

    def targets(self) -> list[str]:
        """Cards in the court or the capital that some set of the resources could control."""
        if not self.playing():
            return []
        return [t for t in self.court + self.capital if can_pay(self.resources, t)]

    # -- chance -----------------------------------------------------------------------------

    def chance(self) -> Draw | None:
        return self.pending

    def _ask(self, to: str) -> None:
        # every card of the game not in one of the places (see ``places``)
        options = _as_set(self.deck).difference(self.court, self.capital, self.resources, self.discard, self.controlled)
        if self.excuse_at:
            options = options - {EXCUSE}
        self.pending = Draw(deal=0, slot=self.drawn, to=to, options=options)

    def _deal(self) -> None:
        """Go on with the current pass of dealing: capital to five, then resources to five."""
        while self.result is None and self.excuse_at is None and self.pending is None:
            if self.filling == "capital":
                if len(self.capital) < ROW and self.deck_count > 0:
                    self._ask("capital")
                    return
                self.filling = "resources"
            elif self.filling == "resources":
                if len(self.resources) < ROW and self.deck_count > 0:
                    self._ask("resources")
                    return
                self.filling = None
            else:
                self._check_stuck()
                return

    def resolve(self, outcome) -> None:
        draw = self.pending
        if draw is None:
            raise RuleError("no card is waiting to be drawn")
        if outcome not in draw.options:
            raise RuleError(f"{outcome} cannot be drawn here: it is not among the cards left in the deck")
        self.pending = None
        self.drawn += 1
        place = landing(outcome, draw.to)
        if place == "excuse":
            self._excuse(draw.to)
        elif place == "court":
            self._to_court(outcome)
        elif place == "capital":
            self.capital.append(outcome)
        else:
            self.resources.append(outcome)
        self._deal()

    def _to_court(self, card_id: str) -> None:
        self.court.append(card_id)
        if len(self.court) > COURT_LIMIT:
            self.result = Outcome(
                Result.UTTER_LOSS,
                f"{decktet.Name(card_id)} made six personalities at court: someone has discovered the plot.",
                0,
                Cause.COURT_FULL,
            )

    def _excuse(self, row: str) -> None:
        """The Excuse was dealt to ``row``: a choice if there is something to move, else discard it."""
        source = self.resources if row == "capital" else self.capital
        if source:
            self.excuse_at = row
        else:
            self.discard.append(EXCUSE)

    # -- the end ----------------------------------------------------------------------------

    def _check_stuck(self) -> None:
        if not any(can_pay(self.resources, t) for t in self.court + self.capital):
            left = len(self.to_control())
            self.result = Outcome(
                Result.LOST,
                f"No play is possible with {left} personalit{'y' if left == 1 else 'ies'} still uncontrolled: "
                "the plan must be abandoned.",
                sum(RANK[c] for c in self.controlled),
                Cause.STALLED,
            )

    def _check_won(self) -> bool:
        if len(self.controlled) == _people(self.deck):
            kept = sum(RANK[c] for c in self.resources)
            ruled = sum(RANK[c] for c in self.controlled)
            self.result = Outcome(
                Result.WON,
                f"Every personality is under your control: the throne is yours "
                f"({ruled} for the personalities + {kept} left in the resources).",
                ruled + kept,
                Cause.ALL_CONTROLLED,
            )
            return True
        return False

    # -- the player's choices ---------------------------------------------------------------

    def moves(self) -> list[Move]:
        """The legal moves, in the order the player sees them: the Excuse's moves while it
        waits, else every target (court first, then capital) with each of its payments."""
        if self.result is not None or self.pending is not None:
            return []
        if self.excuse_at is not None:
            return list(self._shifts())
        return [Control(t, paid) for t in self.targets() for paid in payments(self.resources, t)]

    def _shifts(self) -> list[Shift]:
        if self.excuse_at == "capital":
            return [Shift(r, "capital") for r in in_order(self.resources)]
        return [Shift(c, "court" if PERSON[c] else "resources") for c in in_order(self.capital)]

    def legal_actions(self) -> list[Action]:
        return [Action(m, self.describe(m)) for m in self.moves()]

    def describe(self, move: Move) -> str:
        if isinstance(move, Shift):
            card = LABEL[move.card]
            if move.to == "capital":
                return f"The Excuse: move {card} from your resources to the capital"
            if move.to == "court":
                return f"The Excuse: move {card} from the capital; a personality goes to the court"
            return f"The Excuse: move {card} from the capital to your resources"
        assert isinstance(move, Control)
        target = move.target
        where = "the court" if target in self.court else "the capital"
        total = sum(RANK[r] for r in move.paid)
        then = "it is controlled and leaves play" if PERSON[target] else "it joins your resources"
        spent = " + ".join(SPENT[r] for r in move.paid)
        named = LABEL[target]
        return f"Control {named} in {where} with {spent} (total {total}); {then}"

    def apply(self, move: Move) -> None:
        if self.result is not None:
            raise RuleError("the game is over")
        if self.pending is not None:
            raise RuleError("a card must be dealt first")
        if self.excuse_at is not None:
            if not isinstance(move, Shift) or move not in self._shifts():
                if self.excuse_at == "capital":
                    raise RuleError("the Excuse was dealt to the capital: move one of your resources into the capital")
                raise RuleError("the Excuse was dealt to your resources: move one capital card into your resources")
            self._shift(move)
            return
        if not isinstance(move, Control):
            raise RuleError(f"'{move.key}' is not an Adaman play now: only the Excuse moves a card between the rows")
        why = why_refused(self, move.target, move.paid)
        if why is not None:
            raise RuleError(why)
        self._play(move.target, move.paid)

    def _shift(self, move: Shift) -> None:
        card_id = move.card
        if move.to == "capital":
            self.resources.remove(card_id)
            self.capital.append(card_id)
        else:
            self.capital.remove(card_id)
            if move.to == "court":
                self._to_court(card_id)
            else:
                self.resources.append(card_id)
        self.excuse_at = None
        self.discard.append(EXCUSE)
        self._deal()

    def _play(self, target: str, paid: Iterable[str]) -> None:
        for r in paid:
            self.resources.remove(r)
            self.discard.append(r)
        if target in self.court:
            self.court.remove(target)
        else:
            self.capital.remove(target)
        self.plays += 1
        if PERSON[target]:
            self.controlled.append(target)
            if self._check_won():
                return
        else:
            self.resources.append(target)
        self.filling = "capital"
        self._deal()


# -- helpers for the terminal: target first, then resources --------------------------------


def eligible_resources(state: AdamanState, target: str) -> list[str]:
    """The resources that share at least one suit with ``target`` (deck order)."""
    ts = SUITS.get(target, frozenset())
    return in_order(r for r in state.resources if SUITS[r] & ts)


def why_refused(state: AdamanState, target: str, resources: Iterable[str]) -> str | None:
    """None if controlling ``target`` with ``resources`` is legal, else the rule it breaks."""
    if state.result is not None:
        return "the game is over"
    if state.pending is not None:
        return "a card must be dealt first"
    if state.excuse_at is not None:
        return "the Excuse must be dealt with first"
    if target not in CARDS:
        return f"'{target}' is not a card"
    the_target = decktet.name(target)
    if target not in state.capital and target not in state.court:
        return f"{the_target} is not in the capital or the court: only those cards can be controlled"
    paid = list(resources)
    if not paid:
        return f"controlling {the_target} takes at least one resource"
    if len(set(paid)) != len(paid):
        return "each resource can be spent only once"
    for r in paid:
        if r not in CARDS or r not in state.resources:
            name = decktet.name(r) if r in CARDS else f"'{r}'"
            return f"{name} is not among your resources"
    for r in paid:
        if not SUITS[r] & SUITS[target]:
            return f"{decktet.name(r)} ({RANK[r]}) does not share a suit with {the_target}"
    total = sum(RANK[r] for r in paid)
    if total < RANK[target]:
        return f"ranks total {total}, {the_target} needs {RANK[target]} or more"
    return None


def control_action(state: AdamanState, target: str, resources: Iterable[str]) -> Action:
    """The Action that controls ``target`` with ``resources`` (RuleError if it is not legal)."""
    resources = list(resources)
    why = why_refused(state, target, resources)
    if why is not None:
        raise RuleError(why)
    move = Control(target, tuple(in_order(resources)))
    return Action(move, state.describe(move))


class Adaman(Game):
    name = "adaman"
    title = "Adaman"
    summary = "Control every personality of the kingdom with your resources before the court fills up (Decktet)."
    variants = (
        Variant(
            "extended",
            ("off", "on"),
            "add the Excuse, the Pawns and the Courts (Pawns and Courts are rank 10): an easier game",
            flag=True,
        ),
        Variant(
            "extra-personalities",
            ("0", "1", "2", "3"),
            "add only the first N of the Watchman, the Light Keeper and the Consul (rank 10): a harder game",
        ),
    )
    causes: Mapping[str, str] = {
        Cause.ALL_CONTROLLED: "won: every personality of the game was controlled",
        Cause.STALLED: "lost: after a deal no play was possible, with personalities still uncontrolled",
        Cause.COURT_FULL: "utter loss: a sixth personality arrived at court",
        Abandoned.ABANDONED: "the player abandoned the game",
    }

    def check_variants(self, variants: Mapping[str, str]) -> None:
        if variants.get("extended", "off") == "on" and variants.get("extra-personalities", "0") != "0":
            raise VariantError(
                "extended and extra-personalities do not combine: the extended deck already holds the "
                "Watchman, the Light Keeper and the Consul, while extra-personalities adds only them"
            )

    def deck(self, variants: Mapping[str, str], pile: str = "deck") -> list[str]:
        return list(game_deck(variants))

    def parse(self, key: str) -> Move:
        return parse(key)

    def new_state(self, variants: Mapping[str, str]) -> AdamanState:
        self.check_variants(variants)
        state = AdamanState(deck=game_deck(variants))
        state._deal()
        return state


GAME = Adaman()

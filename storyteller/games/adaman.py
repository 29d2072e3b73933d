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

Card ids in action keys are the Decktet ids of ``storyteller.cards``; the resources paid
are listed in deck order (the order of ``decktet_cards()``), joined by ``+``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations
from typing import Mapping

from storyteller.cards import Card, decktet_cards
from storyteller.engine import Action, Draw, Game, Hint, Outcome, RuleError, Variant, VariantError

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


def the(card_id: str) -> str:
    """The card's name as it reads inside a sentence: "the Castle", "the Ace of Moons"."""
    name = CARDS[card_id].name
    return name if name.lower().startswith("the ") else f"the {name}"


def The(card_id: str) -> str:
    text = the(card_id)
    return text[0].upper() + text[1:]


def label(card_id: str) -> str:
    """Name, rank and suits: "the Castle (7, Suns/Knots)"."""
    if card_id == EXCUSE:
        return "the Excuse"
    return f"{the(card_id)} ({RANK[card_id]}, {'/'.join(suits(card_id))})"


def game_deck(variants: Mapping[str, str]) -> tuple[str, ...]:
    """The card ids this game shuffles, in a fixed order (deck order)."""
    if variants.get("extended", "off") == "on":
        return BASIC + EXTENDED
    n = int(variants.get("extra-personalities", "0"))
    return BASIC + EXTRA_PERSONALITIES[:n]


def in_order(card_ids) -> list[str]:
    return sorted(card_ids, key=ORDER.__getitem__)


# -- the state ----------------------------------------------------------------------------


@dataclass
class AdamanState:
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

    # -- chance -----------------------------------------------------------------------------

    def chance(self) -> Draw | None:
        return self.pending

    def _ask(self, to: str) -> None:
        options = frozenset(self.unseen())
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
        if outcome == EXCUSE:
            self._excuse(draw.to)
        elif draw.to == "capital":
            self.capital.append(outcome)
        elif PERSON[outcome]:
            self._to_court(outcome)
        else:
            self.resources.append(outcome)
        self._deal()

    def _to_court(self, card_id: str) -> None:
        self.court.append(card_id)
        if len(self.court) > COURT_LIMIT:
            self.result = Outcome(
                "utter loss",
                f"{The(card_id)} made six personalities at court: someone has discovered the plot.",
                0,
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
        if not any(True for _ in self._targets()):
            left = len(self.to_control())
            self.result = Outcome(
                "lost",
                f"No play is possible with {left} personalit{'y' if left == 1 else 'ies'} still uncontrolled: "
                "the plan must be abandoned.",
                sum(RANK[c] for c in self.controlled),
            )

    def _check_won(self) -> bool:
        if len(self.controlled) == sum(1 for c in self.deck if PERSON[c]):
            kept = sum(RANK[c] for c in self.resources)
            ruled = sum(RANK[c] for c in self.controlled)
            self.result = Outcome(
                "won",
                f"Every personality is under your control: the throne is yours "
                f"({ruled} for the personalities + {kept} left in the resources).",
                ruled + kept,
            )
            return True
        return False

    # -- plays ------------------------------------------------------------------------------

    def _targets(self):
        """(target, eligible resources) for every target with at least one legal payment."""
        for t in self.court + self.capital:
            ts = SUITS[t]
            eligible = [r for r in self.resources if SUITS[r] & ts]
            if sum(RANK[r] for r in eligible) >= RANK[t]:
                yield t, eligible

    def _playing(self) -> bool:
        return self.result is None and self.pending is None and self.excuse_at is None

    def legal_actions(self) -> list[Action]:
        if self.result is not None or self.pending is not None:
            return []
        if self.excuse_at is not None:
            return self._excuse_actions()
        actions = []
        for t, eligible in self._targets():
            need = RANK[t]
            eligible = in_order(eligible)
            for k in range(1, len(eligible) + 1):
                for combo in combinations(eligible, k):
                    if sum(RANK[r] for r in combo) >= need:
                        actions.append(_control(self, t, combo))
        return actions

    def _excuse_actions(self) -> list[Action]:
        if self.excuse_at == "capital":
            return [
                Action(f"move {r} to the capital", f"The Excuse: move {label(r)} from your resources to the capital")
                for r in in_order(self.resources)
            ]
        out = []
        for c in in_order(self.capital):
            if PERSON[c]:
                out.append(
                    Action(
                        f"move {c} to the court",
                        f"The Excuse: move {label(c)} from the capital; a personality goes to the court",
                    )
                )
            else:
                out.append(Action(f"move {c} to the resources", f"The Excuse: move {label(c)} from the capital to your resources"))
        return out

    def apply(self, action: Action) -> None:
        if self.result is not None:
            raise RuleError("the game is over")
        if self.pending is not None:
            raise RuleError("a card must be dealt first")
        key = action.key
        if self.excuse_at is not None:
            legal = {a.key for a in self._excuse_actions()}
            if key not in legal:
                if self.excuse_at == "capital":
                    raise RuleError("the Excuse was dealt to the capital: move one of your resources into the capital")
                raise RuleError("the Excuse was dealt to your resources: move one capital card into your resources")
            card_id = key.split()[1]
            if self.excuse_at == "capital":
                self.resources.remove(card_id)
                self.capital.append(card_id)
            else:
                self.capital.remove(card_id)
                if PERSON[card_id]:
                    self._to_court(card_id)
                else:
                    self.resources.append(card_id)
            self.excuse_at = None
            self.discard.append(EXCUSE)
            self._deal()
            return
        target, paid = _parse_control(key)
        why = why_refused(self, target, paid) if target is not None else f"'{key}' is not an Adaman play"
        if why is not None:
            raise RuleError(why)
        self._play(target, paid)

    def _play(self, target: str, paid) -> None:
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

    def clone(self) -> "AdamanState":
        return AdamanState(
            deck=self.deck,
            drawn=self.drawn,
            capital=list(self.capital),
            resources=list(self.resources),
            court=list(self.court),
            discard=list(self.discard),
            controlled=list(self.controlled),
            filling=self.filling,
            excuse_at=self.excuse_at,
            plays=self.plays,
            pending=self.pending,
            result=self.result,
        )


# -- helpers for the terminal: target first, then resources --------------------------------


def targets(state: AdamanState) -> list[str]:
    """Cards in the court or the capital that some set of the resources could control."""
    if not state._playing():
        return []
    return [t for t, _ in state._targets()]


def eligible_resources(state: AdamanState, target: str) -> list[str]:
    """The resources that share at least one suit with ``target`` (deck order)."""
    ts = SUITS.get(target, frozenset())
    return in_order(r for r in state.resources if SUITS[r] & ts)


def why_refused(state: AdamanState, target: str, resources) -> str | None:
    """None if controlling ``target`` with ``resources`` is legal, else the rule it breaks."""
    if state.result is not None:
        return "the game is over"
    if state.pending is not None:
        return "a card must be dealt first"
    if state.excuse_at is not None:
        return "the Excuse must be dealt with first"
    if target not in CARDS:
        return f"'{target}' is not a card"
    if target not in state.capital and target not in state.court:
        return f"{the(target)} is not in the capital or the court: only those cards can be controlled"
    paid = list(resources)
    if not paid:
        return f"controlling {the(target)} takes at least one resource"
    if len(set(paid)) != len(paid):
        return "each resource can be spent only once"
    for r in paid:
        if r not in CARDS or r not in state.resources:
            name = the(r) if r in CARDS else f"'{r}'"
            return f"{name} is not among your resources"
    for r in paid:
        if not SUITS[r] & SUITS[target]:
            return f"{the(r)} ({RANK[r]}) does not share a suit with {the(target)}"
    total = sum(RANK[r] for r in paid)
    if total < RANK[target]:
        return f"ranks total {total}, {the(target)} needs {RANK[target]} or more"
    return None


def control_action(state: AdamanState, target: str, resources) -> Action:
    """The Action that controls ``target`` with ``resources`` (RuleError if it is not legal)."""
    why = why_refused(state, target, resources)
    if why is not None:
        raise RuleError(why)
    return _control(state, target, in_order(resources))


def _control(state: AdamanState, target: str, paid) -> Action:
    paid = list(paid)
    where = "the court" if target in state.court else "the capital"
    total = sum(RANK[r] for r in paid)
    then = "it is controlled and leaves play" if PERSON[target] else "it joins your resources"
    text = (
        f"Control {label(target)} in {where} with "
        + " + ".join(f"{the(r)} ({RANK[r]})" for r in paid)
        + f" (total {total}); {then}"
    )
    return Action(f"control {target} with {'+'.join(paid)}", text)


def _parse_control(key: str) -> tuple[str | None, list[str]]:
    words = key.split()
    if len(words) != 4 or words[0] != "control" or words[2] != "with":
        return None, []
    return words[1], [r for r in words[3].split("+") if r]


# -- the greedy policy ----------------------------------------------------------------------


def payments(resources, target: str) -> list[tuple[str, ...]]:
    """The minimal legal payments for ``target``: no card of one could be left out."""
    need = RANK[target]
    ts = SUITS[target]
    eligible = in_order(r for r in resources if SUITS[r] & ts)
    if sum(RANK[r] for r in eligible) < need:
        return []
    out = []
    for k in range(1, len(eligible) + 1):
        for combo in combinations(eligible, k):
            total = sum(RANK[r] for r in combo)
            if total >= need and total - min(RANK[r] for r in combo) < need:
                out.append(combo)
    return out


def all_payments(resources, target: str) -> list[tuple[str, ...]]:
    """Every legal payment for ``target``, overpaying ones included."""
    need = RANK[target]
    ts = SUITS[target]
    eligible = in_order(r for r in resources if SUITS[r] & ts)
    return [
        combo
        for k in range(1, len(eligible) + 1)
        for combo in combinations(eligible, k)
        if sum(RANK[r] for r in combo) >= need
    ]


def _solve(capital: frozenset, court: frozenset, resources: frozenset, memo: dict) -> bool:
    """With the deck empty: can every personality left on the table still be controlled?

    Nothing is dealt any more, so keeping a card never hurts: only minimal payments are tried.
    """
    if not any(PERSON[c] for c in court) and not any(PERSON[c] for c in capital):
        return True
    key = (capital, court, resources)
    if key in memo:
        return memo[key]
    memo[key] = False
    for t in sorted(court | capital, key=lambda c: -RANK[c]):
        for pay in payments(resources, t):
            rest = resources.difference(pay)
            if PERSON[t]:
                ok = _solve(capital - {t}, court - {t}, rest, memo)
            else:
                ok = _solve(capital - {t}, court, rest | {t}, memo)
            if ok:
                memo[key] = True
                return True
    return False


# The greedy policy scores every legal play using only what a player can see: the table, and
# which cards are still in the deck (never their order). Overpaying is considered on purpose:
# a weak card spent is replaced by a fresh one at the refill, so the score weighs what is
# spent against the average worth of what will be dealt. Once the deck is empty the rest of
# the game is solved exactly. Weights were tuned on seeds 10000-10999 and 20000-20999, outside
# the range the win-rate script reports.
WEIGHTS = dict(
    control=24.0,  # a personality controlled
    from_court=1.5,  # ... taken out of the court
    utter=45.0,  # chance that the coming refill puts a sixth personality at court
    court=2.4,  # expected court size after the refill
    unaffordable=1.0,  # personalities on the table the remaining resources cannot pay for
    mobility=0.5,  # targets the remaining resources can still pay for
    stuck=8.0,  # ... none at all
    spent=0.375,  # per card spent
    value=1.6,  # worth of the cards spent (rank weighted by how much their suits are needed)
    gain=0.8,  # worth of a card brought into the resources
    fresh=1.0,  # worth of the cards the refill will deal into the resources (on average)
)
_SUIT_NAMES = ("Moons", "Suns", "Waves", "Leaves", "Wyrms", "Knots")


def _court_risk(court: int, resources: int, capital: int, people: int, cards: int) -> tuple[float, float]:
    """(chance of a sixth personality at court, expected court size) over the coming refill.

    ``people`` of the ``cards`` left in the deck are personalities; the capital is dealt
    first (a personality there is harmless), then the resources, where each personality
    goes to court and is replaced.
    """
    dist = {(people, cards): 1.0}
    for _ in range(max(0, ROW - capital)):
        nxt: dict = {}
        for (k, n), p in dist.items():
            if n == 0:
                nxt[(k, n)] = nxt.get((k, n), 0.0) + p
                continue
            if k:
                nxt[(k - 1, n - 1)] = nxt.get((k - 1, n - 1), 0.0) + p * k / n
            if k < n:
                nxt[(k, n - 1)] = nxt.get((k, n - 1), 0.0) + p * (n - k) / n
        dist = nxt
    need = max(0, ROW - resources)
    utter = expected = 0.0
    cur = {(k, n, court, 0): p for (k, n), p in dist.items()}
    while cur:
        nxt = {}
        for (k, n, c, got), p in cur.items():
            if got >= need or n == 0:
                expected += p * c
                continue
            if k:
                q = p * k / n
                if c + 1 > COURT_LIMIT:
                    utter += q
                else:
                    key = (k - 1, n - 1, c + 1, got)
                    nxt[key] = nxt.get(key, 0.0) + q
            if k < n:
                key = (k, n - 1, c, got + 1)
                nxt[key] = nxt.get(key, 0.0) + p * (n - k) / n
        cur = nxt
    return utter, expected


class _View:
    """What the policy knows before choosing: the table and the cards still unseen."""

    def __init__(self, state: AdamanState, weights: dict) -> None:
        self.state = state
        self.w = weights
        self.unseen = state.unseen()
        self.people_left = sum(1 for c in self.unseen if PERSON[c])
        self.total_people = sum(1 for c in state.deck if PERSON[c])
        self.todo = state.to_control()
        self.pool = (
            list(state.resources)
            + [c for c in state.capital if not PERSON[c]]
            + [c for c in self.unseen if not PERSON[c] and c != EXCUSE]
        )
        self._risk: dict = {}

    def risk(self, court: int, resources: int, capital: int) -> tuple[float, float]:
        key = (court, resources, capital)
        if key not in self._risk:
            self._risk[key] = _court_risk(court, resources, capital, self.people_left, len(self.unseen))
        return self._risk[key]

    def worth(self, todo: list[str], pool: list[str]):
        """A card's worth: its rank, weighted by how much its neediest suit is in demand."""
        demand: dict[str, float] = {}
        for p in todo:
            for x in SUITS[p]:
                demand[x] = demand.get(x, 0.0) + RANK[p] / len(SUITS[p])
        supply: dict[str, float] = {}
        for r in pool:
            for x in SUITS[r]:
                supply[x] = supply.get(x, 0.0) + RANK[r] / len(SUITS[r])
        need = {x: demand.get(x, 0.0) / max(supply.get(x, 0.0), 1.0) for x in _SUIT_NAMES}
        return lambda r: RANK[r] * max(need[x] for x in SUITS[r]) if SUITS[r] else 0.0

    def score(self, target: str, paid: tuple[str, ...]) -> float:
        s, w = self.state, self.w
        person = PERSON[target]
        resources = [r for r in s.resources if r not in paid]
        if not person:
            resources.append(target)
        court = [c for c in s.court if c != target]
        capital = [c for c in s.capital if c != target]
        if person and len(s.controlled) + 1 == self.total_people:
            return 1e9
        if not self.unseen:
            # Nothing more will be dealt: the rest of the game can be solved exactly.
            ok = _solve(frozenset(capital), frozenset(court), frozenset(resources), {})
            return (1e8 if ok else -1e8) + 10 * person - sum(RANK[r] for r in paid)
        todo = [p for p in self.todo if p != target]
        pool = [r for r in self.pool if r not in paid]
        worth = self.worth(todo, pool)
        utter, expected = self.risk(len(court), len(resources), len(capital))
        able = unable = 0
        for t in court + capital:
            if sum(RANK[r] for r in resources if SUITS[r] & SUITS[t]) >= RANK[t]:
                able += 1
            elif PERSON[t]:
                unable += 1
        value = (
            w["control"] * person
            + w["from_court"] * (target in s.court)
            - w["utter"] * utter
            - w["court"] * expected
            - w["unaffordable"] * unable
            + w["mobility"] * able
            - w["stuck"] * (able == 0)
            - w["spent"] * len(paid)
            - w["value"] * sum(worth(r) for r in paid)
        )
        if not person:
            value += w["gain"] * worth(target)
        if w["fresh"]:
            plain = [c for c in self.unseen if not PERSON[c] and c != EXCUSE]
            if plain:
                slots = min(max(0, ROW - len(resources)), len(plain))
                value += w["fresh"] * slots * sum(worth(c) for c in plain) / len(plain)
        return value

def greedy(state: AdamanState, weights: dict | None = None) -> Hint | None:
    """The built-in policy: the best-scoring play (or Excuse move) and why, in plain words."""
    if not state._playing() and state.excuse_at is None:
        return None
    view = _View(state, weights or WEIGHTS)
    if state.excuse_at is not None:
        return _excuse_hint(state, view)
    best = None
    for t in targets(state):
        for paid in all_payments(state.resources, t):
            v = view.score(t, paid)
            if best is None or v > best[0]:
                best = (v, t, paid)
    assert best is not None  # a live game always has a play
    value, t, paid = best
    action = _control(state, t, paid)
    over = sum(RANK[r] for r in paid) - RANK[t]
    cost = "at its exact rank" if over == 0 else f"paying {over} over its rank"
    if value >= 1e9:
        why = f"Controlling {the(t)} wins: it is the last personality."
    elif value >= 1e8 - 100:
        why = f"The deck is empty, and after controlling {the(t)} every personality left can still be paid for."
    elif PERSON[t] and t in state.court:
        why = f"{The(t)} is at court, where six personalities would end the game: control it {cost}."
    elif PERSON[t]:
        why = f"{The(t)} is a personality you can control now, {cost}, with cards your other targets need least."
    else:
        why = f"{The(t)} joins your resources {cost} while keeping the court safe and your needed suits in hand."
    return Hint(action, why)


def _excuse_hint(state: AdamanState, view: _View) -> Hint:
    """Move away the resource needed least; bring in the capital card worth most (never a personality if avoidable)."""
    worth = view.worth(view.todo, view.pool)
    actions = {a.key.split()[1]: a for a in state.legal_actions()}
    if state.excuse_at == "capital":
        card_id = min(in_order(actions), key=lambda r: worth(r) + 0.1 * RANK[r])
        return Hint(actions[card_id], f"{The(card_id)} is the resource your personalities need least; it stays within reach in the capital.")
    plain = [c for c in in_order(actions) if not PERSON[c]]
    if plain:
        card_id = max(plain, key=lambda c: worth(c) + 0.1 * RANK[c])
        return Hint(actions[card_id], f"{The(card_id)} is the capital card most useful as a resource.")
    card_id = min(in_order(actions), key=lambda c: RANK[c])
    return Hint(actions[card_id], f"Only personalities are in the capital: {the(card_id)} is the cheapest to control at court.")


# -- the game -------------------------------------------------------------------------------


class Adaman(Game):
    name = "adaman"
    title = "Adaman"
    has_policy = True
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

    def check_variants(self, variants: Mapping[str, str]) -> None:
        if variants.get("extended", "off") == "on" and variants.get("extra-personalities", "0") != "0":
            raise VariantError(
                "extended and extra-personalities do not combine: the extended deck already holds the "
                "Watchman, the Light Keeper and the Consul, while extra-personalities adds only them"
            )

    def deck(self, variants: Mapping[str, str], pile: str = "deck") -> list[str]:
        return list(game_deck(variants))

    def new_state(self, variants: Mapping[str, str]) -> AdamanState:
        self.check_variants(variants)
        state = AdamanState(deck=game_deck(variants))
        state._deal()
        return state

    def canonical(self, key: str) -> str:
        target, paid = _parse_control(key.strip().lower())
        if target is None or any(r not in ORDER for r in paid):
            return key
        return f"control {target} with {'+'.join(in_order(paid))}"

    def hint(self, state: AdamanState) -> Hint | None:
        return greedy(state)


GAME = Adaman()

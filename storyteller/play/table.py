"""Playing at a real table: what the player types for a card or a roll, read and checked
against the game, and the words that tell them how to set the table up.

When the cards and dice are the player's own, storyteller cannot deal: it asks. Whatever
the player types must become the one card id or the tuple of dice the rules expect, or be
refused with a reason they can act on, before anything is logged. Everything here is a
pure function of its arguments (no I/O, no prompts), so the terminal, an answers file and
replay all read cards and dice the same way.

Cards are read by :func:`find_card` (text -> card id, among the cards the game uses) and
checked by :func:`check_card` (can this card be the one turned up now?).
:class:`TableDeck` holds what those two need for one game and its variants, so a driver
makes one per game and calls ``table.read(text, draw, state.places())``. Dice are read by
:func:`parse_dice`; :func:`card_choices` gives the completion list.

Setup words
-----------

Each game's prompts file may hold a ``"setup"`` section: what to do with the real cards
at a given moment of the game. Its shape::

    "setup": {
        "start": PARTS,          # every game: the cards to use, shuffling, the layout
        "reshuffle": PARTS,      # ...any other moment the game has (a name the driver knows)
        "piles": {"aces": "one of the Aces set apart", "deck": "in the journey deck"}
    }

PARTS is a string, or a list whose items are either a string (always said) or
``{"text": "...", "when": {"extended": "on", "extra-personalities": ["1", "2"]}}``, said
only when every variant named has the value given (or one of the values listed); the name
``source`` stands for what the player brings to the table (``"physical"``: cards and dice,
``"physical cards"``, ``"physical dice"``).
:func:`setup_text` picks the parts for a game's variants and puts each on its own line.
``"piles"`` is not a moment: it says, for a game that shuffles several piles, how a card
of each pile is described (see :func:`check_card`).
"""

from __future__ import annotations

import difflib
import itertools
import re
from dataclasses import dataclass, field
from functools import lru_cache, cache
from typing import Any
from collections.abc import Iterable, Mapping, Sequence

from storyteller.core import decktet
from storyteller.core.cards import all_cards, piquet_cards
from storyteller.core.engine import Draw, Game, VariantError
from storyteller.core.words import clean, join_and

PILES = "piles"  # the key of the setup section that is not a moment

# -- naming cards -------------------------------------------------------------------------------

_JOKERS = tuple(c.id for c in piquet_cards() if c.rank == "Joker")
_ORDER = {card_id: i for i, card_id in enumerate(all_cards())}  # piquet, then the Decktet


def card_name(card_id: str) -> str:
    """The card as a sentence names it: "the King of Hearts", "the Huntress", "the Ace of
    Moons". A card storyteller has no data for (a plugin game's) is named by its id."""
    if card_id in decktet.by_id():
        return decktet.name(card_id)
    if card_id in all_cards():
        return f"the {all_cards()[card_id].name}"
    return card_id


def card_label(card_id: str) -> str:
    """The card as a completion list shows it, name first so that typing the start of a
    name finds it: "the King of Hearts (KH)", "the Huntress (Crown, Moons)". A piquet card
    shows its log id, which is short to type; a Decktet card its rank and suits, which is
    what a player sees on the face, except an Ace, whose name already says both ("the Ace of
    Moons")."""
    if card_id in decktet.by_id():
        if decktet.by_id()[card_id].rank == "Ace":
            return decktet.name(card_id)
        return decktet.label(card_id)
    if card_id in all_cards():
        return f"{card_name(card_id)} ({card_id})"
    return card_id


# Words a player may type for the same thing: the rulings make clover = clubs, and a player
# writes a suit in the singular as often as in the plural, or a rank in letters.
_SAME = {
    "club": "clovers", "clubs": "clovers", "clover": "clovers", "heart": "hearts", "spade": "spades",
    "diamond": "diamonds", "moon": "moons", "sun": "suns", "wave": "waves", "leaf": "leaves",
    "wyrm": "wyrms", "knot": "knots", "seven": "7", "eight": "8", "nine": "9", "ten": "10", "knave": "jack",
}
_FILLER = {"the", "of"}  # "the Ace of Moons" and "ace-moons" are the same card


def _words(text: str) -> tuple[str, ...]:
    """The words that tell cards apart: lower case, punctuation and filler words gone,
    synonyms made one ("10 of Clubs" -> ("10", "clovers"))."""
    words = re.findall(r"[a-z0-9]+", text.lower())
    return tuple(_SAME.get(w, w) for w in words if w not in _FILLER)


@cache
def _aliases(card_id: str) -> frozenset[tuple[str, ...]]:
    """Every spelling that names the card: its id ("KH", "ace-of-moons"), its name
    ("King of Hearts", "the Huntress"), and "joker" for either Joker."""
    out = {_words(card_id)}
    if card_id in all_cards():
        c = all_cards()[card_id]
        out.add(_words(c.name))
        if c.rank == "Crown":  # a Crown has one suit: "the Crown of Moons" is the Huntress
            out.add(_words(f"crown {c.suits[0]}"))
    if card_id in _JOKERS:
        out.add(("joker",))
    return frozenset(a for a in out if a)


@lru_cache(maxsize=64)
def _index(universe: tuple[str, ...]) -> dict[str, list[str]]:
    """Spelling -> the cards it names, both with spaces between words ("king hearts") and
    without ("kh", "10c", "kinghearts"): a player types "10 c" or "aceofmoons" too."""
    index: dict[str, list[str]] = {}
    for card_id in universe:
        for words in _aliases(card_id):
            for key in {" ".join(words), "".join(words)}:
                if card_id not in index.setdefault(key, []):
                    index[key].append(card_id)
    return index


def _universe(deck: Sequence[str]) -> tuple[str, ...]:
    """Every card storyteller knows, and any card of this deck it does not (a plugin's)."""
    return tuple(all_cards()) + tuple(c for c in deck if c not in _ORDER)


def _attempts(text: str) -> list[tuple[str, ...]]:
    """The readings of what was typed, most literal first: as typed; for a completion's
    label "the King of Hearts (KH)", its name and then what is in brackets; and without a
    leading "a" or "an" ("a joker")."""
    texts = [text]
    bracket = re.fullmatch(r"(.*?)\((.*)\)\s*", text)
    if bracket:
        texts += [bracket.group(1), bracket.group(2)]
    out = []
    for t in texts:
        words = _words(t)
        out.append(words)
        if len(words) > 1 and words[0] in ("a", "an"):
            out.append(words[1:])
    return [w for w in out if w]


def _lookup(text: str, deck: Sequence[str]) -> list[str]:
    """The cards the text names: by a spelling of :func:`_index`, else by the same words
    in another order ("hearts 7")."""
    universe = _universe(deck)
    index = _index(universe)
    attempts = _attempts(text)
    for words in attempts:
        for key in (" ".join(words), "".join(words)):
            if key in index:
                return index[key]
    for words in attempts:
        found = [c for c in universe if any(sorted(words) == sorted(a) for a in _aliases(c))]
        if found:
            return found
    return []


def _shown(text: str, most: int = 40) -> str:
    """What the player typed, safe to print and short enough for one line."""
    text = " ".join(clean(text).split())
    return text if len(text) <= most else text[: most - 3] + "..."


def _partly(text: str, deck: Sequence[str]) -> list[str]:
    """The cards of ``deck`` whose name holds every word typed: "king" (four Kings),
    "chance" (the Chance Meeting). Never taken as the card itself: "moons" is not the Ace
    of Moons, and the log keeps only what the player named."""
    typed = set(_words(text))
    return [c for c in deck if any(typed <= set(a) for a in _aliases(c))]


def _closest(text: str, deck: Sequence[str]) -> list[str]:
    """The cards of ``deck`` whose names are nearest what was typed (up to three, only
    those about as near as the nearest)."""
    typed = " ".join(_words(text))
    scores = []
    for card_id in deck:
        best = max((difflib.SequenceMatcher(None, typed, " ".join(a)).ratio() for a in _aliases(card_id)), default=0.0)
        scores.append((best, card_id))
    scores.sort(key=lambda s: -s[0])  # stable: deck order among equals
    if not scores or scores[0][0] < 0.6:
        return []
    top = scores[0][0]
    return [c for score, c in scores if score >= 0.6 and score >= top - 0.08][:3]


def _join_or(items: Sequence[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " or " + items[-1]


def find_card(
    text: str,
    deck: Iterable[str],
    options: frozenset[str] | None = None,
    *,
    every: Iterable[str] | None = None,
    standard: bool = True,
) -> str:
    """The id of the card ``text`` names, among ``deck`` (every card this game uses with
    its variants, every pile), or ValueError with one sentence saying why none.

    Ids and names are read alike, in any case, with or without "the" and "of", suits in
    the singular, clubs for clovers, numbers in words, and completion labels as
    :func:`card_label` shows them. "joker" names whichever Joker is still among
    ``options`` (the two are identical at a real table); "red joker" or "JK2" names that
    one. ``every`` (the cards any variant of the game uses) tells a card a variant adds
    ("not in the standard deck") from one the game never uses ("not in this game's
    deck"); ``standard`` says whether the game is played with its standard rules.
    """
    deck = list(deck)
    in_deck = set(deck)
    example = deck[0] if deck else "KH"
    if not _words(text):
        raise ValueError(f"type the card you turned up, such as {card_name(example)} or {example}")
    found = _lookup(text, deck)
    if not found:
        partly = _partly(text, deck)
        if len(partly) > 6:
            raise ValueError(f"'{_shown(text)}' could be any of {len(partly)} cards: type the whole name")
        if len(partly) > 1:
            raise ValueError(f"'{_shown(text)}' could be {_join_or([card_name(c) for c in partly])}: name one card")
        near = [card_name(c) for c in partly or _closest(text, deck)]
        if near:
            raise ValueError(f"no card is called '{_shown(text)}': did you mean {_join_or(near)}?")
        raise ValueError(
            f"no card is called '{_shown(text)}': type its name, such as {card_name(example)}, "
            f"or its id, such as {example}"
        )
    possible = [c for c in found if c in in_deck]
    if not possible:
        raise ValueError(_not_in_deck(found, set(every) if every is not None else in_deck, standard))
    if options is not None:
        for c in possible:
            if c in options:
                return c
    return possible[0]


def _not_in_deck(found: list[str], every: set[str], standard: bool) -> str:
    if len(found) > 1 and all(c in _JOKERS for c in found):
        return "there is no Joker in this game's deck"
    card_id = found[0]
    if card_id in every:
        where = "the standard deck" if standard else "this game's deck with these variants"
        return f"{card_name(card_id)} is not in {where}"
    return f"{card_name(card_id)} is not in this game's deck"


# -- checking a card against the table ------------------------------------------------------------

# How a place of ``state.places()`` reads after "already on the table, ". A place not
# listed here is "in the PLACE" ("in the court", "in the waste"), or "in PLACE" when it ends
# with a number ("in stack 3", "in tier 2").
_PLACE_WORDS = {
    "character": "as the character",
    "overlord": "as the overlord",
    "taken": "among the cards taken",
    "controlled": "among the personalities controlled",
    "discard": "in the discard pile",
    "excuse": "waiting for its move",
    "ace rewards": "among the ace rewards",
    "aces used": "among the Aces already used",
}


def _where(place: str) -> str:
    if place in _PLACE_WORDS:
        return _PLACE_WORDS[place]
    return f"in {place}" if place.split()[-1].isdigit() else f"in the {place}"


def _pile_words(pile: str, words: Mapping[str, str]) -> str:
    if pile in words:
        return words[pile]
    return "in the deck" if pile == "deck" else f"in the {pile} pile"


def check_card(
    card: str,
    options: frozenset[str],
    places: Mapping[str, Sequence[str]],
    *,
    pile: str = "deck",
    piles: Mapping[str, Sequence[str]] | None = None,
    pile_words: Mapping[str, str] | None = None,
) -> str | None:
    """Why ``card`` cannot be the card turned up now, or None if it can.

    ``options`` are the cards the draw can be (``Draw.options``), ``places`` the state's
    map of place -> cards (``state.places()``). The reasons, most telling first: the card
    belongs to another of the game's piles (``piles``: pile -> cards, ``pile`` the one
    drawn from; ``pile_words`` describe them, from the setup section of the prompts), it
    is already on the table (and where), or it is simply not among the options.
    """
    if card in options:
        return None
    name = card_name(card)
    if piles and card not in piles.get(pile, ()):
        home = [p for p, cards in piles.items() if card in cards]
        if home:
            words = pile_words or {}
            return f"{name} is {_pile_words(home[0], words)}, not {_pile_words(pile, words)}"
    where = [_where(p) for p, cards in places.items() if card in cards]
    if card in _JOKERS:
        if any(j in options for j in _JOKERS):
            said = (f"{name} is already on the table, {where[0]}" if where
                    else f"{name} cannot be the card turned up now")
            return f"{said}: for the other Joker, type 'joker'"
        spots = [_where(p) for p, cards in places.items() for j in _JOKERS if j in cards]
        if len(spots) == len(_JOKERS):
            return f"both Jokers are already on the table, {join_and(dict.fromkeys(spots))}"
    if where:
        return f"{name} is already on the table, {where[0]}"
    return f"{name} cannot be the card turned up now"


def card_choices(deck: Iterable[str], options: frozenset[str]) -> list[tuple[str, str]]:
    """(what to show, card id) for every card of ``deck`` that can be turned up now, in the
    deck's order: the completion list for "Which card did you turn up?". Every label shown
    reads back as its card through :func:`find_card`."""
    return [(card_label(c), c) for c in deck if c in options]


# -- dice ------------------------------------------------------------------------------------------

_NUMBERS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine",
            10: "ten"}


def parse_dice(text: str, count: int, sides: int = 6) -> tuple[int, ...]:
    """The dice the player rolled, in the order typed: "3 5 6 1 2", "3,5,6,1,2" or, with
    dice of up to nine sides, "35612". ValueError with the reason otherwise: the wrong
    number of dice, a value no die shows, or something that is not a number."""
    many = f"{_NUMBERS.get(count, str(count))} {'die' if count == 1 else 'dice'}"
    example = " ".join(str(min(v, sides)) for v in itertools.islice(itertools.cycle((3, 5, 6, 1, 2)), count))
    tokens = [t for t in re.split(r"[\s,;/]+", clean(text)) if t]
    if not tokens:
        raise ValueError(f"type the {many} you rolled, such as {example}")
    for t in tokens:
        if not re.fullmatch(r"[0-9]+", t):
            raise ValueError(f"'{_shown(t, 12)}' is not a die: type the {many} as numbers, such as {example}")
    if len(tokens) == 1 and count > 1 and sides <= 9:
        values = [int(digit) for digit in tokens[0]]  # "35612": one digit per die
    else:
        values = [int(t) for t in tokens]
    if len(values) != count:
        given = f"{len(values)} {'was' if len(values) == 1 else 'were'} given"
        raise ValueError(f"{many}, please: {given}")
    for v in values:
        if not 1 <= v <= sides:
            raise ValueError(f"a die shows 1 to {sides}, not {v}")
    return tuple(values)


# -- the deck on the table -----------------------------------------------------------------------


def _in_order(cards: Iterable[str]) -> tuple[str, ...]:
    """Without repeats, in the order of the card data (cards storyteller does not know last,
    as given)."""
    unique = list(dict.fromkeys(cards))
    return tuple(sorted(unique, key=lambda c: _ORDER.get(c, len(_ORDER) + unique.index(c))))


def game_cards(rules: Game) -> tuple[str, ...]:
    """Every card any allowed combination of the game's variants uses, in any pile: what
    tells "not in the standard deck" from "not in this game's deck"."""
    out: list[str] = []
    for values in itertools.product(*(v.choices for v in rules.variants)):
        variants = {v.name: value for v, value in zip(rules.variants, values)}
        try:
            rules.check_variants(variants)
        except VariantError:
            continue
        for pile in rules.piles:
            out += rules.deck(variants, pile)
    return _in_order(out)


@dataclass(frozen=True)
class TableDeck:
    """The cards on a real table for one game and its variants, and the words that go
    with them: made once per game, it reads each card the player enters."""

    cards: tuple[str, ...]  # every card this game uses with these variants, every pile, in card order
    piles: Mapping[str, tuple[str, ...]]  # pile -> its cards (see Draw.pile)
    every: frozenset[str]  # every card any variant of the game uses
    standard: bool  # the game is played with its standard rules
    pile_words: Mapping[str, str] = field(default_factory=dict)  # from the prompts' setup section

    @classmethod
    def of(cls, rules: Game, variants: Mapping[str, str], prompts: Mapping[str, Any] | None = None) -> TableDeck:
        """The table for ``rules`` with ``variants``; ``prompts`` (the game's prompts data)
        gives the words for its piles, where it has several."""
        piles = {pile: tuple(rules.deck(variants, pile)) for pile in rules.piles}
        standard = all(variants.get(v.name, v.default) == v.default for v in rules.variants)
        words = dict(((prompts or {}).get("setup") or {}).get(PILES) or {})
        return cls(
            cards=_in_order(c for cards in piles.values() for c in cards),
            piles=piles,
            every=frozenset(game_cards(rules)),
            standard=standard,
            pile_words=words,
        )

    def find(self, text: str, options: frozenset[str] | None = None) -> str:
        """The card ``text`` names (see :func:`find_card`)."""
        return find_card(text, self.cards, options, every=self.every, standard=self.standard)

    def check(self, card: str, draw: Draw, places: Mapping[str, Sequence[str]]) -> str | None:
        """Why ``card`` cannot answer ``draw`` (see :func:`check_card`), or None."""
        return check_card(card, draw.options, places, pile=draw.pile, piles=self.piles, pile_words=self.pile_words)

    def read(self, text: str, draw: Draw, places: Mapping[str, Sequence[str]]) -> str:
        """The card the player turned up for ``draw``, found and checked: the one call a
        driver needs. ValueError with the reason if the text names no card that can be
        there now."""
        card = self.find(text, draw.options)
        why = self.check(card, draw, places)
        if why is not None:
            raise ValueError(why)
        return card

    def choices(self, options: frozenset[str]) -> list[tuple[str, str]]:
        """The completion list for a draw with these options (see :func:`card_choices`)."""
        return card_choices(self.cards, options)


# -- setup words -----------------------------------------------------------------------------------


def setup_moments(prompts: Mapping[str, Any]) -> list[str]:
    """The moments a game has setup words for, in the order its prompts give them."""
    return [m for m in (prompts.get("setup") or {}) if m != PILES]


def setup_text(prompts: Mapping[str, Any], moment: str, variants: Mapping[str, str],
               source: str = "physical") -> str | None:
    """What to do with the real cards at ``moment`` ("start", "reshuffle"...), for a game
    played with ``variants``: the parts of the prompts' setup section that apply, one per
    line (the shape is at the top of this module). None if the game has no words for the
    moment.

    ``variants`` must be the full mapping, defaults included, as ``Game.parse_variants``
    returns it and the log's header records it: a part that depends on a variant missing
    from it raises ValueError rather than quietly telling the player the wrong cards.
    """
    if moment == PILES:
        return None
    parts = (prompts.get("setup") or {}).get(moment)
    if parts is None:
        return None
    if isinstance(parts, str):
        parts = [parts]
    chosen = []
    for part in parts:
        if isinstance(part, str):
            chosen.append(part)
        elif _applies(part.get("when", {}), {**variants, "source": source}, moment):
            chosen.append(part["text"])
    return "\n".join(chosen) or None


def _applies(when: Mapping[str, str | list[str]], variants: Mapping[str, str], moment: str) -> bool:
    for name, allowed in when.items():
        if name not in variants:
            raise ValueError(f"the setup words for '{moment}' depend on the variant '{name}', which was not given")
        if variants[name] not in ([allowed] if isinstance(allowed, str) else allowed):
            return False
    return True

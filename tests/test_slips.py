"""The small slips a player reads at the table: numbers and their nouns agree, harm never
shows more than its whole, on every screen of several whole games."""

from __future__ import annotations

import io
import re

import pytest
from rich.console import Console

from storyteller import registry
from storyteller.core.sources import SeededSource
from storyteller.play.session import AutoPlayer
from storyteller.ui.terminal import Terminal

ONE_MANY = re.compile(r"\b1 (cards|pieces|tokens|personalities|passes|days)\b")
HARM = re.compile(r"(\d+) of 10\b")


def screens(game: str, seed: str, plain: bool = True):
    """The table as the player sees it before every decision of a random game, and at the end."""
    rules = registry.rules(game)
    view = registry.get(game).view
    variants = rules.parse_variants([])
    state, source = rules.new_state(variants), SeededSource(seed, rules, variants)
    player = AutoPlayer(rules, seed, "random")
    k = 0
    while True:
        request = state.chance()
        if request is not None:
            state.resolve(source.resolve(request))
            continue
        buffer = io.StringIO()
        term = Terminal(console=Console(file=buffer, width=100, no_color=True), plain=plain)
        term.print(view.table(state, term))
        yield buffer.getvalue(), state
        if state.outcome is not None:
            return
        state.apply(player.choose(state, k).move)
        k += 1


@pytest.mark.parametrize("game", ["adaman", "cascades", "hexaract", "carddom"])
def test_numbers_and_nouns_agree_on_every_screen(game):
    for seed in ("1", "2", "3"):
        for text, _ in screens(game, seed):
            assert not ONE_MANY.search(text), ONE_MANY.search(text).group(0)


def test_harm_past_the_limit_shows_as_the_whole_and_more():
    """Seed 1, played at random, ends with 11 harm: the screen says 10 of 10 and more."""
    *_, (text, state) = screens("hexaract", "1")
    assert state.harm == 11
    assert "10 of 10, and more than you could bear" in text
    assert all(int(n) <= 10 for n in HARM.findall(text))


@pytest.mark.parametrize("game", ["adaman", "cascades", "hexaract"])
def test_a_screen_that_shows_suit_symbols_names_them(game, monkeypatch):
    """Cards are shown with their suits' symbols (☾ ☀ ≈ ❦ § ⌘): every screen that shows one
    says what each symbol is, in words, somewhere on it."""
    from storyteller.core.decktet import SUITS
    from storyteller.telling.meanings import suit_info

    monkeypatch.delenv("NO_COLOR", raising=False)
    symbols = {suit_info(s)["symbol"]: s for s in SUITS}
    for k, (text, _) in enumerate(screens(game, "2", plain=False)):
        shown = {symbols[ch] for ch in text if ch in symbols}
        assert shown, "the screen shows cards with symbols"
        for suit in shown:
            assert re.search(rf"{re.escape(suit_info(suit)['symbol'])} {suit}\b", text), (game, k, suit)

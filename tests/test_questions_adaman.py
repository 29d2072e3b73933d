"""Adaman's journaling questions agree with the table they are asked at: a question about
someone at court is asked while they are at court, the court's count is the court's, an
echo names an earlier card only where its words put it (at court, in the capital, in your
hands, won over, spent), no echo's frame comes twice in a game, and a step that ended the
game asks nothing of its own.

Many seeded games are played as one player would at the terminal (the built-in player
chooses the moves; every question is asked, recorded with the table at that moment, and
skipped), one after another in one sessions folder, so that later games reach deeper into
the bank and its echoes."""

from __future__ import annotations

import io
from collections import Counter
from pathlib import Path

import pytest
from rich.console import Console

from conftest import read_events
from storyteller import registry
from storyteller.log.events import CardDrawn
from storyteller.log.replay import Step
from storyteller.play.questions import Game, Role
from storyteller.play.session import AutoPlayer, Session
from storyteller.ui.play import PlayerDriver, ask
from storyteller.ui.terminal import Terminal

pytestmark = pytest.mark.xdist_group("adaman-questions")  # one worker plays the games once, for every test

# Where the words of each echo put the earlier card they name (one or more of the table's
# places: court, capital, resources, discard, controlled), by (role, echo's place in its list).
# Every echo the game still asks is here: a new one says where its words put its card.
CLAIMS: dict[tuple[str, int], str] = {
    # a personality arrives at court ({card} is at court)
    ("court", 1): "court capital", ("court", 2): "court capital", ("court", 3): "court capital",
    ("court", 4): "court",  # "now watches you from the same court as {earlier}"
    ("court", 5): "court capital", ("court", 7): "capital resources",
    ("court", 8): "controlled",  # "asking after {earlier}... what the court says became of them"
    ("court", 9): "discard",  # "{earlier}, which you spent on {target}"
    ("court", 10): "court",  # "given the seat beside {earlier}"
    ("court", 11): "capital",  # "{Earlier} is still out in the city"
    ("court", 12): "resources",  # "asks who holds {earlier} now"
    # a personality in the capital
    ("capital-personality", 1): "court capital", ("capital-personality", 2): "court capital",
    ("capital-personality", 6): "court capital",
    ("capital-personality", 7): "court",  # "sends a note up to court for {earlier}"
    ("capital-personality", 8): "controlled",  # "has heard what became of {earlier}"
    ("capital-personality", 9): "discard",  # "{earlier} paid for {target}"
    ("capital-personality", 10): "resources",  # "{earlier}, now that it is yours"
    # a place, event or Ace in the capital
    ("capital", 3): "court capital",  # "what claim would {earlier} make"
    ("capital", 7): "court",  # "has already sent someone down from court"
    ("capital", 8): "capital",  # "everyone in the capital knows {earlier} would pay well"
    ("capital", 9): "resources",  # "since {earlier} passed into your hands"
    ("capital", 10): "controlled",  # "now that they no longer stand in your way"
    # a place, event or Ace in your hands
    ("resource", 3): "court capital",  # "used to reach {earlier}"
    ("resource", 7): "court",  # "watches you from across the hall"
    ("resource", 8): "capital",  # "word would reach {earlier} within a day"
    ("resource", 9): "discard",  # "you gave up {earlier} for {target}"
    ("resource", 10): "controlled",  # "before {earlier} stopped standing in your way"
    ("resource", 11): "resources",  # "joins {earlier} in your keeping"
    # before the first move
    ("@start", 0): "court", ("@start", 1): "court", ("@start", 2): "capital", ("@start", 3): "capital",
    ("@start", 4): "court capital", ("@start", 5): "capital", ("@start", 6): "capital", ("@start", 7): "resources",
    ("@start", 8): "resources",
    # the Excuse
    ("@excuse-capital", 0): "court capital resources", ("@excuse-capital", 1): "resources",
    ("@excuse-capital", 2): "court capital", ("@excuse-capital", 3): "court capital", ("@excuse-capital", 4): "capital",
    ("@excuse-capital", 6): "capital", ("@excuse-capital", 8): "court capital",
    ("@excuse-resources", 0): "court capital", ("@excuse-resources", 1): "court capital",
    ("@excuse-resources", 2): "capital", ("@excuse-resources", 3): "court", ("@excuse-resources", 9): "resources",
    ("@excuse-resources", 10): "controlled",
    # five at court
    ("@court-five", 0): "court", ("@court-five", 1): "court capital", ("@court-five", 2): "capital",
    ("@court-five", 3): "court capital", ("@court-five", 4): "court capital",
    ("@court-five", 5): "court capital resources", ("@court-five", 6): "capital resources",
    ("@court-five", 7): "capital", ("@court-five", 8): "resources", ("@court-five", 9): "controlled",
    # the first personality won over ({card} is won over)
    ("@controlled", 0): "capital resources", ("@controlled", 1): "court capital", ("@controlled", 2): "court capital",
    ("@controlled", 4): "capital resources", ("@controlled", 8): "court", ("@controlled", 9): "court",
    ("@controlled", 10): "capital", ("@controlled", 11): "discard",
    # the end
    ("@won", 9): "controlled", ("@won", 10): "controlled", ("@won", 11): "discard", ("@won", 12): "resources",
    ("@won", 13): "capital",
    ("@lost", 0): "court capital", ("@lost", 1): "court", ("@lost", 2): "court capital", ("@lost", 3): "court capital",
    ("@lost", 6): "capital resources", ("@lost", 8): "discard", ("@lost", 9): "court capital",
    ("@lost", 10): "controlled", ("@lost", 11): "resources",
    ("@utter-loss", 0): "court", ("@utter-loss", 1): "court", ("@utter-loss", 2): "court capital",
    ("@utter-loss", 3): "court capital", ("@utter-loss", 4): "court capital", ("@utter-loss", 5): "capital resources",
    ("@utter-loss", 6): "resources", ("@utter-loss", 9): "controlled", ("@utter-loss", 10): "discard",
    ("@abandoned", 0): "court capital", ("@abandoned", 1): "court", ("@abandoned", 2): "court capital",
    ("@abandoned", 3): "resources", ("@abandoned", 4): "capital", ("@abandoned", 5): "capital resources",
    ("@abandoned", 6): "court capital resources", ("@abandoned", 7): "court capital resources",
    ("@abandoned", 8): "controlled",
}

# The questions after the first personality won over that speak of them alive and yours
# ("is yours now", "what will they remember", "under your hand", "tell you", "answers to you",
# "what did they ask", "changed sides"), and those that speak of them gone for good ("will
# trouble no one again", "no one has seen them since"): ids without the card.
ALIVE = {"@controlled:0", "@controlled:3", "@controlled:5", "@controlled:e:0", "@controlled:e:1",
         "@controlled:e:2", "@controlled:e:4", "@controlled:e:8"}
GONE = {"@controlled:8", "@controlled:9"}

# Where a card lies while it is in a role (what the role means on the table).
ROLE_PLACE = {"court": "court", "capital-personality": "capital", "capital": "capital", "resource": "resources",
              "gained": "resources", "spent": "discard", "controlled": "controlled"}

# The games played: (seed, variants); the built-in player is the greedy one.
# (Deal 125 of the extended deck sends the Excuse to the capital while you hold something to move;
# in 102, 107 and 118 it comes there during the setup, when your hands are still empty.)
DEALS = ([(str(s), ()) for s in range(36)] + [(str(s), ("extended",)) for s in (*range(100, 116), 118, 125)]
         + [(str(s), ("extra-personalities=3",)) for s in range(200, 206)])


class Recording(Terminal):
    """The real terminal, printing to nowhere: each question is recorded with the table as
    it stands when it is asked, and skipped."""

    def __init__(self) -> None:
        super().__init__(console=Console(file=io.StringIO(), width=120, no_color=True))
        self.session: Session | None = None
        self.asked: list[tuple[str, dict[str, list[str]], bool]] = []

    def text(self, message: str, instruction: str | None = None, limit: int = 0) -> str:
        assert self.session is not None
        state = self.session.state
        self.asked.append((message, {k: list(v) for k, v in state.places().items()}, state.result is not None))
        return ""

    def confirm(self, message: str, default: bool = False) -> bool:
        return False


class Auto(PlayerDriver):
    def __init__(self, term: Recording, player: AutoPlayer) -> None:
        super().__init__(term, "every-reveal")
        self.player = player

    def choose(self, session):
        if not session.decisions:  # the question before the first move, as at the terminal
            ask(self.term, session, self._questions(), self._questions().ask_start(session))
        return self.player.choose(session.state, session.decisions)


def play(seed: str, variants: tuple[str, ...], sessions: Path) -> list[dict]:
    """One game at the terminal, saved in ``sessions``: each question asked, with its id,
    the table when it was asked, and whether the game was over by then; and the log."""
    rules = registry.rules("adaman")
    term = Recording()
    path = sessions / f"adaman-{seed}-{'-'.join(variants) or 'standard'}.jsonl"
    session = Session.new(rules, rules.parse_variants(list(variants)), seed, path)
    term.session = session
    driver = Auto(term, AutoPlayer(rules, seed, "greedy"))
    driver.begin(session, resumed=False)
    session.run(driver)
    session.close()
    events = read_events(path)
    logged = [e for e in events[1:] if e.get("event") == "question"]
    assert [e["text"] for e in logged] == [m for m, _, _ in term.asked]
    return [{"id": e["id"], "text": e["text"], "about": e.get("about"), "table": table, "over": over,
             "events": events} for e, (_, table, over) in zip(logged, term.asked)]


@pytest.fixture(scope="module")
def games(tmp_path_factory) -> list[list[dict]]:
    """The questions of every deal, played in order by one player (one sessions folder)."""
    home = tmp_path_factory.mktemp("player")
    sessions = home / "sessions"
    sessions.mkdir()
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("STORYTELLER_HOME", str(home))
        mp.setenv("STORYTELLER_CONFIG", str(home / "config.toml"))
        mp.delenv("STORYTELLER_QUESTIONS", raising=False)
        return [play(seed, variants, sessions) for seed, variants in DEALS]


def echo_of(qid: str) -> tuple[str, int, Role] | None:
    """(the role asking, the echo's place, the earlier card in its role) of an echo's id."""
    parts = qid.split(":")
    if len(parts) == 6 and parts[2] == "e":
        return parts[0], int(parts[3]), Role.of(parts[4], parts[5])
    return None


def test_every_echo_asked_names_a_card_where_its_words_put_it(games):
    bank = registry.get("adaman").questions.bank
    live = {(r, i) for r in bank.roles for i in bank.live(Role(r), "echoes")}
    live |= {("@" + m, i) for m in bank.moment_echo for i in bank.live(Role("@" + m), "echoes")}
    assert set(CLAIMS) == live, "each echo still asked says where its words put the card it names"
    echoes = 0
    for game in games:
        frames = Counter()
        for q in game:
            found = echo_of(q["id"])
            if found is None:
                continue
            role, i, earlier = found
            echoes += 1
            frames[(role, i)] += 1
            table = q["table"]
            where = ROLE_PLACE[earlier.role]
            assert earlier.card in table[where], (q["text"], earlier, table)  # still as its role says
            places = CLAIMS[(role, i)].split()
            assert any(earlier.card in table[p] for p in places), (q["text"], places, table)  # as its words say
            if earlier.role == "spent":  # "{earlier}, spent on {target}": it paid for that very card
                paid = [e["action"].split() for e in q["events"] if e.get("event") == "decision"
                        and e["action"].startswith(f"control {earlier.param} with ")]
                assert any(earlier.card in words[3].split("+") for words in paid), (q["text"], paid)
        assert not [f for f, n in frames.items() if n > 1], "an echo's frame is asked at most once a game"
    assert echoes >= 100  # the games above reach back often enough to mean something


def test_the_court_and_the_cards_asked_about_are_where_the_words_say(games):
    """A question about a personality at court is asked while they are there, with the
    court at five or fewer; the court-five moment with five at court, the utter loss with
    six; a personality in the capital, a place in the capital or in your hands likewise;
    the first personality won over is won over."""
    where = {"court": "court", "capital-personality": "capital", "capital": "capital", "resource": "resources",
             "@controlled": "controlled"}
    seen = Counter()
    for game in games:
        for q in game:
            role, card = q["id"].split(":")[:2]
            table = q["table"]
            seen[role] += 1
            assert "{" not in q["text"] and "}" not in q["text"], q["text"]  # every word filled in
            if role in where:
                assert card in table[where[role]], (q["text"], table)
            if role == "court":
                assert len(table["court"]) <= 5, q["text"]
            if role == "@court-five":
                assert len(table["court"]) == 5, q["text"]
            if role == "@utter-loss":
                assert len(table["court"]) == 6, q["text"]
    assert all(seen[r] for r in ("court", "capital-personality", "capital", "resource", "@court-five", "@controlled",
                                 "@won", "@lost", "@utter-loss", "@excuse-capital", "@excuse-resources")), seen


def test_the_first_personality_won_over_is_asked_about_as_the_story_tells_the_play(games):
    """Paid with an Ace, the story says they were eliminated: no question speaks of them as
    alive and yours; bought or tricked, none speaks of them as gone for good."""
    seen = Counter()
    for game in games:
        for q in game:
            if not q["id"].startswith("@controlled:"):
                continue
            parts = q["id"].split(":")
            short = ":".join([parts[0], *parts[2:4]]) if parts[2] == "e" else f"{parts[0]}:{parts[2]}"
            play = next(e["action"].split() for e in q["events"] if e.get("event") == "decision"
                        and e["action"].startswith(f"control {parts[1]} with "))
            eliminated = any(c.startswith("ace-of-") for c in play[3].split("+"))
            seen[eliminated] += 1
            assert short not in (ALIVE if eliminated else GONE), (q["text"], play)
    assert seen[True] and seen[False]


def test_once_the_game_is_over_only_the_last_word_is_asked(games):
    """The sixth arrival at court, or the card after which no play is left, ends the game:
    no question of its own, the last word at once."""
    ends = {"@won", "@lost", "@utter-loss", "@abandoned"}
    for game in games:
        over = [q for q in game if q["over"]]
        assert [q["id"].split(":")[0] for q in over] in (["@won"], ["@lost"], ["@utter-loss"]), \
            [q["text"] for q in over]
        assert game[-1]["id"].split(":")[0] in ends
    utter = [g for g in games if g[-1]["id"].startswith("@utter-loss:")]
    assert utter  # and there, the sixth arrival asked nothing: the question before the last is not about it
    for game in utter:
        events = game[0]["events"]
        last_draw = max(e["n"] for e in events if e.get("event") == "draw")
        assert all(q["about"] != last_draw for q in game)


def test_the_excuse_asks_only_when_it_has_something_to_move():
    q = registry.get("adaman").questions
    rules = registry.rules("adaman")
    state = rules.new_state(rules.parse_variants(["extended"]))
    event = CardDrawn(3, card="excuse", to="capital", deal=0, slot=2)
    for resources, asks in (([], False), (["mill"], True)):
        state.resources, state.excuse_at = resources, ("capital" if resources else None)
        game = Game(state=state)
        occasion = q.occasion(Step(event, state, revealed=event), game)
        assert occasion is not None and occasion.role == Role("@excuse-capital") and occasion.key is asks
        chosen = q.choose(occasion, game, Counter(), "1", 4)
        assert (chosen is not None) is asks


def test_an_echo_of_a_card_spent_names_what_it_paid_for():
    q = registry.get("adaman").questions
    assert q.echo_words(Role("spent", "market", "painter")) == {"target": "the Painter"}
    assert q.echo_words(Role("resource", "market")) == {}

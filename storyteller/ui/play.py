"""The guided session at the terminal, the same for every game: show the table, offer
exactly the legal moves in the game's words plus journal, undo, hint, rules, save, and
after every reveal say what the card means and ask a journaling question."""

from __future__ import annotations

from enum import Enum
from typing import Any

from rich.markdown import Markdown
from rich.markup import escape
from rich.text import Text
from rich.panel import Panel

from storyteller import registry
from storyteller.core.engine import Chance, Draw, Policy, Roll
from storyteller.core.words import clean, plural
from storyteller.log.events import Visitor
from pathlib import Path
from storyteller.log.replay import Step
from storyteller.play.questions import QuestionLog
from storyteller.play.session import Abandon, Correction, Quit, Session, TakeBack, Write
from storyteller.ui.drivers import could_have_won, read_entry, setup_words, table_deck


def begin(term, session: Session, resumed: bool) -> None:
    game = session.game
    variants = game.describe_variants(session.variants)
    title = f"{game.title} - seed {session.seed} - {variants}"
    header = session.log.header
    moves = session.decisions
    if resumed and header.branch and len(session.log.events) == header.from_step:
        # a branch, just made: nothing of it is the player's own yet
        same = (f"the same deal and the same first {plural(moves, 'move')}; from here the choices "
                "are yours again") if moves else "the same deal, and every move is yours to choose again"
        body = f"Playing on from step {header.from_step} of {header.from_log}: {same}."
    elif resumed:
        body = f"Welcome back. {plural(moves, 'move')} so far; the journey goes on."
    else:
        body = game.summary + "\nEvery draw, every choice and every journal entry is saved as it happens."
    term.print(Panel(escape(clean(body)), title=escape(clean(title)), title_align="left"))
    term.print(Text(clean(f"Log: {session.path}")))
    if resumed:
        entries = session.log.journal()
        if entries:
            term.print(Panel(Text(clean(entries[-1].text)), title="Your last journal entry", title_align="left"))
    if session.table is not None:
        tell = registry.get(game.name).teller
        if resumed:
            term.print(Panel("Below is the table as storyteller knows it: check that your real table matches it.",
                             title="At your table", title_align="left"))
        else:
            # With the player's own dice only, storyteller deals the cards: the words for the
            # dice are all they need before the first roll.
            moment = "roll" if header.source == "physical dice" else "start"
            words = tell.setup(moment, session.variants, header.source)
            if words:
                term.print(Panel(Text(clean(words)), title="Set up your table", title_align="left"))


class Entry(Enum):
    """The entries of the menu that are not moves."""

    JOURNAL = "Write a journal entry"
    UNDO = "Undo the last move"
    CORRECT = "Correct the last entry at the table"
    HINT = "Hint"
    ORACLE = "Ask the oracle"
    RULES = "Show the rules"
    QUIT = "Save and quit"
    ABANDON = "Abandon this game"


def choose(term, session: Session, policy=None, journal: QuestionLog | None = None):
    """Ask until the player picks a move or a command that changes the log."""
    game = registry.get(session.game.name)
    screen = game.view
    term.print(screen.table(session.state, term))
    if journal is not None and not session.decisions:
        ask(term, session, journal, journal.ask_start(session))
    while True:
        legal = session.legal_actions()
        # A game may group its moves (Adaman: pick a target, then the resources to pay with);
        # a grouped entry is a small dialog that returns a move, or None to go back.
        choices: list[Any] = screen.menu(session.state, legal, term)
        choices.append(None)
        choices.append(("Write a journal entry", Entry.JOURNAL))
        choices.append(("Ask the oracle a yes/no question", Entry.ORACLE))
        if policy is not None:
            choices.append(("Hint: what would the built-in player do?", Entry.HINT))
        choices.append(None)  # what changes the game, set apart from the journal
        if session.can_undo():
            choices.append(("Undo the last move", Entry.UNDO))
        if session.can_correct():
            choices.append((_wrong_entry(session), Entry.CORRECT))
        choices += [("Show the rules", Entry.RULES), ("Save and quit", Entry.QUIT),
                    ("Abandon this game", Entry.ABANDON)]
        picked = term.select("What do you do?", choices)
        if picked is Entry.JOURNAL:
            text = term.text("Your journal entry:", instruction="(Enter to cancel)")
            if text.strip():
                tag_problems(term, text)
                return Write(text)
        elif picked is Entry.UNDO:
            done = session.last_decision()
            taken = (done.text if done.text is not None else done.action) if done is not None else ""
            if not term.confirm(f"Take back your last move ({clean(taken)})?", default=False):
                continue
            term.print(f"[dim]Taken back: {escape(clean(taken))}[/dim]")
            if session.table is not None:
                term.print("[dim]Cards you turned up and dice you rolled stay where they are: "
                           "storyteller will not ask for them again.[/dim]")
            return TakeBack()
        elif picked is Entry.CORRECT:
            fixed = ask_correction(term, session)
            if fixed is not None:
                return Correction(fixed)
        elif picked is Entry.HINT:
            hint = policy.choose(session.state)
            if hint:
                move = hint.action.text if hint.action.text.endswith((".", "!", "?")) else hint.action.text + "."
                term.print(Panel(f"{escape(move)}\n[dim]{escape(hint.why)}[/dim]", title="Hint", title_align="left"))
        elif picked is Entry.ORACLE:
            ask_oracle(term, session, journal)
        elif picked is Entry.RULES:
            term.print(Markdown(clean(game.rules_markdown())))
        elif picked is Entry.ABANDON:
            if term.confirm("Abandon this game for good? It ends as a loss.", default=False):
                return Abandon()
        elif picked is Entry.QUIT:
            return Quit()
        elif callable(picked):
            action = picked(term, session)
            if action is not None:
                return action
        else:
            return picked


def after_draw(term, session: Session, step: Step, journal: QuestionLog) -> None:
    """What the card means; then its journaling question, if the ``questions`` setting
    asks it here. A card worth a question is shown in a panel even when the setting
    does not ask it."""
    tell = registry.get(session.game.name).teller
    assert step.revealed is not None
    text = tell.draw_text(step.revealed)
    meaning = tell.meaning(step.revealed, session.seed, session.variants)
    asked = journal.ask_after(session, step)
    if journal.asker.occasions.get(step.n) is None:
        # An ordinary card: one quiet line, no question.
        term.print(f"[dim]{escape(text)}[/dim] {escape(meaning)}")
        return
    term.print(Panel(f"{escape(text)}\n[bold]{escape(meaning)}[/bold]", title_align="left"))
    ask(term, session, journal, asked)


def ask(term, session: Session, journal: QuestionLog, asked, instruction: str = "(write, or Enter to skip)") -> None:
    """Ask a question just logged; the player's words, if any, answer it."""
    if asked is None:
        return
    text = term.text(asked[0].text, instruction=instruction)
    if text.strip():
        journal.answer(session, text, asked)
        tag_problems(term, text)


def tag_problems(term, text: str) -> None:
    """A line for each tag in the player's words that names no one (the words are kept as typed)."""
    from storyteller.core import tags

    for problem in tags.problems(text):
        term.print(f"[yellow]{escape(problem)}[/yellow]")


ODDS_CHOICES = [("Almost certain (90%)", "almost-certain"), ("Likely (75%)", "likely"), ("50/50", "even"),
                ("Unlikely (25%)", "unlikely"), ("A small chance (10%)", "small-chance")]


def ask_oracle(term, session: Session, journal: QuestionLog | None = None) -> None:
    """A yes/no question about the story, its odds, and the oracle's answer with a spark:
    logged, and nothing of the game changes. At a real table the player rolls the d100.
    Then what the answer means, as the start of a journal entry (Enter skips)."""
    from storyteller.ui.drivers import oracle_words

    question = term.text("Ask the oracle (a yes/no question about your story):",
                         instruction="(Enter to go back)").strip()
    if not question:
        return
    odds = term.select("How likely is a yes?", ODDS_CHOICES + [None, ("Go back", None)])
    if odds is None:
        return
    rolled = None
    if session.table is not None:
        def check(text: str):
            text = text.strip()
            return True if text.isdigit() and 1 <= int(text) <= 100 else "a d100 roll is a number from 1 to 100"

        rolled = int(term.autocomplete("Roll a d100 (two ten-sided dice): what did you roll?", [], check).strip())
    event = session.oracle(question, odds, rolled)
    term.print(Panel(Text(clean(f"{question}\n{oracle_words(event)}")), title="The oracle", title_align="left"))
    if journal is not None:
        ask(term, session, journal, journal.ask_oracle(session, event))


def told(term, title: str, lines: list[str]) -> None:
    """What a decision set off, before the next cards come (a game's own words)."""
    body = Text("\n".join(f"- {line}" for line in lines))
    term.print(Panel(body, title=escape(title), title_align="left"))


def after_end(term, session: Session, journal: QuestionLog) -> None:
    outcome = session.outcome
    assert outcome is not None
    term.print(registry.get(session.game.name).view.table(session.state, term))
    score = f"\nScore: {outcome.score}" if outcome.score is not None else ""
    style = "green" if outcome.won else "red"
    term.print(Panel(f"{escape(outcome.reason)}{score}", title=f"The game is over: {outcome.result}",
                     title_align="left", style=style))
    lost = could_have_won(session)
    if lost:
        term.print(Text(clean(lost), style="bold"))
    elif outcome.lost and session.table is None and registry.get(session.game.name).has_solver:
        from storyteller.core.words import command_line

        # the winning game under a name of its own, here rather than among the saved games
        # (where it would count in the player's statistics as a game won)
        solving = command_line("solve", session.path, "--log", f"{session.path.stem}-won.jsonl")
        term.print(Text(clean(f"Could this deal have been won? With every card known, storyteller can tell: "
                              f"{solving}")))
    ask(term, session, journal, journal.ask_end(session), instruction="(Enter to skip)")
    if (not outcome.abandoned and registry.get(session.game.name).has_policy
            and term.confirm("See where the game turned? (a quick look: a few seconds)", default=True)):
        turning_point(term, session)


QUICK_SAMPLES, QUICK_SECONDS, QUICK_BUDGET = 8, 4.0, 20_000  # the end screen's quick look


def turning_point(term, session: Session) -> None:
    """A quick analysis of the game just played (a few seconds at most): where it turned,
    the command to try the other way, and the command for the full analysis."""
    from storyteller.study import analysis
    from storyteller.log import store
    from storyteller.core.engine import Budget
    from storyteller.study.simulation import default_jobs
    from storyteller.core.words import command_line

    try:
        log = store.open_log(session.path)
    except Exception:  # the game is saved whatever happens here
        return
    try:
        with term.console.status("Looking at every decision (Ctrl-C stops)"):
            found = analysis.analyse(log, QUICK_SAMPLES, Budget(nodes=QUICK_BUDGET), jobs=default_jobs(),
                                     deadline=QUICK_SECONDS)
    except (analysis.AnalysisError, KeyboardInterrupt):
        return
    words = found.verdict or "Nothing to say about this game."
    if found.branch_step is not None:
        again = command_line("play", "--from", session.path, "--step", found.branch_step)
        words += f"\nTo try the other way: {again}"
    words += f"\nThe full analysis (surer, slower): {command_line('analyse', session.path)}"
    term.print(Panel(Text(clean(words)), title="Where the game turned (a quick look)", title_align="left"))


# -- a real table ---------------------------------------------------------------------------


def _wrong_entry(session: Session) -> str:
    target = session.correction_target()
    what = "card" if target and isinstance(target[0], Draw) else "roll"
    return f"I entered the wrong {what}"


def _ask(term, session: Session, request, places=None, allow_correction: bool = False):
    """Ask for a card or a roll until the answer is one the rules allow there; returns it,
    or Correction.value's marker "!" when the player wants to correct the last entry."""
    def check(text: str):
        text = text.strip()
        if allow_correction and text == "!":
            return True
        try:
            read_entry(session, request, text, places)
        except ValueError as e:
            return str(e)
        return True

    if isinstance(request, Roll):
        example = " ".join(str(i % request.sides + 1) for i in range(request.count))
        message = f"What did you roll? ({request.count} dice, e.g. {example})"
        choices: list[str] = []
    else:
        message = f"Which card did you turn up ({request.to})?"
        choices = [title for title, _ in table_deck(session).choices(request.options)]
    if allow_correction:
        message += " (! if you entered the last one wrong)"
    text = term.autocomplete(message, choices, check).strip()
    if allow_correction and text == "!":
        return "!"
    return read_entry(session, request, text, places)


def enter(term, session: Session, request, said: set[str]):
    """The card the player turned up, or the dice they rolled, for ``request``."""
    words = setup_words(session, request, said)
    if words:
        term.print(Panel(Text(clean(words)), title="At your table", title_align="left"))
    while True:
        got = _ask(term, session, request, allow_correction=session.can_correct())
        if got != "!":
            return got
        fixed = ask_correction(term, session)
        if fixed is not None:
            return Correction(fixed)


def ask_correction(term, session: Session):
    """What was really turned up instead of the last card or roll entered (None to go back)."""
    target = session.correction_target()
    if target is None:
        return None
    request, before = target
    term.print("[dim]Enter what you really turned up (it replaces the last entry; both stay in the log).[/dim]")
    return _ask(term, session, request, places=before.places())


def check_end(term, session: Session):
    """The card just entered ends the game: a last chance to correct a typo."""
    target = session.correction_target()
    if target is None:
        return None
    what = "card" if isinstance(target[0], Draw) else "roll"
    if term.confirm(f"That ends the game. Did you enter the {what} right?", default=True):
        return None
    fixed = ask_correction(term, session)
    return Correction(fixed) if fixed is not None else None


# -- the driver ---------------------------------------------------------------------------


class PlayerDriver:
    """The player at a terminal: rich views, questionary prompts."""

    def __init__(self, terminal, questions: str = "every-reveal") -> None:
        self.term = terminal
        self.questions = questions  # the setting: which reveals ask a question
        self.policy: Policy | None = None  # the hint's policy, made for this game at its start
        self.said: set[str] = set()  # setup moments already told
        self.journal: QuestionLog | None = None

    def listeners(self, game: str, seed: str, path: Path) -> list[Visitor]:
        """The journaling questions, which hear the game from its first step."""
        self.journal = QuestionLog.of(registry.get(game), seed, path, self.questions, own=True)
        return [self.journal]

    def _questions(self) -> QuestionLog:
        assert self.journal is not None, "the session was made with this driver's listeners"
        return self.journal

    def begin(self, session: Session, resumed: bool) -> None:
        reg = registry.get(session.game.name)
        self.policy = reg.policy(reg.hint_player) if reg.hint_player else None
        begin(self.term, session, resumed)

    def choose(self, session: Session):
        return choose(self.term, session, self.policy, self._questions())

    def after_draw(self, session: Session, step: Step) -> None:
        after_draw(self.term, session, step, self._questions())

    def enter(self, session: Session, request: Chance) -> Any:
        return enter(self.term, session, request, self.said)

    def check_end(self, session: Session) -> Correction | None:
        return check_end(self.term, session)

    def after_decision(self, session: Session, step: Step) -> None:
        assert step.before is not None and step.move is not None
        what = registry.get(session.game.name).teller.after_decision(step.before, step.move, step.after)
        if what:
            told(self.term, *what)
        journal = self._questions()
        ask(self.term, session, journal, journal.ask_after(session, step))

    def after_end(self, session: Session) -> None:
        after_end(self.term, session, self._questions())

    def interrupted(self, session: Session) -> None:
        pass

"""What each command does. The only place that turns failures into messages and exit codes.

Every failure a user can cause (a bad option, a broken log, an unwritable path, a bad
template, Ctrl-C) becomes one line on stderr and a non-zero exit, never a traceback.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any, Callable, Sequence

from storyteller import registry, store
from storyteller.engine import Game, VariantError
from storyteller.log import LogError, TruncatedLog
from storyteller.words import clean, command, plural

EXIT_ERROR = 1
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130


class UserError(Exception):
    def __init__(self, message: str, code: int = EXIT_ERROR) -> None:
        super().__init__(message)
        self.message = message
        self.code = code


def err(message: str) -> None:
    """One line on stderr. Messages may quote what came from outside (a path, a seed, a
    log's words): control characters never reach the terminal."""
    print(f"storyteller: {clean(message)}", file=sys.stderr, flush=True)


def say(message: str = "") -> None:
    print(clean(message), flush=True)


def guarded(func: Callable[..., int | None], *args: Any, **kwargs: Any) -> int:
    try:
        return func(*args, **kwargs) or 0
    except UserError as e:
        err(e.message)
        return e.code
    except (LogError, registry.RegistryError) as e:
        err(str(e))
        return EXIT_ERROR
    except (KeyboardInterrupt, EOFError):
        err("interrupted")
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        return EXIT_ERROR
    except Exception as e:  # a bug: one line for the player, the traceback on request
        if os.environ.get("STORYTELLER_DEBUG"):
            raise
        err(f"unexpected error: {type(e).__name__}: {e} (set STORYTELLER_DEBUG=1 to see where; your log is saved)")
        return EXIT_ERROR


# Where a game's cards and dice came from, in words (the log header's "source").
TABLE_WORDS = {
    "physical": "cards and dice from a real table",
    "physical cards": "cards from a real table",
    "physical dice": "dice from a real table",
}

# -- options --------------------------------------------------------------------------


def load_game(name: str) -> Game:
    try:
        return registry.rules(name)
    except registry.RegistryError as e:
        raise UserError(str(e), EXIT_USAGE) from None


def load_variants(game: Game, specs: Sequence[str]) -> dict[str, str]:
    try:
        return game.parse_variants(list(specs))
    except VariantError as e:
        raise UserError(str(e), EXIT_USAGE) from None


def load_seed(seed: str | None) -> str:
    from storyteller.rng import fresh_seed, normalize_seed

    if seed is None:
        return fresh_seed()
    try:
        return normalize_seed(seed)
    except ValueError as e:
        raise UserError(f"bad --seed: {e}", EXIT_USAGE) from None


def load_source(game: Game, physical: bool, extra: Sequence[str]) -> str:
    """Where the cards and dice come from: ``--physical`` (all from the player's table),
    ``--physical cards`` or ``--physical dice`` (the rest from the seed)."""
    if extra and not physical:
        raise UserError(f"unexpected argument '{extra[0]}'", EXIT_USAGE)
    if not physical:
        return "seeded"
    if len(extra) > 1 or extra and extra[0] not in ("cards", "dice"):
        raise UserError(f"--physical takes nothing, 'cards' or 'dice' (not '{' '.join(extra)}')", EXIT_USAGE)
    if not game.dice:
        if extra == ["dice"]:
            raise UserError(f"{game.title} uses no dice: play it with --physical (your own cards)", EXIT_USAGE)
        return "physical cards"
    return {"cards": "physical cards", "dice": "physical dice"}.get(extra[0] if extra else "", "physical")


def make_driver(game: Game, seed: str, auto: str | None, answers: Path | None, plain: bool, source: str = "seeded"):
    """The decision maker: a policy, a script, or the player at a terminal."""
    from storyteller import drivers
    from storyteller.session import AutoPlayer

    if auto and answers:
        raise UserError("choose either --auto or --answers, not both", EXIT_USAGE)
    if auto and source != "seeded":
        raise UserError(
            "--auto cannot turn up your own cards or roll your dice: play at a real table yourself, or with --answers FILE",
            EXIT_USAGE,
        )
    if auto:
        if auto not in ("random", "greedy"):
            raise UserError(f"--auto takes 'random' or 'greedy' (not '{auto}')", EXIT_USAGE)
        if auto == "greedy" and not game.has_policy:
            raise UserError(f"{game.title} has no greedy policy yet; use --auto random", EXIT_USAGE)
        return drivers.AutoDriver(AutoPlayer(game, seed, auto))
    if answers:
        try:
            return drivers.AnswersDriver.from_file(answers)
        except OSError as e:
            raise UserError(f"{answers}: cannot read the answers file ({e.strerror})", EXIT_USAGE) from None
        except UnicodeDecodeError:
            raise UserError(f"{answers}: the answers file is not text", EXIT_USAGE) from None
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        if source != "seeded":
            raise UserError(
                "a game at a real table needs a terminal to ask what you turned up; without one use --answers FILE",
                EXIT_USAGE,
            )
        raise UserError(
            "play needs a terminal to ask you questions; without one use --auto random or --answers FILE",
            EXIT_USAGE,
        )
    from storyteller.ui.terminal import Terminal

    return drivers.PlayerDriver(Terminal(plain=plain))


# -- play and resume ------------------------------------------------------------------


def play(
    name: str,
    seed: str | None = None,
    variants: Sequence[str] = (),
    log: Path | None = None,
    auto: str | None = None,
    answers: Path | None = None,
    plain: bool = False,
    physical: bool = False,
    extra: Sequence[str] = (),
) -> int:
    from storyteller.session import Session

    game = load_game(name)
    chosen = load_variants(game, variants)
    source = load_source(game, physical, extra)
    seed_text = load_seed(seed)
    driver = make_driver(game, seed_text, auto, answers, plain, source)
    path = log if log is not None else store.new_log_path(game.name, seed_text)
    mode = f"auto {auto}" if auto else "answers" if answers else "player"
    session = Session.new(game, chosen, seed_text, path, mode=mode, source=source)
    driver.begin(session, resumed=False)
    return _drive(session, driver)


def _drive(session, driver) -> int:
    from storyteller.drivers import AnswersExhausted, IllegalAnswer
    from storyteller.session import SaveAndQuit

    try:
        outcome = session.run(driver)
    except (KeyboardInterrupt, EOFError):
        driver.interrupted(session)
        if session.over:
            say(f"\nSaved. The game is over; read it: {command('storyteller', 'export', session.path, '--story')}")
        else:
            say(f"\nSaved. Nothing is lost. To go on: {command('storyteller', 'resume', session.path)}")
        return EXIT_INTERRUPTED
    except SaveAndQuit:
        say(f"Saved. To go on: {command('storyteller', 'resume', session.path)}")
        return 0
    except AnswersExhausted as e:
        err(f"{e}; the game is saved: {command('storyteller', 'resume', session.path)}")
        return EXIT_INTERRUPTED
    except IllegalAnswer as e:
        err(f"{e}. Nothing illegal was written; the game is saved: {command('storyteller', 'resume', session.path)}")
        return EXIT_USAGE
    finally:
        session.close()
    say(f"Log: {session.path}")
    say(f"Read it as a story: {command('storyteller', 'export', session.path, '--story', '-o', 'story.md')}")
    return 0 if outcome is not None else EXIT_ERROR


def resume(
    path: Path | None = None,
    auto: str | None = None,
    answers: Path | None = None,
    yes: bool = False,
    plain: bool = False,
) -> int:
    from storyteller.session import Session

    if path is None:
        path = store.latest_unfinished()
        if path is None:
            raise UserError(f"no unfinished session in {store.sessions_dir()}; start one with: storyteller play carddom")
    repair = False
    try:
        log = store.open_log(path)
    except TruncatedLog as e:
        log = e.intact
        if not yes and not _confirm_repair(str(e), plain):
            raise UserError(f"{e}; to continue from the intact part: {command('storyteller', 'resume', path, '--yes')}") from None
        repair = True
    if log.finished:
        end = log.end or {}
        raise UserError(
            f"{path}: this game is already over ({end.get('result')}); "
            f"export it with: {command('storyteller', 'export', path, '--story')}"
        )
    game = load_game(log.game)
    driver = make_driver(game, log.seed, auto, answers, plain, str(log.header.get("source", "seeded")))
    session = Session.resume(log, repair=repair)
    driver.begin(session, resumed=True)
    return _drive(session, driver)


def _confirm_repair(problem: str, plain: bool) -> bool:
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        return False
    from storyteller.ui.terminal import Terminal

    from rich.text import Text

    term = Terminal(plain=plain)
    term.print(Text(clean(problem)))
    return term.confirm(
        "Continue from the intact part? (the cut-off line is kept beside the log as .cut-off)", default=True
    )


# -- looking at logs ------------------------------------------------------------------


def sessions() -> int:
    folder = store.sessions_dir()
    found = store.summaries(folder)
    if not found:
        say(f"No saved sessions yet in {folder}. Start one with: storyteller play carddom")
        return 0
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    def cell(text: str) -> Text:  # words from the logs: never markup, never control characters
        return Text(clean(text))

    table = Table(title=cell(f"Sessions in {folder}"), title_justify="left")
    for column in ("game", "seed", "started", "status", "file"):
        table.add_column(column)
    for s in found:
        status = {"cut off": "cut off (resume to repair)", "unreadable": f"unreadable: {s.problem}"}.get(s.status, s.status)
        table.add_row(*map(cell, (s.game, s.seed, s.started[:16].replace("T", " "), status, s.path.name)))
    Console().print(table)
    return 0


def replay(path: Path, show: bool = False, plain: bool = False) -> int:
    from storyteller.session import walk

    log = store.open_log(path)
    view = None
    if show:
        from storyteller.ui.replay import ReplayView

        view = ReplayView(log, plain=plain)
    w = walk(log, on_step=view.step if view else None)
    undos = sum(1 for e in log.events if e["event"] == "undo")
    draws = sum(1 for e in log.events if e["event"] in ("draw", "roll"))
    if w.outcome is None:
        status = "unfinished, every event so far matches"
    else:
        score = f", score {w.outcome.score}" if w.outcome.score is not None else ""
        status = f"{w.outcome.result}{score}: every draw and the outcome match"
    source = str(log.header.get("source", "seeded"))
    origin = f"seed {log.seed}" if source == "seeded" else TABLE_WORDS[source]
    say(
        f"OK {path}: {w.game.title}, {origin}, {plural(len(log.events), 'event')} "
        f"({plural(draws, 'draw')}, {plural(w.decisions, 'decision')}, {undos} undone) - {status}"
    )
    if source != "seeded":
        say(f"  {TABLE_WORDS[source].capitalize()}: checked against the rules, not against a shuffle.")
    from storyteller.stories import prompt_notes

    notes = w.notes + prompt_notes(registry.get(w.game.name).teller, log)
    for note in notes[:5]:
        say(f"  note: {note}")
    if notes:
        more = f" ({len(notes) - 5} more)" if len(notes) > 5 else ""
        say(f"  The log's words were edited or written by another version{more}: exports use the rules' words.")
    return 0


def export(
    path: Path,
    story: bool = False,
    playthrough: bool = False,
    output: Path | None = None,
    template: Path | None = None,
    force: bool = False,
) -> int:
    from storyteller import export as exporter

    if story == playthrough and template is None:
        raise UserError("choose one: --story or --playthrough", EXIT_USAGE)
    if story and playthrough:
        raise UserError("choose one: --story or --playthrough", EXIT_USAGE)
    if output is not None:  # before any work: only a regular file, and an existing one only with --force
        try:
            exporter.check_output(output, force)
        except exporter.OutputProblem as e:
            raise UserError(str(e)) from None
    log = store.open_log(path)
    kind = "story" if story else "playthrough" if playthrough else "story"
    try:
        text = exporter.render(log, kind, template)  # cleaned of control characters
    except exporter.TemplateProblem as e:
        raise UserError(str(e)) from None
    if output is None:
        sys.stdout.write(text)
        sys.stdout.flush()
        return 0
    try:
        exporter.write_atomic(output, text)
    except exporter.OutputProblem as e:
        raise UserError(str(e)) from None
    except OSError as e:
        raise UserError(f"{clean(str(output))}: cannot write here ({e.strerror})") from None
    say(f"Wrote {clean(str(output))}")
    return 0


def list_games() -> int:
    for name in registry.names():
        try:
            game = registry.rules(name)
        except registry.RegistryError as e:
            say(f"{name:<10} (cannot be loaded: {e})")
            continue
        say(f"{game.name:<10} {game.summary}")
        for v in game.variants:
            form = f"--variant {v.name}" if v.flag else f"--variant {v.name}={'|'.join(v.choices)}"
            say(f"{'':<10}   {form}: {v.help}")
    return 0


def rules(name: str, setup: bool = False) -> int:
    game = load_game(name)
    if setup:
        teller = registry.get(name).teller
        parts = [f"# Setting up {game.title} at a real table", teller.setup("start", game.parse_variants([]))]
        parts += [teller.setup(moment, game.parse_variants([])) for moment in teller.moments() if moment != "start"]
        text = "\n\n".join(p for p in parts if p) + "\n"
    else:
        text = registry.get(name).rules_markdown()
    if sys.stdout.isatty():
        from rich.console import Console
        from rich.markdown import Markdown

        Console().print(Markdown(clean(text)))
    else:
        sys.stdout.write(clean(text))
    return 0

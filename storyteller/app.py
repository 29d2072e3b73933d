"""What each command does. The only place that turns failures into messages and exit codes.

Every failure a user can cause (a bad option, a broken log, an unwritable path, a bad
template, Ctrl-C) becomes one line on stderr and a non-zero exit, never a traceback.
"""

from __future__ import annotations

import os
import re
import sys
from datetime import datetime
from pathlib import Path
from typing import Any, Callable, Sequence

from storyteller.engine import Game, VariantError, game_names, get_game
from storyteller.log import GameLog, LogError, TruncatedLog, iter_logs, read

EXIT_ERROR = 1
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130


class UserError(Exception):
    def __init__(self, message: str, code: int = EXIT_ERROR) -> None:
        super().__init__(message)
        self.message = message
        self.code = code


def err(message: str) -> None:
    print(f"storyteller: {message}", file=sys.stderr, flush=True)


def say(message: str = "") -> None:
    print(message, flush=True)


def guarded(func: Callable[..., int | None], *args: Any, **kwargs: Any) -> int:
    try:
        return func(*args, **kwargs) or 0
    except UserError as e:
        err(e.message)
        return e.code
    except LogError as e:
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


# -- where things live ------------------------------------------------------------------


def home() -> Path:
    """The per-user data folder (``STORYTELLER_HOME`` overrides it)."""
    override = os.environ.get("STORYTELLER_HOME")
    if override:
        return Path(override).expanduser()
    from platformdirs import user_data_dir

    return Path(user_data_dir("storyteller", appauthor=False))


def sessions_dir() -> Path:
    return home() / "sessions"


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "-", text).strip("-")[:40] or "seed"


def default_log_path(game: str, seed: str) -> Path:
    stamp = datetime.now().strftime("%Y-%m-%d-%H%M%S")
    base = sessions_dir() / f"{stamp}-{game}-{_slug(seed)}"
    path = base.with_suffix(".jsonl")
    n = 2
    while path.exists():
        path = Path(f"{base}-{n}.jsonl")
        n += 1
    return path


# -- options --------------------------------------------------------------------------


def load_game(name: str) -> Game:
    try:
        return get_game(name)
    except KeyError as e:
        raise UserError(e.args[0], EXIT_USAGE) from None


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


def make_driver(game: Game, seed: str, auto: str | None, answers: Path | None, plain: bool):
    """The decision maker: a policy, a script, or the player at a terminal."""
    from storyteller import drivers

    if auto and answers:
        raise UserError("choose either --auto or --answers, not both", EXIT_USAGE)
    if auto:
        if auto not in ("random", "greedy"):
            raise UserError(f"--auto takes 'random' or 'greedy' (not '{auto}')", EXIT_USAGE)
        if auto == "greedy" and not game.has_policy:
            raise UserError(f"{game.title} has no greedy policy yet; use --auto random", EXIT_USAGE)
        return drivers.AutoDriver(auto, seed)
    if answers:
        try:
            return drivers.AnswersDriver.from_file(answers)
        except OSError as e:
            raise UserError(f"{answers}: cannot read the answers file ({e.strerror})", EXIT_USAGE) from None
        except UnicodeDecodeError:
            raise UserError(f"{answers}: the answers file is not text", EXIT_USAGE) from None
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
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
) -> int:
    from storyteller.session import Session

    game = load_game(name)
    chosen = load_variants(game, variants)
    seed_text = load_seed(seed)
    driver = make_driver(game, seed_text, auto, answers, plain)
    path = log if log is not None else default_log_path(game.name, seed_text)
    mode = f"auto {auto}" if auto else "answers" if answers else "player"
    session = Session.new(game, chosen, seed_text, path, mode=mode)
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
            say(f"\nSaved. The game is over; read it: storyteller export {_quote(session.path)} --story")
        else:
            say(f"\nSaved. Nothing is lost. To go on: storyteller resume {_quote(session.path)}")
        return EXIT_INTERRUPTED
    except SaveAndQuit:
        say(f"Saved. To go on: storyteller resume {_quote(session.path)}")
        return 0
    except AnswersExhausted as e:
        err(f"{e}; the game is saved: storyteller resume {_quote(session.path)}")
        return EXIT_INTERRUPTED
    except IllegalAnswer as e:
        err(f"{e}. Nothing illegal was written; the game is saved: storyteller resume {_quote(session.path)}")
        return EXIT_USAGE
    finally:
        session.close()
    say(f"Log: {session.path}")
    say(f"Read it as a story: storyteller export {_quote(session.path)} --story -o story.md")
    return 0 if outcome is not None else EXIT_ERROR


def _quote(path: Path) -> str:
    text = str(path)
    return f"'{text}'" if re.search(r"[^\w@%+=:,./-]", text) else text


def _read_log(path: Path) -> GameLog:
    if path.is_dir():
        raise UserError(f"{path}: is a folder, not a log")
    return read(path)


def resume(
    path: Path | None = None,
    auto: str | None = None,
    answers: Path | None = None,
    yes: bool = False,
    plain: bool = False,
) -> int:
    from storyteller.session import Session

    if path is None:
        path = _latest_unfinished()
    repair = False
    try:
        log = _read_log(path)
    except TruncatedLog as e:
        log = e.intact
        if not yes and not _confirm_repair(str(e), plain):
            raise UserError(f"{e}; to continue from the intact part: storyteller resume {_quote(path)} --yes") from None
        repair = True
    if log.finished:
        end = log.end or {}
        raise UserError(
            f"{path}: this game is already over ({end.get('result')}); "
            f"export it with: storyteller export {_quote(path)} --story"
        )
    game = load_game(log.game)
    driver = make_driver(game, log.seed, auto, answers, plain)
    session = Session.resume(log, repair=repair)
    driver.begin(session, resumed=True)
    return _drive(session, driver)


def _confirm_repair(problem: str, plain: bool) -> bool:
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        return False
    from storyteller.ui.terminal import Terminal

    term = Terminal(plain=plain)
    term.console.print(problem)
    return term.confirm(
        "Continue from the intact part? (the cut-off line is kept beside the log as .cut-off)", default=True
    )


def _latest_unfinished() -> Path:
    candidates = []
    for path in iter_logs(sessions_dir()):
        try:
            log = read(path)
        except TruncatedLog as e:
            log = e.intact
        except LogError:
            continue
        if not log.finished:
            candidates.append((log.header.get("started", ""), path))
    if not candidates:
        raise UserError(f"no unfinished session in {sessions_dir()}; start one with: storyteller play carddom")
    return max(candidates)[1]


# -- looking at logs ------------------------------------------------------------------


def sessions() -> int:
    folder = sessions_dir()
    rows = []
    for path in iter_logs(folder):
        try:
            log = read(path)
            end = log.end
            status = "in progress" if end is None else end["result"]
        except TruncatedLog as e:
            log = e.intact
            status = "cut off (resume to repair)"
        except LogError as e:
            rows.append(("?", "?", "?", f"unreadable: {str(e).split(': ', 1)[-1]}", path.name))
            continue
        started = str(log.header.get("started", ""))[:16].replace("T", " ")
        rows.append((log.game, log.seed, started, status, path.name))
    if not rows:
        say(f"No saved sessions yet in {folder}. Start one with: storyteller play carddom")
        return 0
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"Sessions in {folder}", title_justify="left")
    for column in ("game", "seed", "started", "status", "file"):
        table.add_column(column)
    for row in sorted(rows, key=lambda r: r[2]):
        table.add_row(*row)
    Console().print(table)
    return 0


def replay(path: Path, show: bool = False, plain: bool = False) -> int:
    from storyteller.session import walk

    log = _read_log(path)
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
    say(
        f"OK {path}: {w.game.title}, seed {log.seed}, {len(log.events)} events "
        f"({draws} draws, {w.decisions} decisions, {undos} undone) - {status}"
    )
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
    if output is not None and output.exists() and not force:
        raise UserError(f"{output}: already exists; add --force to overwrite it")
    log = _read_log(path)
    kind = "story" if story else "playthrough" if playthrough else "story"
    try:
        text = exporter.render(log, kind, template)
    except exporter.TemplateProblem as e:
        raise UserError(str(e)) from None
    if output is None:
        sys.stdout.write(text)
        sys.stdout.flush()
        return 0
    try:
        exporter.write_atomic(output, text)
    except OSError as e:
        raise UserError(f"{output}: cannot write here ({e.strerror})") from None
    say(f"Wrote {output}")
    return 0


def list_games() -> int:
    for name in game_names():
        game = get_game(name)
        say(f"{game.name:<10} {game.summary}")
        for v in game.variants:
            form = f"--variant {v.name}" if v.flag else f"--variant {v.name}={'|'.join(v.choices)}"
            say(f"{'':<10}   {form}: {v.help}")
    return 0


def rules(name: str) -> int:
    game = load_game(name)
    from storyteller.narrative import data_dir

    path = data_dir("prompts") / f"{game.name}.rules.md"
    text = path.read_text(encoding="utf-8")
    if sys.stdout.isatty():
        from rich.console import Console
        from rich.markdown import Markdown

        Console().print(Markdown(text))
    else:
        sys.stdout.write(text)
    return 0

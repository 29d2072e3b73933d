"""The command line: parses options and calls one function of ``storyteller.app``.

Only this module and ``app.main`` know about exit codes. Heavy modules (questionary,
rich, jinja2) are imported by the commands that use them, so ``--help`` stays quick.
"""

from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from storyteller import __version__

app = typer.Typer(
    name="storyteller",
    help="A journaling companion for solitaire card games: play, journal, replay, export.",
    add_completion=False,
    no_args_is_help=True,
    rich_markup_mode=None,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)

SEED_HELP = "Any text, digits included (42 and 042 differ); the same seed deals the same game on every machine. Default: a fresh one."
VARIANT_HELP = "A rule variant, NAME=VALUE or a flag NAME (see 'storyteller games'). Repeatable."
LOG_HELP = "Where to write the event log (default: a new file in your storyteller data folder)."
AUTO_HELP = "Play without prompts: 'random' (choices from the seed) or 'greedy' (the hint policy, where the game has one)."
ANSWERS_HELP = "Play from a file of scripted answers, one per line (see the README)."
PHYSICAL_HELP = (
    "Play with your own cards and dice at a real table: --physical, or --physical cards / "
    "--physical dice for one of them (the rest from the seed)."
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"storyteller {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(False, "--version", callback=_version, is_eager=True, help="Show the version and exit."),
) -> None:
    """A journaling companion for solitaire card games: play, journal, replay, export."""


def _run(func, *args, **kwargs) -> None:
    from storyteller.app import guarded

    code = guarded(func, *args, **kwargs)
    if code:
        raise typer.Exit(code)


@app.command(context_settings={"allow_extra_args": True})
def play(
    ctx: typer.Context,
    game: str = typer.Argument(..., help="The game to play (see 'storyteller games')."),
    seed: Optional[str] = typer.Option(None, "--seed", help=SEED_HELP),
    variant: List[str] = typer.Option([], "--variant", "-v", help=VARIANT_HELP),
    log: Optional[Path] = typer.Option(None, "--log", help=LOG_HELP),
    auto: Optional[str] = typer.Option(None, "--auto", help=AUTO_HELP),
    answers: Optional[Path] = typer.Option(None, "--answers", help=ANSWERS_HELP),
    plain: bool = typer.Option(False, "--plain", help="No colours or card symbols."),
    physical: bool = typer.Option(False, "--physical", help=PHYSICAL_HELP),
) -> None:
    """Start a new game, guided step by step, with a journal."""
    from storyteller import app as core

    _run(core.play, game, seed=seed, variants=variant, log=log, auto=auto, answers=answers, plain=plain,
         physical=physical, extra=list(ctx.args))


@app.command()
def resume(
    log: Optional[Path] = typer.Argument(None, help="The log to continue (default: the most recent unfinished one)."),
    auto: Optional[str] = typer.Option(None, "--auto", help=AUTO_HELP),
    answers: Optional[Path] = typer.Option(None, "--answers", help=ANSWERS_HELP),
    yes: bool = typer.Option(False, "--yes", "-y", help="Continue from the intact part of a cut-off log without asking."),
    plain: bool = typer.Option(False, "--plain", help="No colours or card symbols."),
) -> None:
    """Continue an unfinished game where it stopped."""
    from storyteller import app as core

    _run(core.resume, log, auto=auto, answers=answers, yes=yes, plain=plain)


@app.command()
def sessions() -> None:
    """List saved sessions: game, seed, started, status."""
    from storyteller import app as core

    _run(core.sessions)


@app.command()
def replay(
    log: Path = typer.Argument(..., help="The log to check."),
    show: bool = typer.Option(False, "--show", help="Step through the game, showing the table after each event."),
    plain: bool = typer.Option(False, "--plain", help="No colours or card symbols."),
) -> None:
    """Re-run a log from its seed and decisions and check that every draw and the outcome match."""
    from storyteller import app as core

    _run(core.replay, log, show=show, plain=plain)


@app.command()
def export(
    log: Path = typer.Argument(..., help="The log to render."),
    story: bool = typer.Option(False, "--story", help="Render the story: prose to read."),
    playthrough: bool = typer.Option(False, "--playthrough", help="Render the playthrough: the record of every step."),
    output: Optional[Path] = typer.Option(None, "-o", "--output", help="Write to this file (default: print the Markdown)."),
    template: Optional[Path] = typer.Option(None, "--template", help="Render with your own Jinja2 template instead."),
    force: bool = typer.Option(False, "--force", help="Overwrite an existing output file."),
) -> None:
    """Render a log as Markdown: a story, or a playthrough."""
    from storyteller import app as core

    _run(core.export, log, story=story, playthrough=playthrough, output=output, template=template, force=force)


@app.command()
def games() -> None:
    """List the games and their variants."""
    from storyteller import app as core

    _run(core.list_games)


@app.command()
def rules(
    game: str = typer.Argument(..., help="The game whose rules to explain."),
    setup: bool = typer.Option(False, "--setup", help="How to set up your own cards and dice for a game at a real table."),
) -> None:
    """Explain a game's rules."""
    from storyteller import app as core

    _run(core.rules, game, setup=setup)


@app.command()
def stats(
    game: Optional[str] = typer.Argument(None, help="Only this game (default: every game)."),
    variant: List[str] = typer.Option([], "--variant", "-v", help="Only games played with these variants (with GAME)."),
    as_json: bool = typer.Option(False, "--json", help="Print the figures as JSON."),
    plain: bool = typer.Option(False, "--plain", help="No colours or symbols."),
) -> None:
    """How your games went: played, won, lost, win rate, streaks, scores, words written."""
    from storyteller import stats as core

    _run(core.run, game, variant, as_json=as_json, plain=plain)


SYMBOLS = "\u263e\u2600\u2248\u2766\u00a7\u2318\u2663\u2665\u2660\u2666\u2014"  # suits, piquet, a dash


def can_show(encoding: str | None, text: str = SYMBOLS) -> bool:
    """Whether a stream in this encoding can show the cards' symbols and the players' words."""
    try:
        text.encode(encoding or "ascii")
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def main(argv: Optional[list[str]] = None) -> int:
    import sys

    for stream in (sys.stdout, sys.stderr):
        if not can_show(stream.encoding):
            # A terminal that cannot show a character gets "?" for it instead of a crash.
            try:
                stream.reconfigure(errors="replace")
            except AttributeError:  # not a text file (a test's capture): leave it as it is
                pass
    try:
        app(args=argv, prog_name="storyteller", standalone_mode=True)
    except SystemExit as e:
        return int(e.code or 0) if not isinstance(e.code, str) else 1
    return 0

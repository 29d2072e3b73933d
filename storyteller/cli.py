"""The command line: parses options and calls one function of ``storyteller.app``.

Only this module and ``app.main`` know about exit codes. Heavy modules (questionary,
rich, jinja2) are imported by the commands that use them, so ``--help`` stays quick;
settings are read by the commands that need them (``storyteller.config``), never here.

Shell completion (``--install-completion``, ``--show-completion``) completes game names,
the variants of the game already typed, settings keys and values, and log paths; each
completer is cheap (game names come from the entry points, variants load only the named
game's rules).
"""

from __future__ import annotations

import inspect
from pathlib import Path
from typing import Any

import typer
from typer.models import ArgumentInfo, ParameterInfo

from storyteller import __version__
from storyteller.core.formats import DEFAULT_PAPER, FORMATS, PAPERS, named

app = typer.Typer(
    name="storyteller",
    help="A journaling companion for solitaire card games: play, journal, replay, export.",
    add_completion=True,
    no_args_is_help=True,
    rich_markup_mode=None,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)

SEED_HELP = ("Any text, digits included (42 and 042 differ); the same seed deals the same game on every machine. "
             "Default: a fresh one.")
VARIANT_HELP = "A rule variant, NAME=VALUE or a flag NAME (see 'storyteller games'). Repeatable."
LOG_HELP = "Where to write the event log (default: a new file in your storyteller data folder)."
AUTO_HELP = ("Play without prompts: 'random' (choices from the seed), 'greedy' (the player behind Hint) or another "
             "of the game's players, such as 'search' (see 'storyteller games').")
ANSWERS_HELP = "Play from a file of scripted answers, one per line (see the README)."
PLAIN_HELP = "No colours or card symbols. Default: the setting 'plain' (NO_COLOR, when set, always means plain)."
QUESTIONS_HELP = (
    "How often a journaling question is asked after a card is revealed: every-reveal, key-moments "
    "(the game's turning points) or none. Default: the setting 'questions' (every-reveal)."
)
_WORDS = [f.words for f in FORMATS.values()]
FORMAT_HELP = "; ".join(_WORDS[:-1]) + f"; or {_WORDS[-1]}."
NOTES = named(*(f.name for f in FORMATS.values() if f.notes))  # the formats of a vault's notes
BESIDE = named(*(f.name for f in FORMATS.values() if f.pictures == "beside"))  # those with pictures beside them
PAGES = named(*(f.name for f in FORMATS.values() if f.page))  # those printed on a page
PHYSICAL_HELP = (
    "Play with your own cards and dice at a real table: --physical, or --physical cards / "
    "--physical dice for one of them (the rest from the seed)."
)

DEAL_HELP = ("Which deal: any (a fresh seed, the default); winnable (a fresh deal the solver has proved can be won, "
             "found in a second or two); easy (winnable, and the built-in greedy player wins it too); hard "
             "(winnable, and the greedy player loses it).")
DAILY_HELP = ("The day's deal: the same seed for everyone on the same date (UTC) and game, winnable where the solver "
              "can prove one; standard rules. 'storyteller stats --daily' shows your days.")



# -- completion: cheap functions of what is typed -----------------------------------------


def _starting(words, incomplete: str) -> list[str]:
    return [w for w in words if w.startswith(incomplete)]


def complete_game(incomplete: str) -> list[str]:
    """Installed games, from the entry points' names (no game is loaded)."""
    from storyteller import registry

    return _starting(registry.names(), incomplete.lower())


def complete_variant(ctx: typer.Context, incomplete: str) -> list[str]:
    """The variants of the game already typed (only its rules are loaded), leaving out
    those already given."""
    from storyteller import registry

    game = ctx.params.get("game") or ctx.params.get("target")  # solve's GAME|LOG
    if game is None:  # `--variant <TAB>`: the parser stopped at the option, leaving the game unread
        game = next((a for a in ctx.args if a in registry.names()), None)
    return variant_forms(game, ctx.params.get("variant") or (), incomplete)


def variant_forms(name: str | None, given_specs, incomplete: str) -> list[str]:
    from storyteller import registry

    try:
        variants = registry.rules(name).variants if name else ()
    except Exception:  # an unknown or broken game: nothing to offer
        return []
    given = {str(spec).partition("=")[0] for spec in given_specs}
    forms = []
    for v in variants:
        if v.name not in given:
            forms += [v.name, f"{v.name}=off"] if v.flag else [f"{v.name}={c}" for c in v.choices]
    return _starting(forms, incomplete)


def complete_log(incomplete: str) -> list[str]:
    """Logs: ``*.jsonl`` files where the typed path points, and the saved games (newest
    first) whose path starts with what is typed. None: the shell completes files itself."""
    import os

    head = incomplete[: incomplete.rfind("/") + 1]
    stem = incomplete[len(head):]
    found: list[str] = []
    try:
        with os.scandir(os.path.expanduser(head) or ".") as entries:
            found = sorted(
                head + e.name for e in entries
                if e.name.startswith(stem) and e.name.endswith(".jsonl") and (stem[:1] == "." or e.name[:1] != ".")
                and e.is_file()
            )
    except OSError:
        pass
    try:
        from storyteller.log import store

        saved = sorted((str(p) for p in store.sessions_dir().glob("*.jsonl")), reverse=True)
    except Exception:  # no folder, a bad settings file: just the files here
        saved = []
    return list(dict.fromkeys(found + _starting(saved, incomplete)[:50]))


def complete_files(incomplete: str) -> list[str]:
    """Nothing: the shell's own file completion (Typer's would repeat what is typed)."""
    return []


def complete_key(incomplete: str) -> list[str]:
    from storyteller import config

    return _starting(config.names(), incomplete)


def complete_value(ctx: typer.Context, incomplete: str) -> list[str]:
    """Values for the key already typed: true/false, its choices, or the game's variants."""
    from storyteller import config

    name = str(ctx.params.get("key") or "")
    try:
        key = config.key_of(name)
    except config.ConfigError:
        return []
    if key.kind == "bool":
        return _starting(["true", "false"], incomplete)
    if key.kind == "choice":
        return _starting(key.choices, incomplete)
    if key.kind == "variants":
        game = name[len(config.VARIANTS):]
        return variant_forms(game, ctx.params.get("value") or (), incomplete)
    return []


def complete_auto(ctx: typer.Context, incomplete: str) -> list[str]:
    """random, and the players of the game already typed (or of every game, for resume)."""
    from storyteller import registry

    game = ctx.params.get("game")
    if game is None:  # `--auto <TAB>`: as for --variant, the game may be among the extra words
        game = next((a for a in ctx.args if a in registry.names()), None)
    try:
        games = [game] if game in registry.names() else registry.names()
        players = dict.fromkeys(p for g in games for p in registry.get(g).policies)
    except Exception:  # a completion never breaks the shell
        players = {"greedy": None}
    return _starting(["random", *players], incomplete)


def complete_status(incomplete: str) -> list[str]:
    return _starting(["in-progress", "won", "lost", "abandoned"], incomplete)


def complete_deal(incomplete: str) -> list[str]:
    return _starting(["any", "winnable", "easy", "hard"], incomplete)


def complete_questions(incomplete: str) -> list[str]:
    from storyteller.config import QUESTIONS

    return _starting(QUESTIONS, incomplete)


def complete_game_or_log(incomplete: str) -> list[str]:
    return complete_game(incomplete) + complete_log(incomplete)


def complete_format(incomplete: str) -> list[str]:
    return _starting(FORMATS, incomplete)


def complete_paper(incomplete: str) -> list[str]:
    return _starting(PAPERS, incomplete)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"storyteller {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(False, "--version", callback=_version, is_eager=True,
                                 help="Show the version and exit."),
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
    game: str | None = typer.Argument(None, help="The game to play (see 'storyteller games').",
                                      autocompletion=complete_game),
    seed: str | None = typer.Option(None, "--seed", help=SEED_HELP),
    variant: list[str] = typer.Option([], "--variant", "-v", help=VARIANT_HELP, autocompletion=complete_variant),
    log: Path | None = typer.Option(None, "--log", help=LOG_HELP),
    auto: str | None = typer.Option(None, "--auto", help=AUTO_HELP, autocompletion=complete_auto),
    answers: Path | None = typer.Option(None, "--answers", help=ANSWERS_HELP),
    plain: bool | None = typer.Option(None, "--plain/--no-plain", help=PLAIN_HELP),
    physical: bool = typer.Option(False, "--physical", help=PHYSICAL_HELP),
    questions: str | None = typer.Option(None, "--questions", help=QUESTIONS_HELP, autocompletion=complete_questions),
    from_log: Path | None = typer.Option(None, "--from", metavar="LOG",
                                            help="Play on from a step of a saved game, in a new log (with --step)."),
    step: int | None = typer.Option(None, "--step", metavar="N", help="With --from: keep the old game's steps 1 to N."),
    campaign: str | None = typer.Option(None, "--campaign", metavar="NAME",
                                        help="Play the next chapter of this campaign (see 'storyteller campaign')."),
    deal: str | None = typer.Option(None, "--deal", metavar="any|winnable|easy|hard", help=DEAL_HELP,
                                    autocompletion=complete_deal),
    daily: bool = typer.Option(False, "--daily", help=DAILY_HELP),
) -> None:
    """Start a new game, guided step by step, with a journal (or play on from a step of a saved one)."""
    from storyteller import app as core

    _run(core.play, game, seed=seed, variants=variant, log=log, auto=auto, answers=answers, plain=plain,
         physical=physical, extra=list(ctx.args), questions=questions, from_log=from_log, step=step,
         campaign=campaign, deal=deal, daily=daily)


@app.command()
def resume(
    log: Path | None = typer.Argument(None, help="The log to continue (default: the most recent unfinished one)."),
    auto: str | None = typer.Option(None, "--auto", help=AUTO_HELP, autocompletion=complete_auto),
    answers: Path | None = typer.Option(None, "--answers", help=ANSWERS_HELP),
    yes: bool = typer.Option(False, "--yes", "-y",
                             help="Continue from the intact part of a cut-off log without asking."),
    plain: bool | None = typer.Option(None, "--plain/--no-plain", help=PLAIN_HELP),
    questions: str | None = typer.Option(None, "--questions", help=QUESTIONS_HELP, autocompletion=complete_questions),
) -> None:
    """Continue an unfinished game where it stopped."""
    from storyteller import app as core

    _run(core.resume, log, auto=auto, answers=answers, yes=yes, plain=plain, questions=questions)


@app.command()
def sessions(
    every: bool = typer.Option(False, "--all", help="Every saved game, not only the most recent."),
    number: int = typer.Option(20, "-n", help="How many of the most recent games to list."),
    game: str | None = typer.Option(None, "--game", help="Only this game's sessions.", autocompletion=complete_game),
    status: str | None = typer.Option(None, "--status", metavar="STATUS", autocompletion=complete_status,
                                         help="Only games in-progress, won, lost or abandoned."),
    campaign: str | None = typer.Option(None, "--campaign", metavar="NAME",
                                        help="Only the chapters of this campaign."),
) -> None:
    """List saved sessions, newest first: game, seed, started, status."""
    from storyteller import app as core

    _run(core.sessions, every=every, number=number, game=game, status=status, campaign=campaign)


JOURNAL_HELP = (
    "Your journal entries across every saved game, newest first: the day, the game (and campaign chapter), "
    "what the entry answered, and your words. 'storyteller journal search WORDS...' lists those that hold "
    "every word (case does not matter; a tag reads as its name). --json gives a list of objects, one an entry, "
    "with the fields date, at, game, title, seed, log, n, campaign ({name, chapter} or null), answered, "
    "question, text and tags ([{kind, name, note}]); see docs/journal.md."
)


@app.command(help=JOURNAL_HELP)
def journal(
    words: list[str] | None = typer.Argument(None, metavar="search WORDS", show_default=False,
                                             help="search, then the words every entry listed must hold."),
    number: int = typer.Option(20, "-n", help="How many of the most recent entries to list."),
    every: bool = typer.Option(False, "--all", help="Every entry, not only the most recent."),
    game: str | None = typer.Option(None, "--game", help="Only this game's entries.", autocompletion=complete_game),
    campaign: str | None = typer.Option(None, "--campaign", metavar="NAME", help="Only this campaign's entries."),
    start: str | None = typer.Option(None, "--from", metavar="DATE",
                                     help="Only entries written on this day (YYYY-MM-DD) or later."),
    end: str | None = typer.Option(None, "--to", metavar="DATE",
                                   help="Only entries written on this day (YYYY-MM-DD) or earlier."),
    tag: list[str] = typer.Option([], "--tag", metavar="NAME",
                                  help="Only entries that name this tagged person, place or thread, in a tag or, "
                                       "once tagged, in plain words. Repeatable: every name."),
    as_json: bool = typer.Option(False, "--json", help="Print the entries as JSON (see above)."),
) -> None:
    from storyteller import app as core

    _run(core.journal, words or [], number=number, every=every, game=game, campaign=campaign, start=start,
         end=end, tag=tag, as_json=as_json)


@app.command()
def replay(
    log: Path = typer.Argument(..., help="The log to check."),
    show: bool = typer.Option(False, "--show", help="Step through the game, showing the table after each event."),
    plain: bool | None = typer.Option(None, "--plain/--no-plain", help=PLAIN_HELP),
) -> None:
    """Re-run a log from its seed and decisions and check that every draw and the outcome match."""
    from storyteller import app as core

    _run(core.replay, log, show=show, plain=plain)


@app.command()
def export(
    log: Path | None = typer.Argument(None, help="The log to render (or --all DIR for every saved game)."),
    story: bool = typer.Option(False, "--story", help="Render the story: prose to read."),
    playthrough: bool = typer.Option(False, "--playthrough", help="Render the playthrough: the record of every step."),
    format: str | None = typer.Option(None, "--format", metavar="FORMAT", help=FORMAT_HELP,
                                         autocompletion=complete_format),
    output: Path | None = typer.Option(None, "-o", "--output", help="Write to this file (default, or -: print it)."),
    template: Path | None = typer.Option(None, "--template",
                                         help="Render with your own Jinja2 template instead (any text format)."),
    force: bool = typer.Option(False, "--force",
                               help="Overwrite an existing output file (with --all: notes you edited)."),
    all_dir: Path | None = typer.Option(
        None, "--all", metavar="DIR",
        help=f"Every saved game as notes in DIR ({NOTES}), with an index; again later, it updates what changed.",
    ),
    playthroughs: bool = typer.Option(False, "--playthroughs",
                                      help="With --all: a playthrough note for each game too."),
    pictures: bool = typer.Option(
        False, "--pictures", help=f"With {BESIDE}: pictures of the table as SVG files beside the note, linked from it.",
    ),
    paper: str | None = typer.Option(
        None, "--paper", metavar="|".join(PAPERS),
        help=f"With {PAGES}: the page it prints on (default {DEFAULT_PAPER}).",
        autocompletion=complete_paper,
    ),
    analysis: bool = typer.Option(
        False, "--analysis",
        help="With --playthrough: where the game turned (see storyteller analyse), a chart in HTML.",
    ),
    campaign: str | None = typer.Option(
        None, "--campaign", metavar="NAME",
        help="A campaign as a book: its chapters' stories, its cast and its threads (Obsidian: notes beside -o).",
    ),
) -> None:
    """Render a log as a story or a playthrough: Markdown, an Obsidian note, JSON, Lonelog, an HTML page or a PDF."""
    from storyteller import app as core

    if all_dir is not None:
        _run(core.export_all, all_dir, log=log, format=format, playthroughs=playthroughs, force=force,
             others=bool(story or playthrough or output or template or paper or analysis or campaign),
             pictures=pictures)
        return
    _run(core.export, log, story=story, playthrough=playthrough, output=output, template=template, force=force,
         format=format, paper=paper, pictures=pictures, analysis=analysis, campaign=campaign)


@app.command()
def games() -> None:
    """List the games and their variants."""
    from storyteller import app as core

    _run(core.list_games)


@app.command()
def rules(
    game: str = typer.Argument(..., help="The game whose rules to explain.", autocompletion=complete_game),
    setup: bool = typer.Option(False, "--setup",
                               help="How to set up your own cards and dice for a game at a real table."),
) -> None:
    """Explain a game's rules."""
    from storyteller import app as core

    _run(core.rules, game, setup=setup)


@app.command()
def simulate(
    game: str = typer.Argument(..., help="The game to play (see 'storyteller games').", autocompletion=complete_game),
    games: int | None = typer.Option(None, "--games", "-n", help="How many games: seeds 0 to N-1 (default 1000)."),
    seeds: str | None = typer.Option(None, "--seeds", metavar="A..B",
                                     help="These seeds, both ends included (e.g. 0..1999)."),
    policy: str | None = typer.Option(None, "--policy",
                                      help="random, greedy or another of the game's policies "
                                           "(default: greedy where the game has it).",
                                         autocompletion=complete_auto),
    variant: list[str] = typer.Option([], "--variant", "-v", help=VARIANT_HELP, autocompletion=complete_variant),
    jobs: str = typer.Option("auto", "--jobs", "-j", help="Processes to play on: a number, or auto (one per core)."),
    as_json: bool = typer.Option(False, "--json", help="Print the figures and every game's result as JSON."),
    csv: Path | None = typer.Option(None, "--csv", metavar="FILE", help="Write every game's result to a CSV file."),
    logs: Path | None = typer.Option(None, "--logs", metavar="DIR",
                                     help="Write each game's log into DIR (each replays)."),
    solve: bool = typer.Option(False, "--solve",
                               help="Also ask the solver whether each deal could be won with every card known."),
    budget: str = typer.Option("200000", "--budget",
                               help="With --solve: positions (200000) or seconds (10s) per deal."),
    plain: bool = typer.Option(False, "--plain", help="No colours."),
) -> None:
    """Play many games unattended, on every core: how often a policy wins."""
    from storyteller import app as core

    _run(core.simulate, game, games=games, seeds=seeds, policy=policy, variant_specs=variant, jobs=jobs,
         as_json=as_json, csv=csv, logs=logs, solve=solve, budget=budget, plain=plain)


ANALYSE_HELP = "Where did this game turn? The chance to win before and after every decision, luck and skill."


def _analyse(
    log: Path = typer.Argument(..., help="The log to analyse (finished or not)."),
    samples: int | None = typer.Option(None, "--samples", metavar="N",
                                          help="Sampled deals at each position (default 32, down to 12 for a long "
                                               "game; more is slower and surer)."),
    budget: str = typer.Option("200000", "--budget",
                               help="The solver's budget per position: positions (200000) or seconds (10s)."),
    player: str | None = typer.Option(None, "--player",
                                      help="The built-in player whose chance is measured (default: greedy).",
                                         autocompletion=complete_auto),
    jobs: str = typer.Option("auto", "--jobs", "-j",
                             help="Processes to play out on: a number, or auto (one per core)."),
    as_json: bool = typer.Option(False, "--json", help="Print the analysis as JSON (see docs/analysis.md)."),
    plain: bool = typer.Option(False, "--plain", help="No colours."),
) -> None:
    from storyteller import app as core

    _run(core.analyse, log, samples=samples, budget=budget, player=player, jobs=jobs, as_json=as_json, plain=plain)


app.command("analyse", help=ANALYSE_HELP)(_analyse)
app.command("analyze", help=ANALYSE_HELP + " (The same as analyse.)", hidden=True)(_analyse)


@app.command()
def solve(
    target: str = typer.Argument(..., help="A game (with --seed) or a log: the deal to look at.", metavar="GAME|LOG",
                                 autocompletion=complete_game_or_log),
    seed: str | None = typer.Option(None, "--seed", help="The deal's seed (with a game)."),
    variant: list[str] = typer.Option([], "--variant", "-v", help=VARIANT_HELP, autocompletion=complete_variant),
    budget: str = typer.Option("10s", "--budget", help="How long to search: positions (200000) or seconds (10s)."),
    log: Path | None = typer.Option(None, "--log", help="If the deal can be won, write a winning game here."),
) -> None:
    """With every card known, could this deal be won? winnable (with a winning game), not winnable, or unknown."""
    from storyteller import app as core

    _run(core.solve, target, seed=seed, variant_specs=variant, budget=budget, log=log)


@app.command()
def stats(
    game: str | None = typer.Argument(None, help="Only this game (default: every game).", autocompletion=complete_game),
    variant: list[str] = typer.Option([], "--variant", "-v", help="Only games played with these variants (with GAME).",
                                      autocompletion=complete_variant),
    as_json: bool = typer.Option(False, "--json", help="Print the figures as JSON."),
    plain: bool = typer.Option(False, "--plain", help="No colours or symbols."),
    everyone: bool = typer.Option(False, "--all",
                                  help="Count the built-in players' games too (--auto, simulate --logs)."),
    campaign: str | None = typer.Option(None, "--campaign", metavar="NAME",
                                        help="A campaign's chapters, wins and losses, and the cast met most often."),
    daily: bool = typer.Option(False, "--daily", help="Your days: each day's deal you played (play --daily), won or "
                                                      "lost, and your streak of days won in a row."),
) -> None:
    """How your games went: played, won, lost, win rate, streaks, scores, words written."""
    from storyteller import app as core

    _run(core.stats, game, variant, as_json=as_json, plain=plain, everyone=everyone, campaign=campaign, daily=daily)


campaign_app = typer.Typer(
    name="campaign",
    help="One story across many games: its chapters, its cast and its threads ('storyteller campaign' lists them).",
    invoke_without_command=True,
    add_completion=False,
    rich_markup_mode=None,
)
app.add_typer(campaign_app, name="campaign")


def complete_campaign(incomplete: str) -> list[str]:
    try:
        from storyteller.play.campaign import names

        return _starting(names(), incomplete)
    except Exception:
        return []


@campaign_app.callback()
def campaign_list(ctx: typer.Context) -> None:
    """Every campaign: its title, protagonist, chapters and where it stands."""
    from storyteller import app as core

    if ctx.invoked_subcommand is None:
        _run(core.campaign_list)


@campaign_app.command("new")
def campaign_new(
    name: str = typer.Argument(..., help="A short name for the campaign: letters, digits, - and _."),
    answers: Path | None = typer.Option(None, "--answers", help="Answer from a file of lines such as 'name: Wren' "
                                                                "(name, line, wants, title)."),
    plain: bool | None = typer.Option(None, "--plain/--no-plain", help=PLAIN_HELP),
) -> None:
    """Start a campaign: who the protagonist is, what they want, and its title (Enter skips each)."""
    from storyteller import app as core

    _run(core.campaign_new, name, answers=answers, plain=plain)


@campaign_app.command("show")
def campaign_show(
    name: str = typer.Argument(..., help="The campaign.", autocompletion=complete_campaign),
) -> None:
    """A campaign's protagonist, chapters, cast and threads, and where it stands."""
    from storyteller import app as core

    _run(core.campaign_show, name)


@campaign_app.command("cast")
def campaign_cast(
    name: str = typer.Argument(..., help="The campaign.", autocompletion=complete_campaign),
) -> None:
    """Everyone the campaign met (cards, and the people and places you tagged) and its threads."""
    from storyteller import app as core

    _run(core.campaign_cast, name)


config_app = typer.Typer(
    name="config",
    help="Show and change your settings (a TOML file; 'storyteller config show' lists every key).",
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode=None,
)
app.add_typer(config_app, name="config")
KEY_HELP = "A setting: plain, questions, sessions, export.format or variants.GAME."


@config_app.command("path")
def config_path() -> None:
    """Print where the settings file is (it need not exist: without it, the defaults)."""
    from storyteller import app as core

    _run(core.config_path)


@config_app.command("show")
def config_show() -> None:
    """Show every setting in force and where it comes from (flag, environment, file, default)."""
    from storyteller import app as core

    _run(core.config_show)


@config_app.command("get")
def config_get(key: str = typer.Argument(..., help=KEY_HELP, autocompletion=complete_key)) -> None:
    """Print the value of one setting in force."""
    from storyteller import app as core

    _run(core.config_get, key)


@config_app.command("set")
def config_set(
    key: str = typer.Argument(..., help=KEY_HELP, autocompletion=complete_key),
    value: list[str] = typer.Argument(..., help="The value (for variants.GAME, one or more variants).",
                                      autocompletion=complete_value),
) -> None:
    """Set a setting in the file, after checking its value."""
    from storyteller import app as core

    _run(core.config_set, key, value)


@config_app.command("unset")
def config_unset(key: str = typer.Argument(..., help=KEY_HELP, autocompletion=complete_key)) -> None:
    """Remove a setting from the file: its default applies again."""
    from storyteller import app as core

    _run(core.config_unset, key)


def _complete_paths(commands) -> None:
    """Every path a command takes completes without repeating itself: a LOG argument
    (replay, export, resume) offers logs, any other path the shell's own file completion.
    Set here once, for every command, unless a command chose its own completer."""
    for info in commands:
        for name, param in inspect.signature(info.callback).parameters.items():
            spec = param.default
            if isinstance(spec, ParameterInfo) and spec.autocompletion is None and "Path" in str(param.annotation):
                log = name == "log" and isinstance(spec, ArgumentInfo)
                spec.autocompletion = complete_log if log else complete_files


def _one_command(argv: list[str]) -> typer.Typer:
    """The command line to parse ``argv`` with: when it names one of the commands, a copy
    of the app holding only that command (Typer builds every command's parameters before it
    parses, which the others need not pay for); otherwise the whole app (help, completion,
    a mistyped command, which is then listed among the others)."""
    import os

    if not argv or os.environ.get("_STORYTELLER_COMPLETE"):
        return app
    chosen = [c for c in app.registered_commands if _name(c) == argv[0]]
    if not chosen:
        return app
    one = typer.Typer(name=app.info.name, help=app.info.help, add_completion=False, no_args_is_help=True,
                      rich_markup_mode=None, pretty_exceptions_enable=False,
                      context_settings={"help_option_names": ["-h", "--help"]})
    one.registered_callback = app.registered_callback
    one.registered_commands = chosen
    return one


def _name(command: Any) -> str:
    """A registered command's name, as typed."""
    return command.name or (command.callback.__name__.replace("_", "-") if command.callback else "")


def main(argv: list[str] | None = None) -> int:
    import io
    import sys

    from storyteller.core.words import can_show, command, program

    _complete_paths(app.registered_commands + config_app.registered_commands)
    for stream in (sys.stdout, sys.stderr):
        # A terminal that cannot show a character gets "?" for it instead of a crash (a
        # test's capture, which is no text file, is left as it is).
        if not can_show(stream.encoding) and isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(errors="replace")
    args = sys.argv[1:] if argv is None else argv
    try:
        parser = _one_command(args)
        # A command's usage and its "Try ... -h" name the program as it was started; the whole
        # app (help, completion, whose scripts are installed for 'storyteller') keeps its name.
        prog = "storyteller" if parser is app else command(*program())
        parser(args=args, prog_name=prog, complete_var="_STORYTELLER_COMPLETE", standalone_mode=True)
    except SystemExit as e:
        return int(e.code or 0) if not isinstance(e.code, str) else 1
    return 0

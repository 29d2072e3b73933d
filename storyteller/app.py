"""What each command does. The only place that turns failures into messages and exit codes.

Every failure a user can cause (a bad option, a broken log, an unwritable path, a bad
template, Ctrl-C) becomes one line on stderr and a non-zero exit, never a traceback.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any
from collections.abc import Callable, Mapping, Sequence

from storyteller import __version__, config, registry
from storyteller.log import store
from storyteller.core.engine import Game, VariantError
from storyteller.log.file import LogError, LogWriter, TruncatedLog, now
from storyteller.core.words import clean, command_line, plural

from storyteller.core.errors import EXIT_ERROR, EXIT_INTERRUPTED, EXIT_USAGE, UserError


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
    except config.ConfigError as e:  # a bad settings file or environment value: one line naming the key
        err(e.message)
        return e.code
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
    """The variants of a new game: the setting ``variants.GAME``, with each ``--variant``
    given replacing the setting's variant of the same name."""
    given = {spec.partition("=")[0].strip() for spec in specs}
    kept = [s for s in config.get(f"variants.{game.name}") if s.partition("=")[0].strip() not in given]
    try:
        return game.parse_variants(kept + list(specs))
    except VariantError as e:
        also = f" (with {' '.join(kept)} from the setting variants.{game.name})" if kept else ""
        raise UserError(f"{e}{also}", EXIT_USAGE) from None


def load_seed(seed: str | None) -> str:
    from storyteller.core.rng import fresh_seed, normalize_seed

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
    if len(extra) > 1 or (extra and extra[0] not in ("cards", "dice")):
        raise UserError(f"--physical takes nothing, 'cards' or 'dice' (not '{' '.join(extra)}')", EXIT_USAGE)
    if not game.dice:
        if extra == ["dice"]:
            raise UserError(f"{game.title} uses no dice: play it with --physical (your own cards)", EXIT_USAGE)
        return "physical cards"
    return {"cards": "physical cards", "dice": "physical dice"}.get(extra[0] if extra else "", "physical")


def make_driver(game: Game, seed: str, auto: str | None, answers: Path | None, plain: bool | None,
                source: str = "seeded",
                questions: str | None = None):
    """The decision maker: a policy, a script, or the player at a terminal. ``plain`` and
    ``questions``: the flags (None when not given; the settings decide)."""
    from storyteller.ui import drivers
    from storyteller.play.session import AutoPlayer

    if auto and answers:
        raise UserError("choose either --auto or --answers, not both", EXIT_USAGE)
    plain = config.get("plain", flag=plain)
    questions = config.get("questions", flag=questions)
    if auto and source != "seeded":
        raise UserError(
            "--auto cannot turn up your own cards or roll your dice: play at a real table yourself, or with "
            "--answers FILE",
            EXIT_USAGE,
        )
    if auto:
        players = registry.get(game.name).policies
        if auto != "random" and auto not in players:
            known = ", ".join(["random", *players])
            raise UserError(f"{game.title} has no player '{auto}' for --auto (its players: {known})", EXIT_USAGE)
        return drivers.AutoDriver(AutoPlayer(game, seed, auto))
    if answers:
        try:
            return drivers.AnswersDriver.from_file(answers, questions)
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
    from storyteller.ui.play import PlayerDriver
    from storyteller.ui.terminal import Terminal

    return PlayerDriver(Terminal(plain=plain), questions)


# -- play and resume ------------------------------------------------------------------


def play(
    name: str | None,
    seed: str | None = None,
    variants: Sequence[str] = (),
    log: Path | None = None,
    auto: str | None = None,
    answers: Path | None = None,
    plain: bool | None = None,
    physical: bool = False,
    extra: Sequence[str] = (),
    questions: str | None = None,
    from_log: Path | None = None,
    step: int | None = None,
    campaign: str | None = None,
    deal: str | None = None,
    daily: bool = False,
) -> int:
    from storyteller.play.session import Session

    if campaign is not None and (from_log is not None or step is not None):
        raise UserError("a branch is not a new chapter: play --from LOG --step N without --campaign", EXIT_USAGE)
    if from_log is not None or step is not None:
        if name is not None or seed is not None or variants or physical or extra or deal is not None or daily:
            raise UserError("a branch plays on the old game's deal and rules: give --from LOG --step N, and no game, "
                            "--seed, --variant, --physical, --deal or --daily", EXIT_USAGE)
        return branch(from_log, step, log, auto, answers, plain, questions)
    want = load_deal(deal, seed, daily, physical, variants)
    if name is None:
        raise UserError(f"which game? {command_line('play', 'GAME')} ({command_line('games')} lists them), or "
                        f"{command_line('play', '--from', 'LOG', '--step', 'N')} to play on from a step of a saved "
                        "game", EXIT_USAGE)
    game = load_game(name)
    # the day's deal is played by the standard rules, the same for everyone
    chosen = game.parse_variants([]) if daily else load_variants(game, variants)
    source = load_source(game, physical, extra)
    first = None if auto else first_game(game, chosen)
    header_deal = None
    if daily or want != "any":
        seed_text, header_deal, said = choose_deal(game, chosen, want, daily, auto, answers, plain)
        if seed_text is None:  # the player chose to stop
            return 0
    else:
        seed_text = load_seed(seed)
        said = None
    driver = make_driver(game, seed_text, auto, answers, plain, source, questions)
    path = log if log is not None else store.new_log_path(game.name, seed_text)
    mode = f"auto {auto}" if auto else "answers" if answers else "player"
    if campaign is None:
        session = Session.new(game, chosen, seed_text, path, mode=mode, source=source, driver=driver,
                              deal=header_deal)
    else:
        from storyteller.play import campaign as campaigns

        campaigns.check_name(campaign)
        if auto:  # only on purpose: a built-in player's moves in a person's story
            say(f"The built-in player {auto!r} plays this chapter of the campaign {campaign!r}: its moves, your "
                "campaign.")
        session = campaigns.begin_chapter(campaign, lambda field: Session.new(
            game, chosen, seed_text, path, mode=mode, source=source, driver=driver, campaign=field,
            deal=header_deal))
        field = session.log.header.campaign
        c = campaigns.load(campaign)
        say(f"Chapter {field['chapter']} of {c.heading}.")
        waiting = [ch for ch in campaigns.chapters(c)[:-1] if ch.status in ("in progress", "cut off")]
        if len(waiting) == 1:
            say(f"(Chapter {waiting[0].number} is unfinished; it waits for you: "
                f"{command_line('resume', waiting[0].path)})")
        elif waiting:
            numbers = ", ".join(str(ch.number) for ch in waiting[:-1]) + f" and {waiting[-1].number}"
            say(f"(Chapters {numbers} are unfinished; they wait for you: {command_line('campaign', 'show', campaign)})")
        if field["recap"]:
            import shutil
            import textwrap

            width = max(40, min(100, shutil.get_terminal_size((80, 24)).columns - 1))
            recap = f"{'The story begins' if field['chapter'] == 1 else 'The story so far'}: {field['recap']}"
            say(textwrap.fill(recap, width, break_long_words=False, break_on_hyphens=False))
    driver.begin(session, resumed=False)
    for line in (said, first):
        if line:
            say(_fitted(line))
    return _drive(session, driver)


def _fitted(text: str) -> str:
    """A line of prose for the terminal, wrapped at word boundaries to its width (never
    inside a word, an option or a path); as it is when the output is not a terminal."""
    if not sys.stdout.isatty():
        return text
    import shutil
    import textwrap

    width = max(40, shutil.get_terminal_size((80, 24)).columns - 1)
    return textwrap.fill(text, width, break_long_words=False, break_on_hyphens=False)


DEAL_CHOICES = ("any", "winnable", "easy", "hard")
DEAL_SECONDS = "STORYTELLER_DEAL_SECONDS"  # how long --deal looks (default: deals.SECONDS); for tests, slow machines


def load_deal(deal: str | None, seed: str | None, daily: bool, physical: bool, variants: Sequence[str]) -> str:
    """``--deal`` and ``--daily``, checked against each other and the options they exclude:
    the kind of deal wanted ("any" is today's default)."""
    want = "any" if deal is None else deal.strip().lower()
    if want not in DEAL_CHOICES:
        raise UserError(f"--deal takes one of: {', '.join(DEAL_CHOICES)} (not '{clean(deal or '')}')", EXIT_USAGE)
    if daily and deal is not None:
        raise UserError("--daily plays the day's deal: give either --daily or --deal, not both", EXIT_USAGE)
    if seed is not None and want != "any":
        raise UserError("--deal chooses the seed: give either --deal or --seed, not both", EXIT_USAGE)
    if seed is not None and daily:
        raise UserError("--daily plays the day's seed: give either --daily or --seed, not both", EXIT_USAGE)
    if physical and want != "any":
        raise UserError(f"--deal {want} cannot choose a real deck, which is never known before it is played: "
                        "leave out --physical or --deal", EXIT_USAGE)
    if physical and daily:
        raise UserError("--daily deals the day's cards from its seed: leave out --physical or --daily", EXIT_USAGE)
    if daily and variants:
        raise UserError("the day's deal is played by the standard rules, the same for everyone: leave out --variant",
                        EXIT_USAGE)
    return want


def deal_seconds() -> float:
    """How long ``--deal`` looks for a deal: ``STORYTELLER_DEAL_SECONDS`` or the default."""
    from storyteller.study import deals

    text = os.environ.get(DEAL_SECONDS, "").strip()
    if not text:
        return deals.SECONDS
    try:
        seconds = float(text)
    except ValueError:
        seconds = -1.0
    if not 0 <= seconds <= 600:
        raise UserError(f"{DEAL_SECONDS} takes a number of seconds from 0 to 600, not '{clean(text)}'", EXIT_USAGE)
    return seconds


def choose_deal(game: Game, variants: dict[str, str], want: str, daily: bool, auto: str | None,
                answers: Path | None, plain: bool | None) -> tuple[str | None, dict[str, Any] | None, str]:
    """The seed of a ``--deal`` or ``--daily`` game, its header's ``deal`` and the line that
    says what is known of it before the first move. When no deal is proved in time, a player
    at a terminal chooses: a fresh deal not proved, another look, or stop ((None, None, ""));
    without a terminal, one line gives the commands for either."""
    from storyteller.core import daily as days
    from storyteller.study import deals

    if not registry.get(game.name).has_solver and not daily:
        raise UserError(f"{game.title} has no solver, so no deal of it can be proved winnable: play it without --deal",
                        EXIT_USAGE)
    if daily:
        try:
            day = days.today()
        except ValueError as e:
            raise UserError(str(e), EXIT_USAGE) from None
        found, field = deals.daily(game, day)
        which = f"The day's deal of {game.title} for {day.isoformat()} (UTC), the same for everyone"
        if found.winnable:
            return found.seed, field, f"{which}: it can be won; the solver found a winning game of {found.moves} moves."
        return found.seed, field, (f"{which}: the solver could not prove it winnable (none of the day's "
                                   f"{days.CANDIDATES} seeds within {deals.DAILY_NODES:,} positions).")
    seconds = deal_seconds()
    search = deals.find(game, variants, want, seconds)
    while search.found is None:
        fresh = load_seed(None)
        looked = (f"No {want} deal of {game.title} was proved within {seconds:g} s "
                  f"({plural(search.tried, 'deal')} looked at)")
        if auto or answers or not (sys.stdin.isatty() and sys.stdout.isatty()):
            specs = game.variant_specs(variants)
            unproved = command_line("play", game.name, "--seed", fresh, *(w for v in specs for w in ("--variant", v)))
            again = command_line("play", game.name, "--deal", want, *(w for v in specs for w in ("--variant", v)))
            raise UserError(f"{looked}: play a fresh deal, not proved winnable: {unproved}; or look again: {again}")
        from storyteller.ui.terminal import Terminal

        term = Terminal(plain=config.get("plain", flag=plain))
        say(f"{looked}.")
        picked = term.select("What now?", [(f"Play a fresh deal, not proved winnable (seed {fresh})", "fresh"),
                                           (f"Look again ({seconds:g} s more)", "again"),
                                           ("Stop", "stop")])
        if picked == "fresh":
            return fresh, None, ""
        if picked != "again":
            say(f"No game was started. A fresh deal: {command_line('play', game.name)}")
            return None, None, ""
        search = deals.find(game, variants, want, seconds)
    found = search.found
    line = f"This deal can be won: before you began, the solver found a winning game of {found.moves} moves"
    if want == "easy":
        line += f", and the built-in {deals.PLAYER} player wins it too"
    elif want == "hard":
        line += f", and the built-in {deals.PLAYER} player loses it"
    return found.seed, {"chosen": want, "winnable": True}, line + "."


def first_game(game: Game, variants: Mapping[str, str]) -> str | None:
    """The line for a person's first game of ``game`` (no saved game of it in the sessions
    folder), where its rules have a gentler variant not already chosen: which, and how to
    ask for it. None otherwise."""
    if not game.gentler:
        return None
    name, _, value = game.gentler.partition("=")
    if variants.get(name) == (value or "on"):
        return None
    try:
        if any(store.sessions_dir().glob(f"*-{game.name}-*.jsonl")):
            return None
    except OSError:
        return None
    variant = game.variant(name)
    why = next((part.split(":", 1)[1].strip() for part in variant.help.split(";")
                if part.strip().startswith(f"{value}:")), "")
    said = f" ({why})" if why else ""
    return f"Your first game of {game.title}? For a gentler one, add --variant {game.gentler}{said}."


def branch(old_path: Path | None, step: int | None, log: Path | None = None, auto: str | None = None,
           answers: Path | None = None, plain: bool | None = None, questions: str | None = None) -> int:
    """``play --from LOG --step N``: a new game whose header and first N events are the old
    log's, played on from there. The old log is only read."""
    from storyteller.log.events import Correction, End, Undo
    from storyteller.log.replay import walk
    from storyteller.play.session import Session

    if old_path is None or step is None:
        raise UserError("a branch needs both: --from LOG --step N (the step to play on from)", EXIT_USAGE)
    try:
        old = store.open_log(old_path)
    except TruncatedLog as e:
        old = e.intact
    last = len(old.events)
    if step < 1 or step > last:
        raise UserError(f"{clean(str(old_path))} has steps 1 to {last}: --step {step} is not one of them", EXIT_USAGE)
    kept = old.events[:step]
    end = next((e.n for e in kept if isinstance(e, End)), None)
    if end is not None:
        where = "the end of the game" if end == step else f"after the end of the game (step {end})"
        raise UserError(f"step {step} is {where}: branch from a step before it (--step {end - 1})", EXIT_USAGE)
    undone = {e.of: e.n for e in old.events[step:] if isinstance(e, Undo)}
    taken = next((n for n, by in sorted(undone.items()) if n <= step), None)
    if taken is not None:
        raise UserError(f"step {taken} was taken back at step {undone[taken]}: a branch cannot keep a move the game "
                        f"took back; choose a step before {taken} or after {undone[taken]}", EXIT_USAGE)
    fixed = {e.of: e.n for e in old.events[step:] if isinstance(e, Correction)}
    wrong = next((n for n in sorted(fixed) if n <= step), None)
    if wrong is not None:
        raise UserError(f"the card or dice of step {wrong} were entered wrong and corrected at step {fixed[wrong]}: "
                        f"branch from step {fixed[wrong]} or later, or before {wrong}", EXIT_USAGE)
    try:
        walk(old.prefix(step))  # the first N events must replay as they are
    except LogError as e:
        raise UserError(f"{clean(str(old_path))}: its first {step} steps do not replay: {e}") from None
    game = load_game(old.game)
    driver = make_driver(game, old.seed, auto, answers, plain, old.header.source, questions)
    path = log if log is not None else store.new_log_path(game.name, old.seed)
    header = old.header.replace(version=__version__, started=now(),
                                 mode=f"auto {auto}" if auto else "answers" if answers else "player",
                                 from_log=Path(old_path).name, from_step=step)
    writer = LogWriter.create(path, header)
    try:
        for event in kept:  # copied as they were, their times too
            writer.append(event)
    except BaseException:
        writer.close()
        raise
    say(f"A new game from step {step} of {clean(Path(old_path).name)} (that log is left as it was).")
    session = Session.of(writer, driver)
    driver.begin(session, resumed=True)
    return _drive(session, driver)


def _drive(session, driver) -> int:
    from storyteller.ui.drivers import AnswersExhausted, IllegalAnswer
    from storyteller.play.session import SaveAndQuit

    try:
        outcome = session.run(driver)
    except (KeyboardInterrupt, EOFError):
        driver.interrupted(session)
        if session.over:
            say(f"\nSaved. The game is over; read it: {command_line('export', session.path, '--story')}")
        else:
            say(f"\nSaved. Nothing is lost. To go on: {command_line('resume', session.path)}")
        return EXIT_INTERRUPTED
    except SaveAndQuit:
        say(f"Saved. To go on: {command_line('resume', session.path)}")
        return 0
    except AnswersExhausted as e:
        err(f"{e}; the game is saved: {command_line('resume', session.path)}")
        return EXIT_INTERRUPTED
    except IllegalAnswer as e:
        err(f"{e}. Nothing illegal was written; the game is saved: {command_line('resume', session.path)}")
        return EXIT_USAGE
    finally:
        session.close()
    say(f"Log: {session.path}")
    say(f"Read it as a story: {command_line('export', session.path, '--story', '-o', 'story.md')}")
    return 0 if outcome is not None else EXIT_ERROR


def resume(
    path: Path | None = None,
    auto: str | None = None,
    answers: Path | None = None,
    yes: bool = False,
    plain: bool | None = None,
    questions: str | None = None,
) -> int:
    from storyteller.play.session import Session

    if path is None:
        path = store.latest_unfinished()
        if path is None:
            raise UserError(f"no unfinished session in {store.sessions_dir()}; "
                            f"start one with: {command_line('play', 'carddom')}")
    repair = False
    try:
        log = store.open_log(path)
    except TruncatedLog as e:
        log = e.intact
        if not yes and not _confirm_repair(str(e), config.get("plain", flag=plain)):
            again = command_line("resume", path, "--yes")
            raise UserError(f"{e}; to continue from the intact part: {again}") from None
        repair = True
    end = log.end
    if end is not None:
        kept = ""
        if repair:  # a torn line after the end (a last word cut short): set it aside all the same
            LogWriter.reopen(log, repair=True).close()
            kept = f"; its torn last line is kept in {path}.cut-off"
        raise UserError(
            f"{path}: this game is already over ({end.result}){kept}; "
            f"export it with: {command_line('export', path, '--story')}"
        )
    game = load_game(log.game)
    driver = make_driver(game, log.seed, auto, answers, plain, log.header.source, questions)
    session = Session.resume(log, repair=repair, driver=driver)
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


STATUSES = {"in-progress": ("in progress", "cut off"), "won": ("won",), "lost": ("lost", "utter loss"),
            "abandoned": ("abandoned",)}


def sessions(every: bool = False, number: int = 20, game: str | None = None, status: str | None = None,
             campaign: str | None = None) -> int:
    """``storyteller sessions``: the most recent saved games, newest first (``every``: all
    of them), of one ``game``, one ``status`` or the chapters of one ``campaign`` if asked;
    then how many more there are."""
    from storyteller.ui import reports

    if number < 1:
        raise UserError("-n takes a number of games, 1 or more", EXIT_USAGE)
    if status is not None and status not in STATUSES:
        raise UserError(f"--status takes one of: {', '.join(STATUSES)} (not '{status}')", EXIT_USAGE)
    if game is not None:
        game = load_game(game).name
    folder = store.sessions_dir()
    found = store.summaries(folder)
    if campaign is not None:
        campaigns = sorted({s.campaign for s in found if s.campaign})
        if campaign not in campaigns and not _campaign_exists(campaign):
            known = (f"campaigns with chapters: {', '.join(campaigns)}" if campaigns
                     else "no saved game is a campaign's chapter yet")
            raise UserError(f"no campaign named '{campaign}' has a chapter in {folder} ({known})", EXIT_USAGE)
    if not found:
        say(f"No saved sessions yet in {folder}. Start one with: {command_line('play', 'carddom')}")
        return 0
    chosen = [s for s in reversed(found) if (game is None or s.game == game)
              and (status is None or s.status in STATUSES[status]) and (campaign is None or s.campaign == campaign)]
    chapters = f" of the campaign {campaign}" if campaign else ""
    if not chosen:
        which = " ".join(w for w in (status, game) if w)
        say(f"No {which + ' ' if which else ''}sessions{chapters} in {folder} ({plural(len(found), 'saved game')} "
            "in all).")
        return 0
    shown = chosen if every else chosen[:number]
    rows = []
    for s in shown:
        words = {"cut off": "cut off (resume to repair)", "unreadable": f"unreadable: {s.problem}"}
        state = words.get(s.status, s.status)
        rows.append((s.game, s.seed, s.started[:16].replace("T", " "), state, s.name))
    which = " ".join(w for w in (status, game) if w)
    reports.sessions(f"{'Sessions' if not which else which.capitalize() + ' sessions'}{chapters} in {folder}, "
                     "newest first", rows)
    more = len(chosen) - len(shown)
    if more:
        flags = [w for f, v in (("--game", game), ("--status", status), ("--campaign", campaign)) if v
                 for w in (f, v)]
        say(f"{plural(more, 'older session')} not shown: {command_line('sessions', '--all', *flags)} "
            f"(or -n N for the N most recent)")
    return 0


def journal(words: Sequence[str] = (), number: int = 20, every: bool = False, game: str | None = None,
            campaign: str | None = None, start: str | None = None, end: str | None = None,
            tag: Sequence[str] = (), as_json: bool = False) -> int:
    """``storyteller journal [search WORDS...]``: the player's journal entries across every
    saved game, newest first (the latest ``number``, or ``every`` one), of one ``game`` or
    ``campaign``, written from day ``start`` to day ``end``, naming each ``tag``, holding
    every one of the ``words`` searched for; ``as_json``: the data (docs/journal.md)."""
    import json

    from storyteller.study import journal as library
    from storyteller.ui import reports

    if words and words[0] != "search":
        raise UserError(f"'{words[0]}' is not something journal does; to look for words: "
                        f"{command_line('journal', 'search', *words)}", EXIT_USAGE)
    searched = list(words[1:])
    if words and not any(w.strip() for w in searched):
        raise UserError(f"journal search takes the words to look for: {command_line('journal', 'search')} WORDS...",
                        EXIT_USAGE)
    if number < 1:
        raise UserError("-n takes a number of entries, 1 or more", EXIT_USAGE)
    days = {}
    for flag, text in (("--from", start), ("--to", end)):
        if text is not None:
            try:
                days[flag] = library.parse_date(text)
            except ValueError as e:
                raise UserError(f"bad {flag} date: {e}", EXIT_USAGE) from None
    first, last = days.get("--from"), days.get("--to")
    if first and last and first > last:
        raise UserError(f"--from {first} is after --to {last}: no day is in between", EXIT_USAGE)
    if game is not None:
        game = load_game(game).name
    names = [library.tag_name(t) for t in tag]
    if any(not name for name in names):
        raise UserError("--tag takes a name that was tagged, such as --tag 'Old Nim'", EXIT_USAGE)

    folder = store.sessions_dir()
    found = library.journal(folder)
    if campaign is not None and campaign not in found.campaigns and not _campaign_exists(campaign):
        there = (f"campaigns with chapters: {', '.join(found.campaigns)}" if found.campaigns
                 else "no saved game is a campaign's chapter yet")
        raise UserError(f"no campaign named '{campaign}' has a chapter in {folder} ({there})", EXIT_USAGE)
    if found.bad:
        first_bad = found.bad[0][0]
        also = f" and {plural(len(found.bad) - 1, 'other')}" if len(found.bad) > 1 else ""
        err(f"left out {plural(len(found.bad), 'log')} that could not be read ({first_bad}{also}): "
            f"see {command_line('sessions')}")
    chosen = found.entries
    for name in names:  # a name tagged in any entry is recognised later in plain words, in any game
        named, known = library.naming(found.entries, name)
        if not known and not as_json:
            say(f"No entry tags '{name}': a name is tagged in an entry as [N:{name}] (a person), "
                f"[L:{name}] (a place) or [Thread:{name}] (a thread).")
            return 0
        keys = {(e.file, e.n) for e in named}
        chosen = [e for e in chosen if (e.file, e.n) in keys]
    chosen = [e for e in chosen if (game is None or e.game == game) and (campaign is None or e.campaign == campaign)]
    chosen = library.between(chosen, first, last)
    if searched:
        chosen = library.search(chosen, searched)
    chosen.reverse()  # newest first
    shown = chosen if every else chosen[:number]
    if as_json:
        text = json.dumps([e.as_dict(folder) for e in shown], indent=2, ensure_ascii=False)
        sys.stdout.write(_no_controls(text) + "\n")
        return 0
    if not found.entries:
        if not found.logs and not found.bad:
            say(f"No journal entries yet: there are no saved games in {folder}. Start one with: "
                f"{command_line('play', 'carddom')}")
        else:
            say(f"No journal entries yet in your {plural(found.logs, 'saved game')} in {folder}: answer a question "
                "as you play, or choose 'write a journal entry' at any move.")
        return 0
    if not chosen:
        said = [f"of {registry.rules(game).title}" if game else "", f"in the campaign {campaign}" if campaign else "",
                f"from {first}" if first else "", f"to {last}" if last else "",
                f"naming {' and '.join(repr(n) for n in names)}" if names else "",
                f"holding every word of: {' '.join(searched)}" if searched else ""]
        say(f"No entries {' '.join(w for w in said if w)} (of {plural(len(found.entries), 'entry', 'entries')} in "
            f"all).")
        return 0
    reports.journal(shown)
    more = len(chosen) - len(shown)
    if more:
        say(f"\n{plural(more, 'older entry', 'older entries')} not shown: add --all (or -n N for the N most recent).")
    return 0


def _no_controls(text: str) -> str:
    """JSON text with the C1 control characters it may hold raw (json escapes C0 ones) escaped
    as well, so that none reaches a terminal."""
    import re

    return re.sub(r"[\x7f-\x9f]", lambda m: f"\\u{ord(m.group()):04x}", text)


def replay(path: Path, show: bool = False, plain: bool | None = None) -> int:
    from storyteller.log.events import CardDrawn, DiceRolled, OracleQuestion, Undo
    from storyteller.log.replay import walk
    from storyteller.play.questions import QuestionLog
    from storyteller.telling.stories import PromptNotes

    log = store.open_log(path)
    reg = registry.get(log.game)
    prompts = PromptNotes(reg.teller, log.seed)
    questions = QuestionLog.of(reg, log.seed, campaign=log.header.campaign is not None)
    listeners: list[Any] = [prompts, questions]
    if show:
        from storyteller.ui.replay import ReplayView

        listeners.insert(0, ReplayView(log, plain=config.get("plain", flag=plain)))
    w = walk(log, listeners=listeners)  # one walk: the view, the notes and the questions hear each step
    undos = sum(1 for e in log.events if isinstance(e, Undo))
    draws = sum(1 for e in log.events if isinstance(e, (CardDrawn, DiceRolled)))
    if w.outcome is None:
        status = "unfinished, every event so far matches"
    else:
        score = f", score {w.outcome.score}" if w.outcome.score is not None else ""
        status = f"{w.outcome.result}{score}: every draw and the outcome match"
    source = log.header.source
    origin = f"seed {log.seed}" if source == "seeded" else TABLE_WORDS[source]
    say(
        f"OK {path}: {w.game.title}, {origin}, {plural(len(log.events), 'event')} "
        f"({plural(draws, 'draw')}, {plural(w.decisions, 'decision')}, {undos} undone) - {status}"
    )
    if source != "seeded":
        say(f"  {TABLE_WORDS[source].capitalize()}: checked against the rules, not against a shuffle.")
    if log.header.branch:
        say(f"  A branch of {clean(str(log.header.from_log))}: its first {log.header.from_step} steps are that game's.")
    notes = w.notes + prompts.notes + questions.notes
    oracles = sum(1 for e in log.events if isinstance(e, OracleQuestion))
    if oracles:
        say(f"  {plural(oracles, 'question')} to the oracle, each answer checked against the seed and the odds.")
    for note in notes[:5]:
        say(f"  note: {note}")
    if notes:
        more = f" ({len(notes) - 5} more)" if len(notes) > 5 else ""
        say(f"  The log's words were edited or written by another version{more}: exports use the rules' words.")
    return 0


def _writable(path: Path, force: bool) -> None:
    """Refuse, before any work, an output that is not a regular file, or one that exists
    without ``--force`` (see ``exporter.check_output``)."""
    from storyteller.telling import export as exporter

    try:
        exporter.check_output(path, force)
    except exporter.OutputProblem as e:
        raise UserError(str(e)) from None


def _browser(fmt: Any, html_command: Callable[[str], str]) -> Any:
    """The browser a printed format (PDF) prints with (None for any other format); without
    one, the line that says how to export the page instead (``html_command(page_format)``)."""
    if not fmt.printed:
        return None
    from storyteller.core.formats import FORMATS
    from storyteller.telling import pdf

    browser = pdf.find_browser()
    if browser is None:
        page = next(f.name for f in FORMATS.values() if f.page and not f.printed)
        raise UserError(pdf.no_browser(html_command(page)))
    return browser


def export(
    path: Path | None,
    story: bool = False,
    playthrough: bool = False,
    output: Path | None = None,
    template: Path | None = None,
    force: bool = False,
    format: str | None = None,
    paper: str | None = None,
    pictures: bool = False,
    analysis: bool = False,
    campaign: str | None = None,
) -> int:
    from storyteller import config
    from storyteller.core.formats import FORMATS, named
    from storyteller.telling import export as exporter

    if campaign is not None:
        if path is not None:
            raise UserError("give a log, or --campaign NAME for a campaign's book, not both", EXIT_USAGE)
        if playthrough or template is not None or analysis:
            which = "--playthrough" if playthrough else "--template" if template is not None else "--analysis"
            raise UserError(f"a campaign's book is its chapters' stories: leave out {which} (export a chapter's log "
                            "for that)", EXIT_USAGE)
        return export_book(campaign, output=output, force=force, format=format, paper=paper, pictures=pictures)
    if path is None:
        raise UserError("give the log to export, --campaign NAME for a campaign's book, or --all DIR for every "
                        "saved game", EXIT_USAGE)
    flag = None if format is None else format.strip().lower()
    if flag is not None and flag not in FORMATS:
        raise UserError(f"unknown format '{format}' (formats: {', '.join(FORMATS)})", EXIT_USAGE)
    name = config.get("export.format", flag=flag)  # the flag, else the settings, else markdown
    fmt = FORMATS.get(name)
    if fmt is None:
        raise UserError(f"unknown format '{name}' (formats: {', '.join(FORMATS)})", EXIT_USAGE)
    if paper is not None and not fmt.page:
        pages = named(*(f.name for f in FORMATS.values() if f.page))
        raise UserError(f"--paper is the printed page of an {pages} export, not of {name}: leave it out", EXIT_USAGE)
    paper = config.get("export.paper", flag=None if paper is None else paper.strip().lower())
    if pictures and fmt.pictures != "beside":
        notes = named(*(f.name for f in FORMATS.values() if f.pictures == "beside"))
        already = f"the {name} page has its pictures already" if fmt.pictures == "inline" else \
            f"a {name} export has no pictures"
        raise UserError(f"--pictures writes pictures beside a {notes} note ({already}): leave it out", EXIT_USAGE)
    if story and playthrough:
        raise UserError("choose one: --story or --playthrough", EXIT_USAGE)
    asked = "story" if story else "playthrough" if playthrough else None
    if asked is not None and asked not in fmt.kinds:
        only = " and ".join(f"the {k}" for k in fmt.kinds)
        raise UserError(f"the {name} format has no {asked}, only {only}: leave out --{asked}", EXIT_USAGE)
    if asked is None and len(fmt.kinds) > 1 and template is None:
        raise UserError("choose one: --story or --playthrough", EXIT_USAGE)
    kind = asked or fmt.kinds[0]
    if analysis and template is None:
        if not fmt.analysis:
            raise UserError(f"--analysis is not shown in {fmt.title}: choose another format", EXIT_USAGE)
        if kind == "story":
            shown = named(*(f.name for f in FORMATS.values() if f.analysis))
            raise UserError(f"--analysis goes into the playthrough ({shown}): add --playthrough", EXIT_USAGE)
    if output is not None and str(output) == "-":  # as for most tools: standard output
        output = None
    if output is None and pictures:
        raise UserError(f"--pictures writes the pictures beside the note: give the note's file, as in -o {kind}"
                        f"{fmt.suffix}", EXIT_USAGE)
    if output is None and fmt.binary and sys.stdout.isatty():
        raise UserError(f"{fmt.title} is not for the terminal: give a file to write it to, as in -o {kind}{fmt.suffix}",
                        EXIT_USAGE)
    browser = _browser(fmt, lambda page: command_line("export", path, f"--{kind}", "--format", page,
                                                      "-o", f"{kind}.html"))
    if output is not None:  # before any work: only a regular file, and an existing one only with --force
        _writable(output, force)
    log = store.open_log(path)
    found = _analysis_of(log) if analysis else None
    files: dict[str, str] = {}
    try:
        if browser is not None:
            from storyteller.telling.pdf import PdfProblem

            try:
                text: str | bytes = exporter.render_pdf(log, browser, kind, template, paper, found, name)
            except PdfProblem as e:
                raise UserError(f"cannot print the PDF: {e}") from None
        elif pictures:
            assert output is not None
            text, files = exporter.render_with_pictures(log, output.stem, kind, template, name, found)
        else:
            text = exporter.render(log, kind, template, name, paper, found)  # cleaned of control characters
    except exporter.TemplateProblem as e:
        raise UserError(str(e)) from None
    if output is None:
        if isinstance(text, bytes):
            sys.stdout.buffer.write(text)
            sys.stdout.buffer.flush()
        else:
            sys.stdout.write(text)
            sys.stdout.flush()
        return 0
    beside = [output.parent / f for f in files]
    for picture in beside:  # all refused before one is written
        _writable(picture, force)
    try:
        for picture in beside:  # the pictures first: the note never links to a missing file
            exporter.write_atomic(picture, files[picture.name])
        exporter.write_atomic(output, text)
    except exporter.OutputProblem as e:
        raise UserError(str(e)) from None
    except OSError as e:
        raise UserError(f"{clean(str(output))}: cannot write here ({e.strerror})") from None
    said = f" and {plural(len(files), 'picture')} beside it" if files else ""
    say(f"Wrote {clean(str(output))}{said}")
    return 0


def export_book(name: str, output: Path | None = None, force: bool = False, format: str | None = None,
                paper: str | None = None, pictures: bool = False) -> int:
    """``export --campaign NAME``: the campaign as a book (see ``storyteller.telling.book``):
    one text, page or PDF, its data as JSON, or in Obsidian a note for the book with notes
    for its chapters and cast in a folder beside it."""
    from storyteller import config
    from storyteller.core.formats import FORMATS, named
    from storyteller.play import campaign as campaigns
    from storyteller.telling import export as exporter
    from storyteller.telling.book import Book

    campaigns.check_name(name)
    flag = None if format is None else format.strip().lower()
    if flag is not None and flag not in FORMATS:
        raise UserError(f"unknown format '{format}' (formats: {', '.join(FORMATS)})", EXIT_USAGE)
    fmt_name = config.get("export.format", flag=flag)
    fmt = FORMATS.get(fmt_name)
    if fmt is None:
        raise UserError(f"unknown format '{fmt_name}' (formats: {', '.join(FORMATS)})", EXIT_USAGE)
    if paper is not None and not fmt.page:
        pages = named(*(f.name for f in FORMATS.values() if f.page))
        raise UserError(f"--paper is the printed page of an {pages} export, not of {fmt_name}: leave it out",
                        EXIT_USAGE)
    paper = config.get("export.paper", flag=None if paper is None else paper.strip().lower())
    if pictures and fmt.pictures != "beside":
        notes = named(*(f.name for f in FORMATS.values() if f.pictures == "beside"))
        already = f"the {fmt_name} page has its pictures already" if fmt.pictures == "inline" else \
            f"a {fmt_name} export has no pictures"
        raise UserError(f"--pictures writes pictures beside a {notes} book ({already}): leave it out", EXIT_USAGE)
    if output is not None and str(output) == "-":
        output = None
    if output is None and (pictures or fmt.wikilinks):
        what = "the book's note, with a folder of notes beside it" if fmt.wikilinks else "the book"
        raise UserError(f"{'--pictures writes pictures beside' if pictures else 'an ' + fmt.title + ' book is notes'}"
                        f": give the file of {what}, as in -o {name}{fmt.suffix}", EXIT_USAGE)
    if output is None and fmt.binary and sys.stdout.isatty():
        raise UserError(f"{fmt.title} is not for the terminal: give a file to write it to, as in -o {name}{fmt.suffix}",
                        EXIT_USAGE)
    browser = _browser(fmt, lambda page: command_line("export", "--campaign", name, "--format", page,
                                                      "-o", f"{name}.html"))
    if output is not None:
        _writable(output, force)
    book = Book.read(name)
    files: dict[str, str] = {}  # beside the output: pictures, and in Obsidian the chapters' and cast's notes
    try:
        if fmt.data:
            text: str | bytes = exporter.to_json(book.data())
        elif fmt.page:
            text = book.page(fmt_name, paper)
            if browser is not None:
                from storyteller.telling.pdf import PdfProblem, print_pdf

                try:
                    text = print_pdf(text, browser)
                except PdfProblem as e:
                    raise UserError(f"cannot print the PDF: {e}") from None
        elif fmt.wikilinks:
            assert output is not None
            files = book.notes(fmt_name, output.stem, pictures=pictures)
            text = files.pop(output.stem + fmt.suffix)
        else:
            text, files = book.text(fmt_name, paper, output.stem if pictures and output is not None else None)
    except exporter.TemplateProblem as e:
        raise UserError(str(e)) from None
    for line in [p.line for p in book.parts if p.line]:
        err(f"campaign {name}: {line}")
    if output is None:
        if isinstance(text, bytes):
            sys.stdout.buffer.write(text)
            sys.stdout.buffer.flush()
        else:
            sys.stdout.write(text)
            sys.stdout.flush()
        return 0
    beside = [output.parent / f for f in files]
    for other in beside:  # all refused before one is written
        if other.parent.exists() and not other.parent.is_dir():
            raise UserError(f"{clean(str(other.parent))}: is not a folder; the book's notes go there")
        _writable(other, force)
    try:
        for other in beside:  # before the book: it never links to a missing file
            other.parent.mkdir(parents=True, exist_ok=True)
            exporter.write_atomic(other, files[str(other.relative_to(output.parent))])
        exporter.write_atomic(output, text)
    except exporter.OutputProblem as e:
        raise UserError(str(e)) from None
    except OSError as e:
        raise UserError(f"{clean(str(output))}: cannot write here ({e.strerror})") from None
    drawn = sum(1 for f in files if f.endswith(".svg"))
    noted = len(files) - drawn
    said = [f"{plural(noted, 'note')}" if noted else "", f"{plural(drawn, 'picture')}" if drawn else ""]
    beside_words = f" and {' and '.join(x for x in said if x)} beside it" if files else ""
    say(f"Wrote {clean(str(output))}{beside_words}")
    return 0


def _analysis_of(log: Any) -> dict[str, Any]:
    """The analysis for ``export --analysis``, at the default settings, with a progress bar;
    Ctrl-C stops the export (nothing is written)."""
    from storyteller.study import analysis
    from storyteller.study import simulation
    from storyteller.ui import reports

    with reports.Work(enabled=sys.stderr.isatty()) as bar:
        try:
            found = analysis.analyse(log, jobs=simulation.default_jobs(), progress=bar.update)
        except analysis.AnalysisError as e:
            raise UserError(str(e), EXIT_USAGE) from None
    if not found.complete:
        raise KeyboardInterrupt
    return found.as_dict()


def export_all(
    folder: Path, log: Path | None = None, format: str | None = None, playthroughs: bool = False,
    force: bool = False, others: bool = False, pictures: bool = False,
) -> int:
    """``export --all DIR``: every saved game as a note in DIR, and an index note (with
    ``pictures``, each note's pictures of the table beside it)."""
    from storyteller import config
    from storyteller.core.formats import FORMATS, named
    from storyteller.telling import vault

    if log is not None or others:
        raise UserError("--all writes every saved game: give no log, --story, --playthrough, -o, --template, --paper "
                        "or --campaign with it", EXIT_USAGE)
    flag = None if format is None else format.strip().lower()
    name = config.get("export.format", flag=flag)
    if name not in FORMATS or not FORMATS[name].notes:
        notes = named(*(f.name for f in FORMATS.values() if f.notes))
        raise UserError(f"--all writes notes in {notes}, not {name}", EXIT_USAGE)
    if folder.exists() and not folder.is_dir():
        raise UserError(f"{clean(str(folder))}: is not a folder")
    try:
        report = vault.export_all(store.sessions_dir(), folder, name, playthroughs=playthroughs, force=force,
                                  pictures=pictures)
    except OSError as e:
        raise UserError(f"{clean(str(folder))}: cannot write the notes here ({e.strerror or e})") from None
    counts = [(report.written, "new"), (report.updated, "updated"), (report.unchanged, "unchanged")]
    drawn = f"; {plural(report.pictures, 'picture')} written" if report.pictures else ""
    say(f"{clean(str(folder))}: " + ", ".join(f"{len(items)} {what}" for items, what in counts)
        + f" (notes, with the index){drawn}")
    for name_ in report.kept:
        say(f"  kept your edits: {name_} (storyteller's version is not written; --force writes over it)")
    if report.unreadable:
        say(f"  {len(report.unreadable)} log(s) could not be read: see {command_line('sessions')}")
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
        reg = registry.get(name)
        players = "|".join(["random", *reg.policies])
        hint = f" ({reg.hint_player} gives the Hint)" if reg.hint_player else ""
        solver = f"; {command_line('solve')} tells whether a deal can be won" if reg.has_solver else ""
        say(f"{'':<10}   --auto {players}: the built-in players{hint}{solver}")
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


# -- settings -------------------------------------------------------------------------


def config_path() -> int:
    say(str(config.path()))
    return 0


def config_show() -> int:
    for line in config.show_lines():
        say(line)
    return 0


def config_get(key: str) -> int:
    if key.startswith(config.VARIANTS) and key[len(config.VARIANTS):] not in registry.names():
        raise UserError(f"unknown key '{key}': no game named '{key[len(config.VARIANTS):]}' is installed", EXIT_USAGE)
    say(config.shown(config.get(key)))
    return 0


def config_set(key: str, values: Sequence[str]) -> int:
    value, where = config.set_value(key, list(values))
    say(f"Set {key} = {config.dumps_value(value)} in {where}")
    try:
        config.load(where)
    except config.ConfigError as e:  # another key was bad before: say so, the value is set
        err(f"the settings file still has a problem: {e.message}")
    return 0


def config_unset(key: str) -> int:
    where = config.path()
    if config.unset_value(key):
        say(f"Removed {key} from {where}: its default applies")
    else:
        say(f"{key} is not set in {where}")
    return 0


# -- many games: simulate and solve -----------------------------------------------------


def _workers(jobs: str) -> int:
    """``--jobs N|auto``: the processes to play on."""
    from storyteller.study import simulation

    if jobs == "auto":
        return simulation.default_jobs()
    if jobs.isdigit() and int(jobs) >= 1:
        return int(jobs)
    raise UserError(f"--jobs takes a number of processes or 'auto', not '{jobs}'", EXIT_USAGE)


def simulate(
    game: str,
    games: int | None = None,
    seeds: str | None = None,
    policy: str | None = None,
    variant_specs: Sequence[str] = (),
    jobs: str = "auto",
    as_json: bool = False,
    csv: Path | None = None,
    logs: Path | None = None,
    solve: bool = False,
    budget: str = "200000",
    plain: bool = False,
) -> int:
    """``storyteller simulate``: play many seeded games unattended and say how they went
    (the games are played by :func:`storyteller.study.simulation.simulate`)."""
    import json
    import tempfile
    from dataclasses import asdict

    from storyteller.study import simulation
    from storyteller.ui import reports

    rules = load_game(game)
    variants = load_variants(rules, list(variant_specs))
    try:
        chosen = simulation.parse_seeds(seeds, games)
        limits = simulation.parse_budget(budget) if solve else None
    except ValueError as e:
        raise UserError(str(e), EXIT_USAGE) from None
    workers = _workers(jobs)
    reg = registry.get(rules.name)
    if policy and policy != "random" and policy not in reg.policies:
        known = ", ".join(["random", *reg.policies])
        raise UserError(f"{rules.title} has no policy '{policy}' (its policies: {known})", EXIT_USAGE)
    if solve and not reg.has_solver:
        raise UserError(f"{rules.title} has no solver yet", EXIT_USAGE)
    if csv is not None and csv.exists() and not csv.is_file():
        raise UserError(f"{csv}: is not a file", EXIT_USAGE)
    if logs is not None:
        try:
            logs.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise UserError(f"{logs}: cannot write logs here ({e.strerror or e})") from None
    # Each game's line waits in a temporary file until the run is over (a million games
    # take disk, not memory), then goes into the CSV file or the JSON document.
    spools: list[Any] = []
    sinks: list[Callable[[Any], Any]] = []
    if csv is not None:
        # (closed in the finally below, with the other spools)
        rows = tempfile.TemporaryFile("w+", encoding="utf-8", newline="\n")  # noqa: SIM115
        rows.write("seed,result,score,cause" + (",solved" if solve else "") + "\n")
        sinks.append(lambda r: rows.write(",".join(
            [r.seed, r.result, "" if r.score is None else str(r.score), r.cause] + ([r.solved or ""] if solve else [])
        ) + "\n"))
        spools.append(rows)
    if as_json:
        lines = tempfile.TemporaryFile("w+", encoding="utf-8", newline="\n")  # noqa: SIM115
        sinks.append(lambda r: lines.write(json.dumps(asdict(r)) + "\n"))
        spools.append(lines)
    bar = reports.Progress(len(chosen), enabled=sys.stderr.isatty() and not as_json)
    sinks.append(bar.add)

    def heard(result: Any) -> None:
        for sink in sinks:
            sink(result)

    try:
        with bar:
            summary = simulation.simulate(rules.name, seeds=chosen, policy=policy, variants=variants, jobs=workers,
                                          logs=logs, solve=limits, on_result=heard)
        for spool in spools:
            spool.seek(0)
        if csv is not None:
            try:
                from storyteller.telling.export import write_atomic

                write_atomic(csv, rows)
            except OSError as e:
                raise UserError(f"{csv}: cannot write here ({e.strerror or e})") from None
        if as_json:
            head = json.dumps(summary.as_dict(), indent=2)[:-2]  # without its closing brace
            sys.stdout.write(head + ',\n  "results": [')
            for i, line in enumerate(lines):
                sys.stdout.write(("\n    " if i == 0 else ",\n    ") + line.rstrip("\n"))
            sys.stdout.write("\n  ]\n}\n")
        else:
            reports.simulation(summary, plain or bool(os.environ.get("NO_COLOR")))
    finally:
        for spool in spools:
            spool.close()
    if not summary.complete:
        err(f"interrupted: {summary.played} of {len(chosen)} games played; the figures above are for those")
        return EXIT_INTERRUPTED
    return 0


def analyse(path: Path, samples: int | None = None, budget: str = "200000", player: str | None = None,
            jobs: str = "auto", as_json: bool = False, plain: bool = False, solve: bool = True) -> int:
    """``storyteller analyse LOG``: where the game turned (see :mod:`storyteller.study.analysis`)."""
    import json

    from storyteller.study import analysis
    from storyteller.study import simulation
    from storyteller.ui import reports

    if samples is not None and samples < 1:
        raise UserError("--samples takes a number of sampled deals, 1 or more (the default is "
                        f"{analysis.DEFAULT_SAMPLES}, fewer for a long game)", EXIT_USAGE)
    try:
        limits = simulation.parse_budget(budget)
    except ValueError as e:
        raise UserError(str(e), EXIT_USAGE) from None
    workers = _workers(jobs)
    try:
        log = store.open_log(path)
    except TruncatedLog as e:
        log = e.intact  # a torn last line: the intact part is the game so far
    reg = registry.get(log.game)
    if player is not None and player not in reg.policies:
        known = ", ".join(reg.policies) or "none"
        raise UserError(f"{reg.rules.title} has no player '{player}' (its players: {known})", EXIT_USAGE)
    bar = reports.Work(enabled=sys.stderr.isatty() and not as_json)
    try:
        with bar:
            found = analysis.analyse(log, samples, limits, player, workers,
                                     progress=bar.update, solve=solve)
    except analysis.AnalysisError as e:
        raise UserError(str(e), EXIT_USAGE) from None
    if as_json:
        sys.stdout.write(json.dumps(found.as_dict(), indent=2, ensure_ascii=False) + "\n")
    else:
        reports.analysis(found, plain or bool(os.environ.get("NO_COLOR")), str(path))
    if not found.complete:
        err("interrupted: the analysis above covers the game up to where it stopped")
        return EXIT_INTERRUPTED
    return 0


def solve(target: str, seed: str | None = None, variant_specs: Sequence[str] = (), budget: str = "10s",
          log: Path | None = None) -> int:
    """``storyteller solve GAME --seed S`` or ``storyteller solve LOG``."""
    from storyteller.study import simulation
    from storyteller.ui import reports

    path = Path(target)
    if path.suffix == ".jsonl" or path.exists():
        if seed is not None or variant_specs:
            raise UserError("a log says its own seed and variants: give no --seed or --variant with it", EXIT_USAGE)
        game_log = store.open_log(path)
        if game_log.header.source != "seeded":
            raise UserError(f"{path}: its cards or dice came from a real table, so the whole deal is not known: "
                            "it cannot be solved")
        rules = load_game(game_log.game)
        variants = rules.validate_variants(game_log.variants)
        seed = game_log.seed
    else:
        rules = load_game(target)
        variants = load_variants(rules, list(variant_specs))
        if seed is None:
            raise UserError("which deal? give --seed S (or a log)", EXIT_USAGE)
        seed = load_seed(seed)
    if not registry.get(rules.name).has_solver:
        raise UserError(f"{rules.title} has no solver yet", EXIT_USAGE)
    try:
        limits = simulation.parse_budget(budget)
    except ValueError as e:
        raise UserError(str(e), EXIT_USAGE) from None
    if log is not None and log.exists():
        raise UserError(f"{log}: already exists; choose another --log path", EXIT_USAGE)
    limit = f"up to {limits.seconds:g} s" if limits.seconds else f"up to {limits.nodes:,} positions"
    verdict = reports.searching(lambda: simulation.solve_deal(rules, variants, seed, limits), limit)
    say(f"{rules.title}, seed {seed}, {rules.describe_variants(variants)}: {simulation.verdict_words(verdict)}.")
    if verdict.answer == "winnable" and log is not None:
        outcome = simulation.witness(rules, variants, seed, verdict.moves, log)
        if outcome is None or not outcome.won:
            raise UserError(f"the solver's winning line did not win when played ({log} keeps it): please report this")
        say(f"Wrote the winning game to {log}; check it with: {command_line('replay', log)}")
    return 0


def stats(game: str | None = None, variant_specs: list[str] | None = None, as_json: bool = False,
          plain: bool = False, everyone: bool = False, campaign: str | None = None, daily: bool = False) -> int:
    """``storyteller stats``: the statistics of the player's own saved games (of one game,
    of one set of its variants); ``--all`` counts the built-in players' games too;
    ``--campaign`` gives a campaign's chapters, wins and losses, and the cast met most often."""
    import json

    from storyteller.study import stats as library
    from storyteller.ui import reports

    if campaign is not None:
        if game or variant_specs or everyone:
            raise UserError("stats --campaign counts the campaign's own chapters: give no game, --variant or --all",
                            EXIT_USAGE)
        return campaign_stats(campaign, as_json)
    if daily:
        if variant_specs or everyone:
            raise UserError("stats --daily counts your own games of the day's deals, by the standard rules: give no "
                            "--variant or --all", EXIT_USAGE)
        return daily_stats(load_game(game).name if game else None, as_json)

    rules = load_game(game) if game else None
    if variant_specs and rules is None:
        raise UserError(f"--variant needs a game: {command_line('stats', 'GAME', '--variant')} ...", EXIT_USAGE)
    wanted = load_variants(rules, variant_specs or []) if rules and variant_specs else None
    folder = store.sessions_dir()
    figures, bad = library.collect(folder, rules.name if rules else None, wanted, everyone=everyone)
    if as_json:
        out = figures.as_dict()
        out["counted"] = "every game" if everyone else "your own games"
        out["unreadable"] = [p.name for p, _ in bad]
        sys.stdout.write(json.dumps(out, indent=2, ensure_ascii=False) + "\n")
        return 0
    if not figures.total.played and not figures.total.in_progress:
        what = f" of {rules.title}" if rules else ""
        others = "" if everyone else " (games of the built-in players are left out: --all counts them)"
        say(f"No games{what} of yours saved yet in {folder}{others}. "
            f"Start one with: {command_line('play', rules.name if rules else 'carddom')}")
        return 0
    title = "All saved games, the built-in players' included" if everyone else "Your games"
    reports.stats(figures, plain or bool(os.environ.get("NO_COLOR")), title=title)
    if not everyone:
        say("Your own games only (at the terminal or from an answers file); --all adds the built-in players' games.")
    if bad:
        say(f"{len(bad)} log{'s' if len(bad) != 1 else ''} could not be read and are not counted: "
            f"see {command_line('sessions')}")
    return 0


DAYS_SHOWN = 14  # the most recent days listed for each game


def daily_stats(game: str | None, as_json: bool = False) -> int:
    """``storyteller stats --daily``: each game's days (the day's deals the player played),
    won or lost, and the streak of days won in a row."""
    import json

    from storyteller.core import daily as days
    from storyteller.log.records import records
    from storyteller.study import stats as library

    try:
        today = days.today()
    except ValueError as e:
        raise UserError(str(e), EXIT_USAGE) from None
    folder = store.sessions_dir()
    found, bad = records(folder)
    summary = library.daily(found, today, game)
    if as_json:
        out = summary.as_dict()
        out["unreadable"] = [p.name for p, _ in bad]
        sys.stdout.write(json.dumps(out, indent=2, ensure_ascii=False) + "\n")
        return 0
    if not summary.games:
        what = f" of {registry.rules(game).title}" if game else ""
        say(f"No day's deal{what} played yet in {folder}. Play today's: "
            f"{command_line('play', game or 'carddom', '--daily')}")
        return 0
    say(f"Your days: the day's deals you played (play --daily); today is {today.isoformat()} (UTC)")
    for name, played in summary.games.items():
        title = registry.rules(name).title if name in registry.names() else name
        streak = summary.streak(name)
        say()
        say(f"{title}: {plural(len(played), 'day')}, {summary.won(name)} won; streak {plural(streak, 'day')} won in a "
            f"row (best {summary.best_streak(name)})")
        for d in played[-DAYS_SHOWN:]:
            result = d.result or "in progress"
            proved = "" if d.winnable else " (not proved winnable)"
            say(f"  {d.date}  {result:<11} seed {d.seed}{proved}")
        if len(played) > DAYS_SHOWN:
            say(f"  ({plural(len(played) - DAYS_SHOWN, 'earlier day')}: --json lists every one)")
    if not any(d.date == today.isoformat() for d in summary.games.get(game or "", [])) and game:
        say(f"\nToday's deal: {command_line('play', game, '--daily')}")
    if bad:
        say(f"{plural(len(bad), 'log')} could not be read and are not counted: see {command_line('sessions')}")
    return 0


# -- campaigns ------------------------------------------------------------------------


def _campaign_exists(name: str) -> bool:
    """A campaign of that name has a file (perhaps no chapter yet)."""
    from storyteller.play import campaign

    return campaign.CAMPAIGN_NAME.fullmatch(name) is not None and campaign.path_of(name).exists()


CAMPAIGN_ASKS = (("name", "Who is your protagonist? A name (Enter to skip):"),
                 ("line", "Who are they, in a line? (Enter to skip):"),
                 ("wants", "What do they want? Finish 'You want...', e.g. 'to find my brother' (Enter to skip):"),
                 ("title", "The campaign's title (Enter to skip):"))


def _campaign_answers(path: Path) -> dict[str, str]:
    """``key: value`` lines (name, line, wants, title) from an answers file; # starts a comment."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        raise UserError(f"{path}: cannot read the answers file ({e.strerror})", EXIT_USAGE) from None
    except UnicodeDecodeError:
        raise UserError(f"{path}: the answers file is not text", EXIT_USAGE) from None
    out: dict[str, str] = {}
    keys = {k for k, _ in CAMPAIGN_ASKS}
    for i, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        key, sep, value = line.partition(":")
        key = key.strip().lower()
        if not sep or key not in keys:
            raise UserError(f"{path}, line {i}: expected one of {', '.join(sorted(keys))} then ':' and your words "
                            f"(not {line[:40]!r})", EXIT_USAGE)
        out[key] = value.strip()
    return out


def campaign_new(name: str, answers: Path | None = None, plain: bool | None = None) -> int:
    """``storyteller campaign new NAME``: who the protagonist is, what they want, the title."""
    from storyteller.play import campaign

    campaign.check_name(name)
    if campaign.path_of(name).exists():
        raise UserError(f"there is already a campaign called {name!r}: {command_line('campaign', 'show', name)}")
    if answers is not None:
        said = _campaign_answers(answers)
    elif sys.stdin.isatty() and sys.stdout.isatty():
        from storyteller.ui.terminal import Terminal

        term = Terminal(plain=config.get("plain", flag=plain))
        said = {}
        for key, question in CAMPAIGN_ASKS:
            said[key] = term.text(question) or ""
    else:
        raise UserError("campaign new asks who your protagonist is; without a terminal use --answers FILE "
                        "(lines such as 'name: Wren')", EXIT_USAGE)
    who = campaign.Protagonist(said.get("name", ""), said.get("line", ""), said.get("wants", ""))
    c = campaign.create(name, said.get("title", ""), who)
    say(f"The campaign {c.heading!r} is ready ({campaign.path_of(name)}).")
    say(f"Play its first chapter, in any game: {command_line('play', 'hexaract', '--campaign', name)}")
    return 0


def campaign_list() -> int:
    """``storyteller campaign``: every campaign, with its chapters and where it stands."""
    from storyteller.play import campaign

    found = campaign.names()
    if not found:
        say(f"No campaigns yet in {campaign.folder()}. Start one with: {command_line('campaign', 'new', 'NAME')}")
        return 0
    rows = []
    for name in found:
        c = campaign.load(name)
        done = campaign.chapters(c)
        last = done[-1] if done else None
        title = registry.get(last.game).rules.title if last is not None and last.game in registry.names() else ""
        where = ("no chapter yet" if last is None
                 else f"chapter {last.number}: {title or last.game or '?'} ({_status_words(last)})")
        rows.append((name, c.title or "-", c.protagonist.name or "-", str(len(done)), where))
    from storyteller.ui import reports

    reports.table(f"Campaigns, in {campaign.folder()}", ("name", "title", "protagonist", "chapters", "now"), rows)
    return 0


def _status_words(chapter: Any) -> str:
    if chapter.missing:
        return "its log was moved or deleted"
    if chapter.status == "unreadable":
        return f"unreadable: {chapter.problem}"
    return chapter.status


def _campaign(name: str) -> tuple[Any, list[Any], Any]:
    from storyteller.play import campaign

    c = campaign.load(name)
    done = campaign.chapters(c)
    return c, done, campaign.remember(c, done)


def campaign_show(name: str) -> int:
    """``storyteller campaign show NAME``: its protagonist, chapters, cast, threads, and where it stands."""
    c, done, memory = _campaign(name)
    who = c.protagonist
    say(c.heading)
    say("=" * len(clean(c.heading)))
    if who.name or who.line:
        say(f"Protagonist: {', '.join(x for x in (who.name, who.line) if x)}")
    if who.wants:
        say(f"Wants: {who.wants}")
    say()
    say(f"Chapters ({len(done)}):")
    if not done:
        say(f"  none yet: {command_line('play', 'hexaract', '--campaign', name)}")
    for ch, told in zip(done, memory.told):
        title = told.title or ch.game or "?"
        say(f"  {ch.number}. {title}, seed {ch.seed or '?'}: {_status_words(ch)}  ({ch.log})")
    say()
    _stats_lines(done, memory)
    cast = _most_met(memory, 5)
    if cast:
        say("Met most often: " + "; ".join(f"{m.name} ({plural(_times(m), 'chapter')})" for m in cast))
    named = memory.named()
    if named:
        say("Your cast: " + ", ".join(m.name for m in named))
    threads = memory.open_threads()
    if threads:
        say("Open threads: " + "; ".join(t.name for t in threads))
    say(f"Everyone and every thread: {command_line('campaign', 'cast', name)}")
    unfinished = next((ch for ch in reversed(done) if ch.status in ("in progress", "cut off")), None)
    if unfinished is not None:
        say(f"Chapter {unfinished.number} is unfinished: {command_line('resume', unfinished.path)}")
    else:
        say(f"Next chapter: {command_line('play', 'GAME', '--campaign', name)}")
    return _campaign_problems(c, done)


def _campaign_problems(c: Any, done: list[Any]) -> int:
    lines = list(c.problems) + [f"chapter {ch.number}: its log {ch.log} was moved or deleted" for ch in done
                                if ch.missing]
    for line in lines:
        err(f"campaign {c.name}: {line}")
    return EXIT_ERROR if lines else 0


def _times(member: Any) -> int:
    return len({a.chapter for a in member.appearances} | {ch for ch, _ in member.mentions})


def _most_met(memory: Any, k: int) -> list[Any]:
    """The cards met in most chapters, those the player wrote about most first."""
    cards = [m for m in memory.cast.values() if m.kind == "card" and _times(m) > 0]
    return sorted(cards, key=lambda m: (-sum(a.answered for a in m.appearances) - len(m.mentions), -_times(m),
                                        m.first or 0, m.name))[:k]


def _stats_lines(done: list[Any], memory: Any) -> None:
    from collections import Counter

    results = Counter(t.result for t in memory.told if t.result)
    parts = [f"{results[r]} {r}" for r in ("won", "lost", "abandoned") if results[r]]
    unfinished = sum(1 for ch in done if ch.status in ("in progress", "cut off"))
    if unfinished:
        parts.append(f"{unfinished} unfinished")
    lost = sum(1 for ch in done if ch.missing or ch.status == "unreadable")
    if lost:
        parts.append(f"{lost} whose log cannot be read")
    if parts:
        say(f"Where it stands: {plural(len(done), 'chapter')}: " + ", ".join(parts) + ".")


def campaign_cast(name: str) -> int:
    """``storyteller campaign cast NAME``: who, first met, each appearance, the player's tags
    and notes; the threads, open or closed."""
    c, done, memory = _campaign(name)
    titles = {t.chapter.number: (t.title or t.chapter.game) for t in memory.told}
    people = sorted(memory.cast.values(), key=lambda m: (m.first or 0, m.kind != "card", m.name))
    say(f"The cast of {c.heading}")
    say()
    if not people:
        say("  No one yet: the cards you meet and the people and places you tag ([N:Name], [L:Place]) join it.")
    kinds = {"card": "card", "N": "person", "L": "place"}
    for m in people:
        first = f"first met in chapter {m.first}" if m.first else "not met yet"
        say(f"{m.name} ({kinds[m.kind]}, {first})")
        for a in m.appearances:
            say(f"  chapter {a.chapter}, {titles.get(a.chapter, a.game)}: {a.fate}")
        mentioned = sorted({ch for ch, _ in m.mentions})
        if mentioned:
            say(f"  named in your entries: chapter{'s' if len(mentioned) > 1 else ''} "
                f"{', '.join(map(str, mentioned))}")
        for note in m.notes:
            say(f"  tagged: {note}")
        if m.note:
            say(f"  your note: {m.note}")
    say()
    say("Threads")
    if not memory.threads:
        say("  None yet: open one in an entry with [Thread:Who burned the mill?|Open], close it with |Closed.")
    for t in memory.threads.values():
        opened = f"opened in chapter {t.opened[0]}" if t.opened else ""
        state = f"closed in chapter {t.closed[0]}" if t.closed else "open"
        say(f"  {t.name}: {opened}, {state}")
    return _campaign_problems(c, done)


def campaign_stats(name: str, as_json: bool = False) -> int:
    """``storyteller stats --campaign NAME``."""
    import json
    from collections import Counter

    c, done, memory = _campaign(name)
    results = Counter(t.result for t in memory.told if t.result)
    most = _most_met(memory, 10)
    if as_json:
        out = {
            "campaign": c.name, "title": c.title, "chapters": len(done),
            "won": results["won"], "lost": results["lost"], "abandoned": results["abandoned"],
            "unfinished": sum(1 for ch in done if ch.status in ("in progress", "cut off")),
            "unreadable": [ch.log for ch in done if ch.missing or ch.status == "unreadable"],
            "games": dict(Counter(ch.game for ch in done if ch.game)),
            "met_most": [{"name": m.name, "chapters": _times(m)} for m in most],
        }
        sys.stdout.write(json.dumps(out, indent=2, ensure_ascii=False) + "\n")
        return _campaign_problems(c, done)
    say(f"{c.heading}: {plural(len(done), 'chapter')}")
    games = Counter(told.title or told.chapter.game for told in memory.told if told.chapter.game)
    if games:
        say("Games: " + ", ".join(f"{g} {n}" for g, n in games.most_common()))
    _stats_lines(done, memory)
    if most:
        say("Met most often: " + "; ".join(f"{m.name} ({plural(_times(m), 'chapter')})" for m in most))
    return _campaign_problems(c, done)

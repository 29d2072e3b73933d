"""Settings: the TOML file, `storyteller config`, precedence (flag > environment > file >
default), bad files and values, and how often journaling questions are asked."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st
from rich.console import Console

from conftest import last_of, read_events
from storyteller.log.file import read
from storyteller import config, registry
from storyteller.log import store
from storyteller.ui.play import PlayerDriver
from storyteller.play.session import AutoPlayer, Session
from storyteller.ui.terminal import Terminal

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib


@pytest.fixture(autouse=True)
def settings_file(tmp_path, monkeypatch) -> Path:
    """A private settings file for every test (absent until a test writes it)."""
    path = tmp_path / "conf" / "config.toml"
    monkeypatch.setenv("STORYTELLER_CONFIG", str(path))
    for var in ("STORYTELLER_QUESTIONS", "STORYTELLER_EXPORT_FORMAT", "NO_COLOR"):
        monkeypatch.delenv(var, raising=False)
    return path


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


# -- the file and the commands ---------------------------------------------------------------


def test_the_file_is_where_the_environment_says_or_in_the_platform_config_folder(cli, settings_file, monkeypatch):
    r = cli("config", "path")
    assert r.code == 0 and r.out.strip() == str(settings_file)
    monkeypatch.delenv("STORYTELLER_CONFIG")
    from platformdirs import user_config_dir

    assert config.path() == Path(user_config_dir("storyteller", appauthor=False)) / "config.toml"


def test_no_file_means_every_default(cli, settings_file, home):
    assert not settings_file.exists()
    r = cli("config", "show")
    assert r.code == 0, r.err
    assert "(no file: defaults)" in r.out
    assert 'questions = "every-reveal"' in r.out and "# default" in r.out
    assert f'sessions = "{home / "sessions"}"' in r.out and "environment (STORYTELLER_HOME)" in r.out
    for game in registry.names():
        assert f"variants.{game} = []" in r.out
    assert cli("config", "get", "plain").out.strip() == "false"
    assert cli("config", "get", "export.format").out.strip() == "markdown"
    assert not settings_file.exists()  # reading never writes


def test_set_get_unset_round_trip_through_a_toml_file(cli, settings_file, tmp_path):
    assert cli("config", "set", "questions", "key-moments").code == 0
    assert cli("config", "set", "plain", "yes").code == 0
    assert cli("config", "set", "export.format", "obsidian").code == 0
    assert cli("config", "set", "variants.carddom", "jokers=taken", "overlord=anywhere").code == 0
    assert cli("config", "set", "sessions", str(tmp_path / "journals")).code == 0
    data = tomllib.loads(settings_file.read_text(encoding="utf-8"))
    assert data == {
        "questions": "key-moments",
        "plain": True,
        "sessions": str(tmp_path / "journals"),
        "export": {"format": "obsidian"},
        "variants": {"carddom": ["jokers=taken", "overlord=anywhere"]},
    }
    assert cli("config", "get", "questions").out.strip() == "key-moments"
    assert cli("config", "get", "variants.carddom").out.strip() == "jokers=taken overlord=anywhere"
    assert config.get("export.format") == "obsidian"  # what the export command reads
    r = cli("config", "unset", "export.format")
    assert r.code == 0 and "Removed export.format" in r.out
    assert "export" not in tomllib.loads(settings_file.read_text(encoding="utf-8"))
    assert "is not set" in cli("config", "unset", "export.format").out
    assert cli("config", "get", "export.format").out.strip() == "markdown"


def test_a_relative_sessions_folder_is_made_absolute_when_set(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert cli("config", "set", "sessions", "logs").code == 0
    assert config.load()["sessions"] == tmp_path / "logs"


@pytest.mark.parametrize("args, message", [
    (("questions", "sometimes"), "questions: must be one of every-reveal, key-moments, none (not 'sometimes')"),
    (("plain", "maybe"), "plain: must be true or false (not 'maybe')"),
    (("export.format", "docx"),
     "export.format: must be one of markdown, obsidian, json, lonelog, html, pdf (not 'docx')"),
    (("variants.carddom", "jokers=maybe"),
     "variants.carddom: variant 'jokers' takes one of: revealed, taken (not 'maybe')"),
    (("variants.chess", "x"), "variants.chess: no game named 'chess' is installed"),
    (("colour", "red"), "unknown key 'colour'"),
    (("questions", "none", "key-moments"), "questions: takes one value (not 2)"),
])
def test_set_refuses_a_bad_value_and_writes_nothing(cli, settings_file, args, message):
    r = cli("config", "set", *args)
    assert r.code == 2
    assert r.err.count("\n") == 1 and message in r.err
    assert not settings_file.exists()


def test_get_of_an_unknown_key_says_so(cli):
    for key in ("colour", "variants", "variants.chess", "export"):
        r = cli("config", "get", key)
        assert r.code == 2 and "unknown key" in r.err and r.err.count("\n") == 1


# -- a bad file: one line naming the key, never a traceback -----------------------------------

BAD = [
    ('plain = "yes"\n', "plain: must be true or false (not 'yes')"),
    ("colour = true\n", "unknown key 'colour'"),
    ("questions = [\n", "not valid TOML"),
    ('questions = "often"\n', "questions: must be one of every-reveal, key-moments, none (not 'often')"),
    ('[export]\nformat = "docx"\n',
     "export.format: must be one of markdown, obsidian, json, lonelog, html, pdf (not 'docx')"),
    ('[export]\npaper = "a3"\n', "export.paper: must be one of a5, a4, letter (not 'a3')"),
    ('export = "json"\n', "unknown key 'export'"),
    ('variants.carddom = "jokers=taken"\n', "variants.carddom: must be a list of variants"),
    ('[variants]\ncarddom = ["jokers=maybe"]\n', "variants.carddom: variant 'jokers' takes one of: revealed, taken"),
    ('[variants]\nchess = []\n', "variants.chess: no game named 'chess' is installed"),
    ('sessions = "relative/logs"\n', "sessions: must be an absolute path or start with ~"),
    ("sessions = 3\n", "sessions: must be a folder, as a string (not 3)"),
    ('[colours]\nx = 1\n', "unknown key 'colours'"),
]


@pytest.mark.parametrize("text, message", BAD, ids=[m.split(":")[0][:30] for _, m in BAD])
@pytest.mark.parametrize("command", [
    ("sessions",),
    ("play", "carddom", "--seed", "1", "--auto", "random"),
    ("resume",),
    ("config", "show"),
])
def test_a_bad_file_stops_a_command_with_one_line_naming_the_key(cli, settings_file, home, text, message, command):
    write(settings_file, text)
    r = cli(*command)
    assert r.code == 2, r.out
    assert r.err.startswith(f"storyteller: {settings_file}: ")
    assert message in r.err and r.err.count("\n") == 1
    assert not (home / "sessions").exists()  # no game was started


def test_a_bad_file_in_a_real_process_is_one_line_and_no_traceback(settings_file, tmp_path):
    write(settings_file, "questions = 3\n")
    env = dict(os.environ, STORYTELLER_CONFIG=str(settings_file))
    r = subprocess.run([sys.executable, "-m", "storyteller", "play", "hexaract", "--auto", "greedy"],
                       capture_output=True, text=True, timeout=60, env=env)
    assert r.returncode == 2
    assert r.stderr == (f"storyteller: {settings_file}: "
                        "questions: must be one of every-reveal, key-moments, none (not 3)\n")


def test_a_file_that_is_not_text_or_not_a_file(cli, settings_file):
    settings_file.parent.mkdir(parents=True)
    settings_file.write_bytes(b"\xff\xfe plain")
    r = cli("sessions")
    assert r.code == 2 and "not UTF-8 text" in r.err
    settings_file.unlink()
    settings_file.mkdir()
    r = cli("sessions")
    assert r.code == 2 and "is a folder, not a settings file" in r.err


def test_set_and_unset_mend_a_bad_file_one_key_at_a_time(cli, settings_file):
    write(settings_file, 'questions = "often"\nplain = "yes"\n')
    r = cli("config", "set", "questions", "none")
    assert r.code == 0
    assert "still has a problem: " in r.err and "plain: must be true or false" in r.err
    assert cli("config", "unset", "plain").code == 0
    assert cli("config", "show").code == 0
    assert tomllib.loads(settings_file.read_text(encoding="utf-8")) == {"questions": "none"}


def test_help_and_commands_that_need_no_setting_never_read_the_file(cli, settings_file):
    write(settings_file, "this is not toml\n")
    for args in (("--help",), ("play", "--help"), ("config", "--help"), ("games",), ("rules", "carddom"),
                 ("--version",)):
        r = cli(*args)
        assert r.code == 0, (args, r.err)


def test_help_imports_no_settings_module(tmp_path):
    probe = (
        "import sys\nfrom storyteller.cli import main\n"
        "try:\n    main(['--help'])\nexcept SystemExit:\n    pass\n"
        "print(sorted(m for m in ('storyteller.config', 'tomllib', 'tomli', 'platformdirs', 'storyteller.registry') "
        "if m in sys.modules), file=sys.stderr)\n"
    )
    r = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60,
                       env={"STORYTELLER_CONFIG": str(tmp_path / "bad.toml"), "PATH": "/usr/bin:/bin"})
    assert r.stderr.strip().splitlines()[-1] == "[]"


# -- precedence: flag > environment > file > default ------------------------------------------


def test_precedence_for_questions(settings_file, monkeypatch):
    assert config.resolve("questions") == ("every-reveal", "default")
    write(settings_file, 'questions = "none"\n')
    assert config.resolve("questions") == ("none", "config file")
    monkeypatch.setenv("STORYTELLER_QUESTIONS", "key-moments")
    assert config.resolve("questions") == ("key-moments", "environment (STORYTELLER_QUESTIONS)")
    assert config.resolve("questions", flag="every-reveal") == ("every-reveal", "flag")


def test_precedence_for_plain(settings_file, monkeypatch):
    assert config.get("plain") is False
    write(settings_file, "plain = true\n")
    assert config.resolve("plain") == (True, "config file")
    assert config.resolve("plain", flag=False) == (False, "flag")
    write(settings_file, "plain = false\n")
    monkeypatch.setenv("NO_COLOR", "1")
    assert config.resolve("plain") == (True, "environment (NO_COLOR)")
    assert config.resolve("plain", flag=True) == (True, "flag")


def test_precedence_for_export_format(settings_file, monkeypatch):
    assert config.get("export.format") == "markdown"
    write(settings_file, 'export.format = "json"\n')
    assert config.resolve("export.format") == ("json", "config file")
    monkeypatch.setenv("STORYTELLER_EXPORT_FORMAT", "lonelog")
    assert config.resolve("export.format") == ("lonelog", "environment (STORYTELLER_EXPORT_FORMAT)")
    assert config.get("export.format", flag="obsidian") == "obsidian"
    with pytest.raises(config.ConfigError,
                       match=r"^--format takes one of: markdown, obsidian, json, lonelog, html, pdf \(not 'docx'\)$"):
        config.get("export.format", flag="docx")


def test_precedence_for_the_sessions_folder(cli, settings_file, home, tmp_path, monkeypatch):
    journals = tmp_path / "journals"
    write(settings_file, f'sessions = "{journals}"\n')
    assert store.sessions_dir() == home / "sessions"  # STORYTELLER_HOME wins over the file
    monkeypatch.delenv("STORYTELLER_HOME")
    assert store.sessions_dir() == journals
    r = cli("play", "carddom", "--seed", "4", "--auto", "random")
    assert r.code == 0, r.err
    assert len(list(journals.glob("*.jsonl"))) == 1
    r = cli("sessions")
    assert f"Sessions in {journals}" in r.out.replace("\n", "") or str(journals) in r.out
    monkeypatch.delenv("STORYTELLER_CONFIG")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    if sys.platform.startswith("linux"):
        assert store.sessions_dir() == tmp_path / "xdg" / "storyteller" / "sessions"  # the default


def test_a_bad_environment_value_is_one_line_naming_the_variable(cli, monkeypatch):
    monkeypatch.setenv("STORYTELLER_QUESTIONS", "lots")
    r = cli("play", "carddom", "--seed", "1", "--auto", "random")
    assert r.code == 2
    assert r.err == "storyteller: STORYTELLER_QUESTIONS: must be one of every-reveal, key-moments, none (not 'lots')\n"
    monkeypatch.delenv("STORYTELLER_QUESTIONS")
    r = cli("play", "carddom", "--seed", "1", "--auto", "random", "--questions", "lots")
    assert r.code == 2
    assert r.err == "storyteller: --questions takes one of: every-reveal, key-moments, none (not 'lots')\n"


def test_default_variants_are_merged_with_the_flags_by_name(cli, settings_file, tmp_path):
    write(settings_file, '[variants]\ncarddom = ["jokers=taken", "overlord=anywhere"]\nadaman = ["extended"]\n')

    def variants(*args: str) -> dict:
        path = tmp_path / f"v{len(list(tmp_path.glob('v*.jsonl')))}.jsonl"
        r = cli("play", *args, "--seed", "1", "--auto", "random", "--log", path)
        assert r.code == 0, r.err
        return read_events(path)[0]["variants"]

    assert variants("carddom") == {"jokers": "taken", "overlord": "anywhere"}
    assert variants("carddom", "--variant", "overlord=back-row") == {"jokers": "taken", "overlord": "back-row"}
    assert variants("adaman", "--variant", "extended=off")["extended"] == "off"
    assert variants("cascades") == {"pawns-courts": "off"}
    r = cli("play", "adaman", "--variant", "extra-personalities=2", "--seed", "1", "--auto", "random")
    assert r.code == 2
    assert "(with extended from the setting variants.adaman)" in r.err and r.err.count("\n") == 1


def test_plain_from_the_file_reaches_the_terminal(settings_file, monkeypatch):
    from storyteller import app

    monkeypatch.setattr(sys.stdin, "isatty", lambda: True, raising=False)
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True, raising=False)
    game = registry.rules("carddom")
    write(settings_file, "plain = true\n")
    assert app.make_driver(game, "1", None, None, None).term.plain is True
    assert app.make_driver(game, "1", None, None, False).term.console.no_color is False
    write(settings_file, 'plain = false\nquestions = "none"\n')
    driver = app.make_driver(game, "1", None, None, None)
    assert driver.term.plain is False and driver.questions == "none"
    assert app.make_driver(game, "1", None, None, None, questions="key-moments").questions == "key-moments"


# -- writing TOML ---------------------------------------------------------------------------------


def test_set_keeps_the_players_comments_and_layout(cli, settings_file):
    """config set changes the one line of its key; every comment, blank line and the order
    of the rest stay as the player wrote them."""
    mine = (
        "# my settings, written by hand\n"
        "\n"
        "plain = false   # colours, please\n"
        "\n"
        "[variants]\n"
        "# the way I like Carddom\n"
        'carddom = ["jokers=taken"]\n'
    )
    write(settings_file, mine)
    assert cli("config", "set", "plain", "true").code == 0
    assert cli("config", "set", "variants.adaman", "extended").code == 0
    assert cli("config", "set", "questions", "none").code == 0
    text = settings_file.read_text(encoding="utf-8")
    assert text.startswith("# my settings, written by hand\n\nplain = true   # colours, please\n")
    assert "# the way I like Carddom\ncarddom = [\"jokers=taken\"]\nadaman = [\"extended\"]\n" in text
    assert tomllib.loads(text) == {"plain": True, "questions": "none",
                                   "variants": {"carddom": ["jokers=taken"], "adaman": ["extended"]}}
    assert cli("config", "unset", "plain").code == 0
    text = settings_file.read_text(encoding="utf-8")
    assert "plain" not in tomllib.loads(text) and "# the way I like Carddom" in text and "# my settings" in text


def test_set_writes_a_dotted_key_where_the_file_keeps_it(cli, settings_file):
    write(settings_file, 'export.format = "json"  # for my scripts\n')
    assert cli("config", "set", "export.format", "obsidian").code == 0
    assert settings_file.read_text(encoding="utf-8") == 'export.format = "obsidian"  # for my scripts\n'


keys = st.text(min_size=1, max_size=8)
scalars = st.one_of(st.booleans(), st.integers(-10**6, 10**6), st.text(max_size=20),
                    st.floats(allow_nan=False, allow_infinity=True))
values = st.one_of(scalars, st.lists(scalars, max_size=4),
                   st.lists(st.lists(st.text(max_size=5), max_size=2), max_size=2))


@settings(max_examples=200, deadline=None)
@given(values)
def test_a_value_as_shown_reads_back_the_same(value):
    """config show and the messages print values as TOML: they read back as themselves."""
    assert tomllib.loads(f"v = {config.dumps_value(value)}") == {"v": value}


# -- how often questions are asked ----------------------------------------------------------------


class CountingTerminal(Terminal):
    """The real terminal, printing to nowhere; every question is counted and skipped."""

    def __init__(self) -> None:
        super().__init__(console=Console(file=io.StringIO(), width=120, no_color=True))
        self.asked: list[str] = []

    def text(self, message: str, instruction: str | None = None, limit: int = 0) -> str:
        self.asked.append(message)
        return ""

    def confirm(self, message: str, default: bool = False) -> bool:
        return False  # the end screen's quick look at where the game turned: not now


class AutoAtTheTerminal(PlayerDriver):
    """The player's driver, with the moves chosen by the built-in player."""

    def __init__(self, term, questions: str, player: AutoPlayer) -> None:
        super().__init__(term, questions)
        self.player = player

    def choose(self, session):
        return self.player.choose(session.state, session.decisions)


def questions_asked(game_name: str, seed: str, questions: str, tmp_path: Path) -> list[str]:
    """The questions asked at the terminal in one seeded game played by the built-in player
    (the last word after the end left out: it is asked whatever the setting)."""
    game = registry.rules(game_name)
    term = CountingTerminal()
    player = AutoPlayer(game, seed, "greedy" if registry.get(game.name).has_policy else "random")
    driver = AutoAtTheTerminal(term, questions, player)
    path = tmp_path / f"{game_name}-{questions}.jsonl"
    session = Session.new(game, game.parse_variants([]), seed, path)
    driver.begin(session, resumed=False)
    session.run(driver)
    session.close()
    logged = [e for e in read_events(path)[1:] if e["event"] == "question"]
    assert term.asked == [e["text"] for e in logged]  # what the terminal asked is what the log holds
    assert logged[-1]["id"].startswith(("@won:", "@lost:", "@utter-loss:")) and logged[-1]["about"] == last_of(
        read_events(path), "end")["n"]  # the last word is asked whatever the setting
    return term.asked[:-1]


# every-reveal, key-moments, none: questions asked in one seeded game (seed "2", played by the
# greedy player, so a change to a policy or to a game's pacing changes these counts). About
# fifteen a game by default; Hexaract one a day at nightfall, and its first Ace, Crowns and
# rolls of note (instead of a question at every one of its thirty cards).
COUNTS = {"carddom": (13, 12, 0), "adaman": (17, 8, 0), "cascades": (20, 9, 0), "hexaract": (15, 6, 0)}


@pytest.mark.parametrize("game", sorted(COUNTS))
def test_questions_asked_at_the_terminal_for_each_setting(game, tmp_path):
    counts = tuple(len(questions_asked(game, "2", q, tmp_path)) for q in config.QUESTIONS)
    assert counts == COUNTS[game]


def test_key_moments_are_each_games_turning_points(tmp_path):
    """The questions key-moments asks are those every-reveal asks at the game's turning
    points (the occasions the game marks as key), and no others."""
    from storyteller.log.events import Question
    from storyteller.log.replay import walk
    from storyteller.play.questions import Asker

    for name in COUNTS:
        key = questions_asked(name, "2", "key-moments", tmp_path)
        asker = Asker(registry.get(name).questions, "2")
        steps = walk(read(tmp_path / f"{name}-key-moments.jsonl"), keep_steps=True).steps
        marked = []
        for step in steps:
            if step.revealed is not None or step.move is not None:
                occasion = asker.hear(step)
                if occasion is not None and occasion.key:
                    marked.append(step.n)
        asked = [s.event for s in steps if isinstance(s.event, Question) and s.event.about is not None][:-1]
        assert len(asked) == len(key)
        assert all(e.about in marked for e in asked), name  # each asked at a turning point
        assert len(asked) == len(marked), name  # and at each of them


def test_hexaracts_turning_points_are_the_first_ace_crowns_and_rolls_of_note():
    """The first Ace asks (why you set out); the other Aces and the cards coming onto the
    road are told without a question (the night asks about the day); three sixes ask, but
    for the first roll (the start's question follows it)."""
    from storyteller.log.events import CardDrawn, DiceRolled
    from storyteller.log.replay import Step
    from storyteller.play.questions import Game

    q = registry.get("hexaract").questions
    state = registry.rules("hexaract").new_state({})
    game = Game()

    def occasion(event):
        return q.occasion(Step(event, state, revealed=event), game)

    assert occasion(CardDrawn(1, card="ace-of-moons", to="ace token", deal=0, slot=0)).key
    assert occasion(CardDrawn(2, card="ace-of-suns", to="ace token", deal=0, slot=1)) is None
    assert occasion(CardDrawn(3, card="huntress", to="journey 1", deal=0, slot=0)) is None
    assert occasion(CardDrawn(3, card="author", to="journey 1", deal=0, slot=0)) is None
    assert occasion(DiceRolled(4, dice=(6, 6, 6, 2, 3), index=1)).role.role == "@roll-best"
    first = occasion(DiceRolled(4, dice=(6, 6, 6, 2, 3), index=0))  # day one: the start's question follows
    assert not first.key and q.choose(first, game, Counter(), "2", 5) is None


@pytest.mark.parametrize("questions", config.QUESTIONS)
def test_an_answers_file_answers_only_the_questions_asked(cli, tmp_path, questions):
    """One journal line after every move: it answers the question asked just before it, if
    one was asked (with this setting); otherwise it is an entry of its own."""
    auto = tmp_path / "auto.jsonl"
    assert cli("play", "hexaract", "--seed", "2", "--auto", "greedy", "--log", auto).code == 0
    moves = [e["action"] for e in read_events(auto) if e.get("event") == "decision"]
    script = tmp_path / "answers.txt"
    script.write_text("journal: before anything\n" + "".join(f"{m}\njournal: after {m}\n" for m in moves),
                      encoding="utf-8")
    path = tmp_path / f"{questions}.jsonl"
    r = cli("play", "hexaract", "--seed", "2", "--answers", script, "--log", path, "--questions", questions)
    assert r.code == 0, r.err
    events = read_events(path)[1:]
    by_n = {e["n"]: e for e in events}
    journal = [e for e in events if e["event"] == "journal"]
    asked = [e for e in events if e["event"] == "question"]
    answered = [e for e in journal if "question" in e]
    assert len(journal) == len(moves) + 1  # every line was written, as an answer or an entry
    for e in answered:
        question = by_n[e["question"]]
        assert question["event"] == "question" and e["prompt"] == question["text"]
        # the entry comes right after its question (nothing else was asked between them)
        assert not [x for x in events if question["n"] < x["n"] < e["n"] and x["event"] == "question"]
    assert len(asked) == {"every-reveal": 17, "key-moments": 8, "none": 1}[questions]
    assert len(answered) == {"every-reveal": 16, "key-moments": 7, "none": 1}[questions]
    r = cli("replay", path)
    assert r.code == 0 and "note:" not in r.out


def test_the_questions_setting_comes_from_the_file_for_answers(cli, settings_file, tmp_path):
    write(settings_file, 'questions = "none"\n')
    script = tmp_path / "a.txt"
    script.write_text("journal: who am I?\nquit\n", encoding="utf-8")
    path = tmp_path / "g.jsonl"
    assert cli("play", "carddom", "--seed", "2", "--answers", script, "--log", path).code == 0
    entry = next(e for e in read_events(path) if e.get("event") == "journal")
    assert "prompt" not in entry and "about" not in entry  # the character's question was not asked
    assert not [e for e in read_events(path) if e.get("event") == "question"]
    path2 = tmp_path / "g2.jsonl"
    assert cli("play", "carddom", "--seed", "2", "--answers", script, "--log", path2,
               "--questions", "every-reveal").code == 0
    entry = next(e for e in read_events(path2) if e.get("event") == "journal")
    assert entry["about"] == 1 and entry["prompt"]

"""Shell completion: the scripts Typer shows for bash, zsh and fish, what each shell is
offered (game names, the typed game's variants, settings, log paths), and that
completing stays cheap."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from storyteller import cli as commands
from storyteller.cli import main


@pytest.fixture(autouse=True)
def no_settings(tmp_path, monkeypatch):
    monkeypatch.setenv("STORYTELLER_CONFIG", str(tmp_path / "config.toml"))


def run_main(monkeypatch, capsys, env: dict[str, str], args: list[str] | None = None) -> tuple[int, str]:
    for k, v in env.items():
        monkeypatch.setenv(k, v)
    code = main(args or [])
    return code, capsys.readouterr().out


# -- the scripts ---------------------------------------------------------------------------------

SCRIPTS = {
    "bash": ["_storyteller_completion()", "_STORYTELLER_COMPLETE=complete_bash",
             "complete -o default -F _storyteller_completion storyteller"],
    "zsh": ["#compdef storyteller", "_STORYTELLER_COMPLETE=complete_zsh",
            "compdef _storyteller_completion storyteller"],
    "fish": ["complete --command storyteller", "_STORYTELLER_COMPLETE=complete_fish",
             "_TYPER_COMPLETE_FISH_ACTION=get-args"],
}


@pytest.mark.parametrize("shell", sorted(SCRIPTS))
def test_show_completion_prints_the_script_for_each_shell(shell, monkeypatch, capsys):
    # Typer detects the shell; this switch (Typer's own, for tests) lets a test name it.
    code, out = run_main(monkeypatch, capsys, {"_TYPER_COMPLETE_TEST_DISABLE_SHELL_DETECTION": "1"},
                         ["--show-completion", shell])
    assert code == 0
    for line in SCRIPTS[shell]:
        assert line in out


@pytest.mark.parametrize("shell", sorted(SCRIPTS))
def test_the_script_for_a_named_shell_through_the_environment(shell, tmp_path):
    env = dict(os.environ, _STORYTELLER_COMPLETE=f"source_{shell}")
    r = subprocess.run([sys.executable, "-m", "storyteller"], capture_output=True, text=True, timeout=60, env=env)
    assert r.returncode == 0
    for line in SCRIPTS[shell]:
        assert line in r.stdout


def test_help_offers_install_and_show_completion(cli):
    r = cli("--help")
    assert "--install-completion" in r.out and "--show-completion" in r.out


def test_install_completion_writes_the_script_where_the_shell_reads_it(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("HOME", str(tmp_path))
    code, out = run_main(monkeypatch, capsys, {"_TYPER_COMPLETE_TEST_DISABLE_SHELL_DETECTION": "1"},
                         ["--install-completion", "fish"])
    assert code == 0 and "fish completion installed" in out
    assert "_STORYTELLER_COMPLETE=complete_fish" in (tmp_path / ".config/fish/completions/storyteller.fish").read_text()


# -- what each shell is offered ------------------------------------------------------------------


def bash(monkeypatch, capsys, line: str) -> list[str]:
    words = line.split(" ")
    code, out = run_main(monkeypatch, capsys, {"_STORYTELLER_COMPLETE": "complete_bash",
                                               "COMP_WORDS": line, "COMP_CWORD": str(len(words) - 1)})
    assert code == 0
    return out.split()


def test_bash_completes_commands_games_and_variants(monkeypatch, capsys):
    assert bash(monkeypatch, capsys, "storyteller pl") == ["play"]
    assert bash(monkeypatch, capsys, "storyteller co") == ["config"]
    assert bash(monkeypatch, capsys, "storyteller play ") == ["adaman", "carddom", "cascades", "hexaract"]
    assert bash(monkeypatch, capsys, "storyteller play ca") == ["carddom", "cascades"]
    assert bash(monkeypatch, capsys, "storyteller rules h") == ["hexaract"]
    assert bash(monkeypatch, capsys, "storyteller play carddom --variant ") == [
        "jokers=revealed", "jokers=taken", "overlord=back-row", "overlord=anywhere"]
    assert bash(monkeypatch, capsys, "storyteller play carddom -v o") == ["overlord=back-row", "overlord=anywhere"]
    assert bash(monkeypatch, capsys, "storyteller play --seed 4 adaman --variant extended --variant ") == [
        "extra-personalities=0", "extra-personalities=1", "extra-personalities=2", "extra-personalities=3"]
    assert bash(monkeypatch, capsys, "storyteller play cascades --variant ") == ["pawns-courts", "pawns-courts=off"]
    assert bash(monkeypatch, capsys, "storyteller play hexaract --variant ") == []
    assert bash(monkeypatch, capsys, "storyteller play chess --variant ") == []
    assert bash(monkeypatch, capsys, "storyteller play carddom --auto ") == ["random", "greedy"]
    assert bash(monkeypatch, capsys, "storyteller play hexaract --auto ") == ["random", "greedy", "search"]
    assert bash(monkeypatch, capsys, "storyteller simulate adaman --policy s") == ["search"]
    assert bash(monkeypatch, capsys, "storyteller simulate cascades -v p") == ["pawns-courts", "pawns-courts=off"]
    assert bash(monkeypatch, capsys, "storyteller solve ca") == ["carddom", "cascades"]
    assert bash(monkeypatch, capsys, "storyteller solve carddom --variant j") == ["jokers=revealed", "jokers=taken"]
    assert bash(monkeypatch, capsys, "storyteller stats h") == ["hexaract"]
    assert bash(monkeypatch, capsys, "storyteller play carddom --questions k") == ["key-moments"]


def test_bash_completes_settings(monkeypatch, capsys):
    assert bash(monkeypatch, capsys, "storyteller config ") == ["path", "show", "get", "set", "unset"]
    assert bash(monkeypatch, capsys, "storyteller config get variants.c") == ["variants.carddom", "variants.cascades"]
    assert bash(monkeypatch, capsys, "storyteller config set q") == ["questions"]
    assert bash(monkeypatch, capsys, "storyteller config set questions ") == ["every-reveal", "key-moments", "none"]
    assert bash(monkeypatch, capsys, "storyteller config set plain ") == ["true", "false"]
    assert bash(monkeypatch, capsys, "storyteller config set export.format ") == [
        "markdown", "obsidian", "json", "lonelog", "html", "pdf"]
    assert bash(monkeypatch, capsys, "storyteller config set variants.carddom jokers=taken ") == [
        "overlord=back-row", "overlord=anywhere"]
    assert bash(monkeypatch, capsys, "storyteller config set sessions ") == []  # the shell's own folders


def test_bash_completes_log_paths(monkeypatch, capsys, tmp_path, home):
    saved = home / "sessions"
    saved.mkdir(parents=True)
    for name in ("2026-01-01-000000-carddom-1.jsonl", "2026-02-01-000000-adaman-x.jsonl"):
        (saved / name).write_text("{}\n")
    here = tmp_path / "here"
    (here / "logs").mkdir(parents=True)
    for name in ("game.jsonl", "game.md", ".hidden.jsonl", "logs/old.jsonl"):
        (here / name).write_text("{}\n")
    monkeypatch.chdir(here)
    newest_first = [str(saved / "2026-02-01-000000-adaman-x.jsonl"), str(saved / "2026-01-01-000000-carddom-1.jsonl")]
    for command in ("replay", "export", "resume"):
        assert bash(monkeypatch, capsys, f"storyteller {command} ") == ["game.jsonl"] + newest_first
    assert bash(monkeypatch, capsys, "storyteller replay g") == ["game.jsonl"]
    assert bash(monkeypatch, capsys, "storyteller replay logs/") == ["logs/old.jsonl"]
    assert bash(monkeypatch, capsys, "storyteller replay .h") == [".hidden.jsonl"]
    assert bash(monkeypatch, capsys, f"storyteller replay {saved}/2026-01") == newest_first[1:]
    # Nothing to offer: the shell completes files and folders itself (bash -o default, zsh _files, fish files).
    assert bash(monkeypatch, capsys, "storyteller replay lo") == []
    assert bash(monkeypatch, capsys, "storyteller play carddom --answers ") == []
    assert bash(monkeypatch, capsys, "storyteller export game.jsonl --template ") == []


def test_zsh_and_fish_get_the_same_words_in_their_own_form(monkeypatch, capsys):
    code, out = run_main(monkeypatch, capsys, {"_STORYTELLER_COMPLETE": "complete_zsh",
                                               "_TYPER_COMPLETE_ARGS": "storyteller play carddom --variant j"})
    assert code == 0 and out.strip() == """_arguments '*: :(("jokers=revealed"\n"jokers=taken"))'"""
    code, out = run_main(monkeypatch, capsys, {"_STORYTELLER_COMPLETE": "complete_zsh",
                                               "_TYPER_COMPLETE_ARGS": "storyteller play carddom --answers "})
    assert out.strip() == "_files"
    code, out = run_main(monkeypatch, capsys, {"_STORYTELLER_COMPLETE": "complete_fish",
                                               "_TYPER_COMPLETE_FISH_ACTION": "get-args",
                                               "_TYPER_COMPLETE_ARGS": "storyteller play "})
    assert code == 0 and out.split() == ["adaman", "carddom", "cascades", "hexaract"]
    code, _ = run_main(monkeypatch, capsys, {"_STORYTELLER_COMPLETE": "complete_fish",
                                             "_TYPER_COMPLETE_FISH_ACTION": "is-args",
                                             "_TYPER_COMPLETE_ARGS": "storyteller play carddom --answers "})
    assert code == 1  # fish: no words of ours, so files


@pytest.mark.skipif(shutil.which("bash") is None, reason="no bash")
def test_the_bash_script_completes_in_a_real_bash(tmp_path):
    script = (
        'eval "$(_STORYTELLER_COMPLETE=source_bash storyteller)"\n'
        'COMP_WORDS=(storyteller play adaman --variant ""); COMP_CWORD=4\n'
        "_storyteller_completion storyteller\n"
        'printf "%s\\n" "${COMPREPLY[@]}"\n'
    )
    bindir = Path(sys.executable).parent
    env = dict(os.environ, PATH=f"{bindir}{os.pathsep}{os.environ.get('PATH', '')}")
    if not (bindir / "storyteller").exists():
        pytest.skip("the storyteller command is not installed beside this Python")
    r = subprocess.run(["bash", "--norc", "--noprofile", "-c", script], capture_output=True, text=True, timeout=60,
                       env=env)
    assert r.stdout.split() == ["extended", "extended=off", "extra-personalities=0", "extra-personalities=1",
                                "extra-personalities=2", "extra-personalities=3"]


# -- the completion functions themselves -----------------------------------------------------------


class Ctx:
    def __init__(self, params: dict, args: list[str] | None = None) -> None:
        self.params = params
        self.args = args or []


def test_completion_functions():
    assert commands.complete_game("") == ["adaman", "carddom", "cascades", "hexaract"]
    assert commands.complete_game("CA") == ["carddom", "cascades"]
    assert commands.complete_variant(Ctx({"game": "carddom", "variant": ["jokers=taken"]}), "") == [
        "overlord=back-row", "overlord=anywhere"]
    # `--variant <TAB>`: the parser stops at the option and leaves the game among the extra words
    assert commands.complete_variant(Ctx({"game": None, "variant": []}, ["cards", "cascades"]), "p") == [
        "pawns-courts", "pawns-courts=off"]
    assert commands.complete_variant(Ctx({"game": "nope", "variant": []}), "") == []
    assert commands.complete_key("s") == ["sessions"]
    assert commands.complete_value(Ctx({"key": "questions"}), "n") == ["none"]
    assert commands.complete_value(Ctx({"key": "nonsense"}), "") == []
    assert commands.complete_files("anything") == []
    assert commands.complete_auto(Ctx({}), "g") == ["greedy"]
    assert commands.complete_auto(Ctx({"game": "adaman"}), "") == ["random", "greedy", "search"]
    assert commands.complete_auto(Ctx({"game": "carddom"}), "") == ["random", "greedy"]
    assert commands.complete_questions("") == ["every-reveal", "key-moments", "none"]


def test_log_completion_survives_a_bad_settings_file(tmp_path, monkeypatch):
    (tmp_path / "config.toml").write_text("not toml")
    monkeypatch.delenv("STORYTELLER_HOME")
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a.jsonl").write_text("{}\n")
    assert commands.complete_log("") == ["a.jsonl"]
    assert commands.complete_log("/no/such/folder/") == []


PROBE = """
import os, sys
os.environ.update({env!r})
from storyteller.cli import main
main([])
print(sorted(m for m in sys.modules
             if m.startswith("storyteller.games.") or m in ("rich", "questionary", "jinja2", "prompt_toolkit")),
      file=sys.stderr)
"""


@pytest.mark.parametrize("line, loaded", [
    ("storyteller play ", []),  # game names come from the entry points
    # only the named game's rules (and its package, which holds its registration)
    ("storyteller play carddom --variant ", ["storyteller.games.carddom", "storyteller.games.carddom.rules"]),
    ("storyteller replay ", []),
])
def test_completing_is_cheap(line, loaded, tmp_path):
    env = {"_STORYTELLER_COMPLETE": "complete_bash", "COMP_WORDS": line, "COMP_CWORD": str(len(line.split(" ")) - 1)}
    r = subprocess.run([sys.executable, "-c", PROBE.format(env=env)], capture_output=True, text=True, timeout=60,
                       env=dict(os.environ, STORYTELLER_HOME=str(tmp_path)))
    assert r.stderr.strip().splitlines()[-1] == repr(loaded)


def test_every_command_completes_every_path_it_takes_wherever_it_is_defined(capsys):
    """A LOG argument offers logs and any other path the shell's own files, for every
    command and sub-command, whatever its place in cli.py (the completers are set when the
    command line starts, after the last command is defined)."""
    import inspect

    from typer.models import ArgumentInfo, ParameterInfo

    main(["--help"])
    capsys.readouterr()
    seen = 0
    for info in commands.app.registered_commands + commands.config_app.registered_commands:
        for name, param in inspect.signature(info.callback).parameters.items():
            spec = param.default
            if isinstance(spec, ParameterInfo) and "Path" in str(param.annotation):
                seen += 1
                where = f"{info.callback.__name__} {name}"
                assert spec.autocompletion is not None, f"{where} completes nothing"
                if name == "log" and isinstance(spec, ArgumentInfo):
                    assert spec.autocompletion is commands.complete_log, where
    assert seen >= 8  # play --log, --answers; resume LOG, --answers; replay LOG; export LOG, -o, --template, --all...

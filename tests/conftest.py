"""Shared fixtures: a private data folder for every test, and a CLI runner."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from storyteller.cli import app

# prompt_toolkit asks the terminal where its cursor is and waits for an answer that a pipe
# or a test pty never gives: without this every interactive test sits out that timeout.
os.environ["PROMPT_TOOLKIT_NO_CPR"] = "1"


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch) -> Path:
    folder = tmp_path / "home"
    monkeypatch.setenv("STORYTELLER_HOME", str(folder))
    # The player's own settings never reach the tests: each test has an empty settings file.
    monkeypatch.setenv("STORYTELLER_CONFIG", str(tmp_path / "config.toml"))
    for name in ("STORYTELLER_QUESTIONS", "STORYTELLER_EXPORT_FORMAT"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.delenv("NO_COLOR", raising=False)
    # pytest-xdist's workers set the width of a terminal they do not have; a program in a
    # real terminal (pexpect's pty) sizes itself from that terminal, as at a player's.
    for name in ("COLUMNS", "LINES"):
        monkeypatch.delenv(name, raising=False)
    return folder


class Result:
    def __init__(self, r) -> None:
        self.code = r.exit_code
        self.out = r.stdout
        self.err = r.stderr
        self.exception = r.exception


@pytest.fixture
def cli():
    runner = CliRunner()

    def run(*args: str, input: str | None = None) -> Result:
        r = runner.invoke(app, [str(a) for a in args], input=input)
        if r.exception and not isinstance(r.exception, SystemExit):
            raise r.exception
        return Result(r)

    return run


def read_events(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def last_of(events: list[dict], kind: str) -> dict:
    """The last event of this kind (questions are logged between the events a test looks at)."""
    return [e for e in events if e.get("event") == kind][-1]


@pytest.fixture
def auto_log(cli, tmp_path):
    """Play a whole game with --auto random and return its log path."""

    def make(seed: str = "1", *variants: str, name: str = "game.jsonl") -> Path:
        path = tmp_path / name
        args = ["play", "carddom", "--seed", seed, "--auto", "random", "--log", path]
        for v in variants:
            args += ["--variant", v]
        r = cli(*args)
        assert r.code == 0, r.err
        return path

    return make

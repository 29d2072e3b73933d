"""Commands that ask nothing must not pay for the prompt library (nor rich/jinja2 unless used)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

PROBE = """
import sys, json
from storyteller.cli import main
try:
    code = main({args})
except SystemExit as e:
    code = e.code
sys.stdout.flush()
print(json.dumps({{m: m in sys.modules for m in ("questionary", "rich", "jinja2", "prompt_toolkit")}}), file=sys.stderr)
"""


def loaded(args: list[str], tmp_path) -> dict[str, bool]:
    r = subprocess.run(
        [sys.executable, "-c", PROBE.format(args=repr(args))],
        capture_output=True, text=True, timeout=60, env={"STORYTELLER_HOME": str(tmp_path), "PATH": "/usr/bin:/bin"},
    )
    return json.loads(r.stderr.strip().splitlines()[-1])


@pytest.fixture
def log(auto_log):
    return str(auto_log("5"))


def test_help_imports_nothing_heavy(tmp_path):
    assert loaded(["--help"], tmp_path) == {"questionary": False, "rich": False, "jinja2": False,
                                            "prompt_toolkit": False}


def test_games_and_rules_without_prompts(tmp_path):
    assert not any(loaded(["games"], tmp_path).values())
    assert not loaded(["rules", "carddom"], tmp_path)["questionary"]


def test_export_uses_jinja2_only(tmp_path, log):
    mods = loaded(["export", log, "--story"], tmp_path)
    assert mods == {"questionary": False, "rich": False, "jinja2": True, "prompt_toolkit": False}


def test_replay_imports_nothing_heavy(tmp_path, log):
    assert not any(loaded(["replay", log], tmp_path).values())

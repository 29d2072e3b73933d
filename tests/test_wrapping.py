"""Every question, menu option and table fits the terminal: played in a real terminal
(tmux) 80 and 100 columns wide, answering the questions, no line on screen is one the
terminal had to wrap (tmux joins such lines back: ``capture-pane -J``), no table lost its
right edge, and every question the log says was asked is on screen with every word whole.

tmux is a Debian package; .ci/run installs it where it is missing."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import time

import pytest
from rich.cells import cell_len

TMUX = shutil.which("tmux")
pytestmark = pytest.mark.skipif(TMUX is None, reason="tmux is not installed (apt-get install tmux)")


class Screen:
    """A program in a tmux window of its own, on a server of its own."""

    def __init__(self, tmp_path, width: int, *args: str) -> None:
        self.width = width
        self.socket = f"storyteller-test-{os.getpid()}-{width}-{time.monotonic_ns()}"
        # as a player starts it, with the Python that runs it on the PATH (an activated venv):
        # the commands it prints then say `python3 -m storyteller`, not the interpreter's whole path
        env = {"STORYTELLER_HOME": str(tmp_path / "home"), "TERM": "xterm-256color", "NO_COLOR": "1",
               "PATH": os.pathsep.join([os.path.dirname(sys.executable), os.environ.get("PATH", "")])}
        command = " ".join(["cd", shlex.quote(str(tmp_path)), "&&", "env",
                            *(f"{k}={shlex.quote(v)}" for k, v in env.items()),
                            shlex.quote(sys.executable), "-m", "storyteller", *map(shlex.quote, args),
                            "; sleep 30"])
        self.tmux("new-session", "-d", "-s", "t", "-x", str(width), "-y", "45", command)
        self.tmux("set-option", "-t", "t", "history-limit", "20000")

    def tmux(self, *args: str) -> str:
        assert TMUX is not None
        return subprocess.run([TMUX, "-L", self.socket, *args], check=True, capture_output=True, text=True,
                              timeout=10).stdout

    def lines(self, history: bool = False) -> list[str]:
        """The screen (or everything since the start), wrapped lines joined back."""
        extra = ["-S", "-"] if history else []
        return [line.rstrip() for line in self.tmux("capture-pane", "-p", "-J", "-t", "t", *extra).splitlines()]

    def settled(self, timeout: float = 15) -> list[str]:
        """The screen once it has stopped changing and shows a prompt."""
        end = time.monotonic() + timeout
        last = None
        while time.monotonic() < end:
            now = self.lines()
            if now == last and any(line.startswith("?") for line in now):
                return now
            last = now
            time.sleep(0.4)
        raise AssertionError("the screen never settled on a prompt:\n" + "\n".join(last or []))

    def send(self, *keys: str) -> None:
        self.tmux("send-keys", "-t", "t", *keys)

    def close(self) -> None:
        subprocess.run([TMUX or "tmux", "-L", self.socket, "kill-server"], capture_output=True, timeout=10)


INSTRUCTIONS = (  # the words under a prompt, ours and questionary's own
    "(Use arrow keys to move, <space> to select, <a> to toggle, <i> to invert)", "(Use arrow keys)",
    "(write, or Enter to skip)", "(space to mark, Enter to confirm; none to go back)",
    "(space to mark, Enter to confirm)",
)
BOX = set("┏┃┡│├└┓┩┤┘┗┛┣┫╭╮╰╯")  # a table's or a panel's edges


def words(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.timeout(240)
@pytest.mark.parametrize("width", [80, 100])
@pytest.mark.parametrize("game", ["carddom", "adaman", "cascades", "hexaract"])
def test_questions_menus_and_tables_fit_the_terminal(tmp_path, game, width):
    log = tmp_path / "g.jsonl"  # named from where the game runs: the commands it prints fit too
    screen = Screen(tmp_path, width, "play", game, "--seed", "11", "--log", "g.jsonl")
    too_wide: list[str] = []
    cropped: list[str] = []  # a table's line that lost its right edge
    cut: list[str] = []
    try:
        for turn in range(14):
            shown = screen.settled()
            too_wide += [line for line in shown if cell_len(line) > width]
            cropped += [line for line in shown if line[:1] in BOX and line[-1:] not in BOX]
            # an instruction prompt_toolkit wrapped itself shows cut on two lines (tmux cannot join them)
            cut += [line for line in shown if any(words[:9] in line for words in INSTRUCTIONS)
                    and not any(words in line for words in INSTRUCTIONS)]
            prompt = next(line for line in reversed(shown) if line.startswith("?"))
            if "Enter to skip" in " ".join(shown[shown.index(prompt):]):
                screen.send(f"Answer {turn}: the wind turns.", "Enter")
            else:
                screen.send("Enter")  # the first option: a move, or a step of one
            time.sleep(0.3)
        screen.settled()
        history = screen.lines(history=True)
        screen.send("C-c")
    finally:
        screen.close()
    assert not too_wide, f"lines the terminal had to wrap at {width} columns:\n" + "\n".join(too_wide)
    assert not cropped, f"tables cut at the right edge at {width} columns:\n" + "\n".join(cropped)
    assert not cut, f"instructions cut at {width} columns:\n" + "\n".join(cut)
    too_wide = [line for line in history if cell_len(line) > width]
    assert not too_wide, f"lines the terminal had to wrap at {width} columns:\n" + "\n".join(too_wide)
    events = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()[1:]]
    asked = [e["text"] for e in events if e["event"] == "question"]
    assert len(asked) >= 3
    seen = words(" ".join(history))
    cut = [q for q in asked if words(q) not in seen]
    assert not cut, f"questions not shown whole at {width} columns: {cut}"
    answered = [e for e in events if e["event"] == "journal"]
    assert answered and all(re.fullmatch(r"Answer \d+: the wind turns\.", e["text"]) for e in answered)

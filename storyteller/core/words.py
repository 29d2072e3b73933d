"""Small helpers for writing English, shared by rules, tellers and views (no prose here)."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import sys
from collections.abc import Iterable
from typing import Any


def cap(text: str) -> str:
    """The text with its first letter capitalised: "the Mill" -> "The Mill"."""
    return text[:1].upper() + text[1:]


def join_and(items: Iterable[Any]) -> str:
    """"a, b and c"."""
    words = [str(i) for i in items]
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def plural(n: int, word: str, many: str | None = None) -> str:
    """"1 card", "3 cards"."""
    return f"{n} {word if n == 1 else many or word + 's'}"


_CONTROLS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def clean(text: str) -> str:
    """Text safe to print or write: C0 and C1 control characters (terminal escapes, bells,
    carriage returns...) removed, newlines and tabs kept. Logs keep the player's words
    verbatim; everything shown or exported from them goes through this."""
    return _CONTROLS.sub("", text)


def command(*words: object) -> str:
    """A command line to show for copy and paste that gives back exactly these words: each
    word quoted by shlex, except that a word holding a control character (a newline, a
    tab, an escape) is spelled ``$'...'`` with escapes (bash, zsh, ksh), since what is shown
    is cleaned of control characters and a pasted newline would run the command early."""
    return " ".join(_ansi_c(w) if _ANY_CONTROL.search(w) else shlex.quote(w) for w in map(str, words))


_ANY_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def program(argv0: str | None = None, executable: str | None = None) -> tuple[str, ...]:
    """The words that start storyteller as the player started it, for a command they can
    paste back: ``storyteller`` when that is what the shell finds on the PATH; the script's
    path as typed (``.venv/bin/storyteller``) when it is not; ``python -m storyteller``
    (the Python that runs now, by the name the shell finds it by, else its path) when it
    was started so; ``storyteller`` when it runs inside another program (a notebook, a
    test)."""
    argv0 = sys.argv[0] if argv0 is None else argv0
    executable = sys.executable if executable is None else executable
    name = os.path.basename(argv0)
    if name in ("storyteller", "storyteller.exe"):
        if os.path.sep not in argv0:  # found by name on the PATH
            return ("storyteller",)
        found = shutil.which("storyteller")
        return ("storyteller",) if found is not None and _same(found, argv0) else (argv0,)
    if name == "__main__.py" and os.path.basename(os.path.dirname(argv0)) == "storyteller":
        python = executable or "python3"
        for short in ("python3", "python"):
            found = shutil.which(short)
            # the same file in the same folder: a venv's python is a link to the system's,
            # which would not find the venv's packages
            if found is not None and os.path.dirname(os.path.abspath(found)) == \
                    os.path.dirname(os.path.abspath(python)) and _same(found, python):
                return (short, "-m", "storyteller")
        return (python, "-m", "storyteller")
    return ("storyteller",)


def _same(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def command_line(*args: object) -> str:
    """A storyteller command to print for pasting: the program as the player started it
    (:func:`program`), then ``args``, each word quoted as :func:`command` quotes it. Every
    command the product prints to the player goes through here."""
    return command(*program(), *args)


def _ansi_c(word: str) -> str:
    out = []
    for ch in word:
        if ch in "\\'":
            out.append("\\" + ch)
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif _ANY_CONTROL.match(ch):
            out.append(f"\\x{ord(ch):02x}" if ord(ch) < 0x80 else f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    return "$'" + "".join(out) + "'"


SYMBOLS = "\u263e\u2600\u2248\u2766\u00a7\u2318\u2663\u2665\u2660\u2666\u2014"  # suits, piquet, a dash


def can_show(encoding: str | None, text: str = SYMBOLS) -> bool:
    """Whether a stream in this encoding can show the cards' symbols and the players' words."""
    try:
        text.encode(encoding or "ascii")
    except (UnicodeEncodeError, LookupError):
        return False
    return True

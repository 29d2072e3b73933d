"""The rules play exactly as they did when ``tests/fingerprints.txt`` was written: random
legal play over 300 seeds for every built-in game and variant, hashed move by move (every
legal action's key and words, every draw's options, every outcome and cause; see
``tests/fingerprint.py``). A change that alters one legal move or one outcome fails here;
a change to the rules on purpose rewrites the file and says so in its note."""

from __future__ import annotations

from pathlib import Path

from fingerprint import fingerprints

STORED = Path(__file__).resolve().parent / "fingerprints.txt"


def test_random_play_over_300_seeds_matches_the_stored_fingerprints():
    stored = dict(reversed(line.split("  ", 1)) for line in STORED.read_text(encoding="utf-8").splitlines())
    assert fingerprints(300) == stored

"""The day's deal: one seed a game for everyone on the same date (UTC), made from the date
and the game's name, so that two players anywhere play the same cards on the same day.

The date is today's in UTC, or the one ``STORYTELLER_TODAY`` gives (YYYY-MM-DD), so that a
test, or a player catching up on a day missed, can name it. The seeds of a day are
``carddom-2025-03-14``, then ``carddom-2025-03-14b``, ``...c``: the first of them that the
solver proves winnable is the day's deal (see :mod:`storyteller.study.deals`), and since
that search is bounded by positions, not seconds, every machine finds the same one.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from datetime import date, datetime, timezone

TODAY = "STORYTELLER_TODAY"  # the environment variable that names the day (YYYY-MM-DD)
CANDIDATES = 6  # seeds tried each day before the first is played unproved
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


def parse_day(text: str) -> date:
    """A day written YYYY-MM-DD (ValueError saying what is wrong otherwise)."""
    text = text.strip()
    if not _DATE.fullmatch(text):
        raise ValueError(f"a day is written YYYY-MM-DD, as 2025-03-14 (not {text!r})")
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise ValueError(f"{text} is not a day of the calendar") from None


def today(environ: Mapping[str, str] | None = None) -> date:
    """Today in UTC, or the day ``STORYTELLER_TODAY`` names (ValueError if it names none)."""
    env = os.environ if environ is None else environ
    given = env.get(TODAY)
    if given is None or not given.strip():
        return datetime.now(timezone.utc).date()
    try:
        return parse_day(given)
    except ValueError as e:
        raise ValueError(f"{TODAY}: {e}") from None


def seeds(game: str, day: date) -> list[str]:
    """The seeds the day's deal of ``game`` is chosen from, in the order they are tried."""
    first = f"{game}-{day.isoformat()}"
    return [first] + [f"{first}{chr(ord('a') + k)}" for k in range(1, CANDIDATES)]

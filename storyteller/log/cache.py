"""The small caches storyteller keeps beside the saved games (``.sessions.json``,
``.records.json``, ``.journal.json``): what it read of each log, by file name, with the
log's size and time, so that over thousands of logs only those that changed are read again.

A cache is a convenience: one that cannot be read (missing, spoilt, of another version) is
empty, and one that cannot be written is not written; the figures are the same either way."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any


def load(path: Path, version: int) -> dict[str, Any]:
    """What the cache at ``path`` keeps, by log name ({} if it cannot be read or is of
    another ``version``)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict) or data.get("version") != version or not isinstance(data.get("logs"), dict):
        return {}
    return data["logs"]


def save(path: Path, version: int, logs: dict[str, Any]) -> None:
    """Write the cache whole (aside, then renamed over the old one); a folder that may be
    read but not written, or words no file takes, leave it unwritten."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        tmp.write_text(json.dumps({"version": version, "logs": logs}, ensure_ascii=False), encoding="utf-8")
        os.replace(tmp, path)
    except (OSError, ValueError):
        try:
            tmp.unlink()
        except OSError:
            pass

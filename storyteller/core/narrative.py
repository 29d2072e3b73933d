"""Where the words live: the ``prompts/`` and ``templates/`` folders, and a stable way to
vary the wording.

``prompts/`` and ``templates/`` are top-level folders of the project. A wheel carries
them inside the package (``storyteller/prompts``, ``storyteller/templates``); a source
checkout or an editable install finds them beside the package.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")
_PACKAGE = Path(__file__).resolve().parents[1]  # storyteller/


def data_dir(name: str) -> Path:
    """The folder ``prompts`` or ``templates``, installed or in a checkout."""
    for candidate in (_PACKAGE / name, _PACKAGE.parent / name):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"storyteller's {name}/ folder is missing from this installation")


@cache
def shared_prompts(name: str) -> dict[str, Any]:
    """Words shared by several games, such as what each Decktet card means (``decktet``)."""
    path = data_dir("prompts") / f"{name}.json"
    prompts: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return prompts


def pick(options: Sequence[T], *key: object) -> T:
    """One of ``options``, chosen by a stable hash of ``key``: varied, yet the same every time."""
    digest = hashlib.sha256("\x1f".join(map(str, key)).encode("utf-8")).digest()
    return options[int.from_bytes(digest[:8], "big") % len(options)]

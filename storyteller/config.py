"""Settings: one small, flat TOML file in the platform's config folder.

The file is never needed: without it every setting has its default. Where a setting
comes from, strongest first: a command-line flag, then an environment variable, then the
file, then the default. Every key:

- ``plain``: ``true`` or ``false`` (default ``false``): cards in words, no colours or
  symbols. Environment: ``NO_COLOR`` (any value). Flag: ``--plain`` / ``--no-plain``.
- ``questions``: ``"every-reveal"`` (default), ``"key-moments"`` or ``"none"``: how often
  a journaling question is asked after a card is revealed (every time the card raises
  one; only at the game's turning points, as its teller chooses them; never). The last
  word after the end is asked whatever the setting. Environment:
  ``STORYTELLER_QUESTIONS``. Flag: ``--questions`` (``play``, ``resume``).
- ``sessions``: the folder of saved games, an absolute path (``~`` allowed); default:
  ``sessions/`` in the platform's data folder. Environment: ``STORYTELLER_HOME`` (its
  ``sessions/`` folder). Flag: none (``play --log PATH`` puts one game elsewhere).
- ``export.format``: ``"markdown"`` (default), ``"obsidian"``, ``"json"``, ``"lonelog"``,
  ``"html"`` or ``"pdf"``: the format of ``storyteller export``. Environment:
  ``STORYTELLER_EXPORT_FORMAT``. Flag: ``export --format``.
- ``export.paper``: ``"a5"`` (default), ``"a4"`` or ``"letter"``: the page an HTML or PDF
  export prints on. Environment: ``STORYTELLER_PAPER``. Flag: ``export --paper``.
- ``variants.GAME`` (``variants.carddom``...): a list of variants as ``--variant`` takes
  them (``["jokers=taken", "overlord=anywhere"]``), default ``[]``: a new game of GAME is
  played with them. Flag: ``play --variant``.

In the file, ``export.format``, ``export.paper`` and ``variants.GAME`` may be written as dotted keys or in
``[export]`` and ``[variants]`` tables.

``NO_COLOR`` is the one exception to "the flag wins": while it is set the terminal is
plain whatever ``--no-plain`` says (the terminal library honours it too).
``play --variant`` is merged with ``variants.GAME`` by variant name: a flag for a variant
replaces the setting for that variant, the others stay (``--variant extended=off`` turns
a flag variant off).

For other modules, one function: :func:`get` (``config.get("export.format")``, or
``config.get("export.format", flag=value_of_the_flag_or_None)``) returns the value in
force, already checked. A bad file, an unknown key, a value of the wrong type or out of
range, or a bad environment value raises :class:`ConfigError`, whose message is one line
naming the file and the key. Reading the file needs no heavy module (``tomllib``, or
``tomli`` on Python 3.10), and nothing reads it before a command needs a setting.

``storyteller config set`` and ``unset`` change the one line of the key in the file and keep
everything else as the player wrote it: comments, blank lines, order (tomlkit edits it).
"""

from __future__ import annotations

import datetime
import os
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from storyteller.core.formats import NAMES as FORMATS  # export.format takes any export format
from storyteller.core.formats import PAPERS as PAGES

ENV_CONFIG = "STORYTELLER_CONFIG"  # the settings file itself (tests, several profiles)
QUESTIONS = ("every-reveal", "key-moments", "none")
PAPERS = tuple(PAGES)  # the first is the default
TRUE = ("true", "yes", "on", "1")
FALSE = ("false", "no", "off", "0")
SPEC = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]*(=[A-Za-z0-9_.-]+)?$")  # NAME or NAME=VALUE
HEADER = ("# storyteller settings (see `storyteller config show`); "
          "`storyteller config set` changes only the key it sets.\n")


class ConfigError(Exception):
    """A setting that cannot be used: the message is one line naming where and which key."""

    code = 2  # as for a bad option

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass(frozen=True)
class Key:
    name: str
    kind: str  # "bool", "choice", "path" or "variants"
    help: str
    env: str | None = None
    flag: str | None = None
    choices: tuple[str, ...] = ()


KEYS: dict[str, Key] = {
    k.name: k
    for k in (
        Key("plain", "bool", "cards in words, no colours or symbols", env="NO_COLOR", flag="--plain"),
        Key("questions", "choice", "how often journaling questions are asked after a card is revealed",
            env="STORYTELLER_QUESTIONS", flag="--questions", choices=QUESTIONS),
        Key("sessions", "path", "the folder of saved games", env="STORYTELLER_HOME"),
        Key("export.format", "choice", "the format of `storyteller export`",
            env="STORYTELLER_EXPORT_FORMAT", flag="--format", choices=FORMATS),
        Key("export.paper", "choice", "the page an HTML or PDF export prints on",
            env="STORYTELLER_PAPER", flag="--paper", choices=PAPERS),
        Key("variants.GAME", "variants", "the variants a new game of GAME is played with", flag="--variant"),
    )
}
VARIANTS = "variants."


def path() -> Path:
    """The settings file (``STORYTELLER_CONFIG`` overrides where it is)."""
    override = os.environ.get(ENV_CONFIG)
    if override:
        return Path(override).expanduser()
    from platformdirs import user_config_dir

    return Path(user_config_dir("storyteller", appauthor=False)) / "config.toml"


def key_of(name: str) -> Key:
    """The key ``name`` names (``variants.carddom`` is a ``variants.GAME``), or ConfigError."""
    if name.startswith(VARIANTS) and len(name) > len(VARIANTS) and "." not in name[len(VARIANTS):]:
        return KEYS["variants.GAME"]
    if name in KEYS and name != "variants.GAME":
        return KEYS[name]
    raise ConfigError(f"unknown key '{name}' (keys: {', '.join(KEYS)})")


def names() -> list[str]:
    """Every key a player can set, ``variants.GAME`` once per installed game."""
    from storyteller import registry

    return [k for k in KEYS if k != "variants.GAME"] + [VARIANTS + g for g in registry.names()]


# -- checking values ----------------------------------------------------------------------


def check(name: str, value: Any) -> Any:
    """``value`` (as TOML gives it) checked for key ``name``; ValueError says what is wrong."""
    key = key_of(name)
    if key.kind == "bool":
        if not isinstance(value, bool):
            raise ValueError(f"must be true or false (not {_shown(value)})")
        return value
    if key.kind == "choice":
        if not isinstance(value, str) or value not in key.choices:
            raise ValueError(f"must be one of {', '.join(key.choices)} (not {_shown(value)})")
        return value
    if key.kind == "path":
        if not isinstance(value, str) or not value.strip():
            raise ValueError(f"must be a folder, as a string (not {_shown(value)})")
        folder = Path(value).expanduser()
        if not folder.is_absolute():
            raise ValueError(f"must be an absolute path or start with ~ (not {_shown(value)})")
        if folder.exists() and not folder.is_dir():
            raise ValueError(f"{_shown(value)} is a file, not a folder")
        return folder
    # variants.GAME: a list of specs, each one the game accepts
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ValueError(f'must be a list of variants, like ["name=value"] (not {_shown(value)})')
    bad = [v for v in value if not SPEC.match(v)]
    if bad:
        raise ValueError(f"'{bad[0][:60]}' is not a variant (NAME or NAME=VALUE)")
    game = name[len(VARIANTS):]
    _game_variants(game, value)
    return list(value)


def _game_variants(game: str, specs: list[str]) -> dict[str, str]:
    from storyteller import registry
    from storyteller.core.engine import VariantError

    if game not in registry.names():
        raise ValueError(f"no game named '{game}' is installed (games: {', '.join(registry.names())})")
    try:
        return registry.rules(game).parse_variants(specs)
    except registry.RegistryError as e:
        raise ValueError(str(e)) from None
    except VariantError as e:
        raise ValueError(str(e)) from None


def _shown(value: Any) -> str:
    if isinstance(value, str):
        return repr(value[:60])
    try:
        return dumps_value(value)[:60]
    except TypeError:  # a value TOML reads but this module does not print (a table in a list...)
        return type(value).__name__


def parse_text(name: str, words: list[str]) -> Any:
    """What ``storyteller config set NAME WORDS...`` means, as the file would hold it
    (ValueError says what is wrong)."""
    key = key_of(name)
    if key.kind == "variants":
        value: Any = [w for word in words for w in word.replace(",", " ").split()]
    elif len(words) != 1:
        raise ValueError(f"takes one value (not {len(words)})")
    elif key.kind == "bool":
        word = words[0].strip().lower()
        if word not in TRUE + FALSE:
            raise ValueError(f"must be true or false (not {words[0]!r})")
        value = word in TRUE
    elif key.kind == "path":
        value = str(Path(words[0]).expanduser().absolute()) if words[0].strip() else words[0]
    else:
        value = words[0].strip()
    check(name, value)
    return value


# -- the file ------------------------------------------------------------------------------


def _toml():
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - Python 3.10
        import tomli as tomllib
    return tomllib


toml_reader = _toml  # the TOML reader, for the other small files storyteller keeps (campaigns)


def read_raw(where: Path | None = None) -> dict[str, Any]:
    """The file as TOML reads it ({} when there is none); ConfigError if it cannot be read."""
    where = where or path()
    try:
        data = where.read_bytes()
    except FileNotFoundError:
        return {}
    except IsADirectoryError:
        raise ConfigError(f"{where}: is a folder, not a settings file") from None
    except OSError as e:
        raise ConfigError(f"{where}: cannot read the settings file ({e.strerror})") from None
    toml = _toml()
    try:
        return toml.loads(data.decode("utf-8"))
    except UnicodeDecodeError:
        raise ConfigError(f"{where}: the settings file is not UTF-8 text") from None
    except toml.TOMLDecodeError as e:
        raise ConfigError(f"{where}: not valid TOML: {e}") from None


def flatten(table: dict[str, Any], prefix: str = "") -> Iterator[tuple[str, Any]]:
    """(dotted key, value) for every value of a TOML document; ``variants`` and ``export``
    are tables of values, anything else nested is an unknown key."""
    for k, v in table.items():
        name = prefix + k
        if isinstance(v, dict) and name in ("variants", "export"):
            yield from flatten(v, name + ".")
        else:
            yield name, v


def load(where: Path | None = None) -> dict[str, Any]:
    """Every setting the file holds, checked: {dotted key: value}; ConfigError naming the
    file and the first bad key."""
    where = where or path()
    out = {}
    for name, value in flatten(read_raw(where)):
        try:
            key_of(name)
        except ConfigError as e:
            raise ConfigError(f"{where}: {e.message}") from None
        try:
            out[name] = check(name, value)
        except ValueError as e:
            raise ConfigError(f"{where}: {name}: {e}") from None
    return out


def default(name: str) -> Any:
    key = key_of(name)
    if key.kind == "bool":
        return False
    if key.kind == "choice":
        return key.choices[0]
    if key.kind == "path":
        from platformdirs import user_data_dir

        return Path(user_data_dir("storyteller", appauthor=False)) / "sessions"
    return []


def from_env(name: str) -> tuple[Any, str] | None:
    """The value an environment variable gives ``name``, and the variable, or None."""
    key = key_of(name)
    if key.env is None:
        return None
    raw = os.environ.get(key.env)
    if not raw:
        return None
    if key.name == "plain":
        return True, key.env  # NO_COLOR: any value means no colour
    if key.name == "sessions":
        return Path(raw).expanduser() / "sessions", key.env
    if raw not in key.choices:
        raise ConfigError(f"{key.env}: must be one of {', '.join(key.choices)} (not {raw[:60]!r})")
    return raw, key.env


def resolve(name: str, flag: Any = None, settings: dict[str, Any] | None = None) -> tuple[Any, str]:
    """The value in force for ``name`` and where it comes from ("flag", "environment
    (NO_COLOR)", "config file", "default"). ``flag``: the command line's value, None when
    it was not given. ``settings``: the file's checked settings (read when not given: a
    bad file is reported even when a flag or the environment decides this key)."""
    key = key_of(name)
    settings = load() if settings is None else settings
    if flag is not None:
        if key.kind == "choice" and flag not in key.choices:
            raise ConfigError(f"{key.flag} takes one of: {', '.join(key.choices)} (not {str(flag)[:60]!r})")
        return flag, "flag"
    env = from_env(name)
    if env is not None:
        return env[0], f"environment ({env[1]})"
    if name in settings:
        return settings[name], "config file"
    return default(name), "default"


def get(name: str, flag: Any = None) -> Any:
    """The value in force for the setting ``name`` (flag > environment > file > default),
    checked; ConfigError (one line naming the key) if it cannot be used.

    ``get("plain")`` -> bool; ``get("questions")``, ``get("export.format")`` -> str;
    ``get("sessions")`` -> Path; ``get("variants.carddom")`` -> list of specs.
    """
    return resolve(name, flag)[0]


# -- writing -------------------------------------------------------------------------------


BARE = re.compile(r"^[A-Za-z0-9_-]+$")


def _key(k: str) -> str:
    return k if BARE.match(k) else dumps_value(k)


def dumps_value(value: Any) -> str:
    """One TOML value."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if value != value:
            return "nan"
        if value in (float("inf"), float("-inf")):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, str):
        out = []
        for ch in value:
            if ch in '"\\':
                out.append("\\" + ch)
            elif ch in "\b\t\n\f\r":
                out.append({"\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r"}[ch])
            elif ord(ch) < 0x20 or ord(ch) == 0x7F:
                out.append(f"\\u{ord(ch):04x}")
            else:
                out.append(ch)
        return '"' + "".join(out) + '"'
    if isinstance(value, list):
        return "[" + ", ".join(dumps_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_key(k)} = {dumps_value(v)}" for k, v in value.items()) + "}"
    if isinstance(value, (datetime.date, datetime.time)):
        return value.isoformat()
    raise TypeError(f"cannot write a {type(value).__name__} as TOML")


def _edit(where: Path, change) -> Path:
    """Change the settings file in place with ``change(document)`` and write it back: with
    tomlkit, so the player's comments, blank lines, order and layout are kept exactly, and
    only the changed line is new. The file is written atomically (its folder is made)."""
    import tomlkit
    from tomlkit.exceptions import TOMLKitError

    try:
        text = where.read_text(encoding="utf-8") if where.exists() else HEADER
    except UnicodeDecodeError:
        raise ConfigError(f"{where}: the settings file is not UTF-8 text") from None
    except OSError as e:
        raise ConfigError(f"{where}: cannot read the settings file ({e.strerror})") from None
    try:
        doc = tomlkit.parse(text)
        change(doc)
        out = doc.as_string()
    except TOMLKitError as e:
        raise ConfigError(f"{where}: not valid TOML: {e}") from None
    try:
        where.parent.mkdir(parents=True, exist_ok=True)
        tmp = where.with_name(f".{where.name}.{os.getpid()}.tmp")
        tmp.write_text(out, encoding="utf-8")
        os.replace(tmp, where)
    except OSError as e:
        raise ConfigError(f"{where}: cannot write the settings file ({e.strerror})") from None
    return where


def _set_in(doc: Any, name: str, value: Any) -> None:
    """Set a dotted key where the file already keeps it (a ``[table]`` or a dotted key),
    else as a new line: a top-level key, or a key of its ``[table]``."""
    import tomlkit

    parts = name.split(".")
    table = doc
    for part in parts[:-1]:
        inner = table.get(part)
        if not isinstance(inner, dict):
            inner = tomlkit.table()
            table[part] = inner
        table = inner
    table[parts[-1]] = value


def _unset_in(doc: Any, name: str) -> bool:
    parts = name.split(".")
    inner = doc
    for part in parts[:-1]:
        inner = inner.get(part)
        if not isinstance(inner, dict):
            return False
    if parts[-1] not in inner:
        return False
    del inner[parts[-1]]
    if len(parts) > 1 and not doc[parts[0]]:
        del doc[parts[0]]
    return True


def set_value(name: str, words: list[str]) -> tuple[Any, Path]:
    """``config set``: check the value, write it. Other keys are kept as they are, even
    bad ones (so a bad file can be mended one key at a time)."""
    key_of(name)
    try:
        value = parse_text(name, words)
    except ValueError as e:
        raise ConfigError(f"{name}: {e}") from None
    where = path()
    read_raw(where)  # a file that is not TOML is named as such before anything is written
    return value, _edit(where, lambda doc: _set_in(doc, name, value))


def unset_value(name: str) -> bool:
    """``config unset``: remove the key from the file; False if it was not there."""
    key_of(name)
    where = path()
    if not _unset_in(read_raw(where), name):
        return False
    _edit(where, lambda doc: _unset_in(doc, name))
    return True


def shown(value: Any) -> str:
    """A value as ``config get`` prints it: TOML, but a path or a word bare."""
    if isinstance(value, Path):
        return str(value)
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return " ".join(value)
    return dumps_value(value)


def show_lines() -> list[str]:
    """``config show``: every key, its value in force and where it comes from, as TOML."""
    where = path()
    settings = load(where)
    found = "" if where.is_file() else " (no file: defaults)"
    rows = []
    for name in names():
        value, source = resolve(name, settings=settings)
        text = dumps_value(str(value) if isinstance(value, Path) else value)
        rows.append((f"{name} = {text}", source))
    width = max(len(r[0]) for r in rows)
    return [f"# {where}{found}"] + [f"{left:<{width}}  # {source}" for left, source in rows]

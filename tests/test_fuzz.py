"""Seeded corruption of real logs, run through every command that reads a log.

Each case takes a real log (the examples, and a few generated here: unfinished, with undos,
long and non-ASCII journal entries, a last line without its newline), corrupts it one way
(a field's type or range, a key added or removed, deep nesting, a huge number, a lone
surrogate, a cut, lines swapped, doubled or removed, a card or a move changed, a bad
header, binary garbage, empty lines...) and runs ``replay``, ``export --story``,
``export --playthrough``, ``sessions`` (the log in the sessions folder) and
``resume --yes`` (answers: ``quit``). For each:

- no traceback, no "unexpected error"; a failure is one line on stderr and a non-zero exit;
- the log is byte-identical afterwards, unless ``resume`` set a bad last line aside (then
  the log is its intact part, the line is in ``.cut-off``, and what follows is appended);
- a command that succeeds read the same game as the original: the same outcome, card
  places, standing decisions and journal entries, or those of a prefix of it (a log cut at
  a line's end is an unfinished game, which no check can tell from one).

The suite runs a few hundred cases; ``python tests/test_fuzz.py 1000 [SEED]`` runs more
and prints what each command did.
"""

from __future__ import annotations

import json
import os
import random
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from typer.testing import CliRunner

from storyteller.cli import app
from storyteller.core.rng import Stream
from storyteller.log.events import CardDrawn, DiceRolled, End, JournalEntry, Question
from storyteller.log.file import GameLog, LogError, read
from storyteller.log.replay import walk
from storyteller.play.session import Session
from storyteller.registry import rules as get_game

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
SUITE_CASES = 200
SUITE_SEED = 9


# -- the logs to corrupt -----------------------------------------------------------------

LONG_WORDS = "Les étoiles tombent, ünd dïe Wëlt schläft 🌙 — " * 120  # ~5,600 characters, multi-byte


def generate(path: Path, name: str, seed: str, finish: bool, journal_every: int = 3, undo_every: int = 7) -> Path:
    """A log played through the session with journal entries (about their draws) and undos."""
    game = get_game(name)
    session = Session.new(game, game.parse_variants([]), seed, path, mode="answers")
    chooser = Stream(seed, "fuzz")
    session.advance()
    made = 0
    while not session.over:
        made += 1
        if made % journal_every == 0:
            draws = [e for e in session.log.events if isinstance(e, (CardDrawn, DiceRolled))]
            text = LONG_WORDS if made % (journal_every * 4) == 0 else f"Entry {made}: the road bends — ça va."
            session.journal(text, "What happens here?", about=draws[-1].n if draws else None)
        if session.can_undo() and made % undo_every == 0:
            session.undo()
        elif not finish and made > 12:
            break
        else:
            session.decide(chooser.choice(session.legal_actions()))
    if session.over:
        session.journal("The last word, after the end.", "A last word for your journal?")
    session.close()
    return path


def sources(folder: Path) -> list[Path]:
    """The example logs and a few generated ones."""
    folder.mkdir(parents=True, exist_ok=True)
    made = [
        generate(folder / "gen-carddom-open.jsonl", "carddom", "fuzz-1", finish=False),
        generate(folder / "gen-hexaract.jsonl", "hexaract", "fuzz-2", finish=True),
        generate(folder / "gen-adaman-open.jsonl", "adaman", "fuzz-3", finish=False),
        generate(folder / "gen-cascades.jsonl", "cascades", "fuzz-4", finish=True, journal_every=9),
    ]
    unterminated = folder / "gen-unterminated.jsonl"
    unterminated.write_bytes(made[0].read_bytes()[:-1])  # a whole last line, without its newline
    made.append(unterminated)
    return sorted(EXAMPLES.glob("*.jsonl")) + made


# -- what a log means --------------------------------------------------------------------


def meaning(log: GameLog) -> tuple:
    """What a reader of the game must get right: outcome, card places, standing decisions, journal."""
    w = walk(log, resumable=True)
    outcome = (w.outcome.result, w.outcome.cause, w.outcome.score) if w.outcome else None
    # As the rules read them: a key spelled with other spaces or case is the same move.
    standing = [w.game.parse(log.events[n - 1].action).key for n, _ in w.history]
    journal = [e.text for e in log.events if isinstance(e, JournalEntry)]
    places = {k: sorted(v) for k, v in w.state.places().items()}
    return outcome, places, standing, journal


@dataclass
class Original:
    path: Path
    data: bytes
    log: GameLog
    prefixes: dict[int, tuple]
    legal: dict[int, set[str]]  # decision n -> the keys legal before it

    def meaning_of_prefix(self, k: int) -> tuple:
        if k not in self.prefixes:
            self.prefixes[k] = meaning(GameLog(self.log.path, self.log.header, self.log.events[:k]))
        return self.prefixes[k]


def original(path: Path) -> Original:
    log = read(path)
    w = walk(log, keep_steps=True)
    legal = {
        s.n: {a.key for a in s.before.legal_actions()} for s in w.steps if s.move is not None and s.before is not None
    }
    return Original(path, path.read_bytes(), log, {len(log.events): meaning(log)}, legal)


# -- corruptions -------------------------------------------------------------------------


@dataclass
class Mutant:
    kind: str
    data: bytes
    prefix_ok: bool = False  # the corruption may leave a readable prefix of the game
    refuse: bool = True  # replay and export must refuse it (False: it may mean the same game)


# What the tests hold each line must have (the reader's own list is not the judge of itself).
REQUIRED = {
    "header": {"storyteller", "schema", "game", "variants", "seed", "source"},
    "draw": {"n", "event", "card", "to", "deal", "slot"},
    "roll": {"n", "event", "dice", "index"},
    "decision": {"n", "event", "action"},
    "journal": {"n", "event", "text"},
    "undo": {"n", "event", "of"},
    "end": {"n", "event", "result"},
}
FREE_TEXT = {"text", "prompt", "reason"}  # the game's or the player's words: any valid text
LOOSE = {"at", "started", "mode", "version", "by"}  # short labels nothing is checked against


def _lines(data: bytes) -> tuple[list[bytes], bool]:
    lines = data.split(b"\n")
    terminated = data.endswith(b"\n")
    if terminated:
        lines.pop()
    return lines, terminated


def _join(lines: list[bytes], terminated: bool = True) -> bytes:
    return b"\n".join(lines) + (b"\n" if terminated else b"")


def _dump(record) -> bytes:
    return json.dumps(record, ensure_ascii=False, separators=(", ", ": ")).encode("utf-8")


def _records(o: Original) -> tuple[list[bytes], bool, list[dict]]:
    lines, terminated = _lines(o.data)
    return lines, terminated, [json.loads(line) for line in lines]


def _pick_event(rng: random.Random, records: list[dict], kinds: tuple[str, ...] | None = None, key: str | None = None):
    found = [
        i for i, r in enumerate(records)
        if i > 0 and (kinds is None or r.get("event") in kinds) and (key is None or key in r)
    ]
    return rng.choice(found) if found else None


def _replace_field(
    o: Original, rng: random.Random, kind: str, values: Callable[[object], list],
    refused: Callable[[str, object, object], bool]
) -> Mutant | None:
    lines, terminated, records = _records(o)
    i = rng.randrange(len(records))
    keys = [k for k in records[i] if k not in ("storyteller",)]
    key = rng.choice(keys)
    record = dict(records[i])
    old = record[key]
    record[key] = rng.choice(values(record[key]))
    if (key == "text" and records[i].get("event") == "journal" and isinstance(record[key], str)
            and len(record[key]) <= 100_000):
        return None  # other words in a journal entry are other words, not a corruption: a log is no signature
    if record == records[i] or repr(record) == repr(records[i]):
        return None
    lines[i] = _dump(record)
    name = f"{kind}:{'header' if i == 0 else records[i]['event']}.{key}"
    return Mutant(name, _join(lines, terminated), refuse=refused(key, old, record[key]))


def wrong_type(o, rng):
    def values(v):
        out: list = [None, [v], {"v": v}, True, False]
        if type(v) is int:
            out += [float(v), str(v), v + 0.5]
        elif isinstance(v, str):
            out += [1, 0, 33.0, v.encode().hex()[:0] or 5]
        elif isinstance(v, list):
            out += [v[0] if v else 1, json.dumps(v)]
        elif isinstance(v, dict):
            out += [list(v), json.dumps(v)]
        return out

    return _replace_field(o, rng, "type", values, lambda key, old, new: True)


def out_of_range(o, rng):
    def values(v):
        if type(v) is int:
            return [-1, v + 1, v - 1, 10**12, -(10**12), 2**63, 10**30]
        if isinstance(v, list):
            return [[], [0] * len(v), [7] * len(v), [-1], v + v, v[:-1], [10**40] * len(v)]
        if isinstance(v, str):
            return ["", "x" * 300, "y" * 120_000, v + "\x1b[2J", v + "\u0000", " " + v]
        return [{}]

    def refused(key, old, new):
        if type(old) is int:
            return key != "about"  # another earlier draw is as good a thing to be about
        if isinstance(new, str):
            if len(new) > 100_000:
                return True
            if key in FREE_TEXT:
                return False
            if key in LOOSE or key == "action":  # an action is read as the rules read it, spaces aside
                return new == "x" * 300 or (new != new.strip() and new.strip() != old)
            return True
        return True

    return _replace_field(o, rng, "range", values, refused)


def bad_reference(o, rng):
    lines, terminated, records = _records(o)
    i = _pick_event(rng, records, ("journal", "undo"), None)
    if i is None:
        return None
    record = dict(records[i])
    n = record["n"]
    key = "of" if record["event"] == "undo" else "about"
    non_draws = [r["n"] for r in records[1:i] if r["event"] not in ("draw", "roll")]
    non_decisions = [r["n"] for r in records[1:i] if r["event"] != "decision"]
    choices = [n, n + 1, n + 50, 0, -3]
    choices += non_decisions[-1:] if key == "of" else non_draws[-1:]
    record[key] = rng.choice(choices)
    lines[i] = _dump(record)
    return Mutant(f"reference:{record['event']}.{key}", _join(lines, terminated))


def unknown_key(o, rng):
    lines, terminated, records = _records(o)
    i = rng.randrange(len(records))
    record = dict(records[i])
    record[rng.choice(["zzz", "Event", "note", "n2", "__proto__", "score " ])] = rng.choice([1, "x", None, {}])
    lines[i] = _dump(record)
    return Mutant(f"unknown-key:{'header' if i == 0 else records[i]['event']}", _join(lines, terminated))


def missing_key(o, rng):
    lines, terminated, records = _records(o)
    i = rng.randrange(len(records))
    record = dict(records[i])
    key = rng.choice(list(record))
    del record[key]
    lines[i] = _dump(record)
    # Some keys are optional (a journal entry's question, an event's time): losing them
    # changes nothing the game means, so a command may succeed; meaning() says if it did.
    kind = "header" if i == 0 else records[i]["event"]
    refuse = key in REQUIRED[kind] or key == "pile" or (key == "score" and records[i][key] is not None)
    return Mutant(f"missing-key:{kind}.{key}", _join(lines, terminated), refuse=refuse)


def raw_value(o, rng):
    """A value spelled in raw JSON text no dict can make: nesting, huge numbers, NaN,
    duplicate keys, lone surrogates, escapes."""
    lines, terminated, records = _records(o)
    i = rng.randrange(len(records))
    line = lines[i]
    depth = rng.choice([50, 5_000, 100_000])
    payloads = {
        "deep": b"[" * depth + b"]" * depth,
        "deep-object": b'{"a": ' * depth + b"1" + b"}" * depth,
        "huge-int": b"9" * rng.choice([30, 4_301, 5_000, 20_000]),
        "nan": rng.choice([b"NaN", b"Infinity", b"-Infinity", b"1e400"]),
        "surrogate": b'"a\\ud800b"',
        "surrogate-pair-half": b'"\\udfff"',
        "escape": b'"\\u001b[2J\\u0007"',
    }
    name = rng.choice(sorted(payloads))
    if name == "escape" and records[i].get("event") == "journal":
        name = "surrogate"  # escaped characters in a journal entry are the player's words, not a corruption
    # Replace the value of one key: from after '"key": ' to the next ', "' or the closing '}'.
    keys = list(records[i])
    key = rng.choice(keys)
    marker = b'"' + key.encode() + b'": '
    start = line.find(marker)
    if start < 0:
        return None
    start += len(marker)
    end = _value_end(line, start)
    line = line[:start] + payloads[name] + line[end:]
    if rng.random() < 0.2:
        line = line[:-1] + b', "' + key.encode() + b'": ' + line[start:end] + b"}"  # a duplicate key as well
        name += "+duplicate"
    lines[i] = line
    refuse = not (name == "escape" and key in FREE_TEXT)
    return Mutant(f"raw:{name}:{'header' if i == 0 else records[i]['event']}.{key}", _join(lines, terminated),
                  refuse=refuse)


def _value_end(line: bytes, start: int) -> int:
    depth = 0
    in_string = False
    i = start
    while i < len(line):
        c = line[i : i + 1]
        if in_string:
            if c == b"\\":
                i += 2
                continue
            if c == b'"':
                in_string = False
        elif c == b'"':
            in_string = True
        elif c in b"[{":
            depth += 1
        elif c in b"]}":
            if depth == 0:
                return i
            depth -= 1
        elif c == b"," and depth == 0:
            return i
        i += 1
    return i


def duplicate_key(o, rng):
    lines, terminated, records = _records(o)
    i = rng.randrange(len(records))
    key = rng.choice(list(records[i]))
    value = records[i][key]
    line = lines[i][:-1] + b", " + json.dumps(key).encode() + b": " + _dump(value) + b"}"
    lines[i] = line
    return Mutant(f"duplicate-key:{'header' if i == 0 else records[i]['event']}.{key}", _join(lines, terminated))


def truncate(o, rng):
    data = o.data
    cut = rng.randrange(1, len(data))
    if rng.random() < 0.3:  # at a line's end, with its newline or without
        ends = [i + 1 for i, b in enumerate(data) if b == 0x0A][:-1]
        if not ends:
            return None
        cut = rng.choice(ends) - rng.choice([0, 1])
    at_line_end = data[cut - 1 : cut] == b"\n" or data[cut : cut + 1] == b"\n"
    return Mutant("truncate", data[:cut], prefix_ok=True, refuse=not at_line_end)


def line_surgery(o, rng):
    lines, terminated = _lines(o.data)
    if len(lines) < 3:
        return None
    i, j = sorted(rng.sample(range(len(lines)), 2))
    op = rng.choice(["swap", "duplicate", "remove", "remove-last", "move-to-end"])
    if op == "swap":
        lines[i], lines[j] = lines[j], lines[i]
    elif op == "duplicate":
        lines.insert(j, lines[i])
    elif op == "remove":
        del lines[i]
    elif op == "remove-last":
        del lines[-rng.randint(1, min(3, len(lines) - 1)):]
    else:
        lines.append(lines.pop(i))
    last = op == "remove-last"
    return Mutant(f"lines:{op}", _join(lines, terminated), prefix_ok=last, refuse=not last)


def changed_card(o, rng):
    lines, terminated, records = _records(o)
    i = _pick_event(rng, records, ("draw",))
    if i is None:
        return None
    cards = sorted({r["card"] for r in records[1:] if r.get("event") == "draw"} - {records[i]["card"]})
    record = dict(records[i])
    record["card"] = rng.choice(cards + ["ZZ", "10c", record["card"] + " "])
    lines[i] = _dump(record)
    return Mutant("card", _join(lines, terminated))


def changed_draw_place(o, rng):
    lines, terminated, records = _records(o)
    i = _pick_event(rng, records, ("draw",))
    if i is None:
        return None
    record = dict(records[i])
    key = rng.choice(["deal", "slot", "to", "pile"])
    record[key] = {"deal": record["deal"] + 1, "slot": record["slot"] + 1, "to": "nowhere", "pile": "aces"}[key]
    lines[i] = _dump(record)
    return Mutant(f"draw-place:{key}", _join(lines, terminated))


def changed_roll(o, rng):
    lines, terminated, records = _records(o)
    i = _pick_event(rng, records, ("roll",))
    if i is None:
        return None
    record = dict(records[i])
    dice = list(record["dice"])
    k = rng.randrange(len(dice))
    dice[k] = 1 + (dice[k] % 6)  # another face
    another_face = rng.random() < 0.7
    record["dice"] = dice if another_face else dice + [3]
    lines[i] = _dump(record)
    # Dice rolled at a real table are the player's: another face is a game no check can
    # tell from the real one (a record, not a signature); a sixth die is always wrong.
    at_table = o.log.header.source in ("physical", "physical dice")
    return Mutant("roll", _join(lines, terminated), refuse=not (another_face and at_table))


def changed_action(o, rng):
    """A decision's key made one the rules do not allow there (another legal one would be
    another game, which no check can tell from this one)."""
    lines, terminated, records = _records(o)
    i = _pick_event(rng, records, ("decision",))
    if i is None:
        return None
    record = dict(records[i])
    seen = {r["action"] for r in records[1:] if r.get("event") == "decision"}
    garbled = {record["action"] + " ", record["action"].upper(), "take " + "X" * 3, "enter 99", "", "turn turn"}
    illegal = sorted((seen | garbled) - o.legal.get(record["n"], set()))
    record["action"] = rng.choice(illegal)
    lines[i] = _dump(record)
    respelled = record["action"] in (records[i]["action"] + " ", records[i]["action"].upper())
    return Mutant("action", _join(lines, terminated), refuse=not respelled)


def changed_end(o, rng):
    lines, terminated, records = _records(o)
    i = _pick_event(rng, records, ("end",))
    if i is None:
        return None
    record = dict(records[i])
    op = rng.choice(["abandoned", "flip", "score", "cause", "utter"])
    if op == "abandoned":
        record.update(result="abandoned", score=None, reason="The player abandoned the game.", cause="abandoned")
    elif op == "flip":
        record["result"] = "lost" if record["result"] == "won" else "won"
    elif op == "score":
        record["score"] = (record.get("score") or 0) + 1
    elif op == "cause":
        record["cause"] = "nothing-of-the-sort"
    else:
        record["result"] = "utter loss"
    lines[i] = _dump(record)
    return Mutant(f"end:{op}", _join(lines, terminated))


def _is_seed(value: object) -> bool:
    from storyteller.core.rng import normalize_seed

    try:
        return isinstance(value, str) and len(value) <= 200 and normalize_seed(value) == value
    except ValueError:
        return False


def bad_header(o, rng):
    lines, terminated, records = _records(o)
    header = dict(records[0])
    key, value = rng.choice(
        [
            ("game", 5), ("game", None), ("game", {}), ("game", "poker"), ("game", "x" * 500), ("game", "carddom\x1b"),
            ("game", "adaman" if header["game"] != "adaman" else "cascades"),
            ("seed", 42), ("seed", ""), ("seed", " 1"), ("seed", "x" * 50_000), ("seed", "a\x07b"),
            ("seed", header["seed"] + "0"), ("seed", "[bold red]RED[/]"), ("seed", "a\ud800"),
            ("schema", 1.0), ("schema", 2), ("schema", "1"), ("schema", True), ("schema", None), ("schema", 0),
            ("variants", []), ("variants", {"jokers": 5}), ("variants", {"nope": "x"}), ("variants", None),
            ("variants", {str(k): "x" for k in range(100)}),
            ("storyteller", "LOG"), ("storyteller", None), ("source", "dice"), ("source", 7),
            ("version", 5), ("version", "9" * 300), ("started", 20261201), ("started", "x" * 10_000),
            ("mode", []), ("extra", 1),
        ]
    )
    header[key] = value
    lines[0] = _dump(header) if "\ud800" not in str(value) else json.dumps(header).encode()
    # A game whose cards and dice all came from a real table uses its seed only to vary the
    # story's words: another valid seed is the same game.
    same_game = key == "seed" and records[0]["source"] == "physical" and _is_seed(value)
    return Mutant(f"header:{key}", _join(lines, terminated), refuse=not same_game)


def garbage(o, rng):
    lines, terminated = _lines(o.data)
    blob = rng.choice(
        [
            bytes(rng.randrange(256) for _ in range(rng.randrange(1, 80))),
            b"\xff\xfe\x00{",
            b"\xc3",
            b'{"n": 1, "event": "journal", "text": "\xe9t\xe9"}',
            b"\x00" * 40,
            "\ufeff".encode() + lines[0],
            b"null",
            b"[]",
            b'"text"',
            b"12",
        ]
    )
    i = rng.randrange(len(lines) + 1)
    op = rng.choice(["insert", "replace", "append"])
    if op == "insert":
        lines.insert(i, blob)
    elif op == "replace":
        lines[min(i, len(lines) - 1)] = blob
    else:
        return Mutant("garbage:append", o.data + blob)
    return Mutant(f"garbage:{op}", _join(lines, terminated))


def empty_lines(o, rng):
    lines, terminated = _lines(o.data)
    blank = rng.choice([b"", b" ", b"\t", b"\r"])
    op = rng.choice(["middle", "end", "start"])
    if op == "middle":
        lines.insert(rng.randrange(1, len(lines) + 1), blank)
        return Mutant("empty:middle", _join(lines, terminated))
    if op == "end":
        return Mutant("empty:end", _join(lines, True) + blank + rng.choice([b"\n", b"", b"\n\n"]))
    return Mutant("empty:start", blank + b"\n" + o.data)


def line_endings(o, rng):
    """CRLF line ends (an editor on Windows): JSON allows the whitespace, the game is the same."""
    lines, terminated = _lines(o.data)
    return Mutant("crlf", b"\r\n".join(lines) + (b"\r\n" if terminated else b""), refuse=False)


def harmless(o, rng):
    """Edits of what a record keeps but the game does not hang on: times, the mode, the
    words shown for a move (replay notes those), the question of a journal entry."""
    lines, terminated, records = _records(o)
    i = rng.randrange(len(records))
    record = dict(records[i])
    candidates = [k for k in ("at", "started", "mode", "version", "text", "prompt", "reason") if k in record]
    if not candidates or (record.get("event") == "journal" and candidates == ["text"]):
        return None
    key = rng.choice([k for k in candidates if not (k == "text" and record.get("event") == "journal")] or [None])
    if key is None:
        return None
    record[key] = rng.choice(["edited", "2020-01-01T00:00:00+00:00", "words \x1b[31m red"])
    lines[i] = _dump(record)
    return Mutant(f"harmless:{key}", _join(lines, terminated), refuse=False)


MUTATIONS = [
    wrong_type, out_of_range, bad_reference, unknown_key, missing_key, raw_value, duplicate_key, truncate,
    line_surgery, changed_card, changed_draw_place, changed_roll, changed_action, changed_end, bad_header,
    garbage, empty_lines, line_endings, harmless,
]


# -- running the commands ----------------------------------------------------------------


@dataclass
class Outcome:
    command: str
    code: int
    out: str
    err: str


class Runner:
    def __init__(self, work: Path) -> None:
        self.work = work
        self.cli = CliRunner()
        self.answers = work / "quit.txt"
        self.answers.write_text("quit\n", encoding="utf-8")

    def run(self, *args) -> Outcome:
        r = self.cli.invoke(app, [str(a) for a in args])
        if r.exception is not None and not isinstance(r.exception, SystemExit):
            return Outcome(" ".join(map(str, args[:1])), 99, r.stdout,
                           f"Traceback: {type(r.exception).__name__}: {r.exception}")
        return Outcome(str(args[0]) + (" " + str(args[2]) if args[0] == "export" else ""), r.exit_code, r.stdout,
                       r.stderr)


def check_case(runner: Runner, o: Original, mutant: Mutant, case: int, tally: Counter | None = None) -> list[str]:
    """Run every command on the mutant; the problems found (empty when all is well)."""
    problems: list[str] = []
    home = runner.work / f"home-{case}"
    folder = home / "sessions"
    folder.mkdir(parents=True)
    path = folder / "bad.jsonl"
    path.write_bytes(mutant.data)
    os.environ["STORYTELLER_HOME"] = str(home)
    label = f"case {case} ({o.path.name}, {mutant.kind})"

    def judge(result: Outcome, may_change: bool = False) -> None:
        text = result.out + result.err
        if "Traceback" in text or "unexpected error" in text:
            problems.append(f"{label}: {result.command}: {result.err.strip()[:300]}")
        if result.code != 0 and result.err.count("\n") != 1:
            problems.append(f"{label}: {result.command}: exit {result.code} with {result.err.count(chr(10))} lines "
                            f"on stderr: {result.err[:300]!r}")
        if not may_change and path.read_bytes() != mutant.data:
            problems.append(f"{label}: {result.command} changed the log")
        if tally is not None:
            tally[(result.command, "ok" if result.code == 0 else "refused")] += 1

    try:
        _run_all(runner, o, mutant, path, label, judge, problems)
    except Exception as e:  # the judge's own failure is a finding too
        problems.append(f"{label}: checking failed: {type(e).__name__}: {e}")
    return problems


def _run_all(runner, o, mutant, path, label, judge, problems) -> None:
    readable = None
    for args in (("replay", path), ("export", path, "--story"), ("export", path, "--playthrough")):
        result = runner.run(*args)
        judge(result)
        if result.code == 0 and mutant.refuse:
            problems.append(f"{label}: {result.command} accepted a corrupted log")
        if result.code == 0 and not readable:
            readable = _same_game(o, mutant, path, label, problems)
    result = runner.run("sessions")
    judge(result)
    if result.code != 0:
        problems.append(f"{label}: sessions failed: {result.err.strip()[:200]}")
    elif "bad.jsonl" not in result.out:
        problems.append(f"{label}: sessions does not list the log")
    result = runner.run("resume", "--yes", "--answers", runner.answers)  # the latest unfinished, if any
    judge(result, may_change=True)
    result = runner.run("resume", path, "--yes", "--answers", runner.answers)
    judge(result, may_change=True)
    after = path.read_bytes()
    if after != mutant.data:
        _check_resumed(o, mutant, path, after, label, problems)


def _same_game(o: Original, mutant: Mutant, path: Path, label: str, problems: list[str]) -> bool:
    try:
        log = read(path)
        got = meaning(log)
    except LogError as e:
        problems.append(f"{label}: a command succeeded on a log that does not read: {e}")
        return False
    k = len(log.events)
    if k != len(o.log.events) and not mutant.prefix_ok:
        problems.append(f"{label}: a command succeeded on a log of {k} events where the game has {len(o.log.events)}")
    elif k > len(o.log.events) or got != o.meaning_of_prefix(k):
        problems.append(f"{label}: a command succeeded but read another game")
    return True


def _check_resumed(o: Original, mutant: Mutant, path: Path, after: bytes, label: str, problems: list[str]) -> None:
    """A resume may set a bad last line aside and may append; nothing else."""
    kept = path.with_name(path.name + ".cut-off")
    tail = kept.read_bytes() if kept.exists() else b""
    intact = mutant.data
    if tail:
        cut = tail[:-1] if not mutant.data.endswith(tail) else tail
        if not mutant.data.endswith(cut):
            problems.append(f"{label}: the .cut-off file does not hold the log's last line")
            return
        intact = mutant.data[: len(mutant.data) - len(cut)]
    if not after.startswith(intact.rstrip(b"\n")):
        problems.append(f"{label}: resume changed the log's intact part")
        return
    try:
        log = read(path)
        walk(log)
        before = read_bytes_as_log(intact, path)
    except LogError as e:
        problems.append(f"{label}: after resume the log no longer reads: {e}")
        return
    k = len(before.events)
    if k > len(o.log.events) or meaning(before) != o.meaning_of_prefix(k):
        problems.append(f"{label}: resume went on from another game")
    added = {type(e) for e in log.events[k:]}
    if not added <= {CardDrawn, DiceRolled, End,
                     Question}:  # answering "quit", a session deals what is pending (and asks)
        problems.append(f"{label}: resume added {sorted(t.kind for t in added)}")


def read_bytes_as_log(data: bytes, path: Path) -> GameLog:
    from storyteller.log.file import parse

    return parse(data, path)


def cases(count: int, seed: int, logs: list[Original]):
    rng = random.Random(seed)
    made = tries = 0
    while made < count:
        tries += 1
        # The first rounds take every log and every corruption in turn, then at random.
        o = logs[tries % len(logs)] if tries < len(logs) * 2 else rng.choice(logs)
        mutate = MUTATIONS[tries % len(MUTATIONS)] if tries < len(MUTATIONS) * 3 else rng.choice(MUTATIONS)
        mutant = mutate(o, rng)
        if mutant is None or mutant.data == o.data:
            continue
        yield made, o, mutant
        made += 1


def fuzz(count: int, seed: int, work: Path, tally: Counter | None = None) -> list[str]:
    logs = [original(p) for p in sources(work / "sources")]
    runner = Runner(work)
    saved = os.environ.get("STORYTELLER_HOME")
    problems: list[str] = []
    try:
        for case, o, mutant in cases(count, seed, logs):
            if tally is not None:
                tally[("kind", mutant.kind.split(":")[0])] += 1
            problems += check_case(runner, o, mutant, case, tally)
    finally:
        if saved is None:
            os.environ.pop("STORYTELLER_HOME", None)
        else:
            os.environ["STORYTELLER_HOME"] = saved
    return problems


# -- the suite ---------------------------------------------------------------------------


def test_corrupted_logs_never_hurt(tmp_path):
    problems = fuzz(SUITE_CASES, SUITE_SEED, tmp_path)
    assert not problems, "\n".join(problems[:20])


def test_the_suite_cases_cover_every_kind_of_corruption(tmp_path):
    logs = [original(p) for p in sources(tmp_path / "sources")]
    made = [m for _, _, m in cases(SUITE_CASES, SUITE_SEED, logs)]
    kinds = {m.kind.split(":")[0] for m in made}
    assert kinds == {
        "type", "range", "reference", "unknown-key", "missing-key", "raw", "duplicate-key", "truncate", "lines",
        "card", "draw-place", "roll", "action", "end", "header", "garbage", "empty", "crlf", "harmless",
    }
    raw = {m.kind.split(":")[1].split("+")[0] for m in made if m.kind.startswith("raw:")}
    assert {"deep", "huge-int", "surrogate"} <= raw
    assert sum(m.refuse for m in made) > len(made) * 0.7


def test_the_fuzz_notices_a_reader_that_checks_nothing(tmp_path, monkeypatch):
    """The judge can fail: with the schema switched off, corrupted logs get through."""
    import storyteller.log.file as log_module
    from storyteller.log import events

    def lax_event(record, n, earlier=None):  # whatever the line holds, taken as it is
        kind = record.get("event") if isinstance(record, dict) else None
        cls = next((t for t in events.EVENTS if t.kind == kind), events.JournalEntry)
        fields = {k: record.get(k) for k in cls.REQUIRED + cls.OPTIONAL} if isinstance(record, dict) else {}
        fields = {k: tuple(v) if isinstance(v, list) else v for k, v in fields.items()}
        return cls(record.get("n") if isinstance(record, dict) else n, at=None, **fields)

    def lax_header(cls, record):
        fields = ("game", "variants", "seed", "source", "version", "started", "mode", "from_log", "from_step")
        return cls(**{k: record.get(k) for k in fields}) if isinstance(record, dict) else cls("", {}, "")

    monkeypatch.setattr(log_module, "read_event", lax_event)
    monkeypatch.setattr(events.Header, "read", classmethod(lax_header))
    problems = fuzz(40, SUITE_SEED, tmp_path)
    assert any("accepted a corrupted log" in p for p in problems)
    assert any("Traceback" in p or "unexpected error" in p for p in problems)


def main(argv: list[str]) -> int:
    count = int(argv[0]) if argv else 1000
    seed = int(argv[1]) if len(argv) > 1 else 1
    tally: Counter = Counter()
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        problems = fuzz(count, seed, Path(tmp), tally)
    elapsed = time.perf_counter() - start
    kinds = {k: n for (what, k), n in tally.items() if what == "kind"}
    print(f"fuzz: {count} corrupted logs (seed {seed}) x 6 commands in {elapsed:.1f} s")
    print("  corruptions: " + ", ".join(f"{k} {n}" for k, n in sorted(kinds.items())))
    for command in ("replay", "export --story", "export --playthrough", "sessions", "resume"):
        print(f"  {command}: {tally[(command, 'ok')]} succeeded, {tally[(command, 'refused')]} refused with one line")
    print(f"  problems: {len(problems)}")
    for p in problems[:40]:
        print("   ", p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

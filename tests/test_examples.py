"""examples/ holds real logs and the Markdown and HTML rendered from them; a stale one
fails here.

To refresh them after changing a template, a picture or a prompt:
``STORYTELLER_UPDATE_EXAMPLES=1 python -m pytest tests/test_examples.py``
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from storyteller.telling.export import render
from storyteller.log.events import Correction
from storyteller.log.file import read
from storyteller.log.replay import walk

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
LOGS = sorted(EXAMPLES.glob("*.jsonl"))


def test_there_are_examples_of_each_outcome():
    outcomes = {(read(p).game, read(p).end.result) for p in LOGS}
    assert ("carddom", "won") in outcomes and ("carddom", "lost") in outcomes
    assert {("adaman", "won"), ("adaman", "lost"), ("adaman", "utter loss")} <= outcomes
    assert {("hexaract", "won"), ("hexaract", "lost")} <= outcomes
    assert {("cascades", "won"), ("cascades", "lost")} <= outcomes
    for path in LOGS:
        assert len(read(path).journal()) >= 3, f"{path.name} needs journal entries"
    sources = {(read(p).game, read(p).header.source) for p in LOGS}
    assert {("carddom", "physical cards"), ("hexaract", "physical")} <= sources  # played at a real table
    assert any(isinstance(e, Correction) for p in LOGS for e in read(p).events)


@pytest.mark.parametrize("path", LOGS, ids=lambda p: p.name)
def test_example_logs_replay(path):
    assert walk(read(path)).outcome is not None


@pytest.mark.parametrize("kind", ["story", "playthrough"])
@pytest.mark.parametrize("path", LOGS, ids=lambda p: p.name)
def test_example_markdown_is_current(path, kind):
    target = path.with_name(f"{path.stem}.{kind}.md")
    text = render(read(path), kind)
    if os.environ.get("STORYTELLER_UPDATE_EXAMPLES"):
        target.write_text(text, encoding="utf-8")
    assert target.exists(), f"{target.name} is missing: render it (see this test's docstring)"
    assert target.read_text(encoding="utf-8") == text, f"{target.name} is stale: re-render it"


@pytest.mark.parametrize("path", LOGS, ids=lambda p: p.name)
def test_example_html_is_current(path):
    target = path.with_name(f"{path.stem}.story.html")
    text = render(read(path), "story", format="html")
    if os.environ.get("STORYTELLER_UPDATE_EXAMPLES"):
        target.write_text(text, encoding="utf-8")
    assert target.exists(), f"{target.name} is missing: render it (see this test's docstring)"
    assert target.read_text(encoding="utf-8") == text, f"{target.name} is stale: re-render it"


REPLAY_ELSEWHERE = """
import hashlib, json, sys
from pathlib import Path
from storyteller.telling.export import render
from storyteller.log.events import Correction
from storyteller.log.file import read
from storyteller.log.replay import walk
out = {}
for name in sys.argv[1:]:
    log = read(Path(name))
    w = walk(log)
    out[Path(name).name] = {
        "outcome": [w.outcome.result, w.outcome.score, w.outcome.cause],
        "places": w.state.places(),
        "story": hashlib.sha256(render(log, "story").encode()).hexdigest(),
        "playthrough": hashlib.sha256(render(log, "playthrough").encode()).hexdigest(),
    }
print(json.dumps(out))
"""


def test_every_example_replays_the_same_in_another_process():
    """Same seed, same game, in a process whose string hashing is salted differently:
    nothing may depend on hash(), set order or anything else a process picks."""
    import hashlib
    import json
    import subprocess
    import sys

    env = dict(os.environ, PYTHONHASHSEED="4242")
    r = subprocess.run([sys.executable, "-c", REPLAY_ELSEWHERE, *map(str, LOGS)], capture_output=True, text=True,
                       timeout=120, env=env)
    assert r.returncode == 0, r.stderr
    elsewhere = json.loads(r.stdout)
    for path in LOGS:
        w = walk(read(path))
        here = elsewhere[path.name]
        assert here["outcome"] == [w.outcome.result, w.outcome.score, w.outcome.cause]
        assert here["places"] == w.state.places()
        for kind in ("story", "playthrough"):
            on_disk = path.with_name(f"{path.stem}.{kind}.md").read_text(encoding="utf-8")
            assert here[kind] == hashlib.sha256(on_disk.encode()).hexdigest(), f"{path.name} {kind} differs"

"""prompts/ and templates/ must work from a normal, non-editable install: the wheel carries them."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.timeout(180)
def test_the_wheel_ships_prompts_templates_and_card_data(tmp_path):
    pytest.importorskip("hatchling")
    r = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(tmp_path),
         str(ROOT)],
        capture_output=True, text=True, timeout=170,
    )
    assert r.returncode == 0, r.stderr[-2000:]
    (wheel,) = tmp_path.glob("storyteller-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    for folder in ("prompts", "templates"):
        for path in (ROOT / folder).rglob("*"):
            if path.is_file():
                assert f"storyteller/{path.relative_to(ROOT).as_posix()}" in names
    assert "storyteller/data/decktet.csv" in names and "storyteller/data/piquet.csv" in names
    assert "storyteller/data/context.schema.json" in names
    (entry_points,) = [n for n in names if n.endswith(".dist-info/entry_points.txt")]
    text = zipfile.ZipFile(wheel).read(entry_points).decode()
    assert "[storyteller.games]" in text
    for game in ("carddom", "adaman", "cascades", "hexaract"):
        assert f"{game} = storyteller.games.{game}:GAME" in text  # registered as any package's game would be

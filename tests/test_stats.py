"""Statistics over a folder of saved games with known outcomes, and the whole vault."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import read_events

# Carddom seeds whose --auto random game is won (51, 134) or lost (1, 2, 3); Adaman seed 1
# under --auto greedy is an utter loss. The games are played by --auto and then marked as
# a person's (statistics count a person's games; see the test of --all below).
PLAN = [  # (game, seed, how, started): in the order they were played
    ("carddom", "1", "random", "2026-01-01T10:00:00+00:00"),  # lost
    ("carddom", "51", "random", "2026-01-02T10:00:00+00:00"),  # won
    ("carddom", "134", "random", "2026-01-03T10:00:00+00:00"),  # won
    ("carddom", "2", "random", "2026-01-04T10:00:00+00:00"),  # lost
    ("carddom", "51", "random", "2026-01-05T10:00:00+00:00"),  # won
    ("carddom", "7", "abandon", "2026-01-06T10:00:00+00:00"),  # abandoned, with 4 words
    ("adaman", "1", "greedy", "2026-01-07T10:00:00+00:00"),  # utter loss
    ("carddom", "9", "quit", "2026-01-08T10:00:00+00:00"),  # in progress, not counted as played
]


@pytest.fixture
def played(cli, home, tmp_path) -> Path:
    folder = home / "sessions"
    for i, (game, seed, how, started) in enumerate(PLAN):
        log = folder / f"game-{i}.jsonl"
        if how in ("abandon", "quit"):
            answers = tmp_path / "a.txt"
            answers.write_text("journal: Four words, no more.\nenter 1\n" + how + "\n", encoding="utf-8")
            r = cli("play", game, "--seed", seed, "--answers", answers, "--log", log)
        else:
            r = cli("play", game, "--seed", seed, "--auto", how, "--log", log)
        assert r.code == 0, r.err
        records = read_events(log)
        records[0]["started"] = started
        records[0]["mode"] = "player"
        log.write_text("".join(json.dumps(x) + "\n" for x in records), encoding="utf-8")
    return folder


def test_stats_count_outcomes_streaks_and_words(cli, played):
    r = cli("stats", "--json")
    assert r.code == 0, r.err
    stats = json.loads(r.out)
    carddom = stats["games"]["carddom"]
    counts = (carddom["played"], carddom["won"], carddom["lost"], carddom["abandoned"], carddom["in_progress"])
    assert counts == (6, 3, 2, 1, 1)
    assert carddom["win_rate"] == 0.5
    assert carddom["best_streak"] == 2 and carddom["streak"] == 0  # won, won, lost, won, abandoned
    assert carddom["journal_words"] == 8  # two entries of four words
    assert carddom["last"] == ["lost", "won", "won", "lost", "won", "abandoned"]
    adaman = stats["games"]["adaman"]
    assert (adaman["played"], adaman["utter_loss"], adaman["mean_score"]) == (1, 1, 0)
    assert stats["total"]["played"] == 7


def test_stats_of_one_game_and_its_variants_and_in_the_terminal(cli, played):
    one = json.loads(cli("stats", "adaman", "--json").out)
    assert list(one["games"]) == ["adaman"]
    none = json.loads(cli("stats", "carddom", "--variant", "jokers=taken", "--json").out)
    assert none["total"]["played"] == 0
    shown = cli("stats", "--plain")
    assert shown.code == 0
    assert "carddom" in shown.out and "50.0%" in shown.out and "LWWLWA" in shown.out
    assert cli("stats", "--variant", "jokers=taken").code == 2  # a variant needs its game


def test_stats_read_thousands_of_logs_from_their_records(cli, played):
    from storyteller.log.records import CACHE

    assert cli("stats").code == 0
    assert (played / CACHE).exists()  # the second time, unchanged logs are not read again
    (played / "broken.jsonl").write_text("not a log\n", encoding="utf-8")
    r = cli("stats")
    assert r.code == 0 and "1 log could not be read" in r.out


def test_a_vault_is_written_once_and_then_kept_up_to_date(cli, played, tmp_path):
    from storyteller.log.store import sessions_dir
    from storyteller.telling.vault import export_all

    vault = tmp_path / "vault"
    first = export_all(sessions_dir(), vault, playthroughs=True)
    assert len(first.written) == 2 * len(PLAN) + 1 and not first.kept  # stories, playthroughs, the index
    notes = sorted(p.name for p in vault.glob("*.md"))
    assert "2026-01-02-carddom-51.md" in notes and "2026-01-05-carddom-51.md" in notes
    again = export_all(sessions_dir(), vault, playthroughs=True)
    assert not again.written and not again.updated and len(again.unchanged) == 2 * len(PLAN) + 1
    mine = vault / "2026-01-02-carddom-51.md"
    mine.write_text(mine.read_text(encoding="utf-8") + "\nA note of my own.\n", encoding="utf-8")
    kept = export_all(sessions_dir(), vault, playthroughs=True)
    assert kept.kept == ["2026-01-02-carddom-51.md"] and "A note of my own." in mine.read_text(encoding="utf-8")
    forced = export_all(sessions_dir(), vault, playthroughs=True, force=True)
    assert "2026-01-02-carddom-51.md" in forced.updated and "A note of my own." not in mine.read_text(encoding="utf-8")
    index = (vault / "index.md").read_text(encoding="utf-8")
    assert "| 2026-01-07 | adaman | 1 | utter loss |" in index and "## Statistics" in index
    (vault / "stray.md").write_text("mine\n", encoding="utf-8")
    export_all(sessions_dir(), vault)
    assert (vault / "stray.md").exists()  # nothing is ever deleted


def test_export_all_from_the_command_line(cli, played, tmp_path):
    vault = tmp_path / "notes"
    r = cli("export", "--all", vault, "--format", "obsidian")
    assert r.code == 0, r.err
    assert f"{len(PLAN) + 1} new" in r.out
    assert "[[2026-01-07-adaman-1]]" in (vault / "index.md").read_text(encoding="utf-8")
    assert "0 new" in cli("export", "--all", vault, "--format", "obsidian").out
    for bad in (["--all", vault, "--format", "json"], ["--all", vault, "--story"],
                [played / "game-0.jsonl", "--all", vault]):
        r = cli("export", *bad)
        assert r.code == 2 and r.err.count("\n") == 1
    assert cli("export").code == 2  # neither a log nor --all


def test_stats_count_a_persons_games_and_all_of_them_with_all(cli, played, tmp_path):
    """Games played by a built-in player (--auto, simulate --logs) are not the player's own:
    stats leaves them out unless asked, and the vault's index says what it counts."""
    from storyteller.log.store import sessions_dir
    from storyteller.telling.vault import export_all

    for seed in ("1", "2"):
        assert cli("play", "carddom", "--seed", seed, "--auto", "random",
                   "--log", played / f"auto-{seed}.jsonl").code == 0
    assert cli("simulate", "carddom", "--games", "3", "--policy", "random", "--jobs", "1", "--logs", played).code == 0
    answers = tmp_path / "a.txt"  # and one more of the player's own, from an answers file, with a variant
    answers.write_text("enter 1\nabandon\n", encoding="utf-8")
    assert cli("play", "carddom", "--variant", "jokers=taken", "--answers", answers,
               "--log", played / "mine.jsonl").code == 0
    own = json.loads(cli("stats", "--json").out)
    everyone = json.loads(cli("stats", "--all", "--json").out)
    assert own["total"]["played"] == 8 and own["counted"] == "your own games"
    assert everyone["total"]["played"] == 8 + 5 and everyone["counted"] == "every game"
    shown = cli("stats", "--plain")
    assert "Your own games only" in shown.out and "--all" in shown.out
    assert "All saved games" in cli("stats", "--all", "--plain").out
    index = export_all(sessions_dir(), tmp_path / "vault") and (tmp_path / "vault" / "index.md").read_text(
        encoding="utf-8")
    assert "Your own games" in index and "The 5 games of the built-in players" in index
    assert "| **carddom** | all | 7 | 3 | 2 | 0 | 2 |" in index  # a total per game, then each set of rules
    assert "|  | jokers=taken | 1 | 0 | 0 | 0 | 1 |" in index and "|  | standard rules | 6 | 3 | 2 | 0 | 1 |" in index
    assert "| **adaman** | standard rules | 1 |" in index and "| **all games** |  | 8 |" in index

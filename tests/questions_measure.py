"""How new the journaling questions stay for one player (issue 17's measure): for each game,
seeds 0..29 are played one after another in one fresh sessions folder, from answers files
holding only the decisions (the built-in player's), so every question is asked and
skipped; then the same seeds again in reverse order in another folder. The figures:

- repeated questions within any game (goal: 0);
- in games 6..30, the share of questions this player had not been asked before (goal: 90%
  or more), at each game's default setting;
- the share of the questions that follow a draw that are specific to their card: across
  both orders, that text follows no other card in that role (goal: 80% or more);
- the share of the questions after the game's 8th reveal that name an earlier card of the
  same game (goal: 20% or more);
- questions a game, and the speed of choosing a question over the folder's history.

    python tests/questions_measure.py              # every game
    python tests/questions_measure.py hexaract --games 30

Not part of the suite (it plays 240 games; ``tests/test_questions.py`` checks the same on
a few).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

GAMES = ("carddom", "adaman", "cascades", "hexaract")


def decisions(game: str, seed: str, variants: Sequence[str] = (), policy: str | None = None) -> list[str]:
    """The built-in player's moves for this deal (played without a log), with these
    ``--variant`` values, by ``policy`` (default: greedy where the game has it, else random)."""
    from storyteller import registry
    from storyteller.play.session import AutoPlayer
    from storyteller.core.sources import SeededSource

    rules = registry.rules(game)
    chosen = rules.parse_variants(list(variants))
    state = rules.new_state(chosen)
    source = SeededSource(seed, rules, chosen)
    player = AutoPlayer(rules, seed, policy or ("greedy" if registry.get(game).has_policy else "random"))
    moves = []
    while state.outcome is None:
        request = state.chance()
        if request is not None:
            state.resolve(source.resolve(request))
            continue
        action = player.choose(state, len(moves))
        moves.append(action.key)
        state.apply(action.move)
    return moves


def play_all(game: str, seeds: list[str], folder: Path, moves: dict[str, list[str]]) -> list[list[dict]]:
    """Play each seed from its answers in ``folder`` (the sessions folder), in order; the
    question events of each game."""
    import contextlib
    import io

    from storyteller import registry
    from storyteller.ui.drivers import AnswersDriver
    from storyteller.play.session import Session

    os.environ["STORYTELLER_HOME"] = str(folder)
    sessions = folder / "sessions"
    sessions.mkdir(parents=True, exist_ok=True)
    rules = registry.rules(game)
    out = []
    for seed in seeds:
        path = sessions / f"{game}-{seed}.jsonl"
        driver = AnswersDriver([(i, m) for i, m in enumerate(moves[seed], start=1)], "answers")
        session = Session.new(rules, rules.parse_variants([]), seed, path, mode="answers")
        with contextlib.redirect_stdout(io.StringIO()):
            driver.begin(session, resumed=False)
            session.run(driver)
        session.close()
        out.append([json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()[1:]])
    return out


def figures(game: str, games: int = 30) -> dict:
    from storyteller import registry

    q = registry.get(game).questions
    seeds = [str(s) for s in range(games)]
    moves = {s: decisions(game, s) for s in seeds}
    runs = []
    choosing = 0.0
    with tempfile.TemporaryDirectory() as tmp:
        for name, order in (("forward", seeds), ("reverse", list(reversed(seeds)))):
            runs.append(play_all(game, order, Path(tmp) / name, moves))
        # choosing over a full history: the time history() takes over this folder's 30 logs
        from storyteller.play.questions import history

        start = time.perf_counter()
        history(Path(tmp) / "forward" / "sessions", game)
        choosing = time.perf_counter() - start
    repeated = 0
    fresh = later = 0
    asked_count = 0
    follows: dict[tuple[str, str], set[str]] = defaultdict(set)  # (role, text) -> cards
    after_draw: list[tuple[str, str]] = []
    late = late_naming = 0
    for events_of_games in runs:
        seen_before: set[str] = set()
        for i, events in enumerate(events_of_games):
            by_n = {e["n"]: e for e in events}
            asked = [e for e in events if e["event"] == "question"]
            asked_count += len(asked)
            texts = [e["text"] for e in asked]
            repeated += len(texts) - len(set(texts))
            if i >= 5:
                later += len(texts)
                fresh += sum(1 for t in texts if t not in seen_before)
            seen_before.update(texts)
            reveals = 0
            for e in events:
                if e["event"] == "draw":
                    reveals += 1
                if e["event"] != "question":
                    continue
                about = by_n.get(e.get("about"))
                if about is not None and about["event"] in ("draw", "correction"):
                    role = e["id"].split(":")[0]
                    follows[(role, e["text"])].add(about["card"])
                    after_draw.append((role, e["text"]))
                if reveals > 8:
                    late += 1
                    found = q.question(e["id"])
                    late_naming += bool(found and found.names)
    specific = sum(1 for key in after_draw if len(follows[key]) == 1)
    return {
        "game": game,
        "per_game": asked_count / (2 * games),
        "repeated": repeated,
        "fresh": fresh / later if later else 1.0,
        "specific": specific / len(after_draw) if after_draw else 1.0,
        "naming": late_naming / late if late else 0.0,
        "distinct": len({t for (_, t) in follows} | set()),
        "history_ms": 1000 * choosing,
        "bank": q.bank.size(),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="*", default=list(GAMES))
    parser.add_argument("--games", dest="count", type=int, default=30)
    args = parser.parse_args(argv)
    ok = True
    for game in args.games:
        f = figures(game, args.count)
        good = f["repeated"] == 0 and f["fresh"] >= 0.9 and f["specific"] >= 0.8 and f["naming"] >= 0.2
        ok &= good
        print(f"{game}: {f['per_game']:.1f} questions a game; {f['repeated']} repeated within a game; "
              f"games 6..{args.count}: {100 * f['fresh']:.1f}% new to the player; "
              f"{100 * f['specific']:.1f}% of those after a draw specific to their card; "
              f"{100 * f['naming']:.1f}% after the 8th reveal name an earlier card; "
              f"{f['bank']} questions written; history of 30 logs read in {f['history_ms']:.0f} ms"
              + ("" if good else "  <- short of a goal"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

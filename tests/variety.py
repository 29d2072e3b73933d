"""How much a story repeats itself: each sentence of a story (not the player's journal)
with its card names, numbers and capitalised words replaced by X, counted within the
story. The goal: no such sentence more than 3 times in one story, for every game.

    python tests/variety.py                 # seeds 0..29 of every game, played by --auto greedy
    python tests/variety.py adaman --seeds 60 --show 5

Not part of the suite (``tests/test_questions.py`` holds a quick check of the same measure).
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

GOAL = 3


def sentences(markdown: str) -> list[str]:
    """The story's own sentences: front matter, headings, quotes (the journal), list
    markers and emphasis left out; each sentence normalised (names, numbers and
    capitalised words as X)."""
    body = markdown
    if body.startswith("---\n"):
        body = body[body.index("\n---", 4) + 4:]
    out = []
    for line in body.splitlines():
        line = line.strip()
        if not line or line.startswith(("#", ">", "|", "```", "---")):
            continue
        line = re.sub(r"^[-*] ", "", line)
        line = re.sub(r"[*_`]", "", line)
        for sentence in re.split(r"(?<=[.!?])\s+", line):
            sentence = sentence.strip()
            if len(sentence.split()) < 3:
                continue
            shape = re.sub(r"\b\d+\b", "X", sentence)
            shape = re.sub(r"(?<!^)\b[A-Z][\w'-]*", "X", shape)  # capitalised words (not the first)
            shape = re.sub(r"\bthe X( of X)?\b", "X", shape)
            out.append(shape)
    return out


def worst(markdown: str) -> tuple[int, str]:
    counts = Counter(sentences(markdown))
    if not counts:
        return 0, ""
    shape, n = counts.most_common(1)[0]
    return n, shape


def stories(game: str, seeds: range, policy: str = "greedy") -> list[tuple[str, str]]:
    """(seed, story Markdown) for each seed, played unattended."""
    from storyteller import registry
    from storyteller.telling.export import render
    from storyteller.log.file import read
    from storyteller.play.session import AutoPlayer, Session

    rules = registry.rules(game)
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        for seed in map(str, seeds):
            path = Path(tmp) / f"{game}-{seed}.jsonl"
            session = Session.new(rules, rules.parse_variants([]), seed, path, mode=f"auto {policy}")
            player = AutoPlayer(rules, seed, policy)
            session.advance()
            while not session.over:
                session.decide(player.choose(session.state, session.decisions))
            session.close()
            out.append((seed, render(read(path), "story")))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="*", default=["carddom", "adaman", "cascades", "hexaract"])
    parser.add_argument("--seeds", type=int, default=30)
    parser.add_argument("--show", type=int, default=3, help="how many of the most repeated sentences to show")
    args = parser.parse_args(argv)
    failed = False
    for game in args.games:
        results = stories(game, range(args.seeds))
        per_story = [(worst(text), seed) for seed, text in results]
        top = max(per_story)
        overall = Counter()
        for _, text in results:
            for shape, n in Counter(sentences(text)).items():
                overall[shape] = max(overall[shape], n)
        over = sum(1 for (n, _), _ in per_story if n > GOAL)
        print(f"{game}: the most any story repeats one sentence: {top[0][0]} times (seed {top[1]}); "
              f"{over} of {len(results)} stories over {GOAL}")
        for shape, n in overall.most_common(args.show):
            print(f"    {n}x  {shape}")
        failed |= top[0][0] > GOAL
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

"""How much a campaign's questions remember (issue 28's measure).

A scripted campaign of ten chapters (the four games in turn, seeds 0..9) is played in a
fresh sessions folder, every question answered with a short line; the answers tag two
people, a place and two threads in the first chapter, name them in plain words later, and
close one thread in chapter 5. For the chapters after the first it counts the questions
that recall an earlier chapter (the bridge, a card met before), the player's cast or an
open thread (goal: at least one in four), and the campaign's questions worded twice (goal: 0).

    python tests/campaign_measure.py              # ten chapters
    python tests/campaign_measure.py --chapters 20 --show 10
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import campaigner

GAMES = ("hexaract", "adaman", "carddom", "cascades")
FIRST = {
    1: "[N:Old Nim|charcoal girl] saw it first.",
    2: "The smoke rose from the mill. [Thread:Who burned the mill?|Open]",
    3: "[N:Tam|a boatman] rowed me across at [L:The Salt Gate].",
    5: "Nobody says where my brother went. [Thread:Where is Oren?]",
}


def answer_for(chapter: int):
    def answer(question: str, k: int) -> str:
        if chapter == 1 and k in FIRST:
            return FIRST[k]
        if chapter == 5 and k == 2:
            return "It was Tam's cousin all along. [Thread:Who burned the mill?|Closed]"
        return f"Chapter {chapter}, entry {k}: Old Nim would shrug at this." if k % 4 == 0 else f"Entry {k}."
    return answer


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--chapters", type=int, default=10)
    parser.add_argument("--show", type=int, default=0, help="print this many campaign questions of each kind")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp, campaigner.home(Path(tmp)) as root:
        campaigner.new("measure", root, name="Wren", line="a ferryman's daughter", wants="to find her brother")
        for i in range(args.chapters):
            game = GAMES[i % len(GAMES)]
            code, _, err, _ = campaigner.chapter(game, str(i), "measure", answer_for(i + 1))
            if code:
                sys.exit(f"chapter {i + 1} ({game} {i}): exit {code}: {err}")
        asked: list[tuple[int, str, dict]] = []
        for path in sorted((root / "sessions").glob("*.jsonl")):
            lines = [json.loads(line) for line in path.read_text().splitlines()]
            chapter = lines[0]["campaign"]["chapter"]
            asked += [(chapter, lines[0]["game"], e) for e in lines[1:] if e.get("event") == "question"]
    later = [(ch, g, q) for ch, g, q in asked if ch >= 2]
    remembering = [q for _, _, q in later if q["id"].startswith("campaign:")]
    kinds = Counter(q["id"].split(":")[1] for q in remembering)
    twice = sum(n - 1 for n in Counter(q["text"] for q in remembering).values() if n > 1)
    share = len(remembering) / len(later) if later else 0.0
    print(f"campaign of {args.chapters} chapters: {len(asked)} questions, {len(later)} in chapters 2 and later")
    print(f"remembering: {len(remembering)} of {len(later)} = {share:.0%} (goal: 25% or more); "
          + ", ".join(f"{k} {n}" for k, n in kinds.most_common()))
    by_chapter = Counter(ch for ch, _, q in later if q["id"].startswith("campaign:"))
    totals = Counter(ch for ch, _, _ in later)
    print("by chapter: " + ", ".join(f"{ch} ({GAMES[(ch - 1) % 4]}) {by_chapter[ch]}/{totals[ch]}"
                                     for ch in sorted(totals)))
    print(f"worded twice: {twice} (goal: 0)")
    if args.show:
        for kind in kinds:
            print(f"\n{kind}:")
            for q in [q for q in remembering if q["id"].split(":")[1] == kind][:args.show]:
                print(f"  {q['text']}")


if __name__ == "__main__":
    main()

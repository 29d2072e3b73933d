"""What the story's pictures show (issue 29's scenes): for every example and seeded games of
each game played by the built-in player, the pictures the HTML story draws are read:

- marked: scene pictures that mark what just changed (an element of class ``st-now``: the
  card just revealed, taken, bought or placed, or the roll just made) (goal: all);
- ghosts: scenes whose turn removed cards from the table (Adaman: the play the picture is
  drawn after, its personality controlled and the resources it spent; Hexaract: the cards
  that left the journey since the picture before), and of those, the ones that leave a
  ghost (``st-ghost``) naming every card removed (goal: all);
- named: scenes whose title names what changed (the card the scene's step turned up,
  bought, placed or reached, or a card that came or went since the picture before)
  (goal: all);
- walks: Carddom pictures whose path passes every move of the walk, returns included, to
  where you are (goal: all);
- covers repeated: stories whose cover has the title of its last scene, or shows the same
  cards (goal: 0).

    python tests/scenes_measure.py                      # the examples and seeds 0..19 of each game
    python tests/scenes_measure.py adaman --games 5 --show 3

Not part of the suite (it plays 80 games); tests/test_scenes.py holds the same goals on the
examples and a few seeds.
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

GAMES = ("carddom", "adaman", "cascades", "hexaract")
ROOT = Path(__file__).resolve().parents[1]
SVG = "{http://www.w3.org/2000/svg}"


def play(game: str, seed: str, path: Path):
    """A seeded game played to its end by the built-in player, logged at ``path``."""
    from storyteller import registry
    from storyteller.log.file import read
    from storyteller.play.session import AutoPlayer, Session

    rules = registry.rules(game)
    session = Session.new(rules, rules.parse_variants([]), seed, path)
    player = AutoPlayer(rules, seed, "greedy" if registry.get(game).has_policy else "random")
    session.advance()
    while not session.over:
        session.decide(player.choose(session.state, session.decisions))
    session.close()
    return read(path)


def drawn(log):
    """(the replay, its pictures as the HTML story has them, the moments)."""
    from storyteller import registry
    from storyteller.telling.context import make
    from storyteller.telling.export import pictures

    _, w = make(log)
    module = registry.get(log.game).pictures
    return w, pictures(registry.get(log.game), w), module.moments(w.steps)


# -- reading a picture ------------------------------------------------------------------------


def classes(el: ET.Element) -> list[str]:
    return el.get("class", "").split()


def has_class(root: ET.Element, name: str) -> bool:
    return any(name in classes(el) for el in root.iter())


def ghost_words(root: ET.Element) -> str:
    """Every word written inside the picture's ghosts."""
    out = []
    for g in root.iter(f"{SVG}g"):
        if "st-ghost" in classes(g):
            out += [t.text or "" for t in g.iter(f"{SVG}text")]
    return " ".join(out)


def card_names(root: ET.Element) -> list[str]:
    """The face-up cards' names, in the order drawn."""
    out = []
    for g in root.iter(f"{SVG}g"):
        if "st-card-group" in classes(g) and "st-face-down" not in classes(g):
            title = g.find(f"{SVG}title")  # the card's name (the lines on its face are fitted to it)
            out.append(title.text or "" if title is not None else
                       " ".join(t.text or "" for t in g.iter(f"{SVG}text") if "st-name" in classes(t)))
    return out


def name_of(card_id: str) -> str:
    from storyteller.play.table import card_name

    name = card_name(card_id)
    return name[4:] if name.lower().startswith("the ") else name


def said(card_or_words: str) -> str:
    """A card's name without its article, or words as they are."""
    from storyteller.core.cards import all_cards

    return name_of(card_or_words) if card_or_words in all_cards() else card_or_words


# -- what changed at each moment (read from the steps, not from the pictures) -----------------


def standing(steps, lo: int, hi: int):
    return [s for s in steps[lo + 1:hi + 1] if s.stands]


def removed(game: str, steps, prev: int, at: int) -> list[str]:
    """The cards the steps after ``prev`` up to ``at`` took off the table for good."""
    from storyteller.games.adaman.rules import PERSON, Control

    out: list[str] = []
    if game == "adaman":  # the play the picture is drawn after
        s = steps[at] if at >= 0 else None
        if s is not None and s.stands and isinstance(s.move, Control):
            out += ([s.move.target] if PERSON[s.move.target] else []) + list(s.move.paid)
        return out
    if game == "hexaract":
        if prev < 0 or at < 0:
            return []
        before = [c for c in steps[prev].after.journey if c]
        after = {c for c in steps[at].after.journey if c}
        return [c for c in before if c not in after]
    return []


def focal(game: str, steps, prev: int, at: int) -> list[str]:
    """The cards a scene's title should name (any one of them): what its step did (for
    Carddom, the place reached, in the story's words)."""
    from storyteller.games.adaman.rules import Control
    from storyteller.games.cascades.rules import Play

    if at < 0:
        return []
    step = steps[at]
    if game == "adaman":
        if isinstance(step.move, Control):
            return [step.move.target]
        return [step.drawn.card] if step.drawn is not None else []
    if game == "cascades":
        if isinstance(step.move, Play):
            return [step.move.card]
        return [step.drawn.card] if step.drawn is not None else []
    if game == "carddom":  # the place reached, as the story names it ("a broad mountain")
        if step.drawn is not None:
            from storyteller.games.carddom import GAME

            card = step.drawn.card
            return ["Joker"] if card.startswith("J") and "oker" in name_of(card) else [
                GAME.teller.thing(card, "location")]
        return []
    if game == "hexaract":
        if prev < 0:
            return []
        before = {c for c in steps[prev].after.journey if c}
        after = {c for c in step.after.journey if c}
        return sorted(before ^ after)
    return []


def walk_of(steps, at: int) -> list[int]:
    from storyteller.games.carddom.rules import Enter, MoveTo

    return [s.move.stack for s in steps[:at + 1] if s.stands and isinstance(s.move, (Enter, MoveTo))]


def path_points(root: ET.Element) -> int:
    """How many places the drawn walk passes (the longest path drawn)."""
    best = 0
    for el in root.iter(f"{SVG}path"):
        if "st-path" in classes(el) and "st-to-lord" not in classes(el):
            best = max(best, len(re.findall(r"[ML]", el.get("d", ""))))
    return best


# -- the figures ------------------------------------------------------------------------------


def measure(game: str, logs) -> dict:
    n = Counter()
    worst: list[str] = []
    for name, log in logs:
        w, pics, moments = drawn(log)
        steps = w.steps
        prev = -1
        for k, (at, pic) in enumerate(zip(moments, pics["scenes"])):
            root = ET.fromstring(pic["svg"])
            n["scenes"] += 1
            if has_class(root, "st-now"):
                n["marked"] += 1
            gone = removed(game, steps, prev, at) if k else []
            if gone:
                n["removals"] += 1
                words = ghost_words(root)
                if all(name_of(c).lower() in words.lower() for c in gone):
                    n["ghosted"] += 1
                else:
                    worst.append(f"{name} scene {k + 1}: no ghost of {', '.join(map(name_of, gone))}")
            names = focal(game, steps, prev, at)
            if names:
                n["to name"] += 1
                if any(said(c).lower() in pic["title"].lower() for c in names):
                    n["named"] += 1
                else:
                    worst.append(f"{name} scene {k + 1}: {pic['title']!r} names none of "
                                 f"{', '.join(map(said, names))}")
            if game == "carddom":
                walk = walk_of(steps, at)
                if walk:
                    n["walks"] += 1
                    if len(walk) == 1 or path_points(root) >= len(walk):  # (one place: nothing to join)
                        n["walked"] += 1
                    elif len(set(walk)) < len(walk):
                        worst.append(f"{name} scene {k + 1}: the walk {walk} is drawn through "
                                     f"{path_points(root)} places")
            prev = at
        n["stories"] += 1
        cover, last = pics["final"], pics["scenes"][-1] if pics["scenes"] else None
        if last is not None:
            shown = [sorted(card_names(ET.fromstring(p["svg"]))) for p in (cover, last)]
            same_cards = shown[0] == shown[1]
            if cover["title"] == last["title"] or (same_cards and cover["desc"] == last["desc"]):
                n["covers repeated"] += 1
                worst.append(f"{name}: the cover repeats the last scene ({cover['title']!r})")
    return {"counts": n, "worst": worst}


def main(argv: list[str] | None = None) -> int:
    from storyteller.log.file import read

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("games", nargs="*", default=list(GAMES))
    ap.add_argument("--games", dest="count", type=int, default=20, help="seeds 0..N-1 of each game")
    ap.add_argument("--show", type=int, default=0, help="print this many failures per game")
    args = ap.parse_args(argv)
    total = Counter()
    with tempfile.TemporaryDirectory() as tmp:
        for game in args.games:
            logs = [(p.name, read(p)) for p in sorted((ROOT / "examples").glob(f"{game}-*.jsonl"))]
            logs += [(f"seed {s}", play(game, str(s), Path(tmp) / f"{game}-{s}.jsonl")) for s in range(args.count)]
            got = measure(game, logs)
            n = got["counts"]
            total.update(n)
            print(f"{game:9} stories {n['stories']:3}  scenes {n['scenes']:4}  marked {n['marked']:4}  "
                  f"ghosts {n['ghosted']}/{n['removals']}  named {n['named']}/{n['to name']}"
                  + (f"  walks {n['walked']}/{n['walks']}" if game == "carddom" else "")
                  + f"  covers repeated {n['covers repeated']}")
            for line in got["worst"][:args.show]:
                print("   ", line)
    print(f"{'all':9} stories {total['stories']:3}  scenes {total['scenes']:4}  marked {total['marked']:4}  "
          f"ghosts {total['ghosted']}/{total['removals']}  named {total['named']}/{total['to name']}  "
          f"walks {total['walked']}/{total['walks']}  covers repeated {total['covers repeated']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

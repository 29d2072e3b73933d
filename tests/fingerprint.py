"""Fingerprints of the rules: random legal play over many seeds, for every built-in game
and every variant, hashed. A fingerprint covers every legal action's key and words at
every decision, every draw's options and card, every roll, and every outcome and cause,
so two versions of storyteller with the same fingerprints play every one of these games
alike, move for move. Not part of the suite (it takes a minute); a refactor quotes its
figures before and after:

    python tests/fingerprint.py            # 300 seeds a game and variant
    python tests/fingerprint.py --seeds 30
"""

from __future__ import annotations

import argparse
import hashlib
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from helpers import variant_sets

from storyteller import registry
from storyteller.core.engine import Draw
from storyteller.core.rng import Stream
from storyteller.play.session import SeededSource

BUILT_IN = ("carddom", "adaman", "cascades", "hexaract")


def play(game, variants, seed: str, h) -> None:
    state = game.new_state(variants)
    source = SeededSource(seed, game, variants)
    chooser = Stream(seed, "fingerprint")
    while state.outcome is None:
        request = state.chance()
        if request is not None:
            outcome = source.resolve(request)
            if isinstance(request, Draw):
                h.update(f"D{request.pile}/{request.deal}/{request.slot}>{request.to}:{','.join(sorted(request.options))}={outcome}\n".encode())
            else:
                h.update(f"R{request.index}/{request.count}/{request.sides}>{request.to}={outcome}\n".encode())
            state.resolve(outcome)
            continue
        legal = state.legal_actions()
        h.update(("A" + "|".join(f"{a.key}={a.text}" for a in legal) + "\n").encode())
        action = chooser.choice(legal)
        state.apply(action.move)
    o = state.outcome
    h.update(f"E{o.result}/{o.score}/{o.cause}/{o.reason}\n".encode())


def fingerprints(seeds: int) -> dict[str, str]:
    out = {}
    for name in BUILT_IN:
        game = registry.rules(name)
        for variants in variant_sets(game):
            h = hashlib.sha256()
            for seed in range(seeds):
                play(game, variants, str(seed), h)
            out[f"{name} {game.describe_variants(variants)}"] = h.hexdigest()[:16]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=300)
    args = parser.parse_args()
    for key, digest in fingerprints(args.seeds).items():
        print(f"{digest}  {key}")


if __name__ == "__main__":
    main()

"""How well the story keeps what the player wrote, and how it reads (issue 27's measure).

For each game, seeds 0..29 are played by the built-in player's moves while a player
answers every journaling question with a short line (the last word too), each game in a
fresh sessions folder; then each story is exported in Markdown and HTML and read:

- answers with their question: every answer appears in both, right after the words of the
  question it answers (goal: 100%);
- answers in place: in the HTML, every answer stands after the first paragraph that tells
  the step its question was about, and no paragraph before it tells a card or roll that
  came after it (goal: 100%). Paragraphs say which steps they tell (``data-steps``), and
  entries which step they are about (``data-about``);
- facts: harm above its maximum, more than six pieces, a number and a noun that disagree
  ("1 cards", "3 pass"), a bare score with no word of what it means (goal: 0);
- beats: sentences of narration with card names, place words and numbers masked; a frame
  told more than twice in one story is a repeated beat, and a card's meaning told twice is
  one too (goal: 0);
- callbacks: questions that name an earlier card, with the names masked: a frame asked
  twice in one game (goal: 0).

    python tests/story_measure.py                 # every game, seeds 0..29
    python tests/story_measure.py adaman --games 5 --show 3   # and print the worst cases

Not part of the suite (it plays 120 games); each game's ``tests/test_story_GAME.py`` holds
its goals on three seeds.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import re
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

GAMES = ("carddom", "adaman", "cascades", "hexaract")
ROOT = Path(__file__).resolve().parents[1]


# -- playing like a person who answers everything ------------------------------------------

def decisions(game: str, seed: str) -> list[str]:
    from tests.questions_measure import decisions as moves

    return moves(game, seed)


def play(game: str, seed: str, folder: Path) -> Path:
    """One game from the built-in player's moves, every question answered with a short line."""
    from storyteller import registry
    from storyteller.play.session import Session
    from storyteller.ui.drivers import AnswersDriver

    class Answering(AnswersDriver):
        written = 0

        def _answer(self, session, asked) -> None:
            if asked is None:
                return
            Answering.written += 1
            assert self.journal is not None
            self.journal.answer(session, f"Answer {Answering.written}, in a few plain words.", asked)

    os.environ["STORYTELLER_HOME"] = str(folder)
    path = folder / f"{game}-{seed}.jsonl"
    rules = registry.rules(game)
    driver = Answering([(i, m) for i, m in enumerate(decisions(game, seed), start=1)], "answers")
    session = Session.new(rules, rules.parse_variants([]), seed, path, mode="answers")
    with contextlib.redirect_stdout(io.StringIO()):
        driver.begin(session, resumed=False)
        session.run(driver)
    session.close()
    return path


def export(path: Path, fmt: str) -> str:
    from storyteller.log.file import read
    from storyteller.telling.export import render

    return render(read(path), "story", format=fmt)


# -- reading the HTML in order ---------------------------------------------------------------

class Order(HTMLParser):
    """The story's paragraphs in order: ("told", steps) for narration that says which steps
    it tells, ("entry", n, about) for a journal entry."""

    def __init__(self) -> None:
        super().__init__()
        self.items: list[tuple] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if a.get("data-steps"):
            self.items.append(("told", [int(n) for n in a["data-steps"].split()]))
        if "st-entry" in (a.get("class") or "").split():
            about = a.get("data-about")
            self.items.append(("entry", int(a["data-n"]), int(about) if about else None))
        elif "st-oracle" in (a.get("class") or "").split() and a.get("data-n"):
            self.items.append(("told", [int(a["data-n"])]))


@dataclass
class Figures:
    answers: int = 0
    with_question: int = 0
    placed: int = 0  # answers whose place could be checked
    in_place: int = 0
    unmarked: int = 0  # stories whose HTML says nothing of which steps a paragraph tells
    facts: int = 0
    beats: int = 0
    callbacks: int = 0
    asked_callbacks: int = 0
    cases: dict[str, list[str]] = field(
        default_factory=lambda: {k: [] for k in ("question", "place", "facts", "beats", "callbacks")})


def unescape_md(text: str) -> str:
    return re.sub(r"\\(.)", r"\1", text)


def masker(game: str):
    """A function masking card names, place words and numbers in a sentence."""
    from storyteller.core import decktet

    words: set[str] = set()
    for cid in decktet.by_id():
        words.update({decktet.name(cid), decktet.Name(cid), decktet.name(cid).removeprefix("the ")})
    prompts = json.loads((ROOT / "prompts" / f"{game}.json").read_text(encoding="utf-8"))
    if game == "carddom":
        for key in ("roles", "goals", "location", "people", "values", "gift", "overlord_kind", "motivation"):
            words.update(prompts[key].values())
        for table in prompts["scale"].values():
            words.update(table.values())
        words.update(prompts["jokers"])
        for rank in ("7", "8", "9", "10", "Jack", "Queen", "King", "Ace"):
            for suit in ("Clovers", "Hearts", "Spades", "Diamonds", "Clubs"):
                words.add(f"{rank} of {suit}")
    for suit in ("Moons", "Suns", "Waves", "Leaves", "Wyrms", "Knots"):
        words.add(suit)
    pattern = re.compile("|".join(re.escape(w) for w in sorted((w for w in words if w), key=len, reverse=True)))
    numbers = re.compile(r"\b(\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\b", re.I)

    def mask(sentence: str) -> str:
        return numbers.sub("#", pattern.sub("X", sentence)).strip()

    return mask


PLURAL_NOUNS = ("card", "piece", "pass", "token", "personality", "day", "stack", "harm")
SINGULAR = re.compile(r"\b(?:1|one) (cards|pieces|passes|tokens|personalities|days|stacks)\b", re.I)
PLURAL = re.compile(r"\b(?:0|[2-9]|\d\d+|two|three|four|five|six|seven|eight|nine|ten) "
                    r"(card|piece|pass|token|personality|day|stack)\b(?![-'])", re.I)
HARM = re.compile(r"(\d+) (?:harm )?of (\d+)(?: harm)?|[Hh]arm[^.\n]*?: (\d+) of (\d+)")
PIECES = re.compile(r"(\d+) pieces|[Pp]ieces[^.:\n]*: (\d+)")
BARE_SCORE = re.compile(r"\*\*Score: -?\d+\*\* \((?:won|lost|utter loss|abandoned)\)\.")


def narration(md: str) -> list[str]:
    """The sentences of narration in a Markdown story: no front matter, headings, quotes
    (the player's words), question lines, or list items of card meanings."""
    body = md.split("\n---\n", 1)[1] if md.startswith("---\n") else md
    out = []
    for para in body.split("\n\n"):
        para = para.strip()
        if not para or para.startswith(("#", ">", "*", "![", "- *")):
            continue
        out.extend(s.strip() for s in re.split(r"(?<=[.!?])\s+", unescape_md(para)) if s.strip())
    return out


def read(game: str, path: Path, fig: Figures, mask) -> None:
    from storyteller.registry import get

    events = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()[1:]]
    by_n = {e["n"]: e for e in events}
    md, page = export(path, "markdown"), export(path, "html")
    flat_md = unescape_md(md)
    import html as htmllib

    flat_page = htmllib.unescape(re.sub(r"<[^>]+>", "", page))
    entries = [e for e in events if e["event"] == "journal"]
    where = f"{game} {path.stem}"
    for e in entries:
        fig.answers += 1
        ok = True
        for text in (flat_md, flat_page):
            a = text.find(e["text"])
            q = text.rfind(e["prompt"], 0, a) if e.get("prompt") and a >= 0 else -1
            if a < 0 or (e.get("prompt") and (q < 0 or a - q > len(e["prompt"]) + 40)):
                ok = False
        fig.with_question += ok
        if not ok:
            fig.cases["question"].append(f"{where}: {e['text']!r} (asked: {e.get('prompt')!r})")
    # order, from the HTML
    parser = Order()
    parser.feed(page)
    if not any(item[0] == "told" for item in parser.items):
        fig.unmarked += 1
    revealed = {e["n"] for e in events if e["event"] in ("draw", "roll", "correction")}
    seen: set[int] = set()
    ahead: list[int] = []  # revealed steps told so far
    for item in parser.items:
        if item[0] == "told":
            seen.update(item[1])
            ahead.extend(n for n in item[1] if n in revealed)
            continue
        _, n, about = item
        if about is None or about not in by_n:
            continue
        fig.placed += 1
        limit = max(n, about)
        early = [m for m in ahead if m > limit]
        if about in seen and not early:
            fig.in_place += 1
        else:
            entry = by_n[n]
            why = "its step is not told before it" if about not in seen else f"told ahead of it: steps {early[:3]}"
            fig.cases["place"].append(f"{where}: {entry['text']!r} about step {about} ({by_n[about]['event']}): {why}")
    # facts
    for m in HARM.finditer(flat_md):
        a, b = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
        if int(a) > int(b):
            fig.facts += 1
            fig.cases["facts"].append(f"{where}: {m.group(0)!r}")
    for m in PIECES.finditer(flat_md):
        if int(m.group(1) or m.group(2)) > 6:
            fig.facts += 1
            fig.cases["facts"].append(f"{where}: {m.group(0)!r}")
    for rx in (SINGULAR, PLURAL):
        for m in rx.finditer("\n".join(narration(md))):
            fig.facts += 1
            fig.cases["facts"].append(f"{where}: {m.group(0)!r}")
    for m in BARE_SCORE.finditer(md):
        fig.facts += 1
        fig.cases["facts"].append(f"{where}: a bare score, {m.group(0)!r}")
    # beats
    sentences = narration(md)
    frames = Counter(mask(s) for s in sentences if len(s.split()) > 3)
    for frame, k in frames.items():
        if k > 2:
            fig.beats += 1
            fig.cases["beats"].append(f"{where}: {k}x {frame!r}")
    from storyteller.telling.meanings import meaning

    if game != "carddom":
        from storyteller.core import decktet

        for cid in decktet.by_id():
            words = meaning(cid)
            if words and flat_md.count(words) > 1:
                fig.beats += 1
                fig.cases["beats"].append(f"{where}: {decktet.name(cid)}'s meaning told {flat_md.count(words)}x")
    # callbacks
    bank = get(game).questions
    frames_asked: Counter[str] = Counter()
    for e in events:
        if e["event"] != "question":
            continue
        found = bank.question(e["id"])
        if found is not None and found.names:
            fig.asked_callbacks += 1
            frames_asked[mask(e["text"])] += 1
    for frame, k in frames_asked.items():
        if k > 1:
            fig.callbacks += 1
            fig.cases["callbacks"].append(f"{where}: {k}x {frame!r}")


def measure(game: str, games: int) -> Figures:
    fig = Figures()
    mask = masker(game)
    with tempfile.TemporaryDirectory() as tmp:
        for seed in range(games):
            folder = Path(tmp) / str(seed)
            folder.mkdir()
            read(game, play(game, str(seed), folder), fig, mask)
    return fig


def pct(a: int, b: int) -> str:
    return f"{100 * a / b:.1f}%" if b else "-"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("game", nargs="*", default=list(GAMES))
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--show", type=int, default=0, help="print this many cases of each fault")
    args = parser.parse_args()
    print("| game | answers | with their question | in place | facts wrong | repeated beats | callback frames twice |")
    print("|---|---|---|---|---|---|---|")
    shown = []
    for game in args.game:
        f = measure(game, args.games)
        place = pct(f.in_place, f.placed) + (f" ({f.unmarked} stories unmarked)" if f.unmarked else "")
        print(f"| {game} | {f.answers} | {pct(f.with_question, f.answers)} | {place} | {f.facts} | {f.beats} | "
              f"{f.callbacks} of {f.asked_callbacks} |", flush=True)
        if args.show:
            for kind, cases in f.cases.items():
                shown.extend(f"  {kind}: {c}" for c in cases[:args.show])
    if shown:
        print("\n".join(shown))


if __name__ == "__main__":
    main()

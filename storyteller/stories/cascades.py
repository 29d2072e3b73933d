"""Cascades told as water finding its way down three falls: the forced first card is the
source, tier 1 is the first fall, tier 2 the second, tier 3 the third, and the reserves
are hidden pools the water uncovers as it circles round, pass after pass.

Journaling questions come with the cards worth one: the source, and each reserve card
turned up (a pool opening, or a card surfacing in it). The dozens of cards turned onto
the waste pass quietly; the generic journal entry is always in the menu.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from storyteller import decktet
from storyteller.games.cascades import RESERVE_NAMES, RESERVE_SIZE, TIERS
from storyteller.log import GameLog
from storyteller.narrative import pick, prompts
from storyteller.narrative import question as ask

GAME = "cascades"
PARAGRAPH = 4  # plays told in one paragraph at most


def _p() -> dict[str, Any]:
    return prompts(GAME)


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _reserve(event: dict[str, Any]) -> tuple[int, bool] | None:
    """(reserve 1-3, whether this card opens it) for a reserve draw, else None."""
    to = event["to"]
    if not to.startswith("reserve"):
        return None
    k = int(to.split()[1])
    return k, event["slot"] == (k - 1) * RESERVE_SIZE


def draw_text(event: dict[str, Any]) -> str:
    label = decktet.label(event["card"])
    if event["to"] == "tier 1":
        return f"Turned three; the third, {label}, starts tier 1."
    found = _reserve(event)
    if found:
        k, opens = found
        if opens:
            return f"The {RESERVE_NAMES[k]} reserve opened: {label} lies on top."
        return f"Turned up {label} in the {RESERVE_NAMES[k]} reserve."
    return f"Turned {label} onto the waste."


def meaning(event: dict[str, Any], seed: str, variants: dict[str, str] | None = None) -> str:
    text = decktet.meaning(event["card"])
    if event["to"] == "tier 1":
        return f"Where the water rises: {text}"
    if _reserve(event):
        return f"In a hidden pool: {text}"
    return text


def topic(event: dict[str, Any]) -> str | None:
    if event["to"] == "tier 1":
        return "source"
    found = _reserve(event)
    if found:
        return "opening" if found[1] else "reserve"
    return None


def question(event: dict[str, Any], seed: str) -> str | None:
    """The source and every reserve card raise a question; waste cards pass quietly."""
    t = topic(event)
    return ask(GAME, t, seed, event["n"]) if t else None


def _parse_play(key: str) -> tuple[str, int | None, int] | None:
    """``play <id> from waste to tier <t>`` -> (id, None, t); from reserve k -> (id, k, t)."""
    parts = key.split()
    if not parts or parts[0] != "play":
        return None
    where = parts[parts.index("from") + 1 : parts.index("to")]
    k = int(where[1]) if where[0] == "reserve" else None
    return parts[1], k, int(parts[-1])


ORDINALS = ("first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth thirteenth "
            "fourteenth fifteenth sixteenth seventeenth eighteenth nineteenth twentieth").split()


def ordinal(n: int) -> str:
    """``second``, ``twelfth``; past twenty, ``21st``, ``22nd``, ``23rd``, ``24th``."""
    if 1 <= n <= len(ORDINALS):
        return ORDINALS[n - 1]
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def story(log: GameLog, steps: list, outcome) -> dict[str, Any]:
    seed = log.seed
    p = _p()
    falls = p["falls"]
    acts: list[dict[str, Any]] = []
    opening_journal: list[str] = []
    epilogue: list[str] = []
    source: dict[str, str] | None = None
    started = False  # a decision has been made
    ended = False
    pass_seen = 1
    idle = 0  # passes gone round with nothing told since
    told_since_pass = True
    groups: list[dict[str, Any]] = [{"no": 1, "ns": []}]
    tiers: list[list[str]] = [[] for _ in range(TIERS)]
    told: set[str] = set()  # cards whose meaning the tale has given

    def say(text: str, brk: bool = False) -> None:
        nonlocal told_since_pass
        told_since_pass = True
        acts.append({"kind": "text", "text": text, "break": brk})

    for step in steps:
        e = step.event
        kind = e["event"]
        n = e["n"]
        shown = max(groups[-1]["no"], step.state.pass_no)
        if shown > groups[-1]["no"]:
            groups.append({"no": shown, "ns": []})
        groups[-1]["ns"].append(n)
        if kind == "journal":
            if ended:
                epilogue.append(e["text"])
            elif not started:
                opening_journal.append(e["text"])
            else:
                acts.append({"kind": "journal", "text": e["text"]})
            continue
        if kind == "end":
            ended = True
            continue
        if step.undone:
            continue
        now = max(pass_seen, step.state.pass_no)
        if now > pass_seen and started:
            if not told_since_pass and acts and acts[-1].get("pass"):
                idle += now - pass_seen
                acts[-1]["text"] = p["idle"]["many"].format(count=idle + 1)
            else:
                idle = 0
                say(pick(p["passes"], seed, "pass", n).format(n=now, nth=ordinal(now)), brk=True)
                acts[-1]["pass"] = True
            told_since_pass = False
        pass_seen = now
        if kind == "draw":
            card_id = e["card"]
            if e["to"] == "tier 1":
                source = decktet.info(card_id)
                tiers[0].append(card_id)
                continue
            found = _reserve(e)
            if not found:
                continue
            k, opens = found
            pool = p["pools"][str(k)]
            words = pick(p["opened" if opens else "surfaced"], seed, "pool", n)
            c = decktet.info(card_id)
            told.add(card_id)
            say(words.format(pool=pool, pool_cap=_cap(pool), **c) + f" {c['meaning']}", brk=opens)
        elif kind == "decision":
            started = True
            play = _parse_play(e["action"])
            if play is None:
                continue  # a turn: the passes are told above
            card_id, k, t = play
            fall = falls[t - 1]
            c = decktet.info(card_id)
            if not tiers[t - 1]:
                words = pick(p["begins"], seed, "begins", n)
            elif k is not None:
                words = pick(p["from_pool"], seed, "pool", n)
            else:
                words = pick(p["plays"], seed, "play", n)
            tiers[t - 1].append(card_id)
            text = words.format(fall=fall, fall_cap=_cap(fall), pool=p["pools"][str(k or 1)], **c)
            if card_id not in told:  # a card met in a pool was told of when it surfaced
                text += f" {c['meaning']}"
                told.add(card_id)
            say(text, brk=not tiers[t - 1][:-1])

    final = steps[-1].state if steps else None
    total = final.deck_size if final is not None else 0
    placed = final.placed if final is not None else 0
    result = outcome.result if outcome else "unfinished"
    left: list[str] = []
    if final is not None:
        places = final.places()
        left = [c for where, cards in places.items() if not where.startswith("tier") for c in cards]
    return {
        "source": source,
        "source_words": pick(p["source"], seed, "source").format(**source) if source else "",
        "opening_journal": opening_journal,
        "acts": _paragraphs(acts),
        "falls": [_fall(final, t, falls[t - 1]) for t in range(1, TIERS + 1)] if final is not None else [],
        "placed": placed,
        "left": [decktet.info(c) for c in left],
        "unseen": total - placed - len(left),
        "total": total,
        "passes": pass_seen,
        "outcome": result,
        "ending": p["endings"].get(result, ""),
        "epilogue": epilogue,
        "pass_groups": [g for g in groups if g["ns"]],
    }


def _fall(state, tier: int, name: str) -> dict[str, Any]:
    cards = list(state.tiers[tier - 1])
    size = len(cards) + len(state.lacks(tier))
    suits = Counter(s for c in cards for s in decktet.get(c).suits)
    main = max(decktet.SUITS, key=lambda s: (suits[s], -decktet.SUITS.index(s))) if cards else None
    return {
        "no": tier,
        "name": name,
        "Name": _cap(name),
        "cards": [decktet.info(c) for c in cards],
        "count": len(cards),
        "size": size,
        "full": len(cards) == size,
        "suit": main,
        "theme": decktet.theme(main) if main else "",
    }


def _paragraphs(acts: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Consecutive lines of the tale joined into paragraphs; a journal entry, a new pass or
    a pool opening starts a new one, and no paragraph tells more than PARAGRAPH events."""
    out: list[dict[str, Any]] = []
    size = 0
    for a in acts:
        joinable = a["kind"] == "text" and not a["break"] and out and out[-1]["kind"] == "text"
        if joinable and size < PARAGRAPH:
            out[-1] = {"kind": "text", "text": out[-1]["text"] + " " + a["text"]}
            size += 1
        else:
            out.append({"kind": a["kind"], "text": a["text"]})
            size = 1
    return out


def title(story: dict[str, Any]) -> str:
    return _p()["titles"].get(story["outcome"], _p()["titles"]["unfinished"])

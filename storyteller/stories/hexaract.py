"""Hexaract told as Jacynth's adventurer on the road: the minions thwarted or suffered,
the places surveyed, the events turned or endured, the six pieces of the artifact (the
suit tokens) gathered and lost, the harm taken, and how the journey ended."""

from __future__ import annotations

from typing import Any

from storyteller import decktet
from storyteller.games.hexaract import (
    CARDS,
    label,
    HARM_LIMIT,
    NO_ACE,
    SUITS,
    kind_of,
    rank_label,
    suits_of,
)
from storyteller.log import GameLog
from storyteller.narrative import pick, prompts
from storyteller.narrative import question as ask

GAME = "hexaract"
KIND_WORD = {"personality": "a personality", "location": "a location", "event": "an event"}


def _p() -> dict[str, Any]:
    return prompts(GAME)


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _count(n: int, word: str) -> str:
    numbers = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")
    head = numbers[n] if 0 <= n < len(numbers) else str(n)
    return f"{head} {word}{'' if n == 1 else 's'}"


def ace_suit(card_id: str) -> str:
    return CARDS[card_id].suits[0]


def dice_line(dice) -> str:
    return " ".join(str(d) for d in dice)


def piece(suit: str) -> str:
    """A suit token as the story names it: "the Waves piece"."""
    return f"the {suit} piece"


# -- one draw or roll ---------------------------------------------------------------------


def draw_text(event: dict[str, Any]) -> str:
    if event["event"] == "roll" or "dice" in event:
        return f"Turn {event['index'] + 1}: rolled {dice_line(event['dice'])}."
    card_id, to = event["card"], event["to"]
    if to == "ace token":
        return f"Turned up {decktet.name(card_id)}: a {ace_suit(card_id)} token for your supply."
    if to == "ace reward":
        return f"Turned up {decktet.name(card_id)}: a face-up ace reward."
    place = to.split()[1]
    return f"Journey {place}: {decktet.label(card_id)}, {KIND_WORD[kind_of(card_id)]}."


def meaning(event: dict[str, Any], seed: str, variants: dict[str, str] | None = None) -> str:
    p = _p()
    if event["event"] == "roll" or "dice" in event:
        sixes = list(event["dice"]).count(6)
        return p["wild"][min(sixes, len(p["wild"]) - 1)]
    card_id, to = event["card"], event["to"]
    if to == "ace token":
        suit = ace_suit(card_id)
        return f"You set out with {piece(suit)} of the artifact: {decktet.theme(suit)}."
    if to == "ace reward":
        suit = ace_suit(card_id)
        return f"Somewhere on the road waits {piece(suit)} ({decktet.theme(suit)}); a Crown can win it."
    kind = kind_of(card_id)
    return f"{p['kinds'][kind]} {decktet.meaning(card_id)}"


def topic(event: dict[str, Any]) -> str | None:
    """Each new journey card raises a question; so do the first Ace and a lucky roll."""
    if event["event"] == "roll" or "dice" in event:
        return "fortune" if list(event["dice"]).count(6) >= 2 else None
    to = event["to"]
    if to == "ace token":
        return "quest" if event.get("slot") == 0 else None
    if to == "ace reward":
        return None
    return kind_of(event["card"])


def question(event: dict[str, Any], seed: str) -> str | None:
    t = topic(event)
    return ask(GAME, t, seed, event["n"]) if t else None


# -- the tale -----------------------------------------------------------------------------


def _parse(key: str, before) -> dict[str, Any]:
    """A decision key and the state before it, as the parts the tale needs."""
    words = key.split()
    verb = words[0]
    if verb == "assign":
        card_id, suit = words[2], words[3].capitalize()
        ace = words[4] if len(words) > 4 else None
        return {"verb": verb, "card": card_id, "suit": suit, "ace": ace, "dice": words[1]}
    if verb == "spend":
        suit, card_id = words[1].capitalize(), words[2]
        ace = words[3] if len(words) > 3 else None
        return {"verb": verb, "card": card_id, "suit": suit, "ace": ace}
    if verb == "pay":
        return {"verb": verb, "card": words[2], "suit": words[1].capitalize()}
    return {"verb": verb}


def consequence_lines(consequences) -> list[str]:
    return [c.text + "." for c in consequences]


def journey_line(state) -> str:
    """The journey in one line of plain words, for the playthrough."""
    parts = []
    for v in state.journey_view():
        if v is None:
            continue
        text = f"{decktet.label(v['card'])} {v['type']}"
        notes = []
        if v["tokens"]:
            notes.append("holding " + "/".join(v["tokens"]))
        if v["exhausted"]:
            notes.append("exhausted")
        if notes:
            text += " (" + ", ".join(notes) + ")"
        parts.append(text)
    return "; ".join(parts) if parts else "empty"


def supply_line(state) -> str:
    held = [f"{state.supply[s]} {s}" for s in SUITS if state.supply[s]]
    missing = state.missing_suits()
    text = ", ".join(held) if held else "empty"
    if missing:
        text += f" (missing {', '.join(missing)})"
    return text


def story(log: GameLog, steps: list, outcome) -> dict[str, Any]:
    seed = log.seed
    p = _p()
    setup: dict[str, list] = {"pieces": [], "rewards": [], "journey": []}
    opening_journal: list[str] = []
    days: list[dict[str, Any]] = []
    epilogue: list[str] = []
    ended = False
    started = False  # the first roll starts day 1
    day: dict[str, Any] | None = None
    between = False  # the turn's consequences are over; draws belong to the next day
    tally: dict[str, list] = {k: [] for k in (
        "thwarted", "suffered", "surveyed", "tired", "turned", "endured", "gathered", "lost", "placed", "aces"
    )}
    harm_peak = 0
    # for the playthrough: what followed each decision, and the table at each roll
    after: dict[int, list[str]] = {}
    at_roll: dict[int, dict[str, str]] = {}
    previous = None
    final_state = None
    told_so_far = 0  # consequences of this turn already listed in the playthrough

    def new_day() -> dict[str, Any]:
        d = {"number": len(days) + 1, "beats": []}
        days.append(d)
        return d

    def say(text: str, **extra: Any) -> None:
        assert day is not None
        day["beats"].append({"kind": "text", "text": text, **extra})

    for step in steps:
        e = step.event
        kind = e["event"]
        state = step.state
        if kind == "journal":
            if ended:
                epilogue.append(e["text"])
            elif day is None:
                opening_journal.append(e["text"])
            else:
                day["beats"].append({"kind": "journal", "text": e["text"]})
            continue
        if kind == "end":
            ended = True
            continue
        if kind == "decision":
            # the consequences, told for the playthrough even when the move was taken back
            if e["action"] == "done" or e["action"].startswith("pay "):
                start = told_so_far if e["action"].startswith("pay ") else 0
                after[e["n"]] = consequence_lines(state.consequences[start:])
                told_so_far = len(state.consequences)
        if kind == "roll":
            at_roll[e["n"]] = {
                "journey": journey_line(state),
                "supply": supply_line(state),
                "harm": f"{state.harm} of {HARM_LIMIT}",
                "deck": str(state.deck_left),
            }
        if step.undone:
            previous = state if kind != "undo" else previous
            continue
        if kind == "undo":
            previous = state
            continue
        if kind == "draw":
            card_id, to = e["card"], e["to"]
            if to == "ace token":
                setup["pieces"].append(piece(ace_suit(card_id)))
            elif to == "ace reward":
                setup["rewards"].append(f"{decktet.name(card_id)} ({piece(ace_suit(card_id))})")
            elif not started:
                setup["journey"].append(_card_info(card_id))
            else:
                if between or day is None:
                    day = new_day()
                    between = False
                k = kind_of(card_id)
                say(pick(p["arrival"][k], seed, e["n"]).format(name=decktet.name(card_id), Name=decktet.Name(card_id))
                    + " " + decktet.meaning(card_id), card=card_id)
        elif kind == "roll":
            started = True
            if between or day is None:
                day = new_day()
                between = False
            day["beats"].append({"kind": "dice", "text": dice_line(e["dice"])})
        elif kind == "decision":
            before = previous
            move = _parse(e["action"], before)
            verb = move["verb"]
            if verb in ("assign", "spend"):
                card_id, suit = move["card"], move["suit"]
                name, Name = decktet.name(card_id), decktet.Name(card_id)
                k = kind_of(card_id)
                fmt = {"name": name, "Name": Name, "suit": suit, "piece": piece(suit)}
                done = card_id not in state.journey  # it left the journey: thwarted, turned, surveyed
                if verb == "spend":
                    tally["placed"].append(suit)
                    text = pick(p["spent"], seed, e["n"]).format(**fmt)
                    if done:
                        tally["surveyed"].append(card_id)
                        text += " " + pick(p["surveyed"], seed, e["n"]).format(**fmt)
                elif k == "personality":
                    tally["thwarted"].append(card_id)
                    tally["gathered"].append(suit)
                    text = pick(p["thwarted"], seed, e["n"]).format(**fmt)
                elif k == "event":
                    tally["turned"].append(card_id)
                    tally["gathered"].append(suit)
                    text = pick(p["turned"], seed, e["n"]).format(**fmt)
                else:
                    text = pick(p["survey"], seed, e["n"]).format(**fmt)
                    if done:
                        tally["surveyed"].append(card_id)
                        text += " " + pick(p["surveyed"], seed, e["n"]).format(**fmt)
                ace = move.get("ace")
                if ace and ace != NO_ACE:
                    s = ace_suit(ace)
                    tally["gathered"].append(s)
                    tally["aces"].append(s)
                    text += " " + pick(p["ace"], seed, e["n"]).format(ace=decktet.name(ace), piece=piece(s), suit=s)
                elif ace == NO_ACE:
                    text += " " + p["no_ace"]
                say(text)
            if verb in ("done", "pay") and state.phase != "pay":
                _tell_consequences(state, say, tally, p, seed, e["n"])
                harm_peak = max(harm_peak, state.harm)
                between = True
        previous = state
        final_state = state
    final = final_state
    tally["endured"] = [c for c in tally["endured"] if c not in tally["turned"]]
    result = outcome.result if outcome else "unfinished"
    held = [s for s in SUITS if final is not None and final.supply[s] > 0]
    missing = [s for s in SUITS if s not in held]
    return {
        "setup": setup,
        "opening_journal": opening_journal,
        "days": days,
        "epilogue": epilogue,
        "ending": p["endings"].get(result, ""),
        "harm": final.harm if final is not None else 0,
        "harm_limit": HARM_LIMIT,
        "held": held,
        "missing": missing,
        "supply": {s: final.supply[s] for s in SUITS} if final is not None else {},
        "tally": {k: (_unique([decktet.name(c) for c in v]) if k in CARD_TALLIES else v) for k, v in tally.items()},
        "after": after,
        "at_roll": at_roll,
        "result": result,
    }


CARD_TALLIES = ("thwarted", "suffered", "surveyed", "tired", "turned", "endured")


def _unique(items: list[str]) -> list[str]:
    return list(dict.fromkeys(items))


def _card_info(card_id: str) -> dict[str, Any]:
    return decktet.info(card_id) | {
        "kind": kind_of(card_id),
        "kind_word": KIND_WORD[kind_of(card_id)],
        "rank": rank_label(card_id),
        "suits": list(suits_of(card_id)),
    }


def _tell_consequences(state, say, tally, p, seed, n) -> None:
    """One paragraph: who hurt you, what was taken, what passed, how the day ended."""
    hurt, taken, missed, passed = [], [], [], []
    for c in state.consequences:
        if c.kind == "harm":
            hurt.append(c.card)
            if kind_of(c.card) == "personality":
                tally["suffered"].append(c.card)
            else:
                tally["tired"].append(c.card)
        elif c.kind == "token lost":
            taken.append((c.card, c.suit))
            tally["endured"].append(c.card)
            tally["lost"].append(c.suit)
        elif c.kind == "no token":
            missed.append(c.card)
            tally["endured"].append(c.card)
        elif c.kind == "passes":
            passed.append(c.card)
    parts = []
    if hurt:
        bits = []
        for group, words in (("personality", "harm_people"), ("location", "harm_places")):
            cards = [c for c in hurt if kind_of(c) == group]
            if cards:
                names = decktet.names(cards)
                bits.append(pick(p[words], seed, n, group).format(names=names, Names=_cap(names)))
        parts.append(" ".join(bits) + f" Harm: {state.harm} of {HARM_LIMIT}.")
    for card_id, suit in taken:
        parts.append(pick(p["taken"], seed, n, card_id).format(Name=decktet.Name(card_id), name=decktet.name(card_id), piece=piece(suit), suit=suit))
    for card_id in missed:
        parts.append(pick(p["missed"], seed, n, card_id).format(Name=decktet.Name(card_id)))
    for card_id in passed:
        parts.append(pick(p["passed"], seed, n, card_id).format(Name=decktet.Name(card_id)))
    if not parts:
        parts.append(pick(p["quiet"], seed, n))
    say(" ".join(parts), consequences=True)


def title(story: dict[str, Any]) -> str:
    if story.get("result") == "won":
        return "The artifact made whole"
    return "The road to the secret chamber"


def after_decision(event: dict[str, Any], before, after) -> tuple[str, list[str]] | None:
    """The consequences of inaction, told as the turn ends (or as an event takes its token),
    before the journey is refilled: each harm and each token lost, with the card behind it."""
    key = event["action"]
    if key != "done" and not key.startswith("pay "):
        return None
    start = len(before.consequences) if before.phase == "pay" else 0
    told = [f"{c.text}." for c in after.consequences[start:]]
    if not told:
        told = ["Nothing on the journey hurts you or takes a token."]
    if after.outcome is not None:
        return "Consequences of inaction", told
    if after.phase == "pay":
        return "Consequences of inaction", told + ["Now choose which token each event takes."]
    places = [label(c) for c in after.journey if c is not None and kind_of(c) == "location"]
    events = [label(c) for c in after.journey if c is not None and kind_of(c) == "event"]
    if places:
        told.append(f"Exhausted now, 1 harm a turn until surveyed: {', '.join(places)}.")
    if events:
        told.append(f"Exhausted now, in their last turn: {', '.join(events)}.")
    empty = sum(1 for c in after.journey if c is None)
    if empty and after.deck_left:
        n = min(empty, after.deck_left)
        told.append(f"The journey refills: {n} new card{'s' if n != 1 else ''} from the deck.")
    elif empty:
        told.append("The deck is empty: the journey is not refilled.")
    return "Consequences of inaction", told

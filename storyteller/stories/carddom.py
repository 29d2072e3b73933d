"""Carddom told as a story: what each revealed card means, for the terminal and for Markdown."""

from __future__ import annotations

from typing import Any

from storyteller.cards import card
from storyteller.games.carddom import where
from storyteller.log import GameLog
from storyteller.narrative import pick, prompts

GAME = "carddom"


def _p() -> dict[str, Any]:
    return prompts(GAME)


def role(card_id: str) -> str:
    return _p()["roles"][card(card_id).rank]


def goal(card_id: str) -> str:
    return _p()["goals"][card(card_id).suits[0]]


def joker_kind(seed: str, n: int) -> str:
    return pick(_p()["jokers"], seed, "joker", n)


def layer_of(to: str) -> tuple[int | None, str]:
    """``"stack 3 people"`` -> (3, "people"); other places -> (None, place)."""
    parts = to.split()
    if parts[0] == "stack":
        return int(parts[1]), parts[2]
    return None, to


def thing(card_id: str, layer: str) -> str:
    """What a card is as this layer of a stack: "a vast city", "a host of elves"."""
    c = card(card_id)
    p = _p()
    suit = c.suits[0]
    scale = p["scale"][layer][c.rank]
    if layer == "location":
        return f"{'an' if scale[0] in 'aeiou' else 'a'} {scale} {p['location'][suit].split(' ', 1)[1]}"
    if layer == "people":
        return f"{scale} {p['people'][suit]}"
    if layer == "values":
        return f"{p['values'][suit]}, cherished {scale}"
    return f"{scale} {p['gift'][suit].removeprefix('a ')}"


def overlord(card_id: str) -> str:
    c = card(card_id)
    return f"{_p()['overlord_kind'][c.rank]} driven by {_p()['motivation'][c.suits[0]]}"


def meaning(event: dict[str, Any], seed: str, variants: dict[str, str] | None = None) -> str:
    """One sentence: what this draw means in the story."""
    card_id, to = event["card"], event["to"]
    c = card(card_id)
    if c.rank == "Joker":
        if to == "character":
            return "A Joker cannot be your character: the deck is shuffled again."
        if to == "overlord":
            return "The overlord is a Joker: this journey was doomed from the start."
        if (variants or {}).get("jokers", "revealed") == "revealed":
            return f"A Joker: {joker_kind(seed, event['n'])} ends your journey here."
        return f"A Joker: {joker_kind(seed, event['n'])} lies here; it can never be taken."
    if to == "character":
        return f"You are {role(card_id)}, and you seek {goal(card_id)}."
    if to == "overlord":
        return f"The overlord is {overlord(card_id)}."
    stack, layer = layer_of(to)
    if layer == "location":
        return f"Stack {stack} is {thing(card_id, layer)}."
    if layer == "people":
        return f"Here live {thing(card_id, layer)}."
    if layer == "values":
        return f"They cherish {_p()['values'][c.suits[0]]} {_p()['scale']['values'][c.rank]}."
    return f"Their gift: {thing(card_id, layer)}."


def topic(event: dict[str, Any]) -> str:
    if card(event["card"]).rank == "Joker":
        return "joker"
    to = event["to"]
    return to if to in ("character", "overlord") else layer_of(to)[1]


def draw_text(event: dict[str, Any]) -> str:
    """The playthrough's line for a draw."""
    name = card(event["card"]).name
    to = event["to"]
    if to == "character":
        return f"Drew the {name} as the character."
    if to == "overlord":
        return f"Revealed the overlord: the {name}."
    stack, layer = layer_of(to)
    return f"Revealed the {name} as the {layer} of stack {stack} ({where(stack)})."


# -- the story --------------------------------------------------------------------------


def story(log: GameLog, steps: list, outcome) -> dict[str, Any]:
    """Everything the story template needs, from the log and the walk of it.

    The tale has a chapter per place, in the order the traveller first reached it; what
    happened on a later visit joins that place's chapter. Undone moves are left out;
    the player's journal entries never are: each joins the place where it was written.
    """
    seed = log.seed
    p = _p()
    character = None
    names: dict[int, str] = {}  # stack -> "a vast mountain"
    chapters: dict[int, dict[str, Any]] = {}
    order: list[int] = []
    taken: list[dict[str, Any]] = []
    lord = None
    doom = None
    prelude: list[dict[str, Any]] = []
    epilogue: list[str] = []
    ended = False
    here: int | None = None
    returned: dict[int, str] = {}  # a return sentence waiting for something to happen there

    def add(beat: dict[str, Any]) -> None:
        if lord is not None:
            lord["journal"].append(beat)
        elif here is None:
            prelude.append(beat)
        else:
            chapter = chapters[here]
            if here in returned:
                chapter["beats"].append({"kind": "text", "text": returned.pop(here)})
            chapter["beats"].append(beat)

    for step in steps:
        e = step.event
        kind = e["event"]
        if kind == "journal":
            if ended:
                epilogue.append(e["text"])
            else:
                add({"kind": "journal", "text": e["text"], "prompt": e.get("prompt")})
            continue
        if kind == "end":
            ended = True
            continue
        if step.undone:
            continue
        if kind == "draw":
            to = e["to"]
            c = card(e["card"])
            if to == "character":
                if c.rank != "Joker":
                    character = {"card": c.name, "role": role(c.id), "goal": goal(c.id)}
                continue
            if to == "overlord":
                lord = {
                    "id": c.id,
                    "card": c.name,
                    "joker": c.rank == "Joker",
                    "kind": None if c.rank == "Joker" else p["overlord_kind"][c.rank],
                    "motivation": None if c.rank == "Joker" else p["motivation"][c.suits[0]],
                    "journal": [],
                }
                continue
            stack, layer = layer_of(to)
            if c.rank == "Joker":
                fatal = outcome is not None and outcome.result == "lost" and "Joker was revealed" in outcome.reason
                doom = {"layer": layer, "stack": stack, "kind": joker_kind(seed, e["n"]), "fatal": fatal}
                if layer == "location":
                    names[stack] = "a place of ill omen"
                    chapters[stack]["title"] = "A place of ill omen"
                add({"kind": "joker", "text": _joker_sentence(doom, seed, e["n"])})
                continue
            sentence = ""
            if layer == "location":
                names[stack] = thing(c.id, layer)
                chapters[stack]["title"] = _title(names[stack])
                first = order and order[0] == stack
                phrases = p["phrasing"]["enter" if first else "arrive"]
                sentence = pick(phrases, seed, e["n"]).format(place=names[stack])
            elif layer == "people":
                sentence = pick(p["phrasing"]["people"], seed, e["n"]).format(people=thing(c.id, layer))
            elif layer == "values":
                value = p["values"][c.suits[0]]
                scale = p["scale"]["values"][c.rank]
                sentence = pick(p["phrasing"]["values"], seed, e["n"]).format(
                    value=value, Value=value.capitalize(), scale=scale
                )
            else:
                sentence = pick(p["phrasing"]["gift"], seed, e["n"]).format(gift=thing(c.id, layer))
            add({"kind": "text", "text": sentence, "card": c.name, "layer": layer})
        elif kind == "decision":
            verb, _, arg = e["action"].partition(" ")
            if verb in ("enter", "move"):
                here = int(arg)
                if here not in chapters:
                    chapters[here] = {"stack": here, "where": where(here), "title": f"Stack {here}", "beats": []}
                    order.append(here)
                elif here in names:
                    the_place = "the " + names[here].split(" ", 1)[1]
                    returned[here] = pick(p["phrasing"]["return"], seed, e["n"]).format(place=the_place)
            elif verb == "take":
                c = card(arg)
                taken.append({"card": c.name, "from": names.get(here) if here else None})
                add({"kind": "text", "text": pick(p["phrasing"]["take"], seed, e["n"]).format(card=c.name)})

    for chapter in chapters.values():
        chapter["beats"] = _paragraphs(chapter["beats"])
    ending = _ending(outcome, character, lord, doom, names, taken, log)
    return {
        "character": character,
        "prelude": prelude,
        "prelude_journal": [b["text"] for b in prelude if b["kind"] == "journal"],
        "chapters": [chapters[s] for s in order if chapters[s]["beats"]],
        "places": [{"name": names[s], "where": where(s)} for s in order if s in names],
        "taken": taken,
        "overlord": lord,
        "doom": doom,
        "ending": ending,
        "epilogue": epilogue,
    }


def _ending(outcome, character, lord, doom, names, taken, log) -> str:
    """The last paragraph, in the story's words rather than the rules'."""
    if outcome is None:
        return "The story is not over yet: the road still waits."
    if outcome.result == "abandoned":
        return "You turned back, and left the realm to its overlord."
    if lord is not None and lord["joker"]:
        return "There was no one to subdue: a Joker sat where the overlord should be, and the journey had been doomed from its first step."
    if lord is not None:
        held = [character["card"]] if character else []
        held += [t["card"] for t in taken]
        lord_card = card(lord["id"])
        by_rank = [h for h in held if h.split(" of ")[0] == lord_card.rank]
        by_suit = [h for h in held if h.endswith(lord_card.suits[0])]
        if outcome.won:
            return (
                f"You faced {lord['kind']} with the {by_rank[0]} and the {by_suit[0]}, "
                f"and the {lord['kind'].split(' ', 1)[1]} was subdued. You won."
            )
        lacking = []
        if not by_rank:
            lacking.append(f"nothing of its rank ({lord_card.rank})")
        if not by_suit:
            lacking.append(f"nothing of its suit ({lord_card.suits[0].lower()})")
        return f"You faced {lord['kind']}, but you held {' and '.join(lacking)}, and it could not be subdued. You lost."
    if doom is not None and doom["fatal"]:
        place = "the " + names[doom["stack"]].split(" ", 1)[1] if doom["stack"] in names else "that place"
        return f"{doom['kind'][0].upper()}{doom['kind'][1:]} ended the journey in {place}, before the overlord was ever faced. You lost."
    return f"The journey ended: {outcome.reason}"


def _paragraphs(beats: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Run the narration between journal entries together into paragraphs."""
    out: list[dict[str, Any]] = []
    for beat in beats:
        if beat["kind"] != "journal" and out and out[-1]["kind"] == "text":
            out[-1] = {"kind": "text", "text": out[-1]["text"] + " " + beat["text"]}
        else:
            out.append({"kind": "text" if beat["kind"] != "journal" else "journal", "text": beat["text"],
                        **({"prompt": beat.get("prompt")} if beat["kind"] == "journal" else {})})
    return out


def _title(place: str) -> str:
    """"a vast mountain" -> "The vast mountain"."""
    words = place.split(" ", 1)
    return f"The {words[1]}" if len(words) == 2 else place


def _joker_sentence(doom: dict[str, Any], seed: str, n: int) -> str:
    if doom["fatal"]:
        return pick(
            [
                f"Then, among the {doom['layer']} of that place, {doom['kind']} rose up, and the road ended there.",
                f"But {doom['kind']} waited in that place, and nothing could be done against it.",
            ],
            seed, "doom", n,
        )
    return pick(
        [
            f"Among the {doom['layer']} of that place lurked {doom['kind']}; it could not be touched, and the journey went around it.",
            f"A shadow lay there, {doom['kind']}, and the traveller let it be.",
        ],
        seed, "shadow", n,
    )


def question(event: dict[str, Any], seed: str) -> str | None:
    """The journaling question a draw raises (stable for the same log)."""
    from storyteller.narrative import question as ask

    if event["to"] == "character" and card(event["card"]).rank == "Joker":
        return None
    return ask(GAME, topic(event), seed, event["n"])


def title(story: dict[str, Any]) -> str:
    c = story.get("character")
    if not c:
        return "A journey that never began"
    role_ = c["role"]
    return f"{role_[0].upper()}{role_[1:]} seeking {c['goal']}"

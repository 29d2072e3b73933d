"""Campaigns, played as a person plays them: one story across chapters of different games,
answered in full with tags in the words; the recap, the bridge, the recalls of a card met
before, the cast and threads, the file beside the sessions, what a kill leaves, and bad input.
"""

from __future__ import annotations

import json
import os
import signal
import sys
import time
from pathlib import Path

import pytest

import campaigner
from storyteller import app
from storyteller.log.file import read
from storyteller.play import campaign

ANSWERS = {
    1: "The ferryman [N:Old Nim|charcoal girl] saw the smoke first, and said nothing.",
    2: "It smelled of tar and wet wool. [Thread:Who burned the mill?|Open]",
    4: "I met her at [L:The Salt Gate], where the river narrows.",
}


def answer_ch1(question: str, k: int) -> str:
    return ANSWERS.get(k, f"I wrote it down: *{k}*, as it was <b>told</b>.")


def answer_later(question: str, k: int) -> str:
    if k == 3:
        return "Old Nim knew it all along. [Thread:Who burned the mill?|Closed]"
    return f"Entry {k}: old nim would laugh at this."


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """Wren's campaign: Hexaract, then Adaman, then Carddom, every question answered."""
    root = tmp_path_factory.mktemp("campaign")
    with campaigner.home(root):
        made = campaigner.new("salt", root, name="Wren", line="a ferryman's daughter", wants="to find her brother",
                              title="The Salt Road")
        chapters = []
        for game, seed, answer in (("hexaract", "5", answer_ch1), ("adaman", "3", answer_later),
                                   ("carddom", "2", answer_later)):
            chapters.append(campaigner.chapter(game, seed, "salt", answer))
        yield root, made, chapters


def logs(root: Path) -> list[Path]:
    return sorted((root / "sessions").glob("*.jsonl"))


def questions(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()[1:]
            if json.loads(line).get("event") == "question"]


def test_a_campaign_is_made_and_its_chapters_are_played_in_order(played):
    root, made, chapters = played
    assert made[0] == 0 and "The Salt Road" in made[1]
    for code, _out, err, _ in chapters:
        assert code == 0, err
    assert [ch[1].splitlines()[0] for ch in chapters][:1] == ["Chapter 1 of The Salt Road."]
    headers = [read(p).header for p in logs(root)]
    assert sorted(h.campaign["chapter"] for h in headers) == [1, 2, 3]
    with campaigner.home(root):
        c = campaign.load("salt")
        assert [ch.game for ch in campaign.chapters(c)] == ["hexaract", "adaman", "carddom"]
        code, out, err = campaigner.run(app.campaign_show, "salt")
    assert code == 0, err
    assert "Protagonist: Wren, a ferryman's daughter" in out and "Chapters (3):" in out
    assert "1. Hexaract" in out and "2. Adaman" in out and "3. Carddom" in out


def test_the_next_chapter_opens_with_the_story_so_far_and_a_bridge(played):
    root, _, chapters = played
    _, out, _, _ = chapters[1]
    lines = out.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("The story so far:"))
    stop = next(i for i, line in enumerate(lines) if line.startswith("Playing "))
    recap = " ".join(lines[start:stop])  # wrapped at word boundaries to the terminal's width
    assert "You are Wren, a ferryman's daughter." in recap and "You want to find her brother." in recap
    assert "Last time, on the road to the secret chamber," in recap  # chapter 1 was Hexaract
    assert "\u201cWho burned the mill?\u201d" in recap  # the thread opened in chapter 1
    header = read(next(p for p in logs(root) if "adaman" in p.name)).header
    assert recap == "The story so far: " + header.campaign["recap"]
    first = questions(next(p for p in logs(root) if "adaman" in p.name))[0]
    assert first["id"].startswith("campaign:bridge") and "about" not in first


def test_a_card_met_and_written_about_before_is_recalled_by_what_happened(played):
    root, _, _ = played
    with campaigner.home(root):
        memory = campaign.remember(campaign.load("salt"))
    recalls = [q for p in logs(root) for q in questions(p) if q["id"].startswith("campaign:recall:")]
    assert recalls
    for q in recalls:
        card = q["id"].split(":")[2]
        member = memory.cast[card]
        earlier = [a for a in member.appearances if a.answered and f"{a.fate}." in q["text"]]
        assert earlier, q["text"]  # the fate it recalls is one the card met, and was written about
        assert member.name in q["text"]
        assert q["text"].startswith(("In the last chapter,", "In chapter "))


def test_a_quarter_of_the_later_chapters_questions_remember(played):
    root, _, _ = played
    later = [q for p in logs(root) if "hexaract" not in p.name for q in questions(p)]
    remembering = [q for q in later if q["id"].startswith("campaign:")]
    assert len(remembering) * 4 >= len(later), (len(remembering), len(later))
    assert len({q["text"] for q in remembering}) == len(remembering)  # none worded twice
    assert not [q for p in logs(root) if "hexaract" in p.name for q in questions(p)
                if q["id"].startswith("campaign:")]  # the first chapter remembers nothing yet


def test_the_cast_and_the_threads(played):
    root, _, _ = played
    with campaigner.home(root):
        code, out, err = campaigner.run(app.campaign_cast, "salt")
        memory = campaign.remember(campaign.load("salt"))
    assert code == 0, err
    nim = memory.cast["old nim"]
    assert nim.kind == "N" and nim.notes == ["charcoal girl"]
    assert {ch for ch, _ in nim.mentions} == {1, 2, 3}  # tagged in chapter 1, named in plain words later
    gate = memory.cast["the salt gate"]
    assert gate.kind == "L"
    thread = memory.threads["who burned the mill?"]
    assert thread.opened[0] == 1 and thread.closed is not None and thread.closed[0] == 2
    assert "Old Nim (person, first met in chapter 1)" in out
    assert "  tagged: charcoal girl" in out
    assert "Who burned the mill?: opened in chapter 1, closed in chapter 2" in out
    twice = [m for m in memory.cast.values() if m.kind == "card" and len({a.chapter for a in m.appearances}) >= 2]
    assert twice  # a card met in two chapters
    shown = twice[0]
    assert f"{shown.name} (card, first met in chapter {shown.first})" in out
    for a in shown.appearances:
        assert f"chapter {a.chapter}, " in out and a.fate in out


def test_the_journal_searches_every_chapter(played):
    root, _, _ = played
    with campaigner.home(root):
        code, out, err = campaigner.run(app.journal, words=["search", "smoke", "ferryman"], campaign="salt")
    assert code == 0, err
    assert "saw the smoke first" in out and "chapter 1 of salt" in out
    with campaigner.home(root):
        code, out, err = campaigner.run(app.journal, tag=["Old Nim"], every=True)
    assert code == 0, err
    assert "old nim would laugh" in out and "saw the smoke first" in out


def test_a_chapter_deals_what_its_seed_deals_outside_a_campaign(played, tmp_path):
    root, _, _ = played
    inside = read(next(p for p in logs(root) if "adaman" in p.name))
    with campaigner.home(tmp_path):
        code, _, err, _ = campaigner.chapter("adaman", "3", None, answer_later, log=tmp_path / "alone.jsonl")
    assert code == 0, err
    alone = read(tmp_path / "alone.jsonl")

    def deal(log):
        return [(e.kind, getattr(e, "card", None), getattr(e, "to", None), getattr(e, "action", None))
                for e in log.events if e.kind in ("draw", "decision", "end")], log.end.result, log.end.score

    assert deal(inside) == deal(alone)
    assert not [e for e in alone.events if e.kind == "question" and e.id.startswith("campaign:")]


def test_a_chapter_replays_clean_and_exports_alone(played):
    root, _, _ = played
    path = next(p for p in logs(root) if "carddom" in p.name)
    with campaigner.home(root):
        code, out, err = campaigner.run(app.replay, path)
        assert code == 0 and "note:" not in out + err, out + err
        code, out, err = campaigner.run(app.export, path, story=True, format="markdown")
    assert code == 0, err
    for q in questions(path):
        if q["id"].startswith("campaign:"):
            assert q["text"].replace("\u201c", "").split("?")[0][:40].replace("*", "") in out.replace("\\", "")


def test_a_question_of_a_campaign_in_a_log_that_is_no_chapter_is_noted(played, tmp_path):
    root, _, _ = played
    path = next(p for p in logs(root) if "adaman" in p.name)
    lines = path.read_text().splitlines()
    head = json.loads(lines[0])
    del head["campaign"]
    edited = tmp_path / "edited.jsonl"
    edited.write_text("\n".join([json.dumps(head)] + lines[1:]) + "\n")
    with campaigner.home(root):
        _code, out, err = campaigner.run(app.replay, edited)
    assert "a campaign's question, in a game that is no campaign's chapter" in out + err


# -- the file, and what a kill leaves ----------------------------------------------------------


def test_a_chapter_whose_log_the_file_never_listed_is_still_its_chapter(tmp_path):
    """A kill after the log was made and before the file listed it: the log's header says."""
    with campaigner.home(tmp_path):
        campaigner.new("kept", tmp_path, name="Ash")
        code, _, err, _ = campaigner.chapter("adaman", "1", "kept", answer_later)
        assert code == 0, err
        path = campaign.path_of("kept")
        before = path.read_text()
        code, _, err, _ = campaigner.chapter("cascades", "1", "kept", answer_later)
        path.write_text(before)  # as if the second chapter's listing never reached the disk
        c = campaign.load("kept")
        assert [ch.game for ch in campaign.chapters(c)] == ["adaman", "cascades"]
        code, out, err = campaigner.run(app.campaign_show, "kept")
        assert code == 0 and "2. Cascades" in out, err
        code, _, err, _ = campaigner.chapter("hexaract", "2", "kept", answer_later)  # the next is chapter 3
        assert code == 0, err
        assert [ch.game for ch in campaign.chapters(campaign.load("kept"))] == ["adaman", "cascades", "hexaract"]
        assert read(campaign.chapters(campaign.load("kept"))[2].path).header.campaign["chapter"] == 3


def test_quit_and_resume_a_chapter(tmp_path):
    with campaigner.home(tmp_path):
        campaigner.new("halves", tmp_path, name="Ash")
        campaigner.chapter("hexaract", "5", "halves", answer_ch1)
        code, out, err, playing = campaigner.chapter("adaman", "3", "halves", answer_later, stop_after=4)
        log = next(p for p in (tmp_path / "sessions").glob("*adaman*.jsonl"))
        assert not read(log).finished
        code, out, err = campaigner.run(app.campaign_show, "halves")
        assert "2. Adaman, seed 3: in progress" in out and "Chapter 2 is unfinished: storyteller resume" in out
        code, out, err = campaigner.resume(log, playing)
        assert code == 0, err
        whole = read(log)
        assert whole.finished and whole.header.campaign["chapter"] == 2
        asked = [e for e in whole.events if e.kind == "question"]
        assert len({e.text for e in asked if e.id.startswith("campaign:")}) == \
            len([e for e in asked if e.id.startswith("campaign:")])
        assert len([e for e in asked if e.id.startswith("campaign:bridge")]) == 1  # the bridge once, at the start


@pytest.mark.skipif(sys.platform == "win32", reason="kill -9 and a pty")
def test_kill_9_in_the_middle_of_a_chapter_then_resume(tmp_path):
    pexpect = pytest.importorskip("pexpect")
    env = dict(os.environ, STORYTELLER_HOME=str(tmp_path), COLUMNS="100", LINES="40", TERM="xterm")
    with campaigner.home(tmp_path):
        campaigner.new("hard", tmp_path, name="Ash")
        campaigner.chapter("hexaract", "5", "hard", answer_ch1)
    child = pexpect.spawn(sys.executable, ["-m", "storyteller", "play", "adaman", "--seed", "3", "--campaign", "hard",
                                           "--plain"], env=env, encoding="utf-8", timeout=60, dimensions=(40, 100))
    try:
        child.expect(r"\(write, or Enter to skip\)")  # the bridge, before the first move
        child.sendline("I came down the river with [N:Tam|a boatman] at my side.")
        child.expect(r"Use arrow keys|\(write, or Enter to skip\)")
        log = next((tmp_path / "sessions").glob("*adaman*.jsonl"))
        deadline = time.time() + 10
        while "Tam" not in log.read_text() and time.time() < deadline:
            time.sleep(0.05)
        os.kill(child.pid, signal.SIGKILL)
        child.wait()
    finally:
        child.close(force=True)
    assert "a boatman" in log.read_text()
    with campaigner.home(tmp_path):
        code, out, err = campaigner.run(app.campaign_show, "hard")
        assert code == 0, err
        assert "2. Adaman, seed 3: in progress" in out
        playing = campaigner.Chapter("adaman", "3", answer_later)
        code, out, err = campaigner.resume(log, playing)
        assert code == 0, err
        memory = campaign.remember(campaign.load("hard"))
    assert read(log).finished
    assert memory.cast["tam"].notes == ["a boatman"]
    assert "[N:Tam|a boatman]" in next(e.text for e in read(log).journal())


# -- bad input ------------------------------------------------------------------------------


def test_an_unknown_campaign_is_one_line_and_nothing_is_made(tmp_path):
    with campaigner.home(tmp_path):
        code, _out, err, _ = campaigner.chapter("adaman", "3", "nowhere", answer_later)
        assert code != 0 and err.count("\n") == 1 and "no campaign called 'nowhere'" in err
        assert not list((tmp_path / "sessions").glob("*.jsonl"))
        for func in (app.campaign_show, app.campaign_cast, app.campaign_stats):
            code, _out, err = campaigner.run(func, "nowhere")
            assert code != 0 and err.count("\n") == 1 and "Traceback" not in err
        code, _out, err = campaigner.run(app.campaign_show, "../etc")
        assert code != 0 and "a campaign's name is letters" in err


def test_a_campaign_file_edited_into_nonsense(tmp_path):
    with campaigner.home(tmp_path):
        campaigner.new("torn", tmp_path, name="Ash")
        campaigner.chapter("adaman", "3", "torn", answer_later)
        campaigner.chapter("cascades", "1", "torn", answer_later)
        path = campaign.path_of("torn")
        path.write_text("chapters = [[[ this is not TOML\n\x00")
        code, out, err = campaigner.run(app.campaign_show, "torn")
        assert code != 0 and "not TOML storyteller can read" in err and "Traceback" not in err
        assert "1. Adaman" in out and "2. Cascades" in out  # rebuilt from the logs
        code, out, err, _ = campaigner.chapter("hexaract", "2", "torn", answer_later)
        assert code != 0 and "cannot be played on as it is" in err
        assert len(list((tmp_path / "sessions").glob("*.jsonl"))) == 2  # nothing made, nothing lost
        assert path.read_text().startswith("chapters = [[[")  # the player's file is left as it was


def test_two_chapters_claiming_the_same_log(tmp_path):
    with campaigner.home(tmp_path):
        campaigner.new("twice", tmp_path, name="Ash")
        campaigner.chapter("adaman", "3", "twice", answer_later)
        path = campaign.path_of("twice")
        log = campaign.load("twice").chapters[0]
        path.write_text(path.read_text().replace(f'"{log}",', f'"{log}",\n    "{log}",'))
        code, out, err = campaigner.run(app.campaign_show, "twice")
        assert code != 0 and "two chapters claim the same log" in err and err.count("\n") == 1
        assert "Chapters (1):" in out


def test_a_chapter_whose_log_was_deleted_is_one_line(tmp_path):
    with campaigner.home(tmp_path):
        campaigner.new("gone", tmp_path, name="Ash")
        campaigner.chapter("adaman", "3", "gone", answer_later)
        campaigner.chapter("cascades", "1", "gone", answer_later)
        first = campaign.chapters(campaign.load("gone"))[0].path
        first.unlink()
        code, out, err = campaigner.run(app.campaign_show, "gone")
        assert code != 0 and err.count("\n") == 1 and "was moved or deleted" in err
        assert "2. Cascades" in out
        code, out, err = campaigner.run(app.campaign_cast, "gone")
        assert "Cascades" in out


def test_a_built_in_player_joins_a_campaign_only_on_purpose(tmp_path):
    with campaigner.home(tmp_path):
        campaigner.new("bots", tmp_path, name="Ash")
        code, out, err = campaigner.run(app.play, "adaman", seed="3", auto="greedy", campaign="bots")
        assert code == 0, err
        assert "The built-in player 'greedy' plays this chapter of the campaign 'bots'" in out
        code, out, err = campaigner.run(app.play, "adaman", seed="4", auto="greedy")
        assert code == 0
        c = campaign.load("bots")
        assert len(campaign.chapters(c)) == 1


def test_a_tag_that_names_no_one_is_one_line_and_the_words_are_kept(tmp_path):
    with campaigner.home(tmp_path):
        campaigner.new("blank", tmp_path, name="Ash")
        code, _out, err, _ = campaigner.chapter("adaman", "3", "blank",
                                               lambda q, k: "Someone [N:] was there." if k == 1 else "Yes.")
        assert code == 0
        assert "[N:] names no person" in err and err.count("[N:]") == 1
        log = next((tmp_path / "sessions").glob("*.jsonl"))
        assert read(log).journal()[0].text == "Someone [N:] was there."
        memory = campaign.remember(campaign.load("blank"))
        assert not memory.named()


def test_campaign_new_from_an_answers_file_and_its_mistakes(tmp_path):
    with campaigner.home(tmp_path):
        bad = tmp_path / "bad.txt"
        bad.write_text("name: Ash\nfavourite colour: blue\n")
        code, _out, err = campaigner.run(app.campaign_new, "x", answers=bad)
        assert code != 0 and "line 2" in err and not campaign.path_of("x").exists()
        code, _out, err = campaigner.new("x", tmp_path, name="Ash <b>[bold]", wants="[N:Tam]")
        assert code == 0
        code, _out, err = campaigner.new("x", tmp_path, name="Again")
        assert code != 0 and "already a campaign called 'x'" in err
        assert campaign.load("x").protagonist.name == "Ash <b>[bold]"


def test_two_sessions_beginning_chapters_at_once(tmp_path):
    """Four processes start chapters of one campaign at the same moment: each is a chapter,
    numbered once, and the file lists every one."""
    import subprocess

    with campaigner.home(tmp_path):
        campaigner.new("busy", tmp_path, name="Ash")
    env = dict(os.environ, STORYTELLER_HOME=str(tmp_path))
    procs = [subprocess.Popen([sys.executable, "-m", "storyteller", "play", game, "--seed", str(i), "--auto",
                               "random", "--campaign", "busy"], env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True)
             for i, game in enumerate(("adaman", "cascades", "adaman", "cascades"))]
    for p in procs:
        _out, err = p.communicate(timeout=120)
        assert p.returncode == 0, err
    with campaigner.home(tmp_path):
        c = campaign.load("busy")
        assert not c.problems and len(c.chapters) == 4
        numbers = sorted(read(ch.path).header.campaign["chapter"] for ch in campaign.chapters(c))
    assert numbers == [1, 2, 3, 4]


def test_a_thread_closed_reads_as_nothing_in_the_story():
    """The answer that closes a thread is the close: it does not end by asking the thread's
    question again (in Markdown, Obsidian and HTML); an open thread reads as its words."""
    from storyteller.telling.export import tagged
    from storyteller.telling.filters import prose

    text = "Anselm paid for it. [Thread:Who paid for the woodcut?|Closed] [Thread:Where is Oren?|Open]"
    for shown in (prose(text), prose(text, "links"), str(tagged(text))):
        assert "Who paid" not in shown and "Where is Oren?" in shown and "Anselm paid for it." in shown
    assert "[Thread:Who paid for the woodcut?|Closed]" in prose(text, "typed").replace("\\", "")

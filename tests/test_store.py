"""The sessions store: where logs live and what each one holds, as a library."""

from __future__ import annotations

from storyteller import store


def test_logs_live_in_the_data_folder_and_never_share_a_name(home):
    assert store.sessions_dir() == home / "sessions"
    first = store.new_log_path("carddom", "pine owl/7")
    assert first.parent == home / "sessions" and first.name.endswith("-carddom-pine-owl-7.jsonl")
    first.parent.mkdir(parents=True)
    first.write_text("")
    second = store.new_log_path("carddom", "pine owl/7")
    assert second != first and second.name.endswith("-2.jsonl")


def test_summaries_read_every_log_and_name_the_bad_ones(cli, home):
    assert store.summaries() == [] and store.latest_unfinished() is None
    assert cli("play", "carddom", "--seed", "3", "--auto", "random").code == 0
    folder = store.sessions_dir()
    (folder / "zz-broken.jsonl").write_text("not json\n")
    answers = home / "a.txt"
    answers.write_text("quit\n")
    assert cli("play", "carddom", "--seed", "8", "--answers", answers).code == 0
    found = {s.seed: s for s in store.summaries()}
    assert found["3"].status in ("won", "lost") and not found["3"].unfinished
    assert found["8"].status == "in progress" and found["8"].unfinished
    assert found["?"].status == "unreadable" and "not valid JSON" in found["?"].problem
    assert store.latest_unfinished() == found["8"].path

"""Cut point, split turns, tool-call pairing, earlier compactions and branches."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_transcript_builder import TranscriptBuilder, conversation

from openclaw_cli.compact.planner import NothingToCompact, find_cut_point, plan_compaction
from openclaw_cli.compact.settings import resolve_settings
from openclaw_cli.transcript import load_index


def settings(keep: int | None = None, **compaction):
    if keep is not None:
        compaction["keepRecentTokens"] = keep
    return resolve_settings({"agents": {"defaults": {"compaction": compaction}}})


def plan(builder: TranscriptBuilder, tmp_path: Path, keep: int | None = None):
    return plan_compaction(load_index(builder.write(tmp_path / "t.jsonl")), settings(keep))


def test_settings_defaults_and_config() -> None:
    s = resolve_settings(None)
    assert (s.keep_recent_tokens, s.reserve_tokens, s.keep_recent_configured, s.mode) == (20000, 20000, False, "default")
    s = resolve_settings({"agents": {"defaults": {"compaction": {"keepRecentTokens": 50.7, "reserveTokens": 30000,
                                                                  "mode": "safeguard"}}}})
    assert (s.keep_recent_tokens, s.reserve_tokens, s.keep_recent_configured, s.mode) == (50, 30000, True, "safeguard")
    assert resolve_settings({}, context_window=16000).reserve_tokens == 8000
    assert resolve_settings({"agents": {"defaults": {"compaction": {"keepRecentTokens": -1}}}}).keep_recent_tokens == 20000


def test_tool_result_is_never_the_cut(tmp_path: Path) -> None:
    b = TranscriptBuilder()
    b.user("u" * 400)
    b.assistant("a" * 400, total=100)
    b.user("please read")
    call = b.assistant(calls=[("c1", "read", {"path": "x"})], total=200)
    result = b.tool_result("c1", "read", "r" * 4000)  # 1000 tokens on its own
    b.assistant("done", total=300)
    p = plan(b, tmp_path, keep=1001)
    # the budget is reached on the tool result; the cut moves forward to the next valid point
    kept = [e.id for e in p.kept]
    assert result not in kept or call in kept
    assert p.path[p.cut.first_kept_index].role != "toolResult"
    p2 = plan(b, tmp_path, keep=1002)  # reached on the call: call and result stay together
    kept2 = [e.id for e in p2.kept]
    assert call in kept2 and result in kept2
    assert p2.is_split_turn and [e.role for e in p2.turn_prefix] == ["user"]


def test_split_turn_when_cut_is_not_a_user_message(tmp_path: Path) -> None:
    b = TranscriptBuilder()
    u1 = b.user("hello " * 50)
    a1 = b.assistant("hi " * 50, total=500)
    b.custom()
    u2 = b.user("read it")
    b.assistant(calls=[("c", "read", {"path": "notes.txt"})], total=600)
    b.tool_result("c", "read", "content")
    b.assistant("the color is teal", total=700)
    b.custom()
    u3 = b.user("again?")
    b.assistant("teal " * 20, total=800)
    last = b.custom()
    p = plan(b, tmp_path, keep=27)  # reached on u3; the cut then extends back over the custom entry
    assert p.path[p.cut.first_kept_index].type == "custom"  # extended back over the custom entry
    assert p.first_kept_entry_id != u3
    assert p.is_split_turn is True
    assert [e.id for e in p.history] == [u1, a1]
    assert p.turn_prefix[0].id == u2
    assert p.file_ops.lists() == (["notes.txt"], [])
    assert p.parent_id == last and p.tokens_before == 800


def test_everything_fits_keeps_all(tmp_path: Path) -> None:
    b = conversation(TranscriptBuilder(), 3)
    p = plan(b, tmp_path)
    assert p.cut.first_kept_index == 0 and p.history == [] and p.turn_prefix == []
    assert p.hardened is False


def test_previous_compaction_bounds_the_next_one(tmp_path: Path) -> None:
    b = TranscriptBuilder()
    b.user("old request " * 40)
    b.assistant("old answer " * 40, total=100)
    kept = b.user("kept request " * 40)
    b.assistant("kept answer " * 40, total=200)
    b.add("compaction", summary="earlier summary", firstKeptEntryId=kept, tokensBefore=200,
          details={"readFiles": ["a.txt"], "modifiedFiles": ["b.txt"]}, fromHook=False)
    b.user("new request " * 40)
    b.assistant("new answer " * 40, total=300)
    p = plan(b, tmp_path, keep=100)
    assert p.previous is not None and p.previous_summary() == "earlier summary"
    assert p.history[0].id == kept  # starts at the previous firstKeptEntryId
    assert p.file_ops.lists() == (["a.txt"], ["b.txt"])
    assert all(e.type != "compaction" for e in p.history)


def test_from_hook_compaction_file_lists_are_ignored(tmp_path: Path) -> None:
    b = TranscriptBuilder()
    kept = b.user("x " * 100)
    b.assistant("y " * 100, total=100)
    b.add("compaction", summary="s", firstKeptEntryId=kept, tokensBefore=1,
          details={"readFiles": ["a.txt"], "modifiedFiles": []}, fromHook=True)
    b.user("z " * 100)
    b.assistant("w " * 100, total=100)
    assert plan(b, tmp_path, keep=10).file_ops.lists() == ([], [])


def test_already_compacted_and_nothing_real(tmp_path: Path) -> None:
    b = TranscriptBuilder()
    u = b.user("x")
    b.assistant("y", total=10)
    b.add("compaction", summary="s", firstKeptEntryId=u, tokensBefore=1)
    with pytest.raises(NothingToCompact, match="Already compacted"):
        plan(b, tmp_path)
    empty = TranscriptBuilder()
    empty.assistant(calls=[("c", "exec", {"command": "ls"})], total=5)
    empty.tool_result("c", "exec", "out")
    with pytest.raises(NothingToCompact, match="no real conversation messages"):
        plan(empty, tmp_path)
    with pytest.raises(NothingToCompact, match="no real conversation messages"):
        plan(TranscriptBuilder(), tmp_path)


def test_branch_entries_are_not_summarised(tmp_path: Path) -> None:
    b = TranscriptBuilder()
    b.user("root " * 100)
    a1 = b.assistant("answer " * 100, total=100)
    stray = b.user("abandoned branch " * 100)
    b.user("continue " * 100, parent=a1)
    b.assistant("final " * 100, total=200)
    p = plan(b, tmp_path, keep=100)
    assert stray not in {e.id for e in p.path}
    assert stray not in {e.id for e in p.history}


def test_hardening_and_tokens_after(tmp_path: Path) -> None:
    b = conversation(TranscriptBuilder(), 12, chars=2000)
    p = plan_compaction(load_index(b.write(tmp_path / "t.jsonl")), resolve_settings(None, keep_recent_tokens=1000))
    assert p.history and p.hardened is False  # explicitly configured keep
    kept = sum(e.tokens for e in p.kept if e.in_context)
    assert p.kept_tokens == kept > 0 and p.tokens_after(10) == 10 + kept
    p = plan_compaction(load_index(tmp_path / "t.jsonl"), resolve_settings({}))
    assert p.history == [] and p.hardened is False  # 20000 default keeps everything: nothing to harden
    b = conversation(TranscriptBuilder(), 40, chars=3000)
    p = plan_compaction(load_index(b.write(tmp_path / "big.jsonl")), resolve_settings({}))
    assert p.history and p.hardened is True and p.tail  # the default tail is summarised, then dropped
    assert p.kept_tokens == 0 and p.tokens_after(10) == 10
    assert p.estimated_after(10) < p.estimated_before
    assert p.tokens_after(p.estimated_before * 2) is None  # larger than 1.1 x the context: not reported


def test_find_cut_point_without_valid_points() -> None:
    assert find_cut_point([], 0, 0, 10).first_kept_index == 0

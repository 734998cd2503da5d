"""Transcript reading, entry tree, active branch, context rebuild and token estimates."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from test_transcript_builder import TranscriptBuilder, conversation

from openclaw_cli.js import json as jsjson
from openclaw_cli.transcript import (
    TranscriptError,
    build_session_context,
    context_items,
    context_tokens,
    count_real,
    estimate_tokens,
    has_real_conversation,
    load_index,
)
from openclaw_cli.transcript.reader import iter_raw_lines, read_line_at
from openclaw_cli.transcript.tree import scan_tree, select_path

DATA = Path(__file__).parent / "data" / "real-2026.7.1" / "state" / "agents" / "main" / "sessions"
MAIN = DATA / "eb01388d-e079-474d-961b-1e1df466b667.jsonl"
FIXTURE_B = DATA / "23c43962-55e8-4eb3-a2f8-b79cf1f70924.jsonl"
FIXTURE_A_BAK = DATA / "a436f897-7aca-4203-8405-66e524820219.jsonl.bak.2026-11-30T10-34-46.528Z"


def all_fixture_lines() -> list[str]:
    return [line for path in sorted(DATA.glob("*.jsonl*")) for line in path.read_text().splitlines()
            if line.strip()]


def test_stringify_reproduces_every_line_the_gateway_wrote() -> None:
    lines = all_fixture_lines()
    assert len(lines) > 60
    for line in lines:
        assert jsjson.stringify(jsjson.parse(line)) == line


def test_stringify_js_rules() -> None:
    assert jsjson.stringify({"b": 1, "2": 2.0, "a": [1e21, 1e-7, -0.0, float("nan")]}) == \
        '{"2":2,"b":1,"a":[1e+21,1e-7,0,null]}'
    assert jsjson.stringify("\ud800\u2028\x01") == '"\\ud800\u2028\\u0001"'
    assert jsjson.stringify({}, 2) == "{}"
    assert jsjson.stringify({"a": {"b": []}}, 2) == '{\n  "a": {\n    "b": []\n  }\n}'
    with pytest.raises(jsjson.JsonLineError):
        jsjson.parse("NaN")


def test_reader_offsets_and_line_breaks(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    path.write_bytes(b'{"a":1}\r\n\n  \n{"b":"\xc3\xa9"}\r{"c":3}')
    lines = list(iter_raw_lines(path))
    assert [line.text for line in lines] == ['{"a":1}', '{"b":"é"}\r{"c":3}']
    cr = list(iter_raw_lines(path, split_cr=True, chunk_bytes=3))
    assert [line.text for line in cr] == ['{"a":1}', '{"b":"é"}', '{"c":3}']
    assert read_line_at(path, cr[1].offset, cr[1].length) == '{"b":"é"}'


def test_fixture_main_branch_and_estimates() -> None:
    index = load_index(MAIN)
    path = index.branch()
    assert index.leaf_id == "6e7ecda1-99d5-4349-b594-77013af17b1b"
    assert len(path) == 31 and path[0].id == "fbdc6ffc"
    hello = index.by_id["01c75405"]
    assert hello.role == "user" and hello.tokens == 5  # "Hello! Who are you?" = 19 chars
    call = index.by_id["028ad930"]  # read + {"path":"notes.txt"}
    assert call.tokens == 6 and call.extra["fileOps"] == (("read", "notes.txt"),)
    items = context_items(index, path)
    assert items[0].role == "compactionSummary"
    assert items[1].entry.id == "19233c10"  # firstKept 5da74c63 is a custom entry (no message)


def test_fixture_b_context_tokens_use_last_usage() -> None:
    index = load_index(FIXTURE_B)
    # drop the compaction to look at the session as the Gateway saw it before compacting
    path = index.branch(index.by_id["b945f2ef"].id)
    assert context_tokens(context_items(index, path)) == 21396


def test_branch_ignores_entries_off_the_active_path(tmp_path: Path) -> None:
    b = TranscriptBuilder()
    b.user("first")
    a1 = b.assistant("one")
    b.user("abandoned")
    b.assistant("abandoned answer")
    b.user("second", parent=a1)
    b.assistant("two")
    index = load_index(b.write(tmp_path / "t.jsonl"))
    texts = [index.load(e)["message"]["content"] for e in index.branch() if e.role == "user"]
    assert texts == ["first", "second"]
    assert len(index.entries) == 6


def test_leaf_control_and_side_append_select_the_leaf(tmp_path: Path) -> None:
    b = TranscriptBuilder()
    u1 = b.user("first")
    a1 = b.assistant("one")
    b.user("second")
    b.assistant("two")
    b.add("leaf", parent=b.leaf, targetId=a1)
    b.add("custom", parent=a1, customType="note", appendMode="side")
    index = load_index(b.write(tmp_path / "t.jsonl"))
    assert index.leaf_id == a1
    assert [e.id for e in index.branch()] == [u1, a1]


def test_entry_without_parent_key_is_a_child_of_the_leaf(tmp_path: Path) -> None:
    b = TranscriptBuilder()
    b.user("first")
    a1 = b.assistant("one")
    b.records.append({"type": "message", "id": "nokey001", "timestamp": "2026-11-30T10:00:00.000Z",
                      "message": {"role": "user", "content": "legacy"}})
    index = load_index(b.write(tmp_path / "t.jsonl"))
    assert index.leaf_id == "nokey001"
    assert index.branch()[-2].id == a1


def test_malformed_lines_are_skipped_with_a_warning(tmp_path: Path, caplog) -> None:
    b = TranscriptBuilder()
    b.user("first")
    b.raw("{not json")
    b.raw("")
    b.raw("[1,2]")
    b.assistant("one")
    with caplog.at_level(logging.WARNING):
        index = load_index(b.write(tmp_path / "t.jsonl"))
    assert index.skipped_lines == 1
    assert "malformed" in caplog.text
    assert [e.role for e in index.branch()] == ["user", "assistant"]


def test_header_only_and_missing_header(tmp_path: Path) -> None:
    index = load_index(TranscriptBuilder().write(tmp_path / "h.jsonl"))
    assert index.entries == [] and index.branch() == []
    assert not has_real_conversation(context_items(index, []))
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"type":"message","id":"x","parentId":null}\n')
    with pytest.raises(TranscriptError):
        load_index(bad)
    with pytest.raises(TranscriptError):
        load_index(tmp_path / "missing.jsonl")
    v1 = tmp_path / "v1.jsonl"
    v1.write_text('{"type":"session","id":"s"}\n{"type":"message","message":{"role":"user","content":"x"}}\n')
    with pytest.raises(TranscriptError, match="version 1"):
        load_index(v1)


def test_version2_hook_messages_read_as_custom(tmp_path: Path) -> None:
    b = TranscriptBuilder(version=2)
    b.message({"role": "hookMessage", "content": "hook text", "display": True})
    index = load_index(b.write(tmp_path / "t.jsonl"))
    assert index.entries[0].role == "custom"


def test_parent_cycle_terminates(tmp_path: Path) -> None:
    b = TranscriptBuilder()
    b.user("a", parent="00000002")
    b.user("b", parent="00000001")
    index = load_index(b.write(tmp_path / "t.jsonl"))
    assert len(index.branch()) == 2


def test_estimate_tokens_per_role() -> None:
    assert estimate_tokens({"role": "user", "content": [{"type": "text", "text": "abcd"},
                                                        {"type": "image", "data": "x"}]}) == 1201
    assert estimate_tokens({"role": "assistant", "content": [
        {"type": "toolCall", "name": "read", "arguments": {"path": "a"}}]}) == 4  # 4 + 12 chars
    assert estimate_tokens({"role": "toolResult", "content": "12345"}) == 2
    assert estimate_tokens({"role": "bashExecution", "command": "ls", "output": "ab"}) == 1
    assert estimate_tokens({"role": "user", "content": "😀😀"}) == 1  # 4 UTF-16 units
    assert estimate_tokens({"role": "system", "content": "ignored"}) == 0


def test_build_session_context_keeps_from_first_kept_entry() -> None:
    entries = [jsjson.parse(line) for line in MAIN.read_text().splitlines()[1:]]
    ctx = build_session_context(entries)
    assert ctx["messages"][0]["role"] == "compactionSummary"
    assert ctx["messages"][1]["content"] == "Run `echo hi` in the shell please."
    assert ctx["thinkingLevel"] == "off"


def test_real_conversation_counts() -> None:
    index = load_index(FIXTURE_B)
    items = context_items(index, index.branch())
    assert count_real(items) >= 6


def test_tree_scan_selects_path_and_handles_cycles() -> None:
    records = [{"type": "message", "id": "a", "parentId": None},
               {"type": "message", "id": "b", "parentId": "a"},
               {"type": "leaf", "id": "l", "parentId": "b", "targetId": "a"},
               {"type": "message", "id": "c", "parentId": "a"}]
    tree = scan_tree(records)
    assert tree.leaf_id == "c" and tree.has_leaf_control
    assert [n.id for n in select_path(tree, "c")] == ["a", "c"]
    loop = scan_tree([{"type": "message", "id": "x", "parentId": "y"},
                      {"type": "message", "id": "y", "parentId": "x"}])
    assert select_path(loop, "y") == []


def test_large_conversation_index(tmp_path: Path) -> None:
    index = load_index(conversation(TranscriptBuilder(), 30).write(tmp_path / "t.jsonl"))
    assert index.has_assistant and len(index.branch()) == len(index.entries)

"""The display reader (chat history view) and the `/context detail` compactable counts."""

from __future__ import annotations

import json
from pathlib import Path

from test_transcript_builder import TranscriptBuilder

from openclaw_cli.transcript.display import compactable_counts, read_display_messages

MAIN = (Path(__file__).parent / "data" / "real-2026.7.1" / "state" / "agents" / "main" / "sessions"
        / "eb01388d-e079-474d-961b-1e1df466b667.jsonl")


def test_counts_match_the_gateways_context_detail(tmp_path: Path) -> None:
    # /context detail ran when the transcript ended with the /context list reply (28 lines)
    path = tmp_path / "t.jsonl"
    path.write_text("".join(MAIN.read_text().splitlines(keepends=True)[:28]))
    assert compactable_counts(path) == (16, 19)


def test_tool_only_branch_counts_zero(tmp_path: Path) -> None:
    b = TranscriptBuilder()
    b.assistant(calls=[("c", "exec", {"command": "ls"})], total=1)
    b.tool_result("c", "exec", "out")
    assert compactable_counts(b.write(tmp_path / "t.jsonl")) == (0, 2)
    b = TranscriptBuilder()
    b.user("Please inspect the repo")
    b.assistant(calls=[("c", "exec", {"command": "ls"})], total=1)
    b.tool_result("c", "exec", "out")
    assert compactable_counts(b.write(tmp_path / "u.jsonl")) == (2, 3)


def test_branch_with_earlier_compaction_prepended(tmp_path: Path) -> None:
    b = TranscriptBuilder()
    b.user("one")
    a = b.assistant("two", total=1)
    b.add("compaction", summary="s", firstKeptEntryId=a, tokensBefore=1)
    b.user("other root", parent=None)
    b.assistant("reply", total=2)
    messages = read_display_messages(b.write(tmp_path / "t.jsonl"))
    assert [m.role for m in messages] == ["system", "user", "assistant"]


def test_linear_records_without_links_are_read_in_file_order(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in [
        {"type": "session", "id": "s"}, {"type": "message", "message": {"role": "user", "content": "hi"}},
        {"type": "message", "message": {"role": "assistant", "content": [{"type": "text", "text": "yo"}]}}]))
    assert compactable_counts(path) == (2, 2)

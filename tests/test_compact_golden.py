"""Golden tests against state the real 2026.7.1 Gateway wrote: prompts, trims, entries, store."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from openclaw_cli.compact.entry import compaction_entry, serialize_line
from openclaw_cli.compact.maxlines import plan_trim, trim_transcript
from openclaw_cli.compact.planner import plan_compaction
from openclaw_cli.compact.settings import resolve_settings
from openclaw_cli.compact.store import CompactionOutcome, apply_compaction_to_entry
from openclaw_cli.compact.summarizers.openai import OpenAISummarizer
from openclaw_cli.js import json as jsjson
from openclaw_cli.transcript import load_index

FIXTURE = Path(__file__).parent / "data" / "real-2026.7.1"
SESSIONS = FIXTURE / "state" / "agents" / "main" / "sessions"
MAIN = SESSIONS / "eb01388d-e079-474d-961b-1e1df466b667.jsonl"
FIXTURE_A = SESSIONS / "a436f897-7aca-4203-8405-66e524820219.jsonl"
FIXTURE_A_BAK = SESSIONS / "a436f897-7aca-4203-8405-66e524820219.jsonl.bak.2026-11-30T10-34-46.528Z"
FIXTURE_B = SESSIONS / "23c43962-55e8-4eb3-a2f8-b79cf1f70924.jsonl"
KEEP_50 = {"agents": {"defaults": {"compaction": {"keepRecentTokens": 50}}}}


def requests() -> list[dict]:
    return [json.loads(line)["body"] for line in (FIXTURE / "compaction-requests.jsonl").read_text().splitlines()]


def before_compaction(path: Path, lines: int, tmp_path: Path) -> Path:
    """The transcript as it was when the Gateway compacted it (its first `lines` lines)."""
    out = tmp_path / path.name
    out.write_text("".join(path.read_text().splitlines(keepends=True)[:lines]))
    return out


def compaction_line(path: Path) -> dict:
    return next(json.loads(line) for line in path.read_text().splitlines()
                if json.loads(line).get("type") == "compaction")


def store_entry(key: str) -> dict:
    return json.loads((SESSIONS / "sessions.json").read_text())[key]


def summarizer(replies: list[str]) -> OpenAISummarizer:
    queue = list(replies)
    return OpenAISummarizer(base_url="http://unused", model="fake-model", model_max_tokens=4096,
                            transport=lambda body: queue.pop(0))


def fake_replies_from(summary: str) -> list[str]:
    """Split a recorded split-turn summary back into the two model replies."""
    body = summary.split("\n\n<read-files>")[0]
    history, _, prefix = body.partition("\n\n---\n\n**Turn Context (split turn):**\n\n")
    return [history, prefix] if prefix else [history]


def test_empty_conversation_prompt_matches_the_gateway(tmp_path: Path) -> None:
    plan = plan_compaction(load_index(before_compaction(FIXTURE_B, 15, tmp_path)), resolve_settings({}))
    assert summarizer([]).planned_requests(plan) == requests()[:1]


def test_split_turn_prompts_match_the_gateway(tmp_path: Path) -> None:
    plan = plan_compaction(load_index(before_compaction(MAIN, 20, tmp_path)), resolve_settings(KEEP_50))
    bodies = summarizer([]).planned_requests(plan)
    assert bodies == requests()[1:]
    assert list(bodies[0]) == list(requests()[1])  # key order too


@pytest.mark.parametrize("path, lines, config", [(MAIN, 20, KEEP_50), (FIXTURE_B, 15, {})])
def test_compaction_entry_bytes_match_the_gateway(tmp_path: Path, path: Path, lines: int, config: dict) -> None:
    recorded = compaction_line(path)
    plan = plan_compaction(load_index(before_compaction(path, lines, tmp_path)), resolve_settings(config))
    produced = summarizer(fake_replies_from(recorded["summary"])).summarize(plan)
    entry = compaction_entry(entry_id=recorded["id"], parent_id=plan.parent_id, timestamp=recorded["timestamp"],
                             summary=produced.summary, first_kept_entry_id=plan.first_kept_entry_id,
                             tokens_before=plan.tokens_before, details=produced.details,
                             from_hook=produced.from_hook)
    expected = next(line for line in path.read_text().splitlines() if '"type":"compaction"' in line)
    assert serialize_line(entry) == expected + "\n"
    assert plan.hardened is False


def test_max_lines_trim_reproduces_the_gateway_bytes(tmp_path: Path) -> None:
    work = tmp_path / FIXTURE_A.name
    shutil.copy(FIXTURE_A_BAK, work)
    original = work.read_bytes()
    result = trim_transcript(work, 6, stamp_ms=1796034886528)
    assert result.compacted and result.kept == 6
    assert result.archived == f"{work}.bak.2026-11-30T10-34-46.528Z"
    assert work.read_bytes() == FIXTURE_A.read_bytes()
    assert Path(result.archived).read_bytes() == original
    assert sorted(p.name for p in tmp_path.iterdir()) == [work.name, Path(result.archived).name]
    assert oct(work.stat().st_mode & 0o777) == oct(0o600)


def test_max_lines_noop_and_invalid_header(tmp_path: Path) -> None:
    assert plan_trim(FIXTURE_A_BAK, 20).compacted is False and plan_trim(FIXTURE_A_BAK, 20).kept == 20
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"type":"message","id":"a","parentId":null}\n' * 5)
    assert trim_transcript(bad, 2).kept == 0 and len(list(tmp_path.iterdir())) == 1


def test_max_lines_repoints_compaction_and_leaf_controls(tmp_path: Path) -> None:
    lines = [
        {"type": "session", "version": 3, "id": "s", "timestamp": "t", "cwd": "/"},
        *({"type": "message", "id": f"m{i}", "parentId": f"m{i - 1}" if i else None, "timestamp": "t",
           "message": {"role": "user", "content": str(i)}} for i in range(10)),
        {"type": "compaction", "id": "c", "parentId": "m9", "timestamp": "t", "summary": "s",
         "firstKeptEntryId": "m2", "tokensBefore": 5},
    ]
    path = tmp_path / "t.jsonl"
    path.write_text("\n".join(json.dumps(x, separators=(",", ":")) for x in lines) + "\nnot json\n"
                    + json.dumps({"type": "leaf", "id": "l", "parentId": "c", "targetId": "m1"}) + "\n")
    result = plan_trim(path, 5)
    records = [jsjson.parse(line) for line in result.lines]
    # header + the last 4 lines; the unparsable one is dropped
    assert [r.get("id") for r in records] == ["s", "m9", "c", "l"]
    assert records[1]["parentId"] is None
    assert records[2]["firstKeptEntryId"] == "m9"
    assert records[3]["targetId"] is None and records[3]["appendParentId"] is None


def test_store_entry_after_max_lines_matches_the_gateway() -> None:
    after = store_entry("agent:main:fixture-a")
    before = dict(after, inputTokens=23339, outputTokens=18, totalTokens=23357, totalTokensFresh=True,
                  contextBudgetStatus={"state": "ok"})
    before["updatedAt"] = 1796034880415
    updated = apply_compaction_to_entry(before, CompactionOutcome(kind="max-lines", now_ms=after["updatedAt"]))
    assert jsjson.stringify(updated) == jsjson.stringify(after)


def test_store_entry_after_summary_compaction_matches_the_gateway() -> None:
    after = store_entry("agent:main:fixture-b")
    checkpoint = after["compactionCheckpoints"][0]
    before = {k: v for k, v in after.items() if k != "compactionCheckpoints"}
    before.update(compactionCount=0, updatedAt=1796034883926, inputTokens=21377, outputTokens=19,
                  totalTokens=21396, totalTokensFresh=True)
    outcome = CompactionOutcome(
        kind="summary", now_ms=after["updatedAt"], tokens_before=checkpoint["tokensBefore"], tokens_after=None,
        summary=checkpoint["summary"] + "\n", first_kept_entry_id=checkpoint["firstKeptEntryId"],
        session_key="agent:main:fixture-b", session_id=checkpoint["sessionId"],
        session_file=checkpoint["postCompaction"]["sessionFile"], pre_leaf_id="b945f2ef",
        pre_entry_id="b945f2ef", post_leaf_id="231f3249", started_ms=checkpoint["createdAt"],
        checkpoint_id=checkpoint["checkpointId"])
    updated = apply_compaction_to_entry(before, outcome)
    assert jsjson.stringify(updated) == jsjson.stringify(after)

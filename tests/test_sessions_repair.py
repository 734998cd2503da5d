"""`sessions repair KEY`: the Gateway's load-time hygiene persisted; dry-run diff, .bak/.rejected, rename, lock."""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path

import pytest
from helpers.cli import run
from helpers.health import (
    KEY,
    SID,
    assistant,
    clean_entries,
    corpus_home,
    header,
    result,
    session_home,
    snapshot,
    user,
)

from openclaw_cli.health.repair import MISSING_TOOL_RESULT_TEXT, synthetic_id
from openclaw_cli.locks.session_lock import lock_path_for
from openclaw_cli.transcript.repair import BLANK_USER_FALLBACK_TEXT, STREAM_ERROR_FALLBACK_TEXT

ENV = {"OPENCLAW_GATEWAY_PORT": "1"}


def repair(home: Path, *args: str, code: int = 0) -> dict:
    res = run(["sessions", "repair", KEY, "--json", *args], home, ENV)
    assert res.returncode == code, res.stderr
    return json.loads(res.stdout) if code == 0 else {"stderr": res.stderr}


def entries(path: Path) -> list[dict]:
    return [json.loads(x) for x in path.read_text().splitlines() if x.strip()]


def verify_codes(home: Path) -> set[str]:
    res = run(["sessions", "verify", KEY, "--json"], home, ENV)
    return {f["code"] for s in json.loads(res.stdout)["sessions"] for f in s["findings"]}


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if ".bak." in p.name or ".rejected." in p.name
                  or p.name.endswith(".tmp") or p.name.endswith(".lock"))


DANGLING = [*clean_entries()[:3], user("u2", "a1", "next"), assistant("a3", "u2", text="done")]


def test_dry_run_prints_the_diff_and_changes_nothing(home):
    path = session_home(home, [*DANGLING, "not json {"])
    before = snapshot(home)
    res = run(["sessions", "repair", KEY, "--dry-run"], home, ENV)
    assert res.returncode == 0, res.stderr
    sid = synthetic_id(SID, "call_1")
    assert res.stdout.splitlines() == [
        f"Session: {KEY}",
        f"Transcript: {path}",
        "Would change: 1 added, 1 changed, 0 dropped, 1 rejected",
        f"+ after line 3 entry {sid}: synthetic error toolResult for toolCall call_1 (read) of entry a1, after line 3",
        f"~ line 4 entry u2: parentId a1 -> {sid} (after the synthetic toolResult)",
        "! line 6: not a JSON object (the Gateway drops it); moved to the .rejected file",
        "Dry run: nothing was written.",
    ]
    assert snapshot(home) == before


def test_a_dangling_tool_call_gets_the_gateways_synthetic_result_after_its_turn(home):
    path = session_home(home, DANGLING)
    original = path.read_bytes()
    out = repair(home)
    assert out["repaired"] is True and [c["action"] for c in out["changes"]] == ["add", "change"]
    got = entries(path)
    synthetic = got[3]
    assert [e["id"] for e in got[1:]] == ["u1", "a1", synthetic_id(SID, "call_1"), "u2", "a3"]
    assert synthetic["parentId"] == "a1" and got[4]["parentId"] == synthetic["id"]
    message = synthetic["message"]
    assert message["role"] == "toolResult" and message["toolCallId"] == "call_1" and message["toolName"] == "read"
    assert message["isError"] is True and message["content"] == [{"type": "text", "text": MISSING_TOOL_RESULT_TEXT}]
    assert message["details"] == {"openclawSyntheticMissingToolResult": True}
    assert Path(out["backup"]).read_bytes() == original and out["backup"].startswith(f"{path}.bak.")
    assert out["rejected"] is None
    assert verify_codes(home) == set()
    # unchanged lines are kept byte for byte
    assert path.read_bytes().splitlines()[:3] == original.splitlines()[:3]


def test_the_responses_apis_get_the_text_their_requests_get(home):
    turn = assistant("a1", "u1", "call_1")
    turn["message"]["api"] = "openai-responses"
    session_home(home, [clean_entries()[0], user("u1", None), turn, user("u2", "a1")])
    repair(home)
    got = entries(Path(home / ".openclaw/agents/main/sessions" / f"{SID}.jsonl"))
    assert got[3]["message"]["content"][0]["text"] == "aborted"


def test_an_orphan_result_is_dropped_and_its_child_takes_its_parent(home):
    lines = [*clean_entries()[:2], assistant("a0", "u1", text="no call"), result("r9", "a0", "call_x"),
             assistant("a2", "r9", text="x")]
    path = session_home(home, lines)
    out = repair(home)
    assert [(c["action"], c["entryId"]) for c in out["changes"]] == [("drop", "r9"), ("change", "a2")]
    assert [(e["id"], e.get("parentId")) for e in entries(path)[1:]] == [("u1", None), ("a0", "u1"), ("a2", "a0")]
    assert verify_codes(home) == set()


def test_a_failed_turn_is_left_as_the_gateway_reads_it(home):
    lines = [clean_entries()[0], user("u1", None), assistant("a1", "u1", "call_1", stop="error"), user("u2", "a1")]
    path = session_home(home, lines)
    before = path.read_bytes()
    out = repair(home)
    assert out["repaired"] is False and out["changes"] == []
    assert [f["code"] for f in out["unrepaired"]] == ["failed-turn-tool-call"]
    assert path.read_bytes() == before and leftovers(path.parent) == []


def test_the_session_file_repair_the_gateway_writes_itself(home):
    errored = assistant("a1", "u1")
    errored["message"].update(content=[], stopReason="error")
    blank = user("u2", "a1", "   ")
    roleless = {"type": "message", "id": "m0", "parentId": "u2", "timestamp": "2026-11-30T10:00:05.000Z",
                "message": {"content": "who am i"}}
    path = session_home(home, [clean_entries()[0], user("u1", None), errored, blank, roleless])
    out = repair(home)
    assert [(c["action"], c["line"]) for c in out["changes"]] == [("change", 3), ("change", 4), ("drop", 5)]
    got = {e["id"]: e for e in entries(path)}
    assert got["a1"]["message"]["content"] == [{"type": "text", "text": STREAM_ERROR_FALLBACK_TEXT}]
    assert got["u2"]["message"]["content"] == [{"type": "text", "text": BLANK_USER_FALLBACK_TEXT}]
    assert "m0" not in got


def test_malformed_lines_move_to_the_rejected_file_with_their_line_numbers(home):
    bad_utf8 = b'{"type":"custom","customType":"x","data":"\xff","id":"c1","parentId":"a2"}'
    path = session_home(home, [*clean_entries(), "{broken", bad_utf8, "[1,2]"])
    out = repair(home)
    rejected = Path(out["rejected"])
    assert rejected.name.startswith(f"{SID}.jsonl.rejected.") and rejected.name[-24:] == Path(out["backup"]).name[-24:]
    assert rejected.read_bytes() == b"6\t{broken\n7\t" + bad_utf8 + b"\n8\t[1,2]\n"
    got = entries(path)
    assert [e["id"] for e in got[1:]] == ["u1", "a1", "r1", "a2", "c1"]
    assert got[-1]["data"] == "\ufffd"  # kept as the Gateway reads it
    assert verify_codes(home) == set()


def test_nothing_to_repair_writes_nothing(home):
    folder = corpus_home(home)
    before = snapshot(home)
    res = run(["sessions", "repair", "agent:main:main"], home, ENV)
    assert res.returncode == 0 and "Nothing to repair" in res.stdout
    assert snapshot(home) == before and not any(".rejected." in n for n in snapshot(folder))


def test_a_live_lock_holder_makes_repair_exit_75_and_change_nothing(home):
    from openclaw_cli.compact.clock import iso_timestamp, now_ms

    path = session_home(home, DANGLING)
    holder = subprocess.Popen(["bash", "-c", "sleep 30; true", "openclaw"], stdout=subprocess.DEVNULL)
    try:
        time.sleep(0.1)
        lock_path_for(path).write_text(json.dumps({"pid": holder.pid, "createdAt": iso_timestamp(now_ms()),
                                                   "maxHoldMs": 300000}))
        before = snapshot(home)
        res = run(["sessions", "repair", KEY], home, ENV)
        assert res.returncode == 75 and str(holder.pid) in res.stderr
        assert snapshot(home) == before
        assert run(["sessions", "repair", KEY, "--dry-run"], home, ENV).returncode == 0
    finally:
        holder.kill()
        holder.wait()


def test_the_lock_is_released_and_no_temp_file_is_left(home):
    path = session_home(home, DANGLING)
    repair(home)
    names = leftovers(path.parent)
    assert len(names) == 1 and names[0].startswith(f"{SID}.jsonl.bak.")


@pytest.mark.parametrize("lines, message", [
    ([*clean_entries()[1:]], "no valid session header"),
    ([{**header(), "version": 1}, *clean_entries()[1:]], "version 1 transcript"),
])
def test_a_transcript_without_a_usable_header_is_refused_unchanged(home, lines, message):
    session_home(home, lines)
    before = snapshot(home)
    res = run(["sessions", "repair", KEY], home, ENV)
    assert res.returncode == 1 and message in res.stderr and "Traceback" not in res.stderr
    assert snapshot(home) == before


@pytest.mark.parametrize("args, code", [([], 2), (["   "], 2), (["agent:main:nope"], 1), ([KEY, "--bogus"], 2)])
def test_bad_keys_and_usage_are_one_line_errors(home, args, code):
    session_home(home, DANGLING)
    before = snapshot(home)
    res = run(["sessions", "repair", *args], home, ENV)
    assert res.returncode == code and "Traceback" not in res.stderr
    assert snapshot(home) == before


def test_an_oversized_line_is_copied_byte_for_byte(home):
    big = {"type": "custom", "customType": "blob", "data": "y" * (9 * 1024 * 1024), "id": "big", "parentId": "a2"}
    path = session_home(home, [*clean_entries(), big, user("u2", "big", "next"), assistant("a3", "u2", "call_9"),
                               user("u3", "a3", "more")])
    raw_big = json.dumps(big, separators=(",", ":")).encode()
    repair(home)
    assert raw_big + b"\n" in path.read_bytes()
    assert verify_codes(home) == {"line-too-long"}


def test_an_existing_backup_of_the_same_moment_is_never_overwritten(home, monkeypatch):
    from openclaw_cli.health import repair as health_repair

    path = session_home(home, DANGLING)
    backup, _rejected = health_repair.stamp_paths(str(path), 1796032800000)
    Path(backup).write_text("an earlier backup\n")
    monkeypatch.setattr("openclaw_cli.compact.clock.now_ms", lambda: 1796032800000)
    before = snapshot(home)
    res = run(["sessions", "repair", KEY], home, ENV)
    assert res.returncode == 1 and "nothing was changed" in res.stderr and "Traceback" not in res.stderr
    assert snapshot(home) == before


def test_a_corrupted_image_becomes_the_gateways_placeholder_text(home):
    from openclaw_cli.transcript.repair import CORRUPTED_IMAGE_FALLBACK_TEXT

    pic = user("u1", None)
    pic["message"]["content"].append({"type": "image", "mimeType": "image/png", "data": "bm90IGFuIGltYWdl"})
    path = session_home(home, [clean_entries()[0], pic, *clean_entries()[2:]])
    out = repair(home)
    assert [(c["action"], c["line"], c["reason"]) for c in out["changes"]] == [
        ("change", 2, "image whose data is not an image: the Gateway's placeholder text")]
    assert entries(path)[1]["message"]["content"][1] == {"type": "text", "text": CORRUPTED_IMAGE_FALLBACK_TEXT}

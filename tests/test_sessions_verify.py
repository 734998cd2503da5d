"""`sessions verify`: one finding per problem with line and entry id, stable codes, exit codes, bounded memory."""

from __future__ import annotations

import json
import os
import tracemalloc
from pathlib import Path

import pytest
from helpers.cli import run
from helpers.health import (
    CORPUS_IDS,
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
    write_lines,
    write_trajectory,
)
from helpers.state import home_sessions_dir

from openclaw_cli.health.findings import CODES

ENV = {"OPENCLAW_GATEWAY_PORT": "1"}


def verify_json(home: Path, *args: str, code: int | None = None) -> list[dict]:
    res = run(["sessions", "verify", "--json", *args], home, ENV)
    if code is not None:
        assert res.returncode == code, res.stderr
    return json.loads(res.stdout)["sessions"]


def findings(home: Path, *args: str) -> list[dict]:
    return [f for s in verify_json(home, *args) for f in s["findings"]]


def codes(home: Path, *args: str) -> set[str]:
    return {f["code"] for f in findings(home, *args)}


def test_the_real_2026_7_1_corpus_is_clean_with_and_without_orphans(home):
    corpus_home(home)
    sessions = verify_json(home, "--orphans", code=0)
    assert {s["key"] for s in sessions} == set(CORPUS_IDS)
    assert all(s["ok"] and s["findings"] == [] for s in sessions)
    assert {os.path.basename(s["path"]) for s in sessions} == {f"{sid}.jsonl" for sid in CORPUS_IDS.values()}
    text = run(["sessions", "verify"], home, ENV)
    assert text.returncode == 0 and "Verified 3 transcripts: 3 ok, 0 with warnings, 0 with errors." in text.stdout


def test_verify_changes_nothing_on_disk(home):
    folder = corpus_home(home)
    path = folder / f"{CORPUS_IDS['agent:main:fixture-b']}.jsonl"
    path.write_text(path.read_text() + "not json\n")
    before = snapshot(home)
    assert run(["sessions", "verify", "--orphans"], home, ENV).returncode == 1
    assert snapshot(home) == before


def test_a_clean_built_transcript_has_no_finding(home):
    session_home(home, clean_entries())
    assert verify_json(home, code=0) == [{"key": KEY, "path": str(home_sessions_dir(home) / f"{SID}.jsonl"),
                                          "ok": True, "findings": []}]


# Each case: the lines of a transcript that has exactly one kind of problem, the code, its line and entry id.
def _cases() -> dict[str, tuple[list, int | None, str | None]]:
    base = clean_entries()
    return {
        "missing-header": (base[1:], 1, None),
        "invalid-header": ([header(sid=""), *base[1:]], 1, None),
        "not-json": ([*base[:3], '{"type":"message", broken', *base[3:]], 4, None),
        "not-utf8": ([*base[:2], b'{"type":"custom","customType":"x","data":"\xff\xfe","id":"c1","parentId":"u1"}',
                      *[{**e, "parentId": "c1"} if e["id"] == "a1" else e for e in base[2:]]], 3, "c1"),
        "duplicate-id": ([*base, assistant("a2", "a2", text="again")], 6, "a2"),
        "dangling-parent": ([*base[:4], assistant("a2", "gone", text="x")], 5, "a2"),
        "multiple-roots": ([*base, user("u9", None, "a second root")], 6, "u9"),
        "compaction-target-missing": ([*base, {"type": "compaction", "id": "k1", "parentId": "a2",
                                               "timestamp": "2026-11-30T10:00:04.000Z", "summary": "s",
                                               "firstKeptEntryId": "nope", "tokensBefore": 10}], 6, "k1"),
        "tool-result-missing": ([*base[:3], user("u2", "a1", "next")], 3, "a1"),
        "tool-result-orphan": ([*base[:2], assistant("a0", "u1", text="no call"), result("r1", "a0", "call_x"),
                                assistant("a2", "r1", text="x")], 4, "r1"),
        "failed-turn-tool-call": ([*base[:2], assistant("a1", "u1", "call_1", stop="aborted"), user("u2", "a1")], 3, "a1"),
        "legacy-version": ([{**header(), "version": 2}, *base[1:]], 1, None),
    }


@pytest.mark.parametrize("code", sorted(_cases()))
def test_each_problem_is_one_finding_with_its_code_line_and_entry_id(home, code):
    lines, line, entry = _cases()[code]
    session_home(home, lines)
    found = [f for f in findings(home) if f["code"] == code]
    assert len(found) == 1, findings(home)
    assert (found[0]["line"], found[0]["entryId"], found[0]["severity"]) == (line, entry, CODES[code][0])
    assert found[0]["message"]
    other_errors = {f["code"] for f in findings(home) if f["severity"] == "error"} - {code}
    assert other_errors <= {"dangling-parent"} if code == "missing-header" else not other_errors


@pytest.mark.parametrize("code", sorted(_cases()))
def test_the_same_transcript_without_the_problem_has_no_such_finding(home, code):
    session_home(home, clean_entries())
    assert code not in codes(home)


@pytest.mark.parametrize("code", sorted(_cases()))
def test_an_error_finding_makes_verify_exit_1_and_a_note_does_not(home, code):
    session_home(home, _cases()[code][0])
    expected = 1 if CODES[code][0] == "error" else 0
    assert run(["sessions", "verify"], home, ENV).returncode == expected


def test_header_id_that_is_not_the_file_name_nor_the_entrys_session_id(home):
    other = "11111111-2222-4333-8444-555555555555"
    session_home(home, [header(other), *clean_entries()[1:]])
    found = [f for f in findings(home) if f["code"] == "header-id-mismatch"]
    assert [f["line"] for f in found] == [1, 1]
    assert other in found[0]["message"] and SID in found[0]["message"] and SID in found[1]["message"]


def test_a_topic_transcript_named_after_its_header_id_is_no_mismatch(home):
    folder = home_sessions_dir(home)
    path = write_lines(folder / f"{SID}-topic-42.jsonl", clean_entries())
    (folder / "sessions.json").write_text(json.dumps({KEY: {"sessionId": SID, "updatedAt": 1,
                                                            "sessionFile": str(path)}}))
    assert verify_json(home, code=0)[0]["findings"] == []


def test_a_line_over_8_mib_is_a_warning_read_in_bounded_memory(home):
    big = {"type": "message", "id": "big", "parentId": "r1", "timestamp": "2026-11-30T10:00:04.000Z",
           "message": {"role": "user", "content": "x" * (20 * 1024 * 1024)}}
    entries = clean_entries()
    path = session_home(home, [*entries[:4], big, {**entries[4], "parentId": "big"}])
    from openclaw_cli.health.verify import verify_file

    tracemalloc.start()
    try:
        found = verify_file(str(path), SID)
        _current, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert [(f.code, f.line, f.entry_id) for f in found] == [("line-too-long", 5, "big")]
    assert peak < 12 * 1024 * 1024, peak
    res = run(["sessions", "verify"], home, ENV)
    assert res.returncode == 0 and "line-too-long" in res.stdout


def test_pairing_is_checked_on_the_active_branch_only(home):
    base = clean_entries()
    # an abandoned branch from u1 with an unanswered call; the active branch (the last entry's) is clean
    lines = [*base[:2], assistant("x1", "u1", "call_x"), *base[2:]]
    session_home(home, lines)
    assert codes(home) == set()


def test_a_result_given_later_in_the_branch_still_answers_its_call(home):
    base = clean_entries()
    lines = [*base[:3], user("u2", "a1", "go on"), result("r1", "u2", "call_1"), assistant("a2", "r1", text="x")]
    session_home(home, lines)
    assert codes(home) == set()


def test_a_second_result_for_one_call_is_an_orphan(home):
    base = clean_entries()
    session_home(home, [*base[:4], result("r2", "r1", "call_1"), assistant("a2", "r2", text="x")])
    found = [f for f in findings(home) if f["code"] == "tool-result-orphan"]
    assert [(f["line"], f["entryId"]) for f in found] == [(5, "r2")] and "answered before" in found[0]["message"]


def test_a_transcript_shared_by_two_keys_and_a_missing_one(home):
    path = session_home(home, clean_entries(), extra={
        "agent:main:explicit:twin": {"sessionId": SID, "updatedAt": 1},
        "agent:main:explicit:gone": {"sessionId": "99999999-2222-4333-8444-555555555555", "updatedAt": 1}})
    sessions = verify_json(home, code=1)
    by_key = {s["key"]: s for s in sessions}
    shared = by_key[KEY]["findings"]
    assert [f["code"] for f in shared] == ["shared-transcript"] and "agent:main:explicit:twin" in shared[0]["message"]
    assert by_key[KEY]["path"] == str(path)
    assert [f["code"] for f in by_key["agent:main:explicit:gone"]["findings"]] == ["transcript-missing"]
    assert by_key["agent:main:explicit:gone"]["ok"] is True


def test_orphans_name_their_likely_key_from_a_backup_the_trajectory_or_the_fallback(home):
    folder = corpus_home(home)
    store = json.loads((folder / "sessions.json").read_text())
    (folder / "sessions.json.bak.1796032800000").write_text(json.dumps(
        {"agent:main:telegram:direct:42": store["agent:main:main"]}))
    (folder / "sessions.json").write_text("{}")
    write_trajectory(folder, CORPUS_IDS["agent:main:fixture-a"], "agent:main:fixture-a")
    orphan = write_lines(folder / f"{SID}.jsonl", clean_entries())
    assert verify_json(home, code=0) == []
    sessions = {s["path"]: s for s in verify_json(home, "--orphans", code=0)}
    main = sessions[str(folder / f"{CORPUS_IDS['agent:main:main']}.jsonl")]
    assert (main["key"], main["likelyKey"], main["keySource"]) == (
        None, "agent:main:telegram:direct:42", "backup:sessions.json.bak.1796032800000")
    assert main["findings"][0]["code"] == "unreferenced" and main["ok"] is True
    fixture_a = sessions[str(folder / f"{CORPUS_IDS['agent:main:fixture-a']}.jsonl")]
    assert (fixture_a["likelyKey"], fixture_a["keySource"]) == ("agent:main:fixture-a", "trajectory")
    plain = sessions[str(orphan)]
    assert (plain["likelyKey"], plain["keySource"]) == (f"agent:main:recovered:{SID}", "fallback")
    assert [f["code"] for f in plain["findings"]] == ["unreferenced"]


def test_one_key_is_verified_alone_and_an_unknown_key_is_an_error(home):
    corpus_home(home)
    sessions = verify_json(home, "agent:main:fixture-a", code=0)
    assert [s["key"] for s in sessions] == ["agent:main:fixture-a"]
    assert [s["key"] for s in verify_json(home, "fixture-b", code=0)] == ["agent:main:fixture-b"]
    res = run(["sessions", "verify", "agent:main:nope"], home, ENV)
    assert res.returncode == 1 and res.stderr.strip().splitlines()[0].startswith("unknown session agent:main:nope")


@pytest.mark.parametrize("args", [["--agent", "main", "--all-agents"], ["main", "--all-agents"], ["--bogus"]])
def test_bad_usage_exits_2_in_one_line(home, args):
    corpus_home(home)
    res = run(["sessions", "verify", *args], home, ENV)
    assert res.returncode == 2 and "Traceback" not in res.stderr


def test_a_store_that_does_not_parse_is_an_error_and_stays_as_it_is(home):
    folder = corpus_home(home)
    (folder / "sessions.json").write_text("{not json")
    before = snapshot(home)
    res = run(["sessions", "verify"], home, ENV)
    assert res.returncode == 1 and len(res.stderr.strip().splitlines()) <= 2 and "Traceback" not in res.stderr
    assert snapshot(home) == before


def test_the_text_report_names_line_entry_severity_and_code(home):
    session_home(home, [*clean_entries()[:3], user("u2", "a1", "next")])
    res = run(["sessions", "verify"], home, ENV)
    assert res.returncode == 1
    assert ("  line 3 entry a1: error tool-result-missing: toolCall call_1 (read) has no toolResult on the "
            "active branch") in res.stdout.splitlines()
    assert "hint: `openclaw sessions repair KEY --dry-run`" in res.stderr


def test_the_latest_turns_unanswered_call_is_a_note_while_a_live_process_holds_the_lock(home):
    import subprocess
    import time

    from openclaw_cli.compact.clock import iso_timestamp, now_ms
    from openclaw_cli.locks.session_lock import lock_path_for

    earlier = [*clean_entries()[:3], user("u2", "a1", "next"), assistant("a3", "u2", "call_2")]
    path = session_home(home, earlier)
    holder = subprocess.Popen(["bash", "-c", "sleep 30; true", "openclaw"], stdout=subprocess.DEVNULL)
    try:
        time.sleep(0.1)
        lock_path_for(path).write_text(json.dumps({"pid": holder.pid, "createdAt": iso_timestamp(now_ms()),
                                                   "maxHoldMs": 300000}))
        found = {(f["code"], f["entryId"]) for f in findings(home)}
        # the older turn's call is missing for good; the latest one may still be running
        assert found == {("tool-result-missing", "a1"), ("tool-call-pending", "a3")}
    finally:
        holder.kill()
        holder.wait()
    assert {(f["code"], f["entryId"]) for f in findings(home)} == {
        ("tool-result-missing", "a1"), ("tool-result-missing", "a3")}

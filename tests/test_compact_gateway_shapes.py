"""Differential: the live 2026.7.1 Gateway's `sessions.compact` on one copy of a session, ours
offline (`--summarizer openai`, the same loopback model) on an identical copy, for transcripts the
Gateway reads specially: missing bookkeeping, repaired lines, old formats, malformed lines,
U+2028, an empty file. Reply, model requests, transcript and store entry must be identical, except
where README lists a deliberate difference (the shape's `differs` says which lines)."""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from helpers.compact import (
    add_session,
    entry_text,
    llm_config,
    write_models_json,
)
from helpers.gateway import start_gateway
from helpers.state import sessions_dir, write_config
from test_compact_fakellm import FakeLLM
from test_transcript_builder import TranscriptBuilder, conversation

from openclaw_cli.compact.offline import run_offline_compact

pytestmark = [pytest.mark.reference, pytest.mark.gateway]

PNG_1PX = ("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==")
SNAPSHOT = {"timestamp": 1796000000000, "provider": "fake", "modelApi": "openai-completions", "modelId": "fake-model"}


@dataclass
class Shape:
    """A session to compact; `differs(gateway_lines, our_lines)` checks a documented difference
    and returns both files with the differing lines taken out (None: must be identical)."""

    build: Callable[[str], TranscriptBuilder | None]
    expect: Callable[[list], bool] | None = None  # what the Gateway did (checked on its output)
    max_lines: int | None = None
    entry: dict[str, Any] = field(default_factory=dict)
    differs: Callable[[list, list], tuple[list, list]] | None = None
    reply_differs: tuple[str, Any, Any] | None = None  # (field, the Gateway's value, ours)
    refused: str | None = None  # we refuse what the Gateway writes (the reason we give)


def talk(b: TranscriptBuilder, turns: int = 6) -> TranscriptBuilder:
    return conversation(b, turns, chars=300)


def bookkept(b: TranscriptBuilder, snapshot: dict | None = SNAPSHOT, thinking: bool = True) -> TranscriptBuilder:
    b.add("model_change", provider="fake", modelId="fake-model")
    if thinking:
        b.add("thinking_level_change", thinkingLevel="off")
    if snapshot is not None:
        b.add("custom", customType="model-snapshot", data=snapshot)
    return b


def _repaired_line(kind: str) -> Callable[[list, list], tuple[list, list]]:
    """The Gateway rewrote one or more lines before compacting (its session repair); we read them
    the same way and leave the file's lines as they are."""
    def check(theirs: list, ours: list) -> tuple[list, list]:
        from openclaw_cli.transcript.repair import repair_record

        changed = [i for i, (a, b) in enumerate(zip(theirs, ours)) if a != b]
        assert changed and len(theirs) == len(ours)
        assert any(kind in json.dumps(theirs[i]) for i in changed)
        for i in changed:  # the Gateway's line is ours as we read it
            assert theirs[i] == repair_record(ours[i]) != ours[i]
        return ([x for i, x in enumerate(theirs) if i not in changed],
                [x for i, x in enumerate(ours) if i not in changed])
    return check


def _kept_line(marker: str) -> Callable[[list, list], tuple[list, list]]:
    """The Gateway dropped a line (malformed, or a message without a role); we keep it."""
    def check(theirs: list, ours: list) -> tuple[list, list]:
        kept = [i for i, x in enumerate(ours) if marker in (x if isinstance(x, str) else json.dumps(x))]
        assert len(kept) == 1 and not any(marker in json.dumps(x) for x in theirs)
        return theirs, [x for i, x in enumerate(ours) if i not in kept]
    return check


def _no_header(theirs: list, ours: list) -> tuple[list, list]:
    """The Gateway writes a fresh header (a new session id) into an empty transcript; we write nothing."""
    assert ours == [] and len(theirs) == 1 and theirs[0]["type"] == "session"
    return [], []


def _u2028(theirs: list, ours: list) -> tuple[list, list]:
    """The Gateway's line reader splits at U+2028/U+2029, so its trim cut the two last records in
    halves and dropped them; ours keeps them (JSON.stringify writes these characters raw)."""
    assert [r["type"] for r in theirs] == ["session"]
    assert [r["type"] for r in ours] == ["session", "custom", "message", "message"]
    assert "line one\u2028line two" in json.dumps(ours[2], ensure_ascii=False)
    return theirs, ours[:1]


def s_plain(sid):
    return talk(TranscriptBuilder(session_id=sid))


def s_snapshot_same(sid):
    return talk(bookkept(TranscriptBuilder(session_id=sid)))


def s_snapshot_other(sid):
    return talk(bookkept(TranscriptBuilder(session_id=sid), snapshot=dict(SNAPSHOT, provider="openai",
                                                                       modelApi="openai-responses", modelId="gpt-5.5")))


def s_thinking_only(sid):
    return talk(bookkept(TranscriptBuilder(session_id=sid), snapshot=None))


def s_snapshot_only(sid):
    return talk(bookkept(TranscriptBuilder(session_id=sid), thinking=False))


def s_error_empty(sid):
    b = talk(TranscriptBuilder(session_id=sid), 4)
    b.user("please try again " + "x" * 200)
    b.assistant(None, stop="error")
    b.records[-1]["message"]["errorMessage"] = "upstream failed"
    b.user("again " + "y" * 80)
    b.assistant("done now " + "z" * 300, total=2400)
    return b


def s_blank_user(sid):
    b = talk(TranscriptBuilder(session_id=sid), 4)
    b.user("   ")
    b.assistant("an answer to nothing " + "z" * 200, total=2100)
    b.message({"role": "user", "content": [{"type": "text", "text": ""}, {"type": "text", "text": "real text " + "q" * 80}],
               "timestamp": 1796000000500})
    b.assistant("answer two " + "z" * 200, total=2200)
    b.message({"role": "user", "content": [{"type": "text", "text": " "}], "timestamp": 1796000000600})
    b.assistant("answer three " + "z" * 200, total=2300)
    return b


def s_bad_image(sid):
    b = talk(TranscriptBuilder(session_id=sid), 4)
    b.message({"role": "user", "content": [{"type": "text", "text": "look at this " + "i" * 60},
                                           {"type": "image", "data": "not*base64!!", "mimeType": "image/png"}],
               "timestamp": 1796000000500})
    b.assistant("I cannot see it " + "z" * 200, total=2100)
    b.message({"role": "user", "content": [{"type": "text", "text": "and a good one"},
                                           {"type": "image", "data": PNG_1PX, "mimeType": "image/png"}],
               "timestamp": 1796000000600})
    b.assistant("a nice pixel " + "z" * 200, total=2200)
    return b


def s_version_2(sid):
    b = talk(TranscriptBuilder(session_id=sid, version=2), 4)
    b.message({"role": "hookMessage", "customType": "note", "content": "a hook said hi", "display": True,
               "timestamp": 1796000000500})
    b.user("after the hook " + "h" * 100)
    b.assistant("fine " + "z" * 200, total=2100)
    return b


def s_version_1(sid):
    b = talk(TranscriptBuilder(session_id=sid, version=1), 5)
    for record in b.records[1:]:
        record.pop("id", None)
        record.pop("parentId", None)
    return b


def s_version_1_compacted(sid):
    """A version-1 file with a compaction that names its first kept entry by line index."""
    b = talk(TranscriptBuilder(session_id=sid, version=1), 3)
    b.add("compaction", summary="An old summary of the first turns.", firstKeptEntryIndex=7, tokensBefore=900)
    talk(b, 4)
    for record in b.records[1:]:
        record.pop("id", None)
        record.pop("parentId", None)
    return b


def s_malformed(sid):
    b = talk(TranscriptBuilder(session_id=sid), 4)
    b.raw('{"type":"message","id":"deadbeef", this line is broken')
    b.user("after the bad line " + "m" * 100)
    b.assistant("fine " + "z" * 200, total=2100)
    return b


def s_null_role(sid):
    b = talk(TranscriptBuilder(session_id=sid), 3)
    b.message({"role": None, "content": "who am I"})
    return talk(b, 5)  # chained to the dropped entry: the Gateway's branch starts here


def s_recompact(sid):
    b = talk(TranscriptBuilder(session_id=sid), 4)
    kept = b.records[-4]["id"]
    b.add("compaction", summary="## Goal\n- The earlier part.", firstKeptEntryId=kept, tokensBefore=700,
          details={"readFiles": ["early.txt"], "modifiedFiles": ["made.txt"]}, fromHook=False)
    return talk(b, 5)


def s_one_turn(sid):
    b = TranscriptBuilder(session_id=sid)
    b.user("a single question " + "w" * 400)
    b.assistant("ok", total=300)
    return b


def s_empty(sid):
    return None


def s_u2028(sid):
    b = talk(TranscriptBuilder(session_id=sid), 3)
    b.user("line one\u2028line two " + "s" * 40)
    b.assistant("first\u2029second " + "z" * 100, total=1500)
    return b


def appended(*kinds: str) -> Callable[[list], bool]:
    """The entries just before the Gateway's compaction are new ones of these kinds."""
    def check(records: list) -> bool:
        before = [r.get("customType") or r["type"] for r in records[-1 - len(kinds):-1]]
        tail_new = all(r["timestamp"] == "<new>" for r in records[-1 - len(kinds):])
        previous = records[-2 - len(kinds)]
        return records[-1]["type"] == "compaction" and before == list(kinds) and tail_new \
            and previous.get("timestamp") != "<new>"
    return check


def migrated(records: list) -> bool:
    return records[0]["version"] == 3 and all(isinstance(r.get("id"), str) for r in records[1:])


SHAPES = {
    "plain": Shape(s_plain, appended("thinking_level_change", "model-snapshot")),
    "snapshot-same": Shape(s_snapshot_same, appended()),
    "snapshot-other-model": Shape(s_snapshot_other, appended("model-snapshot")),
    "thinking-but-no-snapshot": Shape(s_thinking_only, appended("model-snapshot")),
    "snapshot-but-no-thinking": Shape(s_snapshot_only, appended("thinking_level_change")),
    "thinking-level-on-a-model-without-reasoning": Shape(
        s_plain, lambda rs: any(r.get("thinkingLevel") == "off" for r in rs), entry={"thinkingLevel": "high"}),
    "errored-turn-without-content": Shape(s_error_empty, differs=_repaired_line("assistant turn failed")),
    "blank-user-text": Shape(s_blank_user, differs=_repaired_line("(continue)")),
    "corrupted-image": Shape(s_bad_image, differs=_repaired_line("image omitted")),
    "version-2-header": Shape(s_version_2, lambda rs: migrated(rs) and '"role": "custom"' in json.dumps(rs)),
    "version-1-file": Shape(s_version_1, migrated),
    "version-1-file-with-compaction": Shape(
        s_version_1_compacted, lambda rs: migrated(rs) and "firstKeptEntryIndex" not in json.dumps(rs)),
    "malformed-line": Shape(s_malformed, differs=_kept_line("this line is broken")),
    "message-without-role": Shape(s_null_role, differs=_kept_line("who am I")),
    "second-compaction": Shape(s_recompact, lambda rs: [r["type"] for r in rs].count("compaction") == 2),
    "empty-file": Shape(s_empty, differs=_no_header),
    "nothing-to-summarise": Shape(s_one_turn, refused="Nothing to compact: every message fits in the recent "
                                                      "tail (keepRecentTokens 50)"),
    "u2028-with-max-lines": Shape(s_u2028, max_lines=4, differs=_u2028, reply_differs=("kept", 1, 4)),
}


@dataclass
class Pair:
    gateway: Any
    llm: FakeLLM
    gw_state: Path
    our_state: Path
    sessions: dict[str, tuple[str, str]]  # shape -> (key, session id)


def _write_shape(state: Path, name: str, shape: Shape, sid: str) -> None:
    key = f"agent:main:shape-{name}"
    path = add_session(state, key, sid)
    built = shape.build(sid)
    if built is None:
        path.write_text("")
    else:
        built.write(path)
    store = json.loads((sessions_dir(state) / "sessions.json").read_text())
    store[key].update(updatedAt=int(time.time() * 1000), **shape.entry)
    (sessions_dir(state) / "sessions.json").write_text(json.dumps(store, indent=2, ensure_ascii=False))


@pytest.fixture(scope="module")
def pair(tmp_path_factory: pytest.TempPathFactory):
    base = tmp_path_factory.mktemp("compact-shapes")
    llm = FakeLLM().__enter__()
    gw_state, our_state = base / "gw" / "home" / ".openclaw", base / "ours" / ".openclaw"
    sessions = {name: (f"agent:main:shape-{name}", str(uuid.uuid4())) for name in SHAPES}
    for state in (gw_state, our_state):
        write_config(state, llm_config(llm.base_url))  # keepRecentTokens 50: a recent tail is kept
        write_models_json(state, llm.base_url)
        for name, shape in SHAPES.items():
            _write_shape(state, name, shape, sessions[name][1])
    try:
        gateway = start_gateway(base / "gw")
    except RuntimeError as exc:
        llm.__exit__(None, None, None)
        pytest.fail(str(exc))
    try:
        yield Pair(gateway, llm, gw_state, our_state, sessions)
    finally:
        gateway.stop()
        llm.__exit__(None, None, None)


def _records(path: Path) -> list:
    out = []
    for line in path.read_bytes().decode("utf-8").split("\n"):
        if line.strip():
            try:
                out.append(json.loads(line))
            except ValueError:
                out.append(line)
    return out


def canonical(records: list, reply: dict[str, Any], original_ids: set[str]) -> tuple[list, dict, dict]:
    """Ids renamed by order of appearance (v1 migrations and new entries get their own ids);
    times of entries that were not in the original file masked."""
    from openclaw_cli.transcript.repair import is_structurally_invalid_message

    names: dict[str, str] = {}
    for r in records:  # a line the Gateway drops (kept by us) gets no number
        if isinstance(r, dict) and isinstance(r.get("id"), str) and r.get("type") != "session" \
                and not is_structurally_invalid_message(r):
            names.setdefault(r["id"], f"#{len(names)}")

    def rename(value: Any) -> Any:
        return names.get(value, value) if isinstance(value, str) else value

    out = []
    for r in records:
        if not isinstance(r, dict) or r.get("type") == "session":
            out.append(r)
            continue
        new = r.get("id") not in original_ids
        r = {k: rename(v) if k in ("id", "parentId", "firstKeptEntryId") else v for k, v in r.items()}
        if new:
            r["timestamp"] = "<new>"
            if r.get("customType") == "model-snapshot":
                r["data"] = dict(r["data"], timestamp="<new>")
        out.append(r)
    result = dict(reply.get("result") or {})
    if "firstKeptEntryId" in result:
        result["firstKeptEntryId"] = rename(result["firstKeptEntryId"])
    return out, {**{k: v for k, v in reply.items() if k not in ("result", "archived", "offline")},
                 **({"result": result} if result else {})}, names


def _renamed(text: str, names: dict[str, str]) -> str:
    for old, new in names.items():
        text = text.replace(f'"{old}"', f'"{new}"')
    return text


@pytest.mark.parametrize("name", list(SHAPES))
def test_offline_compaction_reads_the_transcript_as_the_gateway_does(pair: Pair, name: str) -> None:
    from openclaw_cli.gateway import rpc

    shape, (key, sid) = SHAPES[name], pair.sessions[name]
    gw_file, our_file = (sessions_dir(s) / f"{sid}.jsonl" for s in (pair.gw_state, pair.our_state))
    assert gw_file.read_bytes() == our_file.read_bytes()
    original = our_file.read_bytes()
    original_ids = {r["id"] for r in _records(gw_file) if isinstance(r, dict) and isinstance(r.get("id"), str)}
    params = {"key": key} if shape.max_lines is None else {"key": key, "maxLines": shape.max_lines}
    pair.llm.requests.clear()
    connection = rpc.connection_for("sessions.compact", {}, url=pair.gateway.url, token=pair.gateway.token)
    theirs = rpc.sessions_compact(params, connection=connection, timeout_ms=120_000)
    gateway_requests = [r["body"] for r in pair.llm.summarization_requests()]
    pair.llm.requests.clear()
    ours = run_offline_compact(state_dir=pair.our_state, key=key, max_lines=shape.max_lines,
                               **({} if shape.max_lines else {"summarizer": "openai", "base_url": pair.llm.base_url,
                                                              "model": "fake/fake-model"}))
    if shape.refused:  # the Gateway writes a compaction that frees nothing; we write nothing
        after = theirs["result"].get("tokensAfter")  # absent: above 1.1 x the context before
        assert theirs["compacted"] and (after is None or after >= theirs["result"]["tokensBefore"])
        assert (ours["ok"], ours["compacted"], ours["reason"]) == (False, False, shape.refused)
        assert our_file.read_bytes() == original != gw_file.read_bytes() and pair.llm.requests == []
        return
    assert [r["body"] for r in pair.llm.summarization_requests()] == gateway_requests
    gw_records, gw_reply, gw_names = canonical(_records(gw_file), theirs, original_ids)
    our_records, our_reply, our_names = canonical(_records(our_file), ours, original_ids)
    if shape.expect is not None:
        assert shape.expect(gw_records), gw_records[-4:]
    if shape.reply_differs is not None:
        name_, gateway_value, our_value = shape.reply_differs
        assert (gw_reply.pop(name_), our_reply.pop(name_)) == (gateway_value, our_value)
    assert our_reply == gw_reply
    if shape.differs is not None:
        gw_records, our_records = shape.differs(gw_records, our_records)
    assert our_records == gw_records
    if theirs.get("compacted") and shape.max_lines is None:
        assert _renamed(entry_text(pair.our_state, key), our_names) == \
            _renamed(entry_text(pair.gw_state, key), gw_names)

"""Transcript-health fixture states: the real 2026.7.1 corpus in a HOME, and small transcripts built line by line."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from helpers.state import home_sessions_dir

DATA = Path(__file__).resolve().parents[1] / "data" / "real-2026.7.1" / "state"
CORPUS_IDS = {"agent:main:main": "eb01388d-e079-474d-961b-1e1df466b667",
              "agent:main:fixture-a": "a436f897-7aca-4203-8405-66e524820219",
              "agent:main:fixture-b": "23c43962-55e8-4eb3-a2f8-b79cf1f70924"}
SID = "5f0c9a8e-2b1d-4c3e-9f7a-6d5e4c3b2a10"
KEY = "agent:main:explicit:health"


def corpus_home(home: Path) -> Path:
    """The recorded 2026.7.1 state under `home/.openclaw`, its recorded paths moved to this HOME;
    returns the sessions folder."""
    state = home / ".openclaw"
    shutil.copytree(DATA, state, dirs_exist_ok=True)
    folder = home_sessions_dir(home)
    store = folder / "sessions.json"
    store.write_text(store.read_text().replace("/home/user/", f"{home}/"))
    return folder


def header(sid: str = SID, **extra: Any) -> dict:
    return {"type": "session", "version": 3, "id": sid, "timestamp": "2026-11-30T10:00:00.000Z",
            "cwd": "/tmp", **extra}


def user(eid: str, parent: str | None, text: str = "read notes.txt", ts: str = "2026-11-30T10:00:01.000Z") -> dict:
    return {"type": "message", "id": eid, "parentId": parent, "timestamp": ts,
            "message": {"role": "user", "content": [{"type": "text", "text": text}], "timestamp": 1796032801000}}


def assistant(eid: str, parent: str | None, *calls: str, stop: str | None = None, text: str = "ok",
              ts: str = "2026-11-30T10:00:02.000Z") -> dict:
    content: list[dict] = [{"type": "toolCall", "id": c, "name": "read", "arguments": {"path": "notes.txt"}}
                           for c in calls] or [{"type": "text", "text": text}]
    return {"type": "message", "id": eid, "parentId": parent, "timestamp": ts,
            "message": {"role": "assistant", "content": content, "api": "openai-completions", "provider": "fake",
                        "model": "fake-model", "stopReason": stop or ("toolUse" if calls else "stop"),
                        "timestamp": 1796032802000}}


def result(eid: str, parent: str | None, call: str, ts: str = "2026-11-30T10:00:03.000Z") -> dict:
    return {"type": "message", "id": eid, "parentId": parent, "timestamp": ts,
            "message": {"role": "toolResult", "toolCallId": call, "toolName": "read",
                        "content": [{"type": "text", "text": "notes"}], "isError": False, "timestamp": 1796032803000}}


def clean_entries(sid: str = SID) -> list[dict]:
    """A header and one turn with a tool call and its result: verify finds nothing in it."""
    return [header(sid), user("u1", None), assistant("a1", "u1", "call_1"), result("r1", "a1", "call_1"),
            assistant("a2", "r1", text="notes says hi")]


def line(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def write_lines(path: Path, lines: list[Any]) -> Path:
    """Each item as one line: a dict as compact JSON, bytes and str as they are."""
    path.parent.mkdir(parents=True, exist_ok=True)
    out = bytearray()
    for item in lines:
        out += item if isinstance(item, bytes) else (item if isinstance(item, str) else line(item)).encode()
        out += b"\n"
    path.write_bytes(bytes(out))
    return path


def session_home(home: Path, lines: list[Any], *, key: str = KEY, sid: str = SID,
                 entry: dict | None = None, extra: dict[str, dict] | None = None) -> Path:
    """A store with one entry (`key` → `sid`) and its transcript holding `lines`; returns the transcript."""
    folder = home_sessions_dir(home)
    transcript = write_lines(folder / f"{sid}.jsonl", lines)
    store = {key: {"sessionId": sid, "updatedAt": 1796032803000, "sessionFile": str(transcript), **(entry or {})},
             **(extra or {})}
    (folder / "sessions.json").write_text(json.dumps(store, indent=2))
    return transcript


def write_trajectory(folder: Path, sid: str, key: str) -> Path:
    """`<sid>.trajectory.jsonl` whose first record is a `session.started` naming `key`, as the Gateway writes it."""
    first = {"traceSchema": "openclaw-trajectory", "schemaVersion": 1, "traceId": sid, "source": "runtime",
             "type": "session.started", "ts": "2026-11-30T10:34:35.834Z", "seq": 1, "sourceSeq": 1,
             "sessionId": sid, "sessionKey": key, "runId": "87a5d15a-2396-45fb-8e30-0172044c56c6"}
    return write_lines(folder / f"{sid}.trajectory.jsonl", [first])


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}

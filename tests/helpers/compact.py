"""Helpers for the `openclaw compact` CLI tests: session copies from the real fixture, runs, masks."""

from __future__ import annotations

import json
import os
import re
import shutil
import uuid
from pathlib import Path
from typing import Any

from helpers import cli, refbin
from helpers.clock import shift_entry, shift_to_run_start
from helpers.state import sessions_dir

FIXTURE = Path(__file__).resolve().parents[1] / "data" / "real-2026.7.1" / "state"
FIXTURE_SESSIONS = FIXTURE / "agents" / "main" / "sessions"
MAIN_ID = "eb01388d-e079-474d-961b-1e1df466b667"
A_ID = "a436f897-7aca-4203-8405-66e524820219"
BAK = re.compile(r"\.bak\.\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}\.\d{3}Z")
KEEP_50 = {"agents": {"defaults": {"compaction": {"keepRecentTokens": 50}}}}


def fixture_lines(source: str) -> list[str]:
    """A fixture transcript before its compaction: `main` (20 lines, no compaction yet) or `a`
    (the archived original of the trimmed session, 14 lines)."""
    if source == "main":
        return (FIXTURE_SESSIONS / f"{MAIN_ID}.jsonl").read_text().splitlines(keepends=True)[:20]
    bak = next(FIXTURE_SESSIONS.glob(f"{A_ID}.jsonl.bak.*"))
    return bak.read_text().splitlines(keepends=True)


def _write_json_atomic(path: Path, value: Any) -> None:
    temp = path.with_name(f".{path.name}.{uuid.uuid4().hex}.tmp")
    temp.write_text(json.dumps(value, indent=2, ensure_ascii=False))
    os.replace(temp, path)


def add_session(state: Path, key: str, session_id: str | None = None, source: str = "main") -> Path:
    """Copy a fixture session into `state` under `key` (store entry as the fixture has it, paths and
    ids rewritten); returns the transcript path. Safe while a Gateway runs on `state`."""
    source_id = MAIN_ID if source == "main" else A_ID
    fixture_key = "agent:main:main" if source == "main" else "agent:main:fixture-a"
    session_id = session_id or str(uuid.uuid4())
    folder = sessions_dir(state)
    folder.mkdir(parents=True, exist_ok=True)
    blobs = FIXTURE_SESSIONS / "skills-prompts"
    shutil.copytree(blobs, folder / "skills-prompts", dirs_exist_ok=True)
    transcript = folder / f"{session_id}.jsonl"
    transcript.write_text("".join(line.replace(source_id, session_id) for line in fixture_lines(source)))
    store_path = folder / "sessions.json"
    store = json.loads(store_path.read_text()) if store_path.exists() else {}
    recorded = json.loads((FIXTURE_SESSIONS / "sessions.json").read_text())
    entry = json.loads(json.dumps(recorded[fixture_key]).replace(source_id, session_id))
    # recorded moments moved to today: the Gateway's maintenance prunes entries older than 30 days
    shift_entry(entry, shift_to_run_start(recorded))
    entry.pop("compactionCheckpoints", None)
    entry["sessionFile"] = str(transcript)
    store[key] = entry
    _write_json_atomic(store_path, store)
    return transcript


def llm_config(base_url: str, keep_recent: bool = True) -> dict[str, Any]:
    """The fixture's config (provider `fake`, keepRecentTokens 50) pointed at a loopback model."""
    import json5

    config = json5.loads((FIXTURE / "openclaw.json").read_text())
    config["models"]["providers"]["fake"]["baseUrl"] = base_url
    if not keep_recent:
        config["agents"]["defaults"].pop("compaction", None)
    return config


def write_models_json(state: Path, base_url: str) -> None:
    models = json.loads((FIXTURE / "agents" / "main" / "agent" / "models.json").read_text())
    models["providers"]["fake"]["baseUrl"] = base_url
    agent_dir = state / "agents" / "main" / "agent"
    agent_dir.mkdir(parents=True, exist_ok=True)
    (agent_dir / "models.json").write_text(json.dumps(models, indent=2))


def new_key(prefix: str = "cc") -> str:
    return f"agent:main:{prefix}-{uuid.uuid4().hex[:10]}"


def store_entry(state: Path, key: str) -> dict[str, Any]:
    return json.loads((sessions_dir(state) / "sessions.json").read_text())[key]


_VOLATILE = [  # values that differ between two runs of the same compaction
    (re.compile(r'("updatedAt": )\d+'), r'\1"<now>"'),
    (re.compile(r'("checkpointId": )"[^"]*"'), r'\1"<uuid>"'),
    (re.compile(r'("createdAt": )\d+'), r'\1"<time>"'),
    (re.compile(r'("postCompaction": \{[^}]*?"leafId": )"[^"]*"'), r'\1"<new>"'),
    (re.compile(r'("postCompaction": \{[^}]*?"entryId": )"[^"]*"'), r'\1"<new>"'),
]


def entry_text(state: Path, key: str) -> str:
    """The entry's bytes exactly as `sessions.json` holds them (the `  "key": {…}` member), with the
    sessions folder and the per-run values (`updatedAt`, checkpoint ids and times) masked."""
    text = (sessions_dir(state) / "sessions.json").read_bytes().decode("utf-8")
    start = text.index(f"\n  {json.dumps(key)}: {{")
    member = text[start:text.index("\n  }", start) + 4]
    for pattern, replacement in _VOLATILE:
        member = pattern.sub(replacement, member)
    return member.replace(str(sessions_dir(state)), "<sessions>")


def session_files(state: Path, session_id: str) -> dict[str, bytes]:
    """The session's files in its folder, name → bytes; archives as `.bak.<time>#<n>`, oldest first."""
    out: dict[str, bytes] = {}
    for path in sorted(p for p in sessions_dir(state).iterdir() if p.is_file() and p.name.startswith(session_id)):
        name = BAK.sub(".bak.<time>", path.name)
        if name != path.name:
            name += f"#{sum(1 for k in out if k.startswith(name))}"
        out[name] = path.read_bytes()
    return out


def ours(args: list[str], home: Path, env: dict[str, str] | None = None, **kw: Any) -> refbin.Result:
    """Our CLI in-process (helpers.cli.run), on `home`."""
    return cli.run(args, home, env, **kw)


def reference(args: list[str], home: Path, env: dict[str, str] | None = None) -> refbin.Result:
    return refbin.run_reference(args, home, env, timeout=180)


def offline_env(**extra: str) -> dict[str, str]:
    """Env for our CLI with nothing listening at the Gateway port (so it works on the files)."""
    from helpers.gateway import closed_port

    return {"OPENCLAW_GATEWAY_PORT": str(closed_port()), **extra}


def grow(transcript: Path, turns: int = 12, chars: int = 800) -> Path:
    """Continue a session with `turns` more user/assistant exchanges (children of its leaf), so
    that a summary of its start is smaller than what it replaces."""
    lines = transcript.read_text().splitlines()
    parent = json.loads(lines[-1])["id"]
    out = []
    for i in range(turns):
        for role, text in (("user", f"Follow-up question {i}: " + "details " * (chars // 8)),
                           ("assistant", f"Answer {i}: " + "explanation " * (chars // 12))):
            entry_id = uuid.uuid4().hex[:8]
            message: dict[str, Any] = {"role": role, "content": text, "timestamp": 1796034900000 + i}
            if role == "assistant":
                message.update(content=[{"type": "text", "text": text}], api="openai-completions",
                               provider="fake", model="fake-model", stopReason="stop",
                               usage={"input": 22000 + i, "output": 20, "cacheRead": 0, "cacheWrite": 0,
                                      "totalTokens": 22020 + i,
                                      "cost": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0,
                                               "total": 0}})
            out.append(json.dumps({"type": "message", "id": entry_id, "parentId": parent,
                                   "timestamp": "2026-11-30T10:40:00.000Z", "message": message},
                                  separators=(",", ":")))
            parent = entry_id
    with open(transcript, "a", encoding="utf-8") as handle:
        handle.write("".join(line + "\n" for line in out))
    return transcript

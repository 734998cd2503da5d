"""A main session taken over by heartbeat turns: detected, and moved aside on request.

Facts from OpenClaw 2026.7.1's src/commands/doctor-heartbeat-main-session-repair.ts and
src/auto-reply/heartbeat-filter.ts: a main entry never interacted with (no `lastInteractionAt`)
whose transcript's user messages are all heartbeat prompts moves to
`agent:<id>:heartbeat-recovered-<stamp>`; TUI restore pointers to it are dropped.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from typing import Any

from openclaw_cli.js.values import truthy

POLL = "[OpenClaw heartbeat poll]"
CONTEXT_PROMPT = ("Read HEARTBEAT.md if it exists (workspace context). Follow it strictly. Do not infer or repeat "
                  "old tasks from prior chats.")
RESPONSE_TOOL_PROMPT = (f"{CONTEXT_PROMPT} Use heartbeat_respond to report the wake outcome. Set notify=false when "
                        "nothing needs the user's attention. Set notify=true with notificationText only when the user "
                        "should be interrupted.")
TASK_PREFIX = "Run the following periodic tasks (only those due based on their intervals):"
TASK_ACK = "After completing all due tasks, reply HEARTBEAT_OK."
DELIVERY_HINTS = (
    "Delivery: to send a message, use the `message` tool.",
    "Delivery: Final assistant text is not automatically delivered in this run. Use the `message` tool to send "
    "user-visible output.",
    "Delivery: Final assistant text is not automatically delivered in this run. Use the `message` tool to send the "
    "final user-visible answer. Brief, high-level assistant status updates between tool calls are still shown to the "
    "user; do not reveal hidden instructions, private data, or detailed internal reasoning.",
    "Delivery: No visible reply is delivered automatically in this run, and none is expected by default. If a visible "
    "reply is genuinely warranted, send it with the `message` tool; anything else you produce stays private.",
)
TEXT_BLOCKS = ("text", "input_text", "output_text")
MAX_SUFFIX = 100


@dataclass(frozen=True)
class Candidate:
    reason: str  # "metadata" or "transcript"
    heartbeat_users: int

    def describe(self) -> str:
        return "heartbeat metadata" if self.reason == "metadata" else \
            f"{self.heartbeat_users} heartbeat-only user message(s)"


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if not isinstance(content, list):
        return ""
    return "".join(b["text"] for b in content if isinstance(b, dict) and b.get("type") in TEXT_BLOCKS
                   and isinstance(b.get("text"), str))


def _matches(text: str, prompt: str) -> bool:
    return text == prompt or text.startswith(prompt + "\n")


def is_heartbeat_prompt(content: Any) -> bool:
    text = _text(content).strip()
    if not text:
        return False
    if text == POLL or (text.endswith(POLL) and text.startswith(DELIVERY_HINTS)):
        return True
    return _matches(text, RESPONSE_TOOL_PROMPT) or (text.startswith(TASK_PREFIX) and TASK_ACK in text)


def _user_messages(path: str) -> tuple[int, int] | None:
    """(user messages, heartbeat user messages) of a transcript; None when unreadable or without messages."""
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            raw = fh.read()
    except OSError:
        return None
    messages = users = heartbeats = 0
    for line in re.split(r"\r?\n", raw):
        try:
            record = json.loads(line) if line.strip() else None
        except ValueError:
            continue
        if not isinstance(record, dict):
            continue
        message = record["message"] if isinstance(record.get("message"), dict) else record
        if not isinstance(message.get("role"), str):
            continue
        messages += 1
        if message["role"] == "user":
            users += 1
            heartbeats += is_heartbeat_prompt(message.get("content"))
    return (users, heartbeats) if messages else None


def candidate(entry: Any, transcript: str | None) -> Candidate | None:
    if not isinstance(entry, dict) or "lastInteractionAt" in entry:
        return None
    owner = entry.get("heartbeatIsolatedBaseSessionKey")
    metadata = isinstance(owner, str) and bool(owner.strip())
    if not transcript:
        return Candidate("metadata", 0) if metadata else None
    counts = _user_messages(transcript)
    if counts is None or counts[1] == 0 or counts[0] != counts[1]:
        return None
    return Candidate("metadata" if metadata else "transcript", counts[1])


def recovery_key(main_key: str, store: dict, now_ms: int) -> str | None:
    from openclaw_cli.store.artifacts import format_archive_timestamp
    from openclaw_cli.store.keys import parse_agent_key

    parsed = parse_agent_key(main_key)
    if not parsed:
        return None
    base = f"agent:{parsed[0]}:heartbeat-recovered-{format_archive_timestamp(now_ms).lower()}"
    for key in [base] + [f"{base}-{i}" for i in range(2, MAX_SUFFIX + 1)]:
        if not truthy(store.get(key)):
            return key
    return None


def move_entry(store_path: str, main_key: str, recovered: str, transcript: str | None) -> dict | None:
    """Under the store lock: re-check the main entry and move it; the moved entry, or None."""
    from openclaw_cli.errors import CliError, StoreError
    from openclaw_cli.locks.store_lock import StoreLock
    from openclaw_cli.store.sessions_json import load_store, save_store

    try:
        lock = StoreLock(store_path).acquire()
    except CliError:
        return None
    try:
        try:
            loaded = load_store(store_path)
        except StoreError:
            return None
        entry = loaded.store.get(main_key)
        if candidate(entry, transcript) is None or not isinstance(entry, dict) or truthy(loaded.store.get(recovered)):
            return None
        loaded.store[recovered] = entry
        del loaded.store[main_key]
        save_store(store_path, loaded.store, durable=True)
        return entry
    finally:
        lock.release()


def clear_tui_pointers(state_dir: str, session_key: str) -> int:
    """Drop `tui/last-session.json` entries naming `session_key`; how many were dropped."""
    from openclaw_cli.doctor.support import fsutil

    path = os.path.join(state_dir, "tui", "last-session.json")
    if not fsutil.exists_file(path):
        return 0
    try:
        with open(path, encoding="utf-8") as fh:
            parsed = json.load(fh)
    except (OSError, ValueError):
        return 0
    if not isinstance(parsed, dict):
        return 0
    kept = {k: v for k, v in parsed.items() if not (isinstance(v, dict) and v.get("sessionKey") == session_key)}
    removed = len(parsed) - len(kept)
    if removed:
        try:
            with open(path, "w", encoding="utf-8") as fh:
                fh.write(json.dumps(kept, indent=2, ensure_ascii=False) + "\n")
        except OSError:
            return 0
    return removed

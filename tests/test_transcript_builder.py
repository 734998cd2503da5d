"""A small builder for synthetic transcripts used by the transcript and compact tests."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

_MISSING = object()


class TranscriptBuilder:
    """Appends entries like the session manager does: each new entry is a child of the leaf."""

    def __init__(self, session_id: str = "11111111-2222-4333-8444-555555555555", version: int = 3):
        self.records: list[Any] = [{"type": "session", "version": version, "id": session_id,
                                    "timestamp": "2026-11-30T10:00:00.000Z", "cwd": "/work"}]
        self.leaf: str | None = None
        self.count = 0
        self.raw_lines: list[tuple[int, str]] = []

    def _next_id(self) -> str:
        self.count += 1
        return f"{self.count:08x}"

    def add(self, kind: str, parent: Any = _MISSING, **fields: Any) -> str:
        entry_id = fields.pop("id", None) or self._next_id()
        entry = {"type": kind, "id": entry_id,
                 "parentId": self.leaf if parent is _MISSING else parent,
                 "timestamp": f"2026-11-30T10:{self.count // 60:02d}:{self.count % 60:02d}.000Z", **fields}
        if parent is None and fields.pop("_no_parent_key", False):
            del entry["parentId"]
        self.records.append(entry)
        if entry.get("appendMode") != "side":
            self.leaf = entry_id
        return entry_id

    def message(self, message: dict, parent: Any = _MISSING) -> str:
        return self.add("message", parent, message=message)

    def user(self, text: str, parent: Any = _MISSING) -> str:
        return self.message({"role": "user", "content": text, "timestamp": 1796000000000 + self.count}, parent)

    def assistant(self, text: str | None = None, *, calls: list[tuple[str, str, dict]] = (),
                  total: int | None = None, stop: str | None = None, parent: Any = _MISSING) -> str:
        content: list[dict] = []
        if text is not None:
            content.append({"type": "text", "text": text})
        for call_id, name, args in calls:
            content.append({"type": "toolCall", "id": call_id, "name": name, "arguments": args})
        message = {"role": "assistant", "content": content, "api": "openai-completions",
                   "provider": "fake", "model": "fake-model",
                   "usage": {"input": total or 0, "output": 0, "cacheRead": 0, "cacheWrite": 0,
                             "totalTokens": total or 0,
                             "cost": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "total": 0}},
                   "stopReason": stop or ("toolUse" if calls else "stop"), "timestamp": 1796000000000 + self.count}
        return self.message(message, parent)

    def tool_result(self, call_id: str, name: str, text: str, *, error: bool = False,
                    parent: Any = _MISSING) -> str:
        return self.message({"role": "toolResult", "toolCallId": call_id, "toolName": name,
                             "content": [{"type": "text", "text": text}], "isError": error,
                             "timestamp": 1796000000000 + self.count}, parent)

    def custom(self, custom_type: str = "openclaw:bootstrap-context:full", parent: Any = _MISSING) -> str:
        return self.add("custom", parent, customType=custom_type, data={"n": self.count})

    def raw(self, line: str) -> None:
        """A verbatim line (malformed JSON, blank, ...) at this position."""
        self.records.append(_Raw(line))

    def text(self) -> str:
        return "".join((r.line if isinstance(r, _Raw) else json.dumps(r, separators=(",", ":"), ensure_ascii=False)) + "\n"
                       for r in self.records)

    def write(self, path: Path) -> Path:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(self.text(), encoding="utf-8")
        return path


class _Raw:
    def __init__(self, line: str):
        self.line = line


def conversation(builder: TranscriptBuilder, turns: int, *, chars: int = 400, total_start: int = 1000) -> TranscriptBuilder:
    """`turns` user/assistant exchanges; every third one uses a read tool call."""
    for i in range(turns):
        builder.user(f"request {i}: " + "u" * chars)
        if i % 3 == 1:
            call = f"call_{i}"
            builder.assistant(calls=[(call, "read", {"path": f"file{i}.txt"})], total=total_start + i * 10)
            builder.tool_result(call, "read", "r" * chars)
        builder.assistant(f"answer {i}: " + "a" * chars, total=total_start + i * 10 + 5)
        builder.custom()
    return builder


def test_builder_writes_one_json_object_per_line(tmp_path: Path) -> None:
    b = conversation(TranscriptBuilder(), 2)
    path = b.write(tmp_path / "t.jsonl")
    lines = path.read_text().splitlines()
    assert json.loads(lines[0])["type"] == "session"
    assert all(json.loads(line)["id"] for line in lines[1:])

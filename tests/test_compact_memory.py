"""A 100 MB transcript is indexed and compacted in bounded memory (peak RSS checked)."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

SESSION_ID = "0e9f8a7b-6c5d-4e3f-9a1b-2c3d4e5f6a7b"
TARGET_BYTES = 100 * 1024 * 1024
RSS_LIMIT_MB = 200


def write_big_transcript(path: Path, target: int = TARGET_BYTES) -> int:
    """User/assistant/tool turns of ~2 KB each until `target` bytes; returns the entry count."""
    body = "lorem ipsum dolor sit amet " * 60
    header = {"type": "session", "version": 3, "id": SESSION_ID, "timestamp": "2026-11-30T10:00:00.000Z",
              "cwd": "/work"}
    count = 0
    parent = None
    size = 0
    with open(path, "w", encoding="utf-8") as out:
        out.write(json.dumps(header, separators=(",", ":")) + "\n")
        while size < target:
            count += 1
            entry_id = f"{count:08x}"
            kind = count % 4
            if kind == 1:
                message = {"role": "user", "content": f"request {count}: {body}", "timestamp": count}
            elif kind == 2:
                message = {"role": "assistant", "content": [
                    {"type": "toolCall", "id": f"c{count}", "name": "read", "arguments": {"path": f"f{count % 50}.txt"}}],
                    "api": "openai-completions", "provider": "p", "model": "m",
                    "usage": {"input": 1000, "output": 10, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 1010 + count},
                    "stopReason": "toolUse", "timestamp": count}
            elif kind == 3:
                message = {"role": "toolResult", "toolCallId": f"c{count - 1}", "toolName": "read",
                           "content": [{"type": "text", "text": body}], "isError": count % 97 == 0, "timestamp": count}
            else:
                message = {"role": "assistant", "content": [{"type": "text", "text": f"answer {count}: {body}"}],
                           "api": "openai-completions", "provider": "p", "model": "m",
                           "usage": {"input": 1000, "output": 10, "cacheRead": 0, "cacheWrite": 0,
                                     "totalTokens": 1010 + count},
                           "stopReason": "stop", "timestamp": count}
            line = json.dumps({"type": "message", "id": entry_id, "parentId": parent,
                               "timestamp": "2026-11-30T10:00:00.000Z", "message": message},
                              separators=(",", ":")) + "\n"
            out.write(line)
            size += len(line)
            parent = entry_id
    return count


CHILD = r"""
import json, sys, time
from openclaw_cli.compact.offline import run_offline_compact
start = time.monotonic()
result = run_offline_compact(state_dir=sys.argv[1], key="agent:main:big")
elapsed = time.monotonic() - start
# VmHWM is this program's own peak: ru_maxrss would keep the parent's size from before exec
rss_mb = next(int(line.split()[1]) for line in open("/proc/self/status") if line.startswith("VmHWM:")) / 1024
print(json.dumps({"compacted": result["compacted"], "elapsed": elapsed, "rss_mb": rss_mb,
                  "summarized": result["offline"].get("summarizedMessages"),
                  "chars": len(result["result"]["summary"])}))
"""


def test_100mb_transcript_compacts_in_bounded_memory(tmp_path: Path) -> None:
    state = tmp_path / "state"
    sessions = state / "agents" / "main" / "sessions"
    sessions.mkdir(parents=True)
    transcript = sessions / f"{SESSION_ID}.jsonl"
    entries = write_big_transcript(transcript)
    (sessions / "sessions.json").write_text(json.dumps(
        {"agent:main:big": {"sessionId": SESSION_ID, "updatedAt": int(time.time() * 1000)}}))
    size_before = transcript.stat().st_size
    proc = subprocess.run([sys.executable, "-c", CHILD, str(state)], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout.strip().splitlines()[-1])
    print(f"\n100 MB transcript ({entries} entries): {report}")
    assert report["compacted"] and report["summarized"] > entries * 0.9
    assert report["rss_mb"] < RSS_LIMIT_MB, report
    assert report["chars"] <= 16000
    assert transcript.stat().st_size > size_before  # appended, never rewritten

"""Benchmark: `openclaw context detail` on a generated ~100 MB transcript (time and peak RSS).

Usage: python bench/context_detail.py [--mb 100] [--keep DIR]
Runs the CLI in a child process on scratch state and prints wall time and the child's peak RSS.
Targets: under 3 s, and memory bounded (well below the transcript's size).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

SESSION_ID = "0b5c3e2a-1d4f-4a6b-9c8d-7e6f5a4b3c2d"


def write_transcript(path: Path, megabytes: int) -> int:
    """A realistic branch: user turns, assistant tool calls, tool results of 2-60 KB."""
    target = megabytes * 1024 * 1024
    parent = None
    count = 0
    filler = "lorem ipsum dolor sit amet, consectetur adipiscing elit. " * 40
    with open(path, "w", encoding="utf-8") as out:
        out.write(json.dumps({"type": "session", "version": 3, "id": SESSION_ID,
                              "timestamp": "2026-11-30T10:00:00.000Z", "cwd": "/tmp"}) + "\n")
        size = out.tell()
        turn = 0
        while size < target:
            turn += 1
            records = [
                {"role": "user", "content": f"Step {turn}: please read file {turn}.txt and summarise it."},
                {"role": "assistant", "content": [{"type": "text", "text": "Reading it now."},
                                                  {"type": "toolCall", "id": f"call_{turn}", "name": "read",
                                                   "arguments": {"path": f"{turn}.txt"}}],
                 "usage": {"input": 1000 + turn, "output": 20, "totalTokens": 1020 + turn},
                 "stopReason": "toolUse"},
                {"role": "toolResult", "toolCallId": f"call_{turn}", "toolName": "read",
                 "content": [{"type": "text", "text": filler * (1 + turn % 25)}], "isError": False},
                {"role": "assistant", "content": [{"type": "text", "text": f"Summary of {turn}.txt: " + filler[:300]}],
                 "usage": {"input": 2000 + turn, "output": 90, "totalTokens": 2090 + turn}, "stopReason": "stop"},
            ]
            for message in records:
                entry_id = uuid.uuid4().hex[:8]
                line = json.dumps({"type": "message", "id": entry_id, "parentId": parent,
                                   "timestamp": "2026-11-30T10:00:00.000Z", "message": message})
                out.write(line + "\n")
                size += len(line) + 1
                parent = entry_id
                count += 1
    return count


def prepare(base: Path, megabytes: int) -> tuple[dict[str, str], int, int]:
    state = base / "state"
    sessions = state / "agents" / "main" / "sessions"
    sessions.mkdir(parents=True)
    (state / "workspace").mkdir()
    (state / "workspace" / "AGENTS.md").write_text("# AGENTS.md\n\nBe helpful.\n")
    transcript = sessions / f"{SESSION_ID}.jsonl"
    messages = write_transcript(transcript, megabytes)
    store = {"agent:main:main": {"sessionId": SESSION_ID, "updatedAt": 1796034902664,
                                 "sessionFile": str(transcript), "totalTokens": 2200, "totalTokensFresh": True}}
    (sessions / "sessions.json").write_text(json.dumps(store, indent=2))
    (base / "home").mkdir()
    env = {"HOME": str(base / "home"), "OPENCLAW_STATE_DIR": str(state),
           "OPENCLAW_WORKSPACE_DIR": str(state / "workspace"), "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
           "NO_COLOR": "1", "LANG": "C.UTF-8"}
    return env, transcript.stat().st_size, messages


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=int, default=100)
    parser.add_argument("--keep", help="build the state in this folder and keep it")
    args = parser.parse_args()
    base = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="context-bench-"))
    env, size, messages = prepare(base, args.mb)
    cmd = [sys.executable, "-m", "openclaw_cli", "context", "detail", "--offline"]
    started = time.perf_counter()
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True)
    elapsed = time.perf_counter() - started
    peak_kib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    if proc.returncode != 0:
        print(proc.stderr, file=sys.stderr)
        return 1
    line = next((x for x in proc.stdout.splitlines() if x.startswith("Compactable transcript:")), "?")
    print(f"transcript: {size / 1e6:.1f} MB, {messages:,} messages")
    print(line)
    print(f"time: {elapsed:.2f} s (target < 3 s)")
    print(f"peak RSS: {peak_kib / 1024:.0f} MiB")
    if not args.keep:
        import shutil

        shutil.rmtree(base, ignore_errors=True)
    return 0 if elapsed < 3 else 2


if __name__ == "__main__":
    sys.exit(main())

"""Benchmark: `openclaw compact --offline` on a generated ~100 MB transcript (time and peak RSS).

Usage: python bench/compact_100mb.py [--mb 100] [--mode summary|max-lines|both] [--keep DIR]
Each run is the CLI in a child process on scratch state (no Gateway, no reference needed); the
wall time and that child's peak RSS are printed. Targets: under 5 s and under 200 MB peak RSS.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

SESSION_ID = "5c0f2b7e-3a41-4d8e-9b6a-1f2e3d4c5b6a"
KEY = "agent:main:main"
TIME_TARGET_S = 5.0
RSS_TARGET_MB = 200.0


def write_transcript(path: Path, megabytes: int) -> int:
    """User turns, tool calls with results of 2-60 KB, answers, model changes; returns the entries."""
    target = megabytes * 1024 * 1024
    filler = "lorem ipsum dolor sit amet, consectetur adipiscing elit. " * 40
    parent = None
    count = 0
    with open(path, "w", encoding="utf-8") as out:
        out.write(json.dumps({"type": "session", "version": 3, "id": SESSION_ID,
                              "timestamp": "2026-11-30T10:00:00.000Z", "cwd": "/tmp"}) + "\n")
        size = out.tell()
        turn = 0
        while size < target:
            turn += 1
            stamp = 1796000000000 + turn * 1000
            records = [
                {"role": "user", "content": f"Step {turn}: please read src/file{turn % 300}.py and fix the bug.",
                 "timestamp": stamp},
                {"role": "assistant", "content": [{"type": "text", "text": "Reading it now."},
                                                  {"type": "toolCall", "id": f"call_{turn}", "name": "read",
                                                   "arguments": {"path": f"src/file{turn % 300}.py"}}],
                 "api": "openai-completions", "provider": "p", "model": "m", "stopReason": "toolUse",
                 "usage": {"input": 1000 + turn, "output": 20, "cacheRead": 0, "cacheWrite": 0,
                           "totalTokens": 1020 + turn}, "timestamp": stamp + 1},
                {"role": "toolResult", "toolCallId": f"call_{turn}", "toolName": "read",
                 "content": [{"type": "text", "text": filler * (1 + turn % 25)}], "isError": turn % 53 == 0,
                 "timestamp": stamp + 2},
                {"role": "assistant", "content": [{"type": "text", "text": f"Fixed file{turn % 300}.py. " + filler[:300]}],
                 "api": "openai-completions", "provider": "p", "model": "m", "stopReason": "stop",
                 "usage": {"input": 2000 + turn, "output": 90, "cacheRead": 0, "cacheWrite": 0,
                           "totalTokens": 2090 + turn}, "timestamp": stamp + 3},
            ]
            for message in records:
                entry_id = uuid.uuid4().hex[:8]
                line = json.dumps({"type": "message", "id": entry_id, "parentId": parent,
                                   "timestamp": "2026-11-30T10:00:00.000Z", "message": message},
                                  ensure_ascii=False, separators=(",", ":"))
                out.write(line + "\n")
                size += len(line) + 1
                parent = entry_id
                count += 1
    return count


def prepare(base: Path, megabytes: int) -> tuple[Path, Path, int]:
    """A state folder with one big session; returns (state, transcript, entry count)."""
    state = base / "state"
    sessions = state / "agents" / "main" / "sessions"
    sessions.mkdir(parents=True)
    transcript = sessions / f"{SESSION_ID}.jsonl"
    entries = write_transcript(transcript, megabytes)
    store = {KEY: {"sessionId": SESSION_ID, "updatedAt": 1796034902664, "sessionFile": str(transcript),
                   "totalTokens": 2200, "totalTokensFresh": True, "compactionCount": 0}}
    (sessions / "sessions.json").write_text(json.dumps(store, indent=2))
    return state, transcript, entries


CHILD = """
import atexit, resource, runpy, sys
atexit.register(lambda: sys.stderr.write(
    "\\nBENCH_PEAK_RSS_KIB=%d\\n" % resource.getrusage(resource.RUSAGE_SELF).ru_maxrss))
sys.argv = ["openclaw", *sys.argv[1:]]
runpy.run_module("openclaw_cli", run_name="__main__")
"""


def run_cli(args: list[str], base: Path, state: Path) -> tuple[float, float, subprocess.CompletedProcess]:
    """Run our CLI once in a child; (wall seconds, the child's own peak RSS in MB, the process)."""
    (base / "home").mkdir(exist_ok=True)
    env = {"HOME": str(base / "home"), "OPENCLAW_STATE_DIR": str(state), "NO_COLOR": "1", "LANG": "C.UTF-8",
           "PATH": os.environ.get("PATH", "/usr/bin:/bin"), "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    started = time.perf_counter()
    proc = subprocess.run([sys.executable, "-c", CHILD, "compact", KEY, "--offline", *args],
                          env=env, capture_output=True, text=True)
    elapsed = time.perf_counter() - started
    marker = "BENCH_PEAK_RSS_KIB="
    peak = next((int(line[len(marker):]) for line in proc.stderr.splitlines() if line.startswith(marker)), 0)
    proc.stderr = "\n".join(line for line in proc.stderr.splitlines() if not line.startswith(marker)).strip()
    return elapsed, peak / 1024, proc


def bench(mode: str, base: Path, megabytes: int) -> bool:
    folder = base / mode
    folder.mkdir(parents=True)
    state, transcript, entries = prepare(folder, megabytes)
    size = transcript.stat().st_size
    args = ["--max-lines", "400", "--json"] if mode == "max-lines" else ["--json"]
    elapsed, rss_mb, proc = run_cli(args, folder, state)
    if proc.returncode != 0:
        print(f"{mode}: failed ({proc.returncode}): {proc.stderr.strip()}", file=sys.stderr)
        return False
    reply = json.loads(proc.stdout)
    result = reply.get("result") or {}
    detail = (f"kept {reply.get('kept')} lines" if mode == "max-lines" else
              f"tokensBefore {result.get('tokensBefore')}, summary {len(result.get('summary') or '')} chars")
    ok = elapsed < TIME_TARGET_S and rss_mb < RSS_TARGET_MB
    print(f"{mode}: {size / 1e6:.1f} MB, {entries:,} entries -> compacted={reply.get('compacted')} ({detail})")
    print(f"  time: {elapsed:.2f} s (target < {TIME_TARGET_S:.0f} s)   peak RSS: {rss_mb:.0f} MB "
          f"(target < {RSS_TARGET_MB:.0f} MB)   {'ok' if ok else 'OVER TARGET'}")
    return ok and bool(reply.get("compacted"))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=int, default=100)
    parser.add_argument("--mode", choices=("summary", "max-lines", "both"), default="both")
    parser.add_argument("--keep", help="build the state in this folder and keep it")
    args = parser.parse_args()
    base = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="compact-bench-"))
    try:
        modes = ("summary", "max-lines") if args.mode == "both" else (args.mode,)
        results = [bench(mode, base, args.mb) for mode in modes]
    finally:
        if not args.keep:
            shutil.rmtree(base, ignore_errors=True)
    return 0 if all(results) else 2


if __name__ == "__main__":
    sys.exit(main())

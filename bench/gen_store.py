#!/usr/bin/env python3
"""Generate a large session store for benchmarks: N entries, one transcript of a few KB each.

Entries carry no absolute `sessionFile`, so a generated folder can be copied and still be
self-contained (transcripts resolve to `<sessionId>.jsonl` beside the store).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
import uuid
from pathlib import Path

KEY_KINDS = ("direct:{u}", "telegram:group:{u}", "slack:channel:c{u}:thread:{t}", "subagent:{id}",
             "cron:job{u}:run:{id}", "explicit:{id}", "discord:direct:{u}", "main")


def generate(root: Path, entries: int, seed: int = 1, now_ms: int | None = None) -> Path:
    """Write `<root>/.openclaw/agents/main/sessions/` with `entries` sessions; return the store path."""
    rng = random.Random(seed)
    now_ms = now_ms or int(time.time() * 1000)
    sessions = root / ".openclaw" / "agents" / "main" / "sessions"
    sessions.mkdir(parents=True, exist_ok=True)
    (root / ".openclaw" / "openclaw.json").write_text(json.dumps({
        "session": {"maintenance": {"pruneAfter": "30d", "maxEntries": max(1, int(entries * 0.8)),
                                    "maxDiskBytes": "%dkb" % max(1, entries * 3)}}}))
    store: dict[str, dict] = {}
    line = json.dumps({"type": "message", "id": "m1", "parentId": None,
                       "message": {"role": "user", "content": [{"type": "text", "text": "x" * 900}]}})
    for i in range(entries):
        sid = str(uuid.UUID(int=rng.getrandbits(128), version=4))
        kind = KEY_KINDS[i % len(KEY_KINDS)]
        key = "agent:main:" + kind.format(u=i, t=i * 7, id=sid)
        if key in store:
            key += f":{i}"
        age_days = rng.random() * 60
        updated = now_ms - int(age_days * 86_400_000)
        store[key] = {
            "sessionId": sid,
            "updatedAt": updated,
            "chatType": "direct",
            "model": "gpt-5.5",
            "modelProvider": "openai",
            "inputTokens": rng.randint(10, 9000),
            "outputTokens": rng.randint(10, 9000),
            "totalTokens": rng.randint(10, 20000),
            "label": f"label {i % 17}",
        }
        path = sessions / f"{sid}.jsonl"
        header = json.dumps({"type": "session", "version": 3, "id": sid,
                             "timestamp": "2026-11-01T00:00:00.000Z", "cwd": "/tmp"})
        path.write_text(header + "\n" + "\n".join([line] * rng.randint(1, 4)) + "\n")
        t = updated / 1000
        os.utime(path, (t, t))
    store_path = sessions / "sessions.json"
    store_path.write_text(json.dumps(store, indent=2))
    return store_path


def generate_in_child(root: Path, entries: int, seed: int = 1) -> Path:
    """`generate` in a child process. A benchmark that measures peak RSS must not hold a big store
    itself: a child's peak RSS starts from its parent's (fork, then exec, keeps the high-water mark)."""
    subprocess.run([sys.executable, __file__, str(root), "--entries", str(entries), "--seed", str(seed)],
                   check=True, stdout=subprocess.DEVNULL)
    return root / ".openclaw" / "agents" / "main" / "sessions" / "sessions.json"


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("root", type=Path)
    p.add_argument("--entries", type=int, default=20000)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    print(generate(args.root, args.entries, args.seed))


if __name__ == "__main__":
    main()

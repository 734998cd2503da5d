"""Benchmark: a disk-budget enforcement run on a 3 GB sessions folder of 10,000 sessions (time, peak RSS).

Usage: python bench/enforce_3gb.py [--entries 10000] [--kb 300] [--reference]
Builds the store with bench/gen_store.py, grows every transcript to about `--kb` KB of real lines, sets
maxDiskBytes to two thirds of the folder (highWaterBytes half of it) and runs
`sessions cleanup --enforce --json --store` once in a child process. Target: it finishes and its peak
RSS stays under 300 MB. `--reference` also runs OpenClaw 2026.7.1 on a fresh copy, for comparison.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "bench"))

from cleanup_bench import command, run_measured  # noqa: E402 (one way to run and measure)
from gen_store import generate  # noqa: E402

RSS_LIMIT_MIB = 300


def grow_transcripts(sessions: Path, kilobytes: int) -> int:
    """Append real message lines to every transcript until it is about `kilobytes` KB; the folder's bytes."""
    line = json.dumps({"type": "message", "id": "m2", "parentId": "m1", "message": {
        "role": "assistant", "content": [{"type": "text", "text": "y" * 4000}]}}) + "\n"
    block = line * max(1, (kilobytes * 1024) // len(line))
    total = 0
    for path in sessions.iterdir():
        if path.suffix == ".jsonl":
            stat = path.stat()
            with open(path, "a", encoding="utf-8") as out:
                out.write(block)
            os.utime(path, (stat.st_atime, stat.st_mtime))
        total += path.stat().st_size
    return total


def set_budget(state: Path, folder_bytes: int) -> None:
    config_path = state / "openclaw.json"
    config = json.loads(config_path.read_text())
    config["session"]["maintenance"].update({"maxDiskBytes": "%dkb" % (folder_bytes * 2 // 3 // 1024),
                                             "highWaterBytes": "%dkb" % (folder_bytes // 2 // 1024)})
    config_path.write_text(json.dumps(config))


def run_once(impl: str, source: Path, scratch: Path) -> tuple[float, int, int, int]:
    """(seconds, peak MiB, exit code, bytes left) of one enforcement run on a fresh copy."""
    home = scratch / impl
    shutil.copytree(source, home, symlinks=True)
    store = home / ".openclaw" / "agents" / "main" / "sessions" / "sessions.json"
    argv, env = command(impl, ["sessions", "cleanup", "--enforce", "--json", "--store", str(store)])
    env = {**env, "HOME": str(home)}
    wall, peak, code = run_measured(argv, env, home)
    left = sum(p.stat().st_size for p in store.parent.iterdir() if p.is_file())
    shutil.rmtree(home, ignore_errors=True)
    return wall, peak, code, left


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entries", type=int, default=10_000)
    parser.add_argument("--kb", type=int, default=300)
    parser.add_argument("--reference", action="store_true")
    args = parser.parse_args()
    scratch = Path(tempfile.mkdtemp(prefix="enforce-bench-"))
    try:
        source = scratch / "source"
        store = generate(source, args.entries)
        folder = grow_transcripts(store.parent, args.kb)
        set_budget(source / ".openclaw", folder)
        print(f"folder: {folder / 1e9:.2f} GB, {args.entries:,} sessions")
        ok = True
        for impl in (["reference"] if args.reference else []) + ["ours"]:
            wall, peak, code, left = run_once(impl, source, scratch)
            print(f"{impl:9} --enforce: {wall:6.2f} s  peak {peak:5d} MiB  exit {code}  left {left / 1e9:.2f} GB")
            if impl == "ours":
                ok = code == 0 and peak < RSS_LIMIT_MIB and left < folder
        print(f"target (finishes, under {RSS_LIMIT_MIB} MiB, frees space): {'met' if ok else 'missed'}")
        return 0 if ok else 2
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())

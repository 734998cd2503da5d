#!/usr/bin/env python3
"""Benchmark `sessions disk` on a generated store (one transcript of a few KB per entry).

It alternates `sessions disk --json --store` with our own `sessions cleanup --dry-run --json
--store` on the same store (the dry run is the yardstick: both load the store and plan; `disk`
also scans and classifies the folder and plans the applying run), and prints the medians and
their ratio. Absolute times on a loaded machine are noisy; the ratio is steadier.

    python bench/disk_bench.py                    # 20,000 entries, 3 rounds
    python bench/disk_bench.py --entries 100000 --rounds 5
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from gen_store import generate_in_child  # noqa: E402


def wall(args: list[str], home: Path) -> float:
    env = {"HOME": str(home), "PATH": "/usr/bin:/bin", "OPENCLAW_GATEWAY_PORT": "1"}
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "openclaw_cli", *args], env=env, cwd=home, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--entries", type=int, default=20000)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--work", type=Path, default=Path(tempfile.gettempdir()) / "openclaw-disk-bench")
    args = p.parse_args()
    home = args.work / f"home-{args.entries}"
    store = home / ".openclaw" / "agents" / "main" / "sessions" / "sessions.json"
    if not store.exists():
        print(f"generating {args.entries} entries ...", flush=True)
        generate_in_child(home, args.entries, seed=args.entries)
    runs = {"disk": ["sessions", "disk", "--json", "--store", str(store)],
            "dry-run": ["sessions", "cleanup", "--dry-run", "--json", "--store", str(store)]}
    times: dict[str, list[float]] = {name: [] for name in runs}
    for r in range(args.rounds):
        for name in runs if r % 2 == 0 else reversed(list(runs)):
            times[name].append(wall(runs[name], home))
    disk, dry = statistics.median(times["disk"]), statistics.median(times["dry-run"])
    print(f"`sessions disk --json` at {args.entries:,} entries: {disk:.2f} s "
          f"(median of {args.rounds}; `sessions cleanup --dry-run --json` {dry:.2f} s, ratio {disk / dry:.2f})")


if __name__ == "__main__":
    main()

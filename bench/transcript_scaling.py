"""Benchmark: `context detail` and `compact --dry-run` on transcripts of 25, 100 and 250 MB (time per MB, peak RSS).

Usage: python bench/transcript_scaling.py [--sizes 25,100,250] [--runs 3]
Each size gets its own scratch state (bench/context_detail.py's realistic transcript); every command runs
in a child process, its own peak RSS read with wait4. Targets (issue: bounded memory everywhere): peak RSS
under 150 MB at every size, and time per MB at the largest size within 1.3x of that at the smallest.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from context_detail import prepare  # the one transcript generator

COMMANDS = {
    "context detail": ["context", "detail", "--offline"],
    "compact --dry-run": ["compact", "main", "--dry-run"],
}
RSS_LIMIT_MIB = 150
FLAT_LIMIT = 1.3


def run_child(argv: list[str], env: dict[str, str]) -> tuple[float, float]:
    """(wall seconds, peak RSS in MiB) of one run of our CLI."""
    started = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "openclaw_cli", *argv], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.perf_counter() - started
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed ({proc.returncode}): {proc.stderr.read().decode()[-500:]}")
    return elapsed, usage.ru_maxrss / 1024


def measure(sizes: list[int], runs: int) -> dict[str, dict[int, tuple[float, float, float]]]:
    """{command: {MB: (median seconds, seconds per MB, peak MiB)}}."""
    results: dict[str, dict[int, tuple[float, float, float]]] = {name: {} for name in COMMANDS}
    for mb in sizes:
        base = Path(tempfile.mkdtemp(prefix=f"transcript-bench-{mb}-"))
        try:
            env, size, _messages = prepare(base, mb)
            real_mb = size / 1e6
            for name, argv in COMMANDS.items():
                samples = [run_child(argv, env) for _ in range(runs)]
                wall = statistics.median(s[0] for s in samples)
                results[name][mb] = (wall, wall / real_mb, max(s[1] for s in samples))
        finally:
            shutil.rmtree(base, ignore_errors=True)
    return results


def report(results: dict[str, dict[int, tuple[float, float, float]]]) -> bool:
    ok = True
    for name, by_size in results.items():
        sizes = sorted(by_size)
        for mb in sizes:
            wall, per_mb, peak = by_size[mb]
            print(f"{name:18} {mb:4d} MB  {wall:6.2f} s  {per_mb * 1000:6.1f} ms/MB  peak {peak:5.0f} MiB")
            ok &= peak < RSS_LIMIT_MIB
        growth = by_size[sizes[-1]][1] / by_size[sizes[0]][1]
        ok &= growth <= FLAT_LIMIT
        print(f"{name:18} time per MB {sizes[-1]} MB / {sizes[0]} MB: {growth:.2f} (target <= {FLAT_LIMIT})")
    return ok


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="25,100,250")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    ok = report(measure([int(x) for x in args.sizes.split(",")], args.runs))
    print("targets met" if ok else "targets missed")
    return 0 if ok else 2


if __name__ == "__main__":
    sys.exit(main())

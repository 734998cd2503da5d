#!/usr/bin/env python3
"""Benchmark `sessions cleanup` against the reference OpenClaw 2026.7.1 in one run.

For each store size it generates a store (one transcript of a few KB per entry), then alternates
the reference and this project: `--dry-run --json --store` on the generated store and
`--enforce --json --store` on a fresh copy at the same path. It prints median wall times, peak
RSS and the ratios, the time per entry at each size, and how long `--help` takes.

    python bench/cleanup_bench.py                 # 20,000 and 100,000 entries, 3 rounds
    python bench/cleanup_bench.py --sizes 20000 --rounds 5
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

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "bench"))

from gen_store import generate_in_child  # noqa: E402
from helpers import refbin  # noqa: E402


def run_measured(argv: list[str], env: dict[str, str], cwd: Path) -> tuple[float, int, int]:
    """(wall seconds, peak RSS in MiB of the process, exit code)."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, env=env, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _pid, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    return wall, usage.ru_maxrss // 1024, proc.returncode


def command(impl: str, args: list[str]) -> tuple[list[str], dict[str, str]]:
    if impl == "reference":
        env = refbin.clean_env(Path.home())
        env["PATH"] = f"{refbin.reference_node_bin_dir()}:{env['PATH']}"
        return [str(refbin.reference_bin()), *args], env
    return [sys.executable, "-m", "openclaw_cli", *args], refbin.clean_env(Path.home())


def bench_size(size: int, rounds: int, work: Path) -> dict:
    template = work / f"template-{size}"
    run_home = work / f"run-{size}"
    if not template.exists():
        print(f"generating {size} entries ...", flush=True)
        generate_in_child(template, size, seed=size)
    store = template / ".openclaw" / "agents" / "main" / "sessions" / "sessions.json"
    run_store = run_home / ".openclaw" / "agents" / "main" / "sessions" / "sessions.json"
    results: dict[tuple[str, str], list[tuple[float, int]]] = {}
    for r in range(rounds):
        for impl in ("reference", "ours") if r % 2 == 0 else ("ours", "reference"):
            argv, env = command(impl, ["sessions", "cleanup", "--dry-run", "--json", "--store", str(store)])
            env["HOME"] = str(template)
            wall, rss, code = run_measured(argv, env, template)
            assert code == 0, f"{impl} dry-run failed ({code})"
            results.setdefault((impl, "dry-run"), []).append((wall, rss))

            shutil.rmtree(run_home, ignore_errors=True)
            shutil.copytree(template, run_home, symlinks=True)
            argv, env = command(impl, ["sessions", "cleanup", "--enforce", "--json", "--store", str(run_store)])
            env["HOME"] = str(run_home)
            wall, rss, code = run_measured(argv, env, run_home)
            assert code == 0, f"{impl} enforce failed ({code})"
            results.setdefault((impl, "enforce"), []).append((wall, rss))
            print(f"  round {r + 1} {impl}: done", flush=True)
    shutil.rmtree(run_home, ignore_errors=True)
    return {k: (statistics.median(w for w, _ in v), max(m for _, m in v)) for k, v in results.items()}


def help_time() -> float:
    argv, env = command("ours", ["sessions", "cleanup", "--help"])
    samples = []
    for _ in range(5):
        wall, _rss, _code = run_measured(argv, env, ROOT)
        samples.append(wall)
    return statistics.median(samples)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--sizes", default="20000,100000")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--work", type=Path, default=Path(tempfile.gettempdir()) / "openclaw-cleanup-bench")
    args = p.parse_args()
    if not refbin.reference_available():
        sys.exit("reference OpenClaw 2026.7.1 missing: run scripts/install-reference.sh")
    args.work.mkdir(parents=True, exist_ok=True)
    sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
    table = {size: bench_size(size, args.rounds, args.work) for size in sizes}
    print()
    print(f"{'entries':>8} {'run':<8} {'reference':>12} {'ours':>10} {'speed-up':>9} "
          f"{'ref RSS':>9} {'our RSS':>9} {'RSS ratio':>9}")
    for size, res in table.items():
        for kind in ("dry-run", "enforce"):
            (rw, rm), (ow, om) = res[("reference", kind)], res[("ours", kind)]
            print(f"{size:>8} {kind:<8} {rw:>10.2f} s {ow:>8.2f} s {rw / ow:>8.1f}x "
                  f"{rm:>6} MiB {om:>6} MiB {om / rm:>9.2f}")
    if len(sizes) >= 2:
        small, large = sizes[0], sizes[-1]
        for kind in ("dry-run", "enforce"):
            per_small = table[small][("ours", kind)][0] / small
            per_large = table[large][("ours", kind)][0] / large
            print(f"ours {kind}: {per_small * 1e6:.1f} us/entry at {small}, {per_large * 1e6:.1f} us/entry at "
                  f"{large} (ratio {per_large / per_small:.2f})")
    print(f"`openclaw sessions cleanup --help`: {help_time():.3f} s (median of 5)")


if __name__ == "__main__":
    main()

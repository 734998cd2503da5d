#!/usr/bin/env python3
"""Benchmark `sessions --json --limit all` and `doctor --lint --json` against the reference OpenClaw
2026.7.1 in one run, on a generated store of 20,000 entries and on one whose entries carry 40 KB
skill snapshots (`skillsSnapshot.prompt`, a handful of distinct prompts shared by many sessions, as
agents with the same skills produce).

Runs alternate between the reference and this project (medians of 3; peak RSS is the maximum). It
prints wall times, peak RSS, the speed-up (theirs / ours) and the memory ratio (ours / theirs).
Targets: >= 5x faster, <= 1/3 of the reference's memory. Absolute times are noisy on a loaded machine.
Then this project alone on a store of `--scaling` entries (100,000; 0 skips it): the time per entry
there against the time per entry at `--entries`, run in the same rounds (target: within 1.3x).

    python bench/list_doctor_bench.py
    python bench/list_doctor_bench.py --entries 20000 --snapshot-entries 2000 --rounds 3 --scaling 0
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "bench"))

from cleanup_bench import command, run_measured  # noqa: E402
from gen_store import generate  # noqa: E402
from helpers import refbin  # noqa: E402

SNAPSHOT_BYTES = 40 * 1024
SNAPSHOT_VARIANTS = 8


def add_skill_snapshots(store_path: Path, seed: int) -> None:
    """Give every entry of a generated store a ~40 KB skill snapshot (one of a few prompts)."""
    rng = random.Random(seed)
    prompts = []
    for v in range(SNAPSHOT_VARIANTS):
        skill = f"<skill name=\"skill-{v}-%d\">Use this skill when the task needs tool %d.</skill>\n"
        text, i = [], 0
        while sum(map(len, text)) < SNAPSHOT_BYTES:
            text.append(skill % (i, i))
            i += 1
        prompts.append(("".join(text))[:SNAPSHOT_BYTES])
    store = json.loads(store_path.read_text())
    for entry in store.values():
        v = rng.randrange(SNAPSHOT_VARIANTS)
        entry["skillsSnapshot"] = {"prompt": prompts[v],
                                   "skills": [{"name": f"skill-{v}-{i}"} for i in range(20)]}
    store_path.write_text(json.dumps(store, indent=2))


def make_home(work: Path, name: str, entries: int, snapshots: bool) -> Path:
    """The generated home (made in a child process: a big store held here would count in the peak RSS
    of every process forked after it)."""
    home = work / name
    if not home.exists():
        print(f"generating {name} ({entries} entries) ...", flush=True)
        subprocess.run([sys.executable, __file__, "--generate", str(home), str(entries), str(int(snapshots))],
                       check=True)
    return home


RUNS = {
    "sessions --json --limit all": lambda store: ["sessions", "--json", "--limit", "all", "--store", str(store)],
    "doctor --lint --json": lambda store: ["doctor", "--lint", "--json"],
}


def _run(impl: str, run: str, home: Path) -> tuple[float, int]:
    store = home / ".openclaw" / "agents" / "main" / "sessions" / "sessions.json"
    argv, env = command(impl, RUNS[run](store))
    env["HOME"] = str(home)
    wall, rss, code = run_measured(argv, env, home)
    assert code in (0, 1), f"{impl} {run} failed ({code})"
    return wall, rss


def _summary(results: dict) -> dict:
    return {k: (statistics.median(w for w, _ in v), max(m for _, m in v)) for k, v in results.items()}


def bench_home(home: Path, rounds: int) -> dict[tuple[str, str], tuple[float, int]]:
    results: dict[tuple[str, str], list[tuple[float, int]]] = {}
    for r in range(rounds):
        for impl in ("reference", "ours") if r % 2 == 0 else ("ours", "reference"):
            for run in RUNS:
                results.setdefault((impl, run), []).append(_run(impl, run, home))
        print(f"  round {r + 1}: done", flush=True)
    return _summary(results)


def bench_scaling(small: Path, large: Path, rounds: int) -> dict[tuple[str, str], tuple[float, int]]:
    """This project alone on the small and the large store, alternating, so that both see the same load."""
    results: dict[tuple[str, str], list[tuple[float, int]]] = {}
    for r in range(rounds):
        for name, home in (("small", small), ("large", large)) if r % 2 == 0 else (("large", large), ("small", small)):
            for run in RUNS:
                results.setdefault((name, run), []).append(_run("ours", run, home))
        print(f"  scaling round {r + 1}: done", flush=True)
    return _summary(results)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--entries", type=int, default=20000)
    p.add_argument("--snapshot-entries", type=int, default=2000)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--scaling", type=int, default=100000, help="entries of the store for the per-entry check")
    p.add_argument("--work", type=Path, default=Path(tempfile.gettempdir()) / "openclaw-list-doctor-bench")
    p.add_argument("--generate", nargs=3, metavar=("HOME", "ENTRIES", "SNAPSHOTS"), help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.generate:
        home, entries, snapshots = Path(args.generate[0]), int(args.generate[1]), args.generate[2] == "1"
        store = generate(home, entries, seed=entries)
        if snapshots:
            add_skill_snapshots(store, seed=entries)
        return
    if not refbin.reference_available():
        sys.exit("reference OpenClaw 2026.7.1 missing: run scripts/install-reference.sh")
    args.work.mkdir(parents=True, exist_ok=True)
    homes = {f"{args.entries} entries": make_home(args.work, f"plain-{args.entries}", args.entries, False),
             f"{args.snapshot_entries} x 40 KB snapshots": make_home(
                 args.work, f"snapshots-{args.snapshot_entries}", args.snapshot_entries, True)}
    table = {name: bench_home(home, args.rounds) for name, home in homes.items()}
    print()
    print(f"{'store':<26} {'run':<28} {'reference':>10} {'ours':>9} {'speed-up':>9} "
          f"{'ref RSS':>9} {'our RSS':>9} {'RSS ratio':>9}")
    for name, res in table.items():
        for run in RUNS:
            (rw, rm), (ow, om) = res[("reference", run)], res[("ours", run)]
            print(f"{name:<26} {run:<28} {rw:>8.2f} s {ow:>7.2f} s {rw / ow:>8.1f}x "
                  f"{rm:>5} MiB {om:>5} MiB {om / rm:>9.2f}")
    if args.scaling:
        small = make_home(args.work, f"plain-{args.entries}", args.entries, False)
        large = make_home(args.work, f"plain-{args.scaling}", args.scaling, False)
        scaled = bench_scaling(small, large, args.rounds)
        for run in RUNS:
            (sw, _sm), (lw, lm) = scaled[("small", run)], scaled[("large", run)]
            per_small, per_large = sw / args.entries, lw / args.scaling
            print(f"ours {run}: {per_small * 1e6:.1f} us/entry at {args.entries}, {per_large * 1e6:.1f} us/entry "
                  f"at {args.scaling} (ratio {per_large / per_small:.2f}, {lm} MiB)")


if __name__ == "__main__":
    main()

"""Every benchmark target in one run: each script beside this one, one after the other, then a summary.

Usage: python bench/run_all.py [--quick]
`--quick` runs the smaller sizes only (20,000 entries, 25 and 100 MB, one round) for a first look.
Each script prints its own figures (ratios against OpenClaw 2026.7.1 where the target is one); the
summary lists each script's target and whether it ran through (a script that checks its target
itself exits non-zero when it is missed).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent

# (script, full arguments, quick arguments, what it measures)
RUNS = [
    ("cleanup_bench.py", [], ["--sizes", "20000", "--rounds", "1"],
     "cleanup --dry-run >= 10x, --enforce >= 8x, RSS <= 1/5, flat per entry"),
    ("list_doctor_bench.py", [], ["--rounds", "1", "--scaling", "0"],
     "sessions list and doctor --lint >= 5x, RSS <= 1/3, flat per entry"),
    ("help_bench.py", [], ["--rounds", "2"], "every --help <= 0.12 s"),
    ("transcript_scaling.py", [], ["--sizes", "25,100", "--runs", "1"],
     "context detail, compact --dry-run: < 150 MB RSS, time per MB flat"),
    ("enforce_3gb.py", ["--reference"], ["--entries", "2000"], "3 GB, 10,000 sessions enforced under 300 MB"),
    ("disk_bench.py", [], ["--rounds", "1"], "sessions disk at 20,000 entries"),
]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    summary = []
    for script, full, quick, target in RUNS:
        print(f"== {script}: {target}", flush=True)
        started = time.perf_counter()
        code = subprocess.run([sys.executable, str(BENCH / script), *(quick if args.quick else full)]).returncode
        summary.append((script, target, code, time.perf_counter() - started))
        print(flush=True)
    print("== summary")
    for script, target, code, seconds in summary:
        print(f"{'ok    ' if code == 0 else f'exit {code}':6} {script:24} {target} ({seconds:.0f} s)")
    return 0 if all(code == 0 for _s, _t, code, _x in summary) else 1


if __name__ == "__main__":
    sys.exit(main())

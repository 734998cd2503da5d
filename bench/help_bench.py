#!/usr/bin/env python3
"""Wall time of every command's `--help` (median of 5 runs each) against the 0.12 s target, and
against the reference OpenClaw 2026.7.1's `openclaw --help` as a ratio (theirs / ours).

    python bench/help_bench.py
    python bench/help_bench.py --rounds 9

Absolute times are noisy on a loaded machine; the ratio to the reference, measured in the same
run, is the steadier figure.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "bench"))

from cleanup_bench import command, run_measured  # noqa: E402
from helpers import refbin  # noqa: E402

TARGET_S = 0.12


def commands() -> list[tuple[str, ...]]:
    """Every visible command path, the root first."""
    from openclaw_cli.cli.docsgen.model import load_cli

    return [command.path for command in load_cli().walk()]


def median_wall(impl: str, args: list[str], rounds: int, home: Path) -> float:
    argv, env = command(impl, args)
    env["HOME"] = str(home)
    samples = []
    for _ in range(rounds):
        wall, _rss, code = run_measured(argv, env, home)
        assert code == 0, f"{impl} {' '.join(args)} failed ({code})"
        samples.append(wall)
    return statistics.median(samples)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--rounds", type=int, default=5)
    args = p.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp)
        reference = None
        if refbin.reference_available():
            reference = median_wall("reference", ["--help"], args.rounds, home)
            print(f"reference 2026.7.1 `openclaw --help`: {reference:.3f} s (median of {args.rounds})")
        else:
            print("reference OpenClaw 2026.7.1 missing: no ratio (scripts/install-reference.sh)")
        print(f"{'command':<34} {'ours':>8} {'target':>7} {'vs ref':>7}")
        slow = 0
        for path in commands():
            ours = median_wall("ours", [*path, "--help"], args.rounds, home)
            slow += ours > TARGET_S
            ratio = f"{reference / ours:>6.1f}x" if reference else "     -"
            name = " ".join(("openclaw", *path))
            print(f"{name:<34} {ours:>6.3f} s {'ok' if ours <= TARGET_S else 'SLOW':>7} {ratio}")
        print(f"{slow} of {len(commands())} help pages over {TARGET_S} s")


if __name__ == "__main__":
    main()

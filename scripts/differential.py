#!/usr/bin/env python3
"""Run `sessions cleanup` differential cases (this project vs the reference) and report differences."""

from __future__ import annotations

import argparse
import os
import shlex
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from helpers import refbin  # noqa: E402
from helpers.diffcoverage import case_features  # noqa: E402
from helpers.diffgen import case_seeds, edge_cases, generate_case  # noqa: E402
from helpers.diffharness import Case, DiffRunner, case_env, materialize, save_reproducer  # noqa: E402


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--cases", type=int, default=100, help="number of generated cases (default 100)")
    p.add_argument("--seed", type=int, default=0, help="base seed; case i uses seed*100000+i")
    p.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1), help="parallel workers")
    p.add_argument("--edge", dest="edge", action="store_true", default=True,
                   help="also run the hand-written edge cases (default)")
    p.add_argument("--no-edge", dest="edge", action="store_false", help="skip the hand-written edge cases")
    p.add_argument("--edge-only", action="store_true", help="run only the hand-written edge cases")
    p.add_argument("--filter", default="", help="only cases whose name contains this text")
    p.add_argument("--self", dest="against", action="store_const", const="reference", default="ours",
                   help="run the reference against itself (harness determinism check)")
    p.add_argument("--out", type=Path, default=Path(tempfile.gettempdir()) / "openclaw-diff-repro",
                   help="folder for reproducers of differing cases")
    p.add_argument("--replay", type=Path, nargs="+", metavar="CASE_JSON",
                   help="run saved cases (case.json files or reproducer folders) instead of generating")
    p.add_argument("--materialize", nargs=2, metavar=("CASE_JSON", "HOME"),
                   help="write a case's state tree into HOME and exit")
    p.add_argument("--coverage", action="store_true", help="print category counts of the selected cases")
    p.add_argument("--timeout", type=float, default=120, help="seconds per CLI run")
    return p.parse_args(argv)


def load_case(path: Path) -> Case:
    if path.is_dir():
        path = path / "case.json"
    return Case.from_json(path.read_text(encoding="utf-8"))


def select_cases(args: argparse.Namespace) -> list[Case]:
    if args.replay:
        cases = [load_case(p) for p in args.replay]
    else:
        cases = [] if args.edge_only else [generate_case(s) for s in case_seeds(args.seed, args.cases)]
        if args.edge or args.edge_only:
            cases += edge_cases()
    if args.filter:
        cases = [c for c in cases if args.filter in c.name]
    return cases


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.materialize:
        case = load_case(Path(args.materialize[0]))
        home = Path(args.materialize[1]).resolve()
        mat = materialize(case, home)
        env = " ".join(f"{k}={shlex.quote(v)}" for k, v in case_env(case, mat).items())
        print(f"materialised {case.name} into {home}; runs (cwd {home / case.cwd}):")
        for run in case.runs:
            argv = " ".join(shlex.quote(mat.subst(a)) for a in run)
            print(f"  HOME={shlex.quote(str(home))} {env} openclaw {argv}")
        return 0
    cases = select_cases(args)
    if args.coverage:
        from collections import Counter
        counts: Counter[str] = Counter()
        for case in cases:
            counts.update(case_features(case))
        for name, n in sorted(counts.items()):
            print(f"{n:5d}  {name}")
        return 0
    if not refbin.reference_available():
        print("reference OpenClaw 2026.7.1 missing: run scripts/install-reference.sh", file=sys.stderr)
        return 2
    started = time.monotonic()
    runner = DiffRunner(jobs=args.jobs, timeout=args.timeout)
    identical = expected = ref_failures = 0
    try:
        futures = [(case, runner.submit(case, against=args.against)) for case in cases]
        for i, (case, future) in enumerate(futures, 1):
            outcome = future.result()
            status = "identical" if outcome.identical else "DIFFERENT"
            print(f"[{i}/{len(cases)}] {case.name}: {status} ({outcome.elapsed:.1f}s)", file=sys.stderr, flush=True)
            if outcome.reference_failed_unexpectedly:
                ref_failures += 1
                first = next(inv for inv in outcome.invocations if inv.a.exit != 0)
                print(f"   warning: the reference exited {first.a.exit} on {case.name}: "
                      f"{first.a.stderr.strip()[:300]}", file=sys.stderr)
            if outcome.identical:
                identical += 1
                continue
            if case.expected_difference:
                expected += 1
            repro = save_reproducer(outcome, args.out)
            print(outcome.report(repro), flush=True)
    finally:
        runner.close()
    elapsed = time.monotonic() - started
    print(f"{len(cases)} cases, {identical} identical"
          + (f", {expected} expected (documented) differences" if expected else "")
          + (f", {ref_failures} cases where the reference failed unexpectedly" if ref_failures else "")
          + f" [{elapsed:.0f}s, against {args.against}]")
    return 0 if identical + expected == len(cases) else 1


if __name__ == "__main__":
    sys.exit(main())

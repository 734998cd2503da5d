#!/usr/bin/env python3
"""Peak and current RSS after each step of one `sessions cleanup` or `sessions disk` run, in-process.

Each step's growth shows where a run's peak memory comes from (tracemalloc's own bookkeeping
would double it on a 100,000-entry store, so this reads the process's RSS instead):

    python bench/mem_phases.py sessions cleanup --dry-run --json --store "$S" > /dev/null
    python bench/mem_phases.py sessions cleanup --enforce --json --store "$S" > /dev/null   # on a copy
"""

from __future__ import annotations

import functools
import importlib
import resource
import sys
import time

STEPS = [
    ("openclaw_cli.config.load", "load_config"),
    ("openclaw_cli.store.sessions_json", "load_store"),
    ("openclaw_cli.store.sessions_json", "serialize_store"),
    ("openclaw_cli.store.sessions_json", "fingerprint_store"),
    ("openclaw_cli.maintenance.steps", "prune_stale"),
    ("openclaw_cli.maintenance.steps", "cap_entries"),
    ("openclaw_cli.maintenance.archive", "archive_transcripts"),
    ("openclaw_cli.maintenance.archive", "remove_trajectory_artifacts"),
    ("openclaw_cli.maintenance.budget", "enforce_disk_budget"),
    ("openclaw_cli.maintenance.budget", "sweep_unreferenced"),
    ("openclaw_cli.maintenance.plan", "preview_store"),
    ("openclaw_cli.maintenance.apply", "plan_apply"),
    ("openclaw_cli.maintenance.execute", "execute"),
    ("openclaw_cli.maintenance.disk", "measure"),
]


def _mib() -> tuple[int, int]:
    """(peak, current) RSS in MiB."""
    with open("/proc/self/statm") as fh:
        current = int(fh.read().split()[1]) * resource.getpagesize() >> 20
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss >> 10, current


def _wrap(module: str, name: str) -> None:
    mod = importlib.import_module(module)
    fn = getattr(mod, name)

    @functools.wraps(fn)
    def timed(*args, **kwargs):
        start = time.perf_counter()
        try:
            return fn(*args, **kwargs)
        finally:
            peak, current = _mib()
            print(f"{module.rsplit('.', 1)[1]}.{name}: {time.perf_counter() - start:.2f} s, "
                  f"peak {peak} MiB, now {current} MiB", file=sys.stderr)

    setattr(mod, name, timed)


def main() -> None:
    for module, name in STEPS:
        _wrap(module, name)
    from openclaw_cli.cli.app import main as cli_main

    sys.argv = ["openclaw", *sys.argv[1:]]
    try:
        cli_main()
    except SystemExit:
        pass
    print(f"end: peak {_mib()[0]} MiB", file=sys.stderr)


if __name__ == "__main__":
    main()

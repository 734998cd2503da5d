"""Builders and runners for the `sessions cleanup` behaviour tests: files with ages, stores, runs."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import time
from pathlib import Path

from helpers import refbin
from helpers.cli import run as run_in_process
from helpers.state import home_sessions_dir, state_dir
from helpers.state import write_config as config_file
from openclaw_cli.commands.cleanup import CleanupRequest, run_cleanup
from openclaw_cli.maintenance import budget
from openclaw_cli.maintenance.entries import EntryPaths
from openclaw_cli.maintenance.fsview import FsView
from openclaw_cli.maintenance.plan import CleanupOptions
from openclaw_cli.store import artifacts
from openclaw_cli.store.sessions_json import load_store

MIN_MS = 60_000
DAY_MS = 86_400_000
MSG = '{"type":"message","message":{"role":"user","content":"hi"}}\n'
U1 = "0f8fad5b-d9cb-469f-a165-70867728950e"
U2 = "7c9e6679-7425-40de-944b-e07fc1f90ae7"
U3 = "3fa85f64-5717-4562-b3fc-2c963f66afa6"
THREAD_KEY = "agent:main:slack:channel:c123:thread:1710000000.000100"


def now_ms() -> int:
    return int(time.time() * 1000)


def stamp(age_ms: int) -> str:
    """The archive timestamp (`2026-02-23T12-34-56.000Z`) of a moment `age_ms` ago."""
    return artifacts.format_archive_timestamp(now_ms() - age_ms)


def put(path: Path, content: str | int = MSG, age_ms: int = 0) -> Path:
    """Write a file (text, or that many bytes of filler) whose mtime is `age_ms` ago."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(content if isinstance(content, str) else "x" * content)
    set_age(path, age_ms)
    return path


def set_age(path: Path, age_ms: int) -> None:
    when = time.time() - age_ms / 1000
    os.utime(path, (when, when))


def write_store(home: Path, entries: dict, agent: str = "main") -> Path:
    """sessions.json for an agent, written the way OpenClaw writes it (2-space JSON, no newline)."""
    path = home_sessions_dir(home, agent) / "sessions.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(entries, indent=2, ensure_ascii=False))
    return path


def write_config(home: Path, maintenance: dict | None = None, **top) -> None:
    """~/.openclaw/openclaw.json with `session.maintenance` and any other top-level sections."""
    cfg = dict(top)
    if maintenance is not None:
        cfg.setdefault("session", {})["maintenance"] = maintenance
    config_file(state_dir(home), cfg, indent=None)


def read_store(path: Path) -> dict:
    return json.loads(path.read_text())


def names(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def cleanup(store: Path | None = None, *, lock_wait_s: float = 2.0, all_agents: bool = False, **options):
    """The whole command in-process (no Gateway), against the HOME the test set up."""
    req = CleanupRequest(options=CleanupOptions(**options), store=str(store) if store else None,
                         all_agents=all_agents, lock_wait_s=lock_wait_s)
    return run_cleanup(req, env=dict(os.environ))


def applied(store: Path | None = None, **options) -> dict:
    outcome = cleanup(store, **options)
    assert len(outcome.summaries) == 1
    return outcome.summaries[0]


def previewed(store: Path | None = None, **options) -> dict:
    outcome = cleanup(store, dry_run=True, **options)
    assert len(outcome.previews) == 1
    return outcome.previews[0].summary


def cli(home: Path, *args: str, child_process: bool = False) -> refbin.Result:
    """`openclaw sessions cleanup ...` end to end (in-process unless the test needs a process of its
    own); nothing listens on the Gateway port."""
    run = refbin.run_ours if child_process else run_in_process
    return run(["sessions", "cleanup", *args], home, {"OPENCLAW_GATEWAY_PORT": "1"})


class Planned:
    """One maintenance function run against a sessions folder, its file effects only planned."""

    def __init__(self, store_path: Path):
        self.store_path = store_path
        self.folder = store_path.parent
        self.view = FsView.open(str(self.folder))
        self.paths = EntryPaths(self.view, dict(os.environ))
        self.store = load_store(str(store_path)).store

    def removed(self) -> set[str]:
        """Files the run would delete, relative to the sessions folder."""
        real = os.path.realpath(self.folder)
        return {os.path.relpath(e.path, real) for e in self.view.effects if e.kind == "delete"}

    def budget(self, max_bytes: int, high_water: int, active_key: str | None = None,
               preserve: frozenset[str] | None = None) -> dict:
        return budget.enforce_disk_budget(
            store=self.store, store_path=str(self.store_path), paths=self.paths,
            rules=budget.BudgetRules(max_bytes=max_bytes, high_water=high_water, active_key=active_key,
                                     preserve=preserve, warn_only=False, dry_run=False, now_ms=now_ms()))

    def sweep(self, older_than_ms: int = 30 * DAY_MS) -> dict:
        return budget.sweep_unreferenced(store=self.store, store_path=str(self.store_path), paths=self.paths,
                                         older_than_ms=older_than_ms, dry_run=False, now_ms=now_ms())


def blob_rel(prompt: str) -> str:
    """Where a skills prompt's blob lives, relative to the sessions folder."""
    digest = hashlib.sha256(prompt.encode()).hexdigest()
    return f"skills-prompts/sha256/{digest[:2]}/{digest}.txt"


def entries_of(*specs: tuple[str, str, int]) -> dict:
    """{key: {"sessionId", "updatedAt"}} from (key, sessionId, age in ms) triples."""
    now = now_ms()
    return {key: {"sessionId": sid, "updatedAt": now - age} for key, sid, age in specs}


def warn_mode_home(home: Path) -> Path:
    """Mode warn; one entry without transcript, one per-peer DM, one stale entry, one old orphan."""
    write_config(home, {"mode": "warn"})
    store = write_store(home, entries_of(("agent:main:explicit:gone", "gone", 0),
                                         ("agent:main:telegram:direct:bob", "bob", 0),
                                         ("agent:main:explicit:old", "old", 40 * DAY_MS),
                                         ("agent:main:main", "main", 0)))
    for sid in ("bob", "old", "main"):
        put(store.parent / f"{sid}.jsonl")
    put(store.parent / "orphan.jsonl", age_ms=40 * DAY_MS)
    return store


def dead_pid() -> int:
    """The pid of a process that has already exited."""
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid

"""Helpers for the /context tests: scratch state from the fixture copy, and running our CLI."""

from __future__ import annotations

import os
import shutil
import stat
from pathlib import Path

from helpers import cli, refbin

DATA = Path(__file__).resolve().parents[1] / "data" / "context"
REAL = DATA / "real-2026.7.1"
MAIN_ID = "eb01388d-e079-474d-961b-1e1df466b667"


def copy_state(dest: Path) -> Path:
    """A writable copy of the fixture's state dir at `dest`."""
    shutil.copytree(REAL / "state", dest)
    for root, dirs, files in os.walk(dest):
        for name in dirs + files:
            p = Path(root) / name
            p.chmod(p.stat().st_mode | stat.S_IWUSR)
    return dest


def drop_last_lines(path: Path, count: int) -> None:
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    path.write_text("".join(lines[:-count]), encoding="utf-8")


def env_for(home: Path, state: Path | None = None, workspace: Path | None = None, **extra: str) -> dict[str, str]:
    env = {"HOME": str(home), "PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C.UTF-8",
           "NO_COLOR": "1", "TZ": "UTC", **refbin.clock_env()}
    if state is not None:
        env["OPENCLAW_STATE_DIR"] = str(state)
    if workspace is not None:
        env["OPENCLAW_WORKSPACE_DIR"] = str(workspace)
    env.update(extra)
    return env


def run_context(args: list[str], env: dict[str, str]) -> refbin.Result:
    """`openclaw context <args>` in-process (helpers.cli.run) with `env` (from env_for) as its environment."""
    return cli.run(["context", *args], env["HOME"], env)


def reference_part(text: str) -> str:
    """Our output up to and including the Inline shortcut line (what the reference prints)."""
    lines = text.rstrip("\n").split("\n")
    end = next(i for i, line in enumerate(lines) if line.startswith("Inline shortcut:"))
    return "\n".join(lines[:end + 1])

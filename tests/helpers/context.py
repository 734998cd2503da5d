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


# Lines of a `/context` reply that only a running Gateway knows when the report is an estimate
# (the rendered system prompt, the skills and tool schemas it loaded): our offline estimate says
# "unknown offline" there. A run report persisted on the entry has them all.
RUNTIME_PREFIXES = ("System prompt (", "Skills list (system prompt text):", "Skills:", "Tool schemas (JSON):",
                    "Tools:", "Tracked prompt estimate:", "Untracked provider/runtime overhead:")
RUNTIME_BLOCKS = ("Top skills (prompt entry size):", "Top tools (schema size):",
                  "Top tools (summary text size):", "Tools (param count):")


def split_runtime(text: str, *, mask_window: bool = False) -> tuple[list[str], list[str]]:
    """(comparable lines, runtime lines) of a `/context list|detail` text: the RUNTIME_PREFIXES
    lines and the RUNTIME_BLOCKS rankings are set aside; `mask_window` also hides the live
    context window of the Session tokens line."""
    import re

    same: list[str] = []
    runtime: list[str] = []
    in_block = False
    for line in text.split("\n"):
        if line in RUNTIME_BLOCKS or line.startswith(RUNTIME_BLOCKS):
            in_block = True
            runtime.append(line)
            continue
        if in_block and (line.startswith(("- ", "… (+"))):
            runtime.append(line)
            continue
        in_block = False
        if line.startswith(RUNTIME_PREFIXES):
            runtime.append(line)
        elif mask_window and line.startswith("Session tokens (cached):"):
            same.append(re.sub(r"ctx=\S+", "ctx=<live window>", line))
        else:
            same.append(line)
    return same, runtime


def as_replied(mine: str) -> str:
    """Our output as the Gateway's reply shows it: its chat replies pass OpenClaw's console redaction,
    so an id that happens to look like a key (a random UUID with `fc-…` in it) is masked there."""
    from openclaw_cli.ui.redact.engine import redact_console_text

    return redact_console_text(mine)

"""Locate and run the reference OpenClaw 2026.7.1 and this project's CLI on scratch homes."""

from __future__ import annotations

import glob
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
REFERENCE_DIR = Path(os.environ.get("OPENCLAW_REFERENCE_DIR", ROOT / ".reference"))


def reference_bin() -> Path:
    return REFERENCE_DIR / "node_modules" / ".bin" / "openclaw"


def reference_node_bin_dir() -> Path | None:
    found = sorted(glob.glob(str(REFERENCE_DIR / "node_modules" / "node-linux-*" / "bin")))
    return Path(found[0]) if found else None


def reference_available() -> bool:
    return reference_bin().exists() and reference_node_bin_dir() is not None


@dataclass
class Result:
    returncode: int
    stdout: str
    stderr: str


def clock_env() -> dict[str, str]:
    """A moved clock (libfaketime's FAKETIME* and its LD_PRELOAD) for every child process, so that
    the tests, the reference and our CLI all see the same "now" when the suite runs under it."""
    env = {name: value for name, value in os.environ.items() if name.startswith("FAKETIME")}
    preload = os.environ.get("LD_PRELOAD", "")
    if env and "faketime" in preload:
        env["LD_PRELOAD"] = preload
    return env


def clean_env(home: Path | str, extra: dict[str, str] | None = None) -> dict[str, str]:
    """An environment that points every OpenClaw path at a scratch home and nothing else."""
    env = {
        "HOME": str(home),
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "LANG": "C.UTF-8",
        "NO_COLOR": "1",
        "TZ": "UTC",
        **clock_env(),
    }
    if extra:
        env.update(extra)
    return env


def run_reference(args: list[str], home: Path | str, env: dict[str, str] | None = None,
                  cwd: Path | str | None = None, timeout: float = 120) -> Result:
    if not reference_available():
        raise RuntimeError(
            "reference OpenClaw 2026.7.1 is not installed: run scripts/install-reference.sh")
    full_env = clean_env(home, env)
    full_env["PATH"] = f"{reference_node_bin_dir()}:{full_env['PATH']}"
    proc = subprocess.run([str(reference_bin()), *args], env=full_env, cwd=cwd or home,
                          capture_output=True, text=True, timeout=timeout)
    return Result(proc.returncode, proc.stdout, proc.stderr)


def run_ours(args: list[str], home: Path | str, env: dict[str, str] | None = None,
             cwd: Path | str | None = None, timeout: float = 120) -> Result:
    full_env = clean_env(home, env)
    proc = subprocess.run([sys.executable, "-m", "openclaw_cli", *args], env=full_env,
                          cwd=cwd or home, capture_output=True, text=True, timeout=timeout)
    return Result(proc.returncode, proc.stdout, proc.stderr)

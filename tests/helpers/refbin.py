"""Locate and run the reference OpenClaw releases and this project's CLI on scratch homes."""

from __future__ import annotations

import glob
import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
REFERENCE_DIR = Path(os.environ.get("OPENCLAW_REFERENCE_DIR", ROOT / ".reference"))
# The default oracle, installed in REFERENCE_DIR itself; every other release has its own npm
# project REFERENCE_DIR/<version>/ (scripts/install-reference.sh). All share one Node 24.
PRIMARY_VERSION = "2026.7.1"
# The releases that keep sessions in sessions.json + transcripts: each must agree with us.
FILE_ERA_VERSIONS: tuple[str, ...] = (PRIMARY_VERSION, "2026.7.35")
# The release whose sessions live in per-agent SQLite databases: the oracle of that era.
SQLITE_ERA_VERSION = "2026.9.6"


def reference_dir(version: str = PRIMARY_VERSION) -> Path:
    """The npm project folder that holds one reference release."""
    return REFERENCE_DIR if version == PRIMARY_VERSION else REFERENCE_DIR / version


def reference_dist(version: str = PRIMARY_VERSION) -> Path:
    """The compiled sources of one reference release."""
    return reference_dir(version) / "node_modules" / "openclaw" / "dist"


def reference_bin(version: str = PRIMARY_VERSION) -> Path:
    return reference_dir(version) / "node_modules" / ".bin" / "openclaw"


def reference_node_bin_dir() -> Path | None:
    found = sorted(glob.glob(str(REFERENCE_DIR / "node_modules" / "node-linux-*" / "bin")))
    return Path(found[0]) if found else None


def installed_version(version: str = PRIMARY_VERSION) -> str | None:
    """The version of the openclaw package installed where `version` belongs (None if absent)."""
    manifest = reference_dir(version) / "node_modules" / "openclaw" / "package.json"
    try:
        return json.loads(manifest.read_text(encoding="utf-8")).get("version")
    except (OSError, ValueError):
        return None


def reference_available(version: str = PRIMARY_VERSION) -> bool:
    return (reference_bin(version).exists() and reference_node_bin_dir() is not None
            and installed_version(version) == version)


def missing_message(version: str = PRIMARY_VERSION) -> str:
    return f"reference OpenClaw {version} missing: run scripts/install-reference.sh"


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


FAKETIME_GLOB = "/usr/lib/*/faketime/libfaketime.so.1"


def faketime_lib() -> str:
    """The libfaketime the suite already runs under, else the system's (scripts/install-test-tools.sh
    installs it); a clear error when there is none."""
    preload = [part for part in os.environ.get("LD_PRELOAD", "").split(":") if "faketime" in part]
    if preload:
        return preload[0]
    found = sorted(glob.glob(FAKETIME_GLOB))
    if not found:
        raise RuntimeError("libfaketime is not installed: run scripts/test, which installs it "
                           "(apt-get install libfaketime)")
    return found[0]


def faketime_env(spec: str) -> dict[str, str]:
    """A child process's clock set by libfaketime's FAKETIME `spec` (`+40d` moved, `@2026-12-01 12:00:00`
    starting there, `2026-12-01 12:00:00` stopped there), monotonic time left alone."""
    return {"FAKETIME": spec, "FAKETIME_DONT_FAKE_MONOTONIC": "1", "LD_PRELOAD": faketime_lib()}


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
                  cwd: Path | str | None = None, timeout: float = 120,
                  version: str = PRIMARY_VERSION) -> Result:
    if not reference_available(version):
        raise RuntimeError(missing_message(version))
    full_env = clean_env(home, env)
    full_env["PATH"] = f"{reference_node_bin_dir()}:{full_env['PATH']}"
    proc = subprocess.run([str(reference_bin(version)), *args], env=full_env, cwd=cwd or home,
                          capture_output=True, text=True, timeout=timeout)
    return Result(proc.returncode, proc.stdout, proc.stderr)


@dataclass(frozen=True)
class Release:
    """One reference release, with this module's functions bound to it (the `reference` fixture)."""

    version: str = PRIMARY_VERSION

    @property
    def REFERENCE_DIR(self) -> Path:
        return reference_dir(self.version)

    def reference_bin(self) -> Path:
        return reference_bin(self.version)

    def reference_dist(self) -> Path:
        return reference_dist(self.version)

    def reference_node_bin_dir(self) -> Path | None:
        return reference_node_bin_dir()

    def reference_available(self) -> bool:
        return reference_available(self.version)

    def run_reference(self, args: list[str], home: Path | str, env: dict[str, str] | None = None,
                      cwd: Path | str | None = None, timeout: float = 120) -> Result:
        return run_reference(args, home, env, cwd, timeout, version=self.version)


def run_ours(args: list[str], home: Path | str, env: dict[str, str] | None = None,
             cwd: Path | str | None = None, timeout: float = 120) -> Result:
    full_env = clean_env(home, env)
    proc = subprocess.run([sys.executable, "-m", "openclaw_cli", *args], env=full_env,
                          cwd=cwd or home, capture_output=True, text=True, timeout=timeout)
    return Result(proc.returncode, proc.stdout, proc.stderr)

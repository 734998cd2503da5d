"""OpenClaw's own commands stay one command away: what we do not implement runs OpenClaw's CLI."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import refbin

from openclaw_cli.cli import overlay

OUR_SCRIPT = Path(sys.executable).parent / "openclaw"
SYSTEM_PATH = "/usr/bin:/bin"


def run(args: list[str], home: Path, path: str, extra: dict[str, str] | None = None,
        program: str = "openclaw") -> subprocess.CompletedProcess[str]:
    env = refbin.clean_env(home, {"PATH": path, **(extra or {})})
    return subprocess.run([program, *args], env=env, cwd=home, capture_output=True, text=True,
                          timeout=120, check=False)


def reference_bin_dir(reference: refbin.Release) -> str:
    """The npm bin folder that holds OpenClaw's `openclaw` (and the Node it needs)."""
    return str(reference.reference_bin().parent)


@pytest.fixture
def our_bin(tmp_path: Path) -> str:
    """A folder holding only this tool's console script, as an installed `openclaw`."""
    assert OUR_SCRIPT.exists(), f"the console script {OUR_SCRIPT} is missing: pip install -e ."
    folder = tmp_path / "ours-bin"
    folder.mkdir()
    shutil.copy2(OUR_SCRIPT, folder / "openclaw")
    return str(folder)


@pytest.fixture
def configured_home(home: Path) -> Path:
    (home / ".openclaw" / "openclaw.json").write_text(json.dumps({"gateway": {"port": 18777}}))
    return home


@pytest.mark.parametrize(("args", "expected"), [
    (["config", "get", "gateway.port"], "config"),
    (["--profile", "work", "gateway", "--help"], "gateway"),
    (["--log-level", "debug", "--no-color", "agents", "list"], "agents"),
    (["sessions", "tail", "main"], "sessions tail"),
    (["sessions", "export-trajectory"], "sessions export-trajectory"),
])
def test_commands_we_do_not_implement_are_recognised_as_openclaws(args: list[str], expected: str) -> None:
    assert overlay.foreign_command(args) == expected


@pytest.mark.parametrize("args", [
    [], ["--help"], ["--version"], ["sessions"], ["sessions", "--json"], ["sessions", "cleanup", "--dry-run"],
    ["sessions", "--agent", "work"], ["--profile", "x", "doctor"], ["compact", "main"], ["context", "list"],
    ["completion", "bash"], ["--log-level", "info", "sessions", "list"],
])
def test_our_own_commands_are_never_handed_on(args: list[str]) -> None:
    assert overlay.foreign_command(args) is None


@pytest.mark.reference
@pytest.mark.parametrize("args", [
    ["gateway", "--help"],
    ["config", "get", "gateway.port"],
    ["config", "get", "gateway.nothing"],
    ["agents", "list", "--json"],
])
def test_openclaws_commands_print_what_openclaw_prints_through_our_script(
        args: list[str], reference: refbin.Release, our_bin: str, configured_home: Path) -> None:
    path = f"{our_bin}:{reference_bin_dir(reference)}:{SYSTEM_PATH}"
    direct = run(args, configured_home, path, program=str(reference.reference_bin()))
    through_us = run(args, configured_home, path)
    assert direct.stdout.strip() or direct.stderr.strip()
    assert (through_us.returncode, through_us.stdout, through_us.stderr) == \
        (direct.returncode, direct.stdout, direct.stderr)


@pytest.mark.reference
def test_the_version_names_both_tools_when_openclaw_is_installed(
        reference: refbin.Release, our_bin: str, home: Path) -> None:
    done = run(["--version"], home, f"{our_bin}:{reference_bin_dir(reference)}:{SYSTEM_PATH}")
    lines = done.stdout.splitlines()
    assert done.returncode == 0
    assert lines[0].startswith("openclaw_cli ")
    assert lines[1].startswith(f"OpenClaw {reference.version} ")
    assert lines[1].endswith(f" at {reference_bin_dir(reference)}/openclaw")


def test_without_openclaw_its_command_fails_in_one_line_with_exit_2(our_bin: str, home: Path) -> None:
    done = run(["config", "get", "gateway.port"], home, f"{our_bin}:{SYSTEM_PATH}")
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1
    assert "'config' is a command of OpenClaw's own CLI" in done.stderr
    assert "npm install -g openclaw" in done.stderr


def test_without_openclaw_the_version_names_only_this_tool(our_bin: str, home: Path) -> None:
    done = run(["--version"], home, f"{our_bin}:{SYSTEM_PATH}")
    assert done.returncode == 0
    assert done.stdout.splitlines() == [done.stdout.strip()]
    assert done.stdout.startswith("openclaw_cli ")


def test_a_word_that_is_nobodys_command_is_a_usage_error(our_bin: str, home: Path) -> None:
    done = run(["sesions"], home, f"{our_bin}:{SYSTEM_PATH}")
    assert done.returncode == 2
    assert "No such command 'sesions'" in done.stderr


@pytest.mark.reference
def test_a_second_copy_of_this_tool_on_path_is_skipped(
        reference: refbin.Release, our_bin: str, tmp_path: Path, home: Path) -> None:
    second = tmp_path / "another-venv-bin"
    second.mkdir()
    shutil.copy2(OUR_SCRIPT, second / "openclaw")
    path = f"{our_bin}:{second}:{reference_bin_dir(reference)}:{SYSTEM_PATH}"
    assert overlay.find_upstream({"PATH": path}) == f"{reference_bin_dir(reference)}/openclaw"
    done = run(["gateway", "--help"], home, path)
    assert done.returncode == 0
    assert "Usage: openclaw gateway" in done.stdout


def test_the_environment_variable_names_openclaws_cli_when_it_is_not_on_path(
        our_bin: str, tmp_path: Path, home: Path) -> None:
    fake = tmp_path / "elsewhere" / "openclaw-real"
    fake.parent.mkdir()
    fake.write_text("#!/bin/sh\necho \"upstream got: $*\"\nexit 7\n")
    fake.chmod(0o755)
    done = run(["--profile", "p", "config", "get", "x"], home, f"{our_bin}:{SYSTEM_PATH}",
               {overlay.UPSTREAM_ENV: str(fake)})
    assert (done.returncode, done.stdout, done.stderr) == (7, "upstream got: --profile p config get x\n", "")


def test_openclaws_cli_gets_our_terminal_and_environment_unchanged(
        our_bin: str, tmp_path: Path, home: Path) -> None:
    fake = tmp_path / "bin2" / "openclaw"
    fake.parent.mkdir()
    fake.write_text("#!/bin/sh\necho \"$OPENCLAW_STATE_DIR|$MARK|$(cat)\"\n")
    fake.chmod(0o755)
    env = refbin.clean_env(home, {"PATH": f"{our_bin}:{fake.parent}:{SYSTEM_PATH}", "MARK": "m"})
    done = subprocess.run(["openclaw", "--dev", "status"], env=env, cwd=home, input="typed",
                          capture_output=True, text=True, timeout=60, check=False)
    # --dev is OpenClaw's to interpret: we pass it on and do not set the profile's variables.
    assert done.stdout == "|m|typed\n"
    assert done.returncode == 0

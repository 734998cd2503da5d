"""An invalid or unreadable config reached every way OpenClaw finds it (`$include`, OPENCLAW_HOME,
OPENCLAW_CONFIG_PATH, OPENCLAW_STATE_DIR, --profile), reported as the real releases report it."""

from __future__ import annotations

import errno
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from helpers import refbin
from helpers.refbin import run_ours
from helpers.sqlite_state import copy_real_96

from openclaw_cli.js.fserrors import read_file_error

BAD = json.dumps({"session": {"maintenance": {"mode": "bogus"}}}, indent=2)
LAYOUTS = {
    "an included file with a bad value": {"openclaw.json": '{"$include": "./part.json"}', "part.json": BAD},
    "a missing included file": {"openclaw.json": '{"$include": "./nope.json"}'},
    "a folder where the file should be": {"openclaw.json/x": "1"},
    "a list at the top": {"openclaw.json": "[1]"},
}
# how the config is found: (arguments before the command, environment, the state folder's name)
FINDERS = {
    "the home": ([], lambda home: {}, ".openclaw"),
    "OPENCLAW_HOME": ([], lambda home: {"OPENCLAW_HOME": str(home)}, ".openclaw"),
    "OPENCLAW_CONFIG_PATH": ([], lambda home: {"OPENCLAW_CONFIG_PATH": str(home / "cfg" / "openclaw.json")}, "cfg"),
    "OPENCLAW_STATE_DIR": ([], lambda home: {"OPENCLAW_STATE_DIR": str(home / "state")}, "state"),
    "--profile": (["--profile", "work"], lambda home: {}, ".openclaw-work"),
}
COMMANDS = (["sessions", "cleanup", "--enforce", "--json"], ["sessions"])


def _write(folder: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        path = folder / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def _same_block(home: Path, args: list[str], env: dict[str, str], version: str) -> None:
    theirs, ours = refbin.run_reference(args, home, env=env, version=version), run_ours(args, home, env=env)
    assert (ours.returncode, ours.stdout, ours.stderr) == (theirs.returncode, theirs.stdout, theirs.stderr), args
    assert ours.returncode == 1 and ours.stderr.startswith("OpenClaw config is invalid\nFile: ")


@pytest.mark.reference
@pytest.mark.parametrize("version", refbin.FILE_ERA_VERSIONS)
@pytest.mark.parametrize("layout", list(LAYOUTS))
def test_the_file_era_block_is_the_release_s_for_includes_folders_and_lists(home: Path, layout: str, version: str):
    if not refbin.reference_available(version):
        pytest.fail(refbin.missing_message(version))
    _write(home / ".openclaw", LAYOUTS[layout])
    for command in COMMANDS:
        _same_block(home, command, {}, version)


@pytest.mark.reference
@pytest.mark.parametrize("finder", [name for name in FINDERS if name != "the home"])
def test_the_file_era_block_names_the_file_however_the_config_is_found(home: Path, finder: str):
    if not refbin.reference_available():
        pytest.fail(refbin.missing_message())
    before, env_of, folder = FINDERS[finder]
    _write(home / folder, LAYOUTS["an included file with a bad value"])
    _same_block(home, [*before, "sessions", "cleanup", "--dry-run"], env_of(home), refbin.PRIMARY_VERSION)


@pytest.mark.reference
def test_a_folder_where_the_config_should_be_is_reported_in_2026_9_6_s_words(tmp_path: Path):
    if not refbin.reference_available(refbin.SQLITE_ERA_VERSION):
        pytest.fail(refbin.missing_message(refbin.SQLITE_ERA_VERSION))
    home = tmp_path / "home"
    home.mkdir()
    config = copy_real_96(home) / "openclaw.json"
    config.unlink(missing_ok=True)
    _write(config, {"x": "1"})
    for args in (["sessions"], ["sessions", "--json"], ["sessions", "cleanup", "--dry-run"],
                 ["sessions", "cleanup", "--dry-run", "--json"]):
        theirs = refbin.run_reference(args, home, version=refbin.SQLITE_ERA_VERSION)
        ours = run_ours(args, home)
        assert (ours.returncode, ours.stdout, ours.stderr) == (theirs.returncode, theirs.stdout, theirs.stderr), args
        assert "EISDIR: illegal operation on a directory, read" in ours.stderr


def _node_read_errors(paths: list[str]) -> list[str]:
    node = shutil.which("node", path=str(refbin.reference_node_bin_dir()))
    assert node, "node comes with the reference install"
    script = ("const fs = require('fs'); for (const p of JSON.parse(process.argv[1])) "
              "{ try { fs.readFileSync(p, 'utf-8'); console.log('read'); } catch (e) { console.log(e.message); } }")
    out = subprocess.run([node, "-e", script, json.dumps(paths)], capture_output=True, text=True, check=True)
    return out.stdout.splitlines()


def test_a_failed_read_is_worded_as_node_words_it(tmp_path: Path):
    (tmp_path / "folder").mkdir()
    (tmp_path / "file").write_text("x")
    os.symlink(tmp_path / "loop-b", tmp_path / "loop-a")
    os.symlink(tmp_path / "loop-a", tmp_path / "loop-b")
    paths = [str(tmp_path / name) for name in ("folder", "missing", "file/inside", "loop-a", "n" * 300)]
    ours = []
    for path in paths:
        try:
            with open(path, "rb"):
                pass
            ours.append("read")
        except OSError as exc:
            ours.append(read_file_error(exc, path))
    assert ours == _node_read_errors(paths)
    assert read_file_error(PermissionError(errno.EACCES, "Permission denied"), "/x/openclaw.json") == \
        "EACCES: permission denied, open '/x/openclaw.json'"

"""Every command's --help teaches: a purpose, examples, exit codes, a usage line a person would write."""

from __future__ import annotations

import re

import pytest
from helpers import cli, refbin

from openclaw_cli.cli.docsgen.model import load_cli

COMMANDS = [command.path for command in load_cli().walk()]  # every visible command, the root first


def _help(path: tuple[str, ...], home, columns: int = 80) -> str:
    result = cli.run([*path, "--help"], home, env={"COLUMNS": str(columns)})
    assert result.returncode == 0, result.stderr
    return result.stdout


@pytest.mark.parametrize("path", COMMANDS, ids=lambda p: " ".join(p) or "openclaw")
def test_every_help_page_has_examples_and_exit_codes(path, home):
    text = _help(path, home)
    assert "Exit codes:" in text
    assert "Examples:" in text, text


@pytest.mark.parametrize("path", COMMANDS, ids=lambda p: " ".join(p) or "openclaw")
def test_usage_lines_name_arguments_as_people_write_them(path, home):
    text = _help(path, home)
    usage = text.splitlines()[0]
    assert usage.startswith("Usage: openclaw")
    assert "{" not in usage and "}" not in usage
    assert not re.search(r"<(str|int|float|bool|path)>", text)


@pytest.mark.parametrize("path", [p for p in COMMANDS if len(p) <= 1], ids=lambda p: " ".join(p) or "openclaw")
def test_the_command_lists_say_each_purpose_whole_at_80_columns(path, home):
    text = _help(path, home)
    if "Commands:" not in text:
        return
    listing = text.split("Commands:", 1)[1].split("\n\n", 1)[0]
    rows = [line for line in listing.splitlines() if line.strip()]
    assert rows
    assert not any(line.rstrip().endswith("...") for line in rows), listing


def test_a_command_without_sub_commands_does_not_offer_any(home):
    assert _help(("doctor",), home).splitlines()[0] == "Usage: openclaw doctor [OPTIONS]"


def test_the_root_lists_commands_in_the_order_the_readme_teaches_them(home):
    listing = _help((), home).split("Commands:", 1)[1]
    names = [line.split()[0] for line in listing.splitlines()[1:6]]
    assert names == ["sessions", "context", "compact", "doctor", "completion"]


@pytest.mark.parametrize("columns", [60, 80])
@pytest.mark.parametrize("path", COMMANDS, ids=lambda p: " ".join(p) or "openclaw")
def test_no_line_of_a_help_page_is_wider_than_the_window(path, columns, home):
    """In a process of its own, so that the help formatter reads the window width from COLUMNS."""
    result = refbin.run_ours([*path, "--help"], home, {"COLUMNS": str(columns)})
    assert result.returncode == 0, result.stderr
    assert max(len(line) for line in result.stdout.splitlines()) <= columns, result.stdout


def test_a_wrapped_example_continues_under_its_description():
    from openclaw_cli.cli.help import fit_lines

    line = "    openclaw sessions cleanup --dry-run      What maintenance would remove, and why, in all."
    assert fit_lines(line, 78).splitlines() == [
        "    openclaw sessions cleanup --dry-run      What maintenance would remove,",
        "                                             and why, in all."]
    narrow = fit_lines(line, 60).splitlines()  # too little room under the description: lines of its own
    assert narrow[:2] == ["    openclaw sessions cleanup --dry-run",
                          "        What maintenance would remove, and why, in all."]
    assert all(len(row) <= 60 for row in narrow)


HELP_MODULES = {"openclaw_cli", "openclaw_cli.cli", "openclaw_cli.cli.app", "openclaw_cli.cli.argv",
                "openclaw_cli.cli.compact", "openclaw_cli.cli.completion", "openclaw_cli.cli.context",
                "openclaw_cli.cli.doctor", "openclaw_cli.cli.help", "openclaw_cli.cli.overlay",
                "openclaw_cli.cli.sessions", "openclaw_cli.config", "openclaw_cli.config.paths",
                "openclaw_cli.errors", "openclaw_cli.js", "openclaw_cli.js.paths", "openclaw_cli.js.strings",
                "openclaw_cli.ui", "openclaw_cli.ui.console", "openclaw_cli.ui.progress"}
"""Our modules a help page may load: the command line, the profile switch and the console; no domain package."""

HEAVY_PACKAGES = ("pydantic", "pydantic_core", "rich", "apsw", "sqlite3", "tiktoken", "PIL", "zstandard",
                  "humanfriendly", "websockets", "json")


@pytest.mark.parametrize("path", COMMANDS, ids=lambda p: " ".join(p) or "openclaw")
def test_a_help_page_loads_only_the_command_line_and_the_console(path, tmp_path):
    import json
    import subprocess
    import sys

    code = ("import sys\nfrom openclaw_cli.cli.app import main\n"
            f"try:\n    main({[*path, '--help']!r})\nexcept SystemExit:\n    pass\n"
            "print(sorted(sys.modules), file=sys.stderr)")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path,
                         env={**refbin.clean_env(tmp_path, {}), "COLUMNS": "80"}, timeout=60)
    assert run.returncode == 0 and "Exit codes:" in run.stdout, run.stderr
    loaded = json.loads(run.stderr.strip().splitlines()[-1].replace("'", '"'))
    ours = {m for m in loaded if m == "openclaw_cli" or m.startswith("openclaw_cli.")}
    assert ours <= HELP_MODULES, sorted(ours - HELP_MODULES)
    assert [m for m in loaded if m.split(".")[0] in HEAVY_PACKAGES] == []

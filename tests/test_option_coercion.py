"""Options typer would hand back unchanged are not run through its validator (which costs an import and a
build per option); every other value still is, with typer's checks and messages."""

import pytest
from helpers.cli import run
from helpers.imports import file_era_home, loaded_after


def _builds_a_validator(home, argv) -> bool:
    return loaded_after(home, argv, "typer._adapters")["typer._adapters"]


@pytest.mark.parametrize("argv", [["sessions", "cleanup", "--dry-run", "--json"],
                                  ["sessions", "--json", "--active", "5"],
                                  ["sessions", "disk", "--json", "--top", "3"]])
def test_flags_strings_and_untouched_defaults_build_no_validator(tmp_path, argv):
    assert _builds_a_validator(file_era_home(tmp_path), argv) is False


def test_a_number_given_on_the_command_line_is_still_validated(tmp_path):
    home = file_era_home(tmp_path)
    assert _builds_a_validator(home, ["sessions", "cleanup", "--dry-run", "--json", "--wait", "2.5"]) is True
    assert run(["sessions", "cleanup", "--dry-run", "--json", "--wait", "2.5"], home).returncode == 0
    refused = run(["sessions", "cleanup", "--dry-run", "--wait", "-1"], home)
    assert refused.returncode == 2 and "--wait" in refused.stderr and refused.stdout == ""

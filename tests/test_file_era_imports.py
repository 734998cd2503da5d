"""A command on a file-era state loads no SQLite library: asking whether an agent has a database is a stat."""

import pytest
from helpers.imports import file_era_home, loaded_after


@pytest.mark.parametrize("argv", [["sessions", "--json"], ["sessions", "cleanup", "--dry-run", "--json"],
                                  ["sessions", "disk", "--json"]])
def test_a_file_era_command_never_imports_the_sqlite_reader(tmp_path, argv):
    assert loaded_after(file_era_home(tmp_path), argv, "apsw") == {"apsw": False}

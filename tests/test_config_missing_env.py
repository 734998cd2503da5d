"""A config value that names an unset `${VAR}`: kept silently as OpenClaw keeps it (piped output is
its own), named at a terminal (`warning: config: ${VAR} is not set (<path>)`) and in doctor's note."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers.cli import run_in_pty
from helpers.refbin import run_ours
from helpers.references import every_file_era_release

from openclaw_cli.config import load as config

CONFIG = {"models": {"providers": {"x": {"baseUrl": "http://127.0.0.1:1/v1", "apiKey": "${OPENAI_KEY}",
                                         "headers": {"X-Org": "${OPENAI_ORG}"}, "models": []}}},
          "session": {"resetTriggers": ["${OPENAI_KEY}"]}}
NAMED = ["config: ${OPENAI_KEY} is not set (models.providers.x.apiKey)",
         "config: ${OPENAI_ORG} is not set (models.providers.x.headers.X-Org)",
         "config: ${OPENAI_KEY} is not set (session.resetTriggers[0])"]


def _home(root: Path) -> Path:
    (root / ".openclaw").mkdir(parents=True)
    (root / ".openclaw" / "openclaw.json").write_text(json.dumps(CONFIG))
    return root


def test_every_unset_variable_is_named_with_the_path_of_its_value(tmp_path):
    home = _home(tmp_path / "home")
    loaded = config.load_config({"HOME": str(home)}, cwd=str(home))
    assert loaded.valid and config.missing_env_lines(loaded) == NAMED
    assert loaded.data["models"]["providers"]["x"]["apiKey"] == "${OPENAI_KEY}"  # kept as written


def test_a_variable_that_is_set_is_not_named(tmp_path):
    home = _home(tmp_path / "home")
    loaded = config.load_config({"HOME": str(home), "OPENAI_KEY": "sk-1"}, cwd=str(home))
    assert config.missing_env_lines(loaded) == [NAMED[1]]


@every_file_era_release
@pytest.mark.parametrize("argv", [["sessions"], ["sessions", "--json"], ["sessions", "cleanup", "--dry-run"]],
                         ids=" ".join)
def test_piped_output_is_what_openclaw_prints_which_keeps_the_value_silently(reference, tmp_path, argv):
    ref_home, ours_home = _home(tmp_path / "ref"), _home(tmp_path / "ours")
    ref = reference.run_reference(argv, ref_home)
    ours = run_ours(argv, ours_home)
    assert (ours.returncode, ref.returncode) == (0, 0), ours.stderr
    assert ours.stdout.replace(str(ours_home), "<HOME>") == ref.stdout.replace(str(ref_home), "<HOME>")
    assert ours.stderr == ref.stderr == ""


def test_at_a_terminal_each_unset_variable_is_named_once_on_a_warning_line(tmp_path):
    home = _home(tmp_path / "home")
    lines = run_in_pty(["sessions"], home, {"NO_COLOR": "1", "TZ": "UTC"}).splitlines()
    warnings = [line for line in lines if line.startswith("warning: config:")]
    assert warnings == [f"warning: {line}" for line in dict.fromkeys(NAMED)]
    assert "No sessions found." in lines

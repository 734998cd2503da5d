"""How an `openclaw` process ends: its exit code, and a profiler's results still written."""

import pstats
import subprocess
import sys


def _openclaw(*args: str, profile: str | None = None) -> subprocess.CompletedProcess:
    prefix = [sys.executable, "-m", "cProfile", "-o", profile] if profile else [sys.executable]
    return subprocess.run([*prefix, "-m", "openclaw_cli", *args], capture_output=True, text=True, timeout=120)


def test_a_failing_run_exits_with_its_code_and_message(tmp_path):
    done = _openclaw("sessions", "cleanup", "--dry-run", "--json", "--store", str(tmp_path / "none.json"))
    assert done.returncode == 1
    assert "no session store at" in done.stderr


def test_a_run_under_a_profiler_ends_normally_so_the_profile_is_written(tmp_path):
    out = tmp_path / "run.prof"
    done = _openclaw("sessions", "cleanup", "--dry-run", "--json", "--store", str(tmp_path / "none.json"),
                     profile=str(out))
    assert "no session store at" in done.stderr  # (cProfile itself turns every exit into 0)
    functions = {name for _file, _line, name in pstats.Stats(str(out)).stats}  # type: ignore[attr-defined]
    assert "run_cleanup_command" in functions

"""Shared pytest fixtures."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from helpers import refbin

pytest_plugins = ["helpers.gateway_fixtures"]

# What a developer's shell may set that changes what our CLI (or OpenClaw's) reads, prints or
# connects to: none of it reaches a test. OPENCLAW_REFERENCE_DIR only says where the reference
# releases are installed and is kept.
ISOLATED_NAMES = frozenset({
    "NO_COLOR", "FORCE_COLOR", "CLICOLOR", "CLICOLOR_FORCE", "COLUMNS", "LINES", "TERM", "COLORTERM",
    "USERPROFILE", "PI_CODING_AGENT_DIR",
    "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "NO_PROXY", "WS_PROXY", "WSS_PROXY",
})
KEPT_OPENCLAW_NAMES = frozenset({"OPENCLAW_REFERENCE_DIR"})


def _isolated(name: str) -> bool:
    if name.upper() in ISOLATED_NAMES or name.endswith("_API_KEY"):
        return True
    return name.startswith("OPENCLAW_") and name not in KEPT_OPENCLAW_NAMES


@pytest.fixture(autouse=True)
def isolated_environment(tmp_path_factory: pytest.TempPathFactory):
    """Every test starts from an environment without the developer's state: HOME is an empty
    folder of its own, no OPENCLAW_* settings, no colour or terminal-size settings, no proxies,
    TZ=UTC. Whatever a test (or an in-process run of our CLI) changes in os.environ is undone."""
    saved = dict(os.environ)
    for name in [n for n in os.environ if _isolated(n)]:
        del os.environ[name]
    os.environ["HOME"] = str(tmp_path_factory.mktemp("user-home"))
    os.environ["TZ"] = "UTC"
    time.tzset()
    try:
        yield
    finally:
        os.environ.clear()
        os.environ.update(saved)
        time.tzset()


@pytest.fixture
def reference(request) -> refbin.Release:
    """The reference OpenClaw release (2026.7.1 unless parametrized indirectly with another
    version, e.g. by helpers.references.every_file_era_release). Missing is a failure, never a skip."""
    version = getattr(request, "param", refbin.PRIMARY_VERSION)
    if not refbin.reference_available(version):
        pytest.fail(refbin.missing_message(version))
    return refbin.Release(version)


@pytest.fixture(scope="session")
def file_era_references():
    """Every file-era reference release (refbin.FILE_ERA_VERSIONS). Missing is a failure."""
    missing = [v for v in refbin.FILE_ERA_VERSIONS if not refbin.reference_available(v)]
    if missing:
        pytest.fail("; ".join(refbin.missing_message(v) for v in missing))
    return refbin


@pytest.fixture
def home(tmp_path: Path) -> Path:
    """A scratch HOME with an empty ~/.openclaw state dir."""
    h = tmp_path / "home"
    (h / ".openclaw").mkdir(parents=True)
    return h


@pytest.fixture
def real_96_home(tmp_path: Path) -> Path:
    """A scratch HOME holding a writable copy of the real 2026.9.6 state (helpers/sqlite_state.py)."""
    from helpers.sqlite_state import copy_real_96

    h = tmp_path / "home96"
    h.mkdir()
    copy_real_96(h)
    return h


@pytest.fixture
def at_home(home: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """HOME and the working folder are the test's scratch `home` (for in-process runs that read ~)."""
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.chdir(home)
    return home

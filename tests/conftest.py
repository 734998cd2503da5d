"""Shared pytest fixtures."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from helpers import refbin

pytest_plugins = ["helpers.gateway_fixtures"]


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

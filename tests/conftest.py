"""Shared pytest fixtures."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import refbin  # noqa: E402

pytest_plugins = ["conftest_gateway"]


@pytest.fixture(scope="session")
def reference():
    """The reference OpenClaw binary. Missing is a failure, never a skip."""
    if not refbin.reference_available():
        pytest.fail("reference OpenClaw 2026.7.1 missing: run scripts/install-reference.sh")
    return refbin


@pytest.fixture
def home(tmp_path: Path) -> Path:
    """A scratch HOME with an empty ~/.openclaw state dir."""
    h = tmp_path / "home"
    (h / ".openclaw").mkdir(parents=True)
    return h

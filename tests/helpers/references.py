"""Run a test that takes the `reference` fixture once per file-era reference release."""

from __future__ import annotations

import pytest

from helpers.refbin import FILE_ERA_VERSIONS

every_file_era_release = pytest.mark.parametrize("reference", FILE_ERA_VERSIONS, indirect=True)

"""The reference releases are installed where refbin looks, each in its own npm project."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import refbin
from helpers.references import every_file_era_release

pytestmark = pytest.mark.reference


def _packages(node_modules: Path) -> set[str]:
    """Top-level package names of a node_modules folder (scoped ones as `@scope/name`)."""
    names = set()
    for entry in node_modules.iterdir():
        if entry.name.startswith("."):
            continue
        if entry.name.startswith("@"):
            names.update(f"{entry.name}/{sub.name}" for sub in entry.iterdir())
        else:
            names.add(entry.name)
    return names


@every_file_era_release
def test_each_release_reports_its_own_version(reference, tmp_path) -> None:
    result = reference.run_reference(["--version"], tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith(f"OpenClaw {reference.version} ("), result.stdout


def test_releases_live_in_separate_folders() -> None:
    folders = {refbin.reference_dir(v).resolve() for v in refbin.FILE_ERA_VERSIONS}
    assert len(folders) == len(refbin.FILE_ERA_VERSIONS)
    assert refbin.reference_dir(refbin.PRIMARY_VERSION) == refbin.REFERENCE_DIR


@pytest.mark.parametrize("version", [v for v in refbin.FILE_ERA_VERSIONS if v != refbin.PRIMARY_VERSION])
def test_a_nested_release_resolves_no_package_from_the_primary_one(file_era_references, version) -> None:
    """A release in REFERENCE_DIR/<version>/ would silently load a package it lacks from the
    primary release's node_modules one level up; every package there must exist in its own."""
    primary = {p for p in _packages(refbin.REFERENCE_DIR / "node_modules") if not p.startswith("node-linux-")}
    own = _packages(refbin.reference_dir(version) / "node_modules")
    assert sorted(primary - own) == []

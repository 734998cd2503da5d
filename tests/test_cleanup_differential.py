"""Differential tests: this project's `sessions cleanup` against every file-era reference release."""

from __future__ import annotations

import concurrent.futures
import os
from pathlib import Path

import pytest
from helpers.diffgen import case_seeds, edge_cases, generate_case
from helpers.diffharness import Case, CaseOutcome, DiffRunner, save_reproducer
from helpers.refbin import FILE_ERA_VERSIONS, PRIMARY_VERSION

# OPENCLAW_DIFF_CASES generated cases (default 100) from OPENCLAW_DIFF_SEED (default 0), plus
# every hand-written edge case unless OPENCLAW_DIFF_EDGE=0. OPENCLAW_DIFF_JOBS sets the workers.
CASE_COUNT = int(os.environ.get("OPENCLAW_DIFF_CASES", "100"))
BASE_SEED = int(os.environ.get("OPENCLAW_DIFF_SEED", "0"))
WITH_EDGE = os.environ.get("OPENCLAW_DIFF_EDGE", "1") != "0"
JOBS = int(os.environ.get("OPENCLAW_DIFF_JOBS", str(min(2, os.cpu_count() or 1))))
REPRO_DIR = os.environ.get("OPENCLAW_DIFF_REPRO")

CASES: list[Case] = [generate_case(s) for s in case_seeds(BASE_SEED, CASE_COUNT)]
if WITH_EDGE:
    CASES += edge_cases()

pytestmark = pytest.mark.reference


def _param(version: str, case: Case):
    marks = []
    if case.expected_difference:
        marks.append(pytest.mark.xfail(reason=case.expected_difference, strict=False))
    return pytest.param(version, case, id=f"{version}-{case.name}", marks=marks)


@pytest.fixture(scope="module")
def outcomes(file_era_references, request
             ) -> dict[tuple[str, str], concurrent.futures.Future[CaseOutcome]]:
    """Starts every selected case at once on a worker pool; each test waits for its own."""
    selected = [(item.callspec.params["version"], item.callspec.params["case"])
                for item in request.session.items
                if getattr(item, "originalname", "") == "test_cleanup_matches_reference"
                and hasattr(item, "callspec")]
    runner = DiffRunner(jobs=JOBS)
    futures = {(version, case.name): runner.submit(case, against="ours", version=version)
               for version, case in selected}
    yield futures
    runner.close()


@pytest.mark.parametrize(("version", "case"), [_param(v, c) for v in FILE_ERA_VERSIONS for c in CASES])
def test_cleanup_matches_reference(version: str, case: Case, outcomes, tmp_path_factory) -> None:
    outcome = outcomes[(version, case.name)].result()
    if outcome.identical:
        return
    root = Path(REPRO_DIR) / version if REPRO_DIR else tmp_path_factory.mktemp("diff-repro")
    repro = save_reproducer(outcome, root)
    replay = (f"python scripts/differential.py --replay {repro}" if version == PRIMARY_VERSION
              else f"python -m pytest tests/test_cleanup_differential.py -k '{version}-{case.name}'")
    pytest.fail(outcome.report(repro) + f"\nreplay: {replay}", pytrace=False)

"""Differential tests: this project's `sessions cleanup` against the reference OpenClaw 2026.7.1."""

from __future__ import annotations

import concurrent.futures
import os
from pathlib import Path

import pytest

from diffgen import case_seeds, edge_cases, generate_case
from diffharness import Case, CaseOutcome, DiffRunner, save_reproducer

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


def _param(case: Case):
    marks = []
    if case.expected_difference:
        marks.append(pytest.mark.xfail(reason=case.expected_difference, strict=False))
    return pytest.param(case, id=case.name, marks=marks)


@pytest.fixture(scope="module")
def outcomes(reference, request) -> dict[str, concurrent.futures.Future[CaseOutcome]]:
    """Starts every selected case at once on a worker pool; each test waits for its own."""
    selected = [item.callspec.params["case"] for item in request.session.items
                if getattr(item, "originalname", "") == "test_cleanup_matches_reference"
                and hasattr(item, "callspec")]
    runner = DiffRunner(jobs=JOBS)
    futures = {case.name: runner.submit(case, against="ours") for case in selected}
    yield futures
    runner.close()


@pytest.mark.parametrize("case", [_param(c) for c in CASES])
def test_cleanup_matches_reference(case: Case, outcomes, tmp_path_factory) -> None:
    outcome = outcomes[case.name].result()
    if outcome.identical:
        return
    root = Path(REPRO_DIR) if REPRO_DIR else tmp_path_factory.mktemp("diff-repro")
    repro = save_reproducer(outcome, root)
    pytest.fail(outcome.report(repro) + f"\nreplay: python scripts/differential.py --replay {repro}",
                pytrace=False)

"""`doctor --lint --json` on an invalid config, against the reference: the validation findings in the
validator's order (not sorted by path), each with the reference's message and path."""

from __future__ import annotations

import json

import pytest
from helpers.doctor import both_on_configs

pytestmark = pytest.mark.reference

FINAL = "core/doctor/final-config-validation"
CONFIGS = {
    "later-path-first": {"gateway": {"port": "x"}, "session": {"bogus": 1}},
    "three-sections": {"session": {"dmScope": 3}, "agents": {"defaults": {"bogus": True}}, "gateway": {"bind": 7}},
    "unknown-root-key": {"zzz": 1, "gateway": {"mode": "local", "port": -1}},
}


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    return both_on_configs(tmp_path_factory.mktemp("doctor-lint-order"), CONFIGS,
                           {"lint": ["doctor", "--lint", "--json"]}, {"OPENCLAW_GATEWAY_PORT": "1"})


def _validation(result) -> list[tuple[str, str, str]]:
    findings = json.loads(result.stdout)["findings"]
    return [(f["severity"], f.get("path", ""), f["message"]) for f in findings if f["checkId"] == FINAL]


@pytest.mark.parametrize("config", sorted(CONFIGS))
def test_lint_lists_the_validation_errors_in_the_order_the_reference_does(runs, config):
    ref, ours = runs[(config, "lint", "ref")][0], runs[(config, "lint", "ours")][0]
    assert len(_validation(ref)) >= 2
    assert _validation(ours) == _validation(ref)

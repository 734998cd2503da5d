"""The `logging` section's values judged as each reference judges them: 2026.7.1 and 2026.7.35 by
`doctor --lint --json` side by side, 2026.9.6's schema (no redactSensitive, no "compact" style, an
`audit` block) against the 2026.9.6 binary's lint."""

from __future__ import annotations

import json

import pytest
from helpers import refbin
from helpers.doctor import both_on_configs

from openclaw_cli.config.schema import SQLITE_ERA, validate_config

pytestmark = pytest.mark.reference

FINAL = "core/doctor/final-config-validation"
CONFIGS = {
    "bad-values": {"logging": {"level": "nope", "redactSensitive": "x", "consoleStyle": "compact",
                               "maxFileBytes": 0, "redactPatterns": [1], "bogus": 1}},
    "audit-block": {"logging": {"redactSensitive": "tools", "audit": {"enabled": 1, "messages": "x", "zz": 1}}},
    "wrong-types": {"logging": {"level": "info", "consoleStyle": "json", "maxFileBytes": 1.5, "file": 3}},
    "valid": {"logging": {"level": "debug", "consoleLevel": "warn", "file": "/tmp/x.log", "maxFileBytes": 1000,
                          "redactPatterns": ["sk-[a-z]+"]}},
}
LINT = {"lint": ["doctor", "--lint", "--json"]}


def _validation(result: refbin.Result) -> list[tuple[str, str]]:
    findings = json.loads(result.stdout)["findings"]
    return [(f.get("path", ""), f["message"]) for f in findings if f["checkId"] == FINAL]


@pytest.fixture(scope="module", params=[*refbin.FILE_ERA_VERSIONS, refbin.SQLITE_ERA_VERSION])
def runs(request, tmp_path_factory):
    root = tmp_path_factory.mktemp(f"logging-{request.param}")
    return request.param, both_on_configs(root, CONFIGS, LINT, {"OPENCLAW_GATEWAY_PORT": "1"}, request.param)


@pytest.mark.parametrize("config", sorted(CONFIGS))
def test_logging_values_are_judged_as_the_reference_judges_them(runs, config):
    version, results = runs
    ref = _validation(results[(config, "lint", "ref")][0])
    assert (ref == []) == (config == "valid")
    if version == refbin.SQLITE_ERA_VERSION:  # our file-era homes are judged by 2026.7.1: the schema directly
        ours = [(i.path, i.message) for i in validate_config(CONFIGS[config], {}, era=SQLITE_ERA)]
    else:
        ours = _validation(results[(config, "lint", "ours")][0])
    assert ours == ref

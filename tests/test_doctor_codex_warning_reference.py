"""An openai-codex provider that OpenClaw's migration cannot merge into models.providers.openai: the reference
`openclaw doctor` warns about it and leaves it in place."""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor

import pytest
from helpers import refbin
from helpers.doctor import clack_notes, lint, write_config

pytestmark = pytest.mark.reference

# openai-codex.apiKey and openai.timeoutSeconds cannot be carried by the merged rows
BLOCKED = {"gateway": {"mode": "local"},
           "models": {"providers": {
               "openai": {"baseUrl": "https://api.openai.com/v1", "timeoutSeconds": 30, "models": []},
               "openai-codex": {"baseUrl": "https://chatgpt.com/backend-api", "apiKey": "codex-key-0123456789abcdef",
                                "models": [{"id": "gpt-5.5", "name": "GPT 5.5"}]}}}}
OFFLINE = {"OPENCLAW_GATEWAY_PORT": "1", "npm_config_registry": "http://127.0.0.1:9/", "npm_config_fetch_retries": "0"}


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> dict[str, refbin.Result]:
    assert refbin.reference_available(), refbin.missing_message()
    root = tmp_path_factory.mktemp("doctor-codex-warning")

    def run(side: str) -> refbin.Result:
        home = root / side / "home"
        (home / ".openclaw").mkdir(parents=True)
        write_config(home, BLOCKED)
        runner = refbin.run_reference if side == "ref" else refbin.run_ours
        return runner(["doctor", "--non-interactive"], home, OFFLINE, timeout=400)

    with ThreadPoolExecutor(max_workers=2) as pool:
        return dict(zip(("ref", "ours"), pool.map(run, ("ref", "ours")), strict=True))


def _warnings(result: refbin.Result) -> str:
    return " ".join(" ".join(items) for title, items in clack_notes(result.stdout) if title == "Doctor warnings")


def test_the_human_run_prints_the_warning_the_reference_prints(runs):
    expected = " ".join(_warnings(runs["ref"]).split())
    assert "cannot be merged automatically into models.providers.openai" in expected
    assert expected in " ".join(runs["ours"].stdout.split())
    assert "Legacy config keys detected" not in runs["ref"].stdout + runs["ours"].stdout


def test_lint_reports_the_warning_at_the_provider(runs, tmp_path):
    write_config(tmp_path, BLOCKED)
    expected = " ".join(_warnings(runs["ref"]).split())
    findings = [f for f in json.loads(lint(tmp_path).out)["findings"] if f["checkId"] == "core/doctor/legacy-config"]
    assert [(f["path"], " ".join(f["message"].split())) for f in findings] == [
        ("models.providers.openai-codex", expected)]

"""The context size `sessions` shows for a SQLite-era row is the one OpenClaw 2026.9.6 projects:
the configured model's limits, the entry's own figure only where its provenance lets it stand."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import refbin
from helpers.sqlite_state import agent_db, copy_real_96, listing_text, write_db

KEY = "agent:main:main"


def _fake_model(cfg: dict) -> dict:
    return cfg["models"]["providers"]["fake"]["models"][0]


def _model_tokens(cfg: dict) -> None:
    _fake_model(cfg)["contextTokens"] = 50000


def _provider_tokens(cfg: dict) -> None:
    cfg["models"]["providers"]["fake"]["contextTokens"] = 60000


def _no_window(cfg: dict) -> None:
    del _fake_model(cfg)["contextWindow"]


def _defaults_tokens(cfg: dict) -> None:
    cfg["agents"]["defaults"]["contextTokens"] = 64000


def _second_provider(cfg: dict) -> None:
    cfg["models"]["providers"]["other"] = {"baseUrl": "http://127.0.0.1:1/v1", "api": "openai-completions",
                                           "models": [dict(_fake_model(cfg), contextWindow=64000)]}


def _anthropic(cfg: dict) -> None:
    cfg["models"]["providers"]["anthropic"] = {
        "baseUrl": "http://127.0.0.1:1", "api": "anthropic-messages",
        "models": [dict(_fake_model(cfg), id="claude-sonnet-4-6", contextWindow=200000, contextTokens=150000)]}


CASES = {
    "an untrusted entry figure gives way to the model's window": (None, {"contextTokens": 99999}),
    "a runtime figure of the same selection stands": (None, {"contextTokens": 99999, "contextTokensSource": "runtime"}),
    "a runtime figure is capped by the model's window": (None, {"contextTokens": 999999, "contextTokensSource": "runtime"}),
    "a resolved-v1 figure gives way to a configured model": (None, {"contextTokens": 99999, "contextTokensSource": "resolved-v1"}),
    "a resolved-v1 figure stands for an unknown model": (None, {"modelProvider": "nope", "model": "nomodel",
                                                                "contextTokens": 55555, "contextTokensSource": "resolved-v1"}),
    "a locked selection keeps its figure": (None, {"contextTokens": 77777, "modelSelectionLocked": True, "model": "zzz"}),
    "a model's contextTokens caps every row": (_model_tokens, None),
    "a provider's contextTokens caps its models": (_provider_tokens, {"contextTokens": 99999, "contextTokensSource": "runtime"}),
    "agents.defaults.contextTokens is not used": (_defaults_tokens, {"contextTokens": None}),
    "a model without a window falls back to 200k": (_no_window, {"contextTokens": 250000, "contextTokensSource": "runtime"}),
    "a row of another provider takes that provider's window": (_second_provider, {"modelProvider": "other"}),
    "an Anthropic model with a fixed window gets 1M": (None, {"modelProvider": "anthropic", "model": "claude-opus-4-6"}),
    "a configured Anthropic cap wins over its fixed window": (_anthropic, {"modelProvider": "anthropic",
                                                                          "model": "claude-sonnet-4-6"}),
}


def _state(home: Path, change, patch) -> Path:
    state = copy_real_96(home)
    if change:
        path = state / "openclaw.json"
        cfg = json.loads(path.read_text())
        change(cfg)
        path.write_text(json.dumps(cfg, indent=2))
    if patch:
        values = ", ".join(f"'$.{name}', json('{json.dumps(value)}')" for name, value in patch.items())
        # Editing entry_json marks the row for validation, which 2026.9.6 then refuses to read
        # offline; the edit keeps the row valid, as a Gateway's own write would.
        write_db(agent_db(state), f"UPDATE session_nodes SET entry_json = json_set(entry_json, {values}) "
                                  f"WHERE session_key = '{KEY}'",
                 f"UPDATE session_nodes SET entry_valid = 1 WHERE session_key = '{KEY}'")
    return home


def _context_by_key(result) -> dict:
    assert result.returncode == 0, result.stderr
    return {row["key"]: row["contextTokens"] for row in json.loads(result.stdout)["sessions"]}


def test_the_projection_follows_the_entry_s_provenance():
    from openclaw_cli.listing.context_projection import projected_context_tokens

    entry = {"modelProvider": "fake", "model": "m", "agentHarnessId": "openclaw", "contextTokens": 90000}
    runtime = {**entry, "contextTokensSource": "runtime"}
    assert projected_context_tokens(entry, "fake", "m", "openclaw", 128000, None) == 128000
    assert projected_context_tokens(runtime, "fake", "m", "openclaw", 128000, None) == 90000
    assert projected_context_tokens(runtime, "fake", "m", "other-harness", 128000, None) == 128000
    assert projected_context_tokens(runtime, "fake", "m", "openclaw", 128000, 40000) == 40000
    assert projected_context_tokens(entry, "fake", "m", "openclaw", None, None) is None


@pytest.mark.parametrize("case", list(CASES))
def test_the_listed_context_size_matches_openclaw_2026_9_6(tmp_path, case):
    version = refbin.SQLITE_ERA_VERSION
    if not refbin.reference_available(version):
        pytest.fail(refbin.missing_message(version))
    change, patch = CASES[case]
    ref_home, ours_home = (_state(tmp_path / who, change, patch) for who in ("ref", "ours"))
    argv = ["sessions", "--json"]
    ref = _context_by_key(refbin.run_reference(argv, ref_home, version=version))
    ours = _context_by_key(refbin.run_ours(argv, ours_home))
    assert ours == ref
    assert len(ours) == 7


def test_the_tokens_column_shows_the_projected_size_as_openclaw_2026_9_6_does(tmp_path):
    version = refbin.SQLITE_ERA_VERSION
    if not refbin.reference_available(version):
        pytest.fail(refbin.missing_message(version))
    ref_home, ours_home = (_state(tmp_path / who, _model_tokens, {"contextTokens": 99999}) for who in ("ref", "ours"))
    ref = refbin.run_reference(["sessions"], ref_home, version=version)
    ours = refbin.run_ours(["sessions"], ours_home)
    assert ref.returncode == ours.returncode == 0, ours.stderr

    def tokens(text: str) -> list[str]:
        return [line.split("│")[6].split()[0] for line in text.splitlines() if "fake-model" in line]

    assert tokens(ours.stdout) == tokens(listing_text(ref))
    assert len(tokens(ours.stdout)) == 7 and all(cell.endswith("/50k") for cell in tokens(ours.stdout))

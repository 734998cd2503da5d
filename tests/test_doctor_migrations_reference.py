"""The TTS, vLLM Qwen, compat.thinkingFormat, web-search, openai-codex provider and retired-model-ref migrations against the reference `openclaw doctor`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import refbin
from helpers.doctor import both_on_configs, clack_notes, lint, state, write_config

pytestmark = pytest.mark.reference

TTS_CONFIG = {
    "gateway": {"mode": "local"},
    "messages": {"tts": {
        "provider": "edge", "enabled": True,
        "openai": {"voice": "alloy", "model": "tts-1"},
        "elevenlabs": {"voiceId": "v-1"},
        "edge": {"voiceName": "en-US-Ava"},
        "providers": {"edge": {"rate": "+5%"}, "microsoft": {"speakerVoice": "kept"}},
        "personas": {"narrator": {"providers": {"openai": {"voice": "nova"}}}},
    }},
    "agents": {"list": [{"id": "main", "tts": {"enabled": False, "auto": "inbound"}},
                        {"id": "helper", "tts": {"enabled": False, "providers": {"openai": {"voiceId": "x"}}}}]},
    "channels": {"telegram": {"tts": {"enabled": True}, "accounts": {"bot": {"voice": {"tts": {
        "providers": {"elevenlabs": {"voiceId": "e", "speakerVoiceId": "already"}}}}}}},
                 "discord": {"tts": {"enabled": True}, "voice": {"tts": {"enabled": False}}}},
    "plugins": {"entries": {"voice-call": {"config": {"tts": {"provider": " Edge ", "microsoft": {"voice": "m"},
                                                              "enabled": True}}}}},
}

VLLM_CONFIG = {
    "gateway": {"mode": "local"},
    "agents": {
        "defaults": {
            "model": {"primary": "vllm/qwen3-32b", "fallbacks": ["vllm/qwen3-8b@work"]},
            "models": {"vllm/qwen3-32b": {"params": {"qwenThinkingFormat": "chat_template", "temperature": 0.2}},
                       "vllm/qwen-odd": {"params": {"qwen_thinking_format": "sideways"}}},
            "params": {"qwenThinkingFormat": "enable thinking"},
        },
        "list": [{"id": "main", "params": {"qwenThinkingFormat": "top-level"}},
                 {"id": "coder", "model": "vllm/coder-7b", "params": {"qwenThinkingFormat": "kwargs"}}],
    },
    "models": {"providers": {
        "vllm": {"baseUrl": "http://127.0.0.1:8000/v1", "params": {"qwenThinkingFormat": "qwen-chat-template"},
                 "models": [{"id": "qwen3-8b", "name": "Qwen 3 8B", "params": {"qwenThinkingFormat": "request_body"},
                             "compat": {"thinkingFormat": "qwen"}},
                            {"id": "kept", "name": "Kept", "compat": {"thinkingFormat": "zai"}}]},
        "other": {"baseUrl": "http://127.0.0.1:9000/v1",
                  "models": [{"id": "m", "name": "M", "compat": {"thinkingFormat": "anthropic"}},
                             {"id": "n", "name": "N", "compat": {"thinkingFormat": "deepseek"}}]},
    }},
}

WEB_SEARCH_CONFIG = {
    "gateway": {"mode": "local"},
    "tools": {"web": {"search": {"enabled": True, "maxResults": 5, "apiKey": "brave-legacy-key-0123456789",
                                 "brave": {"country": "DE"}, "gemini": {"apiKey": "gemini-legacy-key-0123456789"},
                                 "grok": {"model": "grok-4"}, "kimi": {}, "perplexity": {"baseUrl": "https://pplx"}}}},
    "plugins": {"entries": {"google": {"enabled": False, "config": {"webSearch": {"apiKey": "kept-key-0123456789"}}},
                            "xai": {"config": {"webSearch": {"model": "grok-4"}}}}},
}

# Anthropic and provider-less Claude refs only: refs of other providers make the reference install their
# plugins.
RETIRED_REFS_CONFIG = {
    "gateway": {"mode": "local"},
    "agents": {
        "defaults": {
            "model": {"primary": "anthropic/claude-opus-4-5",
                      "fallbacks": ["anthropic/claude-3-5-haiku-latest@work", "anthropic/claude-sonnet-4-6"]},
            "models": {"anthropic/claude-sonnet-4-5": {"alias": "sonnet", "params": {"temperature": 0.2}},
                       "anthropic/claude-sonnet-4-6": {"alias": "s46"},
                       "anthropic/claude-opus-4-1-20250805": {}},
        },
        "list": [{"id": "main"}, {"id": "helper", "model": {"primary": "claude-opus-4",
                                                           "fallbacks": ["anthropic/claude-sonnet-4-20250514"]}}],
    },
}

CODEX_PROVIDER_CONFIG = {
    "gateway": {"mode": "local"},
    "models": {"providers": {
        "openai": {"baseUrl": "https://api.openai.com/v1", "models": [{"id": "gpt-5.4", "name": "GPT 5.4"}]},
        "openai-codex": {"baseUrl": "https://chatgpt.com/backend-api", "api": "openai-chatgpt-responses",
                         "contextWindow": 400000, "params": {"temperature": 0.1},
                         "models": [{"id": "gpt-5.5", "name": "GPT 5.5", "params": {"top_p": 1}},
                                    {"id": "gpt-5.4", "name": "duplicate"}]},
        "local": {"baseUrl": "http://127.0.0.1:8080/v1",
                  "models": [{"id": "m", "name": "M", "api": "openai-codex-responses"}]},
    }},
}
CODEX_MOVE_CONFIG = {
    "gateway": {"mode": "local"},
    "models": {"providers": {"openai-codex": {"baseUrl": "https://chatgpt.com/backend-api",
                                              "api": "openai-codex-responses",
                                              "models": [{"id": "gpt-5.5", "name": "GPT 5.5"}]}}},
}

CONFIGS = {"tts": TTS_CONFIG, "vllm": VLLM_CONFIG, "web-search": WEB_SEARCH_CONFIG, "retired-refs": RETIRED_REFS_CONFIG,
           "codex-merge": CODEX_PROVIDER_CONFIG, "codex-move": CODEX_MOVE_CONFIG}
# No registry lookups by either CLI (the reference looks provider plugins up on npm): an unreachable registry.
OFFLINE = {"OPENCLAW_GATEWAY_PORT": "1", "npm_config_registry": "http://127.0.0.1:9/", "npm_config_fetch_retries": "0"}
MODES = {"fix": ["doctor", "--fix", "--non-interactive"], "human": ["doctor", "--non-interactive"]}
# Written by the reference but not by us: runtime defaults, plugin auto-enable and the memory plugin's
# empty config block, the run's stamps.
NOT_REPRODUCED = ("agents.defaults.maxConcurrent", "agents.defaults.subagents.", "commands.", "meta.",
                  "messages.ackReactionScope", "wizard.", "skills.entries.", "plugins.allow",
                  "cron.maxConcurrentRuns", "plugins.entries.memory-core.")


def _flat(value, prefix: str = "") -> dict:
    """Leaf paths (objects and arrays walked, rows by index) → JSON values."""
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    out: dict = {}
    for key, item in items:
        out.update(_flat(item, f"{prefix}.{key}" if prefix else str(key)))
    return out or {prefix: json.dumps(value, sort_keys=True)}


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> dict[tuple[str, str, str], tuple[refbin.Result, Path]]:
    return both_on_configs(tmp_path_factory.mktemp("doctor-migrations"), CONFIGS, MODES, OFFLINE)


def _note(result: refbin.Result, title: str) -> list[str]:
    return [item for t, items in clack_notes(result.stdout) if t == title for item in items]


def _ours_text(result: refbin.Result) -> str:
    return " ".join(result.stdout.split())


# Model-row defaults the reference writes into every provider model row when it rewrites a config
# that failed validation (runtime normalization, not a migration), and the provider's api on a row
# without one; we write none of them.
MODEL_ROW_DEFAULTS = {"contextWindow": "200000", "maxTokens": "8192", "input.0": '"text"', "reasoning": "false",
                      "cost.input": "0", "cost.output": "0", "cost.cacheRead": "0", "cost.cacheWrite": "0"}
# The re-validation line the reference prints because its channel plugin schemas reject the TTS blocks of
# the fixture's channels (those schemas are not ported).
NOT_OURS_TEXT = "Migration applied; other validation issues remain — run doctor to review."


def _runtime_default(key: str, ref_value: str, ours: dict, auto_enabled: bool) -> bool:
    if key in ours:
        return False
    parts = key.split(".")
    if parts[:2] == ["models", "providers"] and len(parts) > 5 and parts[3] == "models":
        if parts[5:] == ["api"]:  # a row without its own api gets its provider's
            return ours.get(".".join([*parts[:3], "api"])) == ref_value
        return MODEL_ROW_DEFAULTS.get(".".join(parts[5:])) == ref_value
    return auto_enabled and parts[:2] == ["plugins", "entries"] and parts[3:] == ["enabled"] and ref_value == "true"


def _change_lines(result: refbin.Result) -> list[str]:
    return [line for line in _note(result, "Doctor changes") if not line.endswith("enabled automatically.")]


@pytest.mark.parametrize("config", sorted(CONFIGS))
def test_fix_writes_the_config_the_reference_writes(runs, config):
    (ref, ref_home), (ours, our_home) = runs[(config, "fix", "ref")], runs[(config, "fix", "ours")]
    assert ref.returncode == ours.returncode == 0
    ref_cfg = _flat(json.loads((state(ref_home) / "openclaw.json").read_text()))
    our_cfg = _flat(json.loads((state(our_home) / "openclaw.json").read_text()))
    auto_enabled = "enabled automatically." in " ".join(ref.stdout.split())
    differ = sorted(k for k in set(ref_cfg) | set(our_cfg)
                    if ref_cfg.get(k) != our_cfg.get(k) and not k.startswith(NOT_REPRODUCED)
                    and not _runtime_default(k, ref_cfg.get(k, ""), our_cfg, auto_enabled))
    assert differ == []


@pytest.mark.parametrize("config", sorted(CONFIGS))
def test_fix_prints_the_change_lines_of_the_reference_in_its_order(runs, config):
    ref, ours = runs[(config, "fix", "ref")][0], runs[(config, "fix", "ours")][0]
    lines = _change_lines(ref)
    migrations = " ".join(lines[:next(i for i, line in enumerate(lines) if line.startswith("- "))])
    assert sum(migrations.count(verb) for verb in ("Moved ", "Removed ", "Upgraded ", "Merged ")) >= 2
    # The reference's note box breaks long paths mid-word, so the text is compared without whitespace.
    expected = "".join(migrations.split()).replace("".join(NOT_OURS_TEXT.split()), "")
    assert expected in "".join(ours.stdout.split())


@pytest.mark.parametrize("config", sorted(CONFIGS))
def test_human_run_lists_each_legacy_key_the_reference_lists(runs, config):
    ref, ours = runs[(config, "human", "ref")][0], runs[(config, "human", "ours")][0]
    items = _note(ref, "Legacy config keys detected")
    assert items
    text = _ours_text(ours)
    assert [item for item in items if " ".join(item.split()) not in text] == []


@pytest.mark.parametrize("config", sorted(CONFIGS))
def test_lint_reports_each_legacy_key_at_its_path(runs, config, tmp_path):
    ref = runs[(config, "human", "ref")][0]
    expected = [item[2:].split(": ", 1) for item in _note(ref, "Legacy config keys detected")]
    write_config(tmp_path, CONFIGS[config])
    findings = [f for f in json.loads(lint(tmp_path).out)["findings"] if f["checkId"] == "core/doctor/legacy-config"]
    missing = [(path, message) for path, message in expected
               if not any(" ".join(f["message"].split()) == " ".join(message.split())
                          and (f["path"] == path or f["path"].startswith(path + ".")) for f in findings)]
    assert missing == []
    assert len(findings) == len(expected)

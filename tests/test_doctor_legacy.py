"""Legacy-config rules and migrations: each rule stops matching after its migration; idempotent."""

from __future__ import annotations

import copy
import json

import pytest
from helpers.doctor import LEGACY_CONFIG, doctor, state, write_config

from openclaw_cli.doctor.support.legacy_migrations import MIGRATIONS, apply_all
from openclaw_cli.doctor.support.legacy_rules import RULES, find_issues


def test_full_legacy_config_migrates_once():
    issues = find_issues(LEGACY_CONFIG, LEGACY_CONFIG)
    assert len(issues) == 28
    migrated, changes = apply_all(LEGACY_CONFIG)
    assert migrated is not None and len(changes) == 32
    assert find_issues(migrated, migrated) == []
    again, more = apply_all(migrated)
    assert again is None and more == []
    assert LEGACY_CONFIG["routing"]["allowFrom"] == ["+15550001"]  # the input is never changed


def test_migrated_shape():
    migrated, _ = apply_all(LEGACY_CONFIG)
    assert "routing" not in migrated and "heartbeat" not in migrated and "memorySearch" not in migrated
    assert migrated["messages"]["groupChat"] == {"historyLimit": 20, "mentionPatterns": ["@bot"]}
    assert migrated["session"]["threadBindings"] == {"idleHours": 4, "spawnSessions": False}
    assert migrated["messages"]["queue"] == {"mode": "steer", "byChannel": {"discord": "followup"}}
    defaults = migrated["agents"]["defaults"]
    assert defaults["sandbox"] == {"scope": "session"} and defaults["embeddedAgent"] == {}
    assert defaults["memorySearch"] == {"provider": "openai", "store": {}, "model": "x"}
    assert defaults["heartbeat"] == {"every": "1h"}
    assert migrated["channels"] == {"defaults": {"heartbeat": {"showOk": True}}}
    assert migrated["agents"]["list"][0] == {"id": "main", "sandbox": {"scope": "shared"}}
    assert migrated["gateway"]["bind"] == "lan"
    assert migrated["gateway"]["controlUi"] == {"allowedOrigins": ["http://localhost:18789", "http://127.0.0.1:18789"]}
    assert migrated["mcp"]["servers"]["docs"] == {"url": "http://127.0.0.1:9/mcp", "transport": "streamable-http"}
    assert migrated["plugins"] == {"allow": ["openai", "memory-core"], "bundledDiscovery": "compat",
                                   "entries": {"xai": {"enabled": True, "config": {"webSearch": {
                                       "apiKey": "xai-legacy-key-0123456789"}}}}}
    assert migrated["tools"]["media"]["audio"]["models"] == [
        {"command": "whisper", "type": "cli", "args": ["{{MediaPath}}"], "timeoutSeconds": 30}]
    assert "audio" not in migrated and migrated["diagnostics"] == {"memoryPressureSnapshot": True}


@pytest.mark.parametrize("cfg,change", [
    ({"channels": {"whatsapp": {}}, "routing": {"allowFrom": ["x"]}},
     "Moved routing.allowFrom → channels.whatsapp.allowFrom."),
    ({"channels": {"telegram": {"requireMention": True, "groups": {"*": {"requireMention": False}}}}},
     'Removed channels.telegram.requireMention (channels.telegram.groups."*" already set).'),
    ({"channels": {"feishu": {"accounts": {"a": {"botName": "B"}}}}},
     "Moved channels.feishu.accounts.a.botName → channels.feishu.accounts.a.name."),
    ({"channels": {"discord": {"accounts": {"x": {"threadBindings": {"ttlHours": 2, "idleHours": 1}}}}}},
     "Removed channels.discord.accounts.x.threadBindings.ttlHours (channels.discord.accounts.x.threadBindings."
     "idleHours already set)."),
    ({"surfaces": {"web": {"silentReplyRewrite": True, "silentReply": {"direct": True}}}},
     "Removed surfaces.web.silentReply.direct; direct chats never use NO_REPLY."),
    ({"diagnostics": {"memoryPressureBundle": {"enabled": False}}},
     "Moved diagnostics.memoryPressureBundle → memoryPressureSnapshot."),
    ({"plugins": {"entries": {"openai-codex": {"enabled": True}}, "slots": {"memory": "openai-codex"}}},
     "Rewrote plugins.entries.openai-codex to plugins.entries.openai."),
    ({"gateway": {"bind": "localhost"}}, 'Normalized gateway.bind "localhost" → "loopback".'),
    ({"models": {"providers": {"deepseek": {"models": [{"id": "deepseek-v4-flash", "contextWindow": 200000}]}}}},
     "Repaired models.providers.deepseek.models[0].deepseek-v4-flash.contextWindow (200000 → 1000000 to match "
     "catalog default)."),
    ({"agents": {"defaults": {"agentRuntime": {"id": "claude-cli"}, "model": "anthropic/claude-opus-4"}}},
     "Moved agents.defaults.agentRuntime.id claude-cli to matching anthropic model runtime policy."),
    ({"session": {"parentForkMaxTokens": 5}}, "Removed session.parentForkMaxTokens; parent fork sizing is automatic."),
    ({"models": {"providers": {"x": {"models": [{"id": "m", "compat": {"thinkingFormat": "Qwen"}}]}}}},
     'Removed models.providers.x.models.0.compat.thinkingFormat (unrecognized value "Qwen"; runtime default applies).'),
    ({"agents": {"defaults": {"params": {"qwen_thinking_format": "qwen"}}}},
     "Removed agents.defaults.params.qwen_thinking_format; no concrete vLLM model row or agent model ref exists, so "
     "configure models.providers.vllm.models[].compat.thinkingFormat on each Qwen model that needs it."),
    ({"agents": {"list": [{"id": "a", "model": "VLLM/q@20250101@work", "params": {"qwenThinkingFormat": "top_level"}}]}},
     'Moved agents.list[0].params.qwenThinkingFormat to models.providers.vllm.models[0].compat.thinkingFormat '
     '("qwen").'),
    ({"messages": {"tts": {"providers": {"edge": {"rate": "1"}, "microsoft": {"rate": "2", "pitch": "3"}}}}},
     "Moved messages.tts.providers.edge → messages.tts.providers.microsoft."),
    ({"channels": {"discord": {"accounts": {"a": {"voice": {"tts": {"enabled": True, "auto": " "}}}}}}},
     'Moved channels.discord.accounts.a.voice.tts.enabled → channels.discord.accounts.a.voice.tts.auto "always".'),
    ({"plugins": {"entries": {"voice-call": {"config": {"tts": {"personas": {"p": {"edge": {"voiceName": "n"}}}}}}}}},
     "Moved plugins.entries.voice-call.config.tts.personas.p.edge.voiceName → "
     "plugins.entries.voice-call.config.tts.personas.p.edge.speakerVoice."),
    ({"tools": {"web": {"search": {"apiKey": "k"}}}},
     "Moved tools.web.search.apiKey → plugins.entries.brave.config.webSearch.apiKey."),
    ({"tools": {"web": {"search": {"kimi": {"apiKey": "k"}}}}, "plugins": {"entries": {"moonshot": {
        "enabled": True, "config": {"webSearch": {"apiKey": "kept"}}}}}},
     "Removed tools.web.search.kimi (plugins.entries.moonshot.config.webSearch already set)."),
])
def test_single_migrations(cfg, change):
    original = copy.deepcopy(cfg)
    migrated, changes = apply_all(cfg)
    assert change in changes
    assert cfg == original
    assert apply_all(migrated)[0] is None
    assert find_issues(migrated, migrated) == []


def test_source_literal_rules_need_the_authored_value():
    resolved = {"gateway": {"bind": "0.0.0.0"}}
    assert find_issues(resolved, resolved)
    assert find_issues(resolved, {"gateway": {"bind": "${BIND}"}}) == []


def test_rule_table_matches_migrations():
    ids = [mid for mid, _ in MIGRATIONS]
    assert len(ids) == len(set(ids))
    assert all(rule.message for rule in RULES)


def test_doctor_fix_writes_migrated_config_and_is_idempotent(home):
    path = write_config(home, LEGACY_CONFIG)
    run = doctor(home, fix=True, non_interactive=True)
    assert "Doctor changes" in run.out and "Moved heartbeat → agents.defaults.heartbeat." in run.out
    first = path.read_bytes()
    cfg = json.loads(first)
    assert cfg["gateway"]["bind"] == "lan" and "routing" not in cfg
    again = doctor(home, fix=True, non_interactive=True)
    assert "Legacy config keys detected" not in again.out
    assert path.read_bytes() == first
    assert not (state(home) / "openclaw.json.bak.1").exists()


def test_vllm_model_refs_keep_dates_and_quantization_in_the_model_id():
    from openclaw_cli.doctor.support.legacy_models import vllm_model_id

    assert vllm_model_id("vllm/qwen@work") == "qwen"
    assert vllm_model_id("vllm/qwen@20250101") == "qwen@20250101"
    assert vllm_model_id("vllm/qwen@q4_k_m@work") == "qwen@q4_k_m"
    assert vllm_model_id(" Vllm/qwen@8bit") == "qwen@8bit"
    assert vllm_model_id("vllm/*") is None and vllm_model_id("openai/qwen") is None


def test_discord_root_tts_is_left_alone_and_not_reported():
    cfg = {"channels": {"discord": {"tts": {"enabled": True}}}}
    assert apply_all(cfg) == (None, [])
    assert find_issues(cfg, cfg) == []


def test_an_edge_provider_merges_into_microsoft_without_overwriting_it():
    migrated, _ = apply_all({"messages": {"tts": {"providers": {"edge": {"rate": "1", "x": 1},
                                                                "microsoft": {"rate": "2"}}}}})
    assert migrated == {"messages": {"tts": {"providers": {"microsoft": {"rate": "2", "x": 1}}}}}


def test_web_search_blocks_the_reference_leaves_alone_stay_in_place():
    cfg = {"tools": {"web": {"search": {"tavily": {"apiKey": "t"}, "parallel": {"apiKey": "p"}, "kimi": {}}}}}
    assert find_issues(cfg, cfg) == []
    migrated, changes = apply_all(cfg)
    assert migrated is None and changes == []


@pytest.mark.parametrize(("ref", "upgraded"), [
    ("anthropic/claude-opus-4-5@work", "anthropic/claude-opus-4-7@work"),
    ("claude-3-5-sonnet-latest", "claude-sonnet-4-6"),
    ("github-copilot/claude-sonnet-4.5", "github-copilot/claude-sonnet-4.6"),
    ("venice/claude-opus-4-1", "venice/claude-opus-4-6"),
    ("vercel-ai-gateway/anthropic.claude-opus-4-1", "vercel-ai-gateway/anthropic.claude-opus-4-6"),
    ("opus-4.5", "claude-opus-4-7"),
    ("openai/gpt-5.2-codex", "openai/gpt-5.3-codex"),
    ("openai-codex/gpt-5.2-codex", "openai-codex/gpt-5.5"),
    ("openai-codex/gpt-5-nano", "openai-codex/gpt-5.4-mini"),
    ("openai/GPT-4o", "openai/gpt-5.5"),
    ("groq/llama3-8b-8192", "groq/llama-3.1-8b-instant"),
    ("xai/grok-code-fast-1", "xai/grok-build-0.1"),
    ("copilot-proxy/grok-code-fast-1", "copilot-proxy/gpt-5.4-mini"),
    ("anthropic/claude-opus-4-7", None),
    ("anthropic/claude-haiku-4-5", None),
    ("amazon-bedrock/anthropic.claude-opus-4-1", None),
    ("openrouter/anthropic/claude-opus-4-5", None),
    ("anthropic/claude-opus-4-50", None),
    ("openai/gpt-5.5", None),
])
def test_retired_model_refs_follow_the_catalog(ref, upgraded):
    from openclaw_cli.doctor.support.legacy_models import upgrade_retired_ref

    assert upgrade_retired_ref(ref) == upgraded


def test_retired_refs_are_upgraded_only_where_config_keys_hold_model_refs():
    cfg = {"agents": {"defaults": {"model": {"primary": "claude-opus-4", "fallbacks": ["claude-opus-4"]},
                                   "workspace": "claude-opus-4", "models": {"claude-opus-4": {}}}},
           "channels": {"modelByChannel": {"telegram": {"123": "anthropic/claude-sonnet-4"}}, "x": {"note": "opus-4"}}}
    migrated, changes = apply_all(cfg)
    assert migrated["agents"]["defaults"] == {"model": {"primary": "claude-opus-4-7", "fallbacks": ["claude-opus-4-7"]},
                                              "workspace": "claude-opus-4", "models": {"claude-opus-4-7": {}}}
    assert migrated["channels"]["modelByChannel"]["telegram"]["123"] == "anthropic/claude-sonnet-4-6"
    assert migrated["channels"]["x"] == {"note": "opus-4"}
    assert [path for path, _ in find_issues(cfg, cfg)] == ["agents", "channels"]
    assert 'Upgraded config.agents.defaults.models key from "claude-opus-4" to "claude-opus-4-7".' in changes


def test_an_openai_codex_provider_without_an_openai_one_is_moved_and_its_api_renamed():
    cfg = {"models": {"providers": {"openai-codex": {"baseUrl": "b", "api": "openai-codex-responses", "models": []}}}}
    migrated, changes = apply_all(cfg)
    assert migrated == {"models": {"providers": {"openai": {"baseUrl": "b", "api": "openai-chatgpt-responses",
                                                            "models": []}}}}
    assert changes == ['Moved models.providers.openai-codex.api "openai-codex-responses" → "openai-chatgpt-responses".',
                       "Moved models.providers.openai-codex → models.providers.openai."]


def test_an_openai_codex_provider_whose_defaults_cannot_move_onto_merged_rows_is_left_alone():
    cfg = {"models": {"providers": {"openai": {"baseUrl": "a", "timeoutSeconds": 30, "models": []},
                                    "openai-codex": {"baseUrl": "b", "apiKey": "k", "models": [{"id": "gpt-5.5"}]}}}}
    assert apply_all(cfg) == (None, [])
    assert find_issues(cfg, cfg) == []


def test_a_codex_models_add_row_merged_into_openai_is_stamped_with_its_metadata_source():
    row = {"id": "gpt-5.5", "api": "openai-chatgpt-responses", "reasoning": True, "input": ["text", "image"],
           "cost": {"input": 5, "output": 30, "cacheRead": 0.5, "cacheWrite": 0}, "contextWindow": 400000,
           "contextTokens": 272000, "maxTokens": 128000}
    cfg = {"models": {"providers": {"openai": {"baseUrl": "a", "models": []},
                                    "openai-codex": {"baseUrl": "b", "models": [row]}}}}
    migrated, changes = apply_all(cfg)
    assert migrated["models"]["providers"] == {"openai": {"baseUrl": "a", "models": [
        {**row, "baseUrl": "b", "metadataSource": "models-add"}]}}
    assert changes == ["Merged 1 model(s) from models.providers.openai-codex into models.providers.openai: gpt-5.5."]

"""Known plugin ids: bundled with 2026.7.1, installed in extension roots or load paths, or indexed."""

from __future__ import annotations

import json
import os
from typing import TYPE_CHECKING

from openclaw_cli.doctor.support.legacy_shared import list_at
from openclaw_cli.js.values import object_at

if TYPE_CHECKING:
    from openclaw_cli.doctor.context import DoctorContext

# Plugins shipped inside the openclaw@2026.7.1 package (dist/extensions/*/openclaw.plugin.json).
BUNDLED_PLUGIN_IDS = frozenset(["active-memory", "admin-http-rpc", "alibaba", "anthropic", "azure-speech", "bonjour", "browser", "byteplus", "canvas", "clawrouter", "codex-supervisor", "cohere", "comfy", "copilot-proxy", "deepgram", "device-pair", "document-extract", "duckduckgo", "elevenlabs", "fal", "file-transfer", "github-copilot", "google", "huggingface", "imessage", "litellm", "llm-task", "lmstudio", "logbook", "memory-core", "memory-wiki", "meta", "microsoft", "microsoft-foundry", "migrate-claude", "migrate-hermes", "minimax", "mistral", "novita", "nvidia", "oc-path", "ollama", "open-prose", "openai", "opencode", "opencode-go", "openrouter", "phone-control", "policy", "runway", "senseaudio", "sglang", "synthetic", "talk-voice", "telegram", "thread-ownership", "together", "tts-local-cli", "vllm", "volcengine", "voyage", "vydra", "web-readability", "webhooks", "workboard", "xai", "xiaomi"])
# Retired ids that OpenClaw still accepts as aliases.
LEGACY_ALIASES = frozenset({"openai-codex"})
MANIFEST = "openclaw.plugin.json"


def _manifest_id(path: str) -> str | None:
    try:
        with open(path, encoding="utf-8") as handle:
            data = json.load(handle)
    except (OSError, ValueError):
        return None
    value = data.get("id") if isinstance(data, dict) else None
    return value.strip() if isinstance(value, str) and value.strip() else None


def _scan_root(root: str, out: set[str]) -> None:
    try:
        entries = list(os.scandir(root))
    except OSError:
        return
    for entry in entries:
        try:
            if entry.is_dir():
                found = _manifest_id(os.path.join(entry.path, MANIFEST))
                if found:
                    out.add(found)
        except OSError:
            continue


def _scan_path(path: str, out: set[str]) -> None:
    if os.path.isfile(path) and os.path.basename(path) == MANIFEST:
        found = _manifest_id(path)
    elif os.path.isdir(path):
        found = _manifest_id(os.path.join(path, MANIFEST))
        if not found:
            _scan_root(path, out)
    else:
        found = None
    if found:
        out.add(found)


def _index_ids(state_dir: str, out: set[str]) -> None:
    import apsw

    from openclaw_cli.store.sqlite.inspect import open_untouched

    db = os.path.join(state_dir, "state", "openclaw.sqlite")
    if not os.path.isfile(db):
        return
    try:
        with open_untouched(db) as conn:  # leaves -wal/-shm as they are
            rows = list(conn.execute("SELECT plugins_json, install_records_json FROM installed_plugin_index"))
    except (apsw.Error, OSError):
        return
    for plugins_json, records_json in rows:
        try:
            for plugin in json.loads(plugins_json or "[]"):
                if isinstance(plugin, dict) and isinstance(plugin.get("pluginId"), str):
                    out.add(plugin["pluginId"])
            records = json.loads(records_json or "{}")
            if isinstance(records, dict):
                out.update(k for k in records if isinstance(k, str))
        except ValueError:
            continue


def known_plugin_ids(ctx: DoctorContext) -> set[str]:
    from openclaw_cli.config.paths import resolve_config_dir, resolve_user_path
    from openclaw_cli.doctor.support.workspace import workspace_dir

    ids = set(BUNDLED_PLUGIN_IDS) | set(LEGACY_ALIASES)
    _scan_root(os.path.join(resolve_config_dir(ctx.env), "extensions"), ids)
    _scan_root(os.path.join(workspace_dir(ctx), ".openclaw", "extensions"), ids)
    plugins = object_at(ctx.cfg, "plugins")
    load = object_at(plugins, "load")
    for raw in list_at(load, "paths"):
        if isinstance(raw, str) and raw.strip():
            _scan_path(resolve_user_path(raw.strip(), ctx.env), ids)
    installs = plugins.get("installs")
    if isinstance(installs, dict):
        ids.update(k for k in installs if isinstance(k, str))
    _index_ids(ctx.state_dir, ids)
    return ids

"""The three TTS shape migrations of OpenClaw 2026.7.1 and their detection rules.

Facts from OpenClaw's src/commands/doctor/shared/legacy-config-migrations.runtime.tts.ts: the legacy
provider keys, the plugins that carry a `config.tts` block, the channels whose root `tts` block is not
migrated, the change lines.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from openclaw_cli.doctor.support.legacy_shared import BLOCKED_KEYS, clone, merge_missing, rec

Changes = list[str]
Tts = dict
Visit = Callable[[Tts, str], None]

LEGACY_PROVIDER_KEYS = ("openai", "elevenlabs", "microsoft", "edge")
TTS_PLUGIN_IDS = frozenset({"voice-call"})
NO_ROOT_TTS_CHANNELS = frozenset({"discord"})
SPEAKER_KEYS = (("voice", "speakerVoice"), ("voiceName", "speakerVoice"), ("voiceId", "speakerVoiceId"))


def _edge(value: Any) -> bool:
    return isinstance(value, str) and value.strip().lower() == "edge"


# -- where TTS blocks live -----------------------------------------------------------------

def _tts(owner: Any) -> Tts | None:
    return rec(owner.get("tts")) if isinstance(owner, dict) else None


def _voice_tts(owner: Any) -> Tts | None:
    return _tts(owner.get("voice")) if isinstance(owner, dict) else None


def _agent_blocks(agents: Any) -> Iterator[tuple[Tts | None, str]]:
    entries = agents.get("list") if isinstance(agents, dict) else None
    for index, entry in enumerate(entries if isinstance(entries, list) else []):
        yield _tts(entry), f"agents.list[{index}].tts"


def _channel_blocks(channels: Any) -> Iterator[tuple[Tts | None, str]]:
    for channel_id, channel in (rec(channels) or {}).items():
        if channel_id in BLOCKED_KEYS:
            continue
        root_tts = channel_id.strip().lower() not in NO_ROOT_TTS_CHANNELS
        if root_tts:
            yield _tts(channel), f"channels.{channel_id}.tts"
        yield _voice_tts(channel), f"channels.{channel_id}.voice.tts"
        accounts = rec(channel.get("accounts")) if isinstance(channel, dict) else None
        for account_id, account in (accounts or {}).items():
            if account_id in BLOCKED_KEYS:
                continue
            base = f"channels.{channel_id}.accounts.{account_id}"
            if root_tts:
                yield _tts(account), f"{base}.tts"
            yield _voice_tts(account), f"{base}.voice.tts"


def _plugin_blocks(entries: Any) -> Iterator[tuple[Tts | None, str]]:
    for plugin_id, entry in (rec(entries) or {}).items():
        if plugin_id in BLOCKED_KEYS or plugin_id not in TTS_PLUGIN_IDS:
            continue
        config = rec(entry.get("config")) if isinstance(entry, dict) else None
        yield _tts(config), f"plugins.entries.{plugin_id}.config.tts"


def _every_block(raw: dict) -> Iterator[tuple[Tts | None, str]]:
    yield _tts(raw.get("messages")), "messages.tts"
    yield from _agent_blocks(raw.get("agents"))
    yield from _channel_blocks(raw.get("channels"))
    yield from _plugin_blocks((rec(raw.get("plugins")) or {}).get("entries"))


def _any(blocks: Iterator[tuple[Tts | None, str]], pred: Callable[[Tts], bool]) -> bool:
    return any(tts is not None and pred(tts) for tts, _label in blocks)


# -- detection -----------------------------------------------------------------------------

def has_provider_keys(tts: Any) -> bool:
    if not isinstance(tts, dict):
        return False
    if _edge(tts.get("provider")) or any(key in tts for key in LEGACY_PROVIDER_KEYS):
        return True
    providers = rec(tts.get("providers"))
    return providers is not None and "edge" in providers


def has_enabled(tts: Any) -> bool:
    return isinstance(tts, dict) and isinstance(tts.get("enabled"), bool)


def _speaker_keys(config: Any) -> bool:
    return isinstance(config, dict) and any(key in config for key, _target in SPEAKER_KEYS)


def _provider_map_speaker(providers: Any) -> bool:
    return any(pid not in BLOCKED_KEYS and _speaker_keys(cfg) for pid, cfg in (rec(providers) or {}).items())


def has_speaker_selection(tts: Any) -> bool:
    if not isinstance(tts, dict):
        return False
    if _provider_map_speaker(tts.get("providers")) or any(_speaker_keys(tts.get(p)) for p in LEGACY_PROVIDER_KEYS):
        return True
    for persona_id, persona in (rec(tts.get("personas")) or {}).items():
        if persona_id in BLOCKED_KEYS or not isinstance(persona, dict):
            continue
        if _provider_map_speaker(persona.get("providers")) or any(_speaker_keys(persona.get(p))
                                                                  for p in LEGACY_PROVIDER_KEYS):
            return True
    return False


def in_agents(pred: Callable[[Tts], bool]) -> Callable[[Any, dict], bool]:
    return lambda value, _root: _any(_agent_blocks(value), pred)


def in_channels(pred: Callable[[Tts], bool]) -> Callable[[Any, dict], bool]:
    return lambda value, _root: _any(_channel_blocks(value), pred)


def in_plugins(pred: Callable[[Tts], bool]) -> Callable[[Any, dict], bool]:
    return lambda value, _root: _any(_plugin_blocks(value), pred)


# -- migrations ----------------------------------------------------------------------------

def _merge_provider(tts: Tts, legacy_key: str, provider_id: str) -> bool:
    legacy = rec(tts.get(legacy_key))
    if legacy is None:
        return False
    providers = rec(tts.get("providers")) or {}
    tts["providers"] = providers
    merged = clone(rec(providers.get(provider_id)) or {})
    merge_missing(merged, legacy)
    providers[provider_id] = merged
    del tts[legacy_key]
    return True


def _merge_edge_alias(tts: Tts) -> bool:
    providers = rec(tts.get("providers"))
    alias = rec(providers.get("edge")) if providers is not None else None
    if providers is None or alias is None:
        return False
    merged = clone(rec(providers.get("microsoft")) or {})
    merge_missing(merged, alias)
    providers["microsoft"] = merged
    del providers["edge"]
    return True


def _provider_shape(tts: Tts, label: str, changes: Changes) -> None:
    if _edge(tts.get("provider")):
        tts["provider"] = "microsoft"
        changes.append(f'Moved {label}.provider "edge" → "microsoft".')
    moved = [(key, _merge_provider(tts, key, key)) for key in ("openai", "elevenlabs", "microsoft")]
    alias = _merge_edge_alias(tts)
    edge = _merge_provider(tts, "edge", "microsoft")
    for key, done in moved:
        if done:
            changes.append(f"Moved {label}.{key} → {label}.providers.{key}.")
    if alias:
        changes.append(f"Moved {label}.providers.edge → {label}.providers.microsoft.")
    if edge:
        changes.append(f"Moved {label}.edge → {label}.providers.microsoft.")


def provider_shape(raw: dict, changes: Changes) -> None:
    tts = _tts(raw.get("messages"))
    if tts is not None:
        _provider_shape(tts, "messages.tts", changes)
    for block, label in _plugin_blocks((rec(raw.get("plugins")) or {}).get("entries")):
        if block is not None:
            _provider_shape(block, label, changes)


def _speaker_config(config: dict, label: str, changes: Changes) -> None:
    for key, target in SPEAKER_KEYS:
        if key not in config:
            continue
        if target not in config:
            config[target] = config[key]
            changes.append(f"Moved {label}.{key} → {label}.{target}.")
        else:
            changes.append(f"Removed {label}.{key} because {label}.{target} is already set.")
        del config[key]


def _speaker_provider_map(providers: Any, label: str, changes: Changes) -> None:
    for provider_id, config in (rec(providers) or {}).items():
        if provider_id not in BLOCKED_KEYS and isinstance(config, dict):
            _speaker_config(config, f"{label}.{provider_id}", changes)


def _speaker_block(tts: Tts, label: str, changes: Changes) -> None:
    _speaker_provider_map(tts.get("providers"), f"{label}.providers", changes)
    for provider_id in LEGACY_PROVIDER_KEYS:
        if isinstance(tts.get(provider_id), dict):
            _speaker_config(tts[provider_id], f"{label}.{provider_id}", changes)
    for persona_id, persona in (rec(tts.get("personas")) or {}).items():
        if persona_id in BLOCKED_KEYS or not isinstance(persona, dict):
            continue
        base = f"{label}.personas.{persona_id}"
        _speaker_provider_map(persona.get("providers"), f"{base}.providers", changes)
        for provider_id in LEGACY_PROVIDER_KEYS:
            if isinstance(persona.get(provider_id), dict):
                _speaker_config(persona[provider_id], f"{base}.{provider_id}", changes)


def _enabled_block(tts: Tts, label: str, changes: Changes) -> None:
    if not isinstance(tts.get("enabled"), bool):
        return
    auto = "always" if tts["enabled"] else "off"
    del tts["enabled"]
    if isinstance(tts.get("auto"), str) and tts["auto"].strip():
        changes.append(f"Removed {label}.enabled because {label}.auto is already set.")
        return
    tts["auto"] = auto
    changes.append(f'Moved {label}.enabled → {label}.auto "{auto}".')


def _visit_all(step: Callable[[Tts, str, Changes], None]) -> Callable[[dict, Changes], None]:
    def migrate(raw: dict, changes: Changes) -> None:
        for tts, label in list(_every_block(raw)):
            if tts is not None:
                step(tts, label, changes)
    return migrate


speaker_selection = _visit_all(_speaker_block)
enabled_auto = _visit_all(_enabled_block)

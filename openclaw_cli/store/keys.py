"""Session-key grammar: normalisation, agent scoping, synthetic and protected keys, model-run probes."""

from __future__ import annotations

import re
from functools import lru_cache

from openclaw_cli.js.strings import js_trim

# Channels whose peer ids are opaque and keep their case inside a lowercased key.
# (channel, peer kinds, span): "segment" keeps one segment, "tail" keeps the rest of the key.
_CASE_PRESERVING = (
    ("signal", ("group",), "segment"),
    ("matrix", ("channel", "group"), "tail"),
)


def _opt(value) -> str | None:
    """normalizeOptionalString: trimmed non-empty string, else None."""
    if not isinstance(value, str):
        return None
    trimmed = js_trim(value)
    return trimmed or None


def _lower_or_empty(value) -> str:
    trimmed = _opt(value)
    return trimmed.lower() if trimmed else ""


def _preserved_spans(raw: str) -> list[tuple[int, int, bool]]:
    spans: list[tuple[int, int, bool]] = []
    for channel, kinds, span in _CASE_PRESERVING:
        for kind in kinds:
            if span == "segment":
                pattern = re.compile(rf"(^|:){channel}:{kind}:([^:]+)", re.IGNORECASE | re.ASCII)
                for m in pattern.finditer(raw):
                    seg = m.group(2)
                    start = m.end() - len(seg)
                    spans.append((start, start + len(seg), True))
                continue

            def tail(start: int) -> None:
                if start >= len(raw):
                    return
                marker = _lower_or_empty(raw[start:]).rfind(":thread:")
                if marker == -1:
                    spans.append((start, len(raw), False))
                    return
                spans.append((start, start + marker, False))
                thread_start = start + marker + 8
                if thread_start < len(raw):
                    spans.append((thread_start, len(raw), False))

            scoped = re.match(rf"^(?:agent:[^:]*:)+:*{channel}:{kind}:", raw,
                              re.IGNORECASE | re.ASCII)
            if scoped:
                tail(scoped.end())
                continue
            unscoped = re.match(rf"^{channel}:{kind}:", raw, re.IGNORECASE | re.ASCII)
            if unscoped:
                tail(unscoped.end())
    return spans


@lru_cache(maxsize=65536)
def normalize_store_key(key: str) -> str:
    """Trim and lowercase a session key, keeping opaque peer ids (Signal groups, Matrix rooms)."""
    raw = _opt(key)
    if not raw:
        return ""
    folded = raw.lower()
    if folded == raw:
        folded = raw  # keep the caller's string object: caches then hold no copies
    if "signal:" not in folded and "matrix:" not in folded:
        return folded
    spans = sorted((s for s in _preserved_spans(raw) if s[1] > s[0]), key=lambda s: s[0])
    out: list[str] = []
    cursor = 0
    for start, end, trim in spans:
        if start < cursor:
            continue
        out.append(_lower_or_empty(raw[cursor:start]))
        piece = raw[start:end]
        out.append(js_trim(piece) if trim else piece)
        cursor = end
    out.append(_lower_or_empty(raw[cursor:]))
    return "".join(out)


@lru_cache(maxsize=65536)
def parse_agent_key(key: str) -> tuple[str, str] | None:
    """`agent:<agentId>:<rest>` → (agentId, rest), both normalised; None for other shapes."""
    raw = normalize_store_key(key)
    if not raw:
        return None
    parts = raw.split(":")
    if len(parts) < 3 or not parts[1] or not parts[2] or parts[0] != "agent":
        return None
    agent_id = _opt(parts[1])
    rest = ":".join(parts[2:])
    if not agent_id or not rest:
        return None
    return agent_id, rest


def _rest_or_key_lower(key: str) -> str:
    parsed = parse_agent_key(key)
    return _lower_or_empty(parsed[1] if parsed else key)


def is_subagent_key(key: str) -> bool:
    raw = _opt(key)
    if not raw:
        return False
    if raw.lower().startswith("subagent:"):
        return True
    parsed = parse_agent_key(raw)
    return parsed is not None and _lower_or_empty(parsed[1]).startswith("subagent:")


def is_acp_key(key: str) -> bool:
    raw = _opt(key)
    if not raw:
        return False
    if raw.lower().startswith("acp:"):
        return True
    parsed = parse_agent_key(raw)
    return parsed is not None and _lower_or_empty(parsed[1]).startswith("acp:")


def is_cron_key(key: str) -> bool:
    parsed = parse_agent_key(key)
    return parsed is not None and _lower_or_empty(parsed[1]).startswith("cron:")


def thread_id_of(key: str) -> str | None:
    """Thread id after the last `:thread:` (case-insensitive), trimmed; None when absent."""
    raw = _opt(key)
    if not raw:
        return None
    marker = raw.lower().rfind(":thread:")
    if marker == -1:
        return None
    return _opt(raw[marker + 8:])


@lru_cache(maxsize=262144)
def is_synthetic_key(key: str) -> bool:
    """Runtime-made keys (subagent, acp, cron, hook, node, heartbeat): never protected."""
    raw = _opt(key)
    if not raw:
        return False
    low = raw.lower()
    if low.startswith(("subagent:", "acp:")):
        return True
    parsed = parse_agent_key(key)
    rest = _lower_or_empty(parsed[1]) if parsed else low
    if parsed and rest.startswith(("subagent:", "acp:", "cron:")):
        return True
    return (rest.startswith(("acp-bridge:", "hook:", "node:")) or rest == "heartbeat"
            or rest.endswith(":heartbeat") or ":heartbeat:" in rest)


# JS regexes: `.` excludes line terminators, `$` only matches at the very end, `\s` is JS whitespace.
_DOT = "[^\n\r\u2028\u2029]"
_JS_SPACE = "\t\n\x0b\x0c\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
_TELEGRAM_TOPIC = re.compile(rf"^telegram:(?:group|channel|direct|dm):{_DOT}+:topic:[^:]+\Z")
_GROUP_OR_CHANNEL = re.compile(rf"^[^:]+:(?:group|channel):{_DOT}+\Z")


def _is_protected_key_shape(key: str) -> bool:
    if is_synthetic_key(key):
        return False
    if thread_id_of(key):
        return True
    rest = _rest_or_key_lower(key)
    return bool(_TELEGRAM_TOPIC.match(rest) or _GROUP_OR_CHANNEL.match(rest))


_ASCII_SPACE = re.compile(r"[\t\n\x0b\x0c\r ]")


def _plain_key_shape(key: str) -> bool | None:
    """`_key_shape` of a key no normalisation changes (ASCII, lowercase, no whitespace anywhere, no
    Signal or Matrix peer): every trim and fold above is then the identity, so the rules read the
    key itself."""
    parts = key.split(":")
    rest = key
    parsed = len(parts) >= 3 and parts[0] == "agent" and bool(parts[1]) and bool(parts[2])
    if key.startswith(("subagent:", "acp:")):
        return None
    if parsed:
        rest = key[len(parts[1]) + 7:]
        if rest.startswith(("subagent:", "acp:", "cron:")):
            return None
    if (rest.startswith(("acp-bridge:", "hook:", "node:")) or rest == "heartbeat"
            or rest.endswith(":heartbeat") or ":heartbeat:" in rest):
        return None
    marker = key.rfind(":thread:")
    if marker != -1 and marker + 8 < len(key):
        return True
    return bool(_TELEGRAM_TOPIC.match(rest) or _GROUP_OR_CHANNEL.match(rest))


def _key_shape(key: str) -> bool | None:
    """None for a synthetic key, else whether its shape alone protects it."""
    if (key and key.isascii() and key.islower() and not _ASCII_SPACE.search(key)
            and "signal:" not in key and "matrix:" not in key):
        return _plain_key_shape(key)
    if is_synthetic_key(key):
        return None
    return _is_protected_key_shape(key)


def is_protected_entry(key: str, entry) -> bool:
    """Durable external conversation pointers (threads, topics, groups, channels) never age out.

    A key's shape is worked out on every call: about 1.3 µs, where a cache of every key asked about
    would hold about 37 bytes a key for the whole run (3.7 MiB at 100,000 entries)."""
    shape = _key_shape(key)
    if shape is None:
        return False
    if shape:
        return True
    if not isinstance(entry, dict):
        return False
    chat_type = entry.get("chatType")
    if chat_type is None:
        origin = entry.get("origin")
        chat_type = origin.get("chatType") if isinstance(origin, dict) else None
    return _lower_or_empty(chat_type) in ("group", "channel", "thread")


def should_preserve(key: str, entry, preserve_keys: frozenset[str] | None) -> bool:
    return (preserve_keys is not None and key in preserve_keys) or is_protected_entry(key, entry)


_UUID = r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"
_MODEL_RUN_RAW = re.compile(rf"^agent:([^:{_JS_SPACE}]+):explicit:model-run-{_UUID}\Z",
                            re.IGNORECASE | re.ASCII)
_MODEL_RUN_REST = re.compile(rf"^explicit:model-run-{_UUID}\Z")


def is_model_run_key(key: str) -> bool:
    """Strict matcher for Gateway `model run` probe sessions (`agent:<id>:explicit:model-run-<uuid>`)."""
    m = _MODEL_RUN_RAW.match(key)
    if not m:
        return False
    agent_id = m.group(1)
    parsed = parse_agent_key(key)
    if not parsed or parsed[0] != agent_id.lower():
        return False
    return bool(_MODEL_RUN_REST.match(_lower_or_empty(parsed[1])))


def is_stale_direct_dm_key(key: str, *, target_agent_id: str, active_key: str | None,
                            dm_scope: str) -> bool:
    """`--fix-dm-scope`: direct-DM keys left over from a per-peer dmScope, when dmScope is main."""
    from openclaw_cli.config.agents import normalize_agent_id

    if dm_scope != "main":
        return False
    if active_key and key == active_key:
        return False
    parsed = parse_agent_key(key)
    if not parsed or normalize_agent_id(parsed[0]) != normalize_agent_id(target_agent_id):
        return False
    parts = parsed[1].split(":")
    if parts[0] == "agent":
        return False
    n = len(parts)
    if n == 2:
        return parts[0] == "direct" and bool(parts[1])
    if n == 3:
        return bool(parts[0]) and parts[1] == "direct" and bool(parts[2])
    if n == 4:
        return bool(parts[0]) and bool(parts[1]) and parts[2] == "direct" and bool(parts[3])
    return False


def protection_kind(key: str, entry) -> str:
    """What kind of conversation pointer a protected entry is (thread, topic, group, channel)."""
    if thread_id_of(key):
        return "thread"
    rest = _rest_or_key_lower(key)
    if _TELEGRAM_TOPIC.match(rest):
        return "topic"
    match = re.match(r"^[^:]+:(group|channel):", rest)
    if match:
        return match.group(1)
    chat_type = entry.get("chatType") if isinstance(entry, dict) else None
    if chat_type is None and isinstance(entry, dict) and isinstance(entry.get("origin"), dict):
        chat_type = entry["origin"].get("chatType")
    return _lower_or_empty(chat_type) or "conversation"

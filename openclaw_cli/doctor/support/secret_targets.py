"""Config fields that hold credentials (OpenClaw 2026.7.1's secret target registry, openclaw.json part)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

# Registry order matters: it is the order of the `Paths:` list.
PATTERNS: tuple[str, ...] = (
    "agents.defaults.memorySearch.remote.apiKey",
    "agents.list[].memorySearch.remote.apiKey",
    "cron.webhookToken",
    "gateway.auth.token",
    "gateway.auth.password",
    "gateway.remote.password",
    "gateway.remote.token",
    "messages.tts.providers.*.apiKey",
    "agents.list[].tts.providers.*.apiKey",
    "models.providers.*.apiKey",
    "models.providers.*.headers.*",
    "models.providers.*.request.headers.*",
    "models.providers.*.request.auth.token",
    "models.providers.*.request.auth.value",
    "models.providers.*.request.proxy.tls.ca",
    "models.providers.*.request.proxy.tls.cert",
    "models.providers.*.request.proxy.tls.key",
    "models.providers.*.request.proxy.tls.passphrase",
    "models.providers.*.request.tls.ca",
    "models.providers.*.request.tls.cert",
    "models.providers.*.request.tls.key",
    "models.providers.*.request.tls.passphrase",
    "skills.entries.*.apiKey",
    "talk.providers.*.apiKey",
    "talk.realtime.providers.*.apiKey",
    "tools.web.search.apiKey",
    "tools.web.fetch.firecrawl.apiKey",
    "tools.web.search.*.apiKey",
    "plugins.entries.google.config.webSearch.apiKey",
    "plugins.entries.minimax.config.webSearch.apiKey",
    "plugins.entries.xai.config.webSearch.apiKey",
    "channels.telegram.accounts.*.botToken",
    "channels.telegram.accounts.*.webhookSecret",
    "channels.telegram.botToken",
    "channels.telegram.webhookSecret",
)
HEADER_PATTERNS = ("models.providers.*.headers.*",)
_SENSITIVE_HEADERS = frozenset({"authorization", "proxy-authorization", "x-api-key", "api-key", "apikey",
                                "x-auth-token", "auth-token", "x-access-token", "access-token", "x-secret-key",
                                "secret-key"})
_SENSITIVE_FRAGMENTS = ("api-key", "apikey", "token", "secret", "password", "credential")


def sensitive_header(name: str) -> bool:
    lowered = name.strip().lower()
    if not lowered:
        return False
    return lowered in _SENSITIVE_HEADERS or any(f in lowered for f in _SENSITIVE_FRAGMENTS)


def expand(root: Any, pattern: str) -> Iterator[tuple[list[str], Any]]:
    """(path segments, value) of every place `pattern` matches in `root`."""
    tokens = pattern.split(".")

    def walk(node: Any, i: int, segments: list[str]) -> Iterator[tuple[list[str], Any]]:
        token = tokens[i]
        leaf = i == len(tokens) - 1
        if not isinstance(node, dict):
            return
        if token == "*":
            for key, value in node.items():
                if leaf:
                    yield [*segments, key], value
                else:
                    yield from walk(value, i + 1, [*segments, key])
            return
        if token.endswith("[]"):
            field = token[:-2]
            items = node.get(field)
            if not isinstance(items, list):
                return
            for index, item in enumerate(items):
                if leaf:
                    yield [*segments, field, str(index)], item
                else:
                    yield from walk(item, i + 1, [*segments, field, str(index)])
            return
        if leaf:
            yield [*segments, token], node.get(token)
            return
        if token in node:
            yield from walk(node[token], i + 1, [*segments, token])

    yield from walk(root, 0, [])


def plaintext_secret_paths(cfg: dict) -> list[str]:
    """Dotted paths of credential fields that hold a literal (not a SecretRef or `${VAR}`)."""
    from openclaw_cli.gateway.secretrefs import coerce_secret_ref

    out: list[str] = []
    seen: set[str] = set()
    for pattern in PATTERNS:
        for segments, value in expand(cfg, pattern):
            path = ".".join(segments)
            key = f"{pattern}:{path}"
            if key in seen:
                continue
            seen.add(key)
            if pattern in HEADER_PATTERNS and not sensitive_header(segments[-1]):
                continue
            if coerce_secret_ref(value, cfg) is not None:
                continue
            if isinstance(value, str) and value.strip():
                out.append(path)
    return out

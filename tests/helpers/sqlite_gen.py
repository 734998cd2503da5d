"""SQLite-era states made by a real 2026.9.6 Gateway: sessions of the kinds cleanup tells apart, each
written by real `chat.send` turns against a loopback model, then the Gateway stopped cleanly.

The state is made once; tests copy it (`copy_state`) and move its age by running both CLIs under a
moved clock (libfaketime, `clock_env`), so no date is hard-coded.
"""

from __future__ import annotations

import json
import shutil
import uuid
from pathlib import Path
from typing import Any

from helpers import refbin
from helpers.gateway import RunningGateway, start_gateway
from helpers.state import write_config

READY_TIMEOUT_S = 240.0

# Keys of every kind 2026.9.6's maintenance treats apart (`{run}` is a fresh UUID).
KEYS = (
    "agent:main:main",                          # primary: protected
    "agent:main:dashboard:board-1",             # archived when stale (archiveDashboardAfter)
    "agent:main:explicit:model-run-{run}",      # a model-run probe: deleted, only above the cap
    "agent:main:cron:nightly",                  # synthetic: deleted instead of archived
    "agent:main:hook:inbox",                    # synthetic
    "agent:main:notes-a",                       # durable: archived by age or by the cap
    "agent:main:notes-b",
    "agent:main:notes-c",
    "agent:main:direct:peer-7",                 # a direct DM: protected, retired by --fix-dm-scope
    "agent:main:telegram:group:555",            # a group: protected
    "agent:main:slack:channel:c1:thread:42",    # a thread: protected
)
LABELS = {"agent:main:notes-c": "Keep notes", "agent:main:dashboard:board-1": "Board"}
EMPTY_KEY = "agent:main:empty-draft"  # a row made by sessions.patch alone: no transcript messages


def model_config(base_url: str) -> dict[str, Any]:
    """The fixture generator's model setup: a custom OpenAI-compatible provider at the loopback model."""
    return {
        "agents": {"defaults": {"model": {"primary": "fake/fake-model"}}},
        "models": {"mode": "merge", "providers": {"fake": {
            "baseUrl": base_url, "apiKey": "fake-local", "api": "openai-completions", "timeoutSeconds": 60,
            "models": [{"id": "fake-model", "name": "Fake", "reasoning": False, "input": ["text"],
                        "cost": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0},
                        "contextWindow": 128000, "maxTokens": 4096}]}}},
    }


def client_connection(gateway: RunningGateway, method: str, home: Path):
    """A connection to `gateway` for `method`, as a client with its own scratch `home`."""
    from openclaw_cli.gateway.rpc import connection_for

    env = {"HOME": str(home), **gateway.client_env(), "OPENCLAW_GATEWAY_TOKEN": gateway.secret or ""}
    return connection_for(method, env, cfg={})


def drive(base: Path, config: dict[str, Any], keys: list[str], then=None):
    """A 2026.9.6 Gateway under `base` with `config`: one real `chat.send` turn per key, then
    `then(gateway, client_home)`, then stopped cleanly; returns the Gateway (its `home` is the state's)."""
    from openclaw_cli.gateway.rpc import chat_send

    write_config(base / "home" / ".openclaw", config)
    gateway = start_gateway(base, auth="token", version=refbin.SQLITE_ERA_VERSION, ready_timeout=READY_TIMEOUT_S)
    client_home = base / "client"
    write_config(client_home / ".openclaw", {})
    try:
        sender = client_connection(gateway, "chat.send", client_home)
        for i, key in enumerate(keys):
            result = chat_send({"sessionKey": key, "message": f"hello {i}: please say something short"},
                               connection=sender, timeout_ms=120_000)
            assert result.final is not None and result.final.get("state") == "final", (key, result.final)
        if then is not None:
            then(gateway, client_home)
    finally:
        gateway.stop()
    return gateway


def generate(base: Path, llm_base_url: str) -> tuple[Path, list[str]]:
    """Drive a 2026.9.6 Gateway under `base` and stop it; (the state's home, the keys written)."""
    from openclaw_cli.gateway.rpc import call

    def label(gateway: RunningGateway, client_home: Path) -> None:
        patcher = client_connection(gateway, "sessions.patch", client_home)
        for key, text in LABELS.items():
            call("sessions.patch", {"key": key, "label": text}, connection=patcher)
        call("sessions.patch", {"key": EMPTY_KEY, "label": "Draft"}, connection=patcher)

    keys = [key.format(run=uuid.uuid4()) for key in KEYS]
    gateway = drive(base, model_config(llm_base_url), keys, label)
    (base / "keys.json").write_text(json.dumps(keys))
    return gateway.home, keys


def copy_state(source_home: Path, home: Path, also: tuple[str, ...] = ()) -> Path:
    """A fresh copy of a generated state under `home` (and of the folders `also` names beside it, such
    as a session store kept outside the state); returns the state folder."""
    state = home / ".openclaw"
    shutil.copytree(source_home / ".openclaw", state, symlinks=True,
                    ignore=shutil.ignore_patterns("cache", "logs", "tmp", "plugin-skills"))
    for name in also:
        shutil.copytree(source_home / name, home / name, symlinks=True)
    return state


def clock_env(offset: str | None) -> dict[str, str]:
    """Both CLIs' clock moved by `offset` (`+40d`) from the real one, monotonic time left alone;
    nothing for None (the suite's own clock, if any, then applies)."""
    return refbin.faketime_env(offset) if offset else {}


def clock_env_from(offset: str | None) -> dict[str, str]:
    """A clock stopped at one instant (a few seconds from now, moved by `offset` days) for every
    process given it, so that two runs one after the other print the same ages."""
    import math
    import time
    from datetime import datetime, timezone

    shift = 0 if not offset else int(offset.strip("+d")) * 86_400
    start = datetime.fromtimestamp(math.ceil(time.time()) + 2 + shift, tz=timezone.utc)
    return {**refbin.faketime_env(start.strftime("%Y-%m-%d %H:%M:%S")), "TZ": "UTC"}

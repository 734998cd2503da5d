"""Everything a check needs: environment, config, resolved locations, options and prompter."""

from __future__ import annotations

import os
import time
from collections.abc import MutableMapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from openclaw_cli.doctor.configfile import ConfigDoc
from openclaw_cli.doctor.prompter import Prompter, RepairMode


@dataclass
class Options:
    """Doctor flags that checks look at (repair flags live in the prompter)."""

    lint: bool = False
    deep: bool = False
    generate_gateway_token: bool = False
    non_interactive_flag: bool = False
    workspace_suggestions: bool = True
    gateway_timeout_ms: int = 3000


@dataclass
class DoctorContext:
    env: MutableMapping[str, str]
    doc: ConfigDoc
    prompter: Prompter
    options: Options = field(default_factory=Options)
    now_ms: int = field(default_factory=lambda: int(time.time() * 1000))
    secrets: set[str] = field(default_factory=set)

    @property
    def cfg(self) -> dict:
        """The resolved best-effort config (edits already applied)."""
        return self.doc.data

    @property
    def mode(self) -> RepairMode:
        return self.prompter.mode

    @property
    def should_repair(self) -> bool:
        return self.prompter.should_repair

    @cached_property
    def home(self) -> str:
        from openclaw_cli.config.paths import resolve_required_home

        return resolve_required_home(self.env)

    @cached_property
    def state_dir(self) -> str:
        from openclaw_cli.config.paths import resolve_state_dir

        return resolve_state_dir(self.env)

    @property
    def config_path(self) -> str:
        return self.doc.path

    @property
    def default_agent_id(self) -> str:
        from openclaw_cli.config.agents import resolve_default_agent_id

        return resolve_default_agent_id(self.cfg)

    def sessions_dir(self, agent_id: str | None = None) -> str:
        from openclaw_cli.config.agents import resolve_agent_sessions_dir

        return resolve_agent_sessions_dir(agent_id or self.default_agent_id, self.env)

    def store_path(self, agent_id: str | None = None) -> str:
        from openclaw_cli.config.agents import resolve_store_path, session_store_template

        return resolve_store_path(session_store_template(self.cfg), agent_id or self.default_agent_id, self.env)

    def display(self, path: str) -> str:
        """A path with the home folder shown as `~` (`$OPENCLAW_HOME` when that is set)."""
        from openclaw_cli.config.paths import display_path

        return display_path(path, self.env)

    def note_secret(self, value: Any) -> None:
        """Remember a credential so that no output ever shows it."""
        if isinstance(value, str) and len(value.strip()) >= _MIN_SECRET:
            self.secrets.add(value.strip())


def collect_secrets(cfg: Any, env: MutableMapping[str, str], out: set[str]) -> None:
    """Every credential-looking value in the config and the gateway env variables."""
    for name in ("OPENCLAW_GATEWAY_TOKEN", "OPENCLAW_GATEWAY_PASSWORD"):
        value = (env.get(name) or "").strip()
        if len(value) >= _MIN_SECRET:
            out.add(value)
    _walk_secrets(cfg, "", out)


_SECRET_KEYS = frozenset({"token", "password", "apikey", "secret", "passphrase", "accesstoken",
                          "bottoken", "appsecret", "webhooksecret", "webhooktoken", "encryptkey",
                          "verificationtoken", "apipassword", "botsecret", "clientsecret"})
_MIN_SECRET = 8


def _walk_secrets(value: Any, key: str, out: set[str]) -> None:
    if isinstance(value, dict):
        for k, v in value.items():
            _walk_secrets(v, str(k), out)
    elif isinstance(value, list):
        for item in value:
            _walk_secrets(item, key, out)
    elif isinstance(value, str):
        text = value.strip()
        if key.lower() in _SECRET_KEYS and len(text) >= _MIN_SECRET and not text.startswith("${"):
            out.add(text)


def new_context(env: MutableMapping[str, str] | None = None, *, prompter: Prompter,
                options: Options | None = None) -> DoctorContext:
    from openclaw_cli.doctor.configfile import load_doc

    env = dict(os.environ) if env is None else env
    doc = load_doc(env)
    ctx = DoctorContext(env=env, doc=doc, prompter=prompter, options=options or Options())
    collect_secrets(doc.data, env, ctx.secrets)
    if doc.raw is not None:
        collect_secrets(doc.raw, env, ctx.secrets)
    return ctx

"""Load `openclaw.json` as OpenClaw does: find, read, resolve (dotenv, `$include`, `${VAR}`), validate."""

from __future__ import annotations

import math
import os
import re
from collections.abc import Mapping, MutableMapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from openclaw_cli.config import paths
from openclaw_cli.config.env import (
    apply_config_env,
    load_config_dotenv,
    load_startup_dotenv,
    substitute_env_vars,
)
from openclaw_cli.config.includes import ConfigIncludeError, resolve_includes
from openclaw_cli.config.json5 import Json5Error, parse_json5, read_text
from openclaw_cli.js.strings import js_trim

if TYPE_CHECKING:  # the schema (pydantic) is loaded only when there is a config to validate
    from openclaw_cli.config.schema import ConfigIssue
    from openclaw_cli.errors import InvalidConfigError

DEFAULT_GATEWAY_PORT = 18789


@dataclass
class LoadedConfig:
    """The config as OpenClaw sees it after includes and `${VAR}` substitution."""

    path: str
    exists: bool
    data: dict
    issues: list[ConfigIssue] = field(default_factory=list)
    warnings: list[ConfigIssue] = field(default_factory=list)
    raw: str | None = None  # the file's text, as read
    parsed: Any = None  # the file as written (before `$include` and `${VAR}`)
    read_failure: str | None = None  # why the file could not be read (Node's words), or `JSON5: …`
    resolved: bool = False  # read, parsed, its `$include`s and `${VAR}`s resolved (then validated)

    @property
    def valid(self) -> bool:
        return not self.issues


def _one_line(text: str) -> str:
    return re.sub(r"\s*\n\s*", " ", text).strip()


def format_config_error(path: str, issues: list[ConfigIssue]) -> str:
    """`OpenClaw config is invalid (<path>): <issue>; <issue>` on a single line."""
    return f"OpenClaw config is invalid ({path}): " + "; ".join(_one_line(i.format()) for i in issues)


def load_config(env: MutableMapping[str, str] | None = None, *, strict: bool = True,
                dotenv: bool = True, cwd: str | None = None, own_read: bool = False) -> LoadedConfig:
    """Read the active config the way OpenClaw's CLI does.

    `env` (default: os.environ) is updated in place like OpenClaw's process
    environment: dotenv files and the config `env` block fill in missing variables, which
    later path and gateway resolution then see. A missing file gives empty data. With
    `strict`, any problem raises ConfigError (one line); otherwise it is listed in `issues`
    and `data` holds the best-effort config. A state folder that is a file (or lies below
    one) always raises CliError.

    A SQLite-era config is judged as 2026.9.6 judges it, after its in-memory migrations
    (config/read96.py). `own_read` is the read of 2026.9.6's bare `openclaw sessions`, which is not
    checked before the command: it prints its notes on the config first, and fails in its own lines.
    """
    env = os.environ if env is None else env
    if dotenv:
        load_startup_dotenv(env, cwd)
    paths.check_state_dir(env)
    path = paths.resolve_config_path(env)
    if dotenv:
        load_config_dotenv(env, cwd)
    loaded = _load_file(path, env)
    noted = _read_as_sqlite_era(loaded, env, own_read) if loaded.resolved else False
    if strict and loaded.issues:
        err = _invalid_config(loaded, env)
        err.guarded = not own_read
        raise err
    if strict and not noted:  # else 2026.9.6's `sessions` named them in its own notes
        _warn_missing_env(loaded)
    if strict and noted:
        _print_config_warnings(loaded)
    if strict:
        _warn_newer_writer(loaded)
    return loaded


def _print_config_warnings(loaded: LoadedConfig) -> None:
    """2026.9.6's `Config warnings:` line on a valid config (the heartbeat owner's; its plugin warnings are not modelled)."""
    from openclaw_cli.config.owner96 import heartbeat_warnings
    from openclaw_cli.ui.console import stderr_line

    warnings = heartbeat_warnings(loaded.data)
    if warnings:
        stderr_line("Config warnings: " + "; ".join(f"{path}: {message}" for path, message in warnings))


def _warn_newer_writer(loaded: LoadedConfig) -> None:
    """2026.9.6's lines on a valid config last written by a newer release (such a config is of the SQLite era)."""
    from openclaw_cli.config.read96 import newer_writer_lines
    from openclaw_cli.ui.console import stderr_line

    for line in newer_writer_lines(loaded.data):
        stderr_line(line)


def _read_as_sqlite_era(loaded: LoadedConfig, env: MutableMapping[str, str], own_read: bool) -> bool:
    """A SQLite-era config's context budgets moved as 2026.9.6 moves them on reading (its schema judged
    the migrated config already), and with `own_read` its notes printed; True when they were."""
    from openclaw_cli.config import read96

    if not own_read and not read96.has_legacy_budget(loaded.data):
        return False
    from openclaw_cli.config.era import SQLITE_ERA, config_era

    if config_era(loaded.data, env) != SQLITE_ERA:
        return False
    loaded.data, budget_notes = read96.migrate_context_budget(loaded.data)
    if own_read:
        _print_read_notes(loaded, budget_notes)
    return own_read


def _print_read_notes(loaded: LoadedConfig, budget_notes: list[str]) -> None:
    """2026.9.6's `Config (<file>): …` notes on `loaded` (its budgets already moved), then its gateway.token line."""
    from openclaw_cli.config import read96
    from openclaw_cli.ui.console import stderr_line

    missing = [(w.variable, w.segments or ()) for w in loaded.warnings if w.variable]
    for note in read96.read_notes(loaded.data, budget_notes, missing):
        stderr_line(f"Config ({loaded.path}): {note}")
    if read96.warns_gateway_token(loaded.data):
        stderr_line(read96.GATEWAY_TOKEN_LINE)


def _invalid_config(loaded: LoadedConfig, env: MutableMapping[str, str]) -> InvalidConfigError:
    """The error of an invalid config: the one-line form, with the report of the era's release."""
    from openclaw_cli.config.era import SQLITE_ERA, config_era
    from openclaw_cli.config.invalid import build_report, file_era_report
    from openclaw_cli.errors import InvalidConfigError

    message = format_config_error(loaded.path, loaded.issues)
    if config_era(loaded.data, env) != SQLITE_ERA:
        return InvalidConfigError(message, file_era_report(loaded.path, loaded.issues))

    return InvalidConfigError(message, build_report(loaded.path, loaded.issues, loaded.raw, loaded.parsed,
                                                    loaded.data, loaded.read_failure))


def missing_env_lines(loaded: LoadedConfig) -> list[str]:
    """One line per `${VAR}` of the config that is not set: `config: ${VAR} is not set (<path>)`."""
    return [f"config: ${{{w.variable}}} is not set ({w.path or '<root>'})" for w in loaded.warnings if w.variable]


def _warn_missing_env(loaded: LoadedConfig) -> None:
    """At a terminal, a `warning:` line naming each variable that is not set. OpenClaw keeps the value
    silently (nothing on stdout or stderr), so piped output stays its own; doctor lists them itself."""
    import sys

    if not getattr(sys.stderr, "isatty", lambda: False)():
        return
    from openclaw_cli.ui.console import warn

    for line in dict.fromkeys(missing_env_lines(loaded)):
        warn(line)


def _load_file(path: str, env: MutableMapping[str, str]) -> LoadedConfig:
    if not os.path.exists(path):
        return LoadedConfig(path, False, {})
    from openclaw_cli.config.schema import ConfigIssue

    try:
        raw = read_text(path)
    except OSError as exc:
        from openclaw_cli.js.fserrors import read_file_error

        message = read_file_error(exc, path)
        return LoadedConfig(path, True, {}, [ConfigIssue("", f"read failed: Error: {message}")],
                            read_failure=message)
    try:
        parsed = parse_json5(raw)
    except ValueError as exc:
        return LoadedConfig(path, True, {}, [ConfigIssue("", f"JSON5 parse failed: {exc}")], raw=raw,
                            read_failure=exc.message if isinstance(exc, Json5Error) else str(exc))
    try:
        data, issues, warnings = resolve_config(parsed, path, env)
    except (ConfigIncludeError, RecursionError) as exc:
        message = str(exc) if isinstance(exc, ConfigIncludeError) else "Include resolution failed"
        return LoadedConfig(path, True, parsed if isinstance(parsed, dict) else {}, [ConfigIssue("", message)],
                            raw=raw, parsed=parsed)
    return LoadedConfig(path, True, data, issues, warnings, raw=raw, parsed=parsed, resolved=True)


def resolve_config(parsed: Any, path: str, env: MutableMapping[str, str]
                   ) -> tuple[dict, list[ConfigIssue], list[ConfigIssue]]:
    """`$include`, the config `env` block and `${VAR}` applied to a parsed config, then validated:
    (data, issues, warnings). Raises ConfigIncludeError (or RecursionError) for the includes."""
    from openclaw_cli.config.schema import ConfigIssue, validate_config

    resolved = resolve_includes(parsed, path, env)
    if isinstance(resolved, dict) and "env" in resolved:
        apply_config_env(resolved, env)
    warnings: list[ConfigIssue] = []
    resolved = substitute_env_vars(
        resolved, env, on_missing=lambda name, where, segments: warnings.append(
            ConfigIssue(where, f'Missing env var "{name}" - feature using this value will be unavailable',
                        variable=name, segments=segments)))
    issues = validate_config(resolved, env)
    return (resolved if isinstance(resolved, dict) else {}), issues, warnings


def _parse_port(text: str) -> int | None:
    if not re.fullmatch(r"[0-9]+", text, re.ASCII):
        return None
    port = int(text)
    return port if 0 < port <= 65535 else None


def parse_gateway_port_env(raw: str | None) -> int | None:
    """OPENCLAW_GATEWAY_PORT as `18789`, `host:18789` or `[::1]:18789`; None when unusable."""
    text = js_trim(raw or "")
    if not text:
        return None
    if re.fullmatch(r"[0-9]+", text, re.ASCII):
        return _parse_port(text)
    bracketed = re.fullmatch(r"\[[^\]]+\]:([0-9]+)", text, re.ASCII)
    if bracketed:
        return _parse_port(bracketed.group(1))
    first, last = text.find(":"), text.rfind(":")
    if first <= 0 or first != last:
        return None
    return _parse_port(text[first + 1:])


def resolve_gateway_port(cfg: Mapping[str, Any] | None, env: Mapping[str, str] | None = None) -> int | float:
    """OPENCLAW_GATEWAY_PORT, else a positive `gateway.port`, else 18789."""
    from openclaw_cli.config.zod import is_number

    env = os.environ if env is None else env
    from_env = parse_gateway_port_env(env.get("OPENCLAW_GATEWAY_PORT"))
    if from_env is not None:
        return from_env
    gateway = cfg.get("gateway") if isinstance(cfg, Mapping) else None
    port = gateway.get("port") if isinstance(gateway, Mapping) else None
    if is_number(port) and math.isfinite(port) and port > 0:
        return int(port) if float(port).is_integer() else port
    return DEFAULT_GATEWAY_PORT

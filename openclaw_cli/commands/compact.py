"""`openclaw compact KEY`: a running Gateway does it, else the files are compacted here; then printed."""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping, MutableMapping
from dataclasses import dataclass, field
from typing import Any

from openclaw_cli.commands.gateway import Fallback, GatewayOptions, route
from openclaw_cli.errors import CliError, StoreError, UsageError
from openclaw_cli.js.values import object_at

MAX_LINES_ERROR = "--max-lines must be a positive integer."
EMPTY_KEY_ERROR = "invalid sessions.compact params: at /key: must not have fewer than 1 characters"
SUMMARIZERS = ("extractive", "openai")
CONFIG_KEY_ENV = "OPENCLAW_CLI_COMPACT_API_KEY"  # hands a configured provider key to the summarizer
OPENAI_APIS = ("openai-completions",)
OFFLINE_HINT = "use --offline to compact the local files without a Gateway"


@dataclass
class CompactRequest:
    """The command line of `openclaw compact` / `openclaw sessions compact`."""

    key: str
    agent: str | None = None
    max_lines: str | None = None
    json: bool = False
    url: str | None = None
    token: str | None = None
    password: str | None = None
    timeout: str | None = None
    dry_run: bool = False
    offline: bool = False
    summarizer: str | None = None
    base_url: str | None = None
    model: str | None = None
    api_key_env: str | None = None
    summary_file: str | None = None
    refused_parent_options: list[str] = field(default_factory=list)

    @property
    def offline_only_options(self) -> list[str]:
        """Our options that only make sense on the local files."""
        named = (("--summarizer", self.summarizer), ("--base-url", self.base_url), ("--model", self.model),
                 ("--api-key-env", self.api_key_env), ("--summary-file", self.summary_file))
        return [flag for flag, value in named if value is not None]

    @property
    def local_only(self) -> bool:
        return self.dry_run or self.offline or bool(self.offline_only_options)

    def secrets(self) -> tuple[str, ...]:
        return tuple(s for s in (self.token, self.password) if s)


class CompactFailed(CliError):
    """A failure printed as OpenClaw prints one: `Compaction failed: …` or `{ok:false, key, error}`."""


# -- entry point ---------------------------------------------------------------------------


def run_compact_command(req: CompactRequest, env: MutableMapping[str, str] | None = None) -> int:
    """Validate, choose Gateway or local files, print like OpenClaw; the exit code."""
    from openclaw_cli.commands.gateway import parse_timeout
    from openclaw_cli.listing.options import parse_strict_positive_integer
    from openclaw_cli.ui import progress

    env = os.environ if env is None else env
    progress.enable(not req.json)  # reading a large transcript shows a bar at a terminal
    if req.refused_parent_options:
        opts = req.refused_parent_options
        raise UsageError(f"`sessions compact` does not support the parent `sessions` "
                       f"{'options' if len(opts) > 1 else 'option'} {', '.join(opts)}; the gateway "
                       "resolves the target store from <key> and --agent.")
    max_lines = parse_strict_positive_integer(req.max_lines) if req.max_lines is not None else None
    if req.max_lines is not None and max_lines is None:
        raise UsageError(MAX_LINES_ERROR)
    gateway = GatewayOptions(url=req.url, token=req.token, password=req.password,
                             timeout_ms=parse_timeout(req.timeout, "compact"), offline=bool(req.local_only))
    _check_our_options(req, max_lines)
    try:
        _check_key(req.key)
        result = None
        if route(gateway, Fallback.UNREACHABLE_LOCAL) == "delegate":
            result = _via_gateway(req, env, max_lines, gateway)
        if result is None:
            return _run_offline(req, env, max_lines)
        _check_session_found(result, req)
        return _print_result(result, req)
    except CompactFailed as exc:
        return _print_failure(req, exc)


def _check_key(key: str) -> None:
    """An empty or blank KEY is bad usage (exit 2), with the words the Gateway uses for it."""
    from openclaw_cli.js.strings import js_trim

    if key == "":
        raise CompactFailed(EMPTY_KEY_ERROR, exit_code=2)
    if not js_trim(key):
        raise CompactFailed("key required", exit_code=2)


def _check_our_options(req: CompactRequest, max_lines: int | None) -> None:
    if req.summarizer is not None and req.summarizer not in SUMMARIZERS:
        raise UsageError(f"--summarizer must be one of {', '.join(SUMMARIZERS)} (got {req.summarizer!r}); "
                         "use --summary-file for a summary written elsewhere")
    if max_lines is not None and req.offline_only_options:
        raise UsageError(f"--max-lines trims the transcript without a summary; it cannot be combined with "
                         f"{', '.join(req.offline_only_options)}")
    if req.summary_file is not None and req.summarizer is not None:
        raise UsageError("--summary-file is the summary; it cannot be combined with --summarizer")
    model_opts = [f for f, v in (("--base-url", req.base_url), ("--model", req.model),
                                 ("--api-key-env", req.api_key_env)) if v is not None]
    if model_opts and req.summarizer != "openai":
        raise UsageError(f"{', '.join(model_opts)} only apply to --summarizer openai")
    if req.base_url is not None:
        from openclaw_cli.compact.summarizers.http import is_http_url

        if not is_http_url(req.base_url):
            raise UsageError(f"--base-url must be an http(s) URL, for example http://127.0.0.1:8000/v1 "
                             f"(got {req.base_url!r})")
    if req.url is not None and req.local_only:
        why = "--dry-run" if req.dry_run else "--offline" if req.offline else req.offline_only_options[0]
        raise UsageError(f"{why} works on the local files; it cannot be combined with --url")


# -- through the Gateway -------------------------------------------------------------------


def _scrubbed(req: CompactRequest, text: str) -> str:
    from openclaw_cli.ui.redact.secrets import scrub

    return scrub(text, req.secrets())


def _via_gateway(req: CompactRequest, env: MutableMapping[str, str], max_lines: int | None,
                 gateway: GatewayOptions) -> dict[str, Any] | None:
    """The Gateway's `sessions.compact` reply; None when no local Gateway runs (work offline)."""
    from openclaw_cli.config.load import load_config
    from openclaw_cli.gateway import GatewayError, GatewayRequestError, GatewayUnavailable
    from openclaw_cli.gateway.rpc import connection_if_running, sessions_compact

    cfg = load_config(env).data
    params: dict[str, Any] = {"key": req.key}
    if req.agent:
        params["agentId"] = req.agent
    if max_lines is not None:
        params["maxLines"] = max_lines
    try:
        connection = connection_if_running(
            "sessions.compact", env, cfg=cfg, action="the compaction", url=gateway.url, token=gateway.token,
            password=gateway.password, offline_hint="use --offline to compact the local files")
    except GatewayError as exc:
        raise CompactFailed(_scrubbed(req, exc.message), hint=exc.hint) from None
    if connection is None:
        return None
    try:
        return sessions_compact(params, connection=connection, timeout_ms=gateway.timeout_ms)
    except GatewayUnavailable as exc:
        if route(gateway, Fallback.UNREACHABLE_LOCAL, connection=connection, error=exc) == "local":
            return None
        raise CompactFailed(_scrubbed(req, exc.message), hint=OFFLINE_HINT) from None
    except GatewayRequestError as exc:
        # the Gateway's own words, as OpenClaw prints them ("Unknown agent id …")
        message = exc.server_message if exc.method == "sessions.compact" and exc.server_message else exc.message
        raise CompactFailed(_scrubbed(req, message), hint=exc.hint) from None
    except GatewayError as exc:
        raise CompactFailed(_scrubbed(req, exc.message), hint=exc.hint) from None


def _check_session_found(result: Any, req: CompactRequest) -> None:
    """The Gateway answers `ok: true, reason: "no sessionId"` for a key it has no session for
    (OpenClaw prints "No compaction needed" and exits 0); that is an error here."""
    if isinstance(result, Mapping) and result.get("ok") is True and result.get("reason") == "no sessionId":
        key = result.get("key") if isinstance(result.get("key"), str) else req.key
        raise CompactFailed(f"unknown session {key}: the Gateway has no session with this key (no sessionId)")


# -- on the files --------------------------------------------------------------------------


@dataclass
class LocalTarget:
    key: str
    agent_id: str
    store_path: str


def resolve_local_target(cfg: Mapping[str, Any], env: Mapping[str, str], key: str,
                         agent: str | None) -> LocalTarget:
    """The canonical key, agent and store the Gateway's `sessions.compact` would use."""
    from openclaw_cli.config.agents import (
        list_agent_ids,
        normalize_agent_id,
        resolve_default_agent_id,
        resolve_store_path,
        session_store_template,
    )
    from openclaw_cli.js.strings import js_trim
    from openclaw_cli.listing.store_key import resolve_session_store_key
    from openclaw_cli.store.keys import parse_agent_key

    if key == "":
        raise CompactFailed(EMPTY_KEY_ERROR)
    trimmed = js_trim(key)
    if not trimmed:
        raise CompactFailed("key required")
    canonical = resolve_session_store_key(cfg, trimmed, None)
    parsed = parse_agent_key(trimmed)
    requested = js_trim(agent) if agent else ""
    agent_ids = list_agent_ids(cfg)
    default_agent = normalize_agent_id(resolve_default_agent_id(cfg))

    def store_agent(k: str) -> str:
        if k in ("global", "unknown"):
            return default_agent
        parsed_key = parse_agent_key(k)
        return normalize_agent_id(parsed_key[0]) if parsed_key else default_agent

    if requested:
        agent_id = normalize_agent_id(requested)
        if agent_id not in agent_ids:
            raise CompactFailed(f'Unknown agent id "{agent}"')
        if parsed and normalize_agent_id(parsed[0]) != agent_id:
            raise CompactFailed("session key agent does not match agentId")
        if canonical != "global" and store_agent(canonical) != agent_id:
            raise CompactFailed("session key agent does not match agentId")
    elif parsed and canonical == "global" and normalize_agent_id(parsed[0]) not in agent_ids:
        raise CompactFailed(f'Unknown agent id "{parsed[0]}"')
    if canonical == "global" and requested:
        owner = normalize_agent_id(requested)
    elif canonical == "global" and parsed:
        owner = normalize_agent_id(parsed[0])
    else:
        owner = store_agent(canonical)
    return LocalTarget(key=canonical, agent_id=owner,
                       store_path=resolve_store_path(session_store_template(cfg), owner, env))


@dataclass
class ModelChoice:
    base_url: str
    model: str
    api_key_env: str | None


def _provider_config(cfg: Mapping[str, Any], provider: str) -> Mapping[str, Any]:
    models = object_at(cfg, "models")
    providers = object_at(models, "providers")
    found = providers.get(provider)
    return found if isinstance(found, Mapping) else {}


def _session_model(cfg: Mapping[str, Any], target: LocalTarget) -> str | None:
    """`provider/model` the Gateway would compact with (`compact.model.session_model_ref`)."""
    from openclaw_cli.compact.model import session_model_ref
    from openclaw_cli.store.sessions_json import load_store

    try:
        entry = load_store(target.store_path).store.get(target.key)
    except CliError:
        entry = None
    return session_model_ref(cfg, entry)


def choose_model(req: CompactRequest, cfg: Mapping[str, Any], target: LocalTarget,
                 env: MutableMapping[str, str]) -> ModelChoice:
    """Endpoint, model and key for `--summarizer openai`: the flags, else the session's configured
    provider. Raises UsageError when nothing usable is configured."""
    model = req.model.strip() if req.model and req.model.strip() else _session_model(cfg, target)
    provider_name = model.split("/", 1)[0] if model and "/" in model else None
    provider = _provider_config(cfg, provider_name) if provider_name else {}
    base_url = req.base_url.strip() if req.base_url and req.base_url.strip() else None
    if base_url is None and provider:
        api = provider.get("api")
        if isinstance(api, str) and api not in OPENAI_APIS:
            raise UsageError(f"--summarizer openai: provider {provider_name!r} uses api {api!r}, not an "
                             "OpenAI-compatible chat-completions endpoint; pass --base-url and --model")
        raw = provider.get("baseUrl")
        base_url = raw.strip() if isinstance(raw, str) and raw.strip() else None
    if not model or not base_url:
        raise UsageError("--summarizer openai needs a model: pass --base-url URL and --model ID, or configure "
                         "the session's provider in openclaw.json (models.providers.<id>.baseUrl, "
                         "agents.defaults.model.primary)")
    key_env = req.api_key_env
    if key_env is None and provider and base_url == (provider.get("baseUrl") or "").strip():
        configured = provider.get("apiKey")
        if isinstance(configured, str) and configured.strip() and "${" not in configured:
            env[CONFIG_KEY_ENV] = configured.strip()
            key_env = CONFIG_KEY_ENV
    return ModelChoice(base_url=base_url, model=model, api_key_env=key_env)


def _run_offline(req: CompactRequest, env: MutableMapping[str, str], max_lines: int | None) -> int:
    from openclaw_cli.compact.offline import run_offline_compact
    from openclaw_cli.config import paths
    from openclaw_cli.config.load import load_config

    cfg = load_config(env).data
    target = resolve_local_target(cfg, env, req.key, req.agent)
    from openclaw_cli.config.agents import Target
    from openclaw_cli.store.era import refuse_sqlite

    try:
        refuse_sqlite(cfg, [Target(target.agent_id, target.store_path)], "compact", env,
                      change=None if req.dry_run else f"compact {target.key}",
                      flag="--offline" if req.offline or req.offline_only_options else None)
    except StoreError as refusal:  # a compaction's failures print as compaction failures
        raise CompactFailed(refusal.message, hint=refusal.hint) from None
    summary_text = None
    if req.summary_file is not None:
        from openclaw_cli.compact.summarizers.text import read_summary_text

        summary_text = read_summary_text(req.summary_file)
    choice = choose_model(req, cfg, target, env) if req.summarizer == "openai" else None
    try:
        result = run_offline_compact(
            key=target.key, store_path=target.store_path, state_dir=paths.resolve_state_dir(env),
            agent=target.agent_id, max_lines=max_lines,
            summarizer=None if summary_text is not None else (req.summarizer or "extractive"),
            summary_text=summary_text, base_url=choice.base_url if choice else None,
            model=choice.model if choice else None, api_key_env=choice.api_key_env if choice else None,
            dry_run=req.dry_run, config=cfg, env=env)
    except CliError as exc:
        from openclaw_cli.ui.redact.secrets import scrub

        model_key = env.get(choice.api_key_env) if choice and choice.api_key_env else None
        message = scrub(_scrubbed(req, exc.message), [model_key])
        raise CompactFailed(message, exit_code=exc.exit_code, hint=exc.hint) from None
    finally:
        env.pop(CONFIG_KEY_ENV, None)
    offline = result.pop("offline", None) or {}
    _warn(offline)
    if req.dry_run:
        return _print_dry_run(result, offline, req)
    return _print_result(result, req)


# -- printing ------------------------------------------------------------------------------


def _stderr(text: str) -> None:
    from openclaw_cli.ui import console as output

    output.error_line(text)


def _warn(offline: Mapping[str, Any]) -> None:
    from openclaw_cli.ui import console as output

    skipped = offline.get("skippedLines")
    if skipped:
        output.warn(f"skipped {skipped} malformed line{'s' if skipped != 1 else ''} in "
                    f"{offline.get('transcript')}")
    stale = offline.get("staleLockRemoved")
    if stale:
        output.note(f"removed a stale transcript lock ({'; '.join(stale)})")
    if offline.get("note"):
        output.note(offline["note"])


def _print_failure(req: CompactRequest, exc: CompactFailed) -> int:
    from openclaw_cli.ui import console as output

    if req.json:
        output.print_json({"ok": False, "key": req.key, "error": exc.message})
    else:
        _stderr(f"Compaction failed: {exc.message}")
    if exc.hint:
        output.hint(exc.hint)
    return exc.exit_code


def _num(value: Any) -> str:
    from openclaw_cli.js.strings import js_number_to_string

    return js_number_to_string(value)


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def describe(result: Mapping[str, Any], fallback_key: str) -> str:
    """The line OpenClaw prints for a successful reply."""
    key = result.get("key") if result.get("key") is not None else fallback_key
    inner = object_at(result, "result")
    if not result.get("compacted"):
        details = object_at(inner, "details")
        if details.get("pending") is True:
            return (f"Compaction started for session {key} (pending; completion is reported "
                    "asynchronously by the backend).")
        reason = result.get("reason")
        return f"No compaction needed for session {key}{f' ({reason})' if reason else ''}."
    before, after = inner.get("tokensBefore"), inner.get("tokensAfter")
    detail = ""
    if _is_number(before) and _is_number(after):
        detail = f" ({_num(before)} → {_num(after)} tokens)"
    elif _is_number(result.get("kept")):
        detail = f" (kept {_num(result['kept'])} lines)"
    return f"Compacted session {key}{detail}."


def _print_result(result: Any, req: CompactRequest) -> int:
    from openclaw_cli.ui import console as output

    failed = not (isinstance(result, Mapping) and result.get("ok") is True)
    if req.json:
        output.print_json(result)
        return 1 if failed else 0
    reply = result if isinstance(result, Mapping) else {}
    if failed:
        key = reply.get("key") if reply.get("key") is not None else req.key
        reason = reply.get("reason")
        _stderr(f"Compaction failed for session {key}{f': {reason}' if reason else ''}.")
        return 1
    lines = [describe(reply, req.key)]
    if reply.get("archived"):
        lines.append(f"Archived transcript: {reply['archived']}")
    output.print_console_lines(lines, _logging_config())
    return 0


def _plan_lines(result: Mapping[str, Any], offline: Mapping[str, Any]) -> list[str]:
    key = result.get("key")
    lines = [f"Session: {key}"]
    if offline.get("transcript"):
        lines.append(f"Transcript: {offline['transcript']}")
    if offline.get("mode") == "max-lines":
        if result.get("compacted"):
            lines.append(f"Would keep {_num(result.get('kept'))} lines (header included) and archive the "
                         f"original as {offline.get('wouldArchive')}.")
        else:
            lines.append(f"Nothing to trim: {_num(result.get('kept'))} lines already fit.")
        return lines
    summarizer = offline.get("summarizer")
    if summarizer:
        safeguard = " (compaction.mode safeguard: staged summaries, quality guard)" \
            if offline.get("compactionMode") == "safeguard" else ""
        lines.append(f"Summarizer: {summarizer}{safeguard}")
    if "hardened" not in offline:
        reason = result.get("reason")
        lines.append(f"Nothing to compact{f': {reason}' if reason else ''}.")
        return lines
    lines += _source_lines(offline)
    lines += _cut_lines(offline)
    lines += _token_lines(result, offline)
    if offline.get("requests") is not None:
        bound = "up to " if offline.get("compactionMode") == "safeguard" else ""
        lines.append(f"Model requests: {bound}{_num(offline['requests'])}")
    if result.get("ok") is not True:
        lines.append(f"Would not compact: {result.get('reason')}.")
    return lines


def _source_lines(offline: Mapping[str, Any]) -> list[str]:
    """How the transcript is read: a format migration, lines read as OpenClaw repairs them."""
    lines = []
    if offline.get("migratedFrom") is not None:
        lines.append(f"Format: version {_num(offline['migratedFrom'])}; the run rewrites it as version 3 first, "
                     "as OpenClaw does")
    if offline.get("repairedLines"):
        lines.append(f"Repaired on read: {_num(offline['repairedLines'])} lines, read as the Gateway's session "
                     "repair reads them (the file keeps them as they are)")
    return lines


def _cut_lines(offline: Mapping[str, Any]) -> list[str]:
    prefix = offline.get("turnPrefixMessages") or 0
    tail = offline.get("tailMessages") or 0
    parts = f"{_num(offline.get('summarizedMessages', 0))} messages"
    parts += f" + {_num(prefix)} turn-prefix messages" if prefix else ""
    parts += f" (the {_num(tail)} of the recent tail included)" if tail else ""
    lines = []
    if offline.get("hardened"):
        lines.append("Cut point: none; no recent tail is kept (agents.defaults.compaction.keepRecentTokens is not "
                     "set; the Gateway does the same)")
    else:
        split = " (splits a turn: its start is summarised separately)" if offline.get("splitTurn") else ""
        lines.append(f"Cut point: first kept entry {offline['cutEntryId']}{split}; keepRecentTokens "
                     f"{_num(offline.get('keepRecentTokens'))}")
    lines.append(f"Would summarise: {parts}, about {_num(offline.get('summarizedTokens', 0))} tokens")
    if offline.get("droppedTailMessages"):
        lines.append(f"Would drop from the context: the {_num(offline['droppedTailMessages'])} messages of the "
                     "recent tail (as the Gateway does)")
    lines.append(f"Would keep: {_num(offline.get('keptEntries', 0))} entries, about "
                 f"{_num(offline.get('keptTokens', 0))} tokens")
    if offline.get("appendsFirst"):
        lines.append(f"Would append first: {', '.join(offline['appendsFirst'])} (the Gateway records them "
                     "before its compaction)")
    return lines


def _token_lines(result: Mapping[str, Any], offline: Mapping[str, Any]) -> list[str]:
    inner = object_at(result, "result")
    before, after = inner.get("tokensBefore"), inner.get("tokensAfter")
    if not _is_number(before):
        return []
    if _is_number(after):
        line = f"Tokens: {_num(before)} before → {_num(after)} after"
    elif offline.get("requests") is not None:
        line = f"Tokens: {_num(before)} before; after: known once the model has answered"
    else:
        line = f"Tokens: {_num(before)} before; after: not estimated"
    lines = [line]
    estimated = offline.get("estimatedTokensBefore")
    if _is_number(estimated):
        text = f"Estimate: the messages hold about {_num(estimated)} tokens"
        if _is_number(offline.get("estimatedTokensAfter")):
            text += f", about {_num(offline['estimatedTokensAfter'])} after"
        lines.append(text + " (chars/4; a compaction is only written when it shrinks them)")
        if before == 0 and estimated:
            lines.append("Note: tokensBefore is OpenClaw's count, the usage the newest model reply reports plus the "
                         "messages after it; that reply reports 0 (for example a reply the Gateway injected)")
    return lines


def _print_dry_run(result: dict[str, Any], offline: Mapping[str, Any], req: CompactRequest) -> int:
    from openclaw_cli.ui import console as output

    would = bool(result.get("compacted")) or result.get("reason") == "dry run"
    ok = result.get("ok") is True
    if req.json:
        report: dict[str, Any] = {"ok": ok, "key": result.get("key"), "dryRun": True, "wouldCompact": would}
        for name in ("reason", "kept", "result"):
            if name in result and not (name == "reason" and result[name] == "dry run"):
                report[name] = result[name]
        report["plan"] = {k: v for k, v in offline.items() if k not in ("dryRun", "entry")}
        output.print_json(report)
        return 0 if ok else 1
    head = "Dry run: nothing was written."
    if output.color_enabled(sys.stdout):
        head = output.ansi_style("heading", head)
    output.print_lines([head, *_plan_lines(result, offline)])
    return 0 if ok else 1


def _logging_config() -> Mapping[str, Any] | None:
    """The config whose `logging` section decides console redaction (None when unreadable)."""
    from openclaw_cli.config.load import load_config

    try:
        return load_config().data
    except Exception:
        return None

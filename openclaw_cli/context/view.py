"""Build what `openclaw context` shows: pick the report (Gateway, persisted run, or estimate) and
gather the session numbers, transcript counts and optional tokenizer counts beside it."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from openclaw_cli.context.render import ContextView
from openclaw_cli.errors import CliError
from openclaw_cli.context.target import Target

log = logging.getLogger(__name__)


@dataclass
class GatewayOptions:
    """How to reach a running Gateway; `offline` never tries, an explicit URL must work."""

    offline: bool = False
    url: str | None = None
    token: str | None = None
    password: str | None = None
    timeout_ms: int | None = None


@dataclass
class Loaded:
    target: Target
    report: dict[str, Any]
    origin: str  # "gateway", "store" or "estimate"
    bootstrap: list | None = None
    injected: list | None = None
    skills_prompt: str | None = None


@dataclass
class LiveUsage:
    """What a running Gateway's `sessions.usage` said about the session."""

    row: Mapping[str, Any] | None  # the session's row; None when the Gateway lists none for the key

    @property
    def report(self) -> dict[str, Any] | None:
        """The persisted run report (`contextWeight` with source "run"), if the row has one."""
        weight = self.row.get("contextWeight") if self.row is not None else None
        return weight if isinstance(weight, dict) and weight.get("source") == "run" else None


def live_usage(target: Target, options: GatewayOptions) -> LiveUsage | None:
    """The Gateway's answer for the session (`sessions.usage` with `includeContextWeight`,
    read-only), or None when no Gateway answers."""
    from openclaw_cli.gateway import GatewayError, rpc

    if options.offline:
        return None
    explicit = bool(options.url)
    try:
        connection = rpc.connection_for("sessions.usage", dict(target.env), url=options.url,
                                        token=options.token, password=options.password, strict=False)
        reply = rpc.sessions_usage({"key": target.session_key, "includeContextWeight": True},
                                   connection=connection, timeout_ms=options.timeout_ms or 5000)
    except GatewayError as exc:
        if explicit:
            raise
        log.info("no Gateway report (%s); reading from disk", exc)
        return None
    except Exception as exc:  # noqa: BLE001 - auto mode never fails because of the Gateway
        if explicit:
            raise
        log.info("no Gateway report (%s); reading from disk", exc)
        return None
    rows = reply.get("sessions") if isinstance(reply, Mapping) else None
    for row in rows if isinstance(rows, list) else []:
        if isinstance(row, Mapping) and row.get("key") == target.session_key:
            return LiveUsage(row)
    return LiveUsage(None)


def check_session_known(target: Target, live: LiveUsage | None) -> None:
    """A `--session KEY` that neither the store nor a running Gateway knows is an error (exit 1);
    the default main session may not exist yet (its estimate is what a first run would get)."""
    if not target.explicit_key or target.entry is not None or (live is not None and live.row is not None):
        return
    either = "; the running Gateway reports none either" if live is not None else ""
    raise CliError(f"unknown session {target.session_key} in {target.store_path}{either}")


def build_estimate(target: Target) -> Loaded:
    """The on-demand estimate from disk (workspace files, limits, skills snapshot)."""
    from openclaw_cli.context import bootstrap as bs
    from openclaw_cli.context.report import build_estimate_report
    from openclaw_cli.context.skills import folder_skill_names, snapshot_prompt
    from openclaw_cli.context.target import model_ref, sandbox_status
    from openclaw_cli.context.workspace import resolve_bootstrap_files

    max_chars = bs.resolve_max_chars(target.cfg, target.agent_id)
    total = bs.resolve_total_max_chars(target.cfg, target.agent_id)
    files = resolve_bootstrap_files(target.cfg, target.agent_id, target.session_key, target.workspace_dir)
    injected = bs.build_context_files(files, max_chars, total)
    prompt = snapshot_prompt(target.entry)
    provider, model = model_ref(target)
    report = build_estimate_report(
        session_id=target.session_id, session_key=target.session_key, provider=provider, model=model,
        workspace_dir=target.workspace_dir, max_chars=max_chars, total_max_chars=total,
        sandbox=sandbox_status(target), bootstrap=files, injected=injected, skills_prompt=prompt)
    if prompt is None:
        from openclaw_cli.config import paths

        names = folder_skill_names(target.workspace_dir, paths.resolve_state_dir(target.env))
        if names:
            report["skills"]["entries"] = [{"name": n, "blockChars": None} for n in names]
    return Loaded(target, report, "estimate", files, injected, prompt)


def load_report(target: Target, options: GatewayOptions) -> Loaded:
    live = live_usage(target, options)
    check_session_known(target, live)
    if live is not None and live.report is not None:
        return Loaded(target, live.report, "gateway")
    persisted = (target.entry or {}).get("systemPromptReport")
    if isinstance(persisted, dict) and persisted.get("source") == "run":
        return Loaded(target, persisted, "store")
    return build_estimate(target)


def session_json(entry: Mapping[str, Any] | None, context_tokens: int | None) -> dict[str, Any]:
    entry = entry or {}
    return {"totalTokens": entry.get("totalTokens"), "totalTokensFresh": entry.get("totalTokensFresh"),
            "inputTokens": entry.get("inputTokens"), "outputTokens": entry.get("outputTokens"),
            "contextTokens": context_tokens}


def resolve_context_tokens(loaded: Loaded) -> int | None:
    from openclaw_cli.context.target import context_window, model_ref

    provider, model = model_ref(loaded.target)
    if loaded.origin != "estimate":
        provider = loaded.report.get("provider") or provider
        model = loaded.report.get("model") or model
    return context_window(loaded.target, provider, model)


def make_view(loaded: Loaded, *, detail: bool, tokenizer: str | None = None,
              extras: bool = True) -> ContextView:
    from openclaw_cli.context import bootstrap as bs

    target = loaded.target
    view = ContextView(report=loaded.report, entry=target.entry, context_tokens=resolve_context_tokens(loaded),
                       max_chars=bs.resolve_max_chars(target.cfg, target.agent_id),
                       total_max_chars=bs.resolve_total_max_chars(target.cfg, target.agent_id),
                       workspace_dir=target.workspace_dir,
                       tokenizer=tokenizer if tokenizer and tokenizer != "estimate" else None)
    encoder = None
    if view.tokenizer:
        from openclaw_cli.context.tokenizer import get_encoding

        encoder = get_encoding(view.tokenizer)
        _exact_counts(loaded, view, encoder)
    stats = None
    if detail:
        path = target.transcript_path()
        if not (target.session_id or "").strip():
            view.compactable = "no active transcript session"
        else:
            if path is not None:
                from openclaw_cli.context.transcript import scan_transcript
                from openclaw_cli.context.tokenizer import message_counter

                stats = scan_transcript(path, message_counter(encoder) if encoder else None)
            view.compactable = (stats.real, stats.total) if stats and stats.total else "no transcript messages found"
    if extras:
        from openclaw_cli.context.extras import extra_lines

        view.extras = extra_lines(loaded, view, stats, detail=detail)
    return view


def _exact_counts(loaded: Loaded, view: ContextView, encoder: Any) -> None:
    """Tokenizer counts for the texts this tool can see: injected files and the skills prompt."""
    from openclaw_cli.context.units import format_int, from_units, js_trim_end, to_units

    estimate = loaded if loaded.origin == "estimate" else build_estimate(loaded.target)
    rows = {r["name"]: r for r in estimate.report["injectedWorkspaceFiles"]}
    injected = {i.path: i.units for i in estimate.injected or []}
    for file in estimate.bootstrap or []:
        row = rows.get(file.name)
        shown = next((f for f in loaded.report.get("injectedWorkspaceFiles") or [] if f.get("name") == file.name), None)
        if row is None or shown is None or file.missing:
            continue
        if (shown.get("rawChars"), shown.get("injectedChars")) != (row["rawChars"], row["injectedChars"]):
            view.exact[f"file:{file.name}"] = "changed since the run"
            continue
        raw_text = from_units(js_trim_end(to_units(file.content or "")))
        inj = injected.get(file.path)
        view.exact[f"file:{file.name}"] = (f"raw {format_int(len(encoder.encode_ordinary(raw_text)))} tok | injected "
                                           f"{format_int(len(encoder.encode_ordinary(from_units(inj))) if inj else 0)} tok")
    prompt = estimate.skills_prompt
    skills = loaded.report.get("skills") or {}
    if prompt is not None and len(to_units(prompt)) == skills.get("promptChars"):
        view.exact["skills"] = f"{format_int(len(encoder.encode_ordinary(prompt)))} tok"

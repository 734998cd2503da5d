"""`openclaw context list|detail|json|map`: the report from a running Gateway, the session's last run,
or an estimate from disk; then printed."""

from __future__ import annotations

import sys
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from openclaw_cli.commands.gateway import Fallback, GatewayOptions, route
from openclaw_cli.context.target import Target
from openclaw_cli.context.view import Loaded
from openclaw_cli.errors import AgentDbRefusedError, CliError, UsageError
from openclaw_cli.logs import get_logger

log = get_logger(__name__)


def run_context_command(mode: str, *, session: str | None, agent: str | None, tokenizer: str, offline: bool,
                        plain: bool, url: str | None, token: str | None, password: str | None,
                        timeout: str | None, output: str | None = None) -> None:
    """Resolve the session, load the report (Gateway, persisted run or estimate), print it."""
    from openclaw_cli.commands.gateway import parse_timeout
    from openclaw_cli.context.tokenizer import TOKENIZERS

    if tokenizer not in TOKENIZERS:
        raise UsageError(f"--tokenizer must be one of {', '.join(TOKENIZERS)} (got {tokenizer!r})")
    if mode == "map":
        from openclaw_cli.context.mapview import check_output_name

        check_output_name(output)
    options = GatewayOptions(offline=offline, url=url, token=token, password=password,
                             timeout_ms=parse_timeout(timeout, "context"))
    from openclaw_cli.ui import progress

    progress.enable(mode != "json")  # reading a large transcript shows a bar at a terminal
    try:
        _show(mode, options, session=session, agent=agent, tokenizer=tokenizer, plain=plain, output=output)
    except AgentDbRefusedError as err:
        err.json_output = mode == "json"  # its failure document on stdout, where the report would be
        raise


def _show(mode: str, options: GatewayOptions, *, session: str | None, agent: str | None, tokenizer: str,
          plain: bool, output: str | None) -> None:
    from openclaw_cli.context.target import resolve_target
    from openclaw_cli.gateway import GatewayError

    target = resolve_target(session=session, agent=agent)
    try:
        loaded = load_report(target, options)
    except GatewayError as exc:
        raise CliError(f"Gateway: {exc}") from None
    if mode == "json":
        from openclaw_cli.context.view import resolve_context_tokens, session_json
        from openclaw_cli.ui.console import print_json

        print_json({"report": loaded.report, "session": session_json(target.entry, resolve_context_tokens(loaded),
                                                                  sqlite_era=target.sqlite_path is not None)})
        return
    if mode == "map":
        from openclaw_cli.context.mapview import run_map

        run_map(loaded, output)
        return
    from openclaw_cli.context.render import render_detail, render_list
    from openclaw_cli.context.view import make_view

    view = make_view(loaded, detail=mode == "detail", tokenizer=tokenizer, extras=not plain)
    text = render_detail(view) if mode == "detail" else render_list(view)
    sys.stdout.write(text + "\n")


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
    from openclaw_cli.gateway import rpc

    if route(options, Fallback.ANY_FAILURE) == "local":
        return None
    try:
        connection = rpc.connection_for("sessions.usage", dict(target.env), url=options.url,
                                        token=options.token, password=options.password, strict=False)
        reply = rpc.sessions_usage({"key": target.session_key, "includeContextWeight": True},
                                   connection=connection, timeout_ms=options.timeout_ms or 5000)
    except Exception as exc:
        if route(options, Fallback.ANY_FAILURE, error=exc) == "fail":
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
    raise CliError(f"unknown session {target.session_key} in {target.store_display}{either}")


def load_report(target: Target, options: GatewayOptions) -> Loaded:
    """The report to show: the running Gateway's, else the one the session's last run persisted,
    else an estimate from disk."""
    from openclaw_cli.context.view import build_estimate

    live = live_usage(target, options)
    check_session_known(target, live)
    if live is not None and live.report is not None:
        return Loaded(target, live.report, "gateway")
    persisted = (target.entry or {}).get("systemPromptReport")
    if isinstance(persisted, dict) and persisted.get("source") == "run":
        return Loaded(target, persisted, "store")
    return build_estimate(target)

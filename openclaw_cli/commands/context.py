"""`openclaw context list|detail|json|map`: resolve the session, load the report, print it."""

from __future__ import annotations

import sys

from openclaw_cli.errors import CliError, UsageError


def _timeout_ms(raw: str | None) -> int | None:
    if raw is None:
        return None
    try:
        value = int(str(raw).strip())
    except ValueError:
        raise UsageError(f"--timeout must be a number of milliseconds (got {raw!r})") from None
    if value <= 0:
        raise UsageError("--timeout must be positive")
    return value


def run_context_command(mode: str, *, session: str | None, agent: str | None, tokenizer: str, offline: bool,
                        plain: bool, url: str | None, token: str | None, password: str | None,
                        timeout: str | None, output: str | None = None) -> None:
    from openclaw_cli.context.view import GatewayOptions, load_report, make_view, session_json
    from openclaw_cli.context.target import resolve_target
    from openclaw_cli.context.tokenizer import TOKENIZERS
    from openclaw_cli.gateway import GatewayError

    if tokenizer not in TOKENIZERS:
        raise UsageError(f"--tokenizer must be one of {', '.join(TOKENIZERS)} (got {tokenizer!r})")
    if mode == "map":
        from openclaw_cli.context.mapview import check_output_name

        check_output_name(output)
    options = GatewayOptions(offline=offline, url=url, token=token, password=password,
                             timeout_ms=_timeout_ms(timeout))
    target = resolve_target(session=session, agent=agent)
    try:
        loaded = load_report(target, options)
    except GatewayError as exc:
        raise CliError(f"Gateway: {exc}") from None
    if mode == "json":
        from openclaw_cli.context.view import resolve_context_tokens
        from openclaw_cli.ui.console import print_json

        print_json({"report": loaded.report, "session": session_json(target.entry, resolve_context_tokens(loaded))})
        return
    if mode == "map":
        from openclaw_cli.context.mapview import run_map

        run_map(loaded, output)
        return
    from openclaw_cli.context.render import render_detail, render_list

    view = make_view(loaded, detail=mode == "detail", tokenizer=tokenizer, extras=not plain)
    text = render_detail(view) if mode == "detail" else render_list(view)
    sys.stdout.write(text + "\n")

"""Hand `sessions cleanup` to a running Gateway, exactly where OpenClaw's CLI does."""

from __future__ import annotations

from collections.abc import MutableMapping
from dataclasses import dataclass



@dataclass
class GatewayOptions:
    url: str | None = None
    port: int | None = None
    token: str | None = None
    password: str | None = None
    timeout_ms: int | None = None


def cleanup_via_gateway(params: dict, env: MutableMapping[str, str], opts: GatewayOptions) -> dict | None:
    """`sessions.cleanup` on the Gateway; None when no Gateway runs (nothing listening).

    Anything that answers but refuses is an error: writing locally would race the Gateway,
    which owns the store while it runs.
    """
    from openclaw_cli.config.load import load_config
    from openclaw_cli.gateway import GatewayUnavailable
    from openclaw_cli.gateway.rpc import OFFLINE_REPAIR_HINT, connection_if_running, sessions_cleanup

    cfg = load_config(env).data
    connection = connection_if_running(
        "sessions.cleanup", env, cfg=cfg, action="cleanup", url=opts.url, port=opts.port, token=opts.token,
        password=opts.password, offline_hint="use --store <path> for an explicit offline repair")
    if connection is None:
        return None
    try:
        kwargs = {} if opts.timeout_ms is None else {"timeout_ms": opts.timeout_ms}
        return sessions_cleanup(params, connection=connection, offline_hint=OFFLINE_REPAIR_HINT, **kwargs)
    except GatewayUnavailable:
        return None

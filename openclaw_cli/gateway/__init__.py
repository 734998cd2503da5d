"""Client for a running OpenClaw Gateway (WebSocket RPC); websockets is imported only on connect."""

from __future__ import annotations

from openclaw_cli.gateway.errors import (
    GatewayAuthError,
    GatewayClosed,
    GatewayCredentialsRequired,
    GatewayError,
    GatewayExplicitAuthRequired,
    GatewayInsecureUrl,
    GatewayMethodUnsupported,
    GatewayNotAGateway,
    GatewayProtocolError,
    GatewayRefused,
    GatewayRemoteUrlMissing,
    GatewayRequestError,
    GatewaySecretRefError,
    GatewaySetupError,
    GatewayTimeout,
    GatewayUnavailable,
    GatewayUnreachable,
)

__all__ = [
    "GatewayAuthError",
    "GatewayClosed",
    "GatewayCredentialsRequired",
    "GatewayError",
    "GatewayExplicitAuthRequired",
    "GatewayInsecureUrl",
    "GatewayMethodUnsupported",
    "GatewayNotAGateway",
    "GatewayProtocolError",
    "GatewayRefused",
    "GatewayRemoteUrlMissing",
    "GatewayRequestError",
    "GatewaySecretRefError",
    "GatewaySetupError",
    "GatewayTimeout",
    "GatewayUnavailable",
    "GatewayUnreachable",
]

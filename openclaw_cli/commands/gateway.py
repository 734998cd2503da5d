"""How a command reaches a running Gateway."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class GatewayOptions:
    url: str | None = None
    port: int | None = None
    token: str | None = None
    password: str | None = None
    timeout_ms: int | None = None

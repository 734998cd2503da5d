"""How a command reaches a running Gateway: the one options shape, the `--port`/`--timeout` parsers and the delegate-or-local decision."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Literal

from openclaw_cli.errors import UsageError

if TYPE_CHECKING:
    from openclaw_cli.gateway.discovery import GatewayConnection

COMPACT_TIMEOUT_ERROR = "--timeout must be a positive integer (milliseconds)."
CONTEXT_TIMEOUT_ERROR = "--timeout must be a number of milliseconds (got {raw!r})"
CONTEXT_TIMEOUT_NOT_POSITIVE = "--timeout must be positive"


@dataclass
class GatewayOptions:
    """How to reach a running Gateway; `offline` never tries, an explicit `url` must answer."""

    url: str | None = None
    port: int | None = None
    token: str | None = None
    password: str | None = None
    timeout_ms: int | None = None
    offline: bool = False


class Fallback(Enum):
    """When a command that did not get its work done by the Gateway may still do it on the files here."""

    # `sessions cleanup`: a Gateway that cannot be reached (nothing listening) is no Gateway.
    UNREACHABLE = "unreachable"
    # `compact`: the same, but only at a local address; a remote Gateway that is down is an error.
    UNREACHABLE_LOCAL = "unreachable at a local address"
    # `context` (read-only): any failure is "no report from a Gateway", unless --url named one.
    ANY_FAILURE = "any failure"


Route = Literal["delegate", "local", "fail"]


def route(options: GatewayOptions, fallback: Fallback, *, connection: GatewayConnection | None = None,
          error: Exception | None = None) -> Route:
    """The one decision: hand the work to the Gateway, do it here, or fail (never write beside a
    Gateway that answers but refuses us).

    Asked before connecting (only `options`), then with the `error` that connecting or the call
    raised (`connection`: the one the call used). A connection step that finds nothing listening
    (`connection_if_running` returning None) means no Gateway: the caller works here.
    """
    if options.offline:
        return "local"
    if error is None:
        return "delegate"
    from openclaw_cli.gateway import GatewayUnavailable
    from openclaw_cli.gateway.discovery import SOURCE_LOCAL, SOURCE_REMOTE_MISSING

    if fallback is Fallback.ANY_FAILURE:
        return "fail" if options.url else "local"
    if not isinstance(error, GatewayUnavailable):
        return "fail"
    if fallback is Fallback.UNREACHABLE:
        return "local"
    local = connection is not None and connection.target.url_source in (SOURCE_LOCAL, SOURCE_REMOTE_MISSING)
    return "local" if local else "fail"


def parse_port(raw: str | None) -> int | None:
    """`--port PORT`: None when absent; a usage error (exit 2) when it is no TCP port."""
    if raw is None:
        return None
    from openclaw_cli.gateway.discovery import parse_port_option

    return parse_port_option(raw)


def parse_timeout(raw: str | None, command: str) -> int | None:
    """`--timeout MS` as `command` reads it: None when absent; a usage error (exit 2) in its words.

    The rules differ on purpose: `sessions cleanup` reads it as OpenClaw's parseTimeoutMs does
    (" +5000 " is 5000), `compact` as OpenClaw's `sessions compact` (a strict positive safe
    integer), `context` (our own command) as any positive integer.
    """
    if raw is None:
        return None
    return _TIMEOUT_RULES[command](raw)


def _cleanup_timeout(raw: str) -> int | None:
    from openclaw_cli.gateway.discovery import parse_timeout_ms

    return parse_timeout_ms(raw, None)


def _compact_timeout(raw: str) -> int:
    from openclaw_cli.listing.options import parse_strict_positive_integer

    value = parse_strict_positive_integer(raw)
    if value is None:
        raise UsageError(COMPACT_TIMEOUT_ERROR)
    return value


def _context_timeout(raw: str) -> int:
    try:
        value = int(str(raw).strip())
    except ValueError:
        raise UsageError(CONTEXT_TIMEOUT_ERROR.format(raw=raw)) from None
    if value <= 0:
        raise UsageError(CONTEXT_TIMEOUT_NOT_POSITIVE)
    return value


_TIMEOUT_RULES = {"sessions cleanup": _cleanup_timeout, "compact": _compact_timeout, "context": _context_timeout}

"""The `cron` section of OpenClaw 2026.7.1's config schema."""

from collections.abc import Iterable
from typing import Annotated, Literal

from openclaw_cli.config.sections.base import (
    BAD_DURATION,
    BAD_SIZE,
    NonNegInt,
    NotFalse,
    PosInt,
    StrOrNum,
    duration_ok,
    integer,
    size_ok,
)
from openclaw_cli.config.sections.secrets import SecretInput
from openclaw_cli.config.zod import ONE_OF, UNION, UNSET, Checked, Refined, Sized, Strict


def _is_http_url(value: str) -> bool:
    from urllib.parse import urlsplit

    try:
        parts = urlsplit(value)
    except ValueError:
        return False
    return parts.scheme in ("http", "https") and bool(parts.netloc)


RetryOn = Annotated[Literal["rate_limit", "overloaded", "network", "timeout", "server_error"], ONE_OF]
CronMode = Annotated[Literal["announce", "webhook"], ONE_OF]


class CronTriggers(Strict):
    enabled: bool = UNSET
    minIntervalMs: PosInt = UNSET


class CronRetry(Strict):
    maxAttempts: Annotated[float, integer(ge=0, le=10)] = UNSET
    backoffMs: Annotated[list[NonNegInt], Sized(1, 10)] = UNSET
    retryOn: Annotated[list[RetryOn], Sized(1)] = UNSET


class CronRunLog(Strict):
    maxBytes: StrOrNum = UNSET
    keepLines: PosInt = UNSET


class CronFailureAlert(Strict):
    enabled: bool = UNSET
    after: Annotated[float, integer(ge=1)] = UNSET
    cooldownMs: NonNegInt = UNSET
    includeSkipped: bool = UNSET
    mode: CronMode = UNSET
    accountId: str = UNSET


class CronFailureDestination(Strict):
    channel: str = UNSET
    to: str = UNSET
    accountId: str = UNSET
    mode: CronMode = UNSET


class Cron(Refined):
    enabled: bool = UNSET
    store: str = UNSET
    maxConcurrentRuns: PosInt = UNSET
    triggers: CronTriggers = UNSET
    retry: CronRetry = UNSET
    webhook: Annotated[str, Checked(_is_http_url, "Expected http:// or https:// URL")] = UNSET
    webhookToken: SecretInput = UNSET
    sessionRetention: Annotated[str | NotFalse, UNION] = UNSET
    runLog: CronRunLog = UNSET
    failureAlert: CronFailureAlert = UNSET
    failureDestination: CronFailureDestination = UNSET

    @classmethod
    def refine(cls, value: dict) -> Iterable[tuple[tuple, str]]:
        retention = value.get("sessionRetention", False)
        if retention is not False and not duration_ok(retention, "h"):
            yield ("sessionRetention",), BAD_DURATION
        run_log = value.get("runLog")
        if isinstance(run_log, dict) and "maxBytes" in run_log and not size_ok(run_log["maxBytes"]):
            yield ("runLog", "maxBytes"), BAD_SIZE

"""The `acp` section of OpenClaw 2026.7.1's config schema."""

from typing import Annotated, Literal

from openclaw_cli.config.sections.base import NonNegInt, PosInt, StrList
from openclaw_cli.config.zod import ONE_OF, UNSET, Strict


class AcpDispatch(Strict):
    enabled: bool = UNSET


class AcpStream(Strict):
    coalesceIdleMs: NonNegInt = UNSET
    maxChunkChars: PosInt = UNSET
    repeatSuppression: bool = UNSET
    deliveryMode: Annotated[Literal["live", "final_only"], ONE_OF] = UNSET
    hiddenBoundarySeparator: Annotated[Literal["none", "space", "newline", "paragraph"], ONE_OF] = UNSET
    maxOutputChars: PosInt = UNSET
    maxSessionUpdateChars: PosInt = UNSET
    tagVisibility: dict[str, bool] = UNSET


class AcpRuntimeDefaults(Strict):
    ttlMinutes: PosInt = UNSET
    installCommand: str = UNSET


class Acp(Strict):
    enabled: bool = UNSET
    dispatch: AcpDispatch = UNSET
    backend: str = UNSET
    fallbacks: StrList = UNSET
    defaultAgent: str = UNSET
    allowedAgents: StrList = UNSET
    maxConcurrentSessions: PosInt = UNSET
    stream: AcpStream = UNSET
    runtime: AcpRuntimeDefaults = UNSET

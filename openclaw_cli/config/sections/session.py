"""The `session` section of OpenClaw 2026.7.1's config schema."""

from collections.abc import Iterable
from typing import Annotated, Literal

from openclaw_cli.config.sections.base import (
    BAD_DURATION,
    BAD_SIZE,
    AllowDeny,
    ChatType,
    DmScope,
    NotFalse,
    Num,
    PosInt,
    StrList,
    StrOrNum,
    duration_ok,
    integer,
    size_ok,
)
from openclaw_cli.config.zod import ONE_OF, UNION, UNSET, JsNumber, Refined, Strict, required


class Reset(Strict):
    mode: Annotated[Literal["daily", "idle"], ONE_OF] = UNSET
    atHour: Annotated[float, integer(ge=0, le=23)] = UNSET
    idleMinutes: PosInt = UNSET



class SendPolicyMatch(Strict):
    channel: str = UNSET
    chatType: ChatType = UNSET
    keyPrefix: str = UNSET
    rawKeyPrefix: str = UNSET


class SendPolicyRule(Strict):
    action: AllowDeny = required()
    match: SendPolicyMatch = UNSET


class SendPolicy(Strict):
    default: AllowDeny = UNSET
    rules: list[SendPolicyRule] = UNSET


class ResetByType(Strict):
    direct: Reset = UNSET
    dm: Reset = UNSET
    group: Reset = UNSET
    thread: Reset = UNSET


class WriteLock(Strict):
    acquireTimeoutMs: PosInt = UNSET
    staleMs: PosInt = UNSET
    maxHoldMs: PosInt = UNSET


class AgentToAgent(Strict):
    maxPingPongTurns: Annotated[float, integer(ge=0, le=20)] = UNSET


class ThreadBindings(Strict):
    enabled: bool = UNSET
    idleHours: Annotated[float, JsNumber(ge=0)] = UNSET
    maxAgeHours: Annotated[float, JsNumber(ge=0)] = UNSET
    spawnSessions: bool = UNSET
    defaultSpawnContext: Annotated[Literal["isolated", "fork"], ONE_OF] = UNSET


class Maintenance(Refined):
    mode: Annotated[Literal["enforce", "warn"], ONE_OF] = UNSET
    pruneAfter: StrOrNum = UNSET
    pruneDays: PosInt = UNSET
    maxEntries: PosInt = UNSET
    rotateBytes: StrOrNum = UNSET
    resetArchiveRetention: Annotated[str | Num | NotFalse, UNION] = UNSET
    maxDiskBytes: StrOrNum = UNSET
    highWaterBytes: StrOrNum = UNSET

    @classmethod
    def refine(cls, value: dict) -> Iterable[tuple[tuple, str]]:
        if "pruneAfter" in value and not duration_ok(value["pruneAfter"], "d"):
            yield ("pruneAfter",), BAD_DURATION
        retention = value.get("resetArchiveRetention", False)
        if retention is not False and not duration_ok(retention, "d"):
            yield ("resetArchiveRetention",), BAD_DURATION
        for key in ("maxDiskBytes", "highWaterBytes"):
            if key in value and not size_ok(value[key]):
                yield (key,), BAD_SIZE


class Session(Strict):
    scope: Annotated[Literal["per-sender", "global"], ONE_OF] = UNSET
    dmScope: DmScope = UNSET
    identityLinks: dict[str, StrList] = UNSET
    resetTriggers: StrList = UNSET
    idleMinutes: PosInt = UNSET
    reset: Reset = UNSET
    resetByType: ResetByType = UNSET
    resetByChannel: dict[str, Reset] = UNSET
    store: str = UNSET
    typingIntervalSeconds: PosInt = UNSET
    typingMode: Annotated[Literal["never", "instant", "thinking", "message"], ONE_OF] = UNSET
    mainKey: str = UNSET
    sendPolicy: SendPolicy = UNSET
    writeLock: WriteLock = UNSET
    agentToAgent: AgentToAgent = UNSET
    threadBindings: ThreadBindings = UNSET
    maintenance: Maintenance = UNSET

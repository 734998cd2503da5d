"""The `agents` section of OpenClaw 2026.7.1's config schema (its checked fields; the rest by key only)."""

from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import Field

from openclaw_cli.config.sections.base import PosInt, StrList, with_unchecked
from openclaw_cli.config.zod import ONE_OF, UNION, UNSET, Strict, required


class AgentModelChoice(Strict):
    primary: str = UNSET
    fallbacks: StrList = UNSET


AgentModel = Annotated[str | AgentModelChoice, UNION]
Thinking = Annotated[Literal["off", "minimal", "low", "medium", "high", "xhigh", "adaptive", "max", "ultra"],
                     ONE_OF]


class ModelRuntime(Strict):
    id: str = UNSET


class ModelEntry(Strict):
    alias: str = UNSET
    params: dict[str, Any] = UNSET
    agentRuntime: ModelRuntime = UNSET
    streaming: bool = UNSET


class EmbeddedRuntime(Strict):
    type: Annotated[Literal["embedded"], ONE_OF] = required()


class AcpRuntimeSettings(Strict):
    agent: str = UNSET
    backend: str = UNSET
    mode: Annotated[Literal["persistent", "oneshot"], ONE_OF] = UNSET
    cwd: str = UNSET


class AcpRuntime(Strict):
    type: Annotated[Literal["acp"], ONE_OF] = required()
    acp: AcpRuntimeSettings = UNSET


class AgentExperimental(Strict):
    localModelLean: bool = UNSET


class _AgentEntryChecked(Strict):
    id: str = required()
    default: bool = UNSET
    name: str = UNSET
    description: str = UNSET
    workspace: str = UNSET
    agentDir: str = UNSET
    model: AgentModel = UNSET
    utilityModel: str = UNSET
    models: dict[str, ModelEntry] = UNSET
    thinkingDefault: Thinking = UNSET
    verboseDefault: Annotated[Literal["off", "on", "full"], ONE_OF] = UNSET
    toolProgressDetail: Annotated[Literal["explain", "raw"], ONE_OF] = UNSET
    reasoningDefault: Annotated[Literal["on", "off", "stream"], ONE_OF] = UNSET
    fastModeDefault: Annotated[bool | Annotated[Literal["auto"], ONE_OF], UNION] = UNSET
    contextInjection: Annotated[Literal["always", "continuation-skip", "never"], ONE_OF] = UNSET
    bootstrapMaxChars: PosInt = UNSET
    bootstrapTotalMaxChars: PosInt = UNSET
    experimental: AgentExperimental = UNSET
    skills: StrList = UNSET
    contextTokens: PosInt = UNSET
    params: dict[str, Any] = UNSET
    runtime: Annotated[EmbeddedRuntime | AcpRuntime, UNION] = UNSET


class _AgentDefaultsChecked(Strict):
    model: AgentModel = UNSET
    utilityModel: str = UNSET
    workspace: str = UNSET
    models: dict[str, ModelEntry] = UNSET
    skills: StrList = UNSET
    params: dict[str, Any] = UNSET
    repoRoot: str = UNSET
    userTimezone: str = UNSET
    contextTokens: PosInt = UNSET
    maxConcurrent: PosInt = UNSET
    timeoutSeconds: PosInt = UNSET


_AGENT_ENTRY_UNCHECKED = ("memorySearch humanDelay tts skillsLimits contextLimits heartbeat identity groupChat "
                          "subagents runRetries embeddedAgent sandbox tools")
_AGENT_DEFAULTS_UNCHECKED = (
    "imageModel imageGenerationModel videoGenerationModel musicGenerationModel voiceModel "
    "mediaGenerationAutoProviderFallback pdfModel pdfMaxBytesMb pdfMaxPages silentReply promptOverlays "
    "skipBootstrap skipOptionalBootstrapFiles contextInjection bootstrapMaxChars bootstrapTotalMaxChars "
    "experimental bootstrapPromptTruncationWarning startupContext contextLimits timeFormat envelopeTimezone "
    "envelopeTimestamp envelopeElapsed cliBackends memorySearch contextPruning compaction runRetries "
    "embeddedAgent thinkingDefault verboseDefault toolProgressDetail reasoningDefault elevatedDefault "
    "blockStreamingDefault blockStreamingBreak blockStreamingChunk blockStreamingCoalesce humanDelay "
    "mediaMaxMb imageMaxDimensionPx imageQuality typingIntervalSeconds typingMode heartbeat subagents sandbox")

if TYPE_CHECKING:  # a type checker needs only the checked fields
    AgentEntry = _AgentEntryChecked
    AgentDefaults = _AgentDefaultsChecked
else:
    AgentEntry = with_unchecked("AgentEntry", _AGENT_ENTRY_UNCHECKED, _AgentEntryChecked)
    AgentDefaults = with_unchecked("AgentDefaults", _AGENT_DEFAULTS_UNCHECKED, _AgentDefaultsChecked)


class Agents(Strict):
    defaults: AgentDefaults = UNSET
    entries: list[AgentEntry] = Field(UNSET, alias="list")

"""Safeguard-mode summaries (`compaction.mode: "safeguard"`), as OpenClaw 2026.7.1 makes them.

Staged summarisation (history split by token share, chunks summarised in a chain, partial
summaries merged), the previous summary re-distilled as the first message, the newest turns kept
verbatim, a quality guard that audits the five required sections, identifiers and the latest ask
and retries with its findings, then the split-turn, preserved-turn, tool-failure and file
sections (bounded) after a summary capped at 16,000 characters. The entry is written with
`fromHook: true`. Unlike OpenClaw, a model that fails is an error (nothing is written) rather
than a placeholder or partial summary.
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

from openclaw_cli.compact.planner import CompactionPlan
from openclaw_cli.compact.summarizers import chunking, prompts
from openclaw_cli.compact.summarizers import safeguard_quality as quality
from openclaw_cli.compact.summarizers.base import SummaryResult
from openclaw_cli.compact.summarizers.http import ModelRequestError
from openclaw_cli.compact.summarizers.openai import OpenAISummarizer, request_body
from openclaw_cli.js.strings import js_trim, utf16_len
from openclaw_cli.js.values import object_at
from openclaw_cli.transcript.messages import parse_timestamp_ms, serialize_conversation
from openclaw_cli.transcript.realness import contains_real_conversation

TURN_PREFIX_INSTRUCTIONS = ("This summary covers the prefix of a split turn. Focus on the original request, early "
                            "progress, and any details needed to understand the retained suffix.")
MERGE_INSTRUCTIONS = "\n".join([
    "Merge these partial summaries into a single cohesive summary.", "", "MUST PRESERVE:",
    "- Active tasks and their current status (in-progress, blocked, pending)",
    "- Batch operation progress (e.g., '5/17 items completed')",
    "- The last thing the user requested and what was being done about it",
    "- Decisions made and their rationale", "- TODOs, open questions, and constraints",
    "- Any commitments or follow-ups promised", "",
    "PRIORITIZE recent context over older history. The agent needs to know",
    "what it was doing, not just what was discussed."])
REDISTILL_PREFIX = ("Previous compaction summary to re-distill with the current conversation. Prune stale, "
                    "duplicate, or superseded details instead of preserving it verbatim.")
SPLIT_TURN_HEADING = "**Turn Context (split turn):**\n\n"
MAX_SUMMARY_CHARS = 16000
MAX_FILE_SECTION_CHARS = 2000
MAX_FILE_LIST_CHARS = 900
MAX_TOOL_FAILURES = 8
MAX_TOOL_FAILURE_CHARS = 240
MAX_RECENT_TURNS = 12
MAX_RECENT_TURN_CHARS = 600
TRUNCATED_MARKER = "\n\n[Compaction summary truncated to fit budget]"
CHUNK_ATTEMPTS = 3
RETRY_DELAYS_S = (0.5, 1.0)


def pause(seconds: float) -> None:
    """The wait between two attempts of one summary request."""
    time.sleep(seconds)


NO_STORE_PROVIDERS = frozenset({"cerebras", "chutes", "deepseek", "mistral", "opencode", "xai", "xiaomi", "zai"})


def store_field(provider: str | None, model_entry: Mapping[str, Any]) -> bool:
    """Whether the safeguard's requests carry `store: false`: OpenClaw's completions transport
    sets it unless the model's `compat.supportsStore` is false or the provider is one that
    rejects the field."""
    compat = object_at(model_entry, "compat")
    if isinstance(compat.get("supportsStore"), bool):
        return compat["supportsStore"]
    return (provider or "").lower() not in NO_STORE_PROVIDERS


def _int(value: Any, fallback: int) -> int:
    number = value if isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value) \
        else fallback
    return max(0, math.floor(number))


def policy_from_config(compaction: Mapping[str, Any]) -> quality.SummaryPolicy:
    """The safeguard settings of `agents.defaults.compaction` (OpenClaw's defaults otherwise)."""
    guard = object_at(compaction, "qualityGuard")
    share = compaction.get("maxHistoryShare")
    policy = compaction.get("identifierPolicy")
    return quality.SummaryPolicy(
        identifier_policy=policy if policy in ("strict", "off", "custom") else "strict",
        identifier_instructions=compaction.get("identifierInstructions")
        if isinstance(compaction.get("identifierInstructions"), str) else None,
        custom_instructions=compaction.get("customInstructions")
        if isinstance(compaction.get("customInstructions"), str) else None,
        quality_guard=guard.get("enabled") is not False,
        quality_retries=min(3, _int(guard.get("maxRetries"), 1)),
        recent_turns=min(MAX_RECENT_TURNS, _int(compaction.get("recentTurnsPreserve"), 3)),
        max_history_share=share if isinstance(share, (int, float)) and not isinstance(share, bool) else 0.5)


# -- text helpers -----------------------------------------------------------------------------


def message_text(message: Mapping[str, Any]) -> str:
    """`extractMessageText`: string content, or the non-blank text blocks, trimmed."""
    content = message.get("content")
    if isinstance(content, str):
        return js_trim(content)
    if not isinstance(content, list):
        return ""
    parts = [js_trim(b["text"]) for b in content
             if isinstance(b, Mapping) and isinstance(b.get("text"), str) and js_trim(b["text"])]
    return js_trim("\n".join(parts))


def _non_text_placeholder(content: Any) -> str | None:
    if content is None or isinstance(content, str):
        return None
    if not isinstance(content, list):
        return "[non-text content]"
    counts: dict[str, int] = {}
    for block in content:
        if not isinstance(block, Mapping):
            continue
        raw_kind = block.get("type")
        kind = raw_kind if isinstance(raw_kind, str) and js_trim(raw_kind) else "unknown"
        if kind != "text":
            counts[kind] = counts.get(kind, 0) + 1
    if not counts:
        return None
    return "[non-text content: " + ", ".join(f"{k} x{n}" if n > 1 else k for k, n in counts.items()) + "]"


def context_lines(messages: Sequence[Mapping[str, Any]]) -> list[str]:
    """`formatContextMessages`: `- User: …` / `- Assistant: …` / `- Tool result (name): …`."""
    out = []
    for message in messages:
        role = message.get("role")
        if role == "assistant":
            label = "Assistant"
        elif role == "user":
            label = "User"
        elif role == "toolResult":
            name = message.get("toolName")
            label = f"Tool result ({name if isinstance(name, str) and js_trim(name) else 'tool'})"
        else:
            continue
        text, placeholder = message_text(message), _non_text_placeholder(message.get("content"))
        rendered = f"{text}\n{placeholder}" if text and placeholder else text or placeholder
        if not rendered:
            continue
        if utf16_len(rendered) > MAX_RECENT_TURN_CHARS:
            rendered = quality.truncate_utf16_safe(rendered, MAX_RECENT_TURN_CHARS) + "..."
        out.append(f"- {label}: {rendered}")
    return out


def preserved_section(messages: Sequence[Mapping[str, Any]]) -> str:
    lines = context_lines(messages)
    return "\n\n## Recent turns preserved verbatim\n" + "\n".join(lines) if lines else ""


def append_section(summary: str, section: str) -> str:
    if not section:
        return summary
    if not js_trim(summary):
        return section.lstrip(quality.JS_WHITESPACE)
    return summary + section


def cap_summary(summary: str, max_chars: int = MAX_SUMMARY_CHARS) -> str:
    if max_chars <= 0 or utf16_len(summary) <= max_chars:
        return summary
    budget = max(0, max_chars - 46)
    if budget <= 0:
        return quality.truncate_utf16_safe(summary, max_chars)
    return quality.truncate_utf16_safe(summary, budget) + TRUNCATED_MARKER


def cap_preserving_suffix(body: str, suffix: str, max_chars: int = MAX_SUMMARY_CHARS) -> str:
    if not suffix:
        return cap_summary(body, max_chars)
    if utf16_len(suffix) >= max_chars:
        units = suffix.encode("utf-16-le", "surrogatepass")
        return units[-2 * max_chars:].decode("utf-16-le", "ignore")
    return cap_summary(body, max(0, max_chars - utf16_len(suffix))) + suffix


def file_sections(read: list[str], modified: list[str]) -> str:
    """`formatFileOperations` of safeguard mode: each list within 900 characters, then
    "...and N more", the whole within 2,000."""
    def bounded(tag: str, files: list[str]) -> str:
        if not files:
            return ""
        open_tag, close_tag = f"<{tag}>\n", f"\n</{tag}>"
        lines: list[str] = []
        used = len(open_tag) + len(close_tag)
        for i, name in enumerate(files):
            line = f"{name}\n"
            remaining = len(files) - i - 1
            overflow = f"...and {remaining} more\n" if remaining > 0 else ""
            if used + utf16_len(line) + len(overflow) > MAX_FILE_LIST_CHARS:
                rest = f"...and {len(files) - i} more\n"
                if used + len(rest) <= MAX_FILE_LIST_CHARS:
                    lines.append(rest)
                break
            lines.append(line)
            used += utf16_len(line)
        return f"{open_tag}{''.join(lines)}{close_tag}" if lines else ""

    sections = [s for s in (bounded("read-files", read), bounded("modified-files", modified)) if s]
    return cap_summary("\n\n" + "\n\n".join(sections), MAX_FILE_SECTION_CHARS) if sections else ""


def tool_failures_section(messages: Sequence[Mapping[str, Any]]) -> str:
    """`## Tool Failures`: up to 8 failed tool results (name, status/exit code, 240 characters)."""
    failures: list[str] = []
    seen: set[str] = set()
    for message in messages:
        if message.get("role") != "toolResult" or message.get("isError") is not True:
            continue
        call_id = message.get("toolCallId") if isinstance(message.get("toolCallId"), str) else ""
        if not call_id or call_id in seen:
            continue
        seen.add(call_id)
        name = message.get("toolName") if isinstance(message.get("toolName"), str) and js_trim(message["toolName"]) \
            else "tool"
        content = message.get("content")
        texts = [b["text"] for b in content if isinstance(b, Mapping) and b.get("type") == "text"
                 and isinstance(b.get("text"), str)] if isinstance(content, list) else []
        meta = _failure_meta(message.get("details"))
        text = " ".join("\n".join(texts).split()) or ("failed" if meta else "failed (no output)")
        if utf16_len(text) > MAX_TOOL_FAILURE_CHARS:
            text = quality.truncate_utf16_safe(text, MAX_TOOL_FAILURE_CHARS - 3) + "..."
        failures.append(f"- {name}{f' ({meta})' if meta else ''}: {text}")
    if not failures:
        return ""
    lines = failures[:MAX_TOOL_FAILURES]
    if len(failures) > MAX_TOOL_FAILURES:
        lines.append(f"- ...and {len(failures) - MAX_TOOL_FAILURES} more")
    return "\n\n## Tool Failures\n" + "\n".join(lines)


def _failure_meta(details: Any) -> str | None:
    if not isinstance(details, Mapping):
        return None
    parts = []
    if isinstance(details.get("status"), str):
        parts.append(f"status={details['status']}")
    code = details.get("exitCode")
    if isinstance(code, (int, float)) and not isinstance(code, bool) and math.isfinite(code):
        parts.append(f"exitCode={int(code) if float(code).is_integer() else code}")
    return " ".join(parts) or None


def split_preserved(messages: Sequence[Mapping[str, Any]], turns: int) -> tuple[list, list]:
    """`splitPreservedRecentTurns`: (messages to summarise, the newest `turns` turns kept verbatim)."""
    turns = min(MAX_RECENT_TURNS, max(0, turns))
    if turns <= 0:
        return list(messages), []
    conversation = [i for i, m in enumerate(messages) if m.get("role") in ("user", "assistant")]
    users = [i for i in conversation if messages[i].get("role") == "user"]
    if not conversation:
        return list(messages), []
    keep: set[int] = set()
    if len(users) >= turns:
        start = users[len(users) - turns]
        keep.update(i for i in conversation if i >= start)
    else:
        keep.update(users)
        for i in reversed(conversation):
            keep.add(i)
            if len(keep) >= turns * 2:
                break
    if not keep:
        return list(messages), []
    call_ids = {call_id for i in keep if messages[i].get("role") == "assistant"
                for call_id, _ in chunking.tool_calls(messages[i])}
    if call_ids:
        first = min(keep)
        keep.update(i for i in range(first, len(messages)) if messages[i].get("role") == "toolResult"
                    and chunking.tool_result_id(messages[i]) in call_ids)
    rest = chunking.repair_tool_pairing([m for i, m in enumerate(messages) if i not in keep])
    kept = [m for i, m in enumerate(messages) if i in keep and m.get("role") in ("user", "assistant", "toolResult")]
    return rest, kept


def latest_ask(messages: Sequence[Mapping[str, Any]]) -> str | None:
    for message in reversed(messages):
        if message.get("role") == "user":
            text = message_text(message)
            if text:
                return text
    return None


def chunk_time_range(chunk: Sequence[Mapping[str, Any]]) -> str:
    stamps = [m["timestamp"] for m in chunk if isinstance(m.get("timestamp"), (int, float))
              and not isinstance(m.get("timestamp"), bool) and m["timestamp"] > 0]
    if not stamps:
        return ""

    def fmt(ms: float) -> str:
        return datetime.fromtimestamp(ms / 1000, tz=timezone.utc).strftime("%Y-%m-%d %H:%M")

    first, last = min(stamps), max(stamps)
    return f" [{fmt(first) if first == last else f'{fmt(first)} — {fmt(last)}'} UTC]"


def branch_messages(plan: CompactionPlan) -> list[dict[str, Any]]:
    """The messages of the whole active branch (`collectSessionBranchMessages`)."""
    out = []
    for entry in plan.index.iter_load(list(plan.path)):
        kind = entry.get("type")
        if kind == "message" and isinstance(entry.get("message"), dict):
            out.append(entry["message"])
        elif kind == "custom_message":
            out.append({"role": "custom", "customType": entry["customType"] if isinstance(entry.get("customType"), str)
                        else "custom", "content": entry.get("content"), "display": entry.get("display") is not False,
                        "details": entry.get("details"), "timestamp": parse_timestamp_ms(entry.get("timestamp")) or 0})
        elif kind == "branch_summary":
            out.append({"role": "branchSummary", "summary": entry["summary"] if isinstance(entry.get("summary"), str)
                        else "", "fromId": entry["fromId"] if isinstance(entry.get("fromId"), str) else "root",
                        "timestamp": parse_timestamp_ms(entry.get("timestamp")) or 0})
    return out


# -- the summarizer -------------------------------------------------------------------------------


@dataclass
class SafeguardSummarizer:
    """`--summarizer openai` in safeguard mode: the model requests of OpenClaw's safeguard."""

    client: OpenAISummarizer
    policy: quality.SummaryPolicy
    context_window: int
    send_store: bool = True  # the safeguard's requests carry `store: false` (see store_field)
    name: str = "openai"

    def planned_requests(self, plan: CompactionPlan) -> list[dict[str, Any]]:
        """The requests of a run whose replies never pass the quality guard (the most there are)."""
        recorded: list[dict[str, Any]] = []
        original = self.client.transport

        def record(body: dict[str, Any]) -> str:
            recorded.append(body)
            return "(dry run)"

        self.client.transport = record
        try:
            self.summarize(plan)
        finally:
            self.client.transport = original
        return recorded

    def _generate(self, messages: Sequence[Mapping[str, Any]], instructions: str | None, previous: str | None,
                  reserve: int) -> str:
        prompt = prompts.summary_prompt(serialize_conversation(list(messages)), previous, instructions)
        body = request_body(self.client.model, prompt,
                            prompts.summary_max_tokens(reserve, self.client.model_max_tokens, 0.8),
                            self.client.max_tokens_field, store=False if self.send_store else None)
        for attempt in range(CHUNK_ATTEMPTS):
            try:
                return self.client._complete(body)
            except ModelRequestError:
                if attempt == CHUNK_ATTEMPTS - 1:
                    raise
                pause(RETRY_DELAYS_S[attempt])
        raise AssertionError("unreachable")

    def _chunks(self, messages: Sequence[Mapping[str, Any]], max_chunk: int, custom: str | None,
                previous: str | None, reserve: int) -> str:
        """`summarizeChunks`: chunk summaries chained through the previous summary."""
        if not messages:
            return previous if previous is not None else prompts.NO_PRIOR_HISTORY
        instructions = quality.summarization_instructions(custom, self.policy)
        summary = previous
        for chunk in chunking.chunk_by_max_tokens(chunking.sanitize(messages), max_chunk):
            summary = self._generate(chunk, instructions, summary, reserve)
        return summary if summary is not None else prompts.NO_PRIOR_HISTORY

    def _with_fallback(self, messages: Sequence[Mapping[str, Any]], max_chunk: int, custom: str | None,
                       reserve: int) -> str:
        """`summarizeWithFallback`: on failure, once more without the oversized messages."""
        if not messages:
            return prompts.NO_PRIOR_HISTORY
        try:
            return self._chunks(messages, max_chunk, custom, None, reserve)
        except ModelRequestError:
            small, notes = chunking.oversized_plan(messages, self.context_window)
            if not small or len(small) == len(messages):
                raise
            summary = self._chunks(small, max_chunk, custom, None, reserve)
            return summary + ("\n\n" + "\n".join(notes) if notes else "")

    def _in_stages(self, messages: Sequence[Mapping[str, Any]], max_chunk: int, custom: str | None,
                   previous: str | None, reserve: int) -> str:
        """`summarizeViaLLM`: the previous summary first, then staged summaries merged."""
        if previous and js_trim(previous):
            messages = [{"role": "user", "content": [{"type": "text", "text": (
                f"<previous-compaction-summary>\n{REDISTILL_PREFIX}\n\n{js_trim(previous)}\n"
                "</previous-compaction-summary>")}], "timestamp": 0}, *messages]
        if not messages:
            return prompts.NO_PRIOR_HISTORY
        chunks = chunking.stage_split(messages, max_chunk)
        if chunks is None:
            return self._with_fallback(messages, max_chunk, custom, reserve)
        partials = [self._with_fallback(chunk, max_chunk, custom, reserve) for chunk in chunks]
        if len(partials) == 1:
            return partials[0]
        now = int(time.time() * 1000)
        merged = []
        for i, (summary, chunk) in enumerate(zip(partials, chunks)):
            span = chunk_time_range(chunk)
            label = (f"[Chunk 1 — oldest messages{span}]" if i == 0 else
                     f"[Chunk {len(partials)} — most recent messages{span}]" if i == len(partials) - 1 else
                     f"[Chunk {i + 1}/{len(partials)}{span}]")
            merged.append({"role": "user", "content": f"{label}\n{summary}", "timestamp": now - (len(partials) - 1 - i)})
        custom_text = js_trim(custom or "")
        merge = f"{MERGE_INSTRUCTIONS}\n\n{custom_text}" if custom_text else MERGE_INSTRUCTIONS
        return self._with_fallback(merged, max_chunk, merge, reserve)

    def _max_chunk(self, messages: Sequence[Mapping[str, Any]]) -> int:
        ratio = chunking.adaptive_chunk_ratio(messages, self.context_window)
        return max(1, math.floor(self.context_window * ratio) - chunking.SUMMARIZATION_OVERHEAD_TOKENS)

    def summarize(self, plan: CompactionPlan) -> SummaryResult:
        base = chunking.strip_runtime_context(list(plan.history_messages()))
        prefix = chunking.strip_runtime_context(list(plan.turn_prefix_messages()))
        if not contains_real_conversation(base) and not contains_real_conversation(prefix):
            branch = chunking.strip_runtime_context(branch_messages(plan))
            if not contains_real_conversation(branch):  # a boundary anyway, as OpenClaw writes one
                return SummaryResult(summary=quality.fallback_summary(plan.previous_summary()), details=None,
                                     from_hook=True)
            base, prefix = branch, []
        read, modified = plan.file_ops.lists()
        failures = tool_failures_section([*base, *prefix])
        structured = quality.structure_instructions(quality.resolve_instructions(self.policy.custom_instructions),
                                                    self.policy)
        reserve = max(1, min(plan.settings.reserve_tokens, self.client.model_max_tokens)
                      if self.client.model_max_tokens and self.client.model_max_tokens > 0
                      else plan.settings.reserve_tokens)
        messages, previous = base, plan.previous_summary()
        pruned = chunking.history_prune(messages, prefix, plan.tokens_before, self.context_window,
                                        self.policy.max_history_share)
        if pruned is not None and pruned.dropped_chunks > 0:
            messages = pruned.messages
            if pruned.dropped:
                previous = self._in_stages(pruned.dropped, self._max_chunk(pruned.dropped), structured, previous,
                                           reserve)
        messages, kept_verbatim = split_preserved(messages, self.policy.recent_turns)
        ask = latest_ask([*messages, *prefix])
        identifiers = quality.extract_identifiers("\n".join(
            t for t in (message_text(m) for m in [*messages, *prefix][-10:]) if t))
        max_chunk = self._max_chunk([*messages, *prefix])
        split = plan.is_split_turn and bool(prefix)
        history, split_section, combined = self._attempts(messages, prefix, split, structured, previous, max_chunk,
                                                          reserve, ask, identifiers)
        preserved = preserved_section(kept_verbatim)
        suffix = ""
        for section in (split_section, preserved, failures, file_sections(read, modified)):
            suffix = append_section(suffix, section)
        if suffix and suffix[0] not in quality.JS_WHITESPACE:
            suffix = "\n\n" + suffix
        body = history or append_section(combined, preserved)  # OpenClaw's fallback for an empty reply
        return SummaryResult(summary=cap_preserving_suffix(body, suffix),
                             details={"readFiles": read, "modifiedFiles": modified}, from_hook=True)

    def _attempts(self, messages: list, prefix: list, split: bool, structured: str, previous: str | None,
                  max_chunk: int, reserve: int, ask: str | None, identifiers: list[str]) -> tuple[str, str, str]:
        """The quality guard: summarise, audit, retry with the findings; (history, split-turn
        part, both as audited)."""
        attempts = self.policy.quality_retries + 1 if self.policy.quality_guard else 1
        instructions = structured
        best: tuple[str, str, str] | None = None
        for attempt in range(attempts):
            try:
                history = self._in_stages(messages, max_chunk, instructions, previous, reserve) if messages \
                    else quality.fallback_summary(previous)
                split_section = ""
                if split:
                    custom = "\n\n".join([TURN_PREFIX_INSTRUCTIONS, "Additional requirements:", instructions])
                    split_section = SPLIT_TURN_HEADING + self._in_stages(prefix, max_chunk, custom, None, reserve)
            except ModelRequestError:
                if best is not None:
                    return best  # a failed retry keeps the summary that was already made
                raise
            audited = (f"{history}\n\n---\n\n{split_section}" if js_trim(history) else split_section) if split \
                else history
            best = (history, split_section, audited)
            if not self.policy.quality_guard or not (messages or split):
                break
            reasons = quality.audit(audited, identifiers, ask, self.policy)
            if not reasons or attempt >= attempts - 1:
                break
            fix = ("Fix all issues and include every required section with exact identifiers preserved."
                   if self.policy.identifier_policy == "strict" else
                   "Fix all issues and include every required section while following the configured identifier "
                   "policy.")
            feedback = quality.wrap_untrusted("Quality check feedback",
                                              f"Previous summary failed quality checks ({', '.join(reasons)}).")
            instructions = f"{structured}\n\n{fix}\n\n{feedback}" if feedback else f"{structured}\n\n{fix}"
        assert best is not None  # attempts >= 1 (retries are clamped at 0): the first pass set it or raised
        return best

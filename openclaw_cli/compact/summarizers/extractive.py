"""A deterministic summary without a model: requests, decisions, files, tools, errors, open items."""

from __future__ import annotations

import re
from collections import Counter, deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from openclaw_cli.compact.fileops import format_file_operations
from openclaw_cli.compact.planner import CompactionPlan
from openclaw_cli.compact.summarizers import prompts
from openclaw_cli.compact.summarizers.base import SummaryResult, file_details
from openclaw_cli.transcript.jsjson import stringify
from openclaw_cli.transcript.messages import convert_to_llm
from openclaw_cli.transcript.realness import has_meaningful_text
from openclaw_cli.transcript.tokens import block_text

DEFAULT_MAX_CHARS = 16000
TRUNCATED_MARKER = "\n\n[Compaction summary truncated to fit budget]"
ITEM_CHARS = 240
MAX_REQUESTS = 12
MAX_DECISIONS = 8
MAX_ERRORS = 8
MAX_CONSTRAINTS = 8
MAX_NEXT = 6
HEAD_REQUESTS = 3
TAIL_WINDOW = 400  # newest summarised messages read in full; older ones count via the index

_WS = re.compile(r"\s+")
_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")
_CONSTRAINT = re.compile(r"\b(must|mustn't|must not|should|shouldn't|never|always|don't|do not|"
                         r"avoid|prefer|only|without|make sure|keep)\b", re.IGNORECASE)
_DECISION = re.compile(r"\b(decided|decide|decision|chose|choose|will use|going to|instead of|"
                       r"switch(?:ed)? to|plan is|we'll|i'll|let's)\b", re.IGNORECASE)
_NEXT = re.compile(r"^\s*(?:[-*]\s*\[ \]|\d+[.)]\s+|next\b|todo\b|then\b)", re.IGNORECASE)
_ERROR_TEXT = re.compile(r"\b(error|failed|failure|exception|traceback|not found|denied)\b", re.IGNORECASE)


def _clip(text: str, limit: int = ITEM_CHARS) -> str:
    flat = _WS.sub(" ", text).strip()
    return flat if len(flat) <= limit else flat[: limit - 1].rstrip() + "…"


def _text_of(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(t for t in (block_text(b) for b in content) if t)
    return ""


@dataclass
class _Digest:
    """Bounded notes gathered while streaming the summarised messages."""

    requests: deque = field(default_factory=lambda: deque(maxlen=MAX_REQUESTS))
    request_count: int = 0
    constraints: deque = field(default_factory=lambda: deque(maxlen=MAX_CONSTRAINTS))
    decisions: deque = field(default_factory=lambda: deque(maxlen=MAX_DECISIONS))
    errors: deque = field(default_factory=lambda: deque(maxlen=MAX_ERRORS))
    error_count: int = 0
    tools: Counter = field(default_factory=Counter)
    pending_calls: dict[str, str] = field(default_factory=dict)
    last_user: str | None = None
    answered: bool = True
    last_assistant: str = ""
    messages: int = 0
    head_requests: list = field(default_factory=list)

    def feed(self, message: Mapping[str, Any]) -> None:
        self.messages += 1
        role = message.get("role")
        if role == "user":
            text = _text_of(message.get("content"))
            if not has_meaningful_text(text):
                return
            self.request_count += 1
            self.requests.append(_clip(text))
            self.last_user = _clip(text)
            self.answered = False
            for sentence in _SENTENCE.split(text):
                if _CONSTRAINT.search(sentence) and sentence.strip():
                    item = _clip(sentence)
                    if item not in self.constraints:
                        self.constraints.append(item)
        elif role == "assistant":
            content = message.get("content")
            blocks = content if isinstance(content, list) else []
            texts = [b.get("text") for b in blocks
                     if isinstance(b, Mapping) and b.get("type") == "text" and isinstance(b.get("text"), str)]
            for block in blocks:
                if isinstance(block, Mapping) and block.get("type") == "toolCall":
                    name = block.get("name") if isinstance(block.get("name"), str) else "tool"
                    self.tools[name] += 1
                    call_id = block.get("id")
                    if isinstance(call_id, str):
                        self.pending_calls[call_id] = f"{name}({_clip(_args(block.get('arguments')), 80)})"
            text = "\n".join(texts)
            if has_meaningful_text(text):
                self.answered = True
                if any(_NEXT.match(line) for line in text.splitlines()):
                    self.last_assistant = text[-4000:]  # the newest answer that lists steps
                for sentence in _SENTENCE.split(text):
                    if _DECISION.search(sentence) and sentence.strip():
                        item = _clip(sentence)
                        if item not in self.decisions:
                            self.decisions.append(item)
            if message.get("stopReason") == "error":
                self._error("assistant", str(message.get("errorMessage") or "model error"))
        elif role == "toolResult":
            call_id = message.get("toolCallId")
            if isinstance(call_id, str):
                self.pending_calls.pop(call_id, None)
            if message.get("isError") is True:
                name = message.get("toolName") if isinstance(message.get("toolName"), str) else "tool"
                self._error(name, _text_of(message.get("content")) or "failed")
        elif role == "bashExecution":
            self.tools["bash"] += 1
            code = message.get("exitCode")
            if isinstance(code, int) and code != 0:
                self._error("bash", f"`{_clip(str(message.get('command')), 80)}` exited with code {code}")

    def _error(self, source: str, text: str) -> None:
        self.error_count += 1
        self.errors.append(f"{source}: {_clip(text)}")

    def next_steps(self) -> list[str]:
        steps = []
        for line in self.last_assistant.splitlines():
            if _NEXT.match(line) and line.strip():
                steps.append(_clip(re.sub(r"^\s*(?:[-*]\s*\[ \]|\d+[.)])\s*", "", line)))
        return steps[-MAX_NEXT:]


def _args(args: Any) -> str:
    if not isinstance(args, Mapping):
        return ""
    try:
        return ", ".join(f"{k}={stringify(v)}" for k, v in args.items())
    except (TypeError, RecursionError):
        return ""


def _bullets(items: Iterable[str], empty: str = "(none)", prefix: str = "- ") -> list[str]:
    lines = [f"{prefix}{item}" for item in items]
    return lines or [f"- {empty}"]


def _digest(messages: Iterable[Mapping[str, Any]]) -> _Digest:
    digest = _Digest()
    for message in messages:
        for converted in convert_to_llm([message]) if message.get("role") in ("custom", "branchSummary") else [message]:
            digest.feed(converted)
    return digest


def _digest_entries(plan: CompactionPlan, infos: list) -> _Digest:
    """Notes from the first requests and the newest TAIL_WINDOW messages; totals from the index.

    Reading stays bounded however long the summarised part is: older messages contribute their
    counts (requests, tool calls, errors) and file operations, not their text.
    """
    tail = infos[-TAIL_WINDOW:]
    older = infos[: len(infos) - len(tail)]
    head_users = [e for e in older if e.role == "user" and e.meaningful][:HEAD_REQUESTS]
    digest = _digest(plan.iter_messages(tail))
    head = _digest(plan.iter_messages(head_users)) if head_users else None
    older_users = sum(1 for e in older if e.role == "user" and e.meaningful)
    for e in older:
        for name in (e.extra or {}).get("tools", ()):
            digest.tools[name] += 1
        if e.role == "bashExecution":
            digest.tools["bash"] += 1
    older_errors = sum(1 for e in older if (e.extra or {}).get("error"))
    digest.request_count += older_users
    digest.error_count += older_errors
    digest.messages += len(older)
    if head is not None:
        digest.head_requests = list(head.requests)
    return digest


def history_summary(digest: _Digest, plan: CompactionPlan, previous: str | None) -> str:
    read, modified = plan.file_ops.lists()
    recent = list(digest.requests)
    head = [r for r in digest.head_requests if r not in recent]
    skipped = digest.request_count - len(recent) - len(head)
    requests = head + ([f"(+{skipped} more requests)"] if skipped > 0 else []) + recent
    done = [f"[x] {name} ×{count}" if count > 1 else f"[x] {name}"
            for name, count in sorted(digest.tools.items())]
    open_items = []
    if digest.last_user and not digest.answered:
        open_items.append(f"[ ] Unanswered request: {digest.last_user}")
    open_items += [f"[ ] No result recorded for {call}" for call in list(digest.pending_calls.values())[-4:]]
    errors = list(digest.errors)
    if digest.error_count > len(errors):
        errors.insert(0, f"(+{digest.error_count - len(errors)} earlier errors)")
    steps = digest.next_steps()
    context = [f"Messages summarised: {digest.messages}"]
    if read:
        context.append("Files read: " + ", ".join(read[:20]) + (" …" if len(read) > 20 else ""))
    if modified:
        context.append("Files modified: " + ", ".join(modified[:20]) + (" …" if len(modified) > 20 else ""))
    lines = ["## Goal", *_bullets(requests, "(no user requests in the summarised part)"), "",
             "## Constraints & Preferences", *_bullets(digest.constraints), "",
             "## Progress", "### Done", *_bullets(done, "(no tool activity)"), "",
             "### In Progress", *_bullets(open_items), "",
             "### Blocked", *_bullets(errors), "",
             "## Key Decisions", *_bullets(digest.decisions), "",
             "## Next Steps", *([f"{i}. {s}" for i, s in enumerate(steps, 1)] or ["1. Continue from the retained messages."]), "",
             "## Critical Context", *_bullets(context)]
    if previous:
        lines += ["", "## Earlier Summary", _clip(previous, 4000)]
    return "\n".join(lines)


def turn_prefix_summary(digest: _Digest) -> str:
    request = digest.requests[0] if digest.requests else "(not recorded)"
    progress = [f"{name} ×{count}" if count > 1 else name for name, count in sorted(digest.tools.items())]
    progress += list(digest.decisions)[-3:]
    context = [f"Tool error: {e}" for e in list(digest.errors)[-3:]]
    context += [f"Awaiting result of {c}" for c in list(digest.pending_calls.values())[-3:]]
    return "\n".join(["## Original Request", request, "", "## Early Progress", *_bullets(progress), "",
                      "## Context for Suffix", *_bullets(context, "The retained suffix continues this turn.")])


def cap_summary(body: str, suffix: str, max_chars: int) -> str:
    """Cut `body` to fit `max_chars` together with `suffix` (which is always kept)."""
    if len(body) + len(suffix) <= max_chars:
        return body + suffix
    budget = max(0, max_chars - len(suffix) - len(TRUNCATED_MARKER))
    return body[:budget].rstrip() + TRUNCATED_MARKER + suffix


@dataclass
class ExtractiveSummarizer:
    """`--summarizer extractive`: the default offline summarizer (streams, no model)."""

    max_chars: int = DEFAULT_MAX_CHARS
    name: str = "extractive"

    def summarize(self, plan: CompactionPlan) -> SummaryResult:
        previous = plan.previous_summary()
        split = plan.is_split_turn and bool(plan.turn_prefix)
        if plan.history or not split:
            body = history_summary(_digest_entries(plan, plan.history), plan, previous)
        else:
            body = previous or prompts.NO_PRIOR_HISTORY
        if split:
            body += prompts.SPLIT_TURN_SEPARATOR + turn_prefix_summary(_digest_entries(plan, plan.turn_prefix))
        details, read, modified = file_details(plan)
        summary = cap_summary(body, format_file_operations(read, modified), self.max_chars)
        return SummaryResult(summary=summary, details=details, from_hook=False)

"""A deterministic summary without a model: goals, constraints, progress, decisions, next steps.

The sections follow the LLM prompt's (`## Goal` … `## Critical Context`); empty ones are left
out. The whole summary, file lists included, stays within a budget counted with the session's
tokenizer (12,000 tokens by default); reading stays bounded however long the summarised part is.
"""

from __future__ import annotations

import re
from collections import Counter, deque
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any

from openclaw_cli.compact.fileops import FileOps, format_capped_file_operations
from openclaw_cli.compact.planner import CompactionPlan
from openclaw_cli.compact.summarizers import prompts
from openclaw_cli.compact.summarizers.base import SummaryResult
from openclaw_cli.js.json import stringify
from openclaw_cli.transcript.messages import convert_to_llm
from openclaw_cli.transcript.realness import has_meaningful_text
from openclaw_cli.transcript.tokens import block_text

DEFAULT_MAX_TOKENS = 12000
TRUNCATED_MARKER = "\n\n[Compaction summary truncated to fit budget]"
TAIL_WINDOW = 400  # newest summarised messages read in full; older ones count via the index
HEAD_REQUESTS = 3
MAX_REQUESTS = 9
MAX_CONSTRAINTS = 8
MAX_DECISIONS = 8
MAX_ERRORS = 8
MAX_QUESTIONS = 4
MAX_NEXT = 6
MAX_PREVIOUS_ITEMS = 8  # per section, carried over from an earlier summary


@dataclass(frozen=True)
class Level:
    """How much detail a rendering keeps: characters per item, item counts, listed files."""

    item_chars: int
    share: float
    files: int
    file_chars: int
    last_request_chars: int


LEVELS = (Level(240, 1.0, 40, 2000, 1000), Level(160, 0.6, 20, 1000, 600),
          Level(100, 0.35, 10, 500, 300), Level(60, 0.15, 5, 250, 160))

_WS = re.compile(r"\s+")
_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")
_CONSTRAINT = re.compile(r"\b(must|mustn't|must not|should|shouldn't|never|always|don't|do not|"
                         r"avoid|prefer|only|without|make sure|keep)\b", re.IGNORECASE)
_DECISION = re.compile(r"\b(decided|decide|decision|chose|choose|will use|going to|instead of|"
                       r"switch(?:ed)? to|plan is|we'll|i'll|let's)\b", re.IGNORECASE)
_NEXT = re.compile(r"^\s*(?:[-*]\s*\[ \]|\d+[.)]\s+|next\b|todo\b|then\b)", re.IGNORECASE)
_STEP_PREFIX = re.compile(r"^\s*(?:[-*]\s*\[ \]|\d+[.)])\s*")
_STEPS_HEADING = re.compile(r"^\s*(?:#+\s*)?next(?: steps?)?\s*:?\s*$", re.IGNORECASE)
_SLASH_COMMAND = re.compile(r"^\s*/[A-Za-z][\w-]*(?:\s|$)")
_HEADING = re.compile(r"^(#{2,3})\s+(.+?)\s*$")
_FILE_TAGS = re.compile(r"\n*<(read-files|modified-files)>.*?</\1>", re.DOTALL)


def clip(text: str, limit: int) -> str:
    flat = _WS.sub(" ", text).strip()
    return flat if len(flat) <= limit else flat[: max(1, limit - 1)].rstrip() + "…"


def _text_of(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(t for t in (block_text(b) for b in content) if t)
    return ""


def _args(args: Any) -> str:
    if not isinstance(args, Mapping):
        return ""
    try:
        return ", ".join(f"{k}={stringify(v)}" for k, v in args.items())
    except (TypeError, RecursionError):
        return ""


def _day(ms: Any) -> str | None:
    if not isinstance(ms, (int, float)) or isinstance(ms, bool) or ms <= 0:
        return None
    try:
        return datetime.fromtimestamp(ms / 1000, tz=timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    except (OverflowError, OSError, ValueError):
        return None


@dataclass
class _Digest:
    """Bounded notes gathered while streaming the summarised messages (full texts kept short)."""

    requests: deque = field(default_factory=lambda: deque(maxlen=MAX_REQUESTS))
    head_requests: list = field(default_factory=list)
    request_count: int = 0
    constraints: deque = field(default_factory=lambda: deque(maxlen=MAX_CONSTRAINTS))
    decisions: deque = field(default_factory=lambda: deque(maxlen=MAX_DECISIONS))
    errors: deque = field(default_factory=lambda: deque(maxlen=MAX_ERRORS))
    error_count: int = 0
    questions: deque = field(default_factory=lambda: deque(maxlen=MAX_QUESTIONS))
    tools: Counter = field(default_factory=Counter)
    pending_calls: dict[str, str] = field(default_factory=dict)
    last_user: str | None = None
    last_command: str | None = None
    answered: bool = True
    last_answer: str = ""
    steps_text: str = ""
    messages: int = 0
    first_ms: Any = None
    last_ms: Any = None

    def feed(self, message: Mapping[str, Any]) -> None:
        self.messages += 1
        stamp = message.get("timestamp")
        if isinstance(stamp, (int, float)) and not isinstance(stamp, bool):
            self.first_ms = stamp if self.first_ms is None else self.first_ms
            self.last_ms = stamp
        role = message.get("role")
        if role == "user":
            self._user(_text_of(message.get("content")))
        elif role == "assistant":
            self._assistant(message)
        elif role == "toolResult":
            call_id = message.get("toolCallId")
            if isinstance(call_id, str):
                self.pending_calls.pop(call_id, None)
        elif role == "bashExecution":
            self.tools["bash"] += 1
        error = error_of(message)
        if error is not None:
            self.error_count += 1
            self.errors.append(error)

    def _user(self, text: str) -> None:
        if not has_meaningful_text(text):
            return
        if _SLASH_COMMAND.match(text):  # `/context`, `/compact`: no request to carry on
            self.last_command = text[:200]
            return
        self.request_count += 1
        if len(self.head_requests) < HEAD_REQUESTS:
            self.head_requests.append(text[:4000])
        self.requests.append(text[:4000])
        self.last_user = text[:4000]
        self.answered = False
        self.questions.clear()  # the user spoke after the assistant's questions
        for sentence in _SENTENCE.split(text[:8000]):
            if _CONSTRAINT.search(sentence) and sentence.strip() and sentence.strip() not in self.constraints:
                self.constraints.append(sentence.strip())

    def _assistant(self, message: Mapping[str, Any]) -> None:
        content = message.get("content")
        blocks = content if isinstance(content, list) else []
        texts = [text for b in blocks
                 if isinstance(b, Mapping) and b.get("type") == "text" and isinstance(text := b.get("text"), str)]
        for block in blocks:
            if isinstance(block, Mapping) and block.get("type") == "toolCall":
                name = block.get("name") if isinstance(block.get("name"), str) else "tool"
                self.tools[name] += 1
                if isinstance(block.get("id"), str):
                    self.pending_calls[block["id"]] = f"{name}({clip(_args(block.get('arguments')), 80)})"
        text = "\n".join(texts)
        if _injected(message):
            return  # a command's output the Gateway wrote, not the model's answer
        if has_meaningful_text(text):
            self.answered = True
            self.last_answer = text[:4000]
            if any(_NEXT.match(line) for line in text.splitlines()):
                self.steps_text = text[-4000:]  # the newest answer that lists steps
            sentences = [s.strip() for s in _SENTENCE.split(text[-8000:]) if s.strip()]
            for sentence in sentences:
                if _DECISION.search(sentence) and sentence not in self.decisions:
                    self.decisions.append(sentence)
            if sentences and sentences[-1].endswith("?"):
                self.questions.append(sentences[-1])

    def next_steps(self) -> list[str]:
        steps = [_STEP_PREFIX.sub("", line).strip() for line in self.steps_text.splitlines()
                 if _NEXT.match(line) and not _STEPS_HEADING.match(line)]
        return [s for s in steps if s][-MAX_NEXT:]


def _injected(message: Mapping[str, Any]) -> bool:
    """A reply the Gateway wrote itself (a slash command's output, a delivery mirror)."""
    return message.get("provider") == "openclaw" and message.get("model") in ("gateway-injected", "delivery-mirror")


def error_of(message: Mapping[str, Any]) -> tuple[str, str] | None:
    """(source, text) of a failed tool call, a failed command or a failed model turn."""
    role = message.get("role")
    if role == "toolResult" and message.get("isError") is True:
        tool_name = message.get("toolName")
        name = tool_name if isinstance(tool_name, str) else "tool"
        return name, (_text_of(message.get("content")) or "failed")[:2000]
    if role == "bashExecution":
        code = message.get("exitCode")
        if isinstance(code, int) and code != 0:
            return "bash", f"`{clip(str(message.get('command')), 80)}` exited with code {code}"
    if role == "assistant" and message.get("stopReason") == "error":
        return "assistant", str(message.get("errorMessage") or "model error")[:2000]
    return None


def _digest(messages: Iterable[Mapping[str, Any]], digest: _Digest | None = None) -> _Digest:
    digest = digest or _Digest()
    for message in messages:
        role = message.get("role")
        for converted in convert_to_llm([message]) if role in ("custom", "branchSummary") else [message]:
            digest.feed(converted)
    return digest


def digest_entries(plan: CompactionPlan, infos: list) -> _Digest:
    """Notes from the first requests and the newest TAIL_WINDOW messages; totals from the index."""
    tail = infos[-TAIL_WINDOW:]
    older = infos[: len(infos) - len(tail)]
    head_users = [e for e in older if e.role == "user" and e.meaningful][:HEAD_REQUESTS]
    head = _digest(plan.iter_messages(head_users)) if head_users else None
    digest = _Digest()
    failed = [e for e in older if (e.extra or {}).get("error")][-MAX_ERRORS:]
    for message in plan.iter_messages(failed):  # the newest errors before the window (counted below)
        error = error_of(message)
        if error is not None:
            digest.errors.append(error)
    digest = _digest(plan.iter_messages(tail), digest)
    for e in older:
        for name in (e.extra or {}).get("tools", ()):
            digest.tools[name] += 1
        if e.role == "bashExecution":
            digest.tools["bash"] += 1
    digest.request_count += sum(1 for e in older if e.role == "user" and e.meaningful)
    digest.error_count += sum(1 for e in older if (e.extra or {}).get("error"))
    digest.messages += len(older)
    if head is not None:
        digest.head_requests = head.head_requests
        digest.first_ms = head.first_ms if head.first_ms is not None else digest.first_ms
        for item in reversed(head.constraints):  # the first constraints matter most
            if item not in digest.constraints:
                digest.constraints.appendleft(item)
        while len(digest.constraints) > MAX_CONSTRAINTS:
            digest.constraints.pop()
    return digest


# -- an earlier summary, carried over -------------------------------------------------------

SECTIONS = ("Goal", "Constraints & Preferences", "Done", "In Progress", "Blocked", "Key Decisions",
            "Next Steps", "Critical Context")


def previous_sections(summary: str | None) -> dict[str, list[str]]:
    """The items of an earlier summary (ours or a model's) by section, file tags and the
    split-turn part removed; text outside known sections lands in Critical Context."""
    if not summary:
        return {}
    text = _FILE_TAGS.sub("", summary.split(prompts.SPLIT_TURN_SEPARATOR)[0])
    out: dict[str, list[str]] = {}
    current = "Critical Context"
    for line in text.splitlines():
        heading = _HEADING.match(line)
        if heading:
            name = heading.group(2)
            current = name if name in SECTIONS else "Critical Context" if name != "Progress" else current
            continue
        item = re.sub(r"^\s*(?:[-*]\s*(?:\[[ x]\]\s*)?|\d+[.)]\s*)", "", line).strip()
        if item and not item.startswith("(none") and item != prompts.NO_PRIOR_HISTORY:
            out.setdefault(current, []).append(item)
    return out


# -- rendering ------------------------------------------------------------------------------


def _n(base: int, level: Level) -> int:
    return max(1, round(base * level.share))


def _section(title: str, items: list[str], *, numbered: bool = False, prefix: str = "- ") -> list[str]:
    if not items:
        return []
    body = [f"{i}. {item}" for i, item in enumerate(items, 1)] if numbered else [prefix + item for item in items]
    return [title, *body, ""]


def _merge(previous: list[str], new: list[str], limit: int) -> list[str]:
    seen: set[str] = set()
    out = []
    for item in [*previous[:MAX_PREVIOUS_ITEMS], *new]:
        if item not in seen:
            seen.add(item)
            out.append(item)
    return out[-limit:] if len(out) > limit else out


def render_history(d: _Digest, ops: FileOps, earlier: dict[str, list[str]], level: Level) -> str:
    """The history part of the summary at one level of detail."""
    c = level.item_chars
    recent = [clip(r, c) for r in d.requests]
    head = [r for r in (clip(h, c) for h in d.head_requests) if r not in recent]
    skipped = d.request_count - len(recent) - len(head)
    keep_recent = recent[-_n(MAX_REQUESTS, level):]
    skipped += len(recent) - len(keep_recent)
    goals = head[: _n(HEAD_REQUESTS, level)] + ([f"(+{skipped} more requests)"] if skipped > 0 else []) + keep_recent
    goals = _merge([clip(g, c) for g in earlier.get("Goal", [])][:_n(HEAD_REQUESTS, level)], goals,
                   _n(MAX_REQUESTS + HEAD_REQUESTS + 1, level) + 3)
    constraints = _merge([clip(x, c) for x in earlier.get("Constraints & Preferences", [])],
                         [clip(x, c) for x in d.constraints], _n(MAX_CONSTRAINTS, level))
    tools = ", ".join(f"{name} ×{count}" if count > 1 else name for name, count in sorted(d.tools.items()))
    done = _merge([clip(x, c) for x in earlier.get("Done", [])],
                  [f"Tool calls: {clip(tools, c * 2)}"] if tools else [], _n(MAX_DECISIONS, level))
    in_progress = []
    if d.last_user and not d.answered:
        in_progress.append(f"Unanswered request: {clip(d.last_user, c)}")
    in_progress += [f"Open question to the user: {clip(q, c)}" for q in list(d.questions)[-_n(MAX_QUESTIONS, level):]]
    in_progress += [f"No result recorded for {call}" for call in list(d.pending_calls.values())[-_n(4, level):]]
    errors = [f"{source}: {clip(text, c)}" for source, text in list(d.errors)[-_n(MAX_ERRORS, level):]]
    if d.error_count > len(errors):
        errors.insert(0, f"(+{_count(d.error_count - len(errors), 'earlier error')})")
    decisions = _merge([clip(x, c) for x in earlier.get("Key Decisions", [])],
                       [clip(x, c) for x in d.decisions], _n(MAX_DECISIONS, level))
    steps = [clip(s, c) for s in d.next_steps()]
    if not steps and d.last_user and not d.answered:
        steps = ["Answer the unanswered request above."]
    context = _critical_context(d, ops, earlier, level)
    lines = [*_section("## Goal", goals), *_section("## Constraints & Preferences", constraints)]
    progress = [*_section("### Done", done, prefix="- [x] "), *_section("### In Progress", in_progress, prefix="- [ ] "),
                *_section("### Blocked", errors)]
    if progress:
        lines += ["## Progress", *progress]
    lines += [*_section("## Key Decisions", decisions), *_section("## Next Steps", steps[: _n(MAX_NEXT, level)], numbered=True),
              *_section("## Critical Context", context)]
    return "\n".join(lines).rstrip() or prompts.NO_PRIOR_HISTORY


def _critical_context(d: _Digest, ops: FileOps, earlier: dict[str, list[str]], level: Level) -> list[str]:
    out = []
    if d.messages:
        calls = sum(d.tools.values())
        counts = f"Summarised: {_count(d.messages, 'message')}, {_count(d.request_count, 'request')}"
        counts += f", {_count(calls, 'tool call')}" if calls else ""
        counts += f", {_count(d.error_count, 'error')}" if d.error_count else ""
        first, last = _day(d.first_ms), _day(d.last_ms)
        if first and last:
            counts += f" ({first} to {last})" if first != last else f" ({first})"
        out.append(counts)
    if d.last_user:
        out.append(f"Last request: {clip(d.last_user, level.last_request_chars)}")
    if d.last_answer:
        out.append(f"Last answer: {clip(d.last_answer, level.last_request_chars // 2)}")
    read, modified = ops.lists()
    for label, files in (("Files modified", modified), ("Files read", read)):
        if files:
            recent = ops.most_recent_first(files)
            shown = ", ".join(recent[: _n(8, level)])
            more = f" (+{len(files) - _n(8, level)} more)" if len(files) > _n(8, level) else ""
            out.append(f"{label} (newest first): {shown}{more}")
    carried = [clip(x, level.item_chars) for x in earlier.get("Critical Context", [])
               if not x.startswith(("Summarised:", "Files modified", "Files read", "Last request:", "Last answer:"))]
    return out + [f"Earlier: {x}" for x in carried[: _n(MAX_PREVIOUS_ITEMS, level)]]


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def render_turn_prefix(d: _Digest, level: Level) -> str:
    c = level.item_chars
    request = clip(d.requests[0], c) if d.requests else \
        f"The command {clip(d.last_command, c)}" if d.last_command else "(not recorded)"
    progress = [f"{name} ×{count}" if count > 1 else name for name, count in sorted(d.tools.items())]
    progress += [clip(x, c) for x in list(d.decisions)[-3:]]
    context = [f"Tool error: {source}: {clip(text, c)}" for source, text in list(d.errors)[-3:]]
    context += [f"Awaiting result of {call}" for call in list(d.pending_calls.values())[-3:]]
    lines = ["## Original Request", request, ""]
    lines += _section("## Early Progress", progress) + _section("## Context for Suffix", context or
                                                                 ["The retained suffix continues this turn."])
    return "\n".join(lines).rstrip()


def utf8_len(text: str) -> int:
    return len(text.encode("utf-8", "surrogatepass"))


@dataclass
class ExtractiveSummarizer:
    """`--summarizer extractive`: the default offline summarizer (streams, no model).

    `count_tokens` counts with the session's tokenizer; it is only called when the summary has
    more UTF-8 bytes than `max_tokens` (a byte-level BPE never has more tokens than bytes).
    """

    max_tokens: int = DEFAULT_MAX_TOKENS
    count_tokens: Callable[[str], int] | None = None
    name: str = "extractive"
    covers_tail: bool = True  # when no recent tail is kept, the summary covers it too

    def fits(self, text: str) -> bool:
        if utf8_len(text) <= self.max_tokens:
            return True
        counter = self.count_tokens or _default_counter()
        return counter(text) <= self.max_tokens

    def summarize(self, plan: CompactionPlan) -> SummaryResult:
        earlier = previous_sections(plan.previous_summary())
        split = plan.is_split_turn and bool(plan.turn_prefix) and not plan.hardened
        scope = [*plan.history, *plan.turn_prefix, *plan.tail] if plan.hardened else plan.history
        history = digest_entries(plan, scope)
        prefix = digest_entries(plan, plan.turn_prefix) if split else None
        ops = plan.file_ops_with_tail() if plan.hardened else plan.file_ops
        read, modified = ops.lists()
        details = {"readFiles": read, "modifiedFiles": modified}
        read, modified = ops.most_recent_first(read), ops.most_recent_first(modified)
        summary = ""
        for level in LEVELS:
            body = render_history(history, ops, earlier, level)
            if prefix is not None:
                body += prompts.SPLIT_TURN_SEPARATOR + render_turn_prefix(prefix, level)
            files = format_capped_file_operations(read, modified, max_items=level.files, max_chars=level.file_chars)
            summary = body + files
            if self.fits(summary):
                return SummaryResult(summary=summary, details=details, from_hook=False)
        return SummaryResult(summary=self._truncate(summary, files), details=details, from_hook=False)

    def _truncate(self, summary: str, suffix: str) -> str:
        body = summary[: len(summary) - len(suffix)] if suffix else summary
        while body:
            body = body[: int(len(body) * 0.8)].rstrip()
            candidate = body + TRUNCATED_MARKER + suffix
            if self.fits(candidate):
                return candidate
        return TRUNCATED_MARKER.strip()


def _default_counter() -> Callable[[str], int]:
    from openclaw_cli.context.tokenizer import lazy_counter

    return lazy_counter("o200k_base")

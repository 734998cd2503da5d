"""Summaries from an OpenAI-compatible endpoint with OpenClaw's prompts (default mode)."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from openclaw_cli.compact.fileops import format_file_operations
from openclaw_cli.compact.planner import CompactionPlan
from openclaw_cli.compact.summarizers import prompts
from openclaw_cli.compact.summarizers.base import SummaryResult, file_details
from openclaw_cli.errors import UsageError
from openclaw_cli.transcript.messages import serialize_conversation

Transport = Callable[[dict[str, Any]], str]


def request_body(model: str, prompt_text: str, max_tokens: int,
                 max_tokens_field: str = "max_completion_tokens", store: bool | None = None) -> dict[str, Any]:
    """The chat-completions body the Gateway's `openai-completions` transport sends (`store`
    only where the transport sets it)."""
    body: dict[str, Any] = {
        "model": model,
        "messages": [
            {"role": "system", "content": prompts.SYSTEM_PROMPT},
            {"role": "user", "content": [{"type": "text", "text": prompt_text}]},
        ],
        "stream": True,
        "stream_options": {"include_usage": True},
    }
    if store is not None:
        body["store"] = store
    body[max_tokens_field] = max_tokens
    return body


def summary_requests(plan: CompactionPlan, *, custom_instructions: str | None = None
                     ) -> tuple[str | None, str | None]:
    """(history prompt or None for "No prior history.", turn-prefix prompt or None)."""
    previous = plan.previous_summary()
    split = plan.is_split_turn and bool(plan.turn_prefix)
    history_prompt: str | None = None
    if not split or plan.history:
        history_prompt = prompts.summary_prompt(_serialize(plan.history_messages()), previous,
                                                custom_instructions)
    prefix_prompt = prompts.turn_prefix_prompt(_serialize(plan.turn_prefix_messages())) if split else None
    return history_prompt, prefix_prompt


def _serialize(messages: Iterable[dict]) -> str:
    return serialize_conversation(list(messages))


@dataclass
class OpenAISummarizer:
    """`--summarizer openai`: one history request (plus one turn-prefix request for a split turn)."""

    base_url: str
    model: str
    api_key: str | None = None
    model_max_tokens: int | None = None
    custom_instructions: str | None = None
    timeout: float = 300.0
    max_tokens_field: str = "max_completion_tokens"
    transport: Transport | None = None
    name: str = "openai"
    requests: list[dict[str, Any]] = field(default_factory=list)

    def _complete(self, body: dict[str, Any]) -> str:
        self.requests.append(body)
        if self.transport is not None:
            return self.transport(body)
        from openclaw_cli.compact.summarizers.http import post_chat_completion

        return post_chat_completion(self.base_url, body, api_key=self.api_key, timeout=self.timeout)

    def planned_requests(self, plan: CompactionPlan) -> list[dict[str, Any]]:
        """The request bodies this summarizer would send, in order (for dry runs and tests)."""
        return [body for _, body in self._bodies(plan)]

    def _bodies(self, plan: CompactionPlan) -> list[tuple[str, dict[str, Any]]]:
        history_prompt, prefix_prompt = summary_requests(plan, custom_instructions=self.custom_instructions)
        reserve = plan.settings.reserve_tokens
        bodies = []
        if history_prompt is not None:
            bodies.append(("history", request_body(
                self.model, history_prompt, prompts.summary_max_tokens(reserve, self.model_max_tokens, 0.8),
                self.max_tokens_field)))
        if prefix_prompt is not None:
            bodies.append(("prefix", request_body(
                self.model, prefix_prompt, prompts.summary_max_tokens(reserve, self.model_max_tokens, 0.5),
                self.max_tokens_field)))
        return bodies

    def summarize(self, plan: CompactionPlan) -> SummaryResult:
        bodies = dict(self._bodies(plan))
        history = self._complete(bodies["history"]) if "history" in bodies else prompts.NO_PRIOR_HISTORY
        summary = history
        if "prefix" in bodies:
            summary = f"{history}{prompts.SPLIT_TURN_SEPARATOR}{self._complete(bodies['prefix'])}"
        details, read, modified = file_details(plan)
        summary += format_file_operations(read, modified)
        return SummaryResult(summary=summary, details=details, from_hook=False,
                             requests=list(self.requests))


def api_key_from_env(name: str | None) -> str | None:
    """The key held by environment variable `name` (None when no variable is named)."""
    if not name:
        return None
    value = os.environ.get(name)
    if not value:
        raise UsageError(f"environment variable {name} (API key) is not set")
    return value

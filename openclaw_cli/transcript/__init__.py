"""Transcript model: streamed JSONL reading, entry tree, active branch, context and token estimates.

Public API (shared by `compact` and `context`):

* `load_index(path) -> TranscriptIndex` – one streaming pass; light `EntryInfo` per entry,
  leaf/branch per the session manager (`index.branch()`), `index.load(info)` for content.
* `context_items(index, path)`, `context_tokens(items)`, `has_real_conversation(items)` –
  the rebuilt context of a branch and its token size.
* `estimate_tokens(message)`, `calculate_context_tokens(usage)` – per-message estimates.
* `build_session_context(entries)`, `serialize_conversation(messages)` – for full entries.
* `display.read_display_messages(path)`, `display.compactable_counts(path)` – the Gateway's
  display reader (chat history / `/context detail` counts); `tree.scan_tree`/`select_path`.
"""

from openclaw_cli.transcript.context import (
                                             ContextItem,
                                             build_session_context,
                                             context_items,
                                             context_tokens,
                                             count_real,
                                             estimated_total,
                                             has_real_conversation,
                                             latest_compaction_index,
)
from openclaw_cli.transcript.index import EntryInfo, TranscriptError, TranscriptIndex, load_index
from openclaw_cli.transcript.messages import convert_to_llm, serialize_conversation
from openclaw_cli.transcript.tokens import calculate_context_tokens, estimate_context_tokens, estimate_tokens

__all__ = [
    "ContextItem", "EntryInfo", "TranscriptError", "TranscriptIndex", "build_session_context",
    "calculate_context_tokens", "context_items", "context_tokens", "convert_to_llm", "count_real",
    "estimate_context_tokens", "estimate_tokens", "estimated_total", "has_real_conversation",
    "latest_compaction_index", "load_index", "serialize_conversation",
]

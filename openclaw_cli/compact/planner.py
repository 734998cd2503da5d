"""Choose what a compaction keeps and summarises (`prepareCompaction` / `findCutPoint`, 2026.7.1)."""

from __future__ import annotations

import copy
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from openclaw_cli.compact.fileops import FileOps
from openclaw_cli.compact.settings import CompactionSettings
from openclaw_cli.transcript import (
    ContextItem,
    EntryInfo,
    TranscriptIndex,
    context_items,
    context_tokens,
    estimated_total,
    has_real_conversation,
)
from openclaw_cli.transcript.messages import message_from_entry

CUT_POINT_ROLES = frozenset({"bashExecution", "custom", "branchSummary", "compactionSummary",
                             "user", "assistant"})
MESSAGE_ENTRY_TYPES = frozenset({"message", "custom_message", "branch_summary"})


class NothingToCompact(Exception):
    """The session cannot or need not be compacted; `reason` is OpenClaw's wording."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class CutPoint:
    first_kept_index: int
    turn_start_index: int
    is_split_turn: bool


def find_valid_cut_points(path: Sequence[EntryInfo], start: int, end: int) -> list[int]:
    """Message entries of conversational roles, plus branch summaries and custom messages.

    A toolResult is never a cut point, so a kept tool call always keeps its results.
    """
    points = []
    for i in range(start, end):
        entry = path[i]
        if entry.type == "message":
            if entry.role in CUT_POINT_ROLES:
                points.append(i)
        elif entry.type in ("branch_summary", "custom_message"):
            points.append(i)
    return points


def find_turn_start_index(path: Sequence[EntryInfo], entry_index: int, start: int) -> int:
    for i in range(entry_index, start - 1, -1):
        entry = path[i]
        if entry.type in ("branch_summary", "custom_message"):
            return i
        if entry.type == "message" and entry.role in ("user", "bashExecution"):
            return i
    return -1


def find_cut_point(path: Sequence[EntryInfo], start: int, end: int, keep_recent_tokens: int) -> CutPoint:
    """Keep about `keep_recent_tokens` of the newest messages; cut at a valid point."""
    points = find_valid_cut_points(path, start, end)
    if not points:
        return CutPoint(start, -1, False)
    cut = points[0]
    accumulated = 0
    for i in range(end - 1, start - 1, -1):
        entry = path[i]
        if entry.type != "message":
            continue
        accumulated += entry.tokens
        if accumulated >= keep_recent_tokens:
            cut = next((p for p in points if p >= i), points[-1])
            break
    while cut > start:
        previous = path[cut - 1]
        if previous.type in ("compaction", "message"):
            break
        cut -= 1
    cut_entry = path[cut]
    is_user = cut_entry.type == "message" and cut_entry.role == "user"
    turn_start = -1 if is_user else find_turn_start_index(path, cut, start)
    return CutPoint(cut, turn_start, not is_user and turn_start != -1)


@dataclass
class CompactionPlan:
    """Everything needed to write a compaction, before any summary exists."""

    index: TranscriptIndex
    path: list[EntryInfo]
    settings: CompactionSettings
    boundary_start: int
    cut: CutPoint
    first_kept_entry_id: str
    history: list[EntryInfo]
    turn_prefix: list[EntryInfo]
    tokens_before: float
    previous: EntryInfo | None
    file_ops: FileOps = field(default_factory=FileOps)
    context_before: list[ContextItem] = field(default_factory=list)

    @property
    def leaf_id(self) -> str | None:
        return self.index.leaf_id

    @property
    def parent_id(self) -> str | None:
        """The new entry's parentId: the session manager's append cursor (the old leaf)."""
        return self.index.append_parent_id

    @property
    def is_split_turn(self) -> bool:
        return self.cut.is_split_turn

    @property
    def kept(self) -> list[EntryInfo]:
        return self.path[self.cut.first_kept_index:]

    def previous_summary(self) -> str | None:
        if self.previous is None:
            return None
        summary = self.index.load(self.previous).get("summary")
        return summary if isinstance(summary, str) else None

    def iter_messages(self, infos: Sequence[EntryInfo]) -> Iterator[dict]:
        """The agent messages of `infos`, read from disk one at a time."""
        for entry in self.index.iter_load(list(infos)):
            message = message_from_entry(entry, for_compaction=True)
            if message is not None:
                yield message

    def history_messages(self) -> Iterator[dict]:
        return self.iter_messages(self.history)

    def turn_prefix_messages(self) -> Iterator[dict]:
        return self.iter_messages(self.turn_prefix)

    @property
    def summarized_tokens(self) -> int:
        return sum(e.tokens for e in self.history) + sum(e.tokens for e in self.turn_prefix)

    @property
    def hardened(self) -> bool:
        """Whether OpenClaw's manual-boundary hardening points firstKeptEntryId at the
        compaction itself, so that no recent tail is kept (keepRecentTokens not configured and
        something summarised; the summary is never empty here)."""
        if not self.settings.harden_manual_boundary:
            return False
        first_kept = self.cut.first_kept_index
        return any(e.type in MESSAGE_ENTRY_TYPES for e in self.path[self.boundary_start:first_kept])

    @property
    def tail(self) -> list[EntryInfo]:
        """The summarisable entries from the cut on (what a hardened compaction drops)."""
        return [e for e in self.kept if e.type in MESSAGE_ENTRY_TYPES]

    def file_ops_with_tail(self) -> FileOps:
        """The file operations of the summarised messages and of the recent tail."""
        ops = copy.deepcopy(self.file_ops)
        for entry in self.tail:
            ops.add_all((entry.extra or {}).get("fileOps", ()))
        return ops

    @property
    def kept_tokens(self) -> int:
        """Estimated tokens the run keeps besides the summary (none when hardened)."""
        return 0 if self.hardened else sum(e.tokens for e in self.kept if e.in_context)

    @property
    def estimated_before(self) -> int:
        """The chars/4 estimate of the context before the compaction (all its messages)."""
        return estimated_total(self.context_before)

    def estimated_after(self, summary_tokens: int) -> int:
        return summary_tokens + self.kept_tokens

    def tokens_after(self, summary_tokens: int) -> int | None:
        """`estimateTokensAfterCompaction` for a manual compaction (no observed count)."""
        after = self.estimated_after(summary_tokens)
        baseline = self.estimated_before
        if baseline > 0 and after > baseline * 1.1:
            return None
        return after


def plan_compaction(index: TranscriptIndex, settings: CompactionSettings) -> CompactionPlan:
    """Plan a manual compaction of the active branch, or raise NothingToCompact."""
    path = index.branch()
    context = context_items(index, path)
    if not has_real_conversation(context):
        raise NothingToCompact("no real conversation messages")
    if not path:
        raise NothingToCompact("Nothing to compact (session too small)")
    if path[-1].type == "compaction":
        raise NothingToCompact("Already compacted")
    previous_index = next((i for i in range(len(path) - 1, -1, -1) if path[i].type == "compaction"), -1)
    previous = path[previous_index] if previous_index >= 0 else None
    boundary_start = 0
    if previous is not None:
        first_kept = index.first_kept_id(previous)
        found = next((i for i, e in enumerate(path) if e.id == first_kept), -1)
        boundary_start = found if found >= 0 else previous_index + 1
    cut = find_cut_point(path, boundary_start, len(path), settings.keep_recent_tokens)
    history_end = cut.turn_start_index if cut.is_split_turn else cut.first_kept_index

    def summarisable(infos: Sequence[EntryInfo]) -> list[EntryInfo]:
        return [e for e in infos if e.type in MESSAGE_ENTRY_TYPES]

    history = summarisable(path[boundary_start:history_end])
    turn_prefix = summarisable(path[cut.turn_start_index:cut.first_kept_index]) if cut.is_split_turn else []
    ops = FileOps()
    if previous is not None and not (previous.extra or {}).get("fromHook"):
        ops.add_previous((previous.extra or {}).get("details"))
    for entry in (*history, *turn_prefix):
        ops.add_all((entry.extra or {}).get("fileOps", ()))
    return CompactionPlan(index=index, path=path, settings=settings, boundary_start=boundary_start,
                          cut=cut, first_kept_entry_id=path[cut.first_kept_index].id,
                          history=history, turn_prefix=turn_prefix,
                          tokens_before=context_tokens(context), previous=previous,
                          file_ops=ops, context_before=context)

"""Lines beyond OpenClaw: where the numbers came from, the transcript breakdown by role, the
largest tool results, and what a compaction would free."""

from __future__ import annotations

from typing import TYPE_CHECKING

from openclaw_cli.context.target import SqliteTranscript
from openclaw_cli.context.units import format_int

if TYPE_CHECKING:
    from openclaw_cli.context.render import ContextView
    from openclaw_cli.context.transcript import TranscriptStats
    from openclaw_cli.context.view import Loaded

ORIGINS = {
    "gateway": "the run report the running Gateway holds for this session (sessions.usage)",
    "store": "the run report persisted on the session entry in sessions.json",
    "estimate": "an on-demand estimate from the workspace on disk; the rendered system prompt and "
                "the live tool schemas are known only to a running Gateway",
}


def _tok(view: ContextView, bucket: list[int]) -> str:
    text = f"~{format_int(bucket[1])} tok"
    if view.tokenizer:
        text += f" ({view.tokenizer}: {format_int(bucket[2])} tok)"
    return text


def extra_lines(loaded: Loaded, view: ContextView, stats: TranscriptStats | None, *, detail: bool) -> list[str]:
    origin = ORIGINS[loaded.origin]
    if loaded.origin == "store" and loaded.target.sqlite_path is not None:
        origin = "the run report persisted on the session entry in the agent database"
    lines = [f"Source: {origin}."]
    if not detail:
        return lines
    source = loaded.target.transcript_source()
    if isinstance(source, SqliteTranscript) and source.is_cold():
        lines.append("Transcript: in cold storage (session.maintenance.coldStorage); read from its archive, "
                     "which the Gateway restores on the session's next read.")
    if stats is not None and stats.total:
        lines.append("Transcript (active branch, as the Gateway reads it):")
        for role, bucket in sorted(stats.by_role.items(), key=lambda kv: -kv[1][1]):
            lines.append(f"- {role}: {format_int(bucket[0])} message(s), {_tok(view, bucket)}")
        if stats.largest_tool_results:
            lines.append("Largest tool results:")
            for item in stats.largest_tool_results:
                name = item.tool_name or "(unnamed tool)"
                where = f" [entry {item.entry_id}]" if item.entry_id else ""
                exact = f" ({view.tokenizer}: {format_int(item.exact)} tok)" if view.tokenizer and item.exact is not None else ""
                lines.append(f"- {name}: ~{format_int(item.tokens)} tok{exact}{where}")
        if stats.oversized_lines:
            lines.append(f"Oversized lines (over 256 KiB, read as placeholders): {format_int(stats.oversized_lines)}")
        if stats.file is not None:
            lines.append(_compaction_line(loaded, view, stats.file))
        elif isinstance(source, SqliteTranscript):  # the planner reads a file: the events go to a temporary one
            with source.as_file() as path:
                lines.append(_compaction_line(loaded, view, path))
    return lines


def _compaction_line(loaded: Loaded, view: ContextView, path: str) -> str:
    from openclaw_cli.compact.planner import NothingToCompact, plan_compaction
    from openclaw_cli.compact.settings import resolve_settings
    from openclaw_cli.transcript import TranscriptError, load_index

    try:
        settings = resolve_settings(loaded.target.cfg, context_window=view.context_tokens)
        plan = plan_compaction(load_index(path), settings)
    except NothingToCompact as exc:
        return f"Compaction: nothing to free ({exc.reason})."
    except (TranscriptError, OSError, ValueError) as exc:
        return f"Compaction: cannot tell ({exc})."
    summarised = plan.summarized_tokens
    kept = sum(e.tokens for e in plan.kept if e.in_context)
    return (f"Compaction (keepRecentTokens {format_int(settings.keep_recent_tokens)}): would summarise "
            f"{format_int(len(plan.history) + len(plan.turn_prefix))} message(s), ~{format_int(summarised)} tok, "
            f"and keep ~{format_int(kept)} tok; context now ~{format_int(round(plan.tokens_before))} tok, "
            f"so it frees up to ~{format_int(summarised)} tok minus the summary.")


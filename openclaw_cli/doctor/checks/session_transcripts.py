"""`core/doctor/session-transcripts`: broken prompt-rewrite branches and legacy codex metadata."""

from __future__ import annotations

from typing import TYPE_CHECKING

from openclaw_cli.doctor.model import Check, Finding

if TYPE_CHECKING:
    from openclaw_cli.doctor.context import DoctorContext
    from openclaw_cli.doctor.report import Report
    from openclaw_cli.doctor.support.transcript_repair import TranscriptResult

CHECK_ID = "core/doctor/session-transcripts"
MAX_LISTED = 20


def scan(ctx: DoctorContext, *, repair: bool) -> list[TranscriptResult]:
    from openclaw_cli.doctor.support.sessionfiles import list_agent_session_dirs
    from openclaw_cli.doctor.support.transcript_repair import list_transcripts, repair_file, transcript_order

    folders = list_agent_session_dirs(ctx.state_dir)
    # Reading changes nothing, so only the broken few need ordering (a stable sort of a subset keeps
    # the order the whole list sorted would give them): collating 20,000 names costs seconds. A repair
    # rewrites just those, in OpenClaw's order (a file that reads clean is never rewritten).
    broken = {r.path: r for r in (repair_file(path, repair=False) for path in list_transcripts(folders, ordered=False))
              if r.broken}
    ordered = transcript_order(list(broken))
    if repair:
        return [r for r in (repair_file(path, repair=True) for path in ordered) if r.broken]
    return [broken[path] for path in ordered]


def finding_for(result: TranscriptResult) -> Finding:
    n = result.codex_entries
    metadata = f" {n} legacy OpenAI Codex metadata entr{'y' if n == 1 else 'ies'}" if n else ""
    return Finding(CHECK_ID, "info",
                   f"Session transcript has legacy branch or provider metadata that can be cleaned up.{metadata}",
                   result.path, "To clean up the advisory artifact, run `openclaw doctor --fix` to rewrite affected "
                                "transcripts to their active branch.")


class SessionTranscriptsCheck(Check):
    def __init__(self) -> None:
        super().__init__(CHECK_ID, "Session transcripts",
                         "Transcripts with duplicated prompt-rewrite branches or legacy provider metadata.",
                         severity="info")

    def detect(self, ctx: DoctorContext) -> list[Finding]:
        return [finding_for(r) for r in scan(ctx, repair=False)]

    def run(self, ctx: DoctorContext, report: Report) -> None:
        repair = ctx.should_repair
        broken = scan(ctx, repair=repair)
        if not broken:
            return
        repaired = sum(1 for r in broken if r.repaired)
        lines = [f"- Found {len(broken)} transcript file{'' if len(broken) == 1 else 's'} with legacy state."]
        for r in broken[:MAX_LISTED]:
            status = "repaired" if r.repaired else "needs repair"
            codex = f" openai-codex={r.codex_entries}" if r.codex_entries else ""
            backup = f" backup={ctx.display(r.backup)}" if r.backup else ""
            lines.append(f"- {ctx.display(r.path)} {status} entries={r.original_entries}->{r.active_entries + 1}"
                         f"{codex}{backup}")
        if len(broken) > MAX_LISTED:
            lines.append(f"- ...and {len(broken) - MAX_LISTED} more.")
        if not repair:
            lines.append('- Run "openclaw doctor --fix" to rewrite affected files to their active branch.')
            report.pending_fix = True
        elif repaired:
            lines.append(f"- Repaired {repaired} transcript file{'' if repaired == 1 else 's'}.")
        report.note("Session transcripts", lines, check_id=self.id, findings=[finding_for(r) for r in broken],
                    kind="changes" if repair and repaired else "warning")
        if repaired:
            report.changed.extend(f"- rewrote {ctx.display(r.path)}" for r in broken if r.repaired)

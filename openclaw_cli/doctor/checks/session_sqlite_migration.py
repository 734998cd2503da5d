"""`core/doctor/session-sqlite-migration`: file-era transcripts beside an agent database compared
with it, event for line: which originals are safe to retire, which are missing or differ."""

from __future__ import annotations

from typing import TYPE_CHECKING

from openclaw_cli.doctor.model import Check, Finding

if TYPE_CHECKING:
    from openclaw_cli.doctor.context import DoctorContext
    from openclaw_cli.doctor.report import Report
    from openclaw_cli.doctor.support.migration_verify import Outcome

CHECK_ID = "core/doctor/session-sqlite-migration"
KEEP = "Keep the original: it holds events the database does not. "
RECOVER_HINT = KEEP + ("With the Gateway stopped, `openclaw doctor --session-sqlite recover` (or `openclaw doctor "
                       "--fix`) verifies it, imports the missing events and archives the original.")
DIFF_HINT = ("Keep the original and compare it with `openclaw sessions export KEY` before retiring either.")
ENTRY_HINT = ("Keep sessions.json; with the Gateway stopped, `openclaw doctor --session-sqlite validate` "
              "reports the same and `--session-sqlite import` imports what is missing.")
RETIRE_HINT = "Safe to retire: delete or move it (OpenClaw reads the database only)."


def _finding(outcome: Outcome) -> Finding:
    from openclaw_cli.doctor.support import migration_verify as mv

    if outcome.code == mv.VERIFIED:
        return Finding(CHECK_ID, "info", outcome.message, outcome.path, RETIRE_HINT, requirement=outcome.code)
    if outcome.code in (mv.NOT_IMPORTED, mv.COUNT_MISMATCH):
        hint = RECOVER_HINT
    elif outcome.code in (mv.ENTRY_MISSING, mv.ENTRY_MISMATCH):
        hint = ENTRY_HINT
    else:
        hint = DIFF_HINT
    return Finding(CHECK_ID, "warning", outcome.message, outcome.path, hint, requirement=outcome.code)


class SessionSqliteMigrationCheck(Check):
    def __init__(self) -> None:
        super().__init__(CHECK_ID, "Session SQLite migration",
                         "File-era transcripts left beside an agent database match its events.")

    def detect(self, ctx: DoctorContext) -> list[Finding]:
        from openclaw_cli.doctor.support.migration_verify import verify_agent
        from openclaw_cli.doctor.support.sqlite_stores import agent_databases
        from openclaw_cli.errors import StoreError
        from openclaw_cli.store.sqlite.connection import OLDEST_AGENT_SCHEMA, SUPPORTED_AGENT_SCHEMA
        from openclaw_cli.store.sqlite.inspect import probe_db

        out: list[Finding] = []
        for agent in agent_databases(ctx):
            probe = probe_db(agent.sqlite_path, "agent", quick_check=False)
            version = probe.user_version
            if probe.error is not None or version is None or probe.meta_role != "agent" \
                    or not OLDEST_AGENT_SCHEMA <= version <= SUPPORTED_AGENT_SCHEMA:
                continue  # core/doctor/session-sqlite says why it cannot be read
            try:
                verdict = verify_agent(agent, version)
            except StoreError as exc:
                out.append(Finding(CHECK_ID, "warning", f"Agent {agent.agent_id}: the originals could not be "
                                   f"compared: {exc.message}", agent.sqlite_path,
                                   "Keep every original until the database reads cleanly.",
                                   requirement="sqlite_read_failed"))
                continue
            out.extend(_finding(outcome) for outcome in verdict.outcomes)
        return out

    def run(self, ctx: DoctorContext, report: Report) -> None:
        from openclaw_cli.doctor.support.notes import report_findings

        report_findings(ctx, report, self.title, self.id, self.detect(ctx))

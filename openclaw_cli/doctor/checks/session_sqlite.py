"""`core/doctor/session-sqlite`: each agent database and the global state database opens, is of a
schema this tool knows, passes `PRAGMA quick_check`, and keeps a WAL of a sane size."""

from __future__ import annotations

from typing import TYPE_CHECKING

from openclaw_cli.doctor.model import Check, Finding

if TYPE_CHECKING:
    from openclaw_cli.doctor.context import DoctorContext
    from openclaw_cli.doctor.report import Report
    from openclaw_cli.store.sqlite.inspect import DbProbe

CHECK_ID = "core/doctor/session-sqlite"
WAL_LIMIT_BYTES = 64 * 1024 * 1024  # OpenClaw's journal_size_limit: a WAL above it is not being truncated
RECOVER_HINT = ("Stop the Gateway, keep a copy of the file, then run `openclaw doctor --session-sqlite recover` "
                "(OpenClaw 2026.9+) or restore the file from a backup.")


def _who(probe: DbProbe, agent_id: str | None) -> str:
    return f"Agent {agent_id} database" if agent_id is not None else "Global state database"


def _schema_findings(probe: DbProbe, agent_id: str | None) -> list[Finding]:
    from openclaw_cli.store.sqlite.connection import OLDEST_AGENT_SCHEMA

    who, version = _who(probe, agent_id), probe.user_version
    if version is not None and version > probe.supported:
        return [Finding(CHECK_ID, "error", f"{who} was written by a newer OpenClaw (schema {version}); this tool "
                        f"reads up to {probe.supported}.", probe.path,
                        "Use the OpenClaw release that wrote it (or a newer openclaw_cli) for this database.",
                        requirement="schema_newer")]
    if probe.meta_role is None:
        return [Finding(CHECK_ID, "error", f"{who} has no schema_meta row (schema {version}), so it is not an "
                        "OpenClaw database OpenClaw can open.", probe.path, RECOVER_HINT,
                        requirement="schema_missing")]
    if probe.meta_role != probe.role:
        return [Finding(CHECK_ID, "error", f"{who} is marked as a {probe.meta_role!r} database, not "
                        f"{probe.role!r}.", probe.path, "Move the file aside; OpenClaw refuses it.",
                        requirement="schema_role_mismatch")]
    if probe.role == "agent" and version is not None and version < OLDEST_AGENT_SCHEMA:
        return [Finding(CHECK_ID, "warning", f"{who} has schema {version}, older than any that holds sessions "
                        f"({OLDEST_AGENT_SCHEMA}).", probe.path,
                        "Start the Gateway of OpenClaw 2026.8+ once: it migrates the schema.",
                        requirement="schema_old")]
    if probe.meta_version is not None and version is not None and probe.meta_version != version:
        return [Finding(CHECK_ID, "warning", f"{who} has user_version {version} but schema_meta says "
                        f"{probe.meta_version}.", probe.path, RECOVER_HINT, requirement="schema_version_mismatch")]
    if agent_id is not None and probe.meta_agent is not None and probe.meta_agent != agent_id:
        return [Finding(CHECK_ID, "warning", f"{who} belongs to agent {probe.meta_agent!r}; OpenClaw refuses to "
                        "open it for this agent.", probe.path,
                        f"Move it to agents/{probe.meta_agent}/agent/ in the state folder: OpenClaw 2026.9.6 opens "
                        "each agent's database there, whatever agentDir says.",
                        requirement="agent_mismatch")]
    return []


def probe_findings(probe: DbProbe, agent_id: str | None) -> list[Finding]:
    """The findings of one database: it cannot be opened; its schema; quick_check; its WAL."""
    who = _who(probe, agent_id)
    if probe.error is not None:
        return [Finding(CHECK_ID, "error", f"{who} could not be opened: {probe.error}.", probe.path, RECOVER_HINT,
                        requirement="sqlite_corrupt")]
    out = _schema_findings(probe, agent_id)
    if probe.quick_check and probe.quick_check != ["ok"]:
        shown = "; ".join(probe.quick_check[:3]) + ("; …" if len(probe.quick_check) > 3 else "")
        out.append(Finding(CHECK_ID, "error", f"{who}: SQLite quick_check reported: {shown}", probe.path,
                           RECOVER_HINT, requirement="sqlite_integrity_check_failed"))
    if probe.wal_bytes > WAL_LIMIT_BYTES:
        mode = "--session-sqlite compact" if agent_id is not None else "--state-sqlite compact"
        out.append(Finding(CHECK_ID, "warning", f"{who} has a {probe.wal_bytes} byte write-ahead log, above "
                           f"OpenClaw's {WAL_LIMIT_BYTES} byte limit: a reader holds it open or checkpoints "
                           "fail.", probe.path + "-wal",
                           "Restart the Gateway (it checkpoints and truncates the WAL), or with the Gateway "
                           f"stopped run `openclaw doctor {mode}`.", requirement="wal_large"))
    return out


class SessionSqliteCheck(Check):
    def __init__(self) -> None:
        super().__init__(CHECK_ID, "Session databases",
                         "Agent and state SQLite databases open, have a known schema, pass quick_check and "
                         "keep a small WAL.")

    def detect(self, ctx: DoctorContext) -> list[Finding]:
        from openclaw_cli.doctor.support.sqlite_stores import agent_databases, global_database
        from openclaw_cli.store.sqlite.inspect import probe_db

        out: list[Finding] = []
        for agent in agent_databases(ctx):
            out.extend(probe_findings(probe_db(agent.sqlite_path, "agent"), agent.agent_id))
        state_db = global_database(ctx)
        if state_db is not None:
            out.extend(probe_findings(probe_db(state_db, "global"), None))
        return out

    def run(self, ctx: DoctorContext, report: Report) -> None:
        from openclaw_cli.doctor.support.notes import report_findings

        report_findings(ctx, report, self.title, self.id, self.detect(ctx))

"""`sessions verify`: every referenced transcript (and with --orphans the unreferenced ones) checked, one finding per problem."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

from openclaw_cli.health.findings import ERROR, WARNING, Finding, has_errors


@dataclass
class Verified:
    key: str | None
    path: str
    findings: list[Finding]
    keys: list[str] = field(default_factory=list)
    likely_key: str | None = None
    key_source: str | None = None

    @property
    def ok(self) -> bool:
        return not has_errors(self.findings)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"key": self.key, "path": self.path, "ok": self.ok,
                               "findings": [f.to_json() for f in self.findings]}
        if self.likely_key is not None:
            out["likelyKey"] = self.likely_key
            out["keySource"] = self.key_source
        return out


@dataclass
class StoreReport:
    agent_id: str
    store_path: str
    sessions: list[Verified]


def select_stores(cfg: dict, env: Any, *, key: str | None, agent: str | None, all_agents: bool) -> list[Any]:
    """(agent id, store path, canonical key or None) for each store the command reads."""
    from openclaw_cli.commands.compact import resolve_local_target
    from openclaw_cli.config.agents import resolve_session_store_targets
    from openclaw_cli.errors import UsageError

    if key is not None:
        if all_agents:
            raise UsageError("KEY cannot be combined with --all-agents")
        if not key.strip():
            raise UsageError("KEY must not be empty")
        target = resolve_local_target(cfg, env, key, agent)
        return [(target.agent_id, target.store_path, target.key)]
    return [(t.agent_id, t.store_path, None) for t in resolve_session_store_targets(
        cfg, agent=agent, all_agents=all_agents, env=env)]


def verify_store(agent_id: str, store_path: str, entries: dict, *, key: str | None, orphans: bool) -> StoreReport:
    from openclaw_cli.health import evidence, targets
    from openclaw_cli.health.scan import scan_transcript
    from openclaw_cli.health.verify import check_scan, verify_file

    sessions = targets.collect(agent_id, store_path, entries)
    out: list[Verified] = []
    for found in sessions.referenced:
        if key is not None and key not in found.keys:
            continue
        findings = verify_file(found.path, found.session_id)
        if len(found.keys) > 1:
            findings.insert(0, Finding("shared-transcript", "the transcript is referenced by "
                                       f"{len(found.keys)} keys: {', '.join(found.keys)}"))
        out.append(Verified(found.key if key is None else key, found.path, findings, found.keys))
    for missing_key, path in sessions.missing:
        if key is None or key == missing_key:
            out.append(Verified(missing_key, path, [Finding(
                "transcript-missing", "the transcript does not exist (the Gateway starts a new one on the next turn)")]))
    if orphans and key is None:
        backups = evidence.BackupIndex(store_path)
        for path in targets.unreferenced(sessions):
            try:
                scan = scan_transcript(path)
            except OSError as exc:
                out.append(Verified(None, path, [Finding("unreadable", f"cannot read the transcript: {exc.strerror}")]))
                continue
            header_id = scan.header.get("id") if scan.header else None
            sid = header_id if isinstance(header_id, str) and header_id else os.path.basename(path)[:-6]
            guess = evidence.likely_key(backups, agent_id, path, sid)
            where = "" if guess.source == "fallback" else \
                f" (from {'its trajectory sidecar' if guess.source == 'trajectory' else guess.source[len('backup:'):]})"
            text = (f"no store entry references this transcript; it most likely belonged to {guess.key}{where}; "
                    "`openclaw sessions recover` puts it back" if guess.source != "fallback" else
                    "no store entry references this transcript and nothing names its key; "
                    f"`openclaw sessions recover` puts it back as {guess.key}")
            findings = [Finding("unreferenced", text, None, sid), *check_scan(scan, None)]
            out.append(Verified(None, path, findings, likely_key=guess.key, key_source=guess.source))
    return StoreReport(agent_id, store_path, out)


def render_text(reports: list[StoreReport]) -> list[str]:
    lines: list[str] = []
    total = errors = warnings = 0
    for report in reports:
        lines.append(f"Session store: {report.store_path}")
        for item in report.sessions:
            total += 1
            worst = "error" if not item.ok else (
                "warning" if any(f.severity == WARNING for f in item.findings) else "ok")
            errors += worst == "error"
            warnings += worst == "warning"
            label = item.key or f"(unreferenced; likely {item.likely_key})"
            lines.append(f"{worst:<8}{label}  {item.path}")
            for f in item.findings:
                where = f"line {f.line}" if f.line is not None else "file"
                entry = f" entry {f.entry_id}" if f.entry_id and f.code != "unreferenced" else ""
                lines.append(f"  {where}{entry}: {f.severity} {f.code}: {f.message}")
    lines.append(f"Verified {total} transcript{'s' if total != 1 else ''}: {total - errors - warnings} ok, "
                 f"{warnings} with warnings, {errors} with errors.")
    return lines


def run_verify_command(*, key: str | None, agent: str | None, all_agents: bool, orphans: bool,
                       json_out: bool) -> int:
    """Verify and print; 1 when any finding is an error."""
    from openclaw_cli.config.load import load_config
    from openclaw_cli.store.sessions_json import load_store
    from openclaw_cli.ui import console as output

    if key is not None and orphans:
        from openclaw_cli.errors import UsageError

        raise UsageError("--orphans checks the transcripts no key references; it cannot be combined with KEY")
    env = os.environ
    cfg = load_config(env).data
    stores = select_stores(cfg, env, key=key, agent=agent, all_agents=all_agents)
    loaded = [(agent_id, path, k, load_store(path).store) for agent_id, path, k in stores]
    if key is not None:
        _agent, path, canonical, entries = loaded[0]
        if canonical not in entries:
            from openclaw_cli.errors import CliError

            raise CliError(f"unknown session {canonical} in {path}")
    reports = [verify_store(a, p, e, key=k, orphans=orphans) for a, p, k, e in loaded]
    if json_out:
        output.print_json({"sessions": [s.to_json() for r in reports for s in r.sessions]})
    else:
        output.print_console_lines(render_text(reports), cfg)
        if any(not s.ok for r in reports for s in r.sessions):
            output.hint("`openclaw sessions repair KEY --dry-run` shows what a repair would change")
    return 1 if any(f.severity == ERROR for r in reports for s in r.sessions for f in s.findings) else 0

"""`core/doctor/legacy-config`: retired, renamed and unknown config keys; `--fix` migrates them."""

from __future__ import annotations

from typing import TYPE_CHECKING

from openclaw_cli.doctor.model import Check, Finding

if TYPE_CHECKING:
    from openclaw_cli.doctor.context import DoctorContext
    from openclaw_cli.doctor.report import Report

CHECK_ID = "core/doctor/legacy-config"
MIGRATE_HINT = 'Run "openclaw doctor --fix" to migrate legacy config keys.'
FINISH_HINT = 'Run "openclaw doctor --fix" to finish fixing legacy config keys.'
PARTIAL = "Migration applied; other validation issues remain — run doctor to review."
UNKNOWN_HINT = 'Run "openclaw doctor --fix" to remove these keys.'


def legacy_issues(ctx: DoctorContext) -> list[tuple[str, str]]:
    from openclaw_cli.doctor.support.legacy_rules import find_issues

    return find_issues(ctx.cfg, ctx.doc.raw)


def unknown_keys(ctx: DoctorContext, candidate: dict | None = None) -> list[tuple]:
    """Unknown keys of the config (or of `candidate`, the config after pending migrations)."""
    from openclaw_cli.doctor.support.unknown_keys import unknown_key_paths

    if not ctx.doc.exists or ctx.doc.valid:
        return []
    return unknown_key_paths(ctx.cfg if candidate is None else candidate, ctx.env)


def _delete(raw: dict, path: tuple) -> bool:
    cursor = raw
    for key in path[:-1]:
        if (isinstance(cursor, dict) and isinstance(key, str) and key in cursor) or (isinstance(cursor, list) and isinstance(key, int) and 0 <= key < len(cursor)):
            cursor = cursor[key]
        else:
            return False
    if isinstance(cursor, dict) and path[-1] in cursor:
        del cursor[path[-1]]
        return True
    return False


def key_path(cfg: dict, rule_path: str, message: str) -> str:
    """The legacy key a rule message names (`session.maintenance.rotateBytes`), when it is in the
    config; otherwise the rule's own path."""
    from openclaw_cli.doctor.support.legacy_shared import MISSING, get_path

    named = message.split(" ", 1)[0].rstrip(".,;:")
    if named.startswith(rule_path + ".") and get_path(cfg, tuple(named.split("."))) is not MISSING:
        return named
    return rule_path


def _legacy_finding(ctx: DoctorContext, rule_path: str, message: str) -> Finding:
    """A legacy key: an error when config validation fails on it (the fix is the migration)."""
    key = key_path(ctx.cfg, rule_path, message)
    failing = any((issue.path or "") and (key == issue.path or key.startswith(issue.path + "."))
                  for issue in ctx.doc.issues)
    return Finding(CHECK_ID, "error" if failing else "warning", message, key, MIGRATE_HINT)


def _unknown_finding(path: str) -> Finding:
    return Finding(CHECK_ID, "warning", f"Unknown config key: {path}", path, UNKNOWN_HINT)


def _blocked_findings(cfg: dict) -> list[Finding]:
    """OpenClaw's preview warning for an openai-codex provider its migration cannot merge."""
    from openclaw_cli.doctor.support.legacy_models import blocked_codex_provider_warnings

    return [Finding(CHECK_ID, "warning", w, "models.providers.openai-codex")
            for w in blocked_codex_provider_warnings(cfg)]


class LegacyConfigCheck(Check):
    def __init__(self) -> None:
        super().__init__(CHECK_ID, "Legacy config keys detected", "Retired, renamed and unknown config keys.")

    def detect(self, ctx: DoctorContext) -> list[Finding]:
        from openclaw_cli.doctor.configfile import resolve_raw
        from openclaw_cli.doctor.support.legacy_migrations import apply_all
        from openclaw_cli.doctor.support.unknown_keys import dotted

        issues = legacy_issues(ctx)
        out = [_legacy_finding(ctx, path, message) for path, message in issues]
        candidate = None
        if issues and ctx.doc.raw is not None:
            migrated, _changes = apply_all(ctx.doc.raw)
            if migrated is not None:
                candidate = resolve_raw(migrated, ctx.config_path, dict(ctx.env))[0]
        out += [_unknown_finding(dotted(p)) for p in unknown_keys(ctx, candidate)]
        return out + _blocked_findings(ctx.cfg if candidate is None else candidate)

    def prepare_rest(self, ctx: DoctorContext) -> None:
        """Like OpenClaw, the rest of the run looks at the migrated config (not written)."""
        from openclaw_cli.doctor.configfile import resolve_raw
        from openclaw_cli.doctor.support.legacy_migrations import apply_all

        if not legacy_issues(ctx) or ctx.doc.raw is None:
            return
        migrated, _changes = apply_all(ctx.doc.raw)
        if migrated is not None:
            ctx.doc.data, ctx.doc.issues, ctx.doc.warnings = resolve_raw(migrated, ctx.config_path, dict(ctx.env))

    def run(self, ctx: DoctorContext, report: Report) -> None:
        from openclaw_cli.doctor.configfile import resolve_raw
        from openclaw_cli.doctor.support.legacy_migrations import apply_all

        issues = legacy_issues(ctx)
        candidate: dict | None = None
        if issues:
            report.note("Legacy config keys detected", [f"- {path}: {message}" for path, message in issues],
                        check_id=self.id, findings=self.detect(ctx)[:len(issues)], kind="warning")
        if issues and ctx.doc.raw is not None:
            migrated, changes = apply_all(ctx.doc.raw)
            if migrated is not None:
                env = dict(ctx.env)
                candidate, remaining, _w = resolve_raw(migrated, ctx.config_path, env)
                partial = bool(remaining)
                if partial:
                    changes.append(PARTIAL)
                if ctx.prompter.confirm("Apply recommended config repairs now?", True):
                    candidate = None
                    ctx.doc.raw.clear()
                    ctx.doc.raw.update(migrated)
                    ctx.doc.mark_changed(ctx.env, changes)
                    report.note("Doctor changes", changes, check_id=self.id, kind="changes")
                    report.changed.extend(changes)
                else:
                    # Like OpenClaw, the rest of the run looks at the migrated config (not written).
                    ctx.doc.data, ctx.doc.issues, ctx.doc.warnings = candidate, remaining, _w
                    report.note("Doctor changes preview", changes, check_id=self.id)
                    report.note("Doctor", [FINISH_HINT if partial else MIGRATE_HINT], check_id=self.id)
                    report.pending_fix = True
            else:
                report.note("Doctor", ["These legacy keys need a migration this tool does not have; edit them "
                                       "by hand (see the messages above)."], check_id=self.id, kind="warning")
        self._unknown(ctx, report, candidate)
        blocked = _blocked_findings(ctx.cfg if candidate is None else candidate)
        if blocked:
            report.note("Doctor warnings", [f.message for f in blocked], check_id=self.id, findings=blocked,
                        kind="warning")

    def _unknown(self, ctx: DoctorContext, report: Report, candidate: dict | None) -> None:
        from openclaw_cli.doctor.support.unknown_keys import dotted

        paths = unknown_keys(ctx, candidate)
        if not paths:
            return
        lines = [f"- {dotted(p)}" for p in paths]
        findings = [_unknown_finding(dotted(p)) for p in paths]
        if ctx.prompter.confirm("Remove unknown config keys now?", True) and ctx.doc.raw is not None:
            removed = [p for p in paths if _delete(ctx.doc.raw, p)]
            if removed:
                ctx.doc.mark_changed(ctx.env, [f"- {dotted(p)}" for p in removed])
                report.changes([f"- Removed unknown config key {dotted(p)}" for p in removed], check_id=self.id)
            kept = [p for p in paths if p not in removed]
            if kept:
                report.note("Unknown config keys", [f"- {dotted(p)}" for p in kept] +
                            ["- These keys come from an $include file or could not be removed; edit them by hand."],
                            check_id=self.id, findings=[_unknown_finding(dotted(p)) for p in kept], kind="warning")
            return
        report.note("Unknown config keys", lines, check_id=self.id, findings=findings, kind="warning")
        report.note("Doctor", [UNKNOWN_HINT], check_id=self.id)
        report.pending_fix = True

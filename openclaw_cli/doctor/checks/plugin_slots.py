"""`core/doctor/plugin-slots`: context-engine/memory slots naming a missing or disabled plugin."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from openclaw_cli.doctor.model import Check, Finding
from openclaw_cli.doctor.support.legacy_shared import list_at
from openclaw_cli.js.values import object_at

if TYPE_CHECKING:
    from openclaw_cli.doctor.context import DoctorContext
    from openclaw_cli.doctor.report import Report

CHECK_ID = "core/doctor/plugin-slots"
SLOT_DEFAULTS = {"memory": "memory-core", "contextEngine": "legacy"}
TRAILER = '- Run "openclaw doctor --fix" to remove stale plugin ids and dangling channel references.'


@dataclass
class SlotProblem:
    slot: str
    plugin_id: str
    kind: str  # missing | disabled
    reason: str = ""

    @property
    def path(self) -> str:
        return f"plugins.slots.{self.slot}"


def _plugins(cfg: dict) -> dict:
    return object_at(cfg, "plugins")


def disabled_reason(cfg: dict, plugin_id: str) -> str | None:
    plugins = _plugins(cfg)
    entries = object_at(plugins, "entries")
    entry = object_at(entries, plugin_id)
    if entry.get("enabled") is False:
        return f"plugins.entries.{plugin_id}.enabled is false"
    deny = list_at(plugins, "deny")
    if plugin_id in deny:
        return "listed in plugins.deny"
    allow = plugins.get("allow") if isinstance(plugins.get("allow"), list) else []
    if allow and plugin_id not in allow:
        return "not in plugins.allow"
    return None


def slot_problems(ctx: DoctorContext) -> list[SlotProblem]:
    from openclaw_cli.doctor.support.plugin_index import known_plugin_ids

    plugins = _plugins(ctx.cfg)
    slots = object_at(plugins, "slots")
    out: list[SlotProblem] = []
    known: set[str] | None = None
    for slot, default in SLOT_DEFAULTS.items():
        value = slots.get(slot)
        if not isinstance(value, str):
            continue
        plugin_id = value.strip()
        if not plugin_id or plugin_id in ("none", default):
            continue
        if known is None:
            known = known_plugin_ids(ctx)
        if plugin_id not in known:
            if plugins.get("enabled") is not False:
                out.append(SlotProblem(slot, plugin_id, "missing"))
            continue
        reason = "plugins.enabled is false" if plugins.get("enabled") is False else disabled_reason(ctx.cfg, plugin_id)
        if reason:
            out.append(SlotProblem(slot, plugin_id, "disabled", reason))
    return out


def _finding(p: SlotProblem) -> Finding:
    default = SLOT_DEFAULTS[p.slot]
    if p.kind == "missing":
        return Finding(CHECK_ID, "warning", f'{p.path}: slot references missing plugin "{p.plugin_id}".', p.path,
                       f'Run `openclaw doctor --fix` to reset {p.path} to "{default}", or install the plugin.')
    return Finding(CHECK_ID, "warning", f'{p.path}: slot references plugin "{p.plugin_id}", which is disabled '
                                        f"({p.reason}).", p.path,
                   f'Enable the plugin, or set {p.path} to "{default}" '
                   f'(`openclaw config set {p.path} {default}`).')


class PluginSlotsCheck(Check):
    def __init__(self) -> None:
        super().__init__(CHECK_ID, "Doctor warnings", "Context-engine and memory slots name an installed, enabled "
                                                      "plugin.")

    def detect(self, ctx: DoctorContext) -> list[Finding]:
        return [_finding(p) for p in slot_problems(ctx)]

    def run(self, ctx: DoctorContext, report: Report) -> None:
        problems = slot_problems(ctx)
        if not problems:
            return
        missing = [p for p in problems if p.kind == "missing"]
        disabled = [p for p in problems if p.kind == "disabled"]
        if missing and ctx.should_repair and ctx.doc.parsed:
            raw = ctx.doc.edit_raw()
            plugins = raw.setdefault("plugins", {}) if isinstance(raw.get("plugins", {}), dict) else None
            if plugins is not None:
                slots = plugins.setdefault("slots", {}) if isinstance(plugins.get("slots", {}), dict) else None
                if slots is not None:
                    for p in missing:
                        slots[p.slot] = SLOT_DEFAULTS[p.slot]
                    resets = ", ".join(f"{p.slot}: {p.plugin_id} -> {SLOT_DEFAULTS[p.slot]}" for p in missing)
                    line = (f"- plugins.slots: reset {len(missing)} stale plugin slot{'' if len(missing) == 1 else 's'}"
                            f" ({resets})")
                    ctx.doc.mark_changed(ctx.env, [line])
                    report.changes([line], check_id=self.id)
                    missing = []
        lines = [f"- {_finding(p).message}" for p in missing]
        if missing:
            lines.append(TRAILER)
            report.pending_fix = True
        for p in disabled:
            lines.append(f"- {_finding(p).message}")
            lines.append(f"  Fix: {_finding(p).fix_hint}")
        if lines:
            report.note("Doctor warnings", lines, check_id=self.id, findings=self.detect(ctx), kind="warning")
        engines = [p for p in problems if p.slot == "contextEngine"]
        if engines:
            report.note("Doctor warnings", [f'- plugins.slots.contextEngine: could not inspect context engine '
                                            f'"{p.plugin_id}" host requirements because it is not registered.'
                                            for p in engines], check_id=self.id, kind="warning")

"""The ordered list of doctor checks (imported lazily, one module each)."""

from __future__ import annotations

from importlib import import_module

from openclaw_cli.doctor.model import Check

# (module, class) in doctor-run order; lint runs the same order.
CHECKS: tuple[tuple[str, str], ...] = (
    ("legacy_config", "LegacyConfigCheck"),
    ("plugin_slots", "PluginSlotsCheck"),
    ("gateway_config", "GatewayConfigCheck"),
    ("gateway_config", "GatewayAuthCheck"),
    ("command_owner", "CommandOwnerCheck"),
    ("legacy_state", "LegacyStateCheck"),
    ("disk_space", "DiskSpaceCheck"),
    ("state_integrity", "StateIntegrityCheck"),
    ("session_locks", "SessionLocksCheck"),
    ("session_transcripts", "SessionTranscriptsCheck"),
    ("session_store", "SessionStoreCheck"),
    ("session_sqlite", "SessionSqliteCheck"),
    ("session_sqlite_migration", "SessionSqliteMigrationCheck"),
    ("security", "SecurityCheck"),
    ("bootstrap_size", "BootstrapSizeCheck"),
    ("gateway_health", "GatewayHealthCheck"),
    ("workspace_suggestions", "WorkspaceSuggestionsCheck"),
    ("final_config", "FinalConfigValidationCheck"),
)


def load_checks() -> list[Check]:
    checks: list[Check] = []
    for module, name in CHECKS:
        mod = import_module(f"openclaw_cli.doctor.checks.{module}")
        checks.append(getattr(mod, name)())
    return checks


def check_ids() -> list[str]:
    return [check.id for check in load_checks()]

"""Which OpenClaw release a config is judged by: 2026.7.1 (the file era) or 2026.9.6 (the SQLite era).

The rule, first match wins:
1. An agent of the state keeps its sessions in SQLite: `agents/<id>/agent/openclaw-agent.sqlite` with
   session tables (store/era.py's test; a mid-migration agent with a sessions.json beside it counts)
   → SQLite era. A release that wrote them is installed, so its schema is the one the config must
   satisfy. (The global `state/openclaw.sqlite` is no sign: 2026.7.1 writes one too.)
2. `meta.lastTouchedVersion` names 2026.8 or later (the config was last written by such a
   release, before any database exists, e.g. on a fresh install) → SQLite era.
3. Otherwise → file era.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from typing import Any

from openclaw_cli.config import paths

FILE_ERA = "2026.7.1"
SQLITE_ERA = "2026.9.6"
_FIRST_SQLITE_RELEASE = (2026, 8)


def _sqlite_release(version: Any) -> bool:
    match = re.match(r"\s*v?(\d+)\.(\d+)", version) if isinstance(version, str) else None
    if match is None:
        return False
    return (int(match.group(1)), int(match.group(2))) >= _FIRST_SQLITE_RELEASE


def _has_sqlite_state(state_dir: str) -> bool:
    agents = os.path.join(state_dir, "agents")
    try:
        names = sorted(os.listdir(agents))
    except OSError:
        return False
    from openclaw_cli.store.era import has_session_tables
    from openclaw_cli.store.sqlite.connection import AGENT_DB_FILENAME

    return any(has_session_tables(os.path.join(agents, name, "agent", AGENT_DB_FILENAME)) for name in names)


def config_era(cfg: Any, env: Mapping[str, str] | None = None) -> str:
    """The release whose schema judges `cfg` (FILE_ERA or SQLITE_ERA), by the rule above."""
    if _has_sqlite_state(paths.resolve_state_dir(env)):
        return SQLITE_ERA
    meta = cfg.get("meta") if isinstance(cfg, dict) else None
    if isinstance(meta, dict) and _sqlite_release(meta.get("lastTouchedVersion")):
        return SQLITE_ERA
    return FILE_ERA

"""ACP session metadata from the shared state database (`<stateDir>/state/openclaw.sqlite`), read-only."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from openclaw_cli.config import paths


@dataclass(frozen=True)
class AcpMeta:
    """One `acp_sessions` row: the session it belongs to (None: any) and its backend."""

    session_id: Any
    backend: Any


def state_database_path(env: Mapping[str, str] | None = None) -> str:
    return paths.join_path(paths.resolve_state_dir(env), "state", "openclaw.sqlite")


def _warn(message: str) -> None:
    from openclaw_cli.ui.console import warn

    warn(message)


def load_acp_sessions(env: Mapping[str, str] | None = None) -> dict[str, AcpMeta]:
    """Every ACP session row by session key; empty when the database or its table does not exist.

    OpenClaw creates the database when it is missing; a listing only reads it.
    """
    path = state_database_path(env)
    if not os.path.isfile(path):
        return {}
    import sqlite3
    from urllib.parse import quote

    # Without pending WAL content the file alone is the database: open it immutable so that
    # reading leaves no -wal/-shm files behind.
    wal = f"{path}-wal"
    pending = os.path.isfile(wal) and os.path.getsize(wal) > 0
    uri = f"file:{quote(path)}?mode=ro" + ("" if pending else "&immutable=1")
    try:
        conn = sqlite3.connect(uri, uri=True)
    except sqlite3.Error as err:
        _warn(f"cannot open {path} ({err}); ACP runtime metadata is not shown")
        return {}
    try:
        try:
            rows = conn.execute("SELECT session_key, session_id, backend FROM acp_sessions").fetchall()
        except sqlite3.OperationalError as err:
            if "no such table" in str(err):
                return {}
            _warn(f"cannot read {path} ({err}); ACP runtime metadata is not shown")
            return {}
        except sqlite3.Error as err:
            _warn(f"cannot read {path} ({err}); ACP runtime metadata is not shown")
            return {}
    finally:
        conn.close()
    return {key: AcpMeta(session_id, backend) for key, session_id, backend in rows if isinstance(key, str)}


def meta_for_entry(sessions: Mapping[str, AcpMeta], session_key: str, entry: Mapping) -> AcpMeta | None:
    """readAcpSessionMetaForEntry: the row for this key, if it is not bound to another session id."""
    from openclaw_cli.js.strings import js_trim

    key = js_trim(session_key)
    if not key:
        return None
    meta = sessions.get(key)
    if meta is None:
        return None
    if meta.session_id is not None and meta.session_id != entry.get("sessionId"):
        return None
    return meta

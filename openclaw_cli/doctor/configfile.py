"""The config as doctor sees it (authored, resolved, edited) and writing it back like OpenClaw."""

from __future__ import annotations

import copy
import hashlib
import json
import os
import time
from collections.abc import MutableMapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any

from openclaw_cli.config import load as cfgmod
from openclaw_cli.config.includes import ConfigIncludeError
from openclaw_cli.config.json5 import parse_json5
from openclaw_cli.config.schema import ConfigIssue

COMPAT_VERSION = "2026.7.1"
BACKUP_COUNT = 5

Path = Sequence[str | int]


def iso_now(now_ms: int | None = None) -> str:
    ms = int(time.time() * 1000) if now_ms is None else now_ms
    dt = datetime.fromtimestamp(ms / 1000, tz=timezone.utc)
    return dt.strftime("%Y-%m-%dT%H:%M:%S.") + f"{ms % 1000:03d}Z"


def get_path(root: Any, path: Path) -> Any:
    """The value at `path` (keys and list indexes), or None when any step is missing."""
    cursor = root
    for key in path:
        if isinstance(key, int):
            if not isinstance(cursor, list) or not 0 <= key < len(cursor):
                return None
            cursor = cursor[key]
        else:
            if not isinstance(cursor, dict) or key not in cursor:
                return None
            cursor = cursor[key]
    return cursor


def record(value: Any) -> dict | None:
    return value if isinstance(value, dict) else None


@dataclass
class ConfigDoc:
    """The active config file: authored object (`raw`), resolved best-effort view (`data`)."""

    path: str
    exists: bool
    raw_text: str | None
    raw: dict | None
    data: dict
    issues: list[ConfigIssue] = field(default_factory=list)
    warnings: list[ConfigIssue] = field(default_factory=list)
    source_valid: bool = True
    changed: bool = False
    change_log: list[str] = field(default_factory=list)

    @property
    def valid(self) -> bool:
        return not self.issues

    @property
    def parsed(self) -> bool:
        """The file is missing or parses as an object (edits can be written back)."""
        return not self.exists or self.raw is not None

    # -- edits ---------------------------------------------------------------------------

    def edit_raw(self) -> dict:
        """The authored object to change in place (an empty one when there is no file yet)."""
        if self.raw is None:
            self.raw = {}
        return self.raw

    def mark_changed(self, env: MutableMapping[str, str], lines: Sequence[str] = ()) -> None:
        """Record that `raw` was changed and refresh the resolved view."""
        self.changed = True
        self.change_log.extend(lines)
        self.refresh(env)

    def refresh(self, env: MutableMapping[str, str]) -> None:
        if self.raw is None:
            return
        data, issues, warnings = resolve_raw(self.raw, self.path, env)
        self.data, self.issues, self.warnings = data, issues, warnings

    # -- writing -------------------------------------------------------------------------

    def render(self, now_ms: int | None = None) -> str:
        """The file text the write would produce: stamps added, 2-space JSON, one newline."""
        from openclaw_cli.js import json as jsjson

        out = copy.deepcopy(self.raw or {})
        stamp = iso_now(now_ms)
        gateway = record(out.get("gateway")) or {}
        wizard = dict(record(out.get("wizard")) or {})
        wizard.update({"lastRunAt": stamp, "lastRunVersion": COMPAT_VERSION})
        commit = (os.environ.get("GIT_COMMIT") or os.environ.get("GIT_SHA") or "").strip()
        if commit:
            wizard["lastRunCommit"] = commit
        wizard["lastRunCommand"] = "doctor"
        wizard["lastRunMode"] = "remote" if gateway.get("mode") == "remote" else "local"
        meta = dict(record(out.get("meta")) or {})
        meta["lastTouchedVersion"] = COMPAT_VERSION
        meta["lastTouchedAt"] = iso_now(now_ms)
        out["meta"] = meta
        out["wizard"] = wizard
        return jsjson.dumps_pretty(out).rstrip() + "\n"

    def write(self, state_dir: str, now_ms: int | None = None) -> str | None:
        """Write the edited config; returns the backup path (None when there was no file)."""
        text = self.render(now_ms)
        return write_config_text(self.path, text, state_dir=state_dir)


def resolve_raw(raw: Any, path: str, env: MutableMapping[str, str]
                ) -> tuple[dict, list[ConfigIssue], list[ConfigIssue]]:
    """Includes, config `env` block and `${VAR}` applied to an authored object, then validated."""
    try:
        return cfgmod.resolve_config(copy.deepcopy(raw), path, env)
    except (ConfigIncludeError, RecursionError) as exc:
        data = raw if isinstance(raw, dict) else {}
        return data, [ConfigIssue("", str(exc) or "Include resolution failed")], []


def load_doc(env: MutableMapping[str, str]) -> ConfigDoc:
    """Read the active config best-effort (never raises for a bad file)."""
    loaded = cfgmod.load_config(env, strict=False)
    raw_text: str | None = None
    raw: dict | None = None
    if loaded.exists:
        try:
            with open(loaded.path, "rb") as handle:
                raw_text = handle.read().decode("utf-8", errors="replace")
            parsed = parse_json5(raw_text)
            raw = parsed if isinstance(parsed, dict) else None
        except (OSError, ValueError):
            raw = None
    return ConfigDoc(path=loaded.path, exists=loaded.exists, raw_text=raw_text, raw=raw,
                     data=loaded.data if isinstance(loaded.data, dict) else {},
                     issues=list(loaded.issues), warnings=list(loaded.warnings),
                     source_valid=loaded.valid)


# ---------------------------------------------------------------------------------------
# Backups and the atomic write


def rotate_backups(config_path: str) -> None:
    """`.bak.4` dropped, `.bak.N` → `.bak.N+1`, `.bak` → `.bak.1` (missing slots ignored)."""
    base = f"{config_path}.bak"
    top = BACKUP_COUNT - 1
    try:
        os.unlink(f"{base}.{top}")
    except OSError:
        pass
    for index in range(top - 1, 0, -1):
        try:
            os.rename(f"{base}.{index}", f"{base}.{index + 1}")
        except OSError:
            pass
    try:
        os.rename(base, f"{base}.1")
    except OSError:
        pass


def harden_backups(config_path: str) -> None:
    base = f"{config_path}.bak"
    for name in [base] + [f"{base}.{i}" for i in range(1, BACKUP_COUNT)]:
        try:
            os.chmod(name, 0o600)
        except OSError:
            pass


def prune_stray_backups(config_path: str) -> None:
    """Delete `<name>.bak.*` files outside the numbered ring (other prefixes are kept)."""
    folder = os.path.dirname(config_path) or "."
    prefix = os.path.basename(config_path) + ".bak."
    valid = {str(i) for i in range(1, BACKUP_COUNT)}
    try:
        names = os.listdir(folder)
    except OSError:
        return
    for name in names:
        if name.startswith(prefix) and name[len(prefix):] not in valid:
            try:
                os.unlink(os.path.join(folder, name))
            except OSError:
                pass


def maintain_backups(config_path: str) -> str:
    import shutil

    rotate_backups(config_path)
    backup = f"{config_path}.bak"
    try:
        shutil.copyfile(config_path, backup)
    except OSError:
        pass
    harden_backups(config_path)
    prune_stray_backups(config_path)
    return backup


def write_config_text(path: str, text: str, *, state_dir: str) -> str | None:
    """Atomic replace with mode 0600; the `.bak` ring is advanced first when the file exists."""
    folder = os.path.dirname(path) or "."
    os.makedirs(folder, mode=0o700, exist_ok=True)
    if os.path.realpath(folder) == os.path.realpath(state_dir):
        try:
            if os.stat(folder).st_mode & 0o077:
                os.chmod(folder, 0o700)
        except OSError:
            pass
    existed = os.path.isfile(path)
    before = b""
    if existed:
        with open(path, "rb") as handle:
            before = handle.read()
    backup: list[str] = []

    def _before_rename() -> None:
        if existed:
            backup.append(maintain_backups(path))

    data = text.encode("utf-8")
    from openclaw_cli.store.sessions_json import write_file_atomic

    write_file_atomic(path, data, durable=True, mode=0o600, temp_prefix=os.path.basename(path),
                      before_rename=_before_rename)
    _audit(path, state_dir, existed, before, data)
    return backup[0] if backup else None


def _audit(path: str, state_dir: str, existed: bool, before: bytes, after: bytes) -> None:
    """Append one `config.write` record to `<state>/logs/config-audit.jsonl` (mode 0600)."""
    import sys

    logs = os.path.join(state_dir, "logs")
    record_line = {
        "ts": iso_now(), "source": "config-io", "event": "config.write", "configPath": path,
        "pid": os.getpid(), "ppid": os.getppid(), "cwd": _cwd(), "argv": list(sys.argv),
        "existsBefore": existed,
        "previousHash": hashlib.sha256(before).hexdigest() if existed else None,
        "nextHash": hashlib.sha256(after).hexdigest(),
        "previousBytes": len(before) if existed else None, "nextBytes": len(after),
        "result": "rename",
    }
    try:
        os.makedirs(logs, mode=0o700, exist_ok=True)
        target = os.path.join(logs, "config-audit.jsonl")
        fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        try:
            os.write(fd, (json.dumps(record_line) + "\n").encode("utf-8"))
        finally:
            os.close(fd)
    except OSError:
        pass


def _cwd() -> str | None:
    try:
        return os.getcwd()
    except OSError:
        return None

"""Shared helpers for the doctor tests: scratch state folders and in-process doctor runs."""

from __future__ import annotations

import contextlib
import io
import json
import os
import time
from dataclasses import dataclass, field
from pathlib import Path

MAIN_SID = "11111111-1111-4111-8111-111111111111"
GROUP_SID = "22222222-2222-4222-8222-222222222222"
ORPHAN_SID = "33333333-3333-4333-8333-333333333333"
TOKEN = "0123456789abcdef0123456789abcdef0123456789abcdef"
DATA = Path(__file__).resolve().parent / "data" / "doctor"


def state(home: Path) -> Path:
    return home / ".openclaw"


def sessions(home: Path, agent: str = "main") -> Path:
    return state(home) / "agents" / agent / "sessions"


def write_config(home: Path, cfg: dict | str, mode: int = 0o600) -> Path:
    path = state(home) / "openclaw.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(cfg if isinstance(cfg, str) else json.dumps(cfg, indent=2))
    os.chmod(path, mode)
    return path


def header(sid: str) -> str:
    return json.dumps({"type": "session", "version": 3, "id": sid, "timestamp": "2026-01-01T00:00:00.000Z",
                       "cwd": "/tmp"})


def write_store(home: Path, entries: dict, agent: str = "main") -> Path:
    folder = sessions(home, agent)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "sessions.json"
    path.write_text(json.dumps(entries, indent=2))
    return path


def write_transcript(home: Path, sid: str, lines: list[str] | None = None, agent: str = "main") -> Path:
    folder = sessions(home, agent)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{sid}.jsonl"
    path.write_text("\n".join(lines if lines is not None else [header(sid)]) + "\n")
    return path


def write_lock(home: Path, sid: str, payload: dict | str, *, mtime_age_s: float = 0, agent: str = "main") -> Path:
    path = sessions(home, agent) / f"{sid}.jsonl.lock"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(payload if isinstance(payload, str) else json.dumps(payload))
    if mtime_age_s:
        t = time.time() - mtime_age_s
        os.utime(path, (t, t))
    return path


def iso_ago(seconds: float) -> str:
    t = time.time() - seconds
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(t)) + ".000Z"


def f1(home: Path) -> None:
    """The spec's F1: legacy keys, stale slot, plaintext token, open modes, missing and orphan
    transcripts, a one-line main transcript and a stale lock."""
    state(home).mkdir(parents=True, exist_ok=True)
    os.chmod(state(home), 0o755)
    write_config(home, {
        "session": {"maintenance": {"rotateBytes": "10mb"}, "parentForkMaxTokens": 1000},
        "plugins": {"slots": {"contextEngine": "lossless-claw"}},
        "gateway": {"mode": "local", "auth": {"token": TOKEN}},
    }, mode=0o644)
    now = int(time.time() * 1000)
    write_store(home, {"agent:main:main": {"sessionId": MAIN_SID, "updatedAt": now},
                       "agent:main:telegram:group:5": {"sessionId": GROUP_SID, "updatedAt": now}})
    write_transcript(home, MAIN_SID)
    write_transcript(home, ORPHAN_SID)
    write_lock(home, MAIN_SID, {"pid": 999999, "createdAt": iso_ago(34 * 3600)})


def f2(home: Path) -> None:
    """F1 without the legacy keys (a valid config)."""
    f1(home)
    cfg = json.loads((state(home) / "openclaw.json").read_text())
    del cfg["session"]
    write_config(home, cfg, mode=0o644)


def base_env(home: Path, extra: dict | None = None) -> dict[str, str]:
    env = {"HOME": str(home), "PATH": os.environ.get("PATH", "/usr/bin:/bin"), "OPENCLAW_GATEWAY_PORT": "1",
           "TZ": "UTC", "LANG": "C.UTF-8"}
    env.update(extra or {})
    return env


@dataclass
class Run:
    code: int
    out: str
    err: str
    asked: list[str] = field(default_factory=list)

    @property
    def json(self) -> dict:
        return json.loads(self.out)

    def findings(self, check_id: str | None = None) -> list[dict]:
        found = self.json["findings"]
        return [f for f in found if check_id is None or f["checkId"] == check_id]


def doctor(home: Path, *, env: dict | None = None, tty: bool = False, answers: dict | None = None,
           default_answer: bool | None = None, **flags) -> Run:
    """Run doctor in-process with `flags` (DoctorArgs fields); `answers` maps prompt prefixes to replies."""
    from openclaw_cli.doctor.command import DoctorArgs, run
    from openclaw_cli.errors import CliError

    asked: list[str] = []

    def ask(message: str, default: bool) -> bool:
        asked.append(message)
        for prefix, reply in (answers or {}).items():
            if message.startswith(prefix):
                return reply
        return default if default_answer is None else default_answer

    out, err = io.StringIO(), io.StringIO()
    cwd = os.getcwd()
    os.chdir(home)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = run(DoctorArgs(**flags), env=base_env(home, env), stdin_tty=tty, ask=ask)
            except CliError as exc:
                err.write(exc.message + "\n")
                code = exc.exit_code
    finally:
        os.chdir(cwd)
    return Run(code, out.getvalue(), err.getvalue(), asked)


def lint(home: Path, *, env: dict | None = None, **flags) -> Run:
    flags.setdefault("json", True)
    return doctor(home, env=env, lint=True, **flags)


def lint_ids(run: Run) -> set[str]:
    return {f["checkId"] for f in run.json["findings"]}

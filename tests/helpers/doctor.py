"""Shared helpers for the doctor tests: scratch state folders and in-process doctor runs."""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import time
from dataclasses import dataclass, field
from pathlib import Path

from helpers import refbin
from helpers.state import home_sessions_dir, state_dir
from helpers.state import write_config as state_config

MAIN_SID = "11111111-1111-4111-8111-111111111111"
GROUP_SID = "22222222-2222-4222-8222-222222222222"
ORPHAN_SID = "33333333-3333-4333-8333-333333333333"
TOKEN = "0123456789abcdef0123456789abcdef0123456789abcdef"


state = state_dir
sessions = home_sessions_dir


def write_config(home: Path, cfg: dict | str, mode: int = 0o600) -> Path:
    """The HOME's `openclaw.json` (private by default, as OpenClaw writes it)."""
    return state_config(state_dir(home), cfg, mode=mode)


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
           "TZ": "UTC", "LANG": "C.UTF-8", **refbin.clock_env()}
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
    from openclaw_cli.commands.doctor import DoctorArgs, run_doctor_command
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
                code = run_doctor_command(DoctorArgs(**flags), env=base_env(home, env), stdin_tty=tty, ask=ask)
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


BRANCH_SID = "44444444-4444-4444-8444-444444444444"
CODEX_SID = "66666666-6666-4666-8666-666666666666"


def _msg(i: str, parent: str | None, role: str, content, **extra) -> str:
    return json.dumps({"type": "message", "id": i, "parentId": parent, "timestamp": "2026-01-01T00:00:00.000Z",
                       "message": {"role": role, "content": content, **extra}})


def branch_lines(sid: str = BRANCH_SID) -> list[str]:
    """A transcript with a duplicated prompt-rewrite branch and one legacy openai-codex message."""
    ctx = "<<<BEGIN_OPENCLAW_INTERNAL_CONTEXT>>>\nruntime stuff\n<<<END_OPENCLAW_INTERNAL_CONTEXT>>>\n\nwhat now"
    return [header(sid), _msg("a1", None, "user", "hello"),
            _msg("a2", "a1", "assistant", [{"type": "text", "text": "hi"}]),
            _msg("ub", "a2", "user", ctx), _msg("ug", "a2", "user", [{"type": "text", "text": "what now"}]),
            _msg("a3", "ug", "assistant", [{"type": "text", "text": "ok"}], provider="openai-codex",
                 api="openai-codex-responses")]


def c1(home: Path) -> None:
    """Combined on-disk problems with a valid config (F2 + F3 + transcripts, locks, legacy dirs)."""
    f2(home)
    cfg = json.loads((state(home) / "openclaw.json").read_text())
    cfg["models"] = {"providers": {"acme": {"baseUrl": "http://127.0.0.1:9", "apiKey": "sk-live-abcdef0123456789",
                                            "models": []}}}
    write_config(home, cfg, mode=0o644)
    ws = state(home) / "workspace"
    ws.mkdir(parents=True, exist_ok=True)
    (ws / "AGENTS.md").write_text("# Agents\n- must run tests\n" + "a" * 29_970 + "\n")
    (ws / "TOOLS.md").write_text("t" * 19_000)
    (ws / "SOUL.md").write_text("s" * 18_000)
    (ws / "USER.md").write_text("u" * 5_000)
    write_transcript(home, BRANCH_SID, branch_lines())
    write_transcript(home, CODEX_SID, [header(CODEX_SID), _msg("c1", None, "assistant", [], provider="openai-codex")])
    store = json.loads((sessions(home) / "sessions.json").read_text())
    now = int(time.time() * 1000)
    store["agent:main:branch"] = {"sessionId": BRANCH_SID, "updatedAt": now - 1000}
    store["agent:main:codex"] = {"sessionId": CODEX_SID, "updatedAt": now - 2000}
    write_store(home, store)
    write_lock(home, "77777777-7777-4777-8777-777777777777", "", mtime_age_s=600)
    (state(home) / "sessions").mkdir()
    (state(home) / "sessions" / "sessions.json").write_text("{}")
    (state(home) / "agent").mkdir()
    (state(home) / "agents" / "stray" / "agent").mkdir(parents=True)


def c2(home: Path) -> None:
    """F1 plus unknown keys: the config is invalid."""
    f1(home)
    cfg = json.loads((state(home) / "openclaw.json").read_text())
    cfg["bogusTop"] = 1
    cfg["session"]["bogusKey"] = True
    write_config(home, cfg, mode=0o644)


def c3(home: Path, state_dir: Path) -> dict[str, str]:
    """No gateway.mode, token + password without auth.mode, Gateway on the LAN, exec approvals and
    heartbeat notes, and a custom state folder missing its runtime folders. Returns the env."""
    state_dir.mkdir(mode=0o700)
    path = state_dir / "openclaw.json"
    path.write_text(json.dumps({
        "gateway": {"bind": "lan", "auth": {"token": TOKEN, "password": "pw-c3-0123456789"}},
        "approvals": {"exec": {"enabled": False}},
        "agents": {"defaults": {"heartbeat": {"target": "last"}}},
        "commands": {"ownerAllowFrom": ["telegram:1"]},
    }, indent=2))
    os.chmod(path, 0o600)
    return {"OPENCLAW_STATE_DIR": str(state_dir), "OPENCLAW_OAUTH_DIR": str(state_dir / "oauth-missing")}


LEGACY_CONFIG = {
    "gateway": {"mode": "local", "bind": "0.0.0.0", "webchat": {"enabled": True}, "auth": {"mode": "token"}},
    "routing": {"allowFrom": ["+15550001"], "groupChat": {"historyLimit": 20, "mentionPatterns": ["@bot"],
                                                          "requireMention": True}},
    "session": {"threadBindings": {"ttlHours": 4, "spawnSubagentSessions": True, "spawnAcpSessions": False},
                "maintenance": {"rotateBytes": "10mb"}},
    "messages": {"queue": {"mode": "queue", "byChannel": {"discord": "steer-backlog"}}},
    "agents": {"defaults": {"silentReplyRewrite": True, "systemPromptOverride": "x", "llm": {"timeoutMs": 5},
                            "model": {"primary": "anthropic/claude-sonnet-4-6", "timeoutMs": 1000},
                            "embeddedPi": {}, "sandbox": {"perSession": True},
                            "memorySearch": {"provider": "auto"}},
               "list": [{"id": "main", "systemPromptOverride": "y", "sandbox": {"perSession": False}}]},
    "memorySearch": {"store": {"path": "/tmp/idx.sqlite"}, "model": "x"},
    "heartbeat": {"every": "1h", "showOk": True},
    "diagnostics": {"memoryPressureBundle": True},
    "mcp": {"servers": {"docs": {"type": "http", "url": "http://127.0.0.1:9/mcp"}}},
    "plugins": {"allow": ["openai-codex", "memory-core"]},
    "tools": {"web": {"x_search": {"apiKey": "xai-legacy-key-0123456789"}}},
    "audio": {"transcription": {"command": ["whisper", "{input}"], "timeoutSeconds": 30}},
}


def c4(home: Path) -> None:
    """A config holding most of 2026.7.1's legacy keys."""
    os.chmod(state(home), 0o700)
    write_config(home, LEGACY_CONFIG)


def clack_notes(text: str) -> list[tuple[str, list[str]]]:
    """(title, items) of each note box; wrapped lines re-joined, whitespace collapsed."""
    notes: list[tuple[str, list[str]]] = []
    current: list[str] | None = None
    for line in text.splitlines():
        match = re.match(r"^◇  (.+?) ─+╮$", line)
        if match:
            current = []
            notes.append((match.group(1), current))
            continue
        if current is None:
            continue
        if line.startswith("├"):
            current = None
            continue
        if line.startswith("│"):
            inner = line[1:].rstrip()
            inner = inner[:-1].rstrip() if inner.endswith("│") else inner
            current.append(inner[2:] if inner.startswith("  ") else inner)
    out = []
    for title, lines in notes:
        items: list[str] = []
        for line in lines:
            if not line.strip():
                continue
            if line.startswith(" ") and items:
                items[-1] += " " + line.strip()
            else:
                items.append(line.strip())
        out.append((title, [" ".join(i.split()) for i in items]))
    return out


POLL = "[OpenClaw heartbeat poll]"
TASKS = ("Run the following periodic tasks (only those due based on their intervals):\n- inbox: check mail\n"
         "After completing all due tasks, reply HEARTBEAT_OK.")


def _message(i: int, role: str, content) -> str:
    return json.dumps({"type": "message", "id": f"m{i}", "parentId": f"m{i - 1}" if i else None,
                       "timestamp": "2026-01-01T00:00:00.000Z", "message": {"role": role, "content": content}})


def heartbeat_lines(sid: str) -> list[str]:
    return [header(sid), _message(0, "user", POLL), _message(1, "assistant", [{"type": "text", "text": "HEARTBEAT_OK"}]),
            _message(2, "user", [{"type": "text", "text": TASKS}]), _message(3, "assistant", "HEARTBEAT_OK")]


def heartbeat_home(home: Path, *, human: bool = False, interacted: bool = False) -> None:
    """A main session whose transcript holds only heartbeat turns (unless `human`), and a TUI pointer to it."""
    os.chmod(state(home), 0o700)
    write_config(home, {"gateway": {"mode": "local"}})
    now = int(time.time() * 1000)
    main = {"sessionId": MAIN_SID, "updatedAt": now}
    if interacted:
        main["lastInteractionAt"] = now
    write_store(home, {"agent:main:main": main, "agent:main:telegram:group:5": {"sessionId": GROUP_SID,
                                                                             "updatedAt": now - 1000}})
    lines = heartbeat_lines(MAIN_SID)
    if human:
        lines.append(_message(4, "user", "hello there"))
    write_transcript(home, MAIN_SID, lines)
    write_transcript(home, GROUP_SID, [header(GROUP_SID), _message(0, "user", "hi"), _message(1, "assistant", "yo")])
    tui = state(home) / "tui"
    tui.mkdir()
    (tui / "last-session.json").write_text(json.dumps({
        "a": {"sessionKey": "agent:main:main"}, "b": {"sessionKey": "agent:main:telegram:group:5"}}))


def both_on_homes(root: Path, cases: dict[str, tuple], env: dict[str, str],
                  version: str = refbin.PRIMARY_VERSION) -> dict[tuple[str, str], tuple[refbin.Result, Path]]:
    """Every case (build(home), argv), run by the reference release `version` and by us on a home
    of its own that build() fills, two at a time: {(case, "ref" | "ours"): (result, home)}."""
    from concurrent.futures import ThreadPoolExecutor

    assert refbin.reference_available(version), refbin.missing_message(version)
    jobs = [(name, side) for name in cases for side in ("ref", "ours")]

    def run(job: tuple[str, str]) -> tuple[refbin.Result, Path]:
        name, side = job
        home = root / name / side / "home"
        (home / ".openclaw").mkdir(parents=True)
        build, argv = cases[name]
        build(home)
        if side == "ref":
            return refbin.run_reference(argv, home, env, timeout=400, version=version), home
        return refbin.run_ours(argv, home, env, timeout=400), home

    with ThreadPoolExecutor(max_workers=2) as pool:
        return dict(zip(jobs, pool.map(run, jobs), strict=True))


def both_on_configs(root: Path, configs: dict[str, dict], modes: dict[str, list[str]], env: dict[str, str],
                    version: str = refbin.PRIMARY_VERSION) -> dict[tuple[str, str, str], tuple[refbin.Result, Path]]:
    """Every config under every mode (argv), through both_on_homes:
    {(config, mode, "ref" | "ours"): (result, home)}."""
    def writer(cfg: dict):
        return lambda home: write_config(home, cfg)

    cases = {f"{c}/{m}": (writer(configs[c]), modes[m]) for c in configs for m in modes}
    runs = both_on_homes(root, cases, env, version)
    return {(c, m, side): runs[(f"{c}/{m}", side)] for c in configs for m in modes for side in ("ref", "ours")}


HEARTBEAT_TARGET_CONFIG = {
    "gateway": {"mode": "local"},
    "agents": {"defaults": {"heartbeat": {"every": "30m", "target": "last", "session": "telegram:group:999"}},
               "list": [{"id": "main", "heartbeat": {"every": "1h"}},
                        {"id": "ops", "heartbeat": {"session": "agent:ops:discord:channel:42"}},
                        {"id": "known", "heartbeat": {"session": "telegram:group:5"}},
                        {"id": "quiet", "heartbeat": {"session": "slack:channel:c1", "target": "none"}},
                        {"id": "off", "heartbeat": {"session": "slack:channel:c2", "every": "0m"}},
                        {"id": "sub", "heartbeat": {"session": "subagent:x"}}]},
}


def heartbeat_target_home(home: Path) -> None:
    """Agents whose heartbeat pins a session: missing from the store (main, ops), present (known), or
    not checked (target none, interval off, a subagent)."""
    os.chmod(state(home), 0o700)
    write_config(home, HEARTBEAT_TARGET_CONFIG)
    now = int(time.time() * 1000)
    write_store(home, {"agent:main:main": {"sessionId": MAIN_SID, "updatedAt": now}})
    write_transcript(home, MAIN_SID, [header(MAIN_SID), _message(0, "user", "hi"), _message(1, "assistant", "yo")])
    write_store(home, {"agent:known:telegram:group:5": {"sessionId": GROUP_SID, "updatedAt": now}}, agent="known")
    write_transcript(home, GROUP_SID, agent="known")


ROUTE_SIDS = {key: f"{n}{n}{n}{n}{n}{n}{n}{n}-aaaa-4aaa-8aaa-{n * 12}" for n, key in zip("56789", (
    "agent:main:telegram:group:5", "agent:main:discord:channel:9", "agent:main:slack:channel:c1",
    "agent:main:cron:nightly", "agent:main:webchat:openai"), strict=True)}


def route_state_home(home: Path) -> None:
    """A store whose entries keep Anthropic and Google routing state while the configured route is
    OpenAI: automatic overrides, a runtime model, pinned harnesses, CLI bindings (stale), an explicit
    user override (for review) and OpenAI state (fine)."""
    os.chmod(state(home), 0o700)
    write_config(home, {"gateway": {"mode": "local"},
                        "agents": {"defaults": {"model": {"primary": "openai/gpt-5.5",
                                                          "fallbacks": ["openai/gpt-5.4"]}}}})
    now = int(time.time() * 1000)
    entries = {
        "agent:main:main": {"sessionId": MAIN_SID, "updatedAt": now, "modelProvider": "anthropic",
                            "model": "claude-sonnet-4-6", "contextTokens": 200000,
                            "fallbackNoticeReason": "rate limit", "systemPromptReport": {"chars": 10}},
        "agent:main:telegram:group:5": {"updatedAt": now - 1000, "providerOverride": "anthropic",
                                        "modelOverride": "claude-opus-4-7", "modelOverrideSource": "auto",
                                        "liveModelSwitchPending": True, "authProfileOverride": "Anthropic:work",
                                        "authProfileOverrideSource": "auto", "authProfileOverrideCompactionCount": 2},
        "agent:main:discord:channel:9": {"updatedAt": now - 2000, "providerOverride": "google",
                                         "modelOverride": "gemini-3.1-pro-preview", "modelOverrideSource": "user"},
        "agent:main:slack:channel:c1": {"updatedAt": now - 3000, "agentHarnessId": "claude-cli",
                                        "cliSessionBindings": {"claude-cli": {"sessionId": "c-1"}}},
        "agent:main:cron:nightly": {"updatedAt": now - 4000, "agentRuntimeOverride": "google-gemini-cli",
                                    "modelProvider": "google", "model": "gemini-3-flash-preview",
                                    "cliSessionIds": {"google-gemini-cli": "g-1", "codex-cli": "x-1"}},
        "agent:main:webchat:openai": {"updatedAt": now - 5000, "modelProvider": "openai", "model": "gpt-5.5"},
    }
    for key, sid in ROUTE_SIDS.items():
        entries[key] = {"sessionId": sid, **entries[key]}
        write_transcript(home, sid, [header(sid), _message(0, "user", "hi"), _message(1, "assistant", "yo")])
    write_store(home, entries)
    write_transcript(home, MAIN_SID, [header(MAIN_SID), _message(0, "user", "hi"), _message(1, "assistant", "yo")])

"""Differential tests: `openclaw sessions` / `sessions list` against every file-era reference release.

Every scenario is written twice, identically (same absolute times), into two scratch homes;
the reference runs in one, this project in the other. Text output must be byte-identical;
JSON output must be identical once `ageMs` (which depends on the moment each process reads
the clock) is masked, and the two `ageMs` values must agree within the time between the runs.
Ages are chosen away from the rounding boundaries of the Age column (see `age_ms`).
"""

from __future__ import annotations

import concurrent.futures
import difflib
import json
import os
import random
import re
import shutil
import sqlite3
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from helpers import refbin

pytestmark = pytest.mark.reference

DATA = Path(__file__).resolve().parent / "data" / "sessions_list"
MIN = 60_000
HOUR = 60 * MIN
DAY = 24 * HOUR
AGE_SLACK_MS = 60_000
JOBS = 2
ENV = {"OPENCLAW_GATEWAY_PORT": "9", "OPENCLAW_DISABLE_BONJOUR": "1"}


def age_ms(minutes: int) -> int:
    """An age shown as `minutes` (rounded) for the next 40 s (30 s for 0): 10 s short of the minute."""
    return minutes * MIN - 10_000 if minutes else 0


# ---------------------------------------------------------------------------------------------
# Scenario model


@dataclass
class Scenario:
    """A home to list: config, stores (ages instead of times), ACP rows, and the runs to compare."""

    name: str
    config: dict | None = None
    stores: dict[str, dict[str, dict]] = field(default_factory=dict)  # relative path -> store
    raw_files: dict[str, str] = field(default_factory=dict)  # relative path -> literal text
    acp_rows: list[tuple[str, str | None, str]] = field(default_factory=list)
    dirs: list[str] = field(default_factory=list)
    runs: list[list[str]] = field(default_factory=list)
    own_error_text: bool = False  # failures print our one-line message instead of the reference's
    # runs where this project deliberately differs (README, "Compatibility and deliberate differences")
    differences: dict[tuple[str, ...], Difference] = field(default_factory=dict)


@dataclass(frozen=True)
class Difference:
    """What the reference does and what we do instead for one run."""

    ref_exit: int
    exit: int
    stderr: str | None = None  # a regex (<HOME> for the home); None: the reference's stderr, byte for byte


USAGE = Difference(ref_exit=1, exit=2)  # bad usage: the reference exits 1, we exit 2 with its message


def _resolve_times(value: Any, now: int) -> Any:
    """`{"$age": ms}` becomes `now - ms`; `{"$age": ms, "$plus": x}` adds a fraction."""
    if isinstance(value, dict):
        if "$age" in value:
            return now - value["$age"] + value.get("$plus", 0)
        return {k: _resolve_times(v, now) for k, v in value.items()}
    if isinstance(value, list):
        return [_resolve_times(v, now) for v in value]
    return value


def materialize(scenario: Scenario, home: Path, now: int, state_db: Path | None) -> None:
    if home.exists():
        shutil.rmtree(home)
    state = home / ".openclaw"
    state.mkdir(parents=True)
    if scenario.config is not None:
        (state / "openclaw.json").write_text(json.dumps(scenario.config, indent=2))
    for rel, store in scenario.stores.items():
        path = home / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(_resolve_times(store, now), indent=2, ensure_ascii=False))
    for rel in scenario.dirs:
        (home / rel).mkdir(parents=True)
    for rel, text in scenario.raw_files.items():
        path = home / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    if scenario.acp_rows:
        assert state_db is not None
        (state / "state").mkdir()
        db_path = state / "state" / "openclaw.sqlite"
        shutil.copyfile(state_db, db_path)
        with sqlite3.connect(db_path) as conn:
            conn.executemany(
                "INSERT INTO acp_sessions (session_key, session_id, backend, agent, runtime_session_name,"
                " mode, state, last_activity_at, updated_at) VALUES (?, ?, ?, 'codex', 'rt', 'persistent',"
                " 'idle', ?, ?)", [(k, sid, backend, now, now) for k, sid, backend in scenario.acp_rows])
        conn.close()


# ---------------------------------------------------------------------------------------------
# Store generator

UUIDS = [f"{i:08x}-1c2d-4e5f-8a9b-{i * 7919:012x}" for i in range(1, 40)]
PEERS = ["alice", "+15551234567", "u123", "Zoë", "dave.e", "111", "222"]
KEY_SHAPES = [
    "agent:{a}:main", "agent:{a}:direct:+15551234567", "agent:{a}:telegram:direct:alice",
    "agent:{a}:telegram:acct2:direct:bob", "agent:{a}:telegram:group:-1001234567890",
    "agent:{a}:discord:channel:998877", "agent:{a}:slack:channel:c042:thread:1712345.000100",
    "agent:{a}:telegram:group:-100555:topic:42", "agent:{a}:signal:group:AbCdEf==",
    "agent:{a}:matrix:channel:!RoomID:example.org", "agent:{a}:cron:daily-digest",
    "agent:{a}:cron:daily-digest:run:{u0}", "agent:{a}:subagent:{u1}", "agent:{a}:subagent:{u1}:subagent:{u2}",
    "agent:{a}:acp:{u3}", "agent:{a}:hook:{u4}", "agent:{a}:heartbeat", "agent:{a}:explicit:model-run-{u5}",
    "agent:{a}:explicit:my-session", "agent:{a}:dashboard:ops", "agent:{a}:node:n1", "agent:{a}:acp-bridge:x",
    "agent:{a}:webchat:direct:visitor-1", "agent:{a}:whatsapp:direct:+4915112345678",
    "agent:{a}:discord:guild-1:direct:222", "agent:{a}:telegram:group:-100999888777666:topic:123456789",
    "agent:{a}:telegram:direct:Zoë", "agent:{a}:discord:channel:🎉party-room-with-a-long-name",
    "agent:{a}:Main", "agent:{a}:main:thread:99", "agent:other:main", "agent::main", " agent:{a}:main ",
    "global", "unknown", "main", "telegram:group:legacy", "cron:legacy-job", "acp:raw-acp",
    "agent:{a}:slack:channel:C0LONG:thread:1712345.000100:thread:2", "agent:{a}:imessage:direct:+1 (555) 010",
]
MODELS: list[dict] = [
    {}, {}, {"model": "gpt-5.4"}, {"model": "anthropic/claude-opus-4-6"},
    {"model": "claude-x", "modelProvider": "anthropic"}, {"model": "a-really-long-model-name-v2"},
    {"modelOverride": "openai/gpt-5.5", "providerOverride": "openai"},
    {"modelOverride": "OpenAI/gpt-5-mini", "providerOverride": "openai"},
    {"modelOverride": "gemini-2.5-pro", "providerOverride": "google"},
    {"modelOverride": "foo/", "providerOverride": "bar"},
    {"modelOverride": "anthropic/opus", "model": "ignored-model"}, {"model": "claude-cli/opus-4"},
    {"model": "claude-opus-4-6", "modelProvider": "claude-cli"},
    {"model": "anthropic/claude-y", "modelProvider": "claude-cli"},
    {"model": "gemini-3-pro", "modelProvider": "google-gemini-cli"}, {"model": "codex-cli/gpt-5-codex"},
    {"model": "gpt-5-codex", "modelProvider": "codex-cli"}, {"model": "kimi-k2", "modelProvider": "my-cli"},
    {"model": "kimi-k2"}, {"model": "dual", "modelProvider": "bigctx"},
    {"model": "local-llm", "modelProvider": "custom"},
    {"model": "openrouter/meta/llama-4"}, {"model": "  ", "modelProvider": "openai"}, {"model": "/leading-slash"},
    {"modelOverride": "  ", "providerOverride": "anthropic"}, {"model": "x", "modelProvider": ""},
    {"model": "gpt-5.4", "modelProvider": "OpenAI"}, {"providerOverride": "anthropic"},
]
FLAG_VALUES = {
    "thinkingLevel": ["high", "low", "off", ""], "verboseLevel": ["on", "full"], "traceLevel": ["debug"],
    "reasoningLevel": ["stream", "on"], "elevatedLevel": ["ask", "full"], "responseUsage": ["tokens", "full"],
    "groupActivation": ["mention", "always"], "systemSent": [True, False], "abortedLastRun": [True, False, 1],
}
TOTALS: list[Any] = [None, None, 0, 999, 1250, 9999, 12_500, 99_999, 150_000, 250_000, 1_000_000, 3.7, -5, "123"]
CONTEXTS: list[Any] = [None, None, None, 1000, 32_000, 128_000, 200_000, 0, 1_048_576]
MINUTES = [0, 1, 5, 17, 44, 46, 59, 61, 90, 150, 600, 1439, 1441, 2850, 2900, 4000, 20_000, 100_000, 600_000]
LABELS: list[Any] = ["standup", "Cron: daily", "", 42, {"x": 1}, "日本語", "tab\there"]
CHAT_TYPES: list[Any] = ["direct", "dm", "DM", "group", "channel", "thread", None]


def _origin(rng: random.Random) -> dict:
    ch = rng.choice(["telegram", "discord", "slack", "webchat", "Telegram"])
    peer = rng.choice(PEERS)
    options = [
        {},
        {"origin": {"chatType": "direct", "provider": ch, "to": f"{ch.lower()}:{peer}", "accountId": "Acct 2"}},
        {"origin": {"chatType": "dm", "surface": "webchat", "from": "webchat:v1"}},
        {"origin": {"chatType": "direct", "nativeDirectUserId": "U123", "provider": "slack"}},
        {"origin": {"chatType": "DIRECT", "provider": "Telegram", "to": "telegram:111:topic:9"}},
        {"origin": {"chatType": "direct", "from": "discord:222"}, "deliveryContext": {"channel": "discord"}},
        {"chatType": "direct", "lastChannel": "whatsapp", "lastTo": "+4915112345678", "lastAccountId": "biz"},
        {"chatType": "direct", "channel": "signal", "lastTo": "signal:+1555"},
        {"chatType": "direct", "deliveryContext": {"channel": "telegram", "to": "telegram:", "accountId": "x"}},
        {"origin": {"chatType": "group", "provider": "discord", "to": "discord:1"}},
        {"origin": {"provider": "telegram", "to": "telegram:5"}, "chatType": "dm"},
    ]
    return rng.choice(options)


def _entry(rng: random.Random, index: int, minutes: int | None) -> dict:
    entry: dict[str, Any] = {"sessionId": f"sess-{index:03d}"}
    if minutes is not None:
        entry["updatedAt"] = {"$age": age_ms(minutes)}
    entry.update(rng.choice(MODELS))
    total = rng.choice(TOTALS)
    if total is not None:
        entry["totalTokens"] = total
        if rng.random() < 0.4:
            entry["totalTokensFresh"] = rng.choice([True, False])
        if rng.random() < 0.3:
            entry["inputTokens"], entry["outputTokens"] = 700, 55
    context = rng.choice(CONTEXTS)
    if context is not None:
        entry["contextTokens"] = context
    for name, values in FLAG_VALUES.items():
        if rng.random() < 0.15:
            entry[name] = rng.choice(values)
    if rng.random() < 0.3:
        entry["label"] = rng.choice(LABELS)
    chat = rng.choice(CHAT_TYPES)
    if chat is not None and rng.random() < 0.5:
        entry["chatType"] = chat
    entry.update(_origin(rng))
    if rng.random() < 0.12:
        entry["spawnedBy"] = rng.choice(["agent:main:main", "", "agent:main:subagent:x"])
        entry["spawnDepth"] = 1
        entry["subagentRole"] = "worker"
        entry["parentSessionKey"] = "agent:main:main"
    if rng.random() < 0.1:
        entry["status"] = rng.choice(["running", "done"])
        entry["sessionStartedAt"] = {"$age": 3 * HOUR}
        entry["lastInteractionAt"] = {"$age": 2 * HOUR}
    if rng.random() < 0.08:
        entry["acp"] = rng.choice([{"agent": "codex", "backend": "acpx"}, {"agent": "claude"},
                                   {"agent": " \u001b[31mred\u001b[0m ", "backend": "b\tx"}])
    if rng.random() < 0.08:
        entry["sessionFile"] = f"/tmp/elsewhere/sess-{index:03d}.jsonl"
    if rng.random() < 0.05:
        entry["forkedFromParent"] = True
        entry["spawnedWorkspaceDir"] = "/w"
        entry["spawnedCwd"] = "/w/sub"
        entry["subagentControlScope"] = "children"
    return entry


def generate_store(seed: int, agent: str, fillers: int = 0) -> dict[str, dict]:
    rng = random.Random(seed)
    store: dict[str, dict] = {}
    for index, shape in enumerate(KEY_SHAPES):
        key = shape.format(a=agent, u0=UUIDS[0], u1=UUIDS[1], u2=UUIDS[2], u3=UUIDS[3], u4=UUIDS[4],
                           u5=UUIDS[5])
        minutes = rng.choice(MINUTES) if rng.random() > 0.08 else None
        store[key] = _entry(rng, index, minutes)
    previous: Any = None
    for n in range(fillers):
        index = len(KEY_SHAPES) + n
        roll = rng.random()
        if roll < 0.25 and previous is not None:
            minutes = previous  # ties keep store order
        elif roll < 0.3:
            minutes = None
        else:
            minutes = rng.choice(MINUTES)
        previous = minutes
        store[f"agent:{agent}:explicit:filler-{n:03d}"] = _entry(rng, index, minutes)
    # Edge values of updatedAt: zero, a fraction, the future, and a normalised bad value.
    store[f"agent:{agent}:explicit:zero-time"] = {"sessionId": "zero", "updatedAt": 0}
    store[f"agent:{agent}:explicit:fraction"] = {"sessionId": "frac", "updatedAt": {"$age": age_ms(3), "$plus": 0.5}}
    store[f"agent:{agent}:explicit:future"] = {"sessionId": "future", "updatedAt": {"$age": -3 * HOUR}}
    store[f"agent:{agent}:explicit:bad-time"] = {"sessionId": "bad", "updatedAt": "yesterday"}
    store[f"agent:{agent}:explicit:dropped"] = {"sessionId": "not/safe", "updatedAt": {"$age": age_ms(2)}}
    store[f"agent:{agent}:explicit:odd-id"] = {"sessionId": "odd:id@x", "updatedAt": {"$age": age_ms(2)}}
    store[f"agent:{agent}:explicit:negative"] = {"sessionId": "neg", "updatedAt": -5, "totalTokens": 1e22}
    store[f"agent:{agent}:explicit:not-an-object"] = 5  # type: ignore[assignment]
    store[f"agent:{agent}:explicit:null"] = None  # type: ignore[assignment]
    # Integer-like keys come first in JavaScript's key order, which decides ties.
    for name in ("42", "7", "0"):
        store[name] = {"sessionId": f"int-{name}", "updatedAt": {"$age": age_ms(2)}, "chatType": "group"}
    return store


def _store_path(agent: str) -> str:
    return f".openclaw/agents/{agent}/sessions/sessions.json"


def _config(name: str) -> dict:
    return json.loads((DATA / f"{name}.json").read_text())


def scenarios() -> list[Scenario]:
    plain = Scenario("plain", stores={_store_path("main"): generate_store(1, "main", fillers=75),
                                      "elsewhere/custom.json": generate_store(2, "main", fillers=5)})
    plain.runs = [
        ["sessions", "--json"], ["sessions"], ["sessions", "list", "--limit", "12"],
        ["sessions", "--limit", "12", "--json"], ["sessions", "--active", "45"],
        ["sessions", "list", "--active", "600", "--json"], ["sessions", "--json", "list"],
        ["sessions", "--limit", "all", "--json"], ["sessions", "--limit", " 250 "],
        ["sessions", "--store", "elsewhere/custom.json", "--json"],
        ["sessions", "--store", "elsewhere/custom.json", "list"],
    ]
    agents = Scenario("agents", config=_config("config-agents"), stores={
        _store_path("main"): generate_store(3, "main", fillers=10),
        _store_path("work"): generate_store(4, "work"),
        _store_path("acpbot"): {f"agent:acpbot:acp:{UUIDS[9]}": {"sessionId": "acp-9",
                                                                  "updatedAt": {"$age": age_ms(7)}}},
    }, acp_rows=[
        (f"agent:main:acp:{UUIDS[3]}", None, "acpx"), (f"agent:work:acp:{UUIDS[3]}", "sess-014", "MyBackend"),
        (f"agent:acpbot:acp:{UUIDS[9]}", "someone-else", "acpx"), ("agent:main:acp:raw-acp", None, ""),
        ("agent:main:main", None, "acpx"),
    ])
    agents.runs = [
        ["sessions", "--all-agents", "--json"], ["sessions", "--all-agents"], ["sessions", "--agent", "work"],
        ["sessions", "list", "--agent", "WORK", "--json"], ["sessions", "--agent", "ops"],
        ["sessions", "list", "--all-agents", "--limit", "9", "--active", "1000"],
        ["sessions", "--all-agents", "list", "--json", "--limit", "30"],
    ]
    scoped = Scenario("scope", config=_config("config-scope"), stores={
        "stores/alpha/sessions.json": generate_store(5, "alpha", fillers=3),
        "stores/beta/sessions.json": generate_store(6, "beta"),
        "other/alpha.json": generate_store(7, "alpha"),
    })
    scoped.runs = [["sessions"], ["sessions", "--json"], ["sessions", "--all-agents", "--limit", "15"],
                   ["sessions", "--store", "~/other/{agentId}.json", "--json"],
                   ["sessions", "--agent", "beta", "--limit", "20", "--json"]]
    shared = Scenario("shared-store", config=_config("config-shared-store"),
                      stores={"shared/sessions.json": generate_store(8, "b")})
    shared.runs = [["sessions", "--all-agents", "--limit", "10"], ["sessions", "--json", "--limit", "3"],
                   ["sessions", "--agent", "a", "--limit", "4"]]
    empty = Scenario("empty", raw_files={"corrupt/sessions.json": "{not json", _store_path("main"): "{}"},
                     dirs=["folder/sessions.json"])
    empty.runs = [["sessions"], ["sessions", "--json"], ["sessions", "--store", "missing/sessions.json"],
                  ["sessions", "--store", "corrupt/sessions.json", "--json"], ["sessions", "--active", "5"],
                  ["sessions", "--store", "folder/sessions.json"], ["sessions", "--store", "corrupt"]]
    # The reference lists all four as an empty store (exit 0); we stop with the reason.
    empty.differences = {
        ("sessions", "--store", "missing/sessions.json"): Difference(
            0, 1, re.escape("no session store at <HOME>/missing/sessions.json\n")),
        ("sessions", "--store", "corrupt/sessions.json", "--json"): Difference(
            0, 1, re.escape("session store <HOME>/corrupt/sessions.json is not valid (") + r"[^\n]+"
            + re.escape("); restore it from a backup or move it aside so a fresh store is created\n")),
        ("sessions", "--store", "folder/sessions.json"): Difference(
            0, 1, re.escape("<HOME>/folder/sessions.json is a folder, not a session store file\n")),
        ("sessions", "--store", "corrupt"): Difference(
            0, 1, re.escape("<HOME>/corrupt is a folder; did you mean <HOME>/corrupt/sessions.json?\n")),
    }
    bad_type = Scenario("bad-type", own_error_text=True, stores={_store_path("main"): {
        "agent:main:new": {"sessionId": "new", "updatedAt": {"$age": age_ms(1)}},
        "agent:main:old": {"sessionId": "old", "updatedAt": {"$age": age_ms(90)}, "modelOverride": 5},
    }})
    bad_type.runs = [["sessions", "--limit", "1"]]
    bad_config = Scenario("bad-config", config={"agents": {"list": 5}})
    bad_config.runs = [["sessions"], ["sessions", "list", "--json"]]
    return [plain, agents, scoped, shared, empty, bad_type, bad_config]


ERROR_RUNS = [
    ["sessions", "--active", "0"], ["sessions", "--active", "1.5"], ["sessions", "list", "--active", "abc"],
    ["sessions", "--limit", "0"], ["sessions", "--limit", "+3"], ["sessions", "list", "--limit", "x", "--json"],
    ["sessions", "--agent", "nope"], ["sessions", "--agent", "nope", "--active", "0"],
    ["sessions", "--agent", "main", "--all-agents"], ["sessions", "--store", "x.json", "--agent", "main"],
    ["sessions", "--active", "0", "--limit", "0"],
]
# an unknown agent is an error (exit 1 in both); every other run above is bad usage (exit 2 here)
ERRORS = Scenario("errors", differences={tuple(argv): USAGE for argv in ERROR_RUNS if "nope" not in argv})


# ---------------------------------------------------------------------------------------------
# Running and comparing


@dataclass
class Pair:
    scenario: Scenario
    argv: list[str]
    ref: refbin.Result
    ours: refbin.Result
    ref_home: Path
    ours_home: Path


def run_pair(scenario: Scenario, argv: list[str], root: Path, state_db: Path | None,
             version: str = refbin.PRIMARY_VERSION) -> Pair:
    slug = re.sub(r"[^a-z0-9]+", "-", " ".join(argv).lower()).strip("-")
    ref_home, ours_home = root / f"{slug}-ref" / "home", root / f"{slug}-ours" / "home"
    now = int(time.time() * 1000)
    materialize(scenario, ref_home, now, state_db)
    materialize(scenario, ours_home, now, state_db)
    # Both start together, so they read the clock within a few seconds of each other.
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as both:
        ref_run = both.submit(refbin.run_reference, argv, ref_home, env=ENV, version=version)
        ours_run = both.submit(refbin.run_ours, argv, ours_home, env=ENV)
        ref, ours = ref_run.result(), ours_run.result()
    return Pair(scenario, argv, ref, ours, ref_home, ours_home)


_AGE = re.compile(r'"ageMs": (-?[0-9.e+]+|null)')


def _ages(text: str) -> list[str]:
    return _AGE.findall(text)


def _diff(a: str, b: str) -> str:
    return "".join(difflib.unified_diff(a.splitlines(True), b.splitlines(True), "reference", "ours", n=2))


def compare_difference(pair: Pair, diff: Difference) -> list[str]:
    """Problems found in a run where we deliberately differ: both sides must do what is documented."""
    problems = []
    if pair.ref.returncode != diff.ref_exit:
        problems.append(f"the reference now exits {pair.ref.returncode} (documented: {diff.ref_exit})")
    if pair.ours.returncode != diff.exit:
        problems.append(f"exit code: ours {pair.ours.returncode}, documented {diff.exit}")
    if diff.stderr is None:
        if (pair.ours.stdout, pair.ours.stderr) != (pair.ref.stdout, pair.ref.stderr):
            problems.append(f"output: reference {pair.ref.stdout!r} {pair.ref.stderr!r}, "
                            f"ours {pair.ours.stdout!r} {pair.ours.stderr!r}")
    else:
        stderr = pair.ours.stderr.replace(str(pair.ours_home), "<HOME>")
        if pair.ours.stdout or not re.fullmatch(diff.stderr, stderr):
            problems.append(f"ours printed {pair.ours.stdout!r} and {stderr!r}, documented: {diff.stderr!r}")
    return problems


def compare(pair: Pair) -> list[str]:
    """Problems found (empty when the runs match, or differ exactly as documented)."""
    diff = pair.scenario.differences.get(tuple(pair.argv))
    if diff is not None:
        return compare_difference(pair, diff)
    problems = []
    ref_out = pair.ref.stdout.replace(str(pair.ref_home), "<HOME>")
    ours_out = pair.ours.stdout.replace(str(pair.ours_home), "<HOME>")
    if pair.ref.returncode == 0 and not pair.ref.stdout:
        problems.append("the reference printed nothing")
    if pair.ref.returncode != pair.ours.returncode:
        problems.append(f"exit code: reference {pair.ref.returncode}, ours {pair.ours.returncode}")
    if "--json" in pair.argv and pair.ref.returncode == 0:
        ref_ages, ours_ages = _ages(ref_out), _ages(ours_out)
        for r, o in zip(ref_ages, ours_ages):
            if (r == "null") != (o == "null") or (r != "null" and abs(float(o) - float(r)) > AGE_SLACK_MS):
                problems.append(f"ageMs: reference {r}, ours {o}")
                break
        ref_out, ours_out = _AGE.sub('"ageMs": <AGE>', ref_out), _AGE.sub('"ageMs": <AGE>', ours_out)
        try:
            if json.loads(ref_out.replace("<AGE>", "0")) != json.loads(ours_out.replace("<AGE>", "0")):
                problems.append("JSON documents differ")
        except ValueError as err:
            problems.append(f"JSON does not parse: {err}")
    if ref_out != ours_out:
        problems.append("stdout differs:\n" + _diff(ref_out, ours_out))
    if pair.ref.returncode != 0 and pair.scenario.own_error_text:
        if len(pair.ours.stderr.splitlines()) != 1:
            problems.append(f"expected a one-line error, got {pair.ours.stderr!r}")
    elif pair.ref.returncode != 0 and pair.ref.stderr != pair.ours.stderr:
        problems.append(f"stderr: reference {pair.ref.stderr!r}, ours {pair.ours.stderr!r}")
    return problems


def _state_db(version: str, root: Path) -> Path:
    """A state database as the reference `version` creates it (the ACP rows go into copies of it)."""
    home = root / "home"
    store = home / _store_path("main")
    store.parent.mkdir(parents=True)
    store.write_text('{"agent:main:main": {"sessionId": "s", "updatedAt": 1}}')
    result = refbin.run_reference(["sessions", "--json"], home, env=ENV, version=version)
    assert result.returncode == 0, result.stderr
    db = home / ".openclaw" / "state" / "openclaw.sqlite"
    assert db.is_file()
    return db


@pytest.fixture(scope="module")
def state_dbs(file_era_references, tmp_path_factory) -> dict[str, Path]:
    return {v: _state_db(v, tmp_path_factory.mktemp(f"state-db-{v}")) for v in refbin.FILE_ERA_VERSIONS}


ALL_SCENARIOS = scenarios()
# OPENCLAW_LIST_EXTRA_SEEDS=N adds N more generated stores (text and JSON runs each), for local soaks.
for _seed in range(int(os.environ.get("OPENCLAW_LIST_EXTRA_SEEDS", "0"))):
    _extra = Scenario(f"seed-{100 + _seed}", stores={_store_path("main"): generate_store(100 + _seed, "main", 40)})
    _extra.runs = [["sessions", "--json", "--limit", "all"], ["sessions", "--limit", "all"]]
    ALL_SCENARIOS.append(_extra)
CASES = [(s, argv) for s in ALL_SCENARIOS for argv in s.runs] + [(ERRORS, argv) for argv in ERROR_RUNS]


@pytest.fixture(scope="module")
def pairs(state_dbs, tmp_path_factory, request) -> dict[tuple[str, str], concurrent.futures.Future[Pair]]:
    """Starts every selected (version, case) on a small worker pool; each test waits for its own."""
    selected = {(item.callspec.params["version"], item.callspec.params["case_id"])
                for item in request.session.items
                if hasattr(item, "callspec") and "case_id" in item.callspec.params}
    root = tmp_path_factory.mktemp("sessions-list")
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=JOBS)
    futures = {(v, _case_id(s, argv)): pool.submit(run_pair, s, argv, root / v / s.name, state_dbs[v], v)
               for v in refbin.FILE_ERA_VERSIONS for s, argv in CASES if (v, _case_id(s, argv)) in selected}
    yield futures
    pool.shutdown(wait=True, cancel_futures=True)


def _case_id(scenario: Scenario, argv: list[str]) -> str:
    return f"{scenario.name}: {' '.join(argv)}"


@pytest.mark.parametrize("case_id", [_case_id(s, a) for s, a in CASES])
@pytest.mark.parametrize("version", refbin.FILE_ERA_VERSIONS)
def test_sessions_list_matches_reference(version: str, case_id: str, pairs) -> None:
    pair = pairs[(version, case_id)].result()
    problems = compare(pair)
    if problems:
        pytest.fail(f"{case_id} (reference {version})\n" + "\n".join(problems), pytrace=False)


def test_documented_differences_are_exercised() -> None:
    """Every documented difference names a run that is compared."""
    for scenario in ALL_SCENARIOS + [ERRORS]:
        runs = [tuple(a) for a in (ERROR_RUNS if scenario is ERRORS else scenario.runs)]
        assert set(scenario.differences) <= set(runs), scenario.name
    assert len(ERRORS.differences) == len(ERROR_RUNS) - 2

"""Agent ids, default agent, store paths and --store/--agent/--all-agents target selection."""

from __future__ import annotations

import json
import os
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from helpers.references import every_file_era_release

from openclaw_cli.config import agents
from openclaw_cli.config import load as config
from openclaw_cli.config.agents import Target
from openclaw_cli.errors import CliError

DIST = "node_modules/openclaw/dist"


@pytest.mark.parametrize("raw,expected", [
    ("main", "main"), ("Ops", "ops"), ("  Ops_Team-2 ", "ops_team-2"), ("Ops Team", "ops-team"),
    ("--a..b--", "a-b"), ("über", "ber"), ("ÄÖ", "main"), ("", "main"), ("   ", "main"), (None, "main"),
    ("a" * 64, "a" * 64), ("a" * 65, "a" * 64), ("-" + "b" * 70, "b" * 64), ("_x", "_x"), ("x/y", "x-y"),
])
def test_normalize_agent_id(raw, expected):
    assert agents.normalize_agent_id(raw) == expected


def test_agent_lists_and_default():
    assert agents.list_agent_ids({}) == ["main"]
    assert agents.list_agent_ids({"agents": {"list": []}}) == ["main"]
    cfg = {"agents": {"list": [{"id": "A"}, "junk", {"id": "a"}, {"id": "B", "default": True}, {}]}}
    assert agents.list_agent_ids(cfg) == ["a", "b", "main"]
    assert agents.resolve_default_agent_id(cfg) == "b"
    assert agents.resolve_default_agent_id({"agents": {"list": [{"id": " Z "}, {"id": "y"}]}}) == "z"
    assert agents.resolve_default_agent_id({"agents": {"list": [{"id": "  "}]}}) == "main"
    assert agents.resolve_default_agent_id(None) == "main"


def test_configured_store_agents_include_acp():
    cfg = {
        "agents": {"list": [{"id": "a"}, {"id": "Coder", "runtime": {"type": "acp"}},
                            {"id": "r", "runtime": {"type": "acp", "acp": {"agent": "Claude"}}},
                            {"id": "e", "runtime": {"type": "acp", "acp": {"agent": ""}}},
                            {"id": "emb", "runtime": {"type": "embedded"}}]},
        "acp": {"defaultAgent": " Codex ", "allowedAgents": ["*", "gemini", "A", " "]},
    }
    assert agents.list_configured_session_store_agent_ids(cfg) == [
        "a", "coder", "r", "e", "emb", "codex", "gemini", "claude"]
    assert agents.list_configured_session_store_agent_ids({}) == ["main"]


def test_resolve_store_path(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    env = {"HOME": str(tmp_path / "h"), "OPENCLAW_HOME": "~/oc"}
    home = tmp_path / "h" / "oc"
    assert agents.resolve_store_path(None, "Ops", env) == str(home / ".openclaw/agents/ops/sessions/sessions.json")
    assert agents.resolve_store_path("", None, env) == str(home / ".openclaw/agents/main/sessions/sessions.json")
    assert agents.resolve_store_path("~/s/{agentId}/{agentId}.json", "X", env) == str(home / "s/x/x.json")
    assert agents.resolve_store_path("rel/{agentId}.json", "x", env) == str(tmp_path / "rel/x.json")
    assert agents.resolve_store_path("~x/{agentId}", "x", env) == str(tmp_path / "~x/x")
    assert agents.resolve_store_path("/a/../b/sessions.json", "x", env) == "/b/sessions.json"


def test_target_selection_errors():
    cfg = {"agents": {"list": [{"id": "a"}]}}
    cases = [  # conflicting selectors are bad usage (2; OpenClaw exits 1), an unknown agent an error (1)
        ({"agent": "a", "all_agents": True}, "--agent and --all-agents cannot be used together", 2),
        ({"store": "/s.json", "agent": "a"}, "--store cannot be combined with --agent or --all-agents", 2),
        ({"store": "/s.json", "all_agents": True}, "--store cannot be combined with --agent or --all-agents", 2),
        ({"agent": " Nope "}, 'Unknown agent id " Nope ". Use "openclaw agents list" to see configured agents.', 1),
    ]
    for kwargs, message, code in cases:
        with pytest.raises(CliError) as info:
            agents.resolve_session_store_targets(cfg, env={"HOME": "/h"}, **kwargs)
        assert info.value.message == message and info.value.exit_code == code


def test_target_selection():
    env = {"HOME": "/h", "OPENCLAW_STATE_DIR": "/st"}
    cfg = {"agents": {"list": [{"id": "a"}, {"id": "B", "default": True}]}, "acp": {"allowedAgents": ["c"]},
           "session": {"store": "/stores/{agentId}.json"}}
    resolve = agents.resolve_session_store_targets
    assert resolve(cfg, env=env) == [Target("b", "/stores/b.json")]
    assert resolve(cfg, agent=" A ", env=env) == [Target("a", "/stores/a.json")]
    assert resolve(cfg, agent="  ", env=env) == [Target("b", "/stores/b.json")]  # blank means no --agent
    assert resolve(cfg, store="~/x/{agentId}.json", env=env) == [Target("b", "/h/x/b.json")]
    assert resolve(cfg, store="", agent="a", env=env) == [Target("a", "/stores/a.json")]
    assert resolve(cfg, all_agents=True, env=env) == [
        Target("a", "/stores/a.json"), Target("b", "/stores/b.json"), Target("c", "/stores/c.json")]
    shared = {**cfg, "session": {"store": "/one/sessions.json"}}
    assert resolve(shared, all_agents=True, env=env) == [Target("a", "/one/sessions.json")]
    assert resolve({}, all_agents=True, env=env) == [Target("main", "/st/agents/main/sessions/sessions.json")]


# ------------------------------------------------------------------ against the reference modules

_TARGETS_ORACLE = """
import { i as resolveSessionStoreTargets, t as listConfiguredSessionStoreAgentIds } from "%DIST%/targets-ChErRWTQ.js";
import { c as resolveDefaultAgentId, n as listAgentIds } from "%DIST%/agent-scope-config-BxAUeF6t.js";
import { u as normalizeAgentId } from "%DIST%/session-key-VWT_xzM9.js";
import fs from "node:fs";
const input = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
const out = { ids: input.ids.map((v) => normalizeAgentId(v)), cases: [] };
for (const { cfg, opts, env } of input.cases) {
  let targets;
  try { targets = resolveSessionStoreTargets(cfg, opts, { env }); } catch (e) { targets = e.message; }
  out.cases.push({ list: listAgentIds(cfg), def: resolveDefaultAgentId(cfg),
                   configured: listConfiguredSessionStoreAgentIds(cfg), targets });
}
console.log(JSON.stringify(out));
"""

_IDS = ["main", "Ops", " Ops Team ", "ops.team", "__", "a--b", "--", "Ä", "日本", "x" * 80, "a b c", "9lives",
        "_a", "-a", "A_B-C", "tab\there", "", "   ", "K\u212a", "ß", "\u0130x", "x\u00a0"]


def _target_cases(base: Path) -> list[dict]:
    lists = [[], [{"id": "a"}], [{"id": "A"}, {"id": "a", "default": True}], [{"id": "x"}, {"id": "Y", "default": True},
             {"id": "z", "default": True}], [{"id": " "}], [{"id": "Ops Team"}, {"id": "b", "runtime": {"type": "acp"}},
             {"id": "c", "runtime": {"type": "acp", "acp": {"agent": "Claude"}}}]]
    acps = [None, {"defaultAgent": "codex"}, {"allowedAgents": ["*", "gemini", "a", " "], "defaultAgent": " "}]
    stores = [None, "", "~/s/{agentId}.json", "/fixed/sessions.json", "rel/{agentId}/x.json"]
    selections = [{}, {"agent": "a"}, {"agent": "ops-team"}, {"agent": " Ops Team "}, {"agent": "nope"},
                  {"agent": "  "}, {"allAgents": True}, {"store": "~/cli/{agentId}.json"},
                  {"store": "x.json", "agent": "a"}, {"agent": "a", "allAgents": True}]
    cases = []
    n = 0
    for agent_list in lists:
        for acp in acps:
            for selection in selections:
                n += 1
                cfg: dict = {"agents": {"list": agent_list}}
                if acp:
                    cfg["acp"] = acp
                store = stores[n % len(stores)]
                if store is not None:
                    cfg["session"] = {"store": store}
                cases.append({"cfg": cfg, "opts": selection, "env": {"HOME": str(base), "OPENCLAW_STATE_DIR": "~/st"}})
    return cases


def test_targets_match_reference_modules(reference, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    cases = _target_cases(tmp_path)
    source = tmp_path / "oracle.mjs"
    source.write_text(_TARGETS_ORACLE.replace("%DIST%", str(reference.REFERENCE_DIR / DIST)))
    payload = tmp_path / "payload.json"
    payload.write_text(json.dumps({"ids": _IDS, "cases": cases}))
    proc = subprocess.run([str(reference.reference_node_bin_dir() / "node"), str(source), str(payload)],
                          capture_output=True, text=True, cwd=tmp_path, timeout=120,
                          env={"HOME": str(tmp_path), "PATH": os.environ.get("PATH", "/usr/bin:/bin")})
    assert proc.returncode == 0, proc.stderr
    expected = json.loads(proc.stdout)
    assert [agents.normalize_agent_id(v) for v in _IDS] == expected["ids"]
    for case, want in zip(cases, expected["cases"]):
        cfg, opts, env = case["cfg"], case["opts"], case["env"]
        try:
            targets = [{"agentId": t.agent_id, "storePath": t.store_path} for t in agents.resolve_session_store_targets(
                cfg, store=opts.get("store"), agent=opts.get("agent"), all_agents=opts.get("allAgents", False),
                env=env)]
        except CliError as exc:
            targets = exc.message
        got = {"list": agents.list_agent_ids(cfg), "def": agents.resolve_default_agent_id(cfg),
               "configured": agents.list_configured_session_store_agent_ids(cfg), "targets": targets}
        assert got == want, case


# ------------------------------------------------------------------ against the reference binary

def _summaries(stdout: str) -> list[tuple[str, str]]:
    data = json.loads(stdout)
    return [(s["agentId"], s["storePath"]) for s in data.get("stores", [data])]


@every_file_era_release
def test_targets_match_reference_binary(reference, tmp_path, monkeypatch):
    multi = {
        "agents": {"list": [{"id": "main"}, {"id": "Ops Team", "default": True},
                            {"id": "coder", "runtime": {"type": "acp", "acp": {"agent": "Claude Code"}}}]},
        "acp": {"defaultAgent": "codex", "allowedAgents": ["*", "gemini", "OPS TEAM"]},
        "session": {"store": "~/stores/{agentId}/sessions.json"},
    }
    shared = {**multi, "session": {"store": "rel/shared/sessions.json"}}
    cases = [
        ("none", {}, []),
        ("default", multi, []),
        ("agent", multi, ["--agent", " Ops Team "]),
        ("agent-main", multi, ["--agent", "MAIN"]),
        ("all", multi, ["--all-agents"]),
        ("all-shared", shared, ["--all-agents"]),
        ("store", multi, ["--store", "~/cli/{agentId}.json"]),
        ("unknown", multi, ["--agent", "codex"]),
        ("conflict", multi, ["--agent", "main", "--all-agents"]),
        ("store-conflict", multi, ["--store", "/x.json", "--all-agents"]),
    ]
    for name, cfg, _args in cases:
        (tmp_path / name / ".openclaw").mkdir(parents=True)
        (tmp_path / name / ".openclaw/openclaw.json").write_text(json.dumps(cfg))

    def run(case):
        name, _cfg, args = case
        return reference.run_reference(["sessions", "cleanup", "--dry-run", "--json", *args], tmp_path / name)

    with ThreadPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(run, cases))
    for (name, _cfg, args), result in zip(cases, results):
        home = tmp_path / name
        monkeypatch.chdir(home)
        env = {"HOME": str(home)}
        loaded = config.load_config(env, cwd=str(home))
        store = args[args.index("--store") + 1] if "--store" in args else None
        agent = args[args.index("--agent") + 1] if "--agent" in args else None
        try:
            got = [(t.agent_id, t.store_path) for t in agents.resolve_session_store_targets(
                loaded.data, store=store, agent=agent, all_agents="--all-agents" in args, env=env)]
        except CliError as exc:
            assert result.returncode == 1, name  # ours: 2 for the conflicts (bad usage)
            assert exc.exit_code == (2 if "conflict" in name else 1), name
            assert result.stderr.strip() == exc.message, name
            continue
        assert result.returncode == 0, (name, result.stderr)
        assert got == _summaries(result.stdout), name

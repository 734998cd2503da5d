"""Differential tests: `openclaw context` against the real 2026.7.1 Gateway's own `/context` replies.

The Gateway answers `/context list|detail|json` sent with `chat.send` (a real chat turn on scratch
state). Every line that does not depend on live runtime data (the rendered system prompt, bundled
skills, tool schemas, the model catalogue's context window) must be identical to ours.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers.context import as_replied, env_for, run_context, split_runtime
from helpers.folders import folder_digest
from helpers.gateway import RunningGateway, start_gateway

from openclaw_cli.gateway import rpc

pytestmark = [pytest.mark.gateway, pytest.mark.reference]

CONFIG = {
    "agents": {
        "defaults": {"bootstrapTotalMaxChars": 45000},
        "list": [{"id": "main", "default": True},
                 {"id": "scout", "bootstrapMaxChars": 5000, "bootstrapTotalMaxChars": 12000}],
    },
}
TEMPLATE_AGENTS = (Path(__file__).resolve().parent / "data" / "context" / "real-2026.7.1" / "state"
                   / "workspace" / "AGENTS.md")

STATS: dict[str, list[int]] = {}


@pytest.fixture(scope="module")
def gateway(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningGateway]:
    base = tmp_path_factory.mktemp("context-gateway")
    state = base / "home" / ".openclaw"
    state.mkdir(parents=True)
    (state / "openclaw.json").write_text(json.dumps(CONFIG, indent=2))
    gw = start_gateway(base)
    try:
        yield gw
    finally:
        gw.stop()


def _transcript(gw: RunningGateway, key: str) -> Path:
    agent = key.split(":")[1]
    sessions = gw.state_dir / "agents" / agent / "sessions"
    store = json.loads((sessions / "sessions.json").read_text())
    return sessions / f"{store[key]['sessionId']}.jsonl"


def ask(gw: RunningGateway, key: str, mode: str) -> str:
    """The Gateway's complete reply to `/context <mode>` (from the transcript: chat events cap it)."""
    connection = rpc.connection_for("chat.send", {}, url=gw.url, token=gw.token)
    sent = rpc.chat_send({"sessionKey": key, "message": f"/context {mode}"}, connection=connection)
    assert sent.final and sent.final.get("state") == "final", sent.final
    for line in reversed(_transcript(gw, key).read_text(encoding="utf-8").splitlines()):
        record = json.loads(line)
        message = record.get("message") or {}
        if message.get("role") == "assistant":
            return "".join(b.get("text", "") for b in message.get("content") or [])
    raise AssertionError("no reply in the transcript")


def ours(gw: RunningGateway, key: str, mode: str, *extra: str) -> str:
    env = env_for(gw.home)
    result = run_context([mode, "--session", key, "--plain", *extra] if mode != "json"
                         else [mode, "--session", key, *extra], env)
    assert result.returncode == 0, result.stderr
    return result.stdout.rstrip("\n")


def compare_text(theirs: str, mine: str, label: str, adjust=None) -> None:
    mine = as_replied(mine)
    their_lines, their_runtime = split_runtime(theirs, mask_window=True)
    my_lines, my_runtime = split_runtime(mine, mask_window=True)
    if adjust:
        my_lines = [adjust(line) for line in my_lines]
    assert my_lines == their_lines, label
    assert [r.split(":")[0] for r in my_runtime if not r.startswith(("- ", "… ("))][:3] == \
        [r.split(":")[0] for r in their_runtime if not r.startswith(("- ", "… ("))][:3]
    STATS.setdefault(label, [0, 0])
    STATS[label][0] += len(their_lines)
    STATS[label][1] += len(their_runtime)


def _minus_own_turn(line: str) -> str:
    """Our detail runs after the Gateway appended the detail turn itself (its user line and reply,
    both real conversation): take those two back out of our counts."""
    match = re.fullmatch(r"Compactable transcript: (\d+) real conversation message\(s\) / (\d+) transcript message\(s\)", line)
    if not match:
        return line
    real, total = int(match.group(1)) - 2, int(match.group(2)) - 2
    return f"Compactable transcript: {real:,} real conversation message(s) / {total:,} transcript message(s)"


def compare_json(theirs: str, mine: str) -> None:
    a, b = json.loads(theirs), json.loads(as_replied(mine))
    assert list(a) == list(b) == ["report", "session"]
    ra, rb = a["report"], b["report"]
    assert list(ra) == list(rb)
    for key in ("source", "sessionId", "sessionKey", "provider", "model", "workspaceDir", "bootstrapMaxChars",
                "bootstrapTotalMaxChars", "sandbox", "injectedWorkspaceFiles"):
        assert ra[key] == rb[key], key
    assert list(ra["systemPrompt"]) == list(rb["systemPrompt"])
    assert list(ra["skills"]) == list(rb["skills"]) and list(ra["tools"]) == list(rb["tools"])
    assert rb["tools"]["listChars"] == ra["tools"]["listChars"] == 0
    assert rb["systemPrompt"]["chars"] is None and rb["tools"]["schemaChars"] is None  # unknown, not invented
    for key in ("totalTokens", "totalTokensFresh", "inputTokens", "outputTokens"):
        assert a["session"][key] == b["session"][key], key
    assert list(a["session"]) == list(b["session"])


def check_all_modes(gw: RunningGateway, key: str, label: str) -> dict[str, str]:
    replies = {}
    for mode in ("list", "detail", "json"):
        theirs = ask(gw, key, mode)
        replies[mode] = theirs
        if mode == "json":
            compare_json(theirs, ours(gw, key, "json", "--offline"))
        else:
            compare_text(theirs, ours(gw, key, mode, "--offline"), f"{label} {mode}",
                         _minus_own_turn if mode == "detail" else None)
    return replies


def test_fresh_workspace(gateway):
    replies = check_all_modes(gateway, "agent:main:main", "fresh")
    assert "- BOOTSTRAP.md: OK | raw 1,668 chars" in replies["list"]
    assert "Bootstrap max/total: 45,000 chars" in replies["list"]  # agents.defaults.bootstrapTotalMaxChars


def test_truncated_missing_and_oversized_files(gateway):
    workspace = gateway.state_dir / "workspace"
    agents = TEMPLATE_AGENTS.read_text(encoding="utf-8") + "\n## Notes!\n" + "x" * 24999
    assert len(agents) == 32206
    (workspace / "AGENTS.md").write_text(agents, encoding="utf-8")
    (workspace / "USER.md").write_text("# USER.md\n\n" + "Likes long notes. " * 1555 + "end\n", encoding="utf-8")
    (workspace / "TOOLS.md").write_text("   \n\n\t\n", encoding="utf-8")
    (workspace / "MEMORY.md").write_text("m" * (2 * 1024 * 1024 + 10), encoding="utf-8")
    ask(gateway, "agent:main:main", "list")  # the profile now differs from the templates: setup completes
    (workspace / "SOUL.md").unlink()
    replies = check_all_modes(gateway, "agent:main:main", "edited")
    listing = replies["list"]
    assert "- AGENTS.md: TRUNCATED | raw 32,206 chars (~8,052 tok) | injected 14,865 chars (~3,717 tok)" in listing
    assert "- SOUL.md: MISSING | raw 0 | injected 0" in listing
    assert "- TOOLS.md: OK | raw 0 chars (~0 tok) | injected 0 chars (~0 tok)" in listing
    assert "- MEMORY.md: MISSING | raw 0 | injected 0" in listing
    assert "⚠ Bootstrap context is over configured limits" in listing
    assert "BOOTSTRAP.md" not in listing


def test_per_agent_limits(gateway):
    replies = check_all_modes(gateway, "agent:scout:main", "scout")
    listing = replies["list"]
    assert "Bootstrap max/file: 5,000 chars" in listing and "Bootstrap max/total: 12,000 chars" in listing
    assert "TRUNCATED" in listing and "Causes:" in listing


def test_through_the_gateway_without_a_run_report(gateway):
    """No run report yet: sessions.usage has no context weight, so the estimate comes from disk."""
    env = env_for(gateway.home, OPENCLAW_GATEWAY_TOKEN=gateway.token, OPENCLAW_GATEWAY_PORT=str(gateway.port))
    result = run_context(["list", "--session", "agent:scout:main"], env)
    assert result.returncode == 0, result.stderr
    assert "Bootstrap max/file: 5,000 chars" in result.stdout
    assert "Source: an on-demand estimate" in result.stdout


def test_an_unknown_session_is_an_error_through_the_gateway(gateway):
    """2026.7.1's `sessions.usage` lists no row for a key it has no session for; with nothing in
    the store either, `--session KEY` exits 1 instead of showing an estimate."""
    missing = "agent:main:never-created"
    connection = rpc.connection_for("sessions.usage", {}, url=gateway.url, token=gateway.token)
    reply = rpc.sessions_usage({"key": missing, "includeContextWeight": True}, connection=connection)
    assert [row for row in reply["sessions"] if row.get("key") == missing] == []
    env = env_for(gateway.home, OPENCLAW_GATEWAY_TOKEN=gateway.token, OPENCLAW_GATEWAY_PORT=str(gateway.port))
    store = gateway.state_dir / "agents" / "main" / "sessions" / "sessions.json"
    before = folder_digest(store.parent)
    for mode in ("list", "detail", "json", "map"):
        result = run_context([mode, "--session", missing], env)
        assert (result.returncode, result.stdout, result.stderr) == (
            1, "", f"unknown session {missing} in {store}; the running Gateway reports none either\n"), mode
    assert folder_digest(store.parent) == before


def test_zz_summary(gateway, capsys):
    with capsys.disabled():
        for label, (same, runtime) in sorted(STATS.items()):
            print(f"\n{label}: {same} identical lines, {runtime} runtime lines set aside")
    assert STATS

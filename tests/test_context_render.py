"""List/detail layouts on hand-made reports (the spec's worked example), unknowns, and the
read-only Gateway path with a fake Gateway."""

from __future__ import annotations

import json
from pathlib import Path

from helpers.context import env_for, run_context

from openclaw_cli.context.render import ContextView, render_detail, render_list

REPORT = {
    "source": "run", "generatedAt": 1, "sessionKey": "agent:main:main", "workspaceDir": "/srv/workspace",
    "bootstrapMaxChars": 12000, "bootstrapTotalMaxChars": 60000, "sandbox": {"mode": "off", "sandboxed": False},
    "systemPrompt": {"chars": 1000, "projectContextChars": 500, "nonProjectContextChars": 500},
    "injectedWorkspaceFiles": [{"name": "AGENTS.md", "path": "/srv/workspace/AGENTS.md", "missing": False,
                                "rawChars": 10000, "injectedChars": 10000, "truncated": False}],
    "skills": {"promptChars": 10, "entries": [{"name": "checks", "blockChars": 10}]},
    "tools": {"listChars": 10, "schemaChars": 20,
              "entries": [{"name": "read", "summaryChars": 10, "schemaChars": 20, "propertiesCount": 1}]},
}


def view(report=REPORT, entry=None, ctx=None, **kw) -> ContextView:
    return ContextView(report=report, entry=entry if entry is not None else {"totalTokens": 123},
                       context_tokens=ctx, max_chars=20000, total_max_chars=60000, workspace_dir="/x", **kw)


def test_worked_example_list():
    assert render_list(view()) == "\n".join([
        "🧠 Context breakdown", "Workspace: /srv/workspace", "Bootstrap max/file: 12,000 chars",
        "Bootstrap max/total: 60,000 chars", "Sandbox: mode=off sandboxed=false",
        "System prompt (run): 1,000 chars (~250 tok) (Project Context 500 chars (~125 tok))", "",
        "Injected workspace files:",
        "- AGENTS.md: OK | raw 10,000 chars (~2,500 tok) | injected 10,000 chars (~2,500 tok)", "",
        "Skills list (system prompt text): 10 chars (~3 tok) (1 skills)", "Skills: checks",
        "Tool list (system prompt text): 10 chars (~3 tok)",
        "Tool schemas (JSON): 20 chars (~5 tok) (counts toward context; not shown as text)", "Tools: read", "",
        "Session tokens (cached): 123 total / ctx=?", "",
        "Inline shortcut: a command token inside normal text (e.g. “hey /status”) that runs immediately "
        "(allowlisted senders only) and is stripped before the model sees the remaining message."])


def test_detail_numbers_and_staleness():
    text = render_detail(view(entry={"totalTokens": 900}, ctx=8192, compactable="no active transcript session"))
    for line in ("Tracked prompt estimate: 1,020 chars (~255 tok)", "Actual context usage (cached): 900 tok",
                 "Untracked provider/runtime overhead: ~645 tok",
                 "Compactable transcript: unavailable (no active transcript session)",
                 "Session tokens (cached): 900 total / ctx=8,192", "Tools (param count):", "- read: 1 params"):
        assert line in text.split("\n")
    assert "" not in text.split("\n")
    stale = render_detail(view(entry={"totalTokens": 900, "totalTokensFresh": False}, ctx=8192, compactable=(0, 2)))
    assert "Actual context usage (cached): unavailable" in stale
    assert "Session tokens (cached): unknown / ctx=8,192" in stale and "~645 tok" not in stale
    assert "Compactable transcript: 0 real conversation message(s) / 2 transcript message(s)\nCompaction note:" in stale


def test_truncation_warning_block():
    report = dict(REPORT, injectedWorkspaceFiles=[{"name": "AGENTS.md", "path": "/a", "missing": False,
                                                   "rawChars": 200000, "injectedChars": 12000, "truncated": True}])
    text = render_list(view(report))
    assert ("\n\n⚠ Bootstrap context is over configured limits: 1 file(s) truncated (200,000 raw chars -> "
            "12,000 injected chars).\nCauses: 1 file(s) exceeded max/file.\nTip: increase this agent's "
            "`agents.list[].bootstrapMaxChars`") in text


def test_unknowns_are_stated_not_invented():
    report = dict(REPORT, source="estimate",
                  systemPrompt={"chars": None, "hash": None, "projectContextChars": None, "nonProjectContextChars": None},
                  skills={"promptChars": None, "hash": None, "entries": None},
                  tools={"listChars": 0, "schemaChars": None, "entries": None})
    text = render_detail(view(report, entry={"totalTokens": 0}))
    assert "System prompt (estimate): unknown offline (Project Context unknown offline)" in text
    assert "Tool schemas (JSON): unknown offline (live tool schemas are known only to a running Gateway)" in text
    assert "Tracked prompt estimate: unknown offline" in text
    assert "Untracked provider/runtime overhead: unknown offline" in text


def test_live_report_from_a_fake_gateway(tmp_path: Path, fake_gateway):
    live = dict(REPORT, workspaceDir="/live/workspace")
    seen: list[dict] = []

    def handler(ws, server):
        server.handshake(ws)
        frame = server.recv_json(ws)
        seen.append(frame)
        ws.send(json.dumps({"type": "res", "id": frame["id"], "ok": True, "payload": {
            "sessions": [{"key": "agent:main:main", "sessionId": "s1", "contextWeight": live}]}}))

    gw = fake_gateway(handler)
    home = tmp_path / "home"
    (home / ".openclaw").mkdir(parents=True)
    out = run_context(["list", "--url", gw.url, "--token", "t"], env_for(home))
    assert out.returncode == 0, out.stderr
    assert "Workspace: /live/workspace" in out.stdout
    assert "Source: the run report the running Gateway holds" in out.stdout
    assert seen[0]["method"] == "sessions.usage"
    assert seen[0]["params"] == {"key": "agent:main:main", "includeContextWeight": True}


def test_unreachable_explicit_gateway_is_one_line(tmp_path: Path):
    from helpers.gateway import closed_port

    home = tmp_path / "home"
    home.mkdir()
    out = run_context(["list", "--url", f"ws://127.0.0.1:{closed_port()}", "--token", "t", "--timeout", "2000"],
                      env_for(home))
    assert out.returncode == 1 and len(out.stderr.strip().splitlines()) == 1
    assert out.stderr.startswith("Gateway:") and "Traceback" not in out.stderr


def test_default_session_without_state(tmp_path: Path):
    home = tmp_path / "home"
    home.mkdir()
    out = run_context(["detail", "--offline"], env_for(home))
    assert out.returncode == 0, out.stderr
    assert f"Workspace: {home}/.openclaw/workspace" in out.stdout
    assert "- AGENTS.md: MISSING | raw 0 | injected 0" in out.stdout
    assert "Compactable transcript: unavailable (no active transcript session)" in out.stdout

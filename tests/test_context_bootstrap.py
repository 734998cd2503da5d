"""Bootstrap limits, truncation and workspace loading, checked against 2026.7.1 behaviour."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from helpers.context import REAL

from openclaw_cli.context import bootstrap as bs
from openclaw_cli.context.report import analyze_budget, injection_stats, parse_skill_blocks
from openclaw_cli.context.units import from_units, to_units
from openclaw_cli.context.workspace import (
    load_bootstrap_files,
    resolve_bootstrap_files,
    resolve_workspace_dir,
)

TEMPLATE = (REAL / "state" / "workspace" / "AGENTS.md").read_text(encoding="utf-8")


def test_soul_example_keeps_75_25():
    out = bs.trim_content("HEAD-" + "a" * 600 + "b" * 300 + "-TAIL", "SOUL.md", 200)
    assert out.truncated and len(out.units) == 199
    assert "kept 75+25 chars of 910" in out.units
    assert out.units.startswith("HEAD-") and out.units.endswith("-TAIL")


@pytest.mark.parametrize("extra, injected", [("\n## Notes\n" + "x" * 25000, 14864),
                                             ("\n## Notes!\n" + "x" * 24999, 14865)])
def test_agents_md_policy_digest(extra, injected):
    content = TEMPLATE + extra
    assert len(content) == 32206
    out = bs.trim_content(content, "AGENTS.md", 20000)
    assert len(out.units) == injected
    digest = injected - 12151  # head 9,000 + tail 3,000 + markers 146 + 5 newlines
    assert f"…(truncated AGENTS.md: kept 9000+policy {digest}+3000 chars of 32206)…" in out.units
    assert "[Policy digest from AGENTS.md]" in out.units and "more policy lines omitted" not in out.units


def test_digest_budget_and_omitted_lines():
    lines = [f"- you must follow rule number {i} always" for i in range(400)]
    out = bs.trim_content("\n".join(lines), "agents.md", 2000)
    assert len(out.units) <= 2000 and "more policy lines omitted" in out.units


def test_utf16_lengths_and_safe_cuts():
    emoji = "😀" * 30000  # 60,000 UTF-16 units
    out = bs.trim_content(emoji, "USER.md", 20000)
    assert len(out.units) <= 20000 and out.truncated
    assert from_units(to_units("a😀b")) == "a😀b" and len(to_units("a😀b")) == 4
    clamped = bs.clamp_to_budget(to_units("😀😀😀"), 4)
    assert clamped == to_units("😀") + "…"


def _file(tmp: Path, name: str, text: str | None) -> bs.BootstrapFile:
    return bs.BootstrapFile(name, str(tmp / name), text, text is None)


def test_budget_loop(tmp_path):
    files = [_file(tmp_path, "AGENTS.md", "a" * 100), _file(tmp_path, "SOUL.md", None),
             _file(tmp_path, "TOOLS.md", "  \n"), _file(tmp_path, "USER.md", "u" * 500)]
    warnings: list[str] = []
    injected = bs.build_context_files(files, 20000, 300, warnings.append)
    assert [Path(f.path).name for f in injected] == ["AGENTS.md", "SOUL.md", "USER.md"]
    assert from_units(injected[1].units) == f"[MISSING] Expected at: {tmp_path / 'SOUL.md'}"
    assert sum(len(f.units) for f in injected) <= 300
    assert any("USER.md is 500 chars (limit" in w for w in warnings)
    assert bs.build_context_files([_file(tmp_path, "AGENTS.md", "x" * 100)], 20000, 40) == []
    tiny = bs.build_context_files([_file(tmp_path, "AGENTS.md", None)], 20000, 20)
    assert len(tiny[0].units) == 20 and tiny[0].units.startswith("[MISSING]")
    rows = injection_stats(files, injected)
    assert [r["truncated"] for r in rows] == [False, False, False, True]
    assert rows[2] == {"name": "TOOLS.md", "path": str(tmp_path / "TOOLS.md"), "missing": False,
                       "rawChars": 0, "injectedChars": 0, "truncated": False}


def test_limits_resolution():
    cfg = {"agents": {"defaults": {"bootstrapMaxChars": 15000.7},
                      "list": [{"id": "Scout", "bootstrapMaxChars": 32000, "bootstrapTotalMaxChars": 96000},
                               {"id": "bad", "bootstrapMaxChars": -1}]}}
    assert bs.resolve_max_chars(cfg, "scout") == 32000 and bs.resolve_total_max_chars(cfg, "scout") == 96000
    assert bs.resolve_max_chars(cfg, "main") == 15000 and bs.resolve_total_max_chars(cfg, "main") == 60000
    assert bs.resolve_max_chars(cfg, "bad") == 20000
    assert bs.resolve_max_chars(None, None) == 20000


def test_budget_causes():
    files = [{"name": "AGENTS.md", "missing": False, "rawChars": 200000, "injectedChars": 12000, "truncated": True},
             {"name": "SOUL.md", "missing": True, "rawChars": 0, "injectedChars": 0, "truncated": False}]
    analysis = analyze_budget(files, 12000, 60000)
    assert (len(analysis.truncated), analysis.per_file, analysis.total) == (1, 1, 0)
    assert analyze_budget(files, 12000, 12000).total == 1


def test_skill_blocks():
    prompt = "intro\n<available_skills>\n  <skill>\n    <name> tmux </name>\n  </skill>\n<SKILL>x</SKILL>\n"
    assert parse_skill_blocks(prompt) == [{"name": "tmux", "blockChars": 42}, {"name": "(unknown)", "blockChars": 16}]


def test_workspace_files_and_filters(tmp_path):
    ws = tmp_path / "ws"
    ws.mkdir()
    for name in ("AGENTS.md", "SOUL.md", "TOOLS.md", "USER.md", "BOOTSTRAP.md", "HEARTBEAT.md"):
        (ws / name).write_text(f"# {name}\n")
    (ws / "memory.md").write_text("lower-case memory is not loaded\n")
    (tmp_path / "outside.md").write_text("secret")
    os.symlink(tmp_path / "outside.md", ws / "IDENTITY.md")
    files = {f.name: f for f in load_bootstrap_files(str(ws))}
    assert list(files) == ["AGENTS.md", "SOUL.md", "TOOLS.md", "IDENTITY.md", "USER.md", "HEARTBEAT.md", "BOOTSTRAP.md"]
    assert files["IDENTITY.md"].missing  # escapes the workspace
    os.link(ws / "USER.md", tmp_path / "user-link.md")
    assert {f.name: f for f in load_bootstrap_files(str(ws))}["USER.md"].missing  # hard-linked
    (ws / "MEMORY.md").write_bytes(b"m" * (2 * 1024 * 1024 + 1))
    assert load_bootstrap_files(str(ws))[-1].name == "MEMORY.md" and load_bootstrap_files(str(ws))[-1].missing
    (ws / "openclaw-workspace-state.json").write_text('{"version":1,"setupCompletedAt":"2026-11-30T10:00:00Z"}')
    names = [f.name for f in resolve_bootstrap_files({}, "main", "agent:main:main", str(ws))]
    assert "BOOTSTRAP.md" not in names and "HEARTBEAT.md" in names
    off = {"agents": {"defaults": {"heartbeat": {"every": "0"}}}}
    assert "HEARTBEAT.md" not in [f.name for f in resolve_bootstrap_files(off, "main", "agent:main:main", str(ws))]
    assert [f.name for f in resolve_bootstrap_files({}, "main", "agent:main:subagent:x", str(ws))] == ["AGENTS.md", "TOOLS.md"]
    assert [f.name for f in resolve_bootstrap_files({}, "main", "agent:main:cron:job", str(ws))] == \
        ["AGENTS.md", "SOUL.md", "TOOLS.md", "IDENTITY.md", "USER.md"]


def test_workspace_dir_resolution(tmp_path):
    env = {"HOME": str(tmp_path)}
    assert resolve_workspace_dir({}, "main", env) == f"{tmp_path}/.openclaw/workspace"
    cfg = {"agents": {"list": [{"id": "main"}, {"id": "ops", "workspace": "~/w-ops"}], "defaults": {"workspace": "/srv/ws"}}}
    assert resolve_workspace_dir(cfg, "ops", env) == f"{tmp_path}/w-ops"
    assert resolve_workspace_dir(cfg, "main", env) == "/srv/ws"
    assert resolve_workspace_dir({"agents": {"list": [{"id": "main"}, {"id": "x"}]}}, "x",
                                 {**env, "OPENCLAW_STATE_DIR": "/st"}) == "/st/workspace-x"

"""Every doctor repair with a second run showing it fixed; nothing changes without --fix or a yes."""

from __future__ import annotations

import json
import os
import re
import stat
import subprocess
import sys
import time
from pathlib import Path

from helpers import refbin
from helpers.doctor import (
    MAIN_SID,
    ORPHAN_SID,
    TOKEN,
    doctor,
    f1,
    f2,
    header,
    iso_ago,
    lint,
    sessions,
    state,
    write_config,
    write_lock,
    write_store,
    write_transcript,
)
from helpers.folders import folder_digest


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_nothing_changes_without_fix(home):
    f1(home)
    before = folder_digest(home)
    run = doctor(home, non_interactive=True)
    assert run.code == 0
    assert 'Run "openclaw doctor --fix" to apply changes.' in run.out
    assert folder_digest(home) == before
    run = doctor(home, tty=True, default_answer=False)  # every prompt answered "no"
    assert run.asked and folder_digest(home) == before


def test_fix_f1_then_second_run_is_clean(home):
    f1(home)
    config = state(home) / "openclaw.json"
    original = config.read_bytes()
    run = doctor(home, fix=True, non_interactive=True)
    assert run.code == 0, run.err
    for text in ["Removed deprecated session.maintenance.rotateBytes.",
                 "Removed session.parentForkMaxTokens; parent fork sizing is automatic.",
                 "- plugins.slots: reset 1 stale plugin slot (contextEngine: lossless-claw -> legacy)",
                 "- Tightened permissions on ~/.openclaw to 700",
                 "- Tightened permissions on ~/.openclaw/openclaw.json to 600",
                 "stale=yes (dead-pid, too-old) [removed]", "- Removed 1 stale session lock file.",
                 "Updated config: ~/.openclaw/openclaw.json", "  Backup: ~/.openclaw/openclaw.json.bak"]:
        assert text in run.out, text
    cfg = json.loads(config.read_text())
    assert "parentForkMaxTokens" not in cfg["session"] and "rotateBytes" not in cfg["session"]["maintenance"]
    assert cfg["plugins"]["slots"]["contextEngine"] == "legacy"
    assert cfg["gateway"]["auth"]["token"] == TOKEN  # never moved or regenerated
    assert cfg["wizard"]["lastRunCommand"] == "doctor" and cfg["meta"]["lastTouchedVersion"] == "2026.7.1"
    assert config.read_text().endswith("}\n") and config.read_text().startswith('{\n  "')
    assert mode(config) == 0o600 and mode(state(home)) == 0o700
    assert (state(home) / "openclaw.json.bak").read_bytes() == original
    assert mode(state(home) / "openclaw.json.bak") == 0o600
    assert not (sessions(home) / f"{MAIN_SID}.jsonl.lock").exists()
    assert (sessions(home) / f"{ORPHAN_SID}.jsonl").exists()  # archiving needs an interactive yes
    audit = (state(home) / "logs" / "config-audit.jsonl").read_text().splitlines()
    assert len(audit) == 1 and json.loads(audit[0])["event"] == "config.write"

    written = config.read_bytes()
    again = doctor(home, fix=True, non_interactive=True)
    assert "Updated config" not in again.out and "Doctor changes" not in again.out
    assert config.read_bytes() == written
    assert not (state(home) / "openclaw.json.bak.1").exists()
    found = lint(home, include_all=True, skip=["core/doctor/gateway-health"])
    assert not {f["checkId"] for f in found.json["findings"]} & {
        "core/doctor/legacy-config", "core/doctor/plugin-slots", "core/doctor/session-locks",
        "core/doctor/final-config-validation"}
    # what --fix leaves: the transcript rows (archiving orphans needs an interactive yes)
    assert [f["message"].split(" ")[:2] for f in found.findings("core/doctor/state-integrity")] == [
        ["Found", "1"], ["Main", "session"], ["1/2", "recent"]]


def test_backup_ring(home):
    from openclaw_cli.doctor.configfile import write_config_text

    path = write_config(home, {"v": 0})
    folder = path.parent
    (folder / "openclaw.json.bak.12345").write_text("stray")
    (folder / "openclaw.json.bak.before-x").write_text("stray")
    (folder / "other.bak.7").write_text("keep")
    for version in range(1, 7):
        write_config_text(str(path), json.dumps({"v": version}) + "\n", state_dir=str(state(home)))
    assert json.loads(path.read_text()) == {"v": 6}
    ring = {name: json.loads((folder / name).read_text())["v"] for name in
            ["openclaw.json.bak", "openclaw.json.bak.1", "openclaw.json.bak.2", "openclaw.json.bak.3",
             "openclaw.json.bak.4"]}
    assert ring == {"openclaw.json.bak": 5, "openclaw.json.bak.1": 4, "openclaw.json.bak.2": 3,
                    "openclaw.json.bak.3": 2, "openclaw.json.bak.4": 1}
    assert all(mode(folder / name) == 0o600 for name in ring)
    assert not (folder / "openclaw.json.bak.12345").exists() and not (folder / "openclaw.json.bak.before-x").exists()
    assert (folder / "other.bak.7").exists()
    assert mode(path) == 0o600


def test_gateway_token_generation_modes(home):
    write_config(home, {"gateway": {"mode": "local"}})
    os.chmod(state(home), 0o700)
    run = doctor(home, fix=True, non_interactive=True)
    assert "token" not in json.loads((state(home) / "openclaw.json").read_text())["gateway"].get("auth", {})
    assert "Gateway auth is off or missing a token." in run.out
    run = doctor(home, generate_gateway_token=True, non_interactive=True)
    auth = json.loads((state(home) / "openclaw.json").read_text())["gateway"]["auth"]
    assert auth["mode"] == "token" and re.fullmatch(r"[0-9a-f]{48}", auth["token"])
    assert "Gateway token configured." in run.out
    assert auth["token"] not in run.out + run.err
    again = doctor(home, fix=True)
    assert "Gateway auth is off" not in again.out
    assert json.loads((state(home) / "openclaw.json").read_text())["gateway"]["auth"]["token"] == auth["token"]


def test_gateway_token_interactive_prompt(home):
    write_config(home, {"gateway": {"mode": "local"}})
    run = doctor(home, tty=True, answers={"Generate and configure a gateway token now?": True},
                 default_answer=False)
    assert "Generate and configure a gateway token now?" in run.asked
    token = json.loads((state(home) / "openclaw.json").read_text())["gateway"]["auth"]["token"]
    assert len(token) == 48 and token not in run.out


def test_stale_lock_rules(home):
    f2(home)
    live = subprocess.Popen(["bash", "-c", "exec -a openclaw sleep 30"])
    other = subprocess.Popen(["sleep", "30"])
    try:
        time.sleep(0.2)
        write_lock(home, "dead", {"pid": 999999, "createdAt": iso_ago(10)})
        write_lock(home, "live-old", {"pid": live.pid, "createdAt": iso_ago(3 * 3600)})
        write_lock(home, "foreign", {"pid": other.pid, "createdAt": iso_ago(10)})
        write_lock(home, "empty-new", "", mtime_age_s=2)
        write_lock(home, "empty-old", "", mtime_age_s=120)
        run = doctor(home, fix=True, non_interactive=True)
        left = sorted(p.name for p in sessions(home).glob("*.lock"))
        assert left == ["empty-new.jsonl.lock", "live-old.jsonl.lock"], run.out
        assert "- Removed 4 stale session lock files." in run.out
        assert "live-old.jsonl.lock pid=%d (alive) age=3h0m stale=yes (too-old)\n" % live.pid in run.out
        foreign = "foreign.jsonl.lock pid=%d (alive) age=10s stale=yes (non-openclaw-owner) [removed]"
        assert foreign % other.pid in run.out
        again = doctor(home, fix=True, non_interactive=True)
        assert "[removed]" not in again.out and "Removed" not in again.out
    finally:
        live.kill()
        other.kill()
        live.wait()
        other.wait()


def test_orphan_archive_needs_interactive_yes(home):
    f2(home)
    orphan = sessions(home) / f"{ORPHAN_SID}.jsonl"
    for flags in ({"fix": True, "non_interactive": True}, {"yes": True}, {"fix": True}):
        run = doctor(home, **flags)
        assert orphan.exists(), flags
        assert not any(q.startswith("Archive") for q in run.asked)
    run = doctor(home, tty=True, answers={"Archive 1 orphan transcript file": True}, default_answer=False)
    assert not orphan.exists()
    archived = list(sessions(home).glob(f"{ORPHAN_SID}.jsonl.deleted.*"))
    assert len(archived) == 1
    assert re.fullmatch(r".*\.deleted\.\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.\d{3}Z", archived[0].name)
    assert ("- Archived 1 orphan transcript file in ~/.openclaw/agents/main/sessions as .deleted timestamped "
            "backups.") in run.out
    again = doctor(home, tty=True, default_answer=False)
    assert "orphan transcript" not in again.out


def _branch_transcript(home: Path) -> Path:
    sid = "44444444-4444-4444-8444-444444444444"

    def msg(i, p, role, content, **kw):
        return json.dumps({"type": "message", "id": i, "parentId": p, "message": {"role": role, "content": content,
                                                                                 **kw}})
    ctx = "<<<BEGIN_OPENCLAW_INTERNAL_CONTEXT>>>\nruntime stuff\n<<<END_OPENCLAW_INTERNAL_CONTEXT>>>\n\nwhat now"
    return write_transcript(home, sid, [header(sid), msg("a1", None, "user", "hello"),
                                        msg("a2", "a1", "assistant", [{"type": "text", "text": "hi"}]),
                                        msg("ub", "a2", "user", ctx), msg("ug", "a2", "user", "what now"),
                                        msg("a3", "ug", "assistant", [{"type": "text", "text": "ok"}],
                                            provider="openai-codex")])


def test_transcript_branch_repair(home):
    f2(home)
    path = _branch_transcript(home)
    os.chmod(path, 0o640)
    original = path.read_bytes()
    run = doctor(home, non_interactive=True)
    assert f"{path.name} needs repair entries=6->5 openai-codex=1" in run.out
    assert path.read_bytes() == original
    run = doctor(home, fix=True, non_interactive=True)
    assert "repaired entries=6->5 openai-codex=1 backup=" in run.out and "- Repaired 1 transcript file." in run.out
    backups = list(path.parent.glob(path.name + ".pre-doctor-branch-repair-*.bak"))
    assert len(backups) == 1 and backups[0].read_bytes() == original
    ids = [json.loads(line).get("id") for line in path.read_text().splitlines()]
    assert ids == ["44444444-4444-4444-8444-444444444444", "a1", "a2", "ug", "a3"]
    assert json.loads(path.read_text().splitlines()[-1])["message"]["provider"] == "openai"
    assert mode(path) == 0o640
    again = doctor(home, fix=True, non_interactive=True)
    assert "Session transcripts" not in again.out


def test_unknown_keys_removed(home):
    write_config(home, {"gateway": {"mode": "local"}, "bogusTop": 1, "session": {"bogusKey": True}})
    run = doctor(home, non_interactive=True)
    assert "Unknown config keys\n- session.bogusKey\n- bogusTop\n" in run.out
    assert 'Run "openclaw doctor --fix" to remove these keys.' in run.out
    run = doctor(home, fix=True, non_interactive=True)
    cfg = json.loads((state(home) / "openclaw.json").read_text())
    assert "bogusTop" not in cfg and cfg["session"] == {}
    assert "Invalid config:" not in run.err
    assert lint(home).findings("core/doctor/final-config-validation") == []


def test_missing_runtime_dirs_created(home, tmp_path):
    other = tmp_path / "st"
    other.mkdir(mode=0o700)
    env = {"OPENCLAW_STATE_DIR": str(other)}
    run = doctor(home, env=env, non_interactive=True)
    assert "- CRITICAL: Session store dir missing (" in run.out
    run = doctor(home, env=env, fix=True, non_interactive=True)
    assert "- Created Session store dir: " in run.out
    assert (other / "agents" / "main" / "sessions").is_dir()
    assert "Session store dir" not in doctor(home, env=env, fix=True, non_interactive=True).out


def test_unparsable_config_is_never_overwritten(home):
    broken = '{\n  "gateway": {\n    "mode": "local"\n'
    path = write_config(home, broken)
    run = doctor(home, generate_gateway_token=True, non_interactive=True)
    assert path.read_text() == broken
    assert "Config invalid; doctor will run with best-effort config." in run.out
    assert not (state(home) / "openclaw.json.bak").exists()


def test_json5_comments_become_plain_json(home):
    path = write_config(home, "// note\n{gateway: {mode: 'local',}, session: {maintenance: {rotateBytes: 1,},},}\n")
    run = doctor(home, fix=True, non_interactive=True)
    assert "Removed deprecated session.maintenance.rotateBytes." in run.out
    text = path.read_text()
    assert "//" not in text and json.loads(text)["session"] == {"maintenance": {}}


def test_interactive_config_repair_prompt(home):
    f1(home)
    run = doctor(home, tty=True, answers={"Apply recommended config repairs now?": True}, default_answer=False)
    cfg = json.loads((state(home) / "openclaw.json").read_text())
    assert "parentForkMaxTokens" not in cfg["session"]
    assert "Tightened permissions" not in run.out  # the permission prompts were answered no
    assert (sessions(home) / f"{MAIN_SID}.jsonl.lock").exists()  # lock removal only under --fix


def test_cli_tty_orphan_archive_through_pty(home):
    """End to end at a real terminal: the archive prompt is asked and a typed `y` renames the file."""
    import pty

    f2(home)
    orphan = sessions(home) / f"{ORPHAN_SID}.jsonl"
    env = {"HOME": str(home), "PATH": os.environ.get("PATH", ""), "OPENCLAW_GATEWAY_PORT": "1", "NO_COLOR": "1",
           **refbin.clock_env()}
    pid, fd = pty.fork()
    if pid == 0:  # pragma: no cover - child
        os.chdir(home)
        os.execve(sys.executable, [sys.executable, "-m", "openclaw_cli", "doctor"], env)
    output = b""
    answered = False
    replied = 0
    deadline = time.time() + 60
    while time.time() < deadline:
        try:
            chunk = os.read(fd, 4096)
        except OSError:
            break
        if not chunk:
            break
        output += chunk
        text = output.decode(errors="replace")
        prompts = re.findall(r"([^\n]*)\[(?:Y/n|y/N)\] ", text)
        for question in prompts[replied:]:
            archive = "Archive 1 orphan transcript file" in question
            answered = answered or archive
            os.write(fd, b"y\n" if archive else b"n\n")
        replied = len(prompts)
    os.waitpid(pid, 0)
    assert answered, output.decode(errors="replace")[-2000:]
    assert not orphan.exists()
    assert list(sessions(home).glob(f"{ORPHAN_SID}.jsonl.deleted.*"))


def test_wedged_subagent_flags_cleared(home):
    f2(home)
    store = json.loads((sessions(home) / "sessions.json").read_text())
    store["agent:main:subagent:w1"] = {"sessionId": "w1", "updatedAt": 5, "abortedLastRun": True,
                                       "subagentRecovery": {"wedgedAt": 10, "wedgedReason": "blocked twice"}}
    write_store(home, store)
    run = doctor(home, non_interactive=True)
    assert "- Found 1 wedged subagent session with automatic restart recovery tombstoned." in run.out
    assert "  Reason: blocked twice" in run.out
    run = doctor(home, fix=True, non_interactive=True)
    assert "- Cleared aborted restart-recovery flags for 1 wedged subagent session." in run.out
    entry = json.loads((sessions(home) / "sessions.json").read_text())["agent:main:subagent:w1"]
    assert entry["abortedLastRun"] is False and entry["subagentRecovery"]["wedgedAt"] == 10
    again = doctor(home, fix=True, non_interactive=True)
    assert "Cleared aborted" not in again.out

"""Each doctor check, problem present and absent, through `doctor --lint --json` in-process."""

from __future__ import annotations

import json
import os
import time

import pytest
from helpers.doctor import (
    GROUP_SID,
    MAIN_SID,
    ORPHAN_SID,
    TOKEN,
    doctor,
    f1,
    f2,
    header,
    iso_ago,
    lint,
    lint_ids,
    sessions,
    state,
    write_config,
    write_lock,
    write_store,
    write_transcript,
)
from helpers.folders import folder_digest


def clean(home, cfg=None):
    """A healthy state folder: 0700, config 0600 with a token, store + transcripts all consistent, the
    OAuth folder present (its absence is an info row of state integrity)."""
    os.chmod(state(home), 0o700)
    (state(home) / "credentials").mkdir(mode=0o700, exist_ok=True)
    write_config(home, cfg if cfg is not None else {"gateway": {"mode": "local", "auth": {"mode": "token"}},
                                                    "commands": {"ownerAllowFrom": ["telegram:1"]}})
    now = int(time.time() * 1000)
    write_store(home, {"agent:main:main": {"sessionId": MAIN_SID, "updatedAt": now}})
    write_transcript(home, MAIN_SID, [header(MAIN_SID), json.dumps({"type": "message", "id": "a", "parentId": None,
                                                                    "message": {"role": "user", "content": "hi"}})])


MIGRATE_HINT = 'Run "openclaw doctor --fix" to migrate legacy config keys.'
ENV_TOKEN = {"OPENCLAW_GATEWAY_TOKEN": "env-token-value-123456"}


def test_clean_state_has_no_findings(home):
    clean(home)
    run = lint(home, env=ENV_TOKEN, include_all=True, severity_min="info", skip=[
        "core/doctor/gateway-health", "core/doctor/workspace-suggestions"])
    assert run.code == 0, run.out
    assert run.json["findings"] == []
    assert run.json["ok"] is True


# -- final-config-validation --------------------------------------------------------------

def test_config_invalid_keeps_going(home):
    clean(home, {"gateway": {"mode": "local"}, "bogusTop": 1, "session": {"bogusKey": True}})
    os.chmod(state(home), 0o755)
    run = lint(home)
    found = run.findings("core/doctor/final-config-validation")
    assert {(f["severity"], f["path"], f["message"]) for f in found} == {
        ("error", "<root>", "Invalid input"), ("error", "session", "Invalid input")}
    assert run.json["checksRun"] > 1  # unlike the reference, other checks still ran
    assert "core/doctor/state-integrity" in lint_ids(run)
    assert "core/doctor/gateway-auth" not in lint_ids(run)  # as the doctor run: no token advice on it
    assert run.code == 1


def test_config_json5_and_parse_failure(home):
    clean(home, "// comment\n{gateway: {mode: 'local',},}\n")
    assert "core/doctor/final-config-validation" not in lint_ids(lint(home))
    write_config(home, '{\n  "gateway": {\n    "mode": "local"\n')
    found = lint(home).findings("core/doctor/final-config-validation")
    assert found and found[0]["path"] == "<root>" and found[0]["message"].startswith("JSON5 parse failed:")


def test_config_include_and_env_vars(home):
    clean(home)
    (state(home) / "gw.json5").write_text("{mode: 'local'}")
    write_config(home, {"gateway": {"$include": "./gw.json5"}, "agents": {"defaults": {"workspace": "${WS_DIR}"}}})
    run = doctor(home, non_interactive=True, env=ENV_TOKEN)
    assert "Config warnings" in run.out and 'Missing env var "WS_DIR"' in run.out
    assert "gateway.mode is unset" not in run.out
    write_config(home, {"gateway": {"$include": "./missing.json5"}})
    found = lint(home).findings("core/doctor/final-config-validation")
    assert found and "nclude" in found[0]["message"]


# -- gateway-config / gateway-auth --------------------------------------------------------

def test_gateway_mode_unset(home):
    clean(home, {})
    found = lint(home, env=ENV_TOKEN).findings("core/doctor/gateway-config")
    assert [f["message"] for f in found] == ["gateway.mode is unset; gateway start will be blocked."]
    clean(home)
    assert lint(home, env=ENV_TOKEN).findings("core/doctor/gateway-config") == []


def test_gateway_ambiguous_auth(home):
    clean(home, {"gateway": {"mode": "local", "auth": {"token": TOKEN, "password": "pw-123456789"}}})
    found = lint(home).findings("core/doctor/gateway-config")
    assert [f["path"] for f in found] == ["gateway.auth.mode"]


def test_gateway_auth_missing_token(home):
    clean(home, {"gateway": {"mode": "local"}})
    found = lint(home).findings("core/doctor/gateway-auth")
    assert [(f["message"], f["path"]) for f in found] == [("Gateway auth is off or missing a token.", "gateway.auth")]
    assert lint(home, env=ENV_TOKEN).findings("core/doctor/gateway-auth") == []
    clean(home, {"gateway": {"mode": "local", "auth": {"mode": "password"}}})
    assert lint(home).findings("core/doctor/gateway-auth") == []
    clean(home, {"gateway": {"mode": "remote", "remote": {"url": "ws://127.0.0.1:1"}}})
    assert lint(home).findings("core/doctor/gateway-auth") == []


def test_gateway_auth_secret_ref(home):
    clean(home, {"gateway": {"mode": "local", "auth": {"token": {"source": "env", "provider": "default",
                                                                 "id": "GW_TOKEN_X"}}}})
    found = lint(home).findings("core/doctor/gateway-auth")
    assert found and found[0]["path"] == "gateway.auth.token"
    assert lint(home, env={"GW_TOKEN_X": "abcdefabcdef1234"}).findings("core/doctor/gateway-auth") == []


# -- state-integrity ----------------------------------------------------------------------

def test_state_integrity_permissions(home):
    clean(home)
    os.chmod(state(home), 0o755)
    os.chmod(state(home) / "openclaw.json", 0o644)
    found = lint(home, only=["core/doctor/state-integrity"]).findings()
    assert [(f["severity"], f["message"], f["path"]) for f in found] == [
        ("warning", "State directory permissions are too open. Recommend chmod 700.", str(state(home))),
        ("warning", "Config file is group/world readable. Recommend chmod 600.", str(state(home) / "openclaw.json"))]


def test_state_integrity_missing_dirs(home, tmp_path):
    clean(home)
    run = lint(home, only=["core/doctor/state-integrity"], env={"OPENCLAW_STATE_DIR": str(tmp_path / "nope")})
    assert [(f["severity"], f["message"]) for f in run.findings()] == [
        ("error", "State directory is missing. Sessions, credentials, logs, and config are stored there."),
        ("warning", "Multiple state directories detected. This can split session history: ~/.openclaw.")]
    other = tmp_path / "st"
    other.mkdir(mode=0o700)
    run = lint(home, only=["core/doctor/state-integrity"], env={"OPENCLAW_STATE_DIR": str(other)})
    assert [(f["severity"], f["message"]) for f in run.findings()] == [
        ("error", "Session store dir is missing."),
        ("warning", "Multiple state directories detected. This can split session history: ~/.openclaw.")]
    run = lint(home, only=["core/doctor/state-integrity"],
               env={"OPENCLAW_STATE_DIR": str(other), "OPENCLAW_OAUTH_DIR": str(tmp_path / "oauth")})
    assert "OAuth dir is missing." in [f["message"] for f in run.findings()]


def test_state_integrity_human_rows(home):
    f2(home)
    (state(home) / "agents" / "stray" / "agent").mkdir(parents=True)
    run = doctor(home, non_interactive=True)
    for text in ["- State directory permissions are too open (~/.openclaw). Recommend chmod 700.",
                 "- Config file is group/world readable (~/.openclaw/openclaw.json). Recommend chmod 600.",
                 "- OAuth dir not present (~/.openclaw/credentials).",
                 "- 1/2 recent sessions are missing transcripts.",
                 f'  Preview cleanup impact: openclaw sessions cleanup --store "{sessions(home)}/sessions.json" '
                 "--dry-run --fix-missing",
                 "- Main session transcript has only 1 line. Session history may not be appending.",
                 "- Found 1 orphan transcript file in ~/.openclaw/agents/main/sessions.",
                 f"  Examples: {ORPHAN_SID}.jsonl",
                 "- Found 1 agent directory on disk without a matching agents.list entry.",
                 "  Examples: stray"]:
        assert text in run.out, text
    os.remove(sessions(home) / f"{MAIN_SID}.jsonl")
    assert "- Main session transcript missing (~/.openclaw/agents/main/sessions/" in doctor(home).out


def test_state_integrity_storage_detection():
    from openclaw_cli.doctor.support.storage import detect_storage

    info = ("22 1 0:21 / / rw - ext4 /dev/root rw\n"
            "30 22 179:2 / /data rw - ext4 /dev/mmcblk0p2 rw\n"
            "31 22 0:40 / /run/st rw - tmpfs tmpfs rw\n")
    sd = detect_storage("/data/.openclaw", "/home/u", platform="linux", mountinfo=info)
    assert [(i.kind, i.mount_point, i.source) for i in sd] == [("sd", "/data", "/dev/mmcblk0p2")]
    tmp = detect_storage("/run/st/x", "/home/u", platform="linux", mountinfo=info)
    assert [(i.kind, i.fs_type) for i in tmp] == [("volatile", "tmpfs")]
    assert detect_storage("/srv/x", "/home/u", platform="linux", mountinfo=info) == []
    cloud = detect_storage("/Users/u/Library/CloudStorage/x/.openclaw", "/Users/u", platform="darwin")
    assert [(i.kind, i.storage) for i in cloud] == [("cloud", "CloudStorage provider")]


# -- session-locks ------------------------------------------------------------------------

def test_session_locks_reasons(home):
    clean(home)
    write_lock(home, "a", {"pid": 999999, "createdAt": iso_ago(60)})
    write_lock(home, "b", {"pid": os.getppid(), "createdAt": iso_ago(3 * 3600)})
    write_lock(home, "c", "not json", mtime_age_s=120)
    write_lock(home, "d", {}, mtime_age_s=5)
    found = {os.path.basename(f["path"]): f for f in lint(home, only=["core/doctor/session-locks"]).findings()}
    assert found["a.jsonl.lock"]["message"].endswith("(dead-pid)")
    assert "removable" not in found["a.jsonl.lock"]["fixHint"] and "automatically" in found["a.jsonl.lock"]["fixHint"]
    assert "too-old" in found["b.jsonl.lock"]["message"]
    assert found["c.jsonl.lock"]["message"].endswith("(missing-pid, invalid-createdAt)")
    assert "grace period" in found["d.jsonl.lock"]["fixHint"]


def test_session_locks_fresh_lock_no_finding(home):
    clean(home)
    write_lock(home, MAIN_SID, {"pid": os.getpid(), "createdAt": iso_ago(5)})
    assert lint(home, only=["core/doctor/session-locks"]).findings() == []
    out = doctor(home).out
    assert f"pid={os.getpid()} (alive) age=5s stale=no" in out or "stale=no" in out


def test_session_locks_stale_ms_env(home):
    clean(home)
    write_lock(home, MAIN_SID, {"pid": os.getpid(), "createdAt": iso_ago(120)})
    assert lint(home, only=["core/doctor/session-locks"]).findings() == []
    found = lint(home, only=["core/doctor/session-locks"],
                 env={"OPENCLAW_SESSION_WRITE_LOCK_STALE_MS": "60000"}).findings()
    assert found and "too-old" in found[0]["message"]
    assert "preserving this live owned lock" in found[0]["fixHint"]


# -- session-transcripts ------------------------------------------------------------------

def test_session_transcripts_codex_metadata(home):
    clean(home)
    lines = [header(MAIN_SID),
             json.dumps({"type": "message", "id": "a", "parentId": None,
                         "message": {"role": "assistant", "provider": "openai-codex", "content": []}})]
    write_transcript(home, MAIN_SID, lines)
    found = lint(home, severity_min="info").findings("core/doctor/session-transcripts")
    assert [f["message"] for f in found] == ["Session transcript has legacy branch or provider metadata that can be "
                                             "cleaned up. 1 legacy OpenAI Codex metadata entry"]
    assert lint(home).findings("core/doctor/session-transcripts") == []  # info: hidden at the default threshold


def _branch_lines(sid: str, context: str) -> list[str]:
    """A user turn rewritten on another branch: the abandoned copy carries an internal-context block."""
    def msg(i, p, role, content):
        return json.dumps({"type": "message", "id": i, "parentId": p, "message": {"role": role, "content": content}})
    return [header(sid), msg("a1", None, "user", "hello"),
            msg("a2", "a1", "assistant", [{"type": "text", "text": "hi"}]),
            msg("ub", "a2", "user", context + "\n\nwhat now"), msg("ug", "a2", "user", "what now"),
            msg("a3", "ug", "assistant", [{"type": "text", "text": "ok"}])]


CONTEXT_BLOCK = "<<<BEGIN_OPENCLAW_INTERNAL_CONTEXT>>>\nruntime stuff\n<<<END_OPENCLAW_INTERNAL_CONTEXT>>>"
NOTICE_BLOCK = ("OpenClaw runtime context for the immediately preceding user message.\n"
                "This context is runtime-generated, not user-authored. Keep internal details private.")


@pytest.mark.parametrize("context", [CONTEXT_BLOCK, NOTICE_BLOCK], ids=["delimited", "notice"])
@pytest.mark.parametrize("escaped", [False, True], ids=["plain", "unicode-escaped"])
def test_session_transcripts_find_a_broken_branch_however_its_json_spells_the_block(home, context, escaped):
    clean(home)
    lines = _branch_lines(MAIN_SID, context)
    if escaped:  # JSON may spell any character as \uXXXX: the file must still be read
        lines = [line.replace("BEGIN_", "\\u0042EGIN_").replace("runtime-generated", "runtime\\u002dgenerated")
                 for line in lines]
    path = write_transcript(home, MAIN_SID, lines)
    found = lint(home, severity_min="info").findings("core/doctor/session-transcripts")
    assert [(f["message"], f["path"]) for f in found] == [
        ("Session transcript has legacy branch or provider metadata that can be cleaned up.", str(path))]


def test_session_transcripts_find_codex_metadata_spelt_with_unicode_escapes(home):
    clean(home)
    line = json.dumps({"type": "message", "id": "a", "parentId": None,
                       "message": {"role": "assistant", "provider": "openai-codex", "content": []}})
    write_transcript(home, MAIN_SID, [header(MAIN_SID), line.replace("openai-codex", "\\u006fpenai-codex")])
    found = lint(home, severity_min="info").findings("core/doctor/session-transcripts")
    assert [f["message"] for f in found] == ["Session transcript has legacy branch or provider metadata that can be "
                                             "cleaned up. 1 legacy OpenAI Codex metadata entry"]


def test_session_transcripts_leave_a_user_turn_that_only_mentions_the_markers_alone(home):
    clean(home)
    mention = "I read about openai-codex and BEGIN_OPENCLAW_INTERNAL_CONTEXT"
    write_transcript(home, MAIN_SID, _branch_lines(MAIN_SID, mention))
    assert lint(home, severity_min="info").findings("core/doctor/session-transcripts") == []


# -- bootstrap-size -----------------------------------------------------------------------

def test_bootstrap_size(home):
    clean(home)
    ws = state(home) / "workspace"
    ws.mkdir()
    (ws / "AGENTS.md").write_text("# Rules\n" + "x" * 29_990 + "\n")
    (ws / "SOUL.md").write_text("s" * 18_000)
    found = lint(home, severity_min="info").findings("core/doctor/bootstrap-size")
    assert [(f["severity"], f["message"]) for f in found] == [
        ("warning", "AGENTS.md exceeds bootstrap limits and will be truncated."),
        ("info", "SOUL.md is near the configured bootstrap file limit.")]
    (ws / "AGENTS.md").write_text("short")
    (ws / "SOUL.md").write_text("short")
    assert lint(home, severity_min="info").findings("core/doctor/bootstrap-size") == []


# -- security -----------------------------------------------------------------------------

def test_security_plaintext_and_exposure(home):
    clean(home, {"gateway": {"mode": "local", "bind": "lan", "auth": {"mode": "token"}},
                 "models": {"providers": {"acme": {"apiKey": "sk-abcdefgh12345678",
                                                   "headers": {"X-Api-Key": "k1234567890", "X-Trace": "t"}}}},
                 "channels": {"telegram": {"botToken": "123:abcdefghijk"}}})
    found = lint(home).findings("core/doctor/security")
    messages = [f["message"] for f in found]
    assert "Paths: models.providers.acme.apiKey, models.providers.acme.headers.X-Api-Key, channels.telegram.botToken" \
        in messages
    assert any(f["severity"] == "error" and f["message"].startswith('CRITICAL: Gateway bound to "lan" (0.0.0.0)')
               for f in found)
    clean(home, {"gateway": {"mode": "local", "auth": {"token": {"source": "env", "provider": "default", "id": "X"}}}})
    assert lint(home).findings("core/doctor/security") == []


# -- legacy-config / plugin-slots ---------------------------------------------------------

def test_legacy_config_and_plugin_slots(home):
    f1(home)
    run = lint(home, include_all=True)
    legacy = [(f["severity"], f["path"], f["fixHint"]) for f in run.findings("core/doctor/legacy-config")]
    # each key its own finding at its own path; an error, since `session` fails validation because of them
    assert legacy == [("error", "session.maintenance.rotateBytes", MIGRATE_HINT),
                      ("error", "session.parentForkMaxTokens", MIGRATE_HINT)]
    slots = run.findings("core/doctor/plugin-slots")
    assert [f["message"] for f in slots] == [
        'plugins.slots.contextEngine: slot references missing plugin "lossless-claw".']
    clean(home, {"gateway": {"mode": "local"},
                 "plugins": {"slots": {"memory": "memory-core", "contextEngine": "none"}}})
    assert lint(home, include_all=True).findings("core/doctor/plugin-slots") == []
    clean(home, {"gateway": {"mode": "local"}, "plugins": {"slots": {"memory": "memory-wiki"},
                                                          "deny": ["memory-wiki"]}})
    found = lint(home, include_all=True).findings("core/doctor/plugin-slots")
    assert [f["message"] for f in found] == ['plugins.slots.memory: slot references plugin "memory-wiki", which is '
                                             "disabled (listed in plugins.deny)."]


def test_plugin_slots_installed_extension(home):
    clean(home, {"gateway": {"mode": "local"}, "plugins": {"slots": {"contextEngine": "lossless-claw"}}})
    ext = state(home) / "extensions" / "lossless"
    ext.mkdir(parents=True)
    (ext / "openclaw.plugin.json").write_text(json.dumps({"id": "lossless-claw"}))
    assert lint(home, include_all=True).findings("core/doctor/plugin-slots") == []


# -- session-store ------------------------------------------------------------------------

def test_session_store_health(home):
    clean(home, {"gateway": {"mode": "local"}, "session": {"maintenance": {"maxEntries": 1, "maxDiskBytes": 100}}})
    now = int(time.time() * 1000)
    write_store(home, {"agent:main:main": {"sessionId": MAIN_SID, "updatedAt": now},
                       "agent:main:x": {"sessionId": GROUP_SID, "updatedAt": now}})
    write_transcript(home, GROUP_SID, [header(GROUP_SID)] * 5)
    found = lint(home, only=["core/doctor/session-store"]).findings()
    messages = [f["message"] for f in found]
    assert "Session store has 2 entries, above session.maintenance.maxEntries (1)." in messages
    assert any(m.startswith("Sessions folder uses ") for m in messages)
    assert all("openclaw sessions cleanup --store" in f["fixHint"] for f in found)
    (sessions(home) / "sessions.json").write_text("{ not json")
    found = lint(home, only=["core/doctor/session-store"]).findings()
    assert [f["severity"] for f in found] == ["error"]
    assert found[0]["message"].startswith("Session store does not parse")


def test_missing_and_orphan_transcripts_are_state_integrity_rows_not_session_store_findings(home):
    f2(home)
    assert lint(home, only=["core/doctor/session-store"], severity_min="info").findings() == []
    found = lint(home, only=["core/doctor/state-integrity"], severity_min="info").findings()
    assert [f["message"] for f in found if "transcript" in f["message"]] == [
        "Found 1 orphan transcript file in ~/.openclaw/agents/main/sessions, no longer referenced by sessions.json.",
        "Main session transcript has only 1 line. Session history may not be appending.",
        "1/2 recent sessions are missing transcripts."]


@pytest.mark.parametrize("session_file", ["none", "absolute", "through-link"])
def test_orphan_transcripts_are_found_in_a_sessions_folder_reached_through_a_link(home, session_file):
    f2(home)
    folder = sessions(home)
    real = home / "elsewhere" / "sessions"
    real.parent.mkdir()
    folder.rename(real)
    folder.symlink_to(real)
    store = json.loads((real / "sessions.json").read_text())
    if session_file != "none":  # the entry names its transcript by a path of its own
        base = real if session_file == "absolute" else folder
        store["agent:main:main"]["sessionFile"] = str(base / f"{MAIN_SID}.jsonl")
    (real / "sessions.json").write_text(json.dumps(store, indent=2))
    found = lint(home, only=["core/doctor/state-integrity"], severity_min="info").findings()
    assert [f["message"] for f in found if "orphan" in f["message"]] == [
        "Found 1 orphan transcript file in ~/.openclaw/agents/main/sessions, no longer referenced by sessions.json."]


def unparseable_store_beside_transcripts(home, content: bytes) -> None:
    """A healthy state folder (nothing for --fix to repair) whose sessions.json then breaks: its two
    transcripts are live history."""
    clean(home, {"gateway": {"mode": "local", "auth": {"mode": "token", "token": TOKEN}},
                 "commands": {"ownerAllowFrom": ["telegram:1"]}})
    write_transcript(home, ORPHAN_SID)
    (sessions(home) / "sessions.json").write_bytes(content)


SKIPPED_ORPHANS = ("Skipped the orphan transcript check: sessions.json does not parse or cannot be read, so the 2 "
                   "transcript files in ~/.openclaw/agents/main/sessions are not orphans (they may be its live "
                   "history); nothing is archived until it parses.")


@pytest.mark.parametrize("content, why", [(b"", "the file is empty"), (b"{ not json", "Expecting")])
def test_lint_reports_no_orphans_beside_a_store_that_does_not_parse_and_says_why(home, content, why):
    """Our deliberate difference: OpenClaw calls every transcript beside a broken store an orphan."""
    unparseable_store_beside_transcripts(home, content)
    before = folder_digest(state(home))
    run = lint(home, only=["core/doctor/session-store", "core/doctor/state-integrity"], severity_min="info")
    assert run.code == 1
    found = run.findings()
    assert [(f["checkId"], f["severity"]) for f in found] == [
        ("core/doctor/session-store", "error"), ("core/doctor/state-integrity", "info")]
    assert found[0]["message"].startswith(f"Session store does not parse ({why}")
    assert found[1]["message"] == SKIPPED_ORPHANS
    assert found[1]["path"] == str(sessions(home))
    assert not any("not referenced by sessions.json" in f["message"] for f in found)
    assert folder_digest(state(home)) == before


@pytest.mark.parametrize("content", [b"", b"{ not json"])
def test_doctor_names_no_orphan_beside_a_store_that_does_not_parse_and_says_why(home, content):
    unparseable_store_beside_transcripts(home, content)
    before = folder_digest(state(home))
    run = doctor(home, non_interactive=True)
    assert run.code == 0, run.err
    assert f"- {SKIPPED_ORPHANS}" in run.out
    assert "orphan transcript file" not in run.out and "archive the orphan" not in run.out
    assert folder_digest(state(home)) == before


@pytest.mark.parametrize("content", [b"", b"{ not json"])
@pytest.mark.parametrize("fix", [False, True])
def test_doctor_answered_yes_everywhere_archives_nothing_beside_a_store_that_does_not_parse(home, content, fix):
    unparseable_store_beside_transcripts(home, content)
    before = folder_digest(state(home))
    run = doctor(home, tty=True, fix=fix, default_answer=True)
    assert run.code == 0, run.err
    assert f"- {SKIPPED_ORPHANS}" in run.out
    assert not any(q.startswith("Archive") for q in run.asked), run.asked
    assert "Archived" not in run.out
    assert folder_digest(state(home)) == before


LOST_INDEX = ("sessions.json has no entries, so the 2 transcript files in ~/.openclaw/agents/main/sessions look "
              "like a lost index, not orphans; nothing is archived. `openclaw sessions recover` puts them back "
              "into sessions.json.")


@pytest.mark.parametrize("content", [b"{}", None])
@pytest.mark.parametrize("fix", [False, True])
def test_doctor_offers_no_archive_beside_a_lost_index_and_points_to_recover(home, content, fix):
    unparseable_store_beside_transcripts(home, b"{}")
    if content is None:
        os.remove(sessions(home) / "sessions.json")
    before = folder_digest(state(home))
    run = doctor(home, tty=True, fix=fix, default_answer=True)
    assert run.code == 0, run.err
    assert f"- {LOST_INDEX}" in run.out
    assert "openclaw sessions recover --dry-run" in run.out
    assert not any(q.startswith("Archive") for q in run.asked), run.asked
    assert "Archived" not in run.out and "orphan transcript file" not in run.out
    assert folder_digest(state(home)) == before
    found = lint(home, only=["core/doctor/state-integrity"], severity_min="info").findings()
    lost = [f for f in found if f["message"] == LOST_INDEX]
    assert [(f["severity"], f["fixHint"]) for f in lost] == [
        ("info", "Run `openclaw sessions recover` to put them back into sessions.json.")]


# -- workspace-suggestions / command-owner / legacy-state ---------------------------------

def test_workspace_suggestions(home):
    clean(home)
    ws = state(home) / "workspace"
    ws.mkdir()
    found = lint(home, only=["core/doctor/workspace-suggestions"], severity_min="info").findings()
    assert [f["message"] for f in found] == ["Tip: back up the workspace in a private git repo (GitHub or GitLab).",
                                             "Memory system not found in workspace."]
    (ws / ".git").mkdir()
    (ws / "MEMORY.md").write_text("m")
    assert lint(home, only=["core/doctor/workspace-suggestions"], severity_min="info").findings() == []


def test_command_owner(home):
    clean(home, {"gateway": {"mode": "local"}})
    assert lint(home, severity_min="info").findings("core/doctor/command-owner")
    clean(home)
    assert lint(home, severity_min="info").findings("core/doctor/command-owner") == []


def test_legacy_state(home):
    clean(home)
    (state(home) / "sessions").mkdir()
    (state(home) / "sessions" / "sessions.json").write_text("{}")
    (state(home) / "agent").mkdir()
    found = lint(home).findings("core/doctor/legacy-state")
    s = str(state(home))
    assert [f["message"] for f in found] == [f"Sessions: {s}/sessions → {s}/agents/main/sessions",
                                             f"Agent dir: {s}/agent → {s}/agents/main/agent"]


def test_deep_checks_every_agent_store(home):
    clean(home, {"gateway": {"mode": "local"}, "session": {"maintenance": {"maxEntries": 0}}})
    write_store(home, {"agent:ghost:main": {"sessionId": GROUP_SID, "updatedAt": 1}}, agent="ghost")
    found = lint(home, only=["core/doctor/session-store"]).findings()
    assert not any("/ghost/" in f["path"] for f in found)
    deep = lint(home, only=["core/doctor/session-store"], deep=True).findings()
    assert any("/ghost/" in f["path"] and "maxEntries (0)" in f["message"] for f in deep)


def test_session_locks_read_the_stale_ms_of_the_config_and_ignore_the_holders_max_hold(home):
    clean(home)
    write_lock(home, MAIN_SID, {"pid": os.getpid(), "createdAt": iso_ago(120), "maxHoldMs": 1000})
    assert lint(home, only=["core/doctor/session-locks"]).findings() == []  # past maxHoldMs: not stale here
    cfg_path = state(home) / "openclaw.json"
    cfg_path.write_text(json.dumps({"session": {"writeLock": {"staleMs": 60000}}}))
    found = lint(home, only=["core/doctor/session-locks"]).findings()
    assert found and found[0]["message"].endswith("(too-old)")
    found = lint(home, only=["core/doctor/session-locks"],
                 env={"OPENCLAW_SESSION_WRITE_LOCK_STALE_MS": "600000"}).findings()
    assert found == []  # the variable wins over the config


# -- disk-space ---------------------------------------------------------------------------

@pytest.mark.parametrize("size, shown", [(512, "512 B"), (1536, "1 KB"), (int(99.6 * 1024 ** 2), "99 MB"),
                                         (int(1.56 * 1024 ** 3), "1.6 GB"), (-1, "unknown")])
def test_disk_space_sizes_are_binary_units_floored_below_a_gigabyte(size, shown):
    from openclaw_cli.doctor.checks.disk_space import format_bytes

    assert format_bytes(size) == shown


def test_disk_space_warns_below_500_mib_and_is_critical_below_100_mib():
    from openclaw_cli.doctor.checks.disk_space import disk_warnings

    mib = 1024 * 1024
    assert disk_warnings(99 * mib, "~/.openclaw") == [
        "- CRITICAL: only 99 MB free on the partition containing ~/.openclaw.",
        "- Config writes, session transcripts, and log rotation may fail silently.",
        "- Free up disk space immediately to avoid data loss."]
    assert disk_warnings(100 * mib, "~/.openclaw") == [
        "- Low disk space: 100 MB free on the partition containing ~/.openclaw.",
        "- Consider freeing space to prevent future config/session write failures."]
    assert disk_warnings(500 * mib, "~/.openclaw") == []


def test_disk_space_is_opt_in_and_reads_the_partition_of_the_nearest_existing_folder(home, tmp_path):
    clean(home)
    assert "core/doctor/disk-space" not in lint_ids(lint(home, severity_min="info"))
    stats = os.statvfs(tmp_path)
    low = stats.f_frsize * stats.f_bavail < 500 * 1024 * 1024
    run = lint(home, only=["core/doctor/disk-space"], env={"OPENCLAW_STATE_DIR": str(tmp_path / "not" / "yet")})
    assert run.json["checksRun"] == 1
    found = run.findings()
    assert len(found) == (1 if low else 0)
    if found:
        assert found[0]["path"] == str(tmp_path / "not" / "yet")
        assert found[0]["requirement"] in ("critical-free-space", "low-free-space")

"""A SQLite-era config (2026.8+) judged as OpenClaw 2026.9.6 judges it: its new keys accepted, bad values
given 2026.9.6's issues; a file-era config still judged as 2026.7.1 judges it."""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from helpers import refbin
from helpers.sqlite_state import copy_real_96

from openclaw_cli.config.era import FILE_ERA, SQLITE_ERA, config_era
from openclaw_cli.config.schema import unknown_key_paths, validate_config

VALID_96 = [
    {"session": {"maintenance": {"mode": "enforce", "pruneAfter": "30d", "archiveDashboardAfter": "7d",
                                 "maxEntries": 5000, "preserveRecent": "2h", "resetArchiveRetention": False,
                                 "maxDiskBytes": "10gb", "highWaterBytes": "8gb",
                                 "coldStorage": {"enabled": True, "afterDays": 30}},
                 "groupScope": "per-group", "notifyOnCreate": True,
                 "sharing": {"readOnly": True, "suggest": False, "drafts": True},
                 "resetByType": {"direct": {"mode": "none"}}},
     "agents": {"ownership": "explicit", "defaults": {"model": "fake/fake-model", "cwd": "/tmp"},
                "entries": {"main": {"name": "Main", "cwd": "/tmp"}, "work": {"name": "Work", "agentDir": "/tmp/w"}}},
     "meta": {"lastTouchedVersion": "2026.9.6"}},
    {"session": {"maintenance": {"maxDiskBytes": False, "archiveDashboardAfter": False, "preserveRecent": 3}},
     "agents": {"entries": {"main": {}}}},
    {"session": {"maintenance": {"archiveDashboardAfter": 0}}, "agents": {"list": [{"id": "main"}]},
     "attachments": {"ttlHours": 5}},
    {"agents": {"list": [{"id": "main"}, {"id": "ops"}], "ownership": "explicit"}},
    {"cron": {"sessionRetention": "7d", "skipMissedJobs": True}, "gateway": {"port": 18789, "reload": {"mode": "hybrid"}}, "acp": {"enabled": True, "stream": {"deliveryMode": "live"}}, "meta": {"lastTouchedVersion": "2026.9.6", "migrations": {}}},
]

INVALID_96 = [
    {"session": {"maintenance": {"archiveDashboardAfter": "bogus", "preserveRecent": True, "maxDiskBytes": False,
                                 "coldStorage": {"afterDays": 0, "x": 1}}}},
    {"agents": {"ownership": "implicit", "entries": {"Main": {"name": 1}, "work": {"id": "work"}}}},
    {"session": {"maintenance": {"pruneAfter": "0d", "maxDiskBytes": "zz", "highWaterBytes": "1gb"}},
     "agents": {"entries": {"main": {"default": True}, "work": {"default": True}}}},
    {"agents": {"entries": {"a": {}, "b": {}}}},
    {"agents": {"entries": {"Main": {}, "main": {}, "bad id": {}}, "ownership": "explicit"}},
    {"agents": {"entries": {"Main": {}, "main": {}}, "ownership": "explicit"}},
    {"agents": {"entries": {"main": {"default": True}}, "ownership": "explicit"}},
    {"agents": {"entries": {"main": {}}},
     "bindings": [{"agentId": "zed", "match": {"channel": "x"}}, {"agentId": "main", "match": {"channel": "x"}}]},
    {"session": {"maintenance": {"rotateBytes": "10mb", "pruneDays": 3}}},
    {"session": {"reset": {"atHour": 30, "idleMinutes": 1.5}, "threadBindings": {"idleHours": -1, "enabled": "yes"},
                 "identityLinks": {"a": "x"}, "resetTriggers": [1], "sharing": {"readOnly": None},
                 "maintenance": {"coldStorage": "x", "maxEntries": "5", "highWaterBytes": True}},
     "agents": {"entries": {"main": {"model": {"primary": 1}, "thinkingDefault": "huge", "skills": "x"}}}},
    {"session": {"maintenance": {"archiveDashboardAfter": -1, "preserveRecent": "", "resetArchiveRetention": "0",
                                 "mode": "x"},
                 "writeLock": {}, "idleMinutes": 3, "groupScope": "x", "resetByType": {"dm": {}}}},
    {"session": {"maintenance": {"maxDiskBytes": "10 parsecs", "highWaterBytes": "x", "pruneAfter": "x"}}},
    {"agents": {"entries": {"main": {}, "work": {}}, "ownership": "explicit", "defaults": {"heartbeat": {"agentId": "zed"}, "systemAgent": {"agentId": "Work"}}}, "talk": {"agentId": "nope"}, "broadcast": {"strategy": "sequential", "telegram:123": {"agents": ["main", "zed"], "maxRounds": 9}, "peer1": ["main", "work", "x"], "peer2": {"agents": ["main"]}}},
    {"broadcast": {"telegram:1": ["main"], "slack:2": {"agents": ["main"], "mentionGating": "yes", "maxTurns": 1.5, "other": 1}, "discord:3": {}}},
    {"talk": {"agentId": "main"}, "agents": {"defaults": {"heartbeat": {"agentId": "ops"}}}, "broadcast": {"plain": ["a"], "x:1": ["main"]}},
    {"bindings": [{"agentId": "zed", "match": {"channel": "x"}}]},
    {"agents": {"list": [{"id": "main"}, {"id": "ops"}]}, "bindings": [{"agentId": "Ops", "match": {"channel": "x"}}, {"agentId": "zed", "match": {"channel": "x"}}], "broadcast": {"p": ["ops", "Ops"]}},
    {"agents": {"list": [{"id": "main", "default": True}, {"id": "ops", "default": True}]}},
    {"agents": {"list": [{"id": "main", "default": True}, {"id": "ops"}], "ownership": "explicit"}},
    {"acp": {"maxConcurrentSessions": 2, "runtime": {"ttlMinutes": 3}, "stream": {"coalesceIdleMs": 1, "hiddenBoundarySeparator": "none", "maxChunkChars": 2, "maxOutputChars": 3, "maxSessionUpdateChars": 4}}, "gateway": {"channelHealthCheckMinutes": 5, "channelMaxRestartsPerHour": 3, "channelStaleEventThresholdMinutes": 10, "handshakeTimeoutMs": 5, "controlUi": {"allowInsecureAuth": True, "chatMessageMaxWidth": "40rem"}, "http": {"endpoints": {"chatCompletions": {"maxBodyBytes": 5, "maxImageParts": 1, "maxTotalImageBytes": 3}, "responses": {"maxBodyBytes": 4}}}, "nodes": {"allowCommands": ["a"], "denyCommands": ["b"]}, "reload": {"debounceMs": 3, "deferralTimeoutMs": 4, "mode": "hot"}, "remote": {"enabled": True}, "tailscale": {"resetOnExit": True, "serviceName": "svc:x"}}, "cron": {"failureDestination": {}, "maxConcurrentRuns": 2, "retry": {}, "runLog": {}}, "meta": {"lastTouchedAt": "2026-01-01T00:00:00Z"}},
    {"session": {"scope": "x", "reset": {"mode": "x"}, "dmScope": "x", "sendPolicy": {"default": "x"}}, "agents": {"entries": {"main": {"verboseDefault": "x", "fastModeDefault": "x"}}}, "broadcast": {"strategy": "x"}},
]


def _validate_with_96(cfg: dict, home: Path) -> refbin.Result:
    (home / ".openclaw").mkdir(parents=True)
    (home / ".openclaw" / "openclaw.json").write_text(json.dumps(cfg))
    return refbin.run_reference(["config", "validate", "--json"], home, version=refbin.SQLITE_ERA_VERSION)


@pytest.mark.reference
def test_configs_get_the_issues_openclaw_2026_9_6_gives_them(tmp_path):
    if not refbin.reference_available(refbin.SQLITE_ERA_VERSION):
        pytest.fail(refbin.missing_message(refbin.SQLITE_ERA_VERSION))
    cases = VALID_96 + INVALID_96
    with ThreadPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(_validate_with_96, cases, [tmp_path / f"h{i}" for i in range(len(cases))]))
    for index, (cfg, result) in enumerate(zip(cases, results)):
        doc = json.loads(result.stdout)
        theirs = [(issue["path"], issue["message"]) for issue in doc.get("issues", [])]
        ours = [(issue.path, issue.message) for issue in validate_config(cfg, era=SQLITE_ERA)]
        assert ours == theirs, (index, cfg)
        assert doc["valid"] is (index < len(VALID_96)), (index, doc)


def test_the_2026_9_6_keys_are_still_rejected_in_the_file_era():
    issues = validate_config(VALID_96[0], era=FILE_ERA)
    assert ("agents", "Invalid input") in [(i.path, i.message) for i in issues]
    assert ("agents", "entries") in unknown_key_paths(VALID_96[0])
    assert unknown_key_paths(VALID_96[0], SQLITE_ERA) == []


def test_a_state_whose_agents_keep_sessions_in_sqlite_is_judged_by_2026_9_6(tmp_path):
    state = copy_real_96(tmp_path / "home")
    env = {"HOME": str(tmp_path / "home")}
    assert config_era({}, env) == SQLITE_ERA
    assert validate_config(VALID_96[1], env) == []
    assert json.loads((state / "openclaw.json").read_text())["agents"]["list"]  # 2026.9.6 moves it on load
    assert validate_config(json.loads((state / "openclaw.json").read_text()), env) == []


def test_a_state_without_agent_databases_is_judged_by_2026_7_1_unless_the_config_was_written_by_2026_8(tmp_path):
    home = tmp_path / "home"
    (home / ".openclaw" / "state").mkdir(parents=True)
    (home / ".openclaw" / "state" / "openclaw.sqlite").write_bytes(b"")  # 2026.7.1 writes one too
    env = {"HOME": str(home)}
    assert config_era({}, env) == FILE_ERA
    assert config_era({"meta": {"lastTouchedVersion": "2026.7.1"}}, env) == FILE_ERA
    assert config_era({"meta": {"lastTouchedVersion": "2026.8.1"}}, env) == SQLITE_ERA
    assert config_era({"meta": {"lastTouchedVersion": "2026.10.0-beta.2"}}, env) == SQLITE_ERA
    assert validate_config(VALID_96[0], env) == []  # its meta names 2026.9.6


def _with_config(home: Path, patch: dict) -> None:
    state = copy_real_96(home)
    cfg = json.loads((state / "openclaw.json").read_text())
    cfg.update(patch)
    (state / "openclaw.json").write_text(json.dumps(cfg))


@pytest.mark.reference
def test_sessions_on_a_sqlite_state_with_2026_9_6_keys_list_what_openclaw_2026_9_6_lists(tmp_path):
    version = refbin.SQLITE_ERA_VERSION
    if not refbin.reference_available(version):
        pytest.fail(refbin.missing_message(version))
    patch = {"session": {"maintenance": {"archiveDashboardAfter": "7d", "preserveRecent": "1h", "maxDiskBytes": False,
                                         "coldStorage": {"enabled": False, "afterDays": 30}}}}
    _with_config(tmp_path / "ref", patch)
    _with_config(tmp_path / "ours", patch)
    clock = refbin.faketime_env("2026-12-01 12:00:00")
    ref = refbin.run_reference(["sessions", "--all-agents", "--json"], tmp_path / "ref", env=clock, version=version)
    ours = refbin.run_ours(["sessions", "--all-agents", "--json"], tmp_path / "ours", env=clock)
    assert (ours.returncode, ref.returncode) == (0, 0), ours.stderr
    mask = {str(tmp_path / "ref"): "<HOME>", str(tmp_path / "ours"): "<HOME>"}

    def masked(text: str) -> str:
        for path, name in mask.items():
            text = text.replace(path, name)
        return text

    assert masked(ours.stdout) == masked(ref.stdout)


@pytest.mark.reference
def test_a_bad_2026_9_6_value_stops_the_command_with_the_issues_openclaw_2026_9_6_names(tmp_path):
    version = refbin.SQLITE_ERA_VERSION
    if not refbin.reference_available(version):
        pytest.fail(refbin.missing_message(version))
    patch = {"session": {"maintenance": {"archiveDashboardAfter": "soon", "coldStorage": {"afterDays": 0}}}}
    _with_config(tmp_path / "ref", patch)
    _with_config(tmp_path / "ours", patch)
    ref = refbin.run_reference(["sessions", "--all-agents", "--json"], tmp_path / "ref", version=version)
    ours = refbin.run_ours(["sessions", "--all-agents", "--json"], tmp_path / "ours")
    assert (ours.returncode, ref.returncode, ours.stdout) == (1, 1, ref.stdout.replace(str(tmp_path / "ref"),
                                                                                        str(tmp_path / "ours")))
    listed = ref.stderr.split("Invalid config at ", 1)[1].split("\n[openclaw]", 1)[0].splitlines()[1:]
    problems = [line.removeprefix("- ") for line in listed]
    assert problems == ["session.maintenance.coldStorage.afterDays: Too small: expected number to be >0 "
                        "(must be greater than 0)",
                        "session.maintenance.archiveDashboardAfter: invalid duration (use ms, s, m, h, d)"]
    assert ours.stderr == ref.stderr.replace(str(tmp_path / "ref"), str(tmp_path / "ours"))

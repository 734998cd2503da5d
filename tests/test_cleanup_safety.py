"""Cleanup never loses a kept session's transcript: kill -9 at random moments, hostile files, I/O errors."""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers import refbin

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from gen_store import generate  # noqa: E402

KILL_ROUNDS = int(os.environ.get("OPENCLAW_KILL_ROUNDS", "20"))


def _store_path(home: Path) -> Path:
    return home / ".openclaw" / "agents" / "main" / "sessions" / "sessions.json"


def _snapshot_transcripts(sessions: Path) -> set[str]:
    return {p.name for p in sessions.iterdir() if p.name.endswith(".jsonl")}


def _check_invariants(store_path: Path, had_transcript: set[str]) -> dict:
    """The store parses, and every entry in it still has the transcript it had before the run."""
    text = store_path.read_text(encoding="utf-8")
    store = json.loads(text)
    assert isinstance(store, dict)
    sessions = store_path.parent
    for key, entry in store.items():
        name = f"{entry['sessionId']}.jsonl"
        if name in had_transcript:
            assert (sessions / name).is_file(), f"{key} lost its transcript {name}"
    return store


@pytest.fixture(scope="module")
def template(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("crash-template")
    generate(root, 3000, seed=7)
    return root


def _run(home: Path, *args: str) -> subprocess.Popen:
    env = refbin.clean_env(home, {"OPENCLAW_GATEWAY_PORT": "1"})
    return subprocess.Popen([sys.executable, "-m", "openclaw_cli", "sessions", "cleanup", "--enforce",
                             "--json", "--store", str(_store_path(home)), *args],
                            env=env, cwd=home, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def test_kill_9_at_random_moments_never_loses_a_kept_transcript(template, tmp_path):
    # How long an uninterrupted run takes here, to spread the kills over it.
    probe = tmp_path / "probe"
    shutil.copytree(template, probe, symlinks=True)
    started = time.monotonic()
    out, err = _run(probe).communicate(timeout=300)
    duration = time.monotonic() - started
    assert json.loads(out)["applied"] is True, err
    rng = random.Random(1234)
    killed_mid_run = 0
    for round_no in range(KILL_ROUNDS):
        home = tmp_path / f"round{round_no}"
        shutil.copytree(template, home, symlinks=True)
        before = _snapshot_transcripts(_store_path(home).parent)
        proc = _run(home)
        time.sleep(rng.uniform(0.0, duration * 1.1))
        if proc.poll() is None:
            killed_mid_run += 1
        proc.send_signal(signal.SIGKILL)
        proc.communicate(timeout=60)
        _check_invariants(_store_path(home), before)
        # A rerun after the crash completes (a lock left by the killed run belongs to a dead pid).
        out, err = _run(home).communicate(timeout=300)
        assert json.loads(out)["applied"] is True, err
        _check_invariants(_store_path(home), before)
        assert not Path(f"{_store_path(home)}.lock").exists()
        shutil.rmtree(home)
    assert killed_mid_run >= KILL_ROUNDS // 3, "kills should land while the run is still working"


def _small_store(home: Path, entries: dict, files: dict[str, str]) -> Path:
    store_path = _store_path(home)
    store_path.parent.mkdir(parents=True, exist_ok=True)
    store_path.write_text(json.dumps(entries))
    for name, text in files.items():
        (store_path.parent / name).write_text(text)
    return store_path


def _enforce_in_process(home: Path, monkeypatch, store_path: Path):
    """`sessions cleanup --enforce --store <store_path>` run in this process, with HOME at `home`."""
    from openclaw_cli.commands import cleanup as cleanup_cmd

    monkeypatch.setenv("HOME", str(home))
    req = cleanup_cmd.CleanupRequest(options=cleanup_cmd.CleanupOptions(enforce=True), store=str(store_path))
    return cleanup_cmd.run_cleanup(req)


MSG = '{"type":"message","message":{"role":"user","content":"hi"}}\n'


def test_symlinked_and_outside_transcripts_are_never_touched(home, tmp_path):
    now = int(time.time() * 1000)
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "ext.jsonl").write_text(MSG)
    (outside / "target.jsonl").write_text(MSG)
    old = now - 90 * 86_400_000
    store_path = _small_store(home, {
        "agent:main:direct:a": {"sessionId": "ext", "updatedAt": old, "sessionFile": str(outside / "ext.jsonl")},
        "agent:main:direct:b": {"sessionId": "dots", "updatedAt": old, "sessionFile": "../../../../elsewhere/x.jsonl"},
        "agent:main:direct:c": {"sessionId": "link", "updatedAt": old},
    }, {})
    os.symlink(outside / "target.jsonl", store_path.parent / "link.jsonl")
    result = refbin.run_ours(["sessions", "cleanup", "--enforce", "--json", "--store", str(store_path)], home)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["pruned"] == 3
    assert (outside / "ext.jsonl").read_text() == MSG
    assert (outside / "target.jsonl").read_text() == MSG
    assert sorted(p.name for p in outside.iterdir()) == ["ext.jsonl", "target.jsonl"]


def test_a_file_changed_after_planning_is_skipped_and_reported(home, monkeypatch, capsys):
    from openclaw_cli.maintenance import execute as execute_mod

    now = int(time.time() * 1000)
    store_path = _small_store(home, {
        "agent:main:direct:a": {"sessionId": "gone", "updatedAt": now - 90 * 86_400_000},
        "agent:main:direct:b": {"sessionId": "kept", "updatedAt": now},
    }, {"gone.jsonl": MSG, "kept.jsonl": MSG})
    real_execute = execute_mod.execute

    def execute_after_a_write(plan):
        # Someone appends to the transcript between planning and applying.
        with open(store_path.parent / "gone.jsonl", "a") as fh:
            fh.write(MSG)
        return real_execute(plan)

    monkeypatch.setattr(execute_mod, "execute", execute_after_a_write)
    outcome = _enforce_in_process(home, monkeypatch, store_path)
    assert outcome.summaries[0]["pruned"] == 1
    assert (store_path.parent / "gone.jsonl").read_text() == MSG * 2  # not archived
    assert "changed since the plan was made" in capsys.readouterr().err
    assert set(json.loads(store_path.read_text())) == {"agent:main:direct:b"}


def test_disk_full_while_writing_the_store_leaves_it_intact(home, monkeypatch):
    from openclaw_cli.errors import CliError
    from openclaw_cli.store import sessions_json as store_mod

    now = int(time.time() * 1000)
    entries = {"agent:main:direct:a": {"sessionId": "gone", "updatedAt": now - 90 * 86_400_000},
               "agent:main:direct:b": {"sessionId": "kept", "updatedAt": now}}
    store_path = _small_store(home, entries, {"gone.jsonl": MSG, "kept.jsonl": MSG})
    before = store_path.read_bytes()

    def no_space(*_a, **_k):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(store_mod, "write_store_text_atomic", no_space)
    with pytest.raises(CliError, match=r"No space left on device.*nothing was changed"):
        _enforce_in_process(home, monkeypatch, store_path)
    assert store_path.read_bytes() == before
    assert (store_path.parent / "gone.jsonl").exists()
    assert not Path(f"{store_path}.lock").exists()


def test_a_store_text_other_than_the_planned_one_is_never_written(home, monkeypatch):
    """The plan keeps only the size and hash of the new store text; the write makes the text again
    and refuses it, before anything lands, when it is not the text the plan measured."""
    from openclaw_cli.errors import CliError
    from openclaw_cli.maintenance import execute as execute_mod

    now = int(time.time() * 1000)
    entries = {"agent:main:direct:a": {"sessionId": "gone", "updatedAt": now - 90 * 86_400_000},
               "agent:main:direct:b": {"sessionId": "kept", "updatedAt": now}}
    store_path = _small_store(home, entries, {"gone.jsonl": MSG, "kept.jsonl": MSG})
    before = store_path.read_bytes()
    real_execute = execute_mod.execute

    def execute_a_changed_store(plan):
        assert plan.projection.chunks == []  # the plan holds no store text
        plan.store["agent:main:direct:b"] = {**plan.store["agent:main:direct:b"], "label": "changed"}
        return real_execute(plan)

    monkeypatch.setattr(execute_mod, "execute", execute_a_changed_store)
    with pytest.raises(CliError, match=r"changed after the cleanup was planned; it was not written"):
        _enforce_in_process(home, monkeypatch, store_path)
    assert store_path.read_bytes() == before
    assert sorted(p.name for p in store_path.parent.iterdir()) == ["gone.jsonl", "kept.jsonl", "sessions.json"]


def test_read_only_failure_mid_run_stops_and_says_what_was_done(home, monkeypatch):
    from openclaw_cli.errors import CliError

    now = int(time.time() * 1000)
    old = now - 90 * 86_400_000
    entries = {f"agent:main:direct:{i}": {"sessionId": f"s{i}", "updatedAt": old} for i in range(4)}
    entries["agent:main:direct:kept"] = {"sessionId": "kept", "updatedAt": now}
    store_path = _small_store(home, entries, {f"s{i}.jsonl": MSG for i in range(4)} | {"kept.jsonl": MSG})
    real_rename = os.rename
    calls = []

    def flaky_rename(src, dst):
        if str(src).endswith(".jsonl"):  # transcript archiving, not the store's own temp file
            calls.append(src)
            if len(calls) == 3:
                raise OSError(30, "Read-only file system")
        return real_rename(src, dst)

    monkeypatch.setattr(os, "rename", flaky_rename)
    with pytest.raises(CliError, match=r"Read-only file system.*2 of 4 file changes were made"):
        _enforce_in_process(home, monkeypatch, store_path)
    assert set(json.loads(store_path.read_text())) == {"agent:main:direct:kept"}
    assert (store_path.parent / "kept.jsonl").exists()
    assert not Path(f"{store_path}.lock").exists()


def test_no_credentials_and_nothing_listening_runs_locally(home):
    """Deliberate difference: the reference stops with "requires credentials" before any socket."""
    now = int(time.time() * 1000)
    store_path = _small_store(home, {"agent:main:direct:old": {"sessionId": "old", "updatedAt": now - 90 * 86_400_000},
                                     "agent:main:main": {"sessionId": "m", "updatedAt": now}},
                              {"old.jsonl": MSG, "m.jsonl": MSG})
    env = {"OPENCLAW_GATEWAY_PORT": "1"}  # nothing listens on port 1
    result = refbin.run_ours(["sessions", "cleanup", "--json"], home, env)
    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout)
    assert summary["pruned"] == 1 and summary["applied"] is True
    assert set(json.loads(store_path.read_text())) == {"agent:main:main"}

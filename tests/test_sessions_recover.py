"""`sessions recover`: orphan transcripts back into sessions.json; keys from the best evidence; never beside a Gateway."""

from __future__ import annotations

import json
import socket
from pathlib import Path

import pytest
from helpers.cli import run
from helpers.health import (
    CORPUS_IDS,
    SID,
    clean_entries,
    corpus_home,
    header,
    snapshot,
    write_lines,
    write_trajectory,
)

ENV = {"OPENCLAW_GATEWAY_PORT": "1"}
MAIN, A, B = CORPUS_IDS["agent:main:main"], CORPUS_IDS["agent:main:fixture-a"], CORPUS_IDS["agent:main:fixture-b"]


def lost_index(home: Path) -> Path:
    """The corpus with its index emptied (`{}`), a backup naming main, a trajectory naming fixture-a."""
    folder = corpus_home(home)
    store = json.loads((folder / "sessions.json").read_text())
    (folder / "sessions.json.bak.1796032800000").write_text(json.dumps({"agent:main:main": store["agent:main:main"]}))
    write_trajectory(folder, A, "agent:main:fixture-a")
    (folder / "sessions.json").write_text("{}")
    return folder


def recover(home: Path, *args: str, env: dict | None = None, code: int = 0) -> dict:
    res = run(["sessions", "recover", "--json", *args], home, env or ENV)
    assert res.returncode == code, res.stderr
    return json.loads(res.stdout)


def transcripts(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in folder.glob("*.jsonl")}


def test_dry_run_lists_each_orphan_and_its_key_and_writes_nothing(home):
    folder = lost_index(home)
    before = snapshot(home)
    out = recover(home, "--dry-run")
    assert out["dryRun"] is True
    got = {r["sessionId"]: (r["key"], r["keySource"]) for r in out["stores"][0]["recovered"]}
    assert got == {MAIN: ("agent:main:main", "backup:sessions.json.bak.1796032800000"),
                   A: ("agent:main:fixture-a", "trajectory"),
                   B: (f"agent:main:recovered:{B}", "fallback")}
    assert snapshot(home) == before
    text = run(["sessions", "recover", "--dry-run"], home, ENV)
    assert text.returncode == 0 and "Would recover: 3 transcripts" in text.stdout
    assert any(x.startswith(f"  agent:main:fixture-a  {A}.jsonl  (key from trajectory sidecar)  label ")
               for x in text.stdout.splitlines()), text.stdout
    assert snapshot(home) == before
    assert str(folder / "sessions.json") in text.stdout


def test_recover_writes_the_entries_and_touches_no_transcript(home):
    folder = lost_index(home)
    before = transcripts(folder)
    out = recover(home)
    assert len(out["stores"][0]["recovered"]) == 3
    store = json.loads((folder / "sessions.json").read_text())
    assert set(store) == {"agent:main:main", "agent:main:fixture-a", f"agent:main:recovered:{B}"}
    main = store["agent:main:main"]
    assert main["sessionId"] == MAIN and main["sessionFile"] == str(folder / f"{MAIN}.jsonl")
    last = json.loads((folder / f"{MAIN}.jsonl").read_text().splitlines()[-1])
    from openclaw_cli.js.dates import parse_iso_ms

    assert main["updatedAt"] == parse_iso_ms(last["timestamp"])
    assert main["label"] == "Hello! Who are you?"
    assert transcripts(folder) == before
    assert not (folder / "sessions.json.lock").exists()
    # a second run finds nothing left to recover
    assert recover(home)["stores"][0]["recovered"] == []


def test_after_recover_cleanup_no_longer_counts_them_as_unreferenced(home):
    lost_index(home)

    def unreferenced() -> list[str]:
        res = run(["sessions", "cleanup", "--dry-run", "--json", "--explain"], home, ENV)
        assert res.returncode == 0, res.stderr
        return [a["path"] for a in json.loads(res.stdout)["artifacts"] if a["family"] == "unreferencedTranscripts"]

    assert len(unreferenced()) == 3
    recover(home)
    assert unreferenced() == []
    assert run(["sessions", "verify"], home, ENV).returncode == 0


def test_a_key_already_in_use_falls_back_to_the_recovered_key(home):
    folder = lost_index(home)
    (folder / "sessions.json").write_text(json.dumps({"agent:main:main": {"sessionId": SID, "updatedAt": 1}}))
    write_lines(folder / f"{SID}.jsonl", clean_entries())
    out = recover(home)
    got = {r["sessionId"]: r["key"] for r in out["stores"][0]["recovered"]}
    assert got[MAIN] == f"agent:main:recovered:{MAIN}"
    store = json.loads((folder / "sessions.json").read_text())
    assert store["agent:main:main"]["sessionId"] == SID


def test_transcripts_without_a_valid_header_are_skipped_with_the_reason(home):
    folder = lost_index(home)
    write_lines(folder / f"{SID}.jsonl", clean_entries()[1:])
    other = "77777777-2222-4333-8444-555555555555"
    write_lines(folder / f"{other}.jsonl", [header(SID), *clean_entries()[1:]])
    out = recover(home, "--dry-run")
    skipped = {Path(s["path"]).name: s["reason"] for s in out["stores"][0]["skipped"]}
    assert skipped == {f"{SID}.jsonl": "no valid session header",
                       f"{other}.jsonl": f"its header id {SID} is not its file name"}


def test_the_label_is_the_first_user_message_trimmed(home):
    folder = home / ".openclaw/agents/main/sessions"
    long_text = "  plan   the\nrelease " + "x" * 200
    lines = clean_entries()
    lines[1]["message"]["content"] = [{"type": "text", "text": long_text}]
    write_lines(folder / f"{SID}.jsonl", lines)
    r = recover(home, "--dry-run")["stores"][0]["recovered"][0]
    assert r["label"].startswith("plan the release xxx") and len(r["label"]) == 80 and r["label"].endswith("…")


def test_recover_refuses_while_a_gateway_listens_and_changes_nothing(home):
    lost_index(home)
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        env = {"OPENCLAW_GATEWAY_PORT": str(listener.getsockname()[1])}
        before = snapshot(home)
        res = run(["sessions", "recover"], home, env)
        assert res.returncode == 1 and "a Gateway is running" in res.stderr and "hint:" in res.stderr
        assert snapshot(home) == before
        assert recover(home, "--dry-run", env=env)["dryRun"] is True  # reading is fine


def test_a_store_that_does_not_parse_is_never_rewritten(home):
    folder = lost_index(home)
    (folder / "sessions.json").write_text("{oops")
    before = snapshot(home)
    res = run(["sessions", "recover"], home, ENV)
    assert res.returncode == 1 and "Traceback" not in res.stderr
    assert snapshot(home) == before


@pytest.mark.parametrize("args", [["--agent", "main", "--all-agents"], ["--bogus"], ["KEY"]])
def test_bad_usage_exits_2(home, args):
    lost_index(home)
    before = snapshot(home)
    assert run(["sessions", "recover", *args], home, ENV).returncode == 2
    assert snapshot(home) == before

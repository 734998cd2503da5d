"""A long generated session (12,000 turns, tens of thousands of files touched): the offline summary
stays within its token budget, lists what a user resuming needs, and frees most of the context."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path

import pytest

from openclaw_cli.compact.offline import run_offline_compact
from openclaw_cli.context.tokenizer import count, get_encoding
from openclaw_cli.js import json as jsjson

SESSION_ID = "5f1d3c2b-8a9e-4f70-b6c5-d4e3f2a1b0c9"
TURNS = 12_000
TOPICS = ("the payment service", "the search index", "the nightly backup", "the login page", "the CSV export",
          "the billing report", "the deploy script", "the cache layer")


def _message(entry_id: str, parent: str | None, n: int, message: dict) -> str:
    return json.dumps({"type": "message", "id": entry_id, "parentId": parent,
                       "timestamp": "2026-11-30T10:00:00.000Z", "message": {**message, "timestamp": 1796000000000 + n}},
                      separators=(",", ":"))


def _assistant(content: list, n: int, stop: str = "stop") -> dict:
    return {"role": "assistant", "content": content, "api": "openai-completions", "provider": "fake",
            "model": "fake-model", "stopReason": stop,
            "usage": {"input": 90_000 + n % 1000, "output": 50, "cacheRead": 0, "cacheWrite": 0,
                      "totalTokens": 90_050 + n % 1000}}


def write_long_session(path: Path, turns: int = TURNS) -> dict:
    """User asks, the assistant reads one file (three new names a turn), sometimes edits one,
    sometimes a tool fails, and it answers; the last turn asks a question that stays open."""
    rng = random.Random(12)
    out = path.open("w", encoding="utf-8")
    out.write(json.dumps({"type": "session", "version": 3, "id": SESSION_ID, "timestamp": "2026-11-30T10:00:00.000Z",
                          "cwd": "/srv/app"}, separators=(",", ":")) + "\n")
    parent = None
    n = 0
    facts = {"read": set(), "modified": set(), "first": None, "last": None}

    def add(message: dict) -> None:
        nonlocal parent, n
        n += 1
        entry_id = f"{n:08x}"
        out.write(_message(entry_id, parent, n, message) + "\n")
        parent = entry_id

    for turn in range(turns):
        topic = TOPICS[turn % len(TOPICS)]
        request = f"Turn {turn}: please look into {topic} (ticket T-{turn:05d}) and tell me what is wrong."
        if turn == 0:
            request = "Migrate the whole app from Flask to FastAPI. You must not change the public API."
        if turn == turns - 1:
            request = "Final step: make the CSV export stream rows instead of building the file in memory."
        facts["first"] = facts["first"] or request
        facts["last"] = request
        add({"role": "user", "content": request})
        files = [f"src/{topic.split()[-1]}/module_{turn}_{k}.py" for k in range(3)]
        calls = [{"type": "toolCall", "id": f"r{turn}_{k}", "name": "read", "arguments": {"path": f}}
                 for k, f in enumerate(files)]
        add(_assistant(calls, n, "toolUse"))
        for k, f in enumerate(files):
            failed = rng.random() < 0.01
            add({"role": "toolResult", "toolCallId": f"r{turn}_{k}", "toolName": "read", "isError": failed,
                 "content": [{"type": "text", "text": f"ENOENT: no such file {f}" if failed else "x = 1\n" * 20}]})
            facts["read"].add(f)  # OpenClaw lists the files of the calls, failed or not
        if turn % 10 == 3:
            target = files[0]
            add(_assistant([{"type": "toolCall", "id": f"e{turn}", "name": "edit",
                             "arguments": {"path": target, "old": "x = 1", "new": "x = 2"}}], n, "toolUse"))
            add({"role": "toolResult", "toolCallId": f"e{turn}", "toolName": "edit", "isError": False,
                 "content": [{"type": "text", "text": "edited"}]})
            facts["modified"].add(target)
        answer = f"For {topic}, I decided to keep the retry loop but cap it at {turn % 7 + 2} attempts."
        if turn == turns - 1:
            answer = ("I can stream the rows with a generator.\nNext steps:\n1. Replace the list in "
                      "export_csv() by a generator\n2. Add a test with 1 million rows\n"
                      "Should the header row stay in English?")
        add(_assistant([{"type": "text", "text": answer}], n))
    out.close()
    facts["read"] -= facts["modified"]
    return facts


@pytest.fixture(scope="module")
def compacted(tmp_path_factory: pytest.TempPathFactory):
    state = tmp_path_factory.mktemp("long") / "state"
    sessions = state / "agents" / "main" / "sessions"
    sessions.mkdir(parents=True)
    transcript = sessions / f"{SESSION_ID}.jsonl"
    facts = write_long_session(transcript)
    (sessions / "sessions.json").write_text(json.dumps(
        {"agent:main:main": {"sessionId": SESSION_ID, "updatedAt": int(time.time() * 1000),
                             "modelProvider": "fake", "model": "fake-model"}}))
    started = time.monotonic()
    result = run_offline_compact(state_dir=state, key="main", config={})
    return result, facts, transcript, time.monotonic() - started


def test_a_12000_turn_summary_stays_within_its_token_budget(compacted) -> None:
    result, _facts, transcript, elapsed = compacted
    assert result["ok"] and result["compacted"], result.get("reason")
    summary = result["result"]["summary"]
    tokens = count(get_encoding("o200k_base"), summary)
    print(f"\n{TURNS} turns, {transcript.stat().st_size / 1e6:.1f} MB: summary {len(summary)} chars, "
          f"{tokens} tokens; tokens {result['result']['tokensBefore']} -> {result['result']['tokensAfter']}; "
          f"{elapsed:.1f} s")
    assert tokens <= 12_000 and len(summary) <= 48_000
    assert result["result"]["tokensAfter"] < result["result"]["tokensBefore"] / 10
    assert result["offline"]["estimatedTokensAfter"] < result["offline"]["estimatedTokensBefore"] / 100
    entry = jsjson.parse(transcript.read_text().splitlines()[-1])
    assert entry["type"] == "compaction" and entry["summary"] == summary


def test_the_file_lists_are_capped_in_the_text_and_full_in_the_details(compacted) -> None:
    result, facts, _, _ = compacted
    summary, details = result["result"]["summary"], result["result"]["details"]
    assert len(facts["read"]) > 30_000
    assert set(details["readFiles"]) == facts["read"] and set(details["modifiedFiles"]) == facts["modified"]
    read_tag = summary[summary.index("<read-files>\n") + 13:summary.index("\n</read-files>")].splitlines()
    assert read_tag[-1] == f"(+{len(facts['read']) - len(read_tag) + 1} more)"
    newest = f"src/{TOPICS[(TURNS - 1) % len(TOPICS)].split()[-1]}/module_{TURNS - 1}_"
    assert read_tag[0].startswith(newest)  # most recent first
    assert "<modified-files>\n" in summary and "more)\n</modified-files>" in summary


def test_the_summary_tells_a_user_resuming_what_matters(compacted) -> None:
    result, facts, _, _ = compacted
    summary = result["result"]["summary"]
    headings = [line for line in summary.splitlines() if line.startswith("#")]
    order = ["## Goal", "## Constraints & Preferences", "## Progress", "### Done", "### In Progress",
             "### Blocked", "## Key Decisions", "## Next Steps", "## Critical Context"]
    assert headings == order  # the LLM prompt's sections, in its order
    assert facts["first"] in summary  # the original goal
    assert "You must not change the public API." in summary  # a constraint
    assert facts["last"] in summary  # the last request, in full
    assert "Open question to the user: Should the header row stay in English?" in summary
    assert "1. Replace the list in export_csv() by a generator" in summary
    assert "ENOENT: no such file" in summary and "earlier errors)" in summary
    assert "I decided to keep the retry loop" in summary
    assert f"(+{TURNS - 12} more requests)" in summary

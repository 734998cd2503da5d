"""`compact --dry-run` says exactly what the run then does, for every summarizer, with and without a
recent tail: same cut (or "no tail kept"), same kept entries and tokens, same tokensBefore/After."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from helpers.compact import (
    FIXTURE_SESSIONS,
    KEEP_50,
    MAIN_ID,
    add_session,
    grow,
    new_key,
    ours,
)
from helpers.folders import folder_digest
from helpers.gateway import closed_port
from helpers.state import write_config
from test_compact_fakellm import FakeLLM

from openclaw_cli.transcript import load_index

NO_TAIL: dict = {}  # no keepRecentTokens: a manual compaction keeps no recent tail

CASES = [  # (summarizer, config, turns added to the fixture session, hardened)
    ("extractive", KEEP_50, 12, False),
    ("extractive", NO_TAIL, 40, True),
    ("openai", KEEP_50, 12, False),
    ("openai", NO_TAIL, 40, True),
    ("text", KEEP_50, 12, False),
    ("text", NO_TAIL, 40, True),
]


@pytest.fixture(scope="module")
def llm():
    with FakeLLM() as server:
        yield server


def _args(summarizer: str, llm: FakeLLM, tmp_path: Path) -> list[str]:
    if summarizer == "openai":
        return ["--summarizer", "openai", "--base-url", llm.base_url, "--model", "fake/fake-model"]
    if summarizer == "text":
        notes = tmp_path / "summary.md"
        notes.write_text("## Goal\n- Continue the fixture conversation.\n")
        return ["--summary-file", str(notes)]
    return []


def _kept_after_run(transcript: Path) -> tuple[list[str], str, str]:
    """(ids of the entries kept before the new compaction, its firstKeptEntryId, its id)."""
    index = load_index(transcript)
    path = index.branch()
    compaction = path[-1]
    first_kept = (compaction.extra or {})["firstKeptEntryId"]
    ids = [e.id for e in path[:-1]]
    kept = ids[ids.index(first_kept):] if first_kept in ids else []
    return kept, first_kept, compaction.id


@pytest.mark.parametrize("summarizer, config, turns, hardened", CASES,
                         ids=[f"{c[0]}-{'no-tail' if c[3] else 'tail'}" for c in CASES])
def test_dry_run_text_and_json_agree_with_the_run(summarizer: str, config: dict, turns: int, hardened: bool,
                                                  llm: FakeLLM, home: Path, tmp_path: Path) -> None:
    state = home / ".openclaw"
    write_config(state, config)
    env = {"OPENCLAW_GATEWAY_PORT": str(closed_port())}
    key = new_key()
    transcript = grow(add_session(state, key), turns=turns, chars=3000 if hardened else 800)
    extra = _args(summarizer, llm, tmp_path)
    before = folder_digest(state, mtimes=True)
    text = ours(["compact", key, "--dry-run", *extra], home, env)
    dry = json.loads(ours(["compact", key, "--dry-run", "--json", *extra], home, env).stdout)
    again = json.loads(ours(["compact", key, "--dry-run", "--json", *extra], home, env).stdout)
    assert text.returncode == 0, text.stdout + text.stderr
    assert folder_digest(state, mtimes=True) == before and again == dry  # nothing written, nothing random
    llm.requests.clear()
    run = ours(["compact", key, "--json", *extra], home, env)
    assert run.returncode == 0, run.stdout + run.stderr
    result = json.loads(run.stdout)["result"]
    kept, first_kept, entry_id = _kept_after_run(transcript)
    plan = dry["plan"]
    assert plan["hardened"] is hardened is (first_kept == entry_id)
    assert dry["result"]["firstKeptEntryId"] == (None if hardened else first_kept)
    assert result["firstKeptEntryId"] == first_kept
    assert dry["result"]["tokensBefore"] == result["tokensBefore"]
    assert plan["keptEntries"] == len(kept) and (plan["keptEntries"] == 0) is hardened
    assert plan["cutEntryId"] == (None if hardened else first_kept)
    if summarizer == "openai":
        assert "tokensAfter" not in dry["result"] and plan["requests"] == len(llm.summarization_requests())
        assert "after: known once the model has answered" in text.stdout
    else:
        assert dry["result"]["tokensAfter"] == result["tokensAfter"]
        assert dry["result"]["summary"] == result["summary"]
        assert f"Tokens: {result['tokensBefore']} before → {result['tokensAfter']} after" in text.stdout
    lines = text.stdout.splitlines()
    if hardened:
        assert any(line.startswith("Cut point: none; no recent tail is kept") for line in lines)
        assert "Would keep: 0 entries, about 0 tokens" in lines
        assert not any("first kept entry" in line for line in lines)
    else:
        assert any(line.startswith(f"Cut point: first kept entry {first_kept}") for line in lines)
        assert f"Would keep: {len(kept)} entries, about {plan['keptTokens']} tokens" in lines
        assert not any(line.startswith("Cut point: none") for line in lines)


def test_a_zero_tokens_before_is_explained(home: Path) -> None:
    """The fixture session's newest reply is one the Gateway injected (usage all 0), so OpenClaw's
    tokensBefore is 0 although its entry holds totalTokens 21727: the dry run says why."""
    state = home / ".openclaw"
    write_config(state, KEEP_50)
    key = new_key()
    transcript = add_session(state, key)
    shutil.copy(FIXTURE_SESSIONS / f"{MAIN_ID}.jsonl", transcript)
    text = ours(["compact", key, "--dry-run"], home, {"OPENCLAW_GATEWAY_PORT": str(closed_port())})
    assert text.returncode == 0, text.stdout + text.stderr
    lines = text.stdout.splitlines()
    tokens = next(line for line in lines if line.startswith("Tokens: "))
    assert tokens.startswith("Tokens: 0 before → ")
    estimate = next(line for line in lines if line.startswith("Estimate: "))
    assert estimate.startswith("Estimate: the messages hold about 6014 tokens")
    assert any(line.startswith("Note: tokensBefore is OpenClaw's count") and "reports 0" in line for line in lines)

"""`openclaw compact` against the real 2026.7.1 Gateway: delegation like the reference CLI, offline
results equal to the Gateway's on identical copies, the Gateway reading our compactions."""

from __future__ import annotations

import json
import uuid
from pathlib import Path

import pytest
from helpers.compact import (
    BAK,
    add_session,
    entry_text,
    grow,
    llm_config,
    new_key,
    offline_env,
    ours,
    reference,
    session_files,
    store_entry,
    write_models_json,
)
from helpers.folders import folder_digest
from helpers.state import sessions_dir, write_config
from test_compact_fakellm import FakeLLM

pytestmark = [pytest.mark.reference, pytest.mark.gateway]


def _mask(text: str, *pairs: tuple[str, str]) -> str:
    for old, new in pairs:
        text = text.replace(old, new)
    return BAK.sub(".bak.<time>", text)


def test_delegated_output_matches_the_reference_cli(real_gateway) -> None:
    """Both CLIs against the same Gateway on identical copies: stdout, stderr and exit codes."""
    gw, state = real_gateway, real_gateway.state_dir
    copies = {who: (new_key(who), str(uuid.uuid4())) for who in ("ref", "ours")}
    llm_copies = {who: (new_key(who + "-llm"), str(uuid.uuid4())) for who in ("ref", "ours")}
    for key, sid in copies.values():
        add_session(state, key, sid, source="a")
    for key, sid in llm_copies.values():
        add_session(state, key, sid)
    missing = new_key("missing")
    runs = [  # (args after the key, which copies)
        (["--max-lines", "5"], copies),
        (["--max-lines", "5", "--json"], copies),
        (["--max-lines", "3", "--json"], copies),
        (["--agent", "bogus"], copies),
        (["--agent", "bogus", "--json"], copies),
        ([], llm_copies),  # no model on this Gateway: the LLM compaction fails
        (["--json"], llm_copies),
    ]
    for extra, pair in runs:
        outputs = {}
        for who, run in (("ref", reference), ("ours", ours)):
            key, sid = pair[who]
            cmd = ["sessions", "compact", key, *extra] if who == "ref" else ["compact", key, *extra]
            result = run(cmd, gw.home, gw.client_env())
            outputs[who] = (result.returncode, _mask(result.stdout, (key, "<key>"), (sid, "<sid>")),
                            _mask(result.stderr, (key, "<key>"), (sid, "<sid>")))
        assert outputs["ours"] == outputs["ref"], extra
    assert outputs["ours"][0] == 1 and '"ok": false' in outputs["ours"][1]
    # A key the Gateway has no session for: the reference reports "nothing needed" and exits 0;
    # we exit 1 (a documented difference), and nothing changes.
    theirs = reference(["sessions", "compact", missing], gw.home, gw.client_env())
    assert (theirs.returncode, theirs.stdout) == (0, f"No compaction needed for session {missing} (no sessionId).\n")
    before = folder_digest(sessions_dir(state))
    mine = ours(["sessions", "compact", missing], gw.home, gw.client_env())
    error = f"unknown session {missing}: the Gateway has no session with this key (no sessionId)"
    assert (mine.returncode, mine.stdout, mine.stderr) == (1, "", f"Compaction failed: {error}\n")
    mine = ours(["compact", missing, "--json", "--max-lines", "3"], gw.home, gw.client_env())
    assert (mine.returncode, json.loads(mine.stdout)) == (1, {"ok": False, "key": missing, "error": error})
    assert folder_digest(sessions_dir(state)) == before
    for _key, sid in copies.values():  # the Gateway (not a local fallback) did both
        assert len(session_files(state, sid)) == 3


def test_the_gateway_answers_no_session_id_for_an_unknown_key(real_gateway) -> None:
    """What 2026.7.1's `sessions.compact` replies for a key it has no session for (our exit 1
    rests on it): success, with reason "no sessionId"."""
    from openclaw_cli.gateway import rpc

    gw = real_gateway
    missing = new_key("unknown")
    connection = rpc.connection_for("sessions.compact", {}, url=gw.url, token=gw.token)
    for params in ({"key": missing}, {"key": missing, "maxLines": 3}):
        reply = rpc.sessions_compact(params, connection=connection)
        assert reply == {"ok": True, "key": missing, "compacted": False, "reason": "no sessionId"}


def test_offline_max_lines_equals_the_gateways_result(real_gateway, tmp_path: Path) -> None:
    """The same session in the Gateway's state and in an offline home: same files, same entry."""
    gw, gw_state = real_gateway, real_gateway.state_dir
    home = tmp_path / "home"
    our_state = home / ".openclaw"
    key, sid = new_key("trim"), str(uuid.uuid4())
    add_session(gw_state, key, sid, source="a")
    add_session(our_state, key, sid, source="a")
    assert entry_text(gw_state, key) == entry_text(our_state, key)
    for max_lines in ("6", "6", "2"):
        via_gateway = ours(["compact", key, "--max-lines", max_lines, "--json"], gw.home, gw.client_env())
        offline = ours(["compact", key, "--max-lines", max_lines, "--json"], home,
                       offline_env(OPENCLAW_GATEWAY_TOKEN="tok"))
        assert via_gateway.returncode == offline.returncode == 0, via_gateway.stderr + offline.stderr
        assert _mask(via_gateway.stdout, (str(sessions_dir(gw_state)), "<sessions>")) == \
            _mask(offline.stdout, (str(sessions_dir(our_state)), "<sessions>"))
        assert session_files(gw_state, sid) == session_files(our_state, sid)
        assert entry_text(gw_state, key) == entry_text(our_state, key)
    assert len(session_files(our_state, sid)) == 3  # the trimmed file and two archives


def test_offline_summary_shows_in_the_gateways_history(real_gateway) -> None:
    """Compact offline in the Gateway's own state (extractive); `chat.history` shows it."""
    from openclaw_cli.gateway import rpc

    gw, state = real_gateway, real_gateway.state_dir
    key = new_key("summary")
    transcript = grow(add_session(state, key), turns=40, chars=3000)  # beyond the default 20000-token tail
    connection = rpc.connection_for("chat.history", {}, url=gw.url, token=gw.token)
    before = rpc.chat_history({"sessionKey": key}, connection=connection)["messages"]
    dry = ours(["compact", key, "--dry-run"], gw.home, gw.client_env())
    assert dry.returncode == 0 and dry.stdout.startswith("Dry run: nothing was written.")
    result = ours(["compact", key, "--offline", "--json"], gw.home, gw.client_env())
    assert result.returncode == 0, result.stderr
    reply = json.loads(result.stdout)
    assert reply["compacted"] and reply["key"] == key
    entry_id = json.loads(transcript.read_text().splitlines()[-1])["id"]
    after = rpc.chat_history({"sessionKey": key}, connection=connection)["messages"]
    assert after[:len(before)] == before and len(after) == len(before) + 1
    marker = after[-1]
    assert marker["role"] == "system" and marker["__openclaw"]["kind"] == "compaction"
    assert marker["__openclaw"]["id"] == entry_id
    assert store_entry(state, key)["compactionCount"] == 2
    # the Gateway keeps working with the session: its own trim keeps our compaction entry
    trim = ours(["compact", key, "--max-lines", "4", "--json"], gw.home, gw.client_env())
    assert trim.returncode == 0 and json.loads(trim.stdout)["archived"], trim.stdout + trim.stderr
    assert json.loads(transcript.read_text().splitlines()[-1])["id"] == entry_id


def test_wrong_token_is_an_error_and_touches_nothing(real_gateway) -> None:
    gw, state = real_gateway, real_gateway.state_dir
    key = new_key("refused")
    transcript = add_session(state, key, source="a")
    before = (transcript.read_bytes(), entry_text(state, key))
    env = {"OPENCLAW_GATEWAY_PORT": str(gw.port), "OPENCLAW_GATEWAY_TOKEN": "wrong-token-1234"}
    for extra in (["--max-lines", "3"], [], ["--max-lines", "3", "--json"]):
        result = ours(["compact", key, *extra], gw.home, env)
        assert result.returncode == 1, result.stdout + result.stderr
        shown = result.stdout + result.stderr
        assert "rejected the credentials" in shown and "wrong-token-1234" not in shown and gw.secret not in shown
    assert json.loads(result.stdout)["ok"] is False
    assert (transcript.read_bytes(), entry_text(state, key)) == before
    assert not list(sessions_dir(state).glob(f"{transcript.name}.bak.*"))


def test_dry_run_never_asks_the_gateway(real_gateway) -> None:
    gw, state = real_gateway, real_gateway.state_dir
    key = new_key("dry")
    transcript = add_session(state, key, source="a")
    before = folder_digest(sessions_dir(state), mtimes=True)
    result = ours(["compact", key, "--max-lines", "2", "--dry-run", "--json"], gw.home, gw.client_env())
    assert result.returncode == 0 and json.loads(result.stdout)["wouldCompact"] is True
    after = folder_digest(sessions_dir(state), mtimes=True)
    assert after[transcript.name] == before[transcript.name] and after["sessions.json"] == before["sessions.json"]


def test_llm_compaction_agrees_with_ours_through_the_cli(gateway_factory, tmp_path: Path) -> None:
    """A loopback OpenAI-compatible model as the Gateway's provider: the Gateway's own compaction on
    one copy (delegated by our CLI), ours (`--summarizer openai`, same server) on the other."""
    with FakeLLM() as llm:
        gw_state = tmp_path / "gateway-0" / "home" / ".openclaw"  # where gateway_factory puts it
        home = tmp_path / "ours"
        our_state = home / ".openclaw"
        key, sid = "agent:main:main", str(uuid.uuid4())
        for state in (gw_state, our_state):
            write_config(state, llm_config(llm.base_url))
            write_models_json(state, llm.base_url)
            add_session(state, key, sid)
        gw = gateway_factory()
        assert gw.state_dir == gw_state
        via_gateway = ours(["compact", "main", "--json"], gw.home, gw.client_env())
        assert via_gateway.returncode == 0, via_gateway.stdout + via_gateway.stderr
        gateway_requests = [r["body"] for r in llm.summarization_requests()]
        llm.requests.clear()
        offline = ours(["compact", "main", "--summarizer", "openai", "--json"], home, offline_env())
        assert offline.returncode == 0, offline.stderr
        theirs, mine = json.loads(via_gateway.stdout), json.loads(offline.stdout)
        assert theirs["compacted"] and mine["compacted"] and theirs["key"] == mine["key"] == key
        for name in ("firstKeptEntryId", "tokensBefore", "tokensAfter", "summary", "details"):
            assert mine["result"].get(name) == theirs["result"].get(name), name
        assert [r["body"] for r in llm.summarization_requests()] == gateway_requests
        gw_last = json.loads((sessions_dir(gw_state) / f"{sid}.jsonl").read_text().splitlines()[-1])
        our_last = json.loads((sessions_dir(our_state) / f"{sid}.jsonl").read_text().splitlines()[-1])
        for entry in (gw_last, our_last):
            entry.update(id="<id>", timestamp="<time>")
        assert gw_last == our_last
        assert entry_text(gw_state, key) == entry_text(our_state, key)

"""Differential tests: `openclaw context` on a SQLite-era agent against a live 2026.9.6 Gateway's own
`/context list|detail|json` replies, on a state that Gateway writes in the module by real turns
against a loopback model (two agents, an LLM and a max-lines compaction, a `/new` reset, a session
made by `sessions.patch` alone).

Ours runs offline on the same state, just before the Gateway is asked: it reads the database while
the Gateway runs, and the Gateway's reply is made before its own turn reaches the transcript, so
both see the same events. Excluded, and only for a session whose report is an estimate (no run
persisted a report on its entry): the lines helpers/context.RUNTIME_PREFIXES and RUNTIME_BLOCKS name,
which only the running Gateway knows (its rendered system prompt, the skills and tool schemas it
loaded). Every other line is identical, and `json` is byte-identical for a run report.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from helpers import refbin, sqlite_gen
from helpers.context import as_replied, env_for, run_context, split_runtime
from helpers.gateway import SQLITE_ERA_VERSION, RunningGateway, start_gateway
from helpers.sqlite_state import last_reply, stored_events, wait_until_settled
from helpers.state import write_config
from test_compact_fakellm import FakeLLM

from openclaw_cli.gateway.rpc import call, chat_send

pytestmark = [pytest.mark.reference, pytest.mark.gateway]

READY_TIMEOUT_S = 240.0
LLM_COMPACTED = "agent:main:notes-llm"
TRIMMED = "agent:main:cron:trim"
RESET = "agent:main:scratch"
DRAFT = "agent:main:draft"  # made by sessions.patch alone: no run, so its report is an estimate
WORK = "agent:work:main"
RUN_SESSIONS = ("agent:main:main", LLM_COMPACTED, TRIMMED, RESET, WORK)


@dataclass
class Live:
    """The module's running Gateway, and a client home that talks to it."""

    gateway: RunningGateway
    client: Path
    predicted: dict = field(default_factory=dict)  # our plan of the LLM compaction, made before it ran

    def send(self, key: str, message: str) -> dict:
        sender = sqlite_gen.client_connection(self.gateway, "chat.send", self.client)
        result = chat_send({"sessionKey": key, "message": message}, connection=sender, timeout_ms=120_000)
        assert result.final is not None and result.final.get("state") == "final", (key, result.final)
        return result.final

    def call(self, method: str, params: dict) -> dict:
        return call(method, params, connection=sqlite_gen.client_connection(self.gateway, method, self.client))

    def ask(self, key: str, mode: str) -> str:
        """The Gateway's whole reply to `/context <mode>`, from the transcript (chat events cut it)."""
        self.send(key, f"/context {mode}")
        db = self.gateway.agent_db_path(key.split(":")[1])
        reply = last_reply(db, key)
        wait_until_settled(db, key)  # the turn's entry update comes after the reply
        return reply


def _config(base_url: str) -> dict:
    config = sqlite_gen.model_config(base_url)
    config["agents"]["defaults"]["compaction"] = {"keepRecentTokens": 50, "qualityGuard": {"enabled": False}}
    config["agents"]["list"] = [{"id": "main", "default": True}, {"id": "work"}]
    return config


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Live]:
    if not refbin.reference_available(SQLITE_ERA_VERSION):
        pytest.fail(refbin.missing_message(SQLITE_ERA_VERSION))
    base = tmp_path_factory.mktemp("context-gateway-9.6")
    with FakeLLM() as llm:
        write_config(base / "home" / ".openclaw", _config(llm.base_url))
        try:
            gateway = start_gateway(base, auth="token", version=SQLITE_ERA_VERSION, ready_timeout=READY_TIMEOUT_S)
        except RuntimeError as exc:
            pytest.fail(str(exc))
        client = base / "client"
        write_config(client / ".openclaw", {})
        state = Live(gateway, client)
        try:
            _write_sessions(state)
            yield state
        finally:
            gateway.stop()


def _write_sessions(live: Live) -> None:
    for key, turns in (("agent:main:main", 2), (LLM_COMPACTED, 3), (TRIMMED, 3), (RESET, 1), (WORK, 1)):
        for i in range(turns):
            live.send(key, f"turn {i}: " + "words " * 30)
    _predict(live, LLM_COMPACTED)
    compacted = live.call("sessions.compact", {"key": LLM_COMPACTED})
    assert compacted.get("compacted") is True, compacted
    live.send(LLM_COMPACTED, "after the compaction: " + "words " * 10)
    trimmed = live.call("sessions.compact", {"key": TRIMMED, "maxLines": 3})
    assert trimmed.get("compacted") is True, trimmed
    live.send(RESET, "/new")
    live.send(RESET, "after the reset: " + "words " * 10)
    live.call("sessions.patch", {"key": DRAFT, "label": "Draft"})


def _predict(live: Live, key: str) -> None:
    """Our detail's compaction line and our planner's cut, on the events as they are before the
    Gateway compacts the session."""
    from openclaw_cli.compact.planner import plan_compaction
    from openclaw_cli.compact.settings import resolve_settings
    from openclaw_cli.store.sqlite.connection import open_agent_db
    from openclaw_cli.store.sqlite.export import temporary_jsonl
    from openclaw_cli.transcript import load_index

    result = run_context(["detail", "--session", key, "--offline"], env_for(live.gateway.home))
    assert result.returncode == 0, result.stderr
    live.predicted["line"] = result.stdout.rstrip("\n").split("\n")[-1]
    db = live.gateway.agent_db_path()
    cfg = json.loads((live.gateway.state_dir / "openclaw.json").read_text())
    session_id = stored_events(db, key)[0]["id"]
    with open_agent_db(str(db), "main") as handle, temporary_jsonl(handle, session_id) as path:
        plan = plan_compaction(load_index(path), resolve_settings(cfg, context_window=128_000))
    live.predicted["first_kept"] = plan.first_kept_entry_id


def ours(live: Live, key: str, mode: str) -> str:
    args = [mode, "--session", key, "--offline"] + (["--plain"] if mode != "json" else [])
    result = run_context(args, env_for(live.gateway.home))
    assert result.returncode == 0, result.stderr
    return as_replied(result.stdout.rstrip("\n"))


def both(live: Live, key: str, mode: str) -> tuple[str, str]:
    """(ours, theirs) on the same events: ours first, then the Gateway's reply."""
    mine = ours(live, key, mode)
    return mine, live.ask(key, mode)


@pytest.mark.parametrize("key", RUN_SESSIONS)
@pytest.mark.parametrize("mode", ["list", "detail"])
def test_a_session_with_a_run_report_prints_every_line_the_gateway_prints(live, key, mode):
    mine, theirs = both(live, key, mode)
    assert mine == theirs
    assert theirs.startswith("🧠 Context breakdown") and "System prompt (run):" in theirs


@pytest.mark.parametrize("key", RUN_SESSIONS)
def test_json_of_a_run_report_is_byte_identical(live, key):
    mine, theirs = both(live, key, "json")
    assert mine == theirs
    assert json.loads(theirs)["report"]["source"] == "run"


def same_but_runtime(mine: str, theirs: str) -> None:
    """Every line but the runtime ones identical; ours name the runtime lines in the Gateway's order
    (it adds the rankings only it can make: top skills, tool parameter counts)."""
    my_lines, my_runtime = split_runtime(mine)
    their_lines, their_runtime = split_runtime(theirs)
    assert my_lines == their_lines
    theirs_named = iter([line.split(":")[0] for line in their_runtime if not line.startswith("- ")])
    mine_named = [line.split(":")[0] for line in my_runtime if not line.startswith("- ")]
    assert len(mine_named) >= 5 and all(name in theirs_named for name in mine_named), (mine_named, their_runtime)


@pytest.mark.parametrize("mode", ["list", "detail"])
def test_an_estimate_differs_only_in_the_runtime_lines(live, mode):
    mine, theirs = both(live, DRAFT, mode)
    same_but_runtime(mine, theirs)
    assert "System prompt (estimate):" in theirs and "unknown offline" in mine
    assert "- TOOLS.md" not in theirs and "- AGENTS.md: OK" in theirs  # 2026.9.6's bootstrap files


def test_an_estimate_over_the_bootstrap_limits_warns_as_the_gateway_does(live):
    agents = live.gateway.state_dir / "workspace" / "AGENTS.md"
    original = agents.read_text(encoding="utf-8")
    agents.write_text(original + "\n" + "x" * 25_000, encoding="utf-8")
    try:
        mine, theirs = both(live, DRAFT, "list")
    finally:
        agents.write_text(original, encoding="utf-8")
    same_but_runtime(mine, theirs)
    assert "- AGENTS.md: TRUNCATED" in theirs
    assert "Tip: increase this agent's `agents.entries.*.bootstrapMaxChars`" in theirs


def test_detail_of_the_compacted_sessions_counts_what_the_gateway_counts(live):
    for key in (LLM_COMPACTED, TRIMMED, RESET):
        mine, theirs = both(live, key, "detail")
        counts = [line for line in theirs.split("\n") if line.startswith("Compactable transcript:")]
        assert len(counts) == 1 and counts[0] in mine.split("\n"), key


def test_detail_planned_the_llm_compaction_the_gateway_then_made(live):
    """Before the Gateway compacted the session, our detail's compaction line counted the context it
    counted (its tokensBefore) and our planner cut where it cut (its firstKeptEntryId)."""
    events = stored_events(live.gateway.agent_db_path(), LLM_COMPACTED)
    (compaction,) = [e for e in events if e.get("type") == "compaction"]
    line = live.predicted["line"]
    assert line.startswith("Compaction (keepRecentTokens 50): would summarise ")
    assert f"context now ~{compaction['tokensBefore']:,} tok" in line
    assert live.predicted["first_kept"] == compaction["firstKeptEntryId"]

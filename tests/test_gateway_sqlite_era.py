"""The Gateway of OpenClaw 2026.9.6 (SQLite era): the handshake and its errors, delegated `sessions cleanup`
and `compact` printing what the 2026.9.6 CLI prints, a device identity where only paired devices get in,
and the refusal once the Gateway is stopped.

Two real 2026.9.6 Gateways serve the module: one with token auth (its sessions made by real turns against
a loopback model), one with auth "none", which admits paired devices only.
"""

from __future__ import annotations

import json
import os
import stat
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from helpers import refbin
from helpers.folders import folder_digest
from helpers.gateway import SQLITE_ERA_VERSION, RunningGateway, closed_port, start_gateway
from helpers.state import write_config
from test_compact_fakellm import FakeLLM

from openclaw_cli.gateway import GatewayAuthError, GatewayRequestError
from openclaw_cli.gateway.client import GatewayClient
from openclaw_cli.gateway.device import IDENTITY_RELATIVE_PATH, load_identity
from openclaw_cli.gateway.discovery import GatewayConnection
from openclaw_cli.gateway.rpc import call, chat_send, connection_for

pytestmark = [pytest.mark.reference, pytest.mark.gateway]

TURNS = 3
READY_TIMEOUT_S = 240.0  # a 2026.9.6 Gateway runs its startup migrations first: slow on a busy machine


def _model_config(base_url: str) -> dict[str, Any]:
    """The fixture generator's model setup: a custom OpenAI-compatible provider at the loopback model."""
    return {
        "agents": {"defaults": {"model": {"primary": "fake/fake-model"},
                                "compaction": {"keepRecentTokens": 50, "qualityGuard": {"enabled": False}}}},
        "models": {"mode": "merge", "providers": {"fake": {
            "baseUrl": base_url, "apiKey": "fake-local", "api": "openai-completions", "timeoutSeconds": 60,
            "models": [{"id": "fake-model", "name": "Fake", "reasoning": False, "input": ["text"],
                        "cost": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0},
                        "contextWindow": 128000, "maxTokens": 4096}]}}},
    }


def _start(base: Path, **kw: Any) -> RunningGateway:
    if not refbin.reference_available(SQLITE_ERA_VERSION):
        pytest.fail(refbin.missing_message(SQLITE_ERA_VERSION))
    try:
        return start_gateway(base, version=SQLITE_ERA_VERSION, ready_timeout=READY_TIMEOUT_S, **kw)
    except RuntimeError as exc:
        pytest.fail(str(exc))


@pytest.fixture(scope="module")
def llm() -> Iterator[FakeLLM]:
    with FakeLLM() as server:
        yield server


@pytest.fixture(scope="module")
def gw(tmp_path_factory: pytest.TempPathFactory, llm: FakeLLM) -> Iterator[RunningGateway]:
    """A 2026.9.6 Gateway in token mode on a fresh state whose model is the loopback one."""
    base = tmp_path_factory.mktemp("gateway-9.6")
    write_config(base / "home" / ".openclaw", _model_config(llm.base_url))
    gateway = _start(base, auth="token")
    try:
        yield gateway
    finally:
        gateway.stop()


@pytest.fixture(scope="module")
def paired_only(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningGateway]:
    """A 2026.9.6 Gateway with auth "none": a client without a device identity is NOT_PAIRED."""
    gateway = _start(tmp_path_factory.mktemp("gateway-9.6-none"), auth="none")
    try:
        yield gateway
    finally:
        gateway.stop()


def _client_home(tmp_path: Path, name: str, config: dict[str, Any] | None = None) -> Path:
    """A scratch home for one CLI (each keeps its own state and device identity)."""
    home = tmp_path / name
    write_config(home / ".openclaw", config or {})
    return home


def _connection(gateway: RunningGateway, method: str, home: Path) -> GatewayConnection:
    env = {"HOME": str(home), **gateway.client_env(),
           **({"OPENCLAW_GATEWAY_TOKEN": gateway.secret} if gateway.auth == "token" else {})}
    return connection_for(method, env, cfg=gateway.client_config() if gateway.auth == "none" else {})


def _session(gateway: RunningGateway, tmp_path: Path, prefix: str) -> str:
    """A new session with TURNS real turns (the Gateway writes them to its agent database)."""
    key = f"agent:main:{prefix}-{uuid.uuid4().hex[:8]}"
    connection = _connection(gateway, "chat.send", tmp_path / "turns")
    for i in range(TURNS):
        result = chat_send({"sessionKey": key, "message": f"turn {i}: " + "words " * 40}, connection=connection,
                           timeout_ms=120_000)
        assert result.final is not None and result.final.get("state") == "final", result.final
    return key


def _runs(gateway: RunningGateway, tmp_path: Path, ref_args: list[str], our_args: list[str],
          env: dict[str, str] | None = None) -> tuple[refbin.Result, refbin.Result]:
    """The 2026.9.6 CLI and ours, each from its own scratch home, against `gateway`."""
    env = {**gateway.client_env(), **(env or {})}
    config = gateway.client_config() if gateway.auth == "none" else {}
    theirs = refbin.run_reference(ref_args, _client_home(tmp_path, "ref", config), env, timeout=180,
                                  version=SQLITE_ERA_VERSION)
    mine = refbin.run_ours(our_args, _client_home(tmp_path, "ours", config), env, timeout=180)
    return theirs, mine


def _steady(summary: Any) -> Any:
    """A cleanup reply without the database sizes, which the Gateway changes between two calls."""
    if isinstance(summary, dict):
        return {k: _steady(v) for k, v in summary.items() if k not in ("totalBytesBefore", "totalBytesAfter")}
    if isinstance(summary, list):
        return [_steady(v) for v in summary]
    return summary


# -- the handshake -----------------------------------------------------------------------------


def test_the_handshake_with_a_2026_9_6_gateway_reads_its_hello_ok(gw: RunningGateway, tmp_path: Path) -> None:
    with GatewayClient(_connection(gw, "sessions.cleanup", tmp_path), scopes=["operator.admin"]) as client:
        hello = client.hello
        assert hello is not None
        assert (hello.protocol, hello.server_version, hello.role) == (4, "2026.9.6", "operator")
        assert hello.scopes == ["operator.admin"]
        assert {"sessions.cleanup", "sessions.compact", "sessions.list", "chat.history"} <= hello.methods
        assert hello.raw["auth"]["method"] == "token"
        # loopback with the Gateway's token: no device identity, as OpenClaw's own CLI does
        assert client.device_id is None
    assert not (tmp_path / ".openclaw" / IDENTITY_RELATIVE_PATH).exists()


def test_a_missing_scope_on_2026_9_6_is_forbidden_and_named(gw: RunningGateway, tmp_path: Path) -> None:
    connection = _connection(gw, "sessions.compact", tmp_path)
    with pytest.raises(GatewayRequestError) as caught:
        call("sessions.compact", {"key": "agent:main:main"}, ["operator.read"], connection=connection)
    error = caught.value
    assert (error.code, error.detail_code, error.missing_scope) == ("FORBIDDEN", "MISSING_SCOPE", "operator.admin")
    assert error.hint == "this call needs operator.admin."


def test_a_wrong_token_is_refused_in_one_line_and_nothing_runs_locally(gw: RunningGateway, tmp_path: Path) -> None:
    before = folder_digest(gw.state_dir / "agents")
    theirs, mine = _runs(gw, tmp_path, ["sessions", "cleanup", "--enforce"], ["sessions", "cleanup", "--enforce"],
                         {"OPENCLAW_GATEWAY_TOKEN": "wrong-token"})
    assert theirs.returncode == 1 and "token mismatch" in theirs.stderr
    assert (mine.returncode, mine.stdout) == (1, "")
    lines = mine.stderr.splitlines()
    assert len(lines) == 2 and lines[1].startswith("hint: the token is wrong")
    assert "unauthorized: gateway token mismatch" in lines[0] and "wrong-token" not in mine.stderr
    assert not (tmp_path / "ours" / ".openclaw" / "agents").exists()
    assert folder_digest(gw.state_dir / "agents").keys() == before.keys()


# -- delegated work ----------------------------------------------------------------------------


def test_delegated_cleanup_prints_what_the_2026_9_6_cli_prints(gw: RunningGateway, tmp_path: Path) -> None:
    _session(gw, tmp_path, "cleanup")
    for args in (["--enforce"], ["--enforce", "--json"], ["--json"], ["--enforce", "--all-agents"],
                 ["--enforce", "--all-agents", "--json"]):
        theirs, mine = _runs(gw, tmp_path, ["sessions", "cleanup", *args], ["sessions", "cleanup", *args])
        assert (mine.returncode, theirs.returncode) == (0, 0), (args, theirs.stderr, mine.stderr)
        if "--json" in args:
            reply = json.loads(mine.stdout)
            assert _steady(reply) == _steady(json.loads(theirs.stdout)), args
            assert reply["storePath"] == str(gw.agent_db_path())
            assert reply["applied"] is True and reply["afterCount"] >= 1
        else:
            assert mine.stdout == theirs.stdout, args
            assert mine.stdout.startswith(f"Session store: {gw.agent_db_path()}\nApplied maintenance.")
        assert mine.stderr == ""


def test_delegated_cleanup_errors_are_one_line_with_the_gateways_words(gw: RunningGateway, tmp_path: Path) -> None:
    theirs, mine = _runs(gw, tmp_path, ["sessions", "cleanup", "--enforce", "--agent", "nope"],
                         ["sessions", "cleanup", "--enforce", "--agent", "nope"])
    assert theirs.returncode == mine.returncode == 1
    message = theirs.stderr.strip()
    assert message == 'Unknown agent id "nope". Run openclaw agents list to see configured agents.'
    assert mine.stderr.splitlines()[0] == f"the Gateway refused sessions.cleanup: {message}"


def test_delegated_max_lines_compaction_matches_the_2026_9_6_cli(gw: RunningGateway, tmp_path: Path) -> None:
    keys = {who: _session(gw, tmp_path, f"trim-{who}") for who in ("ref", "ours")}
    for extra in (["--max-lines", "4", "--json"], ["--max-lines", "4"], ["--max-lines", "3"]):
        theirs = refbin.run_reference(["sessions", "compact", keys["ref"], *extra], _client_home(tmp_path, "ref"),
                                      gw.client_env(), version=SQLITE_ERA_VERSION, timeout=180)
        mine = refbin.run_ours(["compact", keys["ours"], *extra], _client_home(tmp_path, "ours"), gw.client_env())
        assert (mine.returncode, mine.stdout.replace(keys["ours"], "<key>"), mine.stderr) == \
            (theirs.returncode, theirs.stdout.replace(keys["ref"], "<key>"), theirs.stderr), extra
    assert json.loads(refbin.run_ours(["compact", keys["ours"], "--max-lines", "2", "--json"],
                                      _client_home(tmp_path, "ours"), gw.client_env()).stdout) == \
        {"ok": True, "key": keys["ours"], "compacted": True, "kept": 2}
    history = call("chat.history", {"sessionKey": keys["ours"]}, connection=_connection(gw, "chat.history", tmp_path))
    assert len(history["messages"]) < 2 * TURNS


def test_delegated_llm_compaction_matches_the_2026_9_6_cli(gw: RunningGateway, llm: FakeLLM, tmp_path: Path) -> None:
    keys = {who: _session(gw, tmp_path, f"llm-{who}") for who in ("ref", "ours")}
    llm.requests.clear()
    theirs = refbin.run_reference(["sessions", "compact", keys["ref"]], _client_home(tmp_path, "ref"),
                                  gw.client_env(), version=SQLITE_ERA_VERSION, timeout=180)
    asked_by_theirs = len(llm.summarization_requests())
    mine = refbin.run_ours(["compact", keys["ours"]], _client_home(tmp_path, "ours"), gw.client_env())
    assert (mine.returncode, mine.stdout.replace(keys["ours"], "<key>"), mine.stderr) == \
        (theirs.returncode, theirs.stdout.replace(keys["ref"], "<key>"), theirs.stderr)
    assert mine.stdout.startswith(f"Compacted session {keys['ours']} (")
    assert asked_by_theirs >= 1 and len(llm.summarization_requests()) == 2 * asked_by_theirs


def test_compacting_a_key_the_2026_9_6_gateway_does_not_know_is_an_error(gw: RunningGateway, tmp_path: Path) -> None:
    key = f"agent:main:missing-{uuid.uuid4().hex[:8]}"
    theirs, mine = _runs(gw, tmp_path, ["sessions", "compact", key], ["compact", key])
    assert (theirs.returncode, theirs.stdout) == (0, f"No compaction needed for session {key} (no sessionId).\n")
    assert (mine.returncode, mine.stdout) == (1, "")
    assert mine.stderr == (f"Compaction failed: unknown session {key}: the Gateway has no session with this key "
                           "(no sessionId)\n")


# -- a Gateway that admits paired devices only -------------------------------------------------


def test_without_a_device_identity_a_paired_only_gateway_answers_not_paired(paired_only: RunningGateway,
                                                                           tmp_path: Path) -> None:
    connection = _connection(paired_only, "sessions.cleanup", tmp_path)
    device_less = GatewayConnection(target=connection.target, credentials=connection.credentials,
                                    method=connection.method, auth_mode=connection.auth_mode)
    with pytest.raises(GatewayAuthError) as caught:
        GatewayClient(device_less, scopes=["operator.admin"]).connect()
    assert (caught.value.code, caught.value.detail_code) == ("NOT_PAIRED", "DEVICE_IDENTITY_REQUIRED")


def test_our_device_is_paired_locally_and_cleanup_runs_as_with_the_2026_9_6_cli(paired_only: RunningGateway,
                                                                               tmp_path: Path) -> None:
    theirs, mine = _runs(paired_only, tmp_path, ["sessions", "cleanup", "--enforce"],
                         ["sessions", "cleanup", "--enforce"])
    assert (mine.returncode, mine.stdout, mine.stderr) == (theirs.returncode, theirs.stdout, "")
    assert mine.stdout.startswith(f"Session store: {paired_only.agent_db_path()}\n")
    identity_file = tmp_path / "ours" / ".openclaw" / IDENTITY_RELATIVE_PATH
    assert stat.S_IMODE(os.stat(identity_file).st_mode) == 0o600
    assert stat.S_IMODE(os.stat(identity_file.parent).st_mode) == 0o700
    identity = load_identity(str(identity_file))
    first = identity_file.read_bytes()
    # A second run presents the same device, which the Gateway now knows.
    again = refbin.run_ours(["sessions", "cleanup", "--enforce", "--json"], tmp_path / "ours",
                            paired_only.client_env())
    assert again.returncode == 0 and json.loads(again.stdout)["applied"] is True
    assert identity_file.read_bytes() == first
    with GatewayClient(_connection(paired_only, "device.pair.list", tmp_path / "ours"),
                       scopes=["operator.admin"]) as client:
        assert client.device_id == identity.device_id
        paired = client.request("device.pair.list", {})["paired"]
    ours = [d for d in paired if d["deviceId"] == identity.device_id]
    assert len(ours) == 1
    assert (ours[0]["clientId"], ours[0]["clientMode"], ours[0]["approvedVia"]) == ("cli", "cli", "silent")
    # OpenClaw's own CLI paired its own device the same way.
    assert any(d["deviceId"] != identity.device_id and d["approvedVia"] == "silent" for d in paired)


# -- once the Gateway is stopped ----------------------------------------------------------------


def test_with_the_gateway_stopped_its_state_is_refused_and_left_as_it_was(gw: RunningGateway, tmp_path: Path) -> None:
    """Last in the module: stops the token Gateway, then cleanup and compact on its own home."""
    key = _session(gw, tmp_path, "stopped")
    gw.stop()
    before = folder_digest(gw.state_dir / "agents")
    env = {"OPENCLAW_GATEWAY_PORT": str(closed_port())}
    result = refbin.run_ours(["sessions", "cleanup", "--enforce"], gw.home, env)
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr == (
        f"cannot apply session maintenance: {gw.agent_db_path()} is an OpenClaw 2026.8+ session database, "
        "which only its Gateway changes, and no Gateway is running\n"
        "hint: start the Gateway (openclaw gateway run, or openclaw gateway start for the service), then run "
        "the command again\n")
    result = refbin.run_ours(["compact", key, "--max-lines", "2"], gw.home, env)
    assert result.returncode == 1 and "start the Gateway" in result.stderr
    assert folder_digest(gw.state_dir / "agents") == before
    assert not (gw.state_dir / "agents" / "main" / "sessions" / "sessions.json").exists()

"""Later file-era Gateways (2026.7.35): the handshake and delegated `sessions cleanup` as on 2026.7.1.

The full Gateway suite runs against 2026.7.1; here each later file-era release gets one pair of
twin Gateways, started on identical state, to show that delegation behaves the same there: the
reference CLI of that release talks to one twin, ours to the other, step by step as in
test_cleanup_gateway.py.
"""

from __future__ import annotations

import json
import socket
import time
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from helpers import refbin
from helpers.gateway import RunningGateway, start_gateway
from test_cleanup_gateway import (
    MAINTENANCE,
    STEPS,
    TWIN_AGENTS,
    cleanup,
    client_home,
    fingerprint,
    mask,
    prepare_store,
    tree,
    write_config,
)

pytestmark = [pytest.mark.gateway, pytest.mark.reference]

LATER_RELEASES = [v for v in refbin.FILE_ERA_VERSIONS if v != refbin.PRIMARY_VERSION]


def hello(gateway: RunningGateway, timeout: float = 10.0) -> dict[str, Any]:
    """The `hello-ok` payload of one operator handshake (independent of the code under test)."""
    from websockets.sync.client import connect

    sock = socket.create_connection(("127.0.0.1", gateway.port), timeout=timeout)
    with connect(gateway.url, sock=sock, open_timeout=timeout, compression=None,
                 max_size=32 * 1024 * 1024) as ws:
        challenge = json.loads(ws.recv(timeout=timeout))
        assert challenge.get("event") == "connect.challenge", challenge
        req_id = str(uuid.uuid4())
        ws.send(json.dumps({"type": "req", "id": req_id, "method": "connect", "params": {
            "minProtocol": 3, "maxProtocol": 4,
            "client": {"id": "cli", "version": "test", "platform": "linux", "mode": "cli"},
            "role": "operator", "scopes": ["operator.admin"], "auth": {gateway.auth: gateway.secret}}}))
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            frame = json.loads(ws.recv(timeout=max(0.01, deadline - time.monotonic())))
            if frame.get("type") == "res" and frame.get("id") == req_id:
                assert frame.get("ok") is True, frame
                return frame["payload"]
    raise AssertionError("no reply to connect")


@dataclass
class ReleaseTwins:
    """Twin Gateways of one release; `runs[step]`/`trees[step]` hold (reference, ours)."""

    version: str
    ref: RunningGateway
    ours: RunningGateway
    homes: dict[str, Path]
    before: dict[str, Any]
    hello: dict[str, Any]
    runs: dict[str, tuple[refbin.Result, refbin.Result]] = field(default_factory=dict)
    trees: dict[str, tuple[dict[str, bytes], dict[str, bytes]]] = field(default_factory=dict)


def _start_twins(base: Path, version: str) -> tuple[RunningGateway, RunningGateway]:
    now_ms = int(time.time() * 1000)
    config = {**MAINTENANCE,
              "agents": {"list": [{"id": "main", "default": True}, {"id": "ops"}, {"id": "team"}]}}
    for name in ("ref", "ours"):
        state = base / name / "home" / ".openclaw"  # start_gateway's HOME
        write_config(state, config)
        for agent in TWIN_AGENTS:
            prepare_store(state, agent, now_ms)
    with ThreadPoolExecutor(max_workers=2) as pool:
        futures = [pool.submit(start_gateway, base / name, version=version) for name in ("ref", "ours")]
    errors = [f.exception() for f in futures if f.exception()]
    if errors:
        for f in futures:
            if not f.exception():
                f.result().stop()
        pytest.fail(f"a reference {version} Gateway did not start: {errors[0]}")
    return futures[0].result(), futures[1].result()


@pytest.fixture(scope="module", params=LATER_RELEASES)
def release_twins(request, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ReleaseTwins]:
    """Start the twins of one release and record every step of both CLIs before any test looks."""
    version = request.param
    if not refbin.reference_available(version):
        pytest.fail(refbin.missing_message(version))
    base = tmp_path_factory.mktemp(f"twins-{version}")
    ref, ours = _start_twins(base, version)
    try:
        homes = {"ref": client_home(base, "ref-cli"), "ours": client_home(base, "ours-cli")}
        before = {who: fingerprint(home / ".openclaw") for who, home in homes.items()}
        twins = ReleaseTwins(version, ref, ours, homes, before, hello(ref))
        twins.trees["start"] = (tree(ref.state_dir), tree(ours.state_dir))
        for step, args in STEPS.items():
            theirs = refbin.run_reference(["sessions", "cleanup", *args], homes["ref"], ref.client_env(),
                                          version=version)
            mine = cleanup(homes["ours"], *args, env=ours.client_env())
            twins.runs[step] = (theirs, mine)
            twins.trees[step] = (tree(ref.state_dir), tree(ours.state_dir))
        yield twins
    finally:
        ref.stop()
        ours.stop()


def test_later_release_greets_like_the_primary_release(release_twins: ReleaseTwins, real_gateway) -> None:
    """Same protocol, same method and event lists in `hello-ok` as the 2026.7.1 Gateway."""
    theirs, primary = release_twins.hello, hello(real_gateway)
    assert theirs["protocol"] == primary["protocol"] == 4
    assert {"sessions.cleanup", "sessions.compact", "sessions.list", "health"} <= set(theirs["features"]["methods"])
    assert sorted(theirs["features"]["methods"]) == sorted(primary["features"]["methods"])
    assert sorted(theirs["features"]["events"]) == sorted(primary["features"]["events"])


@pytest.mark.parametrize("step", list(STEPS))
def test_delegated_cleanup_matches_the_later_reference_cli(release_twins: ReleaseTwins, step: str) -> None:
    """Each step: both CLIs exit 0 with the same output (state dirs masked), and both Gateways'
    sessions folders hold the same bytes afterwards, which differ from the start for `--enforce`."""
    twins = release_twins
    theirs, mine = twins.runs[step]
    assert theirs.returncode == 0, theirs.stderr
    assert mine.returncode == 0, mine.stderr
    assert mask(mine.stdout, twins.ours.state_dir) == mask(theirs.stdout, twins.ref.state_dir)
    assert mine.stderr == theirs.stderr == ""
    ref_tree, our_tree = twins.trees[step]
    assert our_tree == ref_tree
    if step == "json":
        assert json.loads(mine.stdout)["appliedCount"] == 3
        assert our_tree != twins.trees["start"][1]


def test_delegated_runs_write_nothing_locally_on_a_later_release(release_twins: ReleaseTwins) -> None:
    """Our CLI wrote nothing in its own HOME while the later Gateway did the work."""
    assert fingerprint(release_twins.homes["ours"] / ".openclaw") == release_twins.before["ours"]

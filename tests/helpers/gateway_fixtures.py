"""Pytest fixtures for Gateway tests: the real reference Gateway and fake servers."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from helpers import refbin
from helpers.gateway import FakeGateway, RunningGateway, start_gateway


def _require_reference(version: str = refbin.PRIMARY_VERSION) -> None:
    if not refbin.reference_available(version):
        pytest.fail(refbin.missing_message(version))


def _start(base: Path, **kw) -> RunningGateway:
    _require_reference(kw.get("version", refbin.PRIMARY_VERSION))
    try:
        return start_gateway(base, **kw)
    except RuntimeError as exc:
        pytest.fail(str(exc))


@pytest.fixture(scope="session")
def real_gateway(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningGateway]:
    """The reference Gateway in token mode, shared by the whole test session."""
    gateway = _start(tmp_path_factory.mktemp("gateway-token"), auth="token")
    try:
        yield gateway
    finally:
        gateway.stop()


@pytest.fixture(scope="session")
def real_gateway_password(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningGateway]:
    """A second session-wide reference Gateway, in password mode (started on first use)."""
    gateway = _start(tmp_path_factory.mktemp("gateway-password"), auth="password")
    try:
        yield gateway
    finally:
        gateway.stop()


@pytest.fixture
def gateway_factory(tmp_path: Path) -> Iterator:
    """Start extra reference Gateways that a test may stop or restart; all stop at teardown."""
    started: list[RunningGateway] = []

    def start(**kw) -> RunningGateway:
        gateway = _start(tmp_path / f"gateway-{len(started)}", **kw)
        started.append(gateway)
        return gateway

    try:
        yield start
    finally:
        for gateway in started:
            gateway.stop()


@pytest.fixture
def fake_gateway() -> Iterator:
    """`fake_gateway(handler)` starts a FakeGateway for the test; it stops at teardown."""
    servers: list[FakeGateway] = []

    def start(handler) -> FakeGateway:
        server = FakeGateway(handler).__enter__()
        servers.append(server)
        return server

    try:
        yield start
    finally:
        for server in servers:
            server.__exit__(None, None, None)



@pytest.fixture(scope="session")
def generated_96_state(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """One SQLite-era state a real 2026.9.6 Gateway wrote in real turns: every kind of key its
    maintenance tells apart (helpers/sqlite_gen.py), the Gateway stopped; made once per test run.
    Tests copy it (`sqlite_gen.copy_state`) and never change it."""
    from test_compact_fakellm import FakeLLM

    from helpers import sqlite_gen

    _require_reference(refbin.SQLITE_ERA_VERSION)
    with FakeLLM() as llm:
        home, _keys = sqlite_gen.generate(tmp_path_factory.mktemp("generated-9.6"), llm.base_url)
    yield home

"""Start and stop the real reference Gateway, plus fake servers that are not (quite) a Gateway."""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import signal
import socket
import subprocess
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from helpers import refbin
from helpers.clock import pin_session_reset

READY_TIMEOUT_S = 90.0
# The SQLite-era release the tests start Gateways of (sessions in agents/<id>/agent/openclaw-agent.sqlite).
SQLITE_ERA_VERSION = "2026.9.6"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@dataclass
class RunningGateway:
    """A reference Gateway process on loopback with its own HOME."""

    port: int
    auth: str  # "token", "password" or "none" (then only paired devices get in)
    secret: str
    home: Path
    state_dir: Path
    log_path: Path
    proc: subprocess.Popen = field(repr=False)
    startup_s: float = 0.0
    version: str = refbin.PRIMARY_VERSION

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    @property
    def token(self) -> str | None:
        return self.secret if self.auth == "token" else None

    @property
    def password(self) -> str | None:
        return self.secret if self.auth == "password" else None

    @property
    def store_path(self) -> Path:
        return self.state_dir / "agents" / "main" / "sessions" / "sessions.json"

    def agent_db_path(self, agent: str = "main") -> Path:
        """Where a SQLite-era Gateway keeps the agent's sessions."""
        return self.state_dir / "agents" / agent / "agent" / "openclaw-agent.sqlite"

    def client_config(self) -> dict[str, Any]:
        """A client-side config that points at this Gateway with the right credential."""
        if self.auth == "none":
            return {"gateway": {"port": self.port, "auth": {"mode": "none"}}}
        return {"gateway": {"port": self.port, "auth": {self.auth: self.secret}}}

    def client_env(self) -> dict[str, str]:
        """Env for a client run (reference or ours) that delegates to this Gateway."""
        if self.auth == "none":
            return {"OPENCLAW_GATEWAY_PORT": str(self.port)}
        name = "OPENCLAW_GATEWAY_TOKEN" if self.auth == "token" else "OPENCLAW_GATEWAY_PASSWORD"
        return {"OPENCLAW_GATEWAY_PORT": str(self.port), name: self.secret}

    def running(self) -> bool:
        return self.proc.poll() is None

    def log_tail(self, lines: int = 40) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return "(no log)"

    def stop(self, timeout: float = 15.0) -> None:
        """Stop the whole process group: SIGTERM, then SIGKILL."""
        if self.proc.poll() is not None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, signal.SIGTERM)
        try:
            self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=5)
        # children that outlived the leader
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.proc.pid, signal.SIGKILL)


def _handshake_ok(port: int, auth: str, secret: str, timeout: float = 3.0) -> bool:
    """True once the Gateway completes a handshake (independent of the code under test); with auth
    "none", once it answers a device-less connect with NOT_PAIRED (it admits paired devices only)."""
    from websockets.sync.client import connect

    try:
        sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
        with connect(f"ws://127.0.0.1:{port}", sock=sock, open_timeout=timeout,
                     compression=None, max_size=32 * 1024 * 1024) as ws:
            frame = json.loads(ws.recv(timeout=timeout))
            if frame.get("event") != "connect.challenge":
                return False
            req_id = str(uuid.uuid4())
            ws.send(json.dumps({"type": "req", "id": req_id, "method": "connect", "params": {
                "minProtocol": 4, "maxProtocol": 4,
                "client": {"id": "cli", "version": "test", "platform": "linux", "mode": "cli"},
                "role": "operator", "scopes": [], **({} if auth == "none" else {"auth": {auth: secret}})}}))
            deadline = time.monotonic() + timeout
            while time.monotonic() < deadline:
                frame = json.loads(ws.recv(timeout=max(0.01, deadline - time.monotonic())))
                if frame.get("type") == "res" and frame.get("id") == req_id:
                    if auth == "none":
                        return (frame.get("error") or {}).get("code") == "NOT_PAIRED"
                    return frame.get("ok") is True
    except Exception:
        return False
    return False


def pin_reset(config_path: Path) -> None:
    """Give the Gateway's config a session reset that never fires (helpers.clock.NO_RESET), so that
    no daily boundary or idle window can start a fresh session between two turns of a test."""
    import json5

    config = json5.loads(config_path.read_text(encoding="utf-8")) if config_path.exists() else {}
    if not isinstance(config, dict) or "$include" in config:
        return  # a config the test shapes on purpose stays as written
    if (config.get("session") or {}).get("reset") is None:
        config_path.write_text(json.dumps(pin_session_reset(config), indent=2), encoding="utf-8")


def start_gateway(base: Path, *, auth: str = "token", secret: str | None = None,
                  ready_timeout: float = READY_TIMEOUT_S,
                  extra_env: dict[str, str] | None = None,
                  version: str = refbin.PRIMARY_VERSION) -> RunningGateway:
    """Start `openclaw gateway run` (reference release `version`) on a free loopback port under
    `base/home`; wait until ready. `auth` "none" starts a Gateway that admits paired devices only."""
    if not refbin.reference_available(version):
        raise RuntimeError(refbin.missing_message(version))
    home = base / "home"
    state_dir = home / ".openclaw"
    state_dir.mkdir(parents=True, exist_ok=True)
    pin_reset(state_dir / "openclaw.json")
    secret = secret or secrets.token_hex(16)
    port = free_port()
    env = refbin.clean_env(home, {"OPENCLAW_DISABLE_BONJOUR": "1", **(extra_env or {})})
    env["PATH"] = f"{refbin.reference_node_bin_dir()}:{env['PATH']}"
    log_path = base / "gateway.log"
    cmd = [str(refbin.reference_bin(version)), "gateway", "run", "--allow-unconfigured",
           "--port", str(port), "--bind", "loopback", "--auth", auth]
    if auth != "none":
        cmd += [f"--{auth}", secret]
    started = time.monotonic()
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(cmd, env=env, cwd=home, stdin=subprocess.DEVNULL, stdout=log,
                                stderr=subprocess.STDOUT, start_new_session=True)
    gateway = RunningGateway(port=port, auth=auth, secret=secret, home=home,
                             state_dir=state_dir, log_path=log_path, proc=proc, version=version)
    deadline = started + ready_timeout
    try:
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"the reference Gateway exited with {proc.returncode} while "
                                   f"starting:\n{gateway.log_tail()}")
            if time.monotonic() > deadline:
                raise RuntimeError(f"the reference Gateway was not ready after {ready_timeout:.0f} s:"
                                   f"\n{gateway.log_tail()}")
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                    pass
            except OSError:
                time.sleep(0.25)
                continue
            if _handshake_ok(port, auth, secret):
                break
            time.sleep(0.25)
    except BaseException:
        gateway.stop()
        raise
    gateway.startup_s = time.monotonic() - started
    return gateway


# -- fake servers ---------------------------------------------------------------------------

HELLO_METHODS = ["health", "status", "sessions.list", "sessions.cleanup", "sessions.compact",
                 "chat.history", "chat.send"]


def challenge_frame() -> dict[str, Any]:
    return {"type": "event", "event": "connect.challenge",
            "payload": {"nonce": str(uuid.uuid4()), "ts": int(time.time() * 1000)}}


def hello_payload(methods: list[str] | None = None, **overrides: Any) -> dict[str, Any]:
    payload = {
        "type": "hello-ok", "protocol": 4,
        "server": {"version": "2026.7.1", "connId": str(uuid.uuid4())},
        "features": {"methods": HELLO_METHODS if methods is None else methods,
                     "events": ["tick", "health"], "capabilities": []},
        "snapshot": {}, "auth": {"role": "operator", "scopes": ["operator.admin"]},
        "policy": {"maxPayload": 26214400, "maxBufferedBytes": 52428800, "tickIntervalMs": 30000},
    }
    payload.update(overrides)
    return payload


class FakeGateway:
    """A websockets server in a thread; `handler(ws, server)` plays the Gateway's part."""

    def __init__(self, handler: Callable[[Any, FakeGateway], None]):
        self.handler = handler
        self.received: list[Any] = []
        self.errors: list[BaseException] = []
        self._server: Any = None
        self._thread: threading.Thread | None = None
        self.port = 0

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def recv_json(self, ws: Any, timeout: float = 10) -> Any:
        frame = json.loads(ws.recv(timeout=timeout))
        self.received.append(frame)
        return frame

    def handshake(self, ws: Any, hello: dict[str, Any] | None = None) -> dict[str, Any]:
        """Challenge, read connect, answer hello-ok; returns the connect frame."""
        ws.send(json.dumps(challenge_frame()))
        frame = self.recv_json(ws)
        ws.send(json.dumps({"type": "res", "id": frame["id"], "ok": True,
                            "payload": hello or hello_payload()}))
        return frame

    def _run(self, ws: Any) -> None:
        try:
            self.handler(ws, self)
        except Exception as exc:  # the client may hang up first; keep it for debugging
            self.errors.append(exc)

    def __enter__(self) -> FakeGateway:
        from websockets.sync.server import serve

        self._server = serve(self._run, "127.0.0.1", 0, compression=None, max_size=None)
        self.port = self._server.socket.getsockname()[1]
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        if self._thread:
            self._thread.join(timeout=5)


@contextlib.contextmanager
def tcp_listener(behaviour: str = "silent") -> Iterator[int]:
    """A TCP server that is no Gateway: `silent` never answers, `close` hangs up at once,
    `http404` answers every request with HTTP 404, `garbage` sends a non-HTTP line."""
    server = socket.socket()
    server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    server.bind(("127.0.0.1", 0))
    server.listen(16)
    server.settimeout(0.2)
    stop = threading.Event()
    held: list[socket.socket] = []

    def serve() -> None:
        while not stop.is_set():
            try:
                conn, _ = server.accept()
            except (TimeoutError, OSError):
                continue
            if behaviour == "silent":
                held.append(conn)
                continue
            if behaviour == "http404":
                with contextlib.suppress(OSError):
                    conn.settimeout(2)
                    conn.recv(65536)
                    body = b"Not Found"
                    conn.sendall(b"HTTP/1.1 404 Not Found\r\nContent-Type: text/plain\r\n"
                                 b"Content-Length: %d\r\nConnection: close\r\n\r\n%s"
                                 % (len(body), body))
            elif behaviour == "garbage":
                with contextlib.suppress(OSError):
                    conn.sendall(b"SSH-2.0-OpenSSH_9.6\r\n")
                    time.sleep(0.2)
            conn.close()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield server.getsockname()[1]
    finally:
        stop.set()
        thread.join(timeout=2)
        for conn in held:
            conn.close()
        server.close()


def closed_port() -> int:
    """A loopback port with nothing listening (bound, then released)."""
    return free_port()

"""Our CLI run in-process (typer's CliRunner around `openclaw_cli.cli.app.main`): exit code, stdout, stderr."""

from __future__ import annotations

import logging
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import IO

from typer.testing import CliRunner

from helpers.refbin import Result, clean_env


def run(args: Sequence[str], home: Path | str | None = None, env: dict[str, str] | None = None,
        input: str | bytes | None = None, cwd: Path | str | None = None) -> Result:
    """One run of `openclaw <args>` in this process, as `refbin.run_ours` runs it in a child: the
    environment is exactly `refbin.clean_env(home, env)` (HOME defaults to the test's own), the
    working folder is `cwd` or the home, stdin holds `input`, stdout is a pipe. Everything the run
    changes in os.environ, the working folder and the root logger is undone afterwards."""
    from openclaw_cli.cli.app import main

    home = Path(home if home is not None else os.environ["HOME"])
    saved_env, saved_cwd, saved_handlers = dict(os.environ), os.getcwd(), list(logging.root.handlers)
    os.environ.clear()
    os.environ.update(clean_env(home, env))
    time.tzset()
    try:
        os.chdir(cwd or (home if home.is_dir() else saved_cwd))
        with CliRunner().isolation(input=input) as (stdout, stderr, _output):
            try:
                main(list(args))
                code = 0
            except SystemExit as exit_:
                code = _exit_code(exit_.code)
            _flush(sys.stdout, sys.stderr)
            return Result(code, stdout.getvalue().decode("utf-8"), stderr.getvalue().decode("utf-8"))
    finally:
        os.chdir(saved_cwd)
        os.environ.clear()
        os.environ.update(saved_env)
        time.tzset()
        logging.root.handlers[:] = saved_handlers


def _exit_code(code: object) -> int:
    """The process exit status `sys.exit(code)` gives (None is 0, a message is 1)."""
    if code is None:
        return 0
    return code if isinstance(code, int) else 1


def _flush(*streams: IO[str]) -> None:
    """What the run wrote and left buffered, written through (a closed stream has nothing left)."""
    for stream in streams:
        try:
            stream.flush()
        except (ValueError, OSError):
            pass


def run_in_pty(args: Sequence[str], home: Path, env: dict[str, str] | None = None, timeout_s: float = 60) -> str:
    """`python -m openclaw_cli <args>` in a child process whose stdout is a pseudo-terminal; what it
    printed (line ends as `\\n`). The environment is HOME, PATH and `env` only."""
    import pty

    child_env = {"HOME": str(home), "PATH": os.environ.get("PATH", ""), **(env or {})}
    pid, fd = pty.fork()
    if pid == 0:  # pragma: no cover - child
        os.chdir(home)
        os.execve(sys.executable, [sys.executable, "-m", "openclaw_cli", *args], child_env)
    output = b""
    deadline = time.time() + timeout_s
    while time.time() < deadline:
        try:
            chunk = os.read(fd, 4096)
        except OSError:
            break
        if not chunk:
            break
        output += chunk
    os.waitpid(pid, 0)
    os.close(fd)
    return output.decode(errors="replace").replace("\r\n", "\n")

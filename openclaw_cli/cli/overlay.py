"""Hand the sub-commands this tool does not implement to OpenClaw's own CLI (same name, `openclaw`)."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Mapping, Sequence

# Names this tool answers itself; everything else belongs to OpenClaw's CLI.
OURS = frozenset({"sessions", "context", "doctor", "compact", "completion"})
# Our `sessions` sub-commands; OpenClaw's other ones (tail, export-trajectory, ...) are handed on.
OUR_SESSIONS = frozenset({"list", "cleanup", "compact", "disk", "export", "verify", "repair", "recover"})
# Root options that take a value, ours and OpenClaw's (2026.7.x `openclaw --help`).
_VALUED = frozenset({"--profile", "--log-level", "--container"})
# Top-level commands of OpenClaw 2026.7.1 and 2026.7.35 (`openclaw --help`): a name among these
# that we do not implement is OpenClaw's, even when its CLI is not installed.
OPENCLAW_COMMANDS = frozenset("""
acp agent agents approvals attach audit backup capability channels chat clawbot commitments completion
config configure crestodian cron daemon dashboard devices directory dns docs doctor exec-approvals
exec-policy file-transfer gateway health help hooks infer logs mcp memory message migrate models node
nodes onboard pairing plugins promos proxy qr reset sandbox secrets security sessions setup skills
status system tasks terminal transcripts tui uninstall update webhooks worktrees
""".split())
UPSTREAM_ENV = "OPENCLAW_CLI_UPSTREAM"
_MARKER = b"openclaw_cli"


def command_path(args: Sequence[str]) -> list[str]:
    """The command words of a command line: the first word after the root options, and for
    `sessions` the word after it (an option ends the path)."""
    words: list[str] = []
    skip = False
    for arg in args:
        if skip:
            skip = False
            continue
        if arg == "--":
            break
        if arg.startswith("-"):
            if words:
                break
            skip = arg in _VALUED
            continue
        words.append(arg)
        if len(words) == 2 or words[0] != "sessions":
            break
    return words


def foreign_command(args: Sequence[str]) -> str | None:
    """The command (`config`, `sessions tail`) that is OpenClaw's and not ours, else None."""
    words = command_path(args)
    if not words:
        return None
    if words[0] not in OURS:
        return words[0]
    if words[0] == "sessions" and len(words) == 2 and words[1] not in OUR_SESSIONS:
        return " ".join(words)
    return None


def _is_this_tool(path: str, own: set[str]) -> bool:
    if os.path.realpath(path) in own:
        return True
    try:
        with open(path, "rb") as handle:
            head = handle.read(4096)
    except OSError:
        return True
    return _MARKER in head


def find_upstream(env: Mapping[str, str] | None = None) -> str | None:
    """OpenClaw's own `openclaw`: the one named by $OPENCLAW_CLI_UPSTREAM, else the first
    executable `openclaw` on PATH that is not this tool's script."""
    env = os.environ if env is None else env
    named = env.get(UPSTREAM_ENV, "")
    if named:
        return named if os.path.isfile(named) and os.access(named, os.X_OK) else None
    own = {os.path.realpath(sys.argv[0])} if sys.argv and sys.argv[0] else set()
    for folder in env.get("PATH", "").split(os.pathsep):
        candidate = os.path.join(folder or ".", "openclaw")
        if os.path.isfile(candidate) and os.access(candidate, os.X_OK) and not _is_this_tool(candidate, own):
            return candidate
    return None


def hand_off(upstream: str, args: Sequence[str]) -> None:
    """Replace this process with OpenClaw's CLI: same arguments, environment and terminal."""
    sys.stdout.flush()
    sys.stderr.flush()
    os.execv(upstream, [upstream, *args])


def missing_message(command: str) -> str:
    return (f"'{command}' is a command of OpenClaw's own CLI, which is not installed here; "
            f"install OpenClaw (npm install -g openclaw) and it is reached through this command, "
            f"or set {UPSTREAM_ENV} to its executable")


def upstream_version(upstream: str) -> str:
    """The first line OpenClaw's CLI prints for --version (or why it printed none)."""
    try:
        done = subprocess.run([upstream, "--version"], capture_output=True, text=True, timeout=15,
                              check=False, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.SubprocessError) as exc:
        return f"OpenClaw CLI at {upstream} (version unknown: {exc})"
    line = next((text for text in done.stdout.splitlines() if text.strip()), "")
    return f"{line.strip()} at {upstream}" if line else f"OpenClaw CLI at {upstream} (version unknown)"

"""What the man pages say beyond `--help`: exit status, environment and files, by command."""

from __future__ import annotations

from dataclasses import dataclass

from openclaw_cli.cli.docsgen.model import Command

# Scopes are command paths ("" is every command); an entry shows on the page of any command
# inside its scope, and on the page of a group that contains its scope.
CONFIG_READERS = ("sessions", "compact", "context", "doctor")
GATEWAY_USERS = ("sessions cleanup", "sessions compact", "compact", "context", "doctor")
STORE_USERS = ("sessions", "compact", "context", "doctor")
WORKSPACE_USERS = ("context", "doctor")


@dataclass(frozen=True)
class Entry:
    name: str
    text: str
    scope: tuple[str, ...]


ENVIRONMENT: tuple[Entry, ...] = (
    Entry("OPENCLAW_HOME", "Home folder to use instead of HOME: the state folder is $OPENCLAW_HOME/.openclaw, "
          "and a leading ~ in configured paths means this folder.", CONFIG_READERS),
    Entry("OPENCLAW_STATE_DIR", "State folder (default ~/.openclaw, or ~/.clawdbot when only that exists); "
          "--profile NAME sets ~/.openclaw-NAME when this is unset.", CONFIG_READERS),
    Entry("OPENCLAW_CONFIG_PATH", "Config file (default: openclaw.json in the state folder).", CONFIG_READERS),
    Entry("OPENCLAW_PROFILE", "Profile name, set by --profile and --dev; a profile's agent workspace is "
          "~/.openclaw/workspace-NAME.", WORKSPACE_USERS),
    Entry("OPENCLAW_INCLUDE_ROOTS", "Extra folders, separated by colons, from which $include in the config may "
          "read files.", CONFIG_READERS),
    Entry("OPENCLAW_GATEWAY_URL", "Gateway WebSocket URL when --url is not given (otherwise gateway.remote.url "
          "in remote mode, else the local Gateway).", GATEWAY_USERS),
    Entry("OPENCLAW_GATEWAY_PORT", "Port of the local Gateway (default: gateway.port, else 18789; 19001 with "
          "--dev).", GATEWAY_USERS),
    Entry("OPENCLAW_GATEWAY_TOKEN", "Gateway token, when --token is not given.", GATEWAY_USERS),
    Entry("OPENCLAW_GATEWAY_PASSWORD", "Gateway password, when --password is not given.", GATEWAY_USERS),
    Entry("OPENCLAW_HANDSHAKE_TIMEOUT_MS", "Gateway connection handshake timeout in milliseconds (default: "
          "gateway.handshakeTimeoutMs).", GATEWAY_USERS),
    Entry("OPENCLAW_ALLOW_INSECURE_PRIVATE_WS", "Set to 1 to allow a plaintext ws:// Gateway URL to a "
          "non-loopback address.", GATEWAY_USERS),
    Entry("OPENCLAW_WORKSPACE_DIR", "The default agent workspace folder (default ~/.openclaw/workspace).",
          WORKSPACE_USERS),
    Entry("OPENCLAW_SESSION_SERIALIZED_CACHE_MAX_BYTES", "Largest sessions.json, in bytes, that is compared with "
          "its new text to skip an unchanged write (default 67108864).", ("sessions cleanup",)),
    Entry("OPENCLAW_SESSION_WRITE_LOCK_STALE_MS", "Age in milliseconds after which a transcript lock counts as "
          "stale (default: session.writeLock.staleMs).", ("doctor",)),
    Entry("OPENCLAW_OAUTH_DIR", "Folder of the channel credentials that doctor checks (default: credentials in "
          "the state folder).", ("doctor",)),
    Entry("OPENCLAW_AGENT_DIR", "The main agent's folder (PI_CODING_AGENT_DIR is read too; default "
          "agents/main/agent in the state folder).", ("doctor",)),
    Entry("OPENCLAW_NIX_MODE", "Set to 1 when the config is managed by Nix: doctor then refuses --fix, --yes and "
          "--generate-gateway-token.", ("doctor",)),
    Entry("OPENCLAW_UPDATE_IN_PROGRESS", "Set to 1 while OpenClaw updates itself: a non-interactive doctor then "
          "skips file and permission repairs.", ("doctor",)),
    Entry("NO_COLOR", "When not empty, output is never coloured (as with --no-color).", CONFIG_READERS),
    Entry("FORCE_COLOR", "Colour the output even when it is not a terminal (unless 0 or false).", CONFIG_READERS),
    Entry("TERM", "When dumb, no progress display on standard error.", CONFIG_READERS),
)

FILES: tuple[Entry, ...] = (
    Entry("~/.openclaw/openclaw.json", "The config file (JSON5, with $include and ${VAR} substitution); "
          "~/.openclaw-NAME/openclaw.json for --profile NAME.", CONFIG_READERS),
    Entry("~/.openclaw/.env", "Environment variables loaded at start, as is .env in the current folder "
          "(which cannot set OPENCLAW_* variables) and ~/.config/openclaw/gateway.env; variables already "
          "set win.", CONFIG_READERS),
    Entry("~/.openclaw/agents/<id>/sessions/sessions.json", "An agent's session store (session.store in the "
          "config may move it; --store names one directly).", STORE_USERS),
    Entry("~/.openclaw/agents/<id>/sessions/<sessionId>.jsonl", "A session's transcript, beside the store.",
          STORE_USERS),
    Entry("<file>.deleted.<time>, <file>.reset.<time>, <file>.bak.<time>",
          "Archived transcripts and stores (time like 2026-01-31T12-00-00.000Z), beside the original.",
          ("sessions cleanup", "compact", "sessions compact")),
    Entry("<store>.lock", "Taken by an applying cleanup so that two runs never overlap ({\"pid\", "
          "\"startedAt\"}; stale after 30 s without a refresh or when its process is gone).",
          ("sessions cleanup",)),
    Entry("<transcript>.lock", "OpenClaw's transcript write lock: compact stops while a live process holds it "
          "(exit 75), and holds it while it writes.", ("compact", "sessions compact", "doctor")),
    Entry("~/.openclaw/workspace", "The agent workspace (AGENTS.md, SOUL.md, TOOLS.md and the other bootstrap files).",
          WORKSPACE_USERS),
)

_COMMON_EXIT = ((0, "success"),
                (1, "error: bad config, unknown agent, corrupt store, a Gateway that refuses, I/O failure"),
                (2, "bad usage: unknown option, bad value, conflicting options"))
_INTERRUPTED = (130, "interrupted")
_LOCKS = ((75, "a lock is busy: another maintenance run holds the store lock (sessions cleanup), or a live "
               "process holds the transcript lock (compact)"),)
_DOCTOR_EXIT = ((0, "success; with --lint: no finding at or above --severity-min"),
                (1, "error; with --lint: a finding at or above --severity-min (default warning)"),
                (2, "bad usage, or a lint option without --lint"))


def _in_scope(path: tuple[str, ...], scope: tuple[str, ...]) -> bool:
    here = " ".join(path)
    for entry in scope:
        if entry == "" or here == "" or f"{here} ".startswith(f"{entry} ") or f"{entry} ".startswith(f"{here} "):
            return True
    return False


def environment(command: Command) -> tuple[Entry, ...]:
    return tuple(e for e in ENVIRONMENT if _in_scope(command.path, e.scope))


def files(command: Command) -> tuple[Entry, ...]:
    return tuple(f for f in FILES if _in_scope(command.path, f.scope))


def exit_status(command: Command, from_help: tuple[tuple[int, str], ...]) -> tuple[tuple[int, str], ...]:
    """The codes a command's help states, else the common ones (doctor: with the lint result)."""
    if command.path[:1] == ("completion",):
        return ((0, "success"), (2, "bad usage: an unknown shell or option"))
    if from_help:
        codes = dict(from_help)
    elif command.path[:1] == ("doctor",):
        codes = dict(_DOCTOR_EXIT)
    else:
        codes = dict(_COMMON_EXIT)
        if not command.path or command.path == ("sessions",):
            codes.update(_LOCKS)
    codes.setdefault(*_INTERRUPTED)
    return tuple(sorted(codes.items()))

# Said on a command's page after its help text: behaviour the option help cannot show.
NOTES: dict[tuple[str, ...], tuple[str, ...]] = {
    (): ("The global options may stand anywhere on the command line (openclaw sessions --no-color is "
         "openclaw --no-color sessions), except after -- or as the value of another option.",),
    ("sessions",): ("Without a sub-command, lists sessions as `openclaw sessions list` does. The options given "
                    "to `openclaw sessions` also apply to `list`; --agent, --all-agents, --json and --store also "
                    "to `cleanup`, and --agent and --json to `compact`.",),
    ("doctor",): ("With --lint, findings are printed as JSON also when standard output is not a terminal.",),
    ("completion",): ("The scripts complete commands, options and option values: the choices of --tokenizer, "
                      "--summarizer, --severity-min and --log-level, the check ids of --only and --skip, file "
                      "names for --store, --output and --summary-file, the profile folders for --profile, and "
                      "the agent ids of the config for --agent.",),
}

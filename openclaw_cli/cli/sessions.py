"""`openclaw sessions` group: list (default), cleanup; options inherited like OpenClaw's."""

from __future__ import annotations

import typer

from openclaw_cli.cli import compact as compact_cli
from openclaw_cli.cli.help import Command as HelpCommand

app = typer.Typer(
    short_help="List sessions and maintain the session stores.",
    invoke_without_command=True,
    no_args_is_help=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)

STORE_HELP = "Path to session store (default: resolved from config)"


@app.callback()
def sessions(
    ctx: typer.Context,
    active: str = typer.Option(None, "--active", metavar="MINUTES",
                               help="Only show sessions updated within the past N minutes"),
    agent: str = typer.Option(None, "--agent", metavar="ID",
                              help="Agent id to inspect (default: configured default agent)"),
    all_agents: bool = typer.Option(False, "--all-agents", help="Aggregate sessions across all configured agents"),
    json_out: bool = typer.Option(False, "--json", help="Output as JSON"),
    limit: str = typer.Option(None, "--limit", metavar="COUNT",
                              help='Max sessions to show (default: 100; use "all" for full output)'),
    store: str = typer.Option(None, "--store", metavar="PATH", help=STORE_HELP),
    verbose: bool = typer.Option(False, "--verbose", help="Accepted for compatibility; no effect"),
) -> None:
    """List stored conversation sessions, and maintain the session store.

    \b
    Examples:
      openclaw sessions                    List sessions of the default agent.
      openclaw sessions --all-agents       Aggregate sessions across agents.
      openclaw sessions --active 120       Only the last 2 hours.
      openclaw sessions --limit 25 --json  The newest 25 sessions as JSON.
      openclaw sessions cleanup --dry-run  Preview store maintenance.
      openclaw sessions disk               What uses the disk, and what cleanup would free.
      openclaw sessions export main        A SQLite-era transcript (2026.8+) as JSONL.

    \b
    Exit codes:
      0   success (also: no sessions, no store yet at the default location)
      1   error (bad config, unknown agent, a store that does not parse, a --store that does not exist)
      2   bad usage (unknown option, bad --limit or --active, conflicting options)
    """
    ctx.obj = {"agent": agent, "all_agents": all_agents, "json": json_out, "store": store,
               "active": active, "limit": limit}
    if ctx.invoked_subcommand is None:
        # OpenClaw 2026.9.6's bare `sessions` reads the config itself (unchecked before, with its notes)
        _run_list(agent=agent, all_agents=all_agents, json_out=json_out, store=store, active=active,
                  limit=limit, own_read=True)


LIST_EPILOG = """\b
Examples:
  openclaw sessions list                      Sessions of the default agent, newest first.
  openclaw sessions list --all-agents --json  Every agent's sessions as JSON.
  openclaw sessions list --active 60          Only those updated in the last hour.
  openclaw sessions list --store PATH         A sessions.json anywhere (a backup, a copy).

\b
Exit codes:
  0   success (also: no sessions, no store yet at the default location)
  1   error (bad config, unknown agent, a store that does not parse, a --store that does not exist)
  2   bad usage (unknown option, bad --limit or --active, conflicting options)"""


@app.command("list", short_help="List sessions (the same as `openclaw sessions`).", epilog=LIST_EPILOG)
def list_cmd(
    ctx: typer.Context,
    active: str = typer.Option(None, "--active", metavar="MINUTES",
                               help="Only show sessions updated within the past N minutes"),
    agent: str = typer.Option(None, "--agent", metavar="ID", help="Agent id to inspect"),
    all_agents: bool = typer.Option(False, "--all-agents", help="Aggregate sessions across all configured agents"),
    json_out: bool = typer.Option(False, "--json", help="Output as JSON"),
    limit: str = typer.Option(None, "--limit", metavar="COUNT",
                              help='Max sessions to show (default: 100; use "all" for full output)'),
    store: str = typer.Option(None, "--store", metavar="PATH", help=STORE_HELP),
    verbose: bool = typer.Option(False, "--verbose", help="Accepted for compatibility; no effect"),
) -> None:
    """List stored conversation sessions (same as `openclaw sessions`)."""
    parent = ctx.obj or {}

    def inherit(value, name):
        return value if value is not None else parent.get(name)

    _run_list(agent=inherit(agent, "agent"), all_agents=all_agents or bool(parent.get("all_agents")),
              json_out=json_out or bool(parent.get("json")), store=inherit(store, "store"),
              active=inherit(active, "active"), limit=inherit(limit, "limit"))


def _run_list(**kwargs) -> None:
    from openclaw_cli.commands.sessions_list import run_list_command

    run_list_command(**kwargs)


CLEANUP_EPILOG = """\b
Examples:
  openclaw sessions cleanup --dry-run
      Preview stale/cap cleanup.
  openclaw sessions cleanup --dry-run --fix-missing
      Also preview pruning entries with missing transcript files.
  openclaw sessions cleanup --enforce
      Apply maintenance now (through the Gateway when one is running).
  openclaw sessions cleanup --all-agents --dry-run --json
      Preview all agent stores as one JSON document.
  openclaw sessions cleanup --dry-run --explain
      Why each session stays or goes, and what kept the rest.
  openclaw sessions cleanup --dry-run --all
      At a terminal: every planned row, not the first 10 of each action.
  openclaw sessions cleanup --enforce --store ./tmp/sessions.json
      Maintain a specific store file directly.
  openclaw sessions cleanup --enforce --all-agents --quiet
      Nightly from cron: print nothing unless something failed.
  openclaw sessions cleanup --enforce --allow-empty-store
      The store was emptied on purpose: sweep its old transcripts too.

\b
Exit codes:
  0   success (also: nothing to do, warn mode, empty store)
  1   error (bad config, corrupt store, a --store that does not exist, a Gateway that refuses, I/O failure)
  2   bad usage (unknown option, bad value, conflicting options)
  75  another maintenance run holds the store lock"""


@app.command("cleanup", epilog=CLEANUP_EPILOG)
def cleanup_cmd(
    ctx: typer.Context,
    active_key: str = typer.Option(None, "--active-key", metavar="KEY",
                                   help="Protect this session key from budget-eviction"),
    agent: str = typer.Option(None, "--agent", metavar="ID",
                              help="Agent id to maintain (default: configured default agent)"),
    all_agents: bool = typer.Option(False, "--all-agents", help="Run maintenance across all configured agents"),
    dry_run: bool = typer.Option(False, "--dry-run", help="Preview maintenance actions without writing"),
    enforce: bool = typer.Option(False, "--enforce", help="Apply maintenance even when configured mode is warn"),
    fix_dm_scope: bool = typer.Option(False, "--fix-dm-scope",
                                      help="Retire stale direct-DM session rows that no longer match "
                                           "session.dmScope=main"),
    fix_missing: bool = typer.Option(False, "--fix-missing",
                                     help="Remove store entries whose transcript files are missing "
                                          "(bypasses age/count retention)"),
    allow_empty_store: bool = typer.Option(False, "--allow-empty-store",
                                           help="Sweep old transcripts even though the store has no entries "
                                                "(refused by default: that looks like a lost index)"),
    json_out: bool = typer.Option(False, "--json", help="Output JSON"),
    explain: bool = typer.Option(False, "--explain",
                                 help="The rule behind each entry's and file's action, and why entries were kept"),
    store: str = typer.Option(None, "--store", metavar="PATH", help=STORE_HELP),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="Print nothing unless something failed (for cron)"),
    url: str = typer.Option(None, "--url", metavar="URL", help="Gateway WebSocket URL (needs --token or --password)"),
    port: str = typer.Option(None, "--port", metavar="PORT",
                             help="Gateway port on this machine (else OPENCLAW_GATEWAY_PORT, gateway.port, 18789)"),
    token: str = typer.Option(None, "--token", metavar="TOKEN", help="Gateway token (else OPENCLAW_GATEWAY_TOKEN)"),
    password: str = typer.Option(None, "--password", metavar="PASSWORD",
                                 help="Gateway password (else OPENCLAW_GATEWAY_PASSWORD)"),
    timeout: str = typer.Option(None, "--timeout", metavar="MS", help="Gateway call timeout in ms (default 10000)"),
    wait: float = typer.Option(10.0, "--wait", metavar="SECONDS", min=0,
                               help="How long to wait for another maintenance run's store lock"),
    show_all: bool = typer.Option(False, "--all",
                                  help="At a terminal, list every planned row (piped output always does)"),
    limit: str = typer.Option(None, "--limit", metavar="N",
                              help="At a terminal, list the first N planned rows of each action (default: 10)"),
) -> None:
    """Run session-store maintenance now.

    Without --dry-run and --store, a running Gateway does the work (it owns the store while it
    runs); when nothing listens at the Gateway address, the store is maintained directly.
    """
    from openclaw_cli.commands.cleanup import run_cleanup_command
    from openclaw_cli.commands.gateway import GatewayOptions, parse_port, parse_timeout

    gateway = GatewayOptions(url=url, port=parse_port(port), token=token, password=password,
                             timeout_ms=parse_timeout(timeout, "sessions cleanup"))
    per_action = _per_action(limit, show_all)
    parent = ctx.obj or {}
    run_cleanup_command(
        active_key=active_key, agent=agent if agent is not None else parent.get("agent"),
        all_agents=all_agents or bool(parent.get("all_agents")), dry_run=dry_run, enforce=enforce,
        fix_dm_scope=fix_dm_scope, fix_missing=fix_missing, allow_empty_store=allow_empty_store,
        json_out=json_out or bool(parent.get("json")),
        store=store if store is not None else parent.get("store"), quiet=quiet, gateway=gateway,
        lock_wait_s=wait, explain=explain, per_action=per_action, show_all=show_all)


def _per_action(limit: str | None, show_all: bool) -> int | None:
    """`--limit N` of cleanup: a positive integer, not with `--all` (exit 2 otherwise)."""
    from openclaw_cli.errors import UsageError
    from openclaw_cli.listing.options import parse_strict_positive_integer

    if limit is None:
        return None
    if show_all:
        raise UsageError("--all and --limit cannot be used together.")
    number = parse_strict_positive_integer(limit)
    if number is None:
        raise UsageError("--limit must be a positive integer, for example --limit 25.")
    return number


DISK_EPILOG = """\b
Examples:
  openclaw sessions disk
      What fills the default agent's session folder, and what cleanup would free.
  openclaw sessions disk --all-agents --top 5
      Every agent, with its 5 largest sessions.
  openclaw sessions disk --json | jq '.agents[].wouldFreeBytes'
      The bytes `sessions cleanup --enforce` would delete now, per agent.
  openclaw sessions disk --store ./tmp/sessions.json
      A specific store file's folder.

\b
Exit codes:
  0   success (also: no store yet at the default location)
  1   error (bad config, unknown agent, a store that does not parse, a --store that does not exist)
  2   bad usage (unknown option, bad --top, conflicting options)"""


@app.command("disk", short_help="Show what uses the disk, and what cleanup would free.", epilog=DISK_EPILOG)
def disk_cmd(
    ctx: typer.Context,
    agent: str = typer.Option(None, "--agent", metavar="ID",
                              help="Agent id to inspect (default: configured default agent)"),
    all_agents: bool = typer.Option(False, "--all-agents", help="Every configured agent's session folder"),
    json_out: bool = typer.Option(False, "--json", help="Output as JSON"),
    store: str = typer.Option(None, "--store", metavar="PATH", help=STORE_HELP),
    top: str = typer.Option(None, "--top", metavar="N", help="How many of the largest sessions to show (default: 10)"),
) -> None:
    """Show what uses the disk in the session folders, and what cleanup would free.

    Files are counted in the families `sessions cleanup` tells apart (live and unreferenced
    transcripts, archives, checkpoints, trajectory sidecars, skills-prompt blobs, temps and
    locks, sessions.json, anything else); the free figure is what an applying
    `sessions cleanup --enforce` would delete now. For an agent of the SQLite era (2026.8+): its
    database, -wal and -shm, free pages, session tables, archives and the files left in sessions/.
    Reads only; nothing is changed.
    """
    from openclaw_cli.commands.sessions_disk import run_disk_command

    parent = ctx.obj or {}
    run_disk_command(agent=agent if agent is not None else parent.get("agent"),
                     all_agents=all_agents or bool(parent.get("all_agents")),
                     store=store if store is not None else parent.get("store"),
                     json_out=json_out or bool(parent.get("json")), top=top)


EXPORT_EPILOG = """\b
Examples:
  openclaw sessions export agent:main:main            Write <sessionId>.jsonl here.
  openclaw sessions export scratchpad --output /tmp   A key of the default agent, into /tmp.
  openclaw sessions export --all --agent work --json  Every session of agent work, as JSON.

\b
Exit codes:
  0   every file written
  1   error (not a SQLite-era agent, unknown session, a file exists, newer schema)
  2   bad usage (neither KEY nor --all, or both)"""


@app.command("export", cls=HelpCommand, short_help="Write SQLite-era transcripts as file-era JSONL files.",
             epilog=EXPORT_EPILOG)
def export_cmd(
    ctx: typer.Context,
    key: str = typer.Argument(None, metavar="KEY", help="Session key (agent:<id>:<key>, or a key of the agent)"),
    all_sessions: bool = typer.Option(False, "--all", help="Every session of the agent"),
    agent: str = typer.Option(None, "--agent", metavar="ID",
                              help="Agent id (default: the key's agent, else the configured default agent)"),
    output: str = typer.Option(None, "--output", metavar="DIR", help="Folder to write into (default: the current one)"),
    force: bool = typer.Option(False, "--force", help="Replace files that exist"),
    json_out: bool = typer.Option(False, "--json", help="Output as JSON"),
) -> None:
    """Write SQLite-era transcripts (OpenClaw 2026.8+) as file-era JSONL files.

    Each session becomes `<sessionId>.jsonl`: its header, then one event per line, exactly as
    the agent database stores them (compressed events decoded), so tools that read file-era
    transcripts read it. Reads the database only (read-only, one snapshot); an existing file is
    kept unless --force.
    """
    from openclaw_cli.commands.sessions_export import run_export_command

    parent = ctx.obj or {}
    run_export_command(key=key, all_sessions=all_sessions,
                       agent=agent if agent is not None else parent.get("agent"), output=output, force=force,
                       json_out=json_out or bool(parent.get("json")))


VERIFY_EPILOG = """\b
Examples:
  openclaw sessions verify
      Check every transcript the default agent's sessions.json references.
  openclaw sessions verify agent:main:main
      One session.
  openclaw sessions verify --all-agents --orphans --json
      Every agent, unreferenced transcripts too, as JSON for scripts.

\b
Exit codes:
  0   no finding is an error (warnings and notes may be printed)
  1   a finding is an error; or bad config, unknown agent or session, a store that does not parse
  2   bad usage (unknown option, conflicting options)

\b
Files:
  ~/.openclaw/agents/<id>/sessions/sessions.json  the session store (read)
  ~/.openclaw/agents/<id>/sessions/<id>.jsonl     the transcripts (read)
  <transcript>.lock                               a live holder makes a pending toolCall a note"""


@app.command("verify", cls=HelpCommand, short_help="Check transcripts: links, tool pairs, bad lines.",
             epilog=VERIFY_EPILOG)
def verify_cmd(
    ctx: typer.Context,
    key: str = typer.Argument(None, metavar="KEY", help="Only this session (default: every session of the store)"),
    agent: str = typer.Option(None, "--agent", metavar="ID",
                              help="Agent id to check (default: configured default agent)"),
    all_agents: bool = typer.Option(False, "--all-agents", help="Every configured agent's sessions"),
    orphans: bool = typer.Option(False, "--orphans",
                                 help="Also check transcripts no entry references, and name their likely key"),
    json_out: bool = typer.Option(False, "--json", help="Output as JSON"),
) -> None:
    """Check session transcripts: header, malformed lines, entry links, toolCall/toolResult pairs.

    Reads each transcript once, in bounded memory, and reports one finding per problem with its
    line number and entry id. Reads the files only; nothing is changed.
    """
    from openclaw_cli.commands.sessions_verify import run_verify_command

    parent = ctx.obj or {}
    code = run_verify_command(key=key, agent=agent if agent is not None else parent.get("agent"),
                              all_agents=all_agents or bool(parent.get("all_agents")), orphans=orphans,
                              json_out=json_out or bool(parent.get("json")))
    if code:
        raise typer.Exit(code)


REPAIR_EPILOG = """\b
Examples:
  openclaw sessions repair agent:main:main --dry-run
      The entries a repair would add, change or drop; nothing is written.
  openclaw sessions repair agent:main:main
      Repair it; the original is kept as <transcript>.bak.<time>.

\b
Exit codes:
  0   repaired, or nothing to repair
  1   error (unknown session, no transcript, no valid session header, I/O failure)
  2   bad usage (unknown option, empty KEY)
  75  a live OpenClaw process holds the transcript lock (<transcript>.lock)

\b
Files:
  ~/.openclaw/agents/<id>/sessions/<id>.jsonl     the transcript, replaced by rename
  <transcript>.bak.<time>                         the original, kept
  <transcript>.rejected.<time>                    the malformed lines, with their line numbers
  <transcript>.lock                               the write lock the Gateway also takes"""


@app.command("repair", cls=HelpCommand, short_help="Write the Gateway's transcript repair to the file.",
             epilog=REPAIR_EPILOG)
def repair_cmd(
    ctx: typer.Context,
    key: str = typer.Argument(..., metavar="KEY", help="Session key"),
    agent: str = typer.Option(None, "--agent", metavar="ID", help="Agent id the session belongs to"),
    dry_run: bool = typer.Option(False, "--dry-run", help="Print the diff of entries; change nothing"),
    json_out: bool = typer.Option(False, "--json", help="Output as JSON"),
) -> None:
    """Repair a transcript as the Gateway reads it: persist its load-time hygiene.

    A toolCall without its toolResult gets the Gateway's synthetic error result, a toolResult
    without its toolCall is dropped, the Gateway's session-file repair is applied (errored empty
    turns, blank user text, corrupted images, messages without a role), and malformed lines move
    to <transcript>.rejected.<time> with their line numbers. Works on the file (a running Gateway
    does not repair files), under the transcript lock.
    """
    from openclaw_cli.commands.sessions_repair import run_repair_command

    parent = ctx.obj or {}
    run_repair_command(key=key, agent=agent if agent is not None else parent.get("agent"), dry_run=dry_run,
                       json_out=json_out or bool(parent.get("json")))


RECOVER_EPILOG = """\b
Examples:
  openclaw sessions recover --dry-run
      Which unreferenced transcripts would be put back, and under which keys.
  openclaw sessions recover --all-agents
      Put every agent's orphan transcripts back into its sessions.json.

\b
Exit codes:
  0   success (also: nothing to recover)
  1   error (a Gateway is running, bad config, unknown agent, a store that does not parse)
  2   bad usage (unknown option, conflicting options)
  75  another run holds the store lock

\b
Files:
  ~/.openclaw/agents/<id>/sessions/sessions.json  the session store, written atomically
  sessions.json.bak*, sessions.json.last-good     backups read for the keys
  <id>.trajectory.jsonl                           the trajectory sidecar read for the key
  sessions.json.lock                              the store lock"""


@app.command("recover", cls=HelpCommand, short_help="Put orphan transcripts back into sessions.json.",
             epilog=RECOVER_EPILOG)
def recover_cmd(
    ctx: typer.Context,
    agent: str = typer.Option(None, "--agent", metavar="ID",
                              help="Agent id to recover (default: configured default agent)"),
    all_agents: bool = typer.Option(False, "--all-agents", help="Every configured agent's session folder"),
    dry_run: bool = typer.Option(False, "--dry-run", help="Show what would be recovered; change nothing"),
    json_out: bool = typer.Option(False, "--json", help="Output as JSON"),
    wait: float = typer.Option(10.0, "--wait", metavar="SECONDS", min=0,
                               help="How long to wait for another run's store lock"),
) -> None:
    """Put orphan transcripts back into sessions.json instead of archiving them.

    Each unreferenced <sessionId>.jsonl with a valid header gets an entry: its key from a
    sessions.json backup (.bak.*, .last-good) or the trajectory sidecar, else
    agent:<agentId>:recovered:<sessionId>; updatedAt from its last entry; a label from its first
    user message. Written atomically under the store lock; no transcript is touched. Refused while
    a Gateway runs (it owns the store).
    """
    from openclaw_cli.commands.sessions_recover import run_recover_command

    parent = ctx.obj or {}
    run_recover_command(agent=agent if agent is not None else parent.get("agent"),
                        all_agents=all_agents or bool(parent.get("all_agents")), dry_run=dry_run,
                        json_out=json_out or bool(parent.get("json")), wait_s=wait)


compact_cli.register(app)

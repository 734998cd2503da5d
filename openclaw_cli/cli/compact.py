"""`openclaw compact KEY`, registered at the top level and as `openclaw sessions compact KEY`."""

from __future__ import annotations

import typer

HELP = ("Compact a stored session transcript: through the running Gateway, or directly on the files "
        "when none runs.")

EPILOG = """\b
Examples:
  openclaw compact "agent:main:main"
      Summarise older turns (the Gateway's model; without a Gateway: an extractive summary).
  openclaw compact main --max-lines 200
      Keep the header and the newest records, 200 lines in all; the original becomes *.bak.<time>.
  openclaw compact main --dry-run
      Show the cut point, what would be summarised and the tokens before/after; write nothing.
  openclaw compact main --offline --summarizer openai --base-url http://127.0.0.1:8000/v1 --model m
      Summarise with any OpenAI-compatible endpoint (key from --api-key-env NAME), no Gateway.
  openclaw compact main --offline --summary-file notes.md
      Use a summary written elsewhere ("-" reads standard input).
  openclaw sessions compact "agent:work:main" --agent work --json
      The same command under `sessions`; --json prints the sessions.compact reply.

Without --dry-run, --offline or an offline-only option (--summarizer, --base-url, --model,
--api-key-env, --summary-file), a running Gateway does the work, as with OpenClaw's CLI;
when nothing listens at the local Gateway address, the files are compacted here, as the
Gateway would compact them (the transcript is only appended to; replaced by rename after the
archive exists, or when an old format is migrated). A compaction that would not shrink the
context is not written.

\b
Exit codes:
  0   compacted, or nothing to do (no transcript yet, or it already fits --max-lines)
  1   compaction failed (an unknown session, a model or file error, a Gateway that refuses,
      nothing to compact, or a result that would not shrink the context)
  2   bad usage (unknown option, bad value, conflicting options, an empty KEY)
  75  a live process holds the transcript lock

\b
Files:
  ~/.openclaw/agents/<id>/sessions/sessions.json  the session store (the entry's new counts)
  ~/.openclaw/agents/<id>/sessions/<id>.jsonl     the transcript (--max-lines keeps a .bak.<time>)
  <transcript>.lock                               the write lock the Gateway also takes
"""

# parent `sessions` options OpenClaw refuses for `sessions compact`, in its order
REFUSED_PARENT_OPTIONS = (("store", "--store"), ("all_agents", "--all-agents"), ("active", "--active"),
                          ("limit", "--limit"), ("verbose", "--verbose"))


def compact(
    ctx: typer.Context,
    key: str = typer.Argument(..., metavar="KEY", help="Session key (e.g. agent:main:main, or main)"),
    agent: str = typer.Option(None, "--agent", metavar="ID",
                              help="Agent id that owns the session (required for global keys)"),
    max_lines: str = typer.Option(None, "--max-lines", metavar="COUNT",
                                  help="Truncate to the last N transcript lines instead of LLM summarization"),
    json_out: bool = typer.Option(False, "--json", help="Output JSON"),
    url: str = typer.Option(None, "--url", metavar="URL",
                            help="Gateway WebSocket URL (defaults to gateway.remote.url when configured)"),
    token: str = typer.Option(None, "--token", metavar="TOKEN", help="Gateway token (if required)"),
    password: str = typer.Option(None, "--password", metavar="PASSWORD", help="Gateway password (password auth)"),
    timeout: str = typer.Option(None, "--timeout", metavar="MS",
                                help="RPC timeout in milliseconds (defaults to no client deadline)"),
    dry_run: bool = typer.Option(False, "--dry-run",
                                 help="Plan on the local files and report; write nothing, call no model"),
    offline: bool = typer.Option(False, "--offline", help="Never use a Gateway; compact the local files"),
    summarizer: str = typer.Option(None, "--summarizer", metavar="NAME",
                                   help="Offline summary source: extractive (default, no model) or openai"),
    base_url: str = typer.Option(None, "--base-url", metavar="URL",
                                 help="OpenAI-compatible endpoint for --summarizer openai (default: the "
                                      "session's configured provider)"),
    model: str = typer.Option(None, "--model", metavar="ID",
                              help="Model for --summarizer openai (default: the session's model)"),
    api_key_env: str = typer.Option(None, "--api-key-env", metavar="NAME",
                                    help="Environment variable holding the API key for --summarizer openai"),
    summary_file: str = typer.Option(None, "--summary-file", metavar="PATH",
                                     help='Use this summary (a file, or "-" for standard input); offline'),
) -> None:
    """Compact a stored session transcript."""
    from openclaw_cli.commands.compact import CompactRequest, run_compact_command

    parent = ctx.parent.params if ctx.parent is not None else {}
    is_sessions = "store" in parent
    refused = [flag for name, flag in REFUSED_PARENT_OPTIONS
               if is_sessions and parent.get(name) not in (None, False)]
    if is_sessions:
        agent = agent if agent is not None else parent.get("agent")
        json_out = json_out or bool(parent.get("json_out"))
    request = CompactRequest(
        key=key, agent=agent, max_lines=max_lines, json=json_out, url=url, token=token, password=password,
        timeout=timeout, dry_run=dry_run, offline=offline, summarizer=summarizer, base_url=base_url,
        model=model, api_key_env=api_key_env, summary_file=summary_file, refused_parent_options=refused)
    code = run_compact_command(request)
    if code:
        raise typer.Exit(code)


def register(app: typer.Typer) -> None:
    """Add `compact` to a Typer app (the root and the `sessions` group share the function)."""
    from openclaw_cli.cli.help import Command

    app.command("compact", cls=Command, help=HELP, short_help="Compact a long session, through the Gateway or offline.",
                epilog=EPILOG)(compact)

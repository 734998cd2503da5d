"""`openclaw context` group: list, detail, json and map of what fills a session's context window."""

from __future__ import annotations

import typer

EPILOG = """\b
Examples:
  openclaw context list                       The main session of the default agent.
  openclaw context detail --session agent:work:main
  openclaw context json --offline             From the files, even while a Gateway runs.
  openclaw context map --output window.png    A treemap image of the window.

\b
Exit codes:
  0   success
  1   error (an unknown --session or agent, bad config, unreadable files, a Gateway that refuses)
  2   bad usage (unknown option or sub-command)

\b
Files:
  ~/.openclaw/openclaw.json                       the config (agents, workspaces, limits)
  ~/.openclaw/agents/<id>/sessions/sessions.json  the session store; transcripts beside it
  the agent's workspace                           AGENTS.md, SOUL.md, ... and skills
"""

app = typer.Typer(
    short_help="Show what fills a session's context window.",
    epilog=EPILOG,
    help="Show what fills a session's context window (like the /context chat command), "
         "read from disk or from a running Gateway, without sending a chat turn.",
    no_args_is_help=True,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)

SESSION = typer.Option(None, "--session", metavar="KEY",
                       help="Session key (default: the agent's main session, agent:<id>:main)")
AGENT = typer.Option(None, "--agent", metavar="ID", help="Agent id (default: the configured default agent)")
TOKENIZER = typer.Option("estimate", "--tokenizer", metavar="NAME",
                         help="o200k_base or cl100k_base: exact token counts beside the chars/4 "
                              "estimates (offline); estimate: only the estimates")
OFFLINE = typer.Option(False, "--offline", help="Never ask a running Gateway; read everything from disk")
PLAIN = typer.Option(False, "--plain", help="Print only what the Gateway's /context prints (no extra lines)")
URL = typer.Option(None, "--url", metavar="URL", help="Gateway WebSocket URL (default: from config/env)")
TOKEN = typer.Option(None, "--token", metavar="TOKEN", help="Gateway token (if required)")
PASSWORD = typer.Option(None, "--password", metavar="PASSWORD", help="Gateway password (password auth)")
TIMEOUT = typer.Option(None, "--timeout", metavar="MS", help="Gateway timeout in ms (default 5000)")


EXIT_CODES = """\b
Exit codes:
  0   success (also: the default main session before its first run, shown as an estimate)
  1   error (an unknown --session or agent, bad config, unreadable files, a Gateway that refuses)
  2   bad usage (unknown option, bad --tokenizer, --timeout or --output)"""


def _run(mode: str, **kwargs) -> None:
    from openclaw_cli.commands.context import run_context_command

    run_context_command(mode, **kwargs)


@app.command("list", epilog=EXIT_CODES)
def list_cmd(session: str = SESSION, agent: str = AGENT, tokenizer: str = TOKENIZER, offline: bool = OFFLINE,
             plain: bool = PLAIN, url: str = URL, token: str = TOKEN, password: str = PASSWORD,
             timeout: str = TIMEOUT) -> None:
    """Short breakdown: workspace files, skills, tools, session tokens.

    \b
    Examples:
      openclaw context list
      openclaw context list --session agent:work:main --tokenizer o200k_base
    """
    _run("list", session=session, agent=agent, tokenizer=tokenizer, offline=offline, plain=plain,
         url=url, token=token, password=password, timeout=timeout)


@app.command("detail", short_help="Sizes per file, skill and tool, and the transcript.", epilog=EXIT_CODES)
def detail_cmd(session: str = SESSION, agent: str = AGENT, tokenizer: str = TOKENIZER, offline: bool = OFFLINE,
               plain: bool = PLAIN, url: str = URL, token: str = TOKEN, password: str = PASSWORD,
               timeout: str = TIMEOUT) -> None:
    """Per-file, per-skill and per-tool sizes, compactable transcript counts, and a transcript
    breakdown by role with the largest tool results and what a compaction would free.

    \b
    Examples:
      openclaw context detail
      openclaw context detail --offline --tokenizer cl100k_base
    """
    _run("detail", session=session, agent=agent, tokenizer=tokenizer, offline=offline, plain=plain,
         url=url, token=token, password=password, timeout=timeout)


@app.command("json", short_help="The report and session counters as JSON.", epilog=EXIT_CODES)
def json_cmd(session: str = SESSION, agent: str = AGENT, offline: bool = OFFLINE, url: str = URL,
             token: str = TOKEN, password: str = PASSWORD, timeout: str = TIMEOUT) -> None:
    """The report and session counters as JSON ({report, session}); unknown values are null.

    \b
    Examples:
      openclaw context json | jq .report.injectedWorkspaceFiles
    """
    _run("json", session=session, agent=agent, tokenizer="estimate", offline=offline, plain=True,
         url=url, token=token, password=password, timeout=timeout)


@app.command("map", short_help="A treemap of what fills the window.", epilog=EXIT_CODES)
def map_cmd(session: str = SESSION, agent: str = AGENT, output: str = typer.Option(
                None, "--output", "-o", metavar="FILE",
                help="Write a treemap image: .png (1280x860) or .svg; without it, draw at the terminal"),
            offline: bool = OFFLINE, url: str = URL, token: str = TOKEN, password: str = PASSWORD,
            timeout: str = TIMEOUT) -> None:
    """A treemap of what fills the window (WinDirStat style).

    \b
    Examples:
      openclaw context map
      openclaw context map --output context.png
    """
    _run("map", session=session, agent=agent, tokenizer="estimate", offline=offline, plain=False,
         url=url, token=token, password=password, timeout=timeout, output=output)

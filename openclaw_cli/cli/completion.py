"""`openclaw completion bash|zsh|fish`: print a shell completion script."""

from __future__ import annotations

import sys

import typer

EPILOG = """\b
Examples:
  openclaw completion bash > ~/.local/share/bash-completion/completions/openclaw
      Install for bash (loaded on first use when bash-completion is installed).
  source <(openclaw completion bash)
      Complete in the current bash session only.
  openclaw completion zsh > "${fpath[1]}/_openclaw"
      Install for zsh (any folder on $fpath); start a new zsh to use it.
  openclaw completion fish > ~/.config/fish/completions/openclaw.fish
      Install for fish.

\b
Exit codes:
  0   success
  2   bad usage (an unknown shell or option)
"""

app = typer.Typer(
    help="Print the completion script for bash, zsh or fish.",
    epilog=EPILOG,
    no_args_is_help=True,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _shell_epilog(example: str) -> str:
    return f"""\b
Examples:
  {example}

\b
Exit codes:
  0   success
  2   bad usage (an unknown option)
"""


def _print(shell: str) -> None:
    from openclaw_cli.cli.docsgen.generate import completion_script

    sys.stdout.write(completion_script(shell))


@app.command("bash", epilog=_shell_epilog("openclaw completion bash > ~/.local/share/bash-completion/completions/openclaw"))
def bash_cmd() -> None:
    """Print the bash completion script."""
    _print("bash")


@app.command("zsh", epilog=_shell_epilog('openclaw completion zsh > "${fpath[1]}/_openclaw"'))
def zsh_cmd() -> None:
    """Print the zsh completion script."""
    _print("zsh")


@app.command("fish", epilog=_shell_epilog("openclaw completion fish > ~/.config/fish/completions/openclaw.fish"))
def fish_cmd() -> None:
    """Print the fish completion script."""
    _print("fish")


@app.command("agent-ids", hidden=True)
def agent_ids_cmd() -> None:
    """Print the configured agent ids, one a line (for completing --agent); nothing on any error."""
    try:
        from openclaw_cli.config.agents import list_agent_ids
        from openclaw_cli.config.load import load_config

        ids = list_agent_ids(load_config(strict=False).data)
    except Exception:
        return
    sys.stdout.write("".join(f"{agent_id}\n" for agent_id in ids))


@app.command("session-keys", hidden=True)
def session_keys_cmd(
    agent: str | None = typer.Option(None, "--agent", help="The agent whose keys to print (default: the default agent)."),
) -> None:
    """Print the agent's session keys, one a line (for completing KEY, --session and --active-key);
    read from its store without a Gateway; nothing on any error."""
    try:
        from openclaw_cli.config.load import load_config
        from openclaw_cli.store.session_keys import session_keys

        keys = session_keys(load_config(strict=False).data, agent)
    except Exception:
        return
    sys.stdout.write("".join(f"{key}\n" for key in keys if "\n" not in key))

"""Every generated shell file from the current CLI definition, by its path in the repository."""

from __future__ import annotations

from openclaw_cli.cli.docsgen.model import Command, load_cli

SHELLS = ("bash", "zsh", "fish")
COMPLETION_FILES = {"bash": "completions/openclaw.bash", "zsh": "completions/_openclaw",
                    "fish": "completions/openclaw.fish"}
MAN_DIR = "man"


def _version() -> str:
    from openclaw_cli import __version__

    return __version__


def completion_script(shell: str, cli: Command | None = None) -> str:
    """The completion script for `shell` (bash, zsh or fish)."""
    from openclaw_cli.cli.docsgen import bash, fish, zsh

    renderers = {"bash": bash.render, "zsh": zsh.render, "fish": fish.render}
    if shell not in renderers:
        raise ValueError(f"unknown shell {shell!r} (expected one of {', '.join(SHELLS)})")
    return renderers[shell](cli or load_cli(), _version())


def man_pages(cli: Command | None = None) -> dict[str, str]:
    """`{"openclaw.1": text, "openclaw-sessions.1": text, ...}`."""
    from openclaw_cli.cli.docsgen.man import render_all

    return render_all(cli or load_cli(), _version())


def generated_files(cli: Command | None = None) -> dict[str, str]:
    """`{"completions/openclaw.bash": text, ..., "man/openclaw.1": text, ...}`."""
    cli = cli or load_cli()
    files = {path: completion_script(shell, cli) for shell, path in COMPLETION_FILES.items()}
    files.update({f"{MAN_DIR}/{name}": text for name, text in man_pages(cli).items()})
    return files

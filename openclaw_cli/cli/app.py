"""Root `openclaw` command: global options, sub-command groups, error handling."""

from __future__ import annotations

import sys

import typer

from openclaw_cli import __version__
from openclaw_cli.cli import doctor as doctor_cli

app = typer.Typer(
    name="openclaw",
    help="Maintenance and inspection for OpenClaw session stores.",
    no_args_is_help=True,
    add_completion=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)
app.add_typer(doctor_cli.app, name="doctor")


def _version(value: bool) -> None:
    if value:
        typer.echo(f"openclaw_cli {__version__}")
        raise typer.Exit()


@app.callback()
def root(
    version: bool = typer.Option(False, "--version", "-V", callback=_version, is_eager=True,
                                 help="Print the version and exit."),
) -> None:
    """Maintenance and inspection for OpenClaw session stores."""


def main() -> None:
    app(prog_name="openclaw")


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

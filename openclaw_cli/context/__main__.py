"""`python -m openclaw_cli.context`: the context commands on their own, with the root's error rules."""

from __future__ import annotations

import os
import sys


def _click_exceptions():
    try:  # recent typer vendors click
        from typer._click import exceptions
    except ImportError:  # pragma: no cover - older typer with click installed
        from click import exceptions
    return exceptions


def main(argv: list[str] | None = None) -> None:
    import typer

    click_exc = _click_exceptions()
    from openclaw_cli.cli.context import app
    from openclaw_cli.errors import CliError

    try:
        app(args=argv, prog_name="openclaw context", standalone_mode=False)
    except CliError as err:
        sys.stderr.write(err.message.rstrip("\n") + "\n")
        sys.exit(err.exit_code)
    except typer.Exit as ex:
        sys.exit(ex.exit_code)
    except click_exc.ClickException as exc:
        exc.show()
        sys.exit(exc.exit_code)
    except typer.Abort:
        sys.stderr.write("aborted\n")
        sys.exit(1)
    except BrokenPipeError:
        sys.exit(1)
    except Exception as exc:  # noqa: BLE001 - one line, never a traceback
        if os.environ.get("OPENCLAW_CLI_LOG_LEVEL") == "debug":
            raise
        sys.stderr.write(f"openclaw: unexpected error: {type(exc).__name__}: {exc}\n")
        sys.exit(1)


if __name__ == "__main__":
    main()

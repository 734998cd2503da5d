"""Root `openclaw` command: global options, sub-command groups, error handling."""

from __future__ import annotations

import os
import sys
from typing import Any, NoReturn

import typer
from typer.core import TyperGroup

from openclaw_cli import __version__
from openclaw_cli.cli import compact as compact_cli
from openclaw_cli.cli import context as context_cli
from openclaw_cli.cli import doctor as doctor_cli
from openclaw_cli.cli import sessions as sessions_cli
from openclaw_cli.cli.help import defer_coercion, install_formatter

EPILOG = """\b
Examples:
  openclaw sessions                        Sessions of the default agent, newest first.
  openclaw sessions cleanup --dry-run      What maintenance would remove, and why.
  openclaw sessions disk                   What fills the session folders.
  openclaw context list                    What fills the main session's context window.
  openclaw compact agent:main:main         Compact a long session.
  openclaw doctor --lint --json            Health findings for monitoring.

\b
Exit codes:
  0   success
  1   error (bad config, unknown agent or session, corrupt store, a Gateway that refuses, I/O failure)
  2   bad usage (unknown option, bad value, conflicting options)
  75  a lock is busy (sessions cleanup: the store lock; compact: the transcript lock)

Other commands (config, gateway, agents, sessions tail, ...) run OpenClaw's own CLI
when it is installed ($OPENCLAW_CLI_UPSTREAM, else the next `openclaw` on PATH);
without it they exit 2.

\b
Files:
  ~/.openclaw/openclaw.json           the config ($OPENCLAW_CONFIG_PATH; ~/.openclaw-NAME with --profile)
  ~/.openclaw/agents/<id>/sessions/   each agent's sessions.json and its transcripts
  $OPENCLAW_STATE_DIR                 the state folder, instead of ~/.openclaw"""

COMMAND_ORDER = ("sessions", "context", "compact", "doctor", "completion")


class _OrderedGroup(TyperGroup):
    """The root's commands in the order `--help` teaches them, whether typer made them commands or groups."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        defer_coercion(self)  # typer builds the whole tree before the root: every command is here

    def list_commands(self, ctx) -> list[str]:
        names = super().list_commands(ctx)
        return sorted(names, key=lambda n: COMMAND_ORDER.index(n) if n in COMMAND_ORDER else len(COMMAND_ORDER))


app = typer.Typer(
    name="openclaw",
    cls=_OrderedGroup,
    epilog=EPILOG,
    help="Maintenance and inspection for OpenClaw session stores.\n\n"
         "Works directly on the files under ~/.openclaw, and hands work to a running "
         "OpenClaw Gateway where OpenClaw's own CLI does.",
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode=None,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)
install_formatter()
app.add_typer(sessions_cli.app, name="sessions")
app.add_typer(context_cli.app, name="context")
app.add_typer(__import__("openclaw_cli.cli.completion", fromlist=["app"]).app, name="completion")
compact_cli.register(app)
doctor_cli.register(app)


def _version(value: bool) -> None:
    if value:
        from openclaw_cli.cli import overlay

        typer.echo(f"openclaw_cli {__version__}")
        upstream = overlay.find_upstream()
        if upstream:
            typer.echo(overlay.upstream_version(upstream))
        raise typer.Exit()


@app.callback()
def root(
    profile: str = typer.Option(None, "--profile", metavar="NAME",
                                help="Use the profile's state dir (~/.openclaw-NAME) and config."),
    dev: bool = typer.Option(False, "--dev", help="Profile `dev` (state in ~/.openclaw-dev, gateway port 19001)."),
    no_color: bool = typer.Option(False, "--no-color", help="Never colour the output (NO_COLOR works too)."),
    log_level: str = typer.Option(None, "--log-level", metavar="LEVEL",
                                  help="Diagnostics: error, warn, info (the default) or debug."),
    version: bool = typer.Option(False, "--version", "-V", callback=_version, is_eager=True,
                                 help="Print the version and exit."),
) -> None:
    """Maintenance and inspection for OpenClaw session stores."""
    # --profile/--dev are taken out of argv (anywhere on the line) by main() before parsing.
    from openclaw_cli.errors import UsageError
    from openclaw_cli.ui import console

    if no_color:  # main() has reset it to False for this run
        console.set_no_color(True)
    if log_level is None:
        return
    if log_level not in console.LOG_LEVELS:
        raise UsageError(f"--log-level must be one of error, warn, info, debug (got {log_level!r})")
    console.set_log_level(log_level)
    if log_level in ("info", "debug"):
        import logging

        logging.basicConfig(stream=sys.stderr, format="%(levelname)s %(name)s: %(message)s",
                            level=logging.DEBUG if log_level == "debug" else logging.INFO)


def run() -> NoReturn:
    """The `openclaw` command (and `python -m openclaw_cli`): `main`, then the process ends without the
    interpreter's teardown, which would free every object of a large store one at a time (about 30 ms
    at 20,000 entries), once standard output and error are flushed and the exit handlers have run. A
    flush that fails, or a profiler or tracer that is watching (it writes its results at teardown),
    leaves the exit to the interpreter."""
    try:
        main()
        code: object = 0
    except SystemExit as exc:
        code = exc.code
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except Exception:
        sys.exit(code)  # type: ignore[arg-type]  # the code SystemExit carried
    if sys.getprofile() is not None or sys.gettrace() is not None:
        sys.exit(code)  # type: ignore[arg-type]
    if code is not None and not isinstance(code, int):
        sys.stderr.write(f"{code}\n")  # as the interpreter prints a message given to sys.exit
        sys.stderr.flush()
        code = 1
    import atexit

    atexit._run_exitfuncs()
    os._exit(code or 0)


def main(argv: list[str] | None = None) -> None:
    """`openclaw …`: one run, ending in SystemExit with its exit code."""
    import gc

    try:
        _run(argv)
    finally:
        gc.unfreeze()  # what the run froze (gcpause) is collected as usual again by a caller in this process


def _run(argv: list[str] | None) -> None:
    from typer._click import exceptions as click_exc

    from openclaw_cli.config.paths import apply_cli_profile, parse_cli_profile_args
    from openclaw_cli.errors import AgentDbRefusedError, CliError, ExpectedCliError, InvalidConfigError
    from openclaw_cli.ui.console import GuardedStream

    args = list(sys.argv[1:] if argv is None else argv)
    _hand_off_foreign(args)
    from openclaw_cli.ui import console, progress

    console.set_no_color(False)
    console.set_log_level("info")
    progress.enable(False)
    sys.stdout = GuardedStream(sys.stdout)
    try:
        profile, args = parse_cli_profile_args(args)
        apply_cli_profile(os.environ, profile, False)
        from typer.main import get_command

        from openclaw_cli.cli.argv import hoist_global_options

        command = get_command(app)
        code = command.main(hoist_global_options(command, args), prog_name="openclaw", standalone_mode=False)
        sys.stdout.flush()
    except InvalidConfigError as err:
        from openclaw_cli.ui.invalid_config import print_invalid_config

        _discard_unwritable_stdout()
        print_invalid_config(err.report, guarded=err.guarded, argv=args)
        sys.exit(err.exit_code)
    except AgentDbRefusedError as err:
        from openclaw_cli.ui.failure import json_requested, print_failure

        _discard_unwritable_stdout()
        print_failure(err.message, as_json=err.json_output or json_requested(args))
        sys.exit(err.exit_code)
    except ExpectedCliError as err:
        from openclaw_cli.ui.failure import json_requested, print_expected

        _discard_unwritable_stdout()
        print_expected(err.message, as_json=json_requested(args))
        sys.exit(err.exit_code)
    except CliError as err:
        _discard_unwritable_stdout()
        console.error_line(err.message.rstrip("\n"))
        if err.hint:
            console.hint(err.hint)
        sys.exit(err.exit_code)
    except click_exc.ClickException as exc:
        _usage_error(exc)
        sys.exit(exc.exit_code)
    except typer.Abort:
        console.error_line("aborted", ours=True)
        sys.exit(1)
    except KeyboardInterrupt:
        console.error_line("interrupted", ours=True)
        sys.exit(130)
    except BrokenPipeError:
        _discard_unwritable_stdout(force=True)
        sys.exit(1)
    except Exception as exc:
        if console.log_level() == "debug":
            raise
        console.error_line(f"unexpected error: {type(exc).__name__}: {exc}", ours=True)
        console.hint("run it again with --log-level debug for the traceback")
        sys.exit(1)
    sys.exit(code if isinstance(code, int) else 0)


def _hand_off_foreign(args: list[str]) -> None:
    """A command of OpenClaw's that we do not implement runs OpenClaw's own CLI in our place."""
    from openclaw_cli.cli import overlay
    from openclaw_cli.ui import console

    command = overlay.foreign_command(args)
    if command is None:
        return
    upstream = overlay.find_upstream()
    if upstream is not None:
        try:
            overlay.hand_off(upstream, args)
        except OSError as exc:
            console.error_line(f"cannot run OpenClaw's CLI at {upstream}: {exc.strerror or exc}", ours=True)
            sys.exit(1)
    if command.split()[0] in overlay.OPENCLAW_COMMANDS:
        console.error_line(overlay.missing_message(command), ours=True)
        sys.exit(2)


def _usage_error(exc) -> None:
    """Arguments typer rejected: `error: …`, then where the usage is explained (`hint: …`)."""
    from typer._click import exceptions as click_exc

    from openclaw_cli.ui import console

    console.error_line(exc.format_message(), ours=True)
    ctx = getattr(exc, "ctx", None)
    if isinstance(exc, click_exc.UsageError) and ctx is not None:
        console.hint(f"'{ctx.command_path} --help' shows the usage and examples")


def _discard_unwritable_stdout(force: bool = False) -> None:
    """After a failed write to stdout, drop what is still buffered (so exiting prints no second error)."""
    if not force:
        try:
            sys.stdout.flush()
            return
        except Exception:
            pass
    sys.stdout = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115 - used until the exit


if __name__ == "__main__":  # pragma: no cover
    main()

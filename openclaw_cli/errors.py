"""Error types and the exit codes every command shares."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from openclaw_cli.config.invalid import InvalidReport

EXIT_OK = 0
EXIT_ERROR = 1
EXIT_USAGE = 2
EXIT_LOCKED = 75  # EX_TEMPFAIL: another maintenance run holds the store lock


class CliError(Exception):
    """An error meant for the user: printed as one line (no traceback), then exit."""

    exit_code = EXIT_ERROR

    def __init__(self, message: str, exit_code: int | None = None, hint: str | None = None):
        super().__init__(message)
        self.message = message
        self.hint = hint
        if exit_code is not None:
            self.exit_code = exit_code


class UsageError(CliError):
    exit_code = EXIT_USAGE


class ConfigError(CliError):
    """The OpenClaw config file cannot be read, parsed or validated."""


class InvalidConfigError(ConfigError):
    """An invalid config, with what the release of its era needs to report it (`report`,
    config/invalid.py). `message` keeps the one-line form; ui/invalid_config.py prints 2026.7.1's or
    2026.9.6's. `guarded` is False where 2026.9.6 reads the config in the command itself
    (`openclaw sessions`) rather than in the check it runs before most commands."""

    def __init__(self, message: str, report: InvalidReport):
        super().__init__(message)
        self.report = report
        self.guarded = True


class ExpectedCliError(CliError):
    """A refusal 2026.9.6 reports as its ExpectedCliError: the message alone on stderr and, with
    `--json`, its failure document on stdout (ui/failure.py)."""


class StoreError(CliError):
    """A sessions.json that cannot be used safely (corrupt, not an object, unreadable)."""


class AgentDbRefusedError(StoreError):
    """An agent database 2026.9.6 refuses to open for the requested agent (another agent owns it, it
    names no owner, or its role is not an agent's), in 2026.9.6's words; printed as 2026.9.6's
    failure lines (ui/failure.py), with `--json` its failure document."""

    def __init__(self, message: str):
        super().__init__(message)
        self.json_output = False  # set by a command whose output is JSON without `--json` (`context json`)


class LockBusyError(CliError):
    exit_code = EXIT_LOCKED

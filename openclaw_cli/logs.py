"""The package's loggers: silent (never Python's last-resort handler) until `--log-level info|debug` installs one."""

from __future__ import annotations

import logging

logging.getLogger("openclaw_cli").addHandler(logging.NullHandler())


def get_logger(name: str) -> logging.Logger:
    """`logging.getLogger(name)`, for a name under `openclaw_cli`."""
    return logging.getLogger(name)

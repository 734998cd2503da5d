"""openclaw_cli: maintenance and inspection for OpenClaw session stores."""

import logging as _logging

__version__ = "0.1.0"

# Library log records never reach the console by accident (Python's last-resort handler);
# `--log-level info|debug` installs a real handler.
_logging.getLogger("openclaw_cli").addHandler(_logging.NullHandler())

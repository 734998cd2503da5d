"""openclaw_cli: maintenance and inspection for OpenClaw session stores."""

__version__ = "0.1.0"

# Loggers come from openclaw_cli/logs.py, which keeps library records off the console until
# `--log-level info|debug` installs a handler (logging itself is loaded only where something logs).

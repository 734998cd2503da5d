"""openclaw_cli: maintenance and inspection for OpenClaw session stores."""

__version__ = "0.1.0"

"""Entry point for `python -m openclaw_cli`."""

from openclaw_cli.cli.app import run

if __name__ == "__main__":
    run()

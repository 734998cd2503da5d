"""Entry point for `python -m openclaw_cli`."""

from openclaw_cli.cli.app import main

if __name__ == "__main__":
    main()

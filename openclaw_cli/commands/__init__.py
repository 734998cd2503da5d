"""Command implementations, independent of argument parsing."""

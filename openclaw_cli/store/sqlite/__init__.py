"""The SQLite-era agent database (OpenClaw 2026.8+), read only: connection, entries, transcripts."""

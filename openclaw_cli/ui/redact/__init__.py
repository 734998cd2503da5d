"""Console redaction of secrets: the engine and OpenClaw's default patterns."""

"""Transcript health: `sessions verify` (findings), `sessions repair` (the Gateway's load-time hygiene
persisted) and `sessions recover` (orphan transcripts put back into sessions.json)."""

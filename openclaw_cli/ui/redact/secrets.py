"""Known secret values (a token, a password) blanked out of our own messages before they are shown."""

from __future__ import annotations

from collections.abc import Iterable

REDACTED = "***"


def scrub(text: str, secrets: Iterable[str | None]) -> str:
    """Replace every occurrence of each secret in `text` with a placeholder (longest first)."""
    for secret in sorted({s for s in secrets if s}, key=len, reverse=True):
        text = text.replace(secret, REDACTED)
    return text

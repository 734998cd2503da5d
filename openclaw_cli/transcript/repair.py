"""Entries as OpenClaw 2026.7.1 reads them after its session-file repair (`session-file-repair`).

Before every compaction the Gateway repairs the transcript: message entries without a role are
dropped, an errored assistant turn with no content gets a placeholder text, blank user text
becomes `(continue)` (empty text blocks are removed) and an image whose base64 does not decode
to an image becomes a placeholder text. `repair_record` gives the same entry in memory; the
file itself is left as it is.
"""

from __future__ import annotations

import base64
import binascii
import re
from typing import Any

from openclaw_cli.js.strings import js_trim

STREAM_ERROR_FALLBACK_TEXT = "[assistant turn failed before producing content]"
BLANK_USER_FALLBACK_TEXT = "(continue)"
CORRUPTED_IMAGE_FALLBACK_TEXT = "[image omitted: corrupted base64 payload]"
_IMAGE_MIME = re.compile(r"^image/", re.IGNORECASE)
_SIGNATURE_PREFIX_CHARS = 128
_HEIC_BRANDS = frozenset({"heic", "heix", "hevc", "hevx", "heis", "heim", "hevm", "hevs"})
_HEIF_BRANDS = frozenset({"mif1", "msf1"})

DROPPED = None  # what repair_record returns for an entry the repair removes


def is_structurally_invalid_message(record: Any) -> bool:
    """A `message` entry whose message is not an object or has no non-empty string role."""
    if not isinstance(record, dict) or record.get("type") != "message":
        return False
    message = record.get("message")
    if not isinstance(message, dict):
        return True
    role = message.get("role")
    return not isinstance(role, str) or not js_trim(role)


def canonical_base64(value: str) -> str | None:
    """`canonicalizeBase64`: whitespace dropped, alphabet and padding checked, padding added."""
    out: list[str] = []
    padding = 0
    for ch in value:
        code = ord(ch)
        if code <= 32:
            continue
        if ch == "=":
            padding += 1
            if padding > 2:
                return None
            out.append("=")
            continue
        if padding or not (ch.isascii() and (ch.isalnum() or ch in "+/")):
            return None
        out.append(ch)
    if not out:
        return None
    remainder = len(out) % 4
    if remainder:
        if padding or remainder == 1:
            return None
        out.append("=" * (4 - remainder))
    return "".join(out)


def _sniff_image(data: bytes) -> bool:
    if data[:8] == b"\x89PNG\r\n\x1a\n" or data[:3] == b"\xff\xd8\xff" or data[:2] == b"BM":
        return True
    if len(data) >= 12 and data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return True
    if data[:6] in (b"GIF87a", b"GIF89a"):
        return True
    if len(data) >= 12 and data[4:8] == b"ftyp":
        brands = [data[8:12]] + [data[i:i + 4] for i in range(16, len(data) - 3, 4)]
        names = {bytes(c & 0x7F for c in b).decode("ascii") for b in brands}  # Node's "ascii"
        return bool(names & (_HEIC_BRANDS | _HEIF_BRANDS))
    return False


def is_corrupted_image_block(block: Any) -> bool:
    """An image block with an image MIME type whose data is not base64 of a known image format."""
    if not isinstance(block, dict) or block.get("type") != "image" or not isinstance(block.get("data"), str):
        return False
    mime = next((v for v in (block.get("mimeType"), block.get("mediaType"), block.get("media_type"))
                 if isinstance(v, str) and _IMAGE_MIME.match(js_trim(v))), None)
    if mime is None:
        return False
    data = block["data"]
    if not data.isascii():
        return True
    canonical = canonical_base64(data)
    if canonical is None:
        return True
    try:
        head = base64.b64decode(canonical[:_SIGNATURE_PREFIX_CHARS])
    except (binascii.Error, ValueError):
        return True
    return not _sniff_image(head)


def _repair_images(record: dict) -> dict:
    content = record["message"].get("content")
    if not isinstance(content, list) or not any(is_corrupted_image_block(b) for b in content):
        return record
    fixed = [{"type": "text", "text": CORRUPTED_IMAGE_FALLBACK_TEXT} if is_corrupted_image_block(b) else b
             for b in content]
    return {**record, "message": {**record["message"], "content": fixed}}


def _blank_text(block: Any) -> bool:
    return (isinstance(block, dict) and block.get("type") == "text" and isinstance(block.get("text"), str)
            and not js_trim(block["text"]))


def _repair_blank_user(record: dict) -> dict:
    message = record["message"]
    content = message.get("content")
    if isinstance(content, str):
        if js_trim(content):
            return record
        return {**record, "message": {**message, "content": BLANK_USER_FALLBACK_TEXT}}
    if not isinstance(content, list):
        return record
    kept = [b for b in content if not _blank_text(b)]
    if not kept:
        return {**record, "message": {**message, "content": [{"type": "text", "text": BLANK_USER_FALLBACK_TEXT}]}}
    if len(kept) == len(content):
        return record
    return {**record, "message": {**message, "content": kept}}


def repair_record(record: Any) -> Any:
    """The record as the repair leaves it, `DROPPED` (None) for one it removes; unchanged
    records are returned as they are (the same object)."""
    if is_structurally_invalid_message(record):
        return DROPPED
    if not isinstance(record, dict) or record.get("type") != "message":
        return record
    message = record["message"]
    if (message.get("role") == "assistant" and isinstance(message.get("content"), list)
            and not message["content"] and message.get("stopReason") == "error"):
        return {**record, "message": {**message, "content": [{"type": "text", "text": STREAM_ERROR_FALLBACK_TEXT}]}}
    record = _repair_images(record)
    if record["message"].get("role") == "user":
        record = _repair_blank_user(record)
    return record

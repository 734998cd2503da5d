"""A minimal OpenAI-compatible chat-completions client on `urllib` (streaming SSE or JSON)."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Iterable
from typing import Any

from openclaw_cli.errors import CliError
from openclaw_cli.js import json as jsjson


class ModelRequestError(CliError):
    """The model endpoint failed or answered with an error."""


def is_http_url(value: str) -> bool:
    """An http(s) URL with a host (and, if given, a valid port)."""
    from urllib.parse import urlsplit

    try:
        parts = urlsplit(value.strip())
        parts.port  # noqa: B018 - raises ValueError for a bad port
    except ValueError:
        return False
    return parts.scheme in ("http", "https") and bool(parts.hostname)


def chat_completions_url(base_url: str) -> str:
    return base_url.rstrip("/") + "/chat/completions"


def _sse_events(lines: Iterable[bytes]) -> Iterable[str]:
    data: list[str] = []
    for raw in lines:
        line = raw.decode("utf-8", "replace").rstrip("\r\n")
        if not line:
            if data:
                yield "\n".join(data)
                data = []
            continue
        if line.startswith("data:"):
            data.append(line[5:].lstrip(" ") if line[5:6] == " " else line[5:])
    if data:
        yield "\n".join(data)


def _raise_for_error(payload: Any) -> None:
    if isinstance(payload, dict) and payload.get("error"):
        error = payload["error"]
        message = error.get("message") if isinstance(error, dict) else str(error)
        raise ModelRequestError(f"model request failed: {message}")


def post_chat_completion(base_url: str, body: dict[str, Any], *, api_key: str | None,
                         timeout: float = 300.0) -> str:
    """POST `body`; return the assistant text (all text deltas joined)."""
    data = jsjson.stringify(body).encode("utf-8")
    headers = {"Content-Type": "application/json", "Accept": "text/event-stream, application/json"}
    if api_key:
        headers["Authorization"] = f"Bearer {api_key}"
    url = chat_completions_url(base_url)
    try:
        request = urllib.request.Request(url, data=data, headers=headers, method="POST")
    except ValueError as exc:
        raise ModelRequestError(f"model request failed: {url} is not a usable URL ({exc})") from None
    try:
        response = urllib.request.urlopen(request, timeout=timeout)
    except urllib.error.HTTPError as exc:
        detail = exc.read().decode("utf-8", "replace")[:500]
        try:
            _raise_for_error(json.loads(detail))
        except (ValueError, TypeError):
            pass
        raise ModelRequestError(f"model request failed: HTTP {exc.code} {detail.strip()}") from None
    except (urllib.error.URLError, OSError) as exc:
        reason = getattr(exc, "reason", exc)
        raise ModelRequestError(f"model request failed: {reason}") from None
    except ValueError as exc:  # a URL urllib cannot use (bad host or port)
        raise ModelRequestError(f"model request failed: {url} is not a usable URL ({exc})") from None
    with response:
        content_type = response.headers.get("Content-Type", "")
        if "text/event-stream" not in content_type:
            try:
                payload = json.loads(response.read().decode("utf-8", "replace") or "null")
            except ValueError:
                raise ModelRequestError(f"model response from {url} is not JSON") from None
            _raise_for_error(payload)
            try:
                content = payload["choices"][0]["message"].get("content")
            except (KeyError, IndexError, TypeError, AttributeError):
                raise ModelRequestError("model response has no choices") from None
            return content if isinstance(content, str) else ""
        parts: list[str] = []
        for event in _sse_events(response):
            if event.strip() == "[DONE]":
                break
            try:
                payload = json.loads(event)
            except ValueError:
                continue
            _raise_for_error(payload)
            for choice in payload.get("choices") or []:
                delta = choice.get("delta") if isinstance(choice, dict) else None
                text = delta.get("content") if isinstance(delta, dict) else None
                if isinstance(text, str):
                    parts.append(text)
        return "".join(parts)

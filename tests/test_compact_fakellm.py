"""A loopback OpenAI-compatible chat-completions server that records requests (for tests)."""

from __future__ import annotations

import json
import threading
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

HISTORY_REPLY = "FAKE-LLM COMPACTION SUMMARY\n\n## Goal\n- Test the offline compaction.\n"
PREFIX_REPLY = "FAKE-LLM TURN-PREFIX SUMMARY\n\n## Original Request\n- A tool call.\n"


SAFEGUARD_MARK = "Produce a compact, factual summary with these exact section headings:"


def safeguard_reply(text: str) -> str:
    """Safeguard prompts: a reply that fails the quality guard, and after its feedback one that
    passes (the five sections, the conversation copied under Exact identifiers)."""
    if "Previous summary failed quality checks" not in text:
        return HISTORY_REPLY
    conversation = text.split("<conversation>\n", 1)[-1].split("\n</conversation>", 1)[0]
    return ("## Decisions\n- Kept as discussed.\n\n## Open TODOs\n- None.\n\n## Constraints/Rules\n- None.\n\n"
            "## Pending user asks\n- See below.\n\n## Exact identifiers\n" + conversation[-600:])


def reply_for(body: dict[str, Any]) -> str:
    """Summaries for summarisation prompts, a short echo for ordinary chat turns."""
    messages = body.get("messages") or []
    system = messages[0].get("content") if messages else ""
    last = messages[-1].get("content") if messages else ""
    text = last if isinstance(last, str) else "".join(
        part.get("text", "") for part in last if isinstance(part, dict))
    if isinstance(system, str) and system.startswith("You are a context summarization assistant"):
        if SAFEGUARD_MARK in text:
            return safeguard_reply(text)
        return PREFIX_REPLY if "This is the PREFIX of a turn" in text else HISTORY_REPLY
    return f"fake-llm reply: {text[:60]}"


class FakeLLM:
    """`with FakeLLM() as llm:` serves `llm.base_url` (…/v1); `llm.requests` holds the bodies."""

    def __init__(self, stream: bool = True):
        self.requests: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        self.stream = stream
        self.fail_with: int | None = None
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_GET(self) -> None:  # model listing probes
                payload = json.dumps({"object": "list", "data": [{"id": "fake-model", "object": "model"}]}).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(length) or b"{}")
                outer.requests.append({"path": self.path, "body": body})
                outer.headers.append(dict(self.headers))
                if outer.fail_with:
                    payload = json.dumps({"error": {"message": "upstream exploded"}}).encode()
                    self.send_response(outer.fail_with)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(payload)))
                    self.end_headers()
                    self.wfile.write(payload)
                    return
                text = reply_for(body)
                if body.get("stream") and outer.stream:
                    self.send_response(200)
                    self.send_header("Content-Type", "text/event-stream")
                    self.end_headers()
                    base = {"id": "chatcmpl-fake", "object": "chat.completion.chunk", "created": 1,
                            "model": body.get("model")}
                    for i in range(0, len(text), 16):
                        chunk = dict(base, choices=[{"index": 0, "delta": {"content": text[i:i + 16]},
                                                     "finish_reason": None}])
                        self.wfile.write(f"data: {json.dumps(chunk)}\n\n".encode())
                    done = dict(base, choices=[{"index": 0, "delta": {}, "finish_reason": "stop"}])
                    self.wfile.write(f"data: {json.dumps(done)}\n\n".encode())
                    usage = dict(base, choices=[], usage={"prompt_tokens": 10, "completion_tokens": 5,
                                                          "total_tokens": 15})
                    self.wfile.write(f"data: {json.dumps(usage)}\n\ndata: [DONE]\n\n".encode())
                    return
                payload = json.dumps({"id": "chatcmpl-fake", "object": "chat.completion",
                                      "choices": [{"index": 0, "message": {"role": "assistant", "content": text},
                                                   "finish_reason": "stop"}],
                                      "usage": {"prompt_tokens": 10, "completion_tokens": 5,
                                                "total_tokens": 15}}).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self._server.server_address[1]
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def summarization_requests(self) -> list[dict[str, Any]]:
        return [r for r in self.requests
                if str(r["body"].get("messages", [{}])[0].get("content", "")).startswith(
                    "You are a context summarization assistant")]

    def __enter__(self) -> FakeLLM:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()


def test_fake_llm_streams_and_records() -> None:
    from openclaw_cli.compact.summarizers.http import post_chat_completion

    with FakeLLM() as llm:
        body = {"model": "m", "messages": [{"role": "system", "content": "You are a context summarization assistant."},
                                           {"role": "user", "content": [{"type": "text", "text": "x"}]}],
                "stream": True}
        assert post_chat_completion(llm.base_url, body, api_key="k") == HISTORY_REPLY
        assert llm.headers[0]["Authorization"] == "Bearer k"
    with FakeLLM(stream=False) as llm:
        assert post_chat_completion(llm.base_url, body, api_key=None) == HISTORY_REPLY
        with urllib.request.urlopen(llm.base_url + "/models") as resp:
            assert json.load(resp)["data"][0]["id"] == "fake-model"

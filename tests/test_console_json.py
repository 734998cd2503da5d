"""A document whose last member is a long list is printed a few items at a time, with exactly the bytes
`print_json` prints for the whole document."""

import io
import random

import pytest

from openclaw_cli.ui import console

ITEMS = [
    {"key": "agent:main:main", "updatedAt": 1760000000000, "ageMs": 12, "flags": ["system", "id:abc"]},
    {"text": "line one\nline two\ttab \"quoted\" \\ back", "nested": {"deep": [1, [2, {"x": None}]], "e": {}}},
    {"small": 1e-06, "tiny": 5.5e-06, "big": 1e21, "neg": -0.5, "zero": 0, "list": []},
    {"unicode": "héllo ✓ 🦀", "lone": "\ud800 alone", "control": "\x00\x1f"},
    "a bare string",
    None,
    [1, 2, 3],
    {"1": "one", "123": "index-like keys first, as JavaScript orders them", "b": 2},
]


def _whole(head: dict, key: str, items: list) -> str:
    out = io.StringIO()
    console.print_json({**head, key: items}, out=out)
    return out.getvalue()


def _streamed(head: dict, key: str, items, chunk: int) -> str:
    out = io.StringIO()
    console.print_json_ending_in_list(head, key, items, out=out, chunk=chunk)
    return out.getvalue()


@pytest.mark.parametrize("count", [0, 1, 2, 3, 5, 8])
@pytest.mark.parametrize("chunk", [1, 2, 3, 500])
def test_the_streamed_document_equals_the_whole_one(count, chunk):
    head = {"path": "/home/me/.openclaw/agents/main/sessions/sessions.json", "count": count, "hasMore": False,
            "limitApplied": None}
    items = ITEMS[:count]
    assert _streamed(head, "sessions", iter(items), chunk) == _whole(head, "sessions", items)


@pytest.mark.parametrize("count", [0, 4])
def test_an_empty_head_gives_the_list_alone(count):
    assert _streamed({}, "sessions", ITEMS[:count], 2) == _whole({}, "sessions", ITEMS[:count])


def test_random_rows_stream_as_they_print_whole():
    rng = random.Random(7)
    rows = [{"key": f"agent:main:k{i}", "n": rng.randint(-10**12, 10**12), "f": rng.random() * 10 ** rng.randint(-8, 22),
             "s": "".join(chr(rng.choice([0x20, 0x41, 0x0a, 0xe9, 0x1f600, 0x22, 0x5c])) for _ in range(6))}
            for i in range(1234)]
    head = {"path": None, "stores": [{"agentId": "main", "path": "/p"}], "allAgents": True}
    assert _streamed(head, "sessions", iter(rows), 500) == _whole(head, "sessions", rows)


def test_a_key_json_would_move_is_refused():
    with pytest.raises(AssertionError):
        _streamed({"a": 1}, "7", [], 2)

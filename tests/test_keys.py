"""Session-key grammar: synthetic vs protected keys, model-run probes, dm-scope retirement."""

import pytest

from openclaw_cli.store import keys

UUID = "0f8fad5b-d9cb-469f-a165-70867728950e"


@pytest.mark.parametrize("key,expected", [
    ("agent:main:subagent:abc", True),
    ("subagent:abc", True),
    ("agent:main:acp:x", True),
    ("acp:x", True),
    ("agent:main:acp-bridge:x", True),
    ("agent:main:cron:job1", True),
    ("agent:main:cron:job1:run:s1", True),
    ("agent:main:hook:" + UUID, True),
    ("agent:main:node:n1", True),
    ("agent:main:heartbeat", True),
    ("agent:main:slack:heartbeat", True),
    ("agent:main:x:heartbeat:y", True),
    ("agent:main:main", False),
    ("agent:main:telegram:group:1", False),
    ("cron:job1", False),  # not agent-scoped: isCronSessionKey needs agent:<id>:
])
def test_synthetic_keys(key, expected):
    assert keys.is_synthetic_key(key) is expected


@pytest.mark.parametrize("key,entry,expected", [
    ("agent:main:slack:channel:C123:thread:1700000000.1", {}, True),
    ("agent:main:discord:direct:u1:thread:9", {}, True),
    ("agent:main:telegram:group:-100:topic:5", {}, True),
    ("agent:main:telegram:dm:42:topic:7", {}, True),
    ("agent:main:whatsapp:group:g1", {}, True),
    ("agent:main:slack:channel:c1", {}, True),
    ("telegram:group:123", {}, True),  # unscoped keys use the whole key as the rest
    ("agent:main:main", {}, False),
    ("agent:main:direct:peer", {}, False),
    ("agent:main:explicit:s1", {}, False),
    ("agent:main:dashboard:x", {}, False),
    ("agent:main:discord:room:r1", {}, False),
    ("agent:main:discord:room:r1", {"chatType": "Group"}, True),
    ("agent:main:webchat:x", {"origin": {"chatType": "thread"}}, True),
    ("agent:main:webchat:x", {"chatType": "direct", "origin": {"chatType": "group"}}, False),
    ("agent:main:subagent:x:thread:1", {"chatType": "group"}, False),  # synthetic is never protected
])
def test_protected_entries(key, entry, expected):
    assert keys.is_protected_entry(key, entry) is expected


@pytest.mark.parametrize("key,expected", [
    (f"agent:main:explicit:model-run-{UUID}", True),
    (f"AGENT:Main:Explicit:Model-Run-{UUID.upper()}", True),
    (f"agent:model-run-foo:explicit:model-run-{UUID}", True),
    (f" agent:main:explicit:model-run-{UUID}", False),
    (f"agent:main:explicit:model-run-{UUID} ", False),
    (f"agent:main:explicit:model-run-{UUID}\n", False),
    (f"agent:main:explicit:model-runner-{UUID}", False),
    ("agent:main:explicit:model-run-not-a-uuid", False),
    (f"agent:main:extra:explicit:model-run-{UUID}", False),
])
def test_model_run_probe_matcher(key, expected):
    assert keys.is_model_run_key(key) is expected


def test_store_key_normalisation_keeps_opaque_peer_ids():
    assert keys.normalize_store_key("  Agent:Main:Subagent:CHILD  ") == "agent:main:subagent:child"
    assert keys.normalize_store_key("agent:main:signal:group:AbC=:x") == "agent:main:signal:group:AbC=:x"
    assert keys.normalize_store_key("Agent:Main:Matrix:Channel:!Room:Ex.org:THREAD:T1") == \
        "agent:main:matrix:channel:!Room:Ex.org:thread:T1"


def test_parse_agent_key():
    assert keys.parse_agent_key("agent:Main:Foo:Bar") == ("main", "foo:bar")
    assert keys.parse_agent_key("agent::x") is None
    assert keys.parse_agent_key("agent:main") is None
    assert keys.parse_agent_key("main") is None


def test_thread_id_uses_last_marker():
    assert keys.thread_id_of("a:thread:1:thread:2") == "2"
    assert keys.thread_id_of("a:THREAD: x ") == "x"
    assert keys.thread_id_of("a:thread: ") is None
    assert keys.thread_id_of("a:b") is None


def _general_shape(key: str) -> bool | None:
    return None if keys.is_synthetic_key(key) else keys._is_protected_key_shape(key)


def _plain_keys() -> list[str]:
    import random

    from helpers.diffgen import KEY_KINDS, make_key

    rng = random.Random(19)
    made = [make_key(kind, agent, rng) for _ in range(40) for kind in KEY_KINDS for agent in ("main", "work", "a-b")]
    edges = ["main", "heartbeat", "agent:main:heartbeat", "agent:main:heartbeat:x", "x:heartbeat", "agent::main",
             "agent:main:", "agent:main:x:thread:", "agent:main:x:thread:1", ":thread:1", "a:b:c:thread:1",
             "agent:main:thread:1", "subagent:", "acp:x:thread:1", "agent:main:telegram:group:",
             "agent:main:telegram:group:1:topic:", "agent:main:telegram:dm:1:topic:2", "telegram:channel:c",
             "agent:x:cron:1", "cron:1:thread:2", "agent:agent:main:group:1", "agent:main:node:1:thread:2",
             "agent:main:slack:channel:c1:thread:1:heartbeat", "agent:main:x::group:1", "agent:1:2:3"]
    return [k for k in made + edges if k.isascii() and k.islower() and not keys._ASCII_SPACE.search(k)
            and "signal:" not in k and "matrix:" not in k]


def test_the_shortcut_for_plain_keys_agrees_with_the_general_rules():
    plain = _plain_keys()
    assert len(plain) > 500
    disagree = [k for k in plain if keys._plain_key_shape(k) != _general_shape(k)]
    assert disagree == []
    assert {keys._plain_key_shape(k) for k in plain} == {None, True, False}

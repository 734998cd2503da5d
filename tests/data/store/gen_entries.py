"""Random sessions.json entries that exercise every load-time normalisation path."""

from __future__ import annotations

import random
import uuid

CHANNELS = ["telegram", " Telegram ", "TELEGRAM", "imsg", "IMSG", "teams", "webchat", "WebChat",
            "cron", "heartbeat", "voice", "sessions_send", "webhook", "discord", "", "  ",
            "unknown-chan", "\u5fae\u4fe1", "wechat", "zl", "qa-channel", "\u00a0slack\u2028",
            "\ufeffsignal"]
ODD = [5, 0, None, True, False, {"x": 1}, [], ["telegram"], 1.5, ""]
TOS = ["user:1", " user:1 ", "", "  ", "telegram:999", "+15551234", "chan:#general", "\u3000x\u3000"]
ACCOUNTS = ["default", "Acct 1", "__proto__", "constructor", "prototype", "-x-", "ABC_def", " ",
            "a" * 70, "\u00dcn\u00efcode", "\u0130stanbul", "kelvin\u212a", "work", "_priv",
            "x--", "--", "A" * 64 + "-b"]
THREADS = [5, 5.7, -3.2, 0, "7", " 8 ", "", None, True, 1e21, "abc", 12345678901234567000, -1,
           "0", 0.5]
DEEP: list = [1]
for _ in range(33):
    DEEP = [DEEP]
DEEP_OK: list = [1]
for _ in range(31):
    DEEP_OK = [DEEP_OK]
KINDS = ["topic", "", None, 0, "reply", {"k": 1}]


def pick(rng: random.Random, pool: list, odd: float = 0.12):
    return rng.choice(ODD) if rng.random() < odd else rng.choice(pool)


def maybe(rng: random.Random, p: float = 0.5) -> bool:
    return rng.random() < p


def rand_route(rng: random.Random):
    if maybe(rng, 0.1):
        return rng.choice(["telegram", 5, [], None, {}])
    r: dict = {}
    if maybe(rng, 0.8):
        r["channel"] = pick(rng, CHANNELS)
    if maybe(rng, 0.3):
        r["accountId"] = pick(rng, ACCOUNTS)
    if maybe(rng, 0.7):
        t: dict = {}
        if maybe(rng, 0.9):
            t["to"] = pick(rng, TOS)
        if maybe(rng, 0.3):
            t["rawTo"] = pick(rng, TOS)
        if maybe(rng, 0.3):
            t["chatType"] = rng.choice(["direct", "group", "", 0, {"a": 1}])
        r["target"] = t if maybe(rng, 0.95) else "x"
    if maybe(rng, 0.3):
        th: dict = {}
        if maybe(rng, 0.9):
            th["id"] = rng.choice(THREADS)
        if maybe(rng, 0.4):
            th["kind"] = rng.choice(KINDS)
        if maybe(rng, 0.3):
            th["source"] = rng.choice(KINDS)
        r["thread"] = th
    if maybe(rng, 0.1):
        r["extra"] = "kept?"
    keys = list(r)
    if maybe(rng, 0.2):
        rng.shuffle(keys)
    return {k: r[k] for k in keys}


def rand_context(rng: random.Random, need_channel_to: bool = False):
    if maybe(rng, 0.1):
        return rng.choice(["telegram", 7, [], None, {}, {"foo": 1}])
    c: dict = {}
    if need_channel_to or maybe(rng, 0.85):
        c["channel"] = pick(rng, CHANNELS)
    if need_channel_to or maybe(rng, 0.7):
        c["to"] = pick(rng, TOS)
    if maybe(rng, 0.3):
        c["accountId"] = pick(rng, ACCOUNTS)
    if maybe(rng, 0.3):
        c["threadId"] = rng.choice(THREADS)
    if maybe(rng, 0.05):
        c["extra"] = 1
    return c


def canonical_delivery(rng: random.Random, e: dict) -> None:
    """Delivery fields already in the shape the reference writes (fast path), maybe perturbed."""
    ch = rng.choice(["telegram", "discord", "webchat", "imessage", "cron", "slack", "x-plugin"])
    ctx: dict = {"channel": ch}
    if ch != "webchat" or maybe(rng):
        ctx["to"] = rng.choice(["user:1", "telegram:42", "+1555", "chan:#a"])
    if maybe(rng, 0.3):
        ctx["accountId"] = rng.choice(["default", "work", "a_b", "x-"])
    if maybe(rng, 0.3):
        ctx["threadId"] = rng.choice([3, "t-9", 0])
    route: dict = {"channel": "imsg" if ch == "imessage" and maybe(rng) else ch}
    if "accountId" in ctx:
        route["accountId"] = ctx["accountId"]
    if "to" in ctx:
        route["target"] = {"to": ctx["to"]}
        if maybe(rng, 0.3):
            route["target"]["rawTo"] = "raw:" + ctx["to"]
        if maybe(rng, 0.3):
            route["target"]["chatType"] = "direct"
    if "threadId" in ctx:
        route["thread"] = {"id": ctx["threadId"]}
        if maybe(rng, 0.3):
            route["thread"]["kind"] = "topic"
    e["route"] = route
    e["deliveryContext"] = ctx
    e["lastChannel"] = ch
    for src, dst in (("to", "lastTo"), ("accountId", "lastAccountId"), ("threadId", "lastThreadId")):
        if src in ctx:
            e[dst] = ctx[src]
    if maybe(rng, 0.25):  # perturb one field
        key = rng.choice(["lastTo", "lastChannel", "lastThreadId", "lastAccountId", "route",
                          "deliveryContext", "origin"])
        if key == "origin":
            e["origin"] = {"threadId": rng.choice(THREADS)}
        elif key == "route":
            e["route"] = rand_route(rng)
        elif key == "deliveryContext":
            e["deliveryContext"]["channel"] = pick(rng, CHANNELS)
        else:
            e[key] = rng.choice(THREADS + TOS + [None])


def delivery_fields(rng: random.Random, e: dict) -> None:
    if maybe(rng, 0.3):
        canonical_delivery(rng, e)
        return
    if maybe(rng, 0.5):
        e["route"] = rand_route(rng)
    if maybe(rng, 0.5):
        e["deliveryContext"] = rand_context(rng)
    for key, pool in (("channel", CHANNELS), ("lastChannel", CHANNELS), ("lastTo", TOS),
                      ("lastAccountId", ACCOUNTS)):
        if maybe(rng, 0.3):
            e[key] = pick(rng, pool)
    if maybe(rng, 0.2):
        e["lastThreadId"] = rng.choice(THREADS)
    if maybe(rng, 0.2):
        e["origin"] = {"provider": "telegram", "threadId": rng.choice(THREADS)} if maybe(rng) \
            else rng.choice(["o", None, {"threadId": None}])


def legacy_fields(rng: random.Random, e: dict) -> None:
    for key, pool in (("provider", CHANNELS + [5]), ("lastProvider", CHANNELS + [None]),
                      ("room", ["#room", 3, None, ""]), ("groupChannel", ["#g", 4, None])):
        if maybe(rng, 0.15):
            e[key] = rng.choice(pool)


def pending_fields(rng: random.Random, e: dict) -> None:
    if not maybe(rng, 0.25):
        return
    choices = {
        "pendingFinalDelivery": [True, False, "yes", None, 1],
        "pendingFinalDeliveryText": ["done", None, 5, "", {"a": 1}],
        "pendingFinalDeliveryCreatedAt": [1700000000000, -1, 1.5, "1", None, 1e308, 0],
        "pendingFinalDeliveryLastAttemptAt": [1700000000001, -5, None, 2.5],
        "pendingFinalDeliveryAttemptCount": [0, 3, 2.5, -1, "2", None, 1e21],
        "pendingFinalDeliveryLastError": ["boom", None, 7],
        "pendingFinalDeliveryIntentId": ["i-1", None, 9],
        "restartRecoveryDeliveryRunId": ["run-1", None, 3, ""],
    }
    for key, pool in choices.items():
        if maybe(rng, 0.4):
            e[key] = rng.choice(pool)
    for key in ("pendingFinalDeliveryContext", "restartRecoveryDeliveryContext"):
        if maybe(rng, 0.4):
            e[key] = rand_context(rng, need_channel_to=maybe(rng))


def plugin_fields(rng: random.Random, e: dict) -> None:
    if maybe(rng, 0.12):
        e["pluginExtensions"] = rng.choice([
            {"memory": {"state": {"a": 1}, " ns ": [1, 2], "": 1}},
            {" ": {"x": 1}, "p": "notobj", "q": {}},
            {"p": {"big": "x" * 70000}},
            {"p": {"deep": DEEP}},
            {"p": {"deep_ok": DEEP_OK}},
            {"p": {"ok": {"nested": {"v": None, "w": True}}}},
            {"p": {"many": list(range(5000))}},
            {"10": {"b": 1, "2": 2}, "2": {"z": 0}, "a": {"__proto__": {"x": 1}, "y": 2}},
            {"__proto__": {"x": 1}, "ok": {"v": 1}},
            {"p": {" 5 ": 1, "3": 2, "x": 3}},
            "not-an-object", None, [],
        ])
    if maybe(rng, 0.1):
        e["pluginExtensionSlotKeys"] = rng.choice([
            {"p": {"ns": "mySlot", "ns2": " slot2 ", "bad": "1abc", "r": "sessionId"}},
            {"p": {"ns": "toString"}, "q": {"x": 5}},
            {"p": {"ns": "valid_Key1"}},
            {" p ": {" n ": "k"}},
            "x", None,
        ])


def skills_fields(rng: random.Random, e: dict, long_prompts: list[str]) -> None:
    r = rng.random()
    if r < 0.15:
        e["skillsSnapshot"] = {"prompt": rng.choice(long_prompts), "skills": [{"name": "w"}],
                               "version": 3}
        if maybe(rng, 0.3):
            e["skillsSnapshot"]["resolvedSkills"] = [{"name": "w", "body": "..."}]
        if maybe(rng, 0.2):
            e["skillsSnapshot"]["promptRef"] = {"stale": True}
    elif r < 0.22:
        e["skillsSnapshot"] = {"prompt": "short prompt", "resolvedSkills": []}
    elif r < 0.27:
        e["skillsSnapshot"] = rng.choice([{"skills": []}, "str", 0, None, {"prompt": 5},
                                          {"promptRef": {"version": 1, "algorithm": "sha256",
                                                         "hash": "0" * 64, "bytes": 10}}])


def model_fields(rng: random.Random, e: dict) -> None:
    if maybe(rng, 0.3):
        e["model"] = rng.choice(["gpt-5", " gpt-5 ", "", "  ", None, 5, "\u2028m\u2028"])
    if maybe(rng, 0.3):
        e["modelProvider"] = rng.choice(["openai", " openai", "", None, 7])


def id_fields(rng: random.Random, e: dict, now: int) -> None:
    r = rng.random()
    if r < 0.55:
        e["sessionId"] = str(uuid.UUID(int=rng.getrandbits(128), version=4))
    elif r < 0.9:
        e["sessionId"] = rng.choice([
            " abc ", "abc", "a" * 128, "a" * 129, "a" * 256, "a:b@c", "ab/cd", "..", ".", "",
            "-abc", "a b", 5, None, "abc.checkpoint.123e4567-e89b-42d3-a456-426614174000",
            "x.checkpoint.123E4567-E89B-42D3-A456-426614174000", "\u00e9t\u00e9", "a\nb",
            "ok\n", "_x", "a..b", "1.2.3", "sess-\u0130"])
        if maybe(rng, 0.4):
            e["sessionFile"] = rng.choice(["/srv/sessions/x.jsonl", "  ", "rel.jsonl", 5, None])
    if maybe(rng, 0.1):
        e["sessionFile"] = rng.choice([5, None, {"p": 1}, "file.jsonl"])
    r = rng.random()
    if r < 0.8:
        e["updatedAt"] = now - rng.randint(0, 10**8)
    elif r < 0.95:
        e["updatedAt"] = rng.choice([-1, None, "123", 1.5, 1e300, True, 0,
                                     -0.5, [], 12345678901234567000])


def misc_fields(rng: random.Random, e: dict) -> None:
    if maybe(rng, 0.2):
        e["label"] = rng.choice(["caf\u00e9 \U0001f600", "ctl\x01\x1f\x7f", "\u2028\u2029",
                                 "quote\"back\\slash", "lone\ud800", "pair\ud83d\ude00"])
    if maybe(rng, 0.2):
        e["estimatedCostUsd"] = rng.choice([0.0123, 1.5e-6, 3e-7, 1e21, 0.1 + 0.2, 2.5, 1e-5,
                                            123456.789])
    if maybe(rng, 0.1):
        e["9"] = "int-like key inside entry"
        e["1"] = {"3": 1, "b": 2, "0": 3}


def rand_entry(rng: random.Random, now: int, long_prompts: list[str]):
    if maybe(rng, 0.03):
        return rng.choice(["string-entry", 5, None, [], ["x"], True])
    e: dict = {}
    id_fields(rng, e, now)
    misc_fields(rng, e)
    model_fields(rng, e)
    legacy_fields(rng, e)
    delivery_fields(rng, e)
    pending_fields(rng, e)
    plugin_fields(rng, e)
    skills_fields(rng, e, long_prompts)
    keys = list(e)
    if maybe(rng, 0.3):
        rng.shuffle(keys)
    return {k: e[k] for k in keys}


def long_prompts(rng: random.Random) -> list[str]:
    base = "You can use these skills:\n" + "".join(f"- skill {i}: does things\n" for i in range(40))
    return [
        base,
        base + "\u00e9\U0001f600 unicode tail",
        "x" * 511,  # one short of the blob threshold
        "x" * 512,
        "\U0001f600" * 256,  # 512 UTF-16 units, 256 code points
        "\U0001f600" * 255 + "a",  # 511 UTF-16 units
        "y" * (512 * 1024 + 1),  # too big for a blob
        "z" * (512 * 1024),
        base + "\ud800 lone surrogate",
    ]


def rand_store(seed: int, count: int, now: int) -> dict:
    rng = random.Random(seed)
    prompts = long_prompts(rng)
    store = {}
    for i in range(count):
        r = rng.random()
        if r < 0.03:
            key = rng.choice(["7", "42", "0", "01", "4294967295", "-1", "12"])
            maybe(rng)  # drawn all the same, so that the generated sequence stays the one recorded
        elif r < 0.05:
            key = rng.choice(["", " ", "caf\u00e9", "\U0001f600", "tab\tkey", "__proto_"])
        else:
            key = f"agent:main:test:{seed}:{i}"
        store[key] = rand_entry(rng, now, prompts)
    return store

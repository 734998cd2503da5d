"""Seeded generator of `sessions cleanup` differential cases, plus hand-written edge cases."""

from __future__ import annotations

import hashlib
import json
import math
import random
import re
import sys
import uuid
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from helpers.diffharness import Case

SEC = 1_000
MIN = 60 * SEC
HOUR = 60 * MIN
DAY = 24 * HOUR
STATE = ".openclaw"
MODEL_RUN_MS = DAY
TEMP_STALE_MS = 5 * MIN
DEFAULT_PRUNE_MS = 30 * DAY
# Time that may pass between materialisation and the moment the CLI reads the clock.
DISPLAY_SLACK_NOW = 25 * SEC
DISPLAY_SLACK_FINE = 55 * SEC
DISPLAY_SLACK_COARSE = 6 * MIN
CUTOFF_MARGIN = 5 * MIN

CHANNELS = ["telegram", "discord", "slack", "whatsapp", "signal", "matrix", "imessage", "webchat"]
PEERS = ["alice", "bob", "+15551234567", "u123", "carol_b", "dave.e", "Eve", "peer-42"]
LABELS: list[Any] = [
    "Cron: daily-commit", "Cron: daily-commit", "standup", "Standup", "alpha", "Beta", "beta",
    "", "   ", 42, None, True, "\u001b[31mred alert\u001b[0m", "line1\nline2", "tab\there",
    "cr\rhere", "bell\u0007ring", "c1\u0085ctl", "Ünïcödé label", "日本語ラベル", "emoji 🎉 party",
    "Unlabeled", "(unlabeled)", "  padded  ", "Zeta", "_under", "#hash", "a very long label that goes on",
]
MODELS = [
    {"model": "gpt-4.1"},
    {"model": "anthropic/claude-sonnet-4"},
    {"model": "claude-x", "modelProvider": "anthropic"},
    {"model": "a-really-long-model-name-v2"},
    {"modelOverride": "openai/gpt-5", "providerOverride": "openai"},
    {"modelOverride": "OpenAI/gpt-5-mini", "providerOverride": "openai"},
    {"modelOverride": "gemini-2.5-pro", "providerOverride": "google"},
    {"modelOverride": "foo/", "providerOverride": "bar"},
    {"modelOverride": "anthropic/opus", "model": "ignored-model"},
    {"model": "claude-cli/opus-4"},
    {"model": "codex-cli/gpt-5-codex"},
    {"model": "  ", "modelProvider": "openai"},
    {"model": "/leading-slash"},
]
FLAG_FIELDS: dict[str, list[Any]] = {
    "thinkingLevel": ["high", "low", "off", ""],
    "verboseLevel": ["on", "full"],
    "traceLevel": ["debug", "on"],
    "reasoningLevel": ["stream", "on"],
    "elevatedLevel": ["ask", "on", "full"],
    "responseUsage": ["tokens", "full", "off"],
    "groupActivation": ["mention", "always"],
    "systemSent": [True, False, "false"],
    "abortedLastRun": [True, False, 1],
    "runtimePolicySessionKey": ["agent:main:main"],
}
FIXED_FORK_STAMP = "2026-01-02T03-04-05-678Z"


# --------------------------------------------------------------------------- time helpers

def js_round(x: float) -> int:
    return math.floor(x + 0.5)


def format_time_ago(ms: int) -> str:
    """The reference's `formatTimeAgo` (used only to choose ages away from rounding edges)."""
    if ms < 0:
        return "unknown"
    minutes = js_round(js_round(ms / 1000) / 60)
    if minutes < 1:
        return "just now"
    if minutes < 60:
        return f"{minutes}m ago"
    hours = js_round(minutes / 60)
    if hours < 48:
        return f"{hours}h ago"
    return f"{js_round(hours / 24)}d ago"


def parse_duration_ms(value: Any, default_unit: str = "d") -> int | None:
    """Enough of the reference duration grammar to know the cutoffs a config implies."""
    if value is None or value is False:
        return None
    text = str(value).strip().lower()
    units = {"ms": 1, "s": SEC, "m": MIN, "h": HOUR, "d": DAY}
    single = re.fullmatch(r"(\d+(?:\.\d+)?)(ms|s|m|h|d)?", text)
    if single:
        return round(float(single.group(1)) * units[single.group(2) or default_unit])
    parts = re.findall(r"(\d+(?:\.\d+)?)(ms|s|m|h|d)", text)
    if parts and "".join(a + b for a, b in parts) == text:
        return round(sum(float(a) * units[b] for a, b in parts))
    return None


class Ages:
    """Chooses ages that no run-to-run delay can push across a rounding or cutoff edge."""

    def __init__(self, rng: random.Random, cutoffs: list[int]):
        self.rng = rng
        self.cutoffs = sorted({c for c in cutoffs if c and c > 0})
        self.used_file_ages: set[int] = set()

    def safe(self, age: int) -> bool:
        if age < 0:
            return age <= -10 * MIN
        slack = (DISPLAY_SLACK_NOW if age < 30 * SEC else DISPLAY_SLACK_FINE if age < 55 * MIN
                 else DISPLAY_SLACK_COARSE)
        if format_time_ago(age) != format_time_ago(age + slack):
            return False
        for cutoff in self.cutoffs:
            margin = min(CUTOFF_MARGIN, int(cutoff * 0.4))
            if abs(age - cutoff) < margin:
                return False
        return True

    def _raw(self, lo: int, hi: int) -> int:
        span = self.rng.uniform(math.log(max(lo, 1)), math.log(max(hi, lo + 1)))
        age = int(math.exp(span))
        if age < HOUR:
            # "Nm ago" is stable for ages in [N-0.5, N+0.5) minutes: start just above N-0.5.
            return max(0, (age // MIN) * MIN - 29 * SEC)
        if age < 2 * DAY:
            return (age // HOUR) * HOUR + self.rng.randint(0, 20) * MIN
        return (age // DAY) * DAY + self.rng.randint(0, 9) * HOUR + self.rng.randint(0, 59) * MIN

    def between(self, lo: int, hi: int) -> int:
        for _ in range(200):
            age = self._raw(lo, hi)
            if lo <= age <= hi and self.safe(age):
                return age
        for age in range(lo - lo % MIN, hi + 1, MIN):
            if self.safe(age):
                return age
        raise ValueError(f"no safe age in [{lo}, {hi}]")

    def near(self, cutoff: int, above: bool) -> int:
        """An age a little above (older than) or below (younger than) a cutoff."""
        for _ in range(200):
            delta = self.rng.choice([10 * MIN, 20 * MIN, HOUR, 3 * HOUR, 11 * HOUR])
            age = cutoff + delta if above else cutoff - delta
            age -= age % MIN
            if age >= 0 and self.safe(age):
                return age
        return self.between(cutoff * 2, cutoff * 3) if above else self.between(0, max(MIN, cutoff // 2))

    def unique_file_age(self, age: int) -> int:
        """File mtimes are kept distinct so 'oldest first' orders never depend on ties."""
        candidate = age
        while candidate in self.used_file_ages or not self.safe(candidate):
            candidate += 1_117
        self.used_file_ages.add(candidate)
        return candidate


# --------------------------------------------------------------------------- small builders

def make_uuid(rng: random.Random, version: int = 4) -> str:
    return str(uuid.UUID(int=rng.getrandbits(128), version=version))


def header_line(sid: str, age: int) -> str:
    return json.dumps({"type": "session", "version": 3, "id": sid, "timestamp": f"@ISO({age})@",
                       "cwd": "@HOME@/work"}, ensure_ascii=False)


def message_line(i: int, role: str, text: str, age: int) -> str:
    return json.dumps({"type": "message", "id": f"m{i:04d}", "parentId": f"m{i - 1:04d}" if i else None,
                       "timestamp": f"@ISO({age})@",
                       "message": {"role": role, "content": [{"type": "text", "text": text}]}},
                      ensure_ascii=False)


def custom_line(i: int, payload: str) -> str:
    return json.dumps({"type": "custom", "id": f"c{i:04d}", "customType": "note", "data": payload},
                      ensure_ascii=False)


def transcript_text(kind: str, sid: str, age: int, rng: random.Random) -> str:
    """Transcript contents by variant (see spec §4.1 'No message records')."""
    head = header_line(sid, age)
    if kind == "messages":
        n = rng.randint(1, 4)
        lines = [head] + [message_line(i, "user" if i % 2 == 0 else "assistant",
                                       rng.choice(["hi", "hello there", "ça va ?", "🎉 done", "ok"]),
                                       age) for i in range(n)]
        return "\n".join(lines) + "\n"
    if kind == "header-only":
        return head + "\n"
    if kind == "empty":
        return ""
    if kind == "blank-lines":
        return "\n  \n\n"
    if kind == "small-no-message":
        return "\n".join([head, custom_line(1, "x"), json.dumps({"type": "compaction", "id": "k1"})]) + "\n"
    if kind == "role-only":
        return head + "\n" + json.dumps({"role": "assistant", "content": "bare role record"}) + "\n"
    if kind == "message-role-only":
        return head + "\n" + json.dumps({"message": {"role": "toolResult", "content": "r"}}) + "\n"
    if kind == "typed-role":
        return head + "\n" + json.dumps({"type": "custom", "role": "user", "message": {"role": "user"}}) + "\n"
    if kind == "unknown-role":
        return head + "\n" + json.dumps({"role": "narrator", "content": "no"}) + "\n"
    if kind == "crlf":
        return head + "\r\n" + message_line(0, "user", "crlf", age) + "\r\n"
    if kind == "unparseable":
        return head + "\n{not json at all\n"
    if kind == "large-no-message":
        lines = [head]
        i = 0
        while sum(len(x) + 1 for x in lines) <= 4300:
            i += 1
            lines.append(custom_line(i, "padding " * 12))
        return "\n".join(lines) + "\n"
    raise ValueError(kind)


def exact_size_no_message(sid: str, age: int, size: int) -> str:
    """A message-free transcript of exactly ``size`` bytes (after placeholder expansion)."""
    head = header_line(sid, age)
    # header expands @ISO(..)@ to a 24-char ISO string and @HOME@ to an unknown path, so use
    # a header without placeholders here.
    head = json.dumps({"type": "session", "version": 3, "id": sid, "timestamp": "2026-01-01T00:00:00.000Z",
                       "cwd": "/srv/project"})
    body = head + "\n"
    filler_len = size - len(body.encode()) - len(custom_line(1, "").encode()) - 1
    if filler_len < 0:
        return body
    return body + custom_line(1, "x" * filler_len) + "\n"


def sha256_hex(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def skills_prompt(rng: random.Random, n: int = 700) -> str:
    words = ["skill", "browser", "canvas", "weather", "tmux", "notion", "éàü", "日本", "🎉"]
    out = []
    while len("".join(out)) < n:
        out.append(rng.choice(words) + " ")
    return "".join(out)


def normalize_agent_id(raw: str) -> str:
    raw = raw.strip()
    if not raw:
        return "main"
    if re.fullmatch(r"[a-z0-9][a-z0-9_-]{0,63}", raw, re.I):
        return raw.lower()
    out = re.sub(r"[^a-z0-9_-]+", "-", raw.lower()).strip("-")[:64]
    return out or "main"


def to_json5(value: Any, indent: int = 0) -> str:
    """A JSON5 rendering with comments, unquoted keys and trailing commas."""
    pad = "  " * indent
    if isinstance(value, dict):
        if not value:
            return "{}"
        parts = []
        for k, v in value.items():
            key = k if re.fullmatch(r"[A-Za-z_$][A-Za-z0-9_$]*", k) else json.dumps(k)
            parts.append(f"{pad}  {key}: {to_json5(v, indent + 1)},")
        return "{\n" + "\n".join(parts) + f"\n{pad}}}"
    if isinstance(value, list):
        if not value:
            return "[]"
        return "[" + ", ".join(to_json5(v, indent + 1) for v in value) + ",]"
    if isinstance(value, str):
        return "'" + value.replace("\\", "\\\\").replace("'", "\\'") + "'"
    return json.dumps(value)


# --------------------------------------------------------------------------- key kinds

KEY_KINDS: dict[str, float] = {
    "main": 3, "direct-per-peer": 5, "direct-per-channel-peer": 5, "direct-per-account-channel-peer": 3,
    "group": 4, "channel": 3, "room": 2, "thread": 3, "telegram-topic": 2, "cron": 2, "cron-run": 3,
    "hook": 2, "subagent": 3, "subagent-nested": 1, "subagent-raw": 1, "acp": 2, "acp-raw": 1,
    "acp-bridge": 1, "node": 1, "heartbeat": 2, "explicit": 2, "model-run": 3, "model-run-near-miss": 2,
    "unscoped": 3, "uppercase": 2, "whitespace": 1, "signal-group": 1, "matrix-room": 1,
    "dashboard": 1, "global": 1, "long": 2,
}


def make_key(kind: str, agent: str, rng: random.Random) -> str:
    a = agent
    ch = rng.choice(CHANNELS)
    peer = rng.choice(PEERS).lower()
    ident = rng.choice(["123", "-100200300", "C0ABC", "g-77", "room9", "x"]) + str(rng.randint(0, 99))
    u = make_uuid(rng)
    if kind == "main":
        return f"agent:{a}:main"
    if kind == "direct-per-peer":
        return f"agent:{a}:direct:{peer}{rng.randint(0, 9)}"
    if kind == "direct-per-channel-peer":
        return f"agent:{a}:{ch}:direct:{peer}{rng.randint(0, 9)}"
    if kind == "direct-per-account-channel-peer":
        return f"agent:{a}:{ch}:{rng.choice(['default', 'acct1', 'biz'])}:direct:{peer}{rng.randint(0, 9)}"
    if kind == "group":
        return f"agent:{a}:{ch}:group:{ident}"
    if kind == "channel":
        return f"agent:{a}:{ch}:channel:{ident}"
    if kind == "room":
        return f"agent:{a}:{rng.choice(['discord', 'slack'])}:room:{ident}"
    if kind == "thread":
        base = rng.choice([f"{ch}:channel:{ident}", f"{ch}:group:{ident}", f"{ch}:direct:{peer}",
                           f"direct:{peer}"])
        tid = rng.choice(["1700000000.123", "42", "t-abc", " "])
        return f"agent:{a}:{base}:thread:{tid}"
    if kind == "telegram-topic":
        kind2 = rng.choice(["group", "channel", "direct", "dm"])
        return f"agent:{a}:telegram:{kind2}:-100{rng.randint(100, 999)}:topic:{rng.randint(1, 99)}"
    if kind == "cron":
        return f"agent:{a}:cron:job-{rng.randint(1, 20)}"
    if kind == "cron-run":
        return f"agent:{a}:cron:job-{rng.randint(1, 20)}:run:{u}"
    if kind == "hook":
        return f"agent:{a}:hook:{u}"
    if kind == "subagent":
        return f"agent:{a}:subagent:{u}"
    if kind == "subagent-nested":
        return f"agent:{a}:subagent:{u}:subagent:{make_uuid(rng)}"
    if kind == "subagent-raw":
        return f"subagent:{u}"
    if kind == "acp":
        return f"agent:{a}:acp:{rng.choice(['codex', 'claude'])}:{u[:8]}"
    if kind == "acp-raw":
        return f"acp:{u[:13]}"
    if kind == "acp-bridge":
        return f"agent:{a}:acp-bridge:{u[:8]}"
    if kind == "node":
        return f"agent:{a}:node:{rng.choice(['mac-mini', 'pi', 'phone'])}"
    if kind == "heartbeat":
        return rng.choice([f"agent:{a}:heartbeat", f"agent:{a}:{ch}:heartbeat",
                           f"agent:{a}:{ch}:heartbeat:{ident}"])
    if kind == "explicit":
        return f"agent:{a}:explicit:{rng.choice(['s-' + u[:6], u])}"
    if kind == "model-run":
        key = f"agent:{a}:explicit:model-run-{u}"
        return key.upper().replace("AGENT:", "Agent:") if rng.random() < 0.2 else key
    if kind == "model-run-near-miss":
        return rng.choice([
            f"agent:{a}:explicit:model-runner-{u}",
            f"agent:{a}:explicit:model-run-not-a-uuid",
            f" agent:{a}:explicit:model-run-{u}",
            f"agent:{a}:extra:explicit:model-run-{u}",
            f"agent:model-run-foo:explicit:model-run-{u}",
            f"agent:{a}:explicit:model-run-{u}-x",
        ])
    if kind == "unscoped":
        return rng.choice([f"telegram:group:{ident}", f"discord:channel:{ident}", "main", f"cron:job{ident}",
                           f"hook:{u}", "legacy-session", f"whatsapp:direct:{peer}",
                           f"slack:channel:{ident}:thread:99"])
    if kind == "uppercase":
        return rng.choice([f"agent:{a}:Slack:Channel:C{ident.upper()}", f"Agent:{a.upper()}:Direct:{peer.upper()}",
                           f"agent:{a}:Telegram:Group:{ident}", f"AGENT:{a}:MAIN"])
    if kind == "whitespace":
        return rng.choice([f" agent:{a}:direct:{peer} ", f"agent:{a}:main\t", f"  agent:{a}:discord:group:{ident}"])
    if kind == "signal-group":
        return f"agent:{a}:signal:group:AbC{rng.randint(10, 99)}dEf="
    if kind == "matrix-room":
        return f"agent:{a}:matrix:channel:!RoomId{rng.randint(1, 9)}:Server.org"
    if kind == "dashboard":
        return f"agent:{a}:dashboard:{u[:8]}"
    if kind == "global":
        return "global"
    if kind == "long":
        return rng.choice([
            f"agent:{a}:discord:channel:{'9' * rng.randint(18, 24)}",
            f"agent:{a}:whatsapp:direct:+4915{rng.randint(10**9, 10**10)}",
            f"agent:{a}:slack:channel:c0{ident}:thread:1700000000.{rng.randint(100000, 999999)}",
            f"agent:{a}:explicit:ünïcödé-sëssion-{rng.randint(10, 99)}",
            f"agent:{a}:webchat:direct:user-🎉-{rng.randint(1000, 9999)}",
        ])
    raise ValueError(kind)


# --------------------------------------------------------------------------- store generation

class StoreGen:
    """Builds one sessions.json with its folder of transcripts and artifacts."""

    def __init__(self, gen: CaseGen, agent: str, store_rel: str):
        self.gen = gen
        self.rng = gen.rng
        self.ages = gen.ages
        self.agent = agent
        self.store_rel = store_rel
        self.dir_rel = store_rel.rsplit("/", 1)[0]
        self.basename = store_rel.rsplit("/", 1)[1]
        self.entries: dict[str, Any] = {}
        self.sids: list[str] = []

    # -- paths
    def in_dir(self, name: str) -> str:
        return f"{self.dir_rel}/{name}"

    def add_file(self, rel: str, text: str = "", age: int | None = None, **extra: Any) -> None:
        if age is None:
            age = self.ages.between(2 * HOUR, 20 * DAY)
        node = {"path": rel, "text": text, "age": self.ages.unique_file_age(age)}
        node.update(extra)
        self.gen.files.append(node)

    def tag(self, *names: str) -> None:
        self.gen.tags.update(names)

    # -- ages
    def entry_age(self) -> int | None:
        g = self.gen
        r = self.rng.random()
        prune = g.prune_ms
        if r < 0.15:
            return self.ages.between(0, 50 * MIN)
        if r < 0.33:
            return self.ages.between(HOUR, min(47 * HOUR, max(HOUR, prune - HOUR)))
        if r < 0.55:
            return self.ages.between(2 * DAY, max(2 * DAY + HOUR, prune - HOUR)) if prune > 3 * DAY \
                else self.ages.between(0, max(MIN, prune // 2))
        if r < 0.65:
            self.tag("upd:near-cutoff")
            return self.ages.near(prune, above=self.rng.random() < 0.5)
        if r < 0.92:
            return self.ages.between(prune + HOUR, prune + 200 * DAY)
        return self.ages.near(MODEL_RUN_MS, above=self.rng.random() < 0.6)

    # -- sessions
    def new_sid(self) -> str:
        r = self.rng.random()
        if self.sids and r < 0.08:
            self.tag("sid:shared")
            return self.rng.choice(self.sids)
        if r < 0.75:
            sid = make_uuid(self.rng)
        elif r < 0.9:
            sid = f"s-{self.rng.randint(1000, 9999)}{self.rng.choice(['', '.v2', '_x', '-B'])}"
        else:
            sid = self.rng.choice(["keep.deleted.keep", "Sess.Upper-1", "a" * 100, "x1.bak.y"])
            sid = sid if sid not in self.sids else sid + str(self.rng.randint(0, 99))
        self.sids.append(sid)
        return sid

    def add_entry(self, kind: str) -> None:
        rng = self.rng
        key = make_key(kind, self.agent, rng)
        if key in self.entries:
            return
        self.tag(f"key:{kind}")
        entry: dict[str, Any] = {}
        age = self.entry_age()
        sid_mode = rng.random()
        sid: str | None = None
        if sid_mode < 0.03:
            self.tag("sid:absent")
        elif sid_mode < 0.05:
            entry["sessionId"] = rng.choice(["../escape", "a/b", "", 123, ".", "with space", "-lead"])
            self.tag("sid:unsafe")
        elif sid_mode < 0.07:
            entry["sessionId"] = rng.choice([f"chat:{rng.randint(1, 99)}@host", f"x.checkpoint.{make_uuid(rng)}"])
            self.tag("sid:not-transcript-id")
            if rng.random() < 0.5:
                entry["sessionFile"] = f"custom-{rng.randint(1, 999)}.jsonl"
        else:
            sid = self.new_sid()
            entry["sessionId"] = f"  {sid} " if rng.random() < 0.03 else sid
        # updatedAt
        r = rng.random()
        if r < 0.03:
            self.tag("upd:missing")
        elif r < 0.07 and self.entries:
            prev = [e.get("updatedAt") for e in self.entries.values() if isinstance(e.get("updatedAt"), dict)]
            entry["updatedAt"] = rng.choice(prev) if prev else {"$ago": age}
            self.tag("upd:tie")
        elif r < 0.08:
            entry["updatedAt"] = 0
            self.tag("upd:zero")
        elif r < 0.09:
            entry["updatedAt"] = {"$ago": -self.ages.between(DAY, 30 * DAY)}
            self.tag("upd:future")
        elif r < 0.10:
            entry["updatedAt"] = rng.choice(["yesterday", -5, None, 1.5])
            self.tag("upd:invalid")
        else:
            entry["updatedAt"] = {"$ago": age}
        self.decorate(entry, key)
        if sid is not None:
            self.attach_transcript(entry, sid, age if age is not None else DAY)
        self.entries[key] = entry

    def decorate(self, entry: dict[str, Any], key: str) -> None:
        rng = self.rng
        r = rng.random()
        if r < 0.08:
            entry["chatType"] = rng.choice(["group", "channel", "thread", "Group", "direct"])
            self.tag(f"chattype:{entry['chatType'].lower()}")
        elif r < 0.13:
            entry["origin"] = {"provider": rng.choice(CHANNELS), "chatType": rng.choice(["channel", "GROUP", "direct"])}
            self.tag("chattype:origin")
        if rng.random() < 0.45:
            label = rng.choice(LABELS)
            entry["label"] = label
            self.tag("label:" + ("non-string" if not isinstance(label, str) else
                                 "empty" if not label.strip() else
                                 "ansi" if "\u001b" in label else
                                 "control" if re.search(r"[\x00-\x1f\x7f-\x9f]", label) else
                                 "non-ascii" if not label.isascii() else "plain"))
        if rng.random() < 0.35:
            model = rng.choice(MODELS)
            entry.update(model)
            self.tag("model:" + ("override" if "modelOverride" in model else "model"))
        if rng.random() < 0.25:
            for name in rng.sample(list(FLAG_FIELDS), rng.randint(1, 5)):
                entry[name] = rng.choice(FLAG_FIELDS[name])
                self.tag(f"flag:{name}")
        if rng.random() < 0.15:
            ch = rng.choice(CHANNELS)
            variant = rng.randint(0, 4)
            if variant == 0:
                entry.update({"channel": ch, "lastChannel": ch, "lastTo": f"{ch}:{rng.randint(1, 99)}"})
            elif variant == 1:
                entry["deliveryContext"] = {"channel": ch, "to": f"user:{rng.randint(1, 99)}"}
            elif variant == 2:
                entry.update({"provider": ch, "lastProvider": ch})
                self.tag("legacy:provider")
            elif variant == 3:
                entry["room"] = f"#room{rng.randint(1, 9)}"
                self.tag("legacy:room")
            else:
                entry["route"] = {"channel": ch}
                entry["deliveryContext"] = {"channel": ch}
                entry["lastChannel"] = ch
            self.tag("delivery")
        if rng.random() < 0.2:
            entry.update({"status": rng.choice(["done", "running"]), "totalTokens": rng.randint(0, 90000),
                          "totalTokensFresh": True, "compactionCount": rng.randint(0, 3)})
            if rng.random() < 0.3:
                entry["archivedAt"] = {"$ago": self.ages.between(HOUR, 10 * DAY)}
                entry["pinnedAt"] = {"$ago": self.ages.between(HOUR, 10 * DAY)}
        if rng.random() < 0.06:
            self.add_skills(entry)

    def add_skills(self, entry: dict[str, Any]) -> None:
        rng = self.rng
        prompt = skills_prompt(rng, rng.choice([600, 1500, 300]))
        snapshot: dict[str, Any] = {"skills": [{"name": "weather"}, {"name": "tmux"}], "version": 1}
        mode = rng.random()
        if mode < 0.4 or len(prompt) < 512:
            snapshot["prompt"] = prompt
            if rng.random() < 0.3:
                snapshot["resolvedSkills"] = [{"name": "weather", "path": "/x"}]
            self.tag("skills:inline")
        else:
            digest = sha256_hex(prompt)
            snapshot["promptRef"] = {"version": 1, "algorithm": "sha256", "hash": digest,
                                     "bytes": len(prompt.encode("utf-8"))}
            if mode < 0.85:
                self.add_file(self.in_dir(f"skills-prompts/sha256/{digest[:2]}/{digest}.txt"), prompt,
                              age=self.ages.between(10 * MIN, 40 * DAY), mode="600")
                self.tag("skills:ref", "art:prompt-blob-referenced")
            else:
                self.tag("skills:ref-missing")
        entry["skillsSnapshot"] = snapshot

    def attach_transcript(self, entry: dict[str, Any], sid: str, age: int) -> None:
        rng = self.rng
        g = self.gen
        file_age = max(0, age) + rng.choice([0, MIN, 7 * MIN, HOUR])
        variant = rng.random()
        name = f"{sid}.jsonl"
        target_rel: str | None = self.in_dir(name)
        if variant < 0.35:
            self.tag("sf:absent")
        elif variant < 0.45:
            entry["sessionFile"] = name
            self.tag("sf:relative")
        elif variant < 0.62:
            entry["sessionFile"] = f"@HOME@/{self.dir_rel}/{name}"
            self.tag("sf:absolute-inside")
        elif variant < 0.67:
            topic = rng.choice([7, 42])
            name = f"{sid}-topic-{topic}.jsonl"
            entry["sessionFile"] = rng.choice([name, f"@HOME@/{self.dir_rel}/{name}"])
            target_rel = self.in_dir(name)
            self.tag("sf:topic")
        elif variant < 0.71:
            entry["sessionFile"] = f"@HOME@/elsewhere/{self.agent}/{name}"
            target_rel = f"elsewhere/{self.agent}/{name}"
            self.tag("sf:outside")
        elif variant < 0.74:
            other = "sibling" if self.agent != "sibling" else "other"
            entry["sessionFile"] = f"@HOME@/{STATE}/agents/{other}/sessions/{name}"
            target_rel = f"{STATE}/agents/{other}/sessions/{name}"
            self.tag("sf:sibling-agent")
        elif variant < 0.78:
            entry["sessionFile"] = rng.choice([f"sub/../{name}", f"../sessions/{name}", f"../../{name}",
                                               f"..{name}", f"./{name}"])
            if entry["sessionFile"] == f"../../{name}":
                target_rel = None
            elif entry["sessionFile"] == f"..{name}":
                target_rel = self.in_dir(f"..{name}")
            self.tag("sf:dotdot")
        elif variant < 0.84:
            stale = make_uuid(rng)
            entry["sessionFile"] = rng.choice([f"@HOME@/{self.dir_rel}/{stale}.jsonl", f"{stale}.jsonl",
                                               f"{FIXED_FORK_STAMP}_{stale}.jsonl", f"{stale}-topic-3.jsonl"])
            self.tag("sf:stale-generated")
            stale_name = entry["sessionFile"].rsplit("/", 1)[-1]
            if rng.random() < 0.5:
                self.add_file(self.in_dir(stale_name), transcript_text(
                    rng.choice(["messages", "header-only"]), stale, file_age, rng),
                    age=file_age + 2 * MIN)
        elif variant < 0.87:
            entry["sessionFile"] = f"{FIXED_FORK_STAMP}_{sid}.jsonl"
            target_rel = self.in_dir(entry["sessionFile"])
            self.tag("sf:fork")
        elif variant < 0.90:
            entry["sessionFile"] = rng.choice(["", "   ", 42, f" {name} "])
            self.tag("sf:odd")
        else:
            entry["sessionFile"] = f"@HOME@/{self.dir_rel}/{name}"
            self.tag("sf:absolute-inside")
        # transcript content
        r = rng.random()
        if target_rel is None or r < 0.10:
            self.tag("tr:missing")
            return
        if r < 0.80:
            kind = "messages"
        else:
            kind = rng.choice(["header-only", "empty", "blank-lines", "small-no-message", "role-only",
                               "message-role-only", "typed-role", "unknown-role", "crlf", "unparseable",
                               "large-no-message", "directory", "exact-4096", "exact-4097"])
        self.tag(f"tr:{kind}")
        if any(n.get("path") == target_rel for n in g.files):
            return
        if kind == "directory":
            g.files.append({"path": target_rel, "dir": True})
        elif kind.startswith("exact-"):
            self.add_file(target_rel, exact_size_no_message(sid, file_age, int(kind[6:])), age=file_age)
        else:
            self.add_file(target_rel, transcript_text(kind, sid, file_age, rng), age=file_age)
        if target_rel.startswith(self.dir_rel + "/") and rng.random() < 0.12:
            base = target_rel[: -len(".jsonl")] if target_rel.endswith(".jsonl") else target_rel
            self.add_file(base + ".trajectory.jsonl", json.dumps(
                {"traceSchema": "openclaw-trajectory", "schemaVersion": 1, "source": "runtime",
                 "sessionId": sid}) + "\n", age=file_age)
            self.tag("art:trajectory-sidecar")
            if rng.random() < 0.5:
                runtime = rng.choice([f"@HOME@/{base}.trajectory.jsonl", f"@HOME@/{self.dir_rel}/traj/{sid}.jsonl",
                                      f"@HOME@/traces/{sid}.other.jsonl"])
                self.add_file(base + ".trajectory-path.json", json.dumps(
                    {"traceSchema": "openclaw-trajectory-pointer", "schemaVersion": 1, "sessionId": sid,
                     "runtimeFile": runtime}), age=file_age)
                if "/traj/" in runtime or "/traces/" in runtime:
                    self.add_file(runtime.replace("@HOME@/", ""), json.dumps(
                        {"traceSchema": "openclaw-trajectory", "schemaVersion": 1, "source": "runtime",
                         "sessionId": sid}) + "\n", age=file_age)
                self.tag("art:trajectory-pointer")
        if rng.random() < 0.06:
            self.add_file(target_rel + ".lock", json.dumps({"pid": 999999, "createdAt": f"@ISO({file_age})@",
                                                             "maxHoldMs": 300000}), age=file_age)
            self.tag("art:lock")
        if rng.random() < 0.05 and sid:
            cp = f"{sid}.checkpoint.{make_uuid(rng)}.jsonl"
            self.add_file(self.in_dir(cp), transcript_text("messages", sid, file_age, rng), age=file_age)
            entry["compactionCheckpoints"] = [{
                "checkpointId": make_uuid(rng), "sessionKey": "k", "sessionId": sid,
                "createdAt": {"$ago": file_age}, "reason": "manual",
                "preCompaction": {"sessionId": sid, "sessionFile": f"@HOME@/{self.dir_rel}/{cp}"},
                "postCompaction": {"sessionId": sid, "sessionFile": f"@HOME@/{target_rel}"},
            }]
            self.tag("art:checkpoint-referenced")

    # -- folder-level artifacts
    def add_artifacts(self) -> None:
        rng = self.rng
        g = self.gen
        prune = g.prune_ms
        reset = g.reset_ms
        p = g.artifact_density

        def old() -> int:
            return self.ages.between(prune + HOUR, prune + 90 * DAY)

        def young() -> int:
            return self.ages.between(10 * MIN, max(20 * MIN, prune - HOUR))

        if rng.random() < p:
            for _ in range(rng.randint(1, 3)):
                sid = make_uuid(rng)
                is_old = rng.random() < 0.5
                self.add_file(self.in_dir(f"{sid}.jsonl"), transcript_text("messages", sid, 0, rng),
                              age=old() if is_old else young())
                self.tag("art:orphan-old" if is_old else "art:orphan-young")
        if rng.random() < p:
            for _ in range(rng.randint(1, 3)):
                is_old = rng.random() < 0.5
                ts_age = old() if is_old else young()
                name = f"{rng.choice(self.sids or [make_uuid(rng)])}.jsonl.deleted.@TS({ts_age})@"
                self.add_file(self.in_dir(name), "{}\n" * rng.randint(1, 30), age=self.ages.between(MIN * 10, 90 * DAY))
                self.tag("art:deleted-old" if is_old else "art:deleted-new")
        if rng.random() < p:
            for _ in range(rng.randint(1, 2)):
                limit = reset if reset is not None else prune
                is_old = rng.random() < 0.5
                ts_age = self.ages.between(limit + HOUR, limit + 60 * DAY) if is_old \
                    else self.ages.between(10 * MIN, max(20 * MIN, limit - HOUR))
                self.add_file(self.in_dir(f"{make_uuid(rng)}.jsonl.reset.@TS({ts_age})@"), "{}\n" * 5, age=old())
                self.tag("art:reset-old" if is_old else "art:reset-new")
        if rng.random() < p * 0.6:
            self.add_file(self.in_dir(f"{make_uuid(rng)}.jsonl.bak.@TS({old()})@"), "bak\n" * 20, age=old())
            self.tag("art:bak")
        if rng.random() < p * 0.5 and self.basename == "sessions.json":
            self.add_file(self.in_dir(f"sessions.json.bak.@MS({old()})@"), "{}", age=old())
            self.tag("art:legacy-bak")
        if rng.random() < p * 0.4:
            cp = f"{make_uuid(rng)}.checkpoint.{make_uuid(rng)}.jsonl"
            self.add_file(self.in_dir(cp), "{}\n", age=rng.choice([old(), young()]))
            self.tag("art:checkpoint-unreferenced")
            if rng.random() < 0.3:
                self.add_file(self.in_dir("x.checkpoint.not-a-uuid.jsonl"), "{}\n", age=old())
        if rng.random() < p * 0.5:
            stem = make_uuid(rng)
            self.add_file(self.in_dir(f"{stem}.trajectory.jsonl"), "{}\n", age=rng.choice([old(), young()]))
            self.add_file(self.in_dir(f"{stem}.trajectory-path.json"), "{}", age=rng.choice([old(), young()]))
            self.tag("art:trajectory-orphan")
        if rng.random() < p:
            fresh = rng.random() < 0.5
            pid = rng.choice(["", f"{rng.randint(100, 99999)}."])
            uid = make_uuid(rng)
            uid = uid.upper() if rng.random() < 0.2 else uid
            self.add_file(self.in_dir(f"{self.basename}.{pid}{uid}.tmp"), "{\"partial\":",
                          age=self.ages.between(MIN, 3 * MIN) if fresh else self.ages.between(8 * MIN, 30 * DAY))
            self.tag("art:store-temp-fresh" if fresh else "art:store-temp-stale")
        if rng.random() < p * 0.6:
            text = skills_prompt(rng, 600)
            digest = sha256_hex(text)
            is_old = rng.random() < 0.6
            self.add_file(self.in_dir(f"skills-prompts/sha256/{digest[:2]}/{digest}.txt"), text,
                          age=self.ages.between(max(prune, TEMP_STALE_MS) + HOUR, prune + 60 * DAY) if is_old
                          else self.ages.between(MIN, 3 * MIN), mode="600")
            self.tag("art:prompt-blob-unreferenced")
            if rng.random() < 0.5:
                fresh = rng.random() < 0.5
                self.add_file(self.in_dir(f"skills-prompts/sha256/{digest[:2]}/{digest}.txt.{rng.randint(10, 9999)}."
                                          f"{make_uuid(rng)}.tmp"), text[:100],
                              age=self.ages.between(MIN, 3 * MIN) if fresh else self.ages.between(8 * MIN, 9 * DAY))
                self.tag("art:blob-temp")
        if rng.random() < p * 0.4:
            sid = rng.choice(self.sids or ["nosid"])
            self.add_file(self.in_dir(f"{sid}.jsonl.compact.{make_uuid(rng)}.tmp"), "partial\n", age=old())
            self.tag("art:compact-tmp")
        if rng.random() < p * 0.4:
            self.add_file(self.in_dir(rng.choice(["notes.txt", "README", ".DS_Store", "keep.deleted.keep.jsonl",
                                                  "x.jsonl.deleted.2026-13-99", "sessions.json.bak",
                                                  "sessions.jsonl"])), "unknown\n",
                          age=rng.choice([old(), young()]))
            self.tag("art:unknown")
        if rng.random() < p * 0.3:
            self.add_file(self.in_dir(f"subdir/{make_uuid(rng)}.jsonl"), "{}\n", age=old())
            self.tag("art:subdir")
        if rng.random() < p * 0.3:
            choice = rng.randint(0, 2)
            if choice == 0 and self.sids:
                g.files.append({"path": self.in_dir(f"link-{rng.randint(1, 99)}.jsonl"),
                                "symlink": f"{rng.choice(self.sids)}.jsonl"})
            elif choice == 1:
                g.files.append({"path": self.in_dir(f"{make_uuid(rng)}.jsonl"), "symlink": "@HOME@/elsewhere/target.jsonl"})
                if not any(n["path"] == "elsewhere/target.jsonl" for n in g.files):
                    self.add_file("elsewhere/target.jsonl", "{}\n", age=old())
            else:
                g.files.append({"path": self.in_dir(f"dangling-{rng.randint(1, 99)}.jsonl"), "symlink": "nowhere.jsonl"})
            self.tag("art:symlink")

    def store_node(self) -> dict[str, Any]:
        rng = self.rng
        r = rng.random()
        node: dict[str, Any] = {"path": self.store_rel, "role": "store",
                                "age": self.ages.unique_file_age(self.ages.between(MIN, 2 * DAY))}
        if r < 0.02:
            node["text"] = rng.choice(["{not json", "", "[]", "null", "\"str\""])
            self.tag("store:corrupt" if node["text"] else "store:empty-file")
        else:
            node["json"] = self.entries
            node["style"] = rng.choice(["pretty", "pretty", "compact", "pretty-nl", "spaced"])
            if rng.random() < 0.15:
                node["mode"] = "600"
        return node


# --------------------------------------------------------------------------- case generation

class CaseGen:
    def __init__(self, seed: int):
        self.seed = seed
        self.rng = random.Random(seed)
        self.files: list[dict[str, Any]] = []
        self.tags: set[str] = set()
        self.config: dict[str, Any] = {}
        self.env: dict[str, str | None] = {}
        self.prune_ms = DEFAULT_PRUNE_MS
        self.reset_ms: int | None = DEFAULT_PRUNE_MS
        self.artifact_density = 0.35
        self.expect_error = False

    # -- config
    def choose_maintenance(self) -> dict[str, Any]:
        rng = self.rng
        m: dict[str, Any] = {}
        r = rng.random()
        if r < 0.3:
            m["mode"] = "warn"
            self.tags.add("cfg:mode-warn")
        elif r < 0.5:
            m["mode"] = "enforce"
            self.tags.add("cfg:mode-enforce")
        r = rng.random()
        if r < 0.35:
            m["pruneAfter"] = rng.choice(["7d", "14d", "3d", "36h", "2d", "90d", "1.5d", "48h", "10d", "1d12h"])
            self.tags.add("cfg:pruneAfter-string")
        elif r < 0.5:
            m["pruneAfter"] = rng.choice([7, 14, 3, 2])
            self.tags.add("cfg:pruneAfter-number")
        elif r < 0.58:
            m["pruneDays"] = rng.choice([5, 9, 20])
            self.tags.add("cfg:pruneDays")
        self.prune_ms = parse_duration_ms(m.get("pruneAfter", m.get("pruneDays"))) or DEFAULT_PRUNE_MS
        r = rng.random()
        if r < 0.15:
            m["resetArchiveRetention"] = False
            self.reset_ms = None
            self.tags.add("cfg:resetArchiveRetention-false")
        elif r < 0.35:
            m["resetArchiveRetention"] = rng.choice(["1d", "3d", "10d", 2, "12h"])
            self.reset_ms = parse_duration_ms(m["resetArchiveRetention"])
            self.tags.add("cfg:resetArchiveRetention")
        else:
            self.reset_ms = self.prune_ms
        return m

    def cutoffs(self) -> list[int]:
        return [self.prune_ms, MODEL_RUN_MS, TEMP_STALE_MS, self.reset_ms or 0, max(self.prune_ms, TEMP_STALE_MS)]

    def generate(self) -> Case:
        """One case: config, stores and files, then the command lines, drawn in a fixed order from the seed."""
        maintenance = self.choose_maintenance()
        self.ages = Ages(self.rng, self.cutoffs())
        session: dict[str, Any] = {}
        agents_cfg, agent_ids, default_agent = self.choose_agents()
        acp_ids = self.choose_acp()
        store_template = self.choose_session_config(session)
        target, stores_for, chosen_agent = self.choose_target(agent_ids, acp_ids, default_agent)
        store_gens, big = self.make_stores(stores_for, store_template, target)
        self.choose_limits(maintenance, store_gens, big)
        if maintenance:
            session["maintenance"] = maintenance
        if session:
            self.config["session"] = session
        if agents_cfg:
            self.config["agents"] = agents_cfg
        missing_stores = self.write_store_files(store_gens)
        main_sg = store_gens[0] if store_gens else None
        flags = self.choose_flags(main_sg)
        sel, parent = self.choose_selection(target, main_sg, agents_cfg, chosen_agent, default_agent)
        runs = self.choose_runs(maintenance, parent, sel, flags)
        config = self.choose_config_form()
        name = f"gen-{self.seed:05d}-{target}" + (f"-{len(main_sg.entries)}e" if main_sg else "")
        difference, ours_extra = self.expected_differences(maintenance, store_gens, sel, parent, main_sg,
                                                           missing_stores)
        return Case(name=name, files=self.files, runs=runs, config=config, env=self.env,
                    tags=sorted(self.tags), expect_error=self.expect_error, seed=self.seed,
                    expected_difference=difference, ours_extra_args=ours_extra)

    def choose_agents(self) -> tuple[dict[str, Any] | None, list[str], str]:
        """Sometimes an `agents.list` (1-3 agents, maybe a default and models): (config, ids, default id)."""
        rng = self.rng
        if rng.random() >= 0.3:
            return None, ["main"], "main"
        pool = ["main", "work", "Ops Team", "research", "Coder"]
        chosen = rng.sample(pool, rng.randint(1, 3))
        lst: list[dict[str, Any]] = []
        for raw in chosen:
            item: dict[str, Any] = {"id": raw}
            if rng.random() < 0.3:
                item["model"] = rng.choice(["openai/gpt-4.1", {"primary": "anthropic/claude-opus-4"}, "mistral-large"])
            lst.append(item)
        if len(lst) > 1 and rng.random() < 0.5:
            rng.choice(lst)["default"] = True
            self.tags.add("cfg:agents-default")
        agents_cfg: dict[str, Any] = {"list": lst}
        if rng.random() < 0.3:
            agents_cfg["defaults"] = {"model": rng.choice(["google/gemini-2.5-pro", {"primary": "xai/grok-4"}])}
        defaults = [a for a in lst if a.get("default")]
        self.tags.add("cfg:agents-list")
        return (agents_cfg, [normalize_agent_id(a["id"]) for a in lst],
                normalize_agent_id((defaults[0] if defaults else lst[0])["id"]))

    def choose_acp(self) -> list[str]:
        """Sometimes an `acp` block: the ACP agent ids it allows."""
        if self.rng.random() >= 0.12:
            return []
        self.config["acp"] = {"defaultAgent": "claude", "allowedAgents": self.rng.choice([["gemini", "*"], ["codex"]])}
        self.tags.add("cfg:acp")
        return ["claude"] + [a for a in self.config["acp"]["allowedAgents"] if a != "*"]

    def choose_session_config(self, session: dict[str, Any]) -> str | None:
        """`session.dmScope` and `session.store` (a template, or one shared store); returns the template."""
        rng = self.rng
        if rng.random() < 0.3:
            session["dmScope"] = rng.choice(["main", "per-peer", "per-channel-peer", "per-account-channel-peer"])
            self.tags.add(f"cfg:dmScope-{session['dmScope']}")
        store_template: str | None = None
        r = rng.random()
        if r < 0.12:
            store_template = rng.choice(["~/.openclaw/stores/{agentId}/sessions.json",
                                         "@HOME@/custom/{agentId}/sessions.json",
                                         "~/.openclaw/agents/{agentId}/sessions/sessions.json"])
            self.tags.add("cfg:store-template")
        elif r < 0.17:
            store_template = "~/.openclaw/shared/sessions.json"
            self.tags.add("cfg:store-shared")
        if store_template:
            session["store"] = store_template
        return store_template

    def choose_target(self, agent_ids: list[str], acp_ids: list[str],
                      default_agent: str) -> tuple[str, list[str], str]:
        """How the run picks its stores: (target kind, agents whose stores are made, the chosen agent)."""
        rng = self.rng
        target = rng.choices(["store", "default", "agent", "all-agents", "parent"], [50, 15, 12, 13, 10])[0]
        if target == "all-agents":
            stores_for = list(dict.fromkeys(agent_ids + [normalize_agent_id(a) for a in acp_ids]))
        else:
            stores_for = [default_agent]
        chosen_agent = default_agent
        if target == "agent" or (target == "parent" and rng.random() < 0.5):
            chosen_agent = rng.choice(agent_ids)
            stores_for = [chosen_agent]
        return target, stores_for, chosen_agent

    def make_stores(self, stores_for: list[str], store_template: str | None,
                    target: str) -> tuple[list[StoreGen], bool]:
        """The targeted stores with entries and artifacts, maybe a bystander store and a legacy transcript."""
        rng = self.rng

        def store_rel_for(agent: str) -> str:
            if store_template:
                path = store_template.replace("{agentId}", agent)
                return path.replace("~/", "").replace("@HOME@/", "")
            return f"{STATE}/agents/{agent}/sessions/sessions.json"

        big = rng.random() < 0.05
        self.artifact_density = rng.choice([0.15, 0.35, 0.6, 0.9])
        store_gens: list[StoreGen] = []
        seen_paths: set[str] = set()
        for agent in stores_for:
            rel = store_rel_for(agent)
            if rel in seen_paths:
                continue
            seen_paths.add(rel)
            sg = StoreGen(self, agent, rel)
            n = rng.randint(150, 320) if big else rng.choice([0, 2, 3, 5, 8, 10, 12, 15, 20, 25, 30]) \
                if len(stores_for) == 1 else rng.randint(0, 10)
            if big:
                self.tags.add("size:large")
                self.artifact_density = 0.15
            kinds = list(KEY_KINDS)
            weights = list(KEY_KINDS.values())
            for _ in range(n):
                sg.add_entry(rng.choices(kinds, weights)[0])
            sg.add_artifacts()
            store_gens.append(sg)
        if target in ("store", "agent") and rng.random() < 0.15:
            # an untargeted neighbour store that must stay untouched
            other = "bystander"
            sg = StoreGen(self, other, f"{STATE}/agents/{other}/sessions/sessions.json")
            for _ in range(3):
                sg.add_entry(rng.choice(["main", "direct-per-peer", "subagent"]))
            store_gens.append(sg)
            self.tags.add("store:bystander")
        if rng.random() < 0.08 and store_gens and store_gens[0].sids:
            # legacy transcript dir (never touched unless it is the store dir)
            sid = store_gens[0].sids[0]
            self.files.append({"path": f"{STATE}/sessions/{sid}.jsonl", "text": transcript_text("messages", sid, 0, rng),
                               "age": self.ages.unique_file_age(self.ages.between(HOUR, 3 * DAY))})
            self.tags.add("art:legacy-dir")
        return store_gens, big

    def choose_limits(self, maintenance: dict[str, Any], store_gens: list[StoreGen], big: bool) -> None:
        """`maxEntries`, `maxDiskBytes`/`highWaterBytes` (sized from the folder) and a legacy `rotateBytes`."""
        rng = self.rng
        total_entries = sum(len(sg.entries) for sg in store_gens[:1])
        r = rng.random()
        if big:
            maintenance["maxEntries"] = rng.choice([50, 100, 120, 200])
            self.tags.add("cfg:maxEntries")
        elif r < 0.35 and total_entries:
            maintenance["maxEntries"] = max(1, rng.randint(1, max(1, total_entries)))
            self.tags.add("cfg:maxEntries")
            if maintenance["maxEntries"] <= 3:
                self.tags.add("cfg:maxEntries-small")
        if rng.random() < 0.3 and store_gens:
            dir_rel = store_gens[0].dir_rel
            kind = rng.random()
            if kind < 0.6:
                maintenance["maxDiskBytes"] = {"$bytesOf": dir_rel, "x": rng.choice([0.3, 0.5, 0.7, 0.85, 0.95, 1.5])}
            elif kind < 0.8:
                maintenance["maxDiskBytes"] = rng.choice(["1kb", "20kb", "1mb", 4096, "2k", "0.5kb"])
            else:
                maintenance["maxDiskBytes"] = 0
            self.tags.add("cfg:maxDiskBytes")
            if rng.random() < 0.5:
                maintenance["highWaterBytes"] = rng.choice([{"$bytesOf": dir_rel, "x": rng.choice([0.1, 0.2, 0.4, 0.6])},
                                                            "100mb", 1, "3kb"])
                self.tags.add("cfg:highWaterBytes")
        if rng.random() < 0.03:
            maintenance["rotateBytes"] = "10mb"
            self.tags.add("cfg:rotateBytes")

    def write_store_files(self, store_gens: list[StoreGen]) -> set[str]:
        """Each store's `sessions.json` (rarely left out); returns the stores without one."""
        missing_stores: set[str] = set()
        for sg in store_gens:
            if self.rng.random() < 0.97:
                self.files.insert(0, sg.store_node())
            else:
                self.tags.add("store:missing-file")
                missing_stores.add(sg.store_rel)
        return missing_stores

    def choose_flags(self, main_sg: StoreGen | None) -> list[str]:
        """`--active-key` (as stored, re-cased, padded or unknown), `--fix-missing`, `--fix-dm-scope`."""
        rng = self.rng
        flags: list[str] = []
        if main_sg and main_sg.entries and rng.random() < 0.3:
            active_key = rng.choice(list(main_sg.entries))
            r = rng.random()
            if r < 0.2:
                active_key = f"  {active_key.upper()}  "
                self.tags.add("cli:active-key-variant")
            elif r < 0.3:
                active_key = active_key.lower()
            flags += ["--active-key", active_key]
            self.tags.add("cli:active-key")
        elif rng.random() < 0.05:
            flags += ["--active-key", "agent:main:does-not-exist"]
            self.tags.add("cli:active-key")
        if rng.random() < 0.3:
            flags.append("--fix-missing")
            self.tags.add("cli:fix-missing")
        if rng.random() < 0.22:
            flags.append("--fix-dm-scope")
            self.tags.add("cli:fix-dm-scope")
        if "--active-key" not in flags:
            rng.shuffle(flags)
        return flags

    def _agent_as_configured(self, agents_cfg: dict[str, Any] | None, agent: str) -> str:
        return next((a["id"] for a in (agents_cfg or {}).get("list", []) if normalize_agent_id(a["id"]) == agent),
                    agent)

    def choose_selection(self, target: str, main_sg: StoreGen | None, agents_cfg: dict[str, Any] | None,
                         chosen_agent: str, default_agent: str) -> tuple[list[str], list[str]]:
        """The store selection of `cleanup` itself, and the one given to the parent `sessions` command."""
        rng = self.rng
        sel: list[str] = []
        parent: list[str] = []
        if target == "store":
            rel = main_sg.store_rel if main_sg else f"{STATE}/agents/main/sessions/sessions.json"
            form = rng.random()
            sel = ["--store", f"@HOME@/{rel}" if form < 0.7 else f"~/{rel}" if form < 0.85 else rel]
            self.tags.add("cli:store")
        elif target == "default":
            self.tags.add("cli:default-target")
        elif target == "agent":
            raw = self._agent_as_configured(agents_cfg, chosen_agent)
            if rng.random() < 0.06:
                raw, self.expect_error = "ghost", True
                self.tags.add("cli:unknown-agent")
            sel = ["--agent", raw]
            self.tags.add("cli:agent")
        elif target == "all-agents":
            sel = ["--all-agents"]
            self.tags.add("cli:all-agents")
        else:
            self.tags.add("cli:parent-option")
            if chosen_agent != default_agent or rng.random() < 0.4:
                parent = ["--agent", self._agent_as_configured(agents_cfg, chosen_agent)]
                self.tags.add("cli:agent")
            elif rng.random() < 0.5 and main_sg:
                parent = ["--store", f"@HOME@/{main_sg.store_rel}"]
                self.tags.add("cli:store")
            else:
                parent = ["--all-agents"]
                self.tags.add("cli:all-agents")
        return sel, parent

    def choose_runs(self, maintenance: dict[str, Any], parent: list[str], sel: list[str],
                    flags: list[str]) -> list[list[str]]:
        """The three runs: dry run as JSON, dry run as text, then the applying (or warn-mode) run."""
        rng = self.rng
        mode_warn = maintenance.get("mode") == "warn"
        enforce = (not mode_warn and rng.random() < 0.5) or (mode_warn and rng.random() < 0.4)
        if enforce:
            self.tags.add("cli:enforce")
        apply_json = rng.random() < 0.75

        def cmd(*extra: str) -> list[str]:
            return ["sessions", *parent, "cleanup", *extra, *sel, *flags]

        runs = [cmd("--dry-run", "--json"), cmd("--dry-run"),
                cmd(*(["--enforce"] if enforce else []), *(["--json"] if apply_json else []))]
        if parent and rng.random() < 0.3:
            runs[0] = ["sessions", *parent, "--json", "cleanup", "--dry-run", *sel, *flags]
        self.tags.update({"cli:dry-run", "cli:json"})
        return runs

    def choose_config_form(self) -> dict[str, Any] | str | None:
        """The config as JSON, as raw JSON5 text, or (rarely, when empty) no file at all."""
        rng = self.rng
        if rng.random() < 0.05 and not self.config:
            self.tags.add("cfg:absent")
            return None
        if rng.random() < 0.2 and "$bytesOf" not in json.dumps(self.config):
            self.tags.add("cfg:json5-raw")
            return "// generated JSON5 config\n" + to_json5(self.config) + "\n"
        return self.config

    def expected_differences(self, maintenance: dict[str, Any], store_gens: list[StoreGen], sel: list[str],
                             parent: list[str], main_sg: StoreGen | None,
                             missing_stores: set[str]) -> tuple[str | None, list[str]]:
        """The documented difference the case meets, if any, and the extra arguments our runs take."""
        difference = None
        ours_extra: list[str] = []
        budget = "maxDiskBytes" in maintenance
        if any(may_sweep_lost_index(self.files, sg.store_rel, sg.entries, self.prune_ms, budget)
               for sg in store_gens if sg.agent != "bystander"):
            # Our lost-index guard would stop the run; with it switched off both must agree.
            self.tags.add("store:lost-index")
            ours_extra = [ALLOW_EMPTY_STORE]
        if "store:corrupt" in self.tags or "store:empty-file" in self.tags:
            difference = ("a store that is empty, does not parse or is not an object is never rewritten: this "
                          "project exits 1 naming the file (the reference reads it as {} and rewrites it)")
        explicit = "--store" in sel or "--store" in parent
        if explicit and (main_sg is None or main_sg.store_rel in missing_stores):
            difference = MISSING_STORE_DIFFERENCE
        return difference, ours_extra


ALLOW_EMPTY_STORE = "--allow-empty-store"
# sessionIds the generator writes that make OpenClaw drop the whole entry on load
_DROPPED_SESSION_IDS = ("../escape", "a/b", "", 123, ".", "with space", "-lead")


def may_sweep_lost_index(files: list[dict[str, Any]], store_rel: str, entries: dict[str, Any], prune_ms: int,
                         budget: bool) -> bool:
    """Whether the store may read with no entries while a transcript beside it could be swept
    (older than pruneAfter, or any age under a disk budget). Errs on the side of yes: such a case
    runs ours with --allow-empty-store, which must then change nothing of the comparison."""
    store_nodes = [n for n in files if n.get("path") == store_rel and n.get("role") == "store"]
    if store_nodes and "json" not in store_nodes[0]:
        return False  # a store that does not parse is refused before anything else
    if store_nodes and any(type(e) is not dict or e.get("sessionId", "ok") not in _DROPPED_SESSION_IDS
                           for e in entries.values()):
        return False
    folder = store_rel.rsplit("/", 1)[0] + "/"
    for node in files:
        path = node.get("path", "")
        if not path.startswith(folder) or "/" in path[len(folder):] or not path.endswith(".jsonl"):
            continue
        if "dir" in node or "symlink" in node:
            continue
        if budget or node.get("age", 0) > prune_ms:
            return True
    return False


def generate_case(seed: int) -> Case:
    """A deterministic random case for ``seed``."""
    return CaseGen(seed).generate()


def case_seeds(base_seed: int, count: int) -> list[int]:
    return [base_seed * 100_000 + i for i in range(count)]


# --------------------------------------------------------------------------- hand-written edge cases

FRESH = 2 * HOUR + 5 * MIN          # "2h ago", far from every cutoff
YOUNG = 3 * DAY + 2 * HOUR          # younger than the 30 d default
OLD = 45 * DAY + 3 * HOUR           # older than the 30 d default
ANCIENT = 200 * DAY + 4 * HOUR
PROBE_OLD = 30 * HOUR + 10 * MIN    # older than the 24 h model-run limit
MISSING_STORE_DIFFERENCE = ("an explicit --store whose file does not exist is an error: this project exits 1 "
                            "and creates nothing (the reference creates the folder and {} and exits 0)")
MAIN_DIR = f"{STATE}/agents/main/sessions"
MAIN_STORE = f"{MAIN_DIR}/sessions.json"
STORE_ARG = ["--store", f"@HOME@/{MAIN_STORE}"]


class Edge:
    """A small builder for hand-written edge cases."""

    def __init__(self, name: str, note: str = ""):
        self.name = f"edge-{name}"
        self.note = note
        self.files: list[dict[str, Any]] = []
        self.config: dict[str, Any] | str | None = None
        self.config_path = ".openclaw/openclaw.json"
        self.env: dict[str, str | None] = {}
        self.runs: list[list[str]] = []
        self.ignore: list[str] = []
        self.cwd = ""
        self.expect_error = False
        self.expected_difference: str | None = None
        self.ours_extra_args: list[str] = []
        self._tick = 0
        self.rng = random.Random(name)

    def _age(self, age: int) -> int:
        self._tick += 1
        return age + self._tick * 1_117

    def store(self, entries: dict[str, Any] | str, rel: str = MAIN_STORE, style: str = "pretty",
              age: int = FRESH, mode: str | None = None) -> Edge:
        node: dict[str, Any] = {"path": rel, "role": "store", "age": self._age(age)}
        if isinstance(entries, str):
            node["text"] = entries
        else:
            node["json"] = entries
            node["style"] = style
        if mode:
            node["mode"] = mode
        self.files.append(node)
        return self

    def file(self, rel: str, text: str = "{}\n", age: int = OLD, **extra: Any) -> Edge:
        node = {"path": rel, "text": text, "age": self._age(age)}
        node.update(extra)
        self.files.append(node)
        return self

    def tr(self, sid: str, kind: str = "messages", age: int = FRESH, dir_rel: str = MAIN_DIR,
           name: str | None = None) -> Edge:
        rel = f"{dir_rel}/{name or sid + '.jsonl'}"
        if kind == "directory":
            self.files.append({"path": rel, "dir": True})
            return self
        if kind.startswith("exact-"):
            return self.file(rel, exact_size_no_message(sid, age, int(kind[6:])), age)
        return self.file(rel, transcript_text(kind, sid, age, self.rng), age)

    def node(self, **node: Any) -> Edge:
        self.files.append(node)
        return self

    def standard_runs(self, sel: list[str] | None = None, flags: list[str] | None = None,
                      enforce: bool = True, apply_json: bool = True) -> Edge:
        sel = STORE_ARG if sel is None else sel
        flags = flags or []
        self.runs = [["sessions", "cleanup", "--dry-run", "--json", *sel, *flags],
                     ["sessions", "cleanup", "--dry-run", *sel, *flags],
                     ["sessions", "cleanup", *(["--enforce"] if enforce else []),
                      *(["--json"] if apply_json else []), *sel, *flags]]
        return self

    def maintenance(self, **values: Any) -> Edge:
        cfg = self.config if isinstance(self.config, dict) else {}
        cfg.setdefault("session", {}).setdefault("maintenance", {}).update(values)
        self.config = cfg
        return self

    def build(self) -> Case:
        if not self.runs:
            self.standard_runs()
        return Case(name=self.name, files=self.files, runs=self.runs, config=self.config,
                    config_path=self.config_path, env=self.env, cwd=self.cwd, tags=["edge"],
                    ignore=self.ignore, expected_difference=self.expected_difference,
                    expect_error=self.expect_error, note=self.note, ours_extra_args=self.ours_extra_args)


# The hand-written cases, as data: each has a `name` (the case id is `edge-<name>`), a `note`, the
# Edge builder calls that make its files (`steps`: [method, {argument: value}], in order, since
# transcript texts and file ages follow the order of the calls) and the Edge attributes it sets
# (runs, config, env, cwd, ignore, expected_difference, ...). Ages may be written by name.
EDGE_TABLE = Path(__file__).resolve().parents[1] / "data" / "cleanup" / "edge_cases.json"
EDGE_ATTRIBUTES = ("config", "config_path", "env", "runs", "ignore", "cwd", "expect_error",
                   "expected_difference", "ours_extra_args")
NAMED_AGES = {"FRESH": FRESH, "YOUNG": YOUNG, "OLD": OLD, "ANCIENT": ANCIENT, "PROBE_OLD": PROBE_OLD}


def _named_ages(value: Any, key: str = "") -> Any:
    """The table's values with ages written by name (under `age` or `$ago`) as milliseconds."""
    if isinstance(value, dict):
        return {name: _named_ages(child, name) for name, child in value.items()}
    if isinstance(value, list):
        return [_named_ages(child, key) for child in value]
    if key in ("age", "$ago") and isinstance(value, str):
        return NAMED_AGES[value]
    return value


def edge_cases() -> list[Case]:
    """Hand-written cases aimed at the corners of the cleanup algorithm and its output (EDGE_TABLE)."""
    cases = []
    for row in json.loads(EDGE_TABLE.read_text(encoding="utf-8")):
        edge = Edge(row["name"], row.get("note", ""))
        for method, *arguments in row.get("steps", []):
            getattr(edge, method)(**_named_ages(arguments[0] if arguments else {}))
        for attribute in EDGE_ATTRIBUTES:
            if attribute in row:
                setattr(edge, attribute, _named_ages(row[attribute]))
        cases.append(edge.build())
    return cases

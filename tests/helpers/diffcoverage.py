"""What a differential case covers: the features of its keys, transcripts, files and config."""

from __future__ import annotations

import json
import re
from typing import Any

from helpers.diffgen import DEFAULT_PRUNE_MS, FLAG_FIELDS, TEMP_STALE_MS, parse_duration_ms
from helpers.diffharness import Case

UUID_RE = r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"
REQUIRED_CATEGORIES: tuple[str, ...] = (
    # session-key kinds (spec §2.2/§2.3)
    "key:main", "key:direct-per-peer", "key:direct-per-channel-peer", "key:direct-per-account-channel-peer",
    "key:group", "key:channel", "key:room", "key:thread", "key:telegram-topic", "key:cron", "key:cron-run",
    "key:hook", "key:subagent", "key:subagent-nested", "key:acp", "key:acp-bridge", "key:node",
    "key:heartbeat", "key:explicit", "key:model-run", "key:model-run-near-miss", "key:unscoped",
    "key:uppercase", "key:whitespace", "key:long",
    # protection by chatType
    "chattype:entry", "chattype:origin",
    # artifact families (§1.5)
    "art:deleted-old", "art:deleted-new", "art:reset-old", "art:reset-new", "art:bak", "art:legacy-bak",
    "art:checkpoint-referenced", "art:checkpoint-unreferenced", "art:trajectory-sidecar",
    "art:trajectory-pointer", "art:store-temp-fresh", "art:store-temp-stale", "art:prompt-blob",
    "art:blob-temp", "art:lock", "art:compact-tmp", "art:unknown", "art:subdir", "art:symlink",
    # sessionFile variants
    "sf:absent", "sf:relative", "sf:absolute-inside", "sf:topic", "sf:outside", "sf:sibling-agent",
    "sf:dotdot", "sf:stale-generated",
    # transcripts
    "sid:shared", "tr:missing", "tr:header-only", "tr:empty", "tr:no-message-small", "tr:large-no-message",
    "tr:unparseable", "tr:messages",
    # entries
    "upd:missing", "upd:tie", "label:control", "label:ansi", "label:non-ascii", "label:empty",
    "label:non-string", "model:modelOverride", "model:providerOverride", "model:model",
    *(f"flag:{name}" for name in FLAG_FIELDS if name != "runtimePolicySessionKey"),
    # config
    "cfg:mode-warn", "cfg:mode-enforce", "cfg:pruneAfter-string", "cfg:pruneAfter-number", "cfg:pruneDays",
    "cfg:maxEntries", "cfg:maxEntries-below-protected", "cfg:resetArchiveRetention",
    "cfg:resetArchiveRetention-false", "cfg:maxDiskBytes", "cfg:highWaterBytes", "budget:prompt-blob",
    "budget:archive", "budget:orphan", "budget:entry", "cfg:dmScope", "cfg:store-template",
    "cfg:store-shared", "cfg:agents-list", "cfg:agents-default", "cfg:acp", "cfg:json5-raw",
    # CLI flags
    "cli:dry-run", "cli:enforce", "cli:json", "cli:store", "cli:agent", "cli:all-agents", "cli:active-key",
    "cli:fix-missing", "cli:fix-dm-scope", "cli:parent-option",
    # size
    "size:large",
)


def classify_key(raw: str) -> set[str]:
    """Key kinds of a raw store key, from its shape alone."""
    out: set[str] = set()
    if raw != raw.strip():
        out.add("key:whitespace")
    if raw != raw.lower():
        out.add("key:uppercase")
    if len(raw) > 26:
        out.add("key:long")
    low = raw.strip().lower()
    m = re.fullmatch(r"agent:([^:]+):(.+)", low)
    rest = m.group(2) if m else low
    if not m:
        out.add("key:unscoped")
    if rest == "main":
        out.add("key:main")
    if re.fullmatch(r"direct:[^:]+", rest):
        out.add("key:direct-per-peer")
    elif re.fullmatch(r"[^:]+:direct:[^:]+", rest):
        out.add("key:direct-per-channel-peer")
    elif re.fullmatch(r"[^:]+:[^:]+:direct:[^:]+", rest):
        out.add("key:direct-per-account-channel-peer")
    for kind in ("group", "channel", "room"):
        if re.match(rf"[^:]+:{kind}:", rest):
            out.add(f"key:{kind}")
    if ":thread:" in rest:
        out.add("key:thread")
    if re.fullmatch(r"telegram:(group|channel|direct|dm):.+:topic:[^:]+", rest):
        out.add("key:telegram-topic")
    if rest.startswith("cron:"):
        out.add("key:cron-run" if re.match(r"cron:[^:]+:run:[^:]+", rest) else "key:cron")
    if rest.startswith("hook:"):
        out.add("key:hook")
    if rest.startswith("subagent:"):
        out.add("key:subagent-nested" if rest.count("subagent:") > 1 else "key:subagent")
    if rest.startswith("acp:"):
        out.add("key:acp")
    if rest.startswith("acp-bridge:"):
        out.add("key:acp-bridge")
    if rest.startswith("node:"):
        out.add("key:node")
    if rest == "heartbeat" or rest.endswith(":heartbeat") or ":heartbeat:" in rest:
        out.add("key:heartbeat")
    if rest.startswith("explicit:") and "model-run" not in rest:
        out.add("key:explicit")
    if "model-run" in low:
        valid = re.fullmatch(rf"agent:([^:\s]+):explicit:model-run-{UUID_RE}", raw, re.I) is not None
        out.add("key:model-run" if valid else "key:model-run-near-miss")
    return out


def is_protected_shape(raw: str, entry: Any) -> bool:
    """Approximation of the reference's protection rule (for coverage accounting only)."""
    low = raw.strip().lower()
    m = re.fullmatch(r"agent:([^:]+):(.+)", low)
    rest = m.group(2) if m else low
    synthetic = (rest.startswith(("subagent:", "acp:", "cron:", "acp-bridge:", "hook:", "node:"))
                 or rest == "heartbeat" or rest.endswith(":heartbeat") or ":heartbeat:" in rest)
    if synthetic:
        return False
    if re.search(r":thread:\S", low) or re.fullmatch(r"telegram:(group|channel|direct|dm):.+:topic:[^:]+", rest):
        return True
    if re.fullmatch(r"[^:]+:(group|channel):.+", rest):
        return True
    if isinstance(entry, dict):
        chat = entry.get("chatType")
        if not isinstance(chat, str):
            origin = entry.get("origin")
            chat = origin.get("chatType") if isinstance(origin, dict) else None
        return isinstance(chat, str) and chat.lower() in ("group", "channel", "thread")
    return False


def _is_message_record(rec: Any) -> bool:
    roles = ("user", "assistant", "tool", "toolResult", "system")
    if not isinstance(rec, dict):
        return False
    if rec.get("type") == "message":
        return True
    if "type" not in rec and isinstance(rec.get("message"), dict) and rec["message"].get("role") in roles:
        return True
    return "type" not in rec and rec.get("role") in roles


def classify_transcript(text: str) -> str:
    lines = [ln for ln in re.split(r"\r?\n", text) if ln.strip()]
    if not lines:
        return "tr:empty"
    records = []
    for ln in lines:
        try:
            records.append(json.loads(ln))
        except ValueError:
            return "tr:unparseable"
    if any(_is_message_record(r) for r in records):
        return "tr:messages"
    if len(text.encode("utf-8")) > 4096:
        return "tr:large-no-message"
    if len(records) == 1 and isinstance(records[0], dict) and records[0].get("type") == "session":
        return "tr:header-only"
    return "tr:no-message-small"


def _file_features(name: str, node: dict[str, Any], store_names: set[str]) -> set[str]:
    out: set[str] = set()
    ts = r"@TS\(\d+\)@"
    if "symlink" in node:
        return {"art:symlink"}
    if node.get("dir"):
        return out
    if re.search(rf"\.deleted\.{ts}$", name):
        out.add("art:deleted")
    elif re.search(rf"\.reset\.{ts}$", name):
        out.add("art:reset")
    elif re.search(rf"\.bak\.{ts}$", name):
        out.add("art:bak")
    elif re.fullmatch(r"sessions\.json\.bak\.(\d+|@MS\(\d+\)@)", name):
        out.add("art:legacy-bak")
    elif re.search(rf"\.checkpoint\.{UUID_RE}\.jsonl$", name, re.I):
        out.add("art:checkpoint")
    elif name.endswith(".trajectory.jsonl"):
        out.add("art:trajectory-sidecar")
    elif name.endswith(".trajectory-path.json"):
        out.add("art:trajectory-pointer")
    elif any(re.fullmatch(rf"{re.escape(s)}\.(\d+\.)?{UUID_RE}\.tmp", name, re.I) for s in store_names):
        out.add("art:store-temp")
    elif re.fullmatch(r"[0-9a-f]{64}\.txt", name):
        out.add("art:prompt-blob")
    elif re.fullmatch(rf"[0-9a-f]{{64}}\.txt\.(\d+\.)?{UUID_RE}\.tmp", name):
        out.add("art:blob-temp")
    elif name.endswith(".jsonl.lock"):
        out.add("art:lock")
    elif re.search(rf"\.jsonl\.compact\.{UUID_RE}\.tmp$", name):
        out.add("art:compact-tmp")
    elif name.endswith(".jsonl") and "text" in node:
        out.add(classify_transcript(node["text"]))
    elif name not in store_names:
        out.add("art:unknown")
    return out


def case_features(case: Case) -> set[str]:
    """Categories a case exercises, derived from its data alone (not from the generator's tags)."""
    feats: set[str] = set()
    stores = [n for n in case.files if n.get("role") == "store" and isinstance(n.get("json"), dict)]
    store_names = {n["path"].rsplit("/", 1)[-1] for n in case.files if n.get("role") == "store"}
    store_dirs = {n["path"].rsplit("/", 1)[0] for n in case.files if n.get("role") == "store"}
    all_entries: list[tuple[str, Any, str]] = []
    for node in stores:
        for key, entry in node["json"].items():
            all_entries.append((key, entry, node["path"].rsplit("/", 1)[0]))
    sid_counts: dict[str, int] = {}
    updated: list[str] = []
    for key, entry, dir_rel in all_entries:
        feats |= classify_key(key)
        if not isinstance(entry, dict):
            continue
        sid = entry.get("sessionId")
        if isinstance(sid, str):
            sid_counts[sid] = sid_counts.get(sid, 0) + 1
        if "updatedAt" not in entry:
            feats.add("upd:missing")
        else:
            updated.append(json.dumps(entry["updatedAt"], sort_keys=True))
        if isinstance(entry.get("chatType"), str) and entry["chatType"].lower() in ("group", "channel", "thread"):
            feats.add("chattype:entry")
        origin = entry.get("origin")
        if isinstance(origin, dict) and str(origin.get("chatType", "")).lower() in ("group", "channel", "thread"):
            feats.add("chattype:origin")
        if "label" in entry:
            label = entry["label"]
            if not isinstance(label, str):
                feats.add("label:non-string")
            elif not label.strip():
                feats.add("label:empty")
            elif "\u001b" in label:
                feats.add("label:ansi")
            elif re.search(r"[\x00-\x1f\x7f-\x9f]", label):
                feats.add("label:control")
            elif not label.isascii():
                feats.add("label:non-ascii")
        for field_name in ("modelOverride", "providerOverride", "model"):
            if field_name in entry:
                feats.add(f"model:{field_name}")
        for name in FLAG_FIELDS:
            if entry.get(name):
                feats.add(f"flag:{name}")
        sf = entry.get("sessionFile")
        if "sessionFile" not in entry:
            feats.add("sf:absent")
        elif isinstance(sf, str) and sf.strip():
            s = sf.strip()
            base = s.rsplit("/", 1)[-1]
            if re.fullmatch(rf"(.*_)?({UUID_RE})(-topic-.*)?\.jsonl", base) and isinstance(sid, str) \
                    and sid.strip() not in base:
                feats.add("sf:stale-generated")
            elif "-topic-" in base:
                feats.add("sf:topic")
            elif ".." in s.split("/")[:-1] or s.startswith(".."):
                feats.add("sf:dotdot")
            elif not s.startswith("@HOME@/") and not s.startswith("/"):
                feats.add("sf:relative")
            elif s.startswith(f"@HOME@/{dir_rel}/"):
                feats.add("sf:absolute-inside")
            elif re.search(r"/agents/[^/]+/sessions/[^/]+$", s):
                feats.add("sf:sibling-agent")
            else:
                feats.add("sf:outside")
    if any(c > 1 for c in sid_counts.values()):
        feats.add("sid:shared")
    if len(updated) != len(set(updated)):
        feats.add("upd:tie")
    present = {n["path"] for n in case.files}
    for _key, entry, dir_rel in all_entries:
        sid = entry.get("sessionId") if isinstance(entry, dict) else None
        if isinstance(sid, str) and "sessionFile" not in entry and f"{dir_rel}/{sid.strip()}.jsonl" not in present:
            feats.add("tr:missing")
        if isinstance(entry, dict) and entry.get("compactionCheckpoints"):
            feats.add("art:checkpoint-referenced")
    referenced_checkpoints = json.dumps([e for _, e, _ in all_entries])
    for node in case.files:
        rel = node["path"]
        name = rel.rsplit("/", 1)[-1]
        parent = rel.rsplit("/", 1)[0] if "/" in rel else ""
        in_store_dir = parent in store_dirs or "/skills-prompts/" in rel
        if not in_store_dir or node.get("role") == "store":
            continue
        for feat in _file_features(name, node, store_names):
            if feat in ("art:deleted", "art:reset"):
                age = int(re.search(r"@TS\((\d+)\)@", name).group(1))
                limit = _reset_limit(case) if feat == "art:reset" else _prune_limit(case)
                feats.add(f"{feat}-{'old' if limit is not None and age > limit else 'new'}")
            elif feat == "art:store-temp":
                feats.add("art:store-temp-" + ("stale" if node.get("age", 0) > TEMP_STALE_MS else "fresh"))
            elif feat == "art:checkpoint":
                if name not in referenced_checkpoints:
                    feats.add("art:checkpoint-unreferenced")
            else:
                feats.add(feat)
    for dir_rel in store_dirs:
        if any(n["path"].startswith(dir_rel + "/") and n["path"].count("/") > dir_rel.count("/") + 1
               and "/skills-prompts/" not in n["path"] for n in case.files):
            feats.add("art:subdir")
    feats |= _config_features(case, all_entries)
    for run in case.runs:
        if "--dry-run" in run:
            feats.add("cli:dry-run")
        if "--enforce" in run:
            feats.add("cli:enforce")
        if "--json" in run:
            feats.add("cli:json")
        for flag in ("--store", "--agent", "--all-agents", "--active-key", "--fix-missing", "--fix-dm-scope"):
            if flag in run:
                feats.add("cli:" + flag[2:])
        if "cleanup" in run and any(a.startswith("--") for a in run[1:run.index("cleanup")]):
            feats.add("cli:parent-option")
    if any(len(n["json"]) >= 100 for n in stores):
        feats.add("size:large")
    return feats


def _maintenance(case: Case) -> dict[str, Any]:
    cfg = case.config
    if isinstance(cfg, str):
        return {}
    return ((cfg or {}).get("session") or {}).get("maintenance") or {}


def _prune_limit(case: Case) -> int:
    m = _maintenance(case)
    return parse_duration_ms(m.get("pruneAfter", m.get("pruneDays"))) or DEFAULT_PRUNE_MS


def _reset_limit(case: Case) -> int | None:
    m = _maintenance(case)
    if m.get("resetArchiveRetention") is False:
        return None
    return parse_duration_ms(m.get("resetArchiveRetention")) or _prune_limit(case)


def _config_features(case: Case, entries: list[tuple[str, Any, str]]) -> set[str]:
    out: set[str] = set()
    cfg = case.config
    if isinstance(cfg, str):
        out.add("cfg:json5-raw")
        return out
    cfg = cfg or {}
    session = cfg.get("session") or {}
    m = session.get("maintenance") or {}
    if m.get("mode") in ("warn", "enforce"):
        out.add(f"cfg:mode-{m['mode']}")
    if isinstance(m.get("pruneAfter"), str):
        out.add("cfg:pruneAfter-string")
    if isinstance(m.get("pruneAfter"), (int, float)):
        out.add("cfg:pruneAfter-number")
    if "pruneDays" in m:
        out.add("cfg:pruneDays")
    if "maxEntries" in m:
        out.add("cfg:maxEntries")
        protected = sum(1 for k, e, _ in entries if is_protected_shape(k, e))
        if protected > m["maxEntries"]:
            out.add("cfg:maxEntries-below-protected")
    if m.get("resetArchiveRetention") is False:
        out.add("cfg:resetArchiveRetention-false")
    elif "resetArchiveRetention" in m:
        out.add("cfg:resetArchiveRetention")
    if "maxDiskBytes" in m:
        out.add("cfg:maxDiskBytes")
        budget = m["maxDiskBytes"]
        tight = (isinstance(budget, dict) and float(budget.get("x", 1)) <= 0.5) or budget in (0, "1kb", "0.5kb", "2k")
        if tight:
            names = " ".join(n["path"] for n in case.files)
            if re.search(r"/[0-9a-f]{64}\.txt", names):
                out.add("budget:prompt-blob")
            if re.search(r"\.(deleted|reset|bak)\.@TS", names) or "sessions.json.bak." in names:
                out.add("budget:archive")
            if entries:
                out.add("budget:entry")
            referenced = json.dumps([e for _, e, _ in entries])
            for n in case.files:
                nm = n["path"].rsplit("/", 1)[-1]
                if nm.endswith(".jsonl") and "text" in n and nm[:-6] not in referenced:
                    out.add("budget:orphan")
    if "highWaterBytes" in m:
        out.add("cfg:highWaterBytes")
    if "dmScope" in session:
        out.add("cfg:dmScope")
    store = session.get("store")
    if isinstance(store, str):
        out.add("cfg:store-template" if "{agentId}" in store else "cfg:store-shared")
    agents = cfg.get("agents") or {}
    if agents.get("list"):
        out.add("cfg:agents-list")
        if any(a.get("default") for a in agents["list"]):
            out.add("cfg:agents-default")
    if cfg.get("acp") or any((a.get("runtime") or {}).get("type") == "acp" for a in agents.get("list") or []):
        out.add("cfg:acp")
    return out

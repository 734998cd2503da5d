"""Per-entry sessions.json normalisation, as OpenClaw 2026.7.1 applies it on load and save."""

# Every normaliser returns the entry object itself when it has nothing to change and a
# new (shallow-copied) dict otherwise, like OpenClaw; callers rely on that identity
# to know whether the store changed. UNDEF stands for JavaScript's `undefined` (a
# missing key), which is not the same as JSON null.

from __future__ import annotations

import math
import re
from typing import Any

from openclaw_cli.config.agents import normalize_optional_account_id
from openclaw_cli.js.json import JS_WHITESPACE as _JS_WS
from openclaw_cli.js.json import dumps_compact_bytes, js_number, js_ordered, js_trim, js_utf16_len
from openclaw_cli.js.values import UNDEFINED
from openclaw_cli.js.values import truthy as js_truthy

__all__ = [
    "UNDEF",
    "is_safe_session_id",
    "is_valid_transcript_session_id",
    "js_truthy",
    "normalize_entry",
    "normalize_entry_delivery",
    "normalize_entry_ordered",
    "normalize_entry_shape",
    "normalize_message_channel",
    "normalize_pending_final_delivery",
    "normalize_plugin_extension_slot_keys",
    "normalize_plugin_extensions",
    "normalize_runtime_model_fields",
    "strip_persisted_skills_cache",
]


UNDEF: Any = UNDEFINED


# ---------------------------------------------------------------------------------------
# JS value helpers


def _is_num(v: Any) -> bool:
    t = type(v)
    return t is int or t is float


def _eq(a: Any, b: Any) -> bool:
    """`a === b` for JSON values (objects compare by identity)."""
    if a is b:
        return True
    ta, tb = type(a), type(b)
    if ta is str and tb is str:
        return a == b
    if (ta is int or ta is float) and (tb is int or tb is float):
        return a == b
    return False


def _get(obj: Any, key: str) -> Any:
    """`obj?.[key]`: UNDEF unless obj is an object that has the key."""
    if type(obj) is dict:
        return obj.get(key, UNDEF)
    return UNDEF


def _nullish(v: Any) -> Any:
    return UNDEF if v is None else v


def _coalesce(a: Any, b: Any) -> Any:
    """`a ?? b`."""
    return b if a is UNDEF or a is None else a


def _opt_str(v: Any) -> Any:
    """normalizeOptionalString: the trimmed string, UNDEF when not a string or blank."""
    if type(v) is not str:
        return UNDEF
    t = js_trim(v)
    return t if t else UNDEF


def _opt_lower(v: Any) -> Any:
    t = _opt_str(v)
    return UNDEF if t is UNDEF else t.lower()


def _lower_or_empty(v: Any) -> str:
    t = _opt_str(v)
    return "" if t is UNDEF else t.lower()


def _thread_value(v: Any) -> Any:
    """normalizeOptionalThreadValue: finite numbers truncated, strings trimmed."""
    if _is_num(v):
        return js_number(math.trunc(v)) if math.isfinite(v) else UNDEF
    return _opt_str(v)


# ---------------------------------------------------------------------------------------
# ids

_SAFE_SESSION_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:@-]*")
_TRANSCRIPT_SESSION_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,127}")
_CHECKPOINT_TRANSCRIPT = re.compile(
    r"(?s:.)+\.checkpoint\.[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[1-5][0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}"
    r"-[0-9a-fA-F]{12}\.jsonl")


def is_safe_session_id(value: Any) -> bool:
    """The store-shape check: a sessionId that fails it drops the whole entry."""
    if type(value) is not str:
        return False
    t = js_trim(value)
    if not t or len(t) > 255 or "/" in t or "\\" in t or t in (".", ".."):
        return False
    return _SAFE_SESSION_ID.fullmatch(t) is not None


def is_valid_transcript_session_id(value: str) -> bool:
    """validateSessionId: usable as `<id>.jsonl` and not shaped like a checkpoint file."""
    t = js_trim(value)
    if _TRANSCRIPT_SESSION_ID.fullmatch(t) is None:
        return False
    # JS `.` does not match line terminators; ids here are ASCII [A-Za-z0-9._-] anyway.
    return _CHECKPOINT_TRANSCRIPT.fullmatch(t + ".jsonl") is None


def _opt_account_id(value: Any) -> Any:
    """normalizeOptionalAccountId for a string (or UNDEF)."""
    account = normalize_optional_account_id(value) if type(value) is str else None
    return UNDEF if account is None else account


# ---------------------------------------------------------------------------------------
# channels and routes

# Built-in and bundled-catalog channel aliases of 2026.7.1 (identity entries left out).
_CHANNEL_ALIASES = {
    "enterprise-wechat": "wecom", "gchat": "googlechat", "google-chat": "googlechat",
    "imsg": "imessage", "internet-relay-chat": "irc", "lark": "feishu",
    "nc": "nextcloud-talk", "nc-talk": "nextcloud-talk", "qywx": "wecom", "teams": "msteams",
    "tencent-yuanbao": "yuanbao", "twitch-chat": "twitch", "wechat": "openclaw-weixin",
    "weixin": "openclaw-weixin", "\u5fae\u4fe1": "openclaw-weixin", "wework": "wecom",
    "yb": "yuanbao", "\u5143\u5b9d": "yuanbao", "zalo-clawbot": "openclaw-zaloclawbot",
    "zaloclawbot": "openclaw-zaloclawbot", "zl": "zalo", "zlu": "zalouser",
}
_INTERNAL_NON_DELIVERY = frozenset({"heartbeat", "cron", "webhook", "voice", "sessions_send"})


def normalize_message_channel(raw: Any) -> Any:
    """normalizeMessageChannel: trimmed, lower-cased, aliases resolved; UNDEF if blank."""
    n = _opt_lower(raw)
    if n is UNDEF:
        return UNDEF
    return _CHANNEL_ALIASES.get(n, n)


# Internally a delivery context is a tuple (channel, to, accountId, threadId) and a route
# a tuple (channel, accountId, to, rawTo, chatType, threadId, threadKind, threadSource),
# UNDEF for absent fields and None for "no context/route". Both normalisations are
# idempotent, so a tuple never needs normalising again.
_C_EMPTY = (UNDEF, UNDEF, UNDEF, UNDEF)
_R_EMPTY = (UNDEF, UNDEF, UNDEF, UNDEF, UNDEF, UNDEF, UNDEF, UNDEF)


def _route_ref(channel: Any, to: Any, raw_to: Any, chat_type: Any, account_id: Any,
               thread_id: Any, thread_kind: Any, thread_source: Any) -> tuple | None:
    """normalizeChannelRouteRef."""
    ch = _lower_or_empty(channel) or UNDEF
    acc = _opt_account_id(account_id) if type(account_id) is str else UNDEF
    to_n = _opt_str(to)
    tid = _thread_value(thread_id)
    if ch is UNDEF and to_n is UNDEF and acc is UNDEF and tid is UNDEF:
        return None
    raw = chat = kind = source = UNDEF
    if to_n is not UNDEF:
        raw = _opt_str(raw_to)
        if raw is not UNDEF and raw == to_n:
            raw = UNDEF
        if js_truthy(chat_type):
            chat = chat_type
    if tid is not UNDEF:
        if js_truthy(thread_kind):
            kind = thread_kind
        if js_truthy(thread_source):
            source = thread_source
    return (ch, acc, to_n, raw, chat, tid, kind, source)


def _route_dict(r: tuple) -> dict:
    out: dict = {}
    if r[0] is not UNDEF:
        out["channel"] = r[0]
    if r[1] is not UNDEF:
        out["accountId"] = r[1]
    if r[2] is not UNDEF:
        target = {"to": r[2]}
        if r[3] is not UNDEF:
            target["rawTo"] = r[3]
        if r[4] is not UNDEF:
            target["chatType"] = r[4]
        out["target"] = target
    if r[5] is not UNDEF:
        thread = {"id": r[5]}
        if r[6] is not UNDEF:
            thread["kind"] = r[6]
        if r[7] is not UNDEF:
            thread["source"] = r[7]
        out["thread"] = thread
    return out


def _ctx_dict(c: tuple) -> dict:
    out: dict = {}
    if c[0] is not UNDEF:
        out["channel"] = c[0]
    if c[1] is not UNDEF:
        out["to"] = c[1]
    if c[2] is not UNDEF:
        out["accountId"] = c[2]
    if c[3] is not UNDEF:
        out["threadId"] = c[3]
    return out


def _delivery_route(route: Any) -> tuple | None:
    """normalizeDeliveryChannelRoute on a stored value."""
    if type(route) is not dict:
        return None
    target = route.get("target", UNDEF)
    thread = route.get("thread", UNDEF)
    return _route_ref(route.get("channel", UNDEF), _get(target, "to"), _get(target, "rawTo"),
                      _get(target, "chatType"), route.get("accountId", UNDEF), _get(thread, "id"),
                      _get(thread, "kind"), _get(thread, "source"))


def _dc(channel: Any, to: Any, account_id: Any, thread_id: Any) -> tuple | None:
    """normalizeDeliveryContext on an object literal with these fields."""
    if type(channel) is str:
        ch = normalize_message_channel(channel)
        if ch is UNDEF:
            ch = js_trim(channel)
    else:
        ch = UNDEF
    r = _route_ref(ch, to, UNDEF, UNDEF, account_id, thread_id, UNDEF, UNDEF)
    if r is None:
        return None
    return (r[0], r[2], r[1], r[5])


def _dc_value(ctx: Any) -> tuple | None:
    """normalizeDeliveryContext on a stored value."""
    if not js_truthy(ctx):
        return None
    return _dc(_get(ctx, "channel"), _get(ctx, "to"), _get(ctx, "accountId"),
               _get(ctx, "threadId"))


def _ctx(ch: Any, to: Any, acc: Any, tid: Any) -> tuple | None:
    """A context from already-normalised fields."""
    if ch is UNDEF and to is UNDEF and acc is UNDEF and tid is UNDEF:
        return None
    return (ch, to, acc, tid)


def _ctx_from_route(r: tuple | None) -> tuple | None:
    """deliveryContextFromChannelRoute (channel aliases resolved here, not in routes)."""
    if r is None:
        return None
    return _dc(r[0], r[2], r[1], r[5])


def _merge(p: tuple | None, f: tuple | None) -> tuple | None:
    """mergeDeliveryContext."""
    if p is None and f is None:
        return None
    pch, pto, pacc, ptid = p or _C_EMPTY
    fch, fto, facc, ftid = f or _C_EMPTY
    channels_conflict = js_truthy(pch) and js_truthy(fch) and not _eq(pch, fch)
    accounts_conflict = js_truthy(pacc) and js_truthy(facc) and not _eq(pacc, facc)
    if accounts_conflict:
        return _ctx(pch, pto, pacc, ptid)
    if channels_conflict:
        return _ctx(_coalesce(pch, fch), pto, pacc, ptid)
    return _ctx(_coalesce(pch, fch), _coalesce(pto, fto), _coalesce(pacc, facc),
                _coalesce(ptid, ftid))


def _is_internal_route(c: tuple | None) -> bool:
    ch = c[0] if c else UNDEF
    return js_truthy(ch) and (ch == "webchat" or ch in _INTERNAL_NON_DELIVERY)


def _has_external_target(c: tuple | None) -> bool:
    if not c:
        return False
    ch = c[0]
    return (js_truthy(ch) and ch not in _INTERNAL_NON_DELIVERY and ch != "webchat"
            and js_truthy(c[1]))


def _merge_external(dc: tuple | None, internal: tuple | None) -> tuple | None:
    """mergeExternalDeliveryContextOverInternalRoute."""
    d = dc or _C_EMPTY
    i = internal or _C_EMPTY
    return _ctx(d[0], d[1], _coalesce(d[2], i[2]), _coalesce(d[3], i[3]))


def _route_with_context(r: tuple | None, c: tuple) -> tuple:
    """mergeRouteMetadataWithDeliveryContext."""
    if r is None:
        return (c[0], c[2], c[1], UNDEF, UNDEF, c[3], UNDEF, UNDEF)
    return (_coalesce(r[0], c[0]), _coalesce(r[1], c[2]), _coalesce(r[2], c[1]), r[3], r[4],
            _coalesce(r[5], c[3]), r[6], r[7])


def _delivery_fields(entry_route: tuple | None, channel: Any, last_channel: Any, last_to: Any,
                     last_account: Any, last_thread: Any, delivery_context: Any
                     ) -> tuple[tuple | None, tuple | None]:
    """normalizeSessionDeliveryFields -> (route, deliveryContext); last* mirror the context."""
    route_ctx = _ctx_from_route(entry_route)
    legacy = _dc(_coalesce(last_channel, channel), last_to, last_account, last_thread)
    dc = _dc_value(delivery_context)
    if _is_internal_route(legacy) and _has_external_target(dc):
        session_ctx = _merge_external(dc, legacy)
    else:
        session_ctx = _merge(legacy, dc)
    internal_fallback = _is_internal_route(route_ctx) and _has_external_target(dc)
    if internal_fallback:
        merged = _merge_external(dc, _merge(route_ctx, legacy))
    else:
        merged = _merge(route_ctx, session_ctx)
    if merged is None:
        return None, None
    return _route_with_context(None if internal_fallback else entry_route, merged), merged


def _same_fields(a: tuple, b: tuple) -> bool:
    return all(x is y or _eq(x, y) for x, y in zip(a, b))


_DELIVERY_KEYS = ("route", "deliveryContext", "lastChannel", "lastTo", "lastAccountId",
                  "lastThreadId")
_LAST_KEYS = ("lastChannel", "lastTo", "lastAccountId", "lastThreadId")
_CACHE_LIMIT = 4096
_CANON_CHANNEL: dict[str, bool] = {}
_CHANNEL_OF: dict[str, Any] = {}
_ACCOUNT_OF: dict[str, Any] = {}


def _cached(cache: dict, key: str, compute) -> Any:
    hit = cache.get(key, cache)
    if hit is cache:
        hit = compute(key)
        if len(cache) < _CACHE_LIMIT:
            cache[key] = hit
    return hit


def _canonical_channel(ch: str) -> bool:
    return ch != "" and normalize_message_channel(ch) == ch


def _unchanged_delivery(entry: dict) -> bool:
    """A cheap, exact sufficient test that normalize_entry_delivery keeps `entry`.

    True for entries already in the shape OpenClaw writes: a canonical
    deliveryContext mirrored by the last* fields and a route that maps onto it (or no
    delivery fields at all).
    """
    get = entry.get
    d = get("deliveryContext", UNDEF)
    if d is UNDEF:
        if ("route" in entry or "channel" in entry or "lastChannel" in entry
                or "lastTo" in entry or "lastAccountId" in entry or "lastThreadId" in entry):
            return False
        origin = get("origin")
        return type(origin) is not dict or origin.get("threadId") is None
    if type(d) is not dict:
        return False
    d_ch = d.get("channel", UNDEF)
    if type(d_ch) is not str:
        return False
    canon = _CANON_CHANNEL.get(d_ch)
    if canon is None:
        canon = _cached(_CANON_CHANNEL, d_ch, _canonical_channel)
    if not canon:
        return False
    last = get("lastChannel", UNDEF)
    if last is not d_ch and (type(last) is not str or last != d_ch):
        return False
    d_to = d.get("to", UNDEF)
    last = get("lastTo", UNDEF)
    if d_to is UNDEF:
        if last is not UNDEF:
            return False
    elif (type(d_to) is not str or not d_to or d_to.strip(_JS_WS) != d_to
          or (last is not d_to and (type(last) is not str or last != d_to))):
        return False
    d_acc = d.get("accountId", UNDEF)
    last = get("lastAccountId", UNDEF)
    if d_acc is UNDEF:
        if last is not UNDEF:
            return False
    elif (type(d_acc) is not str or _cached(_ACCOUNT_OF, d_acc, _opt_account_id) != d_acc
          or (last is not d_acc and (type(last) is not str or last != d_acc))):
        return False
    d_tid = d.get("threadId", UNDEF)
    last = get("lastThreadId", UNDEF)
    if d_tid is UNDEF:
        if last is not UNDEF:
            return False
        origin = get("origin")
        if type(origin) is dict and origin.get("threadId") is not None:
            return False
    else:
        t = type(d_tid)
        if not (t is int or (t is str and d_tid and d_tid.strip(_JS_WS) == d_tid)):
            return False
        if not _eq(last, d_tid):
            return False
    r = get("route")
    if type(r) is not dict:
        return False
    r_ch = r.get("channel")
    if type(r_ch) is not str:
        return False
    if r_ch is not d_ch and _cached(_CHANNEL_OF, r_ch, normalize_message_channel) != d_ch:
        return False
    target = r.get("target", UNDEF)
    if type(target) is dict:
        r_to = target.get("to", UNDEF)
        if r_to is not d_to and not _eq(_opt_str(r_to), d_to):
            return False
    elif d_to is not UNDEF:
        return False
    r_acc = r.get("accountId", UNDEF)
    if r_acc is not d_acc:
        r_acc = _cached(_ACCOUNT_OF, r_acc, _opt_account_id) if type(r_acc) is str else UNDEF
        if not _eq(r_acc, d_acc):
            return False
    thread = r.get("thread", UNDEF)
    if type(thread) is dict:
        r_tid = thread.get("id", UNDEF)
        return (r_tid is d_tid and type(r_tid) is not float) or _eq(_thread_value(r_tid), d_tid)
    return d_tid is UNDEF


def normalize_entry_delivery(entry: dict) -> dict:
    """normalizeSessionEntryDelivery: rebuild route, deliveryContext and last* together."""
    return _entry_delivery(entry, None)[0]


def _entry_delivery(entry: dict, order: list[str] | None) -> tuple[dict, list[str] | None]:
    """normalizeSessionEntryDelivery with JS key positions.

    OpenClaw rebuilds with `{...entry, route, deliveryContext, lastChannel, ...}`:
    existing keys keep their place, new ones go last, and the ones set to `undefined`
    stay in the object (invisible in JSON) holding their place in case a later pass
    defines them. `order` is that full key order (with such "ghost" keys) when a previous
    pass left ghosts; the returned order is the new one, or None when there are none.
    """
    if _unchanged_delivery(entry):
        return entry, order
    get = entry.get
    entry_route = _delivery_route(get("route", UNDEF))
    dc_raw = get("deliveryContext", UNDEF)
    last_thread = _coalesce(_coalesce(get("lastThreadId", UNDEF), _get(dc_raw, "threadId")),
                            _get(get("origin", UNDEF), "threadId"))
    route, merged = _delivery_fields(entry_route, get("channel", UNDEF),
                                     get("lastChannel", UNDEF), get("lastTo", UNDEF),
                                     get("lastAccountId", UNDEF), last_thread, dc_raw)
    m = merged or _C_EMPTY
    same = (_same_fields(tuple(_nullish(_get(dc_raw, k))
                               for k in ("channel", "to", "accountId", "threadId")), m)
            and _same_fields(entry_route or _R_EMPTY, route or _R_EMPTY)
            and _same_fields(tuple(get(k, UNDEF) for k in _LAST_KEYS), m))
    if same:
        return entry, order
    values = dict(zip(_DELIVERY_KEYS, (UNDEF if route is None else _route_dict(route),
                                       UNDEF if merged is None else _ctx_dict(merged)) + m))
    if order is None:
        keys = list(entry)
    else:
        known = set(order)
        keys = [k for k in order if k in entry or k in values]
        keys += [k for k in entry if k not in known]
    keys += [k for k in _DELIVERY_KEYS if k not in keys]
    out: dict = {}
    for k in keys:
        v = values.get(k, values)
        if v is values:
            out[k] = entry[k]
        elif v is not UNDEF:
            out[k] = v
    if order is not None:
        out = js_ordered(out)
    has_ghosts = any(v is UNDEF for v in values.values())
    return out, (keys if has_ghosts else None)


# ---------------------------------------------------------------------------------------
# pending final delivery


def _opt_delivery_context(value: Any) -> tuple | None:
    """normalizeOptionalDeliveryContext (store-load): needs both channel and to."""
    if type(value) is not dict:
        return None
    ch, to, acc, tid = (value.get("channel", UNDEF), value.get("to", UNDEF),
                        value.get("accountId", UNDEF), value.get("threadId", UNDEF))
    n = _dc(ch if type(ch) is str else UNDEF, to if type(to) is str else UNDEF,
            acc if type(acc) is str else UNDEF,
            tid if type(tid) is str or _is_num(tid) else UNDEF)
    if n is None or not js_truthy(n[0]) or not js_truthy(n[1]):
        return None
    return n


def _same_dc(raw: Any, ctx: tuple | None) -> bool:
    c = ctx or _C_EMPTY
    return _same_fields(tuple(_nullish(_get(raw, k))
                              for k in ("channel", "to", "accountId", "threadId")), c)


def _str_or_null(v: Any) -> Any:
    return v if v is None or type(v) is str else UNDEF


def _finite_non_negative(v: Any) -> Any:
    return v if _is_num(v) and math.isfinite(v) and v >= 0 else UNDEF


def _attempt_count(v: Any) -> Any:
    if _is_num(v) and math.isfinite(v) and v >= 0 and (type(v) is int or v.is_integer()):
        return v
    return UNDEF


_PENDING_KEYS = ("pendingFinalDelivery", "pendingFinalDeliveryText",
                 "pendingFinalDeliveryCreatedAt", "pendingFinalDeliveryLastAttemptAt",
                 "pendingFinalDeliveryAttemptCount", "pendingFinalDeliveryLastError",
                 "pendingFinalDeliveryContext", "pendingFinalDeliveryIntentId",
                 "restartRecoveryDeliveryContext", "restartRecoveryDeliveryRunId")


def normalize_pending_final_delivery(entry: dict) -> dict:
    """normalizePendingFinalDeliveryFields."""
    if not ("pendingFinalDelivery" in entry or "pendingFinalDeliveryText" in entry
            or "pendingFinalDeliveryCreatedAt" in entry
            or "pendingFinalDeliveryLastAttemptAt" in entry
            or "pendingFinalDeliveryAttemptCount" in entry
            or "pendingFinalDeliveryLastError" in entry or "pendingFinalDeliveryContext" in entry
            or "pendingFinalDeliveryIntentId" in entry
            or "restartRecoveryDeliveryContext" in entry
            or "restartRecoveryDeliveryRunId" in entry):
        return entry
    get = entry.get
    nxt = entry

    def assign(key: str, value: Any) -> None:
        nonlocal nxt
        if _eq(get(key, UNDEF), value):
            return
        if nxt is entry:
            nxt = dict(entry)
        if value is UNDEF:
            nxt.pop(key, None)
        else:
            nxt[key] = value

    assign("pendingFinalDelivery", True if get("pendingFinalDelivery") is True else UNDEF)
    assign("pendingFinalDeliveryText", _str_or_null(get("pendingFinalDeliveryText", UNDEF)))
    assign("pendingFinalDeliveryCreatedAt",
           _finite_non_negative(get("pendingFinalDeliveryCreatedAt", UNDEF)))
    assign("pendingFinalDeliveryLastAttemptAt",
           _finite_non_negative(get("pendingFinalDeliveryLastAttemptAt", UNDEF)))
    assign("pendingFinalDeliveryAttemptCount",
           _attempt_count(get("pendingFinalDeliveryAttemptCount", UNDEF)))
    assign("pendingFinalDeliveryLastError",
           _str_or_null(get("pendingFinalDeliveryLastError", UNDEF)))
    raw = get("pendingFinalDeliveryContext", UNDEF)
    ctx = _opt_delivery_context(raw)
    if not _same_dc(raw, ctx):
        assign("pendingFinalDeliveryContext", UNDEF if ctx is None else _ctx_dict(ctx))
    assign("pendingFinalDeliveryIntentId",
           _str_or_null(get("pendingFinalDeliveryIntentId", UNDEF)))
    raw = get("restartRecoveryDeliveryContext", UNDEF)
    ctx = _opt_delivery_context(raw)
    if not _same_dc(raw, ctx):
        assign("restartRecoveryDeliveryContext", UNDEF if ctx is None else _ctx_dict(ctx))
    run_id = get("restartRecoveryDeliveryRunId", UNDEF)
    assign("restartRecoveryDeliveryRunId", run_id if type(run_id) is str else UNDEF)
    return nxt


# ---------------------------------------------------------------------------------------
# plugin extensions

_PLUGIN_MAX_DEPTH = 32
_PLUGIN_MAX_NODES = 4096
_PLUGIN_MAX_KEYS = 512
_PLUGIN_MAX_STRING = 64 * 1024
_PLUGIN_MAX_BYTES = 256 * 1024


def _plugin_json_value(value: Any) -> bool:
    """isPluginJsonValue: finite, plain JSON within the plugin size limits."""
    nodes = 0

    def check(v: Any, depth: int) -> bool:
        nonlocal nodes
        nodes += 1
        if nodes > _PLUGIN_MAX_NODES or depth > _PLUGIN_MAX_DEPTH:
            return False
        if v is None or type(v) is bool:
            return True
        t = type(v)
        if t is str:
            return js_utf16_len(v) <= _PLUGIN_MAX_STRING
        if t is int or t is float:
            return math.isfinite(v)
        if t is list:
            return all(check(x, depth + 1) for x in v)
        if t is dict:
            if len(v) > _PLUGIN_MAX_KEYS:
                return False
            return all(js_utf16_len(k) <= _PLUGIN_MAX_STRING and check(x, depth + 1)
                       for k, x in v.items())
        return False

    try:
        if not check(value, 0):
            return False
    except RecursionError:
        return False
    return len(dumps_compact_bytes(value)) <= _PLUGIN_MAX_BYTES


def _record_key(raw: str) -> Any:
    k = js_trim(raw)
    return k if k else UNDEF


def _normalize_plugin_map(entry: dict, field: str, normalize_value) -> dict:
    """Shared walk of pluginExtensions / pluginExtensionSlotKeys: {pluginId: {ns: value}}."""
    raw_map = entry.get(field, UNDEF)
    if raw_map is UNDEF:
        return entry
    if type(raw_map) is not dict:
        out = dict(entry)
        del out[field]
        return out
    changed = False
    rebuilt: dict = {}
    for raw_plugin, raw_state in raw_map.items():
        plugin = _record_key(raw_plugin)
        if plugin is UNDEF or type(raw_state) is not dict:
            changed = True
            continue
        if plugin != raw_plugin:
            changed = True
        state: dict = {}
        for raw_ns, raw_value in raw_state.items():
            ns = _record_key(raw_ns)
            ok, value = (False, None) if ns is UNDEF else normalize_value(raw_value)
            if not ok:
                changed = True
                continue
            if ns != raw_ns or value is not raw_value:
                changed = True
            if ns != "__proto__":  # JS assignment to __proto__ never makes an own key
                state[ns] = value
        if not state:
            changed = True
            continue
        if plugin != "__proto__":
            rebuilt[plugin] = js_ordered(state)
    if not changed:
        return entry
    out = dict(entry)
    if rebuilt:
        out[field] = js_ordered(rebuilt)
    else:
        del out[field]
    return out


def _plugin_value(raw: Any) -> tuple[bool, Any]:
    return (True, raw) if _plugin_json_value(raw) else (False, None)


def normalize_plugin_extensions(entry: dict) -> dict:
    """normalizePluginExtensions: drop blank ids, non-object states and non-JSON values."""
    return _normalize_plugin_map(entry, "pluginExtensions", _plugin_value)


_SLOT_KEY = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
_RESERVED_SLOT_KEYS = frozenset(["__proto__", "constructor", "prototype", "lastHeartbeatText", "lastHeartbeatSentAt", "heartbeatIsolatedBaseSessionKey", "heartbeatTaskState", "pluginExtensions", "pluginExtensionSlotKeys", "pluginNextTurnInjections", "sessionId", "lifecycleRevision", "updatedAt", "archivedAt", "pinnedAt", "lastReadAt", "markedUnreadAt", "lastActivityAt", "sessionFile", "spawnedBy", "spawnedWorkspaceDir", "spawnedCwd", "parentSessionKey", "forkedFromParent", "spawnDepth", "subagentRole", "subagentControlScope", "inheritedToolDeny", "inheritedToolAllow", "subagentRecovery", "pluginOwnerId", "systemSent", "abortedLastRun", "restartRecoveryRuns", "goal", "pendingSkillSuggestion", "skillCaptureSignalHashes", "sessionStartedAt", "ambientTranscriptWatermarks", "lastInteractionAt", "startedAt", "endedAt", "runtimeMs", "status", "abortCutoffMessageSid", "abortCutoffTimestamp", "chatType", "thinkingLevel", "fastMode", "verboseLevel", "traceLevel", "reasoningLevel", "elevatedLevel", "ttsAuto", "lastTtsReadLatestHash", "lastTtsReadLatestAt", "execHost", "execSecurity", "execAsk", "execNode", "responseUsage", "usageFamilyKey", "usageFamilySessionIds", "providerOverride", "modelOverride", "agentRuntimeOverride", "modelOverrideSource", "modelOverrideFallbackOriginProvider", "modelOverrideFallbackOriginModel", "authProfileOverride", "authProfileOverrideSource", "authProfileOverrideCompactionCount", "liveModelSwitchPending", "groupActivation", "groupActivationNeedsSystemIntro", "sendPolicy", "queueMode", "queueDebounceMs", "queueCap", "queueDrop", "inputTokens", "outputTokens", "totalTokens", "pendingFinalDelivery", "pendingFinalDeliveryCreatedAt", "pendingFinalDeliveryLastAttemptAt", "pendingFinalDeliveryAttemptCount", "pendingFinalDeliveryLastError", "pendingFinalDeliveryText", "pendingFinalDeliveryContext", "pendingFinalDeliveryIntentId", "restartRecoveryDeliveryContext", "restartRecoveryDeliveryRunId", "totalTokensFresh", "estimatedCostUsd", "cacheRead", "cacheWrite", "modelProvider", "model", "agentHarnessId", "fallbackNoticeSelectedModel", "fallbackNoticeActiveModel", "fallbackNoticeReason", "contextTokens", "contextBudgetStatus", "compactionCount", "compactionCheckpoints", "memoryFlushAt", "memoryFlushCompactionCount", "memoryFlushContextHash", "memoryFlushFailureCount", "memoryFlushLastFailedAt", "memoryFlushLastFailureError", "cliSessionIds", "cliSessionBindings", "claudeCliSessionId", "label", "category", "displayName", "channel", "groupId", "subject", "groupChannel", "space", "origin", "route", "deliveryContext", "lastChannel", "lastTo", "lastAccountId", "lastThreadId", "skillsSnapshot", "systemPromptReport", "pluginDebugEntries", "acp", "quotaSuspension", "__defineGetter__", "__defineSetter__", "hasOwnProperty", "__lookupGetter__", "__lookupSetter__", "isPrototypeOf", "propertyIsEnumerable", "toString", "valueOf", "toLocaleString"])


def _slot_key(raw: Any) -> tuple[bool, Any]:
    """normalizeSessionEntrySlotKey."""
    if type(raw) is not str:
        return False, None
    key = js_trim(raw)
    if not key or _SLOT_KEY.fullmatch(key) is None or key in _RESERVED_SLOT_KEYS:
        return False, None
    return True, (raw if key == raw else key)


def normalize_plugin_extension_slot_keys(entry: dict) -> dict:
    """normalizePluginExtensionSlotKeys."""
    return _normalize_plugin_map(entry, "pluginExtensionSlotKeys", _slot_key)


# ---------------------------------------------------------------------------------------
# other entry fields


def normalize_entry_shape(value: Any) -> dict | None:
    """normalizePersistedSessionEntryShape; None means the entry is dropped."""
    if type(value) is not dict:
        return None
    # Fast path: a plain transcript id (no dot, so not checkpoint-shaped, and nothing to
    # trim), a string or absent sessionFile, and a valid or absent updatedAt.
    sid = value.get("sessionId", UNDEF)
    updated = value.get("updatedAt", UNDEF)
    session_file = value.get("sessionFile", UNDEF)
    if ((sid is UNDEF or (type(sid) is str and "." not in sid
                          and _TRANSCRIPT_SESSION_ID.fullmatch(sid) is not None))
            and (updated is UNDEF or (type(updated) is int and updated >= 0))
            and (session_file is UNDEF or type(session_file) is str)):
        return value
    return _normalize_entry_shape(value)


def _normalize_entry_shape(value: dict) -> dict | None:
    nxt = value
    session_file = value.get("sessionFile", UNDEF)
    if "sessionId" in value:
        sid = value["sessionId"]
        if not is_safe_session_id(sid):
            return None
        trimmed = js_trim(sid)
        has_file = type(session_file) is str and js_trim(session_file) != ""
        if not is_valid_transcript_session_id(trimmed) and not has_file:
            nxt = {k: v for k, v in value.items() if k != "sessionId"}
        elif trimmed != sid:
            nxt = dict(value)
            nxt["sessionId"] = trimmed
    if session_file is not UNDEF and type(session_file) is not str:
        if nxt is value:
            nxt = dict(value)
        del nxt["sessionFile"]
    if "updatedAt" in value:
        updated = value["updatedAt"]
        if not (_is_num(updated) and math.isfinite(updated) and updated >= 0):
            if nxt is value:
                nxt = dict(value)
            nxt["updatedAt"] = 0
    return nxt


def normalize_runtime_model_fields(entry: dict) -> dict:
    """normalizeSessionRuntimeModelFields: a blank model removes model and modelProvider."""
    model = entry.get("model", UNDEF)
    provider = entry.get("modelProvider", UNDEF)
    if model is UNDEF and provider is UNDEF:
        return entry
    n_model = _opt_str(model)
    n_provider = _opt_str(provider)
    if n_model is UNDEF:
        out = dict(entry)
        out.pop("model", None)
        out.pop("modelProvider", None)
        return out
    nxt = entry
    if model != n_model:
        nxt = dict(entry)
        nxt["model"] = n_model
    if n_provider is UNDEF:
        if provider is not UNDEF:
            if nxt is entry:
                nxt = dict(entry)
            del nxt["modelProvider"]
        return nxt
    if provider != n_provider:
        if nxt is entry:
            nxt = dict(entry)
        nxt["modelProvider"] = n_provider
    return nxt


def strip_persisted_skills_cache(entry: dict) -> dict:
    """stripPersistedSkillsCache: drop skillsSnapshot.resolvedSkills."""
    snapshot = entry.get("skillsSnapshot")
    if type(snapshot) is not dict or "resolvedSkills" not in snapshot:
        return entry
    out = dict(entry)
    out["skillsSnapshot"] = {k: v for k, v in snapshot.items() if k != "resolvedSkills"}
    return out


def normalize_entry(entry: Any) -> dict | None:
    """The full per-entry pass of normalizeSessionStore; None means drop the entry."""
    return normalize_entry_ordered(entry, None)[0]


def normalize_entry_ordered(entry: Any, order: list[str] | None
                            ) -> tuple[dict | None, list[str] | None]:
    """normalize_entry carrying the JS key order with ghost keys (see _entry_delivery)."""
    shaped = normalize_entry_shape(entry)
    if shaped is None:
        return None, None
    out = normalize_runtime_model_fields(shaped)
    out, order = _entry_delivery(out, order)
    out = normalize_pending_final_delivery(out)
    if "pluginExtensions" in out:
        out = normalize_plugin_extensions(out)
    if "pluginExtensionSlotKeys" in out:
        out = normalize_plugin_extension_slot_keys(out)
    return strip_persisted_skills_cache(out), order

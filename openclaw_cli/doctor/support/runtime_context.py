"""Recognise and strip OpenClaw's internal runtime-context blocks in user message text."""

from __future__ import annotations

import re

BEGIN = "<<<BEGIN_OPENCLAW_INTERNAL_CONTEXT>>>"
END = "<<<END_OPENCLAW_INTERNAL_CONTEXT>>>"
NOTICE = "This context is runtime-generated, not user-authored. Keep internal details private."
NEXT_TURN_HEADER = "OpenClaw runtime context for the immediately preceding user message."
EVENT_HEADER = "OpenClaw runtime event."
LEGACY_HEADER = "OpenClaw runtime context (internal):\n" + NOTICE + "\n\n"
LEGACY_EVENT_MARKER = "[Internal task completion event]"
LEGACY_EVENT_SEPARATOR = "\n\n---\n\n"
LEGACY_RESULT_BEGIN = "<<<BEGIN_UNTRUSTED_CHILD_RESULT>>>"
LEGACY_RESULT_END = "<<<END_UNTRUSTED_CHILD_RESULT>>>"


def _token_index(text: str, token: str, start: int) -> int:
    pattern = re.compile(r"(?:^|\r?\n)" + re.escape(token) + r"(?=\r?\n|$)")
    m = pattern.search(text, max(0, start))
    if not m:
        return -1
    return m.start() + (len(m.group(0)) - len(token))


_JS_WS = ("\t\n\x0b\x0c\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008"
          "\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff")


def _js_trim_end(text: str) -> str:
    return text.rstrip(_JS_WS)


def _js_trim_start(text: str) -> str:
    return text.lstrip(_JS_WS)


def _strip_delimited(text: str) -> str:
    current = text
    while True:
        start = _token_index(current, BEGIN, 0)
        if start == -1:
            return current
        cursor = start + len(BEGIN)
        depth, finish = 1, -1
        while depth > 0:
            nxt_begin = _token_index(current, BEGIN, cursor)
            nxt_end = _token_index(current, END, cursor)
            if nxt_end == -1:
                break
            if nxt_begin != -1 and nxt_begin < nxt_end:
                depth += 1
                cursor = nxt_begin + len(BEGIN)
                continue
            depth -= 1
            finish = nxt_end
            cursor = nxt_end + len(END)
        before = _js_trim_end(current[:start])
        if finish == -1 or depth != 0:
            return before
        after = _js_trim_start(current[finish + len(END):])
        current = f"{before}\n\n{after}" if before and after else before + after


def _legacy_event_end(text: str, start: int) -> int | None:
    if not text.startswith(LEGACY_EVENT_MARKER, start):
        return None
    result_begin = text.find(LEGACY_RESULT_BEGIN, start + 32)
    if result_begin == -1:
        return None
    result_end = text.find(LEGACY_RESULT_END, result_begin + 34)
    if result_end == -1:
        return None
    action = text.find("\n\nAction:\n", result_end + 32)
    if action == -1:
        return None
    after_action = action + 10
    nxt = text.find(LEGACY_EVENT_SEPARATOR + LEGACY_EVENT_MARKER, after_action)
    if nxt != -1:
        return nxt
    paragraph = text.find("\n\n", after_action)
    return len(text) if paragraph == -1 else paragraph


def _strip_legacy(text: str) -> str:
    current, search_from = text, 0
    while True:
        header = current.find(LEGACY_HEADER, search_from)
        if header == -1:
            return current
        event_start = header + len(LEGACY_HEADER)
        if not current.startswith(LEGACY_EVENT_MARKER, event_start):
            search_from = event_start
            continue
        block_end = _legacy_event_end(current, event_start)
        if block_end is None:
            paragraph = current.find("\n\n", event_start + 32)
            block_end = len(current) if paragraph == -1 else paragraph
        else:
            while current.startswith(LEGACY_EVENT_SEPARATOR + LEGACY_EVENT_MARKER, block_end):
                nxt_end = _legacy_event_end(current, block_end + 7)
                if nxt_end is None:
                    break
                block_end = nxt_end
        before = _js_trim_end(current[:header])
        after = _js_trim_start(current[block_end:])
        current = f"{before}\n\n{after}" if before and after else before + after
        search_from = max(0, len(before) - 1)


def _strip_preface(text: str) -> str:
    from openclaw_cli.js.strings import js_trim

    lines = re.split(r"\r?\n", text)
    changed = False
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        nxt = lines[i + 1] if i + 1 < len(lines) else ""
        if js_trim(line) in (NEXT_TURN_HEADER, EVENT_HEADER) and js_trim(nxt) == NOTICE:
            changed = True
            i += 1
            while i + 1 < len(lines) and js_trim(lines[i + 1]) == "":
                i += 1
            i += 1
            continue
        out.append(line)
        i += 1
    if not changed:
        return text
    return js_trim(re.sub(r"\n{3,}", "\n\n", "\n".join(out)))


def has_internal_context(text: str) -> bool:
    if not text:
        return False
    return (_token_index(text, BEGIN, 0) != -1 or LEGACY_HEADER in text
            or f"{NEXT_TURN_HEADER}\n{NOTICE}" in text or f"{EVENT_HEADER}\n{NOTICE}" in text)


def strip_internal_context(text: str) -> str:
    if not text:
        return text
    return _strip_preface(_strip_legacy(_strip_delimited(text)))

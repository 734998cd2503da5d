"""The `/context list` and `/context detail` text of 2026.7.1, plus our additions after it."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeGuard

from openclaw_cli.context.report import analyze_budget
from openclaw_cli.context.units import chars_and_tokens, estimate_tokens_from_chars, format_int

INLINE_SHORTCUT = ("Inline shortcut: a command token inside normal text (e.g. “hey /status”) that runs "
                   "immediately (allowlisted senders only) and is stripped before the model sees the "
                   "remaining message.")
TIP = ("Tip: increase this agent's `agents.list[].bootstrapMaxChars` / "
       "`agents.list[].bootstrapTotalMaxChars` override, or the matching `agents.defaults.*` "
       "fallback, if this truncation is not intentional.")
TIP_SQLITE_ERA = TIP.replace("agents.list[]", "agents.entries.*")  # 2026.9.6 keys agents by id
UNKNOWN = "unknown offline"


@dataclass
class ContextView:
    """Everything the layouts print: the report and what the command knows beside it."""

    report: dict[str, Any]
    entry: Mapping[str, Any] | None
    context_tokens: int | None
    max_chars: int
    total_max_chars: int
    workspace_dir: str
    compactable: tuple[int, int] | str | None = None  # (real, total) or the unavailable reason
    exact: dict[str, Any] = field(default_factory=dict)  # tokenizer additions, by line key
    tokenizer: str | None = None
    extras: list[str] = field(default_factory=list)
    sqlite_era: bool = False  # a SQLite-era session: 2026.9.6's rules where they differ


def _is_num(value: Any) -> TypeGuard[float]:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def fresh_total_tokens(entry: Mapping[str, Any] | None, *, sqlite_era: bool = False) -> int | float | None:
    """`resolveFreshSessionTotalTokens`: totalTokens when finite, ≥ 0 and not marked stale; in the
    SQLite era (2026.9.6) only when marked fresh (`totalTokensFresh: true`, `totalTokensVersion: 1`)."""
    if not isinstance(entry, Mapping):
        return None
    total = entry.get("totalTokens")
    if not _is_num(total) or total < 0:
        return None
    if sqlite_era:
        version = entry.get("totalTokensVersion")
        fresh = entry.get("totalTokensFresh") is True and _is_num(version) and version == 1
    else:
        fresh = entry.get("totalTokensFresh") is not False
    return total if fresh else None


def fc(value: Any) -> str:
    return chars_and_tokens(value) if _is_num(value) else UNKNOWN


def _js(value: Any) -> str:
    if value is True:
        return "true"
    if value is False:
        return "false"
    if value is None:
        return "undefined"
    return str(value)


def _tok(view: ContextView, key: str) -> str:
    value = view.exact.get(key)
    return f" [{view.tokenizer}: {value}]" if view.tokenizer and value is not None else ""


def _file_line(view: ContextView, f: Mapping[str, Any]) -> str:
    status = "MISSING" if f.get("missing") else "TRUNCATED" if f.get("truncated") else "OK"
    raw = "0" if f.get("missing") else fc(f.get("rawChars"))
    injected = "0" if f.get("missing") else fc(f.get("injectedChars"))
    return f"- {f.get('name')}: {status} | raw {raw} | injected {injected}{_tok(view, 'file:' + str(f.get('name')))}"


def _names(names: Sequence[str], cap: int) -> str:
    if len(names) <= cap:
        return ", ".join(names)
    return f"{', '.join(names[:cap])}, … (+{len(names) - cap} more)"


def _top(entries: Sequence[tuple[str, Any]], cap: int) -> tuple[list[str], int]:
    ordered = sorted(entries, key=lambda e: -(e[1] if _is_num(e[1]) else 0))
    top = ordered[:cap]
    return [f"- {name}: {fc(value)}" for name, value in top], max(0, len(ordered) - len(top))


def _shared(view: ContextView) -> list[str]:
    r = view.report
    prompt = r.get("systemPrompt") or {}
    sandbox = r.get("sandbox") or {}
    skills = r.get("skills") or {}
    files = r.get("injectedWorkspaceFiles") or []
    max_chars = r.get("bootstrapMaxChars")
    total_max = r.get("bootstrapTotalMaxChars")
    max_chars = max_chars if _is_num(max_chars) and max_chars > 0 else view.max_chars
    total_max = total_max if _is_num(total_max) and total_max > 0 else view.total_max_chars
    analysis = analyze_budget(files, max_chars, total_max)
    warning: list[str] = []
    if analysis.truncated:
        causes = [part for part in (
            f"{analysis.per_file} file(s) exceeded max/file" if analysis.per_file else None,
            f"{analysis.total} file(s) hit max/total" if analysis.total else None) if part]
        warning = [f"⚠ Bootstrap context is over configured limits: {len(analysis.truncated)} file(s) "
                   f"truncated ({format_int(analysis.raw_chars)} raw chars -> "
                   f"{format_int(analysis.injected_chars)} injected chars).",
                   *([f"Causes: {'; '.join(causes)}."] if causes else []), TIP_SQLITE_ERA if view.sqlite_era else TIP]
    mode = sandbox.get("mode")
    sandboxed = sandbox.get("sandboxed")
    lines = [
        f"Workspace: {r.get('workspaceDir') if r.get('workspaceDir') is not None else view.workspace_dir}",
        f"Bootstrap max/file: {format_int(max_chars)} chars",
        f"Bootstrap max/total: {format_int(total_max)} chars",
        f"Sandbox: mode={_js(mode) if mode is not None else 'unknown'} "
        f"sandboxed={_js(sandboxed) if sandboxed is not None else 'false'}",
        f"System prompt ({r.get('source')}): {fc(prompt.get('chars'))} "
        f"(Project Context {fc(prompt.get('projectContextChars'))})",
        *(["", *warning] if warning else []),
        "",
        "Injected workspace files:",
        *(_file_line(view, f) for f in files),
        "",
    ]
    entries = skills.get("entries")
    if entries is None:
        lines += [f"Skills list (system prompt text): {UNKNOWN}", f"Skills: {UNKNOWN}"]
    else:
        names = list(dict.fromkeys(str(e.get("name")) for e in entries))
        lines += [f"Skills list (system prompt text): {fc(skills.get('promptChars'))} ({len(names)} skills)"
                  f"{_tok(view, 'skills')}",
                  f"Skills: {_names(names, 20)}" if names else "Skills: (none)"]
    return lines


def _tool_lines(view: ContextView) -> list[str]:
    tools = view.report.get("tools") or {}
    entries = tools.get("entries")
    names = [str(t.get("name")) for t in entries or []]
    return [
        f"Tool list (system prompt text): {fc(tools.get('listChars'))}",
        f"Tool schemas (JSON): {fc(tools.get('schemaChars'))} (counts toward context; not shown as text)"
        if entries is not None else
        f"Tool schemas (JSON): {UNKNOWN} (live tool schemas are known only to a running Gateway)",
        (f"Tools: {_names(names, 30)}" if names else "Tools: (none)") if entries is not None
        else f"Tools: {UNKNOWN}",
    ]


def _session_line(view: ContextView, cached: Any) -> str:
    ctx = format_int(view.context_tokens) if view.context_tokens is not None else "?"
    if cached is not None:
        return f"Session tokens (cached): {format_int(cached)} total / ctx={ctx}"
    return f"Session tokens (cached): unknown / ctx={ctx}"


def render_list(view: ContextView) -> str:
    cached = fresh_total_tokens(view.entry, sqlite_era=view.sqlite_era)
    lines = ["🧠 Context breakdown", *_shared(view), *_tool_lines(view), "",
             _session_line(view, cached), "", INLINE_SHORTCUT]
    if view.extras:
        lines += ["", *view.extras]
    return "\n".join(lines)


def render_detail(view: ContextView) -> str:
    r = view.report
    tools = r.get("tools") or {}
    tool_entries = tools.get("entries")
    skill_entries = (r.get("skills") or {}).get("entries") or []
    cached = fresh_total_tokens(view.entry, sqlite_era=view.sqlite_era)
    skill_lines, skill_more = _top([(str(s.get("name")), s.get("blockChars")) for s in skill_entries], 30)
    lines = ["🧠 Context breakdown (detailed)", *_shared(view)]
    if skill_lines:
        lines += ["Top skills (prompt entry size):", *skill_lines]
    if skill_more:
        lines.append(f"… (+{skill_more} more skills)")
    lines += _tool_lines(view)
    if tool_entries is None:
        lines += [f"Top tools (schema size): {UNKNOWN}", f"Top tools (summary text size): {UNKNOWN}"]
    else:
        schema, schema_more = _top([(str(t.get("name")), t.get("schemaChars")) for t in tool_entries], 30)
        summary, summary_more = _top([(str(t.get("name")), t.get("summaryChars")) for t in tool_entries], 30)
        lines += ["Top tools (schema size):", *schema,
                  *([f"… (+{schema_more} more tools)"] if schema_more else []),
                  "Top tools (summary text size):", *summary,
                  *([f"… (+{summary_more} more tools)"] if summary_more else [])]
        props = sorted((t for t in tool_entries if t.get("propertiesCount") is not None),
                       key=lambda t: -(t.get("propertiesCount") or 0))[:30]
        if props:
            lines += ["Tools (param count):", *(f"- {t.get('name')}: {t.get('propertiesCount')} params" for t in props)]
    turn = r.get("currentTurn")
    turn_chars = (turn.get("promptChars", 0) + turn.get("runtimeContextChars", 0)) if isinstance(turn, Mapping) else 0
    prompt_chars = (r.get("systemPrompt") or {}).get("chars")
    schema_chars = tools.get("schemaChars")
    tracked = prompt_chars + schema_chars + turn_chars if _is_num(prompt_chars) and _is_num(schema_chars) else None
    lines.append(f"Tracked prompt estimate: {fc(tracked)}")
    lines.append(f"Actual context usage (cached): {format_int(cached)} tok" if cached is not None
                 else "Actual context usage (cached): unavailable")
    if cached is not None:
        if tracked is None:
            lines.append(f"Untracked provider/runtime overhead: {UNKNOWN}")
        else:
            overhead = cached - estimate_tokens_from_chars(tracked)
            lines.append(f"Untracked provider/runtime overhead: ~{format_int(overhead)} tok" if overhead > 0
                         else "Untracked provider/runtime overhead: not observed in cached usage")
    if isinstance(view.compactable, tuple):
        real, total = view.compactable
        lines.append(f"Compactable transcript: {format_int(real)} real conversation message(s) / "
                     f"{format_int(total)} transcript message(s)")
        if real == 0:
            lines.append("Compaction note: prompt/cache usage may be high even when there are no "
                         "compactable conversation messages.")
    elif view.compactable is not None:
        lines.append(f"Compactable transcript: unavailable ({view.compactable})")
    lines += [_session_line(view, cached), INLINE_SHORTCUT]
    lines = [line for line in lines if line]
    if view.extras:
        lines += ["", *view.extras]
    return "\n".join(lines)

"""The `SessionSystemPromptReport` of 2026.7.1: injection stats, skill blocks, budget analysis, estimate."""

from __future__ import annotations

import hashlib
import math
import posixpath
import re
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from openclaw_cli.context.bootstrap import BootstrapFile, InjectedFile
from openclaw_cli.context.units import js_trim, js_trim_end, to_units, utf16_len

_SKILL_BLOCK = re.compile(r"<skill>[\s\S]*?</skill>", re.IGNORECASE)
_SKILL_NAME = re.compile(r"<name>\s*([^<]+?)\s*</name>", re.IGNORECASE)


def sha256_hex(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def injection_stats(bootstrap: Sequence[BootstrapFile], injected: Sequence[InjectedFile]) -> list[dict[str, Any]]:
    """`buildBootstrapInjectionStats`: one row per bootstrap file, injected text matched by path,
    then by name as a path, then by base name."""
    by_path: dict[str, str] = {}
    by_base: dict[str, str] = {}
    for item in injected:
        path = js_trim(item.path)
        if not path:
            continue
        by_path.setdefault(path, item.units)
        by_base.setdefault(posixpath.basename(path.replace("\\", "/")), item.units)
    rows = []
    for file in bootstrap:
        path = js_trim(file.path) if isinstance(file.path, str) else ""
        raw = 0 if file.missing else len(js_trim_end(to_units(file.content or "")))
        found = (by_path.get(path) if path else None)
        if found is None:
            found = by_path.get(file.name)
        if found is None:
            found = by_base.get(file.name)
        injected_chars = len(found) if found else 0
        rows.append({"name": file.name, "path": path or file.name, "missing": file.missing,
                     "rawChars": raw, "injectedChars": injected_chars,
                     "truncated": (not file.missing) and injected_chars < raw})
    return rows


def parse_skill_blocks(skills_prompt: str) -> list[dict[str, Any]]:
    """`parseSkillBlocks`: every `<skill>…</skill>` of the trimmed prompt, with name and length."""
    prompt = js_trim(skills_prompt)
    out = []
    for match in _SKILL_BLOCK.finditer(prompt):
        block = match.group(0)
        name_match = _SKILL_NAME.search(block)
        name = js_trim(name_match.group(1)) if name_match else ""
        length = utf16_len(block)
        if length > 0:
            out.append({"name": name or "(unknown)", "blockChars": length})
    return out


def _limit(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value <= 0:
        return 1
    return math.floor(value)


@dataclass
class BudgetAnalysis:
    truncated: list[dict[str, Any]] = field(default_factory=list)
    raw_chars: float = 0
    injected_chars: float = 0
    per_file: int = 0
    total: int = 0


def analyze_budget(files: Sequence[Mapping[str, Any]], max_chars: Any, total_max_chars: Any) -> BudgetAnalysis:
    """`analyzeBootstrapBudget` as the list layout uses it: truncated files and their causes."""
    max_file, max_total = _limit(max_chars), _limit(total_max_chars)
    non_missing = [f for f in files if not f.get("missing")]
    result = BudgetAnalysis(raw_chars=sum(_num(f.get("rawChars")) for f in non_missing),
                            injected_chars=sum(_num(f.get("injectedChars")) for f in non_missing))
    total_over = result.injected_chars >= max_total
    for file in files:
        if not file.get("truncated"):
            continue
        result.truncated.append(dict(file))
        if file.get("missing"):
            continue
        if _num(file.get("rawChars")) > max_file:
            result.per_file += 1
        if total_over:
            result.total += 1
    return result


def _num(value: Any) -> float:
    return value if isinstance(value, (int, float)) and not isinstance(value, bool) else 0


def build_estimate_report(*, session_id: str | None, session_key: str, provider: str | None,
                          model: str | None, workspace_dir: str, max_chars: int, total_max_chars: int,
                          sandbox: Mapping[str, Any], bootstrap: Sequence[BootstrapFile],
                          injected: Sequence[InjectedFile], skills_prompt: str | None,
                          generated_at: int | None = None) -> dict[str, Any]:
    """An on-demand estimate in the 2026.7.1 key order. What only the live runtime knows (the
    rendered system prompt, the tool set) is None; so is the skills prompt when it is unknown."""
    report: dict[str, Any] = {
        "source": "estimate",
        "generatedAt": int(time.time() * 1000) if generated_at is None else generated_at,
    }
    if session_id is not None:
        report["sessionId"] = session_id
    report.update({
        "sessionKey": session_key,
        "provider": provider,
        "model": model,
        "workspaceDir": workspace_dir,
        "bootstrapMaxChars": max_chars,
        "bootstrapTotalMaxChars": total_max_chars,
        "sandbox": {"mode": sandbox.get("mode"), "sandboxed": sandbox.get("sandboxed")},
        "systemPrompt": {"chars": None, "hash": None, "projectContextChars": None,
                         "nonProjectContextChars": None},
        "injectedWorkspaceFiles": injection_stats(bootstrap, injected),
        "skills": ({"promptChars": utf16_len(skills_prompt), "hash": sha256_hex(skills_prompt),
                    "entries": parse_skill_blocks(skills_prompt)} if skills_prompt is not None
                   else {"promptChars": None, "hash": None, "entries": None}),
        "tools": {"listChars": 0, "schemaChars": None, "entries": None},
    })
    if provider is None:
        report.pop("provider")
    if model is None:
        report.pop("model")
    return report

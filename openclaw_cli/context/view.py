"""What `openclaw context` shows beside the report: the estimate from disk, the session numbers,
transcript counts and optional tokenizer counts."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from openclaw_cli.context.render import ContextView
from openclaw_cli.context.target import Target


@dataclass
class Loaded:
    """A report and where it came from, with the estimate's inputs when it is the estimate."""

    target: Target
    report: dict[str, Any]
    origin: str  # "gateway", "store" or "estimate"
    bootstrap: list | None = None
    injected: list | None = None
    skills_prompt: str | None = None


def build_estimate(target: Target) -> Loaded:
    """The on-demand estimate from disk (workspace files, limits, skills snapshot)."""
    from openclaw_cli.context import bootstrap as bs
    from openclaw_cli.context.report import build_estimate_report
    from openclaw_cli.context.skills import folder_skill_names, snapshot_prompt
    from openclaw_cli.context.target import model_ref, sandbox_status
    from openclaw_cli.context.workspace import FILE_ERA_RULES, SQLITE_ERA_RULES, resolve_bootstrap_files

    max_chars = bs.resolve_max_chars(target.cfg, target.agent_id)
    total = bs.resolve_total_max_chars(target.cfg, target.agent_id)
    rules = SQLITE_ERA_RULES if target.sqlite_path is not None else FILE_ERA_RULES
    files = resolve_bootstrap_files(target.cfg, target.agent_id, target.session_key, target.workspace_dir, rules)
    injected = bs.build_context_files(files, max_chars, total)
    prompt = snapshot_prompt(target.entry)
    provider, model = model_ref(target)
    report = build_estimate_report(
        session_id=target.session_id, session_key=target.session_key, provider=provider, model=model,
        workspace_dir=target.workspace_dir, max_chars=max_chars, total_max_chars=total,
        sandbox=sandbox_status(target), bootstrap=files, injected=injected, skills_prompt=prompt)
    if prompt is None:
        from openclaw_cli.config import paths

        names = folder_skill_names(target.workspace_dir, paths.resolve_state_dir(target.env))
        if names:
            report["skills"]["entries"] = [{"name": n, "blockChars": None} for n in names]
    return Loaded(target, report, "estimate", files, injected, prompt)


def session_json(entry: Mapping[str, Any] | None, context_tokens: int | None, *,
                 sqlite_era: bool = False) -> dict[str, Any]:
    """The `session` object of `/context json`: 2026.7.1 copies the entry's counters; 2026.9.6 (the
    SQLite era) gives the fresh total and whether there is one."""
    from openclaw_cli.context.render import fresh_total_tokens

    known = entry or {}
    total, fresh = known.get("totalTokens"), known.get("totalTokensFresh")
    if sqlite_era:
        total = fresh_total_tokens(entry, sqlite_era=True)
        fresh = None if entry is None else total is not None
    return {"totalTokens": total, "totalTokensFresh": fresh, "inputTokens": known.get("inputTokens"),
            "outputTokens": known.get("outputTokens"), "contextTokens": context_tokens}


def resolve_context_tokens(loaded: Loaded) -> int | None:
    from openclaw_cli.context.target import context_window, model_ref

    provider, model = model_ref(loaded.target)
    if loaded.origin != "estimate":
        provider = loaded.report.get("provider") or provider
        model = loaded.report.get("model") or model
    return context_window(loaded.target, provider, model)


def make_view(loaded: Loaded, *, detail: bool, tokenizer: str | None = None,
              extras: bool = True) -> ContextView:
    from openclaw_cli.context import bootstrap as bs

    target = loaded.target
    view = ContextView(report=loaded.report, entry=target.entry, context_tokens=resolve_context_tokens(loaded),
                       max_chars=bs.resolve_max_chars(target.cfg, target.agent_id),
                       total_max_chars=bs.resolve_total_max_chars(target.cfg, target.agent_id),
                       workspace_dir=target.workspace_dir,
                       tokenizer=tokenizer if tokenizer and tokenizer != "estimate" else None,
                       sqlite_era=target.sqlite_path is not None)
    encoder = None
    if view.tokenizer:
        from openclaw_cli.context.tokenizer import get_encoding

        encoder = get_encoding(view.tokenizer)
        _exact_counts(loaded, view, encoder)
    stats = None
    if detail:
        source = target.transcript_source()
        if not (target.session_id or "").strip():
            view.compactable = "no active transcript session"
        else:
            if source is not None:
                from openclaw_cli.context.tokenizer import message_counter
                from openclaw_cli.context.transcript import scan_transcript

                stats = scan_transcript(source, message_counter(encoder) if encoder else None)
            view.compactable = (stats.real, stats.total) if stats and stats.total else "no transcript messages found"
    if extras:
        from openclaw_cli.context.extras import extra_lines

        view.extras = extra_lines(loaded, view, stats, detail=detail)
    return view


def _exact_counts(loaded: Loaded, view: ContextView, encoder: Any) -> None:
    """Tokenizer counts for the texts this tool can see: injected files and the skills prompt."""
    from openclaw_cli.context.units import format_int, from_units, js_trim_end, to_units

    estimate = loaded if loaded.origin == "estimate" else build_estimate(loaded.target)
    rows = {r["name"]: r for r in estimate.report["injectedWorkspaceFiles"]}
    injected = {i.path: i.units for i in estimate.injected or []}
    for file in estimate.bootstrap or []:
        row = rows.get(file.name)
        shown = next((f for f in loaded.report.get("injectedWorkspaceFiles") or [] if f.get("name") == file.name), None)
        if row is None or shown is None or file.missing:
            continue
        if (shown.get("rawChars"), shown.get("injectedChars")) != (row["rawChars"], row["injectedChars"]):
            view.exact[f"file:{file.name}"] = "changed since the run"
            continue
        raw_text = from_units(js_trim_end(to_units(file.content or "")))
        inj = injected.get(file.path)
        view.exact[f"file:{file.name}"] = (f"raw {format_int(len(encoder.encode_ordinary(raw_text)))} tok | injected "
                                           f"{format_int(len(encoder.encode_ordinary(from_units(inj))) if inj else 0)} tok")
    prompt = estimate.skills_prompt
    skills = loaded.report.get("skills") or {}
    if prompt is not None and len(to_units(prompt)) == skills.get("promptChars"):
        view.exact["skills"] = f"{format_int(len(encoder.encode_ordinary(prompt)))} tok"

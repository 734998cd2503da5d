"""Offline `openclaw compact KEY`: the entry point the CLI calls when no Gateway is used.

Contract of `run_offline_compact(...) -> dict`:

Inputs (keyword only)
* `store_path` – the agent's `sessions.json`; or `state_dir` (+ `agent`, default from the key or
  "main") to derive `<state>/agents/<agent>/sessions/sessions.json`.
* `key` – the session key; a bare key `K` is looked up as `agent:<agent>:K` too. The CLI may pass
  the already canonical key.
* `max_lines` – trim mode (`sessions.compact {maxLines}`); otherwise summary mode.
* `summarizer` – "extractive" (default), "openai" or "text"; `summary_text` (the content of
  `--summary-file`, read by the caller; implies "text"); `base_url`, `model`, `api_key_env`
  (name of the variable holding the key), `model_max_tokens` for "openai" (default: the
  model's `maxTokens` in the config's `models.providers`, matched by id or `provider/id`).
* `config` – the parsed OpenClaw config (for `agents.defaults.compaction`); when None it is read
  from `<state_dir>/openclaw.json` if that exists.
* `dry_run` – plan and report, write nothing (no model call either).

Result: the reply the Gateway's `sessions.compact` gives, plus an `offline` object:
* trim: `{ok, key, compacted, archived?, kept?, reason?}`
* summary: `{ok, key, compacted, reason?, result?: {summary, firstKeptEntryId, tokensBefore,
  tokensAfter?, details?}}`; `ok` is false for "Already compacted" and
  "Nothing to compact (session too small)" as in OpenClaw.
* `offline`: `{dryRun, transcript, mode, summarizer?, cutEntryId?, entryId?, hardened?,
  summarizedMessages?, turnPrefixMessages?, splitTurn?, keptEntries?, tokensAfter?, requests?,
  staleLockRemoved?, entry?}`.

Errors: `LockBusyError` (exit 75) while a live process holds `<transcript>.lock` (the message
names the pid); `UsageError` for bad arguments; `CliError` for a key the store does not hold
(`unknown session KEY in STORE`) or an entry without a sessionId (the Gateway's "no sessionId"),
unreadable files or model failures. Nothing is written before every check has passed; the transcript is only appended to
(summary) or replaced by rename after the archive exists (trim).
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from openclaw_cli.compact.clock import iso_timestamp, now_ms
from openclaw_cli.compact.entry import compaction_entry, new_entry_id, serialize_line
from openclaw_cli.compact.lock import acquire_transcript_lock, check_transcript_lock
from openclaw_cli.compact.maxlines import plan_trim, replace_transcript
from openclaw_cli.compact.planner import NothingToCompact, plan_compaction
from openclaw_cli.compact.settings import resolve_settings
from openclaw_cli.compact.store import CompactionOutcome, load_store, update_store_entry
from openclaw_cli.errors import CliError, UsageError
from openclaw_cli.transcript import TranscriptError, load_index
from openclaw_cli.transcript.tokens import estimate_tokens

SUMMARIZERS = ("extractive", "openai", "text")
_UUID_NAME = re.compile(r"^([0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12})"
                        r"(?:-topic-.+)?\.jsonl$", re.IGNORECASE)


def store_path_for(state_dir: str | Path, agent: str) -> Path:
    return Path(state_dir) / "agents" / agent / "sessions" / "sessions.json"


def agent_from_key(key: str) -> str | None:
    parts = key.split(":")
    return parts[1].lower() if len(parts) >= 3 and parts[0].lower() == "agent" and parts[1] else None


def key_candidates(key: str, agent: str) -> list[str]:
    key = key.strip()
    lowered = key.lower()
    out = [key, lowered]
    if not lowered.startswith("agent:") and lowered != "global":
        out.append(f"agent:{agent}:{lowered}")
    return list(dict.fromkeys(out))


def transcript_candidates(entry: Mapping[str, Any], sessions_dir: Path, state_dir: Path | None) -> list[Path]:
    """Where the entry's transcript may be, in the Gateway's order."""
    session_id = str(entry.get("sessionId"))
    out: list[Path] = []
    session_file = entry.get("sessionFile")
    if isinstance(session_file, str) and session_file.strip():
        raw = session_file.strip()
        name = os.path.basename(raw)
        generated = _UUID_NAME.match(name)
        if not (generated and generated.group(1).lower() != session_id.lower()):
            candidate = Path(raw) if os.path.isabs(raw) else sessions_dir / raw
            resolved = os.path.normpath(str(candidate))
            inside = os.path.dirname(resolved) == os.path.normpath(str(sessions_dir))
            if inside:
                out.append(Path(resolved))
            elif os.path.isabs(raw) and Path(raw).parent.parent.parent.name == "agents":
                out.append(sessions_dir / name)
    out.append(sessions_dir / f"{session_id}.jsonl")
    if state_dir is not None:
        out.append(state_dir / "sessions" / f"{session_id}.jsonl")
    return list(dict.fromkeys(out))


def _load_config(state_dir: Path | None) -> Mapping[str, Any]:
    if state_dir is None:
        return {}
    path = state_dir / "openclaw.json"
    if not path.is_file():
        return {}
    try:
        from openclaw_cli.config.load import parse_json5

        value = parse_json5(path.read_text(encoding="utf-8"))
    except Exception:  # an unreadable config only means default settings here
        return {}
    return value if isinstance(value, Mapping) else {}


def configured_model(config: Mapping[str, Any], model: str | None) -> Mapping[str, Any]:
    """The `models.providers.*.models[]` entry whose id is `model` (or `provider/model`)."""
    if not model:
        return {}
    models = config.get("models") if isinstance(config, Mapping) else None
    providers = models.get("providers") if isinstance(models, Mapping) else None
    if not isinstance(providers, Mapping):
        return {}
    provider_hint, _, model_id = model.rpartition("/")
    for name, provider in providers.items():
        if provider_hint and name != provider_hint or not isinstance(provider, Mapping):
            continue
        for item in provider.get("models") or []:
            if isinstance(item, Mapping) and item.get("id") == model_id:
                return item
    return {}


def _make_summarizer(summarizer: str, *, summary_text: str | None, base_url: str | None,
                     model: str | None, api_key_env: str | None, model_max_tokens: int | None,
                     dry_run: bool):
    if summarizer == "text":
        from openclaw_cli.compact.summarizers.text import TextSummarizer

        if summary_text is None:
            raise UsageError("--summary-file is required for the text summarizer")
        return TextSummarizer(summary_text)
    if summarizer == "openai":
        from openclaw_cli.compact.summarizers.openai import OpenAISummarizer, api_key_from_env

        if not base_url or not model:
            raise UsageError("--summarizer openai needs --base-url and --model")
        api_key = None if dry_run else api_key_from_env(api_key_env)
        return OpenAISummarizer(base_url=base_url, model=model.rpartition("/")[2], api_key=api_key,
                                model_max_tokens=model_max_tokens)
    from openclaw_cli.compact.summarizers.extractive import ExtractiveSummarizer

    return ExtractiveSummarizer()


def run_offline_compact(*, key: str, store_path: str | Path | None = None,
                        state_dir: str | Path | None = None, agent: str | None = None,
                        max_lines: int | None = None, summarizer: str | None = None,
                        summary_text: str | None = None, base_url: str | None = None,
                        model: str | None = None, api_key_env: str | None = None,
                        model_max_tokens: int | None = None, dry_run: bool = False,
                        config: Mapping[str, Any] | None = None,
                        keep_recent_tokens: int | None = None) -> dict[str, Any]:
    """Compact one session offline; see the module docstring for the contract."""
    if not key or not key.strip():
        raise UsageError("session key is required")
    if max_lines is not None and (isinstance(max_lines, bool) or int(max_lines) < 1):
        raise UsageError("--max-lines must be a positive integer.")
    if summary_text is not None:
        if summarizer not in (None, "text"):
            raise UsageError("--summary-file cannot be combined with --summarizer " + str(summarizer))
        summarizer = "text"
    summarizer = summarizer or "extractive"
    if summarizer not in SUMMARIZERS:
        raise UsageError(f"unknown summarizer {summarizer!r} (expected one of: {', '.join(SUMMARIZERS)})")
    agent_id = (agent or agent_from_key(key) or "main").strip().lower()
    state = Path(state_dir) if state_dir is not None else None
    if store_path is None:
        if state is None:
            raise UsageError("a state directory or store path is required")
        store_path = store_path_for(state, agent_id)
    store_path = Path(store_path)
    if state is None and store_path.parent.parent.parent.name == "agents":
        state = store_path.parent.parent.parent.parent
    store = load_store(store_path)
    store_key = next((k for k in key_candidates(key, agent_id) if isinstance(store.get(k), dict)), None)
    canonical = store_key or key_candidates(key, agent_id)[-1]
    entry = store.get(store_key) if store_key else None
    offline: dict[str, Any] = {"dryRun": dry_run, "mode": "max-lines" if max_lines is not None else "summary"}
    if entry is None:
        raise CliError(f"unknown session {canonical} in {store_path}")
    if not entry.get("sessionId"):
        raise CliError(f"session {canonical} in {store_path} has no sessionId, so it has no transcript to compact")
    sessions_dir = store_path.parent
    transcript = next((p for p in transcript_candidates(entry, sessions_dir, state) if p.is_file()), None)
    if transcript is None:
        return {"ok": True, "key": canonical, "compacted": False, "reason": "no transcript", "offline": offline}
    offline["transcript"] = str(transcript)
    if max_lines is not None:
        return _run_trim(canonical, store_key, store_path, transcript, int(max_lines), dry_run, offline)
    cfg = config if config is not None else _load_config(state)
    model_cfg = configured_model(cfg, model) if summarizer == "openai" else {}
    if model_max_tokens is None and isinstance(model_cfg.get("maxTokens"), int):
        model_max_tokens = model_cfg["maxTokens"]
    window = model_cfg.get("contextWindow")
    settings = resolve_settings(cfg, keep_recent_tokens=keep_recent_tokens,
                                context_window=window if isinstance(window, int) and window > 0 else None)
    maker = _make_summarizer(summarizer, summary_text=summary_text, base_url=base_url, model=model,
                             api_key_env=api_key_env, model_max_tokens=model_max_tokens, dry_run=dry_run)
    offline["summarizer"] = summarizer
    if settings.mode == "safeguard" and summarizer == "openai":
        offline["note"] = ("agents.defaults.compaction.mode is safeguard: the Gateway would summarise with "
                           "its safeguard prompts; this run uses the default-mode prompts")
    return _run_summary(canonical, store_key, store_path, transcript, settings, maker, dry_run, offline)


def _run_trim(key: str, store_key: str, store_path: Path, transcript: Path, max_lines: int,
              dry_run: bool, offline: dict[str, Any]) -> dict[str, Any]:
    plan = plan_trim(transcript, max_lines)
    if not plan.compacted:
        return {"ok": True, "key": key, "compacted": False, "kept": plan.kept, "offline": offline}
    if dry_run:
        check_transcript_lock(transcript)
        offline["wouldArchive"] = f"{transcript}.bak.<time>"
        return {"ok": True, "key": key, "compacted": True, "kept": plan.kept, "offline": offline}
    with acquire_transcript_lock(transcript) as lock:
        plan = plan_trim(transcript, max_lines)  # re-read under the lock
        if not plan.compacted:
            return {"ok": True, "key": key, "compacted": False, "kept": plan.kept, "offline": offline}
        archived = replace_transcript(transcript, plan.lines or [])
        offline["staleLockRemoved"] = lock.stale_removed or None
        entry = update_store_entry(store_path, store_key, CompactionOutcome(kind="max-lines", now_ms=now_ms()))
    offline["entry"] = entry
    return {"ok": True, "key": key, "compacted": True, "archived": archived, "kept": plan.kept,
            "offline": offline}


def _stat_signature(path: Path) -> tuple[int, int]:
    st = path.stat()
    return st.st_size, st.st_mtime_ns


def _run_summary(key: str, store_key: str, store_path: Path, transcript: Path, settings, maker,
                 dry_run: bool, offline: dict[str, Any]) -> dict[str, Any]:
    lock = None
    if dry_run:
        check_transcript_lock(transcript)
    else:
        lock = acquire_transcript_lock(transcript)
    try:
        started = now_ms()
        signature = _stat_signature(transcript)
        try:
            index = load_index(transcript)
        except TranscriptError as exc:
            raise CliError(str(exc)) from None
        if index.skipped_lines:
            offline["skippedLines"] = index.skipped_lines
        try:
            plan = plan_compaction(index, settings)
        except NothingToCompact as exc:
            ok = exc.reason == "no real conversation messages"
            return {"ok": ok, "key": key, "compacted": False, "reason": exc.reason, "offline": offline}
        if not index.has_assistant:
            return {"ok": False, "key": key, "compacted": False,
                    "reason": "transcript has no assistant message yet", "offline": offline}
        offline.update({
            "cutEntryId": plan.first_kept_entry_id, "splitTurn": plan.is_split_turn,
            "summarizedMessages": len(plan.history), "turnPrefixMessages": len(plan.turn_prefix),
            "summarizedTokens": plan.summarized_tokens, "keptEntries": len(plan.kept),
            "keptTokens": sum(e.tokens for e in plan.kept if e.in_context),
            "keepRecentTokens": settings.keep_recent_tokens, "leafId": plan.leaf_id,
        })
        if dry_run and hasattr(maker, "planned_requests"):
            bodies = maker.planned_requests(plan)
            offline["requests"] = len(bodies)
            offline["requestChars"] = [len(b["messages"][1]["content"][0]["text"]) for b in bodies]
            return {"ok": True, "key": key, "compacted": False, "reason": "dry run",
                    "result": {"firstKeptEntryId": plan.first_kept_entry_id,
                               "tokensBefore": plan.tokens_before}, "offline": offline}
        produced = maker.summarize(plan)
        entry_id = new_entry_id(index.by_id)
        hardened = plan.should_harden(produced.summary)
        first_kept = entry_id if hardened else plan.first_kept_entry_id
        summary_tokens = estimate_tokens({"role": "compactionSummary", "summary": produced.summary})
        tokens_after = plan.tokens_after(summary_tokens, hardened)
        result: dict[str, Any] = {"summary": produced.summary, "firstKeptEntryId": first_kept,
                                  "tokensBefore": plan.tokens_before}
        if tokens_after is not None:
            result["tokensAfter"] = tokens_after
        if produced.details is not None:
            result["details"] = produced.details
        offline["hardened"] = hardened
        if dry_run:
            return {"ok": True, "key": key, "compacted": False, "reason": "dry run", "result": result,
                    "offline": offline}
        entry = compaction_entry(entry_id=entry_id, parent_id=plan.parent_id, timestamp=iso_timestamp(),
                                 summary=produced.summary, first_kept_entry_id=first_kept,
                                 tokens_before=plan.tokens_before, details=produced.details,
                                 from_hook=produced.from_hook)
        if _stat_signature(transcript) != signature:
            raise CliError(f"transcript changed while compacting; nothing written: {transcript}")
        line = serialize_line(entry)
        if not index.ends_with_newline:
            line = "\n" + line
        fd = os.open(transcript, os.O_WRONLY | os.O_APPEND)
        try:
            os.write(fd, line.encode("utf-8"))
            os.fsync(fd)
        finally:
            os.close(fd)
        outcome = CompactionOutcome(
            kind="summary", now_ms=now_ms(), tokens_before=plan.tokens_before, tokens_after=tokens_after,
            summary=produced.summary, first_kept_entry_id=first_kept, session_key=key,
            session_id=index.session_id.strip(), session_file=str(transcript), pre_leaf_id=plan.leaf_id,
            pre_entry_id=index.last_record_id or plan.leaf_id, post_leaf_id=entry_id, started_ms=started)
        offline["entryId"] = entry_id
        offline["entry"] = update_store_entry(store_path, store_key, outcome)
        if lock is not None and lock.stale_removed:
            offline["staleLockRemoved"] = lock.stale_removed
        return {"ok": True, "key": key, "compacted": True, "result": result, "offline": offline}
    finally:
        if lock is not None:
            lock.release()

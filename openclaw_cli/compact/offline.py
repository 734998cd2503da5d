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
* `config` – the parsed OpenClaw config (for `agents.defaults.compaction` and `session.writeLock`);
  when None, the state folder's config is read as OpenClaw reads it (`$include`, `${VAR}`).
* `env` – the environment (default: the process's), for `OPENCLAW_SESSION_WRITE_LOCK_*`.
* `dry_run` – plan and report, write nothing (no model call either).
* `keep_recent_tokens` – overrides the configured recent tail; `max_summary_tokens` – the
  extractive summary's budget in tokens of the session model's tokenizer (default 12,000).

Result: the reply the Gateway's `sessions.compact` gives, plus an `offline` object:
* trim: `{ok, key, compacted, archived?, kept?, reason?}`
* summary: `{ok, key, compacted, reason?, result?: {summary, firstKeptEntryId, tokensBefore,
  tokensAfter?, details?}}`; `ok` is false for "Already compacted" and
  "Nothing to compact (session too small)" as in OpenClaw, and for what OpenClaw would write but
  this tool refuses: nothing to summarise (every message in the recent tail), an empty summary,
  or a result that would not shrink the context (chars/4 estimates of its messages, before and
  after). A dry run answers `compacted: false, reason: "dry run"` with the `result` the run
  would give (`firstKeptEntryId` null when no recent tail is kept: the run then writes the new
  entry's own id; no `summary`/`tokensAfter` before a model has answered).
* `offline`: `{dryRun, transcript, mode, summarizer?, hardened?, cutEntryId?, splitTurn?,
  summarizedMessages?, turnPrefixMessages?, tailMessages?, droppedTailMessages?,
  summarizedTokens?, keptEntries?, keptTokens?, estimatedTokensBefore?, estimatedTokensAfter?,
  appendsFirst?, migratedFrom?, skippedLines?, repairedLines?, entryId?, requests?,
  staleLockRemoved?, entry?}`.

The transcript is read as the Gateway reads it before compacting (its session repair, in memory
only; a version-1/2 file migrated to version 3, written with the compaction in one atomic
replace), and the entries the Gateway appends before its compaction (`thinking_level_change`,
`model-snapshot`) are appended too.

Errors: `LockBusyError` (exit 75) while a live process holds `<transcript>.lock` (the message
names the pid; `locks/session_lock.py` judges it as the Gateway's compaction does); `UsageError`
for bad arguments; `CliError` for a key the store does not hold (`unknown session KEY in STORE`)
or an entry without a sessionId (the Gateway's "no sessionId"), unreadable files or model failures. Nothing is written before every check has passed; the
transcript is only appended to (summary; replaced by rename when it is migrated) or replaced by
rename after the archive exists (trim).
"""

from __future__ import annotations

import contextlib
import os
import re
import tempfile
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from openclaw_cli.compact.bookkeeping import bookkeeping_entries
from openclaw_cli.compact.clock import iso_timestamp, now_ms
from openclaw_cli.compact.entry import compaction_entry, new_entry_id, serialize_line
from openclaw_cli.compact.maxlines import plan_trim, replace_transcript
from openclaw_cli.compact.migrate import write_migration
from openclaw_cli.compact.model import SessionModel, configured_model, resolve_session_model
from openclaw_cli.compact.planner import NothingToCompact, plan_compaction
from openclaw_cli.compact.settings import resolve_settings
from openclaw_cli.compact.store import CompactionOutcome, load_store, update_store_entry
from openclaw_cli.errors import CliError, UsageError
from openclaw_cli.js.values import object_at
from openclaw_cli.locks.session_lock import (
    LockSettings,
    TranscriptLock,
    acquire_transcript_lock,
    check_transcript_lock,
)
from openclaw_cli.transcript import TranscriptError, load_index
from openclaw_cli.transcript.tokens import estimate_tokens

_UUID_NAME = re.compile(r"^([0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12})"
                        r"(?:-topic-.+)?\.jsonl$", re.IGNORECASE)


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


def _state_env(state: Path | None) -> dict[str, str]:
    """The environment that points OpenClaw's path rules at `state` (the caller's own when None)."""
    return dict(os.environ) if state is None else {**os.environ, "OPENCLAW_STATE_DIR": str(state)}


def _config_for(state: Path | None) -> Mapping[str, Any]:
    """The config of the state folder, read as OpenClaw reads it; an unreadable one means defaults."""
    from openclaw_cli.config.load import load_config

    try:
        return load_config(_state_env(state), strict=False, dotenv=False).data
    except CliError:
        return {}


@dataclass(frozen=True)
class SessionContext:
    """What the Gateway knows about the session when it opens it for a compaction."""

    model: SessionModel
    thinking_level: Any = None


def _context_window(cfg: Mapping[str, Any], model_entry: Mapping[str, Any]) -> int:
    """`resolveContextWindowInfo`: the model's contextTokens or contextWindow (else 200,000),
    capped by `agents.defaults.contextTokens`."""
    def positive(value: Any) -> int | None:
        return int(value) if isinstance(value, (int, float)) and not isinstance(value, bool) and value >= 1 else None

    tokens = positive(model_entry.get("contextTokens")) or positive(model_entry.get("contextWindow")) or 200_000
    agents = object_at(cfg, "agents")
    defaults = object_at(agents, "defaults")
    cap = positive(defaults.get("contextTokens"))
    return cap if cap and cap < tokens else tokens


def _make_summarizer(summarizer: str, *, summary_text: str | None, base_url: str | None,
                     model: str | None, api_key_env: str | None, model_max_tokens: int | None,
                     dry_run: bool, session_model: str | None = None, max_summary_tokens: int | None = None):
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
    from openclaw_cli.compact.summarizers.extractive import DEFAULT_MAX_TOKENS, ExtractiveSummarizer
    from openclaw_cli.context.tokenizer import lazy_counter, tokenizer_for_model

    return ExtractiveSummarizer(max_tokens=max_summary_tokens or DEFAULT_MAX_TOKENS,
                                count_tokens=lazy_counter(tokenizer_for_model(session_model)))


def run_offline_compact(*, key: str, store_path: str | Path | None = None,
                        state_dir: str | Path | None = None, agent: str | None = None,
                        max_lines: int | None = None, summarizer: str | None = None,
                        summary_text: str | None = None, base_url: str | None = None,
                        model: str | None = None, api_key_env: str | None = None,
                        model_max_tokens: int | None = None, dry_run: bool = False,
                        config: Mapping[str, Any] | None = None,
                        keep_recent_tokens: int | None = None,
                        max_summary_tokens: int | None = None,
                        env: Mapping[str, str] | None = None) -> dict[str, Any]:
    """Compact one session offline; see the module docstring for the contract."""
    from openclaw_cli.config.agents import resolve_store_path
    from openclaw_cli.listing.store_key import stored_key_for_agent_store
    from openclaw_cli.locks.session_lock import compaction_lock_settings
    from openclaw_cli.store.keys import parse_agent_key

    if not key or not key.strip():
        raise UsageError("session key is required")
    if summary_text is not None:
        summarizer = "text"
    summarizer = summarizer or "extractive"
    parsed = parse_agent_key(key.strip())
    agent_id = (agent or (parsed[0] if parsed else None) or "main").strip().lower()
    state = Path(state_dir) if state_dir is not None else None
    if store_path is None:
        if state is None:
            raise UsageError("a state directory or store path is required")
        store_path = resolve_store_path(None, agent_id, _state_env(state))
    store_path = Path(store_path)
    if state is None and store_path.parent.parent.parent.name == "agents":
        state = store_path.parent.parent.parent.parent
    cfg = config if config is not None else _config_for(state)
    lock = compaction_lock_settings(cfg, os.environ if env is None else env)
    store = load_store(store_path)
    candidates = list(dict.fromkeys([key.strip(), stored_key_for_agent_store(cfg, agent_id, key.strip())]))
    store_key = next((k for k in candidates if isinstance(store.get(k), dict)), None)
    canonical = store_key or candidates[-1]
    entry = store.get(store_key) if store_key else None
    offline: dict[str, Any] = {"dryRun": dry_run, "mode": "max-lines" if max_lines is not None else "summary"}
    if store_key is None or entry is None:
        raise CliError(f"unknown session {canonical} in {store_path}")
    if not entry.get("sessionId"):
        raise CliError(f"session {canonical} in {store_path} has no sessionId, so it has no transcript to compact")
    sessions_dir = store_path.parent
    transcript = next((p for p in transcript_candidates(entry, sessions_dir, state) if p.is_file()), None)
    if transcript is None:
        return {"ok": True, "key": canonical, "compacted": False, "reason": "no transcript", "offline": offline}
    offline["transcript"] = str(transcript)
    if max_lines is not None:
        return _run_trim(TrimJob(canonical, store_key, store_path, transcript, int(max_lines), dry_run, offline,
                                 lock))
    agent_dir = state / "agents" / agent_id / "agent" if state is not None else None
    session = SessionContext(model=resolve_session_model(cfg, entry, agent_dir),
                             thinking_level=entry.get("thinkingLevel"))
    model_cfg = configured_model(cfg, model) if summarizer == "openai" else {}
    if model_max_tokens is None and isinstance(model_cfg.get("maxTokens"), int):
        model_max_tokens = model_cfg["maxTokens"]
    window = model_cfg.get("contextWindow")
    settings = resolve_settings(cfg, keep_recent_tokens=keep_recent_tokens,
                                context_window=window if isinstance(window, int) and window > 0 else None)
    maker = _make_summarizer(summarizer, summary_text=summary_text, base_url=base_url, model=model,
                             api_key_env=api_key_env, model_max_tokens=model_max_tokens, dry_run=dry_run,
                             session_model=session.model.model_id, max_summary_tokens=max_summary_tokens)
    offline["summarizer"] = summarizer
    if settings.mode == "safeguard" and summarizer == "openai":
        maker = _safeguard(maker, cfg, settings, model_cfg or session.model.entry, session, offline)
    return _run_summary(SummaryJob(key=canonical, store_key=store_key, store_path=store_path, transcript=transcript,
                                   settings=settings, maker=maker, dry_run=dry_run, offline=offline,
                                   session=session, lock_settings=lock))


def _safeguard(client, cfg: Mapping[str, Any], settings, model_entry: Mapping[str, Any], session: SessionContext,
               offline: dict[str, Any]):
    """The openai summarizer in `compaction.mode: "safeguard"`."""
    from openclaw_cli.compact.summarizers.safeguard import (
        SafeguardSummarizer,
        policy_from_config,
        store_field,
    )

    offline["compactionMode"] = "safeguard"
    if (settings.raw or {}).get("postCompactionSections"):
        offline["note"] = ("agents.defaults.compaction.postCompactionSections is not read offline: the "
                           "summary carries no AGENTS.md sections")
    return SafeguardSummarizer(client=client, policy=policy_from_config(settings.raw or {}),
                               context_window=_context_window(cfg, model_entry),
                               send_store=store_field(session.model.provider, model_entry))


@dataclass
class TrimJob:
    """One `--max-lines` trim: what to trim, and what is reported."""

    key: str
    store_key: str
    store_path: Path
    transcript: Path
    max_lines: int
    dry_run: bool
    offline: dict[str, Any]
    lock_settings: LockSettings

    def reply(self, compacted: bool, kept: int | None, **fields: Any) -> dict[str, Any]:
        return {"ok": True, "key": self.key, "compacted": compacted, **fields, "kept": kept,
                "offline": self.offline}


def _run_trim(job: TrimJob) -> dict[str, Any]:
    plan = plan_trim(job.transcript, job.max_lines)
    if not plan.compacted:
        return job.reply(False, plan.kept)
    if job.dry_run:
        check_transcript_lock(job.transcript, job.lock_settings)
        job.offline["wouldArchive"] = f"{job.transcript}.bak.<time>"
        return job.reply(True, plan.kept)
    with acquire_transcript_lock(job.transcript, job.lock_settings) as lock:
        plan = plan_trim(job.transcript, job.max_lines)  # re-read under the lock
        if not plan.compacted:
            return job.reply(False, plan.kept)
        archived = replace_transcript(job.transcript, plan.lines or [])
        job.offline["staleLockRemoved"] = lock.stale_removed or None
        entry = update_store_entry(job.store_path, job.store_key,
                                   CompactionOutcome(kind="max-lines", now_ms=now_ms()))
    job.offline["entry"] = entry
    return job.reply(True, plan.kept, archived=archived)


def _stat_signature(path: Path) -> tuple[int, int]:
    st = path.stat()
    return st.st_size, st.st_mtime_ns


@contextlib.contextmanager
def _readable_transcript(transcript: Path, offline: dict[str, Any]) -> Iterator[Path]:
    """The file to plan from: the transcript itself, or a migrated copy of it when its format
    is older than version 3 (a run then writes the migration together with the compaction)."""
    from openclaw_cli.compact.migrate import header_version, plan_migration

    try:
        version = header_version(transcript)
    except OSError as exc:
        raise CliError(f"cannot read transcript {transcript}: {exc.strerror or exc}") from None
    migration = plan_migration(transcript) if version is not None and version < 3 else None
    if migration is None:
        yield transcript
        return
    offline["migratedFrom"] = migration.from_version
    with tempfile.TemporaryDirectory(prefix="openclaw-compact-") as folder:
        copy = Path(folder) / transcript.name
        copy.write_text("".join(line + "\n" for line in migration.lines), encoding="utf-8")
        yield copy


@dataclass
class SummaryJob:
    """One summary compaction: what to compact, how, and what is reported."""

    key: str
    store_key: str
    store_path: Path
    transcript: Path
    settings: Any
    maker: Any
    dry_run: bool
    offline: dict[str, Any]
    session: SessionContext
    lock_settings: LockSettings
    started: int = 0
    signature: tuple[int, int] = (0, 0)
    lock: TranscriptLock | None = None

    def reply(self, **fields: Any) -> dict[str, Any]:
        return {"ok": True, "key": self.key, **fields, "offline": self.offline}

    def refuse(self, reason: str) -> dict[str, Any]:
        return {"ok": False, "key": self.key, "compacted": False, "reason": reason, "offline": self.offline}


def _run_summary(job: SummaryJob) -> dict[str, Any]:
    if job.dry_run:
        check_transcript_lock(job.transcript, job.lock_settings)
    else:
        job.lock = acquire_transcript_lock(job.transcript, job.lock_settings)
    try:
        job.started = now_ms()
        if _is_blank(job.transcript):
            # OpenClaw writes a fresh header into an empty transcript; nothing is written here
            return job.reply(compacted=False, reason="no real conversation messages")
        job.signature = _stat_signature(job.transcript)
        with _readable_transcript(job.transcript, job.offline) as source:
            return _summarise(job, source)
    finally:
        if job.lock is not None:
            job.lock.release()


def _append(transcript: Path, text: str, signature: tuple[int, int]) -> None:
    if _stat_signature(transcript) != signature:
        raise CliError(f"transcript changed while compacting; nothing written: {transcript}")
    fd = os.open(transcript, os.O_WRONLY | os.O_APPEND)
    try:
        os.write(fd, text.encode("utf-8"))
        os.fsync(fd)
    finally:
        os.close(fd)


def _is_blank(path: Path) -> bool:
    """An empty transcript, or one holding only whitespace."""
    from openclaw_cli.transcript.reader import iter_raw_lines

    try:
        return next(iter(iter_raw_lines(path)), None) is None
    except OSError as exc:
        raise CliError(f"cannot read transcript {path}: {exc.strerror or exc}") from None


def _summarise(job: SummaryJob, source: Path) -> dict[str, Any]:
    try:
        index = load_index(source)
    except TranscriptError as exc:
        raise CliError(str(exc).replace(str(source), str(job.transcript))) from None
    if index.skipped_lines:
        job.offline["skippedLines"] = index.skipped_lines
    if index.repaired_lines:
        job.offline["repairedLines"] = index.repaired_lines
    try:
        plan = plan_compaction(index, job.settings)
    except NothingToCompact as exc:
        reply = job.refuse(exc.reason)
        return dict(reply, ok=exc.reason == "no real conversation messages")
    if not index.has_assistant:
        return job.refuse("transcript has no assistant message yet")
    bookkeeping = bookkeeping_entries(index, plan.path, has_messages=bool(plan.context_before),
                                      model=job.session.model, thinking_level=job.session.thinking_level,
                                      now_ms=now_ms())
    _report_plan(job, plan, bookkeeping)
    first_kept = None if plan.hardened else plan.first_kept_entry_id
    if not plan.history and not plan.turn_prefix:
        return job.refuse(f"Nothing to compact: every message fits in the recent tail (keepRecentTokens "
                          f"{job.settings.keep_recent_tokens})")
    if job.dry_run and hasattr(job.maker, "planned_requests"):
        bodies = job.maker.planned_requests(plan)
        job.offline["requests"] = len(bodies)
        job.offline["requestChars"] = [len(b["messages"][1]["content"][0]["text"]) for b in bodies]
        return job.reply(compacted=False, reason="dry run",
                         result={"firstKeptEntryId": first_kept, "tokensBefore": plan.tokens_before})
    produced = job.maker.summarize(plan)
    if not produced.summary.strip():
        return job.refuse("the summary is empty; nothing written")
    summary_tokens = estimate_tokens({"role": "compactionSummary", "summary": produced.summary})
    after = job.offline["estimatedTokensAfter"] = plan.estimated_after(summary_tokens)
    if after >= plan.estimated_before:
        return job.refuse(f"the compaction would not shrink the context (about {plan.estimated_before} "
                          f"tokens before, {after} after); nothing written")
    result: dict[str, Any] = {"summary": produced.summary, "firstKeptEntryId": first_kept,
                              "tokensBefore": plan.tokens_before}
    tokens_after = plan.tokens_after(summary_tokens)
    if tokens_after is not None:
        result["tokensAfter"] = tokens_after
    if produced.details is not None:
        result["details"] = produced.details
    if job.dry_run:
        return job.reply(compacted=False, reason="dry run", result=result)
    _write(job, source, index, plan, bookkeeping, produced, result)
    return job.reply(compacted=True, result=result)


def _report_plan(job: SummaryJob, plan, bookkeeping: list[dict[str, Any]]) -> None:
    """What the run will do, in `offline` (shared by the dry run and the run)."""
    hardened = plan.hardened
    covered_tail = plan.tail if hardened and getattr(job.maker, "covers_tail", False) else []
    job.offline.update({
        "hardened": hardened, "cutEntryId": None if hardened else plan.first_kept_entry_id,
        "splitTurn": plan.is_split_turn and not hardened,
        "summarizedMessages": len(plan.history) + (len(plan.turn_prefix) + len(covered_tail) if covered_tail else 0),
        "turnPrefixMessages": 0 if covered_tail else len(plan.turn_prefix), "tailMessages": len(covered_tail),
        "summarizedTokens": plan.summarized_tokens + sum(e.tokens for e in covered_tail),
        "keptEntries": 0 if hardened else len(plan.kept), "keptTokens": plan.kept_tokens,
        "droppedTailMessages": len(plan.tail) if hardened and not covered_tail else 0,
        "keepRecentTokens": job.settings.keep_recent_tokens, "leafId": plan.leaf_id,
        "estimatedTokensBefore": plan.estimated_before,
        "appendsFirst": [e.get("customType") or e["type"] for e in bookkeeping],
    })


def _write(job: SummaryJob, source: Path, index, plan, bookkeeping: list[dict[str, Any]], produced,
           result: dict[str, Any]) -> None:
    """Append the bookkeeping entries and the compaction (with a migration: replace the file),
    then update the store entry."""
    entry_id = new_entry_id(set(index.by_id) | {e["id"] for e in bookkeeping})
    if plan.hardened:
        result["firstKeptEntryId"] = entry_id
    entry = compaction_entry(entry_id=entry_id, parent_id=bookkeeping[-1]["id"] if bookkeeping else plan.parent_id,
                             timestamp=iso_timestamp(), summary=produced.summary,
                             first_kept_entry_id=result["firstKeptEntryId"], tokens_before=plan.tokens_before,
                             details=produced.details, from_hook=produced.from_hook)
    text = "".join(serialize_line(e) for e in (*bookkeeping, entry))
    if source != job.transcript:  # the migrated transcript and the new entries, in one replace
        write_migration(job.transcript, source.read_text(encoding="utf-8") + text, unchanged=job.signature)
    else:
        _append(job.transcript, text if index.ends_with_newline else "\n" + text, job.signature)
    outcome = CompactionOutcome(
        kind="summary", now_ms=now_ms(), tokens_before=plan.tokens_before, tokens_after=result.get("tokensAfter"),
        summary=produced.summary, first_kept_entry_id=result["firstKeptEntryId"], session_key=job.key,
        session_id=index.session_id.strip(), session_file=str(job.transcript), pre_leaf_id=plan.leaf_id,
        pre_entry_id=index.last_record_id or plan.leaf_id, post_leaf_id=entry_id, started_ms=job.started)
    job.offline["entryId"] = entry_id
    job.offline["entry"] = update_store_entry(job.store_path, job.store_key, outcome)
    if job.lock is not None and job.lock.stale_removed:
        job.offline["staleLockRemoved"] = job.lock.stale_removed

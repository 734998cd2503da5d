"""Names of the files beside sessions.json: transcripts, archives, sidecars, temps, locks, blobs."""

from __future__ import annotations

import re
from datetime import datetime, timezone
from functools import lru_cache

ARCHIVE_REASONS = ("deleted", "reset", "bak")
STORE_TEMP_STALE_MS = 300_000

_ARCHIVE_TS = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}(?:\.\d{3})?Z\Z", re.ASCII)
_LEGACY_STORE_BACKUP = re.compile(r"^sessions\.json\.bak\.\d+\Z", re.ASCII)
_CHECKPOINT = re.compile(
    r"^([^\n\r\u2028\u2029]+)\.checkpoint\.([0-9a-f]{8}-[0-9a-f]{4}-[1-5][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12})"
    r"\.jsonl\Z", re.IGNORECASE | re.ASCII)
_UUID = r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"
_BLOB_NAME = re.compile(r"^[a-f0-9]{64}\.txt\Z")
_BLOB_TEMP = re.compile(rf"^[a-f0-9]{{64}}\.txt\.(?:\d+\.)?{_UUID}\.tmp\Z", re.ASCII)
_GENERATED_ID = re.compile(
    r"^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}\Z", re.IGNORECASE | re.ASCII)
_FORK_NAME = re.compile(r"^(\d{4}-\d{2}-\d{2}T[\w-]+(?:Z|[+-]\d{2}(?:-\d{2})?)?)_([^\n\r\u2028\u2029]+)\Z",
                        re.ASCII)


def _archive_suffix(name: str, reason: str) -> str | None:
    marker = f".{reason}."
    index = name.rfind(marker)
    if index < 0:
        return None
    return name[index + len(marker):]


def has_archive_suffix(name: str, reason: str) -> bool:
    raw = _archive_suffix(name, reason)
    return raw is not None and bool(_ARCHIVE_TS.match(raw))


def is_archive(name: str) -> bool:
    """Deleted, reset and bak archives with a valid timestamp, and legacy `sessions.json.bak.N`."""
    if _LEGACY_STORE_BACKUP.match(name):
        return True
    return any(has_archive_suffix(name, reason) for reason in ARCHIVE_REASONS)


def is_checkpoint(name: str) -> bool:
    return bool(_CHECKPOINT.match(name))


TRAJECTORY_RUNTIME_SUFFIX = ".trajectory.jsonl"  # `<transcript stem>.trajectory.jsonl`: the runtime sidecar
TRAJECTORY_POINTER_SUFFIX = ".trajectory-path.json"  # `<transcript stem>.trajectory-path.json`: its pointer
TRAJECTORY_SUFFIXES = (TRAJECTORY_RUNTIME_SUFFIX, TRAJECTORY_POINTER_SUFFIX)


def is_trajectory_runtime(name: str) -> bool:
    return name.endswith(TRAJECTORY_RUNTIME_SUFFIX)


def is_trajectory_pointer(name: str) -> bool:
    return name.endswith(TRAJECTORY_POINTER_SUFFIX)


def is_trajectory(name: str) -> bool:
    return is_trajectory_runtime(name) or is_trajectory_pointer(name)


def is_primary_transcript(name: str) -> bool:
    if name == "sessions.json" or not name.endswith(".jsonl"):
        return False
    if is_trajectory_runtime(name) or is_checkpoint(name):
        return False
    return not is_archive(name)


def is_unreferenced_candidate(name: str) -> bool:
    """Kinds that age out or go under disk pressure when nothing references them."""
    return is_checkpoint(name) or is_trajectory(name) or is_primary_transcript(name)


@lru_cache(maxsize=16)
def _store_temp_pattern(store_basename: str) -> re.Pattern[str]:
    return re.compile(rf"^{re.escape(store_basename)}\.(?:\d+\.)?{_UUID}\.tmp\Z",
                      re.IGNORECASE | re.ASCII)


def is_store_temp(name: str, store_basename: str) -> bool:
    return bool(store_basename) and bool(_store_temp_pattern(store_basename).match(name))


def is_prompt_blob(name: str) -> bool:
    return bool(_BLOB_NAME.match(name))


def is_prompt_blob_temp(name: str) -> bool:
    return bool(_BLOB_TEMP.match(name))


def family_of(name: str, referenced: bool, store_name: str, *, in_blob_folder: bool = False) -> str:
    """The family `sessions disk` and `cleanup --explain` file a name under, by the rules above."""
    if in_blob_folder:
        return "promptBlobs" if is_prompt_blob(name) else "tempsAndLocks" if is_prompt_blob_temp(name) else "other"
    if name == store_name:
        return "sessionsJson"
    if name.endswith(".jsonl") and name.count(".") == 1:
        # `<stem>.jsonl` with no other dot: no archive, checkpoint or trajectory suffix fits.
        return "liveTranscripts" if referenced else "unreferencedTranscripts"
    if is_archive(name):
        return "archives"
    if is_checkpoint(name):
        return "checkpoints"
    if is_trajectory(name):
        return "trajectories"
    if is_primary_transcript(name):
        return "liveTranscripts" if referenced else "unreferencedTranscripts"
    if is_store_temp(name, store_name) or is_prompt_blob_temp(name) or name.endswith(".lock"):
        return "tempsAndLocks"
    return "other"


def prompt_blob_hash(name: str) -> str | None:
    return name[:-4] if _BLOB_NAME.match(name) else None


def format_archive_timestamp(now_ms: int) -> str:
    """`toISOString()` of the instant with every `:` replaced by `-`."""
    dt = datetime.fromtimestamp(now_ms / 1000, tz=timezone.utc)
    ms = now_ms % 1000
    return dt.strftime("%Y-%m-%dT%H-%M-%S") + f".{ms:03d}Z"


def parse_archive_timestamp(name: str, reason: str) -> int | None:
    """Epoch ms of the timestamp in `<name>.<reason>.<TS>` as `Date.parse` reads it, or None."""
    raw = _archive_suffix(name, reason)
    return _timestamp_ms(raw) if raw else None


@lru_cache(maxsize=4096)
def _timestamp_ms(raw: str) -> int | None:
    """An archive name's timestamp text as epoch ms (a run's archives share one: parsed once)."""
    from openclaw_cli.js.dates import parse_iso_ms

    if not _ARCHIVE_TS.match(raw):
        return None
    date_part, time_part = raw.split("T", 1)
    return parse_iso_ms(f"{date_part}T{time_part.replace('-', ':')}")


def posix_basename(path: str) -> str:
    """Node's `path.basename`: trailing slashes are ignored."""
    stripped = path.rstrip("/")
    return stripped.rsplit("/", 1)[-1] if stripped else ""


def looks_like_generated_id(value: str) -> bool:
    return bool(_GENERATED_ID.match(value))


def generated_id_from_session_file(session_file: str | None) -> str | None:
    """The UUID session id inside a plain, topic or fork transcript name, if it has one."""
    from openclaw_cli.js.strings import js_trim

    if not isinstance(session_file, str):
        return None
    trimmed = js_trim(session_file)
    if not trimmed:
        return None
    base = posix_basename(trimmed)
    if not base.endswith(".jsonl"):
        return None
    stem = base[:-6]
    topic = stem.find("-topic-")
    if topic > 0:
        candidate = stem[:topic]
        return candidate if looks_like_generated_id(candidate) else None
    fork = _FORK_NAME.match(stem)
    if fork and fork.group(2):
        return fork.group(2) if looks_like_generated_id(fork.group(2)) else None
    return stem if looks_like_generated_id(stem) else None

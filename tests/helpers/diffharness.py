"""Differential harness: materialise a case, run a CLI on it, snapshot the result, compare."""

from __future__ import annotations

import atexit
import base64
import concurrent.futures
import dataclasses
import datetime as _dt
import difflib
import functools
import hashlib
import json
import os
import queue
import re
import shutil
import stat
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from helpers import refbin

# A loopback port nothing listens on: the reference tries the Gateway first for applying
# runs without --store, gets "connection refused" and falls back to local cleanup.
CLOSED_GATEWAY_PORT = "1"
DEFAULT_ENV: dict[str, str] = {
    "OPENCLAW_GATEWAY_PORT": CLOSED_GATEWAY_PORT,
    "OPENCLAW_GATEWAY_TOKEN": "differential-harness-token",
}
# Side effects of the reference's config/gateway plumbing that are not part of session
# cleanup: a config-state SQLite file (written whenever a config file exists) and the
# device identity (written when a Gateway call is attempted without credentials).
DEFAULT_IGNORE: tuple[str, ...] = (".openclaw/state", ".openclaw/identity")
SMALL_FILE_BYTES = 64 * 1024
HOME_TOKEN = "@HOME@"
ARCHIVE_TS_RE = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}(?:\.\d{3})?Z")
MASKED_TS = "<TS*>"


# --------------------------------------------------------------------------- case model

@dataclass
class Case:
    """A plain, JSON-serialisable description of one differential scenario.

    ``files`` is the state tree below HOME. Each node is a dict with ``path`` (relative to
    HOME) and one of ``text`` (optionally ``repeat``), ``json`` (with ``style``), ``b64``,
    ``dir: true`` or ``symlink: <target>``; files carry ``age`` (mtime = now - age ms) and
    may carry ``mode`` (octal string). Strings may use the placeholders ``@HOME@``,
    ``@MS(age)@``, ``@TS(age)@`` (archive timestamp) and ``@ISO(age)@``; JSON values may be
    ``{"$ago": age}`` (epoch ms) and config values ``{"$bytesOf": dir, "x": fraction}``.
    Ages are milliseconds before the moment of materialisation (negative = future).
    ``ours_extra_args`` are appended to this project's ``cleanup`` runs only: the option that
    switches one of its deliberate differences off (then both must agree exactly).
    """

    name: str
    files: list[dict[str, Any]]
    runs: list[list[str]]
    config: dict[str, Any] | str | None = None
    config_path: str = ".openclaw/openclaw.json"
    env: dict[str, str | None] = field(default_factory=dict)
    cwd: str = ""
    tags: list[str] = field(default_factory=list)
    ignore: list[str] = field(default_factory=list)
    expected_difference: str | None = None
    expect_error: bool = False
    seed: int | None = None
    note: str = ""
    ours_extra_args: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Case:
        names = {f.name for f in dataclasses.fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in names})

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=1, ensure_ascii=False)

    @classmethod
    def from_json(cls, text: str) -> Case:
        return cls.from_dict(json.loads(text))


# --------------------------------------------------------------------------- time formats

def iso_ms(epoch_ms: int) -> str:
    """JavaScript ``new Date(ms).toISOString()``."""
    dt = _dt.datetime.fromtimestamp(epoch_ms // 1000, tz=_dt.timezone.utc)
    return dt.strftime("%Y-%m-%dT%H:%M:%S") + f".{epoch_ms % 1000:03d}Z"


def archive_ts(epoch_ms: int) -> str:
    """The archive timestamp of a ``*.deleted.<TS>`` name (ISO with ':' -> '-')."""
    return iso_ms(epoch_ms).replace(":", "-")


def age_symbol(age_ms: int) -> str:
    return f"<now-{age_ms}>" if age_ms >= 0 else f"<now+{-age_ms}>"


# --------------------------------------------------------------------------- materialise

_PLACEHOLDER_RE = re.compile(r"@(MS|TS|ISO)\((-?\d+)\)@")


@dataclass
class Materialized:
    home: Path
    now_ms: int
    tokens: dict[str, str] = field(default_factory=dict)
    mtimes: dict[int, str] = field(default_factory=dict)

    def time_value(self, age_ms: int, kind: str = "MS") -> str:
        value = self.now_ms - int(age_ms)
        sym = age_symbol(int(age_ms))
        if kind == "MS":
            text, token = str(value), sym
        elif kind == "TS":
            text, token = archive_ts(value), f"<ts:{sym[1:-1]}>"
        else:
            text, token = iso_ms(value), f"<iso:{sym[1:-1]}>"
        self.tokens[text] = token
        return text

    def subst(self, text: str) -> str:
        text = text.replace(HOME_TOKEN, str(self.home))
        return _PLACEHOLDER_RE.sub(lambda m: self.time_value(int(m.group(2)), m.group(1)), text)

    def subst_json(self, value: Any) -> Any:
        if isinstance(value, str):
            return self.subst(value)
        if isinstance(value, list):
            return [self.subst_json(v) for v in value]
        if isinstance(value, dict):
            if set(value) == {"$ago"}:
                return int(self.time_value(int(value["$ago"])))
            return {self.subst(k): self.subst_json(v) for k, v in value.items()}
        return value


def _serialise_json(value: Any, style: str) -> str:
    if style == "compact":
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    if style == "pretty-nl":
        return json.dumps(value, ensure_ascii=False, indent=2) + "\n"
    if style == "spaced":
        return json.dumps(value, ensure_ascii=False, indent=4)
    return json.dumps(value, ensure_ascii=False, indent=2)


def _measure_dir(path: Path) -> int:
    """Bytes the disk budget would roughly count in a sessions dir (for config fractions)."""
    total = 0
    if not path.is_dir():
        return 0
    for child in path.iterdir():
        if child.is_file() and not child.is_symlink():
            total += child.stat().st_size
    blobs = path / "skills-prompts" / "sha256"
    if blobs.is_dir():
        for sub in blobs.iterdir():
            if sub.is_dir():
                total += sum(f.stat().st_size for f in sub.iterdir() if f.is_file())
    return total


def _resolve_config(value: Any, home: Path) -> Any:
    if isinstance(value, list):
        return [_resolve_config(v, home) for v in value]
    if isinstance(value, dict):
        if "$bytesOf" in value:
            measured = _measure_dir(home / value["$bytesOf"])
            return max(1, int(measured * float(value.get("x", 1.0))) + int(value.get("plus", 0)))
        return {k: _resolve_config(v, home) for k, v in value.items()}
    return value


def _force_writable(root: Path) -> None:
    for dirpath, dirnames, _ in os.walk(root, followlinks=False):
        for d in dirnames:
            p = Path(dirpath) / d
            if not p.is_symlink():
                try:
                    p.chmod(stat.S_IMODE(p.lstat().st_mode) | 0o700)
                except OSError:
                    pass


def wipe(home: Path) -> None:
    if home.exists() or home.is_symlink():
        _force_writable(home)
        shutil.rmtree(home)


def materialize(case: Case, home: Path, now_ms: int | None = None) -> Materialized:
    """Write the case's state tree into a fresh ``home``; times are relative to now."""
    wipe(home)
    home.mkdir(parents=True)
    home.chmod(0o755)
    mat = Materialized(home=home, now_ms=now_ms if now_ms is not None else int(time.time() * 1000))
    pending_mtimes: list[tuple[Path, int]] = []
    pending_modes: list[tuple[Path, int]] = []

    def ensure_parent(p: Path) -> None:
        missing = []
        parent = p.parent
        while not parent.exists():
            missing.append(parent)
            parent = parent.parent
        for d in reversed(missing):
            d.mkdir()
            d.chmod(0o755)

    for node in case.files:
        path = home / mat.subst(node["path"])
        ensure_parent(path)
        if node.get("dir"):
            path.mkdir(exist_ok=True)
            pending_modes.append((path, int(node.get("mode", "755"), 8)))
            continue
        if "symlink" in node:
            os.symlink(mat.subst(node["symlink"]), path)
            continue
        if "json" in node:
            data = _serialise_json(mat.subst_json(node["json"]), node.get("style", "pretty"))
            path.write_bytes(data.encode("utf-8"))
        elif "b64" in node:
            path.write_bytes(base64.b64decode(node["b64"]))
        else:
            text = mat.subst(node.get("text", "")) * int(node.get("repeat", 1))
            path.write_bytes(text.encode("utf-8"))
        pending_modes.append((path, int(node.get("mode", "644"), 8)))
        pending_mtimes.append((path, int(node.get("age", 3 * 3600_000))))

    if case.config is not None:
        cfg_path = home / mat.subst(case.config_path)
        ensure_parent(cfg_path)
        if isinstance(case.config, str):
            cfg_text = mat.subst(case.config)
        else:
            resolved = _resolve_config(mat.subst_json(case.config), home)
            cfg_text = json.dumps(resolved, indent=2, ensure_ascii=False) + "\n"
        cfg_path.write_text(cfg_text, encoding="utf-8")
        pending_modes.append((cfg_path, 0o644))
        pending_mtimes.append((cfg_path, 3 * 3600_000))

    for path, mode in pending_modes:
        path.chmod(mode)
    for path, age in pending_mtimes:
        ns = (mat.now_ms - age) * 1_000_000
        os.utime(path, ns=(ns, ns), follow_symlinks=False)
        mat.mtimes[ns] = age_symbol(age)
    return mat


# --------------------------------------------------------------------------- snapshot

@dataclass
class Snapshot:
    argv: list[str]
    exit: int
    stdout: str
    stdout_json: Any
    stderr: str
    tree: dict[str, dict[str, Any]]
    elapsed: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


class Normaliser:
    """Maps run-specific values (home path, generated times) back to symbols."""

    def __init__(self, mat: Materialized):
        self.home = str(mat.home)
        self.mtimes = mat.mtimes
        items = sorted(mat.tokens.items(), key=lambda kv: -len(kv[0]))
        self._pairs = items
        if items:
            alternation = "|".join(re.escape(k) for k, _ in items)
            self._re: re.Pattern[str] | None = re.compile(rf"(?<![0-9])(?:{alternation})(?![0-9])")
        else:
            self._re = None
        self._map = dict(items)

    def text(self, value: str) -> str:
        value = value.replace(self.home, HOME_TOKEN)
        if self._re is not None:
            value = self._re.sub(lambda m: self._map[m.group(0)], value)
        return value

    def json(self, value: Any) -> Any:
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, bool) or value is None:
            return value
        if isinstance(value, int) and str(value) in self._map:
            return self._map[str(value)]
        if isinstance(value, list):
            return [self.json(v) for v in value]
        if isinstance(value, dict):
            return {self.text(k): self.json(v) for k, v in value.items()}
        return value

    def path(self, rel: str) -> str:
        return ARCHIVE_TS_RE.sub(MASKED_TS, self.text(rel))


def mask_archive_timestamps(name: str) -> str:
    """Mask archive timestamps that are not known symbols (i.e. created during the run)."""
    return ARCHIVE_TS_RE.sub(MASKED_TS, name)


def _is_ignored(rel: str, ignore: list[str] | tuple[str, ...]) -> bool:
    return any(rel == p or rel.startswith(p.rstrip("/") + "/") for p in ignore)


def snapshot_tree(home: Path, norm: Normaliser, ignore: list[str] | tuple[str, ...] = ()
                  ) -> dict[str, dict[str, Any]]:
    """Every path under ``home``: type, mode, size, mtime symbol and content (or hash)."""
    tree: dict[str, dict[str, Any]] = {}
    for dirpath, dirnames, filenames in os.walk(home, followlinks=False):
        dirnames.sort()
        for name in sorted(dirnames + filenames):
            full = Path(dirpath) / name
            raw_rel = full.relative_to(home).as_posix()
            if _is_ignored(raw_rel, ignore):
                continue
            rel = norm.path(raw_rel)
            while rel in tree:
                rel += "#dup"
            st = full.lstat()
            info: dict[str, Any] = {"mode": f"{stat.S_IMODE(st.st_mode):o}"}
            if stat.S_ISLNK(st.st_mode):
                info = {"type": "symlink", "target": norm.text(os.readlink(full))}
            elif stat.S_ISDIR(st.st_mode):
                info["type"] = "dir"
            elif stat.S_ISREG(st.st_mode):
                info["type"] = "file"
                info["size"] = st.st_size
                info["mtime"] = norm.mtimes.get(st.st_mtime_ns, "new")
                data = full.read_bytes()
                if name == "sessions.json" or st.st_size <= SMALL_FILE_BYTES:
                    try:
                        info["text"] = norm.text(data.decode("utf-8"))
                    except UnicodeDecodeError:
                        info["sha256"] = hashlib.sha256(data).hexdigest()
                else:
                    info["sha256"] = hashlib.sha256(data).hexdigest()
            else:
                info["type"] = "other"
            tree[rel] = info
        dirnames[:] = [d for d in dirnames
                       if not _is_ignored((Path(dirpath) / d).relative_to(home).as_posix(), ignore)]
    return tree


def _parse_json(text: str) -> Any:
    stripped = text.strip()
    if not stripped or stripped[0] not in "{[":
        return None
    try:
        return json.loads(stripped)
    except ValueError:
        return None


Runner = Callable[..., refbin.Result]


def resolve_runner(which: str, version: str = refbin.PRIMARY_VERSION) -> Runner:
    """``ours``, ``reference`` (release ``version``) or ``reference@<release>``."""
    if which == "ours":
        return refbin.run_ours
    name, _, pinned = which.partition("@")
    if name != "reference":
        raise ValueError(f"unknown runner {which!r}")
    return functools.partial(refbin.run_reference, version=pinned or version)


def case_env(case: Case, mat: Materialized) -> dict[str, str]:
    env = dict(DEFAULT_ENV)
    for key, value in case.env.items():
        if value is None:
            env.pop(key, None)
        else:
            env[key] = mat.subst(value)
    return env


def run_invocation(case: Case, argv: list[str], which: str, home: Path,
                   timeout: float = 120, version: str = refbin.PRIMARY_VERSION) -> Snapshot:
    """Fresh materialisation, one CLI run, snapshot."""
    mat = materialize(case, home)
    args = [mat.subst(a) for a in argv]
    if which == "ours" and "cleanup" in argv:
        args += case.ours_extra_args
    env = case_env(case, mat)
    cwd = home / mat.subst(case.cwd) if case.cwd else home
    started = time.monotonic()
    res = resolve_runner(which, version)(args, home, env=env, cwd=cwd, timeout=timeout)
    elapsed = time.monotonic() - started
    norm = Normaliser(mat)
    ignore = list(DEFAULT_IGNORE) + list(case.ignore)
    stdout = norm.text(res.stdout)
    parsed = _parse_json(res.stdout)
    return Snapshot(argv=list(argv), exit=res.returncode, stdout=stdout,
                    stdout_json=norm.json(parsed) if parsed is not None else None,
                    stderr=norm.text(res.stderr), tree=snapshot_tree(home, norm, ignore),
                    elapsed=round(elapsed, 3))


# --------------------------------------------------------------------------- compare

_LOG_LINE_RE = re.compile(r"^\s*(\[[^\]]+\]|\d{2}:\d{2}:\d{2}|warn|info|debug)", re.I)
_ERROR_PREFIX_RE = re.compile(r"^(?:[A-Za-z]*Error|Error):\s*")


def error_line(stderr: str) -> str:
    """The first stderr line that is not a log line, without an ``XxxError:`` prefix."""
    for line in stderr.splitlines():
        if line.strip() and not _LOG_LINE_RE.match(line):
            return _ERROR_PREFIX_RE.sub("", line.strip())
    return ""


def _json_paths(value: Any, prefix: str = "$") -> dict[str, Any]:
    out: dict[str, Any] = {}
    if isinstance(value, dict):
        if not value:
            out[prefix] = {}
        for k, v in value.items():
            out.update(_json_paths(v, f"{prefix}.{k}"))
    elif isinstance(value, list):
        if not value:
            out[prefix] = []
        for i, v in enumerate(value):
            out.update(_json_paths(v, f"{prefix}[{i}]"))
    else:
        out[prefix] = value
    return out


def json_diff(a: Any, b: Any, limit: int = 40) -> list[str]:
    pa, pb = _json_paths(a), _json_paths(b)
    lines = []
    for key in list(dict.fromkeys([*pa, *pb])):
        if key not in pb:
            lines.append(f"  {key}: ref={pa[key]!r}  ours=<missing>")
        elif key not in pa:
            lines.append(f"  {key}: ref=<missing>  ours={pb[key]!r}")
        elif pa[key] != pb[key] or type(pa[key]) is not type(pb[key]):
            lines.append(f"  {key}: ref={pa[key]!r}  ours={pb[key]!r}")
    if len(lines) > limit:
        lines = lines[:limit] + [f"  ... {len(lines) - limit} more"]
    return lines


def text_diff(a: str, b: str, label: str, limit: int = 60) -> list[str]:
    lines = list(difflib.unified_diff(a.splitlines(), b.splitlines(), f"ref:{label}",
                                      f"ours:{label}", lineterm="", n=1))
    if len(lines) > limit:
        lines = lines[:limit] + [f"... {len(lines) - limit} more diff lines"]
    return ["  " + line for line in lines]


def compare_snapshots(a: Snapshot, b: Snapshot, labels: tuple[str, str] = ("ref", "ours")
                      ) -> list[str]:
    """Differences between two snapshots of the same invocation (empty = identical)."""
    out: list[str] = []
    la, lb = labels

    def relabel(lines: list[str]) -> list[str]:
        return [ln.replace("ref:", f"{la}:").replace("ref=", f"{la}=")
                .replace("ours:", f"{lb}:").replace("ours=", f"{lb}=") for ln in lines]

    if a.exit != b.exit:
        out.append(f"exit code: {la}={a.exit} {lb}={b.exit}")
        for label, snap in ((la, a), (lb, b)):
            if snap.exit != 0 and snap.stderr.strip():
                tail = snap.stderr.strip().splitlines()[-6:]
                out.append(f"stderr of {label} (tail):")
                out.extend("  | " + line for line in tail)
    if a.stdout_json is not None or b.stdout_json is not None:
        if a.stdout_json is None or b.stdout_json is None:
            missing = la if a.stdout_json is None else lb
            out.append(f"stdout: {missing} printed no JSON document:")
            out.extend(relabel(text_diff(a.stdout, b.stdout, "stdout", limit=16)))
        elif a.stdout_json != b.stdout_json:
            out.append("stdout JSON differs:")
            out.extend(relabel(json_diff(a.stdout_json, b.stdout_json)))
        elif a.stdout != b.stdout:
            out.append("stdout JSON equal but raw text differs:")
            out.extend(relabel(text_diff(a.stdout, b.stdout, "stdout")))
    elif a.stdout != b.stdout:
        out.append("stdout differs:")
        out.extend(relabel(text_diff(a.stdout, b.stdout, "stdout")))
    if a.exit != 0 or b.exit != 0:
        ea, eb = error_line(a.stderr), error_line(b.stderr)
        if ea and ea not in b.stderr:
            out.append(f"stderr: {lb} lacks the error message {ea!r} (got {eb!r})")
    for rel in sorted(set(a.tree) | set(b.tree)):
        ta, tb = a.tree.get(rel), b.tree.get(rel)
        if ta == tb:
            continue
        if tb is None:
            out.append(f"tree: {rel} only in {la} ({_describe(ta)})")
        elif ta is None:
            out.append(f"tree: {rel} only in {lb} ({_describe(tb)})")
        else:
            keys = [k for k in dict.fromkeys([*ta, *tb]) if ta.get(k) != tb.get(k)]
            simple = [k for k in keys if k != "text"]
            if simple:
                out.append(f"tree: {rel}: " + ", ".join(
                    f"{k} {la}={ta.get(k)!r} {lb}={tb.get(k)!r}" for k in simple))
            if "text" in keys:
                out.append(f"tree: {rel}: content differs")
                out.extend(relabel(text_diff(ta.get("text") or "", tb.get("text") or "", rel)))
    return out


def _describe(info: dict[str, Any] | None) -> str:
    if not info:
        return "-"
    if info.get("type") == "file":
        return f"file {info.get('size')}B mode {info.get('mode')} mtime {info.get('mtime')}"
    if info.get("type") == "symlink":
        return f"symlink -> {info.get('target')}"
    return str(info.get("type"))


# --------------------------------------------------------------------------- cases

@dataclass
class InvocationOutcome:
    argv: list[str]
    a: Snapshot
    b: Snapshot
    diffs: list[str]


@dataclass
class CaseOutcome:
    case: Case
    against: str
    invocations: list[InvocationOutcome]
    error: str | None = None
    elapsed: float = 0.0
    version: str = refbin.PRIMARY_VERSION

    @property
    def identical(self) -> bool:
        return self.error is None and all(not inv.diffs for inv in self.invocations)

    @property
    def reference_failed_unexpectedly(self) -> bool:
        return (not self.case.expect_error
                and any(inv.a.exit != 0 for inv in self.invocations))

    def report(self, repro: Path | None = None) -> str:
        lines = [f"== {self.case.name} ({'identical' if self.identical else 'DIFFERENT'}, "
                 f"reference {self.version} against {self.against})"]
        if self.case.expected_difference:
            lines.append(f"   expected difference: {self.case.expected_difference}")
        if self.error:
            lines.append(f"   harness error: {self.error}")
        for inv in self.invocations:
            if inv.diffs:
                lines.append("   $ openclaw " + " ".join(inv.argv))
                lines.extend("     " + d for d in inv.diffs)
        if repro is not None:
            lines.append(f"   reproducer: {repro}")
        return "\n".join(lines)


def run_case(case: Case, home: Path, against: str = "ours", timeout: float = 120,
             version: str = refbin.PRIMARY_VERSION) -> CaseOutcome:
    """For each run: materialise → reference ``version`` → snapshot, materialise → ``against`` →
    snapshot (``against`` is ``ours``, ``reference`` (the same release) or ``reference@<release>``)."""
    started = time.monotonic()
    invocations: list[InvocationOutcome] = []
    labels = ("ref", "ours" if against == "ours" else "ref2")
    try:
        for argv in case.runs:
            a = run_invocation(case, argv, "reference", home, timeout, version)
            b = run_invocation(case, argv, against, home, timeout, version)
            invocations.append(InvocationOutcome(argv, a, b, compare_snapshots(a, b, labels)))
        error = None
    except Exception as exc:
        error = f"{type(exc).__name__}: {exc}"
    finally:
        try:
            wipe(home)
        except OSError:
            pass
    return CaseOutcome(case, against, invocations, error, round(time.monotonic() - started, 2), version)


def save_reproducer(outcome: CaseOutcome, root: Path) -> Path:
    """Write case.json, both snapshots of every run and the diff to ``root/<case name>``."""
    safe = re.sub(r"[^A-Za-z0-9_.-]+", "_", outcome.case.name)
    folder = root / safe
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    (folder / "case.json").write_text(outcome.case.to_json() + "\n", encoding="utf-8")
    for i, inv in enumerate(outcome.invocations):
        payload = {"argv": inv.argv, "diffs": inv.diffs, "ref": inv.a.to_dict(),
                   outcome.against if outcome.against != "reference" else "ref2": inv.b.to_dict()}
        (folder / f"run{i}.json").write_text(json.dumps(payload, indent=1, ensure_ascii=False)
                                             + "\n", encoding="utf-8")
    (folder / "diff.txt").write_text(outcome.report() + "\n", encoding="utf-8")
    return folder


# --------------------------------------------------------------------------- parallel runs

def _remove_stale_scratch_dirs() -> None:
    """Scratch folders of runs whose process is gone (killed before cleaning up)."""
    for path in Path(tempfile.gettempdir()).glob("ocdiff-[0-9]*"):
        try:
            pid = int(path.name.split("-", 1)[1])
            os.kill(pid, 0)
        except ProcessLookupError:
            shutil.rmtree(path, ignore_errors=True)
        except (ValueError, PermissionError, OSError):
            continue


class DiffRunner:
    """Runs cases in a thread pool; each worker owns a fixed scratch HOME path."""

    def __init__(self, jobs: int = 2, base: Path | None = None, timeout: float = 120):
        self.jobs = max(1, jobs)
        self.timeout = timeout
        owned = base is None
        if owned:
            _remove_stale_scratch_dirs()
        self.base = base or Path(tempfile.gettempdir()) / f"ocdiff-{os.getpid():07d}"
        self.base.mkdir(parents=True, exist_ok=True)
        self._slots: queue.Queue[Path] = queue.Queue()
        for i in range(self.jobs):
            self._slots.put(self.base / f"w{i:02d}" / "home")
        self._pool = concurrent.futures.ThreadPoolExecutor(self.jobs, "ocdiff")
        self._lock = threading.Lock()
        if owned:
            atexit.register(self.close)

    def submit(self, case: Case, against: str = "ours", version: str = refbin.PRIMARY_VERSION
               ) -> concurrent.futures.Future[CaseOutcome]:
        return self._pool.submit(self._run, case, against, version)

    def _run(self, case: Case, against: str, version: str) -> CaseOutcome:
        home = self._slots.get()
        try:
            return run_case(case, home, against, self.timeout, version)
        finally:
            self._slots.put(home)

    def close(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)
        shutil.rmtree(self.base, ignore_errors=True)

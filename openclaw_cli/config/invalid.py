"""An invalid config as OpenClaw reports it: each issue's path, and in 2026.9.6 its line and the value it got."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from openclaw_cli.config.locate import value_line

if TYPE_CHECKING:
    from openclaw_cli.config.issues import ConfigIssue

RUNNING_VERSION = "2026.9.6"
_MISSING = object()
_MAX_RECEIVED = 160
_MAX_ALLOWED = 12
_SENSITIVE = (re.compile(r"token$", re.I), re.compile("password", re.I), re.compile("secret", re.I),
              re.compile(r"api.?key", re.I), re.compile(r"encrypt.?key", re.I), re.compile(r"private.?key", re.I),
              re.compile(r"serviceaccount(?:ref)?$", re.I))
_NOT_SENSITIVE = ("maxtokens", "maxoutputtokens", "maxinputtokens", "maxcompletiontokens", "contexttokens",
                  "totaltokens", "tokencount", "tokenlimit", "tokenbudget", "passwordfile")
_IDENTIFIER = re.compile(r"[A-Za-z_$][A-Za-z0-9_$:-]*")
# Escape sequences, and a C1 CSI with parameters (`\x9b' a` of json5's `invalid character '\x9b' at …`)
_ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x9b[\x20-\x3f]+[\x40-\x7e]")
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
_ESCAPES = {"\r": "\\r", "\n": "\\n", "\t": "\\t"}


@dataclass
class Problem:
    """One issue: its dotted path (JSON), its path as printed, its message, and what the text shows."""

    path: str
    shown_path: str
    message: str
    line: int | None = None
    received: str | None = None  # the `got:` label, when 2026.9.6 prints one
    allowed: list[str] = field(default_factory=list)
    allowed_hidden: int = 0
    source: str = "openclaw.json"  # the file's name, before the line number

    def line_text(self, *, located: bool) -> str:
        """`<file>:<line> — <path>: <message>, got: <value>` (located), else `<path>: <message>`."""
        if not located:
            return f"{safe_text(self.shown_path)}: {safe_text(self.message)}"
        where = f"{safe_text(self.source)}:{self.line} — " if self.line is not None else ""
        got = f", got: {self.received}" if self.received is not None else ""
        return f"{where}{safe_text(self.shown_path)}: {safe_text(self.message + got)}"

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"path": self.path, "message": self.message}
        if self.allowed:
            out["allowedValues"] = self.allowed
            if self.allowed_hidden:
                out["allowedValuesHiddenCount"] = self.allowed_hidden
        return out


@dataclass
class InvalidReport:
    """What the invalid-config messages of 2026.7.1 and 2026.9.6 are made of."""

    path: str  # the config file, absolute
    problems: list[Problem]
    read_failure: str | None = None  # the file could not be read or parsed: why, in Node's or the parser's words
    touched_warning: str | None = None
    layout: str = RUNNING_VERSION  # "2026.7.1" in the file era: that release's block, every command alike


def safe_text(text: str) -> str:
    """Terminal escapes removed, line breaks and tabs shown as `\\n`, `\\r`, `\\t`, other controls dropped."""
    return _CONTROL.sub(lambda m: _ESCAPES.get(m.group(), ""), _ANSI.sub("", text))


def concrete_path(segments: tuple) -> str:
    """`a.b[0]["c.d"]`: list indexes in brackets, a key that is no identifier quoted in brackets."""
    from openclaw_cli.js.json import stringify

    out = ""
    for segment in segments:
        if isinstance(segment, int):
            out += f"[{segment}]"
        elif not _IDENTIFIER.fullmatch(segment):
            out += f"[{stringify(segment)}]"
        else:
            out = f"{out}.{segment}" if out else segment
    return out


def _value_at(root: Any, segments: tuple) -> Any:
    current = root
    for segment in segments:
        if isinstance(segment, int):
            if not isinstance(current, list) or segment >= len(current):
                return _MISSING
            current = current[segment]
        elif isinstance(current, dict):
            current = current.get(segment, _MISSING)
        else:
            return _MISSING
    return current


def _same(a: Any, b: Any) -> bool:
    """JavaScript's `Object.is` for JSON values (objects by identity)."""
    if isinstance(a, (dict, list)) or isinstance(b, (dict, list)):
        return a is b
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        if math.isnan(a) or math.isnan(b):
            return math.isnan(a) and math.isnan(b)
        return a == b and math.copysign(1, a) == math.copysign(1, b)
    return type(a) is type(b) and a == b


def _label(value: Any) -> str:
    """The value as 2026.9.6 shows it after `got:` (JSON; a long one cut at 157 UTF-16 units and `...`)."""
    from openclaw_cli.js.json import stringify
    from openclaw_cli.js.strings import js_number_to_string, utf16_len, utf16_slice

    if isinstance(value, float) and (not math.isfinite(value) or (value == 0 and math.copysign(1, value) < 0)):
        return "-0" if value == 0 else js_number_to_string(value)
    text = stringify(value)
    if utf16_len(text) <= _MAX_RECEIVED:
        return text
    cut = utf16_slice(text, 0, _MAX_RECEIVED - 3)
    if cut and "\ud800" <= cut[-1] <= "\udbff":
        cut = cut[:-1]
    return cut + "..."


def _sensitive(path: str) -> bool:
    lower = path.strip().lower()
    if "localservice.env." in lower:
        return True
    return not lower.endswith(_NOT_SENSITIVE) and any(p.search(path) for p in _SENSITIVE)


def _plugin_owned(segments: tuple) -> bool:
    return bool(segments) and (segments[0] == "channels" or (
        segments[0] == "plugins" and len(segments) > 3 and segments[1] == "entries" and segments[3] == "config"))


def _received(issue: ConfigIssue, segments: tuple, value: Any) -> str | None:
    if value is _MISSING or isinstance(value, (dict, list)) or _sensitive(issue.path) or _plugin_owned(segments):
        return None
    if "got:" in issue.message.lower() or re.search(r"\breceived\b", issue.message, re.I):
        return None
    return _label(value)


def _allowed(values: tuple) -> tuple[list[str], int]:
    from openclaw_cli.js.json import stringify

    seen: dict[str, str] = {}
    for value in values:
        text = value if isinstance(value, str) else stringify(value)
        kind = "null" if value is None else ("boolean" if isinstance(value, bool) else type(value).__name__)
        seen.setdefault(f"{kind}:{text}", text)
    shown = list(seen.values())
    return shown[:_MAX_ALLOWED], max(0, len(shown) - _MAX_ALLOWED)


def problem(issue: ConfigIssue, raw: str | None, parsed: Any, effective: Any, source: str) -> Problem:
    """One issue with what 2026.9.6 adds: the line of its value, and the value unless hidden."""
    segments = issue.segments or ()
    allowed, hidden = _allowed(issue.allowed)
    out = Problem(issue.path or "<root>", concrete_path(segments) if segments else (issue.path or "<root>"),
                  issue.message, allowed=allowed, allowed_hidden=hidden, source=source)
    if not segments:
        return out
    out.line = value_line(raw, segments) if raw is not None else None
    value = _value_at(effective, segments)
    if out.line is not None and _same(_value_at(parsed, segments), value):
        out.received = _received(issue, segments, value)
    return out


_VERSION = re.compile(r"v?(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-[0-9A-Za-z.-]+|\.beta(?:\.\d+)?)?(?:\+[0-9A-Za-z.-]+)?")


def written_by_newer(touched: Any) -> bool:
    """Whether `meta.lastTouchedVersion` names a release after 2026.9.6 (its x.y.z above it)."""
    match = _VERSION.fullmatch(touched.strip()) if isinstance(touched, str) else None
    return match is not None and tuple(int(g) for g in match.groups()) > (2026, 9, 6)


def touched_warning(touched: Any) -> str | None:
    """2026.9.6's advice in its invalid-config block when the config was last written by a newer release."""
    if not written_by_newer(touched):
        return None
    return f"Config was last written by OpenClaw {touched}, but you are running {RUNNING_VERSION} — upgrade or re-run setup."


def file_era_report(path: str, issues: list[ConfigIssue]) -> InvalidReport:
    """The report of a config 2026.7.1 judges invalid: every issue as `<path>: <message>`."""
    problems = [Problem(i.path or "<root>", (i.path or "").strip() or "<root>", i.message) for i in issues]
    return InvalidReport(path, problems, layout="2026.7.1")


def build_report(path: str, issues: list[ConfigIssue], raw: str | None, parsed: Any, effective: Any,
                 read_failure: str | None = None) -> InvalidReport:
    """The report of an invalid config: `raw` its text, `parsed` as written, `effective` after
    `$include` and `${VAR}`."""
    import os

    source = os.path.basename(path) if path.strip() else "openclaw.json"
    problems = [problem(issue, raw, parsed, effective, source) for issue in issues]
    meta = effective.get("meta") if isinstance(effective, dict) else None
    warning = touched_warning(meta.get("lastTouchedVersion")) if isinstance(meta, dict) else None
    return InvalidReport(path, problems, read_failure, warning)

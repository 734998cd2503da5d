"""Console secret redaction: what OpenClaw does to every line its commands print."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from openclaw_cli.js.regex import ASTRAL, JsRegex, from_units, has_nested_repetition, to_units
from openclaw_cli.js.strings import JS_WHITESPACE, js_trim, utf16_len
from openclaw_cli.js.values import truthy as js_truthy
from openclaw_cli.ui.redact import patterns as _P

__all__ = ["redact_console_text", "redact_lines"]


# --------------------------------------------------------------------------------------------
# Masking.

_TRAILING_DELIMITER = re.compile(r"""["'`,;)}\]]+\Z""")
_SUFFIX_ONLY = re.compile(r"""["'`,;)}\]]*\Z""")
_PEM_LINE_SPLIT = re.compile(r"\r?\n")


def _mask_token(token: str) -> str:
    """Keep the first 6 and last 4 UTF-16 units of long tokens; "***" for short ones."""
    if token == "***":
        return token
    if token.isascii() or not ASTRAL.search(token):
        if len(token) < _P.MIN_MASK_LENGTH:
            return "***"
        return token[:_P.MASK_KEEP_START] + "…" + token[-_P.MASK_KEEP_END:]
    units = to_units(token)
    if len(units) < _P.MIN_MASK_LENGTH:
        return "***"
    return (from_units(units[:_P.MASK_KEEP_START]) + "…"
            + from_units(units[-_P.MASK_KEEP_END:]))


def _split_secret_value(token: str) -> tuple[str, str]:
    """(maskable, kept suffix): quotes and trailing delimiters are not part of the secret."""
    if token and token[0] in "\"'`":
        close = token.rfind(token[0])
        if close > 0:
            suffix = token[close + 1:]
            if _SUFFIX_ONLY.match(suffix):
                return token[1:close], suffix
        rest = token[1:]
    else:
        rest = token
    m = _TRAILING_DELIMITER.search(rest)
    if m and len(m.group()) < len(rest):
        return rest[:m.start()], m.group()
    return rest, ""


def _mask_secret_value(token: str, hinted: bool) -> str:
    maskable, suffix = _split_secret_value(token)
    return (_mask_token(maskable) if hinted else "***") + suffix


def _redact_pem(block: str) -> str:
    lines = [line for line in _PEM_LINE_SPLIT.split(block) if line]
    if len(lines) < 2:
        return "***"
    return f"{lines[0]}\n…redacted…\n{lines[-1]}"


_ENV_KEY_IN_MATCH = re.compile(r"\b([A-Z_][A-Z0-9_]*)\b[" + re.escape(JS_WHITESPACE) + r"]*[=:]", re.ASCII)
_BARE_SHELL_REF = re.compile(r"\$([A-Z_][A-Z0-9_]*)")
_BRACED_SHELL_REF = re.compile(r"\$\{([A-Z_][A-Z0-9_]*)(?::[-=?+])?\}")
_EMPTY_EXPANSION_TAIL = re.compile(r"[-=?+]\}")


def _is_shell_reference_to_key(key: str, value: str) -> bool:
    bare = _BARE_SHELL_REF.fullmatch(value)
    if bare:
        return bare.group(1) == key
    braced = _BRACED_SHELL_REF.fullmatch(value)
    return braced is not None and braced.group(1) == key


def _preserves_shell_reference(match: str, token: str) -> bool:
    m = _ENV_KEY_IN_MATCH.search(match)
    return m is not None and _is_shell_reference_to_key(m.group(1), token)


# --------------------------------------------------------------------------------------------
# Patterns.


class _Pattern:
    """One redaction pattern: its regex (compiled on first use for the built-in list), the
    strings some of which every match contains, and how OpenClaw treats it."""

    __slots__ = ("_rx", "chunk_unsafe", "raw", "required", "shell_reference")

    def __init__(self, raw: str, rx: JsRegex | None, required: frozenset[str] | None) -> None:
        self.raw = raw
        self._rx = rx
        self.required = required
        self.shell_reference = raw in _P.SHELL_REFERENCE_SOURCES
        self.chunk_unsafe = (raw.startswith((_P.BASE64_SAFE_BOUNDARY, _P.IDENTIFIER_SAFE_BOUNDARY))
                             or raw in _P.CHUNK_UNSAFE_SOURCES)

    @property
    def rx(self) -> JsRegex:
        if self._rx is None:
            source, flags = _pattern_source(self.raw)
            rx = _compile_config_regex(source, flags, validate=False)
            if rx is None:
                raise ValueError(f"a built-in redaction pattern does not compile: {self.raw}")
            self._rx = rx
        return self._rx


_SLASH_FORM = re.compile("/([^\n\r\u2028\u2029]+)/([gimsuy]*)")
_compiled_cache: dict[tuple[str, str], JsRegex | None] = {}
_pattern_cache: dict[str, _Pattern | None] = {}


def _compile_config_regex(source: str, flags: str, validate: bool = True) -> JsRegex | None:
    trimmed = js_trim(source)
    if not trimmed:
        return None
    key = (trimmed, flags)
    if key in _compiled_cache:
        return _compiled_cache[key]
    rx: JsRegex | None = None
    if not has_nested_repetition(trimmed):
        try:
            rx = JsRegex(trimmed, flags, validate=validate)
        except (ValueError, RecursionError):
            rx = None
    if len(_compiled_cache) > 1024:
        _compiled_cache.clear()
    _compiled_cache[key] = rx
    return rx


def _pattern_source(raw: str) -> tuple[str, str]:
    """(source, flags) of a configured pattern: `/source/flags` or a bare source (`gi`)."""
    m = _SLASH_FORM.fullmatch(raw)
    if m:
        return m.group(1), m.group(2) if "g" in m.group(2) else m.group(2) + "g"
    return raw, "gi"


def _parse_pattern(raw: str) -> _Pattern | None:
    if raw in _pattern_cache:
        return _pattern_cache[raw]
    rx: JsRegex | None = None
    if js_trim(raw):
        rx = _compile_config_regex(*_pattern_source(raw))
    pattern = _Pattern(raw, rx, rx.required) if rx is not None else None
    if len(_pattern_cache) > 1024:
        _pattern_cache.clear()
    _pattern_cache[raw] = pattern
    return pattern


_default_patterns: dict[bool, list[_Pattern]] = {}


def _defaults(sqlite_era: bool = False) -> list[_Pattern]:
    """The built-in list; for the SQLite era with 2026.9.6's changed sources."""
    patterns = _default_patterns.get(sqlite_era)
    if patterns is None:
        overrides = _P.SQLITE_ERA_SOURCES if sqlite_era else {}
        patterns = _default_patterns[sqlite_era] = [
            _Pattern(overrides.get(raw, raw), None, frozenset(required) if required is not None else None)
            for raw, required in zip(_P.DEFAULT_REDACT_PATTERNS, _P.DEFAULT_REQUIRED)
        ]
    return patterns


def _js_length(value: object) -> object:
    """`value?.length` for JSON values (None when undefined)."""
    if isinstance(value, list):
        return len(value)
    if isinstance(value, str):
        return utf16_len(value)
    if isinstance(value, Mapping):
        return value.get("length")
    return None


class _PatternSet:
    """Resolved patterns, with one search telling which of them can match a text."""

    def __init__(self, patterns: list[_Pattern]) -> None:
        self.patterns = patterns
        self._index: _NeedleIndex | None = None

    def candidates(self, text: str) -> set[int]:
        if self._index is None:
            self._index = _NeedleIndex([p.required for p in self.patterns])
        return self._index.items(text.lower() if text.isascii() else text.casefold())


_default_sets: dict[bool, _PatternSet] = {}
_custom_sets: dict[tuple[str, ...], _PatternSet] = {}


def _resolve_patterns(value: object, sqlite_era: bool = False) -> _PatternSet:
    if not js_truthy(_js_length(value)):
        default_set = _default_sets.get(sqlite_era)
        if default_set is None:
            default_set = _default_sets[sqlite_era] = _PatternSet(_defaults(sqlite_era))
        return default_set
    if not isinstance(value, list):
        raise TypeError("logging.redactPatterns.map is not a function")
    if not all(isinstance(raw, str) for raw in value):
        raise TypeError("logging.redactPatterns entry is not a string")
    key = tuple(value)
    resolved = _custom_sets.get(key)
    if resolved is None:
        parsed = (_parse_pattern(raw) for raw in value)
        resolved = _PatternSet([p for p in parsed if p is not None])
        if len(_custom_sets) > 64:
            _custom_sets.clear()
        _custom_sets[key] = resolved
    return resolved


def _includes_default_patterns(value: object) -> bool:
    if not js_truthy(_js_length(value)):
        return True
    sources = {p for p in value if isinstance(p, str)} if isinstance(value, list) else set()
    return all(p in sources for p in _P.DEFAULT_REDACT_PATTERNS)


# --------------------------------------------------------------------------------------------
# Form-encoded bodies and URL query pairs (code point form throughout).


class _Form:
    """OpenClaw's `u`-flag helper regexes, compiled on first use."""

    def __init__(self) -> None:
        self.obfuscation = JsRegex(*_P.FORM_KEY_OBFUSCATION)
        self.separator = JsRegex(*_P.FORM_KEY_SEPARATOR)
        self.percent = JsRegex(*_P.FORM_PERCENT_ESCAPE)
        self.body = JsRegex(*_P.FORM_BODY)
        self.substring = JsRegex(*_P.FORM_BODY_SUBSTRING)
        self.encoded_pair = JsRegex(*_P.ENCODED_FORM_PAIR)
        self.context_pair = JsRegex(*_P.FORM_CONTEXT_SINGLE_PAIR)
        self.url_pair = JsRegex(*_P.URL_QUERY_PAIR)
        self.line_break = JsRegex(*_P.LINE_BREAK_SPLIT)


_form_regexes: _Form | None = None


def _form() -> _Form:
    global _form_regexes
    if _form_regexes is None:
        _form_regexes = _Form()
    return _form_regexes


class _UriError(ValueError):
    pass


_HEX = "0123456789abcdefABCDEF"


def _decode_uri_component(s: str) -> str:
    if "%" not in s:
        return s
    out: list[str] = []
    i = 0
    n = len(s)

    def byte_at(j: int) -> int:
        if j + 3 > n or s[j] != "%" or s[j + 1] not in _HEX or s[j + 2] not in _HEX:
            raise _UriError
        return int(s[j + 1:j + 3], 16)

    while i < n:
        ch = s[i]
        if ch != "%":
            out.append(ch)
            i += 1
            continue
        b = byte_at(i)
        i += 3
        if b < 0x80:
            out.append(chr(b))
            continue
        if b & 0xE0 == 0xC0:
            extra = 1
        elif b & 0xF0 == 0xE0:
            extra = 2
        elif b & 0xF8 == 0xF0:
            extra = 3
        else:
            raise _UriError
        raw = [b]
        for _ in range(extra):
            nb = byte_at(i)
            if nb & 0xC0 != 0x80:
                raise _UriError
            raw.append(nb)
            i += 3
        try:
            out.append(bytes(raw).decode("utf-8"))
        except UnicodeDecodeError:
            raise _UriError from None
    return "".join(out)


def _encode_uri_component(s: str) -> str:
    """encodeURIComponent; raises _UriError on a lone surrogate."""
    keep = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.!~*'()"
    out = []
    for ch in from_units(s):
        if ch in keep:
            out.append(ch)
        elif 0xD800 <= ord(ch) <= 0xDFFF:
            raise _UriError
        else:
            out.extend("%%%02X" % b for b in ch.encode("utf-8"))
    return "".join(out)


def _normalize_key_name(value: str) -> str:
    form = _form()
    stripped = form.separator.replace(value, lambda m: "")
    try:
        decoded = _decode_uri_component(stripped)
    except _UriError:
        return stripped.lower().replace("-", "_")
    return form.separator.replace(decoded, lambda m: "").lower().replace("-", "_")


def _is_sensitive_body_key(key: str) -> bool:
    return _normalize_key_name(key) in _P.BODY_SECRET_KEYS


def _has_encoded_or_invisible_key(key: str) -> bool:
    form = _form()
    return form.percent.test(key) or form.obfuscation.test(key)


def _redact_form_pairs(value: str) -> str:
    out = []
    for pair in value.split("&"):
        eq = pair.find("=")
        if eq >= 0 and _is_sensitive_body_key(pair[:eq]):
            pair = pair[:eq] + "=" + _mask_secret_value(pair[eq + 1:], hinted=False)
        out.append(pair)
    return "&".join(out)


def _redact_url_query_pairs(text: str) -> str:
    if not text or "?" not in text:
        return text
    rx = _form().url_pair

    def fn(m: re.Match) -> str:
        prefix, key, token = rx.group_values(m)
        if not _has_encoded_or_invisible_key(key) or not _is_sensitive_body_key(key):
            return m.group()
        return f"{prefix}{key}={_mask_secret_value(token, hinted=True)}"

    return rx.replace(text, fn)


def _redact_encoded_form_pairs(text: str) -> str:
    form = _form()
    if not text or ("%" not in text and not form.obfuscation.test(text)):
        return text
    rx = form.encoded_pair

    def fn(m: re.Match) -> str:
        prefix, key, token = rx.group_values(m)
        if not _has_encoded_or_invisible_key(key) or not _is_sensitive_body_key(key):
            return m.group()
        return f"{prefix}{key}={_mask_secret_value(token, hinted=False)}"

    return rx.replace(text, fn)


def _redact_context_single_pairs(text: str) -> str:
    if not text or ("=" not in text and ":" not in text):
        return text
    rx = _form().context_pair

    def fn(m: re.Match) -> str:
        prefix, _quote, key, token, suffix = rx.group_values(m)
        if not _is_sensitive_body_key(key):
            return m.group()
        return f"{prefix}{key}={_mask_secret_value(token, hinted=False)}{suffix}"

    return rx.replace(text, fn)


def _redact_form_body_line(text: str) -> str:
    if not text:
        return text
    redacted = _redact_context_single_pairs(_redact_encoded_form_pairs(text))
    if "&" not in redacted:
        return redacted
    form = _form()
    if form.body.test(redacted):
        return _redact_form_pairs(redacted)
    rx = form.substring

    def fn(m: re.Match) -> str:
        prefix, body = rx.group_values(m)
        new_body = _redact_form_pairs(body)
        return m.group() if new_body == body else prefix + new_body

    return _redact_context_single_pairs(_redact_encoded_form_pairs(rx.replace(redacted, fn)))


_LINE_BREAKS = ("\r\n", "\r", "\n")
_LINE_BREAK_SPLIT = re.compile("(\r\n|\r|\n)")


def _redact_form_body(text: str) -> str:
    if not text:
        return text
    if "\n" not in text and "\r" not in text:
        return _redact_form_body_line(text)
    return "".join(segment if segment in _LINE_BREAKS else _redact_form_body_line(segment)
                   for segment in _LINE_BREAK_SPLIT.split(text))


# --------------------------------------------------------------------------------------------
# The pattern pass.


def _redact_match(m: re.Match, pattern: _Pattern) -> str:
    match = m.group()
    if "PRIVATE KEY-----" in match:
        return _redact_pem(match)
    rx = pattern.rx
    values = rx.group_values(m)
    present = [(i, v) for i, v in enumerate(values) if v]
    if present:
        index, token = present[-1] if len(present) > 1 else present[0]
    else:
        index, token = -1, match
    if _split_secret_value(token)[0] == "***":
        return match
    if pattern.shell_reference:
        if _preserves_shell_reference(match, token) or _EMPTY_EXPANSION_TAIL.fullmatch(token):
            return match
        masked = _mask_token(token)
    else:
        masked = _mask_secret_value(token, hinted=True)
    if token == match:
        return masked
    start = rx.group_start(m, index) - m.start()
    return match[:start] + masked + match[start + len(token):]


def _replace_pattern(text: str, pattern: _Pattern) -> str:
    """Replace in unit form, converting for `u` patterns."""
    rx = pattern.rx
    if rx.unicode:
        converted = from_units(text)
        out = rx.replace(converted, lambda m: _redact_match(m, pattern))
        return text if out is converted else to_units(out)
    return rx.replace(text, lambda m: _redact_match(m, pattern))


def _redact_text(text: str, patterns: _PatternSet, form_bodies: bool) -> str:
    if form_bodies:
        cp = from_units(text)
        redacted = _redact_form_body(_redact_url_query_pairs(cp))
        if redacted != cp:
            text = to_units(redacted)
    candidates = patterns.candidates(text)
    for index, pattern in enumerate(patterns.patterns):
        if index not in candidates:
            continue
        if pattern.chunk_unsafe or len(text) <= _P.CHUNK_THRESHOLD:
            redacted = _replace_pattern(text, pattern)
        else:
            size = _P.CHUNK_SIZE
            redacted = "".join(_replace_pattern(text[i:i + size], pattern)
                               for i in range(0, len(text), size))
        if redacted != text:
            text = redacted
            candidates = patterns.candidates(text)
    return text


# --------------------------------------------------------------------------------------------
# Registered exact secret values.


class _Registry:
    __slots__ = ("first_chars", "matcher", "values")

    def __init__(self, secrets: Iterable[str]) -> None:
        values: dict[str, bool] = {}

        def register_one(value: str) -> None:
            if value in values:
                del values[value]
                values[value] = True
                return
            values[value] = True
            if len(values) > _P.MAX_SECRET_VALUES:
                del values[next(iter(values))]

        for secret in secrets:
            unit_form = to_units(secret)
            if len(unit_form) < _P.MIN_SECRET_VALUE_LENGTH:
                continue
            register_one(unit_form)
            try:
                encoded = _encode_uri_component(unit_form)
            except _UriError:
                continue
            if encoded != unit_form:
                register_one(encoded)
        self.values = list(values)
        self.first_chars = {v[0] for v in self.values}
        ordered = sorted(self.values, key=len, reverse=True)
        self.matcher = re.compile("|".join(map(re.escape, ordered))) if ordered else None

    def redact(self, text: str) -> str:
        if not text or self.matcher is None:
            return text
        if not any(ch in text for ch in self.first_chars):
            return text
        return self.matcher.sub(lambda m: _mask_token(m.group()), text)


_registry_cache: tuple[tuple[str, ...], _Registry] | None = None


def _registry(secrets: Iterable[str]) -> _Registry | None:
    global _registry_cache
    key = tuple(secrets)
    if not key:
        return None
    if _registry_cache is not None and _registry_cache[0] == key:
        return _registry_cache[1]
    registry = _Registry(key)
    _registry_cache = (key, registry)
    return registry


# --------------------------------------------------------------------------------------------
# The cheap gate in front of the default patterns.

def _trie_source(words: list[str]) -> str:
    """A regex matching any of `words`, factored by common prefixes."""
    trie: dict = {}
    for word in words:
        node = trie
        for ch in word:
            node = node.setdefault(ch, {})
        node[""] = {}

    def emit(node: dict) -> str:
        alts = [re.escape(ch) + emit(child) for ch, child in node.items() if ch]
        if not alts:
            return ""
        body = alts[0] if len(alts) == 1 else "(?:" + "|".join(alts) + ")"
        return "(?:" + body + ")?" if "" in node else body

    return emit(trie)


class _NeedleIndex:
    """Which items (each with strings some of which it needs, or None) a folded text may
    concern, found with one search for all the strings."""

    def __init__(self, needle_sets: Iterable[Iterable[str] | None]) -> None:
        by_needle: dict[str, list[int]] = {}
        self.always: set[int] = set()
        for index, needles in enumerate(needle_sets):
            if needles is None:
                self.always.add(index)
                continue
            for needle in needles:
                by_needle.setdefault(needle, []).append(index)
        words = sorted(by_needle)
        self.search = re.compile(_trie_source(words)).search if words else None
        # A search reports the longest string at a position; shorter ones there count too.
        self.hits: dict[str, tuple[int, ...]] = {}
        for word in words:
            found: set[int] = set()
            for end in range(1, len(word) + 1):
                found.update(by_needle.get(word[:end], ()))
            self.hits[word] = tuple(sorted(found))

    def items(self, folded: str) -> set[int]:
        found = set(self.always)
        search = self.search
        if search is None:
            return found
        seen: set[str] = set()
        pos = 0
        while True:
            m = search(folded, pos)
            if m is None:
                return found
            word = m.group()
            if word not in seen:
                seen.add(word)
                found.update(self.hits[word])
            pos = m.start() + 1


class _AnyOf:
    """`regex.test(text)` for an alternation, decided branch by branch. One search over the
    case-folded text finds the strings the branches require; on ASCII text a branch that is a
    plain word is decided by the word alone, and other branches are compiled and run only
    when a string they need is present."""

    def __init__(self, branches: Iterable[tuple[str, str | None, Iterable[str] | None]],
                 flags: str) -> None:
        self.flags = flags
        self.sources: list[str] = []
        self.compiled: list[JsRegex | None] = []
        self.literals: set[str] = set()
        self.always: list[int] = []
        by_needle: dict[str, list[int]] = {}
        for index, (source, literal, needles) in enumerate(branches):
            self.sources.append(source)
            self.compiled.append(None)
            if literal is not None:
                self.literals.add(literal)
            if needles is None:
                self.always.append(index)
                continue
            for needle in needles:
                by_needle.setdefault(needle, []).append(index)
        words = sorted(by_needle)
        self.search = re.compile(_trie_source(words)).search if words else None
        self.hits = {
            w: [(n in self.literals, tuple(by_needle[n])) for n in words if w.startswith(n)]
            for w in words
        }

    def _branch(self, index: int) -> JsRegex:
        rx = self.compiled[index]
        if rx is None:
            rx = self.compiled[index] = JsRegex(self.sources[index], self.flags, validate=False)
        return rx

    def test(self, text: str) -> bool:
        ascii_text = text.isascii()
        for index in self.always:
            if self._branch(index).test(text):
                return True
        if self.search is None:
            return False
        folded = text.lower() if ascii_text else text.casefold()
        tried: set[int] = set()
        pos = 0
        while True:
            m = self.search(folded, pos)
            if m is None:
                return False
            for is_literal, indexes in self.hits[m.group()]:
                if is_literal and ascii_text:
                    return True
                for index in indexes:
                    if index not in tried:
                        tried.add(index)
                        if self._branch(index).test(text):
                            return True
            pos = m.start() + 1


def _split_alternatives(source: str) -> list[str]:
    """The top-level alternatives of a JavaScript pattern source."""
    parts = []
    depth = 0
    in_class = False
    start = 0
    i = 0
    while i < len(source):
        ch = source[i]
        if ch == "\\":
            i += 2
            continue
        if in_class:
            in_class = ch != "]"
        elif ch == "[":
            in_class = True
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif ch == "|" and depth == 0:
            parts.append(source[start:i])
            start = i + 1
        i += 1
    parts.append(source[start:])
    return parts


def _prefilter_branches() -> list[str]:
    source = _P.PREFILTER[0]
    assert source.startswith("(?:") and source.endswith(")")
    return _split_alternatives(source[3:-1])


def derived_tables() -> tuple[tuple, tuple]:
    """The data `redact_patterns` stores for the built-in regexes, computed from their sources."""
    required = []
    for raw in _P.DEFAULT_REDACT_PATTERNS:
        rx = JsRegex(*_pattern_source(raw), validate=False)
        required.append(tuple(sorted(rx.required)) if rx.required is not None else None)
    branches = []
    for source in _prefilter_branches():
        rx = JsRegex(source, _P.PREFILTER[1], validate=False)
        needles = tuple(sorted(rx.required)) if rx.required is not None else None
        branches.append((rx.literal(), needles))
    return tuple(required), tuple(branches)


_prefilter_test: _AnyOf | None = None


def _could_match_defaults(text_units: str) -> bool:
    global _prefilter_test
    if _prefilter_test is None:
        _prefilter_test = _AnyOf(
            ((source, literal, needles) for source, (literal, needles)
             in zip(_prefilter_branches(), _P.PREFILTER_BRANCHES)),
            _P.PREFILTER[1])
    return _prefilter_test.test(from_units(text_units))


# --------------------------------------------------------------------------------------------
# API.


def _logging_section(cfg: Mapping | None) -> Mapping | None:
    if not isinstance(cfg, Mapping):
        return None
    logging = cfg.get("logging")
    return logging if isinstance(logging, Mapping) else None


def redact_console_text(text: str, cfg: Mapping | None = None, secrets: Iterable[str] = (),
                        sqlite_era: bool = False) -> str:
    """What OpenClaw's console forwarding makes of one formatted `console.log` or
    `console.error` text before printing it (lone UTF-16 surrogates may remain; print them
    as U+FFFD). JSON written straight to stdout is never redacted.

    `cfg` is the config file as parsed from disk (JSON5), not the validated or defaulted
    config: no `${VAR}` substitution, no `$include`. Pass None when there is no file or it
    does not parse, and for `config schema` / `config validate`, which skip reading it. OpenClaw
    reads it once per process and keeps that. Only its `logging` object matters:

    - `redactSensitive`: exactly "off" turns pattern redaction off (registered secrets are
      still masked); any other value, or none, means the default mode "tools".
    - `redactPatterns`: when non-empty, these patterns replace the built-in list (which
      then applies only if every built-in pattern is listed too, and form-body/URL-query
      masking only then). Each entry is `/source/flags` or a bare source compiled with
      `gi`; invalid or nested-repetition patterns are skipped; a list whose entries are all
      skipped masks nothing. Non-string entries (or a non-list with a length) make
      OpenClaw throw; so does this (TypeError).

    `secrets` are the values the process registered for exact-value redaction, in
    registration order (values under 6 UTF-16 units are ignored; their
    encodeURIComponent forms count too; the last 512 are kept). OpenClaw registers
    resolved SecretRef values (secrets runtime snapshots: gateway startup, config writes,
    `secrets apply`) and model-provider API keys resolved for model calls with secret
    sentinels on (embedded agent runs, LLM compaction) when they come from a SecretRef.
    Listing, cleanup and doctor register nothing.

    `sqlite_era` uses the built-in list as 2026.9.6 has it (patterns.SQLITE_ERA_SOURCES), for
    output that stands in for that release's.

    Route-first commands (the plain `openclaw sessions` listing, `status`, `health`,
    `config get`, ...) never enable console capture, so they print unredacted unless
    OPENCLAW_DISABLE_ROUTE_FIRST is truthy or their arguments fail the route's parse.
    """
    if not text:
        return text
    units = to_units(text)
    registry = _registry(secrets)
    exact = registry.redact(units) if registry is not None else units
    logging = _logging_section(cfg)
    if logging is not None and logging.get("redactSensitive") == "off":
        return from_units(exact)
    raw_patterns = logging.get("redactPatterns") if logging is not None else None
    custom = js_truthy(_js_length(raw_patterns))
    if not custom and not _could_match_defaults(exact):
        return from_units(exact)
    patterns = _resolve_patterns(raw_patterns, sqlite_era)
    if not patterns.patterns:
        return from_units(exact)
    form_bodies = _includes_default_patterns(raw_patterns)
    return from_units(_redact_text(exact, patterns, form_bodies))


def redact_lines(lines: Iterable[str], cfg: Mapping | None = None,
                 secrets: Iterable[str] = (), sqlite_era: bool = False) -> list[str]:
    """`redact_console_text` over each line (each one a separate console call)."""
    secrets = tuple(secrets)
    return [redact_console_text(line, cfg, secrets, sqlite_era) for line in lines]

"""A JavaScript regex compiled to Python `re`: analysis of the parsed tree, emission, and `JsRegex`."""

from __future__ import annotations

import re

from openclaw_cli.js.regex.charsets import MAX_CP, WORD_RANGES, WORD_RANGES_UI
from openclaw_cli.js.regex.errors import JsSyntaxError, Unsupported
from openclaw_cli.js.regex.parser import Parser, clip, lit, set_source
from openclaw_cli.js.regex.units import ASTRAL


def _width(node) -> int | None:
    kind = node[0]
    if kind == "set":
        return 1
    if kind == "seq":
        total = 0
        for child in node[1]:
            w = _width(child)
            if w is None:
                return None
            total += w
        return total
    if kind == "alt":
        widths = {_width(child) for child in node[1]}
        return widths.pop() if len(widths) == 1 else None
    if kind == "cap":
        return _width(node[2])
    if kind == "group":
        return _width(node[1])
    if kind in ("look", "bol", "eol", "wb"):
        return 0
    if kind == "rep":
        w = _width(node[1])
        return w * node[2] if w is not None and node[2] == node[3] else None
    return None


def _nullable(node) -> bool:
    kind = node[0]
    if kind == "set":
        return False
    if kind == "seq":
        return all(_nullable(child) for child in node[1])
    if kind == "alt":
        return any(_nullable(child) for child in node[1])
    if kind == "cap":
        return _nullable(node[2])
    if kind == "group":
        return _nullable(node[1])
    if kind == "rep":
        return node[2] == 0 or _nullable(node[1])
    return True


def _children(node) -> tuple:
    """The sub-trees of a parsed node (none for atoms, sets, assertions and backreferences)."""
    kind = node[0]
    if kind in ("seq", "alt"):
        return tuple(node[1])
    if kind in ("group", "rep"):
        return (node[1],)
    if kind == "cap":
        return (node[2],)
    if kind == "look":
        return (node[3],)
    return ()


def _empty_iterations(node) -> bool:
    """Whether an optional iteration could match empty: JavaScript rejects such an iteration
    (and backtracks into it), Python's engine keeps it, so captures and rarely the match differ."""
    if node[0] == "rep":
        mx = node[3]
        if (mx is None or mx > node[2]) and _nullable(node[1]):
            return True
    return any(_empty_iterations(child) for child in _children(node))


def _contains(node, kind: str) -> bool:
    """Whether the tree holds a node of `kind`."""
    return node[0] == kind or any(_contains(child, kind) for child in _children(node))


def _has_backref(node) -> bool:
    return _contains(node, "bref")


def _has_capture(node) -> bool:
    return _contains(node, "cap")


def _literal_char(node) -> str | None:
    """The lower-case ASCII character a set stands for (up to case), if it is one."""
    if node[0] != "set" or node[2]:
        return None
    ranges = node[1]
    if sum(hi - lo + 1 for lo, hi in ranges) > 3:
        return None
    chars = {cp for lo, hi in ranges for cp in range(lo, hi + 1)}
    if len(chars) == 1:
        cp = chars.pop()
        return chr(cp).lower() if cp < 0x80 else None
    lower = [cp for cp in chars if 0x61 <= cp <= 0x7A]
    if len(lower) != 1:
        return None
    c = lower[0]
    if chars - {c, c - 32, 0x17F, 0x212A}:
        return None
    return chr(c)


def _required_literals(node) -> frozenset[str] | None:
    """Strings (lower case) of which every match contains at least one, when known."""
    kind = node[0]
    if kind == "set":
        c = _literal_char(node)
        return frozenset({c}) if c else None
    if kind == "cap":
        return _required_literals(node[2])
    if kind == "group":
        return _required_literals(node[1])
    if kind == "rep":
        return _required_literals(node[1]) if node[2] >= 1 else None
    if kind == "alt":
        out: set[str] = set()
        for child in node[1]:
            sub = _required_literals(child)
            if not sub:
                return None
            out |= sub
        return frozenset(out)
    if kind != "seq":
        return None
    items = [child for child in _flatten(node) if child[0] not in ("look", "bol", "eol", "wb")]
    candidates: list[frozenset[str]] = []
    i = 0
    while i < len(items):
        c = _literal_char(items[i])
        if not c:
            sub = _required_literals(items[i])
            if sub:
                candidates.append(sub)
            i += 1
            continue
        j = i
        run = ""
        while j < len(items) and (c := _literal_char(items[j])):
            run += c
            j += 1
        options = {run}
        # A small class right next to the run makes the needle longer and rarer.
        before = _small_set_chars(items[i - 1]) if i > 0 else None
        if before and len(before) * len(options) <= 16:
            options = {b + o for b in before for o in options}
        after = _small_set_chars(items[j]) if j < len(items) else None
        if after and len(after) * len(options) <= 16:
            options = {o + a for o in options for a in after}
        candidates.append(frozenset(options))
        i = j
    if not candidates:
        return None
    return max(candidates, key=_needle_score)


_COMMON_CHARS = frozenset(" etaoinsrhldcum0123456789-./:%()")


def _needle_score(options: frozenset[str]) -> tuple[int, int, int]:
    """Prefer longer needles, fewer of them, then rarer characters."""
    rarity = min(sum(ch not in _COMMON_CHARS for ch in option) for option in options)
    return min(map(len, options)), -len(options), rarity


def _small_set_chars(node) -> set[str] | None:
    """The (lower-cased, ASCII) characters of a mandatory small class, as needle context."""
    if node[0] == "rep" and node[2] >= 1:
        node = node[1]
    if node[0] != "set" or node[2] or sum(hi - lo + 1 for lo, hi in node[1]) > 20:
        return None
    chars = {chr(cp).casefold() for lo, hi in node[1] for cp in range(lo, hi + 1)}
    if len(chars) > 10 or any(len(ch) != 1 or ord(ch) > 0x7F for ch in chars):
        return None
    return chars


def _flatten(seq) -> list:
    """Children of a sequence, with mandatory non-capturing or capturing sequences inlined."""
    out = []
    for child in seq[1]:
        inner = child[2] if child[0] == "cap" else child[1] if child[0] == "group" else None
        if inner is not None and inner[0] == "seq":
            out.extend(_flatten(inner))
        else:
            out.append(child)
    return out


def _ascii_run_char(node, top: int) -> tuple[str, bool] | None:
    """(character, folds) when a set is one ASCII character, or an ASCII letter in both cases."""
    if node[0] != "set" or node[2]:
        return None
    ranges = clip(node[1], top)
    if len(ranges) == 1 and ranges[0][0] == ranges[0][1] and ranges[0][0] < 0x80:
        return chr(ranges[0][0]), False
    if len(ranges) == 2 and ranges[0][0] == ranges[0][1] and ranges[1][0] == ranges[1][1]:
        upper, lower = ranges[0][0], ranges[1][0]
        if 0x41 <= upper <= 0x5A and lower == upper + 32:
            return chr(lower), True
    return None


class _LookbehindCheck:
    """Whether a lookbehind body matches some text ending exactly at a position (with the
    whole string visible to its own assertions)."""

    __slots__ = ("body", "compiled", "flags")

    def __init__(self, body: str, flags: int) -> None:
        self.body = body
        self.flags = flags
        self.compiled: dict[int, re.Pattern] = {}
        re.compile(body, flags)

    def holds(self, s: str, position: int) -> bool:
        remaining = len(s) - position
        rx = self.compiled.get(remaining)
        if rx is None:
            if len(self.compiled) > 64:
                self.compiled.clear()
            rx = re.compile(f"{self.body}(?=[\\x00-\\U0010ffff]{{{remaining}}}\\Z)", self.flags)
            self.compiled[remaining] = rx
        return rx.search(s) is not None


class _Emitter:
    def __init__(self, ascii_mode: bool, flags: int, top: int) -> None:
        self.ascii_mode = ascii_mode
        self.flags = flags
        self.top = top
        self.count = 0
        self.js_to_py: dict[int, int] = {}
        self.closed: set[int] = set()
        self.checks: list[tuple[int, _LookbehindCheck, bool]] = []

    def emit(self, node, top: bool = False) -> str:
        kind = node[0]
        if kind == "set":
            return set_source(node[1], node[2], self.top)
        if kind == "seq":
            if not self.ascii_mode:
                return "".join(self.emit(child, top) for child in node[1])
            # Runs of ASCII characters, some of them letters in both cases, read better (and
            # compile faster) as one case-insensitive literal: with re.ASCII only ASCII folds.
            out: list[str] = []
            run: list[str] = []
            folds = False

            def flush() -> None:
                if run:
                    text = "".join(lit(ord(ch)) for ch in run)
                    out.append(f"(?i:{text})" if folds else text)
                    run.clear()

            for child in node[1]:
                ch = _ascii_run_char(child, self.top)
                if ch is None:
                    flush()
                    folds = False
                    out.append(self.emit(child, top))
                    continue
                run.append(ch[0])
                folds = folds or ch[1]
            flush()
            return "".join(out)
        if kind == "alt":
            return "(?:" + "|".join(self.emit(child) for child in node[1]) + ")"
        if kind == "cap":
            self.count += 1
            self.js_to_py[node[1]] = self.count
            inner = self.emit(node[2])
            self.closed.add(node[1])
            return "(" + inner + ")"
        if kind == "group":
            return "(?:" + self.emit(node[1]) + ")"
        if kind == "rep":
            child = node[1]
            inner = self.emit(child)
            if child[0] != "set" or inner.startswith("(?"):
                inner = "(?:" + inner + ")"
            mn, mx, lazy = node[2], node[3], node[4]
            if mn == 0 and mx is None:
                q = "*"
            elif mn == 1 and mx is None:
                q = "+"
            elif mn == 0 and mx == 1:
                q = "?"
            elif mn == mx:
                q = "{%d}" % mn
            elif mx is None:
                q = "{%d,}" % mn
            else:
                q = "{%d,%d}" % (mn, mx)
            return inner + q + ("?" if lazy else "")
        if kind == "bol":
            return "(?<![^\\n\\r\\u2028\\u2029])" if node[1] else "\\A"
        if kind == "eol":
            return "(?![^\\n\\r\\u2028\\u2029])" if node[1] else "\\Z"
        if kind == "wb":
            negated, extended = node[1], node[2] and self.top >= 0x17F
            if self.ascii_mode and not extended and not negated:
                return "\\b"  # (Python's \B never matches in an empty string)
            w = set_source(WORD_RANGES_UI if extended else WORD_RANGES, False, self.top)
            if negated:
                return f"(?:(?<={w})(?={w})|(?<!{w})(?!{w}))"
            return f"(?:(?<={w})(?!{w})|(?<!{w})(?={w}))"
        if kind == "bref":
            # A group that has not participated (or is still open) matches empty.
            numbers = [self.js_to_py[k] for k in node[1] if k in self.closed]
            refs = ""
            for py in reversed(numbers):
                ref = f"(?i:\\{py})" if node[2] else f"\\{py}"
                refs = f"(?({py}){ref}|{refs})" if refs else f"(?({py}){ref})"
            return refs
        if kind == "look":
            behind, negative, body = node[1], node[2], node[3]
            if not behind:
                return ("(?!" if negative else "(?=") + self.emit(body) + ")"
            return self._lookbehind(negative, body, top)
        raise AssertionError(kind)

    def _lookbehind(self, negative: bool, body, top: bool) -> str:
        opener = "(?<!" if negative else "(?<="
        if _width(body) is not None:
            return opener + self.emit(body) + ")"
        if body[0] == "alt" and all(_width(child) is not None for child in body[1]):
            parts = [opener + self.emit(child) + ")" for child in body[1]]
            return "".join(parts) if negative else "(?:" + "|".join(parts) + ")"
        if not top or _has_capture(body) or _has_backref(body):
            raise Unsupported("variable-width lookbehind")
        # Checked after each match: does the body match some text ending at the marker?
        inner = _Emitter(self.ascii_mode, self.flags, self.top)
        inner.js_to_py, inner.closed = self.js_to_py, self.closed
        checker = _LookbehindCheck("(?:" + inner.emit(body) + ")", self.flags)
        self.count += 1
        self.checks.append((self.count, checker, negative))
        return "()"


_TOPS = (0x7F, 0xFFFF, MAX_CP)


class JsRegex:
    """A JavaScript regular expression (source, flags) compiled to Python `re`.

    Strings are matched in unit form without `u` and in code point form with it. Each regex is
    compiled lazily in up to three variants, for ASCII, BMP and general text, so that the
    common case runs on small character classes.
    """

    __slots__ = (
        "_approximate",
        "_ascii_mode",
        "_checks",
        "_groups",
        "_hidden",
        "_py_flags",
        "_required",
        "_required_known",
        "_tree",
        "_variants",
        "flags",
        "source",
        "sticky",
        "unicode",
    )

    def __init__(self, source: str, flags: str, *, validate: bool = True) -> None:
        seen: set[str] = set()
        for flag in flags:
            if flag not in "dgimsuyv" or flag in seen:
                raise JsSyntaxError(f"Invalid flags: {flags}")
            seen.add(flag)
        if "v" in seen:
            raise Unsupported("v flag")
        self.source = source
        self.flags = flags
        self.unicode = "u" in seen
        self.sticky = "y" in seen
        parser = Parser(source, flags)
        self._tree = parser.parse()
        # Captures inside a negative lookaround never hold a value.
        self._hidden = frozenset(_negated_captures(self._tree, False))
        self._ascii_mode = not (parser.has_ic_backref and self.unicode)
        self._py_flags = re.ASCII if self._ascii_mode else 0
        self._variants: list[re.Pattern | None] = [None, None, None]
        self._groups: list[tuple[int, ...] | None] = [None, None, None]
        self._checks: list[tuple | None] = [None, None, None]
        if validate:
            self._compile(0)
        self._required: frozenset[str] | None = None
        self._required_known = False
        self._approximate: bool | None = None

    @property
    def required(self) -> frozenset[str] | None:
        """Strings (lower case) of which every match contains one, when known."""
        if not self._required_known:
            self._required = _required_literals(self._tree)
            self._required_known = True
        return self._required

    @property
    def approximate(self) -> bool:
        """Whether the translation may differ (see _empty_iterations)."""
        if self._approximate is None:
            self._approximate = _empty_iterations(self._tree)
        return self._approximate

    def literal(self) -> str | None:
        """The lower-case ASCII string this regex matches exactly, up to ASCII case, if any."""
        node = self._tree
        items = _flatten(node) if node[0] == "seq" else [node]
        out = []
        for child in items:
            c = _literal_char(child)
            if c is None:
                return None
            if "a" <= c <= "z" and sum(hi - lo + 1 for lo, hi in child[1]) < 2:
                return None
            out.append(c)
        return "".join(out) or None

    def _compile(self, level: int) -> re.Pattern:
        emitter = _Emitter(self._ascii_mode, self._py_flags, _TOPS[level])
        try:
            python_source = emitter.emit(self._tree, top=True)
            py = re.compile(python_source, self._py_flags)
        except (re.error, OverflowError, RecursionError) as exc:
            raise Unsupported(str(exc)) from exc
        total = max(emitter.js_to_py, default=0)
        total = max(total, _count_captures(self._tree))
        self._groups[level] = tuple(emitter.js_to_py.get(k, 0) for k in range(1, total + 1))
        self._checks[level] = tuple(emitter.checks)
        self._variants[level] = py
        return py

    def level(self, s: str) -> int:
        """Which variant serves `s`: 0 ASCII, 1 no astral characters, 2 any."""
        if s.isascii():
            return 0
        if not self.unicode or not ASTRAL.search(s):
            return 1
        return 2

    def exec(self, s: str, pos: int = 0, level: int | None = None) -> re.Match | None:
        """RegExpBuiltinExec from lastIndex `pos` (s in this regex's string form)."""
        if level is None:
            level = self.level(s)
        py = self._variants[level] or self._compile(level)
        checks = self._checks[level]
        n = len(s)
        while pos <= n:
            m = py.match(s, pos) if self.sticky else py.search(s, pos)
            if m is None or not checks:
                return m
            if all(chk.holds(s, m.start(g)) != neg for g, chk, neg in checks):
                return m
            if self.sticky:
                return None
            pos = m.start() + 1
        return None

    def test(self, s: str) -> bool:
        level = self.level(s)
        variant = self._variants[level]
        if not self.sticky and not self._checks[level] and variant is not None:
            return variant.search(s) is not None
        return self.exec(s, 0, level) is not None

    def captures(self, m: re.Match) -> list[str | None]:
        """Capture values in JavaScript order, None for groups that did not participate."""
        groups = self._groups_of(m)
        hidden = self._hidden
        return [m.group(g) if g and k not in hidden else None for k, g in enumerate(groups, 1)]

    def group_values(self, m: re.Match) -> list[str]:
        """Capture values in JavaScript order, "" for groups that did not participate."""
        return [value or "" for value in self.captures(m)]

    def group_start(self, m: re.Match, index: int) -> int:
        return m.start(self._groups_of(m)[index])

    def _groups_of(self, m: re.Match) -> tuple[int, ...]:
        """The Python group number of each JavaScript capture, for the variant that matched."""
        groups = self._groups[_level_of(self, m)]
        if groups is None:
            raise LookupError("match from a variant that was never compiled")
        return groups

    def replace(self, s: str, fn) -> str:
        """String.prototype.replace with a global regex and a replacer function."""
        level = self.level(s)
        pieces: list[str] = []
        last = 0
        pos = 0
        n = len(s)
        while pos <= n:
            m = self.exec(s, pos, level)
            if m is None:
                break
            start, end = m.span()
            pieces.append(s[last:start])
            pieces.append(fn(m))
            last = end
            pos = end if end > start else end + 1
        if not pieces:
            return s
        pieces.append(s[last:])
        return "".join(pieces)


def _level_of(rx: JsRegex, m: re.Match) -> int:
    return rx._variants.index(m.re)


def _negated_captures(node, negated: bool):
    kind = node[0]
    if kind == "cap":
        if negated:
            yield node[1]
        yield from _negated_captures(node[2], negated)
    elif kind in ("seq", "alt"):
        for child in node[1]:
            yield from _negated_captures(child, negated)
    elif kind in ("group", "rep"):
        yield from _negated_captures(node[1], negated)
    elif kind == "look":
        yield from _negated_captures(node[3], negated or node[2])


def _count_captures(node) -> int:
    kind = node[0]
    if kind == "cap":
        return max(node[1], _count_captures(node[2]))
    if kind in ("seq", "alt"):
        return max((_count_captures(child) for child in node[1]), default=0)
    if kind == "group":
        return _count_captures(node[1])
    if kind == "look":
        return _count_captures(node[3])
    if kind == "rep":
        return _count_captures(node[1])
    return 0


def compile_js_regex(source: str, flags: str = "") -> JsRegex:
    """Compile a JavaScript regex; raises ValueError when invalid or not expressible."""
    return JsRegex(source, flags)

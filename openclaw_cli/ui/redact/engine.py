"""Console secret redaction: what OpenClaw does to every line its commands print."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from openclaw_cli.js.values import truthy as js_truthy
from openclaw_cli.ui.redact import patterns as _P

__all__ = ["JsRegex", "JsSyntaxError", "compile_js_regex", "redact_console_text", "redact_lines"]

_INF = float("inf")
_MAX_CP = 0x10FFFF

# --------------------------------------------------------------------------------------------
# UTF-16 views. Non-`u` JavaScript regexes (and String.prototype.slice) work on UTF-16 code
# units; `u` regexes work on code points. "Unit form" holds an astral character as its two
# surrogate halves; "code point form" joins every valid surrogate pair.

_ASTRAL = re.compile("[\U00010000-\U0010ffff]")
_SURROGATE = re.compile("[\ud800-\udfff]")


def _split_astral(m: re.Match) -> str:
    cp = ord(m.group()) - 0x10000
    return chr(0xD800 + (cp >> 10)) + chr(0xDC00 + (cp & 0x3FF))


def _to_units(s: str) -> str:
    if s.isascii():
        return s
    return _ASTRAL.sub(_split_astral, s)


def _from_units(s: str) -> str:
    if s.isascii() or not _SURROGATE.search(s):
        return s
    return s.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")


def _utf16_len(s: str) -> int:
    if s.isascii():
        return len(s)
    return len(s) + sum(1 for ch in s if ord(ch) > 0xFFFF)


# ECMAScript WhiteSpace + LineTerminator: `\s`, and what String.prototype.trim removes.
_JS_WS = (
    "\t\n\x0b\x0c\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008"
    "\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
)


def _js_trim(s: str) -> str:
    return s.strip(_JS_WS)


# --------------------------------------------------------------------------------------------
# Character sets: sorted, merged lists of inclusive (lo, hi) code point ranges.

Ranges = list  # list[tuple[int, int]]


def _merge(ranges: Iterable[tuple[int, int]]) -> Ranges:
    out: Ranges = []
    for lo, hi in sorted(ranges):
        if out and lo <= out[-1][1] + 1:
            if hi > out[-1][1]:
                out[-1] = (out[-1][0], hi)
        else:
            out.append((lo, hi))
    return out


def _complement(ranges: Ranges, top: int = _MAX_CP) -> Ranges:
    out: Ranges = []
    nxt = 0
    for lo, hi in ranges:
        if lo > nxt:
            out.append((nxt, lo - 1))
        nxt = max(nxt, hi + 1)
    if nxt <= top:
        out.append((nxt, top))
    return out


def _contains(ranges: Ranges, cp: int) -> bool:
    lo_i, hi_i = 0, len(ranges)
    while lo_i < hi_i:
        mid = (lo_i + hi_i) // 2
        lo, hi = ranges[mid]
        if cp < lo:
            hi_i = mid
        elif cp > hi:
            lo_i = mid + 1
        else:
            return True
    return False


def _parse_hex_ranges(text: str) -> Ranges:
    out: Ranges = []
    for item in text.split():
        lo, _, hi = item.partition("-")
        out.append((int(lo, 16), int(hi or lo, 16)))
    return out


_WS_RANGES = _merge((ord(c), ord(c)) for c in _JS_WS)
_DIGIT_RANGES: Ranges = [(0x30, 0x39)]
_WORD_RANGES: Ranges = [(0x30, 0x39), (0x41, 0x5A), (0x5F, 0x5F), (0x61, 0x7A)]
# With both `u` and `i`, \w also holds the two characters that case-fold into it.
_WORD_RANGES_UI: Ranges = _merge(_WORD_RANGES + [(0x17F, 0x17F), (0x212A, 0x212A)])
_LINE_TERMINATORS: Ranges = [(0x0A, 0x0A), (0x0D, 0x0D), (0x2028, 0x2029)]

_property_cache: dict[str, Ranges] = {}


def _category_ranges(prefix: str) -> Ranges:
    """General_Category ranges from Python's Unicode tables (C and Z: OpenClaw's)."""
    if prefix in _property_cache:
        return _property_cache[prefix]
    if prefix == "C":
        ranges = _parse_hex_ranges(_P.UNICODE_C_RANGES)
    elif prefix == "Z":
        ranges = _parse_hex_ranges(_P.UNICODE_Z_RANGES)
    else:
        import unicodedata

        found: list[tuple[int, int]] = []
        start = -1
        for cp in range(_MAX_CP + 2):
            ok = cp <= _MAX_CP and unicodedata.category(chr(cp)).startswith(prefix)
            if ok and start < 0:
                start = cp
            elif not ok and start >= 0:
                found.append((start, cp - 1))
                start = -1
        ranges = found
    _property_cache[prefix] = ranges
    return ranges


_GC_NAMES = {
    "L": "L", "Letter": "L", "Lu": "Lu", "Uppercase_Letter": "Lu", "Ll": "Ll",
    "Lowercase_Letter": "Ll", "Lt": "Lt", "Titlecase_Letter": "Lt", "LC": "LC",
    "Cased_Letter": "LC", "Lm": "Lm", "Modifier_Letter": "Lm", "Lo": "Lo", "Other_Letter": "Lo",
    "M": "M", "Mark": "M", "Combining_Mark": "M", "Mn": "Mn", "Nonspacing_Mark": "Mn",
    "Mc": "Mc", "Spacing_Mark": "Mc", "Me": "Me", "Enclosing_Mark": "Me", "N": "N",
    "Number": "N", "Nd": "Nd", "Decimal_Number": "Nd", "digit": "Nd", "Nl": "Nl",
    "Letter_Number": "Nl", "No": "No", "Other_Number": "No", "P": "P", "Punctuation": "P",
    "punct": "P", "Pc": "Pc", "Connector_Punctuation": "Pc", "Pd": "Pd", "Dash_Punctuation": "Pd",
    "Ps": "Ps", "Open_Punctuation": "Ps", "Pe": "Pe", "Close_Punctuation": "Pe", "Pi": "Pi",
    "Initial_Punctuation": "Pi", "Pf": "Pf", "Final_Punctuation": "Pf", "Po": "Po",
    "Other_Punctuation": "Po", "S": "S", "Symbol": "S", "Sm": "Sm", "Math_Symbol": "Sm",
    "Sc": "Sc", "Currency_Symbol": "Sc", "Sk": "Sk", "Modifier_Symbol": "Sk", "So": "So",
    "Other_Symbol": "So", "Z": "Z", "Separator": "Z", "Zs": "Zs", "Space_Separator": "Zs",
    "Zl": "Zl", "Line_Separator": "Zl", "Zp": "Zp", "Paragraph_Separator": "Zp", "C": "C",
    "Other": "C", "Cc": "Cc", "Control": "Cc", "cntrl": "Cc", "Cf": "Cf", "Format": "Cf",
    "Cs": "Cs", "Surrogate": "Cs", "Co": "Co", "Private_Use": "Co", "Cn": "Cn",
    "Unassigned": "Cn",
}


def _property_ranges(name: str) -> Ranges:
    key, sep, value = name.partition("=")
    if sep:
        if key not in ("General_Category", "gc"):
            raise _Unsupported(f"property {name}")
        name = value
    if name == "Any":
        return [(0, _MAX_CP)]
    if name == "ASCII":
        return [(0, 0x7F)]
    code = _GC_NAMES.get(name)
    if code is None:
        raise _Unsupported(f"property {name}")
    if code == "LC":
        return _merge(_category_ranges("Lu") + _category_ranges("Ll") + _category_ranges("Lt"))
    if code == "Cn":
        assigned = _merge(_complement(_category_ranges("C")) + _category_ranges("Cc")
                          + _category_ranges("Cf") + _category_ranges("Cs")
                          + _category_ranges("Co"))
        return _complement(assigned)
    return _category_ranges(code)


# --------------------------------------------------------------------------------------------
# Case-insensitive matching, resolved into explicit sets. Without `u` JavaScript compares
# characters by their (single-unit) upper case, never mapping non-ASCII onto ASCII; with `u` it
# compares simple case foldings.

_case_groups: dict[bool, list[tuple[int, ...]]] = {}


def _canonical(ch: str, unicode: bool) -> str:
    if unicode:
        folded = ch.casefold()
        if len(folded) == 1:
            return folded
        lower = ch.lower()
        if len(lower) == 1 and lower != ch and lower.casefold() == folded:
            return lower
        return ch
    upper = ch.upper()
    if len(upper) != 1 or (ord(ch) >= 128 and ord(upper) < 128):
        return ch
    return upper


def _groups(unicode: bool) -> list[tuple[int, ...]]:
    groups = _case_groups.get(unicode)
    if groups is None:
        by_canon: dict[str, set[int]] = {}
        for cp in range(0x20000 if unicode else 0x10000):
            ch = chr(cp)
            canon = _canonical(ch, unicode)
            if canon != ch:
                by_canon.setdefault(canon, set()).add(cp)
        groups = []
        for canon, members in by_canon.items():
            if _canonical(canon, unicode) == canon:
                members.add(ord(canon))
            if len(members) > 1:
                groups.append(tuple(sorted(members)))
        _case_groups[unicode] = groups
    return groups


def _is_cased(cp: int) -> bool:
    ch = chr(cp)
    return ch.lower() != ch or ch.upper() != ch or ch.casefold() != ch


def _count(ranges: Ranges) -> int:
    return sum(hi - lo + 1 for lo, hi in ranges)


_CASELESS_PROPERTIES = frozenset({"C", "Cc", "Cf", "Cs", "Co", "Cn", "Z", "Zs", "Zl", "Zp"})


def _case_closure(ranges: Ranges, unicode: bool) -> Ranges:
    if len(ranges) == 1 and ranges[0][0] == ranges[0][1]:
        cp = ranges[0][0]
        if cp < 0x80:
            if not (0x41 <= cp <= 0x5A or 0x61 <= cp <= 0x7A):
                return ranges
            pair = sorted((cp, cp ^ 0x20))
            if unicode and cp | 0x20 in (0x73, 0x6B):
                pair.append(0x17F if cp | 0x20 == 0x73 else 0x212A)
            return [(c, c) for c in pair]
        if not _is_cased(cp) and cp not in (0x17F, 0x212A):
            return ranges
    extra: list[tuple[int, int]] = []
    for lo, hi in ranges:
        a, b = max(lo, 0x41), min(hi, 0x5A)
        if a <= b:
            extra.append((a + 32, b + 32))
        a, b = max(lo, 0x61), min(hi, 0x7A)
        if a <= b:
            extra.append((a - 32, b - 32))
    out = _merge(list(ranges) + extra)
    if unicode:
        for group in ((0x53, 0x73, 0x17F), (0x4B, 0x6B, 0x212A)):
            if any(_contains(out, cp) for cp in group):
                out = _merge(out + [(cp, cp) for cp in group])
    top = _MAX_CP if unicode else 0xFFFF
    inside = [(max(lo, 0x80), min(hi, top)) for lo, hi in out if hi >= 0x80 and lo <= top]
    outside = [(max(lo, 0x80), min(hi, top)) for lo, hi in _complement(out, top) if hi >= 0x80]
    smaller = inside if _count(inside) <= _count(outside) else outside
    # With `u`, the groups of U+017F and U+212A were completed above.
    settled = (0x17F, 0x212A) if unicode else ()
    if _count(smaller) <= 4096 and not any(
            _is_cased(cp) and cp not in settled for lo, hi in smaller for cp in range(lo, hi + 1)):
        return out
    add = []
    for group in _groups(unicode):
        if any(_contains(out, cp) for cp in group):
            add.extend((cp, cp) for cp in group)
    return _merge(out + add) if add else out


# --------------------------------------------------------------------------------------------
# JavaScript regex syntax -> Python `re`.


class JsSyntaxError(ValueError):
    """The source is not a valid JavaScript regular expression (OpenClaw drops it)."""


class _Unsupported(ValueError):
    """Valid JavaScript that Python's `re` cannot express faithfully."""


_SYNTAX_CHARS = frozenset(map(ord, "^$\\.*+?()[]{}|/"))
_CONTROL_ESCAPES = {ord("f"): 0x0C, ord("n"): 0x0A, ord("r"): 0x0D, ord("t"): 0x09, ord("v"): 0x0B}


def _is_digit(cp: int | None) -> bool:
    return cp is not None and 0x30 <= cp <= 0x39


def _is_hex(cp: int | None) -> bool:
    return cp is not None and (0x30 <= cp <= 0x39 or 0x41 <= cp <= 0x46 or 0x61 <= cp <= 0x66)


def _is_letter(cp: int | None) -> bool:
    return cp is not None and (0x41 <= cp <= 0x5A or 0x61 <= cp <= 0x7A)


class _Parser:
    """Recursive-descent parser for ECMAScript patterns (Annex B syntax without `u`)."""

    def __init__(self, source: str, flags: str) -> None:
        self.u = "u" in flags
        self.ic = "i" in flags
        self.ml = "m" in flags
        self.dotall = "s" in flags
        text = _from_units(_to_units(source)) if self.u else _to_units(source)
        self.c = [ord(ch) for ch in text]
        self.n = len(self.c)
        self.i = 0
        self.cap_total, self.names = self._scan_groups()
        self.has_named = bool(self.names)
        self.cap_count = 0
        self.seen_names: dict[str, list[tuple]] = {}
        self.path: list[tuple[int, int]] = []  # (disjunction, alternative) from the root
        self.disjunctions = 0
        self.has_backref = False
        self.has_ic_backref = False

    # -- helpers
    def peek(self, k: int = 0) -> int | None:
        j = self.i + k
        return self.c[j] if j < self.n else None

    def eat(self, ch: str) -> bool:
        if self.peek() == ord(ch):
            self.i += 1
            return True
        return False

    def _scan_groups(self) -> tuple[int, dict[str, list[int]]]:
        """Capture count and the capture numbers of each group name, ahead of parsing."""
        c, n = self.c, self.n
        count = 0
        names: dict[str, list[int]] = {}
        i = 0
        in_class = False
        while i < n:
            ch = c[i]
            if ch == 0x5C:
                i += 2
                continue
            if in_class:
                if ch == 0x5D:
                    in_class = False
            elif ch == 0x5B:
                in_class = True
            elif ch == 0x28:
                if i + 1 < n and c[i + 1] == 0x3F:
                    named = i + 2 < n and c[i + 2] == 0x3C
                    if named and not (i + 3 < n and c[i + 3] in (0x3D, 0x21)):
                        count += 1
                        end = i + 3
                        while end < n and c[end] != 0x3E:
                            end += 1
                        names.setdefault("".join(map(chr, c[i + 3:end])), []).append(count)
                else:
                    count += 1
            i += 1
        return count, names

    # -- grammar
    def parse(self):
        node = self.disjunction()
        if self.i < self.n:
            raise JsSyntaxError("Unmatched ')'")
        return node

    def disjunction(self):
        self.disjunctions += 1
        ident = self.disjunctions
        self.path.append((ident, 0))
        alts = [self.alternative()]
        while self.eat("|"):
            self.path[-1] = (ident, len(alts))
            alts.append(self.alternative())
        self.path.pop()
        return alts[0] if len(alts) == 1 else ("alt", alts)

    def alternative(self):
        items = []
        while self.i < self.n and self.c[self.i] not in (0x7C, 0x29):
            items.append(self.term())
        return ("seq", items)

    def term(self):
        ch = self.peek()
        if ch == 0x5E:
            self.i += 1
            return ("bol", self.ml)
        if ch == 0x24:
            self.i += 1
            return ("eol", self.ml)
        if ch == 0x5C and self.peek(1) in (0x62, 0x42):
            self.i += 2
            return ("wb", self.c[self.i - 1] == 0x42, self.u and self.ic)
        if ch == 0x28 and self.peek(1) == 0x3F:
            nxt = self.peek(2)
            behind = nxt == 0x3C and self.peek(3) in (0x3D, 0x21)
            if nxt in (0x3D, 0x21) or behind:
                self.i += 4 if behind else 3
                negative = self.c[self.i - 1] == 0x21
                body = self.disjunction()
                if not self.eat(")"):
                    raise JsSyntaxError("Unterminated group")
                node = ("look", behind, negative, body)
                if behind or self.u:
                    if self._quantifier_ahead():
                        raise JsSyntaxError("Invalid quantifier")
                    return node
                return self.quantify(node)
        return self.quantify(self.atom())

    def _braced_quantifier_at(self, j: int) -> tuple[int, int, int | None] | None:
        """(end index, min, max) when a valid `{n}`, `{n,}` or `{n,m}` starts at j."""
        c, n = self.c, self.n
        if j >= n or c[j] != 0x7B:
            return None
        k = j + 1
        start = k
        while k < n and _is_digit(c[k]):
            k += 1
        if k == start:
            return None
        mn = int("".join(map(chr, c[start:k])))
        mx: int | None = mn
        if k < n and c[k] == 0x2C:
            k += 1
            start = k
            while k < n and _is_digit(c[k]):
                k += 1
            mx = int("".join(map(chr, c[start:k]))) if k > start else None
        if k >= n or c[k] != 0x7D:
            return None
        return k + 1, mn, mx

    def _quantifier_ahead(self) -> bool:
        ch = self.peek()
        return ch in (0x2A, 0x2B, 0x3F) or self._braced_quantifier_at(self.i) is not None

    def quantify(self, atom):
        ch = self.peek()
        if ch == 0x2A:
            mn, mx = 0, None
            self.i += 1
        elif ch == 0x2B:
            mn, mx = 1, None
            self.i += 1
        elif ch == 0x3F:
            mn, mx = 0, 1
            self.i += 1
        elif ch == 0x7B:
            braced = self._braced_quantifier_at(self.i)
            if braced is None:
                if self.u:
                    raise JsSyntaxError("Incomplete quantifier")
                return atom
            self.i, mn, mx = braced
            if mx is not None and mx < mn:
                raise JsSyntaxError("numbers out of order in {} quantifier")
        else:
            return atom
        lazy = self.eat("?")
        limit = 2**31 - 1
        if mx is not None and mx >= limit:
            mx = None
        if mn >= limit:
            raise _Unsupported("huge quantifier")
        return ("rep", atom, mn, mx, lazy)

    def literal(self, cp: int):
        ranges = [(cp, cp)]
        if self.ic:
            ranges = _case_closure(ranges, self.u)
        return ("set", ranges, False)

    def atom(self):
        ch = self.c[self.i]
        if ch in (0x2A, 0x2B, 0x3F):
            raise JsSyntaxError("Nothing to repeat")
        if ch == 0x7B:
            if self._braced_quantifier_at(self.i) is not None:
                raise JsSyntaxError("Nothing to repeat")
            if self.u:
                raise JsSyntaxError("Lone quantifier brackets")
            self.i += 1
            return self.literal(ch)
        if ch in (0x7D, 0x5D):
            if self.u:
                raise JsSyntaxError("Lone quantifier brackets")
            self.i += 1
            return self.literal(ch)
        if ch == 0x2E:
            self.i += 1
            if self.dotall:
                return ("set", [], True)
            return ("set", _LINE_TERMINATORS, True)
        if ch == 0x28:
            return self.group()
        if ch == 0x5B:
            return self.char_class()
        if ch == 0x5C:
            return self.atom_escape()
        self.i += 1
        return self.literal(ch)

    def group(self):
        self.i += 1
        if self.peek() == 0x3F:
            nxt = self.peek(1)
            if nxt == 0x3A:
                self.i += 2
                return self._group_body(None)
            if nxt == 0x3C:
                self.i += 2
                start = self.i
                while self.i < self.n and self.c[self.i] != 0x3E:
                    self.i += 1
                name = "".join(map(chr, self.c[start:self.i]))
                if self.i >= self.n or not _valid_group_name(name):
                    raise JsSyntaxError("Invalid capture group name")
                self.i += 1
                for other in self.seen_names.get(name, ()):
                    if not _exclusive(other, tuple(self.path)):
                        raise JsSyntaxError("Duplicate capture group name")
                self.seen_names.setdefault(name, []).append(tuple(self.path))
                self.cap_count += 1
                return self._group_body(self.cap_count)
            return self._modifier_group()
        self.cap_count += 1
        return self._group_body(self.cap_count)

    def _group_body(self, index: int | None):
        body = self.disjunction()
        if not self.eat(")"):
            raise JsSyntaxError("Unterminated group")
        return ("cap", index, body) if index is not None else ("group", body)

    def _modifier_group(self):
        self.i += 1
        on: set[str] = set()
        off: set[str] = set()
        target = on
        seen_dash = False
        while True:
            ch = self.peek()
            if ch is None:
                raise JsSyntaxError("Invalid group")
            c = chr(ch)
            if c in "ims":
                if c in on or c in off:
                    raise JsSyntaxError("Repeated flag in modifiers")
                target.add(c)
                self.i += 1
            elif c == "-" and not seen_dash:
                seen_dash = True
                target = off
                self.i += 1
            elif c == ":":
                self.i += 1
                break
            else:
                raise JsSyntaxError("Invalid group")
        if not on and not off:
            raise JsSyntaxError("Invalid group")
        saved = (self.ic, self.ml, self.dotall)
        self.ic = (self.ic or "i" in on) and "i" not in off
        self.ml = (self.ml or "m" in on) and "m" not in off
        self.dotall = (self.dotall or "s" in on) and "s" not in off
        node = self._group_body(None)
        self.ic, self.ml, self.dotall = saved
        return node

    def _class_escape_ranges(self, letter: int) -> tuple[Ranges, bool] | None:
        """\\d \\D \\s \\S \\w \\W (and \\p{..} with `u`) as (ranges, negated)."""
        lower = letter | 0x20
        negated = letter != lower
        if lower == 0x64:
            return _DIGIT_RANGES, negated
        if lower == 0x73:
            return _WS_RANGES, negated
        if lower == 0x77:
            return (_WORD_RANGES_UI if self.u and self.ic else _WORD_RANGES), negated
        if lower == 0x70 and self.u:
            if self.peek() != 0x7B:
                raise JsSyntaxError("Invalid property name")
            end = self.i + 1
            while end < self.n and self.c[end] != 0x7D:
                end += 1
            if end >= self.n:
                raise JsSyntaxError("Invalid property name")
            name = "".join(map(chr, self.c[self.i + 1:end]))
            self.i = end + 1
            ranges = _property_ranges(name)
            if negated:
                ranges = _complement(ranges)
            # Case-insensitively, \P{..} matches what folds like any character outside the property.
            category = _GC_NAMES.get(name.partition("=")[2] or name)
            if self.ic and category not in _CASELESS_PROPERTIES:
                ranges = _case_closure(ranges, True)
            return ranges, False
        return None

    def _character_escape(self, in_class: bool) -> int:
        """The code point of a CharacterEscape whose letter is at self.i (already past '\\')."""
        ch = self.c[self.i]
        self.i += 1
        if ch in _CONTROL_ESCAPES:
            return _CONTROL_ESCAPES[ch]
        if ch == 0x30 and not _is_digit(self.peek()):
            return 0
        if ch == 0x78:
            if _is_hex(self.peek()) and _is_hex(self.peek(1)):
                value = int(chr(self.c[self.i]) + chr(self.c[self.i + 1]), 16)
                self.i += 2
                return value
            if self.u:
                raise JsSyntaxError("Invalid escape")
            return ch
        if ch == 0x75:
            value = self._unicode_escape()
            if value is not None:
                return value
            if self.u:
                raise JsSyntaxError("Invalid Unicode escape")
            return ch
        if self.u:
            if ch in _SYNTAX_CHARS or (in_class and ch == 0x2D):
                return ch
            raise JsSyntaxError("Invalid escape")
        if 0x30 <= ch <= 0x37:
            return self._legacy_octal(ch)
        return ch

    def _hex4(self, j: int) -> int | None:
        if j + 4 <= self.n and all(_is_hex(x) for x in self.c[j:j + 4]):
            return int("".join(map(chr, self.c[j:j + 4])), 16)
        return None

    def _unicode_escape(self) -> int | None:
        if self.u and self.peek() == 0x7B:
            end = self.i + 1
            while end < self.n and _is_hex(self.c[end]):
                end += 1
            if end == self.i + 1 or end >= self.n or self.c[end] != 0x7D:
                raise JsSyntaxError("Invalid Unicode escape")
            value = int("".join(map(chr, self.c[self.i + 1:end])), 16)
            if value > _MAX_CP:
                raise JsSyntaxError("Invalid Unicode escape")
            self.i = end + 1
            return value
        value = self._hex4(self.i)
        if value is None:
            return None
        self.i += 4
        if self.u and 0xD800 <= value <= 0xDBFF and self.peek() == 0x5C and self.peek(1) == 0x75:
            low = self._hex4(self.i + 2)
            if low is not None and 0xDC00 <= low <= 0xDFFF:
                self.i += 6
                return 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
        return value

    def _legacy_octal(self, first: int) -> int:
        value = first - 0x30
        if 0x30 <= (self.peek() or 0) <= 0x37:
            value = value * 8 + self.c[self.i] - 0x30
            self.i += 1
            if first <= 0x33 and 0x30 <= (self.peek() or 0) <= 0x37:
                value = value * 8 + self.c[self.i] - 0x30
                self.i += 1
        return value

    def atom_escape(self):
        self.i += 1
        ch = self.peek()
        if ch is None:
            raise JsSyntaxError("\\ at end of pattern")
        if ch in (0x64, 0x44, 0x73, 0x53, 0x77, 0x57) or (ch in (0x70, 0x50) and self.u):
            self.i += 1
            ranges, negated = self._class_escape_ranges(ch)
            return ("set", ranges, negated)
        if 0x31 <= ch <= 0x39:
            start = self.i
            while _is_digit(self.peek()):
                self.i += 1
            number = int("".join(map(chr, self.c[start:self.i])))
            if number <= self.cap_total:
                return self._backref(number)
            if self.u:
                raise JsSyntaxError("Invalid escape")
            self.i = start + 1
            if ch >= 0x38:
                return self.literal(ch)
            return self.literal(self._legacy_octal(ch))
        if ch == 0x6B and (self.u or self.has_named):
            self.i += 1
            if self.peek() != 0x3C:
                raise JsSyntaxError("Invalid named reference")
            end = self.i + 1
            while end < self.n and self.c[end] != 0x3E:
                end += 1
            name = "".join(map(chr, self.c[self.i + 1:end]))
            if end >= self.n or name not in self.names:
                raise JsSyntaxError("Invalid named capture referenced")
            self.i = end + 1
            return self._backref(*self.names[name])
        if ch == 0x63:
            if _is_letter(self.peek(1)):
                self.i += 2
                return self.literal(self.c[self.i - 1] % 32)
            if self.u:
                raise JsSyntaxError("Invalid unicode escape")
            return self.literal(0x5C)
        if ch == 0x30 and _is_digit(self.peek(1)):
            if self.u:
                raise JsSyntaxError("Invalid decimal escape")
            self.i += 1
            return self.literal(self._legacy_octal(ch))
        if ch == 0x2D and self.u:
            raise JsSyntaxError("Invalid escape")
        return self.literal(self._character_escape(False))

    def _backref(self, *numbers: int):
        self.has_backref = True
        if self.ic:
            self.has_ic_backref = True
        return ("bref", numbers, self.ic)

    def char_class(self):
        self.i += 1
        negated = self.eat("^")
        items: list[tuple[int, int]] = []
        closed: list[tuple[int, int]] = []  # class escapes: already closed under case folding

        def add(part: int | Ranges) -> None:
            if isinstance(part, list):
                closed.extend(part)
            else:
                items.append((part, part))

        while True:
            if self.i >= self.n:
                raise JsSyntaxError("Unterminated character class")
            if self.c[self.i] == 0x5D:
                self.i += 1
                break
            first = self.class_atom()
            if self.peek() == 0x2D and self.peek(1) is not None and self.peek(1) != 0x5D:
                self.i += 1
                second = self.class_atom()
                if isinstance(first, list) or isinstance(second, list):
                    if self.u:
                        raise JsSyntaxError("Invalid character class")
                    add(first)
                    add(0x2D)
                    add(second)
                    continue
                if first > second:
                    raise JsSyntaxError("Range out of order in character class")
                items.append((first, second))
                continue
            add(first)
        ranges = _merge(items)
        if self.ic and ranges:
            ranges = _case_closure(ranges, self.u)
        if closed:
            ranges = _merge(ranges + closed)
        return ("set", ranges, negated)

    def class_atom(self) -> int | Ranges:
        ch = self.c[self.i]
        self.i += 1
        if ch != 0x5C:
            return ch
        ch = self.peek()
        if ch is None:
            raise JsSyntaxError("\\ at end of pattern")
        if ch == 0x62:
            self.i += 1
            return 0x08
        if ch in (0x64, 0x44, 0x73, 0x53, 0x77, 0x57) or (ch in (0x70, 0x50) and self.u):
            self.i += 1
            ranges, negated = self._class_escape_ranges(ch)
            return _complement(ranges) if negated else list(ranges)
        if ch == 0x63:
            nxt = self.peek(1)
            if _is_letter(nxt) or (not self.u and (_is_digit(nxt) or nxt == 0x5F)):
                self.i += 2
                return nxt % 32
            if self.u:
                raise JsSyntaxError("Invalid class escape")
            return 0x5C
        if _is_digit(ch):
            if self.u:
                if ch == 0x30 and not _is_digit(self.peek(1)):
                    self.i += 1
                    return 0
                raise JsSyntaxError("Invalid class escape")
            self.i += 1
            if ch >= 0x38:
                return ch
            return self._legacy_octal(ch)
        if ch == 0x6B and self.u:
            raise JsSyntaxError("Invalid class escape")
        return self._character_escape(True)


def _exclusive(a: tuple, b: tuple) -> bool:
    """Whether two alternative paths can never both participate in one match."""
    for x, y in zip(a, b):
        if x != y:
            return x[0] == y[0]
    return False


def _valid_group_name(name: str) -> bool:
    if not name:
        return False
    first = name[0]
    if not (first in "$_" or first.isidentifier()):
        return False
    return all(ch in "$_\u200c\u200d" or ("a" + ch).isidentifier() for ch in name[1:])


def _lit(cp: int) -> str:
    if 0x30 <= cp <= 0x39 or 0x41 <= cp <= 0x5A or 0x61 <= cp <= 0x7A:
        return chr(cp)
    if cp < 0x100:
        return "\\x%02x" % cp
    if cp < 0x10000:
        return "\\u%04x" % cp
    return "\\U%08x" % cp


def _clip(ranges: Ranges, top: int) -> Ranges:
    if not ranges or ranges[-1][1] <= top:
        return ranges
    return [(lo, min(hi, top)) for lo, hi in ranges if lo <= top]


def _set_source(ranges: Ranges, negated: bool, top: int = _MAX_CP) -> str:
    """A Python class for the set, ignoring code points above `top` (absent from the text)."""
    ranges = _clip(ranges, top)
    if not ranges:
        # One character wide either way (lookbehinds need the width).
        return "[\\x00-\\U0010ffff]" if negated else "[^\\x00-\\U0010ffff]"
    if not negated and len(ranges) == 1 and ranges[0][0] == ranges[0][1]:
        return _lit(ranges[0][0])
    parts = []
    for lo, hi in ranges:
        if lo == hi:
            parts.append(_lit(lo))
        elif hi == lo + 1:
            parts.append(_lit(lo) + _lit(hi))
        else:
            parts.append(_lit(lo) + "-" + _lit(hi))
    return "[" + ("^" if negated else "") + "".join(parts) + "]"


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


def _empty_iterations(node) -> bool:
    """Whether an optional iteration could match empty: JavaScript rejects such an iteration
    (and backtracks into it), Python's engine keeps it, so captures and rarely the match differ."""
    kind = node[0]
    if kind == "rep":
        mx = node[3]
        if (mx is None or mx > node[2]) and _nullable(node[1]):
            return True
        return _empty_iterations(node[1])
    if kind in ("seq", "alt"):
        return any(_empty_iterations(child) for child in node[1])
    if kind == "group":
        return _empty_iterations(node[1])
    if kind == "cap":
        return _empty_iterations(node[2])
    if kind == "look":
        return _empty_iterations(node[3])
    return False


def _has_backref(node) -> bool:
    kind = node[0]
    if kind == "bref":
        return True
    if kind in ("seq", "alt"):
        return any(_has_backref(child) for child in node[1])
    if kind in ("group", "rep"):
        return _has_backref(node[1])
    if kind == "cap":
        return _has_backref(node[2])
    if kind == "look":
        return _has_backref(node[3])
    return False


def _has_capture(node) -> bool:
    kind = node[0]
    if kind == "cap":
        return True
    if kind in ("seq", "alt"):
        return any(_has_capture(child) for child in node[1])
    if kind == "group":
        return _has_capture(node[1])
    if kind == "look":
        return _has_capture(node[3])
    if kind == "rep":
        return _has_capture(node[1])
    return False


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
    ranges = _clip(node[1], top)
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
        self.checks: list[tuple[int, re.Pattern, bool]] = []

    def emit(self, node, top: bool = False) -> str:
        kind = node[0]
        if kind == "set":
            return _set_source(node[1], node[2], self.top)
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
                    text = "".join(_lit(ord(ch)) for ch in run)
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
            w = _set_source(_WORD_RANGES_UI if extended else _WORD_RANGES, False, self.top)
            if negated:
                return f"(?:(?<={w})(?={w})|(?<!{w})(?!{w}))"
            return f"(?:(?<={w})(?!{w})|(?<!{w})(?={w}))"
        if kind == "bref":
            # A group that has not participated (or is still open) matches empty.
            numbers = [self.js_to_py[k] for k in node[1] if k in self.closed]
            out = ""
            for py in reversed(numbers):
                ref = f"(?i:\\{py})" if node[2] else f"\\{py}"
                out = f"(?({py}){ref}|{out})" if out else f"(?({py}){ref})"
            return out
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
            raise _Unsupported("variable-width lookbehind")
        # Checked after each match: does the body match some text ending at the marker?
        inner = _Emitter(self.ascii_mode, self.flags, self.top)
        inner.js_to_py, inner.closed = self.js_to_py, self.closed
        checker = _LookbehindCheck("(?:" + inner.emit(body) + ")", self.flags)
        self.count += 1
        self.checks.append((self.count, checker, negative))
        return "()"


_TOPS = (0x7F, 0xFFFF, _MAX_CP)
_UNSET = object()


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
            raise _Unsupported("v flag")
        self.source = source
        self.flags = flags
        self.unicode = "u" in seen
        self.sticky = "y" in seen
        parser = _Parser(source, flags)
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
        self._required: object = _UNSET
        self._approximate: bool | None = None

    @property
    def required(self) -> frozenset[str] | None:
        """Strings (lower case) of which every match contains one, when known."""
        if self._required is _UNSET:
            self._required = _required_literals(self._tree)
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
            raise _Unsupported(str(exc)) from exc
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
        if not self.unicode or not _ASTRAL.search(s):
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
        if not self.sticky and not self._checks[level] and self._variants[level] is not None:
            return self._variants[level].search(s) is not None
        return self.exec(s, 0, level) is not None

    def captures(self, m: re.Match) -> list[str | None]:
        """Capture values in JavaScript order, None for groups that did not participate."""
        groups = self._groups[_level_of(self, m)]
        hidden = self._hidden
        return [m.group(g) if g and k not in hidden else None for k, g in enumerate(groups, 1)]

    def group_values(self, m: re.Match) -> list[str]:
        """Capture values in JavaScript order, "" for groups that did not participate."""
        return [value or "" for value in self.captures(m)]

    def group_start(self, m: re.Match, index: int) -> int:
        return m.start(self._groups[_level_of(self, m)][index])

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


# --------------------------------------------------------------------------------------------
# Safe-regex guard for configured patterns: nested repetition is refused before compiling.


def _finite(x: float) -> bool:
    return x == x and x != _INF and x != -_INF


def _add_length(a: float, b: float) -> float:
    return a + b if _finite(a) and _finite(b) else _INF


def _mul_length(length: float, factor: float) -> float:
    if not _finite(length):
        return 0 if factor == 0 else _INF
    return length * factor


def _js_min(a: float, b: float) -> float:
    return a if a != a else b if b != b else min(a, b)


def _js_max(a: float, b: float) -> float:
    return a if a != a else b if b != b else max(a, b)


def _to_number(digits: str) -> float:
    try:
        return float(int(digits))
    except OverflowError:
        return _INF


def _read_guard_quantifier(src: str, i: int):
    ch = src[i]
    consumed = 2 if i + 1 < len(src) and src[i + 1] == "?" else 1
    if ch == "*":
        return consumed, 0, None
    if ch == "+":
        return consumed, 1, None
    if ch == "?":
        return consumed, 0, 1
    if ch != "{":
        return None
    n = len(src)
    j = i + 1
    while j < n and "0" <= src[j] <= "9":
        j += 1
    if j == i + 1:
        return None
    mn = _to_number(src[i + 1:j])
    mx: float | None = mn
    if j < n and src[j] == ",":
        j += 1
        start = j
        while j < n and "0" <= src[j] <= "9":
            j += 1
        mx = None if j == start else _to_number(src[start:j])
    if j >= n or src[j] != "}":
        return None
    j += 1
    if j < n and src[j] == "?":
        j += 1
    if mx is not None and mx < mn:
        return None
    return j - i, mn, mx


def _has_nested_repetition(source: str) -> bool:
    src = _to_units(source)
    tokens: list = []
    in_class = False
    i = 0
    n = len(src)
    while i < n:
        ch = src[i]
        if in_class:
            if ch == "\\":
                i += 2
                continue
            if ch == "]":
                in_class = False
            i += 1
            continue
        if ch == "\\":
            i += 2
            tokens.append(("simple",))
            continue
        if ch == "[":
            in_class = True
            tokens.append(("simple",))
        elif ch == "(":
            tokens.append(("open",))
        elif ch == ")":
            tokens.append(("close",))
        elif ch == "|":
            tokens.append(("alt",))
        else:
            q = _read_guard_quantifier(src, i)
            if q:
                tokens.append(("quant", q[1], q[2]))
                i += q[0]
                continue
            tokens.append(("simple",))
        i += 1

    def frame() -> dict:
        return {"last": None, "rep": False, "has_alt": False, "bmin": 0, "bmax": 0,
                "amin": None, "amax": None}

    def record_alt(f: dict) -> None:
        if f["amin"] is None or f["amax"] is None:
            f["amin"], f["amax"] = f["bmin"], f["bmax"]
        else:
            f["amin"] = _js_min(f["amin"], f["bmin"])
            f["amax"] = _js_max(f["amax"], f["bmax"])

    frames = [frame()]

    def emit(token: dict) -> None:
        f = frames[-1]
        f["last"] = token
        if token["rep"]:
            f["rep"] = True
        f["bmin"] = _add_length(f["bmin"], token["min"])
        f["bmax"] = _add_length(f["bmax"], token["max"])

    for token in tokens:
        kind = token[0]
        if kind == "simple":
            emit({"rep": False, "amb": False, "min": 1, "max": 1})
        elif kind == "open":
            frames.append(frame())
        elif kind == "close":
            if len(frames) > 1:
                f = frames.pop()
                if f["has_alt"]:
                    record_alt(f)
                gmin = (f["amin"] if f["amin"] is not None else 0) if f["has_alt"] else f["bmin"]
                gmax = (f["amax"] if f["amax"] is not None else 0) if f["has_alt"] else f["bmax"]
                emit({"rep": f["rep"],
                      "amb": f["has_alt"] and f["amin"] is not None and f["amax"] is not None
                      and f["amin"] != f["amax"],
                      "min": gmin, "max": gmax})
        elif kind == "alt":
            f = frames[-1]
            f["has_alt"] = True
            record_alt(f)
            f["bmin"] = 0
            f["bmax"] = 0
            f["last"] = None
        else:
            f = frames[-1]
            prev = f["last"]
            if not prev:
                continue
            if prev["rep"]:
                return True
            q_min, q_max = token[1], token[2]
            if prev["amb"] and q_max is None:
                return True
            pmin, pmax = prev["min"], prev["max"]
            prev["min"] = _mul_length(prev["min"], q_min)
            prev["max"] = _INF if q_max is None else _mul_length(prev["max"], q_max)
            prev["rep"] = True
            f["rep"] = True
            f["bmin"] = f["bmin"] - pmin + prev["min"]
            f["bmax"] = _add_length(
                f["bmax"] - pmax if _finite(f["bmax"]) and _finite(pmax) else _INF, prev["max"])
    return False


# --------------------------------------------------------------------------------------------
# Masking.

_TRAILING_DELIMITER = re.compile(r"""["'`,;)}\]]+\Z""")
_SUFFIX_ONLY = re.compile(r"""["'`,;)}\]]*\Z""")
_PEM_LINE_SPLIT = re.compile(r"\r?\n")


def _mask_token(token: str) -> str:
    """Keep the first 6 and last 4 UTF-16 units of long tokens; "***" for short ones."""
    if token == "***":
        return token
    if token.isascii() or not _ASTRAL.search(token):
        if len(token) < _P.MIN_MASK_LENGTH:
            return "***"
        return token[:_P.MASK_KEEP_START] + "…" + token[-_P.MASK_KEEP_END:]
    units = _to_units(token)
    if len(units) < _P.MIN_MASK_LENGTH:
        return "***"
    return (_from_units(units[:_P.MASK_KEEP_START]) + "…"
            + _from_units(units[-_P.MASK_KEEP_END:]))


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


_ENV_KEY_IN_MATCH = re.compile(r"\b([A-Z_][A-Z0-9_]*)\b[" + re.escape(_JS_WS) + r"]*[=:]", re.ASCII)
_BARE_SHELL_REF = re.compile(r"\$([A-Z_][A-Z0-9_]*)")
_BRACED_SHELL_REF = re.compile(r"\$\{([A-Z_][A-Z0-9_]*)(?::[-=?+])?\}")
_EMPTY_EXPANSION_TAIL = re.compile(r"[-=?+]\}")


def _is_shell_reference_to_key(key: str, value: str) -> bool:
    bare = _BARE_SHELL_REF.fullmatch(value)
    if bare:
        return bare.group(1) == key
    braced = _BRACED_SHELL_REF.fullmatch(value)
    return bool(braced) and braced.group(1) == key


def _preserves_shell_reference(match: str, token: str) -> bool:
    m = _ENV_KEY_IN_MATCH.search(match)
    return bool(m) and _is_shell_reference_to_key(m.group(1), token)


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
        self.chunk_unsafe = (raw.startswith(_P.BASE64_SAFE_BOUNDARY)
                             or raw.startswith(_P.IDENTIFIER_SAFE_BOUNDARY)
                             or raw in _P.CHUNK_UNSAFE_SOURCES)

    @property
    def rx(self) -> JsRegex:
        if self._rx is None:
            source, flags = _pattern_source(self.raw)
            self._rx = _compile_config_regex(source, flags, validate=False)
        return self._rx


_SLASH_FORM = re.compile("/([^\n\r\u2028\u2029]+)/([gimsuy]*)")
_compiled_cache: dict[tuple[str, str], JsRegex | None] = {}
_pattern_cache: dict[str, _Pattern | None] = {}


def _compile_config_regex(source: str, flags: str, validate: bool = True) -> JsRegex | None:
    trimmed = _js_trim(source)
    if not trimmed:
        return None
    key = (trimmed, flags)
    if key in _compiled_cache:
        return _compiled_cache[key]
    rx: JsRegex | None = None
    if not _has_nested_repetition(trimmed):
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
    if _js_trim(raw):
        rx = _compile_config_regex(*_pattern_source(raw))
    pattern = _Pattern(raw, rx, rx.required) if rx is not None else None
    if len(_pattern_cache) > 1024:
        _pattern_cache.clear()
    _pattern_cache[raw] = pattern
    return pattern


_default_patterns: list[_Pattern] | None = None


def _defaults() -> list[_Pattern]:
    global _default_patterns
    if _default_patterns is None:
        _default_patterns = [
            _Pattern(raw, None, frozenset(required) if required is not None else None)
            for raw, required in zip(_P.DEFAULT_REDACT_PATTERNS, _P.DEFAULT_REQUIRED)
        ]
    return _default_patterns


def _js_length(value: object) -> object:
    """`value?.length` for JSON values (None when undefined)."""
    if isinstance(value, list):
        return len(value)
    if isinstance(value, str):
        return _utf16_len(value)
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


_default_set: _PatternSet | None = None
_custom_sets: dict[tuple[str, ...], _PatternSet] = {}


def _resolve_patterns(value: object) -> _PatternSet:
    global _default_set
    if not js_truthy(_js_length(value)):
        if _default_set is None:
            _default_set = _PatternSet(_defaults())
        return _default_set
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
    for ch in _from_units(s):
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
        converted = _from_units(text)
        out = rx.replace(converted, lambda m: _redact_match(m, pattern))
        return text if out is converted else _to_units(out)
    return rx.replace(text, lambda m: _redact_match(m, pattern))


def _redact_text(text: str, patterns: _PatternSet, form_bodies: bool) -> str:
    if form_bodies:
        cp = _from_units(text)
        redacted = _redact_form_body(_redact_url_query_pairs(cp))
        if redacted != cp:
            text = _to_units(redacted)
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
            unit_form = _to_units(secret)
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
    return _prefilter_test.test(_from_units(text_units))


# --------------------------------------------------------------------------------------------
# API.


def _logging_section(cfg: Mapping | None) -> Mapping | None:
    if not isinstance(cfg, Mapping):
        return None
    logging = cfg.get("logging")
    return logging if isinstance(logging, Mapping) else None


def redact_console_text(text: str, cfg: Mapping | None = None, secrets: Iterable[str] = ()) -> str:
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

    Route-first commands (the plain `openclaw sessions` listing, `status`, `health`,
    `config get`, ...) never enable console capture, so they print unredacted unless
    OPENCLAW_DISABLE_ROUTE_FIRST is truthy or their arguments fail the route's parse.
    """
    if not text:
        return text
    units = _to_units(text)
    registry = _registry(secrets)
    exact = registry.redact(units) if registry is not None else units
    logging = _logging_section(cfg)
    if logging is not None and logging.get("redactSensitive") == "off":
        return _from_units(exact)
    raw_patterns = logging.get("redactPatterns") if logging is not None else None
    custom = js_truthy(_js_length(raw_patterns))
    if not custom and not _could_match_defaults(exact):
        return _from_units(exact)
    patterns = _resolve_patterns(raw_patterns)
    if not patterns.patterns:
        return _from_units(exact)
    form_bodies = _includes_default_patterns(raw_patterns)
    return _from_units(_redact_text(exact, patterns, form_bodies))


def redact_lines(lines: Iterable[str], cfg: Mapping | None = None,
                 secrets: Iterable[str] = ()) -> list[str]:
    """`redact_console_text` over each line (each one a separate console call)."""
    secrets = tuple(secrets)
    return [redact_console_text(line, cfg, secrets) for line in lines]

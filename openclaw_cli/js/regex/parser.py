"""JavaScript regex syntax (ECMAScript 2025, `u` and non-`u`) parsed into a tree."""

from __future__ import annotations

from typing import TypeGuard

from openclaw_cli.js.regex.charsets import (
    CASELESS_PROPERTIES,
    DIGIT_RANGES,
    GC_NAMES,
    LINE_TERMINATORS,
    MAX_CP,
    WORD_RANGES,
    WORD_RANGES_UI,
    WS_RANGES,
    Ranges,
    case_closure,
    complement,
    merge,
    property_ranges,
)
from openclaw_cli.js.regex.errors import JsSyntaxError, Unsupported
from openclaw_cli.js.regex.units import from_units, to_units

# --------------------------------------------------------------------------------------------
# JavaScript regex syntax -> Python `re`.


_SYNTAX_CHARS = frozenset(map(ord, "^$\\.*+?()[]{}|/"))
_CONTROL_ESCAPES = {ord("f"): 0x0C, ord("n"): 0x0A, ord("r"): 0x0D, ord("t"): 0x09, ord("v"): 0x0B}


def _is_digit(cp: int | None) -> TypeGuard[int]:
    return cp is not None and 0x30 <= cp <= 0x39


def _is_hex(cp: int | None) -> TypeGuard[int]:
    return cp is not None and (0x30 <= cp <= 0x39 or 0x41 <= cp <= 0x46 or 0x61 <= cp <= 0x66)


def _is_letter(cp: int | None) -> TypeGuard[int]:
    return cp is not None and (0x41 <= cp <= 0x5A or 0x61 <= cp <= 0x7A)


class Parser:
    """Recursive-descent parser for ECMAScript patterns (Annex B syntax without `u`)."""

    def __init__(self, source: str, flags: str) -> None:
        self.u = "u" in flags
        self.ic = "i" in flags
        self.ml = "m" in flags
        self.dotall = "s" in flags
        text = from_units(to_units(source)) if self.u else to_units(source)
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
            raise Unsupported("huge quantifier")
        return ("rep", atom, mn, mx, lazy)

    def literal(self, cp: int):
        ranges = [(cp, cp)]
        if self.ic:
            ranges = case_closure(ranges, self.u)
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
            return ("set", LINE_TERMINATORS, True)
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

    def _modifier_group(self) -> tuple:
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

    def _class_escape_ranges(self, letter: int) -> tuple[Ranges, bool]:
        """\\d \\D \\s \\S \\w \\W (and \\p{..} with `u`) as (ranges, negated)."""
        lower = letter | 0x20
        negated = letter != lower
        if lower == 0x64:
            return DIGIT_RANGES, negated
        if lower == 0x73:
            return WS_RANGES, negated
        if lower == 0x77:
            return (WORD_RANGES_UI if self.u and self.ic else WORD_RANGES), negated
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
            ranges = property_ranges(name)
            if negated:
                ranges = complement(ranges)
            # Case-insensitively, \P{..} matches what folds like any character outside the property.
            category = GC_NAMES.get(name.partition("=")[2] or name)
            if self.ic and category not in CASELESS_PROPERTIES:
                ranges = case_closure(ranges, True)
            return ranges, False
        raise JsSyntaxError("Invalid class escape")
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
                byte = int(chr(self.c[self.i]) + chr(self.c[self.i + 1]), 16)
                self.i += 2
                return byte
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
            code_point = int("".join(map(chr, self.c[self.i + 1:end])), 16)
            if code_point > MAX_CP:
                raise JsSyntaxError("Invalid Unicode escape")
            self.i = end + 1
            return code_point
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

    def char_class(self) -> tuple:
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
        ranges = merge(items)
        if self.ic and ranges:
            ranges = case_closure(ranges, self.u)
        if closed:
            ranges = merge(ranges + closed)
        return ("set", ranges, negated)

    def class_atom(self) -> int | Ranges:
        first = self.c[self.i]
        self.i += 1
        if first != 0x5C:
            return first
        ch = self.peek()
        if ch is None:
            raise JsSyntaxError("\\ at end of pattern")
        if ch == 0x62:
            self.i += 1
            return 0x08
        if ch in (0x64, 0x44, 0x73, 0x53, 0x77, 0x57) or (ch in (0x70, 0x50) and self.u):
            self.i += 1
            ranges, negated = self._class_escape_ranges(ch)
            return complement(ranges) if negated else list(ranges)
        if ch == 0x63:
            nxt = self.peek(1)
            if nxt is not None and (_is_letter(nxt) or (not self.u and (_is_digit(nxt) or nxt == 0x5F))):
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


def lit(cp: int) -> str:
    if 0x30 <= cp <= 0x39 or 0x41 <= cp <= 0x5A or 0x61 <= cp <= 0x7A:
        return chr(cp)
    if cp < 0x100:
        return "\\x%02x" % cp
    if cp < 0x10000:
        return "\\u%04x" % cp
    return "\\U%08x" % cp


def clip(ranges: Ranges, top: int) -> Ranges:
    if not ranges or ranges[-1][1] <= top:
        return ranges
    return [(lo, min(hi, top)) for lo, hi in ranges if lo <= top]


def set_source(ranges: Ranges, negated: bool, top: int = MAX_CP) -> str:
    """A Python class for the set, ignoring code points above `top` (absent from the text)."""
    ranges = clip(ranges, top)
    if not ranges:
        # One character wide either way (lookbehinds need the width).
        return "[\\x00-\\U0010ffff]" if negated else "[^\\x00-\\U0010ffff]"
    if not negated and len(ranges) == 1 and ranges[0][0] == ranges[0][1]:
        return lit(ranges[0][0])
    parts = []
    for lo, hi in ranges:
        if lo == hi:
            parts.append(lit(lo))
        elif hi == lo + 1:
            parts.append(lit(lo) + lit(hi))
        else:
            parts.append(lit(lo) + "-" + lit(hi))
    return "[" + ("^" if negated else "") + "".join(parts) + "]"

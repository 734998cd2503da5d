"""Character sets of the JavaScript-regex compiler: code point ranges, Unicode properties, case folding."""

from __future__ import annotations

from collections.abc import Iterable

from openclaw_cli.js.regex.errors import Unsupported
from openclaw_cli.js.regex.unicode import UNICODE_C_RANGES, UNICODE_Z_RANGES
from openclaw_cli.js.strings import JS_WHITESPACE

MAX_CP = 0x10FFFF


# --------------------------------------------------------------------------------------------
# Character sets: sorted, merged lists of inclusive (lo, hi) code point ranges.

Ranges = list  # list[tuple[int, int]]


def merge(ranges: Iterable[tuple[int, int]]) -> Ranges:
    out: Ranges = []
    for lo, hi in sorted(ranges):
        if out and lo <= out[-1][1] + 1:
            if hi > out[-1][1]:
                out[-1] = (out[-1][0], hi)
        else:
            out.append((lo, hi))
    return out


def complement(ranges: Ranges, top: int = MAX_CP) -> Ranges:
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


WS_RANGES = merge((ord(c), ord(c)) for c in JS_WHITESPACE)
DIGIT_RANGES: Ranges = [(0x30, 0x39)]
WORD_RANGES: Ranges = [(0x30, 0x39), (0x41, 0x5A), (0x5F, 0x5F), (0x61, 0x7A)]
# With both `u` and `i`, \w also holds the two characters that case-fold into it.
WORD_RANGES_UI: Ranges = merge(WORD_RANGES + [(0x17F, 0x17F), (0x212A, 0x212A)])
LINE_TERMINATORS: Ranges = [(0x0A, 0x0A), (0x0D, 0x0D), (0x2028, 0x2029)]

_property_cache: dict[str, Ranges] = {}


def _category_ranges(prefix: str) -> Ranges:
    """General_Category ranges from Python's Unicode tables (C and Z: OpenClaw's)."""
    if prefix in _property_cache:
        return _property_cache[prefix]
    if prefix == "C":
        ranges = _parse_hex_ranges(UNICODE_C_RANGES)
    elif prefix == "Z":
        ranges = _parse_hex_ranges(UNICODE_Z_RANGES)
    else:
        import unicodedata

        found: list[tuple[int, int]] = []
        start = -1
        for cp in range(MAX_CP + 2):
            ok = cp <= MAX_CP and unicodedata.category(chr(cp)).startswith(prefix)
            if ok and start < 0:
                start = cp
            elif not ok and start >= 0:
                found.append((start, cp - 1))
                start = -1
        ranges = found
    _property_cache[prefix] = ranges
    return ranges


GC_NAMES = {
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


def property_ranges(name: str) -> Ranges:
    key, sep, value = name.partition("=")
    if sep:
        if key not in ("General_Category", "gc"):
            raise Unsupported(f"property {name}")
        name = value
    if name == "Any":
        return [(0, MAX_CP)]
    if name == "ASCII":
        return [(0, 0x7F)]
    code = GC_NAMES.get(name)
    if code is None:
        raise Unsupported(f"property {name}")
    if code == "LC":
        return merge(_category_ranges("Lu") + _category_ranges("Ll") + _category_ranges("Lt"))
    if code == "Cn":
        assigned = merge(complement(_category_ranges("C")) + _category_ranges("Cc")
                          + _category_ranges("Cf") + _category_ranges("Cs")
                          + _category_ranges("Co"))
        return complement(assigned)
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


CASELESS_PROPERTIES = frozenset({"C", "Cc", "Cf", "Cs", "Co", "Cn", "Z", "Zs", "Zl", "Zp"})


def case_closure(ranges: Ranges, unicode: bool) -> Ranges:
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
    out = merge(list(ranges) + extra)
    if unicode:
        for group in ((0x53, 0x73, 0x17F), (0x4B, 0x6B, 0x212A)):
            if any(_contains(out, cp) for cp in group):
                out = merge(out + [(cp, cp) for cp in group])
    top = MAX_CP if unicode else 0xFFFF
    inside = [(max(lo, 0x80), min(hi, top)) for lo, hi in out if hi >= 0x80 and lo <= top]
    outside = [(max(lo, 0x80), min(hi, top)) for lo, hi in complement(out, top) if hi >= 0x80]
    smaller = inside if _count(inside) <= _count(outside) else outside
    # With `u`, the groups of U+017F and U+212A were completed above.
    settled = (0x17F, 0x212A) if unicode else ()
    if _count(smaller) <= 4096 and not any(
            _is_cased(cp) and cp not in settled for lo, hi in smaller for cp in range(lo, hi + 1)):
        return out
    add: list[tuple[int, int]] = []
    for case_group in _groups(unicode):
        if any(_contains(out, cp) for cp in case_group):
            add.extend((cp, cp) for cp in case_group)
    return merge(out + add) if add else out

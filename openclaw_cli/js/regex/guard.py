"""The safe-regex guard for configured patterns: nested repetition is refused before compiling."""

from __future__ import annotations

from openclaw_cli.js.regex.units import to_units

_INF = float("inf")


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


def _guard_tokens(src: str) -> list[tuple]:
    """The pattern as the guard sees it: simple atoms, groups, alternations, quantifiers."""
    tokens: list[tuple] = []
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
    return tokens


def _frame() -> dict:
    return {"last": None, "rep": False, "has_alt": False, "bmin": 0, "bmax": 0,
            "amin": None, "amax": None}


def _record_alt(f: dict) -> None:
    if f["amin"] is None or f["amax"] is None:
        f["amin"], f["amax"] = f["bmin"], f["bmax"]
    else:
        f["amin"] = _js_min(f["amin"], f["bmin"])
        f["amax"] = _js_max(f["amax"], f["bmax"])


def _emit(f: dict, token: dict) -> None:
    f["last"] = token
    if token["rep"]:
        f["rep"] = True
    f["bmin"] = _add_length(f["bmin"], token["min"])
    f["bmax"] = _add_length(f["bmax"], token["max"])


def _close_group(frames: list[dict]) -> None:
    if len(frames) <= 1:
        return
    f = frames.pop()
    if f["has_alt"]:
        _record_alt(f)
    gmin = (f["amin"] if f["amin"] is not None else 0) if f["has_alt"] else f["bmin"]
    gmax = (f["amax"] if f["amax"] is not None else 0) if f["has_alt"] else f["bmax"]
    _emit(frames[-1], {"rep": f["rep"],
                       "amb": f["has_alt"] and f["amin"] is not None and f["amax"] is not None
                       and f["amin"] != f["amax"],
                       "min": gmin, "max": gmax})


def _quantify(f: dict, q_min: float, q_max: float | None) -> bool:
    """Apply a quantifier to the last atom; True when that makes a nested repetition."""
    prev = f["last"]
    if not prev:
        return False
    if prev["rep"]:
        return True
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


def has_nested_repetition(source: str) -> bool:
    """OpenClaw's safe-regex check: a repeated atom that itself repeats (or an ambiguous
    alternation under an unbounded quantifier)."""
    frames = [_frame()]
    for token in _guard_tokens(to_units(source)):
        kind = token[0]
        if kind == "simple":
            _emit(frames[-1], {"rep": False, "amb": False, "min": 1, "max": 1})
        elif kind == "open":
            frames.append(_frame())
        elif kind == "close":
            _close_group(frames)
        elif kind == "alt":
            f = frames[-1]
            f["has_alt"] = True
            _record_alt(f)
            f["bmin"] = 0
            f["bmax"] = 0
            f["last"] = None
        elif _quantify(frames[-1], token[1], token[2]):
            return True
    return False

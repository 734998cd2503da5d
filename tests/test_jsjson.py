"""jsjson against Node: JSON.parse / JSON.stringify round trips on generated texts."""

from __future__ import annotations

import json
import math
import random
import struct
import subprocess
from pathlib import Path

import pytest

from openclaw_cli.js import json as jsjson

NODE_ROUND_TRIP = r"""
const fs = require("fs");
const lines = fs.readFileSync(process.argv[2], "utf8").split("\n");
const out = [];
for (const line of lines) {
  if (!line) continue;
  const text = Buffer.from(line.slice(1), "hex").toString("utf8");
  let row;
  try {
    const v = JSON.parse(text);
    const pretty = JSON.stringify(v, null, 2);
    const compact = JSON.stringify(v);
    row = "1 " + Buffer.from(pretty, "utf8").toString("hex") + " " +
      Buffer.from(compact === undefined ? "" : compact, "utf8").toString("hex");
  } catch (e) {
    row = "0";
  }
  out.push(row);
}
fs.writeFileSync(process.argv[3], out.join("\n"));
"""


def node_round_trip(reference, tmp_path: Path, texts: list[str]) -> list[tuple[bytes, bytes] | None]:
    src = tmp_path / "in.txt"
    dst = tmp_path / "out.txt"
    script = tmp_path / "rt.js"
    script.write_text(NODE_ROUND_TRIP)
    src.write_text("\n".join("h" + jsjson.js_utf8(t).hex() for t in texts))
    node = reference.reference_node_bin_dir() / "node"
    subprocess.run([str(node), str(script), str(src), str(dst)], check=True, timeout=300)
    rows = []
    for line in dst.read_text().split("\n"):
        parts = line.split(" ")
        if parts[0] == "0":
            rows.append(None)
        else:
            rows.append((bytes.fromhex(parts[1]), bytes.fromhex(parts[2])))
    assert len(rows) == len(texts)
    return rows


def ours(text: str) -> tuple[bytes, bytes] | None:
    try:
        value = jsjson.loads(text)
    except ValueError:
        return None
    return jsjson.dumps_pretty_bytes(value), jsjson.dumps_compact_bytes(value)


def compare(reference, tmp_path, texts):
    expected = node_round_trip(reference, tmp_path, texts)
    mismatches = []
    for text, exp in zip(texts, expected):
        got = ours(text)
        if got != exp:
            mismatches.append((text, exp, got))
    assert not mismatches, f"{len(mismatches)} of {len(texts)} differ; first: {mismatches[0]!r}"[:3000]


# ---------------------------------------------------------------------------------------
# generators

CHAR_POOL = (
    [chr(c) for c in range(0x20)] + ["\x7f", "\u2028", "\u2029", "\ufeff", "\xa0", "é", "ß",
                                     "\u0130", "中", "😀", "\U0010ffff", '"', "\\", "/", "a", "Z",
                                     "0", "9", " ", ":", ","]
)
SURROGATES = ["\ud800", "\udbff", "\udc00", "\udfff", "\ud83d", "\ude00"]


def rand_string(rng: random.Random) -> str:
    n = rng.choice([0, 1, 2, 5, 12, 40])
    return "".join(rng.choice(CHAR_POOL) for _ in range(n))


def string_literal(rng: random.Random, s: str) -> str:
    """A JSON string literal for `s`, with a random escaping style per character."""
    out = ['"']
    for ch in s:
        o = ord(ch)
        if ch == '"':
            out.append('\\"')
        elif ch == "\\":
            out.append("\\\\")
        elif o < 0x20 or 0xD800 <= o <= 0xDFFF or rng.random() < 0.1:
            if o > 0xFFFF:
                hi, lo = divmod(o - 0x10000, 0x400)
                out.append("\\u%04x\\u%04X" % (0xD800 + hi, 0xDC00 + lo))
            else:
                out.append(rng.choice(["\\u%04x", "\\u%04X"]) % o)
        elif ch == "/" and rng.random() < 0.5:
            out.append("\\/")
        else:
            out.append(ch)
    if rng.random() < 0.1:
        out.append("\\u%04x" % ord(rng.choice(SURROGATES)))
    out.append('"')
    return "".join(out)


def rand_float(rng: random.Random) -> float:
    while True:
        r = rng.random()
        if r < 0.4:
            f = struct.unpack("<d", rng.getrandbits(64).to_bytes(8, "little"))[0]
        elif r < 0.7:
            f = rng.uniform(-1, 1) * 10.0 ** rng.randint(-30, 30)
        elif r < 0.85:
            f = rng.uniform(-1e-5, 1e-5)
        else:
            f = round(rng.uniform(-1e6, 1e6), rng.randint(0, 8))
        if math.isfinite(f):
            return f


def number_literal(rng: random.Random) -> str:
    r = rng.random()
    if r < 0.25:
        return str(rng.randint(-10**6, 10**13))
    if r < 0.35:
        return str(rng.choice([1, -1]) * rng.randint(2**53 - 5, 2**53 + 5))
    if r < 0.45:
        return str(rng.randint(-10**30, 10**30))
    if r < 0.75:
        f = rand_float(rng)
        text = repr(f)
        return text.replace("e+", rng.choice(["e+", "e", "E+", "E"])) if "e+" in text else text
    return rng.choice(["-0", "-0.0", "0.0", "5.0", "5.000", "1e5", "1E5", "1e+5", "1e-5",
                       "1e400", "-1e400", "1e21", "1e20", "123456789012345680000",
                       "12345678901234567890", "4.99999999999999999", "0.1e-6", "1.5e-6",
                       "2e-7", "1e-324", "9007199254740993", "100e-2", "0e0", "-0e+0"])


def key_literal(rng: random.Random) -> str:
    r = rng.random()
    if r < 0.25:
        k = rng.choice(["0", "1", "2", "10", "9", "01", "-1", "4294967294", "4294967295",
                        "4294967296", "9007199254740993", "1.5", " 1", "1 ", "00", "１"])
    elif r < 0.35:
        k = rng.choice(["__proto__", "constructor", "toString", "a", "b"])
    else:
        k = rand_string(rng)
    return string_literal(rng, k)


WS = ["", "", "", " ", "\n", "\t", "\r\n", "  "]


def value_text(rng: random.Random, depth: int = 0) -> str:
    r = rng.random()
    ws = lambda: rng.choice(WS)  # noqa: E731
    if depth < 4 and r < 0.25:
        members = []
        keys = []
        for _ in range(rng.randint(0, 6)):
            k = rng.choice(keys) if keys and rng.random() < 0.15 else key_literal(rng)
            keys.append(k)
            members.append(ws() + k + ws() + ":" + ws() + value_text(rng, depth + 1) + ws())
        return "{" + ",".join(members) + ws() + "}"
    if depth < 4 and r < 0.4:
        return "[" + ",".join(ws() + value_text(rng, depth + 1) + ws()
                              for _ in range(rng.randint(0, 6))) + ws() + "]"
    if r < 0.6:
        return string_literal(rng, rand_string(rng))
    if r < 0.9:
        return number_literal(rng)
    return rng.choice(["true", "false", "null"])


# ---------------------------------------------------------------------------------------
# tests


def test_generated_round_trips_match_node(reference, tmp_path):
    rng = random.Random(20260701)
    texts = [value_text(rng) for _ in range(6000)]
    # whole-document forms too: an object at the root with nested values
    texts += ["{" + ",".join(key_literal(rng) + ":" + value_text(rng, 1) for _ in range(8)) + "}"
              for _ in range(1000)]
    # and damaged ones: most become invalid, both sides must agree on which
    for text in texts[:1500]:
        if text:
            i = rng.randrange(len(text))
            texts.append(text[:i] + rng.choice(["", ",", "}", '"', "\\", "0", "-", " "]) + text[i + 1:])
    compare(reference, tmp_path, texts)


def test_floats_match_node(reference, tmp_path):
    rng = random.Random(7)
    floats = [rand_float(rng) for _ in range(60000)]
    floats += [1e21, 1e-7, 1e-6, 9.999999999999999e20, 1e-323, 5e-324, 1.7976931348623157e308,
               0.1, 0.2, 0.30000000000000004, 2.0**53, 2.0**53 + 2, 1.2345678901234568e20,
               1e-5, 9.99999e-6, 1.00001e-6, 9.999999999999999e-7]
    floats += [-f for f in floats[-17:]]
    texts = ["[" + ",".join(repr(f) for f in floats[i:i + 500]) + "]"
             for i in range(0, len(floats), 500)]
    compare(reference, tmp_path, texts)


def test_strings_match_node(reference, tmp_path):
    chars = [chr(c) for c in range(0x110000) if not 0xD800 <= c <= 0xDFFF]
    texts = [json.dumps("".join(chars[i:i + 4000])) for i in range(0, len(chars), 4000)]
    texts.append(json.dumps([chr(c) for c in range(0xD800, 0xE000)]))
    texts.append('["\\ud83d\\ude00", "\\ude00\\ud83d", "\\ud83d", "x\\udfffy", "\\uD83D\\uDE00"]')
    compare(reference, tmp_path, texts)


EDGE_TEXTS = [
    "", " ", "{}", "[]", "{ }", "[ ]", "null", "true", "false", "0", "-0", "-", "+1", ".5", "1.",
    "01", "1e", "1e+", "NaN", "Infinity", "-Infinity", "[NaN]", '{"a":Infinity}', "nan",
    "\ufeff{}", "{}\ufeff", "\x0c{}", "\x0b{}", "\xa0{}", "{}\u2028", "[1,]", "[,1]", '{"a":1,}',
    '{"a" 1}', "{'a':1}", '{"a":1}x', '{"a":1} ', "\t\n\r {} \t\n\r", '"\\x41"', '"\\u00"',
    '"\\u004G"', '"a\tb"', '"a\x7fb"', '"\\/"', "tru", "nul", "[1 2]", '{"a":1 "b":2}',
    '{"b":1,"a":2,"b":3}', '{"__proto__":1}', '{"__proto__":{"x":1},"y":2}',
    '{"1":1,"0":0,"a":2,"-0":3,"1.0":4,"4294967294":5,"4294967295":6}',
    '{"10":1,"9":2,"a":{"3":1,"2":{"1":[{"b":1,"0":2}]}}}', "[" * 150 + "]" * 150,
    "[" * 450 + "]" * 450, '{"a":' * 300 + "1" + "}" * 300, "1" * 400, "-" + "9" * 330,
    "0." + "0" * 400 + "1", "1e-400", "-1e-400", '"\\ud800"', '{"\\ud800":"\\udc00"}',
    '["\\u0000\\u001f\\u007f\\u2028\\u2029\\ufeff"]',
]


def test_edge_texts_match_node(reference, tmp_path):
    compare(reference, tmp_path, EDGE_TEXTS)


def test_loads_numbers_are_canonical():
    v = jsjson.loads("[5.0, -0, -0.0, 1e5, 12345678901234567890, 1e400, 1e21, 0.5]")
    assert v[:5] == [5, 0, 0, 100000, 12345678901234567000]
    assert [type(x) for x in v[:5]] == [int] * 5
    assert v[5] == math.inf and v[6] == 1e21 and type(v[6]) is float and v[7] == 0.5


def test_loads_key_order():
    v = jsjson.loads('{"b":1,"2":2,"a":{"z":1,"1":2},"1":3,"b":4}')
    assert list(v) == ["1", "2", "b", "a"] and v["b"] == 4
    assert list(v["a"]) == ["1", "z"]


def test_loads_rejects_js_invalid():
    for text in ["NaN", "[Infinity]", "-Infinity", "\ufeff{}", "[1,]", ""]:
        with pytest.raises(ValueError):
            jsjson.loads(text)


def test_is_array_index():
    assert jsjson.is_array_index("0") and jsjson.is_array_index("4294967294")
    for k in ["", "01", "-1", "4294967295", "1.0", " 1", "１", "a"]:
        assert not jsjson.is_array_index(k)


def test_js_helpers():
    assert jsjson.js_trim("\ufeff\u2028 a \xa0\u3000") == "a"
    assert jsjson.js_trim("\x1c a") == "\x1c a"  # str.strip() would remove U+001C
    assert jsjson.js_utf16_len("a😀") == 3
    assert jsjson.js_utf8("a\ud800") == "a\ufffd".encode()
    assert jsjson.js_number(-0.0) == 0 and type(jsjson.js_number(-0.0)) is int
    assert jsjson.js_number(2**64) == 18446744073709552000
    assert jsjson.js_number(10**400) == math.inf


def test_dumps_falls_back_per_member():
    store = {"a": {"x": "\ud800"}, "b": {"y": [1, 2]}, "c": {}}
    assert jsjson.dumps_pretty(store) == (
        '{\n  "a": {\n    "x": "\\ud800"\n  },\n  "b": {\n    "y": [\n      1,\n      2\n'
        '    ]\n  },\n  "c": {}\n}')
    assert jsjson.dumps_compact(store) == '{"a":{"x":"\\ud800"},"b":{"y":[1,2]},"c":{}}'


def test_e6_fix_only_touches_numbers():
    value = {"s": "1.5e-6", "t": "x, 2e-6,", "n": 1.5e-6, "m": [2e-6, -3.25e-6], "k": 1e-60}
    assert jsjson.dumps_compact(value) == (
        '{"s":"1.5e-6","t":"x, 2e-6,","n":0.0000015,"m":[0.000002,-0.00000325],"k":1e-60}')
    assert '"n": 0.0000015,' in jsjson.dumps_pretty(value)


def test_canonicalize_python_built_values():
    value = {"b": 5.0, "2": [-0.0, 2**60, 1.5], "1": {"x": 1e20}}
    out = jsjson.canonicalize(value)
    assert jsjson.dumps_compact(out) == (
        '{"1":{"x":100000000000000000000},"2":[0,1152921504606847000,1.5],"b":5}')

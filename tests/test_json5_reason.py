"""Our reason for a config text that does not parse is npm json5's, word for word: its message, the
character as it shows it, its line and column; compared with json5 2.2.3 itself on generated texts."""

from __future__ import annotations

import json
import subprocess

import pytest
from helpers import refbin
from helpers.broken_json5 import BROKEN, generated_texts, node_json5_errors

from openclaw_cli.config import json5_chars
from openclaw_cli.config.json5 import Json5Error, parse_json5
from openclaw_cli.config.json5_reason import json5_failure


@pytest.fixture(autouse=True)
def _needs_node():
    if not refbin.reference_available():
        pytest.fail(refbin.missing_message())


def _ours(text: str) -> str | None:
    try:
        parse_json5(text)
    except Json5Error as exc:
        return str(exc)
    return None


@pytest.mark.reference
def test_generated_broken_texts_get_json5s_own_error():
    texts = generated_texts()
    theirs = node_json5_errors(texts)
    failing = [text for text, error in zip(texts, theirs) if error is not None]
    assert len(failing) >= 200
    kinds = {error.split(" at ")[0].split("'")[0] for error in theirs if error}
    assert {"SyntaxError: JSON5: invalid character ", "SyntaxError: JSON5: invalid end of input",
            "SyntaxError: JSON5: invalid identifier character"} <= kinds
    wrong = [(text, error, _ours(text)) for text, error in zip(texts, theirs) if _ours(text) != error]
    assert wrong == []


@pytest.mark.reference
def test_hand_made_texts_get_json5s_own_error():
    texts = [*BROKEN.values(),
             "", " \t", "{", "[", "[1,", '{"a"', '{"a":', "{a:1", '"abc', "'abc\n'", "/", "/x", "/* open", "{} //",
             "01", "-", "-x", "+.", "1e", "1e+", "0x", "0xg", ".e1", "nul", "tru", "Infinit", "-NaN0", "+-1",
             '"\\1"', '"\\01"', '"\\x4"', '"\\u12g4"', '"\\u12', "{\\u0030a: 1}", "{a\\u002e: 1}", "{a\\x41: 1}",
             "{\\x41: 1}", "{a b: 1}", "{1: 2}", "{a: 1 b: 2}", "[1 2]", "{a: 1,,}", "[,]", "{]", "[}", "{a: }",
             "1 2", "{} {}", "\ufeff\ufeff@", "\u2028\u2029\u3000\u1680@", "\u200b@", "\x00", "\x1f", "\x7f",
             "\r\n\r\n  @", "\r\r@", "\n\t\t@", "\U0001F99E\U0001F99E@", "'\U0001F99E\n", "{\U0001F99E: 1}",
             "{\U0001D465: 1, \U0001F99E: 2}", "{é\u0301: 1, \u0301: 2}", '"\u2028"x', "{'a': 'b'} ]", "\\",
             "{a: 1}\n// end\n@", "[\"\t\"]x", "{\"a\": \"\\\r\n\"} @"]
    theirs = node_json5_errors(texts)
    assert sum(error is not None for error in theirs) >= 70
    assert [(text, _ours(text)) for text in texts] == list(zip(texts, theirs))


@pytest.mark.reference
def test_texts_json5_accepts_are_accepted():
    texts = ["{a: 1,}", "[1, 2,]", "// c\n{}", "/* c */ 1", "{\\u0061b: 1}", "{$_: 1, \u00e9: 2, a\u200c: 3}",
             '"a\\\r\nb"', "'\u2028'", "\ufeff\u3000{}", "+Infinity", "-0x1F", ".5e-3", "5.", "{'a': \"b\"}",
             "{\U0001D465: 1}", "{a: 1} // end"]
    assert node_json5_errors(texts) == [None] * len(texts)
    assert [json5_failure(text) for text in texts] == [None] * len(texts)
    for text in texts:
        parse_json5(text)


_TABLES = """
const util = require(process.argv[1]);
const ranges = {};
for (const name of ['isIdStartChar', 'isIdContinueChar', 'isSpaceSeparator']) {
  const parts = [];
  let start = -1;
  for (let cp = 0; cp <= 0x110000; cp++) {
    const member = cp < 0x110000 && util[name](String.fromCodePoint(cp));
    if (member && start < 0) start = cp;
    if (!member && start >= 0) {
      parts.push(start === cp - 1 ? start.toString(16) : `${start.toString(16)}-${(cp - 1).toString(16)}`);
      start = -1;
    }
  }
  ranges[name] = parts.join(' ');
}
process.stdout.write(JSON.stringify(ranges));
"""


@pytest.mark.reference
def test_the_character_tables_are_json5s():
    node = refbin.reference_node_bin_dir()
    util = refbin.reference_dir() / "node_modules" / "json5" / "lib" / "util.js"
    done = subprocess.run([str(node / "node"), "-e", _TABLES, str(util)], capture_output=True, text=True,
                          check=True, timeout=120)
    ranges = json.loads(done.stdout)
    assert ranges["isIdStartChar"] == json5_chars.ID_START_RANGES
    assert ranges["isIdContinueChar"] == json5_chars.ID_CONTINUE_RANGES
    assert ranges["isSpaceSeparator"] == json5_chars.SPACE_RANGES


def test_the_reason_needs_no_node():
    assert json5_failure('{\n  "a": @1\n}\n') == "JSON5: invalid character '@' at 2:8"
    assert json5_failure("{\r\n\t\U0001F99E") == "JSON5: invalid character '\U0001F99E' at 2:3"
    assert json5_failure('"\n"') == "JSON5: invalid character '\\n' at 2:0"
    assert json5_failure("{a: 1") == "JSON5: invalid end of input at 1:6"
    assert json5_failure("{\\u0030: 1}") == "JSON5: invalid identifier character at 1:2"
    assert json5_failure("\x01") == "JSON5: invalid character '\\x01' at 1:1"
    with pytest.raises(Json5Error) as info:
        parse_json5("{a: @}")
    assert str(info.value) == "SyntaxError: JSON5: invalid character '@' at 1:5"
    assert info.value.message == "JSON5: invalid character '@' at 1:5"

"""Config texts that do not parse, each broken differently, and npm json5 run once on many texts."""

from __future__ import annotations

import json
import random
import subprocess

from helpers import refbin

# Each stops json5 in its own way: the character, the end of input, an escape, an identifier; and
# before the error what moves its line and column (tabs, CRLF, non-ASCII, astral, U+2028).
BROKEN = {
    "stray character": '{\n  "session": {"dmScope": @"main"}\n}\n',
    "unterminated string": '{\n  "session": {\n    "dmScope": "main\n  }\n}\n',
    "end of input": '{\n  // settings\n  session: {dmScope: "main"},\n',
    "bad escape": '{\n  "session": {"dmScope": "ma\\x4gin"}\n}\n',
    "tab and CRLF before the error": '{\r\n\t"session": {\r\n\t\t"dmScope": "main",,\r\n\t}\r\n}\r\n',
    "non-ASCII before the error": '{\n  // réglages — été\n  "session": {"dmScope": "mäin" #}\n}\n',
    "astral before the error": '{\n  "agents": {"list": [{"id": "main", "name": "🦞🦞"} }]}\n}\n',
    "bad identifier": '{\n  session: {\\u0031dmScope: "main"}\n}\n',
    "line separator before the error": '{\n  // c\u2028x\n  "session": {dmScope: "main"} ]\n}\n',
    "C1 control": '{\n  "session": \x9b31m\n}\n',
    "empty file": "",
}

_BASES = (
    '{\n  "a": 1,\n  "b": [true, false, null],\n  "c": {"d": "e\\n\\u00e9"}\n}\n',
    "// head\r\n{\r\n\tagents: {list: [{id: 'main', x: +1.5e3, y: 0x1F, z: .5, w: 5., n: -Infinity, m: NaN}]},\r\n}\r\n",
    '{\n  "näme": "ü\u2028x", /* c */ $k_1: \'\U0001F600\', \u00e9t\u00e9: [1, 2,],\n}',
    '{\ufeff \u00a0\u3000 "s": "a\\\r\nb\\x41\\0\\\'", \\u0061b: 1}',
    '["\U0001F600\U0001F601", \'q"\', -0, 1e-3, 0.0e+0, "\u2029"]',
    "{a\u200cb: 1, _: 2, \\u0041: 3, \u0915\u093f: 4}",
)
_INSERTED = (*'{}[]:,"\'\\/*@#-+.0129eExXuIN \t\n\r', "\u2028", "\x00", "\x07", "\x1b", "\x7f", "\x85", "\u00e9",
             "\U0001F600", "\u0301", "\u200d", "\ufeff", "\u3000", "\ud800")


def generated_texts(count: int = 600, seed: int = 20260906) -> list[str]:
    """`count` texts, the same every run: JSON5 configs with a character inserted, removed or
    replaced, or cut short (most no longer parse)."""
    rnd = random.Random(seed)
    texts = []
    for _ in range(count):
        text = rnd.choice(_BASES)
        at = rnd.randrange(len(text) + 1)
        edit = rnd.randrange(4)
        if edit == 0:
            text = text[:at] + rnd.choice(_INSERTED) + text[at:]
        elif edit == 1:
            text = text[:at] + text[at + 1:]
        elif edit == 2:
            text = text[:at]
        else:
            text = text[:at] + rnd.choice(_INSERTED) + text[at + 1:]
        texts.append(text)
    return texts


_RUN = """
const JSON5 = require(process.argv[1]);
const texts = JSON.parse(require('fs').readFileSync(0, 'utf8'));
console.warn = () => {};
process.stdout.write(JSON.stringify(texts.map((text) => {
  try { JSON.parse(text); return null; } catch {}
  try { JSON5.parse(text); return null; } catch (err) { return String(err); }
})));
"""


def node_json5_errors(texts: list[str]) -> list[str | None]:
    """What OpenClaw's parse gives each text, in one node run: `String(err)` of npm json5's error
    (JSON.parse tried first), None when it parses."""
    node = refbin.reference_node_bin_dir()
    assert node is not None, refbin.missing_message()
    package = refbin.reference_dir() / "node_modules" / "json5"
    done = subprocess.run([str(node / "node"), "-e", _RUN, str(package)], input=json.dumps(texts),
                          capture_output=True, text=True, check=True, timeout=120)
    return json.loads(done.stdout)

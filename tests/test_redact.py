"""Console redaction: unit checks and a differential run against the reference implementation."""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import tempfile
import time
from pathlib import Path

import pytest
from helpers.references import every_file_era_release

from openclaw_cli.js.regex import JsSyntaxError, compile_js_regex
from openclaw_cli.js.regex import from_units as _from_units
from openclaw_cli.js.regex import has_nested_repetition as _has_nested_repetition
from openclaw_cli.js.regex import to_units as _to_units
from openclaw_cli.js.regex.unicode import UNICODE_C_RANGES, UNICODE_Z_RANGES
from openclaw_cli.ui.redact import patterns as redact_patterns
from openclaw_cli.ui.redact.engine import (
    derived_tables,
    redact_console_text,
    redact_lines,
)

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "data" / "redact"
REFERENCE_DIR = Path(os.environ.get("OPENCLAW_REFERENCE_DIR", ROOT / ".reference"))
DIST = REFERENCE_DIR / "node_modules" / "openclaw" / "dist"
WANTED_EXPORTS = {
    "redact": "redactSensitiveText",
    "register": "registerSecretValueForRedaction",
    "defaults": "getDefaultRedactPatterns",
}


# ---------------------------------------------------------------------------------------------
# Reference plumbing.


def _node_binary() -> Path:
    found = sorted((REFERENCE_DIR / "node_modules").glob("node-linux-*/bin/node"))
    if not found:
        raise AssertionError(f"reference Node runtime missing under {REFERENCE_DIR}")
    return found[0]


def _redact_module() -> tuple[Path, dict[str, str]]:
    """The dist chunk exporting the redaction functions, and their export letters."""
    export_re = re.compile(r"export\s*\{([^}]*)\}\s*;?\s*$")
    for path in sorted(DIST.glob("redact-*.js")):
        text = path.read_text(encoding="utf-8")
        m = export_re.search(text)
        if not m:
            continue
        letters = {}
        for item in m.group(1).split(","):
            local, _, exported = item.strip().partition(" as ")
            letters[local.strip()] = exported.strip()
        if all(name in letters for name in WANTED_EXPORTS.values()):
            return path, {key: letters[name] for key, name in WANTED_EXPORTS.items()}
    raise AssertionError(f"reference redaction module not found in {DIST}")


def run_reference(cases: list[dict], with_defaults: bool = False) -> list[dict]:
    module, letters = _redact_module()
    with tempfile.TemporaryDirectory() as work:
        cases_path = Path(work) / "cases.json"
        cases_path.write_text(json.dumps(cases, ensure_ascii=True), encoding="utf-8")
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": work, "TZ": "UTC",
               "REDACT_EXPORTS": json.dumps(letters)}
        args = [str(_node_binary()), str(DATA / "harness.mjs"), str(module), str(cases_path), work]
        if with_defaults:
            args.append("--defaults")
        proc = subprocess.run(args, env=env, capture_output=True, text=True, timeout=600)
        assert proc.returncode == 0, proc.stderr
        return json.loads((Path(work) / "results.json").read_text(encoding="utf-8"))


def run_python(case: dict) -> dict:
    try:
        return {"text": redact_console_text(case["text"], case.get("cfg"), case.get("secrets", ()))}
    except TypeError:
        return {"error": "TypeError"}


# ---------------------------------------------------------------------------------------------
# Case generation.

ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
LOWER_ALNUM = "abcdefghijklmnopqrstuvwxyz0123456789"
HEXD = "0123456789abcdef"
ODD_CHARS = [
    "é", "É", "ß", "ſ", "\u212a", "ı", "İ", "Σ", "ς", "😀", "𝒜", "\u200b", "\u00a0", "\u2028",
    "\u3000", "\ufeff", "\t", "\n", "\r\n", "\x1b[36m", "\x1b[0m", "\ud83d", "\ude00", "\u0085",
    "…", "→", "中文", "\U000e0041", "\uffa0", "\u3164", "+", "%20", "%", "&", "=", "?", "\"", "'",
    "`", ";", ",", ")", "}", "]", "\\",
]
MODELS = ["gpt-5.4", "claude-opus-4-6", "anthropic/claude-sonnet-4-5", "openai/gpt-4o-mini",
          "gemini-2.5-pro", "ollama/llama3.3:70b", "-", "xai/grok-4", "deepseek-chat"]
KINDS = ["direct", "group", "global", "unknown", "cron"]
CHANNELS = ["telegram", "whatsapp", "discord", "slack", "signal", "imessage", "webchat"]


def _rand(rng: random.Random, alphabet: str, n: int) -> str:
    return "".join(rng.choice(alphabet) for _ in range(n))


def _uuid(rng: random.Random) -> str:
    h = _rand(rng, HEXD, 32)
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


def session_row(rng: random.Random) -> str:
    channel = rng.choice(CHANNELS)
    key = rng.choice([
        f"agent:main:{channel}:dm:{rng.randint(1, 10**12)}",
        f"agent:{rng.choice(['main', 'work', 'ops'])}:{channel}:group:{_rand(rng, LOWER_ALNUM, 12)}",
        "agent:main:main", f"cron:{_uuid(rng)}", f"agent:main:subagent:{_uuid(rng)}",
    ])
    age = rng.choice(["just now", f"{rng.randint(1, 59)}m ago", f"{rng.randint(1, 23)}h ago",
                      f"{rng.randint(1, 400)}d ago"])
    tokens = f"{rng.randint(0, 999)}k/{rng.choice([128, 200, 400, 1000])}k ({rng.randint(0, 100)}%)"
    cols = [rng.choice(KINDS).ljust(7), key.ljust(rng.randint(20, 44)), age.ljust(9),
            rng.choice(MODELS).ljust(rng.randint(12, 28)), tokens.ljust(16)]
    if rng.random() < 0.8:
        cols.append(_uuid(rng))
    if rng.random() < 0.3:
        cols.append(rng.choice(["system", "thinking:high", "verbose", "elevated", "id:" + _uuid(rng)]))
    return " ".join(cols).rstrip()


def _secretish(rng: random.Random, n: int | None = None) -> str:
    return _rand(rng, ALNUM, n if n is not None else rng.choice([3, 5, 8, 12, 17, 18, 19, 24, 40]))


def provider_tokens(rng: random.Random) -> list[str]:
    a = lambda n: _rand(rng, ALNUM, n)  # noqa: E731
    la = lambda n: _rand(rng, LOWER_ALNUM, n)  # noqa: E731
    h = lambda n: _rand(rng, HEXD, n)  # noqa: E731
    u = lambda n: _rand(rng, ALNUM + "_-", n)  # noqa: E731
    return [
        "sk-" + u(rng.randint(6, 48)), "sk-proj-" + u(40), "ghp_" + a(36),
        "github_pat_" + a(22) + "_" + a(20),
        "gho_" + a(12), "ghu_" + a(9), "ghs_" + a(30), "ghr_" + a(14), "glpat-" + u(20), "glpat-" + u(19),
        "gloas-" + h(32), "xoxb-" + a(10) + "-" + a(12), "xapp-1-" + a(20),
        "https://hooks.slack.com/services/T" + a(8).upper() + "/B" + a(8).upper() + "/" + a(24),
        "https://discord.com/api/webhooks/" + str(rng.randint(10**17, 10**19)) + "/" + u(68),
        "discord token " + u(24) + "." + u(6) + "." + u(27), "gsk_" + u(30), "AIza" + u(35),
        "ya29." + u(40), "1//0" + u(30), "eyJ" + u(20) + "." + u(30) + "." + u(22), "pplx-" + u(30),
        "fal_" + u(20), "fc-" + a(rng.choice([9, 10, 11, 32])), "bb_live_" + u(20),
        "gAAAA" + u(30), "data:x;base64,gAAAA" + u(30), "data:x;base64,AAA+gAAAA" + u(30),
        "sk_live_" + a(24), "sk_test_" + a(9), "rk_live_" + a(24), "SG." + u(22) + "." + u(43),
        "npm_" + a(36), "pypi-" + u(50), "dop_v1_" + a(64), "doo_v1_" + a(20), "dor_v1_" + a(20),
        "dp.pt." + a(43), "dp.st." + a(40), "dp.st.dev_x." + a(44), "dckr_pat_" + u(27),
        "bkua_" + la(40), "CCIPAT_" + a(22) + "_" + h(40), "sbp_" + la(40), "dapi" + h(32),
        "dapi" + h(32) + "-2", "ddp_" + a(36), "glsa_" + a(32) + "_" + a(8), "glc_eyJ" + a(80),
        "nfp_" + a(36), "CFPAT-" + u(43), "ATCTT3xFfG" + u(30) + "=" + a(8), "ATATT" + u(40) + "=" + a(8),
        "ATBB" + u(28), "BBDC-" + u(44), "HRKU-AA" + u(30), "pat-na1-" + a(8) + "-" + a(4) + "-" + a(4)
        + "-" + a(4) + "-" + a(12), "apify_api_" + a(36), "FlyV1 fm2_" + u(120), "fio-u-" + u(48),
        "x am_" + u(20), "xam_" + u(20), "sk_" + a(20), "tvly-" + a(30), "exa_" + a(20), "syt_" + a(30),
        "retaindb_" + a(20), "hsk-" + a(20), "mem0_" + a(30), "brv_" + a(20), "xai-" + a(40),
        "fw-" + a(32), "fw_" + a(31), "fpk_" + a(30), "AKIA" + a(16).upper(), "ASIA" + a(16).upper(),
        "AKID" + a(20), "LTAI" + a(20), "hf_" + a(34), "api_org_" + a(30), "r8_" + a(40),
        "bot" + str(rng.randint(10**6, 10**10)) + ":" + u(35),
        str(rng.randint(10**5, 10**10)) + ":" + u(rng.choice([19, 20, 35])),
    ]


ENV_KEYS = ["OPENAI_API_KEY", "TOKEN", "GITHUB_TOKEN", "DB_PASSWORD", "MY_SECRET", "PASSWD",
            "CARD_NUMBER", "CARDCVC", "SECURITY-CODE", "PAYMENT_CREDENTIAL", "SHARED_PAYMENT_TOKEN",
            "api_key", "Token", "KEYS", "MONKEY", "XKEY_ID", "AUTH"]


def assignment_samples(rng: random.Random) -> list[str]:
    key = rng.choice(ENV_KEYS)
    v = _secretish(rng)
    sep = rng.choice(["=", ": ", " = ", ":", "=\t"])
    q = rng.choice(["", "'", '"', "`"])
    return [
        f"{key}{sep}{q}{v}{q}",
        f"export {key}={v} other",
        f"{key}=${key}", f"{key}=${{{key}}}", f"{key}=${{{key}:-}}", f"{key}=$OTHER_{key}",
        f"{key}={v}\\", f'{key}=\\"{v}\\"', f"{key}=\\\\'{v}\\\\'", f"env {key}='{v}';",
        f"token={v}", f"password=\"{v} with space\"", f" secret='{v}'", f",pass={v}", f"jwt=`{v}`",
        f"access_token={v}&refresh_token={v}", f"api-key={v}", f"credential={q}{v}{q}",
        f"code={v}&state=xyz", f"session={v}&x=1", f"card-number={v}", "token=***", "token=\"***\"",
        "TOKEN=${TOKEN}", "TOKEN=-}", f"client_secret={v}#frag", f"x=1 token={v}<br>",
    ]


def structured_samples(rng: random.Random) -> list[str]:
    v = _secretish(rng)
    k = rng.choice(["apiKey", "api_key", "token", "password", "cardNumber", "secret_value",
                    "privateKey", "APIKEY", "Token", "id_token", "notAKey"])
    return [
        f'{{"{k}": "{v}", "other": 1}}', f'"{k}":"{v}"', f"{{ '{k}': '{v}' }}", f"{k}: \"{v}\"",
        f"api-key = '{v}'", f"clientSecret=\"{v}\"", f'{{"authorization":"Bearer {v}"}}',
        f"cookie: \"sid={v}\"", f"set-cookie='{v}'", f"x-api-key=\"{v}\"", f"Proxy-Authorization: '{v}'",
        f"Authorization: Bearer {v}", f"authorization=bearer {v}", f"Authorization: Basic {v}==",
        f"Authorization: Bot {v}", f"X-OpenClaw-Token: {v}", f"x-auth-token={v},next",
        f"Bearer {v}", f"bearer {v}.{v}", f"--token {v}", f"--api-key \"{v}\"", f"--password '{v}'",
        "--token or --password", "--token and --x", f"--secret {v} --hook-token={v}",
        f"--card-number {v}", f"--private_key={v}",
    ]


def url_samples(rng: random.Random) -> list[str]:
    v = _secretish(rng)
    host = rng.choice(["example.com", "gw.local:18789", "10.0.0.1"])
    scheme = rng.choice(["https", "http", "wss", "ws", "ftp", "postgres", "postgresql", "mysql",
                         "mongodb+srv", "redis", "rediss", "amqp", "amqps", "file"])
    return [
        f"{scheme}://user:{v}@{host}/path", f"{scheme}://:{v}@{host}", f"{scheme}://user@{host}",
        f"https://{host}/cb?code={v}&state=1", f"https://{host}/x?token={v}#frag",
        f"https://{host}/x?a=1&Api-Key={v}", f"https://{host}/x?%74oken={v}",
        f"https://{host}/x?to%6Ben={v}&b=2", f"https://{host}/x?t\u200boken={v}",
        f"https://{host}/x?pass+word={v}", f"GET /x?X-Amz-Signature={v}&X-Amz-Security-Token={v}",
        f"a=1&password={v}", f"a=1&password={v}&b=2", f"user=me&pass={v}", f"body: \"password={v}\"",
        f"form body={v}", f"form_body: pass={v}", f"body=token%3D{v}", f"form: %70assword={v}",
        f"payload (grant_type=client_credentials&client_secret={v}&x=1)",
        f"line1\nuser=x&token={v}\r\nline3", f"[token%20={v}&x=1]", f"key\u00a0={v}&a=b",
        f"q=%zz&secret={v}", f"%E2%82%AC=1&token={v}", f"%C0%80=1&token={v}",
        f"a=1&to\u200bken={v}", f"&\u0000key={v}", f"?ke\u212ay={v}", f"? key={v}",
    ]


def pem_samples(rng: random.Random) -> list[str]:
    body = "\n".join(_rand(rng, ALNUM + "+/", 64) for _ in range(rng.randint(0, 3)))
    kind = rng.choice(["RSA ", "EC ", "", "OPENSSH ", "ENCRYPTED "])
    return [
        f"-----BEGIN {kind}PRIVATE KEY-----\n{body}\n-----END {kind}PRIVATE KEY-----",
        f"key: -----BEGIN {kind}PRIVATE KEY-----{body}-----END {kind}PRIVATE KEY----- tail",
        f"-----BEGIN PRIVATE KEY-----\r\n{body}\r\n-----END PRIVATE KEY-----",
        "-----begin private key-----x-----end private key-----",
        f"-----BEGIN PUBLIC KEY-----\n{body}\n-----END PUBLIC KEY-----",
    ]


def mutate(rng: random.Random, text: str) -> str:
    """Near misses and odd characters around an interesting string."""
    choice = rng.random()
    if choice < 0.25 or not text:
        return text
    if choice < 0.45:
        i = rng.randint(0, len(text))
        return text[:i] + rng.choice(ODD_CHARS) + text[i:]
    if choice < 0.55:
        return text[:-rng.randint(1, min(4, len(text)))]
    if choice < 0.65:
        return text.swapcase()
    if choice < 0.75:
        return rng.choice(["(", "[", "\"", "'", "x", "_", "-", ";base64,", "=", " ", "/", "+"]) + text \
            + rng.choice([")", "]", "\"", "'", "x", "_", "-", ".", " ", ",", ";", "\n"])
    if choice < 0.85:
        return rng.choice(ODD_CHARS) + text + rng.choice(ODD_CHARS)
    return session_row(rng) + " " + text


CUSTOM_PATTERN_SETS: list[list] = [
    ["fb9fb699"], ["/[a-z]+ore/"], ["/(token)=(\\w+)/"], ["session-[0-9a-f]{8}"], ["/sk-[a-z]+/u"],
    ["(a+)+", "(x|xy)*z", "(ab|cd)+"], ["/^Session/m", "/store$/"], ["/^agent/gm"],
    ["(?<k>key)\\s*[:=]\\s*(?<v>\\S+)"], ["\\bid\\b"], ["/é+/i"], ["/ſ/i"], ["/s+/iu"],
    ["/[k-m]+/iu"], ["/[^a-z]{3,}/i"], ["["], ["/a{2,1}/"], ["(?<=api_)[a-z0-9]{8,}"],
    ["(?<=\\bkey=)\\w+"], ["/x/y"], ["/ab/gy"], ["", "  "], ["/\\p{Lu}{3,}/u"], ["(?i:abc)def"],
    ["\\d{3}-\\d{4}"], ["a*"], ["x?"], ["/\\b/g"], ["/foo/gi"], ["/foo/gg"], ["/foo/x"], ["/foo/"],
    ["/ /"], ["fc-[a-z0-9]+", "([0-9a-f]{4})-([0-9a-f]{12})"], ["(\\d+)(m) ago"], ["(x)?y\\1"],
    ["(?:(a)|b)\\1c"], ["\\1(a)"], ["[\\d-z]+"], ["\\cJ", "\\c1"], ["\\x41|\\u0042|\\101"],
    ["a{,5}"], ["x{"], ["]"], ["/]/u"], ["\\k<n>(?<n>a)"], ["\\k"], ["\\8\\9"], ["/\\u{1F600}/u"],
    ["\\u{2}"], ["/[😀]/"], ["/[😀]/u"], ["/./su"], ["/[\\s\\S]{3}$/"], ["(?<!\\d)\\d{6}(?!\\d)"],
    ["(?<=a|bc)d"], ["(?<!ab|c)d+"], ["/(?<=^|\\s)[A-Z]{2,}/"], ["(?<=[a-z]+)\\d+"],
    ["(?<=\\w{2,})-"], ["(agent):(main)"], ["(?=main)ma"], ["(?!x)"], ["\\B\\w+\\B"],
    ["/[^]/"], ["/[]/"], ["(?-i:AGENT)"], ["/(?i:agent)/"], ["/(?s:a.b)/"], ["/(?m:^x)/"],
    ["(?<a>x)|(?<a>y)"], ["(?<a>x)(?<a>y)"], ["(?:(?<a>x)|(?<a>y))\\k<a>"], ["\\p{L}"],
    ["/\\P{L}+/u"], ["/[\\p{Z}]+/u"],
    ["/[\\w-]+/iu"], ["/\\W+/iu"], ["/\\bſ\\b/iu"], ["/k/i"], ["/K/iu"], ["/(x)\\1/iu"],
    ["/(a)\\1/i"], ["/[\\u212a]/i"], ["/[α-ω]+/i"], ["/ǅ/i"], ["/σ/iu"], ["/İ/iu"], ["/ı/i"],
    [1], ["ok", None], "abc", {"length": 0}, {"length": 2}, [], 7, True,
]


def default_plus(extra: list[str]) -> list[str]:
    return list(redact_patterns.DEFAULT_REDACT_PATTERNS) + extra


def configs(rng: random.Random) -> list:
    out: list = [None, {}, {"logging": {}}, {"logging": {"redactSensitive": "off"}},
                 {"logging": {"redactSensitive": "tools"}}, {"logging": {"redactSensitive": "OFF"}},
                 {"logging": "off"}, {"logging": None}, [], {"logging": {"redactSensitive": False}},
                 {"logging": {"redactSensitive": "off", "redactPatterns": ["x"]}},
                 {"logging": {"redactPatterns": default_plus(["fb9fb699", "/agent:[a-z]+/"])}},
                 {"logging": {"redactPatterns": default_plus([])[1:] + ["x"]}}]
    out += [{"logging": {"redactPatterns": p}} for p in CUSTOM_PATTERN_SETS]
    return out


def build_cases(seed: int = 20260701, rows: int = 1500) -> list[dict]:
    rng = random.Random(seed)
    cases: list[dict] = []
    for _ in range(rows):
        cases.append({"text": session_row(rng)})
    for _ in range(12):
        for text in provider_tokens(rng):
            cases.append({"text": mutate(rng, text)})
        for text in assignment_samples(rng) + structured_samples(rng) + url_samples(rng):
            cases.append({"text": mutate(rng, text)})
        for text in pem_samples(rng):
            cases.append({"text": mutate(rng, text)})
    # Every sample unmutated once, too.
    for text in (provider_tokens(rng) + assignment_samples(rng) + structured_samples(rng)
                 + url_samples(rng) + pem_samples(rng)):
        cases.append({"text": text})
    # Combinations on one line.
    for _ in range(300):
        parts = rng.sample(provider_tokens(rng) + assignment_samples(rng) + structured_samples(rng)
                           + url_samples(rng), 3)
        cases.append({"text": rng.choice([" ", "\t", " | ", "\n", ", ", "&", "; "]).join(parts)})
    # Random noise.
    alphabet = ALNUM + " _-=:/.&?%+\"'`,;(){}[]<>@#$\\\n\t" + "".join(ODD_CHARS[:20])
    for _ in range(400):
        cases.append({"text": _rand(rng, alphabet, rng.randint(1, 120))})
    cases += [{"text": t} for t in ["", " ", "\n", "***", "…", "\ud800", "a\ud800b", "😀" * 10]]
    # Long inputs: chunked replacement.
    for _ in range(3):
        filler = _rand(rng, ALNUM + " ", 16380)
        cases.append({"text": filler + " sk-" + _rand(rng, ALNUM, 30) + " " + filler + " ghp_"
                      + _rand(rng, ALNUM, 36) + " 123456789:" + _rand(rng, ALNUM, 30) + " " + filler})
    # Chunk boundaries (16384 UTF-16 units) through astral characters and secrets.
    secret = _rand(rng, ALNUM, 30)
    for cfg in (None, {"logging": {"redactPatterns": ["/😀/u", "/\\ud83d/", "/[^a]{3}/u"]}},
                {"logging": {"redactPatterns": default_plus(["/x😀?y/u"])}}):
        for offset in (16383, 16382, 16370):
            text = ("a" * offset + "😀 sk-" + secret + " 1234567:" + secret + "x😀y" + "b " * 9000
                    + "token=" + secret + "&a=b " + "c" * 7000 + "😀")
            cases.append({"text": text, "cfg": cfg, "secrets": [secret[:8]] if offset == 16370 else []})
    # Configurations, over a sample of the texts above.
    pool = [c["text"] for c in cases if len(c["text"]) < 2000]
    for cfg in configs(rng):
        fixed = ["Session store: /tmp/x/sessions.json",
                 "agent:main:main  direct  fb9fb699-0672-4249-8ffc-a60331407caa",
                 "token=abcdefghijklmnopqrstuvwxyz", "KEY é ſ \u212a ß 😀 İ ı"]
        for text in rng.sample(pool, 40) + fixed:
            cases.append({"text": text, "cfg": cfg})
    # Registered secrets.
    for _ in range(12):
        secrets = [_rand(rng, ALNUM + "/+=!*'()~ é😀", rng.randint(3, 30))
                   for _ in range(rng.randint(1, 4))]
        secrets.append(secrets[0])
        for _ in range(8):
            chosen = rng.choice(secrets)
            text = session_row(rng) + " " + chosen + " " + rng.choice(["", "x", chosen[::-1]])
            if rng.random() < 0.3:
                text = text.replace(chosen, json.dumps(chosen)[1:-1]).replace(" ", "%20")
            cases.append({"text": text, "secrets": secrets,
                          "cfg": rng.choice([None, {"logging": {"redactSensitive": "off"}}])})
    cases.append({"text": "value abc%2Fdef and abc/def", "secrets": ["abc/def"]})
    cases.append({"text": "lone \ud800abcdef", "secrets": ["\ud800abcdef"]})
    cases.append({"text": "many " + " ".join(f"secret{i:04d}" for i in range(0, 600, 7)),
                  "secrets": [f"secret{i:04d}" for i in range(600)]})
    return cases


REGEX_ALPHABET = ["a", "b", "A", "B", "_", "-", " ", "1", "9", "é", "É", "😀", "s", "S", "k", "K",
                  "\u212a", "\u017f", "\n", "\u2028", ".", "=", "\ud800", "ı", "I", "σ", "Σ", "ς"]
REGEX_ATOMS = [
    "a", "b", "A", "s", "k", "K", "é", "É", "σ", "ı", "😀", "\\d", "\\w", "\\s", "\\D", "\\W", "\\S",
    ".", "\\x41", "\\u0062", "\\uD83D\\uDE00", "\\u{1F600}", "\\u{62}", "\\cJ", "\\c1", "\\0",
    "\\07", "\\101", "\\8", "\\-", "\\.", "\\k", "\\p{L}", "\\P{Ll}", "\\p{Lu}", "\\p{Z}",
    "\\q", "[ab]", "[^a]", "[a-c]", "[^a-cA]", "[\\d_]", "[a-]", "[-a]", "[\\w-z]", "[\\b]", "[]",
    "[^]", "[\\s\\S]", "[é-ë]", "[😀]", "[\\uD83D\\uDE00]", "[σς]", "[k-m]", "[\\W]", "[\\p{Lu}]",
    "]", "{", "}", "x{", "{,2}", "\\b", "\\B", "^", "$", "\\1", "\\2", "\\k<n1>", "\\k<n2>", "\\10",
]


def random_regex(rng: random.Random, depth: int = 0, names: list | None = None,
                 in_modifier: bool = False) -> str:
    names = [0] if names is None else names
    parts = []
    for _ in range(rng.randint(1, 4)):
        r = rng.random()
        if r < 0.55 or depth > 2:
            atom = rng.choice(REGEX_ATOMS)
        else:
            shape = rng.choice(["({})", "(?:{})", "(?<n>{})", "(?=({}))", "(?!{})", "(?<={})",
                                "(?<!{})", "(?i:{})", "(?-i:{})", "(?s:{})", "(?m:{})"])
            # V8 case-folds classes after a `|` inside an `i` modifier group with other flags.
            modifier = in_modifier or "i:" in shape
            inner = random_regex(rng, depth + 1, names, modifier)
            if rng.random() < 0.3 and not modifier:
                inner += "|" + random_regex(rng, depth + 1, names, modifier)
            if "<n>" in shape:
                names[0] += 1
                shape = shape.replace("<n>", f"<n{names[0]}>")
            atom = shape.format(inner)
        if rng.random() < 0.35:
            atom += rng.choice(["*", "+", "?", "{2}", "{1,3}", "{2,}", "*?", "+?", "??", "{0,2}?"])
        parts.append(atom)
    return "".join(parts) if rng.random() < 0.8 or in_modifier else "|".join(parts)


def build_regex_cases(seed: int = 7, count: int = 4000) -> list[dict]:
    rng = random.Random(seed)
    cases = []
    while len(cases) < count:
        source = random_regex(rng)
        if _has_nested_repetition(source):
            continue  # the reference refuses these as configured patterns
        flags = "".join(f for f in "imsuy" if rng.random() < (0.15 if f == "y" else 0.35))
        text = "".join(rng.choice(REGEX_ALPHABET) for _ in range(rng.randint(0, 24)))
        cases.append({"source": source, "flags": flags, "text": text})
    return cases


def python_regex_result(case: dict) -> dict | None:
    """Matches as the reference reports them; None when the regex is a documented gap."""
    try:
        rx = compile_js_regex(case["source"], case["flags"])
    except JsSyntaxError:
        return {"error": "SyntaxError"}
    except ValueError:
        return None
    if rx.approximate:
        return None
    units = _to_units(case["text"])
    subject = _from_units(units) if rx.unicode else units
    matches = []
    pos = 0
    while pos <= len(subject) and len(matches) < 200:
        m = rx.exec(subject, pos)
        if m is None:
            break
        index = len(_to_units(subject[:m.start()]))
        values = [m.group()] + rx.captures(m)
        matches.append([index] + [None if v is None else _from_units(v) for v in values])
        pos = m.end() if m.end() > m.start() else m.end() + 1
    return {"matches": matches}


def load_golden() -> list[dict]:
    return [json.loads(line) for line in (DATA / "golden.jsonl").read_text(encoding="utf-8").splitlines()
            if line.strip()]


# ---------------------------------------------------------------------------------------------
# Tests.


def test_golden_cases():
    failures = []
    for case in load_golden():
        got = run_python(case)
        if got != case["expected"]:
            failures.append((case, got))
    assert not failures, failures[:5]


def test_golden_cases_match_reference():
    golden = load_golden()
    results = run_reference([{k: v for k, v in c.items() if k != "expected"} for c in golden])
    assert [c["expected"] for c in golden] == results


def test_default_patterns_are_the_reference_list():
    results = run_reference([], with_defaults=True)
    assert results[-1]["defaults"] == list(redact_patterns.DEFAULT_REDACT_PATTERNS)


def test_differential_against_reference():
    cases = build_cases()
    assert len(cases) > 4000
    expected = run_reference(cases)
    mismatches = []
    for case, want in zip(cases, expected):
        got = run_python(case)
        if got != want:
            mismatches.append({"case": case, "want": want, "got": got})
    assert not mismatches, json.dumps(mismatches[:5], ensure_ascii=True, indent=1)


def _v8_mid_pair_match(case: dict, result: dict) -> bool:
    """V8 (unlike the specification) may report an empty `u`-mode match between the halves of
    a surrogate pair after a failed attempt; such positions do not exist in code point form."""
    if "u" not in case["flags"]:
        return False
    units = _to_units(case["text"])
    return any(0 < m[0] < len(units) and "\udc00" <= units[m[0]] <= "\udfff"
               and "\ud800" <= units[m[0] - 1] <= "\udbff" for m in result.get("matches", ()))


def test_regex_translation_differential():
    cases = build_regex_cases()
    expected = run_reference(cases)
    mismatches = []
    gaps = 0
    for case, want in zip(cases, expected):
        got = python_regex_result(case)
        if got is None:
            gaps += 1
            continue
        if got != want and not _v8_mid_pair_match(case, want):
            mismatches.append({"case": case, "want": want, "got": got})
    assert not mismatches, json.dumps(mismatches[:5], ensure_ascii=True, indent=1)
    assert gaps < len(cases) * 0.08


def test_derived_tables_are_current():
    required, branches = derived_tables()
    assert required == redact_patterns.DEFAULT_REQUIRED, "regenerate DEFAULT_REQUIRED"
    assert branches == redact_patterns.PREFILTER_BRANCHES, "regenerate PREFILTER_BRANCHES"


def test_builtin_regexes_translate_exactly():
    """Every regex the redaction itself uses compiles in all variants, with no approximation."""
    sources = [(raw, "") for raw in redact_patterns.DEFAULT_REDACT_PATTERNS]
    sources += [redact_patterns.PREFILTER, redact_patterns.FORM_BODY, redact_patterns.FORM_BODY_SUBSTRING,
                redact_patterns.ENCODED_FORM_PAIR, redact_patterns.FORM_CONTEXT_SINGLE_PAIR,
                redact_patterns.URL_QUERY_PAIR, redact_patterns.FORM_KEY_OBFUSCATION,
                redact_patterns.FORM_KEY_SEPARATOR, redact_patterns.FORM_PERCENT_ESCAPE,
                redact_patterns.LINE_BREAK_SPLIT]
    for raw, flags in sources:
        m = re.fullmatch(r"/(.+)/([a-z]*)", raw) if not flags else None
        source, flags = (m.group(1), m.group(2)) if m else (raw, flags or "gi")
        rx = compile_js_regex(source, flags)
        assert not rx.approximate, raw
        for sample in ("ascii text", "bmp \u00e9 text", "astral \U0001f600 text"):
            rx.test(sample)


def test_unicode_tables_match_reference():
    script = (
        "const r=[];for(const p of ['C','Z']){const re=new RegExp(`^\\\\p{${p}}$`,'u');let s=-1;"
        "const out=[];for(let c=0;c<=0x110000;c++){const ok=c<0x110000&&re.test(String.fromCodePoint(c));"
        "if(ok&&s<0)s=c;if(!ok&&s>=0){"
        "out.push(s===c-1?s.toString(16):s.toString(16)+'-'+(c-1).toString(16));"
        "s=-1;}}r.push(out.join(' '));}console.log(JSON.stringify(r));"
    )
    proc = subprocess.run([str(_node_binary()), "-e", script], capture_output=True, text=True,
                          timeout=300, check=True)
    c_ranges, z_ranges = json.loads(proc.stdout)
    assert UNICODE_C_RANGES.split() == c_ranges.split()
    assert UNICODE_Z_RANGES.split() == z_ranges.split()


def test_examples():
    row = "direct  agent:main:main  2m ago  gpt-5.4  fb9fb699-0672-4249-8ffc-a60331407caa"
    assert redact_console_text(row).endswith("fb9fb699-0672-4249-8f***")
    assert redact_console_text("OPENAI_API_KEY=sk-abcdefghijklmnopqrstuvwxyz") == \
        "OPENAI_API_KEY=sk-abc…wxyz"
    assert redact_console_text("TOKEN=$TOKEN") == "TOKEN=$TOKEN"
    off = {"logging": {"redactSensitive": "off"}}
    assert redact_console_text("token=abcdefghijklmnopqrstuvwxyz", off) == \
        "token=abcdefghijklmnopqrstuvwxyz"
    assert redact_console_text("xx abcdef123456 yy", off, secrets=["abcdef123456"]) == "xx *** yy"
    custom = {"logging": {"redactPatterns": ["/[a-z]+ore/"]}}
    assert redact_console_text("Session store: /tmp/fc-abcdefghijklmnop", custom) == \
        "Session ***: /tmp/fc-abcdefghijklmnop"
    assert redact_lines(["a", "fc-abcdefghijklmnop"]) == ["a", "fc-abc…mnop"]
    assert redact_console_text("") == ""
    with pytest.raises(TypeError):
        redact_console_text("x", {"logging": {"redactPatterns": "abc"}})


def test_js_regex_translation_basics():
    rx = compile_js_regex("(?<=a|bc)d", "g")
    assert rx.replace("ad bcd xd", lambda m: "#") == "a# bc# xd"
    rx = compile_js_regex("(^|[^A-Za-z0-9])(?<!;base64,[A-Za-z0-9+/=]*)(x)", "g")
    assert rx.test(" x") and not rx.test(";base64,AB+x")
    assert compile_js_regex("s", "iu").test("ſ") and not compile_js_regex("s", "i").test("ſ")
    assert compile_js_regex("a{,5}", "").test("a{,5}")
    with pytest.raises(ValueError):
        compile_js_regex("a**", "")


def test_ordinary_lines_are_cheap():
    rng = random.Random(7)
    lines = [session_row(rng).replace("fc-", "fd-") for _ in range(2000)]
    lines = [line for line in lines if redact_console_text(line) == line]
    start = time.perf_counter()
    for _ in range(10):
        for line in lines:
            redact_console_text(line)
    per_line = (time.perf_counter() - start) / (10 * len(lines))
    assert per_line < 50e-6, f"{per_line * 1e6:.1f} µs per line"


@pytest.mark.reference
@pytest.mark.parametrize("logging", [
    {"redactSensitive": "tools"},
    {"redactSensitive": "off"},
    {"redactPatterns": ["/agent:[a-z]+/", "fb9fb699"]},
])
@every_file_era_release
def test_reference_cli_lines(reference, home, logging):
    """The reference's routed `sessions` listing prints unredacted; the same command through
    the full program (console capture on) prints exactly what redact_lines makes of it."""
    rng = random.Random(3)
    now = int(time.time() * 1000)
    ids = ["fb9fb699-0672-4249-8ffc-a60331407caa"] + [_uuid(rng) for _ in range(20)]
    store = {}
    for i, sid in enumerate(ids):
        key = (f"agent:main:telegram:dm:{rng.randint(10**5, 10**9)}" if i % 3
               else f"agent:main:subagent:sk-{sid[:20]}")
        store[key] = {"sessionId": sid, "updatedAt": now - i * 3_600_000, "model": "gpt-5.4",
                      "totalTokens": rng.randint(0, 100_000)}
    sessions = home / ".openclaw" / "agents" / "main" / "sessions"
    sessions.mkdir(parents=True)
    (sessions / "sessions.json").write_text(json.dumps(store), encoding="utf-8")
    cfg = {"logging": logging}
    (home / ".openclaw" / "openclaw.json").write_text(json.dumps(cfg), encoding="utf-8")
    raw = reference.run_reference(["sessions"], home)
    captured = reference.run_reference(["sessions"], home, env={"OPENCLAW_DISABLE_ROUTE_FIRST": "1"})
    assert raw.returncode == captured.returncode == 0, raw.stderr + captured.stderr
    assert redact_lines(raw.stdout.split("\n"), cfg) == captured.stdout.split("\n")
    if logging.get("redactSensitive") != "off":
        assert raw.stdout != captured.stdout

"""Config loading: units, JSON5, $include, env block, ${VAR}, dotenv, validation, gateway port."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from helpers.references import every_file_era_release

from openclaw_cli.config import agents, includes, json5, paths, schema
from openclaw_cli.config import env as config_env
from openclaw_cli.config import load as config
from openclaw_cli.config.units import parse_byte_size, parse_duration_ms
from openclaw_cli.errors import ConfigError
from openclaw_cli.js.strings import js_number_to_string as js_number_string

DATA = Path(__file__).resolve().parent / "data" / "config"
DIST = "node_modules/openclaw/dist"


def _node(reference, tmp_path: Path, script: str, payload) -> object:
    """Run a small ES module against the reference's own modules; it reads argv[2] (JSON)."""
    source = tmp_path / "oracle.mjs"
    source.write_text(script.replace("%DIST%", str(reference.REFERENCE_DIR / DIST)))
    data = tmp_path / "payload.json"
    data.write_text(json.dumps(payload))
    proc = subprocess.run([str(reference.reference_node_bin_dir() / "node"), str(source), str(data)],
                          capture_output=True, text=True, cwd=tmp_path, timeout=120,
                          env={"HOME": str(tmp_path), "PATH": os.environ.get("PATH", "/usr/bin:/bin")})
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


# ------------------------------------------------------------------ units

@pytest.mark.parametrize("raw,unit,expected", [
    ("7", "d", 604_800_000), ("7d", "ms", 604_800_000), ("1h30m", "d", 5_400_000), ("1.5h30m", "d", 7_200_000),
    (" 2H ", "d", 7_200_000), ("0.5ms", "ms", 1), ("0.4ms", "ms", 0), ("500", None, 500), ("30", "h", 108_000_000),
])
def test_parse_duration(raw, unit, expected):
    assert parse_duration_ms(raw, unit) == expected


@pytest.mark.parametrize("raw,message", [
    ("", "Invalid duration (empty): empty value. Use values like 500ms, 30s, 5m, 2h, or 1h30m."),
    ("1h 30m", 'Invalid duration (each composite segment needs a unit): "1h 30m". Use values like 500ms, 30s, '
               '5m, 2h, or 1h30m.'),
    ("1h30", 'Invalid duration: "1h30". Use values like 500ms, 30s, 5m, 2h, or 1h30m.'),
    ("-1", 'Invalid duration: "-1". Use values like 500ms, 30s, 5m, 2h, or 1h30m.'),
    ("104249991375d", 'Invalid duration: "104249991375d". Use values like 500ms, 30s, 5m, 2h, or 1h30m.'),
])
def test_parse_duration_errors(raw, message):
    with pytest.raises(ValueError) as info:
        parse_duration_ms(raw, "d")
    assert str(info.value) == message


@pytest.mark.parametrize("raw,expected", [
    ("20mb", 20_971_520), ("1.5k", 1536), ("10", 10), ("1T", 1024**4), ("2.5b", 3), ("0.0001b", 0),
])
def test_parse_byte_size(raw, expected):
    assert parse_byte_size(raw, "b") == expected


@pytest.mark.parametrize("raw,message", [
    ("20 mb", 'Invalid byte size: "20 mb". Use values like 512kb, 10mb, 1gb, or 500.'),
    ("5pb", 'Invalid byte size (unknown unit "pb"): "5pb". Use values like 512kb, 10mb, 1gb, or 500.'),
    (" ", "Invalid byte size (empty): empty value. Use values like 512kb, 10mb, 1gb, or 500."),
])
def test_parse_byte_size_errors(raw, message):
    with pytest.raises(ValueError) as info:
        parse_byte_size(raw, "b")
    assert str(info.value) == message


_UNITS_ORACLE = """
import { t as parseDurationMs } from "%DIST%/parse-duration-D33cPjCs.js";
import { t as parseByteSize } from "%DIST%/parse-bytes-BOhZJPCN.js";
import fs from "node:fs";
const out = [];
for (const [kind, raw, unit] of JSON.parse(fs.readFileSync(process.argv[2], "utf8"))) {
  try { out.push([(kind === "d" ? parseDurationMs : parseByteSize)(raw, { defaultUnit: unit }), null]); }
  catch (e) { out.push([null, e.message]); }
}
console.log(JSON.stringify(out));
"""


def test_units_match_reference(reference, tmp_path):
    durations = ["", " ", "7", "7d", "1h30m", "1.5h30m", "1h 30m", "30M", "0", "0.5ms", "1.0000001s", "h", "1x",
                 "1h30", "30m1h", "1d1d1d", "1e3", "-1", "1.", ".5", "9007199254740991ms", "9007199254740992ms",
                 "104249991374d", "9" * 400, "1ms1ms", "1hh", "\u0661", "\u00a07d\ufeff", "7\u212a"]
    sizes = ["", "20mb", "20 mb", "1.5k", "k", "10B", "1t", "1pb", "0.5b", "2.5b", "9" * 400 + "tb", "1e3", "-5",
             "7\u212ab"]
    cases = [["d", r, u] for r in durations for u in ("d", "ms", "h")]
    cases += [["b", r, u] for r in sizes for u in ("b", "kb", "zz")]
    expected = _node(reference, tmp_path, _UNITS_ORACLE, cases)
    for (kind, raw, unit), (value, error) in zip(cases, expected):
        try:
            got = [(parse_duration_ms if kind == "d" else parse_byte_size)(raw, unit), None]
        except ValueError as exc:
            got = [None, str(exc)]
        assert got == [value, error], (kind, raw, unit)


@pytest.mark.parametrize("value,text", [
    (7, "7"), (7.0, "7"), (1.5, "1.5"), (1e21, "1e+21"), (1e20, "100000000000000000000"), (1e-7, "1e-7"),
    (0.000001, "0.000001"), (-0.0, "0"), (2**60, "1152921504606847000"), (float("inf"), "Infinity"),
    (123456789012345680000.0, "123456789012345680000"), (True, "true"),
])
def test_js_number_string(value, text):
    assert js_number_string(value) == text


# ------------------------------------------------------------------ parsing

def test_parse_json_then_json5():
    assert json5.parse_json5('{"a": [1, 2]}') == {"a": [1, 2]}
    text = (DATA / "json5" / "openclaw.json").read_text()
    parsed = json5.parse_json5(text)
    assert parsed["session"]["maintenance"] == {"mode": "warn", "pruneAfter": 7, "maxDiskBytes": "1.5gb"}
    assert json5.parse_json5("{a: 12345678901234567890}") == {"a": 12345678901234567890.0}
    assert json5.parse_json5("\ufeff{a: 0x10, b: .5, c: +1,}") == {"a": 16, "b": 0.5, "c": 1}
    for bad in ("", "{ session: ", "{a: 1} x", "{a: tru}"):
        with pytest.raises(ValueError):
            json5.parse_json5(bad)


def test_deep_merge():
    merged = includes.deep_merge({"a": {"x": 1, "l": [1]}, "b": 1, "p": {"k": 1}},
                               {"a": {"y": 2, "l": [2]}, "b": {"o": 1}, "p": "s", "__proto__": {"z": 1}})
    assert merged == {"a": {"x": 1, "l": [1, 2], "y": 2}, "b": {"o": 1}, "p": "s"}


# ------------------------------------------------------------------ $include

def _home_with(tmp_path: Path, files: dict[str, str]) -> tuple[Path, dict[str, str]]:
    home = tmp_path / "home"
    for rel, text in files.items():
        target = home / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)
    (home / ".openclaw").mkdir(parents=True, exist_ok=True)
    return home, {"HOME": str(home)}


def _issues(home: Path, env: dict[str, str]) -> list[str]:
    loaded = config.load_config(env, strict=False, cwd=str(home))
    return [i.format() for i in loaded.issues]


def test_include_fixture_merges_like_reference_docs(tmp_path):
    home = tmp_path / "home"
    shutil.copytree(DATA / "includes", home / ".openclaw")
    loaded = config.load_config({"HOME": str(home)}, cwd=str(home))
    assert loaded.data["agents"]["list"] == [{"id": "base"}, {"id": "Alpha", "default": True}, {"id": "root"}]
    assert loaded.data["session"]["maintenance"] == {"mode": "warn", "maxEntries": 42}
    assert loaded.data["acp"] == {"allowedAgents": ["*", "leafy"], "defaultAgent": "deep"}


def test_include_depth_limit(tmp_path):
    files = {f".openclaw/d{i}.json": f'{{"$include": "d{i + 1}.json"}}' for i in range(1, 11)}
    files[".openclaw/d11.json"] = '{"session": {"store": "/deep"}}'
    files[".openclaw/openclaw.json"] = '{"$include": "d2.json"}'
    home, env = _home_with(tmp_path, files)
    assert _issues(home, env) == []
    (home / ".openclaw/openclaw.json").write_text('{"$include": "d1.json"}')
    assert _issues(home, env) == ["<root>: Maximum include depth (10) exceeded at: d11.json"]


@pytest.mark.parametrize("directive,extra,message", [
    ('"../outside.json"', {}, "Include path escapes config directory: ../outside.json (root: {cfg})"),
    ('"./missing.json"', {}, "Failed to read include file: ./missing.json (resolved: {cfg}/missing.json)"),
    ('"./c1.json"', {".openclaw/c1.json": '{"$include": "c2.json"}', ".openclaw/c2.json": '{"$include": "./c1.json"}'},
     "Circular include detected: {cfg}/openclaw.json -> {cfg}/c1.json -> {cfg}/c2.json -> {cfg}/c1.json"),
    ('"./bad.json"', {".openclaw/bad.json": "{ x: "},
     "Failed to parse include file: ./bad.json (resolved: {cfg}/bad.json)"),
    ("5", {}, "Invalid $include value: expected string or array of strings, got number"),
    ('["ok.json", null]', {".openclaw/ok.json": "{}"}, "Invalid $include array item: expected string, got object"),
    ('"./sub"', {".openclaw/sub/x": ""}, "Include file failed security checks (regular file, max 2097152 bytes, "
                                        "no hardlinks): ./sub"),
])
def test_include_errors(tmp_path, directive, extra, message):
    files = {".openclaw/openclaw.json": f'{{"$include": {directive}, "session": {{}}}}', "outside.json": "{}", **extra}
    home, env = _home_with(tmp_path, files)
    assert _issues(home, env) == ["<root>: " + message.format(cfg=home / ".openclaw")]


def test_include_sibling_needs_object(tmp_path):
    home, env = _home_with(tmp_path, {".openclaw/openclaw.json": '{"$include": "a.json", "session": {}}',
                                      ".openclaw/a.json": "[1]"})
    assert _issues(home, env) == ["<root>: Sibling keys require included content to be an object"]


def test_include_symlink_and_hardlink_guards(tmp_path):
    home, env = _home_with(tmp_path, {".openclaw/openclaw.json": '{"$include": "link.json"}',
                                      "outside.json": "{}", ".openclaw/a.json": "{}"})
    (home / ".openclaw/link.json").symlink_to(home / "outside.json")
    cfg = home / ".openclaw"
    assert _issues(home, env) == [
        f"<root>: Include path resolves outside config directory (symlink): link.json (root: {cfg})"]
    os.link(cfg / "a.json", cfg / "b.json")
    (cfg / "openclaw.json").write_text('{"$include": "a.json"}')
    assert "no hardlinks" in _issues(home, env)[0]


def test_include_roots_allow_outside_targets(tmp_path):
    home, env = _home_with(tmp_path, {"shared/extra.json5": "{session: {store: '/x/{agentId}.json'}}"})
    # `~` is not expanded in $include paths; absolute paths are allowed only inside a root
    (home / ".openclaw/openclaw.json").write_text(json.dumps({"$include": str(home / "shared/extra.json5")}))
    assert "escapes config directory" in _issues(home, env)[0]
    env["OPENCLAW_INCLUDE_ROOTS"] = "/nowhere:~/shared"
    loaded = config.load_config(env, cwd=str(home))
    assert loaded.data == {"session": {"store": "/x/{agentId}.json"}}


# ------------------------------------------------------------------ ${VAR} and the env block

@pytest.mark.parametrize("text,expected,missing", [
    ("${A}/x", "va/x", []), ("$${A}", "${A}", []), ("$$${A}", "$${A}", []), ("${B}", "${B}", ["B"]),
    ("${EMPTY}", "${EMPTY}", ["EMPTY"]), ("${lower}", "${lower}", []), ("${A", "${A", []), ("$A", "$A", []),
    ("$${lower}", "$${lower}", []), ("${A}${A}", "vava", []),
])
def test_substitute_string(text, expected, missing):
    seen: list[str] = []
    assert config_env.substitute_string(text, {"A": "va", "EMPTY": ""}, seen.append) == expected
    assert seen == missing


def test_env_block_fills_missing_variables_only():
    env = {"HOME": "/h", "KEEP": "mine", "BLANK": "  "}
    cfg = {"env": {"vars": {"A": "1", "KEEP": "config", "BLANK": "filled", "HOME": "/evil",
                            "NODE_OPTIONS": "--x", "LD_PRELOAD": "x", "OPENCLAW_INCLUDE_ROOTS": "/",
                            "bad-key": "x", "REF": "${A}", "EMPTYV": " "},
                   "TOP": "t", "A": "top-wins", "shellEnv": {"enabled": False}}}
    config_env.apply_config_env(cfg, env)
    assert env == {"HOME": "/h", "KEEP": "mine", "BLANK": "filled", "A": "top-wins", "TOP": "t"}


def test_env_block_feeds_substitution_and_state_dir(tmp_path):
    home, env = _home_with(tmp_path, {".openclaw/openclaw.json": json.dumps({
        "env": {"vars": {"SDIR": "/stores"}, "OPENCLAW_STATE_DIR": "~/moved"},
        "session": {"store": "${SDIR}/$${SDIR}/${NOPE}/{agentId}.json"}})})
    loaded = config.load_config(env, cwd=str(home))
    assert loaded.data["session"]["store"] == "/stores/${SDIR}/${NOPE}/{agentId}.json"
    assert [w.format() for w in loaded.warnings] == [
        'session.store: Missing env var "NOPE" - feature using this value will be unavailable']
    assert env["OPENCLAW_STATE_DIR"] == "~/moved"
    assert paths.resolve_state_dir(env) == str(home / "moved")


# ------------------------------------------------------------------ dotenv

def test_parse_dotenv():
    text = ("# comment\nexport A=1\nB = ' two '  # trailing\r\nC=\"x\\ny\"\nD='x\\ny'\nE: colon\nF=\n"
            "G=a # b\nH=\"multi\nline\"\nbad line\nI.J=dot\nA=again\n")
    assert config_env.parse_dotenv(text) == {"A": "again", "B": " two ", "C": "x\ny", "D": "x\\ny", "E": "colon",
                                         "F": "", "G": "a", "H": "multi\nline", "I.J": "dot"}


def test_dotenv_order_and_blocking(tmp_path):
    home, env = _home_with(tmp_path, {
        "work/.env": "OPENCLAW_STATE_DIR=/blocked\nCWDVAR=cwd\nNODE_OPTIONS=x\nX_BASE_URL=u\nFROM_ALL=cwd\n",
        ".openclaw/.env": "SVAR=state\nFROM_ALL=state\nGVAR=state\n",
        ".config/openclaw/gateway.env": "GVAR=gw\nONLY_GW=gw\nFROM_ALL=gw\n",
    })
    env["PRESET"] = "keep"
    config.load_config(env, cwd=str(home / "work"))
    assert env == {"HOME": str(home), "PRESET": "keep", "CWDVAR": "cwd", "FROM_ALL": "cwd", "SVAR": "state",
                   "GVAR": "state", "ONLY_GW": "gw"}


def test_dotenv_state_file_can_move_the_state_dir(tmp_path):
    home, env = _home_with(tmp_path, {".openclaw/.env": "OPENCLAW_STATE_DIR=~/elsewhere\n",
                                      ".openclaw/openclaw.json": '{"session": {"store": "/ignored"}}',
                                      "elsewhere/.env": "FROM_NEW=1\n",
                                      ".config/openclaw/gateway.env": "GW=1\n"})
    loaded = config.load_config(env, cwd=str(home))
    assert loaded.path == str(home / "elsewhere/openclaw.json") and not loaded.exists
    assert env["FROM_NEW"] == "1" and env["GW"] == "1"


def test_gateway_env_skipped_with_explicit_state_dir(tmp_path):
    home, env = _home_with(tmp_path, {".config/openclaw/gateway.env": "GW=1\n", "s/.env": "S=1\n"})
    env["OPENCLAW_STATE_DIR"] = str(home / "s")
    config.load_config(env, cwd=str(home))
    assert env.get("S") == "1" and "GW" not in env


def test_dotenv_can_be_disabled(tmp_path):
    home, env = _home_with(tmp_path, {".openclaw/.env": "S=1\n"})
    config.load_config(env, dotenv=False, cwd=str(home))
    assert "S" not in env


# ------------------------------------------------------------------ load_config results

def test_missing_config_is_empty(tmp_path):
    loaded = config.load_config({"HOME": str(tmp_path)}, cwd=str(tmp_path))
    assert (loaded.exists, loaded.data, loaded.issues) == (False, {}, [])
    assert loaded.path == str(tmp_path / ".openclaw/openclaw.json")


def test_strict_error_is_one_line(tmp_path):
    home, env = _home_with(tmp_path, {".openclaw/openclaw.json": json.dumps({
        "session": {"maintenance": {"pruneAfter": "soon", "maxEntries": 0}}, "bogus": 1,
        "agents": {"list": [{"id": "a", "agentDir": "/x"}, {"id": "b", "agentDir": "/x"}]}})})
    with pytest.raises(ConfigError) as info:
        config.load_config(dict(env), cwd=str(home))
    cfg = home / ".openclaw/openclaw.json"
    assert info.value.message == (
        f"OpenClaw config is invalid ({cfg}): session.maintenance.maxEntries: Invalid input (must be greater than 0); "
        "session.maintenance.pruneAfter: invalid duration (use ms, s, m, h, d); <root>: Invalid input")
    assert info.value.exit_code == 1
    loaded = config.load_config(dict(env), strict=False, cwd=str(home))
    assert not loaded.valid and loaded.data["bogus"] == 1
    (cfg).write_text(json.dumps({"agents": {"list": [{"id": "a", "agentDir": "/x"}, {"id": "b", "agentDir": "/x"}]}}))
    with pytest.raises(ConfigError) as info:
        config.load_config(dict(env), cwd=str(home))
    assert "\n" not in info.value.message and 'Conflicts: - /x: "a", "b"' in info.value.message


def test_unparseable_config(tmp_path):
    home, env = _home_with(tmp_path, {".openclaw/openclaw.json": "{ session: "})
    loaded = config.load_config(env, strict=False, cwd=str(home))
    assert loaded.exists and loaded.data == {}
    assert loaded.issues[0].format().startswith("<root>: JSON5 parse failed: ")


def test_a_json5_error_is_npm_json5s_with_its_line_and_column(tmp_path):
    home, env = _home_with(tmp_path, {".openclaw/openclaw.json": '// settings\n{ session: @ }\n'})
    loaded = config.load_config(env, strict=False, cwd=str(home))
    assert loaded.issues[0].message == "JSON5 parse failed: SyntaxError: JSON5: invalid character '@' at 2:12"
    assert loaded.read_failure == "JSON5: invalid character '@' at 2:12"



# ------------------------------------------------------------------ validation vs the reference schema

_VALIDATE_ORACLE = """
import { w as validateConfigObjectRaw } from "%DIST%/io-C-DnvA4e.js";
import fs from "node:fs";
const out = [];
for (const c of JSON.parse(fs.readFileSync(process.argv[2], "utf8"))) {
  const r = validateConfigObjectRaw(c);
  out.push(r.ok ? [] : r.issues.map(i => `${i.path || "<root>"}: ${i.message}`));
}
console.log(JSON.stringify(out));
"""

_VALUES = [None, True, False, 0, -1, 1, 1.5, 70000, 9007199254740993, "", " ", "x", "7d", "1h30m", "20mb", "*",
           "main", [], {}, ["x"], [1], {"x": 1}, {"primary": "a"},
           {"source": "env", "provider": "default", "id": "TOK"}, {"source": "env", "provider": "default", "id": "t"}]
_FUZZ_PATHS = ["session", "session.scope", "session.dmScope", "session.store", "session.mainKey", "session.idleMinutes", "session.typingMode", "session.identityLinks", "session.identityLinks.a", "session.resetTriggers", "session.reset", "session.reset.mode", "session.reset.atHour", "session.resetByType", "session.resetByType.dm", "session.resetByChannel.x", "session.sendPolicy", "session.sendPolicy.default", "session.sendPolicy.rules", "session.writeLock", "session.writeLock.staleMs", "session.agentToAgent.maxPingPongTurns", "session.threadBindings.idleHours", "session.threadBindings.enabled", "session.maintenance", "session.maintenance.mode", "session.maintenance.pruneAfter", "session.maintenance.pruneDays", "session.maintenance.maxEntries", "session.maintenance.rotateBytes", "session.maintenance.resetArchiveRetention", "session.maintenance.maxDiskBytes", "session.maintenance.highWaterBytes", "session.maintenance.bogus", "session.bogus", "agents", "agents.defaults", "agents.defaults.model", "agents.defaults.model.primary", "agents.defaults.model.fallbacks", "agents.defaults.workspace", "agents.defaults.bogus", "agents.list", "agents.bogus", "acp", "acp.defaultAgent", "acp.allowedAgents", "acp.enabled", "acp.stream.deliveryMode", "acp.runtime.ttlMinutes", "acp.bogus", "gateway", "gateway.port", "gateway.mode", "gateway.bind", "gateway.auth", "gateway.auth.mode", "gateway.auth.token", "gateway.auth.password", "gateway.auth.allowTailscale", "gateway.auth.rateLimit", "gateway.auth.trustedProxy", "gateway.auth.bogus", "gateway.remote", "gateway.remote.url", "gateway.remote.token", "gateway.remote.transport", "gateway.remote.remotePort", "gateway.remote.bogus", "gateway.tls", "gateway.tls.enabled", "gateway.tls.certPath", "gateway.tls.keyPath", "gateway.tls.caPath", "gateway.tls.bogus", "gateway.handshakeTimeoutMs", "gateway.tailscale.mode", "gateway.reload.mode", "gateway.bogus", "cron.sessionRetention", "cron.runLog.maxBytes", "cron.retry.backoffMs", "cron.bogus", "meta.lastTouchedAt", "env", "env.vars", "env.FOO", "env.shellEnv", "bogus", "wizard", "wizard.bogus", "channels", "channels.x", "broadcast", "broadcast.strategy", "broadcast.peer", "bindings", "$schema"]


def _fuzz_configs() -> list:
    cases: list = [[], 5, "x", None, {}]
    for dotted in _FUZZ_PATHS:
        for value in _VALUES:
            cfg: dict = {}
            cursor = cfg
            *parents, last = dotted.split(".")
            for part in parents:
                cursor = cursor.setdefault(part, {})
            cursor[last] = value
            cases.append(cfg)
    entry_values = _VALUES + [{"type": "acp"}, {"type": "embedded"}, {"type": "acp", "acp": {"agent": "z"}},
                              {"type": "acp", "acp": {"bogus": 1}}]
    for key in ("id", "default", "model", "name", "workspace", "agentDir", "runtime", "bogus", "thinkingDefault",
                "fastModeDefault", "models"):
        for value in entry_values:
            cases.append({"agents": {"list": [{"id": "a", key: value}]}})
    cases += [
        {"agents": {"list": [{}]}}, {"agents": {"list": [{"id": "a"}, {"id": "A", "default": True}]}},
        {"agents": {"list": [{"id": "a", "agentDir": "/x"}, {"id": "b", "agentDir": "/x"}]}},
        {"agents": {"list": [{"id": "a"}]}, "bindings": [{"agentId": "b", "match": {"channel": "x"}}], "bogus": 1},
        {"agents": {"list": [{"id": "a"}]}, "bindings": [{"agentId": "b", "match": {"channel": "x"}}],
         "session": {"maintenance": {"pruneAfter": "x", "maxEntries": 0}}},
        {"agents": {"list": [{"id": "a"}]}, "bindings": [{"type": "acp", "agentId": "a", "match": {"channel": "x"}}]},
        {"agents": {"list": [{"id": "a"}]}, "broadcast": {"p": ["A", "a"]}},
        {"session": {"maintenance": {"pruneAfter": "x", "bogus": 1}}},
        {"session": {"maintenance": {"pruneAfter": "x", "maxEntries": 1.5}}},
        {"gateway": {"port": 0, "channelStaleEventThresholdMinutes": 1}},
        {"gateway": {"bind": "lan", "tailscale": {"mode": "serve"}}},
        {"gateway": {"bind": "custom", "customBindHost": "127.0.0.1", "tailscale": {"mode": "funnel"},
                     "auth": {"mode": "none"}}},
        {"gateway": {"auth": {"mode": "none"}, "tailscale": {"mode": "serve"}}},
        {"commands": {"modelsWrite": True}}, {"meta": {"lastTouchedAt": 1e300}},
    ]
    return cases


def test_validation_matches_reference_schema(reference, tmp_path):
    """~2,800 configs through the reference's own validator: same issues, same order."""
    cases = _fuzz_configs()
    expected = _node(reference, tmp_path, _VALIDATE_ORACLE, cases)
    env = {"HOME": str(tmp_path / "nohome")}
    mismatches = []
    for cfg, want in zip(cases, expected):
        got = [i.format() for i in schema.validate_config(cfg, env)]
        if got != want:
            mismatches.append((cfg, got, want))
    assert not mismatches, mismatches[:5]


# Where pydantic and zod judge differently, the models and the adapter make them agree.
_ZOD_CASES = {
    "unknown keys of one object are one issue at the object's path, after its fields": (
        {"session": {"bogus": 1, "store": 5, "other": 2}},
        ["session.store: Invalid input", "session: Invalid input"]),
    "an object's refinement still runs beside a failed bound": (
        {"session": {"maintenance": {"maxEntries": 0, "pruneAfter": "soon"}}},
        ["session.maintenance.maxEntries: Invalid input (must be greater than 0)",
         "session.maintenance.pruneAfter: invalid duration (use ms, s, m, h, d)"]),
    "an object's refinement does not run after a value of the wrong kind": (
        {"session": {"maintenance": {"mode": "x", "pruneAfter": "soon"}}},
        ['session.maintenance.mode: Invalid input (allowed: "enforce", "warn")']),
    "a union whose only well-shaped branch failed a check reports that check": (
        {"gateway": {"auth": {"token": {"source": "env", "provider": "Bad", "id": "TOK"}}}},
        ['gateway.auth.token.provider: Secret reference provider must match /^[a-z][a-z0-9_-]{0,63}$/ '
         '(example: "default").']),
    "a union that nothing fits is one issue, listing the allowed values when every branch has some": (
        {"agents": {"list": [{"id": "a", "fastModeDefault": "x"}]}},
        ['agents.list.0.fastModeDefault: Invalid input (allowed: true, false, "auto")']),
    "a union that nothing fits lists no values when a branch cannot list them": (
        {"session": {"maintenance": {"resetArchiveRetention": True}}},
        ["session.maintenance.resetArchiveRetention: Invalid input"]),
    "a secret reference with an unknown source is reported at the object itself": (
        {"gateway": {"auth": {"token": {"source": "vault"}}}}, ["gateway.auth.token: Invalid input"]),
    "a boolean is not a number": ({"session": {"idleMinutes": True}}, ["session.idleMinutes: Invalid input"]),
    "an integer may be written as 5.0": ({"session": {"idleMinutes": 5.0}}, []),
    "false is not 0 for a literal": ({"cron": {"sessionRetention": 0}}, ["cron.sessionRetention: Invalid input"]),
    "an integer beyond the safe range fails that check and the maximum": (
        {"session": {"agentToAgent": {"maxPingPongTurns": 9007199254740993}}},
        ["session.agentToAgent.maxPingPongTurns: Invalid input",
         "session.agentToAgent.maxPingPongTurns: Invalid input (maximum: 20)"]),
    "a missing required literal lists the values it may take": (
        {"session": {"sendPolicy": {"rules": [{}]}}},
        ['session.sendPolicy.rules.0.action: Invalid input (allowed: "allow", "deny")']),
    "a string given for an array is checked for the array's length too": (
        {"cron": {"retry": {"backoffMs": ""}}},
        ["cron.retry.backoffMs: Invalid input", "cron.retry.backoffMs: Invalid input"]),
    "the env block's own keys come before its variables": (
        {"env": {"X": 1, "shellEnv": {"bogus": 1}}}, ["env.shellEnv: Invalid input", "env.X: Invalid input"]),
}


@pytest.mark.parametrize("case", list(_ZOD_CASES))
def test_validation_reports_as_zod_does(case):
    cfg, expected = _ZOD_CASES[case]
    assert [i.format() for i in schema.validate_config(cfg, {"HOME": "/nonexistent"})] == expected


def test_the_zod_cases_are_what_the_reference_says(reference, tmp_path):
    configs = [cfg for cfg, _ in _ZOD_CASES.values()]
    assert _node(reference, tmp_path, _VALIDATE_ORACLE, configs) == [want for _, want in _ZOD_CASES.values()]


def test_unknown_key_paths_list_children_before_the_parents_own_keys():
    cfg = {"session": {"bogus": 1, "reset": {"x": 1}}, "agents": {"defaults": {"model": {"q": 1}}}, "top": 1,
           "gateway": {"auth": {"token": {"source": "env", "provider": "p", "id": "X", "y": 1}}},
           "bindings": [{"agentId": "a", "match": {"channel": "c"}, "z": 1}]}
    assert schema.unknown_key_paths(cfg) == [
        ("agents", "defaults", "model", "q"), ("session", "reset", "x"), ("session", "bogus"), ("top",)]


def test_a_typical_config_validates_in_well_under_ten_milliseconds():
    import time

    cfg = {"session": {"maintenance": {"mode": "enforce", "pruneAfter": "30d", "maxDiskBytes": "1gb"},
                       "reset": {"mode": "daily", "atHour": 4}},
           "agents": {"defaults": {"model": {"primary": "p/m", "fallbacks": ["a"]}},
                      "list": [{"id": f"a{i}", "workspace": f"/w/{i}"} for i in range(10)]},
           "gateway": {"port": 18789, "auth": {"mode": "token", "token": {"source": "env", "provider": "default",
                                                                           "id": "TOK"}}},
           "bindings": [{"agentId": "a1", "match": {"channel": "telegram"}}], "channels": {"telegram": {}}}
    env = {"HOME": "/nonexistent"}
    assert schema.validate_config(cfg, env) == []
    start = time.perf_counter()
    for _ in range(20):
        schema.validate_config(cfg, env)
    assert (time.perf_counter() - start) / 20 < 0.010


# ------------------------------------------------------------------ against the reference binary

def _problems(stderr: str) -> list[str]:
    return [line[4:] for line in stderr.splitlines() if line.startswith("  - ")]


_INVALID = [
    {"session": {"maintenance": {"pruneAfter": "soon", "maxDiskBytes": "20 mb", "highWaterBytes": "lots",
                                 "maxEntries": 0}}},
    {"session": {"maintenance": {"keepDays": 3}}},
    {"session": {"store": 5, "dmScope": "per-thread"}},
    {"agents": {"list": {"id": "a"}}},
    {"agents": {"list": [{"id": "a", "model": {"primary": "x", "extra": 1}}], "defaults": {"model": 3}}},
    {"acp": {"defaultAgent": 5, "allowedAgents": "x"}},
    {"gateway": {"port": 0, "mode": "Remote", "auth": {"token": {"source": "bad"}}, "remote": {"foo": 1},
                 "tls": {"certPath": " "}}},
    {"sessions": {}},
]


@every_file_era_release
def test_invalid_configs_match_reference_binary(reference, tmp_path, monkeypatch):
    homes = []
    for index, cfg in enumerate(_INVALID):
        home = tmp_path / f"h{index}"
        (home / ".openclaw").mkdir(parents=True)
        (home / ".openclaw/openclaw.json").write_text(json.dumps(cfg))
        homes.append(home)
    broken = tmp_path / "broken"
    (broken / ".openclaw").mkdir(parents=True)
    (broken / ".openclaw/openclaw.json").write_text("{ session: ")
    valid = tmp_path / "valid"
    (valid / ".openclaw").mkdir(parents=True)
    (valid / ".openclaw/openclaw.json").write_text(
        '{session: {maintenance: {pruneAfter: 7, maxDiskBytes: 1e20, rotateBytes: "junk", '
        'resetArchiveRetention: false}, store: ""}, gateway: {port: 70000, tls: {extra: 1}}}')
    homes += [broken, valid]

    def run(home: Path):
        return reference.run_reference(["sessions", "cleanup", "--dry-run", "--json"], home)

    with ThreadPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(run, homes))
    for home, result in zip(homes, results):
        monkeypatch.chdir(home)
        loaded = config.load_config({"HOME": str(home)}, strict=False, cwd=str(home))
        if result.returncode == 0:
            assert loaded.valid, (home, loaded.issues)
            continue
        assert result.returncode == 1 and "OpenClaw config is invalid" in result.stderr
        problems = _problems(result.stderr)
        if home == broken:
            assert problems[0].startswith("<root>: JSON5 parse failed:") and not loaded.valid
            continue
        assert [i.format() for i in loaded.issues] == problems, home
        with pytest.raises(ConfigError):
            config.load_config({"HOME": str(home)}, cwd=str(home))
    assert results[-1].returncode == 0


def _store_paths(result) -> list[tuple[str, str, str]]:
    data = json.loads(result.stdout)
    stores = data.get("stores", [data])
    return [(s["agentId"], s["storePath"], s["mode"]) for s in stores]


def _ours(home: Path, cwd: Path, extra: dict[str, str] | None = None) -> list[tuple[str, str, str]]:
    from helpers.refbin import clean_env

    env = clean_env(home, extra)
    loaded = config.load_config(env, cwd=str(cwd))
    mode = ((loaded.data.get("session") or {}).get("maintenance") or {}).get("mode", "enforce")
    return [(t.agent_id, t.store_path, mode)
            for t in agents.resolve_session_store_targets(loaded.data, all_agents=True, env=env)]


@every_file_era_release
def test_loading_matches_reference_binary(reference, tmp_path, monkeypatch):
    """JSON5, nested/array includes, include roots, ${VAR}, env block and dotenv, end to end."""
    scenarios: list[tuple[Path, Path, dict[str, str]]] = []

    def scenario(name: str, files: dict[str, str], extra: dict[str, str] | None = None, cwd: str = "",
                 tree: Path | None = None) -> None:
        home = tmp_path / name
        if tree is not None:
            shutil.copytree(tree, home / ".openclaw")
        for rel, text in files.items():
            (home / rel).parent.mkdir(parents=True, exist_ok=True)
            (home / rel).write_text(text.replace("{home}", str(home)))
        (home / cwd).mkdir(parents=True, exist_ok=True)
        scenarios.append((home, home / cwd, {k: v.replace("{home}", str(home)) for k, v in (extra or {}).items()}))

    scenario("json5", {}, tree=DATA / "json5")
    scenario("includes", {}, tree=DATA / "includes")
    scenario("include-roots", {".openclaw/openclaw.json": '{"$include": "{home}/shared/x.json5"}',
                               "shared/x.json5": "{agents: {list: [{id: 'shared'}]}}"},
             {"OPENCLAW_INCLUDE_ROOTS": "~/shared"})
    scenario("vars", {".openclaw/openclaw.json": json.dumps({
        "env": {"vars": {"FROM_BLOCK": "blk"}, "OPENCLAW_STATE_DIR": "~/moved", "HOME": "/evil"},
        "session": {"store": "~/${FROM_ENV}/${FROM_BLOCK}/$${FROM_ENV}/${MISSING}/{agentId}.json"},
        "acp": {"defaultAgent": "${AGENT}"}})}, {"FROM_ENV": "env", "AGENT": "From Env"})
    scenario("state-moved-by-block", {".openclaw/openclaw.json": '{"env": {"OPENCLAW_STATE_DIR": "~/moved"}}'})
    scenario("dotenv", {
        "work/.env": "OPENCLAW_STATE_DIR=/blocked\nCWDVAR=cwd\n",
        ".openclaw/.env": "SVAR=state\nGVAR=state\n",
        ".config/openclaw/gateway.env": "GVAR=gw\nCWDVAR=gw\nONLY=gw\n",
        ".openclaw/openclaw.json": '{"session": {"store": "/x/${CWDVAR}/${SVAR}/${GVAR}/${ONLY}/{agentId}.json"}}',
    }, cwd="work")
    scenario("dotenv-state", {".openclaw/.env": "OPENCLAW_STATE_DIR={home}/from-dotenv\n",
                              "from-dotenv/openclaw.json": '{"agents": {"list": [{"id": "dotty"}]}}'})

    def run(item):
        home, cwd, extra = item
        return reference.run_reference(["sessions", "cleanup", "--dry-run", "--json", "--all-agents"], home,
                                       extra, cwd=cwd)

    with ThreadPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(run, scenarios))
    for (home, cwd, extra), result in zip(scenarios, results):
        assert result.returncode == 0, (home, result.stderr)
        monkeypatch.chdir(cwd)
        assert _ours(home, cwd, extra) == _store_paths(result), home.name


# ------------------------------------------------------------------ gateway port

@pytest.mark.parametrize("env_value,cfg,port", [
    (None, {}, 18789), ("19001", {"gateway": {"port": 1234}}, 19001), ("host:2000", {}, 2000),
    ("[::1]:3000", {}, 3000), ("::1:3000", {"gateway": {"port": 4}}, 4), ("70000", {}, 18789),
    ("0", {}, 18789), (" 42 ", {}, 42), ("x", {"gateway": {"port": 0}}, 18789),
    (None, {"gateway": {"port": "5"}}, 18789),
    (None, {"gateway": {"port": 5000}}, 5000), (":5", {}, 18789),
])
def test_resolve_gateway_port(env_value, cfg, port):
    env = {} if env_value is None else {"OPENCLAW_GATEWAY_PORT": env_value}
    assert config.resolve_gateway_port(cfg, env) == port


# ------------------------------------------------------------------ what loading costs

@pytest.mark.parametrize("config", [None, '{"session": {"store": 5}}'], ids=["no-config", "a-config"])
def test_the_schema_is_loaded_only_when_there_is_a_config_to_validate(tmp_path, config):
    import sys

    from helpers.refbin import clean_env

    if config is not None:
        (tmp_path / ".openclaw").mkdir()
        (tmp_path / ".openclaw" / "openclaw.json").write_text(config)
    code = ("import sys\nfrom openclaw_cli.config.load import load_config\n"
            "loaded = load_config(strict=False)\n"
            "print(len(loaded.issues), 'pydantic' in sys.modules)")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path,
                         env=clean_env(tmp_path, {}), timeout=60)
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == (["0", "False"] if config is None else ["1", "True"])

"""Home, state dir, config path and --profile/--dev: unit checks and checks against the reference."""

from __future__ import annotations

import json
import os
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from helpers.references import every_file_era_release

from openclaw_cli.config import agents, paths
from openclaw_cli.config import load as config
from openclaw_cli.errors import CliError, UsageError

DIST = "node_modules/openclaw/dist"


# ------------------------------------------------------------------ effective home and `~`

def test_effective_home_prefers_openclaw_home():
    assert paths.resolve_effective_home({"OPENCLAW_HOME": "/oc", "HOME": "/h"}) == "/oc"
    assert paths.resolve_effective_home({"HOME": "/h", "USERPROFILE": "/u"}) == "/h"
    assert paths.resolve_effective_home({"USERPROFILE": "/u/"}) == "/u"


@pytest.mark.parametrize("ignored", ["", "   ", "undefined", "null", " null "])
def test_effective_home_ignores_placeholder_values(ignored):
    assert paths.resolve_effective_home({"OPENCLAW_HOME": ignored, "HOME": ignored, "USERPROFILE": "/u"}) == "/u"


def test_openclaw_home_tilde_expands_against_os_home():
    env = {"OPENCLAW_HOME": "~/alt", "HOME": "/h"}
    assert paths.resolve_effective_home(env) == "/h/alt"
    assert paths.resolve_effective_home({"OPENCLAW_HOME": "~", "HOME": "/h"}) == "/h"
    assert paths.resolve_os_home(env) == "/h"
    # `~user` is not a home reference: it stays a (relative) path
    assert paths.resolve_effective_home({"OPENCLAW_HOME": "~bob", "HOME": "/h"}) == os.path.join(os.getcwd(), "~bob")


def test_termux_home():
    env = {"PREFIX": "/data/data/com.termux/files/usr", "ANDROID_DATA": "/data"}
    assert paths.resolve_os_home(env) == "/data/data/com.termux/files/home"


def test_home_falls_back_to_process_home(monkeypatch):
    monkeypatch.setenv("HOME", "/proc-home")
    assert paths.resolve_effective_home({}) == "/proc-home"


@pytest.mark.parametrize("value,expected", [
    ("~", "/h"), ("~/a/b", "/h/a/b"), ("~\\a", "/h\\a"), ("~bob/x", "~bob/x"), ("a/~", "a/~"), ("", ""),
])
def test_expand_home_prefix(value, expected):
    assert paths.expand_home_prefix(value, {"HOME": "/h"}) == expected


def test_expand_home_prefix_explicit_home():
    assert paths.expand_home_prefix("~/x", {"HOME": "/h"}, home="/other") == "/other/x"


def test_resolve_user_path(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    env = {"HOME": "/h", "OPENCLAW_HOME": "/oc"}
    assert paths.resolve_user_path("  ~/x/../y ", env) == "/oc/y"
    assert paths.resolve_user_path("rel/p", env) == str(tmp_path / "rel/p")
    assert paths.resolve_user_path("   ", env) == ""


# ------------------------------------------------------------------ state dir and config path

def _mk(base: Path, *names: str) -> None:
    for name in names:
        target = base / name
        if name.endswith(".json"):
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text("{}")
        else:
            target.mkdir(parents=True, exist_ok=True)


def test_state_dir_selection(tmp_path):
    env = {"HOME": str(tmp_path)}
    assert paths.resolve_state_dir(env) == str(tmp_path / ".openclaw")  # nothing exists
    _mk(tmp_path, ".clawdbot")
    assert paths.resolve_state_dir(env) == str(tmp_path / ".clawdbot")
    _mk(tmp_path, ".openclaw")
    assert paths.resolve_state_dir(env) == str(tmp_path / ".openclaw")
    assert paths.resolve_state_dir({**env, "OPENCLAW_STATE_DIR": " ~/s "}) == str(tmp_path / "s")
    assert paths.resolve_state_dir({**env, "OPENCLAW_STATE_DIR": "   "}) == str(tmp_path / ".openclaw")


def test_a_usable_or_missing_state_folder_passes_the_check(tmp_path):
    paths.check_state_dir({"HOME": str(tmp_path)})  # nothing exists yet: a first run creates it
    _mk(tmp_path, ".openclaw")
    paths.check_state_dir({"HOME": str(tmp_path)})
    paths.check_state_dir({"HOME": str(tmp_path), "OPENCLAW_STATE_DIR": str(tmp_path / "new" / "deep")})


@pytest.mark.parametrize("env, argv, message", [
    ({"OPENCLAW_STATE_DIR": "{base}/f"}, [],
     "the OpenClaw state folder {base}/f (from OPENCLAW_STATE_DIR={base}/f) is a file, not a folder; "
     "point OPENCLAW_STATE_DIR at a folder"),
    ({"OPENCLAW_STATE_DIR": "{base}/f/sub"}, [],
     "the OpenClaw state folder {base}/f/sub (from OPENCLAW_STATE_DIR={base}/f/sub) cannot exist: {base}/f is a "
     "file, not a folder; point OPENCLAW_STATE_DIR at a folder"),
    ({"HOME": "{base}/f"}, [],
     "the OpenClaw state folder {base}/f/.openclaw (from HOME={base}/f) cannot exist: {base}/f is a file, not a "
     "folder; point HOME at a folder"),
    ({"OPENCLAW_HOME": "{base}/f"}, [],
     "the OpenClaw state folder {base}/f/.openclaw (from OPENCLAW_HOME={base}/f) cannot exist: {base}/f is a "
     "file, not a folder; point OPENCLAW_HOME at a folder"),
    ({"HOME": "{base}/f"}, ["--profile", "work"],
     "the OpenClaw state folder {base}/f/.openclaw-work (from --profile work and HOME={base}/f) cannot exist: "
     "{base}/f is a file, not a folder; point HOME at a folder"),
])
def test_a_state_folder_that_is_a_file_is_one_clear_error(tmp_path, env, argv, message):
    (tmp_path / "f").write_text("not a folder")
    env = {"HOME": str(tmp_path), **{k: v.replace("{base}", str(tmp_path)) for k, v in env.items()}}
    profile, _rest = paths.parse_cli_profile_args(argv)
    paths.apply_cli_profile(env, profile, False)
    with pytest.raises(CliError) as info:
        config.load_config(env, cwd=str(tmp_path))
    assert (info.value.message, info.value.exit_code) == (message.replace("{base}", str(tmp_path)), 1)


def test_a_file_in_place_of_the_default_state_folder_is_to_be_moved_aside(tmp_path):
    (tmp_path / ".openclaw").write_text("not a folder")
    with pytest.raises(CliError, match=f"^the OpenClaw state folder {tmp_path}/.openclaw \\(from HOME={tmp_path}\\) "
                                       f"is a file, not a folder; move {tmp_path}/.openclaw aside$"):
        paths.check_state_dir({"HOME": str(tmp_path)})


@pytest.mark.parametrize("argv", [["sessions"], ["sessions", "--json"], ["sessions", "cleanup", "--dry-run"],
                                  ["sessions", "cleanup", "--enforce"], ["compact", "main"],
                                  ["compact", "main", "--max-lines", "3"], ["context", "list"], ["context", "map"],
                                  ["doctor"], ["doctor", "--lint"], ["doctor", "--fix", "--non-interactive"]],
                         ids=" ".join)
def test_every_command_stops_on_a_state_folder_that_is_a_file(tmp_path, argv):
    from helpers import cli
    from helpers.folders import folder_digest

    home = tmp_path / "home"
    home.mkdir()
    (home / "state").write_text("not a folder")
    before = folder_digest(tmp_path)
    for env in ({"OPENCLAW_STATE_DIR": str(home / "state")}, {"HOME": str(home / "state")}):
        result = cli.run(argv, home, {"OPENCLAW_GATEWAY_PORT": "1", **env})
        name = next(iter(env))
        assert result.returncode == 1, (env, result.stdout, result.stderr)
        assert result.stderr.count("\n") == 1 and f"(from {name}={home}/state)" in result.stderr, result.stderr
        assert f"point {name} at a folder" in result.stderr
    assert folder_digest(tmp_path) == before


def test_config_path_selection(tmp_path):
    env = {"HOME": str(tmp_path)}
    assert paths.resolve_config_path(env) == str(tmp_path / ".openclaw/openclaw.json")
    _mk(tmp_path, ".openclaw", ".clawdbot/clawdbot.json")
    # the state dir is ~/.openclaw, but the only config file is the legacy one
    assert paths.resolve_config_path(env) == str(tmp_path / ".clawdbot/clawdbot.json")
    _mk(tmp_path, ".openclaw/clawdbot.json")
    assert paths.resolve_config_path(env) == str(tmp_path / ".openclaw/clawdbot.json")
    _mk(tmp_path, ".openclaw/openclaw.json")
    assert paths.resolve_config_path(env) == str(tmp_path / ".openclaw/openclaw.json")
    # an explicit state dir never falls back to the default locations
    assert paths.resolve_config_path({**env, "OPENCLAW_STATE_DIR": "~/s"}) == str(tmp_path / "s/openclaw.json")
    assert paths.resolve_config_path({**env, "OPENCLAW_CONFIG_PATH": "~/c.json"}) == str(tmp_path / "c.json")


def test_config_dir(tmp_path):
    env = {"HOME": str(tmp_path)}
    _mk(tmp_path, ".clawdbot")
    assert paths.resolve_config_dir(env) == str(tmp_path / ".openclaw")  # never a legacy dir
    assert paths.resolve_config_dir({**env, "OPENCLAW_CONFIG_PATH": "~/c/x.json"}) == str(tmp_path / "c")
    assert paths.resolve_config_dir({**env, "OPENCLAW_STATE_DIR": "/s", "OPENCLAW_CONFIG_PATH": "/c/x.json"}) == "/s"


def test_include_roots():
    env = {"HOME": "/h", "OPENCLAW_INCLUDE_ROOTS": " ~/a :/b/../c::~/a"}
    assert paths.resolve_include_roots(env) == ["/h/a", "/c"]
    assert paths.resolve_include_roots({"HOME": "/h"}) == []


# ------------------------------------------------------------------ --profile / --dev

def test_apply_profile_sets_state_and_config():
    env = {"HOME": "/h"}
    assert paths.apply_cli_profile(env, "work", False) == "work"
    assert env == {"HOME": "/h", "OPENCLAW_PROFILE": "work", "OPENCLAW_STATE_DIR": "/h/.openclaw-work",
                   "OPENCLAW_CONFIG_PATH": "/h/.openclaw-work/openclaw.json"}


def test_apply_profile_default_and_dev():
    env = {"HOME": "/h"}
    paths.apply_cli_profile(env, " Default ", False)
    assert env["OPENCLAW_STATE_DIR"] == "/h/.openclaw" and env["OPENCLAW_PROFILE"] == "Default"
    env = {"HOME": "/h"}
    paths.apply_cli_profile(env, None, True)
    assert env["OPENCLAW_STATE_DIR"] == "/h/.openclaw-dev"
    assert env["OPENCLAW_GATEWAY_PORT"] == "19001"
    env = {"HOME": "/h", "OPENCLAW_GATEWAY_PORT": "555"}
    paths.apply_cli_profile(env, "dev", True)  # `--profile dev --dev` is accepted
    assert env["OPENCLAW_GATEWAY_PORT"] == "555"


def test_apply_profile_keeps_explicit_paths():
    env = {"HOME": "/h", "OPENCLAW_STATE_DIR": " ~/mine ", "OPENCLAW_CONFIG_PATH": ""}
    paths.apply_cli_profile(env, "work", False)
    assert env["OPENCLAW_STATE_DIR"] == " ~/mine "
    assert env["OPENCLAW_CONFIG_PATH"] == "~/mine/openclaw.json"
    env = {"HOME": "/h", "OPENCLAW_STATE_DIR": "  ", "OPENCLAW_CONFIG_PATH": "/c.json"}
    paths.apply_cli_profile(env, "work", False)
    assert env["OPENCLAW_STATE_DIR"] == "/h/.openclaw-work" and env["OPENCLAW_CONFIG_PATH"] == "/c.json"


def test_apply_profile_nothing_to_do():
    env = {"HOME": "/h"}
    assert paths.apply_cli_profile(env, None, False) is None
    assert env == {"HOME": "/h"}


@pytest.mark.parametrize("profile,dev,message", [
    ("x", True, "Cannot combine --dev with --profile"),
    ("b@d", False, 'Invalid --profile (use letters, numbers, "_", "-" only)'),
    ("-x", False, 'Invalid --profile (use letters, numbers, "_", "-" only)'),
    ("a" * 65, False, 'Invalid --profile (use letters, numbers, "_", "-" only)'),
    ("  ", False, "--profile requires a value"),
])
def test_apply_profile_usage_errors(profile, dev, message):
    with pytest.raises(UsageError) as info:
        paths.apply_cli_profile({"HOME": "/h"}, profile, dev)
    assert info.value.message == message and info.value.exit_code == 2


@pytest.mark.parametrize("argv,profile,rest", [
    (["sessions", "cleanup"], None, ["sessions", "cleanup"]),
    (["--profile", "work", "sessions"], "work", ["sessions"]),
    (["sessions", "--profile=work", "cleanup"], "work", ["sessions", "cleanup"]),
    (["--dev", "sessions"], "dev", ["sessions"]),
    (["--profile", "dev", "--dev", "x"], "dev", ["x"]),
    (["--profile", "a", "--profile", "b"], "b", []),
    (["gateway", "--dev"], None, ["gateway", "--dev"]),
    (["--log-level", "debug", "sessions"], None, ["--log-level", "debug", "sessions"]),
    (["x", "--", "--dev"], None, ["x", "--", "--dev"]),
])
def test_parse_cli_profile_args(argv, profile, rest):
    assert paths.parse_cli_profile_args(argv) == (profile, rest)


@pytest.mark.parametrize("argv,message", [
    (["--dev", "--profile", "x"], "Cannot combine --dev with --profile"),
    (["--dev", "--profile", "dev"], "Cannot combine --dev with --profile"),
    (["--profile", "x", "--dev"], "Cannot combine --dev with --profile"),
    (["--profile"], "--profile requires a value"),
    (["--profile", "--json"], "--profile requires a value"),
    (["--profile="], "--profile requires a value"),
    (["--profile", "b@d"], 'Invalid --profile (use letters, numbers, "_", "-" only)'),
])
def test_parse_cli_profile_args_errors(argv, message):
    with pytest.raises(UsageError) as info:
        paths.parse_cli_profile_args(argv)
    assert info.value.message == message


# ------------------------------------------------------------------ against the reference modules

_PATHS_ORACLE = """
import { v as resolveStateDir, s as resolveConfigPath, f as resolveIncludeRoots } from "%(dist)s/paths-BMBAvkNf.js";
import { n as resolveEffectiveHomeDir } from "%(dist)s/home-dir-CJKEsOtx.js";
import { d as resolveStorePath } from "%(dist)s/paths-C2C4lJH6.js";
import { n as applyCliProfileEnv } from "%(dist)s/startup-trace-Bc2ebu8Y.js";
import fs from "node:fs";
const out = [];
for (const s of JSON.parse(fs.readFileSync(process.argv[2], "utf8"))) {
  const env = { ...s.env };
  if (s.profile) applyCliProfileEnv({ profile: s.profile, env });
  out.push({
    home: resolveEffectiveHomeDir(env) ?? null, stateDir: resolveStateDir(env),
    configPath: resolveConfigPath(env), includeRoots: resolveIncludeRoots(env),
    store: resolveStorePath(s.store ?? undefined, { agentId: s.agentId, env }), env,
  });
}
console.log(JSON.stringify(out));
"""

_LAYOUTS = [
    [], [".openclaw"], [".clawdbot"], [".openclaw", ".clawdbot"], [".clawdbot/openclaw.json"],
    [".openclaw", ".clawdbot/clawdbot.json"], [".openclaw/clawdbot.json", ".clawdbot/openclaw.json"],
    ["alt/.openclaw/openclaw.json"], ["s/clawdbot.json", ".openclaw/openclaw.json"],
]
_ENVS = [
    {}, {"OPENCLAW_HOME": "~/alt"}, {"OPENCLAW_HOME": "{base}/alt"}, {"OPENCLAW_HOME": "undefined"},
    {"OPENCLAW_HOME": " ~ "}, {"OPENCLAW_STATE_DIR": "~/s"}, {"OPENCLAW_STATE_DIR": "{base}/s/../s"},
    {"OPENCLAW_STATE_DIR": "  "}, {"OPENCLAW_CONFIG_PATH": "~/c.json"}, {"OPENCLAW_CONFIG_PATH": "rel/c.json"},
    {"OPENCLAW_STATE_DIR": "rel-state"}, {"OPENCLAW_HOME": "~/alt", "OPENCLAW_STATE_DIR": "~/s"},
    {"OPENCLAW_INCLUDE_ROOTS": "~/a:{base}/b::~/a"}, {"HOME": "", "USERPROFILE": "{base}/up"},
    {"HOME": "null", "USERPROFILE": "undefined", "OPENCLAW_HOME": "{base}/oc"},
]
_STORES = [None, "", "~/st/{agentId}/sessions.json", "rel/{agentId}.json", "/abs/fixed.json", "~x/{agentId}",
           "{agentId}/~/x", "~"]


def _scenarios(tmp_path: Path) -> list[dict]:
    scenarios = []
    n = 0
    for layout in _LAYOUTS:
        for extra in _ENVS:
            for profile in (None, "work", "default", "dev"):
                n += 1
                base = tmp_path / f"s{n}"
                base.mkdir()
                _mk(base, *layout)
                env = {"HOME": str(base), **{k: v.replace("{base}", str(base)) for k, v in extra.items()}}
                store = _STORES[n % len(_STORES)]
                agent = ["main", "Ops Team", "", "x" * 70][n % 4]
                scenarios.append({"env": env, "profile": profile, "store": store, "agentId": agent})
    return scenarios


def test_paths_match_reference_modules(reference, tmp_path, monkeypatch):
    """Several hundred env/layout/profile combinations through the reference's own path functions."""
    monkeypatch.chdir(tmp_path)
    scenarios = _scenarios(tmp_path)
    node = reference.reference_node_bin_dir() / "node"
    script = tmp_path / "oracle.mjs"
    script.write_text(_PATHS_ORACLE % {"dist": reference.REFERENCE_DIR / DIST})
    (tmp_path / "scenarios.json").write_text(json.dumps(scenarios))
    proc = subprocess.run([str(node), str(script), str(tmp_path / "scenarios.json")], capture_output=True,
                          text=True, cwd=tmp_path, env={"HOME": str(tmp_path), "PATH": os.environ["PATH"]},
                          timeout=120)
    assert proc.returncode == 0, proc.stderr
    expected = json.loads(proc.stdout)
    for scenario, want in zip(scenarios, expected):
        env = dict(scenario["env"])
        if scenario["profile"]:
            paths.apply_cli_profile(env, scenario["profile"], False)
        got = {
            "home": paths.resolve_effective_home(env), "stateDir": paths.resolve_state_dir(env),
            "configPath": paths.resolve_config_path(env), "includeRoots": paths.resolve_include_roots(env),
            "store": agents.resolve_store_path(scenario["store"], scenario["agentId"], env), "env": env,
        }
        assert got == want, scenario


# ------------------------------------------------------------------ against the reference binary

def _ours(home: Path, argv: list[str], extra: dict[str, str]) -> dict:
    from helpers.refbin import clean_env

    env = clean_env(home, extra)
    try:
        profile, _rest = paths.parse_cli_profile_args(argv)
        paths.apply_cli_profile(env, profile, False)
        cfg = config.load_config(env, cwd=str(home))
        [target] = agents.resolve_session_store_targets(cfg.data, env=env)
    except CliError as exc:
        return {"rc": exc.exit_code, "error": exc.message}
    return {"rc": 0, "storePath": target.store_path, "agentId": target.agent_id}


def _theirs(reference, home: Path, argv: list[str], extra: dict[str, str]) -> dict:
    result = reference.run_reference([*argv, "sessions", "cleanup", "--dry-run", "--json"], home, extra)
    if result.returncode != 0:
        return {"rc": result.returncode, "stderr": result.stderr}
    summary = json.loads(result.stdout)
    return {"rc": 0, "storePath": summary["storePath"], "agentId": summary["agentId"]}


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


@every_file_era_release
def test_state_dir_and_profiles_match_reference_binary(reference, tmp_path, monkeypatch):
    cases: list[tuple[str, list[str], dict[str, str]]] = []

    def case(name: str, argv: list[str], extra: dict[str, str], *layout: tuple[str, str]) -> None:
        home = tmp_path / name
        home.mkdir()
        for rel, text in layout:
            _write(home / rel, text)
        cases.append((name, argv, {k: v.replace("{home}", str(home)) for k, v in extra.items()}))

    legacy_cfg = '{ session: { store: "~/from-legacy/{agentId}.json" } }'
    case("fresh", [], {})
    case("legacy-only", [], {}, (".clawdbot/keep", ""))
    case("openclaw-home", [], {"OPENCLAW_HOME": "~/alt"}, ("alt/.openclaw/keep", ""))
    case("state-env", [], {"OPENCLAW_STATE_DIR": " ~/state-x "})
    case("legacy-config", [], {}, (".openclaw/keep", ""), (".clawdbot/openclaw.json", legacy_cfg))
    case("config-env", [], {"OPENCLAW_CONFIG_PATH": "~/cfg/custom.json"},
         ("cfg/custom.json", '{ session: { store: "rel/{agentId}/s.json" } }'))
    case("profile", ["--profile", "work"], {}, (".openclaw-work/openclaw.json", legacy_cfg))
    case("dev", ["--dev"], {})
    case("profile-state", ["--profile", "work"], {"OPENCLAW_STATE_DIR": "{home}/preset"},
         ("preset/openclaw.json", '{ session: { store: "/stores/x-{agentId}.json" } }'))
    case("profile-default", ["--profile", "Default"], {}, (".clawdbot/keep", ""))
    case("dev-and-profile", ["--dev", "--profile", "x"], {})
    case("bad-profile", ["--profile", "b@d"], {})

    with ThreadPoolExecutor(max_workers=2) as pool:
        theirs = list(pool.map(lambda c: _theirs(reference, tmp_path / c[0], c[1], c[2]), cases))
    for (name, argv, extra), want in zip(cases, theirs):
        monkeypatch.chdir(tmp_path / name)  # the reference ran there too
        got = _ours(tmp_path / name, argv, extra)
        if want["rc"] == 0:
            assert got == want, name
        else:
            assert got["rc"] == want["rc"] == 2, name
            assert got["error"] in want["stderr"], name
    # a dry run creates nothing
    assert not (tmp_path / "fresh" / ".openclaw").exists()

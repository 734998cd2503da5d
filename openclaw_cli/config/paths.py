"""Home, state-dir and config-file locations, and the `--profile`/`--dev` environment rules."""

from __future__ import annotations

import os
import posixpath
import re
from collections.abc import Mapping, MutableMapping, Sequence

from openclaw_cli.errors import CliError, UsageError
from openclaw_cli.js import paths as jspath
from openclaw_cli.js.strings import js_trim

STATE_DIRNAME = ".openclaw"
LEGACY_STATE_DIRNAMES = (".clawdbot",)
CONFIG_FILENAME = "openclaw.json"
LEGACY_CONFIG_FILENAMES = ("clawdbot.json",)
DEV_GATEWAY_PORT = "19001"

PROFILE_NAME_RE = re.compile(r"[a-z0-9][a-z0-9_-]{0,63}", re.IGNORECASE | re.ASCII)
_TILDE_PREFIX = re.compile(r"^~(?=$|[\\/])")
_TERMUX_PREFIX = re.compile(r"(?:^|/)com\.termux/files/usr/?$")


def _env(env: Mapping[str, str] | None) -> Mapping[str, str]:
    return os.environ if env is None else env


def _clean(value: str | None) -> str | None:
    """A trimmed value, or None for missing, empty, "undefined" and "null"."""
    if value is None:
        return None
    trimmed = js_trim(value)
    if not trimmed or trimmed in ("undefined", "null"):
        return None
    return trimmed


def _cwd() -> str | None:
    try:
        return os.getcwd()
    except OSError:
        return None


normalize_path = jspath.normalize
resolve_path = jspath.resolve
is_path_inside = jspath.is_inside_or_equal


def join_path(*segments: str) -> str:
    """Node's path.join: joined with '/', then normalised."""
    return jspath.normalize("/".join(s for s in segments if s))


def _os_homedir() -> str | None:
    """os.homedir(): the process HOME, else the password database entry."""
    home = _clean(os.environ.get("HOME"))
    if home:
        return home
    try:
        import pwd

        return _clean(pwd.getpwuid(os.getuid()).pw_dir)
    except (ImportError, KeyError, OSError):
        return None


def _termux_home(env: Mapping[str, str]) -> str | None:
    prefix = _clean(env.get("PREFIX"))
    if not prefix or not _clean(env.get("ANDROID_DATA")):
        return None
    if not _TERMUX_PREFIX.search(prefix.replace("\\", "/")):
        return None
    return resolve_path(prefix, "..", "home")


def _raw_os_home(env: Mapping[str, str]) -> str | None:
    return (_clean(env.get("HOME")) or _clean(env.get("USERPROFILE"))
            or _termux_home(env) or _os_homedir())


def resolve_os_home(env: Mapping[str, str] | None = None) -> str | None:
    """The OS user home (HOME, USERPROFILE, Termux, os home), ignoring OPENCLAW_HOME."""
    raw = _raw_os_home(_env(env))
    return resolve_path(raw) if raw else None


def resolve_effective_home(env: Mapping[str, str] | None = None) -> str | None:
    """OPENCLAW_HOME (a leading `~` means the OS home), else the OS home."""
    env = _env(env)
    explicit = _clean(env.get("OPENCLAW_HOME"))
    if not explicit:
        raw = _raw_os_home(env)
    elif explicit == "~" or explicit.startswith(("~/", "~\\")):
        fallback = _raw_os_home(env)
        raw = _TILDE_PREFIX.sub(lambda _m: fallback, explicit, count=1) if fallback else None
    else:
        raw = explicit
    return resolve_path(raw) if raw else None


def display_path(path: str, env: Mapping[str, str] | None = None) -> str:
    """A path with the home folder shown as `~` (`$OPENCLAW_HOME` when that is set), as OpenClaw shows it."""
    env = _env(env)
    home = resolve_effective_home(env)
    if not home or not path:
        return path
    prefix = "$OPENCLAW_HOME" if (env.get("OPENCLAW_HOME") or "").strip() else "~"
    if path == home:
        return prefix
    if path.startswith(home + "/"):
        return prefix + path[len(home):]
    return path


def resolve_required_home(env: Mapping[str, str] | None = None) -> str:
    """The effective home, falling back to the current directory."""
    home = resolve_effective_home(env) or _cwd()
    if not home:
        raise RuntimeError("Unable to resolve an OpenClaw home: set OPENCLAW_HOME, HOME, or USERPROFILE, "
                           "or run from an existing directory.")
    return resolve_path(home)


def expand_home_prefix(value: str, env: Mapping[str, str] | None = None, home: str | None = None) -> str:
    """Replace a leading `~` (alone or before a slash) with `home` or the effective home."""
    if not value.startswith("~"):
        return value
    base = _clean(home) or resolve_effective_home(env)
    if not base:
        return value
    return _TILDE_PREFIX.sub(lambda _m: base, value, count=1)


def resolve_user_path(value: str, env: Mapping[str, str] | None = None) -> str:
    """Trim, expand a leading `~` against the effective home, and make absolute ('' stays '')."""
    trimmed = js_trim(value)
    if not trimmed:
        return trimmed
    if trimmed.startswith("~"):
        return resolve_path(expand_home_prefix(trimmed, env, home=resolve_required_home(env)))
    return resolve_path(trimmed)


def _exists(path: str) -> bool:
    try:
        return os.path.exists(path)
    except (OSError, ValueError):
        return False


def default_state_dir(env: Mapping[str, str] | None = None) -> str:
    """`<home>/.openclaw`, whether or not it exists."""
    return join_path(resolve_required_home(env), STATE_DIRNAME)


def legacy_state_dirs(env: Mapping[str, str] | None = None) -> list[str]:
    home = resolve_required_home(env)
    return [join_path(home, name) for name in LEGACY_STATE_DIRNAMES]


def resolve_state_dir(env: Mapping[str, str] | None = None) -> str:
    """OPENCLAW_STATE_DIR, else `~/.openclaw` if it exists, else an existing legacy dir, else `~/.openclaw`."""
    env = _env(env)
    override = js_trim(env.get("OPENCLAW_STATE_DIR") or "")
    if override:
        return resolve_user_path(override, env)
    new_dir = default_state_dir(env)
    if _exists(new_dir):
        return new_dir
    for legacy in legacy_state_dirs(env):
        if _exists(legacy):
            return legacy
    return new_dir


def _state_dir_source(env: Mapping[str, str], state: str) -> tuple[str, str]:
    """Where the state folder comes from: (the variable to fix, how to name it in a message)."""
    profile = _clean(env.get("OPENCLAW_PROFILE"))
    from_profile = bool(profile and state == resolve_user_path(profile_state_dir(profile, env), env))
    for name in ("OPENCLAW_STATE_DIR", "OPENCLAW_HOME", "HOME", "USERPROFILE"):
        value = _clean(env.get(name))
        if value and not (from_profile and name == "OPENCLAW_STATE_DIR"):
            origin = f"{name}={value}"
            return name, f"--profile {profile} and {origin}" if from_profile else origin
    return "HOME", f"HOME={resolve_required_home(env)}"


def _blocking_file(path: str) -> str | None:
    """The nearest existing part of `path` when it is not a folder (so `path` cannot be one)."""
    current = path
    while True:
        try:
            is_dir = os.path.isdir(current)
            exists = is_dir or os.path.lexists(current)
        except (OSError, ValueError):
            return None
        if exists:
            return None if is_dir else current
        parent = posixpath.dirname(current)
        if parent == current:
            return None
        current = parent


def check_state_dir(env: Mapping[str, str] | None = None) -> None:
    """Raise CliError (exit 1) when the state folder, or a folder above it, is a file."""
    env = _env(env)
    state = resolve_state_dir(env)
    blocker = _blocking_file(state)
    if blocker is None:
        return
    name, origin = _state_dir_source(env, state)
    if name == "OPENCLAW_STATE_DIR" or blocker == resolve_user_path(env.get(name) or "", env):
        advice = f"point {name} at a folder"
    else:
        advice = f"move {blocker} aside"
    if blocker == state:
        raise CliError(f"the OpenClaw state folder {state} (from {origin}) is a file, not a folder; {advice}")
    raise CliError(f"the OpenClaw state folder {state} (from {origin}) cannot exist: {blocker} is a file, "
                   f"not a folder; {advice}")


def default_config_candidates(env: Mapping[str, str] | None = None) -> list[str]:
    """Config files looked for, in order, when no explicit OPENCLAW_CONFIG_PATH is set."""
    env = _env(env)
    explicit = js_trim(env.get("OPENCLAW_CONFIG_PATH") or "")
    if explicit:
        return [resolve_user_path(explicit, env)]
    names = (CONFIG_FILENAME, *LEGACY_CONFIG_FILENAMES)
    candidates: list[str] = []
    state_override = js_trim(env.get("OPENCLAW_STATE_DIR") or "")
    if state_override:
        state = resolve_user_path(state_override, env)
        candidates += [join_path(state, name) for name in names]
    for directory in (default_state_dir(env), *legacy_state_dirs(env)):
        candidates += [join_path(directory, name) for name in names]
    return candidates


def resolve_config_path(env: Mapping[str, str] | None = None) -> str:
    """The config file OpenClaw reads: OPENCLAW_CONFIG_PATH, else the first existing candidate,
    else `<stateDir>/openclaw.json`."""
    env = _env(env)
    explicit = js_trim(env.get("OPENCLAW_CONFIG_PATH") or "")
    if explicit:
        return resolve_user_path(explicit, env)
    state_dir = resolve_state_dir(env)
    for name in (CONFIG_FILENAME, *LEGACY_CONFIG_FILENAMES):
        candidate = join_path(state_dir, name)
        if _exists(candidate):
            return candidate
    if js_trim(env.get("OPENCLAW_STATE_DIR") or ""):
        return join_path(state_dir, CONFIG_FILENAME)
    for candidate in default_config_candidates(env):
        if _exists(candidate):
            return candidate
    return join_path(state_dir, CONFIG_FILENAME)


def resolve_config_dir(env: Mapping[str, str] | None = None) -> str:
    """Where the state `.env` is read: OPENCLAW_STATE_DIR, else the config file's folder when
    OPENCLAW_CONFIG_PATH is set, else `~/.openclaw` (legacy dirs are not considered)."""
    env = _env(env)
    override = js_trim(env.get("OPENCLAW_STATE_DIR") or "")
    if override:
        return resolve_user_path(override, env)
    config_path = js_trim(env.get("OPENCLAW_CONFIG_PATH") or "")
    if config_path:
        return posixpath.dirname(resolve_user_path(config_path, env))
    return default_state_dir(env)


def resolve_include_roots(env: Mapping[str, str] | None = None) -> list[str]:
    """Extra `$include` roots from OPENCLAW_INCLUDE_ROOTS (a ':'-separated list)."""
    env = _env(env)
    raw = js_trim(env.get("OPENCLAW_INCLUDE_ROOTS") or "")
    roots: list[str] = []
    for entry in raw.split(os.pathsep) if raw else []:
        trimmed = js_trim(entry)
        if not trimmed:
            continue
        resolved = resolve_path(resolve_user_path(trimmed, env))
        if resolved not in roots:
            roots.append(resolved)
    return roots


def is_valid_profile_name(name: str | None) -> bool:
    return bool(name) and PROFILE_NAME_RE.fullmatch(name or "") is not None


def profile_state_dir(profile: str, env: Mapping[str, str] | None = None) -> str:
    """`~/.openclaw-<profile>`, or `~/.openclaw` for the profile named `default`."""
    suffix = "" if js_trim(profile).lower() == "default" else f"-{profile}"
    return join_path(resolve_required_home(env), f"{STATE_DIRNAME}{suffix}")


def apply_cli_profile(env: MutableMapping[str, str], profile: str | None, dev: bool = False) -> str | None:
    """Apply `--profile <name>` / `--dev` to `env` the way the CLI entry point does.

    Sets OPENCLAW_PROFILE, and OPENCLAW_STATE_DIR / OPENCLAW_CONFIG_PATH when they are unset;
    `dev` also defaults OPENCLAW_GATEWAY_PORT to 19001. Returns the applied profile name.
    Raises UsageError (exit 2) for a bad name or for `--dev` combined with another profile.
    """
    if profile is not None:
        value = js_trim(profile)
        if not value:
            raise UsageError("--profile requires a value")
        if dev and value != "dev":
            raise UsageError("Cannot combine --dev with --profile")
        if not is_valid_profile_name(value):
            raise UsageError('Invalid --profile (use letters, numbers, "_", "-" only)')
        name = value
    elif dev:
        name = "dev"
    else:
        return None
    env["OPENCLAW_PROFILE"] = name
    existing_state = js_trim(env.get("OPENCLAW_STATE_DIR") or "")
    state_dir = existing_state or profile_state_dir(name, env)
    if not existing_state:
        env["OPENCLAW_STATE_DIR"] = state_dir
    if not js_trim(env.get("OPENCLAW_CONFIG_PATH") or ""):
        env["OPENCLAW_CONFIG_PATH"] = join_path(state_dir, CONFIG_FILENAME)
    if name == "dev" and not js_trim(env.get("OPENCLAW_GATEWAY_PORT") or ""):
        env["OPENCLAW_GATEWAY_PORT"] = DEV_GATEWAY_PORT
    return name


_ROOT_VALUE_FLAGS = ("--log-level", "--container")


def _is_value_token(arg: str | None) -> bool:
    if not arg or arg == "--":
        return False
    return not arg.startswith("-") or re.fullmatch(r"-[0-9]+(?:\.[0-9]+)?", arg) is not None


def parse_cli_profile_args(argv: Sequence[str]) -> tuple[str | None, list[str]]:
    """Pull root `--profile <name>` / `--profile=<name>` / `--dev` out of `argv` (without the
    program name), as OpenClaw does before any command parsing.

    Returns (profile or None, remaining argv). `--dev` after the `gateway` command is left in
    place (it is that command's own flag). Raises UsageError with OpenClaw's messages.
    """
    profile: str | None = None
    saw_dev = False
    out: list[str] = []
    primary: str | None = None
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg == "--":
            out += argv[i:]
            break
        if arg == "--dev":
            if primary == "gateway":
                out.append(arg)
            elif profile and profile != "dev":
                raise UsageError("Cannot combine --dev with --profile")
            else:
                saw_dev = True
                profile = "dev"
            i += 1
            continue
        if arg == "--profile" or arg.startswith("--profile="):
            if arg.startswith("--profile="):
                value, consumed = js_trim(arg.split("=", 1)[1]) or None, False
            else:
                nxt = argv[i + 1] if i + 1 < len(argv) else None
                consumed = _is_value_token(nxt)
                value = (js_trim(nxt) if consumed and nxt else "") or None
            if saw_dev:
                raise UsageError("Cannot combine --dev with --profile")
            if not value:
                raise UsageError("--profile requires a value")
            if not is_valid_profile_name(value):
                raise UsageError('Invalid --profile (use letters, numbers, "_", "-" only)')
            profile = value
            i += 2 if consumed else 1
            continue
        if arg in _ROOT_VALUE_FLAGS:
            out.append(arg)
            if _is_value_token(argv[i + 1] if i + 1 < len(argv) else None):
                out.append(argv[i + 1])
                i += 1
        else:
            out.append(arg)
            if primary is None and not arg.startswith("-"):
                primary = arg
        i += 1
    return profile, out

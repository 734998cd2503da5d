"""Load and check `openclaw.json` as OpenClaw does: dotenv, JSON5, `$include`, env block, `${VAR}`."""

from __future__ import annotations

import json
import math
import os
import re
import stat
from collections.abc import Callable, Mapping, MutableMapping
from dataclasses import dataclass, field
from typing import Any

from openclaw_cli.config import paths
from openclaw_cli.config.units import MAX_SAFE_INTEGER, parse_byte_size, parse_duration_ms
from openclaw_cli.errors import ConfigError
from openclaw_cli.js.strings import js_number_to_string as js_number_string
from openclaw_cli.js.strings import js_trim
from openclaw_cli.js.values import js_string as _js_string
from openclaw_cli.js.values import object_at

DEFAULT_GATEWAY_PORT = 18789
MAX_INCLUDE_DEPTH = 10
MAX_INCLUDE_BYTES = 2 * 1024 * 1024
MAX_INCLUDE_PATH_LENGTH = 4096
INCLUDE_KEY = "$include"


@dataclass
class ConfigIssue:
    """One problem found in the config: a dotted path ('' for the root) and a message."""

    path: str
    message: str

    def format(self) -> str:
        return f"{self.path or '<root>'}: {self.message}"


@dataclass
class LoadedConfig:
    """The config as OpenClaw sees it after includes and `${VAR}` substitution."""

    path: str
    exists: bool
    data: dict
    issues: list[ConfigIssue] = field(default_factory=list)
    warnings: list[ConfigIssue] = field(default_factory=list)

    @property
    def valid(self) -> bool:
        return not self.issues


def _one_line(text: str) -> str:
    return re.sub(r"\s*\n\s*", " ", text).strip()


def format_config_error(path: str, issues: list[ConfigIssue]) -> str:
    """`OpenClaw config is invalid (<path>): <issue>; <issue>` on a single line."""
    return f"OpenClaw config is invalid ({path}): " + "; ".join(_one_line(i.format()) for i in issues)


# --------------------------------------------------------------------------------------
# Parsing


def _js_numbers(value: Any) -> Any:
    """Give integers the precision of a JS number (above 2**53 they become floats)."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return float(value) if abs(value) > MAX_SAFE_INTEGER else value
    if isinstance(value, dict):
        return {k: _js_numbers(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_js_numbers(v) for v in value]
    return value


def _reject_constant(name: str) -> Any:
    raise ValueError(f"invalid JSON constant {name}")


def parse_json5(raw: str) -> Any:
    """JSON.parse first, then JSON5 (comments, trailing commas, unquoted keys…). Raises ValueError."""
    try:
        return _js_numbers(json.loads(raw, parse_constant=_reject_constant))
    except (ValueError, RecursionError):
        pass
    import json5

    try:
        return _js_numbers(json5.loads(raw))
    except Exception as exc:  # json5 raises ValueError subclasses, and others on odd input
        raise ValueError(str(exc) or exc.__class__.__name__) from None


def _read_text(path: str) -> str:
    with open(path, "rb") as handle:
        return handle.read().decode("utf-8", errors="replace")


# --------------------------------------------------------------------------------------
# $include


class ConfigIncludeError(ValueError):
    """A `$include` directive that cannot be honoured."""


_BLOCKED_OBJECT_KEYS = frozenset({"__proto__", "prototype", "constructor"})


def deep_merge(target: Any, source: Any) -> Any:
    """Arrays concatenate, objects merge recursively, anything else: `source` wins."""
    if isinstance(target, list) and isinstance(source, list):
        return [*target, *source]
    if isinstance(target, dict) and isinstance(source, dict):
        result = dict(target)
        for key, value in source.items():
            if key in _BLOCKED_OBJECT_KEYS:
                continue
            result[key] = deep_merge(result[key], value) if key in result else value
        return result
    return source


def _js_typeof(value: Any) -> str:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    return "object"


def _realpath_or_self(path: str) -> str:
    try:
        return os.path.realpath(path, strict=True)
    except (OSError, ValueError):
        return path


@dataclass(frozen=True)
class _IncludeRoot:
    root_dir: str
    real_dir: str


class _Includes:
    """Resolves `$include` for one config file."""

    def __init__(self, config_path: str, extra_roots: list[str]):
        config_dir = paths.normalize_path(os.path.dirname(config_path))
        self.root = _IncludeRoot(config_dir, paths.normalize_path(_realpath_or_self(config_dir)))
        self.extra = [
            _IncludeRoot(paths.normalize_path(r), paths.normalize_path(_realpath_or_self(r)))
            for r in extra_roots if r.startswith("/")
        ]

    def _containing(self, candidate: str, real: bool) -> _IncludeRoot | None:
        for root in (self.root, *self.extra):
            if paths.is_path_inside(root.real_dir if real else root.root_dir, candidate):
                return root
        return None

    def process(self, value: Any, base: str, chain: tuple[str, ...], depth: int) -> Any:
        if isinstance(value, list):
            return [self.process(item, base, chain, depth) for item in value]
        if not isinstance(value, dict):
            return value
        if INCLUDE_KEY not in value:
            return {k: self.process(v, base, chain, depth) for k, v in value.items()}
        directive = value[INCLUDE_KEY]
        included = self._resolve(directive, base, chain, depth)
        siblings = [k for k in value if k != INCLUDE_KEY]
        if not siblings:
            return included
        if not isinstance(included, dict):
            raise ConfigIncludeError("Sibling keys require included content to be an object")
        rest = {k: self.process(value[k], base, chain, depth) for k in siblings}
        return deep_merge(included, rest)

    def _resolve(self, directive: Any, base: str, chain: tuple[str, ...], depth: int) -> Any:
        if isinstance(directive, str):
            return self._load(directive, base, chain, depth)
        if isinstance(directive, list):
            merged: Any = {}
            for item in directive:
                if not isinstance(item, str):
                    raise ConfigIncludeError(
                        f"Invalid $include array item: expected string, got {_js_typeof(item)}")
                merged = deep_merge(merged, self._load(item, base, chain, depth))
            return merged
        raise ConfigIncludeError(
            f"Invalid $include value: expected string or array of strings, got {_js_typeof(directive)}")

    def _locate(self, include: str, base: str) -> tuple[str, _IncludeRoot]:
        if "\0" in include:
            raise ConfigIncludeError("Include path must not contain null bytes")
        if len(include) >= MAX_INCLUDE_PATH_LENGTH:
            raise ConfigIncludeError(
                f"Include path exceeds maximum length ({MAX_INCLUDE_PATH_LENGTH} characters)")
        target = include if include.startswith("/") else paths.resolve_path(os.path.dirname(base), include)
        normalized = paths.normalize_path(target)
        if len(normalized) >= MAX_INCLUDE_PATH_LENGTH:
            raise ConfigIncludeError(
                f"Resolved include path exceeds maximum length ({MAX_INCLUDE_PATH_LENGTH} characters)")
        lexical = self._containing(normalized, real=False)
        if lexical is None:
            raise ConfigIncludeError(
                f"Include path escapes config directory: {include} (root: {self.root.root_dir})")
        try:
            real = os.path.realpath(normalized, strict=True)
        except FileNotFoundError:
            return normalized, lexical
        except (OSError, ValueError):
            raise ConfigIncludeError(
                f"Failed to resolve include file realpath: {include} (resolved: {normalized})") from None
        match = self._containing(real, real=True)
        if match is None:
            raise ConfigIncludeError(
                f"Include path resolves outside config directory (symlink): {include} (root: {self.root.root_dir})")
        return normalized, match

    def _read(self, include: str, resolved: str) -> str:
        failed = f"Failed to read include file: {include} (resolved: {resolved})"
        try:
            info = os.stat(resolved)
        except OSError:
            raise ConfigIncludeError(failed) from None
        if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_INCLUDE_BYTES or info.st_nlink > 1:
            raise ConfigIncludeError(
                f"Include file failed security checks (regular file, max {MAX_INCLUDE_BYTES} bytes, "
                f"no hardlinks): {include}")
        try:
            return _read_text(resolved)
        except OSError:
            raise ConfigIncludeError(failed) from None

    def _load(self, include: str, base: str, chain: tuple[str, ...], depth: int) -> Any:
        resolved, _root = self._locate(include, base)
        if resolved in chain:
            raise ConfigIncludeError("Circular include detected: " + " -> ".join((*chain, resolved)))
        if depth >= MAX_INCLUDE_DEPTH:
            raise ConfigIncludeError(f"Maximum include depth ({MAX_INCLUDE_DEPTH}) exceeded at: {include}")
        raw = self._read(include, resolved)
        try:
            import json5

            parsed = _js_numbers(json5.loads(raw))
        except Exception:
            raise ConfigIncludeError(
                f"Failed to parse include file: {include} (resolved: {resolved})") from None
        return self.process(parsed, resolved, (*chain, resolved), depth + 1)


def resolve_includes(value: Any, config_path: str, env: Mapping[str, str] | None = None) -> Any:
    """Replace every `$include` in `value` (parsed from `config_path`). Raises ConfigIncludeError."""
    resolver = _Includes(config_path, paths.resolve_include_roots(env))
    return resolver.process(value, config_path, (paths.normalize_path(config_path),), 0)


# --------------------------------------------------------------------------------------
# Environment: blocked keys, the config `env` block, `${VAR}` substitution, dotenv files

_PORTABLE_ENV_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_]*", re.ASCII)
_ENV_REF_NAME = re.compile(r"[A-Z_][A-Z0-9_]*", re.ASCII)

# Host variables that neither the config `env` block nor a workspace `.env` may set.
_HOST_BLOCKED_KEYS = frozenset(["ALL_PROXY", "AMQP_URL", "ANSIBLE_CALLBACK_PLUGINS", "ANSIBLE_COLLECTIONS_PATH", "ANSIBLE_CONFIG", "ANSIBLE_CONNECTION_PLUGINS", "ANSIBLE_FILTER_PLUGINS", "ANSIBLE_INVENTORY_PLUGINS", "ANSIBLE_LIBRARY", "ANSIBLE_LOOKUP_PLUGINS", "ANSIBLE_MODULE_UTILS", "ANSIBLE_REMOTE_TEMP", "ANSIBLE_ROLES_PATH", "ANSIBLE_STRATEGY_PLUGINS", "ANT_OPTS", "AWS_ACCESS_KEY_ID", "AWS_CONFIG_FILE", "AWS_CONTAINER_CREDENTIALS_FULL_URI", "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI", "AWS_SECRET_ACCESS_KEY", "AWS_SECURITY_TOKEN", "AWS_SESSION_TOKEN", "AWS_SHARED_CREDENTIALS_FILE", "AWS_WEB_IDENTITY_TOKEN_FILE", "AZURE_AUTH_LOCATION", "AZURE_CLIENT_ID", "AZURE_CLIENT_SECRET", "BASHOPTS", "BASH_ENV", "BROWSER", "BUNDLE_GEMFILE", "BUN_CONFIG_REGISTRY", "BZR_EDITOR", "BZR_PLUGIN_PATH", "BZR_SSH", "CARGO_BUILD_RUSTC", "CARGO_BUILD_RUSTC_WORKSPACE_WRAPPER", "CARGO_BUILD_RUSTC_WRAPPER", "CARGO_BUILD_RUSTDOC", "CARGO_HOME", "CATALINA_OPTS", "CC", "CFLAGS", "CGO_CFLAGS", "CGO_LDFLAGS", "CLASSPATH", "CMAKE_CXX_COMPILER", "CMAKE_C_COMPILER", "CMAKE_TOOLCHAIN_FILE", "COMPOSER_HOME", "CONDA_DEFAULT_ENV", "CONDA_PREFIX", "CONFIG_SHELL", "CONFIG_SITE", "CORECLR_PROFILER", "CORECLR_PROFILER_PATH", "CPATH", "CPLUS_INCLUDE_PATH", "CURL_CA_BUNDLE", "CURL_HOME", "CXX", "C_INCLUDE_PATH", "DATABASE_URL", "DENO_DIR", "DOCKER_CERT_PATH", "DOCKER_CONTEXT", "DOCKER_HOST", "DOCKER_TLS_VERIFY", "DOTNET_ADDITIONAL_DEPS", "DOTNET_STARTUP_HOOKS", "EDITOR", "ELIXIR_ERL_OPTIONS", "EMACSLOADPATH", "ENV", "ERL_AFLAGS", "ERL_FLAGS", "ERL_ZFLAGS", "EXINIT", "FCEDIT", "FPATH", "GCONV_PATH", "GEM_HOME", "GEM_PATH", "GH_TOKEN", "GITHUB_TOKEN", "GITLAB_TOKEN", "GIT_ALLOW_PROTOCOL", "GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_ASKPASS", "GIT_COMMON_DIR", "GIT_DIR", "GIT_EDITOR", "GIT_EXEC_PATH", "GIT_EXTERNAL_DIFF", "GIT_HOOK_PATH", "GIT_INDEX_FILE", "GIT_NAMESPACE", "GIT_OBJECT_DIRECTORY", "GIT_PAGER", "GIT_PROTOCOL_FROM_USER", "GIT_PROXY_COMMAND", "GIT_SEQUENCE_EDITOR", "GIT_SSH", "GIT_SSH_COMMAND", "GIT_SSL_CAINFO", "GIT_SSL_CAPATH", "GIT_SSL_NO_VERIFY", "GIT_TEMPLATE_DIR", "GIT_WORK_TREE", "GLIBC_TUNABLES", "GOENV", "GOFLAGS", "GONOPROXY", "GONOSUMCHECK", "GONOSUMDB", "GOOGLE_APPLICATION_CREDENTIALS", "GOPATH", "GOPRIVATE", "GOPROXY", "GRADLE_OPTS", "GRADLE_USER_HOME", "GVIMINIT", "HELM_HOME", "HELM_PLUGINS", "HGEDITOR", "HGMERGE", "HGRCPATH", "HISTFILE", "HOME", "HOSTALIASES", "HTTPS_PROXY", "HTTP_PROXY", "IFS", "JAVA_OPTS", "JAVA_TOOL_OPTIONS", "JDK_JAVA_OPTIONS", "JULIA_EDITOR", "KSH_ENV", "KUBECONFIG", "LDFLAGS", "LESSCLOSE", "LESSOPEN", "LIBRARY_PATH", "LUA_CPATH", "LUA_INIT", "LUA_INIT_5_1", "LUA_INIT_5_2", "LUA_INIT_5_3", "LUA_INIT_5_4", "LUA_PATH", "MAKE", "MAKEFLAGS", "MANPAGER", "MAVEN_OPTS", "MFLAGS", "MONGODB_URI", "MYVIMRC", "NODE_AUTH_TOKEN", "NODE_EXTRA_CA_CERTS", "NODE_OPTIONS", "NODE_PATH", "NODE_REDIRECT_WARNINGS", "NODE_REPL_EXTERNAL_MODULE", "NODE_REPL_HISTORY", "NODE_TLS_REJECT_UNAUTHORIZED", "NODE_V8_COVERAGE", "NO_PROXY", "NPM_TOKEN", "OBJC_INCLUDE_PATH", "OPENSSL_CONF", "OPENSSL_ENGINES", "PACKER_PLUGIN_PATH", "PAGER", "PERL5DB", "PERL5DBCMD", "PERL5LIB", "PERL5OPT", "PHPRC", "PHP_INI_SCAN_DIR", "PIP_CONFIG_FILE", "PIP_EXTRA_INDEX_URL", "PIP_FIND_LINKS", "PIP_INDEX_URL", "PIP_PYPI_URL", "PIP_TRUSTED_HOST", "PROMPT_COMMAND", "PS4", "PYTHONBREAKPOINT", "PYTHONHOME", "PYTHONPATH", "PYTHONSTARTUP", "PYTHONUSERBASE", "REDIS_URL", "REQUESTS_CA_BUNDLE", "RUBYLIB", "RUBYOPT", "RUBYSHELL", "RUSTC", "RUSTC_WORKSPACE_WRAPPER", "RUSTC_WRAPPER", "RUSTDOC", "RUSTFLAGS", "RUSTUP_DIST_ROOT", "RUSTUP_DIST_SERVER", "RUSTUP_HOME", "RUSTUP_TOOLCHAIN", "RUSTUP_UPDATE_ROOT", "R_ENVIRON", "R_ENVIRON_USER", "R_LIBS_USER", "R_PROFILE", "R_PROFILE_USER", "SBT_OPTS", "SHELL", "SHELLOPTS", "SSH_ASKPASS", "SSH_AUTH_SOCK", "SSLKEYLOGFILE", "SSL_CERT_DIR", "SSL_CERT_FILE", "SUDO_ASKPASS", "SUDO_EDITOR", "SVN_EDITOR", "SVN_SSH", "SYSTEMROOT", "TCLLIBPATH", "TF_CLI_CONFIG_FILE", "TF_PLUGIN_CACHE_DIR", "UV_DEFAULT_INDEX", "UV_EXTRA_INDEX_URL", "UV_INDEX", "UV_INDEX_URL", "UV_PYTHON", "VAGRANT_VAGRANTFILE", "VIMINIT", "VIRTUAL_ENV", "VISUAL", "WGETRC", "WINDIR", "XDG_CACHE_HOME", "XDG_CONFIG_DIRS", "XDG_CONFIG_HOME", "XDG_DATA_DIRS", "XDG_DATA_HOME", "XDG_RUNTIME_DIR", "XDG_STATE_HOME", "YARN_RC_FILENAME", "ZDOTDIR", "_JAVA_OPTIONS"])
_HOST_BLOCKED_PREFIXES = ("BASH_FUNC_", "CARGO_REGISTRIES_", "DYLD_", "GIT_CONFIG_", "LD_",
                          "NPM_CONFIG_", "TF_VAR_")
_CARGO_TARGET_OVERRIDE = re.compile(r"CARGO_TARGET_[A-Z0-9_]+_(?:LINKER|RUNNER)", re.ASCII)

# Extra keys a `.env` in the working directory may not set (every OPENCLAW_* key among them).
_WORKSPACE_BLOCKED_KEYS = frozenset(["AI_GATEWAY_API_KEY", "ALL_PROXY", "ANTHROPIC_API_KEY", "ANTHROPIC_OAUTH_TOKEN", "ARCEEAI_API_KEY", "AZURE_OPENAI_API_KEY", "AZURE_SPEECH_API_KEY", "AZURE_SPEECH_KEY", "AZURE_SPEECH_REGION", "BRAVE_API_KEY", "BROWSER_EXECUTABLE_PATH", "BYTEPLUS_API_KEY", "BYTEPLUS_SEED_SPEECH_API_KEY", "CEREBRAS_API_KEY", "CHUTES_API_KEY", "CHUTES_OAUTH_TOKEN", "CLOUDFLARE_AI_GATEWAY_API_KEY", "CLOUDSDK_PYTHON", "COMFY_API_KEY", "COMFY_CLOUD_API_KEY", "COMSPEC", "COPILOT_GITHUB_TOKEN", "DASHSCOPE_API_KEY", "DEEPGRAM_API_KEY", "DEEPINFRA_API_KEY", "DEEPSEEK_API_KEY", "ELEVENLABS_API_KEY", "EXA_API_KEY", "FAL_API_KEY", "FAL_KEY", "FIRECRAWL_API_KEY", "FIREWORKS_API_KEY", "GEMINI_API_KEY", "GH_TOKEN", "GITHUB_TOKEN", "GOOGLE_API_KEY", "GOOGLE_CLOUD_API_KEY", "GRADIUM_API_KEY", "GROQ_API_KEY", "HF_TOKEN", "HOMEBREW_BREW_FILE", "HOMEBREW_PREFIX", "HTTPS_PROXY", "HTTP_PROXY", "HUGGINGFACE_HUB_TOKEN", "INWORLD_API_KEY", "IRC_HOST", "KILOCODE_API_KEY", "KIMICODE_API_KEY", "KIMI_API_KEY", "LITELLM_API_KEY", "LM_API_TOKEN", "LOCALAPPDATA", "MATRIX_HOMESERVER", "MATTERMOST_URL", "MINIMAX_API_HOST", "MINIMAX_API_KEY", "MINIMAX_CODE_PLAN_KEY", "MINIMAX_CODING_API_KEY", "MINIMAX_OAUTH_TOKEN", "MISTRAL_API_KEY", "MODELSTUDIO_API_KEY", "MODEL_API_KEY", "MOONSHOT_API_KEY", "NODE_TLS_REJECT_UNAUTHORIZED", "NO_PROXY", "NPM_CONFIG_PREFIX", "NPM_EXECPATH", "NVIDIA_API_KEY", "OLLAMA_API_KEY", "OPENAI_API_KEY", "OPENAI_API_KEYS", "OPENCODE_API_KEY", "OPENCODE_ZEN_API_KEY", "OPENROUTER_API_KEY", "PATH", "PERPLEXITY_API_KEY", "PI_CODING_AGENT_DIR", "PLAYWRIGHT_CHROMIUM_EXECUTABLE_PATH", "PNPM_HOME", "PROGRAMFILES", "PROGRAMFILES(X86)", "PROGRAMW6432", "QIANFAN_API_KEY", "QWEN_API_KEY", "RUNWAYML_API_SECRET", "RUNWAY_API_KEY", "SENSEAUDIO_API_KEY", "SGLANG_API_KEY", "SLACK_API_URL", "SPEECH_KEY", "SPEECH_REGION", "STATE_DIRECTORY", "STEPFUN_API_KEY", "SYNOLOGY_CHAT_INCOMING_URL", "SYNOLOGY_NAS_HOST", "SYNTHETIC_API_KEY", "TAVILY_API_KEY", "TOGETHER_API_KEY", "TOKENHUB_API_KEY", "TOKENPLAN_API_KEY", "UV_PYTHON", "VENICE_API_KEY", "VLLM_API_KEY", "VOLCANO_ENGINE_API_KEY", "VOLCENGINE_TTS_API_KEY", "VOLCENGINE_TTS_APPID", "VOLCENGINE_TTS_TOKEN", "VOYAGE_API_KEY", "VYDRA_API_KEY", "XAI_API_KEY", "XIAOMI_API_KEY", "XI_API_KEY", "ZAI_API_KEY", "ZALO_API_URL", "Z_AI_API_KEY"])
_WORKSPACE_BLOCKED_PREFIXES = ("ANTHROPIC_API_KEY_", "CLAWHUB_", "OPENAI_API_KEY_", "OPENCLAW_")
_WORKSPACE_BLOCKED_SUFFIXES = ("_API_HOST", "_BASE_URL", "_HOMESERVER")
_CONFIG_ENV_BLOCKED = frozenset({"OPENCLAW_ALLOW_OLDER_BINARY_DESTRUCTIVE_ACTIONS", "OPENCLAW_INCLUDE_ROOTS"})


def _portable_env_key(raw: str) -> str | None:
    key = js_trim(raw)
    return key if key and _PORTABLE_ENV_KEY.fullmatch(key) else None


def is_dangerous_host_env_key(key: str) -> bool:
    upper = js_trim(key).upper()
    if not upper:
        return False
    return (upper in _HOST_BLOCKED_KEYS or upper.startswith(_HOST_BLOCKED_PREFIXES)
            or _CARGO_TARGET_OVERRIDE.fullmatch(upper) is not None)


def _workspace_key_blocked(key: str) -> bool:
    upper = key.upper()
    return (is_dangerous_host_env_key(upper) or upper in _WORKSPACE_BLOCKED_KEYS
            or upper.startswith(_WORKSPACE_BLOCKED_PREFIXES) or upper.endswith(_WORKSPACE_BLOCKED_SUFFIXES))


def _env_token_at(text: str, index: int) -> tuple[str, str, int] | None:
    """('escaped'|'var', NAME, index of '}') for `$${NAME}` / `${NAME}` at `index`."""
    nxt = text[index + 1:index + 2]
    after = text[index + 2:index + 3]
    if nxt == "$" and after == "{":
        end = text.find("}", index + 3)
        if end != -1 and _ENV_REF_NAME.fullmatch(text[index + 3:end]):
            return "escaped", text[index + 3:end], end
    if nxt == "{":
        end = text.find("}", index + 2)
        if end != -1 and _ENV_REF_NAME.fullmatch(text[index + 2:end]):
            return "var", text[index + 2:end], end
    return None


def contains_env_reference(text: str) -> bool:
    """True when `text` has an unescaped `${NAME}`."""
    i = text.find("$")
    while i != -1:
        token = _env_token_at(text, i)
        if token and token[0] == "var":
            return True
        i = text.find("$", token[2] + 1 if token else i + 1)
    return False


def substitute_string(text: str, env: Mapping[str, str],
                      on_missing: Callable[[str], None] | None = None) -> str:
    """Replace `${NAME}` with env values; `$${NAME}` gives a literal `${NAME}`; a missing or
    empty variable leaves `${NAME}` as it is (and is reported to `on_missing`)."""
    if "$" not in text:
        return text
    out: list[str] = []
    i = 0
    while i < len(text):
        char = text[i]
        token = _env_token_at(text, i) if char == "$" else None
        if token is None:
            out.append(char)
            i += 1
            continue
        kind, name, end = token
        value = env.get(name) if kind == "var" else None
        if kind == "var" and value:
            out.append(value)
        else:
            if kind == "var" and on_missing:
                on_missing(name)
            out.append("${" + name + "}")
        i = end + 1
    return "".join(out)


def substitute_env_vars(value: Any, env: Mapping[str, str], path: str = "",
                        on_missing: Callable[[str, str], None] | None = None) -> Any:
    """Apply `substitute_string` to every string value (not keys) in a parsed config."""
    if isinstance(value, str):
        return substitute_string(value, env, (lambda name: on_missing(name, path)) if on_missing else None)
    if isinstance(value, list):
        return [substitute_env_vars(v, env, f"{path}[{i}]", on_missing) for i, v in enumerate(value)]
    if isinstance(value, dict):
        return {k: substitute_env_vars(v, env, f"{path}.{k}" if path else k, on_missing)
                for k, v in value.items()}
    return value


def config_env_vars(cfg: Any) -> dict[str, str]:
    """The variables a config's `env` block (`env.vars.*` and top-level strings) wants to set."""
    block = cfg.get("env") if isinstance(cfg, dict) else None
    if not isinstance(block, dict):
        return {}
    entries: dict[str, str] = {}
    sources = [object_at(block, "vars"),
               {k: v for k, v in block.items() if k not in ("shellEnv", "vars")}]
    for source in sources:
        for raw_key, value in source.items():
            if not isinstance(value, str) or not js_trim(value):
                continue
            key = _portable_env_key(raw_key)
            if not key or key.upper() in _CONFIG_ENV_BLOCKED or is_dangerous_host_env_key(key):
                continue
            if contains_env_reference(value):
                continue
            entries[key] = value
    return entries


def apply_config_env(cfg: Any, env: MutableMapping[str, str]) -> None:
    """Copy the config `env` block into `env`, never replacing a non-blank existing value."""
    for key, value in config_env_vars(cfg).items():
        if js_trim(env.get(key) or ""):
            continue
        env[key] = value
    if not js_trim(env.get("ZAI_API_KEY") or "") and js_trim(env.get("Z_AI_API_KEY") or ""):
        env["ZAI_API_KEY"] = env["Z_AI_API_KEY"]


_JS_SPACE = "[\t\n\x0b\x0c\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]"
_DOTENV_LINE = re.compile(
    rf"^{_JS_SPACE}*(?:export{_JS_SPACE}+)?([A-Za-z0-9_.-]+)(?:{_JS_SPACE}*={_JS_SPACE}*?|:{_JS_SPACE}+?)"
    rf"({_JS_SPACE}*'(?:\\'|[^'])*'|{_JS_SPACE}*\"(?:\\\"|[^\"])*\"|{_JS_SPACE}*`(?:\\`|[^`])*`|[^#\r\n]+)?"
    rf"{_JS_SPACE}*(?:#[^\n\r\u2028\u2029]*)?$",
    re.MULTILINE,
)
_DOTENV_QUOTES = re.compile(r"^(['\"`])([\s\S]*)\1$", re.MULTILINE)


def parse_dotenv(text: str) -> dict[str, str]:
    """Parse `.env` text the way the `dotenv` package does (last assignment wins)."""
    text = re.sub(r"\r\n?", "\n", text)
    result: dict[str, str] = {}
    for match in _DOTENV_LINE.finditer(text):
        value = js_trim(match.group(2) or "")
        quote = value[:1]
        value = _DOTENV_QUOTES.sub(r"\2", value)
        if quote == '"':
            value = value.replace("\\n", "\n").replace("\\r", "\r")
        result[match.group(1)] = value
    return result


def _read_dotenv(path: str, blocked: Callable[[str], bool] | None = None) -> list[tuple[str, str]] | None:
    try:
        text = _read_text(path)
    except OSError:
        return None
    entries = []
    for raw_key, value in parse_dotenv(text).items():
        key = _portable_env_key(raw_key)
        if key and not (blocked and blocked(key)):
            entries.append((key, value))
    return entries


def _load_workspace_dotenv(env: MutableMapping[str, str], cwd: str | None) -> None:
    if not cwd:
        return
    for key, value in _read_dotenv(os.path.join(cwd, ".env"), _workspace_key_blocked) or []:
        if key not in env:
            env[key] = value


def _load_global_dotenv(env: MutableMapping[str, str], state_env_path: str) -> None:
    """`<stateDir>/.env`, then `~/.config/openclaw/gateway.env` (default state dir only);
    the first file to define a key wins and existing variables are never replaced."""
    home = paths.resolve_required_home(env)
    default_state_env = os.path.join(home, paths.STATE_DIRNAME, ".env")
    explicit_state = ("OPENCLAW_STATE_DIR" in env
                      and paths.resolve_path(state_env_path) != paths.resolve_path(default_state_env))
    files = [_read_dotenv(state_env_path)]
    if not explicit_state:
        files.append(_read_dotenv(os.path.join(home, ".config", "openclaw", "gateway.env")))
    preexisting = set(env.keys())
    seen: set[str] = set()
    for entries in files:
        for key, value in entries or []:
            if key in preexisting or key in seen:
                continue
            seen.add(key)
            if key not in env:
                env[key] = value


def _cwd() -> str | None:
    try:
        return os.getcwd()
    except OSError:
        return None


def load_startup_dotenv(env: MutableMapping[str, str], cwd: str | None = None) -> None:
    """The CLI's start-up dotenv pass (before the config path is chosen): only when `./.env`
    or `<stateDir>/.env` exists. A workspace `.env` cannot set OPENCLAW_* and other blocked keys."""
    cwd = cwd if cwd is not None else _cwd()
    state_env = os.path.join(paths.resolve_state_dir(env), ".env")
    if not ((cwd and os.path.exists(os.path.join(cwd, ".env"))) or os.path.exists(state_env)):
        return
    _load_workspace_dotenv(env, cwd)
    _load_global_dotenv(env, state_env)


def load_config_dotenv(env: MutableMapping[str, str], cwd: str | None = None) -> None:
    """The dotenv pass the config loader makes: `./.env`, `<configDir>/.env`, `gateway.env`."""
    cwd = cwd if cwd is not None else _cwd()
    _load_workspace_dotenv(env, cwd)
    _load_global_dotenv(env, os.path.join(paths.resolve_config_dir(env), ".env"))


# --------------------------------------------------------------------------------------
# Validation: OpenClaw's schema for the sections this tool reads, the root key set,
# and the top-level keys of every other section. Issues carry the same paths as the
# OpenClaw; `cont=False` marks issues that stop object refinements (as in OpenClaw).
# Not checked: values inside the other sections and the unmodelled agent fields, plugin and
# channel schemas, SecretRef placement policy, identity.avatar, the CSS grammar of
# gateway.controlUi.chatMessageMaxWidth (URLs are checked loosely).

_MISSING = object()


@dataclass
class _Issue:
    path: tuple
    code: str
    cont: bool
    message: str | None = None
    values: list | None = None
    expected: str | None = None
    bound: tuple[str, float] | None = None
    branches: list[list[_Issue]] | None = None


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if _is_number(a) and _is_number(b):
        return a == b
    return type(a) is type(b) and a == b


def _aborted(issues: list[_Issue]) -> bool:
    return any(not i.cont for i in issues)


class _Schema:
    def check(self, value: Any, path: tuple, out: list[_Issue]) -> None:
        raise NotImplementedError


class _AnyValue(_Schema):
    def check(self, value, path, out):
        return None


class _Str(_Schema):
    def __init__(self, *, min_len: int | None = None, pattern: str | None = None, refine=None,
                 message: str | None = None):
        self.min_len = min_len
        self.pattern = re.compile(pattern) if pattern else None
        self.refine = refine
        self.message = message

    def check(self, value, path, out):
        if not isinstance(value, str):
            out.append(_Issue(path, "invalid_type", False, expected="string"))
            return
        if self.min_len is not None and len(value) < self.min_len:
            out.append(_Issue(path, "too_small", True, message=self.message))
        if self.pattern is not None and not self.pattern.search(value):
            out.append(_Issue(path, "invalid_format", True, message=self.message))
        if self.refine is not None and not self.refine(value):
            out.append(_Issue(path, "custom", True, message=self.message))


class _Num(_Schema):
    def __init__(self, *, integer: bool = False, gt: float | None = None, ge: float | None = None,
                 le: float | None = None, refine=None):
        self.integer, self.gt, self.ge, self.le, self.refine = integer, gt, ge, le, refine

    def check(self, value, path, out):
        if not _is_number(value) or math.isnan(value) or math.isinf(value):
            out.append(_Issue(path, "invalid_type", False, expected="number"))
            return
        if self.integer:
            if not float(value).is_integer():
                out.append(_Issue(path, "invalid_type", False, expected="int"))
                return
            if abs(value) > MAX_SAFE_INTEGER:
                out.append(_Issue(path, "too_big", True))
        if self.gt is not None and not value > self.gt:
            out.append(_Issue(path, "too_small", True, bound=("gt", self.gt)))
        if self.ge is not None and not value >= self.ge:
            out.append(_Issue(path, "too_small", True, bound=("ge", self.ge)))
        if self.le is not None and not value <= self.le:
            out.append(_Issue(path, "too_big", True, bound=("le", self.le)))
        if self.refine is not None and not self.refine(value):
            out.append(_Issue(path, "invalid_type", False))


class _Bool(_Schema):
    def check(self, value, path, out):
        if not isinstance(value, bool):
            out.append(_Issue(path, "invalid_type", False, expected="boolean"))


class _Lit(_Schema):
    def __init__(self, *values: Any):
        self.values = list(values)

    def check(self, value, path, out):
        if value is _MISSING or not any(_same(value, v) for v in self.values):
            out.append(_Issue(path, "invalid_value", False, values=self.values))


class _Obj(_Schema):
    def __init__(self, shape: Mapping[str, _Schema], *, required: tuple[str, ...] = (),
                 strict: bool = True, catchall: _Schema | None = None, refine=None):
        self.shape = dict(shape)
        self.required = required
        self.strict = strict
        self.catchall = catchall
        self.refine = refine

    def check(self, value, path, out):
        if not isinstance(value, dict):
            out.append(_Issue(path, "invalid_type", False, expected="object"))
            return
        start = len(out)
        for key, schema in self.shape.items():
            if key in value:
                schema.check(value[key], (*path, key), out)
            elif key in self.required:
                schema.check(_MISSING, (*path, key), out)
        extra = [k for k in value if k not in self.shape]
        if self.catchall is not None:
            for key in extra:
                self.catchall.check(value[key], (*path, key), out)
        elif self.strict and extra:
            out.append(_Issue(path, "unrecognized_keys", False))
        if self.refine is not None and not _aborted(out[start:]):
            self.refine(value, path, out)


class _AnyObj(_Obj):
    """An object whose own keys are checked but whose values are not."""

    def __init__(self, keys: str = "", *, strict: bool = True):
        super().__init__({k: _AnyValue() for k in keys.split()}, strict=strict)


class _Rec(_Schema):
    def __init__(self, value: _Schema, key: _Schema | None = None):
        self.value, self.key = value, key

    def check(self, value, path, out):
        if not isinstance(value, dict):
            out.append(_Issue(path, "invalid_type", False, expected="record"))
            return
        for key, item in value.items():
            if self.key is not None:
                self.key.check(key, (*path, key), out)
            self.value.check(item, (*path, key), out)


class _Arr(_Schema):
    def __init__(self, item: _Schema, *, min_items: int | None = None, max_items: int | None = None):
        self.item, self.min_items, self.max_items = item, min_items, max_items

    def check(self, value, path, out):
        if not isinstance(value, list):
            out.append(_Issue(path, "invalid_type", False, expected="array"))
            if not isinstance(value, str):
                return
            # OpenClaw still runs its length checks on a string (it has a length).
        else:
            for index, item in enumerate(value):
                self.item.check(item, (*path, index), out)
        if self.min_items is not None and len(value) < self.min_items:
            out.append(_Issue(path, "too_small", True))
        if self.max_items is not None and len(value) > self.max_items:
            out.append(_Issue(path, "too_big", True))


class _Union(_Schema):
    def __init__(self, *options: _Schema):
        self.options = options

    def check(self, value, path, out):
        results = []
        for option in self.options:
            branch: list[_Issue] = []
            option.check(value, path, branch)
            if not branch:
                return
            results.append(branch)
        usable = [b for b in results if not _aborted(b)]
        if len(usable) == 1:
            out.extend(usable[0])
            return
        out.append(_Issue(path, "invalid_union", False, branches=results))


class _Tagged(_Schema):
    """A discriminated union on `key`."""

    def __init__(self, key: str, options: Mapping[str, _Obj]):
        self.key, self.options = key, dict(options)

    def check(self, value, path, out):
        if not isinstance(value, dict):
            out.append(_Issue(path, "invalid_type", False, expected="object"))
            return
        tag = value.get(self.key)
        option = self.options.get(tag) if isinstance(tag, str) else None
        if option is None:
            out.append(_Issue((*path, self.key), "invalid_union", False, branches=[]))
            return
        option.check(value, path, out)


def _custom(out: list[_Issue], path: tuple, message: str) -> None:
    out.append(_Issue(path, "custom", True, message=message))


def _js_label(value: Any) -> str:
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    return js_number_string(value) if _is_number(value) else json.dumps(value)


_INCOMPLETE = None


def _allowed_values(issue: _Issue) -> list | None:
    """Values that would have been accepted ([] when unknown, None when incomplete)."""
    if issue.code == "invalid_value":
        return list(issue.values or [])
    if issue.code == "invalid_type":
        return [True, False] if issue.expected == "boolean" else _INCOMPLETE
    if issue.code != "invalid_union":
        return []
    if not issue.branches:
        return _INCOMPLETE
    collected: list = []
    for branch in issue.branches:
        if not branch:
            return _INCOMPLETE
        branch_values: list = []
        for nested in branch:
            values = _allowed_values(nested)
            if values is _INCOMPLETE:
                return _INCOMPLETE
            branch_values += values
        if not branch_values:
            return _INCOMPLETE
        collected += branch_values
    return collected


def _issue_message(issue: _Issue) -> str:
    message = issue.message or "Invalid input"
    if issue.bound is not None:
        kind, limit = issue.bound
        text = js_number_string(limit)
        message += {"gt": f" (must be greater than {text})", "ge": f" (minimum: {text})",
                    "le": f" (maximum: {text})"}[kind]
    values = _allowed_values(issue)
    if values and "(allowed:" not in message.lower():
        labels: list[str] = []
        for value in values:
            label = _js_label(value)
            if label not in labels:
                labels.append(label)
        shown = labels[:12]
        hidden = len(labels) - len(shown)
        message += " (allowed: " + ", ".join(shown) + (f", ... (+{hidden} more)" if hidden else "") + ")"
    return message


def _to_config_issue(issue: _Issue) -> ConfigIssue:
    return ConfigIssue(".".join(str(p) for p in issue.path), _issue_message(issue))


def _int(**bounds: float) -> _Num:
    return _Num(integer=True, **bounds)


_STR = _Str()
_BOOL = _Bool()
_ANY = _AnyValue()
_POS_INT = _int(gt=0)
_NONNEG_INT = _int(ge=0)
_STR_LIST = _Arr(_STR)
_STR_OR_NUM = _Union(_STR, _Num())


def _stringified(value: Any) -> str:
    """normalizeStringifiedOptionalString(value) ?? ''."""
    if isinstance(value, str):
        return js_trim(value)
    if isinstance(value, (bool, int, float)):
        return js_trim(js_number_string(value))
    return ""


def _duration_ok(value: Any, default_unit: str) -> bool:
    try:
        parse_duration_ms(_stringified(value), default_unit)
        return True
    except ValueError:
        return False


def _size_ok(value: Any) -> bool:
    try:
        parse_byte_size(_stringified(value), "b")
        return True
    except ValueError:
        return False


_BAD_DURATION = "invalid duration (use ms, s, m, h, d)"
_BAD_SIZE = "invalid size (use b, kb, mb, gb, tb)"


def _refine_maintenance(value: dict, path: tuple, out: list[_Issue]) -> None:
    if "pruneAfter" in value and not _duration_ok(value["pruneAfter"], "d"):
        _custom(out, (*path, "pruneAfter"), _BAD_DURATION)
    retention = value.get("resetArchiveRetention", _MISSING)
    if retention is not _MISSING and retention is not False and not _duration_ok(retention, "d"):
        _custom(out, (*path, "resetArchiveRetention"), _BAD_DURATION)
    for key in ("maxDiskBytes", "highWaterBytes"):
        if key in value and not _size_ok(value[key]):
            _custom(out, (*path, key), _BAD_SIZE)


_RESET = _Obj({"mode": _Lit("daily", "idle"), "atHour": _int(ge=0, le=23), "idleMinutes": _POS_INT})
_CHAT_TYPES = _Lit("direct", "group", "channel", "dm")
_ALLOW_DENY = _Lit("allow", "deny")
_SEND_POLICY = _Obj({
    "default": _ALLOW_DENY,
    "rules": _Arr(_Obj({
        "action": _ALLOW_DENY,
        "match": _Obj({"channel": _STR, "chatType": _CHAT_TYPES, "keyPrefix": _STR, "rawKeyPrefix": _STR}),
    }, required=("action",))),
})
_DM_SCOPE = _Lit("main", "per-peer", "per-channel-peer", "per-account-channel-peer")

_SESSION = _Obj({
    "scope": _Lit("per-sender", "global"),
    "dmScope": _DM_SCOPE,
    "identityLinks": _Rec(_STR_LIST),
    "resetTriggers": _STR_LIST,
    "idleMinutes": _POS_INT,
    "reset": _RESET,
    "resetByType": _Obj({"direct": _RESET, "dm": _RESET, "group": _RESET, "thread": _RESET}),
    "resetByChannel": _Rec(_RESET),
    "store": _STR,
    "typingIntervalSeconds": _POS_INT,
    "typingMode": _Lit("never", "instant", "thinking", "message"),
    "mainKey": _STR,
    "sendPolicy": _SEND_POLICY,
    "writeLock": _Obj({"acquireTimeoutMs": _POS_INT, "staleMs": _POS_INT, "maxHoldMs": _POS_INT}),
    "agentToAgent": _Obj({"maxPingPongTurns": _int(ge=0, le=20)}),
    "threadBindings": _Obj({
        "enabled": _BOOL, "idleHours": _Num(ge=0), "maxAgeHours": _Num(ge=0), "spawnSessions": _BOOL,
        "defaultSpawnContext": _Lit("isolated", "fork"),
    }),
    "maintenance": _Obj({
        "mode": _Lit("enforce", "warn"),
        "pruneAfter": _STR_OR_NUM,
        "pruneDays": _POS_INT,
        "maxEntries": _POS_INT,
        "rotateBytes": _STR_OR_NUM,
        "resetArchiveRetention": _Union(_STR, _Num(), _Lit(False)),
        "maxDiskBytes": _STR_OR_NUM,
        "highWaterBytes": _STR_OR_NUM,
    }, refine=_refine_maintenance),
})

_AGENT_MODEL = _Union(_STR, _Obj({"primary": _STR, "fallbacks": _STR_LIST}))
_THINKING = _Lit("off", "minimal", "low", "medium", "high", "xhigh", "adaptive", "max", "ultra")
_MODEL_ENTRY = _Obj({"alias": _STR, "params": _Rec(_ANY), "agentRuntime": _Obj({"id": _STR}),
                     "streaming": _BOOL})
_AGENT_RUNTIME = _Union(
    _Obj({"type": _Lit("embedded")}, required=("type",)),
    _Obj({"type": _Lit("acp"),
          "acp": _Obj({"agent": _STR, "backend": _STR, "mode": _Lit("persistent", "oneshot"), "cwd": _STR})},
         required=("type",)),
)


def _with_keys(shape: dict[str, _Schema], keys: str) -> dict[str, _Schema]:
    """`shape` plus unchecked entries for the other keys OpenClaw accepts."""
    return {**dict.fromkeys(keys.split(), _ANY), **shape}


_AGENT_ENTRY = _Obj(_with_keys({
    "id": _STR, "default": _BOOL, "name": _STR, "description": _STR, "workspace": _STR, "agentDir": _STR,
    "model": _AGENT_MODEL, "utilityModel": _STR, "models": _Rec(_MODEL_ENTRY), "thinkingDefault": _THINKING,
    "verboseDefault": _Lit("off", "on", "full"), "toolProgressDetail": _Lit("explain", "raw"),
    "reasoningDefault": _Lit("on", "off", "stream"), "fastModeDefault": _Union(_BOOL, _Lit("auto")),
    "contextInjection": _Lit("always", "continuation-skip", "never"), "bootstrapMaxChars": _POS_INT,
    "bootstrapTotalMaxChars": _POS_INT, "experimental": _Obj({"localModelLean": _BOOL}),
    "skills": _STR_LIST, "contextTokens": _POS_INT, "params": _Rec(_ANY), "runtime": _AGENT_RUNTIME,
}, "memorySearch humanDelay tts skillsLimits contextLimits heartbeat identity groupChat subagents "
   "runRetries embeddedAgent sandbox tools"), required=("id",))

_AGENT_DEFAULTS = _Obj(_with_keys({
    "model": _AGENT_MODEL, "utilityModel": _STR, "workspace": _STR, "models": _Rec(_MODEL_ENTRY),
    "skills": _STR_LIST, "params": _Rec(_ANY), "repoRoot": _STR, "userTimezone": _STR,
    "contextTokens": _POS_INT, "maxConcurrent": _POS_INT, "timeoutSeconds": _POS_INT,
}, "imageModel imageGenerationModel videoGenerationModel musicGenerationModel voiceModel "
   "mediaGenerationAutoProviderFallback pdfModel pdfMaxBytesMb pdfMaxPages silentReply promptOverlays "
   "skipBootstrap skipOptionalBootstrapFiles contextInjection bootstrapMaxChars bootstrapTotalMaxChars "
   "experimental bootstrapPromptTruncationWarning startupContext contextLimits timeFormat envelopeTimezone "
   "envelopeTimestamp envelopeElapsed cliBackends memorySearch contextPruning compaction runRetries "
   "embeddedAgent thinkingDefault verboseDefault toolProgressDetail reasoningDefault elevatedDefault "
   "blockStreamingDefault blockStreamingBreak blockStreamingChunk blockStreamingCoalesce humanDelay "
   "mediaMaxMb imageMaxDimensionPx imageQuality typingIntervalSeconds typingMode heartbeat subagents sandbox"))

_ACP = _Obj({
    "enabled": _BOOL,
    "dispatch": _Obj({"enabled": _BOOL}),
    "backend": _STR,
    "fallbacks": _STR_LIST,
    "defaultAgent": _STR,
    "allowedAgents": _STR_LIST,
    "maxConcurrentSessions": _POS_INT,
    "stream": _Obj({
        "coalesceIdleMs": _NONNEG_INT, "maxChunkChars": _POS_INT, "repeatSuppression": _BOOL,
        "deliveryMode": _Lit("live", "final_only"),
        "hiddenBoundarySeparator": _Lit("none", "space", "newline", "paragraph"),
        "maxOutputChars": _POS_INT, "maxSessionUpdateChars": _POS_INT, "tagVisibility": _Rec(_BOOL),
    }),
    "runtime": _Obj({"ttlMinutes": _POS_INT, "installCommand": _STR}),
})

_PROVIDER_ALIAS = r"^[a-z][a-z0-9_-]{0,63}\Z"
_PROVIDER_MSG = 'Secret reference provider must match /^[a-z][a-z0-9_-]{0,63}$/ (example: "default").'
_FILE_SEGMENT = re.compile(r"(?:[^~]|~0|~1)*\Z")
_EXEC_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:/#-]{0,255}\Z")


def _file_ref_id_ok(value: str) -> bool:
    if value == "value":
        return True
    return value.startswith("/") and all(_FILE_SEGMENT.match(s) for s in value[1:].split("/"))


def _exec_ref_id_ok(value: str) -> bool:
    return bool(_EXEC_ID.match(value)) and all(s not in (".", "..") for s in value.split("/"))


def _secret_ref(source: str, id_schema: _Str) -> _Obj:
    return _Obj({"source": _Lit(source), "provider": _Str(pattern=_PROVIDER_ALIAS, message=_PROVIDER_MSG),
                 "id": id_schema}, required=("source", "provider", "id"))


_SECRET_INPUT = _Union(_STR, _Tagged("source", {
    "env": _secret_ref("env", _Str(
        pattern=r"^[A-Z][A-Z0-9_]{0,127}\Z",
        message='Env secret reference id must match /^[A-Z][A-Z0-9_]{0,127}$/ (example: "OPENAI_API_KEY").')),
    "file": _secret_ref("file", _Str(
        refine=_file_ref_id_ok,
        message='File secret reference id must be an absolute JSON pointer (example: "/providers/openai/apiKey"), '
                'or "value" for singleValue mode.')),
    "exec": _secret_ref("exec", _Str(
        refine=_exec_ref_id_ok,
        message='Exec secret reference id must match /^[A-Za-z0-9][A-Za-z0-9._:/#-]{0,255}$/ and must not '
                'include "." or ".." path segments (example: "vault/openai/api-key" or "aws/secret#json_key").')),
}))


def _not_blank(message: str) -> _Str:
    return _Str(refine=lambda v: bool(js_trim(v)), message=message)


def _refine_gateway(value: dict, path: tuple, out: list[_Issue]) -> None:
    health = value.get("channelHealthCheckMinutes")
    effective = 5 if health is None else health
    stale = value.get("channelStaleEventThresholdMinutes")
    if stale is not None and effective != 0 and stale < effective:
        _custom(out, (*path, "channelStaleEventThresholdMinutes"),
                "channelStaleEventThresholdMinutes should be >= channelHealthCheckMinutes to avoid "
                "delayed stale detection")


_URL_FETCH = {"allowUrl": _BOOL, "urlAllowlist": _STR_LIST, "allowedMimes": _STR_LIST,
              "maxBytes": _POS_INT, "maxRedirects": _NONNEG_INT, "timeoutMs": _POS_INT}

_GATEWAY = _Obj({
    "port": _POS_INT,
    "mode": _Lit("local", "remote"),
    "bind": _Lit("auto", "lan", "loopback", "custom", "tailnet"),
    "customBindHost": _STR,
    "controlUi": _Obj({
        "enabled": _BOOL, "basePath": _STR, "root": _STR, "embedSandbox": _Lit("strict", "scripts", "trusted"),
        "allowExternalEmbedUrls": _BOOL, "chatMessageMaxWidth": _STR, "allowedOrigins": _STR_LIST,
        "dangerouslyAllowHostHeaderOriginFallback": _BOOL, "allowInsecureAuth": _BOOL,
        "dangerouslyDisableDeviceAuth": _BOOL,
    }),
    "terminal": _Obj({"enabled": _BOOL, "shell": _STR, "detachedSessionTimeoutSeconds": _int(ge=0)}),
    "auth": _Obj({
        "mode": _Lit("none", "token", "password", "trusted-proxy"),
        "token": _SECRET_INPUT,
        "password": _SECRET_INPUT,
        "allowTailscale": _BOOL,
        "rateLimit": _Obj({"maxAttempts": _Num(), "windowMs": _Num(), "lockoutMs": _Num(),
                           "exemptLoopback": _BOOL}),
        "trustedProxy": _Obj({
            "userHeader": _Str(min_len=1, message="userHeader is required for trusted-proxy mode"),
            "requiredHeaders": _STR_LIST, "allowUsers": _STR_LIST, "allowLoopback": _BOOL,
        }, required=("userHeader",)),
    }),
    "trustedProxies": _STR_LIST,
    "allowRealIpFallback": _BOOL,
    "tools": _Obj({"deny": _STR_LIST, "allow": _STR_LIST}),
    "handshakeTimeoutMs": _int(ge=1),
    "channelHealthCheckMinutes": _int(ge=0),
    "channelStaleEventThresholdMinutes": _int(ge=1),
    "channelMaxRestartsPerHour": _int(ge=1),
    "tailscale": _Obj({
        "mode": _Lit("off", "serve", "funnel"), "resetOnExit": _BOOL,
        "serviceName": _Str(pattern=r"^svc:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\Z",
                            message='Tailscale serviceName must use the "svc:<dns-label>" format, '
                                    'for example "svc:openclaw"'),
        "preserveFunnel": _BOOL,
    }),
    "remote": _Obj({
        "enabled": _BOOL, "url": _STR, "transport": _Lit("ssh", "direct"), "remotePort": _int(ge=1, le=65535),
        "token": _SECRET_INPUT, "password": _SECRET_INPUT, "tlsFingerprint": _STR, "sshTarget": _STR,
        "sshIdentity": _STR, "sshHostKeyPolicy": _Lit("strict", "openssh"),
    }),
    "reload": _Obj({"mode": _Lit("off", "restart", "hot", "hybrid"), "debounceMs": _int(ge=0),
                    "deferralTimeoutMs": _int(ge=0)}),
    "tls": _Obj({
        "enabled": _BOOL, "autoGenerate": _BOOL, "certPath": _not_blank("certPath must not be blank"),
        "keyPath": _not_blank("keyPath must not be blank"), "caPath": _STR,
    }, strict=False),
    "http": _Obj({
        "endpoints": _Obj({
            "chatCompletions": _Obj({
                "enabled": _BOOL, "maxBodyBytes": _POS_INT, "maxImageParts": _NONNEG_INT,
                "maxTotalImageBytes": _POS_INT, "images": _Obj(_URL_FETCH),
            }),
            "responses": _Obj({
                "enabled": _BOOL, "maxBodyBytes": _POS_INT, "maxUrlParts": _NONNEG_INT,
                "files": _Obj({**_URL_FETCH, "maxChars": _POS_INT,
                               "pdf": _Obj({"maxPages": _POS_INT, "maxPixels": _POS_INT,
                                            "minTextChars": _NONNEG_INT})}),
                "images": _Obj(_URL_FETCH),
            }),
        }),
        "securityHeaders": _Obj({"strictTransportSecurity": _Union(_STR, _Lit(False))}),
    }),
    "push": _Obj({"apns": _Obj({"relay": _Obj({"baseUrl": _STR, "timeoutMs": _POS_INT})})}),
    "nodes": _Obj({
        "browser": _Obj({"mode": _Lit("auto", "manual", "off"), "node": _STR}),
        "pairing": _Obj({"autoApproveCidrs": _STR_LIST}),
        "allowCommands": _STR_LIST, "denyCommands": _STR_LIST,
    }),
}, refine=_refine_gateway)


def _is_http_url(value: str) -> bool:
    from urllib.parse import urlsplit

    try:
        parts = urlsplit(value)
    except ValueError:
        return False
    return parts.scheme in ("http", "https") and bool(parts.netloc)


def _refine_cron(value: dict, path: tuple, out: list[_Issue]) -> None:
    retention = value.get("sessionRetention", _MISSING)
    if retention is not _MISSING and retention is not False and not _duration_ok(retention, "h"):
        _custom(out, (*path, "sessionRetention"), _BAD_DURATION)
    run_log = value.get("runLog")
    if isinstance(run_log, dict) and "maxBytes" in run_log and not _size_ok(run_log["maxBytes"]):
        _custom(out, (*path, "runLog", "maxBytes"), _BAD_SIZE)


_CRON = _Obj({
    "enabled": _BOOL,
    "store": _STR,
    "maxConcurrentRuns": _POS_INT,
    "triggers": _Obj({"enabled": _BOOL, "minIntervalMs": _POS_INT}),
    "retry": _Obj({
        "maxAttempts": _int(ge=0, le=10),
        "backoffMs": _Arr(_NONNEG_INT, min_items=1, max_items=10),
        "retryOn": _Arr(_Lit("rate_limit", "overloaded", "network", "timeout", "server_error"), min_items=1),
    }),
    "webhook": _Str(refine=_is_http_url, message="Expected http:// or https:// URL"),
    "webhookToken": _SECRET_INPUT,
    "sessionRetention": _Union(_STR, _Lit(False)),
    "runLog": _Obj({"maxBytes": _STR_OR_NUM, "keepLines": _POS_INT}),
    "failureAlert": _Obj({"enabled": _BOOL, "after": _int(ge=1), "cooldownMs": _int(ge=0),
                          "includeSkipped": _BOOL, "mode": _Lit("announce", "webhook"), "accountId": _STR}),
    "failureDestination": _Obj({"channel": _STR, "to": _STR, "accountId": _STR,
                                "mode": _Lit("announce", "webhook")}),
}, refine=_refine_cron)


def _refine_acp_binding(value: dict, path: tuple, out: list[_Issue]) -> None:
    match = object_at(value, "match")
    peer = object_at(match, "peer")
    peer_id = peer.get("id")
    if not (isinstance(peer_id, str) and js_trim(peer_id)):
        _custom(out, (*path, "match", "peer"),
                "ACP bindings require match.peer.id to target a concrete conversation.")


_BINDING_MATCH = _Obj({
    "channel": _STR, "accountId": _STR,
    "peer": _Obj({"kind": _Lit("direct", "group", "channel", "dm"), "id": _STR}, required=("kind", "id")),
    "guildId": _STR, "teamId": _STR, "roles": _STR_LIST,
}, required=("channel",))
_BINDINGS = _Arr(_Union(
    _Obj({"type": _Lit("route"), "agentId": _STR, "comment": _STR, "match": _BINDING_MATCH,
          "session": _Obj({"dmScope": _DM_SCOPE})}, required=("agentId", "match")),
    _Obj({"type": _Lit("acp"), "agentId": _STR, "comment": _STR, "match": _BINDING_MATCH,
          "acp": _Obj({"mode": _Lit("persistent", "oneshot"), "label": _STR, "cwd": _STR, "backend": _STR})},
         required=("type", "agentId", "match"), refine=_refine_acp_binding),
))


def _valid_timestamp(value: float) -> bool:
    return abs(value) <= 8.64e15


_OTHER_SECTIONS = {
    "wizard": "lastRunAt lastRunVersion lastRunCommit lastRunCommand lastRunMode securityAcknowledgedAt",
    "diagnostics": "enabled flags stuckSessionWarnMs stuckSessionAbortMs memoryPressureSnapshot otel cacheTrace",
    "audit": "enabled",
    "logging": "level file maxFileBytes consoleLevel consoleStyle redactSensitive redactPatterns",
    "cli": "banner",
    "crestodian": "rescue",
    "update": "channel checkOnStart auto",
    "browser": "enabled evaluateEnabled cdpUrl remoteCdpTimeoutMs remoteCdpHandshakeTimeoutMs "
               "localLaunchTimeoutMs localCdpReadyTimeoutMs actionTimeoutMs color executablePath headless "
               "noSandbox attachOnly cdpPortRangeStart defaultProfile snapshotDefaults ssrfPolicy profiles "
               "extraArgs tabCleanup",
    "ui": "seamColor assistant",
    "tui": "footer",
    "secrets": "providers defaults resolution",
    "marketplaces": "feeds sources",
    "auth": "profiles order cooldowns",
    "models": "mode providers pricing",
    "nodeHost": "browserProxy",
    "tools": "profile allow alsoAllow deny byProvider toolsBySender web media links sessions loopDetection "
             "toolSearch codeMode message agentToAgent elevated exec fs subagents sandbox sessions_spawn "
             "experimental",
    "security": "audit installPolicy",
    "audio": "transcription",
    "media": "preserveFilenames ttlHours",
    "messages": "messagePrefix visibleReplies responsePrefix usageTemplate responseUsage groupChat queue "
                "inbound ackReaction ackReactionScope removeAckAfterReply statusReactions suppressToolErrors tts",
    "commands": "native nativeSkills text bash bashForegroundMs config mcp plugins debug restart "
                "useAccessGroups ownerAllowFrom ownerDisplay ownerDisplaySecret allowFrom modelsWrite",
    "approvals": "exec plugin",
    "transcripts": "enabled maxUtterances autoStart",
    "commitments": "enabled maxPerDay",
    "hooks": "enabled path token defaultSessionKey allowRequestSessionKey allowedSessionKeyPrefixes "
             "allowedAgentIds maxBodyBytes presets transformsDir mappings gmail internal",
    "web": "enabled heartbeatSeconds reconnect whatsapp",
    "discovery": "wideArea mdns",
    "talk": "provider providers realtime consultThinkingLevel consultFastMode speechLocale interruptOnSpeech "
            "silenceTimeoutMs",
    "memory": "backend citations qmd",
    "mcp": "servers sessionIdleTtlMs",
    "skills": "allowBundled load install limits workshop entries",
    "plugins": "enabled allow deny load slots entries bundledDiscovery installs",
    "canvasHost": "enabled root port liveReload",
    "proxy": "enabled proxyUrl tls loopbackMode",
}


def _agent_id(value: Any) -> str:
    from openclaw_cli.config.agents import normalize_agent_id

    return normalize_agent_id(value if isinstance(value, str) else None)


def _refine_root(value: dict, path: tuple, out: list[_Issue]) -> None:
    agents = object_at(value, "agents")
    entries = agents.get("list") if isinstance(agents.get("list"), list) else []
    if not entries:
        return
    raw_ids = [e.get("id") for e in entries if isinstance(e, dict)]
    known = {_agent_id(i) for i in raw_ids}
    bindings = value.get("bindings")
    for index, binding in enumerate(bindings if isinstance(bindings, list) else []):
        agent_id = binding.get("agentId") if isinstance(binding, dict) else None
        if isinstance(agent_id, str) and _agent_id(agent_id) not in known:
            _custom(out, ("bindings", index, "agentId"), f'Unknown agent id "{agent_id}" (not in agents.list).')
    broadcast = value.get("broadcast")
    for peer, ids in (broadcast.items() if isinstance(broadcast, dict) else []):
        if peer == "strategy" or not isinstance(ids, list):
            continue
        for index, agent_id in enumerate(ids):
            if not any(_same(agent_id, raw) for raw in raw_ids):
                _custom(out, ("broadcast", peer, index),
                        f'Unknown agent id "{_js_string(agent_id)}" (not in agents.list).')


_ROOT = _Obj({
    "$schema": _STR,
    "meta": _Obj({"lastTouchedVersion": _STR,
                  "lastTouchedAt": _Union(_STR, _Num(refine=_valid_timestamp))}),
    "env": _Obj({"shellEnv": _Obj({"enabled": _BOOL, "timeoutMs": _NONNEG_INT}), "vars": _Rec(_STR)},
                catchall=_STR),
    **{name: _AnyObj(keys) for name, keys in _OTHER_SECTIONS.items()},
    "accessGroups": _Rec(_ANY),
    "acp": _ACP,
    "agents": _Obj({"defaults": _AGENT_DEFAULTS, "list": _Arr(_AGENT_ENTRY)}),
    "bindings": _BINDINGS,
    "broadcast": _Obj({"strategy": _Lit("parallel", "sequential")}, catchall=_STR_LIST),
    "session": _SESSION,
    "cron": _CRON,
    "channels": _AnyObj(strict=False),
    "gateway": _GATEWAY,
    "surfaces": _Rec(_ANY),
}, refine=_refine_root)


def _duplicate_agent_dirs(cfg: dict, env: Mapping[str, str] | None) -> list[ConfigIssue]:
    from openclaw_cli.config.agents import normalize_agent_id

    agents = object_at(cfg, "agents")
    entries = [e for e in agents.get("list") or [] if isinstance(e, dict)]
    default = next((e.get("id") for e in entries if e.get("default")), None)
    if default is None and entries:
        default = entries[0].get("id")
    ids = [normalize_agent_id(default or "main")]
    ids += [normalize_agent_id(e["id"]) for e in entries if e.get("id")]
    for binding in cfg.get("bindings") or []:
        agent_id = binding.get("agentId") if isinstance(binding, dict) else None
        if isinstance(agent_id, str) and js_trim(agent_id):
            ids.append(normalize_agent_id(agent_id))
    state_dir: str | None = None
    by_dir: dict[str, list[str]] = {}
    for agent_id in dict.fromkeys(ids):
        entry = next((e for e in entries if normalize_agent_id(e.get("id")) == agent_id), None)
        configured = js_trim(entry.get("agentDir") or "") if entry else ""
        if configured:
            agent_dir = paths.resolve_user_path(configured, env)
        else:
            state_dir = state_dir or paths.resolve_state_dir(env)
            agent_dir = paths.join_path(state_dir, "agents", agent_id, "agent")
        by_dir.setdefault(paths.resolve_path(agent_dir), []).append(agent_id)
    clashes = [(d, a) for d, a in by_dir.items() if len(a) > 1]
    if not clashes:
        return []
    lines = ["Duplicate agentDir detected (multi-agent config).",
             "Each agent must have a unique agentDir; sharing it causes auth/session state collisions "
             "and token invalidation.", "", "Conflicts:"]
    lines += [f"- {d}: " + ", ".join(f'"{a}"' for a in agent_ids) for d, agent_ids in clashes]
    lines += ["", "Fix: remove the shared agents.list[].agentDir override (or give each agent its own "
                  "directory).",
              "If you want to share credentials, copy auth-profiles.json instead of sharing the entire agentDir."]
    return [ConfigIssue("agents.list", "\n".join(lines))]


def _is_loopback_ipv4(value: Any) -> bool:
    import ipaddress

    text = js_trim(value) if isinstance(value, str) else ""
    if text.startswith("[") and text.endswith("]"):
        text = text[1:-1]
    if not re.fullmatch(r"(?:0|[1-9][0-9]*)(?:\.(?:0|[1-9][0-9]*)){3}", text):
        return False
    try:
        return ipaddress.IPv4Address(text).is_loopback
    except ValueError:
        return False


def _gateway_tailscale_issues(cfg: dict) -> list[ConfigIssue]:
    gateway = object_at(cfg, "gateway")
    tailscale = object_at(gateway, "tailscale")
    mode = tailscale.get("mode", "off")
    if mode not in ("serve", "funnel"):
        return []
    bind = gateway.get("bind", "loopback")
    if bind != "loopback" and not (bind == "custom" and _is_loopback_ipv4(gateway.get("customBindHost"))):
        return [ConfigIssue("gateway.bind",
                            f"gateway.bind must resolve to loopback when gateway.tailscale.mode={mode} "
                            '(use gateway.bind="loopback" or gateway.bind="custom" with '
                            'gateway.customBindHost="127.0.0.1")')]
    auth = object_at(gateway, "auth")
    if auth.get("mode") == "none":
        if mode == "funnel":
            message = ("gateway.tailscale.mode=funnel requires gateway.auth.mode=password; auth.mode=none "
                       "cannot be used when exposing the gateway through Tailscale Funnel")
        else:
            message = (f"gateway.auth.mode=none cannot be used with gateway.tailscale.mode={mode}; configure "
                       "token, password, or trusted-proxy auth before exposing the gateway through Tailscale")
        return [ConfigIssue("gateway.auth.mode", message)]
    return []


def validate_config(cfg: Any, env: Mapping[str, str] | None = None) -> list[ConfigIssue]:
    """OpenClaw's accept/reject decision for a resolved config (see module notes)."""
    found: list[_Issue] = []
    _ROOT.check(cfg, (), found)
    if found:
        return [_to_config_issue(i) for i in found]
    return _duplicate_agent_dirs(cfg, env) or _gateway_tailscale_issues(cfg)


# --------------------------------------------------------------------------------------
# Loading


def load_config(env: MutableMapping[str, str] | None = None, *, strict: bool = True,
                dotenv: bool = True, cwd: str | None = None) -> LoadedConfig:
    """Read the active config the way OpenClaw's CLI does.

    `env` (default: os.environ) is updated in place like OpenClaw's process
    environment: dotenv files and the config `env` block fill in missing variables, which
    later path and gateway resolution then see. A missing file gives empty data. With
    `strict`, any problem raises ConfigError (one line); otherwise it is listed in `issues`
    and `data` holds the best-effort config. A state folder that is a file (or lies below
    one) always raises CliError.
    """
    env = os.environ if env is None else env
    if dotenv:
        load_startup_dotenv(env, cwd)
    paths.check_state_dir(env)
    path = paths.resolve_config_path(env)
    if dotenv:
        load_config_dotenv(env, cwd)
    loaded = _load_file(path, env)
    if strict and loaded.issues:
        raise ConfigError(format_config_error(path, loaded.issues))
    return loaded


def _load_file(path: str, env: MutableMapping[str, str]) -> LoadedConfig:
    if not os.path.exists(path):
        return LoadedConfig(path, False, {})
    try:
        raw = _read_text(path)
    except OSError as exc:
        return LoadedConfig(path, True, {}, [ConfigIssue("", f"read failed: {exc.strerror or exc}")])
    try:
        parsed = parse_json5(raw)
    except ValueError as exc:
        return LoadedConfig(path, True, {}, [ConfigIssue("", f"JSON5 parse failed: {exc}")])
    try:
        resolved = resolve_includes(parsed, path, env)
    except ConfigIncludeError as exc:
        data = parsed if isinstance(parsed, dict) else {}
        return LoadedConfig(path, True, data, [ConfigIssue("", str(exc))])
    except RecursionError:
        data = parsed if isinstance(parsed, dict) else {}
        return LoadedConfig(path, True, data, [ConfigIssue("", "Include resolution failed")])
    if isinstance(resolved, dict) and "env" in resolved:
        apply_config_env(resolved, env)
    warnings: list[ConfigIssue] = []
    resolved = substitute_env_vars(
        resolved, env, on_missing=lambda name, where: warnings.append(
            ConfigIssue(where, f'Missing env var "{name}" - feature using this value will be unavailable')))
    issues = validate_config(resolved, env)
    return LoadedConfig(path, True, resolved if isinstance(resolved, dict) else {}, issues, warnings)


def _parse_port(text: str) -> int | None:
    if not re.fullmatch(r"[0-9]+", text, re.ASCII):
        return None
    port = int(text)
    return port if 0 < port <= 65535 else None


def parse_gateway_port_env(raw: str | None) -> int | None:
    """OPENCLAW_GATEWAY_PORT as `18789`, `host:18789` or `[::1]:18789`; None when unusable."""
    text = js_trim(raw or "")
    if not text:
        return None
    if re.fullmatch(r"[0-9]+", text, re.ASCII):
        return _parse_port(text)
    bracketed = re.fullmatch(r"\[[^\]]+\]:([0-9]+)", text, re.ASCII)
    if bracketed:
        return _parse_port(bracketed.group(1))
    first, last = text.find(":"), text.rfind(":")
    if first <= 0 or first != last:
        return None
    return _parse_port(text[first + 1:])


def resolve_gateway_port(cfg: Mapping[str, Any] | None, env: Mapping[str, str] | None = None) -> int:
    """OPENCLAW_GATEWAY_PORT, else a positive `gateway.port`, else 18789."""
    env = os.environ if env is None else env
    from_env = parse_gateway_port_env(env.get("OPENCLAW_GATEWAY_PORT"))
    if from_env is not None:
        return from_env
    gateway = cfg.get("gateway") if isinstance(cfg, Mapping) else None
    port = gateway.get("port") if isinstance(gateway, Mapping) else None
    if _is_number(port) and math.isfinite(port) and port > 0:
        return int(port) if float(port).is_integer() else port
    return DEFAULT_GATEWAY_PORT

"""The environment of a config: blocked keys, the `env` block, `${VAR}` substitution, dotenv files."""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Mapping, MutableMapping
from typing import Any

from openclaw_cli.config import paths
from openclaw_cli.config.json5 import read_text
from openclaw_cli.js.strings import js_trim
from openclaw_cli.js.values import object_at

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
                        on_missing: Callable[[str, str, tuple], None] | None = None,
                        segments: tuple = ()) -> Any:
    """Apply `substitute_string` to every string value (not keys) in a parsed config; `on_missing`
    gets each unset variable's name, the dotted path of its value and that path's keys and indexes."""
    if isinstance(value, str):
        return substitute_string(value, env, (lambda name: on_missing(name, path, segments)) if on_missing else None)
    if isinstance(value, list):
        return [substitute_env_vars(v, env, f"{path}[{i}]", on_missing, (*segments, i)) for i, v in enumerate(value)]
    if isinstance(value, dict):
        return {k: substitute_env_vars(v, env, f"{path}.{k}" if path else k, on_missing, (*segments, k))
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
        text = read_text(path)
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

"""The zsh completion script: one `_arguments` function per command."""

from __future__ import annotations

from openclaw_cli.cli.docsgen.common import GENERATED, function_suffix, one_line, single_quote
from openclaw_cli.cli.docsgen.model import PROG, Command, Option, ValueHint

_ACTIONS = {
    "file": "_files",
    "agent": "_openclaw_agent_ids",
    "session-key": "_openclaw_session_keys",
    "profile": "_openclaw_profiles",
    "envvar": '_parameters -g "*export*"',
}

_HELPERS = r'''
_openclaw_agent_ids() {
  local -a ids
  ids=(${(f)"$(${~_openclaw_prog} $_openclaw_profile completion agent-ids 2>/dev/null)"})
  _wanted agent-ids expl 'agent id' compadd -a ids
}

_openclaw_session_keys() {
  local -a keys agent
  local i
  for (( i = 2; i < CURRENT; i++ )); do
    case $words[i] in
      --agent) agent=(--agent $words[i+1]) ;;
      --agent=*) agent=($words[i]) ;;
    esac
  done
  keys=(${(f)"$(${~_openclaw_prog} $_openclaw_profile completion session-keys $agent 2>/dev/null)"})
  _wanted session-keys expl 'session key' compadd -a keys
}

_openclaw_profiles() {
  local -a names
  names=(${OPENCLAW_HOME:-$HOME}/.openclaw-*(N/:t))
  names=(${names#.openclaw-})
  _wanted profiles expl 'profile' compadd -a names
}
'''

_MAIN = r'''
_openclaw() {
  local _openclaw_prog=$words[1] i
  local -a _openclaw_profile
  for (( i = 2; i < CURRENT; i++ )); do
    case $words[i] in
      --dev) _openclaw_profile=(--dev) ;;
      --profile) _openclaw_profile=(--profile $words[i+1]) ;;
      --profile=*) _openclaw_profile=($words[i]) ;;
    esac
  done
  _openclaw_root "$@"
}

if [[ $zsh_eval_context[-1] == loadautofunc ]]; then
  _openclaw "$@"
else
  compdef _openclaw openclaw
fi
'''


def _bracket(text: str) -> str:
    """A description for `[...]` in an `_arguments` spec."""
    return one_line(text).replace("\\", "\\\\").replace("[", "\\[").replace("]", "\\]")


def _message(text: str) -> str:
    return text.replace("\\", "\\\\").replace(":", "\\:")


def _action(hint: ValueHint | None) -> str:
    if hint is None:
        return " "
    if hint.kind == "choices":
        return "(" + " ".join(c.replace(" ", "\\ ").replace(":", "\\:") for c in hint.choices) + ")"
    return _ACTIONS[hint.kind]


def _option_spec(option: Option) -> str:
    help_text = _bracket(option.help)
    value = f":{_message(option.metavar or '')}:{_action(option.values)}" if option.takes_value else ""
    exits = option.key in ("--help", "--version")
    repeat = "*" if option.multiple else ""
    if len(option.names) == 1 and not exits:
        name = option.names[0]
        suffix = ("=" if name.startswith("--") else "+") if option.takes_value else ""
        return single_quote(f"{repeat}{name}{suffix}[{help_text}]{value}")
    exclude = "(- : *)" if exits else "(" + " ".join(option.names) + ")"
    suffixed = [n + (("=" if n.startswith("--") else "+") if option.takes_value else "") for n in option.names]
    names = "{" + ",".join(suffixed) + "}" if len(suffixed) > 1 else suffixed[0]
    prefix = "" if repeat else single_quote(exclude)
    return f"{prefix}{repeat}{names}{single_quote(f'[{help_text}]{value}')}"


def _function(command: Command) -> list[str]:
    name = f"_openclaw_{function_suffix(command)}"
    specs = [_option_spec(o) for o in command.options]
    for index, arg in enumerate(command.arguments, 1):
        message = _message(f"{arg.metavar}: {one_line(arg.help)}" if arg.help else arg.metavar)
        action = _action(arg.values)
        specs.append(single_quote(f"{index}:{':' if not arg.required else ''}{message}:{action}"))
    lines = [f"# {command.command_line}", f"{name}() {{"]
    if command.subcommands:
        lines += ["  local curcontext=$curcontext state state_descr line ret=1", "  typeset -A opt_args"]
        specs += [single_quote(": :->command"), single_quote("*:: :->args")]
    # a group's own options end at its sub-command: they belong to the sub-command after it
    lines.append("  _arguments -s -S" + (" -C -A '-*'" if command.subcommands else "") + " \\")
    last = f"    {specs[-1]}" + (" && ret=0" if command.subcommands else "")
    lines += [f"    {spec} \\" for spec in specs[:-1]] + [last]
    if command.subcommands:
        entries = " ".join(single_quote(f"{_message(s.name)}:{one_line(s.summary)}") for s in command.subcommands)
        lines += ["  case $state in",
                  "    command)",
                  f"      local -a commands=({entries})",
                  f"      _describe -t commands {single_quote(command.command_line + ' command')} commands && ret=0 ;;",
                  "    args)",
                  f"      curcontext=${{curcontext%:*:*}}:{command.page}-$words[1]:",
                  "      case $words[1] in"]
        lines += [f"        {s.name}) _openclaw_{function_suffix(s)} && ret=0 ;;" for s in command.subcommands]
        lines += ["      esac ;;", "  esac", "  return ret"]
    lines.append("}")
    return lines


def render(cli: Command, version: str) -> str:
    lines = [f"#compdef {PROG}", f"# zsh completion for {PROG} (openclaw_cli {version})", f"# {GENERATED}",
             '# Install: openclaw completion zsh > "${fpath[1]}/_openclaw", then start a new zsh',
             "#      or: source <(openclaw completion zsh)   (after compinit)"]
    text = "\n".join(lines) + "\n" + _HELPERS
    for command in cli.walk():
        text += "\n" + "\n".join(_function(command)) + "\n"
    return text + _MAIN

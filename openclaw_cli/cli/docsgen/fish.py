"""The fish completion script: `complete` lines guarded by the command being completed."""

from __future__ import annotations

from openclaw_cli.cli.docsgen.common import GENERATED, one_line, path_key, value_options
from openclaw_cli.cli.docsgen.model import PROG, Argument, Command, Option

_ARGUMENTS = {
    "agent": "(__openclaw_agent_ids)",
    "session-key": "(__openclaw_session_keys)",
    "profile": "(__openclaw_profiles)",
    "envvar": "(set --names --export)",
}

_HELPERS = r'''
function __openclaw_path --description 'The openclaw command being completed, as "sessions cleanup"'
    set -l tokens (commandline -opc)
    set -e tokens[1]
    set -l path
    set -l skip 0
    for token in $tokens
        if test $skip -eq 1
            set skip 0
            continue
        end
        switch $token
            case --profile
                set skip 1
            case '--*=*' --dev --
            case '-*'
                if contains -- $token (__openclaw_value_options "$path")
                    set skip 1
                end
            case '*'
                if contains -- $token (__openclaw_subcommands "$path")
                    set -a path $token
                end
        end
    end
    string join ' ' -- $path
end

function __openclaw_at --description 'Is the command being completed this one?'
    set -l here (__openclaw_path)
    test "$here" = "$argv"
end

function __openclaw_agent_ids --description 'The configured agent ids'
    set -l tokens (commandline -opc)
    set -l profile
    for i in (seq 2 (count $tokens))
        switch $tokens[$i]
            case --dev
                set profile --dev
            case '--profile=*'
                set profile $tokens[$i]
            case --profile
                set profile --profile $tokens[(math $i + 1)]
        end
    end
    $tokens[1] $profile completion agent-ids 2>/dev/null
end

function __openclaw_session_keys --description 'The session keys of the store'
    set -l tokens (commandline -opc)
    set -l profile
    set -l agent
    for i in (seq 2 (count $tokens))
        switch $tokens[$i]
            case --dev
                set profile --dev
            case '--profile=*'
                set profile $tokens[$i]
            case --profile
                set profile --profile $tokens[(math $i + 1)]
            case '--agent=*'
                set agent $tokens[$i]
            case --agent
                set agent --agent $tokens[(math $i + 1)]
        end
    end
    $tokens[1] $profile completion session-keys $agent 2>/dev/null
end

function __openclaw_profiles --description 'Profile names, from the ~/.openclaw-NAME folders'
    set -l home $HOME
    set -q OPENCLAW_HOME; and set home $OPENCLAW_HOME
    for dir in $home/.openclaw-*/
        string replace -r '.*/\.openclaw-([^/]+)/$' '$1' -- $dir
    end
end
'''


def _quote(text: str) -> str:
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"


def _table(name: str, description: str, rows: list[tuple[str, list[str]]]) -> list[str]:
    lines = [f"function {name} --argument-names path --description {_quote(description)}", "    switch $path"]
    for key, words in rows:
        if words:
            lines += [f"        case {_quote(key)}", "            printf '%s\\n' " + " ".join(words)]
    lines += ["    end", "end"]
    return lines


def _option_line(command: Command, option: Option) -> str:
    parts = [f"complete -c {PROG}", f"-n {_quote(f'__openclaw_at {path_key(command)}'.rstrip())}"]
    for name in option.shorts:
        parts.append(f"-s {name[1:]}")
    for name in option.longs:
        parts.append(f"-l {name[2:]}")
    hint = option.values
    if option.takes_value:
        if hint is not None and hint.kind == "file":
            parts.append("-r -F")
        else:
            parts.append("-x")
            if hint is not None and hint.kind == "choices":
                parts.append(f"-a {_quote(' '.join(hint.choices))}")
            elif hint is not None:
                parts.append(f"-a {_quote(_ARGUMENTS[hint.kind])}")
    if option.help:
        parts.append(f"-d {_quote(one_line(option.help))}")
    return " ".join(parts)


def _argument_line(command: Command, argument: Argument) -> str:
    """The completion of a positional argument (a session KEY) where no sub-command is typed yet."""
    hint = argument.values
    assert hint is not None
    condition = _quote(f"__openclaw_at {path_key(command)}".rstrip())
    return f"complete -c {PROG} -n {condition} -a {_quote(_ARGUMENTS[hint.kind])} -d {_quote(argument.metavar)}"


def render(cli: Command, version: str) -> str:
    commands = list(cli.walk())
    lines = [f"# fish completion for {PROG} (openclaw_cli {version})", f"# {GENERATED}",
             "# Install: openclaw completion fish > ~/.config/fish/completions/openclaw.fish", ""]
    lines += _table("__openclaw_subcommands", "The sub-commands of an openclaw command",
                    [(path_key(c), [s.name for s in c.subcommands]) for c in commands])
    lines.append("")
    lines += _table("__openclaw_value_options", "The options of an openclaw command that take a value",
                    [(path_key(c), [n for o in value_options(c) for n in o.names]) for c in commands])
    lines += _HELPERS.split("\n")
    lines.append(f"complete -c {PROG} -f")
    for command in commands:
        lines += ["", f"# {command.command_line}"]
        for sub in command.subcommands:
            condition = _quote(f"__openclaw_at {path_key(command)}".rstrip())
            lines.append(f"complete -c {PROG} -n {condition} -a {sub.name} -d {_quote(one_line(sub.summary))}")
        lines += [_option_line(command, option) for option in command.options]
        lines += [_argument_line(command, argument) for argument in command.arguments[:1]
                  if argument.values is not None and argument.values.kind in _ARGUMENTS]
    return "\n".join(lines) + "\n"

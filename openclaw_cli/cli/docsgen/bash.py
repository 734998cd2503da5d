"""The bash completion script: a table of commands and options, and one function that reads it."""

from __future__ import annotations

from openclaw_cli.cli.docsgen.common import GENERATED, one_line, path_key, single_quote, value_options
from openclaw_cli.cli.docsgen.model import PROG, Command, ValueHint

_VALUE_ACTIONS = {
    "file": "_openclaw_files",
    "agent": "_openclaw_agent_ids",
    "session-key": "_openclaw_session_keys",
    "profile": "_openclaw_profiles",
    "envvar": "_openclaw_envvars",
}

_PROLOGUE = r'''
# _openclaw_files CUR: file names.
_openclaw_files() {
    local IFS=$'\n'
    compopt -o filenames 2>/dev/null
    COMPREPLY=($(compgen -f -- "$1"))
}

# _openclaw_agent_ids CUR: the agent ids of the config (the same --profile/--dev as the line).
_openclaw_agent_ids() {
    local ids
    ids=$("${COMP_WORDS[0]}" ${_oc_profile[@]+"${_oc_profile[@]}"} completion agent-ids 2>/dev/null)
    COMPREPLY=($(compgen -W "$ids" -- "$1"))
}

# _openclaw_session_keys CUR: the session keys of the store (the line's --agent, --profile/--dev).
# bash splits a word at ':', so the whole key before the cursor is matched, and the part up to
# its last ':' (already on the line) is left out of the replies.
_openclaw_session_keys() {
    local line=${COMP_LINE:0:COMP_POINT} word keys i
    local -a agent=()
    word=${line##*[[:space:]]}
    [[ $word == --*=* ]] && word=${word#*=}
    for ((i = 1; i < COMP_CWORD; i++)); do
        case ${COMP_WORDS[i]} in
            --agent=*) agent=("${COMP_WORDS[i]}") ;;
            --agent)
                ((i++))
                [[ ${COMP_WORDS[i]-} == = ]] && ((i++))
                agent=(--agent "${COMP_WORDS[i]-}") ;;
        esac
    done
    keys=$("${COMP_WORDS[0]}" ${_oc_profile[@]+"${_oc_profile[@]}"} completion session-keys ${agent[@]+"${agent[@]}"} 2>/dev/null)
    local IFS=$'\n'
    COMPREPLY=($(compgen -W "$keys" -- "$word"))
    if [[ $COMP_WORDBREAKS == *:* && $word == *:* ]]; then
        local done_part=${word%"${word##*:}"}
        COMPREPLY=("${COMPREPLY[@]#"$done_part"}")
    fi
}

# _openclaw_profiles CUR: profile names, from the ~/.openclaw-NAME folders.
_openclaw_profiles() {
    local dir names=""
    for dir in "${OPENCLAW_HOME:-$HOME}"/.openclaw-*/; do
        [[ -d $dir ]] || continue
        dir=${dir%/}
        names="$names ${dir##*/.openclaw-}"
    done
    COMPREPLY=($(compgen -W "$names" -- "$1"))
}

# _openclaw_envvars CUR: names of exported variables.
_openclaw_envvars() {
    COMPREPLY=($(compgen -e -- "$1"))
}

# _openclaw_add_descriptions PATH: show each candidate's help beside it when there is a choice.
_openclaw_add_descriptions() {
    local i word line width=0 columns=${COLUMNS:-80}
    ((${#COMPREPLY[@]} > 1)) || return 0
    case ${COMP_TYPE-} in 37 | 42) return 0 ;; esac
    for word in "${COMPREPLY[@]}"; do
        ((${#word} > width)) && width=${#word}
    done
    ((columns > width + 12)) || return 0
    for i in "${!COMPREPLY[@]}"; do
        word=${COMPREPLY[i]}
        _openclaw_describe "$1" "$word"
        [[ -n $_oc_desc ]] || continue
        printf -v line '%-*s  (%s)' "$width" "$word" "$_oc_desc"
        ((${#line} < columns)) || line="${line:0:columns-5}...)"
        COMPREPLY[i]=$line
    done
}

_openclaw() {
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
    local path="" word i nargs=0 joined=0 option="" prefix="" candidates
    local _oc_cmds _oc_opts _oc_vals _oc_args _oc_akind _oc_desc first
    local -a _oc_profile=()
    COMPREPLY=()
    _openclaw_spec ""
    for ((i = 1; i < COMP_CWORD; i++)); do
        word=${COMP_WORDS[i]}
        if ((joined)); then
            joined=0
            continue
        fi
        case $word in
            --) break ;;
            :) joined=1; continue ;;
            --dev) _oc_profile=(--dev); continue ;;
            --profile=*) _oc_profile=("$word"); continue ;;
            --profile | -*)
                if [[ $word == --profile || " $_oc_vals " == *" $word "* ]]; then
                    [[ ${COMP_WORDS[i+1]-} == = ]] && ((i++))
                    ((i++))
                    [[ $word == --profile ]] && _oc_profile=(--profile "${COMP_WORDS[i]-}")
                fi
                continue ;;
        esac
        if [[ " $_oc_cmds " == *" $word "* ]]; then
            path=${path:+$path }$word
            nargs=0
            _openclaw_spec "$path"
        else
            ((nargs++))
        fi
    done

    # a word bash split at ':' (a session key): complete it whole, as the value it is
    first=$COMP_CWORD
    while ((first > 1)) && [[ ${COMP_WORDS[first]} == : || ${COMP_WORDS[first-1]} == : ]]; do ((first--)); done
    if ((first < COMP_CWORD)); then
        option=${COMP_WORDS[first-1]}
        [[ $option == = ]] && option=${COMP_WORDS[first-2]}
        if [[ $option == -* && " $_oc_vals " == *" $option "* ]]; then
            _openclaw_values "$path" "$option" "$cur"
        elif ((nargs - 1 < _oc_args)) && [[ -n $_oc_akind ]]; then
            "$_oc_akind" "$cur"
        fi
        return 0
    fi

    # an option's value: "--opt VALUE", or "--opt=VALUE" split at "=" by bash or not
    if [[ $cur == = ]]; then
        option=$prev cur=""
    elif [[ $prev == = ]]; then
        option=${COMP_WORDS[COMP_CWORD-2]}
    elif [[ $cur == --*=* ]]; then
        option=${cur%%=*} prefix="${cur%%=*}=" cur=${cur#*=}
    else
        option=$prev
    fi
    if [[ $option == --profile ]]; then
        _openclaw_profiles "$cur"
        return 0
    fi
    if [[ $option == -* && " $_oc_vals " == *" $option "* ]]; then
        _openclaw_values "$path" "$option" "$cur"
        if [[ -n $prefix ]]; then
            for i in "${!COMPREPLY[@]}"; do COMPREPLY[i]=$prefix${COMPREPLY[i]}; done
        fi
        return 0
    fi
    [[ -z $prefix ]] || return 0

    if [[ $cur == -* ]]; then
        candidates=$_oc_opts
    elif [[ -n $_oc_cmds ]]; then
        candidates=$_oc_cmds
    elif ((nargs < _oc_args)); then
        [[ -z $_oc_akind ]] || "$_oc_akind" "$cur"
        return 0
    else
        candidates=$_oc_opts
    fi
    COMPREPLY=($(compgen -W "$candidates" -- "$cur"))
    _openclaw_add_descriptions "$path"
    return 0
}

complete -F _openclaw openclaw
'''


def _words(items: list[str]) -> str:
    return single_quote(" ".join(items))


def _spec(cli: Command) -> list[str]:
    lines = ["# _openclaw_spec PATH: the sub-commands, options, value-taking options and",
             "# number of positional arguments of `openclaw PATH`, and what completes the first.",
             "_openclaw_spec() {", '    case "$1" in']
    for command in cli.walk():
        lines.append(f"        {single_quote(path_key(command))})")
        lines.append(f"            _oc_cmds={_words([c.name for c in command.subcommands])}")
        lines.append(f"            _oc_opts={_words([n for o in command.options for n in o.names])}")
        lines.append(f"            _oc_vals={_words([n for o in value_options(command) for n in o.names])}")
        lines.append(f"            _oc_args={len(command.arguments)}")
        lines.append(f"            _oc_akind={single_quote(_argument_action(command))} ;;")
    lines += ["        *) _oc_cmds='' _oc_opts='' _oc_vals='' _oc_args=0 _oc_akind='' ;;", "    esac", "}"]
    return lines


def _argument_action(command: Command) -> str:
    """The function that completes the command's first positional argument, or ''."""
    hint = command.arguments[0].values if command.arguments else None
    return _VALUE_ACTIONS[hint.kind] if hint is not None and hint.kind in _VALUE_ACTIONS else ""


def _describe(cli: Command) -> list[str]:
    lines = ["# _openclaw_describe PATH WORD: the help of a sub-command or option, in _oc_desc.",
             "_openclaw_describe() {", '    case "$1 $2" in']
    for command in cli.walk():
        key = path_key(command)
        for sub in command.subcommands:
            description = single_quote(one_line(sub.summary))
            lines.append(f"        {single_quote(f'{key} {sub.name}')}) _oc_desc={description} ;;")
        for option in command.options:
            patterns = "|".join(single_quote(f"{key} {n}") for n in option.names)
            lines.append(f"        {patterns}) _oc_desc={single_quote(one_line(option.help))} ;;")
    lines += ["        *) _oc_desc='' ;;", "    esac", "}"]
    return lines


def _value_action(hint: ValueHint | None) -> str:
    if hint is None:
        return "COMPREPLY=()"
    if hint.kind == "choices":
        return f'COMPREPLY=($(compgen -W {_words(list(hint.choices))} -- "$3"))'
    return f'{_VALUE_ACTIONS[hint.kind]} "$3"'


def _values(cli: Command) -> list[str]:
    arms: dict[str, list[str]] = {}
    for command in cli.walk():
        for option in value_options(command):
            action = _value_action(option.values)
            arms.setdefault(action, []).extend(f"{path_key(command)} {n}" for n in option.names)
    lines = ["# _openclaw_values PATH OPTION CUR: complete the value of an option.",
             "_openclaw_values() {", '    case "$1 $2" in']
    for action, keys in arms.items():
        patterns = " | ".join(single_quote(k) for k in keys)
        lines += [f"        {patterns})", f"            {action} ;;"]
    lines += ["    esac", "}"]
    return lines


def render(cli: Command, version: str) -> str:
    head = [f"# bash completion for {PROG} (openclaw_cli {version})",
            f"# {GENERATED}",
            "# Install: openclaw completion bash > ~/.local/share/bash-completion/completions/openclaw",
            "#      or: source <(openclaw completion bash)",
            ""]
    body = [*_spec(cli), "", *_describe(cli), "", *_values(cli)]
    return "\n".join(head + body) + "\n" + _PROLOGUE

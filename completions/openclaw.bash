# bash completion for openclaw (openclaw_cli 0.1.0)
# Generated from the CLI definition by scripts/gen-shell-files.py; do not edit.
# Install: openclaw completion bash > ~/.local/share/bash-completion/completions/openclaw
#      or: source <(openclaw completion bash)

# _openclaw_spec PATH: the sub-commands, options, value-taking options and
# number of positional arguments of `openclaw PATH`.
_openclaw_spec() {
    case "$1" in
        '')
            _oc_cmds='sessions context compact doctor completion'
            _oc_opts='--profile --dev --no-color --log-level -V --version -h --help'
            _oc_vals='--profile --log-level'
            _oc_args=0 ;;
        'sessions')
            _oc_cmds='list cleanup disk export verify repair recover compact'
            _oc_opts='--active --agent --all-agents --json --limit --store --verbose -h --help'
            _oc_vals='--active --agent --limit --store'
            _oc_args=0 ;;
        'sessions list')
            _oc_cmds=''
            _oc_opts='--active --agent --all-agents --json --limit --store --verbose -h --help'
            _oc_vals='--active --agent --limit --store'
            _oc_args=0 ;;
        'sessions cleanup')
            _oc_cmds=''
            _oc_opts='--active-key --agent --all-agents --dry-run --enforce --fix-dm-scope --fix-missing --allow-empty-store --json --explain --store -q --quiet --url --port --token --password --timeout --wait --all --limit -h --help'
            _oc_vals='--active-key --agent --store --url --port --token --password --timeout --wait --limit'
            _oc_args=0 ;;
        'sessions disk')
            _oc_cmds=''
            _oc_opts='--agent --all-agents --json --store --top -h --help'
            _oc_vals='--agent --store --top'
            _oc_args=0 ;;
        'sessions export')
            _oc_cmds=''
            _oc_opts='--all --agent --output --force --json -h --help'
            _oc_vals='--agent --output'
            _oc_args=1 ;;
        'sessions verify')
            _oc_cmds=''
            _oc_opts='--agent --all-agents --orphans --json -h --help'
            _oc_vals='--agent'
            _oc_args=1 ;;
        'sessions repair')
            _oc_cmds=''
            _oc_opts='--agent --dry-run --json -h --help'
            _oc_vals='--agent'
            _oc_args=1 ;;
        'sessions recover')
            _oc_cmds=''
            _oc_opts='--agent --all-agents --dry-run --json --wait -h --help'
            _oc_vals='--agent --wait'
            _oc_args=0 ;;
        'sessions compact')
            _oc_cmds=''
            _oc_opts='--agent --max-lines --json --url --token --password --timeout --dry-run --offline --summarizer --base-url --model --api-key-env --summary-file -h --help'
            _oc_vals='--agent --max-lines --url --token --password --timeout --summarizer --base-url --model --api-key-env --summary-file'
            _oc_args=1 ;;
        'context')
            _oc_cmds='list detail json map'
            _oc_opts='-h --help'
            _oc_vals=''
            _oc_args=0 ;;
        'context list')
            _oc_cmds=''
            _oc_opts='--session --agent --tokenizer --offline --plain --url --token --password --timeout -h --help'
            _oc_vals='--session --agent --tokenizer --url --token --password --timeout'
            _oc_args=0 ;;
        'context detail')
            _oc_cmds=''
            _oc_opts='--session --agent --tokenizer --offline --plain --url --token --password --timeout -h --help'
            _oc_vals='--session --agent --tokenizer --url --token --password --timeout'
            _oc_args=0 ;;
        'context json')
            _oc_cmds=''
            _oc_opts='--session --agent --offline --url --token --password --timeout -h --help'
            _oc_vals='--session --agent --url --token --password --timeout'
            _oc_args=0 ;;
        'context map')
            _oc_cmds=''
            _oc_opts='--session --agent -o --output --offline --url --token --password --timeout -h --help'
            _oc_vals='--session --agent -o --output --url --token --password --timeout'
            _oc_args=0 ;;
        'compact')
            _oc_cmds=''
            _oc_opts='--agent --max-lines --json --url --token --password --timeout --dry-run --offline --summarizer --base-url --model --api-key-env --summary-file -h --help'
            _oc_vals='--agent --max-lines --url --token --password --timeout --summarizer --base-url --model --api-key-env --summary-file'
            _oc_args=1 ;;
        'doctor')
            _oc_cmds=''
            _oc_opts='--no-workspace-suggestions --yes --repair --fix --force --non-interactive --generate-gateway-token --deep --lint --json --severity-min --only --skip --all -h --help'
            _oc_vals='--severity-min --only --skip'
            _oc_args=0 ;;
        'completion')
            _oc_cmds='bash zsh fish'
            _oc_opts='-h --help'
            _oc_vals=''
            _oc_args=0 ;;
        'completion bash')
            _oc_cmds=''
            _oc_opts='-h --help'
            _oc_vals=''
            _oc_args=0 ;;
        'completion zsh')
            _oc_cmds=''
            _oc_opts='-h --help'
            _oc_vals=''
            _oc_args=0 ;;
        'completion fish')
            _oc_cmds=''
            _oc_opts='-h --help'
            _oc_vals=''
            _oc_args=0 ;;
        *) _oc_cmds='' _oc_opts='' _oc_vals='' _oc_args=0 ;;
    esac
}

# _openclaw_describe PATH WORD: the help of a sub-command or option, in _oc_desc.
_openclaw_describe() {
    case "$1 $2" in
        ' sessions') _oc_desc='List stored conversation sessions, and maintain the session store.' ;;
        ' context') _oc_desc='Show what fills a session'\''s context window (like the /context chat command), read from disk or from a running Gateway, without sending a chat turn.' ;;
        ' compact') _oc_desc='Compact a stored session transcript: through the running Gateway, or directly on the files when none runs.' ;;
        ' doctor') _oc_desc='Health checks and quick fixes for the OpenClaw state folder and config.' ;;
        ' completion') _oc_desc='Print the completion script for bash, zsh or fish.' ;;
        ' --profile') _oc_desc='Use the profile'\''s state dir (~/.openclaw-NAME) and config.' ;;
        ' --dev') _oc_desc='Profile `dev` (state in ~/.openclaw-dev, gateway port 19001).' ;;
        ' --no-color') _oc_desc='Never colour the output (NO_COLOR works too).' ;;
        ' --log-level') _oc_desc='Diagnostics: error, warn, info (the default) or debug.' ;;
        ' -V'|' --version') _oc_desc='Print the version and exit.' ;;
        ' -h'|' --help') _oc_desc='Show this message and exit.' ;;
        'sessions list') _oc_desc='List stored conversation sessions (same as `openclaw sessions`).' ;;
        'sessions cleanup') _oc_desc='Run session-store maintenance now.' ;;
        'sessions disk') _oc_desc='Show what uses the disk in the session folders, and what cleanup would free.' ;;
        'sessions export') _oc_desc='Write SQLite-era transcripts (OpenClaw 2026.8+) as file-era JSONL files.' ;;
        'sessions verify') _oc_desc='Check session transcripts: header, malformed lines, entry links, toolCall/toolResult pairs.' ;;
        'sessions repair') _oc_desc='Repair a transcript as the Gateway reads it: persist its load-time hygiene.' ;;
        'sessions recover') _oc_desc='Put orphan transcripts back into sessions.json instead of archiving them.' ;;
        'sessions compact') _oc_desc='Compact a stored session transcript: through the running Gateway, or directly on the files when none runs.' ;;
        'sessions --active') _oc_desc='Only show sessions updated within the past N minutes' ;;
        'sessions --agent') _oc_desc='Agent id to inspect (default: configured default agent)' ;;
        'sessions --all-agents') _oc_desc='Aggregate sessions across all configured agents' ;;
        'sessions --json') _oc_desc='Output as JSON' ;;
        'sessions --limit') _oc_desc='Max sessions to show (default: 100; use "all" for full output)' ;;
        'sessions --store') _oc_desc='Path to session store (default: resolved from config)' ;;
        'sessions --verbose') _oc_desc='Accepted for compatibility; no effect' ;;
        'sessions -h'|'sessions --help') _oc_desc='Show this message and exit.' ;;
        'sessions list --active') _oc_desc='Only show sessions updated within the past N minutes' ;;
        'sessions list --agent') _oc_desc='Agent id to inspect' ;;
        'sessions list --all-agents') _oc_desc='Aggregate sessions across all configured agents' ;;
        'sessions list --json') _oc_desc='Output as JSON' ;;
        'sessions list --limit') _oc_desc='Max sessions to show (default: 100; use "all" for full output)' ;;
        'sessions list --store') _oc_desc='Path to session store (default: resolved from config)' ;;
        'sessions list --verbose') _oc_desc='Accepted for compatibility; no effect' ;;
        'sessions list -h'|'sessions list --help') _oc_desc='Show this message and exit.' ;;
        'sessions cleanup --active-key') _oc_desc='Protect this session key from budget-eviction' ;;
        'sessions cleanup --agent') _oc_desc='Agent id to maintain (default: configured default agent)' ;;
        'sessions cleanup --all-agents') _oc_desc='Run maintenance across all configured agents' ;;
        'sessions cleanup --dry-run') _oc_desc='Preview maintenance actions without writing' ;;
        'sessions cleanup --enforce') _oc_desc='Apply maintenance even when configured mode is warn' ;;
        'sessions cleanup --fix-dm-scope') _oc_desc='Retire stale direct-DM session rows that no longer match session.dmScope=main' ;;
        'sessions cleanup --fix-missing') _oc_desc='Remove store entries whose transcript files are missing (bypasses age/count retention)' ;;
        'sessions cleanup --allow-empty-store') _oc_desc='Sweep old transcripts even though the store has no entries (refused by default: that looks like a lost index)' ;;
        'sessions cleanup --json') _oc_desc='Output JSON' ;;
        'sessions cleanup --explain') _oc_desc='The rule behind each entry'\''s and file'\''s action, and why entries were kept' ;;
        'sessions cleanup --store') _oc_desc='Path to session store (default: resolved from config)' ;;
        'sessions cleanup -q'|'sessions cleanup --quiet') _oc_desc='Print nothing unless something failed (for cron)' ;;
        'sessions cleanup --url') _oc_desc='Gateway WebSocket URL (needs --token or --password)' ;;
        'sessions cleanup --port') _oc_desc='Gateway port on this machine (else OPENCLAW_GATEWAY_PORT, gateway.port, 18789)' ;;
        'sessions cleanup --token') _oc_desc='Gateway token (else OPENCLAW_GATEWAY_TOKEN)' ;;
        'sessions cleanup --password') _oc_desc='Gateway password (else OPENCLAW_GATEWAY_PASSWORD)' ;;
        'sessions cleanup --timeout') _oc_desc='Gateway call timeout in ms (default 10000)' ;;
        'sessions cleanup --wait') _oc_desc='How long to wait for another maintenance run'\''s store lock' ;;
        'sessions cleanup --all') _oc_desc='At a terminal, list every planned row (piped output always does)' ;;
        'sessions cleanup --limit') _oc_desc='At a terminal, list the first N planned rows of each action (default: 10)' ;;
        'sessions cleanup -h'|'sessions cleanup --help') _oc_desc='Show this message and exit.' ;;
        'sessions disk --agent') _oc_desc='Agent id to inspect (default: configured default agent)' ;;
        'sessions disk --all-agents') _oc_desc='Every configured agent'\''s session folder' ;;
        'sessions disk --json') _oc_desc='Output as JSON' ;;
        'sessions disk --store') _oc_desc='Path to session store (default: resolved from config)' ;;
        'sessions disk --top') _oc_desc='How many of the largest sessions to show (default: 10)' ;;
        'sessions disk -h'|'sessions disk --help') _oc_desc='Show this message and exit.' ;;
        'sessions export --all') _oc_desc='Every session of the agent' ;;
        'sessions export --agent') _oc_desc='Agent id (default: the key'\''s agent, else the configured default agent)' ;;
        'sessions export --output') _oc_desc='Folder to write into (default: the current one)' ;;
        'sessions export --force') _oc_desc='Replace files that exist' ;;
        'sessions export --json') _oc_desc='Output as JSON' ;;
        'sessions export -h'|'sessions export --help') _oc_desc='Show this message and exit.' ;;
        'sessions verify --agent') _oc_desc='Agent id to check (default: configured default agent)' ;;
        'sessions verify --all-agents') _oc_desc='Every configured agent'\''s sessions' ;;
        'sessions verify --orphans') _oc_desc='Also check transcripts no entry references, and name their likely key' ;;
        'sessions verify --json') _oc_desc='Output as JSON' ;;
        'sessions verify -h'|'sessions verify --help') _oc_desc='Show this message and exit.' ;;
        'sessions repair --agent') _oc_desc='Agent id the session belongs to' ;;
        'sessions repair --dry-run') _oc_desc='Print the diff of entries; change nothing' ;;
        'sessions repair --json') _oc_desc='Output as JSON' ;;
        'sessions repair -h'|'sessions repair --help') _oc_desc='Show this message and exit.' ;;
        'sessions recover --agent') _oc_desc='Agent id to recover (default: configured default agent)' ;;
        'sessions recover --all-agents') _oc_desc='Every configured agent'\''s session folder' ;;
        'sessions recover --dry-run') _oc_desc='Show what would be recovered; change nothing' ;;
        'sessions recover --json') _oc_desc='Output as JSON' ;;
        'sessions recover --wait') _oc_desc='How long to wait for another run'\''s store lock' ;;
        'sessions recover -h'|'sessions recover --help') _oc_desc='Show this message and exit.' ;;
        'sessions compact --agent') _oc_desc='Agent id that owns the session (required for global keys)' ;;
        'sessions compact --max-lines') _oc_desc='Truncate to the last N transcript lines instead of LLM summarization' ;;
        'sessions compact --json') _oc_desc='Output JSON' ;;
        'sessions compact --url') _oc_desc='Gateway WebSocket URL (defaults to gateway.remote.url when configured)' ;;
        'sessions compact --token') _oc_desc='Gateway token (if required)' ;;
        'sessions compact --password') _oc_desc='Gateway password (password auth)' ;;
        'sessions compact --timeout') _oc_desc='RPC timeout in milliseconds (defaults to no client deadline)' ;;
        'sessions compact --dry-run') _oc_desc='Plan on the local files and report; write nothing, call no model' ;;
        'sessions compact --offline') _oc_desc='Never use a Gateway; compact the local files' ;;
        'sessions compact --summarizer') _oc_desc='Offline summary source: extractive (default, no model) or openai' ;;
        'sessions compact --base-url') _oc_desc='OpenAI-compatible endpoint for --summarizer openai (default: the session'\''s configured provider)' ;;
        'sessions compact --model') _oc_desc='Model for --summarizer openai (default: the session'\''s model)' ;;
        'sessions compact --api-key-env') _oc_desc='Environment variable holding the API key for --summarizer openai' ;;
        'sessions compact --summary-file') _oc_desc='Use this summary (a file, or "-" for standard input); offline' ;;
        'sessions compact -h'|'sessions compact --help') _oc_desc='Show this message and exit.' ;;
        'context list') _oc_desc='Short breakdown: workspace files, skills, tools, session tokens.' ;;
        'context detail') _oc_desc='Per-file, per-skill and per-tool sizes, compactable transcript counts, and a transcript breakdown by role with the largest tool results and what a compaction would free.' ;;
        'context json') _oc_desc='The report and session counters as JSON ({report, session}); unknown values are null.' ;;
        'context map') _oc_desc='A treemap of what fills the window (WinDirStat style).' ;;
        'context -h'|'context --help') _oc_desc='Show this message and exit.' ;;
        'context list --session') _oc_desc='Session key (default: the agent'\''s main session, agent:<id>:main)' ;;
        'context list --agent') _oc_desc='Agent id (default: the configured default agent)' ;;
        'context list --tokenizer') _oc_desc='o200k_base or cl100k_base: exact token counts beside the chars/4 estimates (offline); estimate: only the estimates' ;;
        'context list --offline') _oc_desc='Never ask a running Gateway; read everything from disk' ;;
        'context list --plain') _oc_desc='Print only what the Gateway'\''s /context prints (no extra lines)' ;;
        'context list --url') _oc_desc='Gateway WebSocket URL (default: from config/env)' ;;
        'context list --token') _oc_desc='Gateway token (if required)' ;;
        'context list --password') _oc_desc='Gateway password (password auth)' ;;
        'context list --timeout') _oc_desc='Gateway timeout in ms (default 5000)' ;;
        'context list -h'|'context list --help') _oc_desc='Show this message and exit.' ;;
        'context detail --session') _oc_desc='Session key (default: the agent'\''s main session, agent:<id>:main)' ;;
        'context detail --agent') _oc_desc='Agent id (default: the configured default agent)' ;;
        'context detail --tokenizer') _oc_desc='o200k_base or cl100k_base: exact token counts beside the chars/4 estimates (offline); estimate: only the estimates' ;;
        'context detail --offline') _oc_desc='Never ask a running Gateway; read everything from disk' ;;
        'context detail --plain') _oc_desc='Print only what the Gateway'\''s /context prints (no extra lines)' ;;
        'context detail --url') _oc_desc='Gateway WebSocket URL (default: from config/env)' ;;
        'context detail --token') _oc_desc='Gateway token (if required)' ;;
        'context detail --password') _oc_desc='Gateway password (password auth)' ;;
        'context detail --timeout') _oc_desc='Gateway timeout in ms (default 5000)' ;;
        'context detail -h'|'context detail --help') _oc_desc='Show this message and exit.' ;;
        'context json --session') _oc_desc='Session key (default: the agent'\''s main session, agent:<id>:main)' ;;
        'context json --agent') _oc_desc='Agent id (default: the configured default agent)' ;;
        'context json --offline') _oc_desc='Never ask a running Gateway; read everything from disk' ;;
        'context json --url') _oc_desc='Gateway WebSocket URL (default: from config/env)' ;;
        'context json --token') _oc_desc='Gateway token (if required)' ;;
        'context json --password') _oc_desc='Gateway password (password auth)' ;;
        'context json --timeout') _oc_desc='Gateway timeout in ms (default 5000)' ;;
        'context json -h'|'context json --help') _oc_desc='Show this message and exit.' ;;
        'context map --session') _oc_desc='Session key (default: the agent'\''s main session, agent:<id>:main)' ;;
        'context map --agent') _oc_desc='Agent id (default: the configured default agent)' ;;
        'context map -o'|'context map --output') _oc_desc='Write a treemap image: .png (1280x860) or .svg; without it, draw at the terminal' ;;
        'context map --offline') _oc_desc='Never ask a running Gateway; read everything from disk' ;;
        'context map --url') _oc_desc='Gateway WebSocket URL (default: from config/env)' ;;
        'context map --token') _oc_desc='Gateway token (if required)' ;;
        'context map --password') _oc_desc='Gateway password (password auth)' ;;
        'context map --timeout') _oc_desc='Gateway timeout in ms (default 5000)' ;;
        'context map -h'|'context map --help') _oc_desc='Show this message and exit.' ;;
        'compact --agent') _oc_desc='Agent id that owns the session (required for global keys)' ;;
        'compact --max-lines') _oc_desc='Truncate to the last N transcript lines instead of LLM summarization' ;;
        'compact --json') _oc_desc='Output JSON' ;;
        'compact --url') _oc_desc='Gateway WebSocket URL (defaults to gateway.remote.url when configured)' ;;
        'compact --token') _oc_desc='Gateway token (if required)' ;;
        'compact --password') _oc_desc='Gateway password (password auth)' ;;
        'compact --timeout') _oc_desc='RPC timeout in milliseconds (defaults to no client deadline)' ;;
        'compact --dry-run') _oc_desc='Plan on the local files and report; write nothing, call no model' ;;
        'compact --offline') _oc_desc='Never use a Gateway; compact the local files' ;;
        'compact --summarizer') _oc_desc='Offline summary source: extractive (default, no model) or openai' ;;
        'compact --base-url') _oc_desc='OpenAI-compatible endpoint for --summarizer openai (default: the session'\''s configured provider)' ;;
        'compact --model') _oc_desc='Model for --summarizer openai (default: the session'\''s model)' ;;
        'compact --api-key-env') _oc_desc='Environment variable holding the API key for --summarizer openai' ;;
        'compact --summary-file') _oc_desc='Use this summary (a file, or "-" for standard input); offline' ;;
        'compact -h'|'compact --help') _oc_desc='Show this message and exit.' ;;
        'doctor --no-workspace-suggestions') _oc_desc='Disable workspace memory system suggestions' ;;
        'doctor --yes') _oc_desc='Accept defaults without prompting' ;;
        'doctor --repair') _oc_desc='Apply recommended repairs without prompting' ;;
        'doctor --fix') _oc_desc='Apply recommended repairs (alias for --repair)' ;;
        'doctor --force') _oc_desc='Apply aggressive repairs' ;;
        'doctor --non-interactive') _oc_desc='Run without prompts (safe migrations only)' ;;
        'doctor --generate-gateway-token') _oc_desc='Generate and configure a gateway token' ;;
        'doctor --deep') _oc_desc='Slower, wider checks: every agent'\''s session store, a longer Gateway probe' ;;
        'doctor --lint') _oc_desc='Run read-only health checks and report findings' ;;
        'doctor --json') _oc_desc='With --lint: output one JSON document' ;;
        'doctor --severity-min') _oc_desc='With --lint: minimum severity to report (info, warning, error)' ;;
        'doctor --only') _oc_desc='With --lint: run only this check id (repeatable)' ;;
        'doctor --skip') _oc_desc='With --lint: skip this check id (repeatable)' ;;
        'doctor --all') _oc_desc='With --lint: run all checks, including opt-in ones' ;;
        'doctor -h'|'doctor --help') _oc_desc='Show this message and exit.' ;;
        'completion bash') _oc_desc='Print the bash completion script.' ;;
        'completion zsh') _oc_desc='Print the zsh completion script.' ;;
        'completion fish') _oc_desc='Print the fish completion script.' ;;
        'completion -h'|'completion --help') _oc_desc='Show this message and exit.' ;;
        'completion bash -h'|'completion bash --help') _oc_desc='Show this message and exit.' ;;
        'completion zsh -h'|'completion zsh --help') _oc_desc='Show this message and exit.' ;;
        'completion fish -h'|'completion fish --help') _oc_desc='Show this message and exit.' ;;
        *) _oc_desc='' ;;
    esac
}

# _openclaw_values PATH OPTION CUR: complete the value of an option.
_openclaw_values() {
    case "$1 $2" in
        ' --profile')
            _openclaw_profiles "$3" ;;
        ' --log-level')
            COMPREPLY=($(compgen -W 'error warn info debug' -- "$3")) ;;
        'sessions --active' | 'sessions --limit' | 'sessions list --active' | 'sessions list --limit' | 'sessions cleanup --active-key' | 'sessions cleanup --url' | 'sessions cleanup --port' | 'sessions cleanup --token' | 'sessions cleanup --password' | 'sessions cleanup --timeout' | 'sessions cleanup --wait' | 'sessions cleanup --limit' | 'sessions disk --top' | 'sessions recover --wait' | 'sessions compact --max-lines' | 'sessions compact --url' | 'sessions compact --token' | 'sessions compact --password' | 'sessions compact --timeout' | 'sessions compact --base-url' | 'sessions compact --model' | 'context list --session' | 'context list --url' | 'context list --token' | 'context list --password' | 'context list --timeout' | 'context detail --session' | 'context detail --url' | 'context detail --token' | 'context detail --password' | 'context detail --timeout' | 'context json --session' | 'context json --url' | 'context json --token' | 'context json --password' | 'context json --timeout' | 'context map --session' | 'context map --url' | 'context map --token' | 'context map --password' | 'context map --timeout' | 'compact --max-lines' | 'compact --url' | 'compact --token' | 'compact --password' | 'compact --timeout' | 'compact --base-url' | 'compact --model')
            COMPREPLY=() ;;
        'sessions --agent' | 'sessions list --agent' | 'sessions cleanup --agent' | 'sessions disk --agent' | 'sessions export --agent' | 'sessions verify --agent' | 'sessions repair --agent' | 'sessions recover --agent' | 'sessions compact --agent' | 'context list --agent' | 'context detail --agent' | 'context json --agent' | 'context map --agent' | 'compact --agent')
            _openclaw_agent_ids "$3" ;;
        'sessions --store' | 'sessions list --store' | 'sessions cleanup --store' | 'sessions disk --store' | 'sessions export --output' | 'sessions compact --summary-file' | 'context map -o' | 'context map --output' | 'compact --summary-file')
            _openclaw_files "$3" ;;
        'sessions compact --summarizer' | 'compact --summarizer')
            COMPREPLY=($(compgen -W 'extractive openai' -- "$3")) ;;
        'sessions compact --api-key-env' | 'compact --api-key-env')
            _openclaw_envvars "$3" ;;
        'context list --tokenizer' | 'context detail --tokenizer')
            COMPREPLY=($(compgen -W 'o200k_base cl100k_base estimate' -- "$3")) ;;
        'doctor --severity-min')
            COMPREPLY=($(compgen -W 'info warning error' -- "$3")) ;;
        'doctor --only' | 'doctor --skip')
            COMPREPLY=($(compgen -W 'core/doctor/legacy-config core/doctor/plugin-slots core/doctor/gateway-config core/doctor/gateway-auth core/doctor/command-owner core/doctor/legacy-state core/doctor/disk-space core/doctor/state-integrity core/doctor/session-locks core/doctor/session-transcripts core/doctor/session-store core/doctor/session-sqlite core/doctor/session-sqlite-migration core/doctor/security core/doctor/bootstrap-size core/doctor/gateway-health core/doctor/workspace-suggestions core/doctor/final-config-validation' -- "$3")) ;;
    esac
}

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
    local _oc_cmds _oc_opts _oc_vals _oc_args _oc_desc
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
        return 0
    else
        candidates=$_oc_opts
    fi
    COMPREPLY=($(compgen -W "$candidates" -- "$cur"))
    _openclaw_add_descriptions "$path"
    return 0
}

complete -F _openclaw openclaw

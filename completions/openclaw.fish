# fish completion for openclaw (openclaw_cli 0.1.0)
# Generated from the CLI definition by scripts/gen-shell-files.py; do not edit.
# Install: openclaw completion fish > ~/.config/fish/completions/openclaw.fish

function __openclaw_subcommands --argument-names path --description 'The sub-commands of an openclaw command'
    switch $path
        case ''
            printf '%s\n' sessions context compact doctor completion
        case 'sessions'
            printf '%s\n' list cleanup disk export verify repair recover compact
        case 'context'
            printf '%s\n' list detail json map
        case 'completion'
            printf '%s\n' bash zsh fish
    end
end

function __openclaw_value_options --argument-names path --description 'The options of an openclaw command that take a value'
    switch $path
        case ''
            printf '%s\n' --profile --log-level
        case 'sessions'
            printf '%s\n' --active --agent --limit --store
        case 'sessions list'
            printf '%s\n' --active --agent --limit --store
        case 'sessions cleanup'
            printf '%s\n' --active-key --agent --store --url --port --token --password --timeout --wait --limit
        case 'sessions disk'
            printf '%s\n' --agent --store --top
        case 'sessions export'
            printf '%s\n' --agent --output
        case 'sessions verify'
            printf '%s\n' --agent
        case 'sessions repair'
            printf '%s\n' --agent
        case 'sessions recover'
            printf '%s\n' --agent --wait
        case 'sessions compact'
            printf '%s\n' --agent --max-lines --url --token --password --timeout --summarizer --base-url --model --api-key-env --summary-file
        case 'context list'
            printf '%s\n' --session --agent --tokenizer --url --token --password --timeout
        case 'context detail'
            printf '%s\n' --session --agent --tokenizer --url --token --password --timeout
        case 'context json'
            printf '%s\n' --session --agent --url --token --password --timeout
        case 'context map'
            printf '%s\n' --session --agent -o --output --url --token --password --timeout
        case 'compact'
            printf '%s\n' --agent --max-lines --url --token --password --timeout --summarizer --base-url --model --api-key-env --summary-file
        case 'doctor'
            printf '%s\n' --severity-min --only --skip
    end
end

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

function __openclaw_profiles --description 'Profile names, from the ~/.openclaw-NAME folders'
    set -l home $HOME
    set -q OPENCLAW_HOME; and set home $OPENCLAW_HOME
    for dir in $home/.openclaw-*/
        string replace -r '.*/\.openclaw-([^/]+)/$' '$1' -- $dir
    end
end

complete -c openclaw -f

# openclaw
complete -c openclaw -n '__openclaw_at' -a sessions -d 'List stored conversation sessions, and maintain the session store.'
complete -c openclaw -n '__openclaw_at' -a context -d 'Show what fills a session\'s context window (like the /context chat command), read from disk or from a running Gateway, without sending a chat turn.'
complete -c openclaw -n '__openclaw_at' -a compact -d 'Compact a stored session transcript: through the running Gateway, or directly on the files when none runs.'
complete -c openclaw -n '__openclaw_at' -a doctor -d 'Health checks and quick fixes for the OpenClaw state folder and config.'
complete -c openclaw -n '__openclaw_at' -a completion -d 'Print the completion script for bash, zsh or fish.'
complete -c openclaw -n '__openclaw_at' -l profile -x -a '(__openclaw_profiles)' -d 'Use the profile\'s state dir (~/.openclaw-NAME) and config.'
complete -c openclaw -n '__openclaw_at' -l dev -d 'Profile `dev` (state in ~/.openclaw-dev, gateway port 19001).'
complete -c openclaw -n '__openclaw_at' -l no-color -d 'Never colour the output (NO_COLOR works too).'
complete -c openclaw -n '__openclaw_at' -l log-level -x -a 'error warn info debug' -d 'Diagnostics: error, warn, info (the default) or debug.'
complete -c openclaw -n '__openclaw_at' -s V -l version -d 'Print the version and exit.'
complete -c openclaw -n '__openclaw_at' -s h -l help -d 'Show this message and exit.'

# openclaw sessions
complete -c openclaw -n '__openclaw_at sessions' -a list -d 'List stored conversation sessions (same as `openclaw sessions`).'
complete -c openclaw -n '__openclaw_at sessions' -a cleanup -d 'Run session-store maintenance now.'
complete -c openclaw -n '__openclaw_at sessions' -a disk -d 'Show what uses the disk in the session folders, and what cleanup would free.'
complete -c openclaw -n '__openclaw_at sessions' -a export -d 'Write SQLite-era transcripts (OpenClaw 2026.8+) as file-era JSONL files.'
complete -c openclaw -n '__openclaw_at sessions' -a verify -d 'Check session transcripts: header, malformed lines, entry links, toolCall/toolResult pairs.'
complete -c openclaw -n '__openclaw_at sessions' -a repair -d 'Repair a transcript as the Gateway reads it: persist its load-time hygiene.'
complete -c openclaw -n '__openclaw_at sessions' -a recover -d 'Put orphan transcripts back into sessions.json instead of archiving them.'
complete -c openclaw -n '__openclaw_at sessions' -a compact -d 'Compact a stored session transcript: through the running Gateway, or directly on the files when none runs.'
complete -c openclaw -n '__openclaw_at sessions' -l active -x -d 'Only show sessions updated within the past N minutes'
complete -c openclaw -n '__openclaw_at sessions' -l agent -x -a '(__openclaw_agent_ids)' -d 'Agent id to inspect (default: configured default agent)'
complete -c openclaw -n '__openclaw_at sessions' -l all-agents -d 'Aggregate sessions across all configured agents'
complete -c openclaw -n '__openclaw_at sessions' -l json -d 'Output as JSON'
complete -c openclaw -n '__openclaw_at sessions' -l limit -x -d 'Max sessions to show (default: 100; use "all" for full output)'
complete -c openclaw -n '__openclaw_at sessions' -l store -r -F -d 'Path to session store (default: resolved from config)'
complete -c openclaw -n '__openclaw_at sessions' -l verbose -d 'Accepted for compatibility; no effect'
complete -c openclaw -n '__openclaw_at sessions' -s h -l help -d 'Show this message and exit.'

# openclaw sessions list
complete -c openclaw -n '__openclaw_at sessions list' -l active -x -d 'Only show sessions updated within the past N minutes'
complete -c openclaw -n '__openclaw_at sessions list' -l agent -x -a '(__openclaw_agent_ids)' -d 'Agent id to inspect'
complete -c openclaw -n '__openclaw_at sessions list' -l all-agents -d 'Aggregate sessions across all configured agents'
complete -c openclaw -n '__openclaw_at sessions list' -l json -d 'Output as JSON'
complete -c openclaw -n '__openclaw_at sessions list' -l limit -x -d 'Max sessions to show (default: 100; use "all" for full output)'
complete -c openclaw -n '__openclaw_at sessions list' -l store -r -F -d 'Path to session store (default: resolved from config)'
complete -c openclaw -n '__openclaw_at sessions list' -l verbose -d 'Accepted for compatibility; no effect'
complete -c openclaw -n '__openclaw_at sessions list' -s h -l help -d 'Show this message and exit.'

# openclaw sessions cleanup
complete -c openclaw -n '__openclaw_at sessions cleanup' -l active-key -x -d 'Protect this session key from budget-eviction'
complete -c openclaw -n '__openclaw_at sessions cleanup' -l agent -x -a '(__openclaw_agent_ids)' -d 'Agent id to maintain (default: configured default agent)'
complete -c openclaw -n '__openclaw_at sessions cleanup' -l all-agents -d 'Run maintenance across all configured agents'
complete -c openclaw -n '__openclaw_at sessions cleanup' -l dry-run -d 'Preview maintenance actions without writing'
complete -c openclaw -n '__openclaw_at sessions cleanup' -l enforce -d 'Apply maintenance even when configured mode is warn'
complete -c openclaw -n '__openclaw_at sessions cleanup' -l fix-dm-scope -d 'Retire stale direct-DM session rows that no longer match session.dmScope=main'
complete -c openclaw -n '__openclaw_at sessions cleanup' -l fix-missing -d 'Remove store entries whose transcript files are missing (bypasses age/count retention)'
complete -c openclaw -n '__openclaw_at sessions cleanup' -l allow-empty-store -d 'Sweep old transcripts even though the store has no entries (refused by default: that looks like a lost index)'
complete -c openclaw -n '__openclaw_at sessions cleanup' -l json -d 'Output JSON'
complete -c openclaw -n '__openclaw_at sessions cleanup' -l explain -d 'The rule behind each entry\'s and file\'s action, and why entries were kept'
complete -c openclaw -n '__openclaw_at sessions cleanup' -l store -r -F -d 'Path to session store (default: resolved from config)'
complete -c openclaw -n '__openclaw_at sessions cleanup' -s q -l quiet -d 'Print nothing unless something failed (for cron)'
complete -c openclaw -n '__openclaw_at sessions cleanup' -l url -x -d 'Gateway WebSocket URL (needs --token or --password)'
complete -c openclaw -n '__openclaw_at sessions cleanup' -l port -x -d 'Gateway port on this machine (else OPENCLAW_GATEWAY_PORT, gateway.port, 18789)'
complete -c openclaw -n '__openclaw_at sessions cleanup' -l token -x -d 'Gateway token (else OPENCLAW_GATEWAY_TOKEN)'
complete -c openclaw -n '__openclaw_at sessions cleanup' -l password -x -d 'Gateway password (else OPENCLAW_GATEWAY_PASSWORD)'
complete -c openclaw -n '__openclaw_at sessions cleanup' -l timeout -x -d 'Gateway call timeout in ms (default 10000)'
complete -c openclaw -n '__openclaw_at sessions cleanup' -l wait -x -d 'How long to wait for another maintenance run\'s store lock'
complete -c openclaw -n '__openclaw_at sessions cleanup' -l all -d 'At a terminal, list every planned row (piped output always does)'
complete -c openclaw -n '__openclaw_at sessions cleanup' -l limit -x -d 'At a terminal, list the first N planned rows of each action (default: 10)'
complete -c openclaw -n '__openclaw_at sessions cleanup' -s h -l help -d 'Show this message and exit.'

# openclaw sessions disk
complete -c openclaw -n '__openclaw_at sessions disk' -l agent -x -a '(__openclaw_agent_ids)' -d 'Agent id to inspect (default: configured default agent)'
complete -c openclaw -n '__openclaw_at sessions disk' -l all-agents -d 'Every configured agent\'s session folder'
complete -c openclaw -n '__openclaw_at sessions disk' -l json -d 'Output as JSON'
complete -c openclaw -n '__openclaw_at sessions disk' -l store -r -F -d 'Path to session store (default: resolved from config)'
complete -c openclaw -n '__openclaw_at sessions disk' -l top -x -d 'How many of the largest sessions to show (default: 10)'
complete -c openclaw -n '__openclaw_at sessions disk' -s h -l help -d 'Show this message and exit.'

# openclaw sessions export
complete -c openclaw -n '__openclaw_at sessions export' -l all -d 'Every session of the agent'
complete -c openclaw -n '__openclaw_at sessions export' -l agent -x -a '(__openclaw_agent_ids)' -d 'Agent id (default: the key\'s agent, else the configured default agent)'
complete -c openclaw -n '__openclaw_at sessions export' -l output -r -F -d 'Folder to write into (default: the current one)'
complete -c openclaw -n '__openclaw_at sessions export' -l force -d 'Replace files that exist'
complete -c openclaw -n '__openclaw_at sessions export' -l json -d 'Output as JSON'
complete -c openclaw -n '__openclaw_at sessions export' -s h -l help -d 'Show this message and exit.'

# openclaw sessions verify
complete -c openclaw -n '__openclaw_at sessions verify' -l agent -x -a '(__openclaw_agent_ids)' -d 'Agent id to check (default: configured default agent)'
complete -c openclaw -n '__openclaw_at sessions verify' -l all-agents -d 'Every configured agent\'s sessions'
complete -c openclaw -n '__openclaw_at sessions verify' -l orphans -d 'Also check transcripts no entry references, and name their likely key'
complete -c openclaw -n '__openclaw_at sessions verify' -l json -d 'Output as JSON'
complete -c openclaw -n '__openclaw_at sessions verify' -s h -l help -d 'Show this message and exit.'

# openclaw sessions repair
complete -c openclaw -n '__openclaw_at sessions repair' -l agent -x -a '(__openclaw_agent_ids)' -d 'Agent id the session belongs to'
complete -c openclaw -n '__openclaw_at sessions repair' -l dry-run -d 'Print the diff of entries; change nothing'
complete -c openclaw -n '__openclaw_at sessions repair' -l json -d 'Output as JSON'
complete -c openclaw -n '__openclaw_at sessions repair' -s h -l help -d 'Show this message and exit.'

# openclaw sessions recover
complete -c openclaw -n '__openclaw_at sessions recover' -l agent -x -a '(__openclaw_agent_ids)' -d 'Agent id to recover (default: configured default agent)'
complete -c openclaw -n '__openclaw_at sessions recover' -l all-agents -d 'Every configured agent\'s session folder'
complete -c openclaw -n '__openclaw_at sessions recover' -l dry-run -d 'Show what would be recovered; change nothing'
complete -c openclaw -n '__openclaw_at sessions recover' -l json -d 'Output as JSON'
complete -c openclaw -n '__openclaw_at sessions recover' -l wait -x -d 'How long to wait for another run\'s store lock'
complete -c openclaw -n '__openclaw_at sessions recover' -s h -l help -d 'Show this message and exit.'

# openclaw sessions compact
complete -c openclaw -n '__openclaw_at sessions compact' -l agent -x -a '(__openclaw_agent_ids)' -d 'Agent id that owns the session (required for global keys)'
complete -c openclaw -n '__openclaw_at sessions compact' -l max-lines -x -d 'Truncate to the last N transcript lines instead of LLM summarization'
complete -c openclaw -n '__openclaw_at sessions compact' -l json -d 'Output JSON'
complete -c openclaw -n '__openclaw_at sessions compact' -l url -x -d 'Gateway WebSocket URL (defaults to gateway.remote.url when configured)'
complete -c openclaw -n '__openclaw_at sessions compact' -l token -x -d 'Gateway token (if required)'
complete -c openclaw -n '__openclaw_at sessions compact' -l password -x -d 'Gateway password (password auth)'
complete -c openclaw -n '__openclaw_at sessions compact' -l timeout -x -d 'RPC timeout in milliseconds (defaults to no client deadline)'
complete -c openclaw -n '__openclaw_at sessions compact' -l dry-run -d 'Plan on the local files and report; write nothing, call no model'
complete -c openclaw -n '__openclaw_at sessions compact' -l offline -d 'Never use a Gateway; compact the local files'
complete -c openclaw -n '__openclaw_at sessions compact' -l summarizer -x -a 'extractive openai' -d 'Offline summary source: extractive (default, no model) or openai'
complete -c openclaw -n '__openclaw_at sessions compact' -l base-url -x -d 'OpenAI-compatible endpoint for --summarizer openai (default: the session\'s configured provider)'
complete -c openclaw -n '__openclaw_at sessions compact' -l model -x -d 'Model for --summarizer openai (default: the session\'s model)'
complete -c openclaw -n '__openclaw_at sessions compact' -l api-key-env -x -a '(set --names --export)' -d 'Environment variable holding the API key for --summarizer openai'
complete -c openclaw -n '__openclaw_at sessions compact' -l summary-file -r -F -d 'Use this summary (a file, or "-" for standard input); offline'
complete -c openclaw -n '__openclaw_at sessions compact' -s h -l help -d 'Show this message and exit.'

# openclaw context
complete -c openclaw -n '__openclaw_at context' -a list -d 'Short breakdown: workspace files, skills, tools, session tokens.'
complete -c openclaw -n '__openclaw_at context' -a detail -d 'Per-file, per-skill and per-tool sizes, compactable transcript counts, and a transcript breakdown by role with the largest tool results and what a compaction would free.'
complete -c openclaw -n '__openclaw_at context' -a json -d 'The report and session counters as JSON ({report, session}); unknown values are null.'
complete -c openclaw -n '__openclaw_at context' -a map -d 'A treemap of what fills the window (WinDirStat style).'
complete -c openclaw -n '__openclaw_at context' -s h -l help -d 'Show this message and exit.'

# openclaw context list
complete -c openclaw -n '__openclaw_at context list' -l session -x -d 'Session key (default: the agent\'s main session, agent:<id>:main)'
complete -c openclaw -n '__openclaw_at context list' -l agent -x -a '(__openclaw_agent_ids)' -d 'Agent id (default: the configured default agent)'
complete -c openclaw -n '__openclaw_at context list' -l tokenizer -x -a 'o200k_base cl100k_base estimate' -d 'o200k_base or cl100k_base: exact token counts beside the chars/4 estimates (offline); estimate: only the estimates'
complete -c openclaw -n '__openclaw_at context list' -l offline -d 'Never ask a running Gateway; read everything from disk'
complete -c openclaw -n '__openclaw_at context list' -l plain -d 'Print only what the Gateway\'s /context prints (no extra lines)'
complete -c openclaw -n '__openclaw_at context list' -l url -x -d 'Gateway WebSocket URL (default: from config/env)'
complete -c openclaw -n '__openclaw_at context list' -l token -x -d 'Gateway token (if required)'
complete -c openclaw -n '__openclaw_at context list' -l password -x -d 'Gateway password (password auth)'
complete -c openclaw -n '__openclaw_at context list' -l timeout -x -d 'Gateway timeout in ms (default 5000)'
complete -c openclaw -n '__openclaw_at context list' -s h -l help -d 'Show this message and exit.'

# openclaw context detail
complete -c openclaw -n '__openclaw_at context detail' -l session -x -d 'Session key (default: the agent\'s main session, agent:<id>:main)'
complete -c openclaw -n '__openclaw_at context detail' -l agent -x -a '(__openclaw_agent_ids)' -d 'Agent id (default: the configured default agent)'
complete -c openclaw -n '__openclaw_at context detail' -l tokenizer -x -a 'o200k_base cl100k_base estimate' -d 'o200k_base or cl100k_base: exact token counts beside the chars/4 estimates (offline); estimate: only the estimates'
complete -c openclaw -n '__openclaw_at context detail' -l offline -d 'Never ask a running Gateway; read everything from disk'
complete -c openclaw -n '__openclaw_at context detail' -l plain -d 'Print only what the Gateway\'s /context prints (no extra lines)'
complete -c openclaw -n '__openclaw_at context detail' -l url -x -d 'Gateway WebSocket URL (default: from config/env)'
complete -c openclaw -n '__openclaw_at context detail' -l token -x -d 'Gateway token (if required)'
complete -c openclaw -n '__openclaw_at context detail' -l password -x -d 'Gateway password (password auth)'
complete -c openclaw -n '__openclaw_at context detail' -l timeout -x -d 'Gateway timeout in ms (default 5000)'
complete -c openclaw -n '__openclaw_at context detail' -s h -l help -d 'Show this message and exit.'

# openclaw context json
complete -c openclaw -n '__openclaw_at context json' -l session -x -d 'Session key (default: the agent\'s main session, agent:<id>:main)'
complete -c openclaw -n '__openclaw_at context json' -l agent -x -a '(__openclaw_agent_ids)' -d 'Agent id (default: the configured default agent)'
complete -c openclaw -n '__openclaw_at context json' -l offline -d 'Never ask a running Gateway; read everything from disk'
complete -c openclaw -n '__openclaw_at context json' -l url -x -d 'Gateway WebSocket URL (default: from config/env)'
complete -c openclaw -n '__openclaw_at context json' -l token -x -d 'Gateway token (if required)'
complete -c openclaw -n '__openclaw_at context json' -l password -x -d 'Gateway password (password auth)'
complete -c openclaw -n '__openclaw_at context json' -l timeout -x -d 'Gateway timeout in ms (default 5000)'
complete -c openclaw -n '__openclaw_at context json' -s h -l help -d 'Show this message and exit.'

# openclaw context map
complete -c openclaw -n '__openclaw_at context map' -l session -x -d 'Session key (default: the agent\'s main session, agent:<id>:main)'
complete -c openclaw -n '__openclaw_at context map' -l agent -x -a '(__openclaw_agent_ids)' -d 'Agent id (default: the configured default agent)'
complete -c openclaw -n '__openclaw_at context map' -s o -l output -r -F -d 'Write a treemap image: .png (1280x860) or .svg; without it, draw at the terminal'
complete -c openclaw -n '__openclaw_at context map' -l offline -d 'Never ask a running Gateway; read everything from disk'
complete -c openclaw -n '__openclaw_at context map' -l url -x -d 'Gateway WebSocket URL (default: from config/env)'
complete -c openclaw -n '__openclaw_at context map' -l token -x -d 'Gateway token (if required)'
complete -c openclaw -n '__openclaw_at context map' -l password -x -d 'Gateway password (password auth)'
complete -c openclaw -n '__openclaw_at context map' -l timeout -x -d 'Gateway timeout in ms (default 5000)'
complete -c openclaw -n '__openclaw_at context map' -s h -l help -d 'Show this message and exit.'

# openclaw compact
complete -c openclaw -n '__openclaw_at compact' -l agent -x -a '(__openclaw_agent_ids)' -d 'Agent id that owns the session (required for global keys)'
complete -c openclaw -n '__openclaw_at compact' -l max-lines -x -d 'Truncate to the last N transcript lines instead of LLM summarization'
complete -c openclaw -n '__openclaw_at compact' -l json -d 'Output JSON'
complete -c openclaw -n '__openclaw_at compact' -l url -x -d 'Gateway WebSocket URL (defaults to gateway.remote.url when configured)'
complete -c openclaw -n '__openclaw_at compact' -l token -x -d 'Gateway token (if required)'
complete -c openclaw -n '__openclaw_at compact' -l password -x -d 'Gateway password (password auth)'
complete -c openclaw -n '__openclaw_at compact' -l timeout -x -d 'RPC timeout in milliseconds (defaults to no client deadline)'
complete -c openclaw -n '__openclaw_at compact' -l dry-run -d 'Plan on the local files and report; write nothing, call no model'
complete -c openclaw -n '__openclaw_at compact' -l offline -d 'Never use a Gateway; compact the local files'
complete -c openclaw -n '__openclaw_at compact' -l summarizer -x -a 'extractive openai' -d 'Offline summary source: extractive (default, no model) or openai'
complete -c openclaw -n '__openclaw_at compact' -l base-url -x -d 'OpenAI-compatible endpoint for --summarizer openai (default: the session\'s configured provider)'
complete -c openclaw -n '__openclaw_at compact' -l model -x -d 'Model for --summarizer openai (default: the session\'s model)'
complete -c openclaw -n '__openclaw_at compact' -l api-key-env -x -a '(set --names --export)' -d 'Environment variable holding the API key for --summarizer openai'
complete -c openclaw -n '__openclaw_at compact' -l summary-file -r -F -d 'Use this summary (a file, or "-" for standard input); offline'
complete -c openclaw -n '__openclaw_at compact' -s h -l help -d 'Show this message and exit.'

# openclaw doctor
complete -c openclaw -n '__openclaw_at doctor' -l no-workspace-suggestions -d 'Disable workspace memory system suggestions'
complete -c openclaw -n '__openclaw_at doctor' -l yes -d 'Accept defaults without prompting'
complete -c openclaw -n '__openclaw_at doctor' -l repair -d 'Apply recommended repairs without prompting'
complete -c openclaw -n '__openclaw_at doctor' -l fix -d 'Apply recommended repairs (alias for --repair)'
complete -c openclaw -n '__openclaw_at doctor' -l force -d 'Apply aggressive repairs'
complete -c openclaw -n '__openclaw_at doctor' -l non-interactive -d 'Run without prompts (safe migrations only)'
complete -c openclaw -n '__openclaw_at doctor' -l generate-gateway-token -d 'Generate and configure a gateway token'
complete -c openclaw -n '__openclaw_at doctor' -l deep -d 'Slower, wider checks: every agent\'s session store, a longer Gateway probe'
complete -c openclaw -n '__openclaw_at doctor' -l lint -d 'Run read-only health checks and report findings'
complete -c openclaw -n '__openclaw_at doctor' -l json -d 'With --lint: output one JSON document'
complete -c openclaw -n '__openclaw_at doctor' -l severity-min -x -a 'info warning error' -d 'With --lint: minimum severity to report (info, warning, error)'
complete -c openclaw -n '__openclaw_at doctor' -l only -x -a 'core/doctor/legacy-config core/doctor/plugin-slots core/doctor/gateway-config core/doctor/gateway-auth core/doctor/command-owner core/doctor/legacy-state core/doctor/disk-space core/doctor/state-integrity core/doctor/session-locks core/doctor/session-transcripts core/doctor/session-store core/doctor/session-sqlite core/doctor/session-sqlite-migration core/doctor/security core/doctor/bootstrap-size core/doctor/gateway-health core/doctor/workspace-suggestions core/doctor/final-config-validation' -d 'With --lint: run only this check id (repeatable)'
complete -c openclaw -n '__openclaw_at doctor' -l skip -x -a 'core/doctor/legacy-config core/doctor/plugin-slots core/doctor/gateway-config core/doctor/gateway-auth core/doctor/command-owner core/doctor/legacy-state core/doctor/disk-space core/doctor/state-integrity core/doctor/session-locks core/doctor/session-transcripts core/doctor/session-store core/doctor/session-sqlite core/doctor/session-sqlite-migration core/doctor/security core/doctor/bootstrap-size core/doctor/gateway-health core/doctor/workspace-suggestions core/doctor/final-config-validation' -d 'With --lint: skip this check id (repeatable)'
complete -c openclaw -n '__openclaw_at doctor' -l all -d 'With --lint: run all checks, including opt-in ones'
complete -c openclaw -n '__openclaw_at doctor' -s h -l help -d 'Show this message and exit.'

# openclaw completion
complete -c openclaw -n '__openclaw_at completion' -a bash -d 'Print the bash completion script.'
complete -c openclaw -n '__openclaw_at completion' -a zsh -d 'Print the zsh completion script.'
complete -c openclaw -n '__openclaw_at completion' -a fish -d 'Print the fish completion script.'
complete -c openclaw -n '__openclaw_at completion' -s h -l help -d 'Show this message and exit.'

# openclaw completion bash
complete -c openclaw -n '__openclaw_at completion bash' -s h -l help -d 'Show this message and exit.'

# openclaw completion zsh
complete -c openclaw -n '__openclaw_at completion zsh' -s h -l help -d 'Show this message and exit.'

# openclaw completion fish
complete -c openclaw -n '__openclaw_at completion fish' -s h -l help -d 'Show this message and exit.'

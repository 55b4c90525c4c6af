#compdef gymlog

__gymlog_complete() {
    local -ar non_empty_completions=("${@:#(|:*)}")
    local -ar empty_completions=("${(M)@:#(|:*)}")
    _describe -V '' non_empty_completions -- empty_completions -P $'\'\''
}

__gymlog_custom_complete() {
    local -a completions
    completions=("${(@f)"$("${command_name}" "${@}" "${command_line[@]}")"}")
    if [[ "${#completions[@]}" -gt 1 ]]; then
        __gymlog_complete "${completions[@]:0:-1}"
    fi
}

__gymlog_cursor_index_in_current_word() {
    if [[ -z "${QIPREFIX}${IPREFIX}${PREFIX}" ]]; then
        printf 0
    else
        printf %s "${#${(z)LBUFFER}[-1]}"
    fi
}

_gymlog() {
    emulate -RL zsh -G
    setopt extendedglob nullglob numericglobsort
    unsetopt aliases banghist

    local -xr SAP_SHELL=zsh
    local -x SAP_SHELL_VERSION
    SAP_SHELL_VERSION="$(builtin emulate zsh -c 'printf %s "${ZSH_VERSION}"')"
    local -r SAP_SHELL_VERSION

    local context state state_descr line
    local -A opt_args

    local -r command_name="${words[1]}"
    local -ar command_line=("${words[@]}")
    local -ir current_word_index="$((CURRENT - 1))"

    local -i ret=1
    local -ar arg_specs=(
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
        '(-): :->command'
        '(-)*:: :->arg'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0
    case "${state}" in
    command)
        local -ar subcommands=(
            'repl:Open the logging REPL (the default when gymlog runs with no arguments).'
            'log:Log one line of sets, e.g. `log bench 100x5 @8` (in the REPL, just type the line).'
            'undo:Delete the last logged set (kept as a tombstone so every device deletes it too).'
            'redo:Bring back the set the last `undo` deleted.'
            'start:Start a new workout, optionally named (logging a set starts one automatically).'
            'finish:Finish the current workout.'
            'note:Set the current workout'\''s note, e.g. `note felt strong today`.'
            'show:Show the current (or latest) workout with its sets numbered for edit and delete.'
            'edit:Change set N of `show` (default: the last), e.g. `edit 2 x6 @9`.'
            'delete:Delete set N of `show`, e.g. `delete 3`.'
            'history:List recent workouts, or the recent sets of one exercise.'
            'prs:Show personal records: heaviest weight, best e1RM, rep maxes 1-12, set and session volume.'
            'chart:Chart an exercise'\''s progression in the terminal: best e1RM, heaviest weight or session volume per workout.'
            'stats:Weekly training: workouts, working sets and volume per week, by exercise or muscle group.'
            'exercises:List exercises, add one, give one an alias, or rename one.'
            'export:Write every live set as RFC 4180 CSV, streaming with constant memory.'
            'import:Import workouts from a Strong, Hevy or FitNotes export, or a gymlog native export.'
            'sync:Run one sync cycle with the server: pull, push, acknowledge.'
            'status:Show the outbox, the last sync and any failing events.'
            'login:Check the sync server and your token, then save them in the config (mode 0600).'
            'logout:Forget the sync server and token (local data stays).'
            'help:Show subcommand help information.'
        )
        _describe -V subcommand subcommands && ret=0
        ;;
    arg)
        case "${words[1]}" in
        repl|log|undo|redo|start|finish|note|show|edit|delete|history|prs|chart|stats|exercises|export|import|sync|status|login|logout|help)
            "_gymlog_${words[1]}" && ret=0
            ;;
        esac
        ;;
    esac

    return "${ret}"
}

_gymlog_repl() {
    local -i ret=1
    local -ar arg_specs=(
        '--db[The database file.]:path:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_gymlog_log() {
    local -i ret=1
    local -ar arg_specs=(
        '--db[The database file.]:path:'
        '*:words:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_gymlog_undo() {
    local -i ret=1
    local -ar arg_specs=(
        '--db[The database file.]:path:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_gymlog_redo() {
    local -i ret=1
    local -ar arg_specs=(
        '--db[The database file.]:path:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_gymlog_start() {
    local -i ret=1
    local -ar arg_specs=(
        '--db[The database file.]:path:'
        '*:name:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_gymlog_finish() {
    local -i ret=1
    local -ar arg_specs=(
        '--db[The database file.]:path:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_gymlog_note() {
    local -i ret=1
    local -ar arg_specs=(
        '--db[The database file.]:path:'
        '*:text:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_gymlog_show() {
    local -i ret=1
    local -ar arg_specs=(
        '--db[The database file.]:path:'
        '--json[Print JSON for scripts instead of text (keys documented in the README).]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_gymlog_edit() {
    local -i ret=1
    local -ar arg_specs=(
        '--db[The database file.]:path:'
        '*:changes:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_gymlog_delete() {
    local -i ret=1
    local -ar arg_specs=(
        '--db[The database file.]:path:'
        '*:number:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_gymlog_history() {
    local -i ret=1
    local -ar arg_specs=(
        '--db[The database file.]:path:'
        '*:exercise:{__gymlog_custom_complete ---completion history -- positional@0 "${current_word_index}" "$(__gymlog_cursor_index_in_current_word)"}'
        '--limit[How many workouts to show.]:limit:'
        '--json[Print JSON for scripts instead of text (keys documented in the README).]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_gymlog_prs() {
    local -i ret=1
    local -ar arg_specs=(
        '--db[The database file.]:path:'
        '*:exercise:{__gymlog_custom_complete ---completion prs -- positional@0 "${current_word_index}" "$(__gymlog_cursor_index_in_current_word)"}'
        '--json[Print JSON for scripts instead of text (keys documented in the README).]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_gymlog_chart() {
    local -i ret=1
    local -ar ___metric=('e1rm' 'weight' 'volume')
    local -ar arg_specs=(
        '--db[The database file.]:path:'
        '*:exercise:'
        '--metric[e1rm (best estimated 1RM), weight (heaviest working weight) or volume (session volume).]:metric:{__gymlog_complete "${___metric[@]}"}'
        '--since[Only workouts on or after this day.]:YYYY-MM-DD:'
        '--until[Only workouts on or before this day.]:YYYY-MM-DD:'
        '--width[Columns to fill (default\: the terminal'\''s width).]:columns:'
        '--height[Rows of plot, not counting the axes.]:rows:'
        '--json[Print JSON for scripts instead of text (keys documented in the README).]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_gymlog_stats() {
    local -i ret=1
    local -ar ___by=('exercise' 'muscle')
    local -ar arg_specs=(
        '--db[The database file.]:path:'
        '--weeks[How many weeks to show, ending with this one.]:weeks:'
        '--by[exercise or muscle (a built-in table from exercise names to muscle groups).]:by:{__gymlog_complete "${___by[@]}"}'
        '--json[Print JSON for scripts instead of text (keys documented in the README).]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_gymlog_exercises() {
    local -i ret=1
    local -ar arg_specs=(
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
        '(-): :->command'
        '(-)*:: :->arg'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0
    case "${state}" in
    command)
        local -ar subcommands=(
            'list:List exercises with their aliases and set counts.'
            'add:Create an exercise.'
            'alias:Give an exercise another name, e.g. `alias bp "Bench Press"`.'
            'rename:Rename an exercise; its history and records stay.'
        )
        _describe -V subcommand subcommands && ret=0
        ;;
    arg)
        case "${words[1]}" in
        list|add|alias|rename)
            "_gymlog_exercises_${words[1]}" && ret=0
            ;;
        esac
        ;;
    esac

    return "${ret}"
}

_gymlog_exercises_list() {
    local -i ret=1
    local -ar arg_specs=(
        '--db[The database file.]:path:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_gymlog_exercises_add() {
    local -i ret=1
    local -ar arg_specs=(
        '--db[The database file.]:path:'
        '*:name:'
        '--kind[weighted, bodyweight, timed or distance.]:kind:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_gymlog_exercises_alias() {
    local -i ret=1
    local -ar arg_specs=(
        '--db[The database file.]:path:'
        ':alias:'
        '*:exercise:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_gymlog_exercises_rename() {
    local -i ret=1
    local -ar arg_specs=(
        '--db[The database file.]:path:'
        ':name:'
        '*:new-name:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_gymlog_export() {
    local -i ret=1
    local -ar arg_specs=(
        '--db[The database file.]:path:'
        '--out[Write to this file instead of standard output.]:file:'
        '--since[Only sets on or after this day.]:YYYY-MM-DD:'
        '--until[Only sets on or before this day.]:YYYY-MM-DD:'
        '--exercise[Only this exercise (name, alias or prefix).]:exercise:'
        '--format[native (everything, with ids and time zones) or strong (Strong'\''s CSV layout).]:format:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_gymlog_import() {
    local -i ret=1
    local -ar arg_specs=(
        '--db[The database file.]:path:'
        ':file:'
        '--from[The app that wrote the file\: strong, hevy, fitnotes or native (default\: detect).]:app:'
        '--unit[The unit of weights the file gives without one (default\: your configured unit).]:kg|lb:'
        '--timezone[The IANA time zone of times written without one (default\: this machine'\''s).]:TZ:'
        '--dry-run[Read and check the file, report what would be imported, write nothing.]'
        '--skip-bad-rows[Import the readable rows and list the malformed ones instead of refusing the file.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_gymlog_sync() {
    local -i ret=1
    local -ar arg_specs=(
        '--db[The database file.]:path:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_gymlog_status() {
    local -i ret=1
    local -ar arg_specs=(
        '--db[The database file.]:path:'
        '--json[Print JSON for scripts instead of text (keys documented in the README).]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_gymlog_login() {
    local -i ret=1
    local -ar arg_specs=(
        '--db[The database file.]:path:'
        '--server[The server'\''s base URL, e.g. http\://127.0.0.1\:8080.]:server:'
        '--token[The bearer token from `gymlog-server user add`.]:token:'
        '--register[Create an account on a server with open registration.]:register:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_gymlog_logout() {
    local -i ret=1
    local -ar arg_specs=(
        '--db[The database file.]:path:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_gymlog_help() {
    local -i ret=1
    local -ar arg_specs=(
        '*:subcommands:'
        '--version[Show the version.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

if [[ "${funcstack[1]}" = _gymlog ]]; then
    _gymlog "${@}"
else
    compdef _gymlog gymlog
fi

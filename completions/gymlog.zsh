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
            'undo:Revert this device'\''s last action: a logged line, `+`, an edit, a delete, a start, a finish, a note or an exercises change.'
            'redo:Re-apply the action the last `undo` reverted (nothing else is ever brought back).'
            'start:Start a new workout, optionally named (logging a set starts one automatically).'
            'finish:Finish the current workout, or print the summary of any with `--workout REF`.'
            'note:Set the current workout'\''s note, e.g. `note felt strong today`, or another'\''s with `--workout REF`.'
            'show:Show the current (or latest) workout, or any with `--workout REF`, its sets numbered for edit and delete.'
            'edit:Change set N of `show` (default: the last), e.g. `edit 2 x6 @9`, or rename or move a workout.'
            'delete:Delete set N of `show`, e.g. `delete 3`, or a whole workout with `--workout REF`.'
            'history:List recent workouts, or the recent sets of one exercise.'
            'last:Show what you did for an exercise last time (the REPL shows it under its first set).'
            'prs:Show personal records: heaviest weight, e1RM, rep maxes, volume, fastest times, pace.'
            'chart:Chart an exercise'\''s progression in the terminal: e1RM, weight, volume, time or pace per workout.'
            'stats:Weekly training: workouts, working sets and volume per week, by exercise or muscle group.'
            'plates:What goes on the bar: `plates 142.5` shows the plates per side; `plates 25 20` adds a side up.'
            'warmup:A warm-up ramp from the empty bar to a working weight: `warmup squat 140`; add `log` to log it.'
            'routine:Write routines in plain text and see today'\''s plan: add, list, show, edit, rm, export.'
            'next:Show the next planned set of the routine workout (`ok` logs it).'
            'ok:Log the next planned set as suggested, or changed: `ok`, `ok x4`, `ok 100`, `ok @9`.'
            'skip:Drop the current planned exercise from today'\''s routine workout.'
            'rest:Show the rest since the last set, or set this break'\''s target: `rest 2:30`.'
            'bw:Record bodyweight (`bw 82.5`), or list it (`bw`); `chart bw` draws it.'
            'exercises:List exercises, add, alias, rename, merge or delete one, or change its kind.'
            'export:Write every live set as CSV, streaming with constant memory.'
            'import:Import workouts from a Strong, Hevy or FitNotes export, or a gymlog native export.'
            'sync:Run one sync cycle with the server: pull, push, acknowledge.'
            'status:Show the outbox, the last sync and any failing events.'
            'login:Check the sync server and your token, then save them in the credentials file (mode 0600).'
            'logout:Forget the sync server and token (local data stays).'
            'help:Show subcommand help information.'
        )
        _describe -V subcommand subcommands && ret=0
        ;;
    arg)
        case "${words[1]}" in
        repl|log|undo|redo|start|finish|note|show|edit|delete|history|last|prs|chart|stats|plates|warmup|routine|next|ok|skip|rest|bw|exercises|export|import|sync|status|login|logout|help)
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
        '--at[Log it at this past local time\: YYYY-MM-DD HH\:MM, HH\:MM (today) or yesterday HH\:MM.]:time:'
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
        '--yes[Undo even when the action belongs to another workout than the open one.]'
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
        '--yes[Redo even when the action belongs to another workout than the open one.]'
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
        '--at[Log it at this past local time\: YYYY-MM-DD HH\:MM, HH\:MM (today) or yesterday HH\:MM.]:time:'
        '--json[Print JSON for scripts instead of text (keys documented in the README).]'
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
        '--workout[The workout to act on instead of the current one\: YYYY-MM-DD (that day'\''s workout; today and yesterday work too), YYYY-MM-DD#2 (the day'\''s second), or -N (the N-th most recent\: -1 is the latest). `history` and `show` print each workout'\''s reference.]:ref:'
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
        '--workout[The workout to act on instead of the current one\: YYYY-MM-DD (that day'\''s workout; today and yesterday work too), YYYY-MM-DD#2 (the day'\''s second), or -N (the N-th most recent\: -1 is the latest). `history` and `show` print each workout'\''s reference.]:ref:'
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
        '--workout[The workout to act on instead of the current one\: YYYY-MM-DD (that day'\''s workout; today and yesterday work too), YYYY-MM-DD#2 (the day'\''s second), or -N (the N-th most recent\: -1 is the latest). `history` and `show` print each workout'\''s reference.]:ref:'
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
        '--workout[The workout to act on instead of the current one\: YYYY-MM-DD (that day'\''s workout; today and yesterday work too), YYYY-MM-DD#2 (the day'\''s second), or -N (the N-th most recent\: -1 is the latest). `history` and `show` print each workout'\''s reference.]:ref:'
        '--name[Rename the workout ("" clears its name).]:name:'
        '--start[Move the workout'\''s start to this local time (YYYY-MM-DD HH\:MM, HH\:MM (today) or yesterday HH\:MM); its sets move with it.]:time:'
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
        '--workout[The workout to act on instead of the current one\: YYYY-MM-DD (that day'\''s workout; today and yesterday work too), YYYY-MM-DD#2 (the day'\''s second), or -N (the N-th most recent\: -1 is the latest). `history` and `show` print each workout'\''s reference.]:ref:'
        '--yes[Delete a whole workout without asking (what a script must pass).]'
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

_gymlog_last() {
    local -i ret=1
    local -ar arg_specs=(
        '--db[The database file.]:path:'
        '*:exercise:{__gymlog_custom_complete ---completion last -- positional@0 "${current_word_index}" "$(__gymlog_cursor_index_in_current_word)"}'
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
    local -ar ___metric=('e1rm' 'weight' 'volume' 'reps' 'time' 'distance' 'pace')
    local -ar arg_specs=(
        '--db[The database file.]:path:'
        '*:exercise:'
        '--metric[e1rm, weight, volume, reps, time, distance or pace (default\: the first with data for the exercise).]:metric:{__gymlog_complete "${___metric[@]}"}'
        '--since[Only from this day on\: YYYY-MM-DD, today, yesterday, or an age like 30d, 12w, 6m or 1y.]:day:'
        '--until[Only up to and including this day, in the same forms.]:day:'
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

_gymlog_plates() {
    local -i ret=1
    local -ar arg_specs=(
        '--db[The database file.]:path:'
        '*:load:'
        '--bar[The bar'\''s weight in the load'\''s unit, instead of the configured bar.]:weight:'
        '--per-side[Read the numbers as the plates on one side, even just one.]'
        '--json[Print JSON for scripts instead of text (keys documented in the README).]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_gymlog_warmup() {
    local -i ret=1
    local -ar arg_specs=(
        '--db[The database file.]:path:'
        '*:words:{__gymlog_custom_complete ---completion warmup -- positional@0 "${current_word_index}" "$(__gymlog_cursor_index_in_current_word)"}'
        '--json[Print JSON for scripts instead of text (keys documented in the README).]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_gymlog_routine() {
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
            'list:List routines with their exercises.'
            'add:Add a routine (or replace the one of that name) from a file, stdin (-) or $EDITOR.'
            'show:Show a routine as planned today: each exercise'\''s sets, why, and last time.'
            'edit:Edit a routine'\''s text in $EDITOR.'
            'rm:Delete a routine (workouts done from it keep their sets).'
            'export:Print a routine'\''s text, as `routine add --file` reads it.'
        )
        _describe -V subcommand subcommands && ret=0
        ;;
    arg)
        case "${words[1]}" in
        list|add|show|edit|rm|export)
            "_gymlog_routine_${words[1]}" && ret=0
            ;;
        esac
        ;;
    esac

    return "${ret}"
}

_gymlog_routine_list() {
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

_gymlog_routine_add() {
    local -i ret=1
    local -ar arg_specs=(
        '--db[The database file.]:path:'
        '*:name:'
        '--file[Read the routine'\''s text from this file (- for stdin).]:file:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_gymlog_routine_show() {
    local -i ret=1
    local -ar arg_specs=(
        '--db[The database file.]:path:'
        '*:name:'
        '--json[Print JSON for scripts instead of text (keys documented in the README).]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_gymlog_routine_edit() {
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

_gymlog_routine_rm() {
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

_gymlog_routine_export() {
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

_gymlog_next() {
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

_gymlog_ok() {
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

_gymlog_skip() {
    local -i ret=1
    local -ar arg_specs=(
        '--db[The database file.]:path:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_gymlog_rest() {
    local -i ret=1
    local -ar arg_specs=(
        '--db[The database file.]:path:'
        ':target:'
        '--json[Print JSON for scripts instead of text (keys documented in the README).]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_gymlog_bw() {
    local -i ret=1
    local -ar arg_specs=(
        '--db[The database file.]:path:'
        '*:weight:'
        '--at[Log it at this past local time\: YYYY-MM-DD HH\:MM, HH\:MM (today) or yesterday HH\:MM.]:time:'
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
            'list:List exercises with their kind, aliases, set counts and last date.'
            'add:Create an exercise of one kind.'
            'alias:Give an exercise another name, e.g. `alias bp "Bench Press"`.'
            'rename:Rename an exercise; its history and records stay, and the old name becomes an alias.'
            'kind:Change an exercise'\''s kind, converting its sets when each has a reading in the new kind.'
            'rest:Set an exercise'\''s target rest between sets (`off` clears it); the prompt counts to it.'
            'merge:Move every set of one exercise to another; the old name becomes an alias.'
            'delete:Delete an exercise that has no sets, with its aliases.'
        )
        _describe -V subcommand subcommands && ret=0
        ;;
    arg)
        case "${words[1]}" in
        list|add|alias|rename|kind|rest|merge|delete)
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
        '--json[Print JSON for scripts instead of text (keys documented in the README).]'
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
        '--kind[weighted, bodyweight, timed, distance or carry; left out, the first set sets it.]:kind:'
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

_gymlog_exercises_kind() {
    local -i ret=1
    local -ar arg_specs=(
        '--db[The database file.]:path:'
        ':name:'
        ':kind:'
        '--yes[Convert the sets without asking (for scripts).]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_gymlog_exercises_rest() {
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

_gymlog_exercises_merge() {
    local -i ret=1
    local -ar arg_specs=(
        '--db[The database file.]:path:'
        ':from:'
        '*:into:'
        '--yes[Convert sets of another kind without asking (for scripts).]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_gymlog_exercises_delete() {
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

_gymlog_export() {
    local -i ret=1
    local -ar arg_specs=(
        '--db[The database file.]:path:'
        '--out[Write to this file instead of standard output.]:file:'
        '--since[Only from this day on\: YYYY-MM-DD, today, yesterday, or an age like 30d, 12w, 6m or 1y.]:day:'
        '--until[Only up to and including this day, in the same forms.]:day:'
        '--exercise[Only this exercise (name, alias or prefix).]:exercise:'
        '--format[native (everything\: ids, time zones, aliases), strong (Strong'\''s own ;-separated layout with unit columns) or hevy (Hevy'\''s CSV layout in your unit).]:format:'
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
        '--ca-file[Trust the certificates in this PEM file too (a server with a certificate of its own); saved with the token.]:pem-file:'
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

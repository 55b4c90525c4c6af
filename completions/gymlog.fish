function __gymlog_should_offer_completions_for_flags_or_options -a expected_commands
    set -l non_repeating_flags_or_options $argv[2..]
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __gymlog_parse_tokens
    test "$commands" = "$expected_commands"; and return $non_repeating_flags_or_options_absent
end

function __gymlog_should_offer_completions_for_positional -a expected_commands positional_index_comparison expected_positional_index
    set -l non_repeating_flags_or_options
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __gymlog_parse_tokens
    test "$commands" = "$expected_commands" -a \( "$positional_index" "$positional_index_comparison" "$expected_positional_index" \)
end

function __gymlog_parse_tokens -S
    set -l unparsed_tokens (__gymlog_tokens -pc)
    switch $unparsed_tokens[1]
    case 'gymlog'
        __gymlog_parse_subcommand 0 'version' 'h/help'
        switch $unparsed_tokens[1]
        case 'repl'
            __gymlog_parse_subcommand 0 'db=' 'version' 'h/help'
        case 'log'
            __gymlog_parse_subcommand -r 1 'db=' 'at=' 'version' 'h/help'
        case 'undo'
            __gymlog_parse_subcommand 0 'db=' 'yes' 'version' 'h/help'
        case 'redo'
            __gymlog_parse_subcommand 0 'db=' 'yes' 'version' 'h/help'
        case 'start'
            __gymlog_parse_subcommand -r 1 'db=' 'at=' 'json' 'version' 'h/help'
        case 'finish'
            __gymlog_parse_subcommand 0 'db=' 'version' 'h/help'
        case 'note'
            __gymlog_parse_subcommand -r 1 'db=' 'version' 'h/help'
        case 'show'
            __gymlog_parse_subcommand 0 'db=' 'json' 'version' 'h/help'
        case 'edit'
            __gymlog_parse_subcommand -r 1 'db=' 'version' 'h/help'
        case 'delete'
            __gymlog_parse_subcommand -r 1 'db=' 'version' 'h/help'
        case 'history'
            __gymlog_parse_subcommand -r 1 'db=' 'limit=' 'json' 'version' 'h/help'
        case 'last'
            __gymlog_parse_subcommand -r 1 'db=' 'json' 'version' 'h/help'
        case 'prs'
            __gymlog_parse_subcommand -r 1 'db=' 'json' 'version' 'h/help'
        case 'chart'
            __gymlog_parse_subcommand -r 1 'db=' 'metric=' 'since=' 'until=' 'width=' 'height=' 'json' 'version' 'h/help'
        case 'stats'
            __gymlog_parse_subcommand 0 'db=' 'weeks=' 'by=' 'json' 'version' 'h/help'
        case 'plates'
            __gymlog_parse_subcommand -r 1 'db=' 'bar=' 'per-side' 'json' 'version' 'h/help'
        case 'warmup'
            __gymlog_parse_subcommand -r 1 'db=' 'json' 'version' 'h/help'
        case 'routine'
            __gymlog_parse_subcommand 0 'version' 'h/help'
            switch $unparsed_tokens[1]
            case 'list'
                __gymlog_parse_subcommand 0 'db=' 'json' 'version' 'h/help'
            case 'add'
                __gymlog_parse_subcommand -r 1 'db=' 'file=' 'version' 'h/help'
            case 'show'
                __gymlog_parse_subcommand -r 1 'db=' 'json' 'version' 'h/help'
            case 'edit'
                __gymlog_parse_subcommand -r 1 'db=' 'version' 'h/help'
            case 'rm'
                __gymlog_parse_subcommand -r 1 'db=' 'version' 'h/help'
            case 'export'
                __gymlog_parse_subcommand -r 1 'db=' 'version' 'h/help'
            end
        case 'next'
            __gymlog_parse_subcommand 0 'db=' 'json' 'version' 'h/help'
        case 'ok'
            __gymlog_parse_subcommand -r 1 'db=' 'version' 'h/help'
        case 'skip'
            __gymlog_parse_subcommand 0 'db=' 'version' 'h/help'
        case 'rest'
            __gymlog_parse_subcommand 1 'db=' 'json' 'version' 'h/help'
        case 'bw'
            __gymlog_parse_subcommand -r 1 'db=' 'at=' 'json' 'version' 'h/help'
        case 'exercises'
            __gymlog_parse_subcommand 0 'version' 'h/help'
            switch $unparsed_tokens[1]
            case 'list'
                __gymlog_parse_subcommand 0 'db=' 'json' 'version' 'h/help'
            case 'add'
                __gymlog_parse_subcommand -r 1 'db=' 'kind=' 'version' 'h/help'
            case 'alias'
                __gymlog_parse_subcommand -r 2 'db=' 'version' 'h/help'
            case 'rename'
                __gymlog_parse_subcommand -r 2 'db=' 'version' 'h/help'
            case 'kind'
                __gymlog_parse_subcommand 2 'db=' 'version' 'h/help'
            case 'rest'
                __gymlog_parse_subcommand -r 1 'db=' 'version' 'h/help'
            case 'merge'
                __gymlog_parse_subcommand -r 2 'db=' 'version' 'h/help'
            case 'delete'
                __gymlog_parse_subcommand -r 1 'db=' 'version' 'h/help'
            end
        case 'export'
            __gymlog_parse_subcommand 0 'db=' 'out=' 'since=' 'until=' 'exercise=' 'format=' 'version' 'h/help'
        case 'import'
            __gymlog_parse_subcommand 1 'db=' 'from=' 'unit=' 'timezone=' 'dry-run' 'skip-bad-rows' 'version' 'h/help'
        case 'sync'
            __gymlog_parse_subcommand 0 'db=' 'version' 'h/help'
        case 'status'
            __gymlog_parse_subcommand 0 'db=' 'json' 'version' 'h/help'
        case 'login'
            __gymlog_parse_subcommand 0 'db=' 'server=' 'token=' 'register=' 'version' 'h/help'
        case 'logout'
            __gymlog_parse_subcommand 0 'db=' 'version' 'h/help'
        case 'help'
            __gymlog_parse_subcommand -r 1 'version'
        end
    end
end

function __gymlog_tokens
    if test (string split -m 1 -f 1 -- . "$FISH_VERSION") -gt 3
        commandline --tokens-raw $argv
    else
        commandline -o $argv
    end
end

function __gymlog_parse_subcommand -S -a positional_count
    argparse -s r -- $argv
    set -l option_specs $argv[2..]
    set -l is_repeating_positional $_flag_r
    set -el _flag_r
    set -a commands $unparsed_tokens[1]
    set positional_index 0
    while true
        set -e unparsed_tokens[1]
        argparse -sn "$commands" $option_specs -- $unparsed_tokens 2> /dev/null
        set unparsed_tokens $argv
        set positional_index (math $positional_index + 1)
        for non_repeating_flag_or_option in $non_repeating_flags_or_options
            if set -ql "_flag_$(string replace -a - _ -- $non_repeating_flag_or_option)"
                set non_repeating_flags_or_options_absent 1
                break
            end
        end
        test (count $unparsed_tokens) -eq 0 -o \( -z "$is_repeating_positional" -a "$positional_index" -gt "$positional_count" \) && break
    end
end

function __gymlog_complete_directories
    set -l token (commandline -t)
    string match -- '*/' $token
    set -l subdirs $token*/
    printf %s\n $subdirs
end

function __gymlog_custom_completion
    set -x SAP_SHELL fish
    set -x SAP_SHELL_VERSION $FISH_VERSION
    set -l tokens (__gymlog_tokens -p)
    if test -z "$(__gymlog_tokens -t)"
        set -l index (count (__gymlog_tokens -pc))
        set tokens $tokens[..$index] \'\' $tokens[(math $index + 1)..]
    end
    command $tokens[1] $argv $tokens
end

complete -c 'gymlog' -f
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog" version' -l 'version' -d 'Show the version.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_positional "gymlog" -eq 1' -fa 'repl' -d 'Open the logging REPL (the default when gymlog runs with no arguments).'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_positional "gymlog" -eq 1' -fa 'log' -d 'Log one line of sets, e.g. `log bench 100x5 @8` (in the REPL, just type the line).'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_positional "gymlog" -eq 1' -fa 'undo' -d 'Revert this device\'s last action: a logged line, `+`, an edit, a delete, a start, a finish, a note or an exercises change.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_positional "gymlog" -eq 1' -fa 'redo' -d 'Re-apply the action the last `undo` reverted (nothing else is ever brought back).'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_positional "gymlog" -eq 1' -fa 'start' -d 'Start a new workout, optionally named (logging a set starts one automatically).'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_positional "gymlog" -eq 1' -fa 'finish' -d 'Finish the current workout.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_positional "gymlog" -eq 1' -fa 'note' -d 'Set the current workout\'s note, e.g. `note felt strong today`.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_positional "gymlog" -eq 1' -fa 'show' -d 'Show the current (or latest) workout with its sets numbered for edit and delete.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_positional "gymlog" -eq 1' -fa 'edit' -d 'Change set N of `show` (default: the last), e.g. `edit 2 x6 @9`.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_positional "gymlog" -eq 1' -fa 'delete' -d 'Delete set N of `show`, e.g. `delete 3`.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_positional "gymlog" -eq 1' -fa 'history' -d 'List recent workouts, or the recent sets of one exercise.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_positional "gymlog" -eq 1' -fa 'last' -d 'Show what you did for an exercise last time (the REPL shows it under its first set).'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_positional "gymlog" -eq 1' -fa 'prs' -d 'Show personal records: heaviest weight, e1RM, rep maxes, volume, fastest times, pace.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_positional "gymlog" -eq 1' -fa 'chart' -d 'Chart an exercise\'s progression in the terminal: e1RM, weight, volume, time or pace per workout.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_positional "gymlog" -eq 1' -fa 'stats' -d 'Weekly training: workouts, working sets and volume per week, by exercise or muscle group.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_positional "gymlog" -eq 1' -fa 'plates' -d 'What goes on the bar: `plates 142.5` shows the plates per side; `plates 25 20` adds a side up.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_positional "gymlog" -eq 1' -fa 'warmup' -d 'A warm-up ramp from the empty bar to a working weight: `warmup squat 140`; add `log` to log it.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_positional "gymlog" -eq 1' -fa 'routine' -d 'Write routines in plain text and see today\'s plan: add, list, show, edit, rm, export.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_positional "gymlog" -eq 1' -fa 'next' -d 'Show the next planned set of the routine workout (`ok` logs it).'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_positional "gymlog" -eq 1' -fa 'ok' -d 'Log the next planned set as suggested, or changed: `ok`, `ok x4`, `ok 100`, `ok @9`.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_positional "gymlog" -eq 1' -fa 'skip' -d 'Drop the current planned exercise from today\'s routine workout.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_positional "gymlog" -eq 1' -fa 'rest' -d 'Show the rest since the last set, or set this break\'s target: `rest 2:30`.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_positional "gymlog" -eq 1' -fa 'bw' -d 'Record bodyweight (`bw 82.5`), or list it (`bw`); `chart bw` draws it.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_positional "gymlog" -eq 1' -fa 'exercises' -d 'List exercises, add, alias, rename, merge or delete one, or change its kind.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_positional "gymlog" -eq 1' -fa 'export' -d 'Write every live set as RFC 4180 CSV, streaming with constant memory.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_positional "gymlog" -eq 1' -fa 'import' -d 'Import workouts from a Strong, Hevy or FitNotes export, or a gymlog native export.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_positional "gymlog" -eq 1' -fa 'sync' -d 'Run one sync cycle with the server: pull, push, acknowledge.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_positional "gymlog" -eq 1' -fa 'status' -d 'Show the outbox, the last sync and any failing events.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_positional "gymlog" -eq 1' -fa 'login' -d 'Check the sync server and your token, then save them in the config (mode 0600).'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_positional "gymlog" -eq 1' -fa 'logout' -d 'Forget the sync server and token (local data stays).'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_positional "gymlog" -eq 1' -fa 'help' -d 'Show subcommand help information.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog repl" db' -l 'db' -d 'The database file.' -rfka ''
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog repl" version' -l 'version' -d 'Show the version.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog repl" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog log" db' -l 'db' -d 'The database file.' -rfka ''
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog log" at' -l 'at' -d 'Log it at this past local time: YYYY-MM-DD HH:MM, HH:MM (today) or yesterday HH:MM.' -rfka ''
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog log" version' -l 'version' -d 'Show the version.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog log" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog undo" db' -l 'db' -d 'The database file.' -rfka ''
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog undo" yes' -l 'yes' -d 'Undo even when the action belongs to another workout than the open one.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog undo" version' -l 'version' -d 'Show the version.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog undo" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog redo" db' -l 'db' -d 'The database file.' -rfka ''
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog redo" yes' -l 'yes' -d 'Redo even when the action belongs to another workout than the open one.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog redo" version' -l 'version' -d 'Show the version.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog redo" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog start" db' -l 'db' -d 'The database file.' -rfka ''
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog start" at' -l 'at' -d 'Log it at this past local time: YYYY-MM-DD HH:MM, HH:MM (today) or yesterday HH:MM.' -rfka ''
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog start" json' -l 'json' -d 'Print JSON for scripts instead of text (keys documented in the README).'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog start" version' -l 'version' -d 'Show the version.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog start" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog finish" db' -l 'db' -d 'The database file.' -rfka ''
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog finish" version' -l 'version' -d 'Show the version.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog finish" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog note" db' -l 'db' -d 'The database file.' -rfka ''
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog note" version' -l 'version' -d 'Show the version.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog note" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog show" db' -l 'db' -d 'The database file.' -rfka ''
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog show" json' -l 'json' -d 'Print JSON for scripts instead of text (keys documented in the README).'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog show" version' -l 'version' -d 'Show the version.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog show" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog edit" db' -l 'db' -d 'The database file.' -rfka ''
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog edit" version' -l 'version' -d 'Show the version.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog edit" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog delete" db' -l 'db' -d 'The database file.' -rfka ''
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog delete" version' -l 'version' -d 'Show the version.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog delete" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog history" db' -l 'db' -d 'The database file.' -rfka ''
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_positional "gymlog history" -ge 1' -fka '(__gymlog_custom_completion ---completion history -- positional@0 (count (__gymlog_tokens -pc)) (__gymlog_tokens -tC))'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog history" limit' -l 'limit' -d 'How many workouts to show.' -rfka ''
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog history" json' -l 'json' -d 'Print JSON for scripts instead of text (keys documented in the README).'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog history" version' -l 'version' -d 'Show the version.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog history" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog last" db' -l 'db' -d 'The database file.' -rfka ''
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_positional "gymlog last" -ge 1' -fka '(__gymlog_custom_completion ---completion last -- positional@0 (count (__gymlog_tokens -pc)) (__gymlog_tokens -tC))'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog last" json' -l 'json' -d 'Print JSON for scripts instead of text (keys documented in the README).'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog last" version' -l 'version' -d 'Show the version.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog last" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog prs" db' -l 'db' -d 'The database file.' -rfka ''
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_positional "gymlog prs" -ge 1' -fka '(__gymlog_custom_completion ---completion prs -- positional@0 (count (__gymlog_tokens -pc)) (__gymlog_tokens -tC))'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog prs" json' -l 'json' -d 'Print JSON for scripts instead of text (keys documented in the README).'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog prs" version' -l 'version' -d 'Show the version.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog prs" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog chart" db' -l 'db' -d 'The database file.' -rfka ''
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog chart" metric' -l 'metric' -d 'e1rm, weight, volume, reps, time, distance or pace (default: the first with data for the exercise).' -rfka 'e1rm weight volume reps time distance pace'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog chart" since' -l 'since' -d 'Only from this day on: YYYY-MM-DD, today, yesterday, or an age like 30d, 12w, 6m or 1y.' -rfka ''
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog chart" until' -l 'until' -d 'Only up to and including this day, in the same forms.' -rfka ''
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog chart" width' -l 'width' -d 'Columns to fill (default: the terminal\'s width).' -rfka ''
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog chart" height' -l 'height' -d 'Rows of plot, not counting the axes.' -rfka ''
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog chart" json' -l 'json' -d 'Print JSON for scripts instead of text (keys documented in the README).'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog chart" version' -l 'version' -d 'Show the version.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog chart" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog stats" db' -l 'db' -d 'The database file.' -rfka ''
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog stats" weeks' -l 'weeks' -d 'How many weeks to show, ending with this one.' -rfka ''
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog stats" by' -l 'by' -d 'exercise or muscle (a built-in table from exercise names to muscle groups).' -rfka 'exercise muscle'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog stats" json' -l 'json' -d 'Print JSON for scripts instead of text (keys documented in the README).'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog stats" version' -l 'version' -d 'Show the version.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog stats" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog plates" db' -l 'db' -d 'The database file.' -rfka ''
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog plates" bar' -l 'bar' -d 'The bar\'s weight in the load\'s unit, instead of the configured bar.' -rfka ''
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog plates" per-side' -l 'per-side' -d 'Read the numbers as the plates on one side, even just one.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog plates" json' -l 'json' -d 'Print JSON for scripts instead of text (keys documented in the README).'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog plates" version' -l 'version' -d 'Show the version.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog plates" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog warmup" db' -l 'db' -d 'The database file.' -rfka ''
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_positional "gymlog warmup" -ge 1' -fka '(__gymlog_custom_completion ---completion warmup -- positional@0 (count (__gymlog_tokens -pc)) (__gymlog_tokens -tC))'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog warmup" json' -l 'json' -d 'Print JSON for scripts instead of text (keys documented in the README).'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog warmup" version' -l 'version' -d 'Show the version.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog warmup" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog routine" version' -l 'version' -d 'Show the version.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog routine" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_positional "gymlog routine" -eq 1' -fa 'list' -d 'List routines with their exercises.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_positional "gymlog routine" -eq 1' -fa 'add' -d 'Add a routine (or replace the one of that name) from a file, stdin (-) or $EDITOR.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_positional "gymlog routine" -eq 1' -fa 'show' -d 'Show a routine as planned today: each exercise\'s sets, why, and last time.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_positional "gymlog routine" -eq 1' -fa 'edit' -d 'Edit a routine\'s text in $EDITOR.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_positional "gymlog routine" -eq 1' -fa 'rm' -d 'Delete a routine (workouts done from it keep their sets).'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_positional "gymlog routine" -eq 1' -fa 'export' -d 'Print a routine\'s text, as `routine add --file` reads it.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog routine list" db' -l 'db' -d 'The database file.' -rfka ''
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog routine list" json' -l 'json' -d 'Print JSON for scripts instead of text (keys documented in the README).'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog routine list" version' -l 'version' -d 'Show the version.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog routine list" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog routine add" db' -l 'db' -d 'The database file.' -rfka ''
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog routine add" file' -l 'file' -d 'Read the routine\'s text from this file (- for stdin).' -rfka ''
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog routine add" version' -l 'version' -d 'Show the version.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog routine add" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog routine show" db' -l 'db' -d 'The database file.' -rfka ''
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog routine show" json' -l 'json' -d 'Print JSON for scripts instead of text (keys documented in the README).'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog routine show" version' -l 'version' -d 'Show the version.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog routine show" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog routine edit" db' -l 'db' -d 'The database file.' -rfka ''
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog routine edit" version' -l 'version' -d 'Show the version.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog routine edit" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog routine rm" db' -l 'db' -d 'The database file.' -rfka ''
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog routine rm" version' -l 'version' -d 'Show the version.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog routine rm" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog routine export" db' -l 'db' -d 'The database file.' -rfka ''
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog routine export" version' -l 'version' -d 'Show the version.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog routine export" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog next" db' -l 'db' -d 'The database file.' -rfka ''
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog next" json' -l 'json' -d 'Print JSON for scripts instead of text (keys documented in the README).'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog next" version' -l 'version' -d 'Show the version.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog next" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog ok" db' -l 'db' -d 'The database file.' -rfka ''
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog ok" version' -l 'version' -d 'Show the version.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog ok" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog skip" db' -l 'db' -d 'The database file.' -rfka ''
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog skip" version' -l 'version' -d 'Show the version.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog skip" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog rest" db' -l 'db' -d 'The database file.' -rfka ''
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog rest" json' -l 'json' -d 'Print JSON for scripts instead of text (keys documented in the README).'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog rest" version' -l 'version' -d 'Show the version.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog rest" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog bw" db' -l 'db' -d 'The database file.' -rfka ''
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog bw" at' -l 'at' -d 'Log it at this past local time: YYYY-MM-DD HH:MM, HH:MM (today) or yesterday HH:MM.' -rfka ''
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog bw" json' -l 'json' -d 'Print JSON for scripts instead of text (keys documented in the README).'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog bw" version' -l 'version' -d 'Show the version.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog bw" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog exercises" version' -l 'version' -d 'Show the version.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog exercises" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_positional "gymlog exercises" -eq 1' -fa 'list' -d 'List exercises with their kind, aliases, set counts and last date.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_positional "gymlog exercises" -eq 1' -fa 'add' -d 'Create an exercise of one kind.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_positional "gymlog exercises" -eq 1' -fa 'alias' -d 'Give an exercise another name, e.g. `alias bp "Bench Press"`.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_positional "gymlog exercises" -eq 1' -fa 'rename' -d 'Rename an exercise; its history and records stay, and the old name becomes an alias.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_positional "gymlog exercises" -eq 1' -fa 'kind' -d 'Change an exercise\'s kind, while all its sets fit the new kind.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_positional "gymlog exercises" -eq 1' -fa 'rest' -d 'Set an exercise\'s target rest between sets (`off` clears it); the prompt counts to it.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_positional "gymlog exercises" -eq 1' -fa 'merge' -d 'Move every set of one exercise to another; the old name becomes an alias.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_positional "gymlog exercises" -eq 1' -fa 'delete' -d 'Delete an exercise that has no sets, with its aliases.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog exercises list" db' -l 'db' -d 'The database file.' -rfka ''
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog exercises list" json' -l 'json' -d 'Print JSON for scripts instead of text (keys documented in the README).'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog exercises list" version' -l 'version' -d 'Show the version.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog exercises list" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog exercises add" db' -l 'db' -d 'The database file.' -rfka ''
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog exercises add" kind' -l 'kind' -d 'weighted, bodyweight, timed, distance or carry; left out, the first set sets it.' -rfka ''
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog exercises add" version' -l 'version' -d 'Show the version.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog exercises add" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog exercises alias" db' -l 'db' -d 'The database file.' -rfka ''
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog exercises alias" version' -l 'version' -d 'Show the version.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog exercises alias" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog exercises rename" db' -l 'db' -d 'The database file.' -rfka ''
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog exercises rename" version' -l 'version' -d 'Show the version.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog exercises rename" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog exercises kind" db' -l 'db' -d 'The database file.' -rfka ''
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog exercises kind" version' -l 'version' -d 'Show the version.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog exercises kind" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog exercises rest" db' -l 'db' -d 'The database file.' -rfka ''
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog exercises rest" version' -l 'version' -d 'Show the version.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog exercises rest" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog exercises merge" db' -l 'db' -d 'The database file.' -rfka ''
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog exercises merge" version' -l 'version' -d 'Show the version.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog exercises merge" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog exercises delete" db' -l 'db' -d 'The database file.' -rfka ''
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog exercises delete" version' -l 'version' -d 'Show the version.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog exercises delete" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog export" db' -l 'db' -d 'The database file.' -rfka ''
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog export" out' -l 'out' -d 'Write to this file instead of standard output.' -rfka ''
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog export" since' -l 'since' -d 'Only from this day on: YYYY-MM-DD, today, yesterday, or an age like 30d, 12w, 6m or 1y.' -rfka ''
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog export" until' -l 'until' -d 'Only up to and including this day, in the same forms.' -rfka ''
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog export" exercise' -l 'exercise' -d 'Only this exercise (name, alias or prefix).' -rfka ''
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog export" format' -l 'format' -d 'native (everything: ids, time zones, aliases), strong (Strong\'s CSV layout with unit columns) or hevy (Hevy\'s CSV layout in your unit).' -rfka ''
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog export" version' -l 'version' -d 'Show the version.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog export" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog import" db' -l 'db' -d 'The database file.' -rfka ''
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog import" from' -l 'from' -d 'The app that wrote the file: strong, hevy, fitnotes or native (default: detect).' -rfka ''
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog import" unit' -l 'unit' -d 'The unit of weights the file gives without one (default: your configured unit).' -rfka ''
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog import" timezone' -l 'timezone' -d 'The IANA time zone of times written without one (default: this machine\'s).' -rfka ''
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog import" dry-run' -l 'dry-run' -d 'Read and check the file, report what would be imported, write nothing.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog import" skip-bad-rows' -l 'skip-bad-rows' -d 'Import the readable rows and list the malformed ones instead of refusing the file.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog import" version' -l 'version' -d 'Show the version.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog import" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog sync" db' -l 'db' -d 'The database file.' -rfka ''
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog sync" version' -l 'version' -d 'Show the version.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog sync" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog status" db' -l 'db' -d 'The database file.' -rfka ''
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog status" json' -l 'json' -d 'Print JSON for scripts instead of text (keys documented in the README).'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog status" version' -l 'version' -d 'Show the version.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog status" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog login" db' -l 'db' -d 'The database file.' -rfka ''
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog login" server' -l 'server' -d 'The server\'s base URL, e.g. http://127.0.0.1:8080.' -rfka ''
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog login" token' -l 'token' -d 'The bearer token from `gymlog-server user add`.' -rfka ''
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog login" register' -l 'register' -d 'Create an account on a server with open registration.' -rfka ''
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog login" version' -l 'version' -d 'Show the version.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog login" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog logout" db' -l 'db' -d 'The database file.' -rfka ''
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog logout" version' -l 'version' -d 'Show the version.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog logout" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'gymlog' -n '__gymlog_should_offer_completions_for_flags_or_options "gymlog help" version' -l 'version' -d 'Show the version.'

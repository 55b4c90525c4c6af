#!/bin/bash

__gymlog_cursor_index_in_current_word() {
    local remaining="${COMP_LINE}"

    local word
    for word in "${COMP_WORDS[@]::COMP_CWORD}"; do
        remaining="${remaining##*([[:space:]])"${word}"*([[:space:]])}"
    done

    local -ir index="$((COMP_POINT - ${#COMP_LINE} + ${#remaining}))"
    if [[ "${index}" -le 0 ]]; then
        printf 0
    else
        printf %s "${index}"
    fi
}

# positional arguments:
#
# - 1: the current (sub)command's count of positional arguments
#
# required variables:
#
# - repeating_flags: the repeating flags that the current (sub)command can accept
# - non_repeating_flags: the non-repeating flags that the current (sub)command can accept
# - repeating_options: the repeating options that the current (sub)command can accept
# - non_repeating_options: the non-repeating options that the current (sub)command can accept
# - positional_number: value ignored
# - unparsed_words: unparsed words from the current command line
#
# modified variables:
#
# - non_repeating_flags: remove flags for this (sub)command that are already on the command line
# - non_repeating_options: remove options for this (sub)command that are already on the command line
# - positional_number: set to the current positional number
# - unparsed_words: remove all flags, options, and option values for this (sub)command
__gymlog_offer_flags_options() {
    local -ir positional_count="${1}"
    positional_number=0

    local was_flag_option_terminator_seen=false
    local is_parsing_option_value=false

    local -ar unparsed_word_indices=("${!unparsed_words[@]}")
    local -i word_index
    for word_index in "${unparsed_word_indices[@]}"; do
        if "${is_parsing_option_value}"; then
            # This word is an option value:
            # Reset marker for next word iff not currently the last word
            [[ "${word_index}" -ne "${unparsed_word_indices[${#unparsed_word_indices[@]} - 1]}" ]] && is_parsing_option_value=false
            unset "unparsed_words[${word_index}]"
            # Do not process this word as a flag or an option
            continue
        fi

        local word="${unparsed_words["${word_index}"]}"
        if ! "${was_flag_option_terminator_seen}"; then
            case "${word}" in
            --)
                unset "unparsed_words[${word_index}]"
                # by itself -- is a flag/option terminator, but if it is the last word, it is the start of a completion
                if [[ "${word_index}" -ne "${unparsed_word_indices[${#unparsed_word_indices[@]} - 1]}" ]]; then
                    was_flag_option_terminator_seen=true
                fi
                continue
                ;;
            -*)
                # ${word} is a flag or an option
                # If ${word} is an option, mark that the next word to be parsed is an option value
                local option
                for option in "${repeating_options[@]}" "${non_repeating_options[@]}"; do
                    [[ "${word}" = "${option}" ]] && is_parsing_option_value=true && break
                done

                # Remove ${word} from ${non_repeating_flags} or ${non_repeating_options} so it isn't offered again
                local not_found=true
                local -i index
                for index in "${!non_repeating_flags[@]}"; do
                    if [[ "${non_repeating_flags[${index}]}" = "${word}" ]]; then
                        unset "non_repeating_flags[${index}]"
                        non_repeating_flags=("${non_repeating_flags[@]}")
                        not_found=false
                        break
                    fi
                done
                if "${not_found}"; then
                    for index in "${!non_repeating_flags[@]}"; do
                        if [[ "${non_repeating_flags[${index}]}" = "${word}" ]]; then
                            unset "non_repeating_flags[${index}]"
                            non_repeating_flags=("${non_repeating_flags[@]}")
                            break
                        fi
                    done
                fi
                unset "unparsed_words[${word_index}]"
                continue
                ;;
            esac
        fi

        # ${word} is neither a flag, nor an option, nor an option value
        if [[ "${positional_number}" -lt "${positional_count}" || "${positional_count}" -lt 0 ]]; then
            # ${word} is a positional
            ((positional_number++))
            unset "unparsed_words[${word_index}]"
        else
            if [[ -z "${word}" ]]; then
                # Could be completing a flag, option, or subcommand
                positional_number=-1
            else
                # ${word} is a subcommand or invalid, so stop processing this (sub)command
                positional_number=-2
            fi
            break
        fi
    done

    unparsed_words=("${unparsed_words[@]}")

    if\
        ! "${was_flag_option_terminator_seen}"\
        && ! "${is_parsing_option_value}"\
        && [[ ("${cur}" = -* && "${positional_number}" -ge 0) || "${positional_number}" -eq -1 ]]
    then
        COMPREPLY+=($(compgen -W "${repeating_flags[*]} ${non_repeating_flags[*]} ${repeating_options[*]} ${non_repeating_options[*]}" -- "${cur}"))
    fi
}

__gymlog_add_completions() {
    local completion
    while IFS='' read -r completion; do
        COMPREPLY+=("${completion}")
    done < <(IFS=$'\n' compgen "${@}" -- "${cur}")
}

__gymlog_custom_complete() {
    if [[ -n "${cur}" || -z ${COMP_WORDS[${COMP_CWORD}]} || "${COMP_LINE:${COMP_POINT}:1}" != ' ' ]]; then
        local -ar words=("${COMP_WORDS[@]}")
    else
        local -ar words=("${COMP_WORDS[@]::${COMP_CWORD}}" '' "${COMP_WORDS[@]:${COMP_CWORD}}")
    fi

    "${COMP_WORDS[0]}" "${@}" "${words[@]}"
}

_gymlog() {
    local state
    state="$(shopt -p;shopt -po)"
    trap "${state//$'\n'/;}" RETURN
    shopt -s extglob
    set +o history +o posix

    local -xr SAP_SHELL=bash
    local -x SAP_SHELL_VERSION
    SAP_SHELL_VERSION="$(IFS='.';printf %s "${BASH_VERSINFO[*]}")"
    local -r SAP_SHELL_VERSION

    local -r cur="${2}"
    local -r prev="${3}"

    local -i positional_number
    local -a unparsed_words=("${COMP_WORDS[@]:1:${COMP_CWORD}}")

    local -a repeating_flags=()
    local -a non_repeating_flags=(--version -h --help)
    local -a repeating_options=()
    local -a non_repeating_options=()
    __gymlog_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    repl|log|undo|redo|start|finish|note|show|edit|delete|history|last|prs|chart|stats|plates|warmup|routine|next|ok|skip|rest|bw|exercises|export|import|sync|status|login|logout|help)
        # Offer subcommand argument completions
        "_gymlog_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'repl log undo redo start finish note show edit delete history last prs chart stats plates warmup routine next ok skip rest bw exercises export import sync status login logout help' -- "${cur}"))
        ;;
    esac
}

_gymlog_repl() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=(--db)
    __gymlog_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--db')
        return
        ;;
    esac
}

_gymlog_log() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=(--db --at)
    __gymlog_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--db')
        return
        ;;
    '--at')
        return
        ;;
    esac
}

_gymlog_undo() {
    repeating_flags=()
    non_repeating_flags=(--yes --version -h --help)
    repeating_options=()
    non_repeating_options=(--db)
    __gymlog_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--db')
        return
        ;;
    esac
}

_gymlog_redo() {
    repeating_flags=()
    non_repeating_flags=(--yes --version -h --help)
    repeating_options=()
    non_repeating_options=(--db)
    __gymlog_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--db')
        return
        ;;
    esac
}

_gymlog_start() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--db --at)
    __gymlog_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--db')
        return
        ;;
    '--at')
        return
        ;;
    esac
}

_gymlog_finish() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=(--db --workout)
    __gymlog_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--db')
        return
        ;;
    '--workout')
        return
        ;;
    esac
}

_gymlog_note() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=(--db --workout)
    __gymlog_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--db')
        return
        ;;
    '--workout')
        return
        ;;
    esac
}

_gymlog_show() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--db --workout)
    __gymlog_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--db')
        return
        ;;
    '--workout')
        return
        ;;
    esac
}

_gymlog_edit() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=(--db --workout --name --start)
    __gymlog_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--db')
        return
        ;;
    '--workout')
        return
        ;;
    '--name')
        return
        ;;
    '--start')
        return
        ;;
    esac
}

_gymlog_delete() {
    repeating_flags=()
    non_repeating_flags=(--yes --version -h --help)
    repeating_options=()
    non_repeating_options=(--db --workout)
    __gymlog_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--db')
        return
        ;;
    '--workout')
        return
        ;;
    esac
}

_gymlog_history() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--db --limit)
    __gymlog_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--db')
        return
        ;;
    '--limit')
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    *)
        __gymlog_add_completions -W "$(__gymlog_custom_complete ---completion history -- positional@0 "${COMP_CWORD}" "$(__gymlog_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_gymlog_last() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--db)
    __gymlog_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--db')
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    *)
        __gymlog_add_completions -W "$(__gymlog_custom_complete ---completion last -- positional@0 "${COMP_CWORD}" "$(__gymlog_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_gymlog_prs() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--db)
    __gymlog_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--db')
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    *)
        __gymlog_add_completions -W "$(__gymlog_custom_complete ---completion prs -- positional@0 "${COMP_CWORD}" "$(__gymlog_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_gymlog_chart() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--db --metric --since --until --width --height)
    __gymlog_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--db')
        return
        ;;
    '--metric')
        __gymlog_add_completions -W 'e1rm'$'\n''weight'$'\n''volume'$'\n''reps'$'\n''time'$'\n''distance'$'\n''pace'
        return
        ;;
    '--since')
        return
        ;;
    '--until')
        return
        ;;
    '--width')
        return
        ;;
    '--height')
        return
        ;;
    esac
}

_gymlog_stats() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--db --weeks --by)
    __gymlog_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--db')
        return
        ;;
    '--weeks')
        return
        ;;
    '--by')
        __gymlog_add_completions -W 'exercise'$'\n''muscle'
        return
        ;;
    esac
}

_gymlog_plates() {
    repeating_flags=()
    non_repeating_flags=(--per-side --json --version -h --help)
    repeating_options=()
    non_repeating_options=(--db --bar)
    __gymlog_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--db')
        return
        ;;
    '--bar')
        return
        ;;
    esac
}

_gymlog_warmup() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--db)
    __gymlog_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--db')
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    *)
        __gymlog_add_completions -W "$(__gymlog_custom_complete ---completion warmup -- positional@0 "${COMP_CWORD}" "$(__gymlog_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_gymlog_routine() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __gymlog_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    list|add|show|edit|rm|export)
        # Offer subcommand argument completions
        "_gymlog_routine_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'list add show edit rm export' -- "${cur}"))
        ;;
    esac
}

_gymlog_routine_list() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--db)
    __gymlog_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--db')
        return
        ;;
    esac
}

_gymlog_routine_add() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=(--db --file)
    __gymlog_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--db')
        return
        ;;
    '--file')
        return
        ;;
    esac
}

_gymlog_routine_show() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--db)
    __gymlog_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--db')
        return
        ;;
    esac
}

_gymlog_routine_edit() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=(--db)
    __gymlog_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--db')
        return
        ;;
    esac
}

_gymlog_routine_rm() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=(--db)
    __gymlog_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--db')
        return
        ;;
    esac
}

_gymlog_routine_export() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=(--db)
    __gymlog_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--db')
        return
        ;;
    esac
}

_gymlog_next() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--db)
    __gymlog_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--db')
        return
        ;;
    esac
}

_gymlog_ok() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=(--db)
    __gymlog_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--db')
        return
        ;;
    esac
}

_gymlog_skip() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=(--db)
    __gymlog_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--db')
        return
        ;;
    esac
}

_gymlog_rest() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--db)
    __gymlog_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--db')
        return
        ;;
    esac
}

_gymlog_bw() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--db --at)
    __gymlog_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--db')
        return
        ;;
    '--at')
        return
        ;;
    esac
}

_gymlog_exercises() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __gymlog_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    list|add|alias|rename|kind|rest|merge|delete)
        # Offer subcommand argument completions
        "_gymlog_exercises_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'list add alias rename kind rest merge delete' -- "${cur}"))
        ;;
    esac
}

_gymlog_exercises_list() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--db)
    __gymlog_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--db')
        return
        ;;
    esac
}

_gymlog_exercises_add() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=(--db --kind)
    __gymlog_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--db')
        return
        ;;
    '--kind')
        return
        ;;
    esac
}

_gymlog_exercises_alias() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=(--db)
    __gymlog_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--db')
        return
        ;;
    esac
}

_gymlog_exercises_rename() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=(--db)
    __gymlog_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--db')
        return
        ;;
    esac
}

_gymlog_exercises_kind() {
    repeating_flags=()
    non_repeating_flags=(--yes --version -h --help)
    repeating_options=()
    non_repeating_options=(--db)
    __gymlog_offer_flags_options 2

    # Offer option value completions
    case "${prev}" in
    '--db')
        return
        ;;
    esac
}

_gymlog_exercises_rest() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=(--db)
    __gymlog_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--db')
        return
        ;;
    esac
}

_gymlog_exercises_merge() {
    repeating_flags=()
    non_repeating_flags=(--yes --version -h --help)
    repeating_options=()
    non_repeating_options=(--db)
    __gymlog_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--db')
        return
        ;;
    esac
}

_gymlog_exercises_delete() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=(--db)
    __gymlog_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--db')
        return
        ;;
    esac
}

_gymlog_export() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=(--db --out --since --until --exercise --format)
    __gymlog_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--db')
        return
        ;;
    '--out')
        return
        ;;
    '--since')
        return
        ;;
    '--until')
        return
        ;;
    '--exercise')
        return
        ;;
    '--format')
        return
        ;;
    esac
}

_gymlog_import() {
    repeating_flags=()
    non_repeating_flags=(--dry-run --skip-bad-rows --version -h --help)
    repeating_options=()
    non_repeating_options=(--db --from --unit --timezone)
    __gymlog_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--db')
        return
        ;;
    '--from')
        return
        ;;
    '--unit')
        return
        ;;
    '--timezone')
        return
        ;;
    esac
}

_gymlog_sync() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=(--db)
    __gymlog_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--db')
        return
        ;;
    esac
}

_gymlog_status() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--db)
    __gymlog_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--db')
        return
        ;;
    esac
}

_gymlog_login() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=(--db --server --token --register --ca-file)
    __gymlog_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--db')
        return
        ;;
    '--server')
        return
        ;;
    '--token')
        return
        ;;
    '--register')
        return
        ;;
    '--ca-file')
        return
        ;;
    esac
}

_gymlog_logout() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=(--db)
    __gymlog_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--db')
        return
        ;;
    esac
}

_gymlog_help() {
    repeating_flags=()
    non_repeating_flags=(--version)
    repeating_options=()
    non_repeating_options=()
    __gymlog_offer_flags_options -1
}

complete -o filenames -F _gymlog gymlog

#ifndef GYMLOG_CREADLINE_SHIM_H
#define GYMLOG_CREADLINE_SHIM_H
#include <stdio.h>
#include <readline/readline.h>
#include <readline/history.h>

// readline is configured through global variables; these accessors keep Swift's strict
// concurrency checking away from them (the REPL is single-threaded).
static inline void gymlog_rl_install_completion(rl_completion_func_t *fn) {
    rl_attempted_completion_function = fn;
    // Exercise names contain spaces: break completion words only at tabs and newlines.
    rl_completer_word_break_characters = "\t\n";
}
static inline const char *gymlog_rl_line_buffer(void) { return rl_line_buffer; }
static inline void gymlog_rl_completion_over(void) { rl_attempted_completion_over = 1; }
#endif

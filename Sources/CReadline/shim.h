#ifndef GYMLOG_CREADLINE_SHIM_H
#define GYMLOG_CREADLINE_SHIM_H
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <fcntl.h>
#include <sys/select.h>
#include <unistd.h>
#include <readline/readline.h>
#include <readline/history.h>

// readline is configured through global variables; these accessors keep Swift's strict
// concurrency checking away from them (the REPL is single-threaded).
static inline void gymlog_rl_install_completion(rl_completion_func_t *fn) {
    rl_attempted_completion_function = fn;
    // Exercise names contain spaces: break completion words only at tabs and newlines.
    rl_completer_word_break_characters = "\t\n";
    // One Tab completes what the names share and lists them when more than one is left (as
    // bash with `show-all-if-ambiguous`): the completion widens a lower-case word to a name's
    // case, a change after which readline's default wants two more Tabs to list. Set before
    // readline reads ~/.inputrc, so a lifter's own setting there still wins.
    rl_variable_bind("show-all-if-ambiguous", "on");
}
static inline const char *gymlog_rl_line_buffer(void) { return rl_line_buffer; }
static inline void gymlog_rl_completion_over(void) { rl_attempted_completion_over = 1; }

// Reading one line through readline's callback interface, so that Ctrl-C at the prompt
// clears the line and prompts again (as bash and psql do) instead of killing the process.
// Every function that touches this state lives in this header, so each copy the compiler
// makes of them shares one set of variables.
static volatile sig_atomic_t gymlog_rl_interrupted = 0;
static char *gymlog_rl_line = NULL;
static int gymlog_rl_done = 0;
// The kernel may run the handler on any of the process's threads (Swift's runtime has
// several), so it cannot count on interrupting the select() below: it wakes it through a pipe.
static int gymlog_rl_wake[2] = {-1, -1};

static inline void gymlog_rl_on_sigint(int signo) {
    (void)signo;
    gymlog_rl_interrupted = 1;
    if (gymlog_rl_wake[1] >= 0) { ssize_t ignored = write(gymlog_rl_wake[1], "", 1); (void)ignored; }
}

// A live prompt (the rest timer): while the REPL waits for a line, `gymlog_rl_tick` is
// called every second; it returns a new prompt (malloc'd; freed here) or NULL for no change.
// The prompt is redrawn only while the line is empty, so typing is never disturbed and a
// half-typed line is never touched.
// It is passed to each read, not kept in a static: each Swift file that calls into this
// header may get its own copy of a static variable.
typedef char *(*gymlog_rl_tick_t)(void);

static inline void gymlog_rl_on_line(char *line) {
    gymlog_rl_line = line;
    gymlog_rl_done = 1;
    // Restores the terminal before the command runs and prints.
    rl_callback_handler_remove();
}

// Like readline(prompt): the typed line (free it), or NULL at end of input (Ctrl-D on an
// empty line). SIGINT is caught only while waiting here; during a command it keeps its
// previous meaning (the process ends, and SQLite's transactions leave nothing half written).
static inline char *gymlog_rl_read_line(const char *prompt, gymlog_rl_tick_t gymlog_rl_tick) {
    if (gymlog_rl_wake[0] < 0 && pipe(gymlog_rl_wake) == 0) {
        for (int i = 0; i < 2; i++) {
            fcntl(gymlog_rl_wake[i], F_SETFL, O_NONBLOCK);
            fcntl(gymlog_rl_wake[i], F_SETFD, FD_CLOEXEC);
        }
    }
    struct sigaction action, previous;
    memset(&action, 0, sizeof action);
    action.sa_handler = gymlog_rl_on_sigint;
    sigemptyset(&action.sa_mask);
    action.sa_flags = 0; // no SA_RESTART: select() returns with EINTR at once
    sigaction(SIGINT, &action, &previous);
    // Our handler, not readline's, sees SIGINT; readline still follows window resizes.
    rl_catch_signals = 0;
    gymlog_rl_line = NULL;
    gymlog_rl_done = 0;
    gymlog_rl_interrupted = 0;
    rl_callback_handler_install(prompt, gymlog_rl_on_line);
    int fd = fileno(rl_instream ? rl_instream : stdin);
    while (!gymlog_rl_done) {
        fd_set ready;
        FD_ZERO(&ready);
        FD_SET(fd, &ready);
        int top = fd;
        if (gymlog_rl_wake[0] >= 0) {
            FD_SET(gymlog_rl_wake[0], &ready);
            if (gymlog_rl_wake[0] > top) top = gymlog_rl_wake[0];
        }
        struct timeval second = {1, 0};
        int n = select(top + 1, &ready, NULL, NULL, gymlog_rl_tick ? &second : NULL);
        if (n == 0) {
            char *next = gymlog_rl_tick ? gymlog_rl_tick() : NULL;
            if (next) {
                if (rl_end == 0) {
                    // Back to the start of the prompt's line, clear it, draw the new one.
                    fputs("\r\033[K", rl_outstream ? rl_outstream : stdout);
                    fflush(rl_outstream ? rl_outstream : stdout);
                    rl_set_prompt(next);
                    rl_on_new_line();
                    rl_redisplay();
                }
                free(next);
            }
            continue;
        }
        if (gymlog_rl_interrupted) {
            gymlog_rl_interrupted = 0;
            char drain[64];
            while (gymlog_rl_wake[0] >= 0 && read(gymlog_rl_wake[0], drain, sizeof drain) > 0) {}
            // Show ^C, drop the line and any half-typed state, and give a fresh prompt.
            rl_free_line_state();
            rl_callback_sigcleanup();
            rl_echo_signal_char(SIGINT);
            rl_replace_line("", 0);
            rl_crlf();
            rl_on_new_line();
            rl_redisplay();
            continue;
        }
        if (n < 0) {
            if (errno == EINTR) continue;
            rl_callback_handler_remove();
            break;
        }
        if (!FD_ISSET(fd, &ready)) continue;
        rl_callback_read_char();
    }
    sigaction(SIGINT, &previous, NULL);
    return gymlog_rl_line;
}
#endif

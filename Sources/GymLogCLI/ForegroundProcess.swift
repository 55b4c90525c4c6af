import Foundation
import GymLogCore
#if canImport(Glibc)
import Glibc
#endif

/// A program run in the foreground with the terminal, as git runs its editor: in gymlog's own
/// process group (the one that owns the terminal), with Ctrl-C and Ctrl-\ going to it alone,
/// and the terminal's modes put back after it. Foundation's `Process` starts a child in a
/// group of its own, where an editor that touches the terminal (vim) is stopped at once.
enum ForegroundProcess {
    /// Runs `executable arguments` and waits for it; its exit status (128+n when signal n ended it).
    static func run(_ executable: String, _ arguments: [String]) throws -> Int32 {
        var modes = termios()
        let isTerminal = tcgetattr(STDIN_FILENO, &modes) == 0
        // While the editor runs, a Ctrl-C is its own to handle (vim maps it), not gymlog's end.
        let interrupt = signal(SIGINT, SIG_IGN), quit = signal(SIGQUIT, SIG_IGN)
        defer {
            signal(SIGINT, interrupt)
            signal(SIGQUIT, quit)
            if isTerminal { tcsetattr(STDIN_FILENO, TCSADRAIN, &modes) }
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // The child takes the default action for the signals ignored here, and blocks none
        // (the REPL's threads block some).
        var defaults = sigset_t(), none = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGINT)
        sigaddset(&defaults, SIGQUIT)
        sigemptyset(&none)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for p in argv { free(p) } }
        var pid = pid_t()
        let started = posix_spawn(&pid, executable, nil, &attributes, argv, environ)
        guard started == 0 else {
            throw UserError("Cannot start \(executable): \(String(cString: strerror(started))).")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        // WIFEXITED / WEXITSTATUS / WTERMSIG, which Swift does not import as macros.
        let signalled = status & 0x7f
        return signalled == 0 ? (status >> 8) & 0xff : 128 + signalled
    }
}

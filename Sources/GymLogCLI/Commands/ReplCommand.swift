import ArgumentParser
import Foundation
import GymLogCore
import GymLogStore

struct Repl: ContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "repl",
        abstract: "Open the logging REPL (the default when gymlog runs with no arguments).",
        discussion: """
          gymlog
              opens it; type `bench 100x5`, `+ x6`, `undo`, `show`
          gymlog < session.txt
              runs a file of lines, one after the other

        Type `help` inside it for every command; each gymlog command works there without the \
        `gymlog` in front. Ctrl-C clears the line being typed; Ctrl-D on an empty line, or \
        `quit`, leaves. Once logged in, it syncs by itself in the background, and the prompt \
        shows how: `↑2` (changes waiting), `syncing`, `offline`, `sync stopped` (see `gymlog \
        status`). Piped input is read without prompts, each error names its line \
        (`line 12: error: ...`), and the exit status is 1 if any line failed.
        """
    )
    @OptionGroup var global: GlobalOptions

    func run(in context: CLIContext) async throws {
        let interactive = isatty(STDIN_FILENO) == 1
        var reader: LineReader = interactive ? ReadlineReader(historyPath: context.paths.history) : PlainLineReader()
        let session = ReplSession(context: context)
        if interactive {
            context.print("gymlog: log a set like `bench 100x5`; `help` lists commands, `quit` leaves.")
            // Syncs by itself, and the prompt counts the rest and shows the sync live while the line is empty.
            let sync = ReplSync()
            session.sync = sync
            sync.tick(session.context)
            livePromptSource = { sync.tick(session.context); return session.prompt() }
            // A command's question (`delete --workout`) is answered at the same terminal.
            session.context.ask = { ReadlineReader.answer(TerminalText.safe($0)) }
        }
        var number = 0
        while true {
            if interactive { completionWords = session.completions() }
            // Waiting for input blocks this thread, but no awaited work is queued behind it:
            // each line's command runs only after the read returns.
            let prompt = interactive ? session.prompt() : ""
            livePromptShown = prompt
            guard let line = reader.next(prompt: prompt) else { break }
            number += 1
            reader.remember(line)
            if await session.handle(line, number: interactive ? nil : number) == .quit { break }
        }
        // A script learns that a line failed; a person who fixed a typo and went on has not failed.
        if !interactive && !session.allSucceeded { throw ExitCode.failure }
    }
}

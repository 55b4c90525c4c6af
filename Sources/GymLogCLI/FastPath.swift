import Foundation
import GymLogCore

extension Gymlog {
    /// Runs `gymlog log [--db PATH] WORDS...` without building the ArgumentParser command
    /// tree, which costs a third of a one-shot log's start-up (reflection over every
    /// command). Anything else, including `--help` or an unknown flag, returns nil and goes
    /// through the full parser, so behaviour and errors stay the same.
    public static func runFastPath(_ arguments: [String]) -> Int32? {
        guard arguments.first == "log" else { return nil }
        var db: String?
        var words: [String] = []
        var i = 1
        while i < arguments.count {
            let arg = arguments[i]
            if let flag = GlobalOptions.database(at: i, in: arguments) { db = flag.path; i += flag.length; continue }
            // `--db` without its path: the full parser says what is missing.
            if arg == "--db" { return nil }
            // Flags (and anything the parser would treat as one) take the full path.
            if arg.hasPrefix("-") && !arg.dropFirst().isEmpty && !(arg.dropFirst().first?.isNumber ?? false) { return nil }
            words.append(arg)
            i += 1
        }
        guard !words.isEmpty else { return nil }
        let context: CLIContext
        do { context = try CLIContext.live(db: db) } catch {
            FileHandle.standardError.write(Data((TerminalText.safe(Style.stderr.errorLine(error.localizedDescription)) + "\n").utf8))
            return 1
        }
        // As after every command from the shell (`ContextCommand.run()`).
        defer { BackgroundSync.afterCommand(context) }
        do {
            return try EntryRunner(context: context).run(words.joined(separator: " ")).exitCode.rawValue
        } catch {
            context.printError(Style.stderr.errorLine((UserError.storage(error, database: context.paths.database)?.message) ?? error.localizedDescription))
            return 1
        }
    }
}

import Foundation
import GymLogCore

extension Gymlog {
    /// Runs `gymlog log [--db PATH] WORDS...` and `gymlog --version` without building the
    /// ArgumentParser command tree, which costs a third of a one-shot log's start-up
    /// (reflection over every command). Anything else, including `--help` or an unknown flag,
    /// returns nil and goes through the full parser, so behaviour and errors stay the same.
    public static func runFastPath(_ arguments: [String]) -> Int32? {
        // What ArgumentParser prints for the version flag (`-V` is gymlog's spelling of it).
        if arguments == ["--version"] || arguments == ["-V"] {
            Swift.print(gymlogVersion)
            return 0
        }
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

extension Gymlog {
    /// The verbs typed between sets besides `log`, parsed as themselves rather than through the
    /// whole tree, and before the unknown-command check, which reads every command's
    /// configuration: a fifth fewer instructions for `gymlog status` (BENCHMARKS.md; what is
    /// left is mostly ArgumentParser reflecting over the one command). What they accept and
    /// print stays the same: anything that does not parse as the command alone (`--help`, a
    /// mistake) goes through the full parser, which answers as it always does.
    static let hotCommands: [any ContextCommand.Type] = [Finish.self, Status.self, Rest.self]

    /// Runs `arguments` when they name a hot verb and parse as that command alone, and says
    /// whether it did; an error it ends with exits the process as the full parser's would.
    static func runHotCommand(_ arguments: [String]) async -> Bool {
        guard let word = arguments.first, let command = hotCommands.first(where: { $0._commandName == word }) else { return false }
        return await runAlone(command, arguments)
    }

    private static func runAlone<Command: ContextCommand>(_: Command.Type, _ arguments: [String]) async -> Bool {
        guard var command = (try? Command.parseAsRoot(Array(arguments.dropFirst()))) as? Command else { return false }
        do { try await command.run() } catch { exitAfter(error, arguments) }
        return true
    }
}

import ArgumentParser
import Foundation
import GymLogCore
import GymLogStore

struct Repl: ContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "repl",
        abstract: "Open the logging REPL (the default when gymlog runs with no arguments).",
        discussion: "Type `help` inside it. Piped input is read without prompts; the exit status is 1 if any line failed."
    )
    @OptionGroup var global: GlobalOptions

    func run(in context: CLIContext) throws {
        let interactive = isatty(STDIN_FILENO) == 1
        var reader: LineReader = interactive ? ReadlineReader(historyPath: context.paths.history) : PlainLineReader()
        let session = ReplSession(context: context)
        if interactive { context.print("gymlog: log a set like `bench 100x5`; `help` lists commands, `quit` leaves.") }
        while true {
            if interactive { completionWords = session.completions() }
            guard let line = reader.next(prompt: interactive ? session.prompt() : "") else { break }
            reader.remember(line)
            if session.handle(line) == .quit { break }
        }
        if !session.allSucceeded { throw ExitCode.failure }
    }
}

/// The REPL's line handling, separate from the terminal so tests can drive it.
final class ReplSession {
    enum Outcome { case ok, failed, quit }

    let context: CLIContext
    private(set) var allSucceeded = true

    init(context: CLIContext) { self.context = context }

    static let commands: [(String, String)] = [
        ("bench 100x5 @8", "log sets (see `gymlog log --help` for the whole language)"),
        ("+ [changes]", "repeat the last set: `+`, `+ 102.5`, `+ x6`, `+ @9`"),
        ("undo / redo", "delete the last set / bring the last deleted set back"),
        ("start [name]", "start a new workout (sets start one automatically)"),
        ("finish", "finish the current workout"),
        ("note TEXT", "set the current workout's note"),
        ("show", "the current workout, sets numbered"),
        ("edit [N] CHANGES", "change set N of `show` (default: the last), e.g. `edit 2 x6 @9`"),
        ("delete N", "delete set N of `show`"),
        ("prs [exercise]", "personal records"),
        ("history [exercise]", "recent workouts"),
        ("exercises [add|alias|rename]", "list or manage exercises"),
        ("export [--out FILE]", "CSV export"),
        ("chart EXERCISE / stats", "progression chart / weekly volume and frequency"),
        ("sync / status", "sync with the server / show the outbox and last sync"),
        ("help", "this list"),
        ("quit", "leave (Ctrl-D works too)"),
    ]

    /// `[Push day · 5 sets] > `, `[10:15 · 1 set] > `, or `gymlog> ` with no open workout.
    func prompt() -> String {
        guard let open = try? context.db().openWorkout() else { return "gymlog> " }
        let name = open.workout.name ?? Render.clock(open.workout.startedAt, open.workout.utcOffsetSeconds)
        return TerminalText.safe("[\(name) · \(open.setCount) set\(open.setCount == 1 ? "" : "s")] > ")
    }

    func completions() -> [String] {
        let names = (try? context.db().exerciseNames()) ?? []
        return ["start", "finish", "note", "undo", "redo", "edit", "delete", "show", "prs", "history", "exercises",
                "export", "sync", "status", "chart", "stats", "import", "help", "quit"] + names
            + names.flatMap { ["prs \($0)", "history \($0)", "chart \($0)"] }
    }

    @discardableResult
    func handle(_ rawLine: String) -> Outcome {
        let line = rawLine.trimmingCharacters(in: .whitespaces)
        if line.isEmpty || line.hasPrefix("//") { return .ok }
        let word = line.split(separator: " ", maxSplits: 1).first.map { $0.lowercased() } ?? ""
        let rest = line.dropFirst(word.count).trimmingCharacters(in: .whitespaces)
        let outcome: Outcome
        do {
            switch word {
            case "quit", "exit", "q": return .quit
            case "help", "?":
                let width = Self.commands.map { $0.0.count }.max() ?? 0
                Self.commands.forEach { context.print("  " + $0.0.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + $0.1) }
                outcome = .ok
            case "start":
                let w = try context.db().startWorkout(name: rest.isEmpty ? nil : rest)
                context.print("Started \(w.name.map { "'\($0)'" } ?? "a workout") at \(Render.clock(w.startedAt, w.utcOffsetSeconds)).")
                outcome = .ok
            case "finish":
                if let w = try context.db().finishWorkout() {
                    let count = try context.db().workoutDetail(w.id)?.sets.count ?? 0
                    context.print("Finished: " + Render.workoutHeader(w, setCount: count))
                } else {
                    context.print("No workout is open.")
                }
                outcome = .ok
            case "note":
                guard !rest.isEmpty else { throw UserError("`note` needs text, e.g. `note felt strong today`.") }
                _ = try context.db().noteWorkout(rest)
                context.print("Noted.")
                outcome = .ok
            case "redo":
                let (set, exercise) = try context.db().redoLastUndo()
                context.print("Restored \(exercise.name): \(set.summary)")
                outcome = .ok
            case "edit":
                outcome = try edit(rest, line: line)
            case "delete":
                guard let n = Int(rest), n >= 1 else {
                    throw UserError("`delete` needs the set's number from `show`, e.g. `delete 3`.")
                }
                let set = try context.db().deleteSet(.number(n))
                context.print("Deleted set \(n): \(set.summary)")
                outcome = .ok
            case "log":
                // As `gymlog log`'s fast path does: words without flags are a set line, so
                // `log dip -20x8` reaches the entry parser rather than ArgumentParser's options.
                let words = (try? shellWords(rest)) ?? []
                if !words.isEmpty && !words.contains(where: looksLikeFlag) {
                    outcome = try EntryRunner(context: context).run(words.joined(separator: " ")) ? .ok : .failed
                } else {
                    outcome = runCommand(line)
                }
            case "show", "prs", "history", "exercises", "export", "sync", "status", "chart", "stats", "import":
                outcome = runCommand(line)
            default:
                outcome = try EntryRunner(context: context).run(line) ? .ok : .failed
            }
        } catch let error as UserError {
            context.printError(Style.stderr.errorLine(error.message))
            outcome = .failed
        } catch {
            context.printError(Style.stderr.errorLine(error.localizedDescription))
            outcome = .failed
        }
        if outcome == .failed { allSucceeded = false }
        return outcome
    }

    /// `edit [N] CHANGES`: the changes use the `+` language.
    private func edit(_ rest: String, line: String) throws -> Outcome {
        var target = SetTarget.last
        var patchText = rest
        let parts = rest.split(separator: " ", maxSplits: 1)
        if parts.count == 2, let n = Int(parts[0]) { target = .number(n); patchText = String(parts[1]) }
        guard !patchText.isEmpty else { throw UserError("`edit` needs changes, e.g. `edit 102.5x5`, `edit 2 @9` or `edit # note`.") }
        switch EntryParser.parse("+ " + patchText) {
        case .failure(let e):
            let shift = line.count - patchText.count - 2
            let moved = EntryError(e.message, at: Span(max(0, e.span.start + shift), max(0, e.span.end + shift)))
            context.printError(Style.stderr.errorLine(e.message))
            context.printError(moved.pointing(into: line))
            return .failed
        case .success(.repeatLast(let patch)):
            let s = try context.db().editSet(target, patch: patch)
            context.print("Edited: \(s.set.summary)")
            return .ok
        case .success:
            throw UserError("`edit` takes changes like `x6`, `102.5`, `@9` or `# note`.")
        }
    }

    /// The most words a command line may have (`exercises add` with a long name needs a handful).
    static let maxCommandWords = 200

    /// Runs a one-shot subcommand inside the REPL, sharing this session's database.
    private func runCommand(_ line: String) -> Outcome {
        do {
            var args = try shellWords(line)
            // ArgumentParser takes time quadratic in the argument count (a pasted 70 KB line of
            // 14,000 words took a minute); no command needs more than a few words.
            if args.count > Self.maxCommandWords {
                throw UserError("`\(args[0].lowercased())` got \(args.count) words; a command takes at most \(Self.maxCommandWords), "
                    + "so check the line (was it pasted by mistake?).")
            }
            // The command word matched case-insensitively (`SHOW`); ArgumentParser's names are
            // lower case, and an unknown first word would fall through to `gymlog repl`'s usage.
            if !args.isEmpty { args[0] = args[0].lowercased() }
            var command = try Gymlog.parseAsRoot(args)
            if let c = command as? any ContextCommand {
                try c.run(in: context)
            } else {
                try command.run()
            }
            return .ok
        } catch let error as UserError {
            context.printError(Style.stderr.errorLine(error.message))
            return .failed
        } catch {
            let message = Gymlog.fullMessage(for: error)
            if !message.isEmpty { context.printError(message) }
            return Gymlog.exitCode(for: error) == .success ? .ok : .failed
        }
    }
}

/// `--json`, `-h`: a word ArgumentParser takes as an option (`-20x8` is a load, as in `gymlog log`'s fast path).
func looksLikeFlag(_ word: String) -> Bool {
    word.hasPrefix("-") && word.count > 1 && !(word.dropFirst().first?.isNumber ?? false)
}

/// Splits a line like a shell does for quotes: `export --out "my file.csv"`.
func shellWords(_ line: String) throws -> [String] {
    var words: [String] = [], current = "", quote: Character?, inWord = false
    for ch in line {
        if let q = quote {
            if ch == q { quote = nil } else { current.append(ch) }
        } else if ch == "\"" || ch == "'" {
            quote = ch; inWord = true
        } else if ch == " " || ch == "\t" {
            if inWord { words.append(current); current = ""; inWord = false }
        } else {
            current.append(ch); inWord = true
        }
    }
    if quote != nil { throw UserError("Unclosed quote in: \(line)") }
    if inWord { words.append(current) }
    return words
}

import ArgumentParser
import Foundation
import GymLogCore
import GymLogStore

/// The REPL's line handling, separate from the terminal so tests can drive it.
///
/// A line whose first word names a command of `Gymlog`'s tree runs that command; any other
/// line is an entry line (`bench 100x5`, `+ x6`). Only `help`, `quit` and `//` comments are
/// the REPL's own; `repl` typed inside it says where the user already is.
final class ReplSession {
    enum Outcome { case ok, failed, quit }

    /// What each line's command runs against: the context given, inside this REPL.
    var context: CLIContext
    let state = ReplState()
    private(set) var allSucceeded = true
    /// The sync by itself, in a terminal; piped input syncs once as the REPL ends (`BackgroundSync`).
    var sync: ReplSync?

    init(context: CLIContext) {
        self.context = context
        self.context.repl = state
    }

    /// The commands a line can start with: the tree's, except `repl` itself.
    static let commands: [any ParsableCommand.Type] = Gymlog.configuration.subcommands.filter { $0 != Repl.self }

    /// Command names by their lower-case name.
    private static let commandsByName: [String: any ParsableCommand.Type] =
        Dictionary(uniqueKeysWithValues: commands.map { ($0._commandName, $0) })

    /// The REPL's own words, which are not commands of the shell.
    static let quitWords: Set<String> = ["quit", "exit", "q"]
    static let helpWords: Set<String> = ["help", "?"]

    /// `undo!` and `redo!`: the step confirmed, as `--yes` gives it from the shell.
    static let confirmedWords: [String: any ParsableCommand.Type] = ["undo!": Undo.self, "redo!": Redo.self]

    /// The words a mistyped first word is matched against: the commands, `help` and `quit`.
    static let suggestedWords = commands.map { $0._commandName } + ["help", "quit"]

    /// Every first word that is not an entry line.
    static let commandWords: Set<String> = Set(commandsByName.keys).union(quitWords).union(helpWords).union(confirmedWords.keys)

    /// `help`: the entry-line forms, every command of the shell with its abstract (so the two
    /// lists cannot disagree), and `quit`.
    static func helpLines() -> [String] {
        let rows = [
            ("bench 100x5 @8", "log sets (see `log --help` for the whole language)"),
            ("+ [changes]", "repeat the last set: `+`, `+ 102.5`, `+ x6`, `+ @9`"),
        ] + Gymlog.configuration.subcommands.map { ($0._commandName, $0.configuration.abstract) } + [
            ("help", "this list; `COMMAND --help` shows a command's usage"),
            ("quit", "leave (Ctrl-D works too)"),
        ]
        let width = TerminalText.columns(rows.map(\.0))
        return rows.map { "  " + TerminalText.pad($0.0, to: width) + "  " + $0.1 }
    }

    /// `[Push day · 5 sets] > `, `[10:15 · 1 set] > `, or `gymlog> ` with no open workout; then
    /// the rest timer and the sync's state: `[Push day · 5 sets · rest 1:20/2:00 · ↑2] > `.
    func prompt() -> String {
        var text = promptText()
        if let (timer, lastSet) = try? context.restTimer(), text.hasSuffix("] > ") {
            if timer.reached, state.bellRungAfter != lastSet {
                state.bellRungAfter = lastSet
                // Once per break: the terminal's bell (or its visual bell).
                writeStandardOutput("\u{07}")
            }
            text = String(text.dropLast(4)) + " · \(timer.text)] > "
        }
        guard let mark = sync?.promptMark(context) else { return text }
        return text.hasSuffix("] > ") ? String(text.dropLast(4)) + " · \(mark)] > " : String(text.dropLast(2)) + " \(mark)> "
    }

    /// The prompt without the rest timer.
    private func promptText() -> String {
        // A past workout (`start --at`) shows its date; a routine workout its planned sets done.
        let pastDate = state.pastWorkout.map { " · \(Render.shortDate($0.startedAt, $0.utcOffsetSeconds, showYear: false)) \(Render.clock($0.startedAt, $0.utcOffsetSeconds))" } ?? ""
        if let (plan, workout) = try? TodayPlan.current(context, suggestions: .none) {
            let (done, total) = plan.progress.counts
            return TerminalText.safe("[\(workout.name ?? plan.routine.name) · \(done)/\(total)\(pastDate)] > ")
        }
        if let past = state.pastWorkout {
            let count = (try? context.db().workoutDetail(past.id)?.sets.count) ?? 0
            return TerminalText.safe("[\(past.name ?? "past workout") · \(plural(count, "set"))\(pastDate)] > ")
        }
        guard let open = try? context.db().openWorkout() else { return "gymlog> " }
        let name = open.workout.name ?? Render.clock(open.workout.startedAt, open.workout.utcOffsetSeconds)
        return TerminalText.safe("[\(name) · \(plural(open.setCount, "set"))] > ")
    }

    /// Tab completion: command names, exercise names, and `COMMAND NAME` for the commands
    /// that take an exercise.
    func completions() -> [String] {
        let names = (try? context.db().exerciseNames()) ?? []
        let exerciseCommands = Self.commands.filter { $0 is any ExerciseArgumentCommand.Type }.map { $0._commandName }
        return Self.commands.map { $0._commandName } + ["help", "quit"] + names
            + names.flatMap { name in exerciseCommands.map { "\($0) \(name)" } }
    }

    /// Runs one line. `number` is its line in piped input: an error then starts with
    /// `line N:`, so a script's author can find it.
    @discardableResult
    func handle(_ rawLine: String, number: Int? = nil) async -> Outcome {
        state.errorPrefix = number.map { "line \($0): " }
        defer { state.errorPrefix = nil }
        let line = rawLine.trimmingCharacters(in: .whitespaces)
        if line.isEmpty || line.hasPrefix("//") { return .ok }
        let typed = line.split(separator: " ", maxSplits: 1).first.map(String.init) ?? ""
        let word = typed.lowercased()
        let outcome: Outcome
        if Self.quitWords.contains(word) { return .quit }
        if Self.helpWords.contains(word) {
            Self.helpLines().forEach(context.print)
            outcome = .ok
        } else if word == Repl._commandName {
            context.print("You are in the REPL already: type a set like `bench 100x5`, or `help` for the commands.")
            outcome = .ok
        } else if let command = Self.confirmedWords[word], line.lowercased() == word {
            outcome = await runCommand(command, rest: "--yes", line: command._commandName + " --yes")
        } else if let command = Self.commandsByName[word], !logsExistingExercise(command, line: line) {
            let rest = line.dropFirst(typed.count).trimmingCharacters(in: .whitespaces)
            outcome = await runCommand(command, rest: rest, line: line)
        } else if let near = mistypedCommand(typed, line: line) {
            context.printError(Style.stderr.errorLine("Unknown command '\(typed)'. Did you mean `\(near)`? (`help` lists every command.)"))
            outcome = .failed
        } else {
            outcome = runEntry(line)
        }
        if outcome == .failed { allSucceeded = false }
        sync?.afterLine(context, finishing: word == Finish._commandName)
        return outcome
    }

    /// The command a line's first word was meant to be (`hisotry`), when the line is no set
    /// (a valid set line always logs) and the word is no exercise or alias.
    private func mistypedCommand(_ typed: String, line: String) -> String? {
        let rest = line.split(separator: " ").dropFirst().map(String.init)
        guard let near = Gymlog.nearestCommand(to: typed, rest: rest, among: Self.suggestedWords), case .failure = EntryParser.parse(line) else { return nil }
        let exercises = Set(((try? context.db().exerciseNames()) ?? []).map { $0.lowercased() })
        return exercises.contains(typed.lowercased()) ? nil : near
    }

    /// Whether `line`, which starts with the name of a command that never takes a set line, is a
    /// set of an exercise that exists (`warmup row 40x10` for "Warmup Row"), so it logs.
    private func logsExistingExercise(_ command: any ParsableCommand.Type, line: String) -> Bool {
        guard command is any YieldsToExercises.Type, case .success(.log(let mention, _)) = EntryParser.parse(line) else { return false }
        let key = nameKey(mention.name)
        return ((try? context.db().exerciseNames()) ?? []).contains { nameKey($0) == key }
    }

    /// Runs an entry line through the same `EntryRunner` as `gymlog log`.
    private func runEntry(_ line: String) -> Outcome {
        do {
            return try EntryRunner(context: context).run(line) == .done ? .ok : .failed
        } catch let error as UserError {
            context.printError(Style.stderr.errorLine(error.message))
            return .failed
        } catch {
            context.printError(Style.stderr.errorLine(UserError.storage(error, database: context.paths.database)?.message ?? error.localizedDescription))
            return .failed
        }
    }

    /// The most words a command line may have (`exercises add` with a long name needs a handful).
    static let maxCommandWords = 200

    /// Parses a command line with the shell's tree and runs it against this session's context.
    private func runCommand(_ type: any ParsableCommand.Type, rest: String, line: String) async -> Outcome {
        var context = self.context
        context.typedLine = line
        do {
            var args: [String]
            if let text = type as? any TextCommand.Type, let textArgs = text.replArguments(rest) {
                args = [type._commandName] + textArgs
            } else {
                args = try shellWords(line)
                // ArgumentParser takes time quadratic in the argument count (a pasted 70 KB line of
                // 14,000 words took a minute); no command needs more than a few words.
                if args.count > Self.maxCommandWords {
                    throw UserError("`\(args[0].lowercased())` got \(args.count) words; a command takes at most \(Self.maxCommandWords), "
                        + "so check the line (was it pasted by mistake?).")
                }
                // The command word matched case-insensitively (`SHOW`); ArgumentParser's names are lower case.
                args[0] = args[0].lowercased()
            }
            let command = try Gymlog.parseAsRoot(args)
            if let c = command as? any ContextCommand {
                try await c.run(in: context)
                // `config set` saved a setting, `login`, `logout` and `key enable` new credentials:
                // the next lines use them (and sync with the new credentials at once).
                if c is any ChangesSettings {
                    try self.context.reloadSettings()
                    if c is any SavesCredentials { sync?.pullSoon() }
                }
            } else if var c = command as? any AsyncParsableCommand {
                try await c.run()
            } else {
                var c = command
                try c.run()
            }
            return .ok
        } catch let error as UserError {
            context.printError(Style.stderr.errorLine(error.message))
            return .failed
        } catch {
            if let storage = UserError.storage(error, database: context.paths.database) {
                context.printError(Style.stderr.errorLine(storage.message))
                return .failed
            }
            let message = Gymlog.fullMessage(for: error)
            if !message.isEmpty { context.printError(message) }
            return Gymlog.exitCode(for: error) == .success ? .ok : .failed
        }
    }
}

/// What the REPL keeps from one line to the next, apart from the database. The session owns
/// it; the context of each command run inside the REPL refers to it, so `start --at`,
/// `finish` and `rest` change it and the prompt reads it.
final class ReplState {
    /// The past workout the REPL is filling in since `start --at`: lines typed go into it, at
    /// times after its sets, until `finish` or a `start` without `--at`.
    var pastWorkout: Workout?
    /// `rest 2:30`: the target of the break after the set logged at `afterSet`.
    var restTarget: (afterSet: Int64, seconds: Int)?
    /// The set whose break has rung the bell, so it rings once.
    var bellRungAfter: Int64?
    /// Put before the next error line, then dropped: piped input names the failing line
    /// (`line 12: error: ...`) without repeating it on the caret line under it.
    var errorPrefix: String?

    /// The error prefix for the next error line, which is the only one to get it.
    func takeErrorPrefix() -> String? {
        defer { errorPrefix = nil }
        return errorPrefix
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

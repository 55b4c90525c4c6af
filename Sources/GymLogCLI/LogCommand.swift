import ArgumentParser
import GymLogCore
import GymLogStore

struct Log: ContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "log",
        abstract: "Log one line of sets without opening the REPL.",
        discussion: """
        The line uses the same language as the REPL:

          gymlog log "bench 100x5"          one set of 5 at 100 (default unit)
          gymlog log "squat 140kg x5x3 @8"  three sets, RPE 8
          gymlog log "bench 100x5,5,4"      three sets with 5, 5 and 4 reps
          gymlog log "pullup bw x8"         bodyweight; "dip +20x6" adds weight
          gymlog log "plank 60s"            timed; "row 2000m 7:41" distance
          gymlog log "+ x6"                 the last set again with 6 reps
        """
    )

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The line to log; quote it or pass its words.") var words: [String]

    func run(in context: CLIContext) throws {
        let line = words.joined(separator: " ")
        if try !EntryRunner(context: context).run(line) { throw ExitCode.failure }
    }
}

struct Undo: ContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "undo",
        abstract: "Delete the last logged set (kept as a tombstone so every device deletes it too)."
    )
    @OptionGroup var global: GlobalOptions

    func run(in context: CLIContext) throws {
        let (set, exercise) = try context.db().undoLastSet()
        context.print("Undid \(exercise.name): \(set.summary)")
    }
}

/// Runs entry lines (`bench 100x5`, `+`, `undo`) and prints the result or a pointed error.
struct EntryRunner {
    let context: CLIContext

    /// Returns false when the line was rejected (nothing was written then).
    func run(_ line: String) throws -> Bool {
        switch EntryParser.parse(line) {
        case .failure(let error):
            context.printError(Style.stderr.errorLine(error.message))
            context.printError(error.pointing(into: line))
            return false
        case .success(let entry):
            do {
                let db = try context.db()
                switch entry {
                case .log(let mention, let specs):
                    Render.logResult(try db.logSets(exercise: mention, specs: specs), settings: context.settings).forEach(context.print)
                case .repeatLast(let patch):
                    Render.logResult(try db.repeatLast(patch), settings: context.settings).forEach(context.print)
                case .undo:
                    let (set, exercise) = try db.undoLastSet()
                    context.print("Undid \(exercise.name): \(set.summary)")
                }
                return true
            } catch let error as UserError {
                context.printError(Style.stderr.errorLine(error.message))
                if let span = error.span { context.printError(EntryError(error.message, at: span).pointing(into: line)) }
                return false
            }
        }
    }
}

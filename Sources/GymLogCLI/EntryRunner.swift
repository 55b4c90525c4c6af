import GymLogCore
import GymLogStore

/// Runs entry lines (`bench 100x5`, `+`, `undo`) and prints the result or a pointed error.
struct EntryRunner {
    let context: CLIContext

    /// Returns false when the line was rejected (nothing was written then).
    func run(_ line: String) throws -> Bool {
        switch EntryParser.parse(line) {
        case .failure(let error):
            context.printEntryError(error.message, at: error.span, in: line)
            return false
        case .success(let entry):
            do {
                let db = try context.db()
                switch entry {
                case .log(let mention, let specs):
                    Render.logResult(try db.logSets(exercise: mention, specs: specs, typed: line), settings: context.settings).forEach(context.print)
                case .repeatLast(let patch):
                    Render.logResult(try db.repeatLast(patch, typed: line), settings: context.settings).forEach(context.print)
                case .undo:
                    try UndoStep(.undo, context: context).run(confirmed: false)
                }
                return true
            } catch let error as UserError {
                context.printEntryError(error.message, at: error.span, in: line)
                return false
            }
        }
    }
}

import ArgumentParser
import GymLogCore
import GymLogStore

struct Rest: ContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "rest", abstract: "Show the rest since the last set, or set this break's target: `rest 2:30`.",
        discussion: """
        The REPL prompt counts the rest live ([Push A · 7 sets · rest 1:32/3:00] >) and rings \
        the bell once when the target is reached (rest 3:00 ✓). The target is this break's \
        `rest M:SS`, else the routine line's `rest 3:00`, else `rest_seconds` in the config. \
        `gymlog rest --json` (or `status --json`) gives rest_seconds and rest_target_seconds to \
        a tmux status line or a shell prompt.
        """)
    @OptionGroup var global: GlobalOptions
    @Argument(help: "This break's target rest, e.g. 2:30 or 90s (REPL only).") var target: String?
    @OptionGroup var output: JSONFlag

    func run(in context: CLIContext) async throws {
        if let target {
            let seconds: Int
            switch RoutineParser.restSeconds(target) {
            case .success(let s): seconds = s
            case .failure(let e): throw UserError("`rest \(target)`: \(e.message).")
            }
            guard context.surface == .repl else {
                throw UserError("`rest \(target)` sets the target of the REPL's current break; for every break, set rest_seconds = \(seconds) in the config.")
            }
            guard let open = try context.db().openWorkout(), let lastSet = open.lastSet else {
                throw UserError("No set is logged in an open workout yet, so there is no break to time; log a set first.")
            }
            context.repl?.restTarget = (lastSet, seconds)
            context.repl?.bellRungAfter = nil
            context.print("Rest target for this break: \(RestTimer.clock(seconds)).")
            return
        }
        let rest = try context.existingDB() == nil ? nil : try context.restTimer()
        if output.json {
            context.printJSON(JSONShapes.rest(rest?.timer))
            return
        }
        context.print(rest.map { "\($0.timer.text.prefix(1).uppercased())\($0.timer.text.dropFirst())." }
                      ?? "No rest to time: no set in an open workout in the last hour.")
    }
}

extension Rest: ExistingDatabaseCommand {}

extension JSONShapes {
    /// `rest_seconds` (since the last set of the open workout) and `rest_target_seconds`.
    static func rest(_ timer: RestTimer?) -> JSON {
        .object([("rest_seconds", .int(timer?.elapsed)), ("rest_target_seconds", .int(timer?.target))])
    }
}

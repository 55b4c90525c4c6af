import ArgumentParser
import GymLogCore
import GymLogStore

struct Start: TextCommand {
    static let configuration = CommandConfiguration(
        commandName: "start",
        abstract: "Start a new workout, optionally named (logging a set starts one automatically).",
        discussion: """
          gymlog start                a workout named by its start time
          gymlog start "Push day"     a named one; the REPL prompt shows the name

        An open workout with sets is finished first, with its summary; an open one without
        sets is renamed instead. In the REPL, type `start Push day`.
        """
    )
    @OptionGroup var global: GlobalOptions
    @Argument(help: ArgumentHelp("The workout's name.", valueName: "name")) var name: [String] = []

    func run(in context: CLIContext) async throws {
        let text = name.joined(separator: " ")
        let result = try context.db().startWorkout(name: text.isEmpty ? nil : text,
                                                   typed: context.typedLine ?? (["start"] + name).joined(separator: " "))
        if let finished = result.finished {
            Render.workoutSummary(finished, settings: context.settings).forEach(context.print)
        }
        let w = result.workout
        context.print("Started \(w.name.map { "'\($0)'" } ?? "a workout") at \(Render.clock(w.startedAt, w.utcOffsetSeconds)).")
    }
}

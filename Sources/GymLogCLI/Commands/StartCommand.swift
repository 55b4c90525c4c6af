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
          gymlog start --at "yesterday 18:00" "Push day"
                                      a forgotten session, at the time it started

        An open workout with sets is finished first, with its summary; an open one without
        sets is renamed instead. In the REPL, type `start Push day`.

        With --at (\(timePhraseForms)) the open workout is left alone. In the REPL,
        `start --at yesterday 18:00 Push day` then puts the lines you type into that past
        workout, a second apart, until `finish` (or `start` without --at); the prompt shows
        its date. From the shell, use `gymlog log --at` with the same time.
        """
    )
    @OptionGroup var global: GlobalOptions
    @OptionGroup var past: PastTime
    @Argument(help: ArgumentHelp("The workout's name.", valueName: "name")) var name: [String] = []

    static func replArguments(_ rest: String) -> [String]? {
        if let withTime = PastTime.replArguments(rest) { return withTime }
        if rest == "--help" || rest == "-h" { return nil }
        return rest.isEmpty ? [] : ["--", rest]
    }

    func run(in context: CLIContext) async throws {
        let text = name.joined(separator: " ")
        let at = try past.moment(in: context)
        let result = try context.db().startWorkout(name: text.isEmpty ? nil : text, typed: context.typedLine ?? (["start"] + name).joined(separator: " "),
                                                   at: at)
        if at != nil {
            let w = result.workout
            if context.surface == .repl { context.pastWorkout = w }
            context.print("Started \(w.name.map { "'\($0)'" } ?? "a workout") at \(Render.day(w.startedAt, w.utcOffsetSeconds))"
                + (context.surface == .repl ? "; the lines you type now go into it, until `finish`." : "; log into it with `gymlog log --at` and the same time."))
            return
        }
        context.pastWorkout = nil
        if let finished = result.finished {
            Render.workoutSummary(finished, settings: context.settings).forEach(context.print)
        }
        let w = result.workout
        context.print("Started \(w.name.map { "'\($0)'" } ?? "a workout") at \(Render.clock(w.startedAt, w.utcOffsetSeconds)).")
    }
}

import ArgumentParser
import GymLogCore
import GymLogStore

struct Start: TextCommand {
    static let configuration = CommandConfiguration(
        commandName: "start",
        abstract: "Start a new workout, optionally named (logging a set starts one automatically).",
        discussion: """
          gymlog start
              a workout named by its start time
          gymlog start "Push day"
              a named one; the REPL prompt shows the name
          gymlog start "Push A"
              from the routine of that name (or a prefix of it): prints today's plan;
              then `next`, `ok`, `skip`
          gymlog start --at "yesterday 18:00" "Push day"
                                      a forgotten session, at the time it started

        An open workout with sets is finished first, with its summary; an open one without \
        sets is renamed instead. In the REPL, type `start Push day`.

        With --at (\(timePhraseForms)) the open workout is left alone. In the REPL, \
        `start --at yesterday 18:00 Push day` then puts the lines you type into that past \
        workout, a second apart, until `finish` (or `start` without --at); the prompt shows \
        its date. The same `start --at` again goes back into that workout while it is not \
        finished (after quitting the REPL, say). From the shell, use `gymlog log --at` with the same time.
        """
    )
    @OptionGroup var global: GlobalOptions
    @OptionGroup var past: PastTime
    @OptionGroup var output: JSONFlag
    @Argument(help: ArgumentHelp("The workout's name.", valueName: "name")) var name: [String] = []

    static func replArguments(_ rest: String) -> [String]? {
        if let withTime = PastTime.replArguments(rest) { return withTime }
        if rest == "--help" || rest == "-h" || rest.hasSuffix(" --json") || rest == "--json" { return nil }
        return rest.isEmpty ? [] : ["--", rest]
    }

    func run(in context: CLIContext) async throws {
        let text = name.joined(separator: " ")
        let at = try past.moment(in: context)
        let db = try context.db()
        // A name that is a routine's (or starts only one) starts a workout from it.
        let routines = text.isEmpty ? [] : try db.routines()
        let routine = routines.isEmpty ? nil : try? db.routine(named: text)
        let starts = routines.filter { matchKey($0.name).hasPrefix(matchKey(text)) }
        if routine == nil, starts.count > 1 {
            throw UserError("'\(text)' starts several routines: \(starts.map { "'\($0.name)'" }.joined(separator: ", ")). Type more of the name.")
        }
        let workoutName = routine?.name ?? (text.isEmpty ? nil : text)
        let result = try db.startWorkout(name: workoutName, typed: context.typedLine ?? (["start"] + name).joined(separator: " "),
                                         at: at, routine: routine?.id)
        let w = result.workout
        if output.json {
            let plan = try routine.map { try TodayPlan.build(db, settings: context.settings, routine: $0, workout: w, now: context.environment.now()) }
            if at != nil, context.surface == .repl { context.repl?.pastWorkout = w }
            context.printJSON(.object([
                ("workout", .object([("id", .string(w.id.key)), ("name", .string(w.name)), ("started_at", .time(w.startedAt, w.utcOffsetSeconds))])),
                ("finished", result.finished.map { .string($0.workout.id.key) } ?? .null),
                ("plan", plan.map(JSONShapes.plan) ?? .null),
            ]))
            return
        }
        if at != nil {
            if context.surface == .repl { context.repl?.pastWorkout = w }
            let what = result.resumed
                ? "Back in \(w.name.map { "'\($0)'" } ?? "the workout") of \(Render.day(w.startedAt, w.utcOffsetSeconds)), not yet finished "
                    + "(\(plural(try db.workoutDetail(w.id)?.sets.count ?? 0, "set")))"
                : "Started \(w.name.map { "'\($0)'" } ?? "a workout") at \(Render.day(w.startedAt, w.utcOffsetSeconds))"
            context.print(what + (context.surface == .repl ? "; the lines you type now go into it, until `finish`."
                                                          : "; log into it with `gymlog log --at` and the same time."))
        } else {
            context.repl?.pastWorkout = nil
            if let finished = result.finished {
                Render.workoutSummary(finished, settings: context.settings).forEach(context.print)
            }
            context.print("Started \(w.name.map { "'\($0)'" } ?? "a workout") at \(Render.clock(w.startedAt, w.utcOffsetSeconds)).")
        }
        if let routine {
            let now = context.environment.now()
            let plan = try TodayPlan.build(db, settings: context.settings, routine: routine, workout: w, now: now)
            Render.wrapped(plan.lines(settings: context.settings, now: now, utcOffset: context.environment.utcOffset(now), columns: Render.wrapColumns),
                           width: Render.wrapColumns)
                .forEach(context.print)
            PlanText.next(plan, settings: context.settings).forEach(context.print)
        }
    }
}

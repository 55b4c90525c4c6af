import ArgumentParser
import GymLogCore
import GymLogStore

/// The REPL's words for working through a routine: `next`, `ok`, `skip`.
enum PlanText {
    /// No routine workout is open: how to start one, or to go back into the routine session
    /// left unfinished (the REPL closed during a `start --at` session).
    static func noPlan(_ context: CLIContext) throws -> UserError {
        let db = try context.db()
        if let left = try db.unfinishedWorkout(), let (routine, _) = try db.plan(of: left.id) {
            var when = localDateTime(millis: left.startedAt, utcOffsetSeconds: left.utcOffsetSeconds)
            if when.hasSuffix(":00") { when.removeLast(3) }
            return UserError("No workout from a routine is open. '\(left.name ?? routine.name)' of \(Render.day(left.startedAt, left.utcOffsetSeconds)) "
                + "was not finished: `start --at \"\(when)\" \(left.name ?? routine.name)` goes back into it, `finish` ends it.")
        }
        return UserError("No workout from a routine is open; start one with `start ROUTINE` (`routine list` shows them).")
    }
    static let allDone = "Every planned set is done; `finish` ends the workout."

    /// `Next: bench, set 2 of 3: 102.5kg x 5 @8`, and how to log it; a planned superset's
    /// round lists a set of each of its exercises, one per line.
    static func next(_ plan: TodayPlan, settings: Settings) -> [String] {
        let round = plan.nextRound
        guard !round.isEmpty else {
            return [plan.progress.next == nil ? allDone : "The plan has no set to suggest; log the next set by hand."]
        }
        let sets = round.map { "\($0.line.name), set \(plan.progress.done[$0.index] + 1) of \(plan.progress.planned[$0.index]): \($0.set.summary)" }
        var lines = round.count > 1 ? ["Next round, back to back:"] + sets.map { "  " + $0 } : ["Next: " + sets[0]]
        if let missing = round.first(where: \.set.needsLoad) {
            lines += round.count > 1
                ? ["  No weight to suggest yet for \(missing.line.name); type the round with your weights:", "    " + handTyped(round)]
                : ["  No weight to suggest yet: type `ok WEIGHT` (e.g. `ok \(round[0].line.unit.hintLightLoad)`) to log it at that weight, `ok bw` at bodyweight."]
            return lines
        }
        for (line, index, set) in round {
            // A routine line with `warmup` offers the ramp before its first set, until one is logged.
            if line.planned.warmup, plan.progress.done[index] == 0, !(line.exercise.map { plan.warmedUp.contains($0.id) } ?? false),
               let w = set.weight, !set.bodyweight {
                let ramp = WarmupRamp.sets(to: w.value, steps: settings.warmupSteps,
                                           loads: WarmupLoads.of(line.equipment, unit: w.unit, settings: settings))
                let weight = w.unit == settings.defaultUnit ? "\(w.value)" : "\(w.value)\(w.unit.rawValue)"
                if !ramp.isEmpty { lines.append("  Warm up first: `warmup \(line.name) \(weight) log` logs the ramp.") }
            }
        }
        lines.append(round.count > 1
            ? "  `ok` logs the round; `ok x4`, `ok @9` change each set; `skip` drops the superset for today."
            : "  `ok` logs it; \(changeHints(round[0])) log it changed; `skip` drops \(round[0].line.name) for today.")
        if settings.showPlates {
            for (line, _, set) in round {
                if let plates = TodayPlan.plates(set, line.equipment, settings: settings) { lines.append("  " + (round.count > 1 ? "\(line.name) " : "") + plates) }
            }
        }
        return lines
    }

    /// The changes `ok` takes for this set, as its kind is logged: `ok x4`, `ok 225`, `ok @9`
    /// for a lift; the distance and the time for a run (`ok 5km 27:30`); the time for a hold.
    static func changeHints(_ next: TodayPlan.NextSet) -> String {
        let set = next.set
        if let distance = set.distance {
            guard set.weight != nil else { return "`ok \(distance) 27:30` (the distance and time you did), `ok @7`" }
            return "`ok \(next.line.unit.hintLoad) \(distance)`, `ok @9`"
        }
        if set.durationSeconds != nil, set.weight == nil, !set.bodyweight { return "`ok 75s`, `ok @9`" }
        return "`ok x4`, `ok \(next.line.unit.hintLoad)`, `ok @9`"
    }

    /// `bench 102.5x5 & row WEIGHTx8`: a round as the user would type it, WEIGHT where the
    /// plan has none.
    static func handTyped(_ round: [TodayPlan.NextSet]) -> String {
        round.map { n in "\(n.line.name) \(n.set.load?.canonical ?? "WEIGHT") x\(n.set.reps)"
        }.joined(separator: " & ")
    }
}

struct Next: ContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "next", abstract: "Show the next planned set of the routine workout (`ok` logs it).")
    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: JSONFlag

    func run(in context: CLIContext) async throws {
        guard let (plan, _) = try TodayPlan.current(context, suggestions: .next) else {
            // One shape always (issue 26, item 17): a script reads the same keys with no routine open.
            if output.json {
                context.printJSON(.object([("routine", .null), ("done", .int(0)), ("total", .int(0)), ("next", .null), ("round", .array([]))]))
                return
            }
            throw try PlanText.noPlan(context)
        }
        if output.json {
            // `next` is the first set of the round (the only one outside a superset); `round` all of them.
            let round: [JSON] = plan.nextRound.map { n -> JSON in .object([
                ("line", .int(n.index + 1)), ("exercise", .string(n.line.name)),
                ("set", .int(plan.progress.done[n.index] + 1)), ("of", .int(plan.progress.planned[n.index])),
            ] + JSONShapes.suggestedSet(n.set)) }
            context.printJSON(.object([
                ("routine", .string(plan.routine.name)),
                ("done", .int(plan.progress.counts.done)), ("total", .int(plan.progress.counts.total)),
                ("next", round.first ?? .null), ("round", .array(round)),
            ]))
            return
        }
        PlanText.next(plan, settings: context.settings).forEach(context.print)
    }
}

struct Ok: TextCommand {
    static let configuration = CommandConfiguration(
        commandName: "ok", abstract: "Log the next planned set as suggested, or changed: `ok`, `ok x4`, `ok 100`, `ok @9`.",
        discussion: "The changes are those `+` takes (`+ x6`, `+ 102.5`, `+ @9`, `+ 100x4`). In a routine workout only.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "Changes to the suggested set, as `+` takes them.") var changes: [String] = []

    func run(in context: CLIContext) async throws {
        guard let (plan, _) = try TodayPlan.current(context, suggestions: .next) else { throw try PlanText.noPlan(context) }
        let round = plan.nextRound
        guard !round.isEmpty else {
            throw UserError(plan.progress.next == nil ? PlanText.allDone : "The plan has no set to suggest; log the next set by hand.")
        }
        let text = changes.joined(separator: " ")
        let patch: SetPatch
        switch EntryParser.parse("+ " + text) {
        case .success(.repeatLast(let typed)): patch = typed
        case .failure(let e):
            // The parser's own words say what is wrong with the change (`36` needs its unit before `40m`).
            let load = round[0].line.unit.hintLoad
            throw UserError("`ok \(text)`: \(e.message); `ok` takes the changes `+` takes: `ok x4`, `ok \(load)`, `ok @9`, "
                + "`ok \(load)x4`, `ok 45s`, `ok 32kg 40m`.")
        default:
            let load = round[0].line.unit.hintLoad
            throw UserError("`ok \(text)` is not a change `ok` understands; type `ok`, `ok x4`, `ok \(load)`, `ok @9` or `ok \(load)x4`.")
        }
        if round.count > 1, patch.load != nil {
            // One weight for every exercise of a round would put it on a bodyweight dip too.
            throw UserError("`ok \(text)` would put one weight on every exercise of the round; type the round with its weights, e.g. `\(PlanText.handTyped(round))`.")
        }
        if round.count > 1, let missing = round.first(where: \.set.needsLoad) {
            throw UserError("\(missing.line.name) has no weight to suggest yet; type the round with your weights, e.g. `\(PlanText.handTyped(round))`.")
        }
        if round[0].set.needsLoad && patch.load == nil {
            throw UserError("\(round[0].line.name) has no weight to suggest yet; type `ok WEIGHT`, e.g. `ok \(round[0].line.unit.hintLightLoad)`, or `ok bw` at bodyweight.")
        }
        let parts = round.map { n in
            (exercise: n.line.name, values: Array(repeating: n.set.logged(with: patch, unit: n.line.unit), count: max(1, patch.count)))
        }
        try EntryRunner(context: context).log(parts, superset: plan.superset(of: round),
                                              typed: context.typedLine ?? (["ok"] + changes).joined(separator: " "))
    }
}

struct Skip: ContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "skip", abstract: "Drop the current planned exercise from today's routine workout.")
    @OptionGroup var global: GlobalOptions

    func run(in context: CLIContext) async throws {
        guard let (plan, workout) = try TodayPlan.current(context, suggestions: .none) else { throw try PlanText.noPlan(context) }
        // A planned superset is dropped whole: its exercises are done together or not at all.
        let round = plan.progress.nextRound
        guard !round.isEmpty else { throw UserError(PlanText.allDone) }
        let names = round.map { plan.lines[$0.line].name }.joined(separator: " & ")
        let left = round.reduce(0) { $0 + plan.progress.planned[$1.line] - plan.progress.done[$1.line] }
        try context.db().skipPlanned(lines: round.map { ($0.line + 1, plan.progress.done[$0.line]) }, workoutID: workout.id,
                                     typed: context.typedLine ?? "skip",
                                     what: "\(names) (\(left) set\(left == 1 ? "" : "s"))")
        context.print("Skipped \(names) for today (\(left) planned set\(left == 1 ? "" : "s") left out).")
        if let (after, _) = try TodayPlan.current(context, suggestions: .next) { PlanText.next(after, settings: context.settings).forEach(context.print) }
    }
}

extension Next: ExistingDatabaseCommand {}
extension Ok: ExistingDatabaseCommand {}
extension Skip: ExistingDatabaseCommand {}

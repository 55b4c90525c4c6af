import ArgumentParser
import GymLogCore
import GymLogStore

/// The REPL's words for working through a routine: `next`, `ok`, `skip`.
enum PlanText {
    static let noPlan = "No workout from a routine is open; start one with `start ROUTINE` (`routine list` shows them)."
    static let allDone = "Every planned set is done; `finish` ends the workout."

    /// `Next: bench, set 2 of 3: 102.5kg x 5 @8`, and how to log it.
    static func next(_ plan: TodayPlan, settings: Settings) -> [String] {
        guard let (line, index, set) = plan.next else {
            return [plan.progress.next == nil ? allDone : "The plan has no set to suggest; log the next set by hand."]
        }
        let number = plan.progress.done[index] + 1
        var lines = ["Next: \(line.name), set \(number) of \(plan.progress.planned[index]): \(set.summary)"]
        if set.needsLoad {
            lines.append("  No weight to suggest yet: type `ok WEIGHT` (e.g. `ok 20`) to log it at that weight.")
        } else {
            // A routine line with `warmup` offers the ramp before its first set.
            if line.planned.warmup, number == 1, let w = set.weight, !set.bodyweight, w.value > settings.plates(w.unit).bar {
                let ramp = WarmupRamp.sets(to: w.value, steps: settings.warmupSteps, inventory: settings.plates(w.unit))
                let weight = w.unit == settings.defaultUnit ? "\(w.value)" : "\(w.value)\(w.unit.rawValue)"
                if !ramp.isEmpty { lines.append("  Warm up first: `warmup \(line.name) \(weight) log` logs the ramp.") }
            }
            lines.append("  `ok` logs it; `ok x4`, `ok 100`, `ok @9` log it changed; `skip` drops \(line.name) for today.")
            if settings.showPlates, let plates = TodayPlan.plates(set, settings: settings) { lines.append("  " + plates) }
        }
        return lines
    }
}

struct Next: ContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "next", abstract: "Show the next planned set of the routine workout (`ok` logs it).")
    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: JSONFlag

    func run(in context: CLIContext) async throws {
        guard let (plan, _) = try TodayPlan.current(context, suggestions: .next) else {
            if output.json { context.printJSON(.object([("next", .null)])); return }
            throw UserError(PlanText.noPlan)
        }
        if output.json {
            let next = plan.next
            context.printJSON(.object([
                ("routine", .string(plan.routine.name)),
                ("done", .int(plan.progress.counts.done)), ("total", .int(plan.progress.counts.total)),
                ("next", next.map { n in .object([
                    ("line", .int(n.index + 1)), ("exercise", .string(n.line.name)),
                    ("set", .int(plan.progress.done[n.index] + 1)), ("of", .int(plan.progress.planned[n.index])),
                    ("weight", .fixed(n.set.weight?.value)), ("weight_unit", .string(n.set.weight?.unit.rawValue)),
                    ("bodyweight", .bool(n.set.bodyweight)), ("reps", .int(n.set.reps)), ("amrap", .bool(n.set.amrap)),
                    ("rpe", .fixed(n.set.targetRPE)), ("summary", .string(n.set.summary)),
                ]) } ?? .null),
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
        guard let (plan, _) = try TodayPlan.current(context, suggestions: .next) else { throw UserError(PlanText.noPlan) }
        guard let (line, _, set) = plan.next else { throw UserError(PlanText.allDone) }
        let text = changes.joined(separator: " ")
        guard case .success(.repeatLast(let patch)) = EntryParser.parse("+ " + text) else {
            throw UserError("`ok \(text)` is not a change `ok` understands; type `ok`, `ok x4`, `ok 100`, `ok @9` or `ok 100x4`.")
        }
        if set.needsLoad && patch.load == nil {
            throw UserError("\(line.name) has no weight to suggest yet; type `ok WEIGHT`, e.g. `ok 20`.")
        }
        var values = SetResolver.values(repeating: set.values, with: patch, defaultUnit: context.settings.defaultUnit)
        values.rpe = patch.rpe ?? set.targetRPE
        let count = max(1, patch.count)
        try EntryRunner(context: context).log(Array(repeating: values, count: count), exercise: line.name,
                                              typed: context.typedLine ?? (["ok"] + changes).joined(separator: " "))
    }
}

struct Skip: ContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "skip", abstract: "Drop the current planned exercise from today's routine workout.")
    @OptionGroup var global: GlobalOptions

    func run(in context: CLIContext) async throws {
        guard let (plan, workout) = try TodayPlan.current(context, suggestions: .none) else { throw UserError(PlanText.noPlan) }
        guard let current = plan.progress.next else { throw UserError(PlanText.allDone) }
        let line = plan.lines[current.line]
        let left = plan.progress.planned[current.line] - plan.progress.done[current.line]
        try context.db().skipPlanned(line: current.line + 1, workoutID: workout.id, typed: context.typedLine ?? "skip",
                                     what: "\(line.name) (\(left) set\(left == 1 ? "" : "s"))")
        context.print("Skipped \(line.name) for today (\(left) planned set\(left == 1 ? "" : "s") left out).")
        if let (after, _) = try TodayPlan.current(context, suggestions: .next) { PlanText.next(after, settings: context.settings).forEach(context.print) }
    }
}

extension Next: ExistingDatabaseCommand {}
extension Ok: ExistingDatabaseCommand {}
extension Skip: ExistingDatabaseCommand {}

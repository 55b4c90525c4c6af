import ArgumentParser
import Foundation
import GymLogCore
import GymLogStore

extension StatsGrouping: ExpressibleByArgument {}

struct Stats: ContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Weekly training: workouts, working sets and volume per week, by exercise or muscle.",
        discussion: """
          gymlog stats
              the last 8 weeks, by exercise
          gymlog stats --weeks 12 --by muscle
          gymlog stats --json
              for scripts

        Weeks run Monday to Sunday in local time, the current week last; weeks \
        before your first workout are left out and never lower the weekly \
        average. Warm-ups never count; volume is weight x reps of working sets in \
        your default unit, a bodyweight set's on that day's bodyweight plus its \
        added load (without a `bw` entry on or before it, its added load only, and stats \
        says how many such sets there are; timed and distance sets count as sets but add no \
        volume).

        By muscle, each exercise's muscles come from its catalog link \
        (`gymlog exercises info NAME`): a working set counts 1 for each \
        primary muscle and half a set for each secondary one (the common \
        convention; `stats.secondary_weight` in the config changes it), and \
        a muscle's week is marked when under 10 or over 20 sets (the usual \
        range for growth; `stats.muscle_sets_low` and `_high`). Sets of \
        exercises linked to nothing are counted as "unlinked" and named, \
        never guessed from their names (`gymlog exercises link` links one); \
        distance work is "cardio".
        """
    )
    @OptionGroup var global: GlobalOptions
    @Option(help: "How many weeks to show, ending with this one.") var weeks: Int = 8
    @Option(help: "exercise or muscle (from each exercise's link to the exercise catalog).")
    var by: StatsGrouping = .exercise
    @OptionGroup var output: JSONFlag

    func validate() throws {
        guard (1...520).contains(weeks) else { throw ValidationError("--weeks must be between 1 and 520 (got \(weeks)).") }
    }

    func run(in context: CLIContext) async throws {
        let now = context.environment.now()
        let today = LineChart.day(millis: now, utcOffsetSeconds: context.environment.utcOffset(now))
        let db = try context.db()
        let stats = try db.weeklyStats(weeks: weeks, today: today, by: by)
        let settings = context.settings
        let range = { (g: GroupStats) in MuscleSetRange.of(g, by: by, settings: settings) }
        // Weeks before the first workout ever are not weeks of rest: they are not shown and
        // do not count in the average.
        let firstWeek = try db.firstTrainingDay().map(mondayOf)
        let trained = stats.filter { firstWeek != nil && $0.startDay >= firstWeek! }
        let n = Double(trained.count)
        let totalWorkouts = trained.reduce(0) { $0 + $1.workouts }, totalSets = trained.reduce(0) { $0 + $1.sets }
        let totalVolume = trained.reduce(0) { $0 + $1.volumeKg }
        let withoutBodyweight = trained.reduce(0) { $0 + $1.setsWithoutBodyweight }

        if output.json {
            let volume = { (kg: Double) in JSON.double(Render.loadValue(kilograms: kg, settings)) }
            func group(_ g: GroupStats) -> JSON {
                var fields: [(String, JSON)] = [("name", .string(g.name)), ("workouts", .int(g.workouts)),
                                                ("sets", .double(g.sets)), ("volume", volume(g.volumeKg))]
                if by == .muscle { fields.append(("range", .string(range(g)?.rawValue))) }
                return .object(fields)
            }
            func week(_ w: WeekStats) -> JSON {
                var fields: [(String, JSON)] = [("week_start", .string(LineChart.dayLabel(w.startDay))), ("workouts", .int(w.workouts)),
                                                ("sets", .int(w.sets)), ("volume", volume(w.volumeKg)), ("groups", .array(w.groups.map(group)))]
                if by == .muscle { fields.append(("unlinked_exercises", .array(w.unlinkedExercises.map { .string($0) }))) }
                return .object(fields)
            }
            context.printJSON(.object([
                ("weeks", .int(weeks)),
                ("by", .string(by.rawValue)),
                ("unit", .string(settings.defaultUnit.rawValue)),
                ("weekly", .array(stats.map(week))),
                ("sets_without_bodyweight", .int(withoutBodyweight)),
                ("average", trained.isEmpty ? .null : .object([
                    ("weeks", .int(trained.count)),
                    ("workouts", .double(Double(totalWorkouts) / n)),
                    ("sets", .double(Double(totalSets) / n)),
                    ("volume", volume(totalVolume / n)),
                ])),
            ]))
            return
        }

        let style = Style.stdout
        // `Int64(exactly:)`: a volume no set inside the limits can reach shows as "-", never a trap.
        let volume = { (kg: Double) in
            kg > 0 ? Int64(exactly: settings.defaultUnit.fromKilograms(kg).rounded()).map { String($0) + settings.defaultUnit.rawValue } ?? "-" : "-"
        }
        let names = trained.flatMap { $0.groups.map(\.name) }
        let nameWidth = min(30, max(16, TerminalText.columns(names) + 2))
        func row(_ name: String, _ workouts: String, _ sets: String, _ vol: String) -> String {
            let label = TerminalText.fit(name, to: nameWidth)
            return label + pad(workouts, 9) + pad(sets, 6) + pad(vol, 11)
        }
        guard !trained.isEmpty else {
            context.print("No working sets in the last \(plural(weeks, "week")). Log some with `gymlog log \"bench 100x5\"`.")
            return
        }
        let shown = trained.count < stats.count
            ? "\(plural(trained.count, "week")) since your first workout"
            : "Last \(plural(weeks, "week"))"
        context.print(style.dim("\(shown) by \(by.rawValue), Monday to Sunday; working sets only; volume = weight x reps in \(settings.defaultUnit.rawValue)."))
        context.print("")
        context.print(style.dim(row("Week of", "workouts", "sets", "volume")))
        for w in trained {
            context.print(style.bold(row(LineChart.dayLabel(w.startDay), String(w.workouts), String(w.sets), volume(w.volumeKg))))
            for g in w.groups {
                let mark = range(g).flatMap { $0 == .within ? nil : $0 == .under ? "  under \(settings.muscleSetsLow)" : "  over \(settings.muscleSetsHigh)" }
                context.print(row("  " + g.name, String(g.workouts), Render.number(g.sets), volume(g.volumeKg)) + (mark.map(style.dim) ?? ""))
            }
        }
        context.print(style.dim(row("Weekly average", Render.number(Double(totalWorkouts) / n), Render.number(Double(totalSets) / n), volume(totalVolume / n))))
        let unlinked = Set(trained.flatMap(\.unlinkedExercises)).sorted { $0.localizedStandardCompare($1) == .orderedAscending }
        if !unlinked.isEmpty {
            context.print(style.dim("Unlinked, so on no muscle: \(unlinked.joined(separator: ", ")). Link one with "
                + "`gymlog exercises link NAME ENTRY` (`gymlog exercises search WORDS` finds the entry)."))
        }
        if withoutBodyweight > 0 {
            let one = withoutBodyweight == 1
            context.print(style.dim("\(plural(withoutBodyweight, "bodyweight set")) \(one ? "counts only its" : "count only their") added load: "
                + "no bodyweight was recorded on or before \(one ? "it" : "them"). Record it with `gymlog bw \(context.settings.defaultUnit.hintBodyweight)`."))
        }
        if totalSets == 0 {
            context.print("No working sets in these weeks. Log some with `gymlog log \"bench 100x5\"`, or look further back with --weeks.")
        }
    }
}

/// Where a muscle's weekly sets stand against the range `stats --by muscle` marks.
enum MuscleSetRange: String {
    case under, within, over

    /// Where a group's sets stand, by muscle; nil by exercise and for `unlinked` and `cardio`.
    static func of(_ g: GroupStats, by grouping: StatsGrouping, settings: Settings) -> MuscleSetRange? {
        guard grouping == .muscle, g.name != StatsGrouping.unlinked, g.name != StatsGrouping.cardio else { return nil }
        return g.sets < Double(settings.muscleSetsLow) ? .under : g.sets > Double(settings.muscleSetsHigh) ? .over : .within
    }
}

private func pad(_ text: String, _ width: Int) -> String {
    text.count >= width ? " " + text : String(repeating: " ", count: width - text.count) + text
}

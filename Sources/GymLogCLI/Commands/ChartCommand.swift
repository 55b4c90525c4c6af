import ArgumentParser
import Foundation
import GymLogCore
import GymLogStore

extension ChartMetric: ExpressibleByArgument {}

struct ChartCommand: ExerciseArgumentCommand {
    static let configuration = CommandConfiguration(
        commandName: "chart",
        abstract: "Chart an exercise's progression in the terminal: best e1RM, heaviest weight or session volume per workout.",
        discussion: """
          gymlog chart bench                         best e1RM of each workout
          gymlog chart squat --metric weight --since 2025-01-01
          gymlog chart deadlift --metric volume --width 120
          gymlog chart bench --json                  the series, for scripts

        One point per workout; warm-ups never count. Values are in your default unit, dates
        on the x axis are local days. The chart fits the terminal (or $COLUMNS, or 80 columns
        when piped); a long history is bucketed so each column shows the range it covers.
        """
    )
    @OptionGroup var global: GlobalOptions
    @Argument(help: "An exercise name, alias or unambiguous prefix.") var exercise: [String]
    @Option(help: "e1rm (best estimated 1RM), weight (heaviest working weight) or volume (session volume).")
    var metric: ChartMetric = .e1rm
    @Option(help: ArgumentHelp("Only workouts on or after this day.", valueName: "YYYY-MM-DD")) var since: String?
    @Option(help: ArgumentHelp("Only workouts on or before this day.", valueName: "YYYY-MM-DD")) var until: String?
    @Option(help: ArgumentHelp("Columns to fill (default: the terminal's width).", valueName: "columns")) var width: Int?
    @Option(help: ArgumentHelp("Rows of plot, not counting the axes.", valueName: "rows")) var height: Int = 12
    @OptionGroup var output: JSONFlag

    func validate() throws {
        for (flag, value) in [("--since", since), ("--until", until)] {
            if let value, parseDay(value) == nil {
                throw ValidationError("\(flag) \(value) is not a date; use YYYY-MM-DD, e.g. 2026-01-31.")
            }
        }
        if let width, !(LineChart.minimumWidth...1000).contains(width) {
            throw ValidationError("--width must be between \(LineChart.minimumWidth) and 1000 columns (got \(width)).")
        }
        guard (LineChart.minimumHeight...200).contains(height) else {
            throw ValidationError("--height must be between \(LineChart.minimumHeight) and 200 rows (got \(height)).")
        }
    }

    func run(in context: CLIContext) async throws {
        let db = try context.db()
        let e = try db.existingExercise(exercise.joined(separator: " "))
        let offset = context.environment.utcOffset(context.environment.now())
        func start(of text: String?, plusDays: Int64) -> Int64? {
            guard let text, let d = parseDay(text) else { return nil }
            return epochMillis(year: d.year, month: d.month, day: d.day, utcOffsetSeconds: offset) + plusDays * 86_400_000
        }
        let points = try db.progression(exerciseID: e.id, metric: metric, since: start(of: since, plusDays: 0),
                                        until: start(of: until, plusDays: 1))
        let unit = context.settings.defaultUnit
        let inUnit = { (kg: Double) in unit == .kg ? kg : kg / WeightUnit.kilogramsPerPound }

        if output.json {
            context.printJSON(.object([
                ("exercise_id", .string(e.id.key)),
                ("exercise", .string(e.name)),
                ("metric", .string(metric.rawValue)),
                ("unit", .string(unit.rawValue)),
                ("e1rm_formula", .string(context.settings.e1rmFormula.rawValue)),
                ("points", .array(points.map { p in
                    .object([
                        ("workout_id", .string(p.workoutID.key)),
                        ("date", .string(LineChart.dayLabel(LineChart.day(millis: p.startedAt, utcOffsetSeconds: p.utcOffsetSeconds)))),
                        ("started_at", .time(p.startedAt, p.utcOffsetSeconds)),
                        ("value", .double(inUnit(p.value))),
                        ("sets", .int(p.sets)),
                    ])
                })),
            ]))
            return
        }

        var range = ""
        if since != nil || until != nil { range = " between \(since ?? "the start") and \(until ?? "today")" }
        guard !points.isEmpty else {
            let what = metric == .volume ? "with a weight and reps" : "with a weight"
            context.print("No working sets of \(e.name) \(what)\(range), so there is nothing to chart. Warm-ups never count; timed and distance sets have no load.")
            return
        }
        let columns = width ?? terminalColumns()
        let style = Style.stdout
        let format = { (v: Double) in Render.number(v) + unit.rawValue }
        let series = points.map { ChartPoint(day: LineChart.day(millis: $0.startedAt, utcOffsetSeconds: $0.utcOffsetSeconds), value: inUnit($0.value)) }
        let first = series.first!, last = series.last!
        let best = series.max { $0.value < $1.value }!

        let count = "\(points.count) workout\(points.count == 1 ? "" : "s")"
        let span = first.day == last.day ? LineChart.dayLabel(first.day) : "\(LineChart.dayLabel(first.day)) to \(LineChart.dayLabel(last.day))"
        context.print(style.bold(fit("\(e.name) · \(metric.label) per workout (\(unit.rawValue)) · \(count), \(span)", columns)))
        for line in LineChart.render(series, width: columns, height: height, formatValue: format) {
            context.print(line.spans.map { span in
                switch span.role {
                case .axis, .label: style.dim(span.text)
                case .plot: style.plot(span.text)
                }
            }.joined())
        }
        var summary = ["first \(format(first.value))", "best \(format(best.value)) on \(LineChart.dayLabel(best.day))", "latest \(format(last.value))"]
        if series.count == 1 { summary = ["\(format(first.value)) on \(LineChart.dayLabel(first.day))"] }
        let plain = fit(summary.joined(separator: " · "), columns)
        // Highlight the best value only when the line was not shortened.
        if plain == summary.joined(separator: " · "), series.count > 1 {
            context.print(summary[0] + style.dim(" · ") + style.record(summary[1]) + style.dim(" · ") + summary[2])
        } else {
            context.print(plain)
        }
    }
}

/// `text` cut to `width` characters with an ellipsis.
func fit(_ text: String, _ width: Int) -> String {
    text.count <= width ? text : String(text.prefix(max(0, width - 1))) + "…"
}

/// The width of the terminal on standard output, else `$COLUMNS`, else 80; at least the
/// chart's minimum.
func terminalColumns(environment: [String: String] = ProcessInfo.processInfo.environment) -> Int {
    var columns = 0
    if isatty(STDOUT_FILENO) == 1 {
        var size = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0 { columns = Int(size.ws_col) }
    }
    if columns <= 0, let text = environment["COLUMNS"], let n = Int(text), n > 0 { columns = n }
    if columns <= 0 { columns = 80 }
    return max(LineChart.minimumWidth, columns)
}

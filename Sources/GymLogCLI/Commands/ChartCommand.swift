import ArgumentParser
import Foundation
import GymLogCore
import GymLogStore

extension ChartMetric: ExpressibleByArgument {}

struct ChartCommand: ExerciseArgumentCommand {
    static let configuration = CommandConfiguration(
        commandName: "chart",
        abstract: "Chart an exercise's progression in the terminal: e1RM, weight, volume, time or pace per workout.",
        discussion: """
          gymlog chart bench
              best e1RM of each workout
          gymlog chart pullup
              added weight (or reps) per workout
          gymlog chart run
              best pace of each workout
          gymlog chart squat --metric weight --since 12w
          gymlog chart deadlift --metric volume --width 120
          gymlog chart bench --json
              the series, for scripts
          gymlog chart bw
              your bodyweight log (`gymlog bw 82.5`)

        One point per workout; warm-ups never count. Without --metric the chart \
        shows the first metric with data for the exercise's kind: e1RM, then \
        heaviest weight, for weights; added weight, then reps, for bodyweight; \
        pace, then time, for distance; time for timed sets. Loads are in your \
        default unit, paces per km (per mile with unit = "lb"); the x axis shows \
        local days. --since and --until take YYYY-MM-DD, today, yesterday, or an \
        age like 30d, 12w, 6m or 1y. The chart fits the terminal (or $COLUMNS, or \
        80 columns when piped); a long history is bucketed so each column shows \
        the range it covers.
        """
    )
    @OptionGroup var global: GlobalOptions
    @Argument(help: "An exercise name, alias or unambiguous prefix.", completion: .custom(exerciseCompletions)) var exercise: [String]
    @Option(help: "e1rm, weight, volume, reps, time, distance or pace (default: the first with data for the exercise).")
    var metric: ChartMetric?
    @OptionGroup var range: DayRange
    @Option(help: ArgumentHelp("Columns to fill (default: the terminal's width).", valueName: "columns")) var width: Int?
    @Option(help: ArgumentHelp("Rows of plot, not counting the axes.", valueName: "rows")) var height: Int = 12
    @OptionGroup var output: JSONFlag

    func validate() throws {
        if let width, !(LineChart.minimumWidth...1000).contains(width) {
            throw ValidationError("--width must be between \(LineChart.minimumWidth) and 1000 columns (got \(width)).")
        }
        guard (LineChart.minimumHeight...200).contains(height) else {
            throw ValidationError("--height must be between \(LineChart.minimumHeight) and 200 rows (got \(height)).")
        }
    }

    func run(in context: CLIContext) async throws {
        let db = try context.db()
        let name = exercise.joined(separator: " ")
        let now = context.environment.now()
        let offset = context.environment.utcOffset(now)
        let (since, until) = try range.bounds(now: now, utcOffsetSeconds: offset)
        if ["bw", "bodyweight"].contains(name.lowercased()) {
            // The bodyweight log: one point a day, the day's last entry.
            var byDay: [Int64: BodyweightEntry] = [:]
            for e in try db.bodyweights(since: since, until: until) {
                let day = LineChart.day(millis: e.measuredAt, utcOffsetSeconds: e.utcOffsetSeconds)
                if byDay[day] == nil { byDay[day] = e }
            }
            let points = byDay.values.sorted { $0.measuredAt < $1.measuredAt }.map {
                ProgressPoint(workoutID: $0.id, startedAt: $0.measuredAt, utcOffsetSeconds: $0.utcOffsetSeconds, value: $0.weight.kilograms, sets: 1)
            }
            try show(name: "Bodyweight", id: nil, label: "weight", per: "day", shown: .weight, points: points, now: now, offset: offset,
                     empty: "No bodyweight\(try span(now: now, offset: offset)) to chart; record it with `gymlog bw \(context.settings.defaultUnit.hintBodyweight)`.", context: context)
            return
        }
        let e = try db.existingExercise(name)
        // The metric asked for, else the first of the exercise's kind that has data.
        var shown = metric ?? ChartMetric.preferred(for: e.kind)[0]
        var points: [ProgressPoint] = []
        for candidate in metric.map({ [$0] }) ?? ChartMetric.preferred(for: e.kind) {
            points = try db.progression(exerciseID: e.id, metric: candidate, since: since, until: until)
            if !points.isEmpty { shown = candidate; break }
        }
        let span = try span(now: now, offset: offset)
        let empty = metric.map { "No working sets of \(e.name) \(Self.needs($0))\(span), so there is no \($0.label) to chart. Warm-ups never count; try `\(shellCommand(["gymlog", "chart", e.name]))` for the metric that has data." }
            ?? "No working sets of \(e.name)\(span), so there is nothing to chart. Warm-ups never count."
        // A bodyweight exercise's weight is what was added to the body.
        let label = e.kind == .bodyweight && shown == .weight ? "heaviest added weight" : shown.label
        try show(name: e.name, id: e.id.key, label: label, per: "workout", shown: shown, points: points, now: now, offset: offset,
                 empty: empty, context: context)
    }

    /// ` between 2026-01-01 and today` when --since or --until narrowed the chart.
    private func span(now: Int64, offset: Int) throws -> String {
        guard range.since != nil || range.until != nil else { return "" }
        let days = try range.days(today: LineChart.day(millis: now, utcOffsetSeconds: offset))
        return " between \(days.since.map(LineChart.dayLabel) ?? "the start") and \(days.until.map(LineChart.dayLabel) ?? "today")"
    }

    /// Prints the chart (or its JSON, or `empty` with no points) of one series.
    private func show(name: String, id: String?, label: String, per: String, shown: ChartMetric, points: [ProgressPoint],
                      now: Int64, offset: Int, empty: String, context: CLIContext) throws {
        let scale = Render.chartScale(shown, context.settings)
        if output.json {
            context.printJSON(.object([
                ("exercise_id", .string(id)),
                ("exercise", .string(name)),
                ("metric", .string(id == nil ? "bodyweight" : shown.rawValue)),
                ("unit", .string(scale.unit)),
                ("e1rm_formula", .string(context.settings.e1rmFormula.rawValue)),
                ("points", .array(points.map { p in
                    .object([
                        (id == nil ? "id" : "workout_id", .string(p.workoutID.key)),
                        ("date", .string(LineChart.dayLabel(LineChart.day(millis: p.startedAt, utcOffsetSeconds: p.utcOffsetSeconds)))),
                        (id == nil ? "measured_at" : "started_at", .time(p.startedAt, p.utcOffsetSeconds)),
                        ("value", .double(scale.convert(p.value))),
                    ] + (id == nil ? [] : [("sets", .int(p.sets))]))
                })),
            ]))
            return
        }
        guard !points.isEmpty else { context.print(empty); return }
        let columns = width ?? Self.terminalColumns()
        let style = Style.stdout
        let series = points.map { ChartPoint(day: LineChart.day(millis: $0.startedAt, utcOffsetSeconds: $0.utcOffsetSeconds), value: scale.convert($0.value)) }
        let first = series.first!, last = series.last!
        let best = (shown.lowerIsBetter ? series.min { $0.value < $1.value } : series.max { $0.value < $1.value })!
        let count = "\(points.count) \(per)\(points.count == 1 ? "" : "s")"
        let days = first.day == last.day ? LineChart.dayLabel(first.day) : "\(LineChart.dayLabel(first.day)) to \(LineChart.dayLabel(last.day))"
        let title = LineChart.fit([
            LineChart.Item(name, short: fit(name, columns), priority: 0),
            LineChart.Item("\(label) per \(per) (\(scale.title))", short: "\(label) (\(scale.title))", priority: 1),
            LineChart.Item("\(count), \(days)", short: count, priority: 2),
        ], width: columns)
        context.print(style.bold(title.map(\.text).joined(separator: " · ")))
        for line in LineChart.render(series, width: columns, height: height, formatValue: scale.format) {
            context.print(line.spans.map { span in
                switch span.role {
                case .axis, .label: style.dim(span.text)
                case .plot: style.plot(span.text)
                }
            }.joined())
        }
        if id == nil {
            let lowest = series.min { $0.value < $1.value }!
            context.print(Self.bodyweightSummary(first: first, lowest: lowest, highest: best, last: last, single: series.count == 1,
                                                 format: scale.format, width: columns, style: style))
            return
        }
        context.print(Self.summary(first: first, best: best, last: last, single: series.count == 1, format: scale.format,
                                   width: columns, style: style))
    }

    /// The line under a bodyweight chart: no value is a "best" there, so the latest matters
    /// most, then the range it moved in.
    static func bodyweightSummary(first: ChartPoint, lowest: ChartPoint, highest: ChartPoint, last: ChartPoint, single: Bool,
                                  format: (Double) -> String, width: Int, style: Style) -> String {
        if single { return summary(first: first, best: first, last: last, single: true, format: format, width: width, style: style) }
        let items = [
            LineChart.Item("first \(format(first.value))", priority: 2),
            LineChart.Item("lowest \(format(lowest.value)) on \(LineChart.dayLabel(lowest.day))", short: "lowest \(format(lowest.value))", priority: 1),
            LineChart.Item("highest \(format(highest.value)) on \(LineChart.dayLabel(highest.day))", short: "highest \(format(highest.value))", priority: 1),
            LineChart.Item("latest \(format(last.value))", priority: 0),
        ]
        return LineChart.fit(items, width: width).map(\.text).joined(separator: style.dim(" · "))
    }

    /// The line under the chart: first, best and latest values, whole items only at any
    /// width (the best matters most, then the latest); the best stands out on a terminal.
    static func summary(first: ChartPoint, best: ChartPoint, last: ChartPoint, single: Bool, format: (Double) -> String,
                        width: Int, style: Style) -> String {
        if single {
            let kept = LineChart.fit([LineChart.Item("\(format(first.value)) on \(LineChart.dayLabel(first.day))", short: format(first.value), priority: 0)], width: width)
            return kept.map(\.text).joined()
        }
        let items = [
            LineChart.Item("first \(format(first.value))", priority: 2),
            LineChart.Item("best \(format(best.value)) on \(LineChart.dayLabel(best.day))", short: "best \(format(best.value))", priority: 0),
            LineChart.Item("latest \(format(last.value))", priority: 1),
        ]
        return LineChart.fit(items, width: width).map { $0.index == 1 ? style.record($0.text) : $0.text }.joined(separator: style.dim(" · "))
    }

    /// What a set needs to count for a metric, for the "nothing to chart" message.
    static func needs(_ metric: ChartMetric) -> String {
        switch metric {
        case .e1rm: "with a weight and 1-12 reps"
        case .weight: "with a weight"
        case .volume: "with a weight and reps"
        case .reps: "with reps"
        case .time: "with a time"
        case .distance: "with a distance"
        case .pace: "with a distance and a time"
        }
    }

    /// The width of the terminal on standard output, else `$COLUMNS`, else 80; at least the
    /// chart's minimum.
    static func terminalColumns(environment: [String: String] = ProcessInfo.processInfo.environment) -> Int {
        var columns = isatty(STDOUT_FILENO) == 1 ? Render.terminalSize() ?? 0 : 0
        if columns <= 0, let text = environment["COLUMNS"], let n = Int(text), n > 0 { columns = n }
        if columns <= 0 { columns = 80 }
        return max(LineChart.minimumWidth, columns)
    }
}

/// `text` cut to `width` characters with an ellipsis (names only: numbers are never cut).
func fit(_ text: String, _ width: Int) -> String {
    text.count <= width ? text : String(text.prefix(max(0, width - 1))) + "…"
}

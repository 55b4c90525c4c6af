import Foundation
import GymLogCore
import GymLogStore

/// How sets, records and PR messages are shown.
///
/// Every computed value (records, e1RM, volume, pace) is shown in the configured unit, and
/// this is the one place that converts; a set itself always shows exactly as typed.
extension Render {
    /// A load held in kilograms, in the configured unit: `102.1lb`.
    static func load(kilograms: Double, _ settings: Settings) -> String {
        number(settings.defaultUnit.fromKilograms(kilograms)) + settings.defaultUnit.rawValue
    }

    /// A load held in kilograms as a plain number in the configured unit (JSON, chart axes).
    static func loadValue(kilograms: Double, _ settings: Settings) -> Double {
        settings.defaultUnit.fromKilograms(kilograms)
    }

    /// The distance unit paces are shown per: miles for a lifter who weighs in pounds, else kilometres.
    static func paceUnit(_ settings: Settings) -> DistanceUnit { settings.defaultUnit == .lb ? .mi : .km }

    /// A distance held in metres, for a value that is not a set's own (a set shows its
    /// distance as typed): in `unit` when the line shows a set's distance in it (`was 5km`
    /// beside `5.07km`, one unit on a line), else in the lifter's system: `1.88mi` for a
    /// lifter who weighs in pounds, `3022.7m`, `5km` otherwise.
    static func distance(meters: Double, _ settings: Settings, in unit: DistanceUnit? = nil) -> String {
        let unit = unit ?? (paceUnit(settings) == .mi ? .mi : .m)
        guard unit == .mi || unit == .km || unit == .yd else { return formatMeters(meters) }
        // To the hundredth, written as a typed number is (`Fixed`: `3.11`, `5`).
        guard let value = Fixed(roundingWithinRange: (meters / unit.metersPerUnit * 100).rounded() / 100) else { return formatMeters(meters) }
        return "\(value)\(unit.rawValue)"
    }

    /// A pace held in seconds per kilometre, per the configured distance unit: `4:52/km`.
    static func pace(secondsPerKilometre: Double, _ settings: Settings) -> String {
        let unit = paceUnit(settings)
        return formatPace(secondsPerUnit: paceValue(secondsPerKilometre: secondsPerKilometre, settings)) + "/" + unit.rawValue
    }

    /// A pace held in seconds per kilometre as seconds per the configured distance unit.
    static func paceValue(secondsPerKilometre: Double, _ settings: Settings) -> Double {
        secondsPerKilometre * paceUnit(settings).metersPerUnit / 1000
    }

    /// How a chart metric's stored values are shown: converted for display, formatted for
    /// labels, the unit the title names and the unit of the converted numbers in JSON.
    struct ChartScale {
        var convert: (Double) -> Double
        var format: (Double) -> String
        var title: String
        var unit: String
    }

    static func chartScale(_ metric: ChartMetric, _ settings: Settings) -> ChartScale {
        switch metric.quantity {
        case .kilograms:
            let unit = settings.defaultUnit
            return ChartScale(convert: { unit.fromKilograms($0) }, format: { number($0) + unit.rawValue }, title: unit.rawValue, unit: unit.rawValue)
        case .count: return ChartScale(convert: { $0 }, format: { number($0) }, title: "reps", unit: "reps")
        case .seconds: return ChartScale(convert: { $0 }, format: { formatDuration(Int($0.rounded())) }, title: "time", unit: "s")
        case .meters: return ChartScale(convert: { $0 }, format: { formatMeters($0) }, title: "distance", unit: "m")
        case .secondsPerKilometre:
            let per = "/" + paceUnit(settings).rawValue
            return ChartScale(convert: { paceValue(secondsPerKilometre: $0, settings) }, format: { formatPace(secondsPerUnit: $0) + per },
                              title: "min" + per, unit: "s" + per)
        }
    }

    /// e1RM of a set in the configured unit, or nil when it has none.
    /// `bodyweight`: that day's, for a bodyweight set's e1RM on the total it moved.
    static func e1rm(_ set: LoggedSet, _ settings: Settings, bodyweight: Weight? = nil) -> String? {
        guard set.kind.countsForRecords, let reps = set.reps else { return nil }
        let kilograms = set.bodyweight ? totalKilograms(of: set.values, bodyweight: bodyweight) : set.weight?.kilograms
        guard let kilograms, let e = settings.e1rmFormula.estimate(weight: kilograms, reps: reps) else { return nil }
        return load(kilograms: e, settings)
    }

    /// How a record is named, from the set that holds it where it helps: `fastest 5km`,
    /// `heaviest added weight` for a bodyweight exercise.
    /// A fastest time over a distance the set does not show is named in the lifter's system.
    static func recordLabel(_ metric: RecordMetric, reps: Int, set: SetValues?, settings: Settings) -> String {
        switch metric {
        case .fastest:
            if let d = set?.distance, RecordMetric.distanceKey(meters: d.meters) == reps { return "fastest \(d)" }
            if let standard = RunningRecords.distances.first(where: { RecordMetric.distanceKey(meters: $0.meters) == reps }) {
                return "fastest \(standard.name)"
            }
            return "fastest " + distance(meters: Double(reps), settings)
        case .weight:
            if set?.bodyweight == true { return "heaviest added weight" }
        default: break
        }
        return metric.label(reps: reps)
    }

    /// A record value for display. Loads are in the configured unit; a load record set in that
    /// unit shows the number as typed (`102.25kg`, not a rounded `102.3kg`). `set` is the set
    /// holding the value, or nil for a previous value whose set is not at hand.
    /// `distanceUnit`: the unit of the set beside a value with no set (`was 5km`).
    static func recordValue(metric: RecordMetric, value: Double, set: SetValues?, settings: Settings, distanceUnit: DistanceUnit? = nil) -> String {
        switch metric {
        case .weight, .repMax:
            let sign = set?.bodyweight == true ? "+" : ""
            if let w = set?.weight, w.unit == settings.defaultUnit, abs(w.kilograms - value) < 1e-9 { return sign + w.description }
            return sign + load(kilograms: value, settings)
        case .e1rm, .setVolume, .sessionVolume: return load(kilograms: value, settings)
        case .reps: return "\(Int(value)) reps"
        case .duration, .fastest: return formatDuration(Int(value.rounded()))
        case .distance:
            if let d = set?.distance, abs(d.meters - value) < 1e-6 { return d.description }
            return distance(meters: value, settings, in: distanceUnit)
        case .pace: return pace(secondsPerKilometre: value, settings)
        }
    }

    /// The echo of one stored set: `Bench Press #2  100kg x 5 @8  e1RM 116.7kg  PR! 5RM (was 95kg)`.
    /// `style` highlights the PR (colour on a terminal only); with a `width` the line wraps
    /// between words, continuing under the set.
    static func stored(_ s: StoredSet, exercise: Exercise, settings: Settings, bodyweight: Weight? = nil, style: Style = .stdout,
                       width: Int? = Render.wrapColumns) -> String {
        let head = "  \(exercise.name) #\(s.order)  "
        var segments: [StyledText] = [StyledText(head), StyledText(s.set.summary)]
        if let e = e1rm(s.set, settings, bodyweight: bodyweight) { segments.append(StyledText("  e1RM \(e)", style.dim)) }
        // `5km in 25:00 · 5:00/km`: the pace belongs to the set, in the configured distance unit.
        if let p = secondsPerKilometre(of: s.set.values) { segments.append(StyledText(" · \(pace(secondsPerKilometre: p, settings))", style.dim)) }
        let beaten = s.records.filter { $0.previous != nil }
        if !beaten.isEmpty {
            let labels = beaten.map { b in
                let label = recordLabel(b.metric, reps: b.reps, set: s.set.values, settings: settings)
                let was = b.previous.map { " (was \(recordValue(metric: b.metric, value: $0, set: nil, settings: settings, distanceUnit: s.set.values.distance?.unit)))" } ?? ""
                // Pace is not in the set as typed, so its new value is named.
                let now = b.metric == .pace ? " " + recordValue(metric: .pace, value: b.value, set: nil, settings: settings) : ""
                return label + now + was
            }
            segments.append(StyledText("  PR! " + labels.joined(separator: ", "), style.record))
        }
        return wrap(segments, width: width, indent: TerminalText.width(head))
    }

    /// Where a session-volume record was set: the workout's day and its working sets of the exercise.
    struct SessionOrigin {
        var day: String
        var sets: Int
    }

    /// The records table; on a terminal the record values stand out and where they were set is dim.
    /// A session-volume record belongs to a workout, so `sessions` (by exercise id) names it.
    /// `bodyweight`: the bodyweight on the day of a set, so a bodyweight record's added load
    /// shows the total beside it (`10kg · 92.5kg with bodyweight`).
    /// Rows wider than `width` (the terminal's; nil when piped) wrap between words, the rep
    /// maxes between records, so a number is never split.
    static func records(_ list: [(exercise: Exercise, records: [RecordEntry])], sessions: [UUID: SessionOrigin] = [:],
                        settings: Settings, bodyweight: (LoggedSet) -> Weight? = { _ in nil }, style: Style = .plain,
                        width: Int? = nil) -> [String] {
        var lines: [String] = []
        for (exercise, records) in list {
            lines.append(style.bold(exercise.name))
            func value(_ r: RecordEntry) -> String { recordValue(metric: r.metric, value: r.value, set: r.set.values, settings: settings) }
            func origin(_ r: RecordEntry) -> String {
                let day = String(localDateTime(millis: r.set.performedAt, utcOffsetSeconds: r.set.utcOffsetSeconds).prefix(10))
                if r.metric == .sessionVolume {
                    let session = sessions[exercise.id]
                    let sets = session.map { "\($0.sets) set\($0.sets == 1 ? "" : "s")" } ?? "workout"
                    return "  (\(sets) on \(session?.day ?? day))"
                }
                return "  (\(r.set.summary), \(day))"
            }
            var rows: [(label: String, record: RecordEntry)] = []
            let running = RunningRecords.applies(toExerciseNamed: exercise.name)
            // A run's fastest times, each a distance and a time: those no human runs are glitches.
            let fastest = records.filter { r in
                r.metric == .fastest && (!running || r.set.values.distance.map { RunningRecords.humanlyPossible(meters: $0.meters, seconds: r.value) } ?? false)
            }
            for metric in [RecordMetric.weight, .e1rm, .setVolume, .sessionVolume, .reps, .duration, .distance, .pace] {
                guard var r = records.first(where: { $0.metric == metric }) else { continue }
                if running, metric == .pace, let p = secondsPerKilometre(of: r.set.values), let d = r.set.values.distance,
                   !RunningRecords.humanlyPossible(meters: d.meters, seconds: p * d.meters / 1000) {
                    // The best pace among the plausible fastest times (each distance's fastest
                    // set is its best pace), or none.
                    guard let best = fastest.compactMap({ f in secondsPerKilometre(of: f.set.values).map { (f, $0) } }).min(by: { $0.1 < $1.1 })
                    else { continue }
                    r.value = best.1
                    r.set = best.0.set
                }
                rows.append((recordLabel(metric, reps: 0, set: r.set.values, settings: settings), r))
            }
            if running {
                // The fastest time over each standard distance, from the sets that covered it.
                for standard in RunningRecords.distances {
                    let covering = fastest.filter { f in f.set.values.distance.map { RunningRecords.standardDistance(of: $0.meters)?.meters == standard.meters } ?? false }
                    if let best = covering.min(by: { $0.value < $1.value }) { rows.append(("fastest \(standard.name)", best)) }
                }
            } else {
                // One row per distance logged: a standard distance's record that a longer set
                // holds (a 5.07 km row is a 5 km too) is that set's own row again.
                for r in fastest.sorted(by: { $0.reps < $1.reps })
                where r.set.values.distance.map({ RecordMetric.distanceKey(meters: $0.meters) == r.reps }) ?? true {
                    rows.append((recordLabel(.fastest, reps: r.reps, set: r.set.values, settings: settings), r))
                }
            }
            // Labels are never cut: the column is as wide as the longest (`heaviest added weight`).
            let labelWidth = max(20, TerminalText.columns(rows.map(\.label)) + 1)
            func label(_ text: String) -> String { "  " + TerminalText.pad(text, to: labelWidth) }
            for (text, r) in rows {
                var segments = [StyledText(label(text)), StyledText(value(r), style.record)]
                if let kg = totalKilograms(of: r.set.values, bodyweight: bodyweight(r.set)), r.metric == .weight {
                    segments.append(StyledText(" · \(load(kilograms: kg, settings)) with bodyweight", style.dim))
                }
                segments.append(StyledText(origin(r), style.dim))
                lines.append(wrap(segments, width: width, indent: TerminalText.width(label(text))))
            }
            // A rep max is the best at exactly that many reps (the README says so): a heavier
            // set of more reps is its own rep max, not carried down to fewer.
            let repMaxes = records.filter { $0.metric == .repMax }.sorted { $0.reps < $1.reps }
            if !repMaxes.isEmpty {
                let items = repMaxes.map { (plain: "\($0.reps)RM \(value($0))", styled: "\($0.reps)RM " + style.record(value($0))) }
                lines.append(contentsOf: wrapItems(items, separator: " · ", style: style, width: width, first: label("exact-rep maxes")))
            }
        }
        return lines
    }
}

/// A run of text and how to colour it.
struct StyledText {
    var text: String
    var style: (String) -> String
    init(_ text: String, _ style: @escaping (String) -> String = { $0 }) { self.text = text; self.style = style }
}

extension Render {
    /// The width PR lines wrap at: the terminal's (or `$COLUMNS` on a terminal that does not
    /// say); nil when standard output is piped, so scripts get one line per set. Read at each
    /// use, so a REPL follows a resized window.
    static var wrapColumns: Int? {
        // Asked for every line printed: the environment is read only when the terminal does not
        // say its width (building `ProcessInfo`'s whole dictionary was a sixth of a REPL line).
        wrapWidth(isTerminal: isatty(STDOUT_FILENO) == 1, terminal: terminalSize(), columns: getenv("COLUMNS").map { String(cString: $0) })
    }

    /// The same for standard error: errors wrap at the width of the terminal they go to.
    static var errorColumns: Int? {
        wrapWidth(isTerminal: isatty(STDERR_FILENO) == 1, terminal: terminalSize(STDERR_FILENO), columns: getenv("COLUMNS").map { String(cString: $0) })
    }

    /// The rule above as a pure function: `columns` is `COLUMNS` from the environment.
    static func wrapWidth(isTerminal: Bool, terminal: Int?, columns: @autoclosure () -> String?) -> Int? {
        guard isTerminal else { return nil }
        if let terminal, terminal > 0 { return terminal }
        if let text = columns(), let n = Int(text), n > 0 { return n }
        return nil
    }

    /// Joins `segments` and wraps them between words at `width` columns; continuation lines
    /// start `indent` columns in. A word longer than a line is never cut: it overflows alone.
    static func wrap(_ segments: [StyledText], width: Int?, indent: Int) -> String {
        guard let width, segments.reduce(0, { $0 + TerminalText.width($1.text) }) > width else {
            // Leading spaces stay outside the colour, as the wrapped form has them.
            return segments.map { s in
                let body = s.text.drop { $0 == " " }
                return String(repeating: " ", count: s.text.count - body.count) + s.style(String(body))
            }.joined()
        }
        let indent = min(indent, max(0, width / 2))
        var lines: [String] = []
        var line = "", column = 0, wordsOnLine = 0, gap = 0
        for segment in segments {
            var word = ""
            func place() {
                guard !word.isEmpty else { return }
                if wordsOnLine > 0, column + gap + TerminalText.width(word) > width {
                    lines.append(line)
                    line = String(repeating: " ", count: indent); column = indent; wordsOnLine = 0; gap = 0
                }
                line += String(repeating: " ", count: gap) + segment.style(word)
                column += gap + TerminalText.width(word)
                wordsOnLine += 1
                gap = 0; word = ""
            }
            for ch in segment.text {
                if ch == " " { place(); gap += 1 } else { word.append(ch) }
            }
            place()
        }
        lines.append(line)
        return lines.joined(separator: "\n")
    }

    /// `lines` fitted to `width` (the terminal's; nil when piped keeps them whole): a line too
    /// wide breaks between words, going on under its own first word, so no number or word is
    /// split at the edge of a narrow terminal.
    static func wrapped(_ lines: [String], width: Int?) -> [String] {
        lines.map { line in
            wrap([StyledText(line)], width: width, indent: TerminalText.leadingBlanks(line))
        }
    }

    /// `items` after `first`, joined by `separator` and broken between items (never inside
    /// one) at `width` columns; continuation lines start under the first item.
    static func wrapItems(_ items: [(plain: String, styled: String)], separator: String, style: Style, width: Int?, first: String) -> [String] {
        let indent = String(repeating: " ", count: TerminalText.width(first))
        // The separator ends a line that breaks (` ·`), so the list reads as going on.
        let mark = String(separator.reversed().drop { $0 == " " }.reversed())
        var lines: [String] = [], line = first, column = TerminalText.width(first), onLine = 0
        for (index, item) in items.enumerated() {
            let needed = (onLine > 0 ? separator.count : 0) + TerminalText.width(item.plain)
            // An item that is not the last keeps room after it for the mark: a line full to the
            // edge would push the mark alone onto a line of its own.
            let after = index == items.count - 1 ? 0 : TerminalText.width(mark)
            if let width, onLine > 0, column + needed + after > width {
                lines.append(line + style.dim(mark))
                line = indent; column = indent.count; onLine = 0
            }
            if onLine > 0 { line += style.dim(separator); column += separator.count }
            line += item.styled; column += TerminalText.width(item.plain); onLine += 1
        }
        return lines + [line]
    }

    /// Columns of the terminal on `descriptor` (standard output), if it is one that says.
    static func terminalSize(_ descriptor: Int32 = STDOUT_FILENO) -> Int? {
        var size = winsize()
        guard ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }
}

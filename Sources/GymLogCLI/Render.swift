import Foundation
import GymLogCore
import GymLogStore

/// Text rendering shared by the REPL and the one-shot commands.
enum Render {
    /// A number with at most one decimal (`116.7`, `100`).
    static func number(_ value: Double) -> String {
        let tenths = (value * 10).rounded()
        // Written out rather than `String(format:)`, whose variadic arguments cost a one-shot
        // `gymlog log` a twentieth of its instructions (runtime conformance lookups, issue 31).
        guard tenths.isFinite, abs(tenths) < 1e15 else {
            let rounded = tenths / 10
            return rounded == rounded.rounded() ? String(Int64(rounded)) : String(format: "%.1f", rounded)
        }
        let whole = Int64(tenths)
        return whole % 10 == 0 ? String(whole / 10) : (whole < 0 ? "-" : "") + "\(abs(whole) / 10).\(abs(whole) % 10)"
    }

    /// `past`: the line was logged at an earlier time (`--at`), so a workout it started is dated.
    /// `bodyweight`: that day's, for bodyweight sets' e1RM.
    static func logResult(_ r: LogResult, settings: Settings, past: Bool = false, bodyweight: Weight? = nil, style: Style = .stdout) -> [String] {
        var lines: [String] = []
        if r.startedWorkout {
            let w = r.workout
            lines.append(past ? "Started a past workout on \(day(w.startedAt, w.utcOffsetSeconds))."
                              : "Started a workout at \(clock(w.startedAt, w.utcOffsetSeconds)).")
        }
        if r.createdExercise {
            lines.append("New exercise '\(r.exercise.name)' (\(r.exercise.kind.rawValue)). Meant another? `undo` removes it and this line.")
        }
        lines += r.sets.map { stored($0, exercise: r.exercise, settings: settings, bodyweight: bodyweight, style: style) }
        return lines
    }

    static func clock(_ millis: Int64, _ offset: Int) -> String {
        String(localDateTime(millis: millis, utcOffsetSeconds: offset).dropFirst(11).prefix(5))
    }

    static func day(_ millis: Int64, _ offset: Int) -> String {
        let weekday = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]
        let days = Int((millis / 1000 + Int64(offset)).floorDiv(86_400))
        return weekday[((days % 7) + 7) % 7] + " " + String(localDateTime(millis: millis, utcOffsetSeconds: offset).prefix(16))
    }

    /// `Tue 2026-11-24 18:02  Push day  (52 min)  17 sets  ref 2026-11-24` (`12 working sets +
    /// 5 warm-ups` when some are warm-ups); "(in progress)" while
    /// `status` says the workout is open, the same rule as the REPL prompt's; `reference` is
    /// what `--workout` takes.
    static func workoutHeader(_ w: Workout, sets: SetCount, setSeconds: [Int?], lastActivity: Int64?, status: WorkoutStatus,
                              reference: String? = nil, style: Style = .plain) -> String {
        var text = style.bold(day(w.startedAt, w.utcOffsetSeconds))
        if let name = w.name { text += "  " + style.bold(name) }
        var details = ""
        if let end = status.end(of: w, lastActivity: lastActivity) {
            details += "  (\(WorkoutLength.text(WorkoutLength.millis(start: w.startedAt, end: end, setSeconds: setSeconds))))"
        } else {
            details += "  (in progress)"
        }
        details += "  \(sets)"
        if let reference { details += "  ref \(reference)" }
        text += style.dim(details)
        if let note = w.note, !note.isEmpty { text += "\n  " + style.dim("note:") + " \(note)" }
        return text
    }

    static func workoutHeader(_ d: WorkoutDetail, status: WorkoutStatus, style: Style) -> String {
        workoutHeader(d.workout, sets: SetCount(d.sets.map(\.set.values)), setSeconds: d.sets.map(\.set.values.durationSeconds), lastActivity: d.sets.map(\.set.performedAt).max(), status: status,
                      reference: d.reference, style: style)
    }

    /// A workout's sets numbered as `edit N` and `delete N` expect; a superset's exercises are
    /// marked A1, A2 (B1, B2 for the next superset), as trainers write them.
    static func numberedWorkout(_ d: WorkoutDetail, status: WorkoutStatus, style: Style = .plain) -> [String] {
        var lines = [workoutHeader(d, status: status, style: style)]
        let marks = supersetMarks(d.sets.map { ($0.set.supersetID, $0.exercise.id) })
        let names = d.sets.map { s in marks[Key(s.set.supersetID, s.exercise.id)].map { "\($0) \(s.exercise.name)" } ?? s.exercise.name }
        let width = TerminalText.columns(names)
        for (i, s) in d.sets.enumerated() {
            let n = String(i + 1)
            lines.append(style.dim(String(repeating: " ", count: max(0, 3 - n.count)) + n) + "  "
                         + TerminalText.pad(names[i], to: width) + "  " + s.set.summary)
        }
        return lines
    }

    /// A superset's exercise (or a planned superset's line), for its mark.
    struct Key<Group: Hashable, Member: Hashable>: Hashable {
        var superset: Group?, exercise: Member
        init(_ superset: Group?, _ exercise: Member) { self.superset = superset; self.exercise = exercise }
    }

    /// `A1`, `A2`, `B1`...: a letter per superset in the order they were first done (or
    /// planned), a number per exercise within it; sets done on their own have none.
    static func supersetMarks<Group: Hashable, Member: Hashable>(_ sets: [(superset: Group?, exercise: Member)])
        -> [Key<Group, Member>: String] {
        var letters: [Group: Int] = [:], marks: [Key<Group, Member>: String] = [:], counts: [Group: Int] = [:]
        for s in sets {
            guard let group = s.superset else { continue }
            let letter = letters[group] ?? { letters[group] = letters.count; return letters.count - 1 }()
            let key = Key(group, s.exercise)
            guard marks[key] == nil else { continue }
            counts[group, default: 0] += 1
            let scalar = UnicodeScalar(UInt8(65 + letter % 26))
            marks[key] = "\(Character(scalar))\(counts[group]!)"
        }
        return marks
    }

    /// A workout with sets grouped by exercise, for `history`: equal sets in a row collapse
    /// (`60kg x 10 x3`), and set notes follow on lines of their own, numbered by the set's
    /// place in the exercise, so the list of sets stays easy to scan.
    /// `width`: the terminal's columns; an exercise's sets wrap between sets, under its name.
    static func groupedWorkout(_ d: WorkoutDetail, status: WorkoutStatus, style: Style = .plain, width: Int? = nil) -> [String] {
        var lines = [workoutHeader(d, status: status, style: style)]
        var order: [UUID] = []
        var byExercise: [UUID: (Exercise, [SetValues])] = [:]
        var mark: [UUID: String] = [:]
        let marks = supersetMarks(d.sets.map { ($0.set.supersetID, $0.exercise.id) })
        for s in d.sets {
            if byExercise[s.exercise.id] == nil { order.append(s.exercise.id); byExercise[s.exercise.id] = (s.exercise, []) }
            byExercise[s.exercise.id]!.1.append(s.set.values)
            if mark[s.exercise.id] == nil, let m = marks[Key(s.set.supersetID, s.exercise.id)] { mark[s.exercise.id] = m + " " }
        }
        for id in order {
            let (e, sets) = byExercise[id]!
            let items = collapsedRuns(sets.map { v in var v = v; v.note = nil; return v.summary })
            lines += wrapList("  \(mark[id] ?? "")\(e.name): ", items, width: width, indent: 4)
            for (i, v) in sets.enumerated() {
                if let note = v.note, !note.isEmpty { lines.append("      " + style.dim("# \(note)  (set \(i + 1))")) }
            }
        }
        return lines
    }

    /// `last time Thu 20 Nov: 100kg x 5, 5, 5 @8`: the working sets of an exercise in one
    /// earlier workout, warm-ups left out, the year shown when it is not this year's.
    static func lastTime(_ session: LastSession, now: Int64, utcOffsetSeconds: Int) -> String {
        let w = session.workout
        let date = shortDate(w.startedAt, w.utcOffsetSeconds, showYear: localDate(millis: now, utcOffsetSeconds: utcOffsetSeconds).prefix(4)
                             != localDate(millis: w.startedAt, utcOffsetSeconds: w.utcOffsetSeconds).prefix(4))
        return "last time \(date): " + compactSets(session.sets.map(\.values))
    }

    /// `Thu 20 Nov` (or `Thu 20 Nov 2025`).
    static func shortDate(_ millis: Int64, _ offset: Int, showYear: Bool) -> String {
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        let full = day(millis, offset)  // `Thu 2026-11-20 18:02`
        let weekday = full.prefix(3), date = full.dropFirst(4).prefix(10)
        let dayOfMonth = Int(date.suffix(2)) ?? 0, month = months[(Int(date.dropFirst(5).prefix(2)) ?? 1) - 1]
        return "\(weekday) \(dayOfMonth) \(month)" + (showYear ? " \(date.prefix(4))" : "")
    }

    /// Working sets in a line a lifter reads at a glance: consecutive sets at one load share
    /// it (`100kg x 5, 5, 4`), an RPE or RIR every one of them has is said once (`@8`, `rir2`),
    /// otherwise it follows its reps; drop and failure sets are marked; warm-ups are left out; sets
    /// without reps (times, distances) are listed whole.
    static func compactSets(_ sets: [SetValues]) -> String {
        var groups: [(load: String, sets: [SetValues])] = []
        for v in sets where v.kind != .warmup {
            var bare = v
            bare.note = nil; bare.rpe = nil; bare.rir = nil; bare.reps = nil; bare.kind = .working
            let load = v.reps == nil ? "" : bare.summary
            if v.reps != nil, let last = groups.last, last.load == load, last.sets.last?.reps != nil {
                groups[groups.count - 1].sets.append(v)
            } else {
                groups.append((load, [v]))
            }
        }
        return groups.map { group in
            guard !group.load.isEmpty else {
                return group.sets.map { v in var v = v; v.note = nil; return v.summary }.joined(separator: ", ")
            }
            let efforts = Set(group.sets.map(\.effort))
            let shared = efforts.count == 1 ? efforts.first! : nil
            let items = group.sets.map { v -> String in
                var item = "\(v.reps!)"
                if shared == nil, let effort = v.effort { item += " " + effort }
                if v.isMissedAttempt { item += " (missed)" } else if v.kind == .drop { item += " (drop)" }
                else if v.kind == .failure { item += " (failure)" }
                return item
            }
            let load = group.load.isEmpty ? "" : group.load + " x "
            return load + items.joined(separator: ", ") + (shared.map { " " + $0 } ?? "")
        }.joined(separator: "; ")
    }

    /// `60kg x 10 x3, 80kg x 5`: equal summaries in a row said once with their count
    /// (`history`'s sets, a plan's suggested sets).
    static func collapsed(_ summaries: [String]) -> String { collapsedRuns(summaries).joined(separator: ", ") }

    /// The items of `collapsed`, before they are joined.
    static func collapsedRuns(_ summaries: [String]) -> [String] {
        var runs: [(text: String, count: Int)] = []
        for s in summaries {
            if let last = runs.last, last.text == s { runs[runs.count - 1].count += 1 } else { runs.append((s, 1)) }
        }
        return runs.map { $0.count > 1 ? "\($0.text) x\($0.count)" : $0.text }
    }

    /// `prefix` then `items` joined by `separator` and a space, broken between items (never inside one, so a set
    /// reads whole) at `width` columns, continuation lines `indent` columns in; one line when
    /// `width` is nil (piped output).
    static func wrapList(_ prefix: String, _ items: [String], separator: String = ",", width: Int?, indent: Int) -> [String] {
        guard let width else { return [prefix + items.joined(separator: separator + " ")] }
        var lines: [String] = [], line = prefix
        for (i, item) in items.enumerated() {
            let piece = item + (i < items.count - 1 ? separator : "")
            let start = line == prefix || line.allSatisfy { $0 == " " }
            if !start, TerminalText.width(line) + 1 + TerminalText.width(piece) > width {
                lines.append(line)
                line = String(repeating: " ", count: indent) + piece
            } else {
                line += (start ? "" : " ") + piece
            }
        }
        lines.append(line)
        return lines
    }
}

extension Int64 {
    func floorDiv(_ d: Int64) -> Int64 { self >= 0 ? self / d : -((-self + d - 1) / d) }
}

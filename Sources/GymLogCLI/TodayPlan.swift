import Foundation
import GymLogCore
import GymLogStore

/// A routine as planned for one workout: each line with today's suggested sets (from the
/// exercise's history before the workout, by the line's rule) and what is done. The one place
/// `routine show`, `start ROUTINE`, `next`, `ok`, `skip`, `show`, `finish` and the prompt read
/// a plan from; computed when shown, never on the write path.
struct TodayPlan {
    struct Line {
        /// The routine line as parsed.
        var planned: PlannedExercise
        /// The exercise it names, nil while no set of it was ever logged.
        var exercise: Exercise?
        var suggestion: Suggestion
        /// The unit the plan shows and a bare `ok 135` means (`PlannedExercise.planUnit`).
        var unit: WeightUnit
        /// What the suggestion was computed from: this line's sessions, the exercise's, none.
        var basis: HistoryBasis = .none
        var last: LastSession? = nil
        /// The last working set done for this line in this workout: a planned set with no
        /// weight to suggest (no history) takes the weight just used.
        var lastDone: SetValues?
        /// The superset that set was logged in, if any: `ok` logs the next round of a
        /// planned superset into it, so `show` marks every round A1/A2.
        var lastDoneSuperset: UUID?
        /// The first working set done for this line in this workout: under it, a logged line
        /// shows this line's last time.
        var firstDone: UUID?

        /// The name to log it under: the exercise's own, else the routine's spelling.
        var name: String { exercise?.name ?? planned.exerciseName }
        /// The exercise's catalog link, read for the lines whose suggestion is shown.
        var link: ExerciseLink?
        /// What the line's exercise is done with, as its link or name says (plates only for a barbell).
        var equipment: Equipment? { Equipment.of(exerciseName: name, link: link) ?? Equipment(exerciseName: planned.exerciseName) }

        /// A suggested set of this line, a missing load taken from the set just done (a weight,
        /// or bodyweight with what was added: `ok bw` once, then `ok` repeats it). Straight sets
        /// (one load planned for all) take it too: after `ok 135lb` the next `ok` is 135 lb, the
        /// weight the lifter chose today (issue 48); a wave of loads (5/3/1) keeps its own.
        func filled(_ set: SuggestedSet) -> SuggestedSet {
            var set = set
            guard let done = lastDone, done.kind == .working || done.kind == .failure, done.weight != nil || done.bodyweight,
                  set.needsLoad || suggestion.sets.allSatisfy({ $0.load == set.load }) else { return set }
            set.weight = done.weight
            set.bodyweight = done.bodyweight
            return set
        }
    }

    var routine: StoredRoutine
    var parsed: GymLogCore.Routine
    var lines: [Line]
    var progress: PlanProgress
    /// The exercises this workout already holds warm-up sets of (a ramp logged with `warmup
    /// ... log`, or typed), so `next` stops offering the ramp.
    var warmedUp: Set<UUID> = []

    /// Which lines get today's suggestion and last time (each costs the exercise's history reads).
    enum Suggestions {
        /// Every line: the plan as `start`, `routine show`, `show` and `finish` print it.
        case all
        /// Only the next planned set's line: what `next`, `ok` and `skip` need.
        case next
        /// None: the prompt needs only the counts.
        case none
        /// One line: its last time, shown under its first set.
        case line(Int)
    }

    /// The plan of `routine` for `workout` (nil: a workout starting now).
    static func build(_ db: GymLogDatabase, settings: Settings, routine: StoredRoutine, workout: Workout?,
                      skipped: SkippedLines = SkippedLines(), now: Int64, suggestions: Suggestions = .all) throws -> TodayPlan {
        let parsed: GymLogCore.Routine
        switch RoutineParser.parse(routine.text, name: routine.name) {
        case .success(let r): parsed = r
        case .failure(let e):
            throw UserError("The routine '\(routine.name)' no longer reads (\(e.description)); fix it with `gymlog routine edit \(routine.name)`.")
        }
        var lines = parsed.lines.map { planned in
            Line(planned: planned, exercise: try? db.existingExercise(planned.exerciseName), suggestion: Suggestion(sets: [], reason: ""),
                 unit: planned.planUnit(routine.unit ?? settings.defaultUnit))
        }
        let keys = lines.map { (exercise: $0.exercise?.id.key ?? "new:" + nameKey($0.planned.exerciseName), sets: $0.planned.sets) }
        var working: [(set: LoggedSet, exercise: Exercise)] = []
        var warmedUp: Set<UUID> = []
        if let workout, let detail = try db.workoutDetail(workout.id) {
            warmedUp = Set(detail.sets.filter { $0.set.values.kind == .warmup }.map(\.exercise.id))
            working = detail.sets.filter { $0.set.values.kind != .warmup }
        }
        let progress = PlanProgress(lines: keys, doneSets: working.map { $0.exercise.id.key }, skipped: Set(skipped.lines.map { $0 - 1 }),
                                    doneWhenSkipped: Dictionary(uniqueKeysWithValues: skipped.doneWhenSkipped.compactMap { line, done in done.map { (line - 1, $0) } }),
                                    supersetStarts: parsed.supersetStarts)
        // A line's last set is its own: a 5x10 line never takes the 5/3/1 line's weight.
        for (set, line) in zip(working, progress.lineOfDoneSet) {
            guard let line else { continue }
            if lines[line].firstDone == nil { lines[line].firstDone = set.set.id }
            lines[line].lastDone = set.set.values
            lines[line].lastDoneSuperset = set.set.supersetID
        }
        let wanted: [Int] = switch suggestions {
        case .all: Array(lines.indices)
        case .next: progress.nextRound.map(\.line)
        case .none: []
        case .line(let i): lines.indices.contains(i) ? [i] : []
        }
        for i in wanted { lines[i].link = try lines[i].exercise.flatMap { try db.exerciseLink($0.id) } }
        let before = workout?.startedAt ?? now + 1
        let since: (lines: [String: Int64], saved: Int64?) = wanted.isEmpty ? ([:], nil) : try db.lineSince(routine.id)
        let rounding = PlateRounding(settings: settings)
        var routineSessions: [UUID: [PastSession]] = [:]
        // A line at a share of the training max (`squat 5x10 50%`, `30% of squat`) reads its
        // lift's 5/3/1 line's, so those are suggested first, wanted or not.
        let waves = lines.indices.filter { if case .fiveThreeOne = lines[$0].planned.rule { true } else { false } }
        let waveOfShare: [Int: Int] = Dictionary(uniqueKeysWithValues: lines.indices.compactMap { i in
            let planned = lines[i].planned
            guard planned.percentOfTrainingMax != nil, planned.ownTrainingMax == nil,
                  let wave = RoutineParser.waveLine(of: planned.shareOf ?? planned.exerciseName, in: parsed.lines) else { return nil }
            return (i, wave)
        })
        let read = Set(wanted.compactMap { waveOfShare[$0] })
        let order = waves.filter { wanted.contains($0) || read.contains($0) } + wanted.filter { !waves.contains($0) }
        var trainingMaxes: [Int: Weight] = [:]
        for i in order {
            let planned = lines[i].planned
            var own: [PastSession] = [], elsewhere: [PastSession]? = nil
            // Another line of the exercise in this routine says nothing about this one's weight.
            let plannedOnce = keys.filter { $0.exercise == keys[i].exercise }.count == 1
            if let exercise = lines[i].exercise {
                if routineSessions[exercise.id] == nil {
                    routineSessions[exercise.id] = try db.routineSessions(of: exercise.id, routine: routine.id, before: before, excluding: workout?.id)
                }
                own = LineHistory.sessions(ofLine: i, in: keys, from: routineSessions[exercise.id] ?? [])
                if own.isEmpty && plannedOnce { elsewhere = try db.pastSessions(of: exercise.id, before: before, excluding: workout?.id) }
            }
            let history = LineHistory.basis(for: planned, lineSessions: own, since: since.lines[planned.text] ?? since.saved,
                                            exerciseSessions: elsewhere)
            lines[i].suggestion = Progression.suggest(for: planned, history: history.sessions, unit: routine.unit ?? settings.defaultUnit,
                                                      rounding: rounding, trainingMax: waveOfShare[i].flatMap { trainingMaxes[$0] })
            lines[i].basis = planned.percentOfTrainingMax == nil ? history.basis : .none
            if let wave = lines[i].suggestion.wave { trainingMaxes[i] = wave.trainingMax }
            lines[i].last = try lines[i].exercise.flatMap { try db.lastSession(of: $0.id, before: before, excluding: workout?.id) }
            // Of a session of this routine, a line planned beside another of its exercise
            // (Boring But Big) shows its own sets as last time, not the other line's.
            if !plannedOnce, let last = lines[i].last, own.last?.startedAt == last.workout.startedAt {
                lines[i].last?.sets = LineHistory.sets(last.sets, ofLine: i, in: keys, kind: \.values.kind)
            }
        }
        return TodayPlan(routine: routine, parsed: parsed, lines: lines, progress: progress, warmedUp: warmedUp)
    }

    /// The plan of the open workout (or the past one the REPL is filling in), if it has one.
    static func current(_ context: CLIContext, suggestions: Suggestions = .all) throws -> (plan: TodayPlan, workout: Workout)? {
        let db = try context.db()
        guard let workout = try context.pastWorkout ?? db.openWorkout()?.workout,
              let (routine, skipped) = try db.plan(of: workout.id) else { return nil }
        return (try build(db, settings: context.settings, routine: routine, workout: workout, skipped: skipped,
                          now: context.environment.now(), suggestions: suggestions), workout)
    }

    /// `bench 1 more (102.5kg x 5 @8); ohp 3 (40kg x 5, 45kg x 5, 50kg x 5+)`: what is left.
    var undoneItems: [String] {
        progress.undone.map { u -> String in
            let line = lines[u.line]
            let rest = Self.sets(line.suggestion.sets.suffix(u.remaining).map(line.filled))
            let count = progress.done[u.line] > 0 ? "\(u.remaining) more" : "\(u.remaining) set\(u.remaining == 1 ? "" : "s")"
            return "\(line.name) \(count)" + (rest.isEmpty ? "" : " (\(rest))")
        }
    }

    /// `prefix` and the lines still to do, `; ` between them, broken between lines (never
    /// inside a set) on a terminal; nil when every planned set is done.
    func undoneLines(_ prefix: String) -> [String]? {
        let items = undoneItems
        return items.isEmpty ? nil : Render.wrapList(prefix, items, separator: ";", width: Render.wrapColumns, indent: TerminalText.width(prefix))
    }

    /// One planned set to do next: its line, the line's index and the suggested set.
    typealias NextSet = (line: Line, index: Int, set: SuggestedSet)

    /// The suggested sets `ok` logs next: one, or a set of each open line of a superset; empty
    /// when every set is done or the plan has no set to suggest.
    var nextRound: [NextSet] {
        var round: [NextSet] = []
        for n in progress.nextRound {
            let line = lines[n.line]
            guard n.set < line.suggestion.sets.count else { return [] }
            round.append((line, n.line, line.filled(line.suggestion.sets[n.set])))
        }
        return round
    }

    /// The superset a planned round joins: the one its lines' last sets share, so rounds
    /// done with `ok` stay one group; nil for a new one (or a single set).
    func superset(of round: [NextSet]) -> UUID? {
        let groups = Set(round.map(\.line.lastDoneSuperset))
        return round.count > 1 && groups.count == 1 ? groups.first! : nil
    }

    // MARK: Text

    /// `Push A: 3 exercises, 9 sets` and a block per line: today's sets, why, last time.
    /// A line's sets break between sets at `columns` (the terminal's; nil keeps each whole),
    /// going on under the first set.
    func lines(settings: Settings, now: Int64, utcOffset: Int, columns: Int? = nil, style: Style = .stdout) -> [String] {
        let total = progress.planned.reduce(0, +)
        var out = ["\(routine.name): \(lines.count) exercise\(lines.count == 1 ? "" : "s"), \(total) set\(total == 1 ? "" : "s")"
            + (routine.unit.map { $0 == settings.defaultUnit ? "" : " (written in \($0.rawValue): weights without a unit are \($0.rawValue))" } ?? "")]
        let names = markedNames
        let width = TerminalText.columns(names)
        for (i, line) in lines.enumerated() {
            let head = String(format: "%3d  ", i + 1) + TerminalText.pad(names[i], to: width) + "  "
            var sets = Render.collapsedRuns(line.suggestion.sets.map(\.summary))
            if sets.isEmpty { sets = [""] }
            if progress.skipped.contains(i) { sets[sets.count - 1] += "  " + style.dim("(skipped)") }
            else if progress.done[i] > 0 { sets[sets.count - 1] += "  " + style.dim("(\(min(progress.done[i], progress.planned[i]))/\(progress.planned[i]) done)") }
            out += Render.wrapList(head, sets, width: columns, indent: TerminalText.width(head))
            let indent = String(repeating: " ", count: 5)
            if !line.suggestion.reason.isEmpty { out.append(indent + style.dim(line.suggestion.reason)) }
            if let basis = Self.basisText(line.basis, now: now, utcOffset: utcOffset) { out.append(indent + style.dim(basis)) }
            if settings.showPlates, let plates = Self.plates(line.suggestion.sets.first, line.equipment, settings: settings) { out.append(indent + style.dim(plates)) }
            if let last = line.last { out.append(indent + style.dim(Render.lastTime(last, now: now, utcOffsetSeconds: utcOffset))) }
        }
        return out
    }

    /// Which sessions a line's plan counts from, in words: `counts 2 sessions of this line,
    /// from Mon 17 Nov (line saved Fri 14 Nov)`; nil when there is nothing to count from and
    /// nothing typed. Short, so it fits a narrow terminal on one line.
    static func basisText(_ basis: HistoryBasis, now: Int64, utcOffset: Int) -> String? {
        let thisYear = localDate(millis: now, utcOffsetSeconds: utcOffset).prefix(4)
        func when(_ millis: Int64) -> String {
            Render.shortDate(millis, utcOffset, showYear: localDate(millis: millis, utcOffsetSeconds: utcOffset).prefix(4) != thisYear)
        }
        switch basis {
        case .line(let count, let first, let since):
            let sessions = count == 1 ? "1 session" : "\(count) sessions"
            return "counts \(sessions) of this line, from \(when(first))" + (since.map { " (line saved \(when($0)))" } ?? "")
        case .exercise(let last):
            return "no session of this line yet: from the exercise's last, \(when(last))"
        case .typedStart(let since):
            // The reason already says the line starts from what it says; this says from when.
            return since.map { "counts sessions of this line from its saving, \(when($0))" }
        case .none:
            return nil
        }
    }

    /// Each line's exercise, a planned superset's marked `A1 curl`, `A2 pushdown` as `show`
    /// marks the sets done in one.
    var markedNames: [String] {
        let starts = parsed.supersetStarts
        let groups = starts.map { start in starts.filter { $0 == start }.count > 1 ? start : nil }
        let marks = Render.supersetMarks(groups.enumerated().map { (superset: $1, exercise: $0) })
        return lines.indices.map { i in marks[Render.Key(groups[i], i)].map { "\($0) \(lines[i].name)" } ?? lines[i].name }
    }

    /// `102.5kg x 5 x3`, `65kg x 5, 75kg x 5, 85kg x 5+`: equal sets in a row said once.
    static func sets(_ sets: [SuggestedSet]) -> String { Render.collapsed(sets.map(\.summary)) }

    /// `plates: 20kg bar + per side: 25 15 1.25` for a barbell load the plates make.
    static func plates(_ set: SuggestedSet?, _ equipment: Equipment?, settings: Settings) -> String? {
        guard equipment?.usesBarAndPlates ?? true, let set, !set.bodyweight, let w = set.weight,
              w.value >= settings.plates(w.unit, for: equipment).bar,
              let loading = PlateCalculator.loading(for: w.value, with: settings.plates(w.unit, for: equipment)) else { return nil }
        return "plates: " + PlateText.loading(loading, w.unit)
    }
}

/// A named, ordered list of planned exercises, written and exported as plain text
/// (`RoutineParser.parse`, `Routine.text`):
///
/// ```
/// # Push A
/// bench 3x5 @8 linear +2.5
/// incline db press 3x8-12 double +2
/// dip bw 3x8-12
/// ohp 5/3/1 tm 60
/// curl 3x10 & pushdown 3x12
/// ```
///
/// A line of parts joined by `&` is a superset: its exercises are done back to back, a set
/// of each per round.
public struct Routine: Equatable, Sendable {
    /// The routine's name as given (the `# Name` header or the name the user typed).
    public var name: String
    /// The planned exercises in the order they are done.
    public var lines: [PlannedExercise]
    /// Where each planned exercise was written, for errors about it (parsed text only; not
    /// part of what the routine plans, so two routines planning alike are equal).
    public var origins: [RoutineLineOrigin]

    /// A routine from its name and lines, and where they were written when read from text.
    public init(name: String, lines: [PlannedExercise], origins: [RoutineLineOrigin] = []) {
        self.name = name; self.lines = lines; self.origins = origins
    }

    public static func == (a: Routine, b: Routine) -> Bool { a.name == b.name && a.lines == b.lines }

    /// The most exercises one routine plans; a pasted log is refused instead of becoming a routine.
    public static let maxExercises = 100

    /// Per line, the 0-based index of the first line of its superset (its own index when it
    /// is not in one).
    public var supersetStarts: [Int] {
        var starts: [Int] = []
        for (i, line) in lines.enumerated() { starts.append(line.joinsPrevious && i > 0 ? starts[i - 1] : i) }
        return starts
    }
}

/// Where a planned exercise was written: the 1-based line of the text, the name's columns in
/// it, and the line itself (for an error's caret).
public struct RoutineLineOrigin: Equatable, Sendable {
    public var line: Int
    public var nameSpan: Span
    public var lineText: String

    public init(line: Int, nameSpan: Span, lineText: String) { self.line = line; self.nameSpan = nameSpan; self.lineText = lineText }

    /// An error about this planned exercise's name, pointing at it.
    public func refusing(_ message: String) -> RoutineParseError {
        RoutineParseError(line: line, span: nameSpan, message: message, lineText: lineText)
    }
}

/// One line of a routine: what to do for one exercise and how it progresses.
public struct PlannedExercise: Equatable, Sendable {
    /// The exercise name as typed, words joined by single spaces (resolved like a set line's name).
    public var exerciseName: String
    /// How many working sets (`3` in `3x5`), within `SetLimits.setCount`.
    public var sets: Int
    /// What each set is: `5` reps or a range `8-12` (within `SetLimits.reps`), or a time or distance.
    public var reps: RepTarget
    /// The load to start from when there is no history: `100`, `100kg`, `bw`, `bw+10`; nil lets
    /// the rule or the history decide.
    public var load: LoadSpec?
    /// `50%`: the load is this share of a training max: the line's own (`bench 5x5 70% tm 100`),
    /// else that of the routine's 5/3/1 line of the same exercise (Boring But Big's
    /// `squat 5x10 50%`), which it follows from cycle to cycle.
    public var percentOfTrainingMax: Int?
    /// The line's own training max for its `percentOfTrainingMax` (`tm 100`).
    public var ownTrainingMax: WeightSpec?
    /// The lift whose 5/3/1 line's training max `percentOfTrainingMax` is of, as typed
    /// (`good morning 3x8 30% of squat`); nil: this line's own exercise's.
    public var shareOf: String?
    /// The planned effort (`@8`), a target shown with the suggestion, never logged as done.
    public var rpe: Fixed?
    /// How the load or reps move from one session to the next.
    public var rule: ProgressionRule
    /// The target rest between sets (`rest 3:00`), in seconds.
    public var restSeconds: Int?
    /// `warmup`: offer a warm-up ramp before the first working set.
    public var warmup: Bool
    /// Done back to back with the line before it, in one superset (`bench 3x5 & row 3x8`: true
    /// for `row`). A superset is a run of lines, the first with this false.
    public var joinsPrevious: Bool

    /// A planned exercise from its parts; only the name, sets and reps are required.
    public init(exerciseName: String, sets: Int, reps: RepTarget, load: LoadSpec? = nil, percentOfTrainingMax: Int? = nil,
                ownTrainingMax: WeightSpec? = nil, shareOf: String? = nil, rpe: Fixed? = nil, rule: ProgressionRule = .none, restSeconds: Int? = nil,
                warmup: Bool = false, joinsPrevious: Bool = false) {
        self.exerciseName = exerciseName; self.sets = sets; self.reps = reps; self.load = load
        self.percentOfTrainingMax = percentOfTrainingMax; self.ownTrainingMax = ownTrainingMax; self.shareOf = shareOf
        self.rpe = rpe
        self.rule = rule; self.restSeconds = restSeconds; self.warmup = warmup; self.joinsPrevious = joinsPrevious
    }

    /// A 5/3/1 line (`ohp 5/3/1 tm 60`) plans Wendler's three sets, whose reps the week sets;
    /// its `sets` and `reps` are always these (week 1's), so the model has one shape for every line.
    public static func fiveThreeOne(_ exerciseName: String, trainingMax: WeightSpec, restSeconds: Int? = nil,
                                    warmup: Bool = false) -> PlannedExercise {
        PlannedExercise(exerciseName: exerciseName, sets: FiveThreeOne.setsPerSession, reps: .exact(5),
                        rule: .fiveThreeOne(trainingMax: trainingMax), restSeconds: restSeconds, warmup: warmup)
    }

    /// The longest target rest a line may give (`rest 60:00`).
    public static let maxRestSeconds = 3600

    /// The unit the line's plan is shown and logged in: the unit of its load (`100kg`; a bare
    /// `100` is in `unit`), else the one its training max or increment names (`tm 225lb`,
    /// `+2.5kg`), else `unit` (the routine's, or the lifter's setting).
    ///
    /// A lifter types `ok 135` in the unit they see; the line's history, whatever unit it was
    /// lifted or imported in, is converted into this one (`Progression`).
    public func planUnit(_ unit: WeightUnit) -> WeightUnit {
        switch load {
        case .weight(_, let typed)?, .bodyweightPlus(_, let typed)?: return typed ?? unit
        case .bodyweight?, nil: break
        }
        if let typed = ownTrainingMax?.unit { return typed }
        switch rule {
        case .linear(let increment), .double(_, let increment): return increment.unit ?? unit
        case .fiveThreeOne(let trainingMax): return trainingMax.unit ?? unit
        case .none: return unit
        }
    }
}

/// What each planned set is: reps (`3x5`, `3x8-12`), or a time or distance for the exercises
/// the entry language logs so (`plank 3x60s`, `row 2000m`, `carry 3x40m 32kg`).
public enum RepTarget: Equatable, Hashable, Sendable, CustomStringConvertible {
    /// `3x5`: five reps.
    case exact(Int)
    /// `3x8-12`: anywhere from 8 to 12 reps.
    case range(ClosedRange<Int>)
    /// `3x60s`: a time each set, in seconds.
    case time(Int)
    /// `2000m`, `3x40m`: a distance each set.
    case distance(Distance)

    /// The fewest reps that count as doing the set as planned (0 for a time or a distance,
    /// which the rules that count reps never see).
    public var lowest: Int {
        switch self {
        case .exact(let reps): reps
        case .range(let range): range.lowerBound
        case .time, .distance: 0
        }
    }

    /// The range, when this is one.
    public var range: ClosedRange<Int>? {
        if case .range(let range) = self { return range }
        return nil
    }

    /// Whether the sets are a time or a distance rather than reps.
    public var isMeasure: Bool {
        switch self {
        case .exact, .range: false
        case .time, .distance: true
        }
    }

    /// `5`, `8-12`, `60s`, `40m`: as a routine line writes it after `3x`.
    public var description: String {
        switch self {
        case .exact(let reps): "\(reps)"
        case .range(let range): "\(range.lowerBound)-\(range.upperBound)"
        case .time(let seconds): "\(seconds)s"
        case .distance(let distance): distance.description
        }
    }
}

/// A weight as typed in a routine (`+2.5`, `+5lb`, `tm 60kg`): the unit may be left out, and is
/// then the unit of the load it applies to (see `Progression`).
public struct WeightSpec: Equatable, Hashable, Sendable, CustomStringConvertible {
    /// The number as typed.
    public var value: Fixed
    /// The unit as typed, nil when left out.
    public var unit: WeightUnit?

    /// A weight from its number and, when typed, its unit.
    public init(_ value: Fixed, _ unit: WeightUnit? = nil) { self.value = value; self.unit = unit }

    /// `2.5`, `5lb`.
    public var description: String { value.description + (unit?.rawValue ?? "") }

    /// The weight in its own unit, or in `fallback` when none was typed.
    public func resolved(_ fallback: WeightUnit) -> Weight { Weight(value, unit ?? fallback) }
}

/// How a planned exercise progresses from one session to the next (see `Progression`).
public enum ProgressionRule: Equatable, Hashable, Sendable {
    /// No rule: suggest last time's weight and reps.
    case none
    /// `linear +2.5`: add the increment after a session with every planned rep done.
    case linear(increment: WeightSpec)
    /// `double +2` (range from the reps) or `double 8-12 +2`: add reps within the range at one
    /// weight until every set reaches the top, then add the increment and start again at the bottom.
    /// When the line's reps are a range, this is that range (the text has no way to say two).
    case double(reps: ClosedRange<Int>, increment: WeightSpec)
    /// `5/3/1 tm 60`: Wendler's wave from a training max.
    case fiveThreeOne(trainingMax: WeightSpec)
}

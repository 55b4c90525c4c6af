/// What a single line typed at the REPL (or given to `gymlog log`) asks for.
public enum EntryLine: Equatable, Sendable {
    /// `bench 100x5x3 @8 # felt fast`: one or more sets of a named exercise.
    case log(exercise: ExerciseMention, sets: [SetSpec])
    /// `+`, `+ 102.5`, `+ x6`: the last set again, with the given fields changed.
    case repeatLast(SetPatch)
    /// `undo`: revert this device's last action (see `GymLogDatabase.undo`).
    case undo
    /// `bench 100x5 & row 70x8`: a round of a superset, its exercises done back to back.
    case superset([EntryPart])
}

/// One exercise's sets within a superset line.
public struct EntryPart: Equatable, Sendable {
    public var exercise: ExerciseMention
    public var sets: [SetSpec]
    public init(exercise: ExerciseMention, sets: [SetSpec]) { self.exercise = exercise; self.sets = sets }
}

/// The exercise words of a line and where they sit in it, so errors can point at them.
public struct ExerciseMention: Equatable, Sendable {
    /// The name as typed, words joined by single spaces (`incline db press`).
    public var name: String
    /// Where the name sits in the line (0-based character offsets).
    public var span: Span
    public init(name: String, span: Span) { self.name = name; self.span = span }
}

/// A range of character columns in an input line (0-based, end exclusive).
public struct Span: Equatable, Hashable, Sendable {
    public var start: Int
    public var end: Int
    public init(_ start: Int, _ end: Int) { self.start = start; self.end = end }
}

/// How a set counts.
public enum SetKind: String, CaseIterable, Sendable, Codable {
    case working, warmup, drop, failure

    /// Warm-ups never count towards records or working volume.
    public var countsForRecords: Bool { self != .warmup }
}

/// The load of a set as typed. The unit may be omitted; it is resolved later (see `SetResolver`).
public enum LoadSpec: Equatable, Sendable {
    /// `100x5`, `100kg x5`: an external load.
    case weight(Fixed, WeightUnit?)
    /// `bw x8`: bodyweight only.
    case bodyweight
    /// `+20x6`, `bw+20x6` (added) or `bw-20x6` (assisted, negative).
    case bodyweightPlus(Fixed, WeightUnit?)
}

/// What a line typed about one set's measures; each is nil when the line did not type it.
///
/// The one shape both `SetSpec` (a new set) and `SetPatch` (changes to a set) carry: the load
/// is what was typed (`LoadSpec`, its unit possibly omitted and bodyweight not yet split from
/// the weight), so it is not a `SetValues`; `SetResolver` turns it into stored values once the
/// user's default unit is known.
public struct TypedMeasures: Equatable, Sendable {
    public var load: LoadSpec?
    public var reps: Int?
    public var rpe: Fixed?
    /// `rir2`: reps in reserve, typed instead of an RPE.
    public var rir: Fixed?
    public var durationSeconds: Int?
    public var distance: Distance?
    public var note: String?

    public init(load: LoadSpec? = nil, reps: Int? = nil, rpe: Fixed? = nil, rir: Fixed? = nil,
                durationSeconds: Int? = nil, distance: Distance? = nil, note: String? = nil) {
        self.load = load; self.reps = reps; self.rpe = rpe; self.rir = rir
        self.durationSeconds = durationSeconds; self.distance = distance; self.note = note
    }
}

/// One set as parsed from a line, before the exercise and units are resolved:
/// `SetResolver.values(of:defaultUnit:)` turns it into the stored values.
@dynamicMemberLookup
public struct SetSpec: Equatable, Sendable {
    public var kind: SetKind
    public var typed: TypedMeasures

    public init(kind: SetKind = .working, load: LoadSpec? = nil, reps: Int? = nil, rpe: Fixed? = nil, rir: Fixed? = nil,
                durationSeconds: Int? = nil, distance: Distance? = nil, note: String? = nil) {
        self.kind = kind
        typed = TypedMeasures(load: load, reps: reps, rpe: rpe, rir: rir, durationSeconds: durationSeconds, distance: distance, note: note)
    }

    public subscript<T>(dynamicMember measure: WritableKeyPath<TypedMeasures, T>) -> T {
        get { typed[keyPath: measure] }
        set { typed[keyPath: measure] = newValue }
    }
}

/// The changes a `+` or `edit` line asks for: a nil kind or measure keeps the last set's
/// value, and `count` says how many copies to log; `SetResolver.values(repeating:with:)`
/// applies it to stored values.
@dynamicMemberLookup
public struct SetPatch: Equatable, Sendable {
    public var kind: SetKind?
    public var typed: TypedMeasures
    /// `+ x5x3` or `+ 3`? Only `x` forms: how many copies to log (default 1).
    public var count: Int

    public init(kind: SetKind? = nil, load: LoadSpec? = nil, reps: Int? = nil, rpe: Fixed? = nil, rir: Fixed? = nil,
                durationSeconds: Int? = nil, distance: Distance? = nil, note: String? = nil, count: Int = 1) {
        self.kind = kind; self.count = count
        typed = TypedMeasures(load: load, reps: reps, rpe: rpe, rir: rir, durationSeconds: durationSeconds, distance: distance, note: note)
    }

    public subscript<T>(dynamicMember measure: WritableKeyPath<TypedMeasures, T>) -> T {
        get { typed[keyPath: measure] }
        set { typed[keyPath: measure] = newValue }
    }

    public var isEmpty: Bool { kind == nil && typed == TypedMeasures() && count == 1 }
}

/// Why a line was rejected, and where. Rendered with a caret under the offending token.
public struct EntryError: Error, Equatable, Sendable, CustomStringConvertible {
    public var message: String
    public var span: Span

    public init(_ message: String, at span: Span) { self.message = message; self.span = span }

    public var description: String { message }

    /// The line, and a caret line under the offending span: the REPL and `gymlog log` print this.
    ///
    /// The echo shows every character in one column, so the caret lines up: whitespace as a
    /// space, a control character as U+FFFD (printed raw, a CR or an escape would garble the line).
    /// `columns` is how many terminal columns a character takes (2 for CJK and most emoji);
    /// with `message` false the caret line ends at the caret, for a caller that printed the
    /// message already.
    public func pointing(into line: String, indent: String = "  ", message withMessage: Bool = true,
                         columns: (Character) -> Int = { _ in 1 }) -> String {
        var shown = ""
        shown.reserveCapacity(line.utf8.count)
        // Past the end of the line (a missing token) every position is one column.
        let count = line.count
        var before = max(0, span.start - count), under = max(0, span.end - max(span.start, count))
        for (i, c) in line.enumerated() {
            let echoed: Character = isControl(c) ? "\u{FFFD}" : isSpace(c) ? " " : c
            shown.append(echoed)
            if i < span.start { before += columns(echoed) } else if i < span.end { under += columns(echoed) }
        }
        let carets = String(repeating: " ", count: before) + String(repeating: "^", count: max(1, under))
        return indent + shown + "\n" + indent + carets + (withMessage ? " " + message : "")
    }
}

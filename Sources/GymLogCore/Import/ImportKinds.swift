import Foundation

// Deciding an imported exercise's kind, and reading its sets as that kind. Other apps' files
// have no bodyweight column: `W,0.0,12.0` on Squat (Barbell) is a warm-up with the bar's load
// left out, `20` on Crunch (Weighted) is added load, `30` on Pull Up (Assisted) is assistance.
// So the kind is decided from every row of the exercise and from what its name says, never
// from one row, and only then are the sets read.

/// What the equipment written in another app's exercise name says about its kind: Strong and
/// Hevy end names with it in parentheses (`Squat (Barbell)`, `Pull Up (Assisted)`).
public enum EquipmentTag: Equatable, Sendable {
    /// A barbell, dumbbell, machine, cable...: the load is the weight lifted.
    case loaded
    /// `(Bodyweight)`: reps at bodyweight.
    case bodyweight
    /// `(Weighted)`: a bodyweight exercise whose load is added (`bw+20`).
    case addedLoad
    /// `(Assisted)`: a bodyweight exercise whose load is assistance (`bw-30`), written positive.
    case assisted

    /// The tag of `name`'s last parenthesised word, nil when it names no equipment gymlog knows
    /// (`(Band)` says nothing about a load: the rows decide).
    public init?(exerciseName name: String) {
        guard let word = Equipment.parenthesised(name) else { return nil }
        switch word {
        case "bodyweight": self = .bodyweight
        case "weighted": self = .addedLoad
        case "assisted": self = .assisted
        default:
            // `(Band)` says nothing about a load: the rows decide.
            guard let equipment = Equipment(tagWord: word), equipment != .band else { return nil }
            self = .loaded
        }
    }
}

/// How one exercise's sets in a file are read: its kind, and what a bare load means on it.
public struct ImportedKind: Equatable, Sendable {
    /// The kind a new exercise gets (an existing one keeps its own).
    public var kind: ExerciseKind
    /// The unit of a set at no load on a loaded exercise: that of the exercise's loads in the file.
    public var unit: WeightUnit
    /// The file writes assistance as a positive load (`Pull Up (Assisted)`).
    public var assisted: Bool

    public init(kind: ExerciseKind, unit: WeightUnit, assisted: Bool = false) {
        self.kind = kind; self.unit = unit; self.assisted = assisted
    }
}

/// What a scan learns of one exercise from its rows: how many sets of each shape, and the unit
/// of its first load. Its kind follows from all of them (`kind(named:)`), never from one row.
struct KindEvidence {
    /// Sets by the kind their own shape suggests (`SetValues.exerciseKind`).
    var counts: [ExerciseKind: Int] = [:]
    /// Reps with the load column left blank (not a written 0): gymlog's and Hevy's exports
    /// write a bodyweight set so, Strong writes 0 for any load it lacks.
    var blankLoads = 0
    var unit: WeightUnit?

    mutating func add(_ v: SetValues, loadLeftBlank: Bool = false) {
        counts[v.exerciseKind, default: 0] += 1
        if loadLeftBlank && v.exerciseKind == .bodyweight && v.weight == nil { blankLoads += 1 }
        if unit == nil, let w = v.weight, !w.value.isZero { unit = w.unit }
    }

    /// The kind of an exercise called `name` with these sets. The shape most sets have wins
    /// (reps over distance over time on a tie). Between a load and bodyweight the name's
    /// equipment decides; without it, a set whose load was left blank (not 0) makes it a
    /// bodyweight exercise, else the sets with a load must not be outnumbered: a loaded
    /// exercise's set with no load is a set at no load (an empty bar, a forgotten number),
    /// a bodyweight exercise's load is added load.
    func kind(named name: String, fallbackUnit: WeightUnit) -> ImportedKind {
        func n(_ k: ExerciseKind) -> Int { counts[k] ?? 0 }
        let reps = n(.weighted) + n(.bodyweight), moved = n(.distance) + n(.carry), held = n(.timed)
        let tag = EquipmentTag(exerciseName: name)
        let unit = self.unit ?? fallbackUnit
        if reps == 0 && moved == 0 && held == 0 { return ImportedKind(kind: .weighted, unit: unit) }
        if reps >= moved && reps >= held {
            switch tag {
            case .loaded: return ImportedKind(kind: .weighted, unit: unit)
            case .bodyweight, .addedLoad: return ImportedKind(kind: .bodyweight, unit: unit)
            case .assisted: return ImportedKind(kind: .bodyweight, unit: unit, assisted: true)
            case nil:
                let loaded = blankLoads == 0 && n(.weighted) >= n(.bodyweight)
                return ImportedKind(kind: loaded ? .weighted : .bodyweight, unit: unit)
            }
        }
        if moved >= held { return ImportedKind(kind: n(.carry) > n(.distance) ? .carry : .distance, unit: unit) }
        return ImportedKind(kind: .timed, unit: unit)
    }
}

extension SetValues {
    /// A set read from a file without a bodyweight column (every app but gymlog) as a set of
    /// an exercise read as `reading`: the one lossless reading of `ExerciseKind.converting`
    /// (reps with no load on a loaded exercise are at a load of 0, a load on a bodyweight
    /// exercise is added load), and on an `(Assisted)` exercise a positive load is assistance.
    /// A set with no reading is kept as written; reading a read set again changes nothing.
    public func readingImported(as reading: ImportedKind) -> SetValues {
        var v = self
        if reading.kind == .bodyweight, reading.assisted, !v.bodyweight, let w = v.weight, w.value.thousandths > 0 {
            v.weight = Weight(Fixed(thousandths: -w.value.thousandths), w.unit)
            v.bodyweight = true
        }
        return reading.kind.converting(v, unit: reading.unit) ?? v
    }
}

import Foundation

/// What an exercise measures, so display and records fit it. Every set of an exercise has
/// its kind's shape (`ExerciseKind.refusal(of:exercise:defaultUnit:)`); the raw values are
/// stored and synced, so existing ones never change.
public enum ExerciseKind: String, CaseIterable, Sendable, Codable {
    /// Weight and reps (`bench 100x5`).
    case weighted
    /// Reps at bodyweight, optionally with added or assisted load (`pullup bw+10x5`, `bw-20x8`).
    case bodyweight
    /// A duration (`plank 60s`), optionally under load.
    case timed
    /// Distance and time (`row 2000m 7:41`).
    case distance
    /// Weight and distance: carries and sleds (`farmer carry 40kg 50m`).
    case carry
}

/// A named exercise. Its id is derived from the name it was created with, so two devices
/// that create "Bench Press" offline end up with the same exercise after sync.
public struct Exercise: Equatable, Sendable {
    public var id: UUID
    public var name: String
    public var kind: ExerciseKind
    public init(id: UUID, name: String, kind: ExerciseKind) { self.id = id; self.name = name; self.kind = kind }
}

/// A training session. Started implicitly by the first set, ended by `finish` or the idle gap.
public struct Workout: Equatable, Sendable {
    public var id: UUID
    public var name: String?
    public var startedAt: Int64
    public var endedAt: Int64?
    public var utcOffsetSeconds: Int
    public var note: String?
    public init(id: UUID, name: String? = nil, startedAt: Int64, endedAt: Int64? = nil, utcOffsetSeconds: Int, note: String? = nil) {
        self.id = id; self.name = name; self.startedAt = startedAt; self.endedAt = endedAt
        self.utcOffsetSeconds = utcOffsetSeconds; self.note = note
    }
}

/// One bodyweight entry, exactly as typed (a synced entity of its own, not a set).
public struct BodyweightEntry: Equatable, Sendable {
    public var id: UUID
    public var weight: Weight
    /// Milliseconds since 1970 (UTC).
    public var measuredAt: Int64
    public var utcOffsetSeconds: Int

    public init(id: UUID, weight: Weight, measuredAt: Int64, utcOffsetSeconds: Int) {
        self.id = id; self.weight = weight; self.measuredAt = measuredAt; self.utcOffsetSeconds = utcOffsetSeconds
    }
}

/// A set as stored: its identity, its values and when it was logged.
///
/// The values' fields read and write through the set (`set.weight`) by key path, so they
/// are declared once, in `SetValues`.
@dynamicMemberLookup
public struct LoggedSet: Equatable, Sendable {
    /// The set's own id (time-ordered, made by the device that logged it).
    public var id: UUID
    /// The workout the set belongs to.
    public var workoutID: UUID
    /// The exercise the set is of.
    public var exerciseID: UUID
    /// What the set was: load, reps, time, note...
    public var values: SetValues
    /// Milliseconds since 1970 (UTC) when the set was logged.
    public var performedAt: Int64
    public var utcOffsetSeconds: Int
    /// The superset it was done in (`bench 100x5 & row 70x8`): every set of one superset, in
    /// every round, shares it; nil for a set done on its own.
    public var supersetID: UUID?

    /// A set from its identity, values and time.
    public init(id: UUID, workoutID: UUID, exerciseID: UUID, values: SetValues = SetValues(), performedAt: Int64,
                utcOffsetSeconds: Int = 0, supersetID: UUID? = nil) {
        self.id = id; self.workoutID = workoutID; self.exerciseID = exerciseID; self.values = values
        self.performedAt = performedAt; self.utcOffsetSeconds = utcOffsetSeconds; self.supersetID = supersetID
    }

    /// One of the values' fields (`set.weight`, `set.reps = 6`).
    @inlinable
    public subscript<T>(dynamicMember field: WritableKeyPath<SetValues, T>) -> T {
        get { values[keyPath: field] }
        set { values[keyPath: field] = newValue }
    }

    /// Something computed from the values (`set.summary`).
    @inlinable
    public subscript<T>(dynamicMember property: KeyPath<SetValues, T>) -> T { values[keyPath: property] }
}

/// How many sets a workout holds, counted as `stats` counts them: working sets (every set
/// but a warm-up, missed attempts included) apart from warm-ups.
public struct SetCount: Equatable, Sendable, CustomStringConvertible {
    public var working: Int
    public var warmups: Int

    public init(working: Int, warmups: Int) { self.working = working; self.warmups = warmups }

    public init(_ sets: some Sequence<SetValues>) {
        var warmups = 0, all = 0
        for set in sets {
            all += 1
            if set.kind == .warmup { warmups += 1 }
        }
        self.init(working: all - warmups, warmups: warmups)
    }

    /// `18 sets` when none is a warm-up, else `18 working sets + 5 warm-ups`.
    public var description: String {
        guard warmups > 0 else { return plural(working, "set") }
        return plural(working, "working set") + " + " + plural(warmups, "warm-up")
    }
}

/// `1 set`, `2 sets`.
public func plural(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }

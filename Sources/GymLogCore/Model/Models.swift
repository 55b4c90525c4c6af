import Foundation

/// What an exercise measures, so display and records fit it.
public enum ExerciseKind: String, CaseIterable, Sendable, Codable {
    case weighted, bodyweight, timed, distance
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

/// A set as stored: units resolved, exactly as typed.
public struct LoggedSet: Equatable, Sendable {
    public var id: UUID
    public var workoutID: UUID
    public var exerciseID: UUID
    public var kind: SetKind
    /// External load, or added/assisted load when `bodyweight` is true.
    public var weight: Weight?
    public var bodyweight: Bool
    public var reps: Int?
    public var rpe: Fixed?
    public var durationSeconds: Int?
    public var distance: Distance?
    public var note: String?
    /// Milliseconds since 1970 (UTC) when the set was logged.
    public var performedAt: Int64
    public var utcOffsetSeconds: Int

    public init(id: UUID, workoutID: UUID, exerciseID: UUID, kind: SetKind = .working, weight: Weight? = nil,
                bodyweight: Bool = false, reps: Int? = nil, rpe: Fixed? = nil, durationSeconds: Int? = nil,
                distance: Distance? = nil, note: String? = nil, performedAt: Int64, utcOffsetSeconds: Int = 0) {
        self.id = id; self.workoutID = workoutID; self.exerciseID = exerciseID; self.kind = kind
        self.weight = weight; self.bodyweight = bodyweight; self.reps = reps; self.rpe = rpe
        self.durationSeconds = durationSeconds; self.distance = distance; self.note = note
        self.performedAt = performedAt; self.utcOffsetSeconds = utcOffsetSeconds
    }

    /// `100kg x 5 @8`, `bw+20kg x 6`, `60s`, `2000m in 7:41`, prefixed by the kind when tagged.
    public var summary: String {
        var parts: [String] = []
        switch kind {
        case .working: break
        case .warmup: parts.append("warm-up")
        case .drop: parts.append("drop")
        case .failure: parts.append("failure")
        }
        var load = ""
        if bodyweight {
            load = "bw"
            if let w = weight { load += (w.value.thousandths >= 0 ? "+" : "") + w.description }
        } else if let w = weight {
            load = w.description
        }
        if let reps { parts.append(load.isEmpty ? "\(reps) reps" : "\(load) x \(reps)") }
        else if !load.isEmpty { parts.append(load) }
        if let distance { parts.append(distance.description) }
        if let d = durationSeconds { parts.append(distance == nil ? formatDuration(d) : "in \(formatDuration(d))") }
        if let rpe { parts.append("@\(rpe)") }
        var text = parts.joined(separator: " ")
        if let note, !note.isEmpty { text += "  # \(note)" }
        return text
    }
}

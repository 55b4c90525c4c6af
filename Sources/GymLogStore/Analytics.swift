import Foundation
import GRDB
import GymLogCore

/// One workout's value of a chart metric for one exercise.
public struct ProgressPoint: Equatable, Sendable {
    public var workoutID: UUID
    public var startedAt: Int64
    public var utcOffsetSeconds: Int
    /// In the metric's stored unit (`ChartMetric.quantity`): kilograms, reps, seconds,
    /// metres or seconds per kilometre.
    public var value: Double
    /// Working sets of the exercise in that workout (warm-ups excluded).
    public var sets: Int

    public init(workoutID: UUID, startedAt: Int64, utcOffsetSeconds: Int, value: Double, sets: Int) {
        self.workoutID = workoutID; self.startedAt = startedAt; self.utcOffsetSeconds = utcOffsetSeconds
        self.value = value; self.sets = sets
    }
}

/// How `weeklyStats` groups a week's sets.
public enum StatsGrouping: String, CaseIterable, Sendable {
    case exercise, muscle

    /// By muscle, the group of exercises linked to no catalog entry and described by no one.
    public static let unlinked = "unlinked"
    /// By muscle, the group of distance work and the catalog's cardio entries: sets of a run
    /// are not sets for the legs.
    public static let cardio = "cardio"
}

/// Frequency and working volume of one exercise or muscle in one week.
public struct GroupStats: Equatable, Sendable {
    /// The exercise's name; by muscle, the muscle as the catalog names it, or
    /// `StatsGrouping.unlinked` and `StatsGrouping.cardio`.
    public var name: String
    /// Workouts that contained at least one working set of the group.
    public var workouts: Int
    /// Working sets (warm-ups excluded; drop and failure sets count). By muscle, a set counts
    /// 1 for each primary muscle and `Settings.secondaryMuscleWeight` for each secondary one.
    public var sets: Double
    /// Sum of weight x reps over working sets, in kilograms (bodyweight and timed sets add
    /// nothing), shared among muscles as the sets are.
    public var volumeKg: Double
}

/// One week (Monday to Sunday, local days) of training.
public struct WeekStats: Equatable, Sendable {
    /// The local day number of the week's Monday (days since 1970-01-01).
    public var startDay: Int64
    public var workouts: Int
    public var sets: Int
    public var volumeKg: Double
    /// Busiest first (most sets, then most volume, then name).
    public var groups: [GroupStats]
    /// Bodyweight sets with no `bw` entry on or before them: their volume is their added load only.
    public var setsWithoutBodyweight = 0
    /// By muscle, the exercises of the `unlinked` group, by name.
    public var unlinkedExercises: [String] = []
}

extension GymLogDatabase {
    /// One point per workout that has working sets of the exercise, oldest first; `since` and
    /// `until` bound `performed_at` (`until` exclusive). Streams the sets, so a long history
    /// costs memory per workout, not per set.
    public func progression(exerciseID: UUID, metric: ChartMetric, since: Int64? = nil, until: Int64? = nil) throws -> [ProgressPoint] {
        var conditions = ["s.exercise_id = ?", "s.deleted_at IS NULL", "w.deleted_at IS NULL", "s.kind != 'warmup'"]
        var args: [DatabaseValueConvertible] = [exerciseID.key]
        if let since { conditions.append("s.performed_at >= ?"); args.append(since) }
        if let until { conditions.append("s.performed_at < ?"); args.append(until) }
        let formula = settings.e1rmFormula
        return try read { db in
            let cursor = try Row.fetchCursor(db, sql: """
                SELECT \(Rows.setColumns), w.started_at AS w_started_at, w.utc_offset AS w_utc_offset
                FROM sets s JOIN workouts w ON w.id = s.workout_id
                WHERE \(conditions.joined(separator: " AND "))
                ORDER BY w.started_at, s.workout_id, s.performed_at, s.id
                """, arguments: StatementArguments(args))
            var points: [ProgressPoint] = []
            var current: [LoggedSet] = []
            var start: (Int64, Int) = (0, 0)
            func flush() {
                guard let first = current.first else { return }
                if let value = metric.value(of: current, formula: formula) {
                    points.append(ProgressPoint(workoutID: first.workoutID, startedAt: start.0, utcOffsetSeconds: start.1,
                                                value: value, sets: current.count))
                }
                current.removeAll(keepingCapacity: true)
            }
            var decode = SetDecoder(), workoutColumns = ColumnPositions(["w_started_at", "w_utc_offset"])
            while let row = try cursor.next() {
                let set = decode(row)
                if let first = current.first, first.workoutID != set.workoutID { flush() }
                if current.isEmpty { let p = workoutColumns(row); start = (row[p[0]], row[p[1]]) }
                current.append(set)
            }
            flush()
            return points
        }
    }

    /// `weeks` weeks of training ending with the week holding `today` (a local day number),
    /// oldest first, empty weeks included. A set belongs to the local day it was logged on.
    public func weeklyStats(weeks: Int, today: Int64, by grouping: StatsGrouping) throws -> [WeekStats] {
        let lastMonday = mondayOf(today)
        let firstMonday = lastMonday - Int64(weeks - 1) * 7
        // Offsets span at most ±18 h, so a day of margin either side finds every candidate.
        let from = (firstMonday - 1) * 86_400_000, to = (lastMonday + 8) * 86_400_000
        struct Tally { var workouts = Set<String>(); var sets = 0.0; var volume = 0.0; var withoutBodyweight = 0 }
        var weekly = [Tally](repeating: Tally(), count: weeks)
        var groups = [[String: Tally]](repeating: [:], count: weeks)
        var unlinked = [Set<String>](repeating: [], count: weeks)
        let secondaryWeight = settings.secondaryMuscleWeight.doubleValue
        try read { db in
            let bodyweights = try Self.bodyweightTimeline(db, until: to)
            let links = grouping == .muscle ? try exerciseLinks(db) : [:]
            let cursor = try Row.fetchCursor(db, sql: """
                SELECT \(Rows.setColumns), e.name AS e_name, e.kind AS e_kind
                FROM sets s JOIN workouts w ON w.id = s.workout_id JOIN exercises e ON e.id = s.exercise_id
                WHERE s.deleted_at IS NULL AND w.deleted_at IS NULL AND s.kind != 'warmup'
                  AND s.performed_at >= ? AND s.performed_at < ?
                """, arguments: [from, to])
            var decode = SetDecoder(), exerciseColumns = ColumnPositions(["e_name", "e_kind"])
            while let row = try cursor.next() {
                let set = decode(row)
                let day = LineChart.day(millis: set.performedAt, utcOffsetSeconds: set.utcOffsetSeconds)
                let index = Int((mondayOf(day) - firstMonday) / 7)
                guard index >= 0, index < weeks else { continue }
                let p = exerciseColumns(row)
                let name: String = row[p[0]]
                var shares: [(muscle: String, share: Double)] = [(name, 1)]
                if grouping == .muscle {
                    let link = links[set.exerciseID]
                    if ExerciseKind(rawValue: row[p[1]]) == .distance || link?.entry?.category == "cardio" {
                        shares = [(StatsGrouping.cardio, 1)]
                    } else {
                        shares = link?.muscleShares(secondaryWeight: secondaryWeight) ?? []
                        if shares.isEmpty {
                            shares = [(StatsGrouping.unlinked, 1)]
                            unlinked[index].insert(name)
                        }
                    }
                }
                let workout = set.workoutID.key
                let bodyweight = set.values.bodyweight ? bodyweights.weight(at: set.performedAt) : nil
                if set.values.bodyweight, bodyweight == nil, set.reps != nil { weekly[index].withoutBodyweight += 1 }
                let volume = workingVolume(of: set, bodyweight: bodyweight)
                weekly[index].workouts.insert(workout); weekly[index].sets += 1; weekly[index].volume += volume
                for (key, share) in shares {
                    groups[index][key, default: Tally()].workouts.insert(workout)
                    groups[index][key]!.sets += share
                    groups[index][key]!.volume += volume * share
                }
            }
        }
        return (0..<weeks).map { i in
            let list = groups[i].map { GroupStats(name: $0.key, workouts: $0.value.workouts.count, sets: $0.value.sets, volumeKg: $0.value.volume) }
                .sorted { ($1.sets, $1.volumeKg, $0.name) < ($0.sets, $0.volumeKg, $1.name) }
            return WeekStats(startDay: firstMonday + Int64(i) * 7, workouts: weekly[i].workouts.count, sets: Int(weekly[i].sets),
                             volumeKg: weekly[i].volume, groups: list, setsWithoutBodyweight: weekly[i].withoutBodyweight,
                             unlinkedExercises: unlinked[i].sorted { $0.localizedStandardCompare($1) == .orderedAscending })
        }
    }
}

/// Where a session-volume record was set: its workout's start and the working sets of the
/// exercise in it.
public struct SessionSize: Equatable, Sendable {
    public var startedAt: Int64
    public var utcOffsetSeconds: Int
    /// Working sets (warm-ups excluded) of the exercise in the workout.
    public var sets: Int
}

extension GymLogDatabase {
    /// The workout a session-volume record belongs to, with its working sets of the exercise;
    /// nil when the workout is gone.
    public func sessionSize(workoutID: UUID, exerciseID: UUID) throws -> SessionSize? {
        try read { db in
            try Row.fetchOne(db, sql: """
                SELECT w.started_at, w.utc_offset,
                  (SELECT COUNT(*) FROM sets s WHERE s.workout_id = w.id AND s.exercise_id = ? AND s.deleted_at IS NULL
                     AND s.kind != 'warmup') AS set_count
                FROM workouts w WHERE w.id = ?
                """, arguments: [exerciseID.key, workoutID.key]).map {
                SessionSize(startedAt: $0["started_at"], utcOffsetSeconds: $0["utc_offset"], sets: $0["set_count"])
            }
        }
    }

    /// How many workouts started on each local day: live workouts with at least one live set
    /// (`calendar`).
    public func workoutsByDay() throws -> [Int64: Int] {
        try read { db in
            var days: [Int64: Int] = [:]
            let rows = try Row.fetchCursor(db, sql: """
                SELECT w.started_at, w.utc_offset FROM workouts w
                WHERE w.deleted_at IS NULL AND EXISTS (SELECT 1 FROM sets s WHERE s.workout_id = w.id AND s.deleted_at IS NULL)
                """)
            while let row = try rows.next() {
                days[LineChart.day(millis: row["started_at"], utcOffsetSeconds: row["utc_offset"]), default: 0] += 1
            }
            return days
        }
    }

    /// The local day of the first working set ever logged, or nil before the first one: weeks
    /// before it are not weeks of rest and must not count in averages.
    public func firstTrainingDay() throws -> Int64? {
        try read { db in
            try Row.fetchOne(db, sql: """
                SELECT s.performed_at, s.utc_offset FROM sets s JOIN workouts w ON w.id = s.workout_id
                WHERE s.deleted_at IS NULL AND w.deleted_at IS NULL AND s.kind != 'warmup'
                ORDER BY s.performed_at LIMIT 1
                """).map { LineChart.day(millis: $0["performed_at"], utcOffsetSeconds: $0["utc_offset"]) }
        }
    }
}


@testable import GymLogCore

/// A set as the import property tests compare it: the exercise's name, the set's values and its
/// superset, numbered by first appearance within its workout (each app numbers its own way).
/// Values are `SetValues`, the one set shape, so `expected.weight = ...` reads as on a set.
@dynamicMemberLookup
struct ReadBackSet: Equatable, CustomStringConvertible {
    var exercise: String
    var values: SetValues
    var superset: Int?

    init(_ exercise: String, _ values: SetValues = SetValues(), superset: Int? = nil) {
        self.exercise = exercise; self.values = values; self.superset = superset
    }

    subscript<T>(dynamicMember path: WritableKeyPath<SetValues, T>) -> T {
        get { values[keyPath: path] }
        set { values[keyPath: path] = newValue }
    }

    var description: String { "\(exercise) \(values.summary)" + (superset.map { " superset \($0)" } ?? "") }

    /// The same workouts with their superset numbers counted by first appearance.
    static func renumbered(_ workouts: [[ReadBackSet]]) -> [[ReadBackSet]] {
        workouts.map { sets in
            zip(sets, ImportParserTests.firstMetNumbers(sets.map(\.superset))).map { set, superset in
                var set = set
                set.superset = superset
                return set
            }
        }
    }
}

extension ImportedFile {
    /// Each set as read, superset ids numbered by first appearance within their workout.
    var readBack: [[ReadBackSet]] {
        workouts.map { w in
            zip(w.sets, ImportParserTests.firstMetNumbers(w.sets.map(\.supersetID))).map { s, superset in
                ReadBackSet(exercises[s.exercise].name, s.values, superset: superset)
            }
        }
    }
}

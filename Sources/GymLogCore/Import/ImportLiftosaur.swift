import Foundation

/// Reads Liftosaur's "Export history to CSV": one row per set under `Workout DateTime,Program,
/// Day Name,Exercise,Is Warmup Set?,Required Reps,Completed Reps,Is AMRAP?,Required RPE,
/// Completed RPE,Log RPE?,Required Weight Value,Required Weight Unit,Completed Weight Value,
/// Completed Weight Unit,Ask Weight?,Completed Reps Time,Target Muscles,Synergist Muscles,
/// Notes` (an older header has 15 of these). Required is the plan, Completed what was done: a
/// set whose Completed fields are all empty was planned and not done, and is left out. Times
/// are UTC instants with milliseconds (`2024-01-31T10:15:00.000Z`), the workout's start
/// repeated on every set; units are per set (kg and lb can mix); names are `Name, Equipment`
/// (brought to Strong's spelling by `ExerciseSpellings`).
struct LiftosaurReader {
    let columns: ImportColumns

    static let table = ColumnTable(.liftosaur, [
        ColumnRule(.date, "Workout DateTime", required: true),
        ColumnRule(.exercise, "Exercise", required: true),
        ColumnRule(.reps, "Completed Reps", required: true),
        ColumnRule(.workoutName, "Day Name"),
        ColumnRule(.program, "Program"),
        ColumnRule(.warmup, "Is Warmup Set?"),
        ColumnRule(.rpe, "Completed RPE"),
        ColumnRule(.weight, "Completed Weight Value"),
        ColumnRule(.weightUnit, "Completed Weight Unit"),
        ColumnRule(.notes, "Notes"),
    ])

    init(header: [String]) throws {
        columns = try Self.table.find(in: header)
    }

    func read(_ cursor: inout ImportCSVCursor, into a: inout WorkoutAssembler) throws {
        let fallback = a.options.weightUnit
        try a.readRows(&cursor, columns: columns) { a, line, f in
            let dateText = f[.date]
            // Liftosaur changed how it writes the start (ISO with a Z; then `2026-03-06 15:22:00
            // +00:00`), and one file may hold both: each row is read in whichever it is written.
            guard let start = NativeReader.instant(dateText)?.millis ?? FitbodReader.instant(dateText) else {
                throw ImportRowError("Workout DateTime '\(dateText)' is not a time like 2024-01-31T10:15:00.000Z or 2024-01-31 10:15:00 +00:00")
            }
            let exerciseName = a.exerciseName(cleanName(f[.exercise]), line: line, column: "Exercise")
            guard let warmup = ImportValue.flag(f[.warmup]) else {
                throw ImportRowError("Is Warmup Set? '\(f[.warmup])' is not true or false")
            }
            let w = try ImportValue.weight(f[.weight], unit: nil, unitText: f[.weightUnit], assumed: &a.assumedWeightUnit,
                                           fallback: fallback, column: "Completed Weight Value")
            let r = try ImportValue.reps(f[.reps], column: "Completed Reps")
            let e = try ImportValue.rpe(f[.rpe]).get()
            let name = nonEmpty(f[.workoutName]) ?? nonEmpty(f[.program])
            let wi = a.workout(line: line, instant: start, name: name, key: dateText, note: nil) { _ in nil }
            if let note = nonEmpty(f[.notes]) { a.addNote("\(ExerciseSpellings.canonical(exerciseName)): \(note)", to: wi) }
            // Nothing completed: the plan's set, never done.
            guard !(f[.reps].isEmpty && f[.weight].isEmpty && f[.rpe].isEmpty) else { return a.ignore(line, .notDone) }
            let set = try a.values(kind: warmup ? .warmup : .working, weight: w, reps: r, rpe: e, duration: nil, distance: nil,
                                   note: nil, loadLeftBlank: f[.weight].isEmpty)
            a.addSet(set, line: line, exerciseName: exerciseName, to: wi)
        }
    }
}

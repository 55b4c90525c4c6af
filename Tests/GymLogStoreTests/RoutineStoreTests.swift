import Foundation
import GymLogCore
@testable import GymLogStore
import GRDB
import GymLogTestSupport
import GymLogWire
import Testing

/// Routines as stored and synced (issue 26): the unit a routine was written in, and the
/// sessions of a routine's lines.
@Suite struct RoutineStoreTests {
    @Test func aRoutineKeepsTheUnitItWasWrittenInAndSyncsIt() throws {
        // Given a device set to kg
        let world = FakeWorld()
        let db = try temporaryDatabase(world, settings: Settings(defaultUnit: .kg))
        let (saved, _) = try db.saveRoutine(name: "Press", text: "# Press\nohp 5/3/1 tm 85\n", lines: ["ohp 5/3/1 tm 85"], typed: "routine add")
        // Then the routine is in kg, and its create event carries the unit as a synced field the server accepts
        #expect(saved.unit == .kg)
        #expect(try db.routine(named: "press").unit == .kg)
        let payload = try #require(try db.read { try String.fetchOne($0, sql: "SELECT payload FROM outbox WHERE entity = 'routines'") })
        let unit = try #require(try decodePayload(payload).first { $0.name == "unit" })
        #expect(unit.value == .text("kg"))
        #expect(FieldRules.problem(entity: "routines", field: "unit", value: unit.value) == nil)
        #expect(FieldRules.problem(entity: "routines", field: "unit", value: .text("stone")) != nil)
        // When the same database is opened set to lb and the routine is saved again
        let lb = try GymLogDatabase(path: db.path, environment: world.environment, settings: Settings(defaultUnit: .lb))
        _ = try lb.saveRoutine(name: "Press", text: "# Press\nohp 5/3/1 tm 90\n", lines: ["ohp 5/3/1 tm 90"], typed: "routine edit")
        // Then it is still in kg
        #expect(try lb.routine(named: "press").unit == .kg)
    }

    @Test func theMigrationMovesAUnitANewerClientSentOutOfExtra() throws {
        // Given a database of the schema before `v6-routine-unit`, holding a routine pulled
        // from a newer client with its unit kept in `extra`, and one without
        let path = try temporaryDirectory("gymlog-tests") + "/gymlog.sqlite"
        do {
            let queue = try DatabaseQueue(path: path)
            try Schema.migrator.migrate(queue, upTo: "v5-parked-changes")
            try queue.write { db in
                try db.execute(sql: """
                    INSERT INTO routines (id, name, body, extra) VALUES
                        ('\(UUID().key)', 'Press', '# Press\nohp 5/3/1 tm 185', '{"unit":"lb","future":1}'),
                        ('\(UUID().key)', 'Old', '# Old\nbench 3x5', NULL);
                    """)
            }
        }
        // When gymlog opens it
        let db = try GymLogDatabase(path: path, environment: FakeWorld().environment)
        // Then the unit is in its column, the rest of `extra` kept, and the old routine has none
        #expect(try db.routine(named: "press").unit == .lb)
        #expect(try db.routine(named: "old").unit == nil)
        #expect(try db.read { try String.fetchOne($0, sql: "SELECT extra FROM routines WHERE name = 'Press'") } == #"{"future":1}"#)
    }

    @Test func aRoutinesSessionsAreItsWorkoutsEnteredWhenLinked() throws {
        let world = FakeWorld()
        let db = try temporaryDatabase(world)
        let (routine, _) = try db.saveRoutine(name: "Press", text: "# Press\nohp 3x5\n", lines: ["ohp 3x5"], typed: "routine add")
        // Given a back-dated workout of the routine, one of no routine, and one of the routine now
        let lastWeek = world.now() - 7 * 86_400_000
        let past = try db.startWorkout(name: "Press", at: lastWeek, routine: routine.id)
        try log(db, "ohp 40x5", at: lastWeek)
        _ = try db.finishWorkout(.past(past.workout.id))
        world.advance(minutes: 60)
        try log(db, "ohp 60x10")
        _ = try db.finishWorkout()
        world.advance(minutes: 60)
        _ = try db.startWorkout(name: "Press", routine: routine.id)
        try log(db, "ohp w20x5")
        try log(db, "ohp 42.5x5")
        let ohp = try db.existingExercise("ohp")
        // Then the routine's sessions are the two of it, oldest first, the back-dated one
        // entered after its start
        let sessions = try db.routineSessions(of: ohp.id, routine: routine.id, before: world.now() + 1)
        #expect(sessions.map { $0.sets.compactMap(\.reps) } == [[5], [5, 5]])
        #expect(sessions.map(\.startedAt).first == lastWeek)
        #expect(sessions.first.map { $0.enteredAt > $0.startedAt } == true)
    }

    /// Issue 44, defect 3: a lifter in lb, a history in kg (imported, or typed `100kg`) and a
    /// routine of bare numbers: the plan is in lb and `ok 135` is 135 lb, not 135 kg.
    @Test func aPoundsLiftersOkOfABareNumberOverAKilogramHistoryIsPounds() throws {
        // Given a device set to lb, a bench history in kg, and a routine written in lb
        let world = FakeWorld()
        let settings = Settings(defaultUnit: .lb)
        let db = try temporaryDatabase(world, settings: settings)
        try log(db, "bench press 100kg x12x3")
        _ = try db.finishWorkout()
        world.advance(minutes: 24 * 60)
        let text = "# Bench\nbench press 3x8-12 double +5\n"
        let (routine, _) = try db.saveRoutine(name: "Bench", text: text, lines: ["bench press 3x8-12 double +5"], typed: "routine add")
        #expect(routine.unit == .lb)
        let line = try RoutineParser.parse(text).get().lines[0]

        // When today's plan is read as `TodayPlan` reads it: the exercise's last session, the
        // routine's unit, the plates' rounding
        let started = try db.startWorkout(name: "Bench", routine: routine.id)
        let bench = try db.existingExercise("bench press")
        let history = try db.pastSessions(of: bench.id, before: world.now())
        let unit = line.planUnit(routine.unit ?? settings.defaultUnit)
        let plan = Progression.suggest(for: line, history: history, unit: routine.unit ?? settings.defaultUnit,
                                       rounding: PlateRounding(settings: settings))
        // Then it is in pounds: 100 kg is 220 lb, every set reached 12, +5 lb
        #expect(unit == .lb)
        #expect(plan.sets.map(\.summary) == Array(repeating: "225lb x 8 (8-12)", count: 3), "\(plan.sets.map(\.summary))")
        #expect(plan.reason == "last time 100kg x 12,12,12 (220lb): every set reached 12, +5lb and back to 8 reps", "\(plan.reason)")

        // When the lifter types `ok 135`, then `ok` with no number
        guard case .success(.repeatLast(let patch)) = EntryParser.parse("+ 135"),
              case .success(.repeatLast(let none)) = EntryParser.parse("+ ") else { Issue.record("`+ 135` does not parse"); return }
        let changed = plan.sets[0].logged(with: patch, unit: unit)
        let asShown = plan.sets[1].logged(with: none, unit: unit)
        try db.logResolved([(exercise: ExerciseMention(name: "bench press", span: Span(0, 11)), values: [changed, asShown])], typed: "ok 135")
        // Then the stored sets are 135 lb x 8 and the plan's 225 lb x 8, in pounds
        let stored = try #require(try db.workoutDetail(started.workout.id)).sets.map { $0.set.values }
            .map { "\($0.weight?.description ?? "-") x \($0.reps ?? 0)" }
        #expect(stored == ["135lb x 8", "225lb x 8"], "\(stored)")
    }
}

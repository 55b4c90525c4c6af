import Foundation
import Testing
@testable import GymLogCore

/// An imported exercise's kind comes from all of its rows and from the equipment its name
/// gives, never from a minority of rows; a load with 0 reps is a missed attempt, kept.
@Suite struct ImportKindTests {
    static let strongHeader = "Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes,Workout Notes,RPE"

    /// A Strong comma file of one workout on 2024-05-01 with these `exercise,order,weight,reps,seconds` rows.
    static func strong(_ rows: [String]) throws -> ImportedFile {
        let lines = rows.map { row -> String in
            let f = row.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            return "2024-05-01 10:00:00,Legs,45m,\(f[0]),\(f[1]),\(f[2]),\(f[3]),0,\(f.count > 4 ? f[4] : "0"),,,"
        }
        return try ImportParser.parse(Array(([strongHeader] + lines).joined(separator: "\n").utf8), options: ImportOptions())
    }

    static func summaries(_ file: ImportedFile, _ exercise: String) -> [String] {
        file.workouts.flatMap(\.sets).filter { file.exercises[$0.exercise].name == exercise }.map(\.values.summary)
    }

    static func kind(_ file: ImportedFile, _ exercise: String) -> ExerciseKind? {
        file.exercises.firstIndex { $0.name == exercise }.map { file.exerciseKinds[$0].kind }
    }

    @Test func aBarbellLiftsWarmUpsWithNoLoadAreSetsAtNoLoadNotBodyweightSets() throws {
        // Given Squat (Barbell) whose warm-ups Strong wrote `W,0.0,12.0`, as many as its loaded sets
        let file = try Self.strong([
            "Squat (Barbell),W,0.0,12.0", "Squat (Barbell),W,0.0,12.0", "Squat (Barbell),W,0.0,12.0",
            "Squat (Barbell),1,70.0,5.0", "Squat (Barbell),2,80.0,5.0", "Squat (Barbell),3,80.0,5.0",
        ])
        // Then it is a weighted exercise, its loads are loads, its warm-ups at a load of 0
        #expect(Self.kind(file, "Squat (Barbell)") == .weighted)
        #expect(Self.summaries(file, "Squat (Barbell)") == [
            "warm-up 0kg x 12", "warm-up 0kg x 12", "warm-up 0kg x 12", "70kg x 5", "80kg x 5", "80kg x 5",
        ])
        #expect(file.workouts.flatMap(\.sets).allSatisfy { !$0.values.bodyweight })
    }

    @Test func withoutEquipmentInTheNameTheRowsDecideByMajority() throws {
        // Given T Bar Row (mostly loaded, one set with no load) and Dips (mostly bodyweight, one with 20 added)
        let file = try Self.strong([
            "T Bar Row,1,0.0,10.0", "T Bar Row,2,40.0,8.0", "T Bar Row,3,40.0,8.0",
            "Dips,1,0.0,10.0", "Dips,2,,10.0", "Dips,3,20.0,6.0",
        ])
        // Then T Bar Row is weighted with a set at 0 load, Dips bodyweight with added load
        #expect(Self.kind(file, "T Bar Row") == .weighted)
        #expect(Self.summaries(file, "T Bar Row") == ["0kg x 10", "40kg x 8", "40kg x 8"])
        #expect(Self.kind(file, "Dips") == .bodyweight)
        #expect(Self.summaries(file, "Dips") == ["bw x 10", "bw x 10", "bw+20kg x 6"])
    }

    @Test func aLoadLeftBlankIsBodyweightWhereAWrittenZeroIsALoadOfZero() throws {
        // Given two untagged exercises mostly with a load: one set of Chin Up has its load left
        // blank (as gymlog's and Hevy's exports write `bw x8`), one of Hack Squat a written 0
        let file = try Self.strong([
            "Chin Up,1,,8", "Chin Up,2,20,6", "Chin Up,3,20,6",
            "Hack Squat,1,0,10", "Hack Squat,2,60,8", "Hack Squat,3,60,8",
        ])
        // Then the blank load makes Chin Up bodyweight with added load, Hack Squat stays loaded
        #expect(Self.kind(file, "Chin Up") == .bodyweight)
        #expect(Self.summaries(file, "Chin Up") == ["bw x 8", "bw+20kg x 6", "bw+20kg x 6"])
        #expect(Self.kind(file, "Hack Squat") == .weighted)
        #expect(Self.summaries(file, "Hack Squat") == ["0kg x 10", "60kg x 8", "60kg x 8"])
    }

    @Test func theNamesEquipmentDecidesBetweenALoadAndBodyweight() throws {
        // Given a weighted crunch (mostly loaded), an assisted pull-up (Strong and Hevy write
        // the assistance positive) and a bodyweight squat with a vest once
        let file = try Self.strong([
            "Crunch (Weighted),W,,8", "Crunch (Weighted),1,20,15", "Crunch (Weighted),2,20,15",
            "Pull Up (Assisted),1,30,5", "Pull Up (Assisted),2,25,8",
            "Squat (Bodyweight),1,10,20", "Squat (Bodyweight),2,10,20",
            "Lat Pulldown (Cable),1,,12", "Lat Pulldown (Cable),2,,12",
        ])
        // Then the weighted crunch is bodyweight with added load, the assisted pull-up
        // bodyweight with assistance, and a cable exercise a loaded one even with no load written
        #expect(Self.kind(file, "Crunch (Weighted)") == .bodyweight)
        #expect(Self.summaries(file, "Crunch (Weighted)") == ["warm-up bw x 8", "bw+20kg x 15", "bw+20kg x 15"])
        #expect(Self.kind(file, "Pull Up (Assisted)") == .bodyweight)
        #expect(Self.summaries(file, "Pull Up (Assisted)") == ["bw-30kg x 5", "bw-25kg x 8"])
        #expect(Self.summaries(file, "Squat (Bodyweight)") == ["bw+10kg x 20", "bw+10kg x 20"])
        #expect(Self.kind(file, "Lat Pulldown (Cable)") == .weighted)
        #expect(Self.summaries(file, "Lat Pulldown (Cable)") == ["0kg x 12", "0kg x 12"])
    }

    @Test func timedAndDistanceExercisesKeepTheirKind() throws {
        // Given a plank (Strong writes Reps 0 beside the seconds) and a run
        let file = try Self.strong(["Plank,1,0,0,60", "Plank,2,0,0.0,75", "Running (Treadmill),1,0,0,1200"])
        #expect(Self.kind(file, "Plank") == .timed)
        #expect(Self.summaries(file, "Plank") == ["1:00", "1:15"])
        #expect(Self.kind(file, "Running (Treadmill)") == .timed)
    }

    @Test func aLoadWithZeroRepsIsAMissedAttemptWhetherOrNotMarked() throws {
        // Given Strong's missed lifts: `F,150.0,0.0` and a load with 0 reps and no mark, and a
        // row that says nothing at all
        let file = try Self.strong([
            "Deadlift (Barbell),1,140.0,3.0", "Deadlift (Barbell),F,150.0,0.0", "Deadlift (Barbell),2,150.0,0",
            "Deadlift (Barbell),3,0.0,0.0",
        ])
        // Then both are kept as missed attempts and the empty row is left out, counted
        #expect(file.badRows.isEmpty)
        #expect(Self.summaries(file, "Deadlift (Barbell)") == ["140kg x 3", "150kg x 0 (missed)", "150kg x 0 (missed)"])
        let missed = file.workouts.flatMap(\.sets)[1].values
        #expect(missed.kind == .failure && missed.reps == 0 && missed.isMissedAttempt)
        #expect(file.ignoredRows.map(\.reason) == [.emptySet])
    }

    @Test func hevysFailureSetWithZeroRepsIsAMissedAttempt() throws {
        // Given a Hevy file with a failure set of 0 reps at 100 kg
        let text = """
        "title","start_time","end_time","description","exercise_title","superset_id","exercise_notes","set_index","set_type","weight_kg","reps","distance_km","duration_seconds","rpe"
        "Push","3 Jul 2024, 18:00","3 Jul 2024, 19:00","","Bench Press (Barbell)",,"",0,"normal",90,5,,0,
        "Push","3 Jul 2024, 18:00","3 Jul 2024, 19:00","","Bench Press (Barbell)",,"",1,"failure",100,0,,0,
        """
        let file = try ImportParser.parse(Array(text.utf8), options: ImportOptions())
        #expect(file.badRows.isEmpty)
        #expect(Self.summaries(file, "Bench Press (Barbell)") == ["90kg x 5", "100kg x 0 (missed)"])
    }

    @Test(arguments: [
        ("Squat (Barbell)", EquipmentTag.loaded), ("Bench Press (Smith Machine)", .loaded), ("Curl (Dumbbell)", .loaded),
        ("Row (Cable)", .loaded), ("Swing (Kettlebell)", .loaded), ("Leg Press (Machine)", .loaded),
        ("Pull Up (Assisted)", .assisted), ("Dip (Weighted)", .addedLoad), ("Squat (Bodyweight)", .bodyweight),
    ])
    func equipmentTags(name: String, tag: EquipmentTag) {
        #expect(EquipmentTag(exerciseName: name) == tag)
    }

    @Test(arguments: ["Hammer Curl (Band)", "Squat", "Overhead Press (Each Side, Dumbbells", "(Barbell) Squat"])
    func namesWithoutAKnownTag(name: String) {
        #expect(EquipmentTag(exerciseName: name) == nil)
    }

    @Test func readingASetAgainAsTheSameKindChangesNothing() {
        // Given sets already read as a loaded and as a bodyweight exercise
        let loaded = ImportedKind(kind: .weighted, unit: .lb), bodyweight = ImportedKind(kind: .bodyweight, unit: .kg)
        let raw = [SetValues(bodyweight: true, reps: 12), SetValues(weight: Weight(Fixed(20), .kg), reps: 6),
                   SetValues(weight: Weight(Fixed(-20), .kg), bodyweight: true, reps: 6), SetValues(durationSeconds: 60)]
        for v in raw {
            for reading in [loaded, bodyweight] {
                let once = v.readingImported(as: reading)
                #expect(once.readingImported(as: reading) == once, "\(v.summary)")
            }
        }
        // And a read set moves between the two readings without losing its load
        let atNoLoad = SetValues(bodyweight: true, reps: 12).readingImported(as: loaded)
        #expect(atNoLoad.summary == "0lb x 12")
        #expect(atNoLoad.readingImported(as: bodyweight).summary == "bw x 12")
        #expect(SetValues(weight: Weight(Fixed(20), .kg), reps: 6).readingImported(as: bodyweight).readingImported(as: loaded).summary == "20kg x 6")
    }
}

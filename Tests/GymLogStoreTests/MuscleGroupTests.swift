import GymLogCore
import GymLogStore
import Testing

/// `stats --by muscle` groups by a keyword table until exercises carry their muscles (the
/// catalog issue); where the words are not enough it says "other" rather than a wrong group.
@Suite struct MuscleGroupTests {
    @Test(arguments: [
        ("Skullcrusher (Dumbbell)", "arms"), ("Skull Crusher (Barbell)", "arms"), ("Incline Curl (Dumbbell)", "arms"),
        ("Overhead Triceps Extension (Cable)", "arms"), ("Bench Dip", "arms"), ("Triceps Dip", "arms"),
        ("Incline Bench Press (Barbell)", "chest"), ("Incline Press (Dumbbell)", "chest"), ("Floor Press (Barbell)", "chest"),
        ("Dip", "chest"), ("Upright Row (Barbell)", "shoulders"), ("Lateral Raise (Dumbbell)", "shoulders"),
        ("Overhead Press (Barbell)", "shoulders"), ("Pallof Press (Cable)", "core"), ("Hip Raise", "other"),
        ("Incline Walk", "other"), ("Nordic Curl", "legs"), ("Leg Curl (Machine)", "legs"), ("Squat (Barbell)", "legs"),
        ("Bent Over Row (Barbell)", "back"), ("Hanging Leg Raise", "core"), ("Good Morning (Barbell)", "other"),
    ])
    func theNameDecidesOrItIsOther(name: String, group: String) {
        #expect(MuscleGroup.of(name: name, kind: .weighted) == group, "\(name)")
    }

    @Test func distanceWorkIsCardio() {
        #expect(MuscleGroup.of(name: "Incline Walk", kind: .distance) == "cardio")
    }
}

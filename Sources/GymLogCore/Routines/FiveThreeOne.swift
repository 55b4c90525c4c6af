/// Wendler's 5/3/1 as tables: four sessions a cycle (three working weeks and a deload), each
/// three sets at a percentage of the training max, and the training max's rise per cycle.
public enum FiveThreeOne {
    /// How the rule is written in a routine line (`ohp 5/3/1 tm 60`).
    public static let keyword = "5/3/1"
    /// Every 5/3/1 session has three working sets.
    public static let setsPerSession = 3
    /// Sessions in one cycle: weeks 1 to 3 and the deload.
    public static let weeksPerCycle = 4

    /// One set of a week: a percentage of the training max and the reps; `amrap` sets are
    /// "as many reps as possible" from that number up (written `5+`).
    public struct PlannedSet: Equatable, Sendable {
        /// The percentage of the training max.
        public var percent: Int
        /// The reps, or the least reps of an AMRAP set.
        public var reps: Int
        /// As many reps as possible (the week's last set, `5+`).
        public var amrap: Bool
    }

    /// Week 1 (65/75/85 x 5, 5, 5+), 2 (70/80/90 x 3, 3, 3+), 3 (75/85/95 x 5, 3, 1+) and the
    /// deload week 4 (40/50/60 x 5, no `+`).
    public static let weeks: [[PlannedSet]] = [
        [PlannedSet(percent: 65, reps: 5, amrap: false), PlannedSet(percent: 75, reps: 5, amrap: false),
         PlannedSet(percent: 85, reps: 5, amrap: true)],
        [PlannedSet(percent: 70, reps: 3, amrap: false), PlannedSet(percent: 80, reps: 3, amrap: false),
         PlannedSet(percent: 90, reps: 3, amrap: true)],
        [PlannedSet(percent: 75, reps: 5, amrap: false), PlannedSet(percent: 85, reps: 3, amrap: false),
         PlannedSet(percent: 95, reps: 1, amrap: true)],
        [PlannedSet(percent: 40, reps: 5, amrap: false), PlannedSet(percent: 50, reps: 5, amrap: false),
         PlannedSet(percent: 60, reps: 5, amrap: false)],
    ]

    /// What the training max rises by after each cycle: 2.5 kg / 5 lb for upper-body lifts,
    /// 5 kg / 10 lb for lower-body lifts, as Wendler prescribes.
    public static func trainingMaxIncrease(for region: LiftRegion, in unit: WeightUnit) -> Fixed {
        switch (region, unit) {
        case (.upper, .kg): Fixed(thousandths: 2500)
        case (.upper, .lb): Fixed(5)
        case (.lower, .kg): Fixed(5)
        case (.lower, .lb): Fixed(10)
        }
    }
}

/// Upper or lower body, for the size of a 5/3/1 training-max increase.
public enum LiftRegion: Sendable, Equatable {
    case upper, lower

    /// Lower body when a word of the name (folded as names are matched: case, accents and
    /// punctuation ignored, so `Back-Squat` has `squat`) starts with one of `lowerStems` or is
    /// one of `lowerWords`; everything else is upper body. Exercises carry no body region yet,
    /// so the name decides; an unknown lift gets the smaller increase, which errs on the slow side.
    public static func of(exerciseName: String) -> LiftRegion {
        let words = matchWords(exerciseName)
        let lower = words.contains { word in
            lowerWords.contains(String(word)) || lowerStems.contains { word.hasPrefix($0) }
        }
        return lower ? .lower : .upper
    }

    /// Word beginnings that make a lift lower body (`squats`, `deadlifting`, `lunges`).
    public static let lowerStems = ["squat", "deadlift", "lunge", "stepup"]
    /// Whole words that make a lift lower body.
    public static let lowerWords: Set<String> = [
        "dl", "rdl", "sldl", "leg", "legs", "calf", "calves", "hip", "glute", "glutes", "romanian",
        "bulgarian", "sumo", "hack", "pistol", "sled", "step", "morning",
    ]
}

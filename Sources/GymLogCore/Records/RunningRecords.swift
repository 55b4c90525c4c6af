/// A runner's records as a runner reads them: the fastest time over the standard distances
/// (mile, 5 km, 10 km, half and full marathon) instead of one per GPS distance logged
/// (`fastest 3022.712m`), and no record from a pace no human runs (a GPS glitch).
public enum RunningRecords {
    /// The standard distances, in metres, with their names.
    public static let distances: [(name: String, meters: Double)] = [
        ("mile", 1609.344), ("5km", 5000), ("10km", 10_000), ("half marathon", 21_097.5), ("marathon", 42_195),
    ]

    /// How much longer than a standard distance a set may be and still count for it: a GPS
    /// 5.07 km run is a 5 km, with its own (slower) time; a 6 km run is not.
    public static let slack = 1.05

    /// Whether the exercise is one done on foot, whose times these rules read.
    public static func applies(toExerciseNamed name: String) -> Bool {
        let words = Set(name.lowercased().split { !$0.isLetter }.map(String.init))
        return !words.isDisjoint(with: ["run", "running", "jog", "jogging", "treadmill", "walk", "walking", "hike", "hiking", "sprint", "sprints"])
    }

    /// Whether a human can cover `meters` in `seconds` on foot: no faster than the world
    /// records (100 m 10.4 m/s, a mile 7.2 m/s, 5 km 6.6, 10 km 6.3, a marathon 5.9), with the
    /// speed of the shorter end of each span allowed over all of it.
    public static func humanlyPossible(meters: Double, seconds: Double) -> Bool {
        guard meters > 0, seconds > 0 else { return false }
        let limit: Double
        switch meters {
        case ..<400: limit = 10.5
        case ..<1609.344: limit = 9.3
        case ..<5000: limit = 7.3
        case ..<10_000: limit = 6.7
        case ..<21_097.5: limit = 6.4
        default: limit = 6.2
        }
        return meters / seconds <= limit
    }

    /// The standard distance a set of `meters` counts for, if any.
    public static func standardDistance(of meters: Double) -> (name: String, meters: Double)? {
        distances.first { meters >= $0.meters - 0.5 && meters < $0.meters * slack }
    }
}

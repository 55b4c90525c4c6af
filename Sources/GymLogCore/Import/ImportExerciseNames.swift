import Foundation

/// One gymlog name for a lift that apps spell differently, so a lifter who used two apps gets
/// one history: Strong and Hevy write `Bench Press (Barbell)`, Fitbod `Barbell Bench Press`,
/// Liftosaur `Bench Press, Barbell`. Strong's form is the one kept (it is also what gymlog's
/// kinds read: `EquipmentTag` takes the equipment in parentheses), so Strong, Hevy and
/// gymlog's own files are read as written and the other apps' names are brought to it: first
/// the table of known spellings, then the equipment moved from the front (`Barbell Row`) or
/// from after a comma (`Row, Barbell`) into parentheses. A name neither knows is kept as written.
public enum ExerciseSpellings {
    /// Equipment as apps put it before a name or after a comma, and how Strong writes it.
    static let equipment: [String: String] = [
        "barbell": "Barbell", "dumbbell": "Dumbbell", "dumbbells": "Dumbbell", "cable": "Cable", "machine": "Machine",
        "kettlebell": "Kettlebell", "smith machine": "Smith Machine", "ez bar": "EZ Bar", "ez-bar": "EZ Bar",
        "trap bar": "Trap Bar", "bodyweight": "Bodyweight", "weighted": "Weighted", "assisted": "Assisted",
        "band": "Band", "leverage machine": "Machine",
    ]

    /// Names the rules alone would not bring to Strong's (a lift named without its
    /// equipment, or with other words), lower case.
    static let known: [String: String] = [
        "bench press": "Bench Press (Barbell)", "barbell bench press": "Bench Press (Barbell)",
        "squat": "Squat (Barbell)", "back squat": "Squat (Barbell)", "barbell squat": "Squat (Barbell)", "barbell back squat": "Squat (Barbell)",
        "deadlift": "Deadlift (Barbell)", "barbell deadlift": "Deadlift (Barbell)",
        "overhead press": "Overhead Press (Barbell)", "barbell shoulder press": "Overhead Press (Barbell)",
        "military press": "Overhead Press (Barbell)", "standing barbell shoulder press": "Overhead Press (Barbell)",
        "barbell row": "Bent Over Row (Barbell)", "bent over barbell row": "Bent Over Row (Barbell)",
        "pendlay row": "Pendlay Row (Barbell)", "dumbbell bicep curl": "Bicep Curl (Dumbbell)",
        "barbell curl": "Bicep Curl (Barbell)", "lat pulldown": "Lat Pulldown (Cable)", "cable lat pulldown": "Lat Pulldown (Cable)",
        "pull up": "Pull Up", "pull-up": "Pull Up", "pullup": "Pull Up", "pull ups": "Pull Up",
        "chin up": "Chin Up", "chin-up": "Chin Up", "push up": "Push Up", "push-up": "Push Up", "pushup": "Push Up",
        "hip thrust": "Hip Thrust (Barbell)", "barbell hip thrust": "Hip Thrust (Barbell)",
        "romanian deadlift": "Romanian Deadlift (Barbell)", "barbell romanian deadlift": "Romanian Deadlift (Barbell)",
        "front squat": "Front Squat (Barbell)", "barbell front squat": "Front Squat (Barbell)",
    ]

    /// Strong's spelling of `name`, written by another app; `name` itself when none is known.
    public static func canonical(_ name: String) -> String {
        let key = name.lowercased()
        if let known = known[key] { return known }
        if let comma = name.lastIndex(of: ","), let tag = equipment[name[name.index(after: comma)...]
            .trimmingCharacters(in: .whitespaces).lowercased()] {
            let lift = name[..<comma].trimmingCharacters(in: .whitespaces)
            if !lift.isEmpty { return known[lift.lowercased()].map { withTag($0, tag) } ?? "\(lift) (\(tag))" }
        }
        for (word, tag) in equipment where key.hasPrefix(word + " ") && key.count > word.count + 1 {
            let lift = name.dropFirst(word.count + 1).trimmingCharacters(in: .whitespaces)
            return "\(lift) (\(tag))"
        }
        return name
    }

    /// A known name with its equipment replaced by `tag` (`Squat (Barbell)` to `Squat (Dumbbell)`).
    static func withTag(_ name: String, _ tag: String) -> String {
        guard let open = name.lastIndex(of: "(") else { return "\(name) (\(tag))" }
        return name[..<open].trimmingCharacters(in: .whitespaces) + " (\(tag))"
    }
}

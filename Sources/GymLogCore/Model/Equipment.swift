import Foundation

/// What an exercise is done with: its catalog link's equipment (`Equipment.of`), else what its
/// name says (`Curl (Dumbbell)`, `incline db press`). A bar and plates belong to barbell
/// exercises only: the plates shown beside a planned set and the warm-up ramp from the empty
/// bar. A name that links to nothing and says nothing is read as a barbell lift, as before.
public enum Equipment: String, Equatable, Sendable {
    case barbell, dumbbell, kettlebell, cable, machine, band, bodyweight
    /// An EZ curl bar: plates on a bar of its own weight (`[plates] kg_ez_bar`).
    case ezBar = "ez bar"
    /// A trap (hex) bar: plates on a bar of its own weight (`[plates] kg_trap_bar`).
    case trapBar = "trap bar"

    /// The equipment `name` names: its last parenthesised word (`(Dumbbell)`, as Strong and
    /// Hevy write it), else a word of it (`db`, `cable`, `smith`); nil when it names none.
    public init?(exerciseName name: String) {
        if let word = Self.parenthesised(name) {
            guard let equipment = Equipment(tagWord: word) else { return nil }
            self = equipment
            return
        }
        let words = Set(name.lowercased().split(whereSeparator: { !$0.isLetter }))
        let table: [(Set<Substring>, Equipment)] = [
            (["db", "dumbbell", "dumbbells"], .dumbbell), (["kb", "kettlebell", "kettlebells"], .kettlebell),
            (["cable", "cables"], .cable), (["machine", "smith"], .machine), (["ez"], .ezBar), (["trap", "hex"], .trapBar),
            (["band", "banded"], .band), (["barbell", "bb"], .barbell),
        ]
        if let found = table.first(where: { !$0.0.isDisjoint(with: words) }) {
            self = found.1
            return
        }
        let spaced = " " + name.lowercased().split(whereSeparator: { !$0.isLetter }).joined(separator: " ") + " "
        guard let station = Self.stations.first(where: { spaced.contains(" \($0.phrase) ") }) else { return nil }
        self = station.equipment
    }

    /// What an exercise is done with: the equipment its name puts in parentheses (`Hip Thrust
    /// (Dumbbell)`, the lifter's or the app's own word, which wins over a link to an entry the
    /// catalog has only with a barbell), else the equipment of its catalog link when the catalog
    /// names one gymlog knows (`Hack Squat` is a machine, `Goblet Squat` a kettlebell), else what
    /// its name says; nil, as for the name alone, is a barbell.
    public static func of(exerciseName name: String, link: ExerciseLink?) -> Equipment? {
        if let word = parenthesised(name), let tagged = Equipment(tagWord: word) { return tagged }
        return link?.equipment.flatMap(Equipment.init(catalogEquipment:)) ?? Equipment(exerciseName: name)
    }

    /// The equipment the catalog names (`kettlebells`, `e-z curl bar`, `body only`); nil for
    /// what says nothing about a bar (`other`, `medicine ball`, `foam roll`).
    init?(catalogEquipment: String) {
        switch catalogEquipment {
        case "barbell": self = .barbell
        case "dumbbell": self = .dumbbell
        case "kettlebells": self = .kettlebell
        case "cable": self = .cable
        case "machine": self = .machine
        case "bands": self = .band
        case "body only": self = .bodyweight
        case "e-z curl bar": self = .ezBar
        default: return nil
        }
    }

    /// Names that are done at a machine or a cable station without saying so (`leg curl`,
    /// `lat pulldown`): never a bar and plates. Only names no barbell lift shares; read only for
    /// an exercise whose link names no equipment.
    static let stations: [(phrase: String, equipment: Equipment)] = [
        ("leg curl", .machine), ("leg extension", .machine), ("leg press", .machine), ("pec deck", .machine),
        ("hip abduction", .machine), ("hip adduction", .machine), ("abductor", .machine), ("adductor", .machine),
        ("pulldown", .cable), ("pull down", .cable), ("pushdown", .cable), ("push down", .cable),
        ("face pull", .cable), ("crossover", .cable),
    ]

    /// The equipment a parenthesised word names, as Strong and Hevy write it (`barbell`,
    /// `dumbbell`, `smith machine`, `ez bar`, `assisted`); nil for a word gymlog does not know.
    /// The importers read an exercise's kind from the same word (`EquipmentTag`).
    init?(tagWord word: String) {
        switch word {
        case "barbell", "barbel": self = .barbell
        case "dumbbell", "dumbbells": self = .dumbbell
        case "kettlebell", "kettlebells": self = .kettlebell
        case "cable": self = .cable
        case "machine", "smith machine", "plate loaded", "machine plates": self = .machine
        case "ez bar", "ez-bar": self = .ezBar
        case "trap bar", "hex bar": self = .trapBar
        case "band", "resistance band": self = .band
        case "bodyweight", "weighted", "assisted": self = .bodyweight
        default: return nil
        }
    }

    /// Whether loads are made with a bar and the configured plates (`[plates]`): a barbell,
    /// an EZ bar or a trap bar, each with its own bar (`Settings.plates(_:for:)`).
    public var usesBarAndPlates: Bool { self == .barbell || self == .ezBar || self == .trapBar }

    /// Whether loads go up by the step between dumbbells (`[plates] kg_dumbbell_step`).
    public var isDumbbells: Bool { self == .dumbbell || self == .kettlebell }

    /// `name`'s last parenthesised word, trimmed and lower case: `Squat (Barbell)` -> `barbell`.
    static func parenthesised(_ name: String) -> String? {
        guard name.hasSuffix(")"), let open = name.lastIndex(of: "(") else { return nil }
        return name[name.index(after: open)..<name.index(before: name.endIndex)].trimmingCharacters(in: .whitespaces).lowercased()
    }
}

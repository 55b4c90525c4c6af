import Foundation

/// One exercise of the vendored catalog (yuhonas/free-exercise-db, public domain) or of gymlog's
/// additions to it (`CatalogAdditions.swift`): what it is done with and which muscles it trains,
/// as the catalog spells them.
public struct CatalogEntry: Equatable, Sendable {
    /// The catalog's own id (`Barbell_Squat`), stable across its versions.
    public var id: String
    public var name: String
    /// `barbell`, `dumbbell`, `cable`, `machine`, `body only`, `kettlebells`, `bands`,
    /// `e-z curl bar`, ...; nil when the catalog says none.
    public var equipment: String?
    public var primaryMuscles: [String]
    public var secondaryMuscles: [String]
    /// `push`, `pull`, `static`; nil when the catalog says none.
    public var force: String?
    /// `compound` or `isolation`; nil when the catalog says none.
    public var mechanic: String?
    /// `strength`, `powerlifting`, `stretching`, `cardio`, ...
    public var category: String
    /// `beginner`, `intermediate`, `expert`.
    public var level: String

    /// The entry of one catalog line (`CatalogData.swift`'s columns); nil for a line that does not read.
    init?(line: Substring) {
        let cells = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        guard cells.count == 9, !cells[0].isEmpty, !cells[1].isEmpty else { return nil }
        func optional(_ s: String) -> String? { s.isEmpty ? nil : s }
        func list(_ s: String) -> [String] { s.split(separator: ",").map(String.init) }
        id = cells[0]; name = cells[1]; equipment = optional(cells[2])
        primaryMuscles = list(cells[3]); secondaryMuscles = list(cells[4])
        force = optional(cells[5]); mechanic = optional(cells[6]); category = cells[7]; level = cells[8]
    }

    /// Every muscle it trains, primary first.
    public var muscles: [String] { primaryMuscles + secondaryMuscles }
}

/// The exercise catalog gymlog ships: read from the text compiled into the binary the first
/// time it is asked for (`gymlog log` never pays for it), then kept.
public enum ExerciseCatalog {
    /// Every entry: the vendored catalog's in its id order, then gymlog's additions.
    public static let entries: [CatalogEntry] = (catalogText.split(separator: "\n") + catalogAdditionsText.split(separator: "\n"))
        .compactMap(CatalogEntry.init(line:))

    /// How many entries there are, without parsing them (help texts say it at every start).
    public static let count = catalogEntryCount + catalogAdditionsCount

    /// The entry with catalog id `id`.
    public static func entry(id: String) -> CatalogEntry? { entries.first { $0.id == id } }

    /// The muscles the catalog names, sorted. Written out, not gathered from `entries`: help
    /// texts name them, and ArgumentParser builds every command's help text in every process,
    /// so gathering them parsed the whole catalog at each start (16 ms of `gymlog log`'s CPU).
    /// `ExerciseCatalogTests` checks the list against the entries.
    public static let muscles = [
        "abdominals", "abductors", "adductors", "biceps", "calves", "chest", "forearms", "glutes", "hamstrings", "lats",
        "lower back", "middle back", "neck", "quadriceps", "shoulders", "traps", "triceps",
    ]

    /// The equipment the catalog names, sorted (written out, as `muscles` is).
    public static let equipment = [
        "bands", "barbell", "body only", "cable", "dumbbell", "e-z curl bar", "exercise ball", "foam roll", "kettlebells",
        "machine", "medicine ball", "other",
    ]

    /// The entries with a word starting with each word of `words` (case, accents and
    /// punctuation aside: `pull` finds `Pullups`), that train `muscle` (primary or secondary)
    /// and use `equipment` when given; those training it as a primary muscle first, then by name.
    public static func search(_ words: [String], muscle: String? = nil, equipment: String? = nil) -> [CatalogEntry] {
        let wanted = words.flatMap { matchWords($0) }
        let found = entries.filter { entry in
            let name = matchWords(entry.name)
            return wanted.allSatisfy { word in name.contains { $0.hasPrefix(word) } }
                && muscle.map { entry.muscles.contains($0) } ?? true
                && equipment.map { entry.equipment == $0 } ?? true
        }
        return found.sorted { a, b in
            let ap = muscle.map { a.primaryMuscles.contains($0) } ?? true, bp = muscle.map { b.primaryMuscles.contains($0) } ?? true
            return ap != bp ? ap : a.name.localizedStandardCompare(b.name) == .orderedAscending
        }
    }
}

import Foundation

/// An exercise's catalog fields as stored (synced fields of the exercise): the one meaning of
/// `catalog_id`, `primary_muscles`, `secondary_muscles` and `equipment`.
public struct ExerciseLinkFields: Equatable, Sendable {
    /// Null: linked automatically from the name; "": never linked (`exercises unlink`); else
    /// the catalog id linked by hand (`exercises link`).
    public var catalogID: String?
    /// A lifter's own description (`exercises muscles`), muscles as the catalog names them;
    /// empty when none. It wins over any link.
    public var primaryMuscles: [String]
    public var secondaryMuscles: [String]
    public var equipment: String?

    public init(catalogID: String? = nil, primaryMuscles: [String] = [], secondaryMuscles: [String] = [], equipment: String? = nil) {
        self.catalogID = catalogID; self.primaryMuscles = primaryMuscles; self.secondaryMuscles = secondaryMuscles
        self.equipment = equipment
    }

    /// A stored list of muscles (`chest,triceps`); nil or "" is none.
    public static func muscles(_ stored: String?) -> [String] {
        (stored ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// A list of muscles as stored; nil for none.
    public static func stored(_ muscles: [String]) -> String? {
        muscles.isEmpty ? nil : muscles.joined(separator: ",")
    }

    /// Whether nothing is stored: the exercise is linked from its name.
    public var isFromName: Bool { self == ExerciseLinkFields() }

    /// The native export's `exercise_link` cell: the stored fields as `key=value` pairs joined by
    /// `;` (`catalog=Barbell_Squat`, `catalog=` for unlinked by hand, `primary=chest,triceps;
    /// secondary=shoulders;equipment=dumbbell`); empty when linked from the name. Catalog ids,
    /// muscles and equipment never hold `;` or `=`.
    public var exportText: String {
        var pairs: [String] = []
        if let catalogID { pairs.append("catalog=" + catalogID) }
        if let primary = Self.stored(primaryMuscles) { pairs.append("primary=" + primary) }
        if let secondary = Self.stored(secondaryMuscles) { pairs.append("secondary=" + secondary) }
        if let equipment { pairs.append("equipment=" + equipment) }
        return pairs.joined(separator: ";")
    }

    /// The fields an `exercise_link` cell holds (`exportText`), muscles and equipment checked
    /// against the catalog; a refusal naming what does not read.
    public init(exportText text: String) throws {
        self.init()
        guard !text.isEmpty else { return }
        var custom: (primary: [String], secondary: [String], equipment: String?) = ([], [], nil)
        for pair in text.split(separator: ";", omittingEmptySubsequences: false) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 2 else { throw UserError("exercise_link '\(text)': '\(pair)' is not key=value") }
            switch parts[0] {
            case "catalog": catalogID = parts[1]
            case "primary": custom.primary = Self.muscles(parts[1])
            case "secondary": custom.secondary = Self.muscles(parts[1])
            case "equipment": custom.equipment = parts[1]
            default: throw UserError("exercise_link '\(text)': '\(parts[0])' is not catalog, primary, secondary or equipment")
            }
        }
        guard !custom.primary.isEmpty || !custom.secondary.isEmpty || custom.equipment != nil else { return }
        let checked = try Self.custom(primary: custom.primary, secondary: custom.secondary, equipment: custom.equipment)
        primaryMuscles = checked.primaryMuscles
        secondaryMuscles = checked.secondaryMuscles
        equipment = checked.equipment
    }
}

/// What an exercise trains and is done with, and where that comes from.
public struct ExerciseLink: Equatable, Sendable {
    public enum Source: String, Sendable {
        /// Found from the name by `CatalogMatcher`.
        case automatic
        /// Set with `exercises link`.
        case byHand = "by hand"
        /// Described with `exercises muscles`.
        case custom
        /// `exercises unlink`: never linked until linked again.
        case unlinkedByHand = "unlinked by hand"
        /// Nothing matched the name well enough.
        case unlinked
    }

    public var source: Source
    /// The linked entry (automatic or by hand); nil for custom and unlinked.
    public var entry: CatalogEntry?
    public var primaryMuscles: [String]
    public var secondaryMuscles: [String]
    public var equipment: String?

    /// Whether anything says which muscles the exercise trains.
    public var isLinked: Bool { source != .unlinked && source != .unlinkedByHand }

    /// The link of an exercise named `name` (and `aliases`) with these stored fields. A
    /// catalog id this catalog does not have (linked on a device with a newer one) reads as unlinked.
    public init(name: String, aliases: [String] = [], fields: ExerciseLinkFields) {
        if !fields.primaryMuscles.isEmpty {
            self.init(source: .custom, entry: nil, primary: fields.primaryMuscles, secondary: fields.secondaryMuscles, equipment: fields.equipment)
        } else if let id = fields.catalogID {
            if let entry = ExerciseCatalog.entry(id: id) { self.init(source: .byHand, entry: entry) } else { self.init(source: .unlinkedByHand, entry: nil) }
        } else if let entry = CatalogMatcher.entry(name: name, aliases: aliases) {
            self.init(source: .automatic, entry: entry)
        } else {
            self.init(source: .unlinked, entry: nil)
        }
    }

    private init(source: Source, entry: CatalogEntry?, primary: [String] = [], secondary: [String] = [], equipment: String? = nil) {
        self.source = source
        self.entry = entry
        let primaries = entry?.primaryMuscles ?? primary
        primaryMuscles = primaries
        // The catalog lists a muscle as both now and then (`All Fours Quad Stretch`): primary wins.
        secondaryMuscles = (entry?.secondaryMuscles ?? secondary).filter { !primaries.contains($0) }
        self.equipment = entry?.equipment ?? equipment
    }
}

extension ExerciseCatalog {
    /// The entry `typed` names: its id (`Barbell_Squat`) or its name (`Barbell Squat`), case,
    /// accents and punctuation aside.
    public static func entry(named typed: String) -> CatalogEntry? {
        if let e = entry(id: typed) { return e }
        let key = matchKey(typed)
        return entries.first { matchKey($0.name) == key || matchKey($0.id) == key }
    }

    /// `value` as the catalog spells it, case aside (`Dumbbell` -> `dumbbell`); nil when the
    /// catalog has no such muscle or equipment.
    public static func known(_ value: String, in names: [String]) -> String? {
        names.first { $0.compare(value, options: [.caseInsensitive, .diacriticInsensitive]) == .orderedSame }
    }
}

extension ExerciseLinkFields {
    /// A lifter's own description, every muscle and the equipment spelt as the catalog spells
    /// them (`Chest` -> `chest`); a refusal naming the first one the catalog does not know and
    /// listing those it does.
    public static func custom(primary: [String], secondary: [String], equipment: String?) throws -> ExerciseLinkFields {
        func muscle(_ typed: String) throws -> String {
            guard let known = ExerciseCatalog.known(typed, in: ExerciseCatalog.muscles) else {
                throw UserError("'\(typed)' is not a muscle gymlog knows; use \(ExerciseCatalog.muscles.joined(separator: ", ")).")
            }
            return known
        }
        guard !primary.isEmpty else {
            throw UserError("Name at least one primary muscle, e.g. `--primary chest,triceps`; the muscles are "
                + "\(ExerciseCatalog.muscles.joined(separator: ", ")).")
        }
        let primaries = try primary.map(muscle)
        let secondaries = try secondary.map(muscle).filter { !primaries.contains($0) }
        let kit = try equipment.map { typed in
            guard let known = ExerciseCatalog.known(typed, in: ExerciseCatalog.equipment) else {
                throw UserError("'\(typed)' is not equipment gymlog knows; use "
                    + "\(ExerciseCatalog.equipment.map { $0.contains(" ") ? "\"\($0)\"" : $0 }.joined(separator: ", ")).")
            }
            return known
        }
        func once(_ list: [String]) -> [String] {
            var seen = Set<String>()
            return list.filter { seen.insert($0).inserted }
        }
        return ExerciseLinkFields(catalogID: nil, primaryMuscles: once(primaries), secondaryMuscles: once(secondaries), equipment: kit)
    }
}

extension ExerciseLink {
    /// What one working set of the exercise counts for each muscle in `stats --by muscle`: 1
    /// for a primary muscle, `secondaryWeight` for a secondary one (half, by convention). Empty
    /// for an exercise that is not linked: its sets are never guessed onto a muscle.
    public func muscleShares(secondaryWeight: Double) -> [(muscle: String, share: Double)] {
        guard isLinked else { return [] }
        return primaryMuscles.map { ($0, 1) } + (secondaryWeight > 0 ? secondaryMuscles.map { ($0, secondaryWeight) } : [])
    }
}

import Foundation
import ArgumentParser
import GymLogCore
import GymLogStore

/// `exercises search`: the catalog and your own exercises, for writing routines.
struct SearchExercises: ContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "Search the exercise catalog and your own exercises by words, muscle or equipment.",
        discussion: """
          gymlog exercises search squat
          gymlog exercises search press --muscle shoulders --equipment dumbbell
          gymlog exercises search --muscle hamstrings --json

        The catalog is free-exercise-db (public domain) and a few lifts gymlog adds, \
        \(ExerciseCatalog.count) exercises, and ships inside gymlog. A word matches the start of a word of a name, ignoring case, \
        accents and punctuation (`pull` finds Pullups).
        """)
    @OptionGroup var global: GlobalOptions
    @Argument(help: "Words every name found holds.") var words: [String] = []
    @Option(help: ArgumentHelp("Only exercises training this muscle (primary or secondary).", valueName: "muscle"))
    var muscle: String?
    @Option(help: ArgumentHelp("Only exercises done with this equipment.", valueName: "equipment"))
    var equipment: String?
    @OptionGroup var output: JSONFlag

    /// How many catalog entries a terminal gets before it is asked to narrow the search.
    static let shown = 25

    func validate() throws {
        if words.isEmpty && muscle == nil && equipment == nil {
            throw ValidationError("Give words to search for, --muscle or --equipment, e.g. `gymlog exercises search squat`.")
        }
        if let muscle, ExerciseCatalog.known(muscle, in: ExerciseCatalog.muscles) == nil {
            throw ValidationError("--muscle \(muscle) is not a muscle the catalog names; use one of \(ExerciseCatalog.muscles.joined(separator: ", ")).")
        }
        if let equipment, ExerciseCatalog.known(equipment, in: ExerciseCatalog.equipment) == nil {
            throw ValidationError("--equipment \(equipment) is not equipment the catalog names; use one of "
                + "\(ExerciseCatalog.equipment.map { $0.contains(" ") ? "\"\($0)\"" : $0 }.joined(separator: ", ")).")
        }
    }

    func run(in context: CLIContext) async throws {
        let muscle = self.muscle.flatMap { ExerciseCatalog.known($0, in: ExerciseCatalog.muscles) }
        let equipment = self.equipment.flatMap { ExerciseCatalog.known($0, in: ExerciseCatalog.equipment) }
        let found = ExerciseCatalog.search(words, muscle: muscle, equipment: equipment)
        // Your own exercises by their names, and by the muscles and equipment of their links.
        let wanted = words.flatMap { matchWords($0) }
        let yours = try context.db().exerciseSummaries().filter { s in
            let name = matchWords(s.exercise.name)
            return wanted.allSatisfy { word in name.contains { $0.hasPrefix(word) } }
                && muscle.map { (s.link.primaryMuscles + s.link.secondaryMuscles).contains($0) } ?? true
                && equipment.map { s.link.equipment == $0 } ?? true
        }
        if output.json {
            context.printJSON(.object([
                ("yours", .array(yours.map { .object([("id", .string($0.exercise.id.key)), ("name", .string($0.exercise.name)),
                                                      ("kind", .string($0.exercise.kind.rawValue)), ("set_count", .int($0.setCount))]) })),
                ("catalog", .array(found.map(JSONShapes.catalogEntry))),
            ]))
            return
        }
        if found.isEmpty && yours.isEmpty {
            context.print("Nothing matches; try fewer words, or one word's start (`press`, `curl`).")
            return
        }
        if !yours.isEmpty {
            context.print("Yours:")
            for s in yours { context.print("  \(s.exercise.name)  \(s.exercise.kind.rawValue), \(plural(s.setCount, "set"))") }
        }
        if !found.isEmpty {
            context.print("In the catalog (\(found.count)):")
            for entry in found.prefix(Self.shown) { context.print("  " + CatalogText.line(entry)) }
            if found.count > Self.shown {
                context.print("  and \(found.count - Self.shown) more: add a word, --muscle or --equipment, or --json for all.")
            }
        }
    }
}

/// How the catalog reads on a terminal and in JSON.
enum CatalogText {
    /// `Barbell Squat · barbell · quadriceps; also calves, glutes`.
    static func line(_ entry: CatalogEntry) -> String {
        var parts = [entry.name]
        if let equipment = entry.equipment { parts.append(equipment) }
        var muscles = entry.primaryMuscles.joined(separator: ", ")
        if !entry.secondaryMuscles.isEmpty { muscles += "; also " + entry.secondaryMuscles.joined(separator: ", ") }
        if !muscles.isEmpty { parts.append(muscles) }
        return parts.joined(separator: " · ")
    }
}

extension JSONShapes {
    /// A catalog entry, every field gymlog keeps.
    static func catalogEntry(_ e: CatalogEntry) -> JSON {
        .object([("id", .string(e.id)), ("name", .string(e.name)), ("equipment", .string(e.equipment)),
                 ("primary_muscles", .array(e.primaryMuscles.map { .string($0) })),
                 ("secondary_muscles", .array(e.secondaryMuscles.map { .string($0) })),
                 ("force", .string(e.force)), ("mechanic", .string(e.mechanic)), ("category", .string(e.category)), ("level", .string(e.level))])
    }
}

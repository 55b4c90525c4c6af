import ArgumentParser
import GymLogCore
import GymLogStore

/// `exercises link`: a catalog entry chosen by hand.
struct LinkExercise: ContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "link", abstract: "Link an exercise to a catalog entry by hand: its muscles and equipment come from it.",
        discussion: """
          An exercise links by itself when its name matches one entry
          well (`Bench Press (Barbell)`, `squat`); otherwise, or to
          choose another entry, link it by hand. Find the entry with
          `gymlog exercises search`; give its name or its id.

          gymlog exercises link "Frog Pump" Barbell Glute Bridge
          gymlog exercises link squat Barbell_Full_Squat
          gymlog exercises link squat --auto
              from its name again, as when it was new
        """)
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The exercise (quote a name with spaces).") var name: String
    @Argument(help: "The catalog entry: its name or id, as `exercises search` lists them.") var entry: [String] = []
    @Flag(help: "Link it from its name again, as a new exercise is.") var auto = false

    func validate() throws {
        if entry.isEmpty == !auto {
            throw ValidationError(auto ? "--auto links '\(name)' from its name; leave out the entry, or --auto."
                : "Name the catalog entry after the exercise, e.g. `gymlog exercises link \"\(name)\" Barbell Squat`, or --auto.")
        }
    }

    func run(in context: CLIContext) async throws {
        let typed = entry.joined(separator: " ")
        if auto {
            let db = try context.db()
            let e = try db.linkExerciseByName(name, typed: context.typedLine ?? "exercises link \(name) --auto")
            let link = try db.exerciseLink(e.id)
            context.print("'\(e.name)' is linked from its name: " + (link?.entry.map(CatalogText.line) ?? "no catalog entry matches it well, so it stays unlinked") + ".")
            return
        }
        guard let found = ExerciseCatalog.entry(named: typed) else {
            let near = ExerciseCatalog.search(entry).prefix(3).map { "'\($0.name)'" }
            throw UserError("'\(typed)' is not an entry of the catalog; "
                + (near.isEmpty ? "find one with `gymlog exercises search WORDS`." : "did you mean \(near.joined(separator: ", "))?"))
        }
        let e = try context.db().linkExercise(name, to: found, typed: context.typedLine ?? "exercises link \(name) \(typed)")
        context.print("'\(e.name)' is linked to \(CatalogText.line(found)).")
    }
}

/// `exercises unlink`: never linked, until linked again.
struct UnlinkExercise: ContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "unlink", abstract: "Unlink an exercise: it trains no muscle gymlog knows until linked again.",
        discussion: """
          Unlinked, the exercise is never linked from its name again;
          `stats --by muscle` lists its sets as unlinked.

          gymlog exercises unlink "Around The World"
        """)
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The exercise.") var name: [String]

    func run(in context: CLIContext) async throws {
        let typed = name.joined(separator: " ")
        let e = try context.db().unlinkExercise(typed, typed: context.typedLine ?? "exercises unlink \(typed)")
        context.print("'\(e.name)' is unlinked; `gymlog exercises link \"\(e.name)\" ENTRY` links it again.")
    }
}

/// `exercises muscles`: a lifter's own description.
struct MusclesExercise: ContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "muscles", abstract: "Describe an exercise's muscles and equipment yourself, for one the catalog lacks.",
        discussion: """
          Your description wins over any link; `exercises link` or
          `unlink` clears it.

          gymlog exercises muscles Landmine --primary shoulders --secondary triceps
          gymlog exercises muscles Landmine --primary shoulders --equipment barbell

        Muscles, as the catalog names them: \(ExerciseCatalog.muscles.joined(separator: ", ")). \
        Equipment: \(ExerciseCatalog.equipment.joined(separator: ", ")).
        """)
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The exercise.") var name: [String]
    @Option(help: ArgumentHelp("The muscles it trains most, comma-separated.", valueName: "muscles")) var primary: String
    @Option(help: ArgumentHelp("The muscles it also trains, comma-separated.", valueName: "muscles")) var secondary: String?
    @Option(help: ArgumentHelp("What it is done with.", valueName: "equipment")) var equipment: String?

    /// The description typed; a refusal naming a muscle or equipment the catalog does not know.
    func fields() throws -> ExerciseLinkFields {
        func list(_ typed: String?) -> [String] {
            (typed ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
        do {
            return try ExerciseLinkFields.custom(primary: list(primary), secondary: list(secondary), equipment: equipment)
        } catch let error as UserError {
            throw ValidationError(error.message)
        }
    }

    func validate() throws { _ = try fields() }

    func run(in context: CLIContext) async throws {
        let typed = name.joined(separator: " "), fields = try fields()
        let e = try context.db().describeExercise(typed, as: fields, typed: context.typedLine ?? "exercises muscles \(typed)")
        var muscles = fields.primaryMuscles.joined(separator: ", ")
        if !fields.secondaryMuscles.isEmpty { muscles += "; also " + fields.secondaryMuscles.joined(separator: ", ") }
        context.print("'\(e.name)' trains \(muscles)" + (fields.equipment.map { ", with \($0)" } ?? "") + ".")
    }
}

import ArgumentParser
import GymLogCore
import GymLogStore

/// `exercises info`: what an exercise is and what the lifter did with it.
struct InfoExercise: ExerciseArgumentCommand {
    static let configuration = CommandConfiguration(
        commandName: "info", abstract: "Show an exercise's kind, equipment, muscles, catalog link, sets and records.",
        discussion: """
          The link says where the muscles come from: automatic (the
          name matched one catalog entry well), by hand (`exercises
          link`), custom (`exercises muscles`), or unlinked.

          gymlog exercises info squat
          gymlog exercises info "Bench Press (Barbell)" --json
        """)
    @OptionGroup var global: GlobalOptions
    @Argument(help: "An exercise name, alias or unambiguous prefix.", completion: .custom(exerciseCompletions)) var name: [String]
    @OptionGroup var output: JSONFlag

    func run(in context: CLIContext) async throws {
        let db = try context.db()
        let exercise = try db.existingExercise(name.joined(separator: " "))
        guard let summary = try db.exerciseSummaries().first(where: { $0.exercise.id == exercise.id }) else {
            throw UserError("'\(exercise.name)' was deleted just now; list the exercises with `gymlog exercises`.")
        }
        let records = try db.records(exercise: exercise).first?.records ?? []
        if output.json {
            guard case .object(let fields) = JSONShapes.exercise(summary) else { return }
            context.printJSON(.object(fields + [
                ("first_performed_at", .time(summary.firstPerformedAt, summary.firstPerformedOffset)),
                ("unit", .string(context.settings.defaultUnit.rawValue)),
                ("records", .array(records.map { JSONShapes.record($0, exercise: exercise, settings: context.settings) })),
            ]))
            return
        }
        lines(summary).forEach(context.print)
        if !records.isEmpty {
            Render.records([(exercise, records)], settings: context.settings, style: .stdout, width: Render.wrapColumns)
                .dropFirst().forEach(context.print)
        }
    }

    /// The exercise's name and kind, its link and muscles, aliases and use.
    func lines(_ s: ExerciseSummary) -> [String] {
        let link = s.link
        var lines = ["\(s.exercise.name) · \(s.exercise.kind.rawValue)" + (link.equipment.map { " · \($0)" } ?? "")]
        switch link.source {
        case .automatic, .byHand:
            lines.append("Linked \(link.source == .automatic ? "automatically" : "by hand") to \(link.entry?.name ?? "?") in the catalog.")
        case .custom:
            lines.append("Muscles described by you (`gymlog exercises muscles`).")
        case .unlinkedByHand, .unlinked:
            lines.append((link.source == .unlinked ? "Not linked: no catalog entry matches its name well" : "Unlinked by hand")
                + "; `gymlog exercises link \"\(s.exercise.name)\" ENTRY` links it (`exercises search WORDS` finds one).")
        }
        if !link.primaryMuscles.isEmpty {
            lines.append("Muscles: " + link.primaryMuscles.joined(separator: ", ")
                + (link.secondaryMuscles.isEmpty ? "" : "; also " + link.secondaryMuscles.joined(separator: ", ")))
        }
        if !s.aliases.isEmpty { lines.append("Aliases: " + s.aliases.joined(separator: ", ")) }
        var use = plural(s.setCount, "set")
        if let first = s.firstPerformedAt { use += ", first \(localDate(millis: first, utcOffsetSeconds: s.firstPerformedOffset))" }
        if let last = s.lastPerformedAt { use += ", last \(localDate(millis: last, utcOffsetSeconds: s.lastPerformedOffset))" }
        lines.append(use.prefix(1).uppercased() + use.dropFirst())
        return lines
    }
}

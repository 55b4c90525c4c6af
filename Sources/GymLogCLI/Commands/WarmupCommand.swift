import ArgumentParser
import GymLogCore
import GymLogStore

struct Warmup: ContextCommand, YieldsToExercises, ExerciseArgumentCommand {
    static let configuration = CommandConfiguration(
        commandName: "warmup",
        abstract: "A warm-up ramp from the empty bar to a working weight: `warmup squat 140`; add `log` to log it.",
        discussion: """
          gymlog warmup squat 140
              bar x10, 62.5x5, 85x3, 105x2, 120x1
          gymlog warmup bench 225lb
              in pounds, from the 45lb bar
          gymlog warmup squat 140 log
              logs the ramp as warm-up sets, one line: squat w20x10 w62.5x5 w85x3
              w105x2 w120x1

        Each step is a share of the working weight rounded to the nearest load \
        your plates make, lighter than the working weight and heavier than the \
        step before. The steps are the config's `warmup.ramp` (default \
        "\(WarmupRamp.defaultSteps.map(\.description).joined(separator: ", "))"); the bar and plates are \
        `[plates]`; `show_plates = true` shows each step's plates. An exercise \
        whose name says dumbbell, kettlebell, cable or machine ramps with no \
        bar, by `[plates] kg_dumbbell_step` (dumbbells) or your rounding step. \
        `log` logs the line through `gymlog log`, so `undo` takes the whole ramp \
        back.
        """
    )
    @OptionGroup var global: GlobalOptions
    @Argument(help: ArgumentHelp("The exercise, then the working weight (`140`, `315lb`), then `log` to log the ramp.", valueName: "words"),
              completion: .custom(exerciseCompletions))
    var words: [String] = []
    @OptionGroup var output: JSONFlag

    static let example = "`gymlog warmup squat 140`"

    /// The exercise words, the working weight and whether to log, read from `words`.
    struct Request {
        var exercise: String
        var load: TypedLoads
        /// The weight as typed (`140`, `140 kg`), for the command a hint prints.
        var loadWords: [String]
        var log: Bool
    }

    /// Reads `words` from the end: `log`, then the weight (`140`, `140kg`, `140 kg`), then the
    /// exercise, so an exercise named with numbers or `log` still reads.
    static func request(_ words: [String]) throws -> Request {
        var rest = words
        let log = rest.last?.lowercased() == "log"
        if log { rest.removeLast() }
        guard let last = rest.last else {
            throw ValidationError("`warmup` needs an exercise and a working weight; type \(example).")
        }
        let loadWords = WeightUnit(spelling: Substring(last)) != nil && rest.count >= 2 ? Array(rest.suffix(2)) : [last]
        guard loadWords.joined().contains(where: \.isNumber) else {
            throw ValidationError("`warmup \(words.joined(separator: " "))` needs the working weight after the exercise; type e.g. \(example).")
        }
        let typed: TypedLoads
        switch TypedLoads.parse(loadWords, example: example) {
        case .success(let t): typed = t
        case .failure(let e): throw ValidationError(e.message + "." + exerciseHint("warmup", words))
        }
        let exercise = rest.dropLast(loadWords.count).joined(separator: " ")
        guard !exercise.isEmpty else {
            throw ValidationError("`warmup \(words.joined(separator: " "))` needs the exercise before the weight; type e.g. `\(shellCommand(["gymlog", "warmup", "squat"] + loadWords))`.")
        }
        return Request(exercise: exercise, load: typed, loadWords: loadWords, log: log)
    }

    func validate() throws {
        let request = try Self.request(words)
        if request.log && output.json {
            throw ValidationError("--json shows the ramp without logging it; leave out `log` or --json.")
        }
    }

    func run(in context: CLIContext) async throws {
        let request = try Self.request(words)
        let settings = context.settings
        let working = request.load.values[0]
        let unit = request.load.unit ?? settings.defaultUnit
        // Reading never creates a database: the exercise's own name is shown when it exists, and
        // its equipment decides the bar (a dumbbell ramp steps by the dumbbells, from no bar).
        let db = try? context.existingDB()
        let known = try? db?.existingExercise(request.exercise)
        let name = known?.name ?? request.exercise
        // A new name links as it would once logged.
        let link = known.flatMap { try? db?.exerciseLink($0.id) } ?? ExerciseLink(name: name, fields: ExerciseLinkFields())
        let loads = WarmupLoads.of(Equipment.of(exerciseName: name, link: link) ?? Equipment(exerciseName: request.exercise),
                                   unit: unit, settings: settings)
        let weight = PlateText.load(working, unit)
        if let bar = loads.bar, working < bar {
            throw UserError("\(weight) is lighter than the \(bar)\(unit.rawValue) bar, so there is nothing to warm up to; "
                + "type the working weight, e.g. \(Self.example).")
        }
        let sets = WarmupRamp.sets(to: working, steps: settings.warmupSteps, loads: loads)
        let line = WarmupRamp.entryLine(exercise: request.exercise, sets: sets, unit: unit, defaultUnit: settings.defaultUnit)

        if request.log {
            guard !sets.isEmpty else {
                throw UserError("\(weight) is \(loads.bar == nil ? "the lightest load" : "the empty bar"), so there are no warm-up sets to log.")
            }
            // The exercise words go into the line as typed; if they read as something else there
            // (`warmup squat # 2 100`), the line would log other sets than the ramp.
            guard case .success(.log(let mention, let specs)) = EntryParser.parse(line),
                  nameKey(mention.name) == nameKey(request.exercise), specs.count == sets.count else {
                throw UserError("'\(request.exercise)' does not read as an exercise name at the start of a set line, so the ramp "
                    + "was not logged; give the exercise an alias (`gymlog exercises alias ALIAS EXERCISE`) and warm up with that.")
            }
            context.print(Style.stdout.dim(line))
            let outcome = try EntryRunner(context: context).run(line)
            if outcome != .done { throw outcome.exitCode }
            return
        }

        if output.json {
            context.printJSON(.object([
                ("exercise", .string(name)), ("working_weight", .fixed(working)), ("unit", .string(unit.rawValue)),
                ("bar", loads.bar.map { .fixed($0) } ?? .null),
                ("sets", .array(sets.map { s in
                    .object([("weight", .fixed(s.weight)), ("reps", .int(s.reps)),
                             ("per_side", s.loading.map { .array($0.perSide.map { .fixed($0) }) } ?? .null)])
                })),
                ("line", sets.isEmpty ? .null : .string(line)),
            ]))
            return
        }
        guard !sets.isEmpty else {
            context.print("\(weight) is \(loads.bar == nil ? "the lightest load" : "the empty bar"): no warm-up sets before it.")
            return
        }
        let steps = sets.map { ($0.isBarOnly ? "bar " : "\($0.weight)") + "x\($0.reps)" }
        if settings.showPlates, case .plates = loads {
            context.print("Warm-up for \(name) to \(weight):")
            let width = TerminalText.columns(steps)
            for (step, set) in zip(steps, sets) {
                context.print("  " + TerminalText.pad(step, to: width) + "  " + (set.loading.map { PlateText.loading($0, unit) } ?? ""))
            }
        } else {
            context.print("Warm-up for \(name) to \(weight): " + steps.joined(separator: ", "))
        }
        if case .plates(let inventory, _) = loads, PlateCalculator.loading(for: working, with: inventory) == nil {
            PlateText.answer(PlateCalculator.nearestLoads(to: working, with: inventory), unit: unit, config: context.paths.config)
                .forEach { context.print(Style.stdout.dim($0)) }
        }
        context.print(Style.stdout.dim("Log it as warm-up sets: `\(shellCommand(["gymlog", "warmup", request.exercise] + request.loadWords + ["log"]))`."))
    }
}

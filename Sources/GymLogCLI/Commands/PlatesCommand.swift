import ArgumentParser
import GymLogCore

struct Plates: ContextCommand, YieldsToExercises {
    static let configuration = CommandConfiguration(
        commandName: "plates",
        abstract: "What goes on the bar: `plates 142.5` shows the plates per side; `plates 25 20` adds a side up.",
        discussion: """
          gymlog plates 142.5            20kg bar + per side: 25 25 10 1.25
          gymlog plates 315lb            the pound bar and plates
          gymlog plates 143              says the nearest loads your plates make
          gymlog plates 25 20            20kg bar + per side 25 20 = 110 kg
          gymlog plates 20 --per-side    one plate a side
          gymlog plates 60 --bar 15      another bar

        One number is a load to make; two or more are the plates on one side. The \
        unit is the configured one unless typed (`315lb`, `315 lb`). The bar and \
        the plates you have come from the config (`[plates]`: kg_bar, kg, lb_bar, \
        lb); each side gets the fewest plates that make the load. Nothing is \
        logged and no database is needed.
        """
    )
    @OptionGroup var global: GlobalOptions
    @Argument(help: ArgumentHelp("A load to make (`142.5`, `315lb`), or the plates on one side (`25 20`).", valueName: "load"))
    var loads: [String] = []
    @Option(help: ArgumentHelp("The bar's weight in the load's unit, instead of the configured bar.", valueName: "weight"))
    var bar: String?
    @Flag(help: "Read the numbers as the plates on one side, even just one.") var perSide = false
    @OptionGroup var output: JSONFlag

    static let example = "`gymlog plates 142.5`, `gymlog plates 315lb` or the plates on one side, `gymlog plates 25 20`"

    /// The loads typed, read once.
    private var typed: TypedLoads? { try? TypedLoads.parse(loads, example: Self.example).get() }

    func validate() throws {
        guard !loads.isEmpty else { throw ValidationError("`plates` needs a load; type \(Self.example).") }
        if case .failure(let e) = TypedLoads.parse(loads, example: Self.example) {
            throw ValidationError(e.message + "." + exerciseHint("plates", loads))
        }
        if let bar { _ = try Self.bar(bar) }
    }

    /// `--bar 15`: a bar weight from 0 to the heaviest a config bar may weigh.
    static func bar(_ text: String) throws -> Fixed {
        guard let value = Fixed(parsing: text), value <= PlateInventory.Limits.heaviestItem else {
            throw ValidationError("--bar \(text) is not a bar weight; give a number from 0 to \(PlateInventory.Limits.heaviestItem) in the load's unit, e.g. `--bar 15`.")
        }
        return value
    }

    func run(in context: CLIContext) async throws {
        guard let typed else { return }
        let unit = typed.unit ?? context.settings.defaultUnit
        var inventory = context.settings.plates(unit)
        if let bar { inventory.bar = try Self.bar(bar) }

        if perSide || typed.values.count > 1 {
            let side = PlateLoading(bar: inventory.bar, perSide: typed.values)
            if output.json {
                context.printJSON(.object([
                    ("unit", .string(unit.rawValue)), ("bar", .fixed(inventory.bar)),
                    ("per_side", .array(side.perSide.map { .fixed($0) })), ("total", .fixed(side.total)),
                ]))
            } else {
                context.print("\(inventory.bar)\(unit.rawValue) bar + per side \(PlateText.plates(side)) = \(PlateText.load(side.total, unit))")
            }
            return
        }

        let target = typed.values[0]
        let nearest = PlateCalculator.nearestLoads(to: target, with: inventory)
        if output.json {
            func loading(_ l: PlateLoading?) -> JSON {
                l.map { .object([("total", .fixed($0.total)), ("per_side", .array($0.perSide.map { .fixed($0) }))]) } ?? .null
            }
            context.printJSON(.object([
                ("target", .fixed(target)), ("unit", .string(unit.rawValue)), ("bar", .fixed(inventory.bar)),
                ("exact", .bool(nearest.exact != nil)), ("below", loading(nearest.below)), ("above", loading(nearest.above)),
            ]))
            return
        }
        PlateText.answer(nearest, unit: unit, config: context.paths.config).forEach(context.print)
    }
}

/// `plates` and `warmup` as text: the bar and plates the way a lifter reads them off a rack.
enum PlateText {
    /// `142.5 kg`.
    static func load(_ value: Fixed, _ unit: WeightUnit) -> String { "\(value) \(unit.rawValue)" }

    /// `25 25 10 1.25`.
    static func plates(_ loading: PlateLoading) -> String { loading.perSide.map(\.description).joined(separator: " ") }

    /// `20kg bar + per side: 25 25 10 1.25`, or `20kg bar, no plates`.
    static func loading(_ loading: PlateLoading, _ unit: WeightUnit) -> String {
        let bar = "\(loading.bar)\(unit.rawValue) bar"
        return loading.perSide.isEmpty ? bar + ", no plates" : bar + " + per side: " + plates(loading)
    }

    /// What `plates LOAD` prints: the plates, the nearest loads when it cannot be made, or why not.
    static func answer(_ nearest: NearestLoads, unit: WeightUnit, config: String) -> [String] {
        let target = load(nearest.target, unit)
        if let exact = nearest.exact { return [loading(exact, unit)] }
        switch (nearest.below, nearest.above) {
        case (nil, let above?):
            return ["\(target) is lighter than the \(above.bar)\(unit.rawValue) bar; the lightest load is the bar alone "
                + "(\(load(above.total, unit))). For a lighter bar, add e.g. `--bar 10`."]
        case (let below?, let above?):
            return ["\(target) can't be made with your plates; nearest: \(load(below.total, unit)) (\(loading(below, unit))) "
                + "or \(load(above.total, unit)) (\(loading(above, unit)))"]
        case (let below?, nil):
            return ["\(target) can't be made with your plates; the heaviest is \(load(below.total, unit)) (\(loading(below, unit))). "
                + "Your bar and plates are set under [plates] in \(config)."]
        case (nil, nil):
            return ["\(target) can't be made with your plates."]
        }
    }
}

/// When `words` after a command name would log a set (`warmup row 40x10`), how to log it: the
/// command took the line, and the exercise is new (an existing one logs from the REPL as is).
func exerciseHint(_ command: String, _ words: [String]) -> String {
    let line = ([command] + words).joined(separator: " ")
    guard case .success(.log(let mention, _)) = EntryParser.parse(line) else { return "" }
    // The line as one word: `gymlog log 'warmup row 40x10'` in a shell, whatever it holds.
    return " To log a set of an exercise named '\(mention.name)', type `gymlog log \(shellQuoted(line))`."
}

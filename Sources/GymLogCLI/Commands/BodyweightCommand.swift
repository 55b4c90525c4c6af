import ArgumentParser
import GymLogCore
import GymLogStore

struct Bodyweight: TextCommand {
    static let configuration = CommandConfiguration(
        commandName: "bw", abstract: "Record bodyweight (`bw 82.5`), or list it (`bw`); `chart bw` draws it.",
        discussion: """
          gymlog bw 82.5
              now, in your default unit (or 180lb)
          gymlog bw 82.5 --at "yesterday 07:30"
          gymlog bw
              the last 20 entries (--json for all)

        Bodyweight sets (`pullup bw+10x5`) then show their e1RM on the total, bodyweight plus \
        added load, with the last entry on or before the set.
        """)
    @OptionGroup var global: GlobalOptions
    @Argument(help: "Your bodyweight, e.g. 82.5 or 180lb.") var weight: [String] = []
    @OptionGroup var past: PastTime
    @OptionGroup var output: JSONFlag

    /// `bw 82.5 --at yesterday 07:00` in the REPL, the time unquoted.
    static func replArguments(_ rest: String) -> [String]? {
        (try? shellWords(rest)).map(PastTime.joiningTime)
    }

    func run(in context: CLIContext) async throws {
        if !weight.isEmpty {
            let loads: TypedLoads
            let examples = context.settings.defaultUnit.bodyweightExamples
            switch TypedLoads.parse(weight, example: examples) {
            case .success(let l) where l.values.count == 1: loads = l
            case .success: throw UserError("`bw` takes one weight, e.g. \(examples).")
            case .failure(let e): throw UserError("`bw \(weight.joined(separator: " "))`: \(e.message).")
            }
            let w = Weight(loads.values[0], loads.unit ?? context.settings.defaultUnit)
            let entry = try context.db().logBodyweight(w, at: past.moment(in: context),
                                                       typed: context.typedLine ?? (["bw"] + weight).joined(separator: " "))
            if output.json { context.printJSON(JSONShapes.bodyweight(entry)); return }
            context.print("Bodyweight \(w) on \(Render.day(entry.measuredAt, entry.utcOffsetSeconds)).")
            return
        }
        let db = try context.db()
        let list = try db.bodyweights(limit: output.json ? nil : 20)
        if output.json {
            context.printJSON(.object([("unit", .string(context.settings.defaultUnit.rawValue)), ("bodyweights", .array(list.map(JSONShapes.bodyweight)))]))
            return
        }
        if list.isEmpty { context.print("No bodyweight yet; record it with `gymlog bw \(context.settings.defaultUnit.hintBodyweight)`."); return }
        for e in list { context.print("\(Render.day(e.measuredAt, e.utcOffsetSeconds))  \(e.weight)") }
    }
}

extension JSONShapes {
    /// A bodyweight entry: the weight exactly as typed, and when.
    static func bodyweight(_ e: BodyweightEntry) -> JSON {
        .object([("id", .string(e.id.key)), ("weight", .fixed(e.weight.value)), ("weight_unit", .string(e.weight.unit.rawValue)),
                 ("measured_at", .time(e.measuredAt, e.utcOffsetSeconds))])
    }
}

import ArgumentParser
import GymLogCore
import GymLogStore

struct Delete: TextCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete set N of `show`, e.g. `delete 3`.",
        discussion: """
          gymlog show        the current workout, sets numbered
          gymlog delete 3    deletes its third set (`undo` brings it back)

        In the REPL, type `delete 3`.
        """
    )
    @OptionGroup var global: GlobalOptions
    @Argument(help: ArgumentHelp("The set's number in `show`.", valueName: "number")) var number: [String] = []

    func run(in context: CLIContext) async throws {
        guard let n = Int(number.joined(separator: " ")), n >= 1 else {
            throw UserError("`delete` needs the set's number from `show`, e.g. `delete 3`.")
        }
        let set = try context.db().deleteSet(.number(n), typed: context.typedLine ?? "delete \(n)")
        context.print("Deleted set \(n): \(set.summary)")
    }
}

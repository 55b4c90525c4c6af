import ArgumentParser
import GymLogCore
import GymLogStore

struct Redo: ContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "redo",
        abstract: "Re-apply the action the last `undo` reverted (nothing else is ever brought back).",
        discussion: """
          gymlog undo
              reverts the last action
          gymlog redo
              re-applies it, as it was
          gymlog redo --yes
              also when it belongs to another workout than the open one

        Any new action (a logged set, an edit, a delete...) clears what could be redone. In the \
        REPL, type `redo`, or `redo!` to confirm.
        """
    )
    @OptionGroup var global: GlobalOptions
    @Flag(name: .long, help: "Redo even when the action belongs to another workout than the open one.") var yes = false

    func run(in context: CLIContext) async throws {
        try UndoStep(.redo, context: context).run(confirmed: yes)
    }
}

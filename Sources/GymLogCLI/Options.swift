import ArgumentParser

/// Options every command takes.
public struct GlobalOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The database file.", valueName: "path"))
    public var db: String?

    public init() {}
}

/// `--json`: the flag every read command takes.
struct JSONFlag: ParsableArguments {
    @Flag(help: "Print JSON for scripts instead of text (keys documented in the README).")
    var json = false
}

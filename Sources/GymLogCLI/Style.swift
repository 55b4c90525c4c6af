import Foundation

/// ANSI colour for one output stream, or none.
///
/// Colour is on when the stream is a terminal, off when it is piped or redirected, and off
/// whenever `NO_COLOR` is set (any value, https://no-color.org). `GYMLOG_FORCE_COLOR=1`
/// turns it on for a pipe (tests, `less -R`); `NO_COLOR` still wins. `TERM=dumb` is plain.
struct Style: Sendable {
    let enabled: Bool

    /// Plain text, whatever the terminal.
    static let plain = Style(enabled: false)
    /// For standard output, decided once per process.
    static let stdout = Style(fd: STDOUT_FILENO)
    /// For standard error, decided once per process.
    static let stderr = Style(fd: STDERR_FILENO)

    init(enabled: Bool) { self.enabled = enabled }

    init(fd: Int32, environment: [String: String] = ProcessInfo.processInfo.environment) {
        enabled = Style.decide(isTerminal: isatty(fd) == 1, environment: environment)
    }

    /// The rule above as a pure function.
    static func decide(isTerminal: Bool, environment: [String: String]) -> Bool {
        if environment["NO_COLOR"] != nil { return false }
        if let force = environment["GYMLOG_FORCE_COLOR"], !force.isEmpty, force != "0" { return true }
        return isTerminal && environment["TERM"] != "dumb"
    }

    /// `text` between a colour sequence and the reset, each marked as `Style`'s own
    /// (`TerminalText.styleMark`): printing goes through `TerminalText.safe`, which keeps only
    /// marked sequences and drops the marks.
    private func wrap(_ text: String, _ code: String) -> String {
        enabled && !text.isEmpty ? "\(TerminalText.styleMark)\u{1B}[\(code)m\(text)\(TerminalText.styleMark)\u{1B}[0m" : text
    }

    /// A personal record: bold green.
    func record(_ text: String) -> String { wrap(text, "1;32") }
    /// An error: bold red.
    func error(_ text: String) -> String { wrap(text, "1;31") }
    /// Secondary text: dim.
    func dim(_ text: String) -> String { wrap(text, "2") }
    /// Headings: bold.
    func bold(_ text: String) -> String { wrap(text, "1") }
    /// The line of a chart: cyan.
    func plot(_ text: String) -> String { wrap(text, "36") }
    /// A day you trained in `calendar`: green, reversed, so it reads as a filled square.
    func trained(_ text: String) -> String { wrap(text, "7;32") }
    /// Today in `calendar`: underlined.
    func today(_ text: String) -> String { wrap(text, "4") }

    /// `error: message` with the prefix in red, as every command prints failures.
    func errorLine(_ message: String) -> String { error("error:") + " " + message }
}

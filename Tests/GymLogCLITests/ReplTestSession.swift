import Foundation
import GymLogCore
@testable import GymLogCLI
import GymLogTestSupport
import Testing

/// A REPL session over a fresh database with captured output and a clock the test moves
/// (`world`; UTC+1), as a lifter types into it.
struct ReplTestSession {
    let output = CapturedOutput()
    let world = FakeClock()
    let context: CLIContext
    let repl: ReplSession

    init(settings: Settings = Settings()) throws {
        let dir = try temporaryDirectory("gymlog-repl")
        let output = self.output
        context = CLIContext(paths: Paths(database: dir + "/gymlog.sqlite", config: dir + "/config.toml", history: dir + "/history"),
                             settings: settings, environment: world.environment, out: { output.out($0) }, err: { output.err($0) })
        repl = ReplSession(context: context)
    }

    /// Runs `line`, expecting `outcome`, and returns what it printed.
    @discardableResult
    func type(_ line: String, _ outcome: ReplSession.Outcome = .ok, sourceLocation: SourceLocation = #_sourceLocation) async -> (out: [String], err: [String]) {
        let got = await repl.handle(line)
        let printed = output.take()
        #expect(got == outcome, "\(line): \(printed)", sourceLocation: sourceLocation)
        return printed
    }
}

/// Lines a context printed, taken by the test: the one capture of the CLI's output in tests.
final class CapturedOutput: @unchecked Sendable {
    private let lock = NSLock()
    private var stdout: [String] = [], stderr: [String] = []
    // A print of several lines counts as its lines.
    func out(_ line: String) { lock.withLock { stdout += line.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) } }
    func err(_ line: String) { lock.withLock { stderr += line.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) } }

    /// The lines printed since the last take; `plain` drops colour codes.
    func take(plain: Bool = false) -> (out: [String], err: [String]) {
        let (out, err) = lock.withLock { defer { stdout = []; stderr = [] }; return (stdout, stderr) }
        return plain ? (out.map(withoutColour), err.map(withoutColour)) : (out, err)
    }
}

/// `s` without its ANSI colour codes.
func withoutColour(_ s: String) -> String {
    guard s.contains("\u{1B}[") else { return s }
    return s.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
}

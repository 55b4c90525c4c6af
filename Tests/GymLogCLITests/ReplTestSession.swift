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

/// Lines a context printed, taken by the test.
final class CapturedOutput: @unchecked Sendable {
    private let lock = NSLock()
    private var stdout: [String] = [], stderr: [String] = []
    func out(_ line: String) { lock.withLock { stdout += line.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) } }
    func err(_ line: String) { lock.withLock { stderr += line.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) } }
    func take() -> (out: [String], err: [String]) {
        lock.withLock { defer { stdout = []; stderr = [] }; return (stdout, stderr) }
    }
}

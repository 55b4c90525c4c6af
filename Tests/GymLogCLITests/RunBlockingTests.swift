import Dispatch
import Foundation
import GymLogCLI
import Testing

@Suite struct RunBlockingTests {
    /// A REPL `sync` waits in `runBlocking`. It used to need a cooperative-pool thread for the
    /// work it waited on, so it hung whenever every pool thread was blocked (CI hit this when
    /// tests blocked in process waits). It must finish with the pool fully blocked.
    @Test func finishesWhileEveryCooperativeThreadIsBlocked() async throws {
        let outcome = await withCheckedContinuation { (answer: CheckedContinuation<String, Never>) in
            Thread.detachNewThread { answer.resume(returning: Self.runWithThePoolBlocked()) }
        }
        #expect(outcome == "answered 42 after hopping to an actor")
    }

    private static func runWithThePoolBlocked() -> String {
        let width = ProcessInfo.processInfo.activeProcessorCount
        let started = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        for _ in 0..<width {
            Task.detached { started.signal(); release.wait() }
        }
        defer { for _ in 0..<width { release.signal() } }
        // Other suites may hold pool threads for a while; each blocker starts once one is free.
        for n in 0..<width where started.wait(timeout: .now() + 120) == .timedOut {
            return "only \(n) of \(width) pool threads could be blocked within 120 s"
        }

        let finished = DispatchSemaphore(value: 0)
        let result = ResultHolder()
        // Plain threads, not dispatch queues: their workers can be blocked too.
        Thread.detachNewThread {
            result.value = Result {
                try runBlocking {
                    try await Task.sleep(for: .milliseconds(20))
                    return await Counter().add(42)
                }
            }.map { "answered \($0) after hopping to an actor" }.mapError { $0 as Error }
            finished.signal()
        }
        guard finished.wait(timeout: .now() + 10) == .success else {
            return "runBlocking did not finish within 10 s while all \(width) pool threads were blocked"
        }
        switch result.value {
        case .success(let text)?: return text
        case .failure(let error)?: return "runBlocking threw \(error)"
        case nil: return "runBlocking finished without a result"
        }
    }
}

private actor Counter {
    var total = 0
    func add(_ n: Int) -> Int { total += n; return total }
}

private final class ResultHolder: @unchecked Sendable { var value: Result<String, Error>? }

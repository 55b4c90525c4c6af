import Foundation

/// Runs `body`, waiting at most `limit` for it: true when it finished in time, false when
/// not (it is cancelled and left to end on its own: a database client stuck in a connect
/// need not heed cancellation, and the caller must not wait for it).
package func withinTimeLimit(_ limit: Duration, _ body: @escaping @Sendable () async throws -> Void) async throws -> Bool {
    let outcome = Waiting()
    let work = Task { try await body() }
    return try await withCheckedThrowingContinuation { continuation in
        outcome.set(continuation)
        Task {
            do { try await work.value; outcome.finish(.success(true)) } catch { outcome.finish(.failure(error)) }
        }
        Task {
            try? await Task.sleep(for: limit)
            work.cancel()
            outcome.finish(.success(false))
        }
    }
}

// The caller's continuation, resumed once by whichever of the work and the timer ends first.
private final class Waiting: @unchecked Sendable {
    // @unchecked: `continuation` is only touched with `lock` held.
    private let lock = NSLock()
    private var continuation: CheckedContinuation<Bool, any Error>?

    func set(_ continuation: CheckedContinuation<Bool, any Error>) { lock.withLock { self.continuation = continuation } }

    func finish(_ result: Result<Bool, any Error>) {
        let waiting = lock.withLock { () -> CheckedContinuation<Bool, any Error>? in
            defer { continuation = nil }
            return continuation
        }
        waiting?.resume(with: result)
    }
}

/// `duration` in seconds, as short as it goes (`2`, `0.5`), for log lines.
package func seconds(_ duration: Duration) -> String {
    String(format: "%g", Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18)
}

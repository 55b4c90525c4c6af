import Foundation
import GymLogServerCore

/// Who runs a PostgreSQL store's pool: the application's ServiceGroup (`serve`), or the
/// store itself when used on its own (the `user` commands, tests), never both.
final class PostgresLifecycle: @unchecked Sendable {
    // @unchecked: `state` is only touched with `lock` held; `ready` is itself safe.
    enum Owner { case service, standalone }
    private enum State { case idle, expectingService, service, standalone(Task<Void, Never>?), stopped }

    /// Resolved once the database is reachable and migrated, or with why not.
    let ready = ReadyGate()
    private let lock = NSLock()
    private var state = State.idle

    /// An application will run the pool: calls made before it starts wait for it.
    func expectService() {
        lock.withLock { if case .idle = state { state = .expectingService } }
    }

    /// Whether `owner` now runs the pool (nobody did yet).
    func claim(_ owner: Owner) -> Bool {
        lock.withLock {
            switch (state, owner) {
            case (.idle, .standalone): state = .standalone(nil); return true
            case (.idle, .service), (.expectingService, .service): state = .service; return true
            default: return false
            }
        }
    }

    /// Keeps the task of a pool running on its own, so `stopStandalone` can end it.
    func startStandalone(_ task: Task<Void, Never>) {
        let stopped = lock.withLock { () -> Bool in
            guard case .standalone = state else { return true }
            state = .standalone(task)
            return false
        }
        if stopped { task.cancel() }
    }

    func cancelStandalone() {
        lock.withLock { if case .standalone(let task) = state { task?.cancel() } }
    }

    /// Ends a pool running on its own and waits for it; later calls fail instead of waiting.
    func stopStandalone() async {
        let task = lock.withLock { () -> Task<Void, Never>? in
            defer { state = .stopped }
            if case .standalone(let task) = state { return task }
            return nil
        }
        task?.cancel()
        await task?.value
        ready.resolve(.failure(Self.stoppedError))
    }

    /// Throws once the store was shut down.
    func checkNotStopped() throws {
        if lock.withLock({ if case .stopped = state { return true }; return false }) { throw Self.stoppedError }
    }

    private static var stoppedError: ServerSetupError { ServerSetupError("the PostgreSQL store was shut down; it cannot be used any more.") }
}

/// A one-time result many tasks wait for.
final class ReadyGate: @unchecked Sendable {
    // @unchecked: `result` and `waiters` are only touched with `lock` held.
    private let lock = NSLock()
    private var result: Result<Void, any Error>?
    private var waiters: [CheckedContinuation<Void, any Error>] = []

    /// Sets the result once (later calls are ignored) and wakes every waiter.
    func resolve(_ outcome: Result<Void, any Error>) {
        let waiting = lock.withLock { () -> [CheckedContinuation<Void, any Error>] in
            guard result == nil else { return [] }
            result = outcome
            defer { waiters = [] }
            return waiters
        }
        for waiter in waiting { waiter.resume(with: outcome) }
    }

    /// Returns once resolved, throwing its error.
    func wait() async throws {
        if let outcome = lock.withLock({ result }) { return try outcome.get() }
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let outcome = lock.withLock { () -> Result<Void, any Error>? in
                if let result { return result }
                waiters.append(continuation)
                return nil
            }
            if let outcome { continuation.resume(with: outcome) }
        }
    }
}

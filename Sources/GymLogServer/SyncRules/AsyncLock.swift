import Foundation

/// A first-come first-served lock for async code: holds a store's writes one at a time
/// across suspension points (NSLock cannot be held across an `await`).
final class AsyncLock: @unchecked Sendable {
    private let lock = NSLock()
    private var locked = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    /// Runs `body` while holding the lock; waiting for it ignores cancellation.
    func withLock<T>(_ body: () async throws -> T) async rethrows -> T {
        await acquire()
        defer { release() }
        return try await body()
    }

    private func acquire() async {
        await withCheckedContinuation { continuation in
            let acquired = lock.withLock { () -> Bool in
                if locked { waiters.append(continuation); return false }
                locked = true
                return true
            }
            if acquired { continuation.resume() }
        }
    }

    private func release() {
        // The lock passes straight to the next waiter, if any; it stays locked then.
        let next = lock.withLock { () -> CheckedContinuation<Void, Never>? in
            if waiters.isEmpty { locked = false; return nil }
            return waiters.removeFirst()
        }
        next?.resume()
    }
}

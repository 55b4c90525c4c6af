import Foundation

/// A first-come first-served lock for async code: holds a store's writes one at a time
/// across suspension points (NSLock cannot be held across an `await`).
package final class AsyncLock: @unchecked Sendable {
    // @unchecked: `locked` and `waiters` are only touched with `lock` held.
    private let lock = NSLock()
    private var locked = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    package init() {}

    /// Runs `body` while holding the lock; waiting for it ignores cancellation.
    package func withLock<T>(_ body: () async throws -> T) async rethrows -> T {
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

/// One `AsyncLock` per key (a user id), made on first use and dropped when nobody holds or
/// waits for it: PostgreSQL pushes of one user on one instance queue here, holding no
/// connection, so a user's many devices cannot fill the pool with waiting pushes.
package final class KeyedAsyncLock<Key: Hashable & Sendable>: @unchecked Sendable {
    // @unchecked: `locks` is only touched with `lock` held; each AsyncLock is itself safe.
    private let lock = NSLock()
    private var locks: [Key: (lock: AsyncLock, holders: Int)] = [:]

    package init() {}

    /// Runs `body` while holding `key`'s lock; waiting for it ignores cancellation.
    package func withLock<T>(_ key: Key, _ body: () async throws -> T) async rethrows -> T {
        let keyLock = lock.withLock { () -> AsyncLock in
            let entry = locks[key] ?? (AsyncLock(), 0)
            locks[key] = (entry.lock, entry.holders + 1)
            return entry.lock
        }
        defer {
            lock.withLock {
                if let entry = locks[key] { locks[key] = entry.holders > 1 ? (entry.lock, entry.holders - 1) : nil }
            }
        }
        return try await keyLock.withLock(body)
    }

    /// Keys with a holder or a waiter (tests: nothing is left behind).
    package var count: Int { lock.withLock { locks.count } }
}

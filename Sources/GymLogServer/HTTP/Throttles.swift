import Foundation
import NIOConcurrencyHelpers
import GymLogServerCore

/// Registrations per client address: a burst of `perHour`, then one every `3600 / perHour`
/// seconds (a token bucket, kept as each address's "theoretical arrival time", the GCRA
/// form: one integer per address, exact). Pure: `now` (Unix ms) comes in.
struct RegistrationBuckets: Sendable {
    let perHour: Int
    /// Addresses kept at most; past it, addresses whose bucket is full again are forgotten.
    let maxAddresses: Int
    /// Per address: when its bucket is full again, less one interval per token left.
    private var fullAt: [String: Int64] = [:]

    init(perHour: Int, maxAddresses: Int = 10_000) {
        self.perHour = perHour
        self.maxAddresses = maxAddresses
    }

    /// Milliseconds per registration regained.
    private var interval: Int64 { (3_600_000 + Int64(perHour) - 1) / Int64(perHour) }

    /// Takes one registration for `address`: nil when allowed, else the milliseconds until
    /// the next one is (also while too many addresses are being throttled at once).
    mutating func take(_ address: String, now: Int64) -> Int64? {
        if fullAt[address] == nil, fullAt.count >= maxAddresses {
            fullAt = fullAt.filter { $0.value > now }
            if fullAt.count >= maxAddresses { return interval }
        }
        let burst = interval * Int64(perHour - 1)
        let full = max(fullAt[address] ?? now, now)
        guard full - now <= burst else { return full - burst - now }
        fullAt[address] = full + interval
        return nil
    }
}

/// Pushes in progress per user: at most `limit` at once, so one account cannot occupy every
/// worker (and the memory of every body) with concurrent pushes; the rest are refused with
/// 429 and `Retry-After` rather than queued, because a queued push holds its connection and
/// body while it waits and the client retries anyway.
final class PushSlots: Sendable {
    let limit: Int
    private let inUse = NIOLockedValueBox<[Int64: Int]>([:])

    init(limit: Int) { self.limit = limit }

    /// Takes a slot for `user`; false when all of the user's slots are taken.
    func take(_ user: Int64) -> Bool {
        inUse.withLockedValue { inUse in
            let n = inUse[user, default: 0]
            guard n < limit else { return false }
            inUse[user] = n + 1
            return true
        }
    }

    func release(_ user: Int64) {
        inUse.withLockedValue { inUse in
            let n = inUse[user, default: 1] - 1
            inUse[user] = n > 0 ? n : nil
        }
    }
}

/// `RegistrationBuckets` shared by the concurrent requests of one server: one bucket per
/// address, and one for all of them together, so many addresses each under their own limit
/// cannot make accounts without end (issue 49).
final class RegistrationThrottle: Sendable {
    private let perHour: Int
    private let totalPerHour: Int
    private let buckets: NIOLockedValueBox<(addresses: RegistrationBuckets, all: RegistrationBuckets)>

    /// Why a registration must wait, and how long (ms).
    enum Wait: Equatable {
        case address(Int64)
        case server(Int64)
    }

    init(perHour: Int, totalPerHour: Int = 0) {
        self.perHour = perHour
        self.totalPerHour = totalPerHour
        buckets = NIOLockedValueBox((RegistrationBuckets(perHour: max(perHour, 1)), RegistrationBuckets(perHour: max(totalPerHour, 1))))
    }

    /// nil when `address` may register now, else which limit holds it and for how long. A
    /// registration the server's limit refuses costs the address nothing.
    func take(_ address: String, now: Int64) -> Wait? {
        buckets.withLockedValue { buckets in
            // The total's one bucket is tried on a copy, taken only once the address's is.
            var all = buckets.all
            if totalPerHour > 0, let wait = all.take("", now: now) { return .server(wait) }
            if perHour > 0, let wait = buckets.addresses.take(address, now: now) { return .address(wait) }
            buckets.all = all
            return nil
        }
    }
}

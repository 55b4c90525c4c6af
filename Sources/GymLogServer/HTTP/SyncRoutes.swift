import Foundation
import GymLogCore
import GymLogServerCore
import GymLogWire
import HTTPTypes
import Hummingbird
import Logging
import NIOConcurrencyHelpers

/// The handlers of the `/v1` endpoints. Status codes are chosen here and only here.
struct SyncRoutes: Sendable {
    let config: ServerConfig
    let storage: any SyncStorage
    /// The database's epoch; a user's devices see it with the user's history generation.
    let databaseEpoch: DatabaseEpoch
    /// Push latencies and event outcomes go here (`/metrics`).
    let metrics: ServerMetrics
    let registrations: RegistrationThrottle
    let pushSlots: PushSlots

    init(config: ServerConfig, storage: any SyncStorage, metrics: ServerMetrics) {
        self.config = config
        self.storage = storage
        self.metrics = metrics
        databaseEpoch = DatabaseEpoch(storage: storage)
        registrations = RegistrationThrottle(perHour: config.registrationsPerHour, totalPerHour: config.registrationsPerHourTotal)
        pushSlots = PushSlots(limit: config.maxConcurrentPushesPerUser)
    }

    /// The epoch a user's cursors carry (`SyncRules.epoch`).
    func epoch(for user: AuthenticatedUser) async throws -> String {
        SyncRules.epoch(database: try await databaseEpoch.value(), historyGeneration: user.historyGeneration)
    }

    var capabilities: Capabilities {
        Capabilities(protocolVersion: syncProtocolVersion, protocolVersions: SyncProtocol.allCases.map(\.rawValue), maxBodyBytes: config.maxBodyBytes, maxPushEvents: config.maxPushEvents,
                     maxPullLimit: config.maxPullLimit, registrationOpen: config.openRegistration,
                     maxClockAheadMs: Int64(config.maxClockAheadSeconds) * 1000, serverVersion: gymlogVersion)
    }

    // MARK: register

    func register(_ request: Request, context: ServerContext) async throws -> Response {
        guard config.openRegistration else {
            throw APIError(.forbidden, .registrationClosed,
                           "this server does not allow registration; ask its operator for a token (`gymlog-server user add NAME`).")
        }
        let body: RegisterRequest = try decode(try await readJSONBody(request, limit: 64 * 1024))
        if let problem = PushValidation.userNameProblem(body.name) {
            throw APIError(.badRequest, .invalidName, problem)
        }
        // Counted once the request is well formed, so a typo does not cost a registration.
        switch registrations.take(context.clientAddress, now: config.now()) {
        case nil: break
        case .address(let waitMs):
            context.logger.notice("registration throttled", metadata: ["address": "\(context.clientAddress)"])
            throw APIError.tooManyRequests(.tooManyRegistrations,
                "this address registered \(config.registrationsPerHour) accounts within the last hour, the server's limit; try again later.",
                retryAfterMs: waitMs)
        case .server(let waitMs):
            context.logger.warning("registration throttled: the server's limit for all addresses", metadata: [
                "address": "\(context.clientAddress)", "registrations_per_hour_total": "\(config.registrationsPerHourTotal)",
            ])
            throw APIError.tooManyRequests(.tooManyRegistrations,
                "this server registered \(config.registrationsPerHourTotal) accounts within the last hour, its limit for all addresses together; try again later, or ask its operator for a token.",
                retryAfterMs: waitMs)
        }
        let token = Tokens.generate()
        do {
            let user = try await storage.createUser(name: body.name, tokenHash: Tokens.hash(token), now: config.now())
            return jsonResponse(RegisterResponse(user: user.name, token: token), status: .created)
        } catch StorageError.userExists {
            throw APIError(.conflict, .userExists, "a user named \"\(body.name)\" already exists; choose another name.")
        }
    }

    // MARK: account

    /// `GET /v1/account`: who the token belongs to, whether the history is encrypted, and
    /// whether there is any yet. Needs no key: a device asks it before it has one.
    func account(_ request: Request, context: ServerContext) async throws -> Response {
        let user = try await authenticate(request, context: context, checkingKey: false)
        return jsonResponse(AccountInfo(user: user.name, encrypted: user.keyVerifier != nil, empty: !(try await storage.hasHistory(user: user))))
    }

    /// `PUT /v1/account/key`: the account's history is sealed with the key this verifier
    /// names from now on. Only once: an account that has a key keeps it (the same verifier
    /// again is answered as done), so no device can make a second key.
    func setAccountKey(_ request: Request, context: ServerContext) async throws -> Response {
        let user = try await authenticate(request, context: context, checkingKey: false)
        let body: AccountKeyRequest = try decode(try await readJSONBody(request, limit: 4096))
        guard body.verifier.utf8.count == 64, body.verifier.utf8.allSatisfy({ ($0 >= 48 && $0 <= 57) || ($0 >= 97 && $0 <= 102) }) else {
            throw APIError(.badRequest, .invalidVerifier, "verifier must be 64 lowercase hex digits (the account key's verifier).")
        }
        // Only its hash is kept: a stolen database (or backup) does not hold what a device sends.
        switch try await storage.setKeyVerifier(user: user, verifier: Tokens.hash(body.verifier)) {
        case .set(let dropped):
            context.logger.notice("account key set", metadata: ["user": "\(user.name)", "dropped_history": "\(dropped)"])
            return jsonResponse(AccountKeyResponse(droppedHistory: dropped))
        case .alreadySet(same: true):
            return jsonResponse(AccountKeyResponse(droppedHistory: false))
        case .alreadySet(same: false):
            throw APIError(.conflict, .keyExists,
                           "this account's history is already encrypted with another key; run `gymlog key` on a device that syncs and log in again with its recovery phrase.")
        }
    }

    // MARK: push

    func push(_ request: Request, context: ServerContext) async throws -> Response {
        let user = try await authenticate(request, context: context)
        guard pushSlots.take(user.id) else {
            throw APIError.tooManyRequests(.tooManyPushes,
                "\(pushSlots.limit) pushes of this user are already in progress, the server's limit; wait for them to finish, then push again.",
                retryAfterMs: 1000)
        }
        defer { pushSlots.release(user.id) }
        let started = ContinuousClock.now
        let body = try await readJSONBody(request, limit: config.maxBodyBytes)
        let push: IncomingPush
        do {
            push = try PushBodyReader.read(body, maxEvents: config.maxPushEvents)
        } catch {
            switch error {
            case .tooManyEvents:
                throw APIError(.contentTooLarge, .tooManyEvents,
                               "the push holds more than \(config.maxPushEvents) events; send at most \(config.maxPushEvents) per request, in smaller batches.")
            case .invalidJSON(let problem): throw APIError.invalidJSON(problem)
            case .invalidRequest(let problem): throw APIError.invalidRequest(problem)
            }
        }
        let decoded = ContinuousClock.now
        guard PushValidation.isPlainName(push.deviceID) else {
            throw APIError(.badRequest, .invalidDeviceID, "device_id must be 1 to 64 letters, digits, '_', '.' or '-' (a UUID).")
        }
        // Sequence numbers belong to one history: a device renumbers its outbox when the epoch
        // changes (wipe, proven rollback), so a push numbered under another epoch (a stale copy
        // delivered late) must not consume numbers the device now uses for other events.
        let epoch = try await self.epoch(for: user)
        if let pushed = push.epoch, pushed != epoch {
            throw APIError(.conflict, .epochChanged,
                           "this push was numbered under epoch \"\(pushed.prefix(100))\", but the server's history is now \"\(epoch)\"; nothing was applied. Pull, then push again.")
        }
        var previous: Int64 = 0
        for event in push.events {
            guard event.seq > previous else {
                throw APIError(.badRequest, .invalidSequence,
                               "events must have seq >= 1 in strictly ascending order; seq \(event.seq) follows \(previous).")
            }
            previous = event.seq
        }
        let sealed = user.keyVerifier != nil
        let items = push.events.map { PushValidation.validate($0, sealed: sealed) }
        // Only fields that would be stored can poison the merge; a rejected event's clock cannot.
        var top = Int64.min
        for case .valid(let event) in items { for field in event.fields where field.clock.millis > top { top = field.clock.millis } }
        let now = config.now()
        let maxAheadMs = Int64(config.maxClockAheadSeconds) * 1000
        if top > now, top - now > maxAheadMs {
            throw APIError(.unprocessableContent, .clockAhead,
                           "the device clock is ahead of the server by about \(describeDuration(ms: top - now)); set this device's date and time correctly (automatic time), then sync again.",
                           serverTimeMs: now)
        }
        let validated = ContinuousClock.now
        let outcome = try await storage.push(user: user, deviceID: push.deviceID, items: items, now: now, deviceLimit: config.maxDevicesPerUser)
        context.logger.debug("push timing", metadata: [
            "events": "\(items.count)", "decode": "\(decoded - started)", "validate": "\(validated - decoded)",
            "store": "\(ContinuousClock.now - validated)",
        ])
        switch outcome {
        case .completed(let lastApplied, let head, let results, let headBefore):
            let rejected = results.count { $0.status == .rejected }
            if rejected > 0 { context.logger.notice("push rejected events", metadata: ["rejected": "\(rejected)", "user": "\(user.name)"]) }
            metrics.pushed(results)
            let response = PushResponse(epoch: epoch, lastAppliedSeq: lastApplied, cursor: "\(epoch):\(head)", results: results,
                                        previousCursor: "\(epoch):\(headBefore)")
            if let bytes = response.handWrittenJSON() { return jsonResponse(bytes: bytes.utf8) }
            return jsonResponse(response)
        case .sequenceGap(let lastApplied, let got):
            throw APIError(.conflict, .sequenceGap,
                           "event seq \(got) skips ahead: the server has applied this device's events up to \(lastApplied); nothing of this push was applied, resend starting at seq \(lastApplied + 1).",
                           lastAppliedSeq: lastApplied)
        case .tooManyDevices:
            throw APIError(.forbidden, .tooManyDevices,
                           "this account already pushed from \(config.maxDevicesPerUser) devices, the server's limit; sync from a device that synced before, or ask the server's operator.")
        }
    }

    // MARK: pull

    /// `GET /v1/pull` and `GET /v2/pull`: the same page, written in the version asked for
    /// (and `limit` counts field rows in v1, changes in v2).
    func pull(_ request: Request, context: ServerContext, version: SyncProtocol) async throws -> Response {
        let user = try await authenticate(request, context: context)
        let query = request.uri.queryParameters
        func parameter(_ name: PullParameter) -> String? { query[Substring(name.rawValue)].map(String.init) }
        // First-wins would let a proxy and the server read different values of one parameter.
        var given = Set<Substring>()
        for (name, _) in query where !given.insert(name).inserted {
            throw APIError(.badRequest, .invalidQuery,
                           "the query parameter \"\(name.prefix(40))\" is given more than once; give each parameter once.")
        }
        guard let device = parameter(.deviceID), PushValidation.isPlainName(device) else {
            throw APIError(.badRequest, .invalidDeviceID, "pull needs ?device_id=<this database's device id> (1 to 64 letters, digits, '_', '.' or '-').")
        }
        var cursor = SyncCursor.start
        if let text = parameter(.cursor), !text.isEmpty {
            guard let parsed = SyncCursor(text) else {
                throw APIError(.badRequest, .invalidCursor,
                               "the cursor \"\(text.prefix(100))\" is not `<epoch>:<n>` or `0`; pull with cursor=0 to start over.")
            }
            cursor = parsed
        }
        var limit = config.defaultPullLimit
        if let text = parameter(.limit) {
            guard let n = Self.wholeNumber(text), n >= 1 else {
                throw APIError(.badRequest, .invalidLimit,
                               "limit must be a whole number from 1 to \(config.maxPullLimit) (\(version == .v1 ? "field rows" : "changes") per page).")
            }
            limit = min(n, config.maxPullLimit)
        }
        var ackedSeq: Int64 = 0
        if let text = parameter(.ackedSeq) {
            guard let n = Self.wholeNumber(text).map { Int64($0) }, n >= 0 else {
                throw APIError(.badRequest, .invalidAckedSeq, "acked_seq must be a whole number >= 0: the highest seq the server acknowledged to this device.")
            }
            ackedSeq = n
        }
        // Where the device's last complete pull ended, in the cursor's epoch: each record comes
        // with its changes after it (all of them without it).
        var since: Int64 = 0
        if let text = parameter(.since) {
            guard let n = Self.wholeNumber(text).map({ Int64($0) }), n >= 0 else {
                throw APIError(.badRequest, .invalidSince,
                               "since \"\(text.prefix(100))\" is not a whole number >= 0: send the cursor position where this device's last complete pull ended, or leave it out.")
            }
            since = n
        }
        var epoch = try await self.epoch(for: user)
        func startOver(lastAppliedSeq: Int64) -> Response {
            let empty = PullPage(records: [], cursor: 0, hasMore: false, lastAppliedSeq: lastAppliedSeq, fieldCount: 0)
            return jsonResponse(bytes: empty.json(epoch: epoch, epochChanged: true, version: version).utf8)
        }
        if let cursorEpoch = cursor.epoch, cursorEpoch != epoch {
            let page = try await storage.pull(user: user, deviceID: device, after: 0, limit: .fieldRows(1), maxBytes: 0)
            return startOver(lastAppliedSeq: page.lastAppliedSeq)
        }
        let page = try await storage.pull(user: user, deviceID: device, after: cursor.position, since: cursor.epoch == nil ? 0 : since,
                                          limit: version == .v1 ? .fieldRows(limit) : .changes(limit), maxBytes: config.maxPullBytes)
        // The device knows more history than this database holds: its cursor is past the head,
        // or it was acknowledged events this database never applied. The database was restored
        // from an older backup. Only this device can tell, but every device of the user may
        // hold a cursor into the lost history that new changes will soon overtake, so the
        // user's history starts a new generation: all their devices start over and re-send.
        if cursor.epoch != nil, SyncRules.historyRolledBack(cursorPosition: cursor.position, ackedSeq: ackedSeq, page: page) {
            // The claim is the device's word, and a GET: a client that forges or repeats it
            // must not make every device re-send everything again and again. A real restore
            // needs one new generation; the store counts them per user (for every instance,
            // across restarts), and past the limit only this device starts over.
            guard let generation = try await storage.startNewHistoryGeneration(user: user, now: config.now(),
                                                                                perHour: config.maxHistoryGenerationsPerHour) else {
                context.logger.warning("history rollback claimed too often; only this device starts over", metadata: [
                    "user": "\(user.name)", "device": "\(device)", "acked_seq": "\(ackedSeq)", "last_applied_seq": "\(page.lastAppliedSeq)",
                    "cursor": "\(cursor.position)", "head": "\(page.cursor)", "per_hour": "\(config.maxHistoryGenerationsPerHour)",
                ])
                return startOver(lastAppliedSeq: page.lastAppliedSeq)
            }
            var renewed = user
            renewed.historyGeneration = generation
            epoch = try await self.epoch(for: renewed)
            context.logger.notice("history rolled back; new history generation", metadata: [
                "user": "\(user.name)", "generation": "\(generation)", "acked_seq": "\(ackedSeq)",
                "last_applied_seq": "\(page.lastAppliedSeq)", "cursor": "\(cursor.position)", "head": "\(page.cursor)",
            ])
            return startOver(lastAppliedSeq: page.lastAppliedSeq)
        }
        return jsonResponse(bytes: page.jsonBytes(epoch: epoch, version: version))
    }

    // MARK: helpers

    /// A query parameter's whole number: ASCII digits only (`Int("+5")` is 5, and a sign or a
    /// leading space is not a number the documentation allows).
    static func wholeNumber(_ text: String) -> Int? {
        guard !text.isEmpty, text.utf8.count <= 19, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
        return Int(text)
    }

    /// The user the bearer token belongs to; with `checkingKey`, also the key check: an
    /// encrypted account's pushes and pulls must carry its key's verifier (`Gymlog-Key`), and
    /// a plaintext account's none, so a device with another key (or none) is refused before
    /// anything of it is read or stored.
    func authenticate(_ request: Request, context: ServerContext, checkingKey: Bool = true) async throws -> AuthenticatedUser {
        guard let header = request.headers[.authorization], header.count > 7,
              header.prefix(7).lowercased() == "bearer " else { throw APIError.unauthorized }
        let token = header.dropFirst(7).trimmingCharacters(in: .whitespaces)
        guard !token.isEmpty, token.utf8.count <= 256 else { throw APIError.unauthorized }
        let hash = Tokens.hash(token)
        guard let user = try await storage.userForTokenHash(hash) else {
            // Only a refused token costs this second read; it says what an administrator did.
            throw try await storage.withdrawal(ofTokenHash: hash).map(APIError.withdrawn) ?? APIError.unauthorized
        }
        // Named in the request's log line, a refused key included.
        context.user.name = user.name
        guard checkingKey else { return user }
        let sent = request.headers[Self.keyHeader]
        switch (user.keyVerifier, sent) {
        case (nil, nil): return user
        case (let stored?, let sent?) where Tokens.constantTimeEqual(Tokens.hash(sent), stored): return user
        case (_?, nil):
            throw APIError.keyRequired
        case (_?, _?):
            throw APIError(.forbidden, .wrongKey,
                           "this device's key is not the account's key; run `gymlog key` on a device that syncs and log in again with it. Nothing of this device was stored.")
        case (nil, _?):
            throw APIError(.forbidden, .notEncrypted,
                           "this device holds a key, but the server keeps this account's history in the clear (a server restored from a backup made before the key); run `gymlog key enable` to encrypt it again.")
        }
    }

    static let keyHeader = HTTPField.Name(accountKeyHeader)!
}

/// The database's epoch, read on first use (after the storage's services started) and kept:
/// it never changes while the database exists.
final class DatabaseEpoch: Sendable {
    private let storage: any SyncStorage
    private let cached = NIOLockedValueBox<String?>(nil)

    init(storage: any SyncStorage) { self.storage = storage }

    func value() async throws -> String {
        if let cached = cached.withLockedValue({ $0 }) { return cached }
        let epoch = try await storage.epoch()
        cached.withLockedValue { $0 = epoch }
        return epoch
    }
}

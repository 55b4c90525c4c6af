import Foundation
import GymLogCore
import GymLogWire

/// The client database as the sync engine sees it; `GymLogDatabase` conforms to it, and tests
/// wrap it or fake it.
public protocol SyncReplica: Sendable {
    /// The device id this database syncs as now (`becomeNewDevice` changes it).
    func currentDeviceID() throws -> String
    /// The highest seq this database ever gave an event: the server acknowledging more proves
    /// another database syncs under this device's id.
    func lastWrittenSeq() throws -> Int64
    /// Makes this database a device of its own (a new id, every row sent again from seq 1, a
    /// full pull after) once it turned out to be a copy of another; returns the new id.
    func becomeNewDevice() throws -> String
    /// The server epoch and cursor position last applied, and the highest acknowledged seq.
    func syncPosition() throws -> (epoch: String?, cursor: Int64, ackedSeq: Int64)
    /// Applies one pulled page and its cursor in one local transaction; changes that break the
    /// rules of a local write are parked, not applied, and so are the `refused` ones.
    /// `pulledThrough`, when given, is stored with them (see `pulledThrough()`).
    func apply(_ changes: [PullChange], refused: [RefusedChange], epoch: String, cursor: Int64,
               pulledThrough: Int64?) throws -> (written: Int, kept: Int, parked: Int)
    /// Where the last complete pull ended in the current epoch (0 before one): the device holds
    /// every change the server numbered up to it, so pulls ask for each record's later changes only.
    func pulledThrough() throws -> Int64
    func pending(after seq: Int64, limit: Int) throws -> [PushEvent]
    /// Gives rejected events whose backoff has passed new sequence numbers; returns how many.
    @discardableResult func unparkDueEvents() throws -> Int
    /// Deletes acknowledged events in one transaction; parks the rejected ones.
    func acknowledge(lastAppliedSeq: Int64, rejected: [Int64: String]) throws
    /// Replaces the outbox with the full state, numbered from `nextSeq` (new epoch or restore).
    func rebase(epoch: String, nextSeq: Int64) throws
    /// The device's wall clock, Unix milliseconds.
    var wallClock: Int64 { get }
    /// Gives this device's pending writes stamped after `limit` fresh clocks from now (its
    /// clock was far ahead and has been fixed); clocks at or before `limit` are left as they
    /// are. Returns how many events changed.
    func restampClocks(after limit: Int64) throws -> Int
    /// Keys every plain content-derived id the database holds with `key`
    /// (`GymLogDatabase.keyDerivedIDs`); returns how many rows changed id.
    func keyDerivedIDs(with key: AccountKey) throws -> Int
}

/// One sync cycle: pull every page (each applied with its cursor in one transaction), then
/// push the outbox in batches, deleting acknowledged events after each answer. The caller
/// holds the cross-process mutex.
public struct SyncEngine: Sendable {
    public let replica: SyncReplica
    public let transport: SyncTransport
    public var pushBatch = 1000
    public var pullLimit = SyncEngine.defaultPullLimit
    public var onProgress: (@Sendable (SyncProgress) -> Void)?
    /// How many pulled pages of `defaultPullLimit` changes in one run may bring nothing this
    /// device did not already hold before the run stops (`SyncEngineError.endlessPages`); a
    /// smaller `pullLimit` allows proportionally more pages. Tests lower or lift it.
    public var maxIdlePages = SyncEngine.defaultMaxIdlePages
    /// How long one run may take before it stops between two pages or batches
    /// (`SyncEngineError.timeLimitReached`); tests lower it.
    public var timeLimit = SyncEngine.defaultTimeLimit

    /// A server that answers every pull with "more to come" and a cursor one step further held
    /// a sync (and its lock) for minutes, pulling thousands of empty pages (issue 45). A
    /// gymlog-server never sends a page with nothing new and more to come, except this
    /// device's own changes coming back (a full pull after a restore or a copy): up to
    /// `pullLimit` (1,000) changes a page, so 100 such pages are 100,000 changes, more than
    /// years of training. Each page is applied with its cursor, so a run stopped here loses
    /// nothing: the next one goes on from where it stopped.
    public static let defaultMaxIdlePages = 100
    /// Changes (field rows on protocol v1) a pull asks for per page, unless told otherwise.
    public static let defaultPullLimit = 1000
    /// 10 minutes: the last bound, for a server that keeps sending pages that do bring something
    /// (pages bringing nothing stop at `maxIdlePages` within seconds). Not shorter: a process
    /// starved on a loaded machine, or a first sync of a long history on a slow link, must not
    /// be cut short (a 90 s bound stopped test runs under load after one page). Every page and
    /// push batch a stopped run finished is kept, so the next run goes on from there.
    public static let defaultTimeLimit: Duration = .seconds(600)
    /// The account's key, when its history is encrypted end to end: values are sealed as
    /// they are pushed and opened as they are pulled; the outbox and the database hold them
    /// in the clear.
    public var seal: ValueSeal?

    /// The server's answer to an event whose seq or key already carried other content.
    static let keyReusedCode = ErrorCode.keyReused.rawValue
    /// The server's answer to a value of an encrypted account it does not take for sealed.
    static let notSealedCode = ErrorCode.notSealed.rawValue

    /// How far inside the server's clock limit the device clock must be before pending
    /// writes are re-stamped after `clock_ahead` (network delay fits well inside a minute).
    static let clockMarginMs: Int64 = 60_000

    public init(replica: SyncReplica, transport: SyncTransport) {
        self.replica = replica; self.transport = transport
    }

    /// `maxIdlePages` for this engine's page size: the bound is meant as so many full pages of
    /// changes the device already held, so pages of a tenth the size may number ten times as
    /// many (the simulation pulls pages of one change through a whole history).
    var idlePageBound: Int {
        let (bound, overflow) = maxIdlePages.multipliedReportingOverflow(by: max(1, Self.defaultPullLimit / max(1, pullLimit)))
        return overflow ? .max : bound
    }

    /// What one run has spent of its bounds (`maxIdlePages`, `timeLimit`).
    struct Budget {
        let started = ContinuousClock.now
        let maxIdlePages: Int
        let timeLimit: Duration
        /// Pages pulled, and those that brought nothing new.
        var pages = 0
        var idlePages = 0

        var seconds: Int { Int((ContinuousClock.now - started).components.seconds) }

        /// Counts a pulled page, and throws when the run is to stop before the next request:
        /// `idle` pages (nothing new) or time used up.
        mutating func pulled(idle: Bool) throws {
            pages += 1
            if idle { idlePages += 1 }
            if idlePages >= maxIdlePages { throw SyncEngineError.endlessPages(pages: pages, seconds: seconds) }
            try checkTime()
        }

        /// Throws when the run has taken its time.
        func checkTime() throws {
            if ContinuousClock.now - started >= timeLimit { throw SyncEngineError.timeLimitReached(pages: pages, seconds: seconds) }
        }
    }

    public func run() async throws -> SyncReport {
        var report = SyncReport()
        var device = try replica.currentDeviceID()
        var pushFirst = true
        var retried = (epoch: false, copy: false)
        // One budget for the whole run: a retried cycle does not start the bounds again.
        var budget = Budget(maxIdlePages: idlePageBound, timeLimit: timeLimit)
        while true {
            do {
                try await cycle(&report, &budget, pushFirst: pushFirst, device: device)
                return report
            } catch let error as SyncTransportError where error.code == ErrorCode.epochChanged.rawValue && !retried.epoch {
                // The server's history moved on since this device's last pull (another device
                // proved a rollback, or the server was replaced): pull first, which rebases, then push.
                retried.epoch = true
                pushFirst = false
            } catch SyncEngineError.copyOfAnotherDevice where !retried.copy {
                // Nothing of this cycle's push was acknowledged: every change is still here,
                // and goes again under the new id, after a full pull.
                device = try replica.becomeNewDevice()
                report.newDeviceID = device
                retried.copy = true
                pushFirst = false
            }
        }
    }

    /// Whether `event` names a plain content-derived id, as its row or in an id field (read
    /// from the payload as `encodePayload` writes it): an encrypted account must never get one,
    /// since the server could test a guessed name against it (`GymLogDatabase.keyDerivedIDs`).
    public static func namesPlainDerivedID(_ event: PushEvent) -> Bool {
        if looksDerived(event.entityID.utf8) { return true }
        guard let needles = idFieldNeedles[event.entity] else { return false }
        // A plain byte search over the payload: this runs for every event of an encrypted push,
        // and Foundation's `range(of:)` (then the standard library's generic search) cost
        // more than sealing the event.
        var json = event.fields.json
        return json.withUTF8 { bytes in
            for needle in needles {
                guard let start = firstEnd(of: needle, in: bytes), start + 36 <= bytes.count else { continue }
                if looksDerived(UnsafeBufferPointer(rebasing: bytes[start..<start + 36])) { return true }
            }
            return false
        }
    }

    /// Where the first occurrence of `needle` in `bytes` ends, if any.
    private static func firstEnd(of needle: [UInt8], in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let first = needle.first, bytes.count >= needle.count else { return nil }
        var i = 0
        let last = bytes.count - needle.count
        while i <= last {
            if bytes[i] == first {
                var j = 1
                while j < needle.count && bytes[i + j] == needle[j] { j += 1 }
                if j == needle.count { return i + needle.count }
            }
            i += 1
        }
        return nil
    }

    /// For each entity with id fields, the bytes that precede such a field's value in a
    /// payload as `encodePayload` writes it (`"exercise_id":{"v":"`).
    private static let idFieldNeedles: [String: [[UInt8]]] = Dictionary(uniqueKeysWithValues: EntityKind.allCases.compactMap { entity in
        let fields = FieldRules.idFields(of: entity.rawValue)
        return fields.isEmpty ? nil : (entity.rawValue, fields.map { Array("\"\($0)\":{\"v\":\"".utf8) })
    })

    /// Whether these 36 bytes are the text of a derived id (version 5), read cheaply first.
    private static func looksDerived<C: Collection>(_ text: C) -> Bool where C.Element == UInt8 {
        guard text.count == 36, text[text.index(text.startIndex, offsetBy: 14)] == UInt8(ascii: "5") else { return false }
        return parseUUID(String(decoding: text, as: UTF8.self))?.isDerived == true
    }

    /// One pull -> push -> ack cycle, counted into `report`.
    ///
    /// With `pushFirst`, a device that has pulled before and has changes to send pushes them
    /// first: when every push answer shows its writes started from this device's cursor
    /// (`PushResponse.previousCursor`), nothing else happened on the server since the last
    /// pull, so the cursor moves to the new head and the pull (of this device's own writes)
    /// is skipped: one round trip instead of two. Otherwise the pull follows, as in a
    /// pull-first cycle; merging is per field and by clock, so the order changes no result.
    private func cycle(_ report: inout SyncReport, _ budget: inout Budget, pushFirst: Bool, device: String) async throws {
        var position = try replica.syncPosition()
        var pulledThrough = try replica.pulledThrough()
        var rebasedThisCycle = false
        if pushFirst, let epoch = position.epoch, try !replica.pending(after: position.ackedSeq, limit: 1).isEmpty {
            let seen = try await pushOutbox(&report, budget, after: position.ackedSeq, epoch: epoch, cursor: position.cursor,
                                            device: device, rebasedThisCycle: &rebasedThisCycle)
            if let head = seen {
                _ = try replica.apply([], refused: [], epoch: epoch, cursor: head,
                                      pulledThrough: Self.heldThrough(head, pulledThrough: pulledThrough, cursor: position.cursor))
                return
            }
            position = try replica.syncPosition()
            pulledThrough = try replica.pulledThrough()
        }
        var cursor = SyncCursor(epoch: position.epoch, position: position.cursor)
        var serverAck: Int64 = 0

        // Pull.
        while true {
            let page = try await transport.pull(cursor: cursor, limit: pullLimit, deviceID: device,
                                                ackedSeq: cursor.epoch == nil ? nil : position.ackedSeq,
                                                since: cursor.epoch == nil ? nil : pulledThrough)
            report.roundTrips += 1
            let pageCursor = SyncCursor(page.cursor)?.position ?? 0
            // The server was wiped (new epoch) or restored from an older backup (its head or
            // its ack for this device went backwards): re-send everything we hold.
            let regressed = position.epoch != nil && (page.epochChanged || page.epoch != position.epoch
                || page.lastAppliedSeq < position.ackedSeq || pageCursor < cursor.position)
            if regressed && !rebasedThisCycle {
                try replica.rebase(epoch: page.epoch, nextSeq: page.lastAppliedSeq + 1)
                rebasedThisCycle = true
                report.rebased = true
                position = try replica.syncPosition()
                pulledThrough = 0
                cursor = SyncCursor(epoch: page.epoch, position: 0)
                continue
            }
            // More pages from a cursor that did not move forward would be pulled for ever (a
            // broken or hostile server): stop with an error instead.
            if page.hasMore && pageCursor <= cursor.position {
                throw SyncEngineError.cursorDidNotAdvance(from: cursor.position, to: pageCursor)
            }
            // An empty page that moves nothing needs no local transaction (and no fsync): a
            // no-op sync then writes nothing at all.
            // The last page of a pull: everything up to its cursor is held now.
            let ended = page.hasMore ? nil : pageCursor
            var fieldsWritten = 0
            if !page.changes.isEmpty || pageCursor != position.cursor || page.epoch != position.epoch || (ended != nil && ended != pulledThrough) {
                let (changes, refused) = await accepted(page, cursor: pageCursor)
                let stats = try replica.apply(changes, refused: refused, epoch: page.epoch, cursor: pageCursor, pulledThrough: ended)
                if let ended { pulledThrough = ended }
                report.pulledChanges += Self.othersChanges(page.changes, deviceID: device)
                report.mergedFields += stats.written
                fieldsWritten = stats.written
                report.keptFields += stats.kept
                report.parkedChanges += stats.parked
                position.cursor = pageCursor
            }
            serverAck = page.lastAppliedSeq
            cursor = SyncCursor(epoch: page.epoch, position: pageCursor)
            position.epoch = page.epoch
            onProgress?(SyncProgress(phase: "pull", done: report.pulledChanges, total: nil))
            if !page.hasMore { break }
            // More to come: a server can say so for ever, each page a step further (issue 45).
            // A page that wrote no field (empty, or only what this device already held) is
            // counted against the run's bound; every page against its time.
            try budget.pulled(idle: fieldsWritten == 0)
        }

        // The server acknowledges more than this device sent: a push whose answer was lost, or
        // another database syncing under this device's id. Past any seq written here, it can
        // only be the other; otherwise the events go again, and the server answers `duplicate`
        // for what it holds and `key_reused` for what a copy wrote under the same seq (taking
        // the ack as it comes would delete a copy's own changes unsent).
        if serverAck > position.ackedSeq, try acknowledgesUnwritten(serverAck) { throw SyncEngineError.copyOfAnotherDevice }

        // Pushed right after the pull: when nothing came between, the cursor moves past this
        // device's own writes, so the next cycle need not pull them back either.
        let head = try await pushOutbox(&report, budget, after: position.ackedSeq, epoch: position.epoch,
                                        cursor: position.cursor, device: device, rebasedThisCycle: &rebasedThisCycle)
        if let epoch = position.epoch, let head {
            _ = try replica.apply([], refused: [], epoch: epoch, cursor: head,
                                  pulledThrough: Self.heldThrough(head, pulledThrough: pulledThrough, cursor: position.cursor))
        }
    }

    /// Whether the server acknowledges a seq this database never wrote: only another database
    /// syncing under this device's id (a copy) can have sent it. The one rule for pulls and pushes.
    private func acknowledgesUnwritten(_ ack: Int64) throws -> Bool { ack > (try replica.lastWrittenSeq()) }

    /// Where the device holds every change after its cursor moves past its own push to `head`:
    /// `head` when it held everything up to the cursor, else unknown (nil: `pulled_through` stays).
    static func heldThrough(_ head: Int64, pulledThrough: Int64, cursor: Int64) -> Int64? {
        pulledThrough == cursor ? head : nil
    }

    /// Pushes the outbox after seq `start` in batches, acknowledging each answer. Returns the
    /// head this device has now seen all of, when `cursor` (its pull position) is given, at
    /// least one batch was answered, and each answer's writes started where the previous one
    /// (or `cursor`) ended; nil otherwise.
    private func pushOutbox(_ report: inout SyncReport, _ budget: Budget, after start: Int64, epoch: String?, cursor: Int64?,
                            device: String, rebasedThisCycle: inout Bool) async throws -> Int64? {
        try replica.unparkDueEvents()
        var seen = cursor
        var answered = false
        // Whether the database was keyed for the batch about to be read: keying that leaves
        // a plain id in that same batch would loop. A later batch may bring a write made while
        // this cycle ran (an older gymlog, a write racing the login), keyed again in turn.
        var keyedForThisBatch = false
        var after = start
        var restampedThisCycle = false
        while true {
            let events = try replica.pending(after: after, limit: pushBatch)
            guard !events.isEmpty else { break }
            try budget.checkTime()
            if let seal, events.contains(where: Self.namesPlainDerivedID) {
                // An encrypted account never gets a plain derived id (it would let the server
                // test a guessed exercise name). Login and `key enable` key what the device made
                // before the key, and a device holding it keys ids as it makes them; this is
                // for what else wrote one (an older gymlog, a write racing the login): key the
                // database, folding plain rows into keyed rows pulled meanwhile, and read again.
                guard !keyedForThisBatch else { throw SyncEngineError.plainDerivedID }
                _ = try replica.keyDerivedIDs(with: seal.key)
                keyedForThisBatch = true
                continue
            }
            let response: PushResponse
            do {
                let sent = if let seal { try await seal.sealed(events) } else { events }
                response = try await transport.push(PushRequest(deviceID: device, events: sent, epoch: epoch))
            } catch let error as SyncTransportError where error.code == ErrorCode.clockAhead.rawValue && !restampedThisCycle {
                // The server refuses clocks far in its future. If this device's wall clock is
                // now within what the server accepts, it was further ahead when the pending
                // writes were made (and the HLC still is): re-stamp them from the corrected time
                // and push again. Otherwise the clock is still too far ahead and the error says so.
                guard case .server(_, let body) = error, let serverTime = body.serverTimeMs,
                      let accepted = try? await transport.capabilities().maxClockAheadMs,
                      replica.wallClock - serverTime <= accepted - Self.clockMarginMs else { throw error }
                // Only clocks the server refuses now are re-stamped. Server time only moves
                // forward, so a clock refused now was refused at every earlier push and cannot
                // have been applied; a clock inside the limit may already be applied (its answer
                // lost, or re-sent after a restore), and giving it a new clock would make the
                // server hold one value at two clocks.
                report.restamped += try replica.restampClocks(after: serverTime + accepted)
                restampedThisCycle = true
                continue
            } catch let error as SyncTransportError where error.code == ErrorCode.sequenceGap.rawValue && !rebasedThisCycle {
                // The server lost events it had acknowledged (restored backup): re-send all.
                if case .server(_, let body) = error, let last = body.lastAppliedSeq {
                    try replica.rebase(epoch: epoch ?? "", nextSeq: last + 1)
                    rebasedThisCycle = true
                    report.rebased = true
                    seen = nil
                    after = last
                    continue
                }
                throw error
            }
            report.roundTrips += 1
            keyedForThisBatch = false
            answered = true
            // Nothing but this batch's writes since `seen`: the head is seen too.
            if let known = seen, let previous = response.previousCursor.flatMap(SyncCursor.init), previous.epoch == epoch,
               previous.position == known, let head = SyncCursor(response.cursor), head.epoch == epoch {
                seen = head.position
            } else {
                seen = nil
            }
            // A seq this device used was used for other content: this database is a copy. Its
            // answer is not acknowledged (that would drop the copy's change as a replay).
            if response.results.contains(where: { $0.status == .rejected && $0.error?.code == SyncEngine.keyReusedCode }) {
                throw SyncEngineError.copyOfAnotherDevice
            }
            // A server that knows only the older sealed format refuses every value as not sealed;
            // parking the events for a retry would only hide that the server needs upgrading.
            if seal != nil, response.results.contains(where: { $0.status == .rejected && $0.error?.code == Self.notSealedCode }) {
                throw SyncEngineError.serverTakesNoBoundSeals
            }
            var rejected: [Int64: String] = [:]
            for r in response.results {
                switch r.status {
                case .applied: report.pushed += 1
                case .duplicate: report.duplicates += 1
                case .rejected:
                    let message = r.error.map { "\($0.code): \($0.message)" } ?? "rejected"
                    rejected[r.seq] = message
                    report.rejected.append("event \(r.seq): \(message)")
                }
            }
            // An acknowledgement past any seq written here: another database pushed under this
            // device's id (a copy that synced first, its later seqs unknown here). Taking it
            // would mark this device's own later changes as sent and drop them unsent.
            if try acknowledgesUnwritten(response.lastAppliedSeq) { throw SyncEngineError.copyOfAnotherDevice }
            // Only what this batch carried counts as sent: a higher acknowledgement (a lost
            // answer's batch) is confirmed when those events go again, as duplicates, or found
            // to be another database's (`key_reused`).
            let acknowledged = min(response.lastAppliedSeq, events.last!.seq)
            try replica.acknowledge(lastAppliedSeq: acknowledged, rejected: rejected)
            onProgress?(SyncProgress(phase: "push", done: report.pushed + report.duplicates, total: nil))
            guard acknowledged >= events.last!.seq else { break }
            after = acknowledged
        }
        return answered ? seen : nil
    }

    /// The page's changes this device may apply: opened with the account key (all of them as
    /// they are without one) and within the protocol's limits (`PulledChanges.problem`: a
    /// server may send a 50 MiB note or a field named `evil_col; drop table sets`); and the ones
    /// set aside whole, with why: those that did not open, break a limit, or did not read at all.
    func accepted(_ page: PullResponse, cursor: Int64) async -> (changes: [PullChange], refused: [RefusedChange]) {
        var (changes, refused) = await opened(page.changes)
        changes.removeAll { change in
            guard let problem = PulledChanges.problem(change) else { return false }
            refused.append(RefusedChange(change: PullChange(entity: change.entity, entityID: change.entityID, fields: [:]), reason: problem))
            return true
        }
        for (i, bad) in page.unreadable.enumerated() {
            // A change that names no row readably is kept under its place in the page.
            let row = PullChange(entity: bad.entity ?? Self.unreadableEntity, entityID: bad.entityID ?? "page \(cursor) change \(i + 1)", fields: [:])
            refused.append(RefusedChange(change: row, reason: bad.reason))
        }
        return (changes, refused)
    }

    /// The entity a refused change is kept under when it names none readably.
    public static let unreadableEntity = "unreadable"

    /// The pulled changes opened with the account key (all of them as they are without one),
    /// and the ones that did not open, with why.
    func opened(_ changes: [PullChange]) async -> (opened: [PullChange], refused: [RefusedChange]) {
        guard let seal else { return (changes, []) }
        var opened: [PullChange] = [], refused: [RefusedChange] = []
        opened.reserveCapacity(changes.count)
        for (change, result) in zip(changes, await seal.opened(changes)) {
            switch result {
            case .success(let change): opened.append(change)
            case .failure(let problem):
                refused.append(RefusedChange(change: change, reason: "field \(problem.field): \(problem.reason)"))
            }
        }
        return (opened, refused)
    }

    /// How many of `changes` another device made: the server sends a device's own writes back
    /// in its pulls, and those are not news to the person syncing.
    static func othersChanges(_ changes: [PullChange], deviceID: String) -> Int {
        changes.count { change in change.fields.values.contains { $0.c.node != deviceID } }
    }
}

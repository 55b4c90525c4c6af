import Foundation
import GymLogCore
import GymLogWire

/// Collects pulled records into a page, a record at a time, so a page ends only between two
/// records (and so between two change counter values: each record has its own).
struct PageBuilder {
    let limit: PullLimit
    let maxBytes: Int
    private(set) var rows: [PulledRow] = []
    /// Field rows in the page.
    private var count = 0
    /// What `limit` counts, in the page.
    private var units = 0
    private var bytes = 0
    private var lastSeq: Int64?
    private(set) var stoppedEarly = false

    init(limit: PullLimit, maxBytes: Int) { self.limit = limit; self.maxBytes = maxBytes }

    /// Adds `record`, or ends the page when it would overflow it and the page holds something
    /// already: false then, and the record waits for the next page.
    mutating func add(_ record: RecordRow) -> Bool {
        let pulled = record.fields.map { PulledField(name: $0.name, value: $0.value, clock: $0.clock) }
        let recordUnits: Int
        switch limit {
        case .fieldRows: recordUnits = pulled.count
        case .changes: recordUnits = PulledRow.changeClocks(pulled).count
        }
        let recordBytes = pulled.reduce(record.entity.utf8.count + record.entityID.utf8.count) { $0 + estimatedBytes($1) }
        if count > 0 && (units + recordUnits > limit.count || bytes + recordBytes > maxBytes) {
            stoppedEarly = true
            return false
        }
        rows.append(PulledRow(entity: record.entity, entityID: record.entityID, fields: pulled))
        count += pulled.count
        units += recordUnits
        bytes += recordBytes
        lastSeq = record.changeSeq
        return true
    }

    func finish(after: Int64, head: Int64, lastAppliedSeq: Int64) -> PullPage {
        // With no rows, answer the head if the client's cursor is past it: a cursor going
        // backwards tells the client the server lost history (restored from a backup).
        let cursor = lastSeq ?? min(after, head)
        let hasMore = stoppedEarly || (lastSeq.map { $0 < head } ?? false)
        return PullPage(rows: rows, cursor: cursor, hasMore: hasMore, lastAppliedSeq: lastAppliedSeq, fieldCount: count)
    }

    private func estimatedBytes(_ f: PulledField) -> Int {
        let value: Int
        switch f.value {
        case .text(let s): value = s.utf8.count + 8
        default: value = 24
        }
        return f.name.utf8.count + f.clock.utf8.count + value + 32
    }
}

import Foundation
import GymLogCore
import GymLogWire

/// Collects pulled records into a page, a record at a time, so a page ends only between two
/// records (and so between two change counter values: each record has its own).
struct PageBuilder {
    let limit: PullLimit
    let maxBytes: Int
    private(set) var records: [PulledRecord] = []
    /// Field rows in the page.
    private var count = 0
    /// What `limit` counts, in the page.
    private var units = 0
    private var bytes = 0
    private var lastSeq: Int64?
    private(set) var stoppedEarly = false

    /// Only the changes after this counter value are sent (`PullPage.since`).
    let since: Int64

    init(limit: PullLimit, maxBytes: Int, since: Int64 = 0) { self.limit = limit; self.maxBytes = maxBytes; self.since = since }

    /// Adds `record`, or ends the page when it would overflow it and the page holds something
    /// already: false then, and the record waits for the next page. Throws when its stored
    /// text does not read.
    mutating func add(_ record: PulledRecord) throws -> Bool {
        let (changes, fields) = try RecordText.counts(record.text, since: since)
        let recordUnits: Int
        switch limit {
        case .fieldRows: recordUnits = fields
        case .changes: recordUnits = changes
        }
        // The stored text is about what the page writes for it (v2), plus the row's names
        // (more than it writes when changes before `since` are left out).
        let recordBytes = record.text.utf8.count + (record.entity.utf8.count + record.entityID.utf8.count + 48) * changes
        if count > 0 && (units + recordUnits > limit.count || bytes + recordBytes > maxBytes) {
            stoppedEarly = true
            return false
        }
        records.append(record)
        count += fields
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
        return PullPage(records: records, cursor: cursor, hasMore: hasMore, lastAppliedSeq: lastAppliedSeq, fieldCount: count, since: since)
    }
}

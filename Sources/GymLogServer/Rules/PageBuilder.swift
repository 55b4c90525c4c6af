import Foundation
import GymLogCore
import GymLogWire

/// Collects pull rows into a page one change counter value (one event's writes) at a time,
/// so a page ends only between two values.
struct PageBuilder {
    let limit: PullLimit
    let maxBytes: Int
    private(set) var rows: [PulledRow] = []
    private var pendingSeq: Int64 = -1
    private var pending: [(entity: String, entityID: String, field: PulledField)] = []
    private var pendingBytes = 0
    /// Field rows in the page.
    private var count = 0
    /// What `limit` counts, in the page.
    private var units = 0
    private var bytes = 0
    private var lastSeq: Int64?
    private(set) var stoppedEarly = false

    init(limit: PullLimit, maxBytes: Int) { self.limit = limit; self.maxBytes = maxBytes }

    /// Called before each row; false once the page is full and the row starts a new group.
    mutating func accept(seq: Int64) -> Bool {
        if seq == pendingSeq { return true }
        commitPending()
        if stoppedEarly { return false }
        pendingSeq = seq
        return true
    }

    mutating func add(entity: String, entityID: String, field: PulledField) {
        pending.append((entity, entityID, field))
        pendingBytes += estimatedBytes(field) + entity.utf8.count + entityID.utf8.count
    }

    /// The read ended inside a change counter value (the storage's row limit cut it): the
    /// value's rows are left for the next page, which reads them whole.
    mutating func dropPending() {
        guard !pending.isEmpty, count > 0 else { return }
        pending.removeAll()
        pendingBytes = 0
        stoppedEarly = true
    }

    // Moves the finished group into the page, or ends the page if it would overflow
    // (a group always fits into an empty page, so paging always progresses).
    private mutating func commitPending() {
        guard !pending.isEmpty else { return }
        let pendingUnits: Int
        switch limit {
        case .fieldRows: pendingUnits = pending.count
        case .changes: pendingUnits = Self.changeCount(pending)
        }
        if count > 0 && (units + pendingUnits > limit.count || bytes + pendingBytes > maxBytes) {
            stoppedEarly = true
            return
        }
        for item in pending {
            if let last = rows.last, last.entity == item.entity, last.entityID == item.entityID {
                rows[rows.count - 1].fields.append(item.field)
            } else {
                rows.append(PulledRow(entity: item.entity, entityID: item.entityID, fields: [item.field]))
            }
        }
        count += pending.count
        units += pendingUnits
        bytes += pendingBytes
        lastSeq = pendingSeq
        pending.removeAll(keepingCapacity: true)
        pendingBytes = 0
    }

    mutating func finish(after: Int64, head: Int64, lastAppliedSeq: Int64) -> PullPage {
        commitPending()
        // With no rows, answer the head if the client's cursor is past it: a cursor going
        // backwards tells the client the server lost history (restored from a backup).
        let cursor = lastSeq ?? min(after, head)
        let hasMore = stoppedEarly || (lastSeq.map { $0 < head } ?? false)
        return PullPage(rows: rows, cursor: cursor, hasMore: hasMore, lastAppliedSeq: lastAppliedSeq, fieldCount: count)
    }

    /// How many changes (`PulledRow.changes`) one counter value's rows make. Within a
    /// counter value a row's fields are adjacent (pull order), so each row is one run.
    private static func changeCount(_ group: [(entity: String, entityID: String, field: PulledField)]) -> Int {
        var count = 0
        var start = 0
        while start < group.count {
            var end = start + 1
            while end < group.count, group[end].entityID == group[start].entityID, group[end].entity == group[start].entity { end += 1 }
            count += PulledRow.changeClocks(group[start..<end].lazy.map(\.field)).count
            start = end
        }
        return count
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


import Foundation
import OpsKit

/// The operations a monitor tracks (taken by the queue, not finished yet), kept by the ticket
/// the queue gave each one: every change names its operation's ticket, so finding, updating
/// and removing an entry is an index into a table, with no hashing and no growth of a hash
/// table at every operation.
///
/// Tickets grow by one per operation the queue takes, so the table has one slot per ticket
/// from the oldest tracked operation's on; a removed entry leaves a hole until every older one
/// is removed too (as in the queue's own books). The table by identity, which only a dependency
/// (or a dependent taken before it) looks up, is built the first time one is asked for and
/// kept up to date from then on.
struct TrackedOperations {
    private var slots: [QueueMonitor.Tracked?] = []
    /// `slots[..<head]` are all empty.
    private var head = 0
    /// The ticket of `slots[0]`.
    private var firstTicket: UInt64 = 0
    /// Entries present.
    private(set) var count = 0
    /// Tickets by operation; nil until `ticket(of:)` is first asked.
    private var byKey: [OperationKey: UInt64]?

    /// Adds `entry` for ticket `ticket`; false (nothing changed) if that ticket is tracked
    /// already (an operation both found in the queue and told of as added).
    mutating func insert(_ entry: QueueMonitor.Tracked, ticket: UInt64) -> Bool {
        if count == 0 {
            slots.removeAll(keepingCapacity: slots.capacity <= 4_096)
            head = 0
            firstTicket = ticket
        } else if ticket < firstTicket {
            slots.insert(contentsOf: repeatElement(nil, count: Int(firstTicket - ticket)), at: 0)
            head = 0
            firstTicket = ticket
        }
        let index = Int(ticket - firstTicket)
        if index < slots.count {
            guard slots[index] == nil else { return false }
            slots[index] = entry
            if index < head { head = index }
        } else {
            if index > slots.count { slots.append(contentsOf: repeatElement(nil, count: index - slots.count)) }
            slots.append(entry)
        }
        count += 1
        byKey?[OperationKey(entry.operation)] = ticket
        return true
    }

    /// The slot of `ticket`, if it is in the table's range.
    private func index(of ticket: UInt64) -> Int? {
        guard ticket >= firstTicket else { return nil }
        let index = Int(ticket - firstTicket)
        return index < slots.count ? index : nil
    }

    /// The monitor id of the operation with ticket `ticket`, if tracked.
    func id(ticket: UInt64) -> Int? {
        guard let index = index(of: ticket) else { return nil }
        return slots[index]?.id
    }

    /// Runs `body` on the entry of `ticket` (nil, and `body` not run, if it is not tracked).
    mutating func update<T>(ticket: UInt64, _ body: (inout QueueMonitor.Tracked) -> T) -> T? {
        guard let index = index(of: ticket) else { return nil }
        return slots[index]?.modify(body)
    }

    /// Removes and returns the entry of `ticket`, if tracked.
    mutating func remove(ticket: UInt64) -> QueueMonitor.Tracked? {
        guard let index = index(of: ticket), let entry = slots[index] else { return nil }
        slots[index] = nil
        count -= 1
        if byKey != nil { byKey?.removeValue(forKey: OperationKey(entry.operation)) }
        while head < slots.count, slots[head] == nil { head += 1 }
        if head == slots.count {
            firstTicket += UInt64(slots.count)
            slots.removeAll(keepingCapacity: slots.capacity <= 4_096)
            head = 0
        } else if head >= 1_024, head * 2 >= slots.count {
            slots.removeFirst(head)
            firstTicket += UInt64(head)
            head = 0
        }
        return entry
    }

    /// The ticket of `op`, if it is tracked.
    mutating func ticket(of op: Operation) -> UInt64? {
        if byKey == nil {
            var table: [OperationKey: UInt64] = [:]
            table.reserveCapacity(count)
            for index in head..<slots.count {
                if let entry = slots[index] { table[OperationKey(entry.operation)] = firstTicket + UInt64(index) }
            }
            byKey = table
        }
        return byKey?[OperationKey(op)]
    }

    /// The tracked operation with monitor id `id` (a walk over the table: for operator actions).
    func operation(id: Int) -> Operation? {
        for index in head..<slots.count where slots[index]?.id == id { return slots[index]?.operation }
        return nil
    }

    /// Every entry, oldest ticket first.
    var entries: [QueueMonitor.Tracked] {
        slots[head...].compactMap { $0 }
    }
}

extension QueueMonitor.Tracked {
    /// Runs `body` on this entry in place (through optional chaining on a table slot).
    fileprivate mutating func modify<T>(_ body: (inout Self) -> T) -> T {
        body(&self)
    }
}

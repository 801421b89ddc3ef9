import Foundation
@_spi(OpsDashInternals) import OpsKit

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
    private var slots = TicketSlots<QueueMonitor.Tracked>(firstTicket: 0)
    /// Tickets by operation; nil until `ticket(of:)` is first asked.
    private var byKey: [OperationKey: UInt64]?

    /// Entries present.
    var count: Int { slots.count }

    /// Adds `entry` for ticket `ticket`; false (nothing changed) if that ticket is tracked
    /// already (an operation both found in the queue and told of as added).
    mutating func insert(_ entry: consuming QueueMonitor.Tracked, ticket: UInt64) -> Bool {
        // The key is taken first only when the table by identity is kept: the entry is moved in.
        let key = byKey == nil ? nil : OperationKey(entry.operation)
        guard slots.insert(consume entry, ticket: ticket) else { return false }
        if let key { byKey?[key] = ticket }
        return true
    }

    /// The monitor id of the operation with ticket `ticket`, if tracked.
    func id(ticket: UInt64) -> Int? {
        slots[ticket]?.id
    }

    /// Runs `body` on the entry of `ticket` (nil, and `body` not run, if it is not tracked).
    mutating func update<T>(ticket: UInt64, _ body: (inout QueueMonitor.Tracked) -> T) -> T? {
        slots.update(ticket: ticket, body)
    }

    /// Removes and returns the entry of `ticket`, if tracked.
    mutating func remove(ticket: UInt64) -> QueueMonitor.Tracked? {
        guard let entry = slots.remove(ticket: ticket) else { return nil }
        if byKey != nil { byKey?.removeValue(forKey: OperationKey(entry.operation)) }
        return entry
    }

    /// The ticket of `op`, if it is tracked.
    mutating func ticket(of op: Operation) -> UInt64? {
        if byKey == nil {
            var table: [OperationKey: UInt64] = [:]
            table.reserveCapacity(count)
            slots.forEachWithTicket { ticket, entry in table[OperationKey(entry.operation)] = ticket }
            byKey = table
        }
        return byKey?[OperationKey(op)]
    }

    /// The tracked operation with monitor id `id` (a walk over the table: for operator actions).
    func operation(id: Int) -> Operation? {
        slots.first { $0.id == id }?.operation
    }

    /// Every entry, oldest ticket first.
    var entries: [QueueMonitor.Tracked] { slots.elements }
}

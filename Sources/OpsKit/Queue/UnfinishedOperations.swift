import Foundation

/// A queue's unfinished operations in the order they were added, with O(1) append and O(1)
/// removal by ticket and no hashing: the bookkeeping 100,000s of operations go through.
///
/// Removed operations leave a hole until every older one is removed too, so memory is one
/// pointer per operation added since the oldest unfinished one (`TicketSlots`).
struct UnfinishedOperations {
    private var slots = TicketSlots<Operation>(firstTicket: 1)

    /// Operations present.
    var count: Int { slots.count }

    /// Makes room for `additional` appends (geometric growth).
    mutating func reserve(_ additional: Int) {
        slots.reserve(additional)
    }

    /// Adds `op` at the end; returns its ticket (for `remove`).
    mutating func append(_ op: Operation) -> UInt64 {
        slots.append(op)
    }

    /// Removes the operation holding `ticket` if it is `op`; false if it was not there.
    mutating func remove(ticket: UInt64, _ op: Operation) -> Bool {
        guard slots[ticket] === op else { return false }
        return slots.remove(ticket: ticket) != nil
    }

    /// The operations present, oldest first.
    var all: [Operation] { slots.elements }

    /// The operations present with their tickets, oldest first.
    var allWithTickets: [(operation: Operation, ticket: UInt64)] {
        var result: [(operation: Operation, ticket: UInt64)] = []
        result.reserveCapacity(count)
        slots.forEachWithTicket { ticket, op in result.append((op, ticket)) }
        return result
    }
}

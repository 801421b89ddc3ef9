import Foundation

/// A queue's unfinished operations in the order they were added, with O(1) append and O(1)
/// removal by ticket and no hashing: the bookkeeping 100,000s of operations go through.
///
/// Removed operations leave a hole until every older one is removed too, so memory is one
/// pointer per operation added since the oldest unfinished one.
struct UnfinishedOperations {
    private var slots: [Operation?] = []
    /// `slots[..<head]` are all removed.
    private var head = 0
    /// The ticket of `slots[0]`.
    private var firstTicket: UInt64 = 1
    /// Operations present.
    private(set) var count = 0

    /// Makes room for `additional` appends. Grows at least geometrically: reserving the exact
    /// size on every one-operation add would copy the whole list each time.
    mutating func reserve(_ additional: Int) {
        let needed = slots.count + additional
        guard needed > slots.capacity else { return }
        slots.reserveCapacity(max(needed, 2 * slots.capacity))
    }

    /// Adds `op` at the end; returns its ticket (for `remove`).
    mutating func append(_ op: Operation) -> UInt64 {
        slots.append(op)
        count += 1
        return firstTicket + UInt64(slots.count - 1)
    }

    /// Removes the operation holding `ticket` if it is `op`; false if it was not there.
    mutating func remove(ticket: UInt64, _ op: Operation) -> Bool {
        guard ticket >= firstTicket else { return false }
        let index = Int(ticket - firstTicket)
        guard index < slots.count, slots[index] === op else { return false }
        slots[index] = nil
        count -= 1
        while head < slots.count, slots[head] == nil { head += 1 }
        if head == slots.count {
            firstTicket += UInt64(slots.count)
            slots.removeAll(keepingCapacity: slots.count <= 4_096)
            head = 0
        } else if head >= 1_024, head * 2 >= slots.count {
            slots.removeFirst(head)
            firstTicket += UInt64(head)
            head = 0
        }
        return true
    }

    /// The operations present, oldest first.
    var all: [Operation] {
        var result: [Operation] = []
        result.reserveCapacity(count)
        for case let op? in slots[head...] { result.append(op) }
        return result
    }

    /// The operations present with their tickets, oldest first.
    var allWithTickets: [(operation: Operation, ticket: UInt64)] {
        var result: [(operation: Operation, ticket: UInt64)] = []
        result.reserveCapacity(count)
        for index in head..<slots.count {
            if let op = slots[index] { result.append((op, firstTicket + UInt64(index))) }
        }
        return result
    }
}

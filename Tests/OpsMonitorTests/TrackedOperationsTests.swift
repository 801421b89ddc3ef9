import Foundation
import Testing
@testable import OpsMonitor

/// The monitor's table of tracked operations by ticket: found, updated and removed by ticket,
/// whatever order tickets come in, with holes, and by identity once asked. (Results of
/// mutating calls are bound first: `#expect` takes its subject immutably.)
@Suite struct TrackedOperationsTests {
    private func entry(_ id: Int, _ op: Operation = Operation()) -> QueueMonitor.Tracked {
        QueueMonitor.Tracked(id: id, operation: op, tokens: OperationTokens(), progress: .none)
    }

    @Test func aTicketIsTrackedOnceAndFoundUntilRemoved() {
        var table = TrackedOperations()
        let first = table.insert(entry(1), ticket: 7)
        let again = table.insert(entry(2), ticket: 7)
        #expect(first && !again, "a ticket tracked already keeps its entry")
        #expect(table.id(ticket: 7) == 1)
        #expect(table.count == 1)
        let removed = table.remove(ticket: 7)?.id
        let removedAgain = table.remove(ticket: 7)?.id
        #expect(removed == 1 && removedAgain == nil)
        #expect(table.id(ticket: 7) == nil)
        #expect(table.count == 0)
    }

    @Test func ticketsInAnyOrderAndWithGapsAreEachFound() {
        var table = TrackedOperations()
        let tickets: [UInt64] = [100, 105, 98, 101, 2_000, 1]
        let inserted = tickets.enumerated().map { table.insert(entry($0.offset + 1), ticket: $0.element) }
        #expect(inserted.allSatisfy { $0 })
        #expect(tickets.map { table.id(ticket: $0) } == [1, 2, 3, 4, 5, 6])
        #expect(table.id(ticket: 99) == nil)
        #expect(table.id(ticket: 3_000) == nil)
        #expect(table.id(ticket: 0) == nil)
        // Removing the oldest first moves the table's start past every hole.
        let removed = [UInt64(1), 98, 100, 101].compactMap { table.remove(ticket: $0)?.id }
        #expect(removed == [6, 3, 1, 4])
        #expect(table.id(ticket: 105) == 2)
        #expect(table.id(ticket: 2_000) == 5)
        let older = table.insert(entry(7), ticket: 99)
        #expect(older, "a ticket older than the table's start still goes in")
        #expect(table.entries.map(\.id) == [7, 2, 5])
        #expect(table.count == 3)
    }

    @Test func manyOperationsFinishingInOrderKeepTheRestFindable() {
        var table = TrackedOperations()
        for ticket in UInt64(1)...5_000 { _ = table.insert(entry(Int(ticket)), ticket: ticket) }
        let removed = (UInt64(1)...4_000).filter { $0 != 2_500 }.compactMap { table.remove(ticket: $0)?.id }
        #expect(removed.count == 3_999)
        #expect(table.count == 1_001)
        #expect(table.id(ticket: 2_500) == 2_500)
        #expect(table.id(ticket: 4_001) == 4_001)
        let updated = table.update(ticket: 5_000) { $0.id }
        let gone = table.update(ticket: 1) { $0.id }
        #expect(updated == 5_000 && gone == nil)
    }

    @Test func anOperationIsFoundByIdentityBeforeAndAfterTheTableByIdentityIsBuilt() {
        var table = TrackedOperations()
        let first = Operation()
        let second = Operation()
        let third = Operation()
        _ = table.insert(entry(1, first), ticket: 1)
        _ = table.insert(entry(2, second), ticket: 2)
        let secondTicket = table.ticket(of: second)
        _ = table.insert(entry(3, third), ticket: 3)
        let thirdTicket = table.ticket(of: third)
        #expect(secondTicket == 2)
        #expect(thirdTicket == 3, "kept up to date once built")
        _ = table.remove(ticket: 2)
        let removedTicket = table.ticket(of: second)
        let firstTicket = table.ticket(of: first)
        #expect(removedTicket == nil && firstTicket == 1)
        #expect(table.operation(id: 3) === third)
        #expect(table.operation(id: 2) == nil)
    }
}

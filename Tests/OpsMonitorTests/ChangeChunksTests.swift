import Foundation
import Testing
@testable import OpsMonitor

/// The monitor's list of pending changes keeps recording order through single appends, whole
/// batches, moves into another list and partial takes.
@Suite struct ChangeChunksTests {
    /// A change that carries `number` (as its time), to check order by.
    private func change(_ number: Int) -> PendingChange {
        .ready(ticket: 1, time: .nanoseconds(number))
    }

    private func numbers(_ changes: [PendingChange]) -> [Int] {
        changes.map { change in
            guard case .ready(_, let time) = change else { return -1 }
            return Int((time / .nanoseconds(1)).rounded())
        }
    }

    private func popAll(_ list: inout ChangeChunks) -> [Int] {
        var popped: [PendingChange] = []
        while let next = list.popFirst() { popped.append(next) }
        return numbers(popped)
    }

    @Test func singleChangesAndBatchesComeOutInRecordingOrder() {
        var list = ChangeChunks()
        let size = ChangeChunks.chunkSize
        for number in 0..<(2 * size + 3) { list.append(change(number)) }
        list.append(batch: (100..<140).map(change))
        for number in 200..<(200 + size) { list.append(change(number)) }
        let expected = Array(0..<(2 * size + 3)) + Array(100..<140) + Array(200..<(200 + size))
        #expect(list.count == expected.count)
        #expect(numbers(list.all) == expected)
        #expect(popAll(&list) == expected)
        #expect(list.isEmpty)
        #expect(list.popFirst() == nil)
        list.append(change(7))
        #expect(numbers(list.all) == [7], "a list emptied by taking is usable again")
    }

    /// An operation added on its own is a one-change batch: it fills the tail chunk like a
    /// single change, not a chunk of its own (a chunk object and an array per operation).
    @Test func batchesSmallerThanAChunkShareChunksInOrder() {
        var list = ChangeChunks()
        let size = ChangeChunks.chunkSize
        for number in 0..<(4 * size) { list.append(batch: [change(number)]) }
        list.append(batch: (1000..<1003).map(change))
        #expect(list.chunkCount == 5)
        #expect(popAll(&list) == Array(0..<(4 * size)) + Array(1000..<1003))
    }

    @Test func movingAListKeepsOrderAndEmptiesTheSource() {
        let size = ChangeChunks.chunkSize
        var backlog = ChangeChunks()
        for number in 0..<(size + 2) { backlog.append(change(number)) }
        // Partly taken, as the applier leaves its backlog between slices.
        #expect(backlog.popFirst() != nil)
        #expect(backlog.popFirst() != nil)
        var inbox = ChangeChunks()
        for number in 1000..<(1000 + size + 5) { inbox.append(change(number)) }
        inbox.append(batch: [change(5000)])
        backlog.append(takingAllOf: &inbox)
        #expect(inbox.isEmpty)
        #expect(numbers(inbox.all) == [])
        let expected = Array(2..<(size + 2)) + Array(1000..<(1000 + size + 5)) + [5000]
        #expect(backlog.count == expected.count)
        #expect(numbers(backlog.all) == expected)
        #expect(popAll(&backlog) == expected)
    }

    @Test func movingAPartlyTakenListKeepsOnlyWhatWasNotTaken() {
        let size = ChangeChunks.chunkSize
        func partlyTaken() -> ChangeChunks {
            var source = ChangeChunks()
            for number in 0..<(size + 4) { source.append(change(number)) }
            for _ in 0..<3 { _ = source.popFirst() }
            return source
        }
        // Into an empty list, and into one that holds changes already.
        var source = partlyTaken()
        var empty = ChangeChunks()
        empty.append(takingAllOf: &source)
        #expect(numbers(empty.all) == Array(3..<(size + 4)))
        var other = partlyTaken()
        var holding = ChangeChunks()
        holding.append(change(100_000))
        holding.append(takingAllOf: &other)
        #expect(popAll(&holding) == [100_000] + Array(3..<(size + 4)))
    }

    @Test func removingInRunsKeepsOrderAcrossChunksBatchesAndPartTakes() {
        var list = ChangeChunks()
        let size = ChangeChunks.chunkSize
        for number in 0..<(size + 5) { list.append(change(number)) }
        list.append(batch: (100..<(100 + size + 2)).map(change))
        for number in 300..<303 { list.append(change(number)) }
        let expected = Array(0..<(size + 5)) + Array(100..<(100 + size + 2)) + Array(300..<303)
        // Runs of every length up to past a chunk, a change popped between some of them.
        var removed: [PendingChange] = []
        var limit = 1
        while !list.isEmpty {
            let before = list.count
            let count = list.removeFirst(upTo: limit) { removed.append($0) }
            #expect(count == min(limit, before))
            #expect(list.count == before - count)
            if limit % 3 == 0, let next = list.popFirst() { removed.append(next) }
            limit = limit % (size + 3) + 2
        }
        #expect(numbers(removed) == expected)
        #expect(list.removeFirst(upTo: 10) { _ in Issue.record("an empty list removed a change") } == 0)
        list.append(change(9))
        #expect(list.removeFirst(upTo: .max) { removed.append($0) } == 1)
        #expect(numbers(removed).last == 9, "a list emptied in runs is usable again")
    }

    /// What a list holds is freed with it, what was taken from it is the taker's, and a batch
    /// adopted whole or moved into the tail is freed once.
    @Test func droppingAListFreesWhatItHoldsAndNothingTaken() {
        final class Probe: Operation, @unchecked Sendable {}
        weak var takenOne: Probe?
        var weakHeld: [() -> Operation?] = []
        var kept: [PendingChange] = []
        do {
            var list = ChangeChunks()
            let size = ChangeChunks.chunkSize
            for count in [3, size + 1] {
                let batch = ChangeChunk(capacity: count)
                for _ in 0..<count {
                    let probe = Probe()
                    weak let weakProbe = probe
                    weakHeld.append { weakProbe }
                    batch.append(.added(probe, .ready, ticket: 1, time: .zero, tokens: .init()))
                }
                list.append(batch: batch)
            }
            list.removeFirst(upTo: 2) { kept.append($0) }
            if case .added(let op, _, _, _, _) = kept[0] { takenOne = op as? Probe }
        }
        #expect(takenOne != nil, "a change taken stays alive with its taker")
        #expect(weakHeld.dropFirst(2).allSatisfy { $0() == nil }, "every change left in the list was freed with it")
        kept.removeAll()
        #expect(takenOne == nil)
        #expect(weakHeld.allSatisfy { $0() == nil })
    }
}

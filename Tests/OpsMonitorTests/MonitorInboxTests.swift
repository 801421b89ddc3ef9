import Foundation
import OpsKit
import OpsKitTesting
import Synchronization
import Testing
@testable import OpsMonitor

/// The monitor's sharded inbox hands changes over in the order they were recorded, whichever
/// shards they went to, and a take never hands over a change recorded after it began.
@Suite struct MonitorInboxTests {
    private static let op = ClosureOperation {}

    /// A change that carries its index in its time.
    private static func change(_ index: Int) -> PendingChange {
        .finished(op, time: .nanoseconds(index))
    }

    private static func indexes(_ backlog: ChangeChunks<PendingChange>) -> [Int] {
        backlog.all.map { change in
            guard case .finished(_, let time) = change else { return -1 }
            return Int(time.components.attoseconds / 1_000_000_000)
        }
    }

    @Test func changesInSeveralShardsComeOutInRecordingOrder() {
        let inbox = MonitorInbox()
        for index in 0..<100 { inbox.append(Self.change(index), shard: index * 7) }
        var backlog = ChangeChunks<PendingChange>()
        var early: [SequencedChange] = []
        inbox.take(into: &backlog, early: &early)
        #expect(Self.indexes(backlog) == Array(0..<100))
        #expect(early.isEmpty)
        #expect(inbox.count == 0)
    }

    @Test func changesNumberedAfterTheTakeBeganWaitForTheNextTake() {
        var backlog = ChangeChunks<PendingChange>()
        let sources: [[SequencedChange]] = [
            [0, 3, 5, 8].map { SequencedChange(sequence: $0, change: Self.change(Int($0))) },
            [1, 2, 6, 7].map { SequencedChange(sequence: $0, change: Self.change(Int($0))) },
            [4, 9].map { SequencedChange(sequence: $0, change: Self.change(Int($0))) },
        ]
        let later = MonitorInbox.merge(sources, below: 6, into: &backlog)
        #expect(Self.indexes(backlog) == [0, 1, 2, 3, 4, 5])
        #expect(later.map(\.sequence) == [6, 7, 8, 9])
        var rest = ChangeChunks<PendingChange>()
        #expect(MonitorInbox.merge([later], below: 10, into: &rest).isEmpty)
        #expect(Self.indexes(rest) == [6, 7, 8, 9])
    }

    /// Two threads on two shards record in turns (each waits for the other's change before
    /// making its own) while a third takes continuously: what is taken is 0, 1, 2, … in order.
    @Test func turnsTakenOnTwoShardsAreTakenInTurnOrderWhileTakesRun() {
        let inbox = MonitorInbox()
        let count = 20_000
        let turn = Atomic<Int>(0)
        let done = Atomic<Bool>(false)
        let taker = Thread {
            var backlog = ChangeChunks<PendingChange>()
            var early: [SequencedChange] = []
            var taken: [Int] = []
            while !done.load(ordering: .acquiring) {
                inbox.take(into: &backlog, early: &early)
                taken += Self.indexes(backlog)
                backlog = ChangeChunks()
            }
            inbox.take(into: &backlog, early: &early)
            taken += Self.indexes(backlog)
            results.withLock { $0 = (taken, early.count) }
        }
        for side in 0..<2 {
            Thread {
                var index = side
                while index < count {
                    while turn.load(ordering: .acquiring) != index {}
                    inbox.append(Self.change(index), shard: side)
                    turn.store(index + 1, ordering: .releasing)
                    index += 2
                }
            }.start()
        }
        taker.start()
        #expect(eventually { turn.load(ordering: .acquiring) == count })
        done.store(true, ordering: .releasing)
        #expect(eventually { results.withLock { $0 != nil } })
        let (taken, left) = results.withLock { $0 } ?? ([], -1)
        #expect(taken.count == count)
        let outOfTurn = zip(taken, 0...).first { $0 != $1 }
        #expect(outOfTurn == nil, "taken \(outOfTurn?.0 ?? 0) where \(outOfTurn?.1 ?? 0) was due")
        #expect(left == 0)
    }
}

private let results = Mutex<([Int], Int)?>(nil)

import Foundation
import OpsKit
import OpsKitTesting
import Testing
@testable import OpsMonitor

/// The monitor keeps per-second aggregates over a bounded window of its clock, filled only when
/// a change or a read comes (no timer), so an idle queue costs nothing.
@Suite(.ownThread) struct QueueHistoryTests {
    @Test func eachSecondCountsFinishesByOutcomeBytesAndTheLevelsAtItsEnd() {
        var store = MonitorStore()
        let a = store.add(name: "a", kind: .download, lifecycle: .ready, totalBytes: 100, dependencies: [], time: .zero)
        let b = store.add(name: "b", kind: .download, lifecycle: .ready, totalBytes: 50, dependencies: [], time: .zero)
        let c = store.add(name: "c", kind: .download, lifecycle: .waiting, totalBytes: 0, dependencies: [], time: .zero)
        store.transition(a, to: .executing, time: .milliseconds(200))
        store.transition(b, to: .executing, time: .milliseconds(300))
        store.progress(a, completedBytes: 40, bytesPerSecond: 0, retries: 0, time: .milliseconds(900))
        store.progress(a, completedBytes: 100, bytesPerSecond: 0, retries: 0, time: .milliseconds(1_100))
        store.transition(a, to: .finished, outcome: .succeeded, time: .milliseconds(1_200))
        // b succeeds without reporting its bytes: the 50 it was missing count at its finish.
        store.transition(b, to: .finished, outcome: .succeeded, time: .milliseconds(2_500))
        store.transition(c, to: .finished, outcome: .cancelled, time: .milliseconds(2_600))
        let history = store.snapshot(time: .milliseconds(2_700)).history
        let seconds = history.seconds(endingAt: .milliseconds(2_700))
        #expect(seconds.count == 3)
        #expect(seconds.map { $0.value(.bytes) } == [40, 60, 50])
        #expect(seconds.map { $0.value(.succeeded) } == [0, 1, 1])
        #expect(seconds.map { $0.value(.cancelled) } == [0, 0, 1])
        #expect(seconds.map { $0.value(.finished) } == [0, 1, 2])
        #expect(seconds.map { $0.value(.running) } == [2, 1, 0], "running at the end of each second")
        #expect(seconds.map { $0.value(.waiting) } == [1, 1, 0], "not started at the end of each second")
    }

    @Test func quietSecondsAreFilledWhenReadOrWhenTheNextChangeComes() {
        var store = MonitorStore()
        let a = store.add(name: "a", kind: .process, lifecycle: .ready, totalBytes: 0, dependencies: [], time: .zero)
        store.transition(a, to: .executing, time: .milliseconds(500))
        // Idle for 5 s: a read shows the quiet seconds, the level unchanged, nothing stored.
        let idle = store.snapshot(time: .milliseconds(5_500)).history
        #expect(idle.values(.running, endingAt: .milliseconds(5_500), count: 100) == [1, 1, 1, 1, 1, 1])
        #expect(idle.values(.finished, endingAt: .milliseconds(5_500), count: 100) == [0, 0, 0, 0, 0, 0])
        #expect(idle.currentSecond == 0, "reading closed no second")
        store.transition(a, to: .finished, outcome: .failed, time: .milliseconds(7_100))
        let after = store.snapshot(time: .milliseconds(7_200)).history
        #expect(after.currentSecond == 7)
        #expect(after.values(.running, endingAt: .seconds(7), count: 100) == [1, 1, 1, 1, 1, 1, 1, 0])
        #expect(after.values(.failed, endingAt: .seconds(7), count: 100) == [0, 0, 0, 0, 0, 0, 0, 1])
        #expect(after.values(.failed, endingAt: .seconds(9), count: 3) == [1, 0, 0], "the last 3 of 10")
    }

    @Test func theWindowKeepsOnlyItsNewestSeconds() {
        var history = QueueHistory(window: 4)
        for second in 0..<10 {
            history.record(at: .seconds(second), finished: .succeeded, bytes: Int64(second), running: 0, waiting: 0)
        }
        #expect(history.values(.bytes, endingAt: .seconds(9), count: 100) == [6, 7, 8, 9])
        // A long idle gap closes at most a window of quiet seconds.
        history.record(at: .seconds(1_000_000), bytes: 5, running: 0, waiting: 0)
        #expect(history.values(.bytes, endingAt: .seconds(1_000_000), count: 100) == [0, 0, 0, 5])
        #expect(history.values(.bytes, endingAt: .seconds(1_000_002), count: 100) == [0, 5, 0, 0])
        #expect(history.values(.bytes, endingAt: .seconds(2_000_000), count: 100) == [0, 0, 0, 0])
    }

    /// The newest seconds, as many as asked, in order wherever the ring of closed seconds
    /// starts and however far it wrapped.
    @Test func theNewestSecondsReadInOrderAtEveryTurnOfTheRing() {
        let window = 5
        var history = QueueHistory(window: window)
        for second: Int64 in 0..<14 {
            history.record(at: .seconds(second), bytes: second + 1, running: 0, waiting: 0)
            for count in 1...(window + 1) {
                let shown = Int64(min(count, window, Int(second) + 1))
                let expected = Array((second + 2 - shown)...(second + 1))
                #expect(
                    history.values(.bytes, endingAt: .seconds(second), count: count) == expected,
                    "second \(second), count \(count)")
            }
        }
    }

    /// `secondsCount` says how many seconds `seconds(endingAt:count:)` returns, and
    /// `forEachSecond` visits those seconds in order, at every window, gap and count.
    @Test func countingAndVisitingSecondsAgreeWithTheirArray() {
        for window in [2, 3, 5, 30] {
            var history = QueueHistory(window: window)
            #expect(history.secondsCount(endingAt: .seconds(3), count: 10) == 0)
            for second: Int64 in [0, 1, 2, 4, 9, 10, 30, 31] {
                history.record(at: .seconds(second), finished: .succeeded, bytes: second, running: 1, waiting: 0)
                for end in [second, second + 1, second + 3, second + 100] {
                    for count in [0, 1, 2, 4, 30, 1_000] {
                        let seconds = history.seconds(endingAt: .seconds(end), count: count)
                        var visited: [QueueHistory.Second] = []
                        history.forEachSecond(endingAt: .seconds(end), count: count) { visited.append($0) }
                        #expect(history.secondsCount(endingAt: .seconds(end), count: count) == seconds.count)
                        #expect(visited == seconds, "window \(window), \(second) → \(end), \(count)")
                    }
                }
            }
        }
    }

    @Test func aChangeStampedBeforeTheCurrentSecondCountsInIt() {
        var history = QueueHistory(window: 10)
        history.record(at: .seconds(3), bytes: 1, running: 0, waiting: 0)
        history.record(at: .milliseconds(2_900), bytes: 2, running: 0, waiting: 0)
        #expect(history.values(.bytes, endingAt: .seconds(3), count: 10) == [3])
    }

    @Test func countsSaturateInsteadOfTrapping() {
        var history = QueueHistory(window: 2)
        history.record(at: .zero, bytes: .max, running: .max, waiting: -5)
        history.record(at: .zero, bytes: .max, running: 1, waiting: 0)
        let second = history.seconds(endingAt: .zero)
        #expect(second.map { $0.value(.bytes) } == [.max])
        history.record(at: .zero, running: Int.max, waiting: -1)
        #expect(history.seconds(endingAt: .zero).map { $0.value(.running) } == [Int64(UInt32.max)])
        #expect(history.seconds(endingAt: .zero).map { $0.value(.waiting) } == [0])
    }

    @Test func theLastRepresentableSecondDoesNotOverflow() {
        var history = QueueHistory(window: 3)
        history.record(at: .seconds(Int64.max), bytes: 1, running: 0, waiting: 0)
        history.record(at: .seconds(Int64.max), bytes: 1, running: 0, waiting: 0)
        #expect(history.values(.bytes, endingAt: .seconds(Int64.max), count: 3) == [2])
        let restored = QueueHistory(window: 3, seconds: [QueueHistory.Second(bytes: 5)], newest: .max)
        #expect(restored.currentSecond == .max)
    }

    @Test func theMemoryBoundIsStated() {
        // 32 bytes a second holds all seven series (finished is a sum): ≤ 64 bytes per series.
        #expect(MemoryLayout<QueueHistory.Second>.stride == 32)
        #expect(MonitorStore.Limits().historySeconds == 900)
        #expect(MonitorStore.Limits(historySeconds: 1).historySeconds == 2)
        #expect(MonitorStore.Limits(historySeconds: .max).historySeconds == QueueHistory.maximumWindow)
    }

    @Test func aStoreFromAKeyframeContinuesItsHistory() {
        var store = MonitorStore()
        let a = store.add(name: "a", kind: .process, lifecycle: .ready, totalBytes: 0, dependencies: [], time: .zero)
        store.transition(a, to: .finished, outcome: .succeeded, time: .seconds(2))
        let joined = MonitorStore(
            snapshot: store.snapshot(time: .seconds(2)), limits: .init(historySeconds: 2), version: 1)
        #expect(joined.history.window == 2)
        #expect(joined.history.values(.succeeded, endingAt: .seconds(2), count: 10) == [0, 1])
        #expect(joined.history.values(.waiting, endingAt: .seconds(2), count: 10) == [1, 0])
    }

    @Test func theMonitorRecordsOnItsClock() throws {
        let clock = ManualClock()
        let queue = ObservableOperationQueue()
        let monitor = QueueMonitor(queue: queue, clock: clock)
        clock.advance(by: .seconds(3))
        let operation = BlockOperation {}
        queue.addOperation(operation)
        queue.waitUntilAllOperationsAreFinished()
        try #require(eventually(timeout: .seconds(10)) { monitor.snapshot().counts.finished == 1 })
        clock.advance(by: .seconds(2))
        let snapshot = monitor.snapshot()
        #expect(snapshot.history.values(.succeeded, endingAt: snapshot.time, count: 10) == [1, 0, 0])
    }
}

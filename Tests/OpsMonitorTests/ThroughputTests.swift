import Foundation
import OpsKit
import OpsKitTesting
import Testing
@testable import OpsMonitor

/// The overall rate is the bytes completed over a sliding window of the monitor's clock, so many
/// short operations (each finishing within one progress step) still show the rate that moves.
@Suite(.ownThread) struct ThroughputTests {
    @Test func theWindowRateCountsBytesCompletedInTheLastTwoSeconds() {
        var window = ThroughputWindow()
        #expect(window.rate(at: .zero) == 0)
        window.record(1000, at: .milliseconds(100))
        window.record(1000, at: .milliseconds(150))
        window.record(0, at: .milliseconds(150))
        window.record(-50, at: .milliseconds(150))
        // 2000 bytes in the first half second.
        #expect(window.rate(at: .milliseconds(500)) == 4000)
        for step in 6...40 { window.record(400, at: .milliseconds(step * 100)) }
        // At 4 s the window starts at 2 s: 21 steps of 400 bytes (2.0 s…4.0 s) over 2 s.
        #expect(window.rate(at: .seconds(4)) == 21 * 400 / 2)
        #expect(window.rate(at: .seconds(7)) == 0, "nothing moved in the last two seconds")
    }

    /// Long after hundreds of buckets went out of the window, the rate still counts exactly the
    /// buckets of the last two seconds, and after a gap nothing but what came after it.
    @Test func theWindowReadsTheSameAfterHundredsOfBuckets() {
        var window = ThroughputWindow()
        for step in 1...1_000 {
            window.record(Int64(step), at: .milliseconds(step * 100))
            if step >= 21 {
                // Buckets step-20…step, each of `index` bytes, over 2 s plus the bucket's start.
                let expected = Double((step - 20...step).reduce(0, +)) / 2
                #expect(window.rate(at: .milliseconds(step * 100)) == expected, "step \(step)")
            }
        }
        #expect(window.rate(at: .seconds(100) + .milliseconds(3_300)) == 0, "3.3 s later: all out of the window")
        window.record(500, at: .seconds(200))
        #expect(window.rate(at: .seconds(200)) == 250)
    }

    /// A store rebuilt from a keyframe seeds its window with the keyframe's rate: read back at
    /// the keyframe's time it is that rate (to a byte over the window), and seeding again with
    /// what was read gives it exactly, so a keyframe written, read and written again is the same
    /// (past the window's first two seconds too, where its span starts at a bucket's edge).
    @Test(arguments: [50, 1000, 2000, 2178, 2199, 3_600_030] as [Int64])
    func aSeededWindowReadsBackTheRateItWasSeededWith(milliseconds: Int64) {
        let time = Duration.milliseconds(milliseconds)
        let rate = 275171.3185755534
        var first = ThroughputWindow()
        first.seed(bytesPerSecond: rate, at: time)
        let once = first.rate(at: time)
        #expect(abs(once - rate) <= 0.5 / min(2, time.seconds) + 1e-6, "read back \(once), seeded \(rate)")
        var second = ThroughputWindow()
        second.seed(bytesPerSecond: once, at: time)
        #expect(second.rate(at: time) == once)
    }

    @Test func manyShortOperationsShowTheRateThatMoves() throws {
        let clock = ManualClock()
        let queue = ObservableOperationQueue()
        queue.maxConcurrentOperationCount = 4
        queue.isSuspended = true
        let monitor = QueueMonitor(queue: queue, clock: clock)
        // Each moves 1000 bytes in one 100 ms chunk: its own rate is seen for no time at all.
        let operations = (0..<120).map {
            DownloadOperation(
                name: "small-\($0)", plan: TransferPlan(totalBytes: 1000, bandwidth: 10_000, chunkBytes: 1000),
                clock: clock)
        }
        queue.addOperations(operations, waitUntilFinished: false)
        queue.isSuspended = false
        var rates: [Double] = []
        for step in 1...30 {
            // Four transfers have scheduled their chunk on the clock (bounded wait for the queue).
            let scheduled = eventually(timeout: .seconds(10)) { clock.pendingCount == 4 }
            try #require(scheduled, "step \(step): \(clock.pendingCount) scheduled")
            clock.advance(by: .milliseconds(100))
            try #require(eventually(timeout: .seconds(10)) { monitor.snapshot().counts.finished == step * 4 })
            rates.append(monitor.snapshot().bytesPerSecond)
        }
        // 4 × 1000 bytes every 100 ms of clock time: 40 kB/s, from the first step to the last.
        for (step, rate) in rates.enumerated() {
            #expect(abs(rate - 40_000) <= 40_000 * 0.1, "at \(step + 1) × 100 ms: \(rate) B/s")
        }
        let finished = monitor.snapshot()
        #expect(finished.drainedAt == .seconds(3))
        #expect(finished.isDrained)
        clock.advance(by: .seconds(5))
        let later = monitor.snapshot()
        #expect(later.time == .seconds(8))
        #expect(later.drainedAt == .seconds(3), "the end stays where the last operation finished")
        #expect(later.bytesPerSecond == 0)
    }

    @Test func aQueueIsDrainedOnlyWhileEveryOperationHasFinished() {
        var store = MonitorStore()
        #expect(store.drainedAt == nil, "nothing added yet")
        let a = store.add(name: "a", kind: .download, lifecycle: .ready, totalBytes: 10, dependencies: [], time: .zero)
        store.transition(a, to: .executing, time: .seconds(1))
        store.progress(a, completedBytes: 6, bytesPerSecond: 6, retries: 0, time: .milliseconds(1500))
        #expect(store.drainedAt == nil)
        store.transition(a, to: .finished, outcome: .failed, message: "boom", time: .seconds(2))
        #expect(store.drainedAt == .seconds(2))
        let later = store.snapshot(time: .seconds(9))
        #expect(later.drainedAt == .seconds(2))
        #expect(later.averageBytesPerSecond == 3, "6 bytes moved in the 2 s the run took")
        let b = store.add(
            name: "b", kind: .download, lifecycle: .ready, totalBytes: 10, dependencies: [], time: .seconds(10))
        #expect(store.drainedAt == nil, "more work was added")
        store.transition(b, to: .finished, outcome: .cancelled, time: .seconds(11))
        #expect(store.drainedAt == .seconds(11))
    }
}

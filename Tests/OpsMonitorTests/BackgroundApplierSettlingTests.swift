import OpsKit
import OpsKitTesting
import Testing

@testable import OpsMonitor

/// The monitor's background applier waits for a burst to settle before applying it, so that
/// its work does not run beside the queue's workers (on a machine whose two vCPUs share a core,
/// that slows them), up to a bound.
@Suite struct BackgroundApplierSettlingTests {
    /// What the applier watches: each read moves it by `step` for the first `busyReads` reads,
    /// then it stays put. Counts the reads.
    final class Activity: Sendable {
        private let reads = OpsMutex(0)
        let busyReads: Int
        let step: UInt64
        init(busyReads: Int, step: UInt64) {
            self.busyReads = busyReads
            self.step = step
        }
        func read() -> UInt64 {
            reads.withLock { reads in
                reads += 1
                return UInt64(min(reads, busyReads + 1)) * step
            }
        }
        var readCount: Int { reads.withLock { $0 } }
    }

    /// How many times the applier had read `activity` when its work first ran.
    private func readsBeforeTheWork(_ activity: Activity, busy: UInt64) -> Int? {
        let readsWhenRun = OpsMutex<Int?>(nil)
        let applier = BackgroundApplier(
            name: "test.settle", settle: .init(interval: .milliseconds(1), busy: busy, longest: .seconds(3_600)),
            activity: { activity.read() }, work: { readsWhenRun.withLock { $0 = $0 ?? activity.readCount } })
        defer { applier.stop() }
        applier.request()
        _ = eventually { readsWhenRun.withLock { $0 } != nil }
        return readsWhenRun.withLock { $0 }
    }

    @Test func theWorkRunsOnlyOnceAnIntervalWasQuiet() {
        // Read once before waiting, then after each interval: moved by 100 five times, then not.
        #expect(readsBeforeTheWork(Activity(busyReads: 5, step: 100), busy: 100) == 7)
    }

    @Test func fewerChangesThanBusyInAnIntervalAreQuiet() {
        #expect(
            readsBeforeTheWork(Activity(busyReads: 1_000, step: 10), busy: 64) == 2,
            "10 changes in an interval: quiet after the first")
    }

    @Test func aQueueThatNeverSettlesIsAppliedAfterTheLongestWait() {
        let activity = Activity(busyReads: .max - 1, step: 1_000)
        let runs = OpsMutex(0)
        let applier = BackgroundApplier(
            name: "test.settle", settle: .init(interval: .milliseconds(1), busy: 100, longest: .milliseconds(20)),
            activity: { activity.read() }, work: { runs.withLock { $0 += 1 } })
        defer { applier.stop() }
        applier.request()
        #expect(eventually { runs.withLock { $0 } == 1 })
    }

    @Test func quietIntervalsDoNotEndTheWaitWhileMoreIsExpected() {
        // Quiet from the first interval on, but more expected for the first ten looks.
        let activity = Activity(busyReads: 0, step: 100)
        let looks = OpsMutex(0)
        let readsWhenRun = OpsMutex<Int?>(nil)
        let applier = BackgroundApplier(
            name: "test.settle", settle: .init(interval: .milliseconds(1), busy: 100, longest: .seconds(3_600)),
            activity: { activity.read() },
            expectsMore: {
                looks.withLock { looks in
                    looks += 1
                    return looks <= 10
                }
            }, work: { readsWhenRun.withLock { $0 = $0 ?? activity.readCount } })
        defer { applier.stop() }
        applier.request()
        _ = eventually { readsWhenRun.withLock { $0 } != nil }
        // Read once before waiting, then after each of eleven intervals.
        #expect(readsWhenRun.withLock { $0 } == 12)
    }

    @Test func withoutSettlingARequestRunsTheWorkAtOnce() {
        let runs = OpsMutex(0)
        let applier = BackgroundApplier(name: "test.settle", work: { runs.withLock { $0 += 1 } })
        defer { applier.stop() }
        applier.request()
        #expect(eventually { runs.withLock { $0 } == 1 })
    }
}

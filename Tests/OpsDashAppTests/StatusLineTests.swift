import OpsMonitor
import Testing

@testable import OpsDashApp

/// `--summary-every`'s one-line status on stderr.
struct StatusLineTests {
    @Test func namesTimeStateSlotsProgressOutcomesAndRate() {
        let snapshot = QueueSnapshot(
            time: .milliseconds(12_345), maxConcurrentOperationCount: 4,
            counts: StateCounts(waiting: 5, ready: 3, executing: 4, succeeded: 16, failed: 1, cancelled: 0),
            bytesPerSecond: 3_210_000)
        #expect(
            HeadlessRunner.statusLine(snapshot)
                == "opsdash 12.3s: running 4/4, finished 17/29 (16 succeeded, 1 failed, 0 cancelled), 3.2 MB/s")
    }

    @Test func pausedAndIdleQueue() {
        let snapshot = QueueSnapshot(isSuspended: true, maxConcurrentOperationCount: 2)
        #expect(
            HeadlessRunner.statusLine(snapshot)
                == "opsdash 0.0s: paused 0/2, finished 0/0 (0 succeeded, 0 failed, 0 cancelled), 0 B/s")
    }
}

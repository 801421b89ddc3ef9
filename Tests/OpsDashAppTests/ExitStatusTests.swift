import Foundation
import Testing

@testable import OpsDashApp

@Suite struct ExitStatusTests {
    @Test func eachStopSignalMapsTo128PlusItsNumber() {
        for signal in StopSignals.stopSet + [SIGPIPE] {
            #expect(OpsDashApp.ExitStatus.forSignal(signal).rawValue == 128 + signal, "signal \(signal)")
        }
        #expect(OpsDashApp.ExitStatus.forSignal(SIGHUP) == .hangup)
        #expect(OpsDashApp.ExitStatus.forSignal(SIGINT) == .interrupted)
        #expect(OpsDashApp.ExitStatus.forSignal(SIGQUIT) == .quit)
        #expect(OpsDashApp.ExitStatus.forSignal(SIGTERM) == .terminated)
        #expect(OpsDashApp.ExitStatus.forSignal(SIGPIPE) == .brokenPipe)
    }

    @Test func countsMapToSuccessOrSomeFailed() {
        #expect(OpsDashApp.ExitStatus.forCounts(failed: 0, cancelled: 0, unfinished: 0) == .success)
        #expect(OpsDashApp.ExitStatus.forCounts(failed: 1, cancelled: 0, unfinished: 0) == .someFailed)
        #expect(OpsDashApp.ExitStatus.forCounts(failed: 0, cancelled: 1, unfinished: 0) == .someFailed)
        #expect(OpsDashApp.ExitStatus.forCounts(failed: 0, cancelled: 0, unfinished: 1) == .someFailed)
    }

    @Test func writeErrorsSayWhatFailedOnceAndExitThree() {
        #expect(HeadlessRunner.report(.brokenPipe) == .brokenPipe)
        #expect(HeadlessRunner.report(.writeFailed(ENOSPC)) == .outputFailed)
        #expect(OpsDashApp.ExitStatus.outputFailed.rawValue == 3)
    }
}

@Suite struct StopSignalsTests {
    @Test func aSignalReachesTheWatcherAndIsRemembered() throws {
        // SIGUSR2 to the watcher thread only: the test process's other threads don't block it.
        let signals = StopSignals([SIGUSR2])
        signals.handOver()  // or the signal would end the test process
        #expect(signals.received == nil)
        signals.deliverToWatcher(SIGUSR2)
        let deadline = ContinuousClock.now + .seconds(10)
        while signals.received == nil, ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.005) }
        #expect(signals.received == SIGUSR2)
    }
}

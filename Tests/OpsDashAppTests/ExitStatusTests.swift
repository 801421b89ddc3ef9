import Foundation
import OpsKitTesting
import Testing

@testable import OpsDashApp

/// Testing has its own `ExitStatus` (exit tests); this file means opsdash's.
typealias ExitStatus = OpsDashApp.ExitStatus

/// The documented exit codes (README "Exit codes") and how runs map onto them.
struct ExitStatusTests {
    @Test func codesAreTheDocumentedNumbers() {
        #expect(ExitStatus.success.rawValue == 0)
        #expect(ExitStatus.someFailed.rawValue == 1)
        #expect(ExitStatus.usage.rawValue == 2)
        #expect(ExitStatus.untilFired.rawValue == 4)
        #expect(ExitStatus.hangup.rawValue == 129)
        #expect(ExitStatus.interrupted.rawValue == 130)
        #expect(ExitStatus.terminated.rawValue == 143)
    }

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

    @Test(arguments: [
        (0, 0, 0, ExitStatus.success),
        (1, 0, 0, ExitStatus.someFailed),
        (0, 1, 0, ExitStatus.someFailed),
        (0, 0, 1, ExitStatus.someFailed),
        (3, 2, 5, ExitStatus.someFailed),
    ])
    func anythingNotSucceededExitsOne(failed: Int, cancelled: Int, unfinished: Int, expected: ExitStatus) {
        #expect(ExitStatus.forCounts(failed: failed, cancelled: cancelled, unfinished: unfinished) == expected)
    }

    @Test func badFlagsExitTwoAndHelpExitsZero() {
        #expect(Opsdash.main(["--concurrency", "0"]) == ExitStatus.usage.rawValue)
        #expect(Opsdash.main(["--no-such-flag"]) == ExitStatus.usage.rawValue)
        #expect(Opsdash.main(["--scenario", "no-such-scenario", "--headless"]) == ExitStatus.usage.rawValue)
        #expect(Opsdash.main(["--list-scenarios"]) == ExitStatus.success.rawValue)
    }

    @Test func aBadOrMisplacedUntilExitsTwoInEveryMode() {
        #expect(Opsdash.main(["--headless", "--until", "fialed>0"]) == ExitStatus.usage.rawValue)
        #expect(
            Opsdash.main(["--headless", "--until", "failed>0", "--until", "stalled<1s"]) == ExitStatus.usage.rawValue)
        #expect(Opsdash.main(["--until", "failed>0"]) == ExitStatus.usage.rawValue)
        #expect(Opsdash.main(["attach", "--until", "failed>0"]) == ExitStatus.usage.rawValue)
        #expect(Opsdash.main(["attach", "--headless", "--until", "failed"]) == ExitStatus.usage.rawValue)
        #expect(Opsdash.main(["replay", "none.jsonl", "--until", "failed>0"]) == ExitStatus.usage.rawValue)
    }

    @Test func writeErrorsSayWhatFailedOnceAndExitThree() {
        #expect(HeadlessRunner.report(.brokenPipe) == .brokenPipe)
        #expect(HeadlessRunner.report(.writeFailed(ENOSPC)) == .outputFailed)
        #expect(OpsDashApp.ExitStatus.outputFailed.rawValue == 3)
    }
}

@Suite(.ownThread) struct StopSignalsTests {
    @Test func aSignalReachesTheWatcherAndIsRemembered() throws {
        // SIGUSR2 to the watcher thread only: the test process's other threads don't block it.
        let signals = StopSignals([SIGUSR2])
        signals.handOver()  // or the signal would end the test process
        #expect(signals.received == nil)
        signals.deliverToWatcher(SIGUSR2)
        try #require(eventually(timeout: .seconds(10)) { signals.received != nil })
        #expect(signals.received == SIGUSR2)
    }
}

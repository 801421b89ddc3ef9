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
        #expect(ExitStatus.hangup.rawValue == 129)
        #expect(ExitStatus.interrupted.rawValue == 130)
        #expect(ExitStatus.terminated.rawValue == 143)
    }

    @Test func aSignalEndsWith128PlusItsNumber() {
        #expect(ExitStatus.forSignal(1) == .hangup)
        #expect(ExitStatus.forSignal(2) == .interrupted)
        #expect(ExitStatus.forSignal(15) == .terminated)
        for status in [ExitStatus.hangup, .interrupted, .terminated] {
            #expect(ExitStatus.forSignal(status.rawValue - 128) == status)
        }
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
}

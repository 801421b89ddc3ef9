import Foundation

extension OutputPump {
    /// How long a wait for the writer lasts before stop signals are looked at again.
    static let pollInterval: TimeInterval = 0.01

    /// Waits while more than `HeadlessRunner.backlogHighWater` bytes wait for the reader, so a
    /// producer that can't pause otherwise holds back; the status to end with instead, if a
    /// stop signal arrives or writing fails first.
    func waitForRoom(signals: StopSignals) -> ExitStatus? {
        while pendingBytes > HeadlessRunner.backlogHighWater {
            if let failure { return HeadlessRunner.report(failure) }
            if let number = signals.received { return ExitStatus.forSignal(number) }
            _ = waitUntilWritten(before: Date(timeIntervalSinceNow: Self.pollInterval))
        }
        return failure.map(HeadlessRunner.report)
    }

    /// Waits for the last lines to be written; the status to end with instead, if a stop
    /// signal arrives or writing fails first.
    func waitUntilWritten(signals: StopSignals) -> ExitStatus? {
        while !waitUntilWritten(before: Date(timeIntervalSinceNow: Self.pollInterval)) {
            if let number = signals.received { return ExitStatus.forSignal(number) }
        }
        return failure.map(HeadlessRunner.report)
    }

    /// After a stop signal: gives the reader `HeadlessRunner.lastLinesTimeout` to take the last
    /// lines, then ends with the signal's status.
    func endBySignal(_ number: Int32) -> ExitStatus {
        _ = waitUntilWritten(before: Date(timeIntervalSinceNow: HeadlessRunner.lastLinesTimeout))
        return ExitStatus.forSignal(number)
    }
}

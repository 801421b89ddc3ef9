import Foundation
import OpsKit
import OpsMonitor

/// `opsdash --headless`: runs a scenario with no screen, writing JSON Lines events to stdout as
/// they happen (flushed per batch of whole lines) and a summary line last.
struct HeadlessRunner {
    let run: ScenarioRun
    /// Seconds between one-line human status reports on stderr; nil for none.
    let summaryEvery: Double?
    /// Wall time between two drains of the event stream.
    let pollInterval: Duration = .milliseconds(10)
    /// With `--record`: events go through it (into the recording) on their way to stdout.
    var recorder: LocalRecorder?
    /// Stop signals; shared with whatever runs after (a signal source re-made later misses them).
    var signals = SignalWatcher()

    /// Runs to completion or until a signal; returns the exit status.
    func execute() -> ExitStatus {
        var encoder = JSONLinesEncoder()
        let wallStart = ContinuousClock.now
        var lastStatus = wallStart
        var readerGone = false
        run.start()
        while true {
            let drained = flush(&encoder, readerGone: &readerGone)
            if let number = signals.signalReceived {
                finishOutput(&encoder, interrupted: true, readerGone: &readerGone)
                return ExitStatus.forSignal(number)
            }
            if !drained && run.isDone {
                let snapshot = finishOutput(&encoder, interrupted: false, readerGone: &readerGone)
                if summaryEvery != nil { StandardStreams.error(Self.statusLine(snapshot)) }
                let counts = snapshot.counts
                return ExitStatus.forCounts(
                    failed: counts.failed, cancelled: counts.cancelled,
                    unfinished: counts.total - counts.finished)
            }
            if let every = summaryEvery, (ContinuousClock.now - lastStatus).seconds >= every {
                lastStatus = ContinuousClock.now
                StandardStreams.error(Self.statusLine(run.monitor.snapshot()))
            }
            if !drained { Thread.sleep(forTimeInterval: pollInterval.seconds) }
        }
    }

    /// Writes pending events; true if there were any.
    private func flush(_ encoder: inout JSONLinesEncoder, readerGone: inout Bool) -> Bool {
        let events = recorder?.drain() ?? run.monitor.drainEvents()
        guard !events.isEmpty else { return false }
        var text = ""
        text.reserveCapacity(events.count * 96)
        for event in events { encoder.encode(event, into: &text) }
        if !readerGone, !text.isEmpty { readerGone = !StandardStreams.write(text) }
        return true
    }

    @discardableResult
    private func finishOutput(_ encoder: inout JSONLinesEncoder, interrupted: Bool, readerGone: inout Bool) -> QueueSnapshot {
        while flush(&encoder, readerGone: &readerGone) {}
        let snapshot = run.monitor.snapshot()
        if !readerGone {
            StandardStreams.write(JSONLinesEncoder.summary(snapshot, duration: snapshot.time, interrupted: interrupted))
        }
        return snapshot
    }

    /// "opsdash 12.3s: running 4/4, done 17/40 (failed 1, cancelled 0), 3.2 MB/s"
    static func statusLine(_ snapshot: QueueSnapshot) -> String {
        let counts = snapshot.counts
        let rate = ByteCount.rate(snapshot.bytesPerSecond)
        let time = String(format: "%.1f", snapshot.time.seconds)
        let state = snapshot.isSuspended ? "paused" : "running"
        return "opsdash \(time)s: \(state) \(counts.executing)/\(snapshot.maxConcurrentOperationCount), "
            + "done \(counts.finished)/\(counts.total) (failed \(counts.failed), cancelled \(counts.cancelled)), \(rate)"
    }
}

/// Human byte counts for status lines.
enum ByteCount {
    /// "3.2 MB/s".
    static func rate(_ bytesPerSecond: Double) -> String {
        format(bytesPerSecond) + "/s"
    }

    /// "12.3 MB".
    static func format(_ bytes: Double) -> String {
        let units = ["B", "KB", "MB", "GB", "TB"]
        var value = max(0, bytes)
        var unit = 0
        while value >= 1000, unit < units.count - 1 {
            value /= 1000
            unit += 1
        }
        return unit == 0 ? "\(Int(value)) B" : String(format: "%.1f %@", value, units[unit])
    }
}

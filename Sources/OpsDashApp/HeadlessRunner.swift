import Foundation
import OpsDashUI
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

    /// Runs to completion or until a signal; returns the exit status.
    func execute() -> ExitStatus {
        let signals = SignalWatcher()
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
        let events = run.monitor.drainEvents()
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

    /// "opsdash 12.3s: running 4/4, finished 17/40 (16 succeeded, 1 failed, 0 cancelled),
    /// 3.2 MB/s, ETA 0:12"; once every operation has finished "opsdash 22.1s: done, finished
    /// 40/40 (…), avg 3.2 MB/s". The rate is the snapshot's: bytes completed over the last two
    /// seconds of simulated time.
    static func statusLine(_ snapshot: QueueSnapshot) -> String {
        let counts = snapshot.counts
        let elapsed = snapshot.drainedAt ?? snapshot.time
        let time = String(format: "%.1f", elapsed.seconds)
        let finished =
            "finished \(counts.finished)/\(counts.total) (\(counts.succeeded) succeeded, "
            + "\(counts.failed) failed, \(counts.cancelled) cancelled)"
        if snapshot.isDrained {
            let average = Format.rate(snapshot.averageBytesPerSecond, showingZero: true)
            return "opsdash \(time)s: done, \(finished), avg \(average)"
        }
        let state = snapshot.isSuspended ? "paused" : "running"
        var line = "opsdash \(time)s: \(state) \(counts.executing)/\(snapshot.maxConcurrentOperationCount), "
            + "\(finished), \(Format.rate(snapshot.bytesPerSecond, showingZero: true))"
        let eta = Format.eta(
            remaining: snapshot.totalBytes - snapshot.completedBytes, bytesPerSecond: snapshot.bytesPerSecond)
        if !eta.isEmpty { line += ", ETA \(eta)" }
        return line
    }
}

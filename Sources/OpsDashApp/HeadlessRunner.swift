import Foundation
import OpsDashUI
import OpsKit
import OpsMonitor
import OpsWire

/// `opsdash --headless`: runs a scenario with no screen, writing JSON Lines events to stdout as
/// they happen (whole lines) and a summary line last.
///
/// Output goes through an `OutputPump`, so this thread never blocks on the reader: stop signals
/// are seen within one poll interval whatever the reader does. While more than
/// `backlogHighWater` bytes wait to be written, or this loop falls behind (more than
/// `batchHighWater` events came during one pass), the run's clock is paused, so the simulated
/// work stops producing events until both are under their low-water marks again.
struct HeadlessRunner {
    let run: ScenarioRun
    /// Seconds between one-line human status reports on stderr; nil for none.
    let summaryEvery: Double?
    /// Stop signals.
    let signals: StopSignals
    /// Where the events go (stdout).
    var descriptor: Int32 = 1
    /// Wall time between two drains of the event stream.
    let pollInterval: Duration = .milliseconds(10)
    /// Output waiting for the reader above which the run is paused.
    static let backlogHighWater = 1 << 20
    /// Output waiting for the reader below which a paused run goes on.
    static let backlogLowWater = 256 << 10
    /// Events drained at once above which the run is paused: the loop is falling behind.
    static let batchHighWater = 20_000
    /// Events drained at once below which a paused run goes on.
    static let batchLowWater = 5_000
    /// Events encoded into one piece of output.
    static let encodeSlice = 4096
    /// How long a run ended by a signal waits for its last lines to be read.
    static let lastLinesTimeout: TimeInterval = 0.5
    /// With `--record`: events go through it (into the recording) on their way to stdout.
    var recorder: LocalRecorder?
    /// `--until`: conditions, any of which ends the run (`ExitStatus.untilFired`); checked on
    /// the monitor's snapshot after each drain, once the run has started.
    var until: [UntilCondition] = []

    /// Runs to completion, until a signal, or until stdout can't be written; returns the exit
    /// status.
    func execute() -> ExitStatus {
        // Adding a million operations takes seconds: they are added on another thread, so the
        // stream starts with the first of them and a stop signal meanwhile is answered here.
        signals.handOver()
        run.startAdding()
        defer { run.stopAdding() }
        let output = OutputPump(descriptor: descriptor)
        defer { output.close() }
        var encoder = JSONLinesEncoder()
        var lastStatus = ContinuousClock.now
        var watch = until.isEmpty ? nil : UntilWatch(until)
        while true {
            if let failure = output.failure { return Self.report(failure) }
            if let number = signals.received {
                // No operation reaches the queue after the last drain: the summary agrees with
                // the stream.
                run.stopAdding()
                run.clock.pause()
                let snapshot = finishOutput(output, &encoder, interrupted: true)
                if summaryEvery != nil { StandardStreams.error(Self.statusLine(snapshot)) }
                return output.endBySignal(number)
            }
            let drained = flush(output, &encoder)
            if let firing = check(&watch) {
                // As after a signal: nothing more is added or moves, the stream so far is
                // written, then the `until` line and the summary.
                run.stopAdding()
                run.clock.pause()
                let snapshot = finishOutput(output, &encoder, interrupted: false, until: firing)
                if summaryEvery != nil { StandardStreams.error(Self.statusLine(snapshot)) }
                return output.waitUntilWritten(signals: signals) ?? .untilFired
            }
            if drained == 0 && run.isDone {
                let snapshot = finishOutput(output, &encoder, interrupted: false)
                if summaryEvery != nil { StandardStreams.error(Self.statusLine(snapshot)) }
                if let stopped = output.waitUntilWritten(signals: signals) { return stopped }
                let counts = snapshot.counts
                return ExitStatus.forCounts(
                    failed: counts.failed, cancelled: counts.cancelled,
                    unfinished: counts.total - counts.finished)
            }
            // Behind when the reader lags (output waiting) or this loop does (the events
            // that came during one pass: the loop doesn't sleep while there are any).
            // Not before the first operations started the clock: it stands still until then.
            let backlog = output.pendingBytes
            if run.hasStarted {
                if backlog > Self.backlogHighWater || drained > Self.batchHighWater {
                    run.clock.pause()
                } else if backlog < Self.backlogLowWater && drained < Self.batchLowWater {
                    run.clock.resume()
                }
            }
            if let every = summaryEvery, (ContinuousClock.now - lastStatus).seconds >= every {
                lastStatus = ContinuousClock.now
                StandardStreams.error(Self.statusLine(run.picture(run.monitor.snapshot())))
            }
            if drained == 0 { Thread.sleep(forTimeInterval: pollInterval.seconds) }
        }
    }

    /// Before the run starts (the scenario loading, the operations being added), a stop signal
    /// ends the process from the signal watcher: this writes the summary of a run that wrote
    /// no event yet, if the reader takes it within `lastLinesTimeout`, and with
    /// `--summary-every` the status line.
    static func summaryBeforeStart(descriptor: Int32, statusLine: Bool) -> @Sendable (Int32) -> Void {
        { _ in
            let empty = QueueSnapshot()
            var ready = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
            if poll(&ready, 1, Int32(lastLinesTimeout * 1000)) == 1, ready.revents & Int16(POLLOUT) != 0 {
                // One line, shorter than PIPE_BUF: a pipe takes it whole or not at all.
                _ = StandardStreams.write(
                    JSONLinesEncoder.summary(empty, duration: .zero, interrupted: true), to: descriptor)
            }
            if statusLine { StandardStreams.error(Self.statusBeforeStart) }
        }
    }

    /// The status line of a run stopped before it started (its limit is not known yet).
    static let statusBeforeStart = "opsdash 0.0s: stopped before the run started, finished 0/0"

    /// A broken pipe ends the run quietly (the reader has what it wanted); any other write
    /// error is said once on stderr.
    static func report(_ failure: OutputPump.Failure) -> ExitStatus {
        switch failure {
        case .brokenPipe:
            return .brokenPipe
        case .writeFailed(let code):
            let reason = String(cString: strerror(code))
            StandardStreams.error("opsdash: cannot write the event stream to standard output: \(reason)")
            return .outputFailed
        }
    }

    /// Queues pending events; how many there were.
    @discardableResult
    private func flush(_ output: OutputPump, _ encoder: inout JSONLinesEncoder) -> Int {
        let events = recorder?.drain() ?? run.monitor.drainEvents()
        guard !events.isEmpty else { return 0 }
        // In slices, so a large batch (every operation's first lines) is never encoded whole
        // next to its copy in the pump.
        var start = 0
        while start < events.count {
            let end = min(events.count, start + Self.encodeSlice)
            var bytes: [UInt8] = []
            bytes.reserveCapacity((end - start) * 128)
            for event in events[start..<end] { encoder.encode(event, into: &bytes) }
            output.write(bytes)
            start = end
        }
        return events.count
    }

    /// The `--until` condition that holds now, if any (none before the run started: no
    /// operation was added yet).
    private func check(_ watch: inout UntilWatch?) -> UntilWatch.Firing? {
        guard watch != nil, run.hasStarted else { return nil }
        let snapshot = run.monitor.snapshot()
        return watch?.observe(snapshot.counts, at: snapshot.time)
    }

    @discardableResult
    private func finishOutput(
        _ output: OutputPump, _ encoder: inout JSONLinesEncoder, interrupted: Bool,
        until firing: UntilWatch.Firing? = nil
    ) -> QueueSnapshot {
        while flush(output, &encoder) > 0 {}
        if let firing { output.write(UntilOption.line(firing)) }
        let snapshot = run.monitor.snapshot()
        output.write(Self.summaryLine(snapshot, interrupted: interrupted))
        return snapshot
    }

    /// The summary line: its `duration` ends when the last operation finished (not when this
    /// loop noticed, which at a high `--speed` is many simulated seconds later), or at the
    /// snapshot's time for a run that did not finish.
    static func summaryLine(_ snapshot: QueueSnapshot, interrupted: Bool) -> String {
        JSONLinesEncoder.summary(snapshot, duration: snapshot.drainedAt ?? snapshot.time, interrupted: interrupted)
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
        var line =
            "opsdash \(time)s: \(state) \(counts.executing)/\(snapshot.maxConcurrentOperationCount), "
            + "\(finished), \(Format.rate(snapshot.bytesPerSecond, showingZero: true))"
        let eta = Format.eta(
            completed: snapshot.completedBytes, of: snapshot.totalBytes, bytesPerSecond: snapshot.bytesPerSecond)
        if !eta.isEmpty { line += ", ETA \(eta)" }
        return line
    }
}

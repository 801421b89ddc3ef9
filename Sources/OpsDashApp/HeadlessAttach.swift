import Foundation
import OpsKit
@_spi(OpsDashInternals) import OpsKitViewer
import OpsMonitor
import OpsWire
import Synchronization

/// `opsdash attach --headless`: the published queue's events as the same JSON Lines
/// `opsdash --headless` writes (a late join starts with the lines that lead to the current
/// picture), a summary line last. Ends when the app says bye (exit by counts), the connection is
/// lost (1, said on stderr, with "socket PATH gone: the app stopped publishing" when its socket file
/// no longer exists), a signal arrives, or stdout can't be written (141 quietly for a
/// reader that went away, else 3 with one line), as local headless mode does. The summary's
/// `interrupted` is true only after a signal, as in local headless mode: a lost connection is
/// told by the exit status and the stderr line.
///
/// Output goes through an `OutputPump`. While more than `HeadlessRunner.backlogHighWater` bytes
/// wait for the reader, the viewer's thread stops reading the socket, so the app's publisher
/// handles the lag (progress lines coalesce, then a resync) and memory stays bounded.
struct HeadlessAttach {
    let target: RemoteTarget
    let role: RemoteRole?
    let token: String?
    /// Read deltas from the app's shared-memory stream when it offers one (not `--no-shared-memory`).
    var sharedMemory = true
    /// `--record FILE`: also writes what the viewer sees to a recording.
    var recorder: AttachRecorder?
    /// `--until`: conditions, any of which ends the run (`ExitStatus.untilFired`); checked on
    /// the viewer's picture each poll once the first lines were printed, on the app's clock
    /// (its events and heartbeats).
    var until: [UntilCondition] = []
    /// `--history-window`: the history the viewer keeps (the app's, cut to it on joining).
    var limits = MonitorStore.Limits()
    /// Where the events go (stdout).
    var descriptor: Int32 = 1

    /// Encodes lines in order on the viewer's thread and queues them for the pump.
    private final class Printer: Sendable {
        let output: OutputPump
        private let encoder = OpsMutex(JSONLinesEncoder())
        private let stopped = Atomic(false)
        private let printedAny = Atomic(false)

        /// Whether any line of the app's picture was printed (the viewer has one).
        var hasPicture: Bool { printedAny.load(ordering: .acquiring) }

        init(output: OutputPump) {
            self.output = output
        }

        func print(_ outputs: [ViewerCore.Output]) {
            let sawPicture = encoder.withLock { encoder in
                var bytes: [UInt8] = []
                var sawPicture = false
                for output in outputs {
                    switch output {
                    case .keyframe(let previous, let current):
                        sawPicture = true
                        for event in SnapshotEvents.events(from: previous, to: current) {
                            encoder.encode(event, into: &bytes)
                        }
                    case .event(let event):
                        sawPicture = true
                        encoder.encode(event, into: &bytes)
                    default:
                        break
                    }
                }
                output.write(bytes)
                return sawPicture
            }
            if sawPicture { printedAny.store(true, ordering: .releasing) }
            // Back pressure: hold the viewer's thread (and so the socket) while the reader lags.
            while output.pendingBytes > HeadlessRunner.backlogHighWater, output.failure == nil,
                !stopped.load(ordering: .relaxed)
            {
                _ = output.waitUntilWritten(before: Date(timeIntervalSinceNow: OutputPump.pollInterval))
            }
        }

        /// Lets a held viewer thread go (the run is ending).
        func stop() {
            stopped.store(true, ordering: .relaxed)
        }
    }

    /// How long an ending run waits for the viewer's thread to stop.
    static let stopTimeout: Duration = .seconds(1)

    /// Follows the app until it says bye, the connection ends, an `--until` condition fires, the
    /// output fails or a signal comes; the exit status.
    func execute(signals: StopSignals) -> ExitStatus {
        signals.handOver()
        let output = OutputPump(descriptor: descriptor)
        defer { output.close() }
        let printer = Printer(output: output)
        let recorder = recorder
        let viewer = RemoteViewer(
            target: target, role: role, token: token, reconnect: false, limits: limits, sharedMemory: sharedMemory,
            onOutput: { outputs in
                recorder?.record(outputs)
                printer.print(outputs)
            })
        if let error = viewer.start() {
            StandardStreams.error("opsdash: \(error)")
            return .usage
        }
        if let ended = follow(viewer, printer: printer, output: output, signals: signals) { return ended }
        return finished(viewer, output: output, signals: signals)
    }

    /// Waits while the viewer runs; the status when the run ends before it does (an `--until`
    /// condition, a failed output, a signal), nil when the viewer finished.
    private func follow(_ viewer: RemoteViewer, printer: Printer, output: OutputPump, signals: StopSignals)
        -> ExitStatus?
    {
        func end() {
            printer.stop()
            viewer.stop()
            // Bounded: a viewer thread stuck in a system call must not keep a signal from
            // ending the run (the process exits without it).
            _ = viewer.waitUntilFinished(timeout: Self.stopTimeout)
        }
        var watch = until.isEmpty ? nil : UntilWatch(until)
        func fired() -> UntilWatch.Firing? {
            guard watch != nil, printer.hasPicture else { return nil }
            let snapshot = viewer.snapshot
            return watch?.observe(snapshot.counts, at: snapshot.time)
        }
        while !viewer.isFinished {
            if let firing = fired() {
                end()
                output.write(UntilOption.line(firing))
                summary(viewer.snapshot, interrupted: false, to: output)
                return output.waitUntilWritten(signals: signals) ?? .untilFired
            }
            if let failure = output.failure {
                end()
                return HeadlessRunner.report(failure)
            }
            if let number = signals.received {
                end()
                summary(viewer.snapshot, interrupted: true, to: output)
                return output.endBySignal(number)
            }
            Thread.sleep(forTimeInterval: OutputPump.pollInterval)
        }
        return nil
    }

    /// After the viewer finished: a refusal or an ssh failure (2), a lost connection (1), or the
    /// app's bye (0 or 1 by its counts), the summary line written first where there was a run.
    private func finished(_ viewer: RemoteViewer, output: OutputPump, signals: StopSignals) -> ExitStatus {
        if let refusal = viewer.refusal {
            StandardStreams.error("opsdash: \(target) refused the connection: \(refusal.reason)")
            return .usage
        }
        if let failure = SSHAttachFailure.message(viewer) {
            StandardStreams.error(failure)
            return .usage
        }
        let snapshot = viewer.snapshot
        let (reason, bye) = viewer.endReason
        summary(snapshot, interrupted: false, to: output)
        if let stopped = output.waitUntilWritten(signals: signals) { return stopped }
        guard bye else {
            // A socket file that is gone says so (and names the same app/queue published again).
            let why = [reason ?? "disconnected", viewer.socketGone].compactMap { $0 }.joined(separator: "; ")
            StandardStreams.error("opsdash: lost connection to \(target): \(why)")
            return .someFailed
        }
        let counts = snapshot.counts
        return ExitStatus.forCounts(
            failed: counts.failed, cancelled: counts.cancelled, unfinished: counts.total - counts.finished)
    }

    private func summary(_ snapshot: QueueSnapshot, interrupted: Bool, to output: OutputPump) {
        output.write(JSONLinesEncoder.summary(snapshot, duration: snapshot.time, interrupted: interrupted))
    }
}

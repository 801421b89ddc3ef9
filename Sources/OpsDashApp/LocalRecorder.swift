import Dispatch
import OpsMonitor
import Synchronization

/// `--record FILE`: writes what the monitor sees to a recording while opsdash runs (keyframes
/// as `RecordingWriter` asks for them). Headless mode drains through it and writes the same
/// events to stdout; the dashboard lets it drain on its own every 200 ms. A write error is one
/// line on stderr and ends the recording, never the run.
final class LocalRecorder: Sendable {
    private let monitor: QueueMonitor
    // Locking: the writer is used under this lock only (the pump's queue and the final drain).
    private let writer: Mutex<RecordingWriter?>
    private let pumping = Atomic<Bool>(false)

    /// Creates the recording (header stamped now) for `monitor`, which must record events.
    init(path: String, monitor: QueueMonitor, queueName: String) throws(RecordingError) {
        self.monitor = monitor
        let header = RecordingHeader.now(app: "opsdash", queue: queueName, source: "local")
        writer = Mutex(try RecordingWriter(path: path, header: header))
    }

    /// Drains the monitor's new events into the recording and returns them.
    @discardableResult
    func drain(final: Bool = false) -> [MonitorEvent] {
        writer.withLock { writer -> [MonitorEvent] in
            guard let active = writer else { return monitor.drainEvents() }
            let events: [MonitorEvent]
            var keyframe: QueueSnapshot?
            if final || active.wantsKeyframe(at: monitor.now) {
                (events, keyframe) = monitor.drainEventsAndSnapshot()
                if final && events.isEmpty && active.seq == 0 { keyframe = nil }
            } else {
                events = monitor.drainEvents()
            }
            do {
                try active.append(events, keyframe: keyframe)
            } catch {
                StandardStreams.error("opsdash: recording stopped: \(error)")
                active.close()
                writer = nil
            }
            return events
        }
    }

    /// Drains every `interval` on a background queue until `finish()`.
    func startPumping(every interval: DispatchTimeInterval = .milliseconds(200)) {
        pumping.store(true, ordering: .relaxed)
        schedule(interval)
    }

    private func schedule(_ interval: DispatchTimeInterval) {
        DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + interval) { [weak self] in
            guard let self, self.pumping.load(ordering: .relaxed) else { return }
            self.drain()
            self.schedule(interval)
        }
    }

    /// Stops pumping, writes what is left and a last keyframe, and closes the file.
    func finish() {
        pumping.store(false, ordering: .relaxed)
        drain(final: true)
        writer.withLock { writer in
            writer?.close()
            writer = nil
        }
    }
}

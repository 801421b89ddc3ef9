import Dispatch
import Foundation
import OpsKit
import OpsMonitor
import OpsWire
import Synchronization

/// `--record FILE`: writes what the monitor sees to a recording while opsdash runs (keyframes
/// as `RecordingWriter` asks for them). Headless mode drains through it and writes the same
/// events to stdout; the dashboard lets it drain on its own every 200 ms. A write error is one
/// line on stderr and ends the recording, never the run.
final class LocalRecorder: Sendable {
    /// The writer (nil once a write failed) and the events drained with the first keyframe,
    /// recorded but not yet returned by `drain`.
    private struct State {
        var writer: RecordingWriter?
        var undelivered: [MonitorEvent]
    }

    private let monitor: QueueMonitor
    // Locking: the writer is used under this lock only (the pump's queue and the final drain).
    private let state: OpsMutex<State>
    private let pumping = Atomic<Bool>(false)

    /// Creates the recording (header stamped now) for `monitor`, which must record events, and
    /// writes a first keyframe: the queue's settings (its concurrency limit, paused or not) are
    /// in no event until they change, and a replay from the start needs them. An existing file
    /// is replaced only with `overwrite`.
    init(path: String, monitor: QueueMonitor, queueName: String, overwrite: Bool = false) throws(RecordingError) {
        self.monitor = monitor
        let header = RecordingHeader.now(app: "opsdash", queue: queueName, source: "local")
        let writer: RecordingWriter
        do { writer = try RecordingWriter(path: path, header: header, replacing: overwrite) } catch {
            throw RecordingOverwrite.explained(error)
        }
        let (events, keyframe) = monitor.drainEventsAndSnapshot()
        try writer.append(events, keyframe: keyframe)
        state = OpsMutex(State(writer: writer, undelivered: events))
    }

    /// Why a recording cannot be written at `path`, checked without creating or changing
    /// anything (a pipe, device or directory; an existing file without `overwrite`; a directory
    /// that is missing or not writable), or nil.
    static func targetProblem(_ path: String, overwrite: Bool) -> RecordingError? {
        if let error = RecordingError.notRegularFile(path) { return error }
        let directory = (path as NSString).deletingLastPathComponent
        if FileManager.default.fileExists(atPath: path) {
            guard overwrite else { return RecordingOverwrite.refusal(path) }
            guard access(path, W_OK) != 0 else { return nil }
        } else {
            guard access(directory.isEmpty ? "." : directory, W_OK) != 0 else { return nil }
        }
        return .cannotCreate(path, code: errno)
    }

    /// Drains the monitor's new events into the recording and returns them.
    @discardableResult
    func drain(final: Bool = false) -> [MonitorEvent] {
        state.withLock { state -> [MonitorEvent] in
            let earlier = state.undelivered
            state.undelivered = []
            guard let active = state.writer else { return earlier + monitor.drainEvents() }
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
                // In the dashboard's message line too (its stderr goes to a log meanwhile).
                DashboardNotices.post("recording stopped: \(error)")
                active.close()
                state.writer = nil
            }
            return earlier.isEmpty ? events : earlier + events
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
        state.withLock { state in
            state.writer?.close()
            state.writer = nil
        }
    }
}

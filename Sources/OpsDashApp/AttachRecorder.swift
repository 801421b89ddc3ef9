import Foundation
import OpsKit
@_spi(OpsDashInternals) import OpsKitViewer
import OpsMonitor
import OpsWire
import Synchronization

/// `opsdash attach --record FILE`: writes what the attached viewer sees to a recording
/// (`source: "attach"`), which `opsdash replay FILE` plays. A snapshot from the app (the join, or
/// a resync) is written as the events that lead to it, like the headless stream, and keyframes
/// come from the recorder's own copy of the picture. The header names the app and queue from
/// the app's welcome; if the app restarts (a new epoch) the recording stops there, since its
/// clock starts again. A write error is one line on stderr and ends the recording, never the
/// attach.
final class AttachRecorder: Sendable {
    private struct State {
        var writer: RecordingWriter?
        var picture = EventSnapshotBuilder()
        var epoch: String?
        var stopped = false
    }

    let path: String
    /// Whether `init` created the file (only then is it removed when nothing was attached).
    private let created: Bool
    // Locking: everything is used under this lock only (the viewer's thread and the final finish).
    private let state = OpsMutex<State>(State())

    /// Checks that `path` can be written, creating it (mode 0600) if it does not exist. An
    /// existing file is refused unless `overwrite`; then it is left as it is until the app's
    /// welcome arrives (and the recording replaces it), so an attach that reaches nothing
    /// changes nothing.
    init(path: String, overwrite: Bool = false) throws(RecordingError) {
        self.path = path
        if let error = RecordingError.notRegularFile(path) { throw error }
        var fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOCTTY, 0o600)
        created = fd >= 0
        if fd < 0, errno == EEXIST {
            guard overwrite else { throw RecordingOverwrite.refusal(path) }
            fd = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        }
        guard fd >= 0 else { throw .cannotCreate(path, code: errno) }
        if created { fchmod(fd, 0o600) }
        close(fd)
    }

    /// Records one batch of the viewer's outputs.
    func record(_ outputs: [ViewerCore.Output]) {
        state.withLock { state in
            for output in outputs {
                guard !state.stopped else { return }
                switch output {
                case .welcome(let welcome):
                    if state.writer == nil, state.epoch == nil {
                        let header = RecordingHeader.now(app: welcome.app, queue: welcome.queue, source: "attach")
                        do { state.writer = try RecordingWriter(path: path, header: header) } catch {
                            stop(&state, "\(error)")
                        }
                    } else if let epoch = state.epoch, epoch != welcome.epoch {
                        writeLastKeyframe(&state)
                        stop(&state, "the app restarted (its clock starts again)")
                    }
                    state.epoch = welcome.epoch
                case .keyframe(let previous, let current):
                    state.picture.load(current)
                    write(&state, SnapshotEvents.events(from: previous, to: current), keyframe: current)
                case .event(let event):
                    state.picture.apply(event)
                    let keyframe = state.writer?.wantsKeyframe(at: event.time) == true ? state.picture.snapshot() : nil
                    write(&state, [event], keyframe: keyframe)
                default:
                    break
                }
            }
        }
    }

    /// Writes a last keyframe and closes the file; removes it if the app was never reached and
    /// the file did not exist before.
    func finish() {
        state.withLock { state in
            if state.epoch == nil, !state.stopped, created { unlink(path) }
            if !state.stopped { writeLastKeyframe(&state) }
            state.writer?.close()
            state.writer = nil
            state.stopped = true
        }
    }

    /// The picture at the end as a keyframe, so a seek to the end reads no deltas.
    private func writeLastKeyframe(_ state: inout State) {
        guard let writer = state.writer, writer.seq > 0 else { return }
        write(&state, [], keyframe: state.picture.snapshot())
    }

    private func write(_ state: inout State, _ events: [MonitorEvent], keyframe: QueueSnapshot?) {
        guard let writer = state.writer else { return }
        do { try writer.append(events, keyframe: keyframe) } catch { stop(&state, "\(error)") }
    }

    private func stop(_ state: inout State, _ reason: String) {
        DashboardNotices.post("recording stopped: \(reason)")
        state.writer?.close()
        state.writer = nil
        state.stopped = true
    }
}

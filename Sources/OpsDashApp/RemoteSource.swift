import Foundation
import OpsDashTerminal
import OpsDashUI
import OpsKitRemote
import OpsMonitor
import OpsWire

/// An app's published queue as a dashboard source: the picture a `RemoteViewer` rebuilds,
/// commands sent to the app (refused with the app's reason when not allowed), and the target and
/// link state for the header.
final class RemoteSource: DashboardSource {
    let viewer: RemoteViewer
    private var lastSecond = -1
    private var outbox = CommandOutbox(now: .now)
    /// The socket-gone line last said in the message line (said again only when it changes).
    private var saidGone: String?

    init(viewer: RemoteViewer) {
        self.viewer = viewer
    }

    /// Runs the dashboard attached to `target` until the operator quits or a signal arrives.
    /// `resolve` finds the target again before a reconnect (a restarted app has a new socket);
    /// `recorder` (`--record`) sees every output of the viewer.
    static func attach(
        target: RemoteTarget, role: RemoteRole?, token: String?, sharedMemory: Bool = true, fps: Int,
        signals: StopSignals,
        resolve: (@Sendable () -> RemoteTarget?)?, recorder: AttachRecorder? = nil
    ) -> ExitStatus {
        var onOutput: (@Sendable ([ViewerCore.Output]) -> Void)?
        if let recorder { onOutput = { outputs in recorder.record(outputs) } }
        let viewer = RemoteViewer(
            target: target, role: role, token: token, reconnect: true, sharedMemory: sharedMemory, resolve: resolve,
            onOutput: onOutput)
        if let error = viewer.start() {
            StandardStreams.error("opsdash: \(error)")
            return .usage
        }
        // A wrong token is said before the screen opens (an app too busy to answer within the
        // wait shows it in the header instead, without retrying).
        if case .refused(let refusal) = viewer.waitForFirstAnswer(timeout: .seconds(2)) {
            viewer.stop()
            StandardStreams.error("opsdash: \(target) refused the connection: \(refusal.reason)")
            return .usage
        }
        let source = RemoteSource(viewer: viewer)
        let exit = DashboardRunner.show(source, fps: fps, signals: signals)
        viewer.stop()
        if exit != nil {
            let summary = DashboardRunner.summary(viewer.snapshot.counts)
            StandardStreams.error("opsdash: detached from \(label(viewer.status, of: viewer)): \(summary)")
        }
        switch exit {
        case nil: return .usage
        case .signal(let number)?: return ExitStatus.forSignal(number)
        case .terminalClosed?: return .hangup
        case .quit?: return .success
        }
    }

    func snapshot(ifChangedSince version: UInt64?) -> QueueSnapshot? {
        let current = viewer.snapshot
        let second = Int(current.time.seconds)
        if version == nil || current.version != version || second != lastSecond {
            lastSecond = second
            return current
        }
        return nil
    }

    /// The refusal of a command when the app publishes read-only: what the app sets to allow
    /// control.
    static let appReadOnlyRefusal =
        "refused: read-only: the app did not allow control (QueuePublisher.Options.allowControl; over TCP, the control token too)"

    /// Refuses at once on a read-only attach; else queues `command` in the outbox, which
    /// `sendWaitingCommands()` sends.
    func perform(_ command: Command) -> String? {
        if command == .repaint || command == .quit { return nil }
        if viewer.status.welcome?.role == .observer {
            return viewer.role == .observer
                ? "refused: read-only attach (--read-only)"
                : RemoteSource.appReadOnlyRefusal
        }
        outbox.add(command)
        return nil
    }

    /// Sends what the outbox lets go now; a command the app refuses says why.
    func sendWaitingCommands() -> [Action] {
        guard !outbox.waiting.isEmpty else { return [] }
        var refusals: [Action] = []
        for command in outbox.take(now: .now) {
            guard let remote = Self.remote(command) else { continue }
            if case .failure(let refusal) = viewer.perform(remote) {
                refusals.append(.refused("refused: \(refusal.reason)", command: command))
                if refusal.code == "disconnected" { outbox.clear() }
            }
        }
        return refusals
    }

    /// `command` as the app's protocol says it; nil for the run loop's own.
    private static func remote(_ command: Command) -> RemoteCommand? {
        switch command {
        case .cancel(let id): .cancel(operationID: id)
        case .cancelAll: .cancelAll
        case .setSuspended(let suspended): suspended ? .suspend : .resume
        case .setMaxConcurrentOperationCount(let limit): .setLimit(limit)
        case .repaint, .quit: nil
        }
    }

    /// What the header and the quit summary call the app: "app/queue[pid]" once it answered,
    /// else the target.
    private static func label(_ status: RemoteViewer.Status, of viewer: RemoteViewer) -> String {
        status.welcome.map { "\($0.label)[\($0.pid)]" } ?? viewer.target.description
    }

    /// The header's link state while connected: the role, and why the picture does not follow
    /// every change when it does not ("app too busy to stream: pictures only" during a burst).
    static func connectedDetail(role: String, resyncReason: String?) -> String {
        switch resyncReason {
        case nil: "connected (\(role))"
        case "burst": "connected (\(role)), app too busy to stream: pictures only"
        case let reason?: "connected (\(role)), resyncing (\(reason))"
        }
    }

    func status() -> SourceStatus? {
        let status = viewer.status
        // The message line says which socket is gone, and where the same app/queue is
        // published again (too long for the header, which keeps why the connection ended).
        let gone = viewer.socketGone
        if let gone, gone != saidGone { DashboardNotices.post(gone) }
        saidGone = gone
        let label = Self.label(status, of: viewer)
        switch status.link {
        case .connected:
            let control = status.welcome?.role == .controller
            let role = control ? "control" : "read-only"
            return SourceStatus(
                label: label, detail: Self.connectedDetail(role: role, resyncReason: status.resyncReason),
                link: .connected, brief: role, acceptsCommands: control, isReadOnly: !control)
        case .connecting:
            return SourceStatus(label: label, detail: status.detail, link: .connecting, acceptsCommands: false)
        case .disconnected:
            let now = ContinuousClock.now
            return SourceStatus(
                label: label, detail: "disconnected: \(status.text(at: now))", link: .disconnected,
                brief: status.countdown(at: now), acceptsCommands: false)
        }
    }
}

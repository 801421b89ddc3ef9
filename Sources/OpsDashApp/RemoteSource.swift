import Foundation
import OpsDashLoop
import OpsDashTerminal
import OpsDashUI
import OpsKit
@_spi(OpsDashInternals) import OpsKitViewer
import OpsMonitor
import OpsWire

/// An app's published queue as a dashboard source: the picture a `RemoteViewer` rebuilds,
/// commands sent to the app (refused with the app's reason when not allowed), and the target and
/// link state for the header.
///
/// A sender thread, started with the dashboard, sends the commands the outbox lets go (each
/// waits for the app's reply, up to 2 s: never on the dashboard's thread) and the link state
/// when it changes, both to the loop's inbox; it looks every 100 ms, and at once when a command
/// is queued.
final class RemoteSource: DashboardSource, Sendable {
    private struct Shared {
        var outbox = CommandOutbox(now: .now)
        /// The socket-gone line last said in the message line (said again only when it changes).
        var saidGone: String?
        var shownStatus: SourceStatus?
        var stopped = false
    }

    let viewer: RemoteViewer
    // Locking: `shared` is only touched under its lock, never held while sending or waiting.
    private let shared = OpsMutex(Shared())
    /// Wakes the sender thread (a command was queued, or the dashboard ended).
    private let wake = DispatchSemaphore(value: 0)
    /// The whole second of the picture last handed out (dashboard thread only).
    private let lastSecond = OpsMutex(-1)

    init(viewer: RemoteViewer) {
        self.viewer = viewer
    }

    /// Starts the sender thread.
    func start(sendingTo inbox: LoopInbox) {
        let thread = Thread { [self] in
            nameCurrentThread("opsdash.commands")
            while !shared.withLock({ $0.stopped }) {
                sendStatusIfChanged(to: inbox)
                for refusal in sendWaitingCommands() { inbox.send(refusal) }
                _ = wake.wait(timeout: .now() + .milliseconds(100))
            }
        }
        thread.start()
    }

    /// Ends the sender thread (a command waiting for its reply ends with the viewer).
    func stop() {
        shared.withLock { $0.stopped = true }
        wake.signal()
    }

    /// Runs the dashboard attached to `target` until the operator quits or a signal arrives.
    /// `resolve` finds the target again before a reconnect (a restarted app has a new socket);
    /// `recorder` (`--record`) sees every output of the viewer.
    static func attach(
        target: RemoteTarget, role: RemoteRole?, token: String?, sharedMemory: Bool = true, fps: Int,
        signals: StopSignals,
        resolve: (@Sendable () -> RemoteTarget?)?, recorder: AttachRecorder? = nil,
        limits: MonitorStore.Limits = .init()
    ) -> ExitStatus {
        var onOutput: (@Sendable ([ViewerCore.Output]) -> Void)?
        if let recorder { onOutput = { outputs in recorder.record(outputs) } }
        let viewer = RemoteViewer(
            target: target, role: role, token: token, reconnect: true, limits: limits, sharedMemory: sharedMemory,
            resolve: resolve, onOutput: onOutput)
        if let error = viewer.start() {
            StandardStreams.error("opsdash: \(error)")
            return .usage
        }
        // A wrong token is said before the screen opens (an app too busy to answer within the
        // wait shows it in the header instead, without retrying).
        let wait: Duration = if case .ssh = target { SSHAttachFailure.firstAnswerTimeout } else { .seconds(2) }
        let first = viewer.waitForFirstAnswer(timeout: wait)
        if let failure = SSHAttachFailure.message(viewer) {
            StandardStreams.error(failure)
            return .usage
        }
        if case .refused(let refusal) = first {
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
        let changed = lastSecond.withLock { lastSecond in
            guard version == nil || current.version != version || second != lastSecond else { return false }
            lastSecond = second
            return true
        }
        return changed ? current : nil
    }

    /// The refusal of a command when the app publishes read-only: what the app sets to allow
    /// control.
    static let appReadOnlyRefusal =
        "refused: read-only: the app did not allow control (QueuePublisher.Options.allowControl; over TCP, the control token too)"

    /// Refuses at once on a read-only attach; else queues `command` in the outbox, which the
    /// sender thread sends.
    func perform(_ command: Command) -> String? {
        if command == .repaint || command == .quit { return nil }
        if viewer.status.welcome?.role == .observer {
            return viewer.role == .observer
                ? "refused: read-only attach (--read-only)"
                : RemoteSource.appReadOnlyRefusal
        }
        shared.withLock { shared in
            for each in Self.outgoing(command) { shared.outbox.add(each) }
        }
        wake.signal()
        return nil
    }

    /// `command` as the outbox sends it: a bulk cancel as `cancel_many` commands of at most
    /// `RemoteProtocol.maximumCancelMany` operations each whose ids fit well within a line
    /// (one audit line each in the app); every other command as it is.
    static func outgoing(_ command: Command) -> [Command] {
        guard case .cancelMany(let ids) = command else { return [command] }
        // The ids' decimal digits and commas, below a line's limit with room for the rest.
        let budget = RemoteProtocol.maximumLineLength - 1_024
        var batches: [Command] = []
        var batch: [Int] = []
        var length = 0
        for id in ids {
            let cost = String(id).utf8.count + 1
            if batch.count == RemoteProtocol.maximumCancelMany || length + cost > budget {
                batches.append(.cancelMany(operationIDs: batch))
                batch = []
                length = 0
            }
            batch.append(id)
            length += cost
        }
        if !batch.isEmpty { batches.append(.cancelMany(operationIDs: batch)) }
        return batches
    }

    /// Sends what the outbox lets go now, each waiting for its reply; a command the app refuses
    /// says why.
    func sendWaitingCommands() -> [Action] {
        let commands = shared.withLock { $0.outbox.waiting.isEmpty ? [] : $0.outbox.take(now: .now) }
        var refusals: [Action] = []
        for command in commands {
            guard let remote = Self.remote(command) else { continue }
            if case .failure(let refusal) = viewer.perform(remote) {
                refusals.append(.refused("refused: \(refusal.reason)", command: command))
                if refusal.code == "disconnected" { shared.withLock { $0.outbox.clear() } }
            }
        }
        return refusals
    }

    /// Sends the target and link state to `inbox` when it changed since last sent.
    private func sendStatusIfChanged(to inbox: LoopInbox) {
        let status = status()
        let changed = shared.withLock { shared in
            guard status != shared.shownStatus else { return false }
            shared.shownStatus = status
            return true
        }
        if changed { inbox.send(.source(status)) }
    }

    /// `command` as the app's protocol says it; nil for the run loop's own.
    private static func remote(_ command: Command) -> RemoteCommand? {
        switch command {
        case .cancel(let id): .cancel(operationID: id)
        case .cancelAll: .cancelAll
        case .cancelMany(let ids): .cancelMany(operationIDs: ids)
        case .setSuspended(let suspended): suspended ? .suspend : .resume
        case .setMaxConcurrentOperationCount(let limit): .setLimit(limit)
        case .repaint, .quit: nil
        }
    }

    /// What the header and the quit summary call the app: "app/queue[pid]" once it answered
    /// ("app/queue[pid]@host" over ssh: the pid is the other machine's), else the target.
    private static func label(_ status: RemoteViewer.Status, of viewer: RemoteViewer) -> String {
        guard let welcome = status.welcome else { return viewer.target.description }
        let label = "\(welcome.label)[\(welcome.pid)]"
        guard case .ssh(let address) = viewer.target else { return label }
        return label + "@" + (address.host.contains(":") ? "[\(address.host)]" : address.host)
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

    /// The target and link state for the header.
    func status() -> SourceStatus {
        let status = viewer.status
        // The message line says which socket is gone, and where the same app/queue is
        // published again (too long for the header, which keeps why the connection ended).
        let gone = viewer.socketGone
        let said = shared.withLock { shared in
            defer { shared.saidGone = gone }
            return shared.saidGone
        }
        if let gone, gone != said { DashboardNotices.post(gone) }
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

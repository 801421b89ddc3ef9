import Foundation
import OpsKit
import OpsMonitor
import OpsWire
import Synchronization

/// A viewer of a published queue: connects, says hello, keeps the rebuilt picture up to date on
/// its own thread and, when the publisher goes away, reconnects with backoff (resuming where it
/// was, or starting clean on a new epoch). Commands wait for their reply.
///
/// Every wait (the reconnect backoff, the heartbeat watchdog, reply and first-answer timeouts)
/// is kept by the viewer's `SimulationClock`: a test drives a `ManualClock` and waits on events.
public final class RemoteViewer: Sendable {
    /// Why a command was not carried out.
    public struct Refusal: Error, Sendable, Equatable {
        public var code: String
        public var message: String

        /// "wrong token (unauthorized)".
        public var reason: String { "\(message) (\(code))" }
    }

    // Locking: `state` (Mutex) holds the protocol core and the link; `writer` (Mutex) serialises
    // writes to the socket. Neither is held while calling `onOutput`, waiting on `signal` (whose
    // lock is taken first) or on `wakeup`.
    struct State {
        var core: ViewerCore
        var status = Status(link: .connecting, detail: "connecting", welcome: nil)
        var descriptor: Int32 = -1
        var stopped = false
        var finished = false
        var replies: [String: Result<UInt64?, Refusal>] = [:]
        var nextRequest = 1
        /// Why the last connection ended.
        var lastReason: String?
        var sawBye = false
        /// Whether deltas come from the publisher's shared-memory stream now.
        var readsSharedStream = false
        /// Whether the connection is a Unix socket (only then is a shared stream it names opened).
        var connectionIsLocal = false
        /// Why the publisher turned this viewer away (a wrong token, no common protocol): set,
        /// the viewer does not reconnect.
        var refusal: Refusal?
        /// The target connected to last (the resolver's or a republished socket followed).
        var current: RemoteTarget
        /// Set while the Unix socket last connected to no longer exists.
        var socketGone: SocketGone?
    }

    /// How the first connection went.
    public enum FirstAnswer: Sendable, Equatable {
        /// The publisher welcomed this viewer.
        case welcome
        /// The publisher turned this viewer away, and why.
        case refused(Refusal)
        /// The connection ended before an answer (or none came in time).
        case none
    }

    /// Error codes that turn a viewer away for good: reconnecting would get the same answer.
    static let refusalCodes: Set<String> = [
        RemoteErrorCode.unauthorized.rawValue, RemoteErrorCode.unsupportedProtocol.rawValue,
    ]

    public let target: RemoteTarget
    /// The role asked for: nil lets the app decide (control when it grants it), `.observer`
    /// is a read-only attach by choice.
    public let role: RemoteRole?
    private let token: String?
    private let reconnect: Bool
    let sharedMemory: Bool
    let onOutput: (@Sendable ([ViewerCore.Output]) -> Void)?
    private let resolve: (@Sendable () -> RemoteTarget?)?
    let state: OpsMutex<State>
    private let writer = OpsMutex<Void>(())
    /// Keeps every wait: the backoff, the heartbeat watchdog, reply and first-answer timeouts.
    let clock: any SimulationClock
    /// Wakes the reader thread (stop, a timer due).
    let wakeup = WakePipe()
    /// Wakes callers waiting for a reply, an answer or the end.
    let signal = ViewerSignal()

    /// A viewer of `target`; `role: .observer` asks for read-only, `token` is for TCP. Without
    /// `reconnect` it ends when the connection does. `onOutput` sees every protocol output, in
    /// order, on the viewer's thread. `resolve` finds the target again before each reconnect
    /// (an app that restarted publishes under a new socket name). With `sharedMemory`, deltas are
    /// read from the publisher's shared-memory stream when it offers one this process can map.
    /// `clock` keeps the viewer's waits (tests pass a `ManualClock`).
    public init(
        target: RemoteTarget, role: RemoteRole? = nil, token: String? = nil, reconnect: Bool = true,
        limits: MonitorStore.Limits = .init(), sharedMemory: Bool = true,
        resolve: (@Sendable () -> RemoteTarget?)? = nil, clock: any SimulationClock = LiveClock(),
        onOutput: (@Sendable ([ViewerCore.Output]) -> Void)? = nil
    ) {
        self.target = target
        self.clock = clock
        self.sharedMemory = sharedMemory
        self.resolve = resolve
        self.role = role
        self.token = token
        self.reconnect = reconnect
        self.onOutput = onOutput
        state = OpsMutex(State(core: ViewerCore(limits: limits), current: target))
    }

    /// Connects once, synchronously: nil when connected (the reader then runs on its own
    /// thread), else why not.
    public func start() -> RemoteError? {
        switch target.connect() {
        case .failure(let error):
            return error
        case .success(let link):
            Thread.detachNewThread {
                // Reading and decoding every change at nice 19, like the publisher's thread that
                // writes them (reading faster than it writes gains nothing): on a machine short
                // of cores, watching an app never takes CPU time the app could use.
                nameCurrentThread("opsdash.viewer")
                lowerThreadPriorityToBackground()
                self.runLoop(first: link)
            }
            return nil
        }
    }

    /// Stops reading and closes the connection.
    public func stop() {
        let descriptor = state.withLock { state -> Int32 in
            state.stopped = true
            return state.descriptor
        }
        if descriptor >= 0 { shutdown(descriptor, Int32(SHUT_RDWR)) }
        wakeup.wake()
    }

    /// Whether the viewer has ended (stopped, or disconnected without `reconnect`).
    public var isFinished: Bool { state.withLock { $0.finished } }

    /// The link state.
    public var status: Status { state.withLock { $0.status } }

    /// Whether deltas come from the publisher's shared-memory stream now (else the socket).
    public var readsSharedStream: Bool { state.withLock { $0.readsSharedStream } }

    /// Why the last connection ended, and whether the publisher said bye.
    public var endReason: (reason: String?, bye: Bool) { state.withLock { ($0.lastReason, $0.sawBye) } }

    /// Why the publisher turned this viewer away (then it does not reconnect), or nil.
    public var refusal: Refusal? { state.withLock { $0.refusal } }

    /// Waits up to `timeout` for the publisher's answer to the first hello: a welcome, a
    /// refusal (a wrong token), or none (the connection ended, or the app is slow to answer).
    public func waitForFirstAnswer(timeout: Duration) -> FirstAnswer {
        let answer = signal.wait(timeout: timeout, on: clock) {
            state.withLock { state -> FirstAnswer? in
                if let refusal = state.refusal { return .refused(refusal) }
                if state.status.welcome != nil { return .welcome }
                return state.finished ? FirstAnswer.none : nil
            }
        }
        return answer ?? .none
    }

    /// The rebuilt picture.
    public var snapshot: QueueSnapshot { state.withLock { $0.core.builder.snapshot() } }

    /// The picture if it changed since `version`.
    public func snapshot(ifChangedSince version: UInt64?) -> QueueSnapshot? {
        state.withLock { state in
            guard let version else { return state.core.builder.snapshot() }
            return state.core.builder.snapshot(ifChangedSince: version)
        }
    }

    /// Sends `command` and waits (up to `timeout`) for its reply and for the event that shows
    /// its effect; returns that event's seq, or why it was refused.
    public func perform(_ command: RemoteCommand, timeout: Duration = .seconds(2)) -> Result<UInt64?, Refusal> {
        let (request, descriptor) = state.withLock { state -> (String, Int32) in
            defer { state.nextRequest += 1 }
            return ("c\(state.nextRequest)", state.status.link == .connected ? state.descriptor : -1)
        }
        guard descriptor >= 0 else { return .failure(Refusal(code: "disconnected", message: "not connected")) }
        let line = ViewerMessage.control(command, request: .string(request)).text
        // The publisher closes a connection that sends a longer line (framing is lost).
        guard line.utf8.count <= RemoteProtocol.maximumLineLength + 1 else {
            return .failure(
                Refusal(code: "bad_argument", message: "\(command.name) is longer than one protocol line"))
        }
        guard write(line, to: descriptor) else {
            return .failure(Refusal(code: "disconnected", message: "connection lost"))
        }
        return reply(to: request, timeout: timeout)
    }

    /// Waits (up to `timeout` on the clock) for the reply to `request` and, when it names an
    /// event, for that event to be applied.
    private func reply(to request: String, timeout: Duration) -> Result<UInt64?, Refusal> {
        let answer = signal.wait(timeout: timeout, on: clock) {
            state.withLock { state -> Result<UInt64?, Refusal>? in
                guard let reply = state.replies[request] else { return nil }
                // Read-your-writes: wait until the event showing the effect was applied.
                if case .success(let seq?) = reply, (state.core.lastSeq ?? 0) < seq, state.core.isLive { return nil }
                state.replies[request] = nil
                return reply
            }
        }
        return answer ?? .failure(Refusal(code: "timeout", message: "no reply within \(timeout.seconds) s"))
    }

    /// Blocks until the viewer has ended.
    public func waitUntilFinished() {
        _ = signal.wait(timeout: nil, on: clock) { () -> Void? in isFinished ? () : nil }
    }

    /// Waits up to `timeout` (on the viewer's clock) for the viewer to end; whether it did.
    public func waitUntilFinished(timeout: Duration) -> Bool {
        signal.wait(timeout: timeout, on: clock) { () -> Void? in isFinished ? () : nil } != nil
    }

    // MARK: The reader thread

    private func runLoop(first: RemoteTarget.Link) {
        var link: RemoteTarget.Link? = first
        var backoff = ReconnectSchedule()
        let attemptTimer = ViewerTimer(clock: clock, wakeup: wakeup)
        while true {
            if let current = link {
                guard serveUntilEnd(current) else { break }
                if state.withLock({ $0.status.welcome != nil }) { backoff.reset() }
            }
            link = nil
            if state.withLock({ $0.stopped }) { break }
            guard waitOut(backoff.take(), on: attemptTimer) else { break }
            guard let next = nextTarget() else { continue }
            switch next.connect() {
            case .success(let connected):
                link = connected
                state.withLock { state in
                    state.current = next
                    state.socketGone = nil
                }
            case .failure: break  // the reason the last connection ended stays on show
            }
        }
        attemptTimer.cancel()
        state.withLock { $0.finished = true }
        signal.broadcast()
    }

    /// Reads `current` until it ends, closes it and shows why; returns whether to connect again.
    private func serveUntilEnd(_ current: RemoteTarget.Link) -> Bool {
        var reason = serve(current.descriptor)
        // `ssh` ends once its end of the pair closes; how it ended says more than EOF
        // (a failed login, a host that is down, no such queue on the remote host).
        shutdown(current.descriptor, Int32(SHUT_RDWR))
        if let channel = current.channel, let why = SSHChannel.reason(channel.finish()),
            !state.withLock({ $0.sawBye })
        {
            reason = why
        }
        let gone = checkSocketGone()
        let stopped = state.withLock { state -> Bool in
            state.descriptor = -1
            state.lastReason = reason
            state.socketGone = gone
            state.status = Status(link: .disconnected, detail: reason, welcome: state.status.welcome)
            return state.stopped
        }
        close(current.descriptor)
        // The last round's replies and the end of the connection, for callers waiting.
        signal.broadcast()
        if stopped || !reconnect || state.withLock({ $0.refusal != nil }) { return false }
        // An ssh target that never reached the app (a failed login, no such queue)
        // would fail the same way again.
        if case .ssh = target, state.withLock({ $0.status.welcome == nil }) { return false }
        return true
    }

    /// Shows the next attempt's time and waits `wait` for it on `attemptTimer`; returns false
    /// if the viewer was stopped meanwhile.
    private func waitOut(_ wait: Duration, on attemptTimer: ViewerTimer) -> Bool {
        // What the header counts down to (shown on the wall clock).
        let nextAttempt = ContinuousClock.now + wait
        let gone = checkSocketGone()
        state.withLock { state in
            state.socketGone = gone
            state.status = Status(
                link: .disconnected, detail: state.lastReason ?? "disconnected",
                welcome: state.status.welcome, nextAttempt: nextAttempt)
        }
        attemptTimer.arm(after: wait)
        while !attemptTimer.takeDue(), !state.withLock({ $0.stopped }) { wakeup.waitForWake() }
        return !state.withLock({ $0.stopped })
    }

    /// Where the next attempt connects: what the resolver finds (attach by name), else the
    /// same app/queue published again at a new socket when the old one is gone, else the
    /// target connected to last.
    private func nextTarget() -> RemoteTarget? {
        if let resolve {
            setStatus(.connecting, "reconnecting")
            return resolve()
        }
        let gone = checkSocketGone()
        if let gone, let republished = gone.republished {
            setStatus(.connecting, gone.text)
            return .unix(republished)
        }
        setStatus(.connecting, "reconnecting")
        return state.withLock { $0.current }
    }

    /// Whether the Unix socket connected to last is gone, and what to say about it.
    private func checkSocketGone() -> SocketGone? {
        let (current, label) = state.withLock { ($0.current, $0.status.welcome?.label) }
        guard case .unix(let path) = current else { return nil }
        return SocketGone.check(path, label: label)
    }

    private func setStatus(_ link: Link, _ detail: String) {
        state.withLock { $0.status = Status(link: link, detail: detail, welcome: $0.status.welcome) }
    }

    /// Reads one connection until it ends; returns why it ended.
    private func serve(_ descriptor: Int32) -> String {
        // A socket pair to `ssh` is a Unix socket too: the target says where the peer is.
        let local = state.withLock { $0.current.isLocal } && UnixSocket.isUnixSocket(descriptor)
        let hello = state.withLock { state -> String in
            state.descriptor = descriptor
            state.sawBye = false
            state.readsSharedStream = false
            state.connectionIsLocal = local
            return state.core.hello(role: role, token: token)
        }
        guard write(hello, to: descriptor) else { return "connection lost" }
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        var shared = SharedStreamCursor()
        var watchdog = HeartbeatWatchdog(since: clock.now)
        let heartbeatTimer = ViewerTimer(clock: clock, wakeup: wakeup)
        heartbeatTimer.arm(after: HeartbeatWatchdog.silence)
        defer { heartbeatTimer.cancel() }
        var pollers = [
            pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0),
            pollfd(fd: wakeup.readEnd, events: Int16(POLLIN), revents: 0),
        ]
        while true {
            // Callers waiting for a reply or an answer look at what the last round applied.
            signal.broadcast()
            if state.withLock({ $0.stopped }) { return "stopped" }
            pollers[0].revents = 0
            pollers[1].revents = 0
            // Reading the shared stream, look at it every 10 ms (a socket line may need the
            // deltas before it, so the stream is read before each socket read too).
            let ready = poll(&pollers, 2, shared.needsLooks ? 10 : wakeup.pollTimeout)
            if shared.needsLooks { readSharedStream(&shared, descriptor) }
            if ready < 0 {
                if errno == EINTR { continue }
                return "connection lost"
            }
            if pollers[1].revents != 0 { wakeup.drain() }
            if pollers[0].revents != 0 {
                let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { return closedReason() }
                watchdog.heard(at: clock.now)
                if let tooLong = takeLines(chunk[0..<count], into: &buffer, &shared, descriptor) { return tooLong }
            }
            if heartbeatTimer.takeDue(), let silent = checkHeartbeat(&watchdog, heartbeatTimer, descriptor) {
                return silent
            }
        }
    }

    /// Why the app closed the connection: its refusal, its bye, or that it went away.
    private func closedReason() -> String {
        state.withLock { state in
            if let refusal = state.refusal { return refusal.reason }
            return state.sawBye ? (state.lastReason ?? "app said bye") : "app went away"
        }
    }

    /// Adds `bytes` to `buffer` and handles every whole line in it; returns why to end the
    /// connection when the line still unfinished is over the limit.
    private func takeLines(
        _ bytes: ArraySlice<UInt8>, into buffer: inout [UInt8], _ shared: inout SharedStreamCursor,
        _ descriptor: Int32
    ) -> String? {
        buffer.append(contentsOf: bytes)
        var start = 0
        while let newline = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) {
            follow(handle(buffer[start..<newline], descriptor), &shared, descriptor)
            start = newline + 1
        }
        buffer.removeFirst(start)
        return buffer.count > RemoteProtocol.maximumLineLength ? "line from the app too long" : nil
    }

    /// When the heartbeat timer is due: "no heartbeat from the app" if the app has been silent
    /// too long, else nil with the timer armed for the watchdog's next deadline.
    private func checkHeartbeat(
        _ watchdog: inout HeartbeatWatchdog, _ timer: ViewerTimer, _ descriptor: Int32
    ) -> String? {
        let now = clock.now
        // Bytes waiting unread came in time: a reader thread starved of CPU (nice 19 on a
        // busy machine) is late, the app is not silent.
        var waiting = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        if poll(&waiting, 1, 0) > 0 { watchdog.heard(at: now) }
        if watchdog.isSilent(at: now) { return "no heartbeat from the app" }
        timer.arm(after: watchdog.deadline - now)
        return nil
    }

    @discardableResult
    func handle(_ line: ArraySlice<UInt8>, _ descriptor: Int32) -> [ViewerCore.Output] {
        let outputs = state.withLock { state -> [ViewerCore.Output] in
            let outputs = state.core.receive(line)
            for output in outputs {
                switch output {
                case .welcome(let welcome):
                    state.status = Status(link: .connected, detail: "connected", welcome: welcome)
                case .reply(let request?, let ok, let code, let message, let seq):
                    state.replies[request] =
                        ok
                        ? .success(seq) : .failure(Refusal(code: code ?? "internal", message: message ?? ""))
                case .resyncing(let reason):
                    state.status.resyncReason = reason
                case .event, .audit:
                    if state.status.resyncReason != nil { state.status.resyncReason = nil }
                case .bye(let reason):
                    state.sawBye = true
                    state.lastReason = reason.isEmpty ? "app said bye" : reason
                case .error(let code, let message):
                    state.lastReason = "\(code): \(message)"
                    if state.status.link != .connected, Self.refusalCodes.contains(code) {
                        state.refusal = Refusal(code: code, message: message)
                    }
                default:
                    break
                }
            }
            return outputs
        }
        for case .send(let text) in outputs { _ = write(text, to: descriptor) }
        onOutput?(outputs)
        return outputs
    }

    func write(_ text: String, to descriptor: Int32) -> Bool {
        let bytes = Array(text.utf8)
        return writer.withLock { _ in
            var offset = 0
            while offset < bytes.count {
                let flags = UnixSocket.noSignal
                let sent = bytes[offset...].withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, flags) }
                if sent < 0, errno == EINTR { continue }
                guard sent > 0 else { return false }
                offset += sent
            }
            return true
        }
    }
}

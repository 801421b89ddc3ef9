import Dispatch
import Foundation
import Logging
import NIOCore
import NIOPosix
import OpsKit
import OpsMonitor
import OpsWire
import ServiceLifecycle
import Synchronization

/// Publishes one monitored queue so `opsdash attach` can watch (and, when allowed, steer) it
/// from another process: a Unix socket in the per-user runtime directory (and, opt-in, TCP).
///
/// A `Service`: run it in a `ServiceGroup`, or call `start()` and `stop()` yourself. Graceful
/// shutdown says `bye` to every viewer and removes the socket and its sidecar. List SIGHUP among
/// the group's `gracefulShutdownSignals` with SIGTERM and SIGINT (`[.sigterm, .sigint, .sighup]`),
/// or watch it too when calling `stop()` yourself: a closed terminal's SIGHUP otherwise ends the
/// app at once, leaving the socket and sidecar behind and viewers without a `bye`. The publisher owns
/// the monitor's event stream: it turns recording on while a viewer is connected (off otherwise)
/// and drains it on its own thread, so the app's threads never wait for a viewer.
public final class QueuePublisher: Service, Sendable {
    /// How and to whom the queue is published.
    public struct Options: Sendable {
        /// The app's name in listings and `welcome` (default: the process name).
        public var app: String = ProcessInfo.processInfo.processName
        /// Let viewers cancel, pause, resume and change the limit (default: read-only).
        public var allowControl = false
        /// Other local uids allowed to attach (the app's own uid always is).
        public var allowedUIDs: Set<UInt32> = []
        /// The socket directory (default: `RuntimeDirectory.path()`).
        public var directory: String?
        /// Also listen on TCP (off by default).
        public var tcp: TCPOptions?
        /// How often the monitor is drained and viewers with much to read are written to.
        public var pumpInterval: Duration = .milliseconds(10)
        /// How often, at most, a viewer is written to while changes trickle in (fewer than half
        /// of `configuration.batchLines` waiting, 512 by default): a change this long after the
        /// previous write is sent at the next pump, the ones after it within this interval. Each
        /// write costs the app a system call and wakes the viewer, so this is what many viewers
        /// cost; the dashboard draws every 50 ms.
        public var sendInterval: Duration = .milliseconds(20)
        /// Offer local viewers (same user, Linux) the deltas through a shared-memory stream that
        /// they map read-only: each change is then written once, whatever the number of such
        /// viewers, instead of once into every viewer's socket. Written while any viewer is
        /// connected, so it holds up to `configuration.ringBytes` of memory from the first one.
        public var sharedMemory = true
        /// How long `stop()` waits for viewers to be sent their last picture and `bye` before it
        /// closes what is left (the publisher's thread runs at the lowest priority: on a machine
        /// kept busy, it may need longer).
        public var stopTimeout: Duration = .seconds(2)
        /// Protocol limits and timings.
        public var configuration = PublisherCore.Configuration()
        /// Whether the app's own uid may attach (tests turn it off to see a stranger refused).
        var allowsOwnUID = true

        public init() {}
    }

    /// TCP listening: loopback unless told otherwise, a token required.
    public struct TCPOptions: Sendable {
        /// The ports that can be asked for (0 picks a free one; `tcpPort` says which).
        public static let validPorts = 0...65535

        /// The address to listen on.
        public var host: String
        /// The port to listen on, within `validPorts` (set by `init`, which checks it).
        public private(set) var port: Int
        /// File with the read-only token (created with a random token, mode 0600, if missing).
        public var readTokenFile: String
        /// File with the control token (needs `allowControl`); nil for none.
        public var controlTokenFile: String?

        /// Listening on `host:port`. Throws a `RemoteError` for a port outside `validPorts`
        /// (e.g. "TCP port 70000 is out of range (0...65535; 0 picks a free port)").
        public init(
            host: String = "127.0.0.1", port: Int, readTokenFile: String, controlTokenFile: String? = nil
        ) throws(RemoteError) {
            guard Self.validPorts.contains(port) else {
                throw RemoteError("TCP port \(port) is out of range (0...65535; 0 picks a free port)")
            }
            self.host = host
            self.port = port
            self.readTokenFile = readTokenFile
            self.controlTokenFile = controlTokenFile
        }
    }

    private struct Running: Sendable {
        var group: MultiThreadedEventLoopGroup
        var engine: NIOLoopBoundBox<PublisherEngine>
        var servers: [Channel]
        var pump: RepeatedTask
    }

    public let monitor: QueueMonitor
    public let name: String
    public let options: Options
    /// Where the Unix socket is (set when the publisher is created).
    public let socketPath: String
    private let sidecarPath: String
    private let logger: Logger
    private let running = OpsMutex<Running?>(nil)
    // Locking: the tally the pump copies out of the engine, read by `tally()`.
    private let latestTally = OpsMutex<RemoteTally?>(nil)
    private let startedAt = Date()

    /// A publisher for `monitor`'s queue under `name` (shown as "app/name").
    public init(
        monitor: QueueMonitor, name: String, options: Options = .init(),
        logger: Logger = Logger(label: "opsdash.publisher")
    ) {
        self.monitor = monitor
        self.name = name
        self.options = options
        self.logger = logger
        let directory = options.directory ?? RuntimeDirectory.path()
        let base = Self.fileName("\(options.app).\(name).\(getpid())")
        socketPath = (directory as NSString).appendingPathComponent(base + ".sock")
        sidecarPath = (directory as NSString).appendingPathComponent(base + ".json")
    }

    /// Letters, digits, `.`, `-` and `_`; anything else becomes `_`.
    static func fileName(_ text: String) -> String {
        String(
            text.unicodeScalars.map { scalar -> Character in
                switch scalar {
                case "a"..."z", "A"..."Z", "0"..."9", ".", "-", "_": Character(scalar)
                default: "_"
                }
            }.prefix(80))
    }

    /// Binds the socket(s) and starts serving. Throws a `RemoteError` naming the problem.
    public func start() throws {
        guard running.withLock({ $0 == nil }) else { return }
        try prepareSocketPath()
        let core = try makeCore()
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let loop = group.next()
        // The publisher's thread drains the monitor and encodes every change: like the monitor's
        // applier, it runs at nice 19 and uses CPU the app leaves idle (on a saturated machine
        // viewers fall behind, and are resynced, instead of the app slowing down).
        loop.execute { lowerThreadPriorityToBackground() }
        let engine = NIOLoopBoundBox.makeBoxSendingValue(
            PublisherEngine(monitor: monitor, core: core, logger: logger, sendInterval: options.sendInterval),
            eventLoop: loop)
        let servers = try listen(group: group, engine: engine)
        try publishSidecar(engine: engine)
        let pump = startPump(engine: engine)
        running.withLock { $0 = Running(group: group, engine: engine, servers: servers, pump: pump) }
        logger.info("publishing \(options.app)/\(name) on \(socketPath)")
    }

    /// Makes the socket's directory (0700, checked) and frees the socket's path of a stale
    /// socket, once the monitor is known to run and the path fits a socket address.
    private func prepareSocketPath() throws(RemoteError) {
        guard !monitor.isStopped else {
            throw RemoteError("cannot publish \(options.app)/\(name): its QueueMonitor was stopped")
        }
        let directory = (socketPath as NSString).deletingLastPathComponent
        try RuntimeDirectory.prepare(directory)
        guard socketPath.utf8.count < 104 else {
            throw RemoteError("socket path too long (\(socketPath.utf8.count) bytes, limit 103): \(socketPath)")
        }
        try removeStaleSocket()
    }

    /// The protocol core for this queue, with a fresh epoch, and with TCP on, its tokens (their
    /// files created with random tokens when missing).
    private func makeCore() throws(RemoteError) -> PublisherCore {
        var readToken: String?
        var controlToken: String?
        if let tcp = options.tcp {
            readToken = try TokenFile.load(tcp.readTokenFile, create: true)
            if let file = tcp.controlTokenFile { controlToken = try TokenFile.load(file, create: true) }
        }
        let identity = PublisherCore.Identity(
            app: options.app, queue: name, pid: Int(getpid()),
            epoch: String(UInt64.random(in: 1...UInt64.max), radix: 16))
        return PublisherCore(
            identity: identity, configuration: options.configuration,
            access: .init(allowControl: options.allowControl, readToken: readToken, controlToken: controlToken),
            sharedRing: options.sharedMemory ? SharedRingWriter(capacity: options.configuration.ringBytes) : nil)
    }

    /// The listening servers: the Unix socket (created 0600) and, when on, TCP. When one cannot
    /// listen, none is left listening, `group` is shut down and the socket file removed.
    private func listen(
        group: MultiThreadedEventLoopGroup, engine: NIOLoopBoundBox<PublisherEngine>
    ) throws(RemoteError) -> [Channel] {
        var servers: [Channel] = []
        do {
            let allowed = options.allowsOwnUID ? options.allowedUIDs.union([UInt32(geteuid())]) : options.allowedUIDs
            let refusals = (log: RefusedPeerLog(), start: ContinuousClock.now)
            let bootstrap = Self.bootstrap(
                group: group, engine: engine, allowedUIDs: allowed, tcp: false, refusals: refusals, logger: logger)
            // The socket is created 0600 (no window with a wider mode); the app's umask is put
            // back whether the bind worked or not.
            let previous = umask(0o077)
            let bound = Result { try bootstrap.bind(unixDomainSocketPath: socketPath).wait() }
            umask(previous)
            let unix = try bound.get()
            servers.append(unix)
            guard chmod(socketPath, 0o600) == 0 else { throw RemoteError("cannot chmod \(socketPath)") }
            if let tcp = options.tcp {
                do {
                    servers.append(
                        try Self.bootstrap(
                            group: group, engine: engine, allowedUIDs: allowed, tcp: true, refusals: refusals,
                            logger: logger
                        ).bind(host: tcp.host, port: tcp.port).wait())
                } catch {
                    throw RemoteError("cannot listen on tcp://\(tcp.host):\(tcp.port): \(Self.reason(error))")
                }
            }
        } catch {
            for server in servers { try? server.close().wait() }
            try? group.syncShutdownGracefully()
            unlink(socketPath)
            if let error = error as? RemoteError { throw error }
            throw RemoteError("cannot listen on \(socketPath): \(Self.reason(error))")
        }
        return servers
    }

    /// Writes the sidecar that lists this queue for `opsdash attach`, and has the engine write it
    /// again, with the number of viewers, whenever that number changes.
    private func publishSidecar(engine: NIOLoopBoundBox<PublisherEngine>) throws {
        let sidecar = PublishedQueue(
            app: options.app, queue: name, pid: Int(getpid()), started: startedAt.timeIntervalSince1970,
            socket: socketPath, viewers: 0)
        let sidecarPath = self.sidecarPath
        let logger = self.logger
        try engine.eventLoop.submit {
            engine.value.onViewersChanged = { count in
                var updated = sidecar
                updated.viewers = count
                do { try updated.write(to: sidecarPath) } catch { logger.warning("\(error)") }
            }
        }.wait()
        try sidecar.write(to: sidecarPath)
    }

    /// Drains the monitor into the engine every `pumpInterval` (at least every millisecond) and
    /// keeps the engine's latest tally for `tally()`.
    private func startPump(engine: NIOLoopBoundBox<PublisherEngine>) -> RepeatedTask {
        let interval = TimeAmount.nanoseconds(options.pumpInterval.nanoseconds)
        latestTally.withLock { $0 = RemoteTally() }
        return engine.eventLoop.scheduleRepeatedTask(initialDelay: .zero, delay: max(interval, .milliseconds(1))) {
            [weak self] _ in
            engine.value.pump()
            let tally = engine.value.core.tally
            self?.latestTally.withLock { $0 = tally }
        }
    }

    /// The TCP port listened on (useful with port 0), when TCP is on and started.
    public var tcpPort: Int? {
        running.withLock { $0?.servers.dropFirst().first?.localAddress?.port }
    }

    /// Streaming viewers, the bytes of the shared event ring (the memory viewers cost besides
    /// their sockets' bounded buffers) and the events numbered so far (the newest `seq`); nil
    /// when not started.
    public func statistics() -> (viewers: Int, ringBytes: Int, events: UInt64)? {
        guard let engine = running.withLock({ $0?.engine }) else { return nil }
        return try? engine.eventLoop.submit {
            (engine.value.core.viewerCount, engine.value.core.ringBytes, engine.value.core.head)
        }.wait()
    }

    /// Viewers by role, resyncs and commands served so far (for metrics: `RemoteMetrics` in
    /// OpsKitMetrics turns them into `opsdash_remote_*`), as of the publisher's last pump (every
    /// `pumpInterval`); nil when not started. Never blocks, so a metrics handler on any thread
    /// (an event loop too) may call it.
    public func tally() -> RemoteTally? {
        latestTally.withLock { $0 }
    }

    /// Says `bye` to every viewer, stops listening and removes the socket and sidecar. Blocks
    /// until done; call it from any thread but the publisher's own.
    public func stop() {
        guard
            let current = running.withLock({ state -> Running? in
                defer { state = nil }
                return state
            })
        else { return }
        let loop = current.engine.eventLoop
        current.pump.cancel()
        for server in current.servers { try? server.close().wait() }
        unlink(socketPath)
        let closed = DispatchSemaphore(value: 0)
        loop.flatSubmit {
            current.engine.value.onViewersChanged = { _ in }
            return current.engine.value.shutdown(reason: "app shutting down", on: loop)
        }.whenComplete { _ in closed.signal() }
        let timeout = DispatchTimeInterval.nanoseconds(Int(clamping: max(0, options.stopTimeout.nanoseconds)))
        if closed.wait(timeout: .now() + timeout) == .timedOut { logger.debug("viewers did not close in time") }
        unlink(sidecarPath)
        try? current.group.syncShutdownGracefully()
        latestTally.withLock { $0 = nil }
    }

    /// The `Service` entry point: starts, serves until graceful shutdown or the task's
    /// cancellation, then stops (viewers get their `bye`; the wait for it is bounded by
    /// `stopTimeout`). Throws what `start()` throws. Starting and stopping block, so they run on a
    /// thread of their own, not on one of Swift's few cooperative threads.
    public func run() async throws {
        try await Self.onOwnThread { try self.start() }
        try? await gracefulShutdown()  // throws CancellationError when cancelled: stop as well
        try? await Self.onOwnThread { self.stop() }
    }

    /// `body`'s result, computed on a new thread while the caller's task waits without blocking.
    private static func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread { continuation.resume(with: Result { try body() }) }
        }
    }

    deinit {
        // The last reference may go on the publisher's own event loop (its pump holds a weak
        // one), where `stop()` must not wait: the same steps are then only started there.
        guard let loop = running.withLock({ $0?.engine.eventLoop }), loop.inEventLoop else {
            stop()
            return
        }
        guard
            let current = running.withLock({ state -> Running? in
                defer { state = nil }
                return state
            })
        else { return }
        current.pump.cancel()
        for server in current.servers { server.close(promise: nil) }
        unlink(socketPath)
        let sidecarPath = self.sidecarPath
        let group = current.group
        current.engine.value.onViewersChanged = { _ in }
        current.engine.value.shutdown(reason: "app shutting down", on: loop).whenComplete { _ in
            unlink(sidecarPath)
            group.shutdownGracefully(queue: .global()) { _ in }
        }
    }

    /// The publisher's event loop while it runs (for tests).
    var eventLoop: EventLoop? { running.withLock { $0?.engine.eventLoop } }

    /// A socket error in words: "Address already in use" for a failed system call, not
    /// SwiftNIO's description of the call.
    static func reason(_ error: any Error) -> String {
        guard let failed = error as? IOError else { return "\(error)" }
        return String(cString: strerror(failed.errnoCode))
    }

    /// Removes a socket left by a process that is gone: only after a connect to it failed.
    private func removeStaleSocket() throws(RemoteError) {
        var info = stat()
        guard lstat(socketPath, &info) == 0 else { return }
        guard info.st_mode & S_IFMT == S_IFSOCK else {
            throw RemoteError("refusing \(socketPath): exists and is not a socket")
        }
        if UnixSocket.canConnect(socketPath) { throw RemoteError("\(socketPath) is in use by a running publisher") }
        unlink(socketPath)
    }

    private static func bootstrap(
        group: MultiThreadedEventLoopGroup, engine: NIOLoopBoundBox<PublisherEngine>, allowedUIDs: Set<UInt32>,
        tcp: Bool, refusals: (log: RefusedPeerLog, start: ContinuousClock.Instant), logger: Logger
    ) -> ServerBootstrap {
        ServerBootstrap(group: group)
            .serverChannelOption(ChannelOptions.backlog, value: 64)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: tcp ? 1 : 0)
            .childChannelOption(ChannelOptions.writeBufferWaterMark, value: .init(low: 32 * 1024, high: 256 * 1024))
            .childChannelOption(ChannelOptions.socketOption(.so_keepalive), value: tcp ? 1 : 0)
            .childChannelInitializer { channel in
                let peer: EventLoopFuture<PublisherCore.Peer?>
                if tcp {
                    let address = channel.remoteAddress.map { "\($0.ipAddress ?? "?"):\($0.port ?? 0)" } ?? "?"
                    peer = channel.eventLoop.makeSucceededFuture(.network(address: address))
                } else {
                    peer = PeerCredentials.of(channel).map { credentials in
                        guard let credentials else { return nil }
                        guard allowedUIDs.contains(credentials.uid) else {
                            let now = ContinuousClock.now - refusals.start
                            if let line = refusals.log.refused(uid: credentials.uid, pid: credentials.pid, now: now) {
                                logger.warning("\(line)")
                            }
                            return nil
                        }
                        return .local(uid: credentials.uid)
                    }
                }
                return peer.flatMapThrowing { peer in
                    // A local peer whose uid is not allowed is closed before anything is sent.
                    guard let peer else {
                        channel.close(promise: nil)
                        return
                    }
                    try channel.pipeline.syncOperations.addHandlers([
                        ByteToMessageHandler(LineFramer(maximumLength: RemoteProtocol.maximumLineLength)),
                        ViewerHandler(engine: engine, peer: peer),
                    ])
                }
            }
    }
}

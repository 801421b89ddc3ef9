import Foundation
import OpsKit
@_spi(OpsDashInternals) import OpsKitViewer

/// One host of the fleet list: `ssh HOST opsdash relay --list` (`RelayList`) on a thread of
/// its own, its rounds read with `RelayListReader`. When `ssh` ends (a host that is down, a
/// refused login, a remote without opsdash) or the host sends what cannot be read, the host
/// has a problem (one line: `ssh`'s last, or the reader's) and no apps until a new `ssh`,
/// `retry` later, lists them again. Nothing here waits on the far side except its own thread.
final class HostWatcher: Sendable {
    /// What the fleet list shows for the host.
    struct Report: Sendable, Equatable {
        /// The apps of its latest round, "last seen" on this machine's clock.
        var entries: [FleetEntry] = []
        /// Whether a round came over the current `ssh`.
        var listed = false
        /// Whether a round came in which no app was still connecting.
        var answered = false
        /// Why the host is not listed, while it is not.
        var problem: String?
    }

    let host: HostsFile.Host
    private let command: SSHCommand
    private let retry: Duration
    private let onChange: @Sendable () -> Void
    private let state = OpsMutex<(report: Report, version: UInt64, stopped: Bool)>((Report(), 0, false))
    /// Written to by `stop`, to end the thread's waits at once.
    private let wake = WakePipe()
    private let ended = DispatchSemaphore(value: 0)

    init(
        _ host: HostsFile.Host, command: SSHCommand = SSHCommand(), retry: Duration = .seconds(10),
        onChange: @escaping @Sendable () -> Void = {}
    ) {
        self.host = host
        self.command = command
        self.retry = retry
        self.onChange = onChange
    }

    /// The host's report now, and a number that rises with every change.
    var report: (report: Report, version: UInt64) { state.withLock { ($0.report, $0.version) } }

    /// Starts the thread.
    func start() {
        Thread.detachNewThread { [self] in
            run()
            ended.signal()
        }
    }

    /// Tells the thread to end `ssh` and itself (`waitUntilEnded` waits for it).
    func stop() {
        state.withLock { $0.stopped = true }
        wake.wake()
    }

    /// Waits until the thread ended (after `stop`), at most until `deadline`.
    func waitUntilEnded(deadline: DispatchTime) {
        if ended.wait(timeout: deadline) == .success { ended.signal() }
    }

    private var stopped: Bool { state.withLock { $0.stopped } }

    private func update(_ change: (inout Report) -> Void) {
        state.withLock {
            change(&$0.report)
            $0.version &+= 1
        }
        onChange()
    }

    private func run() {
        while !stopped {
            let problem: String
            switch SSHChannel.open(host.address, command: command, listing: true) {
            case .failure(let error): problem = error.description
            case .success(let (descriptor, channel)):
                let unreadable = follow(descriptor)
                close(descriptor)
                let ending = channel.finish()
                problem = unreadable ?? SSHChannel.reason(ending) ?? "the remote opsdash relay --list ended"
            }
            if stopped { return }
            update {
                $0 = Report()
                $0.problem = problem
            }
            var descriptor = pollfd(fd: wake.readEnd, events: Int16(POLLIN), revents: 0)
            _ = poll(&descriptor, 1, Int32(retry.components.seconds * 1_000))
        }
    }

    /// Reads rounds from `descriptor` until it ends (nil) or cannot be read on (why).
    private func follow(_ descriptor: Int32) -> String? {
        var reader = RelayListReader()
        var chunk = [UInt8](repeating: 0, count: 16_384)
        while !stopped {
            var descriptors = [
                pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0),
                pollfd(fd: wake.readEnd, events: Int16(POLLIN), revents: 0),
            ]
            guard poll(&descriptors, 2, -1) > 0 else {
                if errno == EINTR { continue }
                return "poll: \(String(cString: strerror(errno)))"
            }
            guard descriptors[0].revents != 0 else { continue }
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR || errno == EAGAIN { continue }
            guard count > 0 else { return nil }
            switch reader.read(chunk[0..<count]) {
            case .failure(let problem): return problem.description
            case .success(let rounds):
                guard let round = rounds.last else { continue }
                let now = Date().timeIntervalSince1970
                let entries = Self.onThisClock(round, now: now)
                update {
                    $0.entries = entries
                    $0.listed = true
                    $0.answered = $0.answered || !entries.contains { $0.presence == .connecting }
                    $0.problem = nil
                }
            }
        }
        return nil
    }

    /// `round`'s entries with "last seen" moved from the host's clock to this one's (`now`):
    /// as long ago as the host said, whatever the two clocks read.
    static func onThisClock(_ round: RelayListReader.Round, now: Double) -> [FleetEntry] {
        round.entries.map { entry in
            var entry = entry
            entry.lastSeen = entry.lastSeen.map { now - max(0, round.time - $0) }
            return entry
        }
    }
}

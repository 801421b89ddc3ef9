import NIOCore
@_spi(OpsDashInternals) @testable import OpsKitPublisher
import OpsMonitor
import OpsWire

/// Drives a `PublisherCore` by hand and collects what it sends, per connection, as text lines.
struct CoreHarness {
    var core: PublisherCore
    var now: Duration = .zero
    var sent: [Int: [String]] = [:]
    var closed: Set<Int> = []
    var executed: [(Int, RemoteCommand, RequestID?)] = []
    /// Connections that asked `status`, with the request id, in order.
    var statusAsked: [(Int, RequestID?)] = []
    var delayed: [Int: (lines: [String], delay: Duration)] = [:]

    init(
        configuration: PublisherCore.Configuration = .init(), access: PublisherCore.Access = .init(),
        sharedRing: SharedRingWriter? = nil
    ) {
        core = PublisherCore(
            identity: .init(app: "test", queue: "q", pid: 42, epoch: "e1"), configuration: configuration,
            access: access,
            sharedRing: sharedRing)
    }

    mutating func take(_ outputs: [PublisherCore.Output]) {
        for output in outputs {
            switch output {
            case .send(let id, let lines):
                sent[id, default: []] += Self.split(lines)
            case .sendLaterAndClose(let id, let lines, let delay):
                delayed[id] = (Self.split(lines), delay)
                closed.insert(id)
            case .close(let id):
                closed.insert(id)
            case .execute(let id, let command, let request):
                executed.append((id, command, request))
            case .status(let id, let request):
                statusAsked.append((id, request))
            }
        }
    }

    /// The lines in `buffers` (a buffer may hold several), each with its newline.
    static func split(_ buffers: [ByteBuffer]) -> [String] {
        buffers.flatMap { buffer in
            String(buffer: buffer).split(separator: "\n", omittingEmptySubsequences: false).dropLast().map {
                $0 + "\n"
            }
        }
    }

    /// Lines sent to `id` since the last call.
    mutating func lines(_ id: Int) -> [String] {
        defer { sent[id] = [] }
        return sent[id] ?? []
    }

    mutating func connect(_ id: Int, peer: PublisherCore.Peer = .local(uid: 1000)) {
        core.connect(id, peer: peer, now: now)
    }

    mutating func say(_ id: Int, _ line: String) {
        take(core.receive(id, line: Array(line.utf8), now: now))
    }

    mutating func publish(_ events: [MonitorEvent], snapshot: QueueSnapshot? = nil) {
        core.publish(events, snapshot: snapshot, monitorTime: events.last?.time ?? .zero)
    }

    mutating func flush() {
        take(core.flush(now: now))
    }
}

/// A few operations' worth of events.
enum Sample {
    static func added(_ id: Int, at time: Duration = .zero) -> [MonitorEvent] {
        [
            .added(time: time, id: id, name: "op\(id)", kind: .download, totalBytes: 100, dependencies: []),
            .state(time: time, id: id, from: nil, to: .ready, outcome: nil, message: nil),
        ]
    }

    static func progress(_ id: Int, _ bytes: Int64, at time: Duration) -> MonitorEvent {
        .progress(time: time, id: id, completedBytes: bytes, totalBytes: 100, bytesPerSecond: 10, retries: 0)
    }
}

extension CoreHarness {
    /// Connects `id`, says `hello` and flushes the join's snapshot: a viewer that is streaming.
    mutating func startStreaming(_ id: Int, hello: String = #"{"cmd":"hello","min":1,"max":1}"#) {
        connect(id)
        say(id, hello)
        publish([], snapshot: QueueSnapshot())
        flush()
    }
}

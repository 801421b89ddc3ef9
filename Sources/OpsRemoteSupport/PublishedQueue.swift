import Foundation
import OpsMonitor
import OpsWire

/// A queue some process publishes, as its sidecar file describes it (for `opsdash attach` to
/// list and pick).
public struct PublishedQueue: Sendable, Equatable {
    public var app: String
    public var queue: String
    public var pid: Int
    public var protocolVersion: Int
    /// When publishing started (seconds since 1970).
    public var started: Double
    public var socket: String
    public var viewers: Int

    public init(
        app: String, queue: String, pid: Int, protocolVersion: Int = 1, started: Double, socket: String, viewers: Int
    ) {
        self.app = app
        self.queue = queue
        self.pid = pid
        self.protocolVersion = protocolVersion
        self.started = started
        self.socket = socket
        self.viewers = viewers
    }

    /// "app/queue".
    public var label: String { "\(app)/\(queue)" }

    /// The sidecar's JSON (one line).
    var json: String {
        "{\"app\":\(jsonString(app)),\"queue\":\(jsonString(queue)),\"pid\":\(pid),\"protocol\":\(protocolVersion),"
            + "\"started\":\(started),\"socket\":\(jsonString(socket)),\"viewers\":\(viewers)}\n"
    }

    /// Reads a sidecar's JSON.
    package init?(json bytes: [UInt8]) {
        guard case .object(let object)? = try? JSONLineParser.parse(bytes),
            let app = object["app"]?.stringValue, let queue = object["queue"]?.stringValue,
            let pid = object["pid"]?.intValue, let socket = object["socket"]?.stringValue
        else { return nil }
        self.init(
            app: app, queue: queue, pid: Int(pid), protocolVersion: Int(object["protocol"]?.intValue ?? 1),
            started: object["started"]?.doubleValue ?? 0, socket: socket, viewers: Int(object["viewers"]?.intValue ?? 0)
        )
    }

    /// Writes the sidecar next to the socket (mode 0600, replaced atomically).
    package func write(to path: String) throws(RemoteError) {
        let temporary = path + ".tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw RemoteError("cannot write \(temporary): \(String(cString: strerror(errno)))")
        }
        let bytes = Array(json.utf8)
        let written = bytes.withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
        guard written == bytes.count, rename(temporary, path) == 0 else {
            unlink(temporary)
            throw RemoteError("cannot write \(path): \(String(cString: strerror(errno)))")
        }
    }

    /// Removes what publishers that ended without stopping (killed, crashed) left in
    /// `directory`: the sidecar and socket of each process that no longer exists. Files of live
    /// processes, and sockets outside `directory`, are left alone. Returns how many queues were
    /// cleaned up.
    @discardableResult
    public static func removeLeftovers(in directory: String = RuntimeDirectory.path()) -> Int {
        var removed = 0
        for (path, entry) in sidecars(in: directory) where entry.pid > 0 {
            guard kill(pid_t(entry.pid), 0) != 0, errno == ESRCH else { continue }
            if (entry.socket as NSString).deletingLastPathComponent == directory { unlink(entry.socket) }
            unlink(path)
            removed += 1
        }
        return removed
    }

    /// The queues published in `directory` by processes still alive, oldest first.
    public static func list(in directory: String = RuntimeDirectory.path()) -> [PublishedQueue] {
        let found = sidecars(in: directory).map(\.entry).filter(\.isAlive)
        return found.sorted { ($0.started, $0.socket) < ($1.started, $1.socket) }
    }

    /// Every sidecar in `directory` that reads as one (under 64 KiB), with its path.
    private static func sidecars(in directory: String) -> [(path: String, entry: PublishedQueue)] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return [] }
        return names.filter { $0.hasSuffix(".json") }.compactMap { name in
            let path = (directory as NSString).appendingPathComponent(name)
            guard let data = FileManager.default.contents(atPath: path), data.count < 65_536,
                let entry = PublishedQueue(json: Array(data))
            else { return nil }
            return (path, entry)
        }
    }
}

extension PublishedQueue {
    /// Whether its process is alive and its socket is there (as `list(in:)` checks).
    package var isAlive: Bool {
        (kill(pid_t(pid), 0) == 0 || errno == EPERM) && access(socket, F_OK) == 0
    }
}

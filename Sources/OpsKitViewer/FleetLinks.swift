import Foundation
import OpsMonitor
import OpsWire

/// The fleet list's connections, one per published queue, used by one thread only: each a
/// non-blocking Unix socket that said `hello` with `"summary":true` (no snapshot, no deltas,
/// and no event recording in the app) and asks `status` once a round. Everything a peer sends
/// is read as hostile: lines over the protocol's limit close the link, lines that do not
/// decode are skipped.
struct FleetLinks {
    private struct Link {
        var descriptor: Int32
        var buffer: [UInt8] = []
        /// Asked `status` this round and not answered yet.
        var waiting = false
    }

    private var links: [String: Link] = [:]
    /// Sockets whose app streamed a picture at a summary hello (a publisher that does not know
    /// summaries): not connected to again, so it is not made to send one every round.
    private var streams: Set<String> = []
    private var chunk = [UInt8](repeating: 0, count: 16_384)
    private var sidecars = SidecarCache()

    static let hello = ViewerMessage.hello(.init(client: "opsdash fleet", summary: true)).encoded
    static let statusRequest = ViewerMessage.status(request: nil).encoded

    /// Whether every link asked this round has answered (or closed).
    var allAnswered: Bool { !links.values.contains { $0.waiting } }

    /// A round: reads the sidecars in `directory`, connects to queues new since the last one,
    /// drops links to queues no longer published, and asks each link for its `status`.
    mutating func round(in directory: String, book: inout FleetBook, now: Double) {
        let published = sidecars.list(in: directory)
        book.listed(published, at: now)
        let sockets = Set(published.map(\.socket))
        for socket in links.keys where !sockets.contains(socket) { close(socket) }
        for entry in published where links[entry.socket] == nil && !streams.contains(entry.socket) {
            guard case .success(let descriptor) = UnixSocket.connect(entry.socket, nonBlocking: true) else { continue }
            links[entry.socket] = Link(descriptor: descriptor)
            guard send(Self.hello, to: entry.socket) else { continue }
        }
        for socket in links.keys where send(Self.statusRequest, to: socket) {
            links[socket]?.waiting = true
        }
    }

    /// Waits until a link has something to read or `timeout` passed (or `wake` is readable),
    /// then reads what came into `book`; whether anything was read or closed.
    @discardableResult
    mutating func poll(timeout: Duration, wake: Int32?, book: inout FleetBook, now: () -> Double) -> Bool {
        let order = Array(links.keys)
        var descriptors = order.compactMap {
            links[$0].map { pollfd(fd: $0.descriptor, events: Int16(POLLIN), revents: 0) }
        }
        if let wake { descriptors.append(pollfd(fd: wake, events: Int16(POLLIN), revents: 0)) }
        let milliseconds = Int32(clamping: max(0, timeout.nanoseconds / 1_000_000))
        guard Foundation.poll(&descriptors, nfds_t(descriptors.count), milliseconds) > 0 else { return false }
        var heard = false
        for (index, socket) in order.enumerated() where descriptors[index].revents != 0 {
            read(socket, book: &book, now: now())
            heard = true
        }
        return heard
    }

    /// Closes every link.
    mutating func closeAll() {
        for socket in Array(links.keys) { close(socket) }
    }

    private mutating func read(_ socket: String, book: inout FleetBook, now: Double) {
        guard let descriptor = links[socket]?.descriptor else { return }
        let count = chunk.withUnsafeMutableBytes { Foundation.read(descriptor, $0.baseAddress, $0.count) }
        if count < 0, errno == EINTR || errno == EAGAIN { return }
        guard count > 0 else {
            // Closed: the next round connects again while its sidecar is there.
            close(socket)
            return
        }
        guard var link = links[socket] else { return }
        link.buffer.append(contentsOf: chunk[0..<count])
        var start = 0
        var stop = false
        while !stop, let newline = link.buffer[start...].firstIndex(of: UInt8(ascii: "\n")) {
            stop = !handle(link.buffer[start..<newline], socket, &link, book: &book, now: now)
            start = newline + 1
        }
        link.buffer.removeFirst(start)
        links[socket] = link
        if stop || link.buffer.count > RemoteProtocol.maximumLineLength { close(socket) }
    }

    /// Acts on one line; false when the link should close.
    private mutating func handle(
        _ line: ArraySlice<UInt8>, _ socket: String, _ link: inout Link, book: inout FleetBook, now: Double
    ) -> Bool {
        let message: PublisherMessage?
        do { message = try PublisherMessage.decode(bytes: line) } catch { return true }
        switch message {
        case .welcome(let welcome):
            book.welcomed(socket, role: welcome.role)
        case .status(let status):
            book.answered(socket, status, at: now)
            link.waiting = false
        case .bye:
            book.departed(socket, at: now)
            return false
        case nil:
            // A snapshot or delta: this app streams instead of answering with summaries.
            streams.insert(socket)
            return false
        default:
            break
        }
        return true
    }

    /// Writes a whole line, or closes the link (a peer that stopped reading has no room for a
    /// few bytes); false when it closed.
    private mutating func send(_ line: [UInt8], to socket: String) -> Bool {
        guard let descriptor = links[socket]?.descriptor else { return false }
        let written = line.withUnsafeBytes {
            Foundation.send(descriptor, $0.baseAddress, $0.count, UnixSocket.noSignal)
        }
        guard written == line.count else {
            close(socket)
            return false
        }
        return true
    }

    private mutating func close(_ socket: String) {
        guard let link = links.removeValue(forKey: socket) else { return }
        Foundation.close(link.descriptor)
    }
}

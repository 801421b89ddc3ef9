import Foundation
@_spi(OpsDashInternals) import OpsKitViewer

/// Connects to the published queue at `socketPath` and says hello (protocol 1, as `opsdash attach`
/// does: a hello without `min`/`max` is refused); the descriptor, or -1.
func connectAndSayHello(_ socketPath: String) -> Int32 {
    #if canImport(Darwin)
    let descriptor = socket(AF_UNIX, SOCK_STREAM, 0)
    #else
    let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    #endif
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
        for (index, byte) in socketPath.utf8.prefix(raw.count - 1).enumerated() { raw[index] = byte }
    }
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
        }
    }
    guard connected == 0 else {
        close(descriptor)
        return -1
    }
    let hello = Array("{\"cmd\":\"hello\",\"min\":1,\"max\":1,\"client\":\"remote-bench\"}\n".utf8)
    _ = hello.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, 0) }
    return descriptor
}

/// A viewer that reads every line the publisher sends and only counts them, until the
/// publisher closes the connection: what the app pays to serve a viewer that keeps up, without
/// the viewer's own decoding competing with the app for this machine's cores. With
/// `sharedMemory` it reads the deltas from the publisher's shared-memory stream as
/// `opsdash attach` does (its socket then carries heartbeats only), looking every 10 ms.
func runRawViewer(_ socketPath: String, sharedMemory: Bool) -> Int32 {
    let descriptor = connectAndSayHello(socketPath)
    guard descriptor >= 0 else { return 1 }
    defer { close(descriptor) }
    var buffer = [UInt8](repeating: 0, count: 256 * 1024)
    var pending: [UInt8] = []
    var lines = 0
    var reader: SharedRingReader?
    var position: UInt64?
    var stream: [UInt8] = []
    func send(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { Foundation.send(descriptor, $0.baseAddress, $0.count, 0) }
    }
    while true {
        if let ring = reader, var at = position {
            readStream: while true {
                stream.removeAll(keepingCapacity: true)
                switch ring.read(from: &at, into: &stream) {
                case .caughtUp: break readStream
                case .bytes: for byte in stream where byte == 0x0A { lines += 1 }
                case .lagged:
                    send("{\"cmd\":\"resync\"}\n")
                    break readStream
                }
            }
            position = at
        }
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let ready = poll(&poller, 1, position == nil ? 500 : 10)
        if ready == 0 { continue }
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        if count <= 0 { break }
        guard sharedMemory else {
            for index in 0..<count where buffer[index] == 0x0A { lines += 1 }
            continue
        }
        // Socket lines: the welcome offers the stream, an `shm` line says where to read from.
        pending += buffer[0..<count]
        while let newline = pending.firstIndex(of: 0x0A) {
            let line = String(decoding: pending[..<newline], as: UTF8.self)
            pending.removeSubrange(...newline)
            lines += 1
            if line.hasPrefix("{\"event\":\"welcome\""), let path = field("shm", in: line) {
                reader = SharedRingReader(path: path)
                if reader != nil { send("{\"cmd\":\"shm\"}\n") }
            } else if line.hasPrefix("{\"event\":\"shm\""), let at = field("position", in: line).flatMap(UInt64.init) {
                position = at
            } else if line.hasPrefix("{\"event\":\"resync\"") {
                position = nil
            }
        }
    }
    return lines > 0 ? 0 : 1
}

/// The value of `name` in a flat JSON line: a string's contents or a number's digits.
private func field(_ name: String, in line: String) -> String? {
    guard let key = line.range(of: "\"\(name)\":") else { return nil }
    var rest = line[key.upperBound...]
    if rest.first == "\"" {
        rest = rest.dropFirst()
        return rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
    }
    return String(rest.prefix { $0.isNumber })
}

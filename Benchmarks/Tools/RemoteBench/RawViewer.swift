import Foundation

/// Connects to the published queue at `socketPath` and says hello; the descriptor, or -1.
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
    let hello = Array("{\"cmd\":\"hello\"}\n".utf8)
    _ = hello.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, 0) }
    return descriptor
}

/// A viewer that reads every byte the publisher sends and only counts lines, until the
/// publisher closes the connection: what the app pays to serve a viewer that keeps up, without
/// the viewer's own decoding competing with the app for this machine's cores.
func runRawViewer(_ socketPath: String) -> Int32 {
    let descriptor = connectAndSayHello(socketPath)
    guard descriptor >= 0 else { return 1 }
    var buffer = [UInt8](repeating: 0, count: 256 * 1024)
    var lines = 0
    while true {
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        if count <= 0 { break }
        for index in 0..<count where buffer[index] == 0x0A { lines += 1 }
    }
    close(descriptor)
    return lines > 0 ? 0 : 1
}

import Foundation
import OpsKitViewer

/// A raw test client: writes lines, reads lines with a deadline. No protocol logic.
package final class LineClient {
    package let descriptor: Int32
    private var buffer: [UInt8] = []

    package init(_ target: RemoteTarget) throws {
        descriptor = try target.connect().get().descriptor
    }

    /// A client on a connection accepted elsewhere (it closes `descriptor`).
    package init(accepted descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    package func send(_ text: String) {
        send(Array(text.utf8))
    }

    package func send(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes {
                Foundation.send(descriptor, $0.baseAddress, $0.count, UnixSocket.noSignal)
            }
            if sent <= 0 { return }
            offset += sent
        }
    }

    /// The next line, or nil at end of file or after `timeout`.
    package func line(timeout: Duration = .seconds(5)) -> String? {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeFirst(newline + 1)
                return line
            }
            let left = deadline - ContinuousClock.now
            guard left > .zero else { return nil }
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard
                poll(
                    &poller, 1,
                    Int32(max(1, left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000)))
                    > 0
            else { return nil }
            var chunk = [UInt8](repeating: 0, count: 65_536)
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { return nil }
            buffer += chunk[0..<count]
        }
    }

    /// Lines until one contains `text` (nil if none within `timeout`).
    package func line(containing text: String, timeout: Duration = .seconds(5)) -> String? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            guard let next = line(timeout: deadline - ContinuousClock.now) else { return nil }
            if next.contains(text) { return next }
        }
        return nil
    }

    /// Whether the server closed the connection within `timeout` (lines before it are skipped).
    package func closed(timeout: Duration = .seconds(5)) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 50) > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 65_536)
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count <= 0 { return true }
        }
        return false
    }
}

import Foundation
import OpsKit
import OpsMonitor
import OpsWire

public enum JSONLinesBench {
    /// A realistic event stream: per operation added, waiting→ready, ready→executing, three
    /// progress events (300 ms apart, so none is coalesced), executing→finished.
    public static func events(count: Int) -> [MonitorEvent] {
        var events: [MonitorEvent] = []
        events.reserveCapacity(count)
        var id = 0
        var ms = 0
        while events.count < count {
            id += 1
            ms += 1
            let t = Duration.milliseconds(ms)
            events.append(
                .added(
                    time: t, id: id, name: "download-\(id).bin", kind: .download, totalBytes: 4_000_000,
                    dependencies: id > 1 ? [id - 1] : []))
            events.append(.state(time: t, id: id, from: nil, to: .waiting, outcome: nil, message: nil))
            events.append(.state(time: t, id: id, from: .waiting, to: .ready, outcome: nil, message: nil))
            events.append(.state(time: t, id: id, from: .ready, to: .executing, outcome: nil, message: nil))
            for step in 1...3 {
                events.append(
                    .progress(
                        time: t + .milliseconds(300 * step), id: id, completedBytes: Int64(step) * 1_000_000,
                        totalBytes: 4_000_000, bytesPerSecond: 3_333_333.3, retries: 0))
            }
            events.append(
                .state(
                    time: t + .seconds(1), id: id, from: .executing, to: .finished, outcome: .succeeded, message: nil))
        }
        return Array(events.prefix(count))
    }

    /// Encodes `events` as JSON Lines and writes them to `fd` in slices of `HeadlessRunner`'s
    /// size (4,096 events), the way `opsdash --headless` does: each slice encoded as bytes into
    /// one array, then written whole; returns seconds.
    public static func encodeAndWrite(_ events: [MonitorEvent], fd: Int32) -> Double {
        var encoder = JSONLinesEncoder()
        return time {
            var start = 0
            while start < events.count {
                let end = min(events.count, start + 4096)
                var bytes: [UInt8] = []
                bytes.reserveCapacity((end - start) * 128)
                for event in events[start..<end] { encoder.encode(event, into: &bytes) }
                write(bytes, fd: fd)
                start = end
            }
        }
    }

    static func write(_ bytes: [UInt8], fd: Int32) {
        bytes.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            var offset = 0
            while offset < buffer.count {
                let written = Foundation.write(fd, base + offset, buffer.count - offset)
                if written <= 0 { break }
                offset += written
            }
        }
    }

    public static func openDevNull() -> Int32 { open("/dev/null", O_WRONLY) }
}

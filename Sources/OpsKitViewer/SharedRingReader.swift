import Atomics
import OpsWire

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A viewer's read-only mapping of a publisher's shared-memory delta stream (`SharedRingLayout`):
/// copies the whole lines written since a stream position, and notices when the writer has
/// already overwritten them (the viewer fell more than the ring behind: it must resync). Public
/// for Swift clients of the protocol; `RemoteViewer` uses it when the publisher offers a stream.
@_spi(OpsDashInternals) public final class SharedRingReader {
    /// What a read found.
    @_spi(OpsDashInternals) public enum Read: Equatable, Sendable {
        /// Nothing new after the position.
        case caughtUp
        /// This many bytes (whole lines) were appended to the buffer; the position moved on.
        case bytes(Int)
        /// The lines after the position are gone (overwritten): resync.
        case lagged
    }

    /// Bytes of stream the ring holds.
    @_spi(OpsDashInternals) public let capacity: Int
    private let base: UnsafeMutableRawPointer
    private let length: Int

    /// The largest stream mapped: a header and 1 GiB of data.
    static let maximumLength = SharedRingLayout.headerBytes + (1 << 30)

    /// Maps the stream at `path`; nil when it cannot be opened (another user's process) or is
    /// not a stream. The path comes from a peer, so it is opened without waiting (a FIFO or a
    /// device named there never blocks the viewer, nor becomes its terminal) and mapped only when
    /// it is a regular file of this process's own uid, of a stream's size.
    @_spi(OpsDashInternals) public init?(path: String) {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, Self.isStream(status, owner: geteuid()) else { return nil }
        let length = Int(status.st_size)
        guard let mapped = mmap(nil, length, PROT_READ, MAP_SHARED, descriptor, 0), mapped != MAP_FAILED else {
            return nil
        }
        let magic = SharedRingLayout.word(mapped, SharedRingLayout.magicOffset).load(ordering: .acquiring)
        let capacity = Int(
            truncatingIfNeeded: SharedRingLayout.word(mapped, SharedRingLayout.capacityOffset).load(ordering: .relaxed))
        guard magic == SharedRingLayout.magic, capacity > 0, SharedRingLayout.headerBytes + capacity == length else {
            munmap(mapped, length)
            return nil
        }
        self.base = mapped
        self.length = length
        self.capacity = capacity
    }

    deinit {
        munmap(base, length)
    }

    /// Whether `status` is that of a file a stream may be in: a regular file owned by `owner`,
    /// longer than the header and no longer than `maximumLength`.
    static func isStream(_ status: stat, owner: uid_t) -> Bool {
        status.st_mode & S_IFMT == S_IFREG && status.st_uid == owner
            && Int(status.st_size) > SharedRingLayout.headerBytes && Int(status.st_size) <= maximumLength
    }

    /// The stream position after the last whole line written.
    @_spi(OpsDashInternals) public var end: UInt64 {
        SharedRingLayout.word(base, SharedRingLayout.endOffset).load(ordering: .acquiring)
    }

    /// Appends to `buffer` up to `limit` bytes of the lines written after `position` (always
    /// whole lines: the writer writes whole lines and a cut line waits for the next read), and
    /// moves `position` past them.
    @_spi(OpsDashInternals) public func read(
        from position: inout UInt64, into buffer: inout [UInt8], limit: Int = 1 << 20
    ) -> Read {
        let end = self.end
        guard end > position else { return end == position ? .caughtUp : .lagged }
        guard end - position <= UInt64(capacity) else { return .lagged }
        let count = Int(min(end - position, UInt64(max(1, limit))))
        let start = buffer.count
        buffer.reserveCapacity(start + count)
        let data = UnsafeRawPointer(base + SharedRingLayout.headerBytes)
        var copied = 0
        var offset = Int(position % UInt64(capacity))
        while copied < count {
            let piece = min(count - copied, capacity - offset)
            buffer.append(contentsOf: UnsafeRawBufferPointer(start: data + offset, count: piece))
            copied += piece
            offset = (offset + piece) % capacity
        }
        // Were any of these bytes overwritten while they were copied? The writer announces how
        // far it writes before it copies: anything up to `reserved - capacity` may be gone.
        atomicMemoryFence(ordering: .acquiring)
        let reserved = SharedRingLayout.word(base, SharedRingLayout.reservedOffset).load(ordering: .relaxed)
        guard reserved <= position + UInt64(capacity) else {
            buffer.removeSubrange(start...)
            return .lagged
        }
        // Keep whole lines only (a limit may cut one).
        if count < Int(end - position) {
            guard let lastNewline = buffer[start...].lastIndex(of: UInt8(ascii: "\n")) else {
                buffer.removeSubrange(start...)
                return .caughtUp
            }
            buffer.removeSubrange((lastNewline + 1)...)
        }
        let taken = buffer.count - start
        position += UInt64(taken)
        return taken > 0 ? .bytes(taken) : .caughtUp
    }
}

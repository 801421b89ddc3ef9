import Atomics
import CSharedMemory
import NIOCore
import OpsWire

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The publisher's side of the shared-memory delta stream: every numbered line, written once
/// into an anonymous memory file that local viewers map read-only (`/proc/PID/fd/N`), so a viewer
/// on the same host costs the app no copy and no write per change. See `SharedRingLayout`.
///
/// Used only on the publisher's event loop (inside `PublisherCore`, which lives in the engine's
/// `NIOLoopBoundBox`); readers in other processes see it through their own mapping and the
/// header's atomic words.
final class SharedRingWriter {
    /// Where a viewer of the same user opens the stream.
    let path: String
    /// Bytes of stream the ring holds.
    let capacity: Int
    private let descriptor: Int32
    private let base: UnsafeMutableRawPointer
    private let length: Int
    /// The stream position after the last line written.
    private(set) var end: UInt64 = 0

    /// A ring of `capacity` bytes, or nil where the system has no anonymous memory files.
    init?(capacity: Int, name: String = "opsdash-stream") {
        let capacity = max(4_096, capacity)
        let descriptor = opsdash_memory_file(name)
        guard descriptor >= 0 else { return nil }
        let length = SharedRingLayout.headerBytes + capacity
        guard ftruncate(descriptor, off_t(length)) == 0,
            let mapped = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_SHARED, descriptor, 0),
            mapped != MAP_FAILED
        else {
            close(descriptor)
            return nil
        }
        self.descriptor = descriptor
        self.base = mapped
        self.length = length
        self.capacity = capacity
        self.path = "/proc/\(getpid())/fd/\(descriptor)"
        SharedRingLayout.word(mapped, SharedRingLayout.capacityOffset).store(UInt64(capacity), ordering: .relaxed)
        SharedRingLayout.word(mapped, SharedRingLayout.magicOffset).store(SharedRingLayout.magic, ordering: .releasing)
    }

    deinit {
        munmap(base, length)
        close(descriptor)
    }

    /// Appends whole lines (the readable bytes of `batch`) to the stream.
    func write(_ batch: ByteBuffer) {
        batch.withUnsafeReadableBytes { write($0) }
    }

    /// Appends whole lines to the stream: announces how far it writes, copies (wrapping at the
    /// end of the data area), then publishes the new end.
    func write(_ bytes: UnsafeRawBufferPointer) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        let newEnd = end + UInt64(bytes.count)
        SharedRingLayout.word(base, SharedRingLayout.reservedOffset).store(newEnd, ordering: .relaxed)
        atomicMemoryFence(ordering: .releasing)
        let data = base + SharedRingLayout.headerBytes
        // Only the last `capacity` bytes of an oversized write can be kept.
        var skip = max(0, bytes.count - capacity)
        var position = Int((end + UInt64(skip)) % UInt64(capacity))
        while skip < bytes.count {
            let count = min(bytes.count - skip, capacity - position)
            (data + position).copyMemory(from: source + skip, byteCount: count)
            skip += count
            position = (position + count) % capacity
        }
        end = newEnd
        SharedRingLayout.word(base, SharedRingLayout.endOffset).store(newEnd, ordering: .releasing)
    }
}

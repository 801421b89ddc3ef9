import Atomics
import OpsMonitor

/// The layout of the shared-memory delta stream (docs/PROTOCOL.md, "Shared-memory stream"): a
/// 4 KiB header, then `capacity` bytes of data written as an endless stream of whole JSON lines,
/// byte `n` of the stream at data offset `n % capacity`.
///
/// Header (little-endian 64-bit words): `magic`, `capacity`, `reserved` (the stream position
/// the writer is writing up to: set before it copies), `end` (the position of the last whole
/// line written: set after it copies).
package enum SharedRingLayout {
    package static let magic: UInt64 = 0x3147_4E49_5253_504F  // "OPSRING1" read as a little-endian word
    package static let headerBytes = 4_096
    package static let magicOffset = 0
    package static let capacityOffset = 8
    package static let reservedOffset = 16
    package static let endOffset = 24

    /// The atomic word at `offset` in a mapping starting at `base`.
    package static func word(_ base: UnsafeMutableRawPointer, _ offset: Int) -> UnsafeAtomic<UInt64> {
        UnsafeAtomic(at: (base + offset).assumingMemoryBound(to: UInt64.AtomicRepresentation.self))
    }
}

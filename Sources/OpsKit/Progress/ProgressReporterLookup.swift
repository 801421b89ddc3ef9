import Foundation
import Synchronization

/// Answers "does this operation report progress?" per class from a small cache: a protocol
/// cast costs ~20 ns (a conformance lookup), a cache hit ~7 ns (mostly `type(of:)`), and the
/// monitor asks for every operation that starts and finishes.
package enum ProgressReporterLookup {
    /// Direct-mapped by class: each slot holds a class's metadata address with bit 1 set
    /// ("known") and bit 0 set when it conforms; 0 when empty. Metadata is at least 8-aligned,
    /// so the low bits are free. A slot is one word, written whole, so a reader sees either an
    /// old answer or a new one (each true): relaxed ordering suffices.
    private final class Slots: @unchecked Sendable {
        // Locking: every access goes through the atomics in `words`; the pointer never changes.
        static let count = 64
        let words: UnsafeMutablePointer<Atomic<UInt>>

        init() {
            words = .allocate(capacity: Self.count)
            for index in 0..<Self.count { (words + index).initialize(to: Atomic(0)) }
        }
    }

    private static let slots = Slots()

    /// `operation` as a progress reporter, or nil.
    package static func reporter(_ operation: Operation) -> (any ProgressReportingOperation)? {
        reportsProgress(operation) ? operation as? any ProgressReportingOperation : nil
    }

    /// Whether `operation`'s class adopts `ProgressReportingOperation`.
    package static func reportsProgress(_ operation: Operation) -> Bool {
        let type = UInt(bitPattern: ObjectIdentifier(type(of: operation)))
        let index = Int(truncatingIfNeeded: (type >> 4) ^ (type >> 10)) & (Slots.count - 1)
        let word = slots.words[index].load(ordering: .relaxed)
        if word & ~UInt(3) == type, word & 2 != 0 { return word & 1 != 0 }
        let conforms = operation is any ProgressReportingOperation
        slots.words[index].store(type | 2 | (conforms ? 1 : 0), ordering: .relaxed)
        return conforms
    }
}

extension Operation {
    /// This operation as a progress reporter, if its class adopts `ProgressReportingOperation`
    /// (answered per class from a cache).
    package var progressReporter: (any ProgressReportingOperation)? {
        ProgressReporterLookup.reporter(self)
    }
}

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

        /// Whether `operation`'s class passes `check` (asked once per class while it stays cached).
        func answer(_ operation: Operation, _ check: (Operation) -> Bool) -> Bool {
            let type = UInt(bitPattern: ObjectIdentifier(type(of: operation)))
            let index = Int(truncatingIfNeeded: (type >> 4) ^ (type >> 10)) & (Self.count - 1)
            let word = words[index].load(ordering: .relaxed)
            if word & ~UInt(3) == type, word & 2 != 0 { return word & 1 != 0 }
            let conforms = check(operation)
            words[index].store(type | 2 | (conforms ? 1 : 0), ordering: .relaxed)
            return conforms
        }
    }

    private static let slots = Slots()
    private static let foundationSlots = Slots()

    /// `operation` as a progress reporter, or nil.
    package static func reporter(_ operation: Operation) -> (any ProgressReportingOperation)? {
        reportsProgress(operation) ? operation as? any ProgressReportingOperation : nil
    }

    /// Whether `operation`'s class adopts `ProgressReportingOperation`.
    package static func reportsProgress(_ operation: Operation) -> Bool {
        slots.answer(operation) { $0 is any ProgressReportingOperation }
    }

    /// Whether `operation`'s class hands out a Foundation `Progress` to read
    /// (`FoundationProgressProviding` or `ProgressReporting`) and does not adopt
    /// `ProgressReportingOperation` (which publishes its own).
    package static func providesFoundationProgress(_ operation: Operation) -> Bool {
        foundationSlots.answer(operation) { op in
            !(op is any ProgressReportingOperation)
                && (op is any FoundationProgressProviding || op is any ProgressReporting)
        }
    }
}

extension Operation {
    /// This operation as a progress reporter, if its class adopts `ProgressReportingOperation`
    /// (answered per class from a cache).
    package var progressReporter: (any ProgressReportingOperation)? {
        ProgressReporterLookup.reporter(self)
    }
}

import Foundation
import Synchronization

/// Answers "does this operation report progress?" per class from a small cache: a protocol
/// cast costs ~20 ns (a conformance lookup), a cache hit ~7 ns (mostly `type(of:)`), and the
/// monitor asks for every operation that starts and finishes.
package enum ProgressReporterLookup {
    /// Direct-mapped by class: each slot holds a class's metadata address with bit 2 set
    /// ("known") and the answer (0–3) in bits 0 and 1; 0 when empty. Metadata is at least
    /// 8-aligned, so the low bits are free. A slot is one word, written whole, so a reader sees
    /// either an old answer or a new one (each true): relaxed ordering suffices.
    private final class Slots: @unchecked Sendable {
        // Locking: every access goes through the atomics in `words`; the pointer never changes.
        static let count = 64
        let words: UnsafeMutablePointer<Atomic<UInt>>

        init() {
            words = .allocate(capacity: Self.count)
            for index in 0..<Self.count { (words + index).initialize(to: Atomic(0)) }
        }

        /// `check`'s answer (0–3) for `operation`'s class (asked once per class while it stays
        /// cached).
        func answer(_ operation: Operation, _ check: (Operation) -> UInt) -> UInt {
            let type = UInt(bitPattern: ObjectIdentifier(type(of: operation)))
            let index = Int(truncatingIfNeeded: (type >> 4) ^ (type >> 10)) & (Self.count - 1)
            let word = words[index].load(ordering: .relaxed)
            if word & ~UInt(7) == type, word & 4 != 0 { return word & 3 }
            let answer = check(operation) & 3
            words[index].store(type | 4 | answer, ordering: .relaxed)
            return answer
        }
    }

    /// How an operation's progress is read, per class.
    package enum Source: UInt {
        /// It reports none.
        case none = 0
        /// It adopts `ProgressReportingOperation` (its reports are pushed).
        case reporter = 1
        /// It hands out a Foundation `Progress` to read (`FoundationProgressProviding` or
        /// `ProgressReporting`) and does not adopt `ProgressReportingOperation`.
        case foundation = 2
    }

    private static let slots = Slots()

    /// How `operation`'s progress is read: one cached answer per class for every kind.
    package static func source(of operation: Operation) -> Source {
        let answer = slots.answer(operation) { op in
            if op is any ProgressReportingOperation { return Source.reporter.rawValue }
            if op is any FoundationProgressProviding || op is any ProgressReporting {
                return Source.foundation.rawValue
            }
            return Source.none.rawValue
        }
        return Source(rawValue: answer) ?? .none
    }

    /// `operation` as a progress reporter, or nil.
    package static func reporter(_ operation: Operation) -> (any ProgressReportingOperation)? {
        reportsProgress(operation) ? operation as? any ProgressReportingOperation : nil
    }

    /// Whether `operation`'s class adopts `ProgressReportingOperation`.
    package static func reportsProgress(_ operation: Operation) -> Bool {
        source(of: operation) == .reporter
    }

    /// Whether `operation`'s class hands out a Foundation `Progress` to read
    /// (`FoundationProgressProviding` or `ProgressReporting`) and does not adopt
    /// `ProgressReportingOperation` (which publishes its own).
    package static func providesFoundationProgress(_ operation: Operation) -> Bool {
        source(of: operation) == .foundation
    }
}

extension Operation {
    /// This operation as a progress reporter, if its class adopts `ProgressReportingOperation`
    /// (answered per class from a cache).
    package var progressReporter: (any ProgressReportingOperation)? {
        ProgressReporterLookup.reporter(self)
    }
}

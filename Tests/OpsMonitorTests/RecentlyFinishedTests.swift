import Foundation
import OpsKit
import Testing

@testable import OpsMonitor

/// The ring of recent finishes keeps the newest `bound` of them, whether its table by
/// operation is built before it wraps, after, or never.
@Suite struct RecentlyFinishedTests {
    @Test func keepsTheNewestFinishesAcrossWrapsWithTheTableBuiltAtAnyPoint() {
        let ops = (0..<11).map { _ in ClosureOperation {} }
        for askFrom in [0, 2, 3, 7, 11] {
            var recent = RecentlyFinished()
            func expectNewestThree(after count: Int) {
                for (seen, earlier) in ops.prefix(count).enumerated() {
                    let expected = seen >= count - 3 ? 100 + seen : nil
                    #expect(recent.id(of: earlier) == expected, "after \(count), asked from \(askFrom)")
                }
            }
            for (index, op) in ops.enumerated() {
                recent.record(op, id: 100 + index, bound: 3)
                #expect(recent.count == min(index + 1, 3))
                // Not asked before `askFrom`: the table is built at the first question.
                if index + 1 >= askFrom { expectNewestThree(after: index + 1) }
            }
            expectNewestThree(after: ops.count)
        }
    }

    @Test func anOperationNeverRecordedIsNotFound() {
        var recent = RecentlyFinished()
        let kept = ClosureOperation {}
        recent.record(kept, id: 1, bound: 2)
        #expect(recent.id(of: ClosureOperation {}) == nil)
        #expect(recent.id(of: kept) == 1)
    }
}

import Dispatch
import Testing
@testable import OpsMonitor

@Suite struct SpinLockedTests {
    /// Eight threads on two cores (so holders get preempted mid-section): no increment is lost,
    /// and no two threads are ever inside at once.
    @Test func contendedIncrementsAreNeitherLostNorOverlapping() {
        struct Counter: Sendable {
            var total = 0
            var inside = 0
            var overlaps = 0
        }
        let counter = SpinLocked(Counter())
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<20_000 {
                counter.withLock { c in
                    c.inside += 1
                    if c.inside > 1 { c.overlaps += 1 }
                    c.total += 1
                    c.inside -= 1
                }
            }
        }
        let result = counter.withLock { $0 }
        #expect(result.total == 160_000)
        #expect(result.overlaps == 0)
    }
}

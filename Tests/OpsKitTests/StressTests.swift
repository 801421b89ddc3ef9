import Foundation
import Synchronization
import OpsKitTesting
import Testing
@testable import OpsKit

/// A transfer that counts its deinits, to prove nothing leaks.
final class CountedDownload: SimulatedWorkOperation, @unchecked Sendable {
    static let alive = Atomic<Int>(0)
    init(name: String, plan: TransferPlan, clock: any SimulationClock, random: SeededGenerator) {
        Self.alive.add(1, ordering: .relaxed)
        super.init(kind: .download, name: name, plan: plan, clock: clock, random: random)
    }
    deinit { Self.alive.subtract(1, ordering: .relaxed) }
}

@Suite(.ownThread, .serialized) struct StressTests {
    @Test func tenThousandTransfersWithRandomCancelsSuspendsAndLimitChanges() {
        let finishes = Atomic<Int>(0)
        let completions = Atomic<Int>(0)
        let duplicateFinish = Atomic<Int>(0)
        let drained: Bool = {
            let clock = LiveClock(speed: 5_000)
            let queue = ObservableOperationQueue()
            queue.maxConcurrentOperationCount = 16
            var random = SeededGenerator(seed: 42)
            var ops: [CountedDownload] = []
            var tokens: [NSKeyValueObservation] = []
            for index in 0..<10_000 {
                let plan = TransferPlan(
                    totalBytes: Int64.random(in: 1_000...50_000, using: &random), bandwidth: 1_000_000,
                    failure: index % 13 == 0 ? FailurePlan(atFraction: 0.3, message: "x", failingAttempts: 1) : nil,
                    maxRetries: 1, retryBackoff: .milliseconds(5), chunkBytes: 10_000)
                let op = CountedDownload(
                    name: "t\(index)", plan: plan, clock: clock, random: random.derived(UInt64(index)))
                if index >= 100, index % 7 == 0 { op.addDependency(ops[index - 100]) }
                let seen = Atomic<Bool>(false)
                op.completionBlock = { completions.add(1, ordering: .relaxed) }
                tokens.append(
                    op.observe(\.isFinished, options: [.new]) { _, change in
                        guard change.newValue == true else { return }
                        finishes.add(1, ordering: .relaxed)
                        if seen.exchange(true, ordering: .relaxed) { duplicateFinish.add(1, ordering: .relaxed) }
                    })
                ops.append(op)
            }
            let all = ops
            DispatchQueue.concurrentPerform(iterations: 4) { worker in
                var local = SeededGenerator(seed: UInt64(worker))
                for step in 0..<2_500 {
                    let op = all[worker * 2_500 + step]
                    queue.addOperation(op)
                    switch Int.random(in: 0..<100, using: &local) {
                    case 0..<5: all[Int.random(in: 0..<all.count, using: &local)].cancel()
                    case 5: queue.isSuspended = true
                    case 6, 7: queue.isSuspended = false
                    case 8: queue.maxConcurrentOperationCount = Int.random(in: 1...32, using: &local)
                    default: break
                    }
                }
            }
            queue.isSuspended = false
            queue.waitUntilAllOperationsAreFinished()
            let done = ops.allSatisfy(\.isFinished)
            #expect(queue.allOperationCount == 0)
            #expect(queue.operationCount == 0)
            #expect(queue.heldOperationCount == 0)
            tokens.forEach { $0.invalidate() }
            return done
        }()
        #expect(drained)
        #expect(finishes.load(ordering: .relaxed) == 10_000)
        #expect(duplicateFinish.load(ordering: .relaxed) == 0)
        #expect(eventually { completions.load(ordering: .relaxed) == 10_000 }, "every completion block once")
        #expect(eventually { CountedDownload.alive.load(ordering: .relaxed) == 0 }, "no operation leaks")
    }
}

import Dispatch
import Foundation
import OpsKit
import OpsKitTesting
import Testing
@testable import OpsMonitor

/// Thousands of short operations through a limit-N queue with a monitor attached: in the order
/// the monitor records them, no more than N operations are ever executing (the promise the
/// headless stream makes), and per-operation `isExecuting` observers see the same.
///
/// Seeded: `OPSDASH_STRESS_SEED=<n>` replays one run; a failure names its seed.
@Suite(.ownThread, .serialized) struct MonitorStreamStressTests {
    static let seeds: [UInt64] = {
        if let text = ProcessInfo.processInfo.environment["OPSDASH_STRESS_SEED"], let seed = UInt64(text) {
            return [seed]
        }
        return [1, 2, 3, 4]
    }()

    /// Fewer under ThreadSanitizer, which makes every step ~10 times slower.
    #if OPSDASH_TSAN
    static let operationCount = 300
    #else
    static let operationCount = 1_500
    #endif

    @Test(arguments: seeds)
    func executingNeverExceedsTheLimitInRecordedOrder(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let limit = Int.random(in: 1...4, using: &random)
        let queue = ObservableOperationQueue()
        queue.maxConcurrentOperationCount = limit
        let monitor = QueueMonitor(queue: queue, clock: LiveClock(), recordEvents: true)
        let log = ExecutionLog()
        let ops = (0..<Self.operationCount).map { index -> ManualOperation in
            // Most finish from another thread while `start()` is still returning on its own:
            // the race between a finish and the queue's next start.
            let style = Int.random(in: 0..<10, using: &random)
            return ManualOperation(name: "op\(index)") { op in
                switch style {
                case 0: op.finish()
                case 1..<5: DispatchQueue.global().async { op.finish() }
                default:
                    // Returns from `start()` just as the other thread publishes the finish.
                    DispatchQueue.global().async { op.finish() }
                    let until = ContinuousClock.now + .microseconds(200)
                    while !op.isFinished, ContinuousClock.now < until {}
                }
            }
        }
        let tokens = ops.map { watch($0, log, limit: { limit }) }
        queue.addOperations(ops, waitUntilFinished: false)
        queue.waitUntilAllOperationsAreFinished()
        #expect(eventually { monitor.subscribedOperationCount == 0 }, "seed \(seed)")
        let events = monitor.drainEvents()
        var executing = 0
        var peak = 0
        var overLimit: [String] = []
        var finished = 0
        for case .state(_, let id, let from, let to, _, _) in events {
            if to == .executing {
                executing += 1
                peak = max(peak, executing)
                if executing > limit, overLimit.count < 5 {
                    overLimit.append("#\(id) started as number \(executing)")
                }
            }
            if from == .executing { executing -= 1 }
            if to == .finished { finished += 1 }
        }
        #expect(finished == ops.count, "seed \(seed)")
        #expect(executing == 0, "seed \(seed)")
        #expect(overLimit == [], "seed \(seed), limit \(limit): recorded order exceeds the limit")
        #expect(log.violations.prefix(5) == [], "seed \(seed), limit \(limit): isExecuting observers")
        #expect(peak >= 1, "seed \(seed)")
        tokens.forEach { $0.invalidate() }
        monitor.stop()
    }
}

import Foundation
import OpsKitTesting
import Synchronization
import Testing

@testable import OpsKit

/// Counts every read of `isFinished` on its instances (what walking a dependency list costs).
final class ReadCountingOperation: AsyncOperation, @unchecked Sendable {
    // Locking: `reads` is an atomic.
    let reads = Atomic<Int>(0)
    override func didReadIsFinished(_ value: Bool) { reads.add(1, ordering: .relaxed) }
}

/// `addDependency` on a wide fan-in: a finished dependency is not watched, one added to a
/// waiting operation needs no readiness check, and readiness is still published exactly when
/// the last dependency finishes.
@Suite struct AddDependencyTests {
    /// An operation (never started) that finishes at once when `finish()` is called.
    static func finished(_ name: String) -> ManualOperation {
        let op = ManualOperation(name: name)
        op.start()
        op.finish()
        return op
    }

    @Test func finishedDependenciesAreNotWatchedAndReadinessStaysRight() {
        let sink = ManualOperation(name: "sink")
        let done = (0..<20_000).map { Self.finished("s\($0)") }
        for dependency in done { sink.addDependency(dependency) }
        #expect(done.allSatisfy { $0.locked.withLock { $0.finishListeners.isEmpty } }, "nothing watches them")
        #expect(sink.isReady)
        let last = ManualOperation(name: "last")
        sink.addDependency(last)
        #expect(!sink.isReady)
        #expect(sink.dependencies.count == 20_001)
        let readiness = Recorder()
        let token = sink.observe(\.isReady, options: [.new]) { _, change in
            if let value = change.newValue { readiness.add("\(value)") }
        }
        last.start()
        last.finish()
        #expect(readiness.all == ["true"], "ready published once, when the last one finished")
        #expect(sink.isReady)
        _ = token
    }

    /// Adding 2,000 dependencies, finished or waiting, reads none of them back (two walks of
    /// the list per add read them about 4 million times).
    @Test func addingDependenciesDoesNotWalkTheList() {
        let finished = (0..<1_000).map { _ in
            let op = ReadCountingOperation()
            op.start()  // `execute()` finishes it
            return op
        }
        let waiting = (0..<1_000).map { _ in ReadCountingOperation() }
        let sink = ManualOperation(name: "sink")
        for dependency in finished + waiting { sink.addDependency(dependency) }
        let reads = (finished + waiting).reduce(0) { $0 + $1.reads.load(ordering: .relaxed) }
        #expect(reads < 4_000, "\(reads) reads of isFinished")
        #expect(!sink.isReady)
    }

    @Test func aWaitingOperationStaysWaitingAsMoreDependenciesComeAndIsReadyAfterTheLast() {
        let sink = ManualOperation(name: "sink")
        let sources = (0..<5_000).map { ManualOperation(name: "s\($0)") }
        for source in sources { sink.addDependency(source) }
        #expect(!sink.isReady)
        #expect(sink.locked.withLock { $0.watchedDependencies } == 5_000)
        let readiness = Recorder()
        let token = sink.observe(\.isReady, options: [.new]) { _, change in
            if let value = change.newValue { readiness.add("\(value)") }
        }
        for source in sources.dropLast() {
            source.start()
            source.finish()
        }
        #expect(readiness.all.isEmpty)
        sources.last?.start()
        sources.last?.finish()
        #expect(readiness.all == ["true"])
        _ = token
    }
}

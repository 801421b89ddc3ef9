#if !canImport(ObjectiveC)
import Foundation
import OpsKitTesting
import Testing
@testable import OpsKit

/// Finishes as soon as it starts; observed through key paths rooted at its own type.
class FinishingOperation: AsyncOperation, @unchecked Sendable {
    override func execute() { finish() }
}

/// Overrides `isReady` (the one overridable state property) in a non-final class.
class OverridingOperation: FinishingOperation, @unchecked Sendable {
    override var isReady: Bool { super.isReady }
}

/// A subclass of a subclass that overrides the properties.
final class GrandchildOperation: OverridingOperation, @unchecked Sendable {}

/// A generic subclass: its key paths are rooted at a generic class type.
final class GenericOperation<Payload: Sendable>: FinishingOperation, @unchecked Sendable {}

/// Reports progress, then finishes.
final class ReportingOperation: FinishingOperation, ProgressReportingOperation, @unchecked Sendable {
    let kind = OperationKind.process
    let progressStorage = ProgressStorage(total: 4, unit: .items)
}

/// An app's queue subclass.
final class AppQueue: ObservableOperationQueue, @unchecked Sendable {}

/// An app's operation with a property of its own, published and listed.
final class TaggedOperation: FinishingOperation, ListsObservableKeyPaths, @unchecked Sendable {
    let _tag = ObservedProperty("tag", "")
    var tag: String { _tag.value }
    var unlisted: Int { 0 }
    /// Stored and unlisted: matched by its name. Only set by the test's thread.
    var stored = 0
    static var observableKeyPaths: [AnyKeyPath: String] { [\TaggedOperation.tag: "tag"] }
    func retag(_ value: String) { _tag.set(value, publishingOn: self) }
}

/// Overrides `isReady` in a final class: its key path can't be matched to the published one.
final class FinalReadyOperation: FinishingOperation, @unchecked Sendable {
    override var isReady: Bool { super.isReady }
}

/// Observes `keyPath` on `object` with every option and records what arrives.
func observeAll<Root: KeyValueObservingPublisher, Value>(
    _ object: Root, _ keyPath: KeyPath<Root, Value>, into recorder: Recorder
) -> NSKeyValueObservation {
    object.observe(keyPath, options: [.initial, .prior, .old, .new]) { _, change in
        let old = change.oldValue.map { "\($0)" } ?? "-"
        let new = change.newValue.map { "\($0)" } ?? "-"
        recorder.add("\(change.isPrior ? "prior" : "change") \(old)→\(new)")
    }
}

/// What `observeAll` records for a property going from `old` to `new` once.
func oneChange(_ old: String, _ new: String) -> [String] {
    ["change -→\(old)", "prior \(old)→-", "change \(old)→\(new)"]
}

@Suite(.ownThread) struct KVOSubclassRootTests {
    /// Observes the three state properties of `operation` through key paths rooted at `Op`,
    /// cancels nothing and runs it: each must report its change.
    func expectStateChanges<Op: AsyncOperation>(of operation: Op) {
        let finished = Recorder()
        let executing = Recorder()
        let tokens = [
            observeAll(operation, \Op.isFinished, into: finished),
            observeAll(operation, \Op.isExecuting, into: executing),
        ]
        operation.start()
        #expect(finished.all == oneChange("false", "true"))
        #expect(executing.all == oneChange("false", "true") + ["prior true→-", "change true→false"])
        _ = tokens
    }

    func expectCancelChange<Op: AsyncOperation>(of operation: Op) {
        let cancelled = Recorder()
        let token = observeAll(operation, \Op.isCancelled, into: cancelled)
        operation.cancel()
        #expect(cancelled.all == oneChange("false", "true"))
        _ = token
    }

    @Test func aSubclassRootedKeyPathReceivesStateChanges() {
        expectStateChanges(of: FinishingOperation())
        expectCancelChange(of: FinishingOperation())
    }

    @Test func subclassesOfAnOverridingSubclassReceiveStateChanges() {
        expectStateChanges(of: OverridingOperation())
        expectCancelChange(of: OverridingOperation())
        expectStateChanges(of: GrandchildOperation())
        expectCancelChange(of: GrandchildOperation())
    }

    @Test func aGenericSubclassReceivesStateChanges() {
        expectStateChanges(of: GenericOperation<Int>())
        expectCancelChange(of: GenericOperation<String>())
    }

    @Test func literalKeyPathsOnAnOverridingSubclassReceiveChanges() {
        // The form users write: the key path literal is inferred as rooted at the subclass.
        let operation = GrandchildOperation()
        let recorder = Recorder()
        let finished = operation.observe(\.isFinished, options: [.initial, .prior, .old, .new]) { op, change in
            recorder.add("\(change.isPrior ? "prior" : "change") \(change.newValue.map { "\($0)" } ?? "-")")
            _ = op
        }
        let cancelled = operation.observe(\.isCancelled, options: [.new]) { _, change in
            recorder.add("cancelled \(change.newValue.map { "\($0)" } ?? "-")")
        }
        operation.cancel()
        operation.start()
        #expect(recorder.all == ["change false", "cancelled true", "prior -", "change true"])
        _ = (finished, cancelled)
    }

    @Test func theSameOperationObservedThroughBaseAndSubclassKeyPathsNotifiesBoth() {
        let operation = GrandchildOperation()
        let base: AsyncOperation = operation
        let recorder = Recorder()
        let viaSub = operation.observe(\.isFinished, options: [.new]) { _, c in
            recorder.add("sub \(c.newValue ?? false)")
        }
        let viaBase = base.observe(\.isFinished, options: [.new]) { _, c in recorder.add("base \(c.newValue ?? false)")
        }
        operation.start()
        #expect(recorder.all == ["sub true", "base true"])
        _ = (viaSub, viaBase)
    }

    @Test func aProgressReportingSubclassReceivesProgressThroughItsOwnKeyPath() {
        let operation = ReportingOperation()
        let recorder = Recorder()
        let token = operation.observe(\.reportedProgress, options: [.initial, .prior, .old, .new]) { _, change in
            let old = change.oldValue.map { "\($0.completedUnitCount)" } ?? "-"
            let new = change.newValue.map { "\($0.completedUnitCount)" } ?? "-"
            recorder.add("\(change.isPrior ? "prior" : "change") \(old)→\(new)")
        }
        operation.reportProgress(completed: 3)
        #expect(recorder.all == oneChange("0", "3"))
        _ = token
    }

    @Test func aQueueSubclassReceivesQueueChangesThroughItsOwnKeyPaths() {
        let queue = AppQueue()
        let suspended = Recorder()
        let limit = Recorder()
        let count = Recorder()
        let tokens = [
            observeAll(queue, \.isSuspended, into: suspended),
            observeAll(queue, \.maxConcurrentOperationCount, into: limit),
            observeAll(queue, \.operationCount, into: count),
        ]
        queue.isSuspended = true
        queue.maxConcurrentOperationCount = 3
        let held = ManualOperation(name: "held")
        queue.addOperation(held)
        #expect(suspended.all == oneChange("false", "true"))
        #expect(limit.all == oneChange("-1", "3"))
        #expect(count.all == oneChange("0", "1"))
        held.cancel()
        queue.isSuspended = false
        queue.waitUntilAllOperationsAreFinished()
        _ = tokens
    }

    @Test func anAppsListedPropertyIsObservableThroughItsSubclassKeyPath() {
        let operation = TaggedOperation()
        let recorder = Recorder()
        let token = observeAll(operation, \.tag, into: recorder)
        operation.retag("hot")
        #expect(recorder.all == oneChange("", "hot"))
        _ = token
    }

    @Test func anUnlistedStoredPropertyIsMatchedByItsName() {
        let operation = TaggedOperation()
        let recorder = Recorder()
        let token = observeAll(operation, \.stored, into: recorder)
        operation.publishChange("stored", old: 0, new: 5) { operation.stored = 5 }
        #expect(recorder.all == oneChange("0", "5"))
        _ = token
    }

    @Test func aKeyPathNoPublisherKnowsIsReportedOnceNotIgnored() {
        let reports = Recorder()
        let previous = UnobservableKeyPathReporter.install { reports.add($0) }
        defer { UnobservableKeyPathReporter.install(previous) }
        let tagged = TaggedOperation()
        let ready = FinalReadyOperation()
        let tokens = [
            tagged.observe(\.unlisted) { _, _ in },
            tagged.observe(\.unlisted) { _, _ in },
            ready.observe(\.isReady) { _, _ in },
            ready.observe(\.isFinished) { _, _ in },
        ]
        let mine = reports.all.filter { $0.contains("TaggedOperation") || $0.contains("FinalReadyOperation") }
        #expect(mine.count == 2)
        #expect(mine.allSatisfy { $0.contains("not an observable property of") })
        #expect(mine.contains { $0.contains("FinalReadyOperation") })
        _ = tokens
    }
}
#endif

import Foundation
import OpsKitTesting
import Testing
@testable import OpsKit

/// Observes the four state keys of `op` with every option and records what arrives.
func recordStates(_ op: AsyncOperation, into recorder: Recorder) -> [NSKeyValueObservation] {
    @Sendable func line(_ key: String, _ change: NSKeyValueObservedChange<Bool>) -> String {
        "\(key)\(change.isPrior ? " prior" : "") old=\(change.oldValue.map(String.init) ?? "-") new=\(change.newValue.map(String.init) ?? "-")"
    }
    let options: NSKeyValueObservingOptions = [.old, .new, .prior]
    return [
        op.observe(\.isExecuting, options: options) { _, c in recorder.add(line("executing", c)) },
        op.observe(\.isFinished, options: options) { _, c in recorder.add(line("finished", c)) },
        op.observe(\.isCancelled, options: options) { _, c in recorder.add(line("cancelled", c)) },
        op.observe(\.isReady, options: [.initial, .new]) { _, c in recorder.add(line("ready", c)) },
    ]
}

@Suite(.ownThread) struct NotificationSequenceTests {
    @Test func fullRunSendsPriorThenChangeForEachTransitionInOrder() {
        let recorder = Recorder()
        let op = ManualOperation(name: "a")
        let tokens = recordStates(op, into: recorder)
        op.start()
        op.finish()
        #expect(
            recorder.all == [
                "ready old=- new=true",
                "executing prior old=false new=-", "executing old=false new=true",
                "executing prior old=true new=-", "finished prior old=false new=-",
                "executing old=true new=false", "finished old=false new=true",
            ])
        #expect(op.outcome?.isSucceeded == true)
        _ = tokens
    }

    @Test func cancelBeforeStartGoesReadyToFinishedOnlyWhenTheQueueStartsIt() {
        let queue = ObservableOperationQueue()
        queue.isSuspended = true
        let recorder = Recorder()
        let op = ManualOperation(name: "a") { _ in Issue.record("work ran after cancel") }
        let done = DispatchSemaphore(value: 0)
        op.completionBlock = { done.signal() }
        let tokens = recordStates(op, into: recorder)
        queue.addOperation(op)
        op.cancel()
        #expect(!op.isFinished, "cancelling a waiting operation must not finish it")
        queue.isSuspended = false
        #expect(waitFor(done))
        #expect(
            recorder.all == [
                "ready old=- new=true",
                "cancelled prior old=false new=-", "cancelled old=false new=true",
                "finished prior old=false new=-", "finished old=false new=true",
            ])
        #expect(op.outcome?.isCancelled == true)
        #expect(op.cancelHooks.load(ordering: .relaxed) == 0)
        _ = tokens
    }

    @Test func cancelWhileExecutingCallsTheHookAndFinishesOnce() {
        let recorder = Recorder()
        let op = ManualOperation(name: "a")
        let tokens = recordStates(op, into: recorder)
        op.start()
        op.cancel(reason: "operator")
        op.finish()  // a late callback: ignored
        #expect(
            recorder.all == [
                "ready old=- new=true",
                "executing prior old=false new=-", "executing old=false new=true",
                "cancelled prior old=false new=-", "cancelled old=false new=true",
                "executing prior old=true new=-", "finished prior old=false new=-",
                "executing old=true new=false", "finished old=false new=true",
            ])
        #expect(op.cancelHooks.load(ordering: .relaxed) == 1)
        if case .cancelled(let reason)? = op.outcome {
            #expect(reason == "operator")
        } else {
            Issue.record("not cancelled")
        }
        _ = tokens
    }

    @Test func readinessIsPublishedWhenTheLastDependencyFinishes() {
        let recorder = Recorder()
        let first = ManualOperation(name: "first")
        let second = ManualOperation(name: "second")
        let dependent = ManualOperation(name: "dependent")
        dependent.addDependency(first)
        dependent.addDependency(second)
        let token = dependent.observe(\.isReady, options: [.initial, .new]) { _, c in
            recorder.add("ready \(c.newValue ?? false)")
        }
        first.start(); first.finish()
        #expect(recorder.all == ["ready false"])
        second.start(); second.finish()
        #expect(recorder.all == ["ready false", "ready true"])
        #expect(dependent.isReady)
        _ = token
    }

    @Test func queuePropertiesPublishOldAndNewValues() {
        let queue = ObservableOperationQueue()
        queue.isSuspended = true
        let recorder = Recorder()
        let resumed = DispatchSemaphore(value: 0)
        let tokens = [
            queue.observe(\.isSuspended, options: [.initial, .old, .new, .prior]) { _, c in
                recorder.add(
                    "suspended\(c.isPrior ? " prior" : "") \(c.oldValue.map(String.init) ?? "-")→\(c.newValue.map(String.init) ?? "-")"
                )
                if !c.isPrior, c.oldValue == true, c.newValue == false { resumed.signal() }
            },
            queue.observe(\.maxConcurrentOperationCount, options: [.old, .new]) { _, c in
                recorder.add("limit \(c.oldValue ?? 0)→\(c.newValue ?? 0)")
            },
            queue.observe(\.allOperationCount, options: [.old, .new]) { _, c in
                recorder.add("count \(c.oldValue ?? -1)→\(c.newValue ?? -1)")
            },
            queue.observe(\.allOperations, options: [.new, .old]) { _, c in
                let names = (c.kind == .insertion ? c.newValue : c.oldValue)?.compactMap(\.name) ?? []
                recorder.add("operations \(c.kind == .insertion ? "+" : "-")\(names.joined())")
            },
        ]
        queue.maxConcurrentOperationCount = 2
        // Resuming starts the operation inside the setter, on another thread: it finishes only
        // once the resume was published, so the order below doesn't depend on thread timing.
        let op = ManualOperation(name: "x") { op in
            DispatchQueue.global().async {
                _ = waitFor(resumed, seconds: 10)
                op.finish()
            }
        }
        queue.addOperation(op)
        queue.isSuspended = false
        queue.waitUntilAllOperationsAreFinished()
        #expect(
            recorder.all == [
                "suspended -→true", "limit -1→2", "count 0→1", "operations +x",
                "suspended prior true→-", "suspended true→false",
                "operations -x", "count 1→0",
            ])
        _ = tokens
    }

    @Test func invalidatedOrReleasedTokensStopDelivery() {
        let recorder = Recorder()
        let op = ManualOperation(name: "a")
        let token = op.observe(\.isExecuting, options: [.new]) { _, _ in recorder.add("invalidated one fired") }
        token.invalidate()
        do {
            _ = op.observe(\.isExecuting, options: [.new]) { _, _ in recorder.add("released one fired") }
        }
        op.start()
        op.finish()
        #expect(recorder.all == [])
        #expect(!op.keyValueObservers.hasObservers)
    }

    @Test func observingAndInvalidatingFromManyThreadsIsSafe() {
        let op = ManualOperation(name: "a")
        let recorder = Recorder()
        DispatchQueue.concurrentPerform(iterations: 64) { index in
            for _ in 0..<200 {
                let token = op.observe(\.isFinished, options: [.new]) { _, _ in recorder.add("x") }
                if index % 2 == 0 { token.invalidate() }
            }
        }
        #expect(!op.keyValueObservers.hasObservers)
        let kept = op.observe(\.isFinished, options: [.new]) { _, _ in recorder.add("kept") }
        op.start(); op.finish()
        #expect(recorder.all == ["kept"])
        _ = kept
    }
}

import Foundation
import Synchronization
import OpsKitTesting
import Testing
@testable import OpsKit

/// Captures everything written to file descriptor 1 while `body` runs.
func capturingStandardOutput(_ body: () -> Void) -> String {
    fflush(nil)
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("opskit-stdout-\(UUID().uuidString)").path
    let file = open(path, O_CREAT | O_RDWR | O_TRUNC, 0o600)
    let saved = dup(1)
    dup2(file, 1)
    body()
    fflush(nil)
    dup2(saved, 1)
    close(saved)
    close(file)
    defer { unlink(path) }
    return (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
}

@Suite(.ownThread, .serialized) struct LifecycleGuaranteeTests {
    @Test func cancellingWaitingOperationsNeverFinishesOneBeforeItStarted() {
        let output = capturingStandardOutput {
            for holding in [true, false] {
                let queue = ObservableOperationQueue(holdsWaitingOperations: holding)
                queue.maxConcurrentOperationCount = 2
                var ops: [ManualOperation] = []
                for index in 0..<200 {
                    let op = ManualOperation(name: "op\(index)") { op in
                        DispatchQueue.global().async { op.finish() }
                    }
                    if index >= 4 { op.addDependency(ops[index - 4]) }
                    ops.append(op)
                }
                queue.isSuspended = true
                queue.addOperations(ops, waitUntilFinished: false)
                for op in ops where op.name!.hasSuffix("3") || op.name!.hasSuffix("7") { op.cancel() }
                queue.isSuspended = false
                queue.waitUntilAllOperationsAreFinished()
                for op in ops {
                    #expect(op.isFinished)
                    if op.outcome?.isCancelled == true { continue }
                    #expect(op.outcome?.isSucceeded == true)
                }
            }
        }
        #expect(!output.contains("without being started"), "Foundation complained: \(output.prefix(300))")
    }

    @Test func finishTwiceFinishesOnceAndRunsTheCompletionBlockOnce() {
        let completions = Atomic<Int>(0)
        let done = DispatchSemaphore(value: 0)
        let op = ManualOperation(name: "twice") { op in
            op.finish()
            op.finish()
            op.finish(error: SimulatedTransferError(message: "late", attempt: 1))
        }
        op.completionBlock = {
            completions.add(1, ordering: .relaxed)
            done.signal()
        }
        let queue = ObservableOperationQueue()
        let illegal = recordingIllegalTransitions {
            queue.addOperation(op)
            queue.waitUntilAllOperationsAreFinished()
            #expect(waitFor(done))
        }
        #expect(completions.load(ordering: .relaxed) == 1)
        #expect(op.outcome?.isSucceeded == true, "the first finish wins")
        #expect(illegal.filter { $0.contains("(twice)") } == [], "repeat finishes are idempotent, not illegal")
    }

    @Test func aTransfersLateChunkAfterCancelChangesNothing() {
        let clock = ManualClock()
        let op = DownloadOperation(
            name: "d", plan: TransferPlan(totalBytes: 1_000, bandwidth: 100, chunkBytes: 100), clock: clock)
        let completions = Atomic<Int>(0)
        op.completionBlock = { completions.add(1, ordering: .relaxed) }
        let finishes = Recorder()
        let token = op.observe(\.isFinished, options: [.new]) { _, c in finishes.add("\(c.newValue ?? false)") }
        op.start()
        clock.advance(by: .milliseconds(1_500))  // one chunk in, the next one is scheduled
        #expect(op.completedBytes == 100)
        op.cancel()
        clock.advance(by: .seconds(20))  // the scheduled chunk's time passes
        #expect(op.completedBytes == 100)
        #expect(finishes.all == ["true"])
        #expect(op.outcome?.isCancelled == true)
        #expect(clock.pendingCount == 0)
        _ = token
        _ = completions
    }

    @Test func illegalTransitionsAreReportedAndNotApplied() {
        let op = ManualOperation(name: "reported")
        let illegal = recordingIllegalTransitions {
            op.finish()  // before start
            #expect(op.state == .ready)
            op.start()
            op.start()  // twice
            #expect(op.state == .executing)
        }.filter { $0.contains("(reported)") }
        #expect(illegal.count == 2)
        #expect(illegal[0].contains("finish() before start()"))
        #expect(illegal[1].contains("start() called in state executing"))
        op.finish()
    }

    @Test func transitionTableAllowsOnlyTheThreeMoves() {
        let allowed = OperationState.allCases.flatMap { from in
            OperationState.allCases.filter { from.canTransition(to: $0) }.map { "\(from)>\($0)" }
        }
        #expect(allowed == ["ready>executing", "ready>finished", "executing>finished"])
    }
}

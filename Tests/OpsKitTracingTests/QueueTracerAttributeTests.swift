import Foundation
import InMemoryTracing
import OpsKitTesting
import Testing
import Tracing

@testable import OpsKitTracing

/// The span's attributes (wait, retries, outcome), errors and cancellation.
@Suite(.ownThread) struct QueueTracerAttributeTests {
    struct Failure: Error, CustomStringConvertible {
        var description: String { "disk full" }
    }

    @Test func theWaitBeforeTheStartIsMeasuredOnTheClock() async throws {
        let traced = TracedQueue()
        traced.queue.isSuspended = true
        let operation = ManualOperation(name: "waits")
        traced.queue.addOperation(operation)
        traced.clock.advance(by: .milliseconds(2500))
        traced.queue.isSuspended = false
        #expect(await operation.started())
        traced.clock.advance(by: .seconds(1))
        operation.finish()
        let span = try #require(await traced.finishedSpan(of: operation))
        #expect(span.attributes.get("opskit.operation.wait_seconds") == .double(2.5))
        #expect(span.events.map(\.name) == ["started"])
        let started = try #require(span.events.first).nanosecondsSinceEpoch
        #expect(started == span.startInstant.nanosecondsSinceEpoch + 2_500_000_000)
        #expect(span.endInstant.nanosecondsSinceEpoch == started + 1_000_000_000)
    }

    @Test func aPlainOperationHasNoWait() async throws {
        let traced = TracedQueue()
        let block = BlockOperation {}
        block.name = "plain"
        traced.queue.addOperation(block)
        let span = try #require(await traced.finishedSpan(of: block))
        #expect(span.attributes.get("opskit.operation.wait_seconds") == nil)
        #expect(span.attributes.get("opskit.operation.outcome") == .string("succeeded"))
        #expect(span.status == nil)
    }

    @Test func retriesAttemptsAndKindOfATransfer() async throws {
        let traced = TracedQueue()
        let plan = TransferPlan(
            totalBytes: 100, bandwidth: 100,
            failure: FailurePlan(atFraction: 0.5, message: "reset", failingAttempts: 2), maxRetries: 3,
            retryBackoff: .milliseconds(100))
        let download = DownloadOperation(name: "retried", plan: plan, clock: traced.clock)
        traced.queue.addOperation(download)
        #expect(await traced.clock.run(traced.queue, step: .milliseconds(100)) { download.isFinished })
        let span = try #require(await traced.finishedSpan(of: download))
        #expect(span.operationName == "DownloadOperation")
        #expect(span.attributes.get("opskit.operation.kind") == .string("download"))
        #expect(span.attributes.get("opskit.operation.retries") == .int64(2))
        #expect(span.attributes.get("opskit.operation.attempts") == .int64(3))
        #expect(span.attributes.get("opskit.operation.outcome") == .string("succeeded"))
        #expect(span.errors.isEmpty)
    }

    @Test func aFailureIsRecordedAsAnErrorWithAnErrorStatus() async throws {
        let traced = TracedQueue()
        let operation = ManualOperation(name: "fails") { $0.finish(error: Failure()) }
        traced.queue.addOperation(operation)
        let span = try #require(await traced.finishedSpan(of: operation))
        #expect(span.attributes.get("opskit.operation.outcome") == .string("failed"))
        #expect(span.errors.map { "\($0.error)" } == ["disk full"])
        #expect(span.status == SpanStatus(code: .error, message: "disk full"))
    }

    @Test func aCancellationIsRecordedWithItsReason() async throws {
        let traced = TracedQueue()
        let running = ManualOperation(name: "running")
        traced.queue.isSuspended = true
        let waiting = ManualOperation(name: "waiting")
        traced.queue.addOperations([running, waiting], waitUntilFinished: false)
        waiting.cancel(reason: "by operator")
        traced.queue.isSuspended = false
        #expect(await running.started())
        running.cancel()
        for operation in [running, waiting] {
            let span = try #require(await traced.finishedSpan(of: operation))
            #expect(span.attributes.get("opskit.operation.outcome") == .string("cancelled"))
            #expect(span.events.last?.name == "cancelled")
            #expect(span.errors.isEmpty)
            #expect(span.status == nil)
        }
        let reason = try #require(await traced.finishedSpan(of: waiting)).events.last?.attributes
        #expect(reason?.get("opskit.operation.cancel_reason") == .string("by operator"))
        #expect(
            try #require(await traced.finishedSpan(of: waiting)).attributes.get("opskit.operation.wait_seconds") == nil)
    }
}

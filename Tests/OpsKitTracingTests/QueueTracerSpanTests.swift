import Foundation
import InMemoryTracing
import OpsKitTesting
import Testing
import Tracing

@testable import OpsKitTracing

/// One span per operation, named by class, linked to (or a child of) the context it was added
/// in, linked to its dependencies' spans.
@Suite(.ownThread) struct QueueTracerSpanTests {
    @Test func eachOperationGetsOneSpanNamedAfterItsClass() async throws {
        let traced = TracedQueue()
        let operations = (0..<3).map { ManualOperation(name: "upload-\($0)") { $0.finish() } }
        let block = BlockOperation {}
        block.name = "block"
        traced.queue.addOperations(operations + [block], waitUntilFinished: false)
        #expect(await eventually { traced.tracer.finishedSpans.count == 4 })
        let names = traced.tracer.finishedSpans.map(\.operationName).sorted()
        #expect(names == ["BlockOperation", "ManualOperation", "ManualOperation", "ManualOperation"])
        for span in traced.tracer.finishedSpans {
            #expect(span.attributes.get("opskit.queue") == .string("uploads"))
        }
        #expect(traced.queueTracer.openSpanCount == 0)
    }

    @Test func aCustomSpanNameReplacesTheClassName() async throws {
        let tracer = InMemoryTracer()
        let queue = ObservableOperationQueue()
        queue.addLifecycleListener(QueueTracer(queueName: "q", tracer: tracer, spanName: { _ in "resize" }))
        queue.addOperation(ManualOperation(name: "a") { $0.finish() })
        #expect(await eventually { tracer.finishedSpans.map(\.operationName) == ["resize"] })
    }

    @Test func theSpanIsLinkedToTheContextItWasAddedIn() async throws {
        let traced = TracedQueue()
        let request = traced.tracer.startSpan("request", context: .topLevel)
        let operation = ManualOperation(name: "linked") { $0.finish() }
        ServiceContext.withValue(request.context) { traced.queue.addOperation(operation) }
        request.end()
        let span = try #require(await traced.finishedSpan(of: operation))
        #expect(span.parentSpanID == nil)
        #expect(span.traceID != request.traceID)
        let links = span.links.filter { $0.attributes.get("opskit.link") == .string("added-from") }
        #expect(links.map { $0.context.inMemorySpanContext?.spanID } == [request.spanID])
    }

    @Test func withoutACurrentContextTheSpanHasNoLink() async throws {
        let traced = TracedQueue()
        let operation = ManualOperation(name: "alone") { $0.finish() }
        traced.queue.addOperation(operation)
        let span = try #require(await traced.finishedSpan(of: operation))
        #expect(span.links.isEmpty)
        #expect(span.parentSpanID == nil)
    }

    @Test func asChildTheSpanIsInTheTraceOfTheContextItWasAddedIn() async throws {
        let traced = TracedQueue(relation: .child)
        let request = traced.tracer.startSpan("request", context: .topLevel)
        let operation = ManualOperation(name: "child") { $0.finish() }
        ServiceContext.withValue(request.context) { traced.queue.addOperation(operation) }
        request.end()
        let span = try #require(await traced.finishedSpan(of: operation))
        #expect(span.parentSpanID == request.spanID)
        #expect(span.traceID == request.traceID)
        #expect(span.links.isEmpty)
    }

    @Test func dependenciesAreLinked() async throws {
        let traced = TracedQueue()
        let first = ManualOperation(name: "first")
        let second = ManualOperation(name: "second") { $0.finish() }
        let third = ManualOperation(name: "third") { $0.finish() }
        third.addDependency(first)
        third.addDependency(second)
        traced.queue.addOperation(first)
        traced.queue.addOperations([third, second], waitUntilFinished: false)  // a dependency later in the batch
        #expect(await first.started())
        first.finish()
        let spans = try #require(await [first, second, third].asyncMap { await traced.finishedSpan(of: $0) })
        let dependencies = spans[2].links.filter { $0.attributes.get("opskit.link") == .string("dependency") }
        #expect(
            Set(dependencies.compactMap { $0.context.inMemorySpanContext?.spanID })
                == [spans[0].spanID, spans[1].spanID])
        #expect(spans[0].links.isEmpty)
    }
}

extension Array {
    /// `map` with an async transform, in order; nil if any result is nil.
    func asyncMap<T>(_ transform: (Element) async -> T?) async -> [T]? {
        var results: [T] = []
        for element in self {
            guard let result = await transform(element) else { return nil }
            results.append(result)
        }
        return results
    }
}

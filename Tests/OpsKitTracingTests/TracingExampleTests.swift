import Foundation
import InMemoryTracing
import OpsKitTesting
import OpsKitTracing
import Testing
import Tracing

/// docs/EMBEDDING.md "Tracing": the example as written there, run with the tests; a test below
/// checks the document still shows these very lines.
struct TracingExampleTests {
    // EMBEDDING begin
    @Test func uploadsAreTraced() async throws {
        let tracer = InMemoryTracer()
        let queue = ObservableOperationQueue(name: "uploads")
        queue.addLifecycleListener(QueueTracer(queueName: "uploads", tracer: tracer))
        let request = tracer.startSpan("POST /photos", context: .topLevel)
        let work = BlockOperation {}  // the upload
        ServiceContext.withValue(request.context) { queue.addOperation(work) }
        request.end()
        #expect(await eventually { tracer.finishedSpans.count == 2 })
        let upload = try #require(tracer.finishedSpans.first { $0.operationName == "BlockOperation" })
        #expect(upload.attributes.get("opskit.operation.outcome") == .string("succeeded"))
        #expect(upload.links.first?.context.inMemorySpanContext?.spanID == request.spanID)
    }
    // EMBEDDING end

    @Test func theDocumentShowsTheseLines() throws {
        let shown = try DocumentedExample.shownLines(in: "docs/EMBEDDING.md", after: "### Testing your tracing")
        let compiled = try DocumentedExample.compiledLines(between: "// EMBEDDING begin\n", and: "// EMBEDDING end")
        #expect(shown.filter { !$0.isEmpty && !$0.hasPrefix("import ") } == compiled.filter { !$0.isEmpty })
        for module in ["InMemoryTracing", "OpsKitTesting", "OpsKitTracing", "Testing", "Tracing"] {
            #expect(shown.contains("import \(module)"), "the docs/EMBEDDING.md example imports \(module)")
        }
    }
}

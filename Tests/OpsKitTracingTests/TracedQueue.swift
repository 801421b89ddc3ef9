import Foundation
import InMemoryTracing
import OpsKitTesting
import Tracing

@testable import OpsKitTracing

/// A queue traced into an in-memory tracer, on a `ManualClock`.
struct TracedQueue {
    let tracer = InMemoryTracer()
    let clock = ManualClock()
    let queue: ObservableOperationQueue
    let queueTracer: QueueTracer

    init(name: String = "uploads", relation: QueueTracer.Relation = .link) {
        queue = ObservableOperationQueue(name: name)
        queueTracer = QueueTracer(queueName: name, tracer: tracer, relation: relation, clock: clock)
        queue.addLifecycleListener(queueTracer)
    }

    /// The finished span named by `operation`'s `opskit.operation.name` attribute.
    func span(of operation: Operation) -> FinishedInMemorySpan? {
        guard let name = operation.name else { return nil }
        return tracer.finishedSpans.first { $0.attributes.get("opskit.operation.name") == .string(name) }
    }

    /// Waits until `operation`'s span has ended, and returns it.
    func finishedSpan(of operation: Operation) async -> FinishedInMemorySpan? {
        guard await eventually({ span(of: operation) != nil }) else { return nil }
        return span(of: operation)
    }
}

extension ManualOperation {
    /// Waits until the queue started it.
    func started() async -> Bool {
        await eventually { isExecuting }
    }
}

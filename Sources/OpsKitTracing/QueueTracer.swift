import Foundation
import OpsKit
import Tracing

/// Traces the operations of an `ObservableOperationQueue` with swift-distributed-tracing: one
/// span per operation, from the moment the queue takes it to its finish.
///
/// Add it as the queue's lifecycle listener (`queue.addLifecycleListener(tracer)`); every
/// operation added from then on is traced, whatever its class. A span is named after the
/// operation's class (`BlockOperation`, `DownloadOperation`: a handful of names, never an id)
/// unless `spanName` says otherwise, and carries the attributes listed in `OperationSpanAttribute`
/// (queue, kind, time waited before start, retries and attempts, outcome). The
/// `ServiceContext` current where the operation was added is linked (`relation: .link`) or is
/// the span's parent (`.child`); each dependency traced by this tracer is linked too. A failure
/// is recorded with `recordError` and an error status, a cancellation as a `cancelled` event.
///
/// Times come from `clock` (inject a `ManualClock` in tests): the span starts at the wall time
/// of the add and its later instants are that plus the time passed on `clock`.
public final class QueueTracer: OperationLifecycleListener {
    /// How an operation's span relates to the context current where the operation was added.
    public enum Relation: Sendable {
        /// A span of its own trace, linked to that context: work that outlives the request
        /// that queued it does not stretch the request's trace (the default).
        case link
        /// A child span of that context, in the same trace.
        case child
    }

    /// One operation being traced.
    private struct Traced {
        var span: any Span
        /// When the queue took it, on `clock` and as wall time (nanoseconds since the epoch).
        var addedAt: Duration
        var addedAtWall: UInt64
        var started = false
    }

    private struct State {
        var traced: [ObjectIdentifier: Traced] = [:]
    }

    /// The value of every span's `opskit.queue` attribute.
    public let queueName: String
    private let tracer: (any Tracer)?
    private let relation: Relation
    private let spanName: (@Sendable (Operation) -> String)?
    private let clock: any SimulationClock
    // Locking: `state` holds the open spans by operation; spans are started, changed and ended
    // outside it (a tracer's own work never runs under this lock).
    private let state = OpsMutex(State())

    /// Traces operations as spans of `tracer` (nil: the tracer `InstrumentationSystem` was
    /// bootstrapped with, read for each operation), named by `spanName` (nil: the operation's
    /// class name; keep names to a few values, as backends index them).
    public init(
        queueName: String, tracer: (any Tracer)? = nil, relation: Relation = .link,
        spanName: (@Sendable (Operation) -> String)? = nil, clock: any SimulationClock = LiveClock()
    ) {
        self.queueName = queueName
        self.tracer = tracer
        self.relation = relation
        self.spanName = spanName
        self.clock = clock
    }

    /// The number of operations whose spans are open.
    package var openSpanCount: Int {
        state.withLock { $0.traced.count }
    }

    // MARK: OperationLifecycleListener

    /// Starts a span for each operation (called on the thread that adds them, where the
    /// `ServiceContext` to link or parent is current).
    public func operationsAdded(_ operations: [Operation]) {
        let added = ServiceContext.current ?? .topLevel
        let tracer = self.tracer ?? InstrumentationSystem.tracer
        let addedAt = clock.now
        let wall = DefaultTracerClock.now
        var spans: [(ObjectIdentifier, Traced, [ObjectIdentifier])] = []
        spans.reserveCapacity(operations.count)
        for operation in operations {
            let span = tracer.startSpan(
                name(of: operation), context: relation == .child ? added : .topLevel, ofKind: .internal, at: wall)
            if relation == .link, !added.isEmpty {
                span.addLink(SpanLink(context: added, attributes: [OperationSpanAttribute.link: "added-from"]))
            }
            span.updateAttributes { attributes in
                attributes[OperationSpanAttribute.queue] = queueName
                if let name = operation.name { attributes[OperationSpanAttribute.name] = name }
                if let reporter = operation.progressReporter {
                    attributes[OperationSpanAttribute.kind] = reporter.kind.rawValue
                }
            }
            let traced = Traced(span: span, addedAt: addedAt, addedAtWall: wall.nanosecondsSinceEpoch)
            spans.append(
                (ObjectIdentifier(operation), traced, operation.currentDependencies.map(ObjectIdentifier.init)))
        }
        // Dependencies added in the same batch are found too: all are booked before the lookup.
        let links = state.withLock { state -> [(any Span, [ServiceContext])] in
            for (id, traced, _) in spans { state.traced[id] = traced }
            return spans.compactMap { _, traced, dependencies in
                guard !dependencies.isEmpty else { return nil }
                return (traced.span, dependencies.compactMap { state.traced[$0]?.span.context })
            }
        }
        for (span, contexts) in links {
            for context in contexts {
                span.addLink(SpanLink(context: context, attributes: [OperationSpanAttribute.link: "dependency"]))
            }
        }
    }

    /// Records how long the operation waited in the queue, and a `started` event.
    public func operationStarted(_ operation: Operation) {
        let now = clock.now
        let id = ObjectIdentifier(operation)
        let traced = state.withLock { state -> Traced? in
            state.traced[id]?.started = true
            return state.traced[id]
        }
        guard let traced else { return }
        let waited = max(.zero, now - traced.addedAt)
        traced.span.attributes[OperationSpanAttribute.waitSeconds] = waited.seconds
        traced.span.addEvent(SpanEvent(name: "started", at: instant(of: traced, at: now)))
    }

    /// Records the outcome (an error, a cancellation) and retries, and ends the span.
    public func operationFinished(_ operation: Operation) {
        let now = clock.now
        let id = ObjectIdentifier(operation)
        guard let traced = state.withLock({ $0.traced.removeValue(forKey: id) }) else { return }
        let span = traced.span
        let end = instant(of: traced, at: now)
        let outcome = Self.outcome(of: operation)
        span.updateAttributes { attributes in
            attributes[OperationSpanAttribute.outcome] = outcome.attributeValue
            if let reporter = operation.progressReporter {
                let retries = reporter.reportedProgress.retries
                attributes[OperationSpanAttribute.retries] = retries
                if traced.started { attributes[OperationSpanAttribute.attempts] = retries + 1 }
            }
        }
        switch outcome {
        case .succeeded:
            break
        case .failed(let error):
            span.recordError(error, attributes: [:], at: end)
            span.setStatus(SpanStatus(code: .error, message: String(describing: error)))
        case .cancelled(let reason):
            var attributes: SpanAttributes = [:]
            if let reason { attributes[OperationSpanAttribute.cancelReason] = reason }
            span.addEvent(SpanEvent(name: "cancelled", at: end, attributes: attributes))
        }
        span.end(at: end)
    }

    // MARK: Helpers

    private func name(of operation: Operation) -> String {
        spanName?(operation) ?? OperationClassName.of(operation)
    }

    /// The wall time `now` (on `clock`) stands for in `traced`'s span.
    private func instant(of traced: Traced, at now: Duration) -> DefaultTracerClock.Timestamp {
        let passed = UInt64(clamping: max(.zero, now - traced.addedAt).nanoseconds)
        return DefaultTracerClock.Timestamp(nanosecondsSinceEpoch: traced.addedAtWall &+ passed)
    }

    /// How `operation` ended: an `AsyncOperation`'s outcome; for another operation, cancelled
    /// or succeeded (Foundation's `Operation` has no failure).
    private static func outcome(of operation: Operation) -> OperationOutcome {
        if let async = operation as? AsyncOperation, let outcome = async.outcome { return outcome }
        return operation.isCancelled ? .cancelled(reason: nil) : .succeeded
    }
}

extension OperationOutcome {
    /// The `opskit.operation.outcome` attribute's value.
    var attributeValue: String {
        switch self {
        case .succeeded: "succeeded"
        case .failed: "failed"
        case .cancelled: "cancelled"
        }
    }
}

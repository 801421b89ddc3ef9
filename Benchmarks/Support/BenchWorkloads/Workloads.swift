// The workloads behind every OpsDash benchmark, shared by the package-benchmark target
// (absolute numbers, malloc counters) and the `Ratios` executable (side-by-side ratios).
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CMallocStats
import Foundation
import OpsDashUIBench
import OpsKit
import OpsKitMetrics
import OpsMetricsServer
import OpsMonitor
import Synchronization

// MARK: Run size

/// How big the runs are: `smoke` for CI (tiny, fast), `full` adds the slow plain-queue sizes.
public enum BenchSize: Sendable {
    case smoke, standard, full

    /// From the environment: OPSDASH_BENCH_SMOKE=1 → smoke, OPSDASH_BENCH_FULL=1 → full.
    public static var fromEnvironment: BenchSize {
        let env = ProcessInfo.processInfo.environment
        if env["OPSDASH_BENCH_SMOKE"] == "1" { return .smoke }
        if env["OPSDASH_BENCH_FULL"] == "1" { return .full }
        return .standard
    }

    public var isSmoke: Bool { self == .smoke }
    /// Operations in the monitoring-overhead workload (item 2).
    public var queueOperations: Int { isSmoke ? 5_000 : 100_000 }
    /// Tracked-operation counts of the frame benchmark (item 3).
    public var frameSizes: [Int] { isSmoke ? [100, 10_000] : [100, 10_000, 100_000] }
    /// Operations whose monitor footprint is measured (item 4).
    public var memoryOperations: Int { isSmoke ? 10_000 : 100_000 }
    /// Operations pushed through a bounded store (item 4).
    public var boundedRunOperations: Int { isSmoke ? 50_000 : 1_000_000 }
    /// Chain lengths on a plain OperationQueue (item 5); measured once each, they are slow.
    public var plainChains: [Int] {
        switch self {
        case .smoke: [500]
        case .standard: [2_000, 5_000, 10_000]
        case .full: [2_000, 5_000, 10_000, 20_000]
        }
    }
    /// Chain lengths on an ObservableOperationQueue (item 5).
    public var observableChains: [Int] { isSmoke ? [500, 2_000] : [2_000, 10_000, 20_000] }
    /// Width of the fan-in (item 5).
    public var fanIn: Int { isSmoke ? 5_000 : 100_000 }
    /// Events per JSON Lines batch (item 7).
    public var jsonEvents: Int { isSmoke ? 20_000 : 200_000 }
}

// MARK: Timing

/// Median and 90th percentile of repeated measurements.
public struct Stats: Sendable {
    public var samples: [Double]
    public init(_ samples: [Double]) { self.samples = samples.sorted() }
    public var median: Double { percentile(0.5) }
    public var p90: Double { percentile(0.9) }
    public func percentile(_ p: Double) -> Double {
        guard !samples.isEmpty else { return .nan }
        let rank = Int((p * Double(samples.count - 1)).rounded(.up))
        return samples[min(samples.count - 1, max(0, rank))]
    }
}

public func seconds(_ duration: Duration) -> Double { duration.seconds }

/// Times `body` once.
@inline(never)
public func time(_ body: () -> Void) -> Double {
    let clock = ContinuousClock()
    return seconds(clock.measure(body))
}

/// CPU time the calling thread spends in `body`, in seconds: unlike wall time, it does not
/// count time the thread waited for a core, so it holds on a busy machine.
@inline(never)
public func threadCPUTime(_ body: () -> Void) -> Double {
    func now() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }
    let start = now()
    body()
    return now() - start
}

/// Prevents the optimiser from dropping a value.
@inline(never)
public func keepAlive<T>(_ value: T) { withExtendedLifetime(value) {} }

// MARK: 1. KVO delivery

/// An observable object with one published Int property, like an OpsKit class declares one.
public final class Gauge: KeyValueObservingPublisher, ListsObservableKeyPaths, Sendable {
    #if !canImport(ObjectiveC)
    public let keyValueObservers = KeyValueObserverRegistry()
    #endif
    let _value = ObservedProperty("value", 0)
    public init() {}
    public var value: Int { _value.value }
    public static var observableKeyPaths: [AnyKeyPath: String] { [\Gauge.value: "value"] }
    @inline(never)
    public func set(_ newValue: Int) { _value.set(newValue, publishingOn: self) }
}

/// The same property with the no-observer check done in this module, before any generic code:
/// what an `@inlinable` fast path in OpsKit would cost a client (measurement only; the check
/// and the store are not atomic together, so this is not a drop-in design).
public final class FastPathGauge: KeyValueObservingPublisher, ListsObservableKeyPaths, Sendable {
    #if !canImport(ObjectiveC)
    public let keyValueObservers = KeyValueObserverRegistry()
    #endif
    let storage = Mutex(0)
    public init() {}
    public var value: Int { storage.withLock { $0 } }
    public static var observableKeyPaths: [AnyKeyPath: String] { [\FastPathGauge.value: "value"] }
    @inline(never)
    public func set(_ newValue: Int) {
        #if !canImport(ObjectiveC)
        if !keyValueObservers.hasObservers {
            storage.withLock { $0 = newValue }
            return
        }
        #endif
        let old = value
        publishChange("value", old: old, new: newValue) { storage.withLock { $0 = newValue } }
    }
}

/// Where handlers put what they receive (one thread only in these loops).
public final class Sink: @unchecked Sendable {
    public var total = 0
    public init() {}
}

/// The baselines: a stored closure called directly, and the same value stored under a Mutex first
/// (what a hand-written "didSet { onChange(new) }" on a thread-safe property costs).
public final class DirectCallback: Sendable {
    let handler: @Sendable (Int) -> Void
    let storage = Mutex(0)
    public init(_ handler: @escaping @Sendable (Int) -> Void) { self.handler = handler }
    @inline(never) public func call(_ value: Int) { handler(value) }
    @inline(never) public func storeAndCall(_ value: Int) {
        storage.withLock { $0 = value }
        handler(value)
    }
    @inline(never) public func store(_ value: Int) { storage.withLock { $0 = value } }
}

public enum KVOBench {
    /// ns per call of a stored closure.
    public static func directClosure(_ iterations: Int) -> Double {
        let sink = Sink()
        let callback = DirectCallback { sink.total &+= $0 }
        let t = time { for i in 0..<iterations { callback.call(i) } }
        keepAlive(sink.total)
        return t / Double(iterations) * 1e9
    }

    /// ns per Mutex store + closure call.
    public static func lockedStoreAndClosure(_ iterations: Int) -> Double {
        let sink = Sink()
        let callback = DirectCallback { sink.total &+= $0 }
        let t = time { for i in 0..<iterations { callback.storeAndCall(i) } }
        keepAlive(sink.total)
        return t / Double(iterations) * 1e9
    }

    /// ns per Mutex store alone (the no-observer baseline).
    public static func lockedStore(_ iterations: Int) -> Double {
        let callback = DirectCallback { _ in }
        let t = time { for i in 0..<iterations { callback.store(i) } }
        return t / Double(iterations) * 1e9
    }

    /// ns per property change delivered to one observer (options [.new]).
    public static func deliveryToOneObserver(_ iterations: Int) -> Double {
        let sink = Sink()
        let gauge = Gauge()
        let token = gauge.observe(\.value, options: [.new]) { _, change in sink.total &+= change.newValue ?? 0 }
        let t = time { for i in 0..<iterations { gauge.set(i) } }
        token.invalidate()
        keepAlive(sink.total)
        return t / Double(iterations) * 1e9
    }

    /// ns per published change with no observer.
    public static func publishWithoutObservers(_ iterations: Int) -> Double {
        let gauge = Gauge()
        let t = time { for i in 0..<iterations { gauge.set(i) } }
        return t / Double(iterations) * 1e9
    }

    /// ns per change with no observer when the check runs specialised in the caller's module.
    public static func publishWithoutObserversFastPath(_ iterations: Int) -> Double {
        let gauge = FastPathGauge()
        let t = time { for i in 0..<iterations { gauge.set(i) } }
        return t / Double(iterations) * 1e9
    }

    /// ns per `observe(\.value, options: [.new])` + `invalidate()` pair, cycling over `pool`
    /// gauges (as a monitor subscribes to many objects, not one).
    public static func observeAndInvalidate(_ iterations: Int, pool: Int = 1_000) -> Double {
        let sink = Sink()
        let gauges = (0..<pool).map { _ in Gauge() }
        let t = time {
            for i in 0..<iterations {
                let token = gauges[i % pool].observe(\.value, options: [.new]) { _, change in
                    sink.total &+= change.newValue ?? 0
                }
                token.invalidate()
            }
        }
        keepAlive(sink.total)
        return t / Double(iterations) * 1e9
    }

    /// malloc bytes (mallinfo2) per live subscription: `count` gauges made first, then one
    /// `observe(\.value, options: [.new])` each, tokens kept in a pre-sized array. The gauges are
    /// kept alive to the end: released early (after their last use), they would take their
    /// registries' entries with them and the figure would count only the tokens.
    public static func bytesPerLiveSubscription(count: Int) -> Double {
        let sink = Sink()
        let gauges = (0..<count).map { _ in Gauge() }
        var tokens: [NSKeyValueObservation] = []
        tokens.reserveCapacity(count)
        let bytes = withExtendedLifetime(gauges) { () -> Int in
            let before = MemoryBench.allocatedBytes()
            for gauge in gauges {
                tokens.append(
                    gauge.observe(\.value, options: [.new]) { _, change in sink.total &+= change.newValue ?? 0 })
            }
            let after = MemoryBench.allocatedBytes()
            for token in tokens { token.invalidate() }
            return after - before
        }
        keepAlive(sink.total)
        return Double(bytes) / Double(count)
    }

    /// Prepared objects for package-benchmark loops.
    public static func makeObservedGauge(sink: Sink) -> (Gauge, NSKeyValueObservation) {
        let gauge = Gauge()
        let token = gauge.observe(\.value, options: [.new]) { _, change in sink.total &+= change.newValue ?? 0 }
        return (gauge, token)
    }
}

// MARK: 2. Monitoring overhead

public enum QueueKind: String, Sendable, CaseIterable {
    case plain = "OperationQueue"
    case observable = "ObservableOperationQueue"
    case monitored = "ObservableOperationQueue + QueueMonitor"

    /// The kind named `plain`, `observable` or `monitored` (for `Ratios --profile-queue=`).
    public static func profileName(_ name: String) -> QueueKind? {
        switch name {
        case "plain": .plain
        case "observable": .observable
        case "monitored": .monitored
        default: nil
        }
    }
}

public enum QueueBench {
    /// Seconds to push `count` small async operations (ClosureOperation, empty block) through
    /// a queue of `kind` and drain it. Operations, queue and monitor are made before timing.
    public static func run(_ kind: QueueKind, count: Int) -> Double {
        runWithCatchUp(kind, count: count).drained
    }

    /// Like `run`; also returns the seconds until the monitor's snapshot held every finish
    /// (drained + the monitor applying what it had not yet; equal to `drained` without one).
    public static func runWithCatchUp(_ kind: QueueKind, count: Int) -> (drained: Double, caughtUp: Double) {
        let operations: [Operation] = (0..<count).map { _ in ClosureOperation {} }
        let queue: OperationQueue
        var monitor: QueueMonitor?
        switch kind {
        case .plain:
            queue = OperationQueue()
        case .observable:
            queue = ObservableOperationQueue()
        case .monitored:
            let observable = ObservableOperationQueue()
            monitor = QueueMonitor(queue: observable, clock: LiveClock())
            queue = observable
        }
        var drained = 0.0
        let caughtUp = time {
            drained = time {
                queue.addOperations(operations, waitUntilFinished: false)
                queue.waitUntilAllOperationsAreFinished()
            }
            if let monitor {
                let snapshot = monitor.snapshot()
                // Counts cover every operation seen, evicted ones included.
                precondition(snapshot.counts.succeeded == count, "monitor saw \(snapshot.counts.succeeded) of \(count)")
            }
        }
        monitor?.stop()
        return (drained, caughtUp)
    }
}

// MARK: 2b. Metrics overhead

public enum MetricsBench {
    /// Seconds to drain `count` small async operations through a monitored queue, with
    /// `QueueMetrics` exporting to a Prometheus registry (updated every second, as opsdash does)
    /// or without; `exported` adds the monitor catching up (it applies changes in batches, behind
    /// the queue) and, with metrics, the final update that exports every finish.
    public static func run(metrics: Bool, count: Int) -> (drained: Double, exported: Double) {
        let operations: [Operation] = (0..<count).map { _ in ClosureOperation {} }
        let queue = ObservableOperationQueue()
        let monitor = QueueMonitor(queue: queue, clock: LiveClock())
        let endpoint = metrics ? PrometheusEndpoint() : nil
        let exporter = endpoint.map { QueueMetrics(monitor: monitor, queueName: "bench", factory: $0.factory) }
        exporter?.start(every: .seconds(1))
        var drained = 0.0
        let exported = time {
            drained = time {
                queue.addOperations(operations, waitUntilFinished: false)
                queue.waitUntilAllOperationsAreFinished()
            }
            _ = monitor.snapshot()
            exporter?.update()
        }
        if let endpoint {
            let text = endpoint.exposition()
            precondition(
                text.contains("opsdash_operations_finished_total{queue=\"bench\",outcome=\"succeeded\"} \(count)"),
                "metrics missed finishes")
        }
        exporter?.stop()
        monitor.stop()
        return (drained, exported)
    }
}

// MARK: 2c. Recording seek

public enum RecordingBench {
    /// Writes a recording of `events` events (operations added → ready → executing → progress
    /// → finished, 10 ms apart, default keyframe policy and store limits) to `path`; returns
    /// its recording time.
    @discardableResult
    public static func write(events: Int, to path: String) throws -> Duration {
        let header = RecordingHeader(app: "bench", queue: "bench", started: "2026-01-01T00:00:00Z", source: "local")
        let writer = try RecordingWriter(path: path, header: header)
        var store = MonitorStore()
        store.recordsEvents = true
        var time = Duration.zero
        for index in 0..<(events / 5) {
            time = .milliseconds(10 * Int64(index + 1))
            let id = store.add(
                name: "op-\(index)", kind: .download, lifecycle: .ready, totalBytes: 1_000, dependencies: [], time: time
            )
            store.transition(id, to: .executing, time: time)
            store.progress(id, completedBytes: 500, bytesPerSecond: 1e5, retries: 0, time: time)
            store.transition(
                id, to: .finished, outcome: index % 13 == 0 ? .failed : .succeeded, message: nil, time: time)
            let events = store.drainEvents()
            try writer.append(events, keyframe: writer.wantsKeyframe(at: time) ? store.snapshot(time: time) : nil)
        }
        writer.close()
        return time
    }

    /// Seconds to show the picture at each of `points` (fractions of the recording): nearest
    /// keyframe + events up to the point + the snapshot a frame is drawn from.
    public static func seek(_ reader: RecordingReader, at fraction: Double) throws -> Double {
        let target = reader.duration * fraction
        var shown = 0
        let seconds = try time {
            let snapshot = try reader.cursor(at: target).builder.snapshot()
            shown = snapshot.counts.total
        }
        precondition(shown > 0 || fraction == 0, "nothing shown at \(fraction)")
        return seconds
    }
}

/// `time` for throwing bodies.
public func time(_ body: () throws -> Void) throws -> Double {
    let start = ContinuousClock.now
    try body()
    return (ContinuousClock.now - start).seconds
}

// MARK: 3. Frame cost

/// A frame pipeline over a synthetic store of `tracked` operations (mix of waiting, ready,
/// executing with progress), as the dashboard runs it.
public final class FrameBench: @unchecked Sendable {
    var store: MonitorStore
    var state: DashboardState
    let renderer = FrameRenderer()
    var tick = 0
    let executingIDs: [Int]

    public init(tracked: Int, width: Int = 200, height: Int = 60) {
        var store = MonitorStore()
        var executing: [Int] = []
        for index in 0..<tracked {
            let lifecycle: Lifecycle = index % 10 == 0 ? .ready : .waiting
            let id = store.add(
                name: "download-\(index).bin", kind: index % 2 == 0 ? .download : .upload, lifecycle: lifecycle,
                totalBytes: 1_000_000, dependencies: index > 0 && lifecycle == .waiting ? [index] : [], time: .zero)
            if index % 100 == 0 {
                store.transition(id, to: .executing, time: .milliseconds(1))
                executing.append(id)
            }
        }
        self.store = store
        self.executingIDs = executing
        self.state = DashboardState(width: width, height: height, glyphs: .unicode)
    }

    /// One frame: one progress change in the store (as between two ticks), then
    /// snapshot + reduce + render + diff, as the dashboard's run loop does them (`FrameRenderer`).
    /// Returns the number of changed runs.
    @inline(never)
    public func frame() -> Int {
        tick += 1
        let time = Duration.milliseconds(tick)
        if !executingIDs.isEmpty {
            let id = executingIDs[tick % executingIDs.count]
            store.progress(id, completedBytes: Int64(tick % 1_000_000), bytesPerSecond: 1e6, retries: 0, time: time)
        }
        let snapshot = store.snapshot(time: time)
        _ = reduce(&state, .tick(snapshot))
        return renderer.frame(for: state).count
    }

    /// Seconds per frame, averaged over `frames` frames.
    public func measure(frames: Int) -> Double {
        var changed = 0
        let t = time { for _ in 0..<frames { changed &+= frame() } }
        keepAlive(changed)
        return t / Double(frames)
    }
}

/// The dashboard's busy frame as operators see it: a 120×40 terminal over a burst-like run with
/// 10 slots, where every frame (20 fps, 50 ms of simulated time) moves the 10 running bars and
/// finishes 2 or 3 operations (50 finishes/s), each replaced by the next ready one. New
/// operations keep coming and the store keeps 2,000 finished ones (plus its eviction slack), so
/// the cost per frame doesn't grow with the length of the run.
public final class BusyFrameBench: @unchecked Sendable {
    var store: MonitorStore
    var state: DashboardState
    let renderer: FrameRenderer
    var running: [Int]
    var nextReady: Int
    var frameNumber = 0
    let total: Int
    let bytes: Int64 = 2_000_000

    public init(operations: Int = 2_000, slots: Int = 10, width: Int = 120, height: Int = 40) {
        var store = MonitorStore(limits: MonitorStore.Limits(finishedOperations: operations))
        for index in 0..<operations {
            _ = store.add(
                name: "chunk-\(index).bin", kind: .download, lifecycle: .ready, totalBytes: bytes,
                dependencies: [], time: .zero)
        }
        store.queueChanged(maxConcurrent: slots, reason: "concurrency limit \(slots)", time: .zero)
        running = Array(1...slots)
        for id in running { store.transition(id, to: .executing, time: .zero) }
        nextReady = slots + 1
        total = operations
        self.store = store
        var state = DashboardState(width: width, height: height, glyphs: .unicode)
        // Sorted by state, running first: the moving bars and the finishes are on screen.
        state.sort = .state
        self.state = state
        self.renderer = FrameRenderer()
    }

    /// One frame: 50 ms of progress on every running operation, 2 or 3 finishes (alternately,
    /// 2.5 per frame = 50/s at 20 fps) replaced by the next ready ones, then snapshot + reduce +
    /// render + diff. Returns the number of changed runs.
    @inline(never)
    public func frame() -> Int {
        frameNumber += 1
        let time = Duration.milliseconds(50 * frameNumber)
        for (slot, id) in running.enumerated() {
            let done = Int64((frameNumber * (slot + 3) * 9_973) % Int(bytes))
            store.progress(
                id, completedBytes: done, bytesPerSecond: Double(1_000_000 + slot * 50_000),
                retries: 0, time: time)
        }
        let finishes = frameNumber % 2 == 0 ? 2 : 3
        for _ in 0..<finishes {
            let slot = (frameNumber * 7 + nextReady) % running.count
            store.transition(running[slot], to: .finished, outcome: .succeeded, time: time)
            if nextReady > total {
                // Start over with fresh operations so the run never ends.
                let id = store.add(
                    name: "chunk-\(nextReady).bin", kind: .download, lifecycle: .ready,
                    totalBytes: bytes, dependencies: [], time: time)
                nextReady = id
            }
            store.transition(nextReady, to: .executing, time: time)
            running[slot] = nextReady
            nextReady += 1
        }
        let snapshot = store.snapshot(time: time)
        _ = reduce(&state, .tick(snapshot))
        return renderer.frame(for: state).count
    }

    /// Seconds per frame, averaged over `frames` frames.
    public func measure(frames: Int) -> Double {
        var changed = 0
        let t = time { for _ in 0..<frames { changed &+= frame() } }
        keepAlive(changed)
        return t / Double(frames)
    }

    /// Main-thread CPU seconds per frame, averaged over `frames` frames.
    public func measureCPU(frames: Int) -> Double {
        var changed = 0
        let t = threadCPUTime { for _ in 0..<frames { changed &+= frame() } }
        keepAlive(changed)
        return t / Double(frames)
    }
}

// MARK: 4. Memory

public enum MemoryBench {
    /// Bytes currently allocated through malloc (glibc mallinfo2().uordblks).
    public static func allocatedBytes() -> Int {
        Int(opsdash_malloc_allocated_bytes())
    }

    /// Monitor bytes per tracked operation: a suspended ObservableOperationQueue holding `count`
    /// operations, measured before and after a QueueMonitor attaches and tracks them all
    /// (store entry + KVO subscriptions + bookkeeping).
    public static func monitorBytesPerOperation(count: Int) -> Double {
        let queue = ObservableOperationQueue()
        queue.isSuspended = true
        let operations = (0..<count).map { _ in ClosureOperation {} }
        queue.addOperations(operations, waitUntilFinished: false)
        let before = allocatedBytes()
        let monitor = QueueMonitor(queue: queue, clock: LiveClock())
        let after = allocatedBytes()
        precondition(monitor.subscribedOperationCount == count)
        monitor.stop()
        queue.cancelAllOperations()
        queue.isSuspended = false
        queue.waitUntilAllOperationsAreFinished()
        return Double(after - before) / Double(count)
    }

    /// MonitorStore bytes per operation: `count` operations added (ready) to a store.
    public static func storeBytesPerOperation(count: Int) -> Double {
        let before = allocatedBytes()
        var store = MonitorStore()
        for _ in 0..<count {
            _ = store.add(name: nil, kind: .other, lifecycle: .ready, totalBytes: 0, dependencies: [], time: .zero)
        }
        let after = allocatedBytes()
        keepAlive(store)
        return Double(after - before) / Double(count)
    }

    /// Peak extra bytes while `count` operations go added → executing → finished through a store
    /// with default (bounded) limits, sampled every 10,000 operations.
    public static func boundedRunPeakBytes(count: Int) -> (peak: Int, final: Int) {
        let before = allocatedBytes()
        var store = MonitorStore()
        var peak = 0
        for index in 0..<count {
            let id = store.add(name: nil, kind: .other, lifecycle: .ready, totalBytes: 0, dependencies: [], time: .zero)
            store.transition(id, to: .executing, time: .milliseconds(index))
            store.transition(id, to: .finished, outcome: .succeeded, time: .milliseconds(index + 1))
            if index % 10_000 == 0 { peak = max(peak, allocatedBytes() - before) }
        }
        let final = allocatedBytes() - before
        keepAlive(store)
        return (max(peak, final), final)
    }
}

// MARK: 5. Dependency-heavy queues

public enum ChainBench {
    /// Seconds to drain a chain of `length` operations, each depending on the previous one.
    public static func chain(length: Int, observable: Bool) -> Double {
        var operations: [ClosureOperation] = []
        operations.reserveCapacity(length)
        for index in 0..<length {
            let op = ClosureOperation {}
            if index > 0 { op.addDependency(operations[index - 1]) }
            operations.append(op)
        }
        let queue = observable ? ObservableOperationQueue() : OperationQueue()
        let t = time {
            queue.addOperations(operations, waitUntilFinished: false)
            queue.waitUntilAllOperationsAreFinished()
        }
        precondition(operations.allSatisfy(\.isFinished))
        return t
    }

    /// Seconds to drain `width` independent operations plus one that depends on all of them.
    public static func fanIn(width: Int, observable: Bool) -> Double {
        let sources = (0..<width).map { _ in ClosureOperation {} }
        let sink = ClosureOperation {}
        for source in sources { sink.addDependency(source) }
        let queue = observable ? ObservableOperationQueue() : OperationQueue()
        let t = time {
            queue.addOperations(sources + [sink], waitUntilFinished: false)
            queue.waitUntilAllOperationsAreFinished()
        }
        precondition(sink.isFinished)
        return t
    }
}

// MARK: 7. Headless throughput

public enum JSONLinesBench {
    /// A realistic event stream: per operation added, waiting→ready, ready→executing, three
    /// progress events (300 ms apart, so none is coalesced), executing→finished.
    public static func events(count: Int) -> [MonitorEvent] {
        var events: [MonitorEvent] = []
        events.reserveCapacity(count)
        var id = 0
        var ms = 0
        while events.count < count {
            id += 1
            ms += 1
            let t = Duration.milliseconds(ms)
            events.append(
                .added(
                    time: t, id: id, name: "download-\(id).bin", kind: .download, totalBytes: 4_000_000,
                    dependencies: id > 1 ? [id - 1] : []))
            events.append(.state(time: t, id: id, from: nil, to: .waiting, outcome: nil, message: nil))
            events.append(.state(time: t, id: id, from: .waiting, to: .ready, outcome: nil, message: nil))
            events.append(.state(time: t, id: id, from: .ready, to: .executing, outcome: nil, message: nil))
            for step in 1...3 {
                events.append(
                    .progress(
                        time: t + .milliseconds(300 * step), id: id, completedBytes: Int64(step) * 1_000_000,
                        totalBytes: 4_000_000, bytesPerSecond: 3_333_333.3, retries: 0))
            }
            events.append(
                .state(
                    time: t + .seconds(1), id: id, from: .executing, to: .finished, outcome: .succeeded, message: nil))
        }
        return Array(events.prefix(count))
    }

    /// Encodes `events` as JSON Lines and writes them to `fd` in 64 KiB batches; returns seconds.
    public static func encodeAndWrite(_ events: [MonitorEvent], fd: Int32) -> Double {
        var encoder = JSONLinesEncoder()
        var output = ""
        output.reserveCapacity(80_000)
        return time {
            for event in events {
                encoder.encode(event, into: &output)
                if output.utf8.count >= 65_536 { flush(&output, fd: fd) }
            }
            flush(&output, fd: fd)
        }
    }

    static func flush(_ output: inout String, fd: Int32) {
        output.withUTF8 { bytes in
            guard let base = bytes.baseAddress else { return }
            var offset = 0
            while offset < bytes.count {
                let written = write(fd, base + offset, bytes.count - offset)
                if written <= 0 { break }
                offset += written
            }
        }
        output.removeAll(keepingCapacity: true)
    }

    public static func openDevNull() -> Int32 { open("/dev/null", O_WRONLY) }
}

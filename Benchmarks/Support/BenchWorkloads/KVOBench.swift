import Foundation
import OpsKit
import OpsMonitor
import Synchronization

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
